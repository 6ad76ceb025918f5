//! One game between two engine processes, refereed by the rules library: every answer
//! is checked, timed and either played or adjudicated as a loss.

use std::time::{Duration, Instant};

use yinsh::notation::record::{GameResult, Record, TimeControl, Termination};
use yinsh::{Action, ByColor, Color, Position, Rules, Variant};

use super::process::{EngineProcess, Reply};

/// How the engines are timed.
#[derive(Debug, Clone, Copy)]
pub enum Timing {
    /// `go movetime`: each decision gets `movetime`; an answer later than
    /// `movetime + grace` loses on time.
    MoveTime {
        /// Time per decision.
        movetime: Duration,
        /// Extra time allowed before the loss on time.
        grace: Duration,
    },
    /// Real clocks: `go wtime … btime … winc … binc …`; the thinking time of each
    /// decision is taken off the mover's clock, the increment is added after each
    /// completed turn, and a clock below zero loses.
    Clock(TimeControl),
}

/// What every game of a match shares.
#[derive(Debug, Clone)]
pub struct MatchSettings {
    /// The two engine commands (engine 1, engine 2).
    pub engines: [String; 2],
    /// The variant played.
    pub variant: Variant,
    /// How the engines are timed.
    pub timing: Timing,
    /// How long an engine may take to answer `isready` at the start of a game.
    pub ready_timeout: Duration,
    /// The date written into the records (`YYYY.MM.DD`).
    pub date: String,
}

/// One game to play.
#[derive(Debug, Clone)]
pub struct GameSpec {
    /// Its number in the match, from 1.
    pub number: usize,
    /// The ring placements played before the engines take over.
    pub opening: Vec<Action>,
    /// Whether engine 1 plays White.
    pub first_is_white: bool,
}

/// A finished game.
#[derive(Debug, Clone)]
pub struct Played {
    /// Its number in the match.
    pub number: usize,
    /// The record, ready to be written.
    pub record: Record,
    /// Engine 1's points: 1, ½ or 0.
    pub first_points: f64,
    /// Why the game was adjudicated, if it did not end on the board.
    pub adjudication: Option<String>,
}

/// Why an engine lost off the board.
struct Forfeit {
    loser: Color,
    termination: Termination,
    reason: String,
}

impl Forfeit {
    fn new(loser: Color, termination: Termination, reason: String) -> Forfeit {
        Forfeit {
            loser,
            termination,
            reason,
        }
    }
}

/// The engine's command line for `newgame`.
fn newgame_command(rules: Rules) -> String {
    let variant = if rules.targets.white == 1 && rules.targets.black == 1 {
        Variant::Blitz
    } else {
        Variant::Standard
    };
    format!("newgame {variant}")
}

/// Starts an engine and waits for its `readyok` after `newgame`.
fn start(command: &str, rules: Rules, deadline: Instant) -> Result<EngineProcess, String> {
    let mut engine =
        EngineProcess::spawn(command).map_err(|e| format!("the engine did not start: {e}"))?;
    engine
        .send(&newgame_command(rules))
        .and_then(|()| engine.send("isready"))
        .map_err(|_| "the engine exited at startup".to_owned())?;
    match engine.wait_for(deadline, |line| line == "readyok") {
        Reply::Line(_) => Ok(engine),
        Reply::Timeout => Err("no readyok in time".to_owned()),
        Reply::Closed => Err("the engine exited at startup".to_owned()),
    }
}

/// Plays one game and returns its record.
pub fn play(settings: &MatchSettings, spec: &GameSpec) -> Played {
    let rules = Rules::of(settings.variant);
    let commands = if spec.first_is_white {
        ByColor {
            white: settings.engines[0].as_str(),
            black: settings.engines[1].as_str(),
        }
    } else {
        ByColor {
            white: settings.engines[1].as_str(),
            black: settings.engines[0].as_str(),
        }
    };
    let mut pos = Position::with_rules(rules);
    let mut actions = Vec::new();
    for &action in &spec.opening {
        if pos.play(action).is_ok() {
            actions.push(action);
        }
    }

    let result = match start_both(&commands, rules, settings.ready_timeout) {
        Ok(mut engines) => {
            let end = referee(settings, &mut engines, &mut pos, &mut actions);
            for (_, engine) in [(Color::White, engines.white), (Color::Black, engines.black)] {
                engine.shutdown();
            }
            end
        }
        Err(end) => end,
    };
    let (game_result, adjudication) = match result {
        Ok(()) => {
            let outcome = pos.outcome().expect("the referee returns at the end");
            (GameResult::from(outcome), None)
        }
        Err(Some(forfeit)) => (
            GameResult {
                winner: Some(!forfeit.loser),
                termination: forfeit.termination,
            },
            Some(format!("{} forfeits: {}", forfeit.loser, forfeit.reason)),
        ),
        Err(None) => (
            GameResult {
                winner: None,
                termination: Termination::Abandoned,
            },
            Some("neither engine answered at startup".to_owned()),
        ),
    };

    let time_control = match settings.timing {
        Timing::Clock(tc) => Some(tc),
        Timing::MoveTime { .. } => None,
    };
    let opening = spec
        .opening
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    let mut record = Record::new(rules)
        .with_players(commands.white, commands.black)
        .with_date(settings.date.clone())
        .with_time_control(time_control)
        .with_result(Some(game_result))
        .with_actions(actions)
        .with_header("Event", "yinsh arena")
        .with_header("Round", spec.number.to_string());
    if let Timing::MoveTime { movetime, .. } = settings.timing {
        record = record.with_header("MoveTime", format!("{}ms", movetime.as_millis()));
    }
    if !opening.is_empty() {
        record = record.with_header("Opening", opening);
    }
    if let Some(reason) = &adjudication {
        record = record.with_header("Adjudication", reason.clone());
    }
    let first = if spec.first_is_white {
        Color::White
    } else {
        Color::Black
    };
    let first_points = match game_result.winner {
        Some(winner) if winner == first => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    Played {
        number: spec.number,
        record,
        first_points,
        adjudication,
    }
}

/// The game's end before any move: `Err(Some(forfeit))` when one engine failed to start,
/// `Err(None)` when both did.
type StartEnd = Result<(), Option<Forfeit>>;

/// Starts both engines; a failure is the end of the game.
fn start_both(
    commands: &ByColor<&str>,
    rules: Rules,
    ready_timeout: Duration,
) -> Result<ByColor<EngineProcess>, StartEnd> {
    let deadline = Instant::now() + ready_timeout;
    // Started one after the other but waited for under one deadline: a slow engine does
    // not eat into the other's time.
    let (white, black) = std::thread::scope(|scope| {
        let white = scope.spawn(|| start(commands.white, rules, deadline));
        let black = start(commands.black, rules, deadline);
        (white.join().expect("no panic at startup"), black)
    });
    match (white, black) {
        (Ok(white), Ok(black)) => Ok(ByColor { white, black }),
        (Err(reason), Ok(_)) => Err(Err(Some(Forfeit::new(
            Color::White,
            Termination::Abandoned,
            reason,
        )))),
        (Ok(_), Err(reason)) => Err(Err(Some(Forfeit::new(
            Color::Black,
            Termination::Abandoned,
            reason,
        )))),
        (Err(_), Err(_)) => Err(Err(None)),
    }
}

/// Milliseconds of a duration, for the protocol.
fn ms(d: Duration) -> u128 {
    d.as_millis()
}

/// Asks the engines for actions until the game ends on the board (`Ok`) or an engine
/// forfeits.
fn referee(
    settings: &MatchSettings,
    engines: &mut ByColor<EngineProcess>,
    pos: &mut Position,
    actions: &mut Vec<Action>,
) -> StartEnd {
    let (mut clocks, increment) = match settings.timing {
        Timing::Clock(tc) => {
            let initial = Duration::from_secs(u64::from(tc.initial_secs));
            (
                ByColor {
                    white: initial,
                    black: initial,
                },
                Duration::from_secs(u64::from(tc.increment_secs)),
            )
        }
        Timing::MoveTime { .. } => (ByColor::default(), Duration::ZERO),
    };
    while !pos.is_over() {
        let me = pos.turn();
        let engine = &mut engines[me];
        let moves = actions
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        let position = if moves.is_empty() {
            "position startpos".to_owned()
        } else {
            format!("position startpos moves {moves}")
        };
        let (go, allowed) = match settings.timing {
            Timing::MoveTime { movetime, grace } => {
                (format!("go movetime {}", ms(movetime)), movetime + grace)
            }
            Timing::Clock(_) => (
                format!(
                    "go wtime {} btime {} winc {} binc {}",
                    ms(clocks.white),
                    ms(clocks.black),
                    ms(increment),
                    ms(increment)
                ),
                clocks[me],
            ),
        };
        let crashed = || {
            Err(Some(Forfeit::new(
                me,
                Termination::Abandoned,
                "the engine exited (crash)".to_owned(),
            )))
        };
        if engine
            .send(&position)
            .and_then(|()| engine.send(&go))
            .is_err()
        {
            return crashed();
        }
        let asked = Instant::now();
        let reply = engine.wait_for(asked + allowed, |line| {
            line.split_whitespace().next() == Some("bestmove")
        });
        let elapsed = asked.elapsed();
        let line = match reply {
            Reply::Line(line) => line,
            Reply::Closed => return crashed(),
            Reply::Timeout => return Err(Some(time_forfeit(settings.timing, me, elapsed))),
        };
        if elapsed > allowed {
            return Err(Some(time_forfeit(settings.timing, me, elapsed)));
        }
        let token = line.split_whitespace().nth(1).unwrap_or("");
        let action: Action = match token.parse() {
            Ok(action) => action,
            Err(_) => {
                return Err(Some(Forfeit::new(
                    me,
                    Termination::Abandoned,
                    format!("malformed bestmove '{}'", line.trim()),
                )));
            }
        };
        if let Err(illegal) = pos.play(action) {
            return Err(Some(Forfeit::new(
                me,
                Termination::Abandoned,
                format!("illegal move '{action}' ({})", illegal.reason),
            )));
        }
        actions.push(action);
        if let Timing::Clock(_) = settings.timing {
            clocks[me] = clocks[me].saturating_sub(elapsed);
            // The turn is over when the other player acts next (RULES.md R5: removals
            // before one's own ring move belong to one's turn).
            if pos.turn() != me || pos.is_over() {
                clocks[me] += increment;
            }
        }
    }
    Ok(())
}

/// The loss on time of `loser`, who thought for `elapsed`.
fn time_forfeit(timing: Timing, loser: Color, elapsed: Duration) -> Forfeit {
    let reason = match timing {
        Timing::MoveTime { movetime, grace } => format!(
            "time: no bestmove within {} ms ({} ms movetime + {} ms grace)",
            ms(movetime + grace),
            ms(movetime),
            ms(grace)
        ),
        Timing::Clock(_) => format!(
            "time: the clock ran out (thought {} ms)",
            ms(elapsed)
        ),
    };
    Forfeit::new(loser, Termination::Time, reason)
}
