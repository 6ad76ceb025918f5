//! `yinsh bot`: connects any program speaking the engine protocol (docs/protocol.md,
//! "Engine protocol") to a server's bot API, as lichess-bot does for chess engines.
//! It follows the account's events, accepts the challenges its rules allow (and
//! declines the others), plays each game it is in — the position kept from the server's
//! own list of actions, the engine asked with the clocks as the server gives them, less
//! a margin for the way there — and reconnects after network errors.
//!
//! The bridge never plays an illegal action: the engine's answer is checked against the
//! rules library (an engine that answers badly or late is replaced by the first legal
//! action, as for engine seats: `external.rs`), and the server checks every action
//! again.

use std::collections::HashSet;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use serde_json::Value;
use yinsh::{Action, Color, Position, Rules, Variant};
use yinsh_engine::{Clock, Engine, Limits};

use super::external::ExternalEngine;
use yinsh_client::http::{Lines, authority, get_json, post_form};

/// Which challenges to take by how they are rated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AcceptRated {
    /// Casual and rated games.
    All,
    /// Casual games only.
    Casual,
    /// Rated games only.
    Rated,
    /// None: decline every challenge (the bot then plays only its own).
    None,
}

/// Arguments of `yinsh bot`.
#[derive(Debug, Args)]
pub struct BotArgs {
    /// The server, `http://host:port`.
    #[arg(long, value_name = "URL")]
    server: String,
    /// The bot account's API token (scope `bot:play`; the account upgraded with
    /// `POST /api/bot/account/upgrade`).
    #[arg(long, env = "YINSH_BOT_TOKEN", value_name = "TOKEN")]
    token: String,
    /// The engine program, speaking the engine protocol (run through `sh -c`), e.g.
    /// `"yinsh engine"`.
    #[arg(long, value_name = "COMMAND")]
    engine: String,
    /// Which challenges to accept by rating.
    #[arg(long, value_enum, default_value_t = AcceptRated::All)]
    accept: AcceptRated,
    /// The variants to accept, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = ["standard".to_owned(), "blitz".to_owned()])]
    variants: Vec<String>,
    /// Accept untimed games too.
    #[arg(long)]
    untimed: bool,
    /// The shortest clock to accept, in minutes.
    #[arg(long, default_value_t = 1, value_name = "MINUTES")]
    min_minutes: u32,
    /// The longest clock to accept, in minutes.
    #[arg(long, default_value_t = 180, value_name = "MINUTES")]
    max_minutes: u32,
    /// Games played at once; more challenges are declined meanwhile.
    #[arg(long, default_value_t = 1, value_name = "N")]
    concurrency: usize,
    /// Stop after this many games.
    #[arg(long, value_name = "N")]
    games: Option<usize>,
    /// Join this arena (its id; again for more) and play the games it pairs
    /// (docs/tournaments.md; the arena must allow bots).
    #[arg(long, value_name = "ID")]
    tournament: Vec<String>,
}

/// Time kept back from the bot's clock for the way to the server and back.
const MARGIN: Duration = Duration::from_millis(800);
/// Waits after a network error, growing to the last.
const BACKOFF: [u64; 5] = [1, 2, 5, 10, 20];
/// Waits, in milliseconds, before a move refused for the token's request budget (429)
/// is sent again.
const RATE_LIMITED: [u64; 6] = [250, 500, 1000, 1000, 2000, 2000];

/// What the bridge shares between its event stream and its games.
struct State {
    addr: String,
    args: BotArgs,
    me: i64,
    /// The tables of the games being played.
    playing: Mutex<HashSet<String>>,
    /// Games finished.
    finished: AtomicUsize,
    /// Set when `--games` games are done.
    done: AtomicBool,
    out: Mutex<Box<dyn Write + Send>>,
}

impl State {
    fn say(&self, text: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}

/// Whether `args` accept a game with `options` (a challenge's, as JSON).
pub fn accepts(args: &BotArgs, options: &Value) -> bool {
    let rated = options["rated"].as_bool().unwrap_or(false);
    let rating_ok = match args.accept {
        AcceptRated::All => true,
        AcceptRated::Casual => !rated,
        AcceptRated::Rated => rated,
        AcceptRated::None => false,
    };
    let variant = options["variant"].as_str().unwrap_or("standard");
    let clock_ok = match options["time"]["minutes"].as_u64() {
        None => args.untimed,
        Some(m) => (u64::from(args.min_minutes)..=u64::from(args.max_minutes)).contains(&m),
    };
    // Handicaps, turn limits and start positions are for people.
    let plain = options.get("handicap").is_none()
        && options.get("turn_limit").is_none()
        && options.get("position").is_none();
    rating_ok && clock_ok && plain && args.variants.iter().any(|v| v == variant)
}

/// Runs the bridge until interrupted (or until `--games` games are played).
pub fn run(args: BotArgs, out: Box<dyn Write + Send>) -> anyhow::Result<()> {
    let addr = authority(&args.server)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let (status, me) = get_json(&addr, &args.token, "/api/account").await?;
        if status != 200 {
            bail!("the server refused the token ({status}): {}", me["error"]);
        }
        let state = Arc::new(State {
            addr,
            me: me["id"].as_i64().context("the account has no id")?,
            playing: Mutex::new(HashSet::new()),
            finished: AtomicUsize::new(0),
            done: AtomicBool::new(false),
            out: Mutex::new(out),
            args,
        });
        state.say(&format!(
            "bot {} connected",
            me["name"].as_str().unwrap_or("?")
        ));
        for id in &state.args.tournament {
            join_arena(&state, id).await?;
        }
        let mut failures = 0usize;
        while !state.done.load(Ordering::Relaxed) {
            match events(&state).await {
                Ok(()) => failures = 0,
                Err(e) => {
                    if e.to_string().contains("(401)") || e.to_string().contains("(403)") {
                        return Err(e);
                    }
                    state.say(&format!("event stream: {e:#}; connecting again"));
                    let wait = BACKOFF[failures.min(BACKOFF.len() - 1)];
                    failures += 1;
                    tokio::time::sleep(Duration::from_secs(wait)).await;
                }
            }
        }
        // Games still running are left to end by themselves: `--games` counts ends.
        Ok(())
    })
}

/// Joins arena `id` (being in it already is no error); its games come as any other,
/// on the event stream.
async fn join_arena(state: &State, id: &str) -> anyhow::Result<()> {
    let path = format!("/api/tournament/{id}/join");
    let (status, body) = post_form(&state.addr, &state.args.token, &path, "").await?;
    let already = status == 400
        && body["error"]
            .as_str()
            .is_some_and(|e| e.contains("already"));
    if status != 200 && !already {
        bail!(
            "the arena {id} refused the bot ({status}): {}",
            body["error"]
        );
    }
    state.say(&format!("joined the arena {id}"));
    Ok(())
}

/// Follows the event stream until it ends (or the games are done).
async fn events(state: &Arc<State>) -> anyhow::Result<()> {
    let (status, mut lines) =
        Lines::open(&state.addr, &state.args.token, "/api/stream/event").await?;
    if status != 200 {
        bail!("the server refused the event stream ({status})");
    }
    while let Some(line) = lines.next().await? {
        if state.done.load(Ordering::Relaxed) {
            return Ok(());
        }
        match line["type"].as_str() {
            Some("challenge") => answer_challenge(state, &line["challenge"]).await,
            Some("gameStart") => {
                let Some(table) = line["game"]["id"].as_str() else {
                    continue;
                };
                let fresh = state
                    .playing
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(table.to_owned());
                if fresh {
                    let (state, table) = (state.clone(), table.to_owned());
                    tokio::spawn(async move { play(&state, &table).await });
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Accepts a challenge to the bot that its rules allow, declines any other.
async fn answer_challenge(state: &State, challenge: &Value) {
    let (Some(id), Some(to)) = (challenge["id"].as_str(), challenge["to"]["id"].as_i64()) else {
        return;
    };
    if to != state.me {
        return; // the bot's own challenge
    }
    let busy = state
        .playing
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .len()
        >= state.args.concurrency;
    let take = !busy && accepts(&state.args, &challenge["options"]);
    let (verb, done) = if take {
        ("accept", "accepted")
    } else {
        ("decline", "declined")
    };
    let path = format!("/api/challenge/{id}/{verb}");
    match post_form(&state.addr, &state.args.token, &path, "").await {
        Ok((200, _)) => state.say(&format!(
            "challenge {id} from {}: {done}",
            challenge["from"]["name"].as_str().unwrap_or("?")
        )),
        Ok((status, answer)) => state.say(&format!(
            "challenge {id}: {verb} refused ({status}): {}",
            answer["error"]
        )),
        Err(e) => state.say(&format!("challenge {id}: {e:#}")),
    }
}

/// The start position a `gameFull` line describes.
pub fn start_of(full: &Value) -> anyhow::Result<Position> {
    let fen = full["initialFen"].as_str().unwrap_or("startpos");
    if fen != "startpos" {
        return Position::from_fen(fen).map_err(|e| anyhow::anyhow!("the start position: {e}"));
    }
    let variant = match full["variant"].as_str() {
        Some("blitz") => Variant::Blitz,
        _ => Variant::Standard,
    };
    let mut rules = Rules::of(variant);
    if let (Some(w), Some(b)) = (full["targets"][0].as_u64(), full["targets"][1].as_u64()) {
        rules = rules.with_targets(w as u8, b as u8);
    }
    let limit = full["turnLimit"].as_u64().map(|n| n as u16);
    Ok(Position::with_rules(rules.with_turn_limit(limit)))
}

/// The position after the space-separated `moves` from `start`.
pub fn replay(start: &Position, moves: &str) -> anyhow::Result<Position> {
    let mut pos = *start;
    for token in moves.split_whitespace() {
        let action: Action = token
            .parse()
            .map_err(|e| anyhow::anyhow!("'{token}': {e}"))?;
        pos.play(action)
            .map_err(|e| anyhow::anyhow!("'{token}': {e}"))?;
    }
    Ok(pos)
}

/// The engine's limits from a `gameState`: the clocks as the server gives them, the
/// bot's own less the margin for the way to the server.
pub fn limits_of(state: &Value, mine: Color) -> Limits {
    let ms = |key: &str| Duration::from_millis(state[key].as_u64().unwrap_or(0));
    let (mut wtime, mut btime) = (ms("wtime"), ms("btime"));
    if wtime.is_zero() && btime.is_zero() {
        return Limits::default(); // untimed: the engine's own pace
    }
    let own = match mine {
        Color::White => &mut wtime,
        Color::Black => &mut btime,
    };
    *own = own.saturating_sub(MARGIN).max(Duration::from_millis(50));
    Limits {
        clock: Some(Clock {
            wtime,
            btime,
            winc: ms("winc"),
            binc: ms("binc"),
        }),
        ..Limits::default()
    }
}

/// Plays the game at `table` to its end, following its stream again after a break.
async fn play(state: &Arc<State>, table: &str) {
    let engine = Arc::new(Mutex::new(ExternalEngine::new(state.args.engine.clone())));
    let mut failures = 0usize;
    loop {
        match game(state, table, &engine).await {
            Ok(true) => break,
            Ok(false) => failures = 0,
            Err(e) => {
                if failures >= BACKOFF.len() {
                    state.say(&format!("game {table}: {e:#}; given up"));
                    break;
                }
                state.say(&format!("game {table}: {e:#}; following it again"));
                tokio::time::sleep(Duration::from_secs(BACKOFF[failures])).await;
                failures += 1;
            }
        }
    }
    state
        .playing
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(table);
    let finished = state.finished.fetch_add(1, Ordering::Relaxed) + 1;
    if state.args.games.is_some_and(|n| finished >= n) {
        state.done.store(true, Ordering::Relaxed);
        // The event stream may be quiet: nothing else would end it.
        std::process::exit(0);
    }
}

/// Follows the game's stream once: `Ok(true)` when the game is over (or gone).
async fn game(
    state: &Arc<State>,
    table: &str,
    engine: &Arc<Mutex<ExternalEngine>>,
) -> anyhow::Result<bool> {
    let path = format!("/api/bot/game/stream/{table}");
    let (status, mut lines) = Lines::open(&state.addr, &state.args.token, &path).await?;
    match status {
        200 => {}
        404 => return Ok(true),
        _ => bail!("the server refused the game's stream ({status})"),
    }
    let Some(full) = lines.next().await? else {
        bail!("the game's stream ended at once");
    };
    if full["type"] != "gameFull" {
        bail!("the game's stream began with {}", full["type"]);
    }
    let start = start_of(&full)?;
    let mine = if full["white"]["id"].as_i64() == Some(state.me) {
        Color::White
    } else {
        Color::Black
    };
    let mut next = Some(full["state"].clone());
    // The number of actions the bot last answered, so that one state is answered once.
    let mut answered: Option<usize> = None;
    loop {
        let state_line = match next.take() {
            Some(line) => line,
            None => match lines.next().await? {
                Some(line) if line["type"] == "gameState" => line,
                Some(_) => continue,
                None => return Ok(false),
            },
        };
        if state_line["status"] != "started" {
            state.say(&format!(
                "game {table}: {}",
                state_line["status"].as_str().unwrap_or("over")
            ));
            return Ok(true);
        }
        let moves = state_line["moves"].as_str().unwrap_or("");
        let pos = replay(&start, moves)?;
        let ply = moves.split_whitespace().count();
        if pos.is_over() || pos.turn() != mine || answered == Some(ply) {
            continue;
        }
        answered = Some(ply);
        let limits = limits_of(&state_line, mine);
        let engine = engine.clone();
        let best = tokio::task::spawn_blocking(move || {
            let stop = AtomicBool::new(false);
            let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
            engine.search(&pos, &limits, &stop, &mut |_| {}).best
        })
        .await?;
        debug_assert!(pos.is_legal(best), "the engine bridge checks its answers");
        let path = format!("/api/bot/game/{table}/move/{best}");
        let (mut status, mut answer) = post_form(&state.addr, &state.args.token, &path, "").await?;
        // Over the token's request budget (a fast game): wait for it to fill, and send
        // the move again rather than lose on time.
        for wait in RATE_LIMITED {
            if status != 429 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(wait)).await;
            (status, answer) = post_form(&state.addr, &state.args.token, &path, "").await?;
        }
        if status != 200 {
            // Stale (a takeback, the game ended meanwhile): the next state tells.
            state.say(&format!(
                "game {table}: {best} refused ({status}): {}",
                answer["error"]
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use serde_json::json;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: BotArgs,
    }

    fn args(extra: &[&str]) -> BotArgs {
        let mut argv = vec![
            "bot",
            "--server",
            "http://h:1",
            "--token",
            "t",
            "--engine",
            "e",
        ];
        argv.extend_from_slice(extra);
        Cli::parse_from(argv).args
    }

    #[test]
    fn challenges_are_taken_by_the_rules_given() {
        let timed =
            json!({"variant": "standard", "time": {"minutes": 5, "increment": 3}, "log": true});
        let rated = json!({"variant": "standard", "time": {"minutes": 5, "increment": 3}, "log": true, "rated": true});
        let untimed = json!({"variant": "blitz", "log": true});
        assert!(accepts(&args(&[]), &timed) && accepts(&args(&[]), &rated));
        assert!(!accepts(&args(&[]), &untimed), "untimed only when asked");
        assert!(accepts(&args(&["--untimed"]), &untimed));
        assert!(!accepts(
            &args(&["--untimed", "--variants", "standard"]),
            &untimed
        ));
        assert!(
            accepts(&args(&["--accept", "casual"]), &timed)
                && !accepts(&args(&["--accept", "casual"]), &rated)
        );
        assert!(!accepts(&args(&["--accept", "none"]), &timed));
        assert!(!accepts(&args(&["--min-minutes", "10"]), &timed));
        let handicap = json!({"variant": "standard", "time": {"minutes": 5, "increment": 3}, "log": true, "handicap": {"white": 2, "black": 3}});
        assert!(!accepts(&args(&[]), &handicap));
    }

    #[test]
    fn positions_and_clocks_come_from_the_stream() {
        let full = json!({"variant": "blitz", "targets": [1, 1], "initialFen": "startpos"});
        let start = start_of(&full).unwrap();
        assert_eq!(*start.rules(), Rules::BLITZ);
        let pos = replay(&start, "e5 f6").unwrap();
        assert_eq!(pos.turn(), Color::White);
        assert!(replay(&start, "e5 e5").is_err());
        let fen = "bbBB/5Bb/7W/9/8Bb/9/W9/8B/W7/W6/4 b move 1-0 3-3 9";
        assert_eq!(start_of(&json!({"initialFen": fen})).unwrap().to_fen(), fen);
        let state = json!({"wtime": 60_000, "btime": 30_000, "winc": 2000, "binc": 2000});
        let clock = limits_of(&state, Color::Black).clock.unwrap();
        assert_eq!(clock.btime, Duration::from_millis(30_000) - MARGIN);
        assert_eq!(clock.wtime, Duration::from_millis(60_000));
        assert_eq!(
            limits_of(&json!({"wtime": 0, "btime": 0}), Color::White),
            Limits::default()
        );
    }
}
