//! One game between two engine processes, refereed by the rules library: every answer
//! is checked, timed and either played or adjudicated as a loss.

use std::time::{Duration, Instant};

use yinsh::notation::record::{GameResult, Record, Termination, TimeControl};
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
pub(crate) fn newgame_command(rules: Rules) -> String {
    let variant = if rules.targets.white == 1 && rules.targets.black == 1 {
        Variant::Blitz
    } else {
        Variant::Standard
    };
    format!("newgame {variant}")
}

/// Whether `line` is a `bestmove` reply.
pub(crate) fn is_bestmove(line: &str) -> bool {
    line.split_whitespace().next() == Some("bestmove")
}

/// Why an engine could not start a game.
struct StartFailure {
    /// Whether the process ended (a wrong command, a crash) rather than misbehaved.
    exited: bool,
    reason: String,
}

impl StartFailure {
    fn exited(engine: &mut EngineProcess) -> StartFailure {
        let reason = match engine.exit_status(Duration::from_millis(200)) {
            Some(status) => format!("the engine exited at startup ({status})"),
            None => "the engine closed its output at startup".to_owned(),
        };
        StartFailure {
            exited: true,
            reason,
        }
    }

    fn misbehaved(reason: String) -> StartFailure {
        StartFailure {
            exited: false,
            reason,
        }
    }
}

/// Starts an engine and waits for its `readyok` after `newgame`.
fn start(command: &str, rules: Rules, deadline: Instant) -> Result<EngineProcess, StartFailure> {
    let mut engine = EngineProcess::spawn(command).map_err(|e| StartFailure {
        exited: true,
        reason: format!("the engine did not start: {e}"),
    })?;
    if engine
        .send(&newgame_command(rules))
        .and_then(|()| engine.send("isready"))
        .is_err()
    {
        return Err(StartFailure::exited(&mut engine));
    }
    // A `bestmove` before any `go` is a broken engine: no need to wait for the deadline.
    let answer = |line: &str| line == "readyok" || is_bestmove(line);
    match engine.wait_for(deadline, answer) {
        Reply::Line(line) if line == "readyok" => Ok(engine),
        Reply::Line(line) => Err(StartFailure::misbehaved(format!("'{line}' before any go"))),
        Reply::Timeout => Err(StartFailure::misbehaved("no readyok in time".to_owned())),
        Reply::Closed => Err(StartFailure::exited(&mut engine)),
    }
}

/// Starts `command` once before a match and stops it again. An engine that exits
/// instead of answering `isready` is an error (most likely a wrong command), returned
/// as its reason; one that answers badly or not in time is left to the games, which it
/// loses.
pub fn probe(command: &str, rules: Rules, ready_timeout: Duration) -> Result<(), String> {
    match start(command, rules, Instant::now() + ready_timeout) {
        Ok(engine) => {
            engine.shutdown();
            Ok(())
        }
        Err(failure) if failure.exited => Err(failure.reason),
        Err(_) => Ok(()),
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
            engines.white.shutdown();
            engines.black.shutdown();
            end
        }
        Err(end) => end,
    };
    let (game_result, adjudication) = match result {
        End::Board => {
            let outcome = pos.outcome().expect("the referee returns at the end");
            (GameResult::from(outcome), None)
        }
        End::Forfeit(forfeit) => (
            GameResult {
                winner: Some(!forfeit.loser),
                termination: forfeit.termination,
            },
            Some(format!(
                "{} (engine {}) forfeits: {}",
                forfeit.loser,
                if (forfeit.loser == Color::White) == spec.first_is_white {
                    1
                } else {
                    2
                },
                forfeit.reason
            )),
        ),
        End::NoStart => (
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

/// How a game ended.
enum End {
    /// On the board.
    Board,
    /// An engine lost off the board.
    Forfeit(Forfeit),
    /// Neither engine started.
    NoStart,
}

/// Starts both engines; a failure is the end of the game.
fn start_both(
    commands: &ByColor<&str>,
    rules: Rules,
    ready_timeout: Duration,
) -> Result<ByColor<EngineProcess>, End> {
    let deadline = Instant::now() + ready_timeout;
    // Both start at once, under one deadline.
    let (white, black) = std::thread::scope(|scope| {
        let white = scope.spawn(|| start(commands.white, rules, deadline));
        let black = start(commands.black, rules, deadline);
        (white.join().expect("no panic at startup"), black)
    });
    match (white, black) {
        (Ok(white), Ok(black)) => Ok(ByColor { white, black }),
        (Err(failure), Ok(_)) => Err(End::Forfeit(Forfeit::new(
            Color::White,
            Termination::Abandoned,
            failure.reason,
        ))),
        (Ok(_), Err(failure)) => Err(End::Forfeit(Forfeit::new(
            Color::Black,
            Termination::Abandoned,
            failure.reason,
        ))),
        (Err(_), Err(_)) => Err(End::NoStart),
    }
}

/// Milliseconds of a duration, for the protocol.
fn ms(d: Duration) -> u128 {
    d.as_millis()
}

/// Asks the engines for actions until the game ends on the board or an engine
/// forfeits.
fn referee(
    settings: &MatchSettings,
    engines: &mut ByColor<EngineProcess>,
    pos: &mut Position,
    actions: &mut Vec<Action>,
) -> End {
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
        if engine
            .send(&position)
            .and_then(|()| engine.send(&go))
            .is_err()
        {
            return End::Forfeit(crashed(me, engine));
        }
        let asked = Instant::now();
        let reply = engine.wait_for(asked + allowed, is_bestmove);
        let elapsed = asked.elapsed();
        let line = match reply {
            Reply::Line(line) => line,
            Reply::Closed => return End::Forfeit(crashed(me, engine)),
            Reply::Timeout => return End::Forfeit(time_forfeit(settings.timing, me, elapsed)),
        };
        if elapsed > allowed {
            return End::Forfeit(time_forfeit(settings.timing, me, elapsed));
        }
        let token = line.split_whitespace().nth(1).unwrap_or("");
        let action: Action = match token.parse() {
            Ok(action) => action,
            Err(_) => {
                return End::Forfeit(Forfeit::new(
                    me,
                    Termination::Abandoned,
                    format!("malformed bestmove '{}'", line.trim()),
                ));
            }
        };
        if let Err(illegal) = pos.play(action) {
            return End::Forfeit(Forfeit::new(
                me,
                Termination::Abandoned,
                format!("illegal move '{action}' ({})", illegal.reason),
            ));
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
    End::Board
}

/// The loss of `loser`, whose engine is gone.
fn crashed(loser: Color, engine: &mut EngineProcess) -> Forfeit {
    let reason = match engine.exit_status(Duration::from_millis(200)) {
        Some(status) => format!("the engine exited ({status})"),
        None => "the engine closed its output".to_owned(),
    };
    Forfeit::new(loser, Termination::Abandoned, reason)
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
        Timing::Clock(_) => format!("time: the clock ran out (thought {} ms)", ms(elapsed)),
    };
    Forfeit::new(loser, Termination::Time, reason)
}
