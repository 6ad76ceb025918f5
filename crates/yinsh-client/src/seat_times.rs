//! `yinsh seat-times`: how long a server's engine seat takes over its decisions in real
//! games. A scripted opponent (the engine of this project at a fixed time a decision,
//! in this process) sits at a table of a running server, seats the engine at a level,
//! plays whole games against it and times every one of the seat's decisions on the
//! wall clock: from the event that gave the seat its turn to the event of its action.
//! docs/engine.md ("Against people") has the figures it gave.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use yinsh::{Color, Position};
use yinsh_engine::search::Searcher;
use yinsh_engine::{Engine, Limits};

use yinsh_server::protocol::{
    Command, Request, SeatColor, ServerMessage, TableEvent, TableOptions, TimeSetting,
};

use crate::load::{Percentiles, call, create_and_open};
use crate::ws::Connect;

/// What to measure.
#[derive(Debug, Clone)]
pub struct SeatConfig {
    /// The server's address (host:port).
    pub addr: String,
    /// The engine seat's level.
    pub level: u8,
    /// The clocks; untimed when absent.
    pub time: Option<TimeSetting>,
    /// Whether the table asks for the engine at full strength.
    pub full: bool,
    /// Games to play; the engine plays white in the first, black in the second, …
    pub games: usize,
    /// The scripted opponent's level and time a decision.
    pub opponent_level: u8,
    /// The scripted opponent's time a decision.
    pub opponent_time: Duration,
}

/// One game's figures.
#[derive(Debug, Clone)]
pub struct SeatGame {
    /// The engine's colour.
    pub engine: SeatColor,
    /// Each of the engine's decisions, in order.
    pub decisions: Vec<Duration>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub score: String,
    /// How the game ended (`target reached`, `time`, …).
    pub termination: String,
    /// The engine's clock at the end, in a timed game.
    pub engine_left: Option<Duration>,
}

impl SeatGame {
    /// Whether the engine lost on time.
    pub fn engine_lost_on_time(&self) -> bool {
        let engine_lost = match self.engine {
            SeatColor::White => self.score == "0-1",
            SeatColor::Black => self.score == "1-0",
        };
        engine_lost && self.termination == "time"
    }
}

/// The percentiles of decision times, as [`Percentiles`] gives them, plus the 90th.
pub fn summary(decisions: &[Duration]) -> (Percentiles, Duration) {
    let mut micros: Vec<u64> = decisions.iter().map(|d| d.as_micros() as u64).collect();
    // Sorted once here; `Percentiles::of` finds it sorted.
    micros.sort_unstable();
    let p90 = micros
        .get(((micros.len().max(1) - 1) as f64 * 0.9).round() as usize)
        .map_or(Duration::ZERO, |&us| Duration::from_micros(us));
    (Percentiles::of(micros), p90)
}

/// Plays `config.games` games and returns each one's figures, calling `progress` after
/// each game.
pub async fn run(
    config: &SeatConfig,
    mut progress: impl FnMut(&SeatGame),
) -> anyhow::Result<Vec<SeatGame>> {
    let mut games = Vec::new();
    for g in 0..config.games {
        let engine = if g % 2 == 0 {
            SeatColor::White
        } else {
            SeatColor::Black
        };
        let game = play_one(config, engine)
            .await
            .with_context(|| format!("game {}", g + 1))?;
        progress(&game);
        games.push(game);
    }
    Ok(games)
}

async fn play_one(config: &SeatConfig, engine: SeatColor) -> anyhow::Result<SeatGame> {
    let mut ws = Connect::to(&config.addr).open().await?;
    let mut seen = Vec::new();
    let options = TableOptions {
        time: config.time,
        log: false,
        engine_full: config.full,
        ..TableOptions::default()
    };
    let table = create_and_open(&mut ws, options, &mut seen).await?;
    let me = match engine {
        SeatColor::White => SeatColor::Black,
        SeatColor::Black => SeatColor::White,
    };
    let command = |command| Request::Command {
        table: table.clone(),
        command,
    };
    call(
        &mut ws,
        command(Command::Join { color: Some(me) }),
        &mut seen,
    )
    .await?;
    let bot = Command::Bot {
        level: Some(config.level),
    };
    call(&mut ws, command(bot), &mut seen).await?;
    // The engine's first turn may begin as soon as the game starts: the clock of its
    // decision starts before `/start` is even answered.
    let mut turn_began = Some(Instant::now()).filter(|_| engine == SeatColor::White);
    ws.send(command(Command::Start)).await?;
    let mut opponent = Searcher::with_hash_size(16);
    opponent.set_threads(1);
    opponent.set_level(config.opponent_level);
    let engine_color = match engine {
        SeatColor::White => Color::White,
        SeatColor::Black => Color::Black,
    };
    let mut decisions = Vec::new();
    let mut position: Option<Position> = None;
    let mut plies = 0u32;
    loop {
        let msg = ws.recv().await?;
        match msg {
            ServerMessage::Error { text, .. } => bail!("refused: {text}"),
            ServerMessage::Event {
                event,
                game,
                clocks,
                ..
            } => {
                if let TableEvent::GameOver { result } = &event {
                    let clocks = clocks.or(game.as_ref().and_then(|g| g.clocks));
                    let engine_left = clocks.map(|c| {
                        Duration::from_millis(match engine {
                            SeatColor::White => c.white_ms,
                            SeatColor::Black => c.black_ms,
                        })
                    });
                    return Ok(SeatGame {
                        engine,
                        decisions,
                        score: result.score.as_str().to_owned(),
                        termination: result.termination.as_str().to_owned(),
                        engine_left,
                    });
                }
                let now = Instant::now();
                let fen = match (&event, &game) {
                    (
                        TableEvent::Acted {
                            color,
                            position,
                            ply,
                            ..
                        },
                        _,
                    ) => {
                        plies = *ply;
                        if *color == engine
                            && let Some(began) = turn_began.take()
                        {
                            decisions.push(now - began);
                        }
                        Some(position.clone())
                    }
                    (_, Some(g)) => {
                        plies = g.moves.len() as u32;
                        Some(g.position.clone())
                    }
                    _ => None,
                };
                if let Some(fen) = fen {
                    let pos = Position::from_fen(&fen).map_err(|e| {
                        anyhow::anyhow!("the server sent a bad position {fen}: {e}")
                    })?;
                    if pos.outcome().is_none() && pos.turn() == engine_color {
                        turn_began.get_or_insert(now);
                    }
                    position = Some(pos);
                }
            }
            ServerMessage::Legal { actions, .. } => {
                let Some(pos) = position else {
                    bail!("legal actions before any position");
                };
                let limits = Limits {
                    movetime: Some(config.opponent_time),
                    ..Limits::default()
                };
                let (back, best) = tokio::task::spawn_blocking(move || {
                    let best = opponent.search(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
                    (opponent, best.best)
                })
                .await?;
                opponent = back;
                let token = best.to_string();
                if !actions.contains(&token) {
                    bail!("the server does not list {token} among the legal actions");
                }
                let act = Request::Act {
                    table: table.clone(),
                    action: token,
                    ply: Some(plies),
                };
                ws.send(act).await?;
            }
            _ => {}
        }
    }
}
