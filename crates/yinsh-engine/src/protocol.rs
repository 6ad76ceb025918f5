//! The engine text protocol: a UCI-like line protocol that lets any program (the
//! platform's server, a GUI, a match runner) drive an [`Engine`]. It is specified in
//! full, with a transcript, in `docs/protocol.md`.
//!
//! [`run`] reads commands from any [`BufRead`] and writes replies to any [`Write`],
//! flushing after every line. Searches run on a worker thread while the commands are
//! still read, so `stop`, `isready` and `quit` are answered during a search.
//!
//! | command | reply |
//! |---|---|
//! | `yei` (or `hello`) | `id name <name>`, `yeiok` |
//! | `newgame [standard\|blitz] [targets <w> <b>] [turns <n>]` | — |
//! | `position startpos [moves <tokens…>]` | — |
//! | `position fen <six fields> [moves <tokens…>]` | — |
//! | `go [movetime <ms>] [wtime <ms> btime <ms> [winc <ms>] [binc <ms>]] [depth <n>] [nodes <n>] [infinite]` | `info …` lines, then `bestmove <token>` |
//! | `level <1-10>` | — |
//! | `fen` | `fen <six fields>` |
//! | `isready` | `readyok` |
//! | `stop` | (the running search answers `bestmove`) |
//! | `quit` | — |
//!
//! Bad input gets one `error <reason>` line and changes nothing.
//!
//! ```
//! use yinsh_engine::mcts::Uct;
//! use yinsh_engine::protocol;
//!
//! let input = "newgame blitz\nposition startpos moves e3 a5\ngo nodes 50\nquit\n";
//! let mut output = Vec::new();
//! protocol::run(Box::new(Uct::new()), input.as_bytes(), &mut output).unwrap();
//! let output = String::from_utf8(output).unwrap();
//! assert!(output.lines().last().unwrap().starts_with("bestmove "));
//! ```

use std::io::{self, BufRead, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, Scope, ScopedJoinHandle};
use std::time::Duration;

use yinsh::{Action, Position, Rules, Variant};

use crate::{Clock, Engine, LEVELS, Limits, SearchInfo};

/// The protocol's version, written by the handshake as `id protocol <n>`.
pub const VERSION: u32 = 1;

/// Runs the protocol until `quit` or the end of `input`, then returns (after stopping
/// and finishing a running search).
///
/// The engine starts with the standard rules and the starting position, as after
/// `newgame standard`. Input that is not valid UTF-8 is read lossily. An error comes
/// back only when writing to `output` (or reading `input`) fails, or when the engine
/// panics during a search.
pub fn run(
    mut engine: Box<dyn Engine>,
    mut input: impl BufRead,
    output: impl Write + Send,
) -> io::Result<()> {
    let out = Output(Mutex::new(output));
    let stop = AtomicBool::new(false);
    let searching = AtomicBool::new(false);
    engine.new_game(Rules::STANDARD);
    thread::scope(|scope| {
        let mut session = Session {
            scope,
            out: &out,
            stop: &stop,
            searching: &searching,
            name: engine.name(),
            engine: Slot::Idle(engine),
            rules: Rules::STANDARD,
            pos: Position::new(),
        };
        let mut line = Vec::new();
        let result = loop {
            line.clear();
            match input.read_until(b'\n', &mut line) {
                Ok(0) => break Ok(()),
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => break Err(e),
            }
            let text = String::from_utf8_lossy(&line);
            let words: Vec<&str> = text.split_whitespace().collect();
            match session.handle(&words) {
                Ok(Flow::Continue) => {}
                Ok(Flow::Quit) => break Ok(()),
                Err(e) => break Err(e),
            }
        };
        // Whatever ended the session, a running search is stopped and its bestmove
        // written before `run` returns.
        stop.store(true, Ordering::SeqCst);
        let finished = session.finish_search();
        result.and(finished)
    })
}

/// The output, shared by the command loop and the search thread; every line is
/// written and flushed under the lock so that lines never interleave.
struct Output<W>(Mutex<W>);

impl<W: Write> Output<W> {
    fn line(&self, text: &str) -> io::Result<()> {
        let mut out = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        writeln!(out, "{text}")?;
        out.flush()
    }
}

/// What a search thread hands back: the engine, and whether writing its lines worked.
type SearchOutcome = (Box<dyn Engine>, io::Result<()>);

/// Where the engine is.
enum Slot<'scope> {
    /// Waiting for commands.
    Idle(Box<dyn Engine>),
    /// On the search thread.
    Searching(ScopedJoinHandle<'scope, SearchOutcome>),
    /// Lost to a panic of the search thread.
    Gone,
}

enum Flow {
    Continue,
    Quit,
}

/// A command that cannot be carried out: written as `error <reason>`.
struct Refusal(String);

impl<T: Into<String>> From<T> for Refusal {
    fn from(reason: T) -> Refusal {
        Refusal(reason.into())
    }
}

struct Session<'scope, 'env, W: Write + Send> {
    scope: &'scope Scope<'scope, 'env>,
    out: &'env Output<W>,
    stop: &'env AtomicBool,
    /// True from `go` until the search thread has decided its best move; cleared
    /// *before* `bestmove` is written, so a client that has read `bestmove` always
    /// finds the engine idle.
    searching: &'env AtomicBool,
    /// The engine's name, kept for handshakes during a search.
    name: String,
    engine: Slot<'scope>,
    /// The rules of the current game (from `newgame`), used by `position startpos`.
    rules: Rules,
    /// The position the next `go` searches.
    pos: Position,
}

impl<'scope, 'env, W: Write + Send> Session<'scope, 'env, W> {
    fn handle(&mut self, words: &[&str]) -> io::Result<Flow> {
        let Some((&command, args)) = words.split_first() else {
            return Ok(Flow::Continue); // empty lines are ignored
        };
        let command = command.to_ascii_lowercase();
        // A search that has decided its move is collected before anything else, so the
        // engine is back for the commands that need it.
        if matches!(self.engine, Slot::Searching(_)) && !self.searching.load(Ordering::SeqCst) {
            self.finish_search()?;
        }
        let busy = matches!(self.engine, Slot::Searching(_));
        let result = match command.as_str() {
            "quit" => return Ok(Flow::Quit),
            "isready" => Ok(self.out.line("readyok")),
            "stop" => {
                // With no search running there is nothing to stop (as in UCI).
                self.stop.store(true, Ordering::SeqCst);
                Ok(Ok(()))
            }
            "yei" | "hello" => no_arguments(&command, args).map(|()| {
                self.out.line(&format!("id name {}", self.name))?;
                self.out.line(&format!("id protocol {VERSION}"))?;
                self.out.line("yeiok")
            }),
            "fen" => no_arguments(&command, args)
                .map(|()| self.out.line(&format!("fen {}", self.pos.to_fen()))),
            "newgame" | "position" | "go" | "level" if busy => Err(Refusal(format!(
                "'{command}' during a search: send stop and wait for bestmove"
            ))),
            "newgame" => self.newgame(args).map(Ok),
            "position" => self.position(args).map(Ok),
            "level" => self.level(args).map(Ok),
            "go" => self.go(args).map(Ok),
            _ => Err(Refusal(format!("unknown command '{command}'"))),
        };
        match result {
            Ok(written) => written?,
            Err(Refusal(reason)) => self.out.line(&format!("error {reason}"))?,
        }
        Ok(Flow::Continue)
    }

    /// The idle engine; the callers have checked that no search runs.
    fn engine(&mut self) -> Result<&mut Box<dyn Engine>, Refusal> {
        match &mut self.engine {
            Slot::Idle(engine) => Ok(engine),
            Slot::Searching(_) => Err("a search is running".into()),
            Slot::Gone => Err("the engine is gone after a crash".into()),
        }
    }

    /// Waits for the search thread, if any, and takes the engine back.
    fn finish_search(&mut self) -> io::Result<()> {
        match std::mem::replace(&mut self.engine, Slot::Gone) {
            Slot::Searching(handle) => match handle.join() {
                Ok((engine, written)) => {
                    self.engine = Slot::Idle(engine);
                    written
                }
                Err(_) => Err(io::Error::other("the engine panicked during a search")),
            },
            other => {
                self.engine = other;
                Ok(())
            }
        }
    }

    fn newgame(&mut self, args: &[&str]) -> Result<(), Refusal> {
        let mut args = args.iter().copied().peekable();
        let variant = match args.peek().copied() {
            Some(word) if !is_keyword(word, "targets") && !is_keyword(word, "turns") => {
                args.next();
                word.parse::<Variant>().map_err(|e| e.to_string())?
            }
            _ => Variant::Standard,
        };
        let mut rules = Rules::of(variant);
        while let Some(word) = args.next() {
            if is_keyword(word, "targets") {
                let white = number::<u8>(&mut args, "targets")?;
                let black = number::<u8>(&mut args, "targets")?;
                rules = rules.with_targets(white, black);
            } else if is_keyword(word, "turns") {
                rules = rules.with_turn_limit(Some(number::<u16>(&mut args, "turns")?));
            } else {
                return Err(format!("unknown newgame parameter '{word}'").into());
            }
        }
        if !rules.is_valid() {
            return Err("targets must be 1 to 5 and turns at least 1".into());
        }
        self.engine()?.new_game(rules);
        self.rules = rules;
        self.pos = Position::with_rules(rules);
        Ok(())
    }

    fn position(&mut self, args: &[&str]) -> Result<(), Refusal> {
        let moves_at = args.iter().position(|w| is_keyword(w, "moves"));
        let (base, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let mut pos = match base.split_first() {
            None => return Err("position needs startpos or fen".into()),
            Some((w, rest)) if is_keyword(w, "startpos") => {
                if let Some(extra) = rest.first() {
                    return Err(format!("unexpected '{extra}' after startpos").into());
                }
                Position::with_rules(self.rules)
            }
            Some((w, fields)) if is_keyword(w, "fen") => Position::from_fen(&fields.join(" "))
                .map_err(|e| format!("bad position string: {e}"))?,
            Some((w, _)) => {
                return Err(
                    format!("unknown position type '{w}': expected startpos or fen").into(),
                );
            }
        };
        for (i, token) in moves.iter().enumerate() {
            let action: Action = token.parse().map_err(|e| format!("move {}: {e}", i + 1))?;
            pos.play(action)
                .map_err(|e| format!("move {} '{token}' is illegal: {}", i + 1, e.reason))?;
        }
        self.pos = pos;
        Ok(())
    }

    fn level(&mut self, args: &[&str]) -> Result<(), Refusal> {
        let mut words = args.iter().copied();
        let level: u8 = number(&mut words, "level")?;
        if let Some(extra) = words.next() {
            return Err(format!("unexpected '{extra}' after level {level}").into());
        }
        if !LEVELS.contains(&level) {
            return Err(format!(
                "level '{level}' out of range {}-{}",
                LEVELS.start(),
                LEVELS.end()
            )
            .into());
        }
        let engine = self.engine()?;
        engine.set_level(level);
        self.name = engine.name();
        Ok(())
    }

    fn go(&mut self, args: &[&str]) -> Result<(), Refusal> {
        let limits = parse_go(args)?;
        if self.pos.is_over() {
            return Err("game is over".into());
        }
        let mut engine = match std::mem::replace(&mut self.engine, Slot::Gone) {
            Slot::Idle(engine) => engine,
            other => {
                self.engine = other;
                return Err("the engine is not available".into());
            }
        };
        let (out, stop, searching) = (self.out, self.stop, self.searching);
        let pos = self.pos;
        stop.store(false, Ordering::SeqCst);
        searching.store(true, Ordering::SeqCst);
        let handle = self.scope.spawn(move || {
            let mut written = Ok(());
            let mut report = |info: &SearchInfo| {
                if written.is_ok() {
                    written = out.line(&info_line(info));
                }
            };
            let result = engine.search(&pos, &limits, stop, &mut report);
            searching.store(false, Ordering::SeqCst);
            let written = written.and_then(|()| out.line(&format!("bestmove {}", result.best)));
            (engine, written)
        });
        self.engine = Slot::Searching(handle);
        Ok(())
    }
}

/// An `info` line.
pub fn info_line(info: &SearchInfo) -> String {
    let mut line = format!(
        "info depth {} score {} nodes {} nps {} time {}",
        info.depth,
        info.score,
        info.nodes,
        info.nps(),
        info.time.as_millis()
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for action in &info.pv {
            line.push(' ');
            line.push_str(&action.to_string());
        }
    }
    line
}

/// Parses the parameters of `go` into limits.
pub fn parse_go(args: &[&str]) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, None, None);
    let mut words = args.iter().copied();
    let millis = |words: &mut dyn Iterator<Item = &str>, key| {
        number::<u64>(words, key).map(Duration::from_millis)
    };
    while let Some(word) = words.next() {
        match word.to_ascii_lowercase().as_str() {
            "movetime" => limits.movetime = Some(millis(&mut words, "movetime")?),
            "wtime" => wtime = Some(millis(&mut words, "wtime")?),
            "btime" => btime = Some(millis(&mut words, "btime")?),
            "winc" => winc = Some(millis(&mut words, "winc")?),
            "binc" => binc = Some(millis(&mut words, "binc")?),
            "depth" => limits.depth = Some(number(&mut words, "depth")?),
            "nodes" => limits.nodes = Some(number(&mut words, "nodes")?),
            "infinite" => {}
            _ => return Err(format!("unknown go parameter '{word}'")),
        }
    }
    match (wtime, btime) {
        (Some(wtime), Some(btime)) => {
            limits.clock = Some(Clock {
                wtime,
                btime,
                winc: winc.unwrap_or_default(),
                binc: binc.unwrap_or_default(),
            });
        }
        (None, None) if winc.is_none() && binc.is_none() => {}
        (None, None) => return Err("winc and binc need wtime and btime".into()),
        (Some(_), None) => return Err("wtime needs btime".into()),
        (None, Some(_)) => return Err("btime needs wtime".into()),
    }
    if limits.depth == Some(0) {
        return Err("depth must be at least 1".into());
    }
    Ok(limits)
}

/// The next word as a number for `key`; the error names the word.
fn number<T: std::str::FromStr>(
    words: &mut dyn Iterator<Item = &str>,
    key: &str,
) -> Result<T, String> {
    let word = words
        .next()
        .ok_or_else(|| format!("missing number after {key}"))?;
    // Only plain digits: `+5` and `-0` are not numbers of the protocol.
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("bad number '{word}' for {key}"));
    }
    word.parse()
        .map_err(|_| format!("number '{word}' for {key} is too large"))
}

fn is_keyword(word: &str, keyword: &str) -> bool {
    word.eq_ignore_ascii_case(keyword)
}

fn no_arguments(command: &str, args: &[&str]) -> Result<(), Refusal> {
    match args.first() {
        None => Ok(()),
        Some(extra) => Err(format!("unexpected '{extra}' after {command}").into()),
    }
}
