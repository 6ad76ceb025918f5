//! An engine in another program, spoken to through the engine protocol
//! (docs/protocol.md): `yinsh serve --engine "<command>"` seats it at tables instead of
//! the built-in engine.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use yinsh::{Action, Position, Rules};
use yinsh_engine::{Engine, Limits, Score, SearchInfo, SearchResult};

use super::arena::game::{is_bestmove, newgame_command};
use super::arena::process::{EngineProcess, Reply};

/// How long a starting engine has to answer `isready`.
const READY: Duration = Duration::from_secs(10);
/// Time an engine may overrun its budget before its answer is given up.
const GRACE: Duration = Duration::from_secs(2);
/// The thinking time asked for when the limits give none.
const DEFAULT_MOVETIME: Duration = Duration::from_millis(1500);
/// How often a search checks whether it was asked to stop.
const POLL: Duration = Duration::from_millis(50);

/// A protocol engine run as a child process, started when first needed and again after
/// it died. It never fails a search: when the program does not answer in time, answers
/// badly or cannot be started, the first legal action is played instead (and the
/// program is restarted for the next search).
pub struct ExternalEngine {
    command: String,
    process: Option<EngineProcess>,
    rules: Option<Rules>,
    level: Option<u8>,
}

impl ExternalEngine {
    /// An engine run as `command` (through `sh -c`).
    pub fn new(command: impl Into<String>) -> ExternalEngine {
        ExternalEngine {
            command: command.into(),
            process: None,
            rules: None,
            level: None,
        }
    }

    /// The running process for `rules`, started (and told the rules and level) if need be.
    fn process(&mut self, rules: Rules) -> Option<&mut EngineProcess> {
        if self.process.is_none() || self.rules != Some(rules) {
            let mut p = match self.process.take() {
                Some(p) => p,
                None => EngineProcess::spawn(&self.command).ok()?,
            };
            let mut setup = vec![newgame_command(rules)];
            if let Some(level) = self.level {
                setup.push(format!("level {level}"));
            }
            setup.push("isready".to_owned());
            for line in setup {
                p.send(&line).ok()?;
            }
            match p.wait_for(Instant::now() + READY, |l| l == "readyok") {
                Reply::Line(_) => {}
                Reply::Timeout | Reply::Closed => return None,
            }
            self.process = Some(p);
            self.rules = Some(rules);
        }
        self.process.as_mut()
    }

    /// Asks the program, passing its `info` lines on to `report`; `None` when it gave no
    /// legal answer.
    fn ask(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Option<Action> {
        let (go, budget) = go_command(pos, limits);
        let p = self.process(*pos.rules())?;
        p.send(&format!("position fen {}", pos.to_fen())).ok()?;
        p.send(&go).ok()?;
        let deadline = Instant::now() + budget + GRACE;
        let mut stopped = false;
        loop {
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            let wanted = |l: &str| is_bestmove(l) || l.starts_with("info ");
            match p.wait_for((now + POLL).min(deadline), wanted) {
                Reply::Line(line) if !is_bestmove(&line) => {
                    if let Some(info) = parse_info(&line) {
                        report(&info);
                    }
                }
                Reply::Line(line) => {
                    let action: Action = line.split_whitespace().nth(1)?.parse().ok()?;
                    return pos.is_legal(action).then_some(action);
                }
                Reply::Closed => return None,
                Reply::Timeout => {
                    if stop.load(Ordering::Relaxed) && !stopped {
                        stopped = true;
                        p.send("stop").ok()?;
                    }
                }
            }
        }
    }
}

/// The progress an `info` line tells (`info depth 7 score cp 35 nodes 120000 … time
/// 840 pv …`), when it has a depth; what it leaves out is 0 (the line is not checked
/// against the position: it is only shown).
fn parse_info(line: &str) -> Option<SearchInfo> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |key: &str| -> Option<u64> {
        let i = words.iter().position(|w| *w == key)?;
        words.get(i + 1)?.parse().ok()
    };
    let score = match words.iter().position(|w| *w == "score") {
        Some(i) => match (
            words.get(i + 1),
            words.get(i + 2).and_then(|n| n.parse().ok()),
        ) {
            (Some(&"cp"), Some(n)) => Score::Cp(n),
            (Some(&"win"), Some(n)) => Score::Win(n),
            _ => Score::Cp(0),
        },
        None => Score::Cp(0),
    };
    Some(SearchInfo {
        depth: u32::try_from(number("depth")?).ok()?,
        score,
        nodes: number("nodes").unwrap_or(0),
        time: Duration::from_millis(number("time").unwrap_or(0)),
        pv: Vec::new(),
    })
}

/// The `go` command for `limits`, and the time it allows.
fn go_command(pos: &Position, limits: &Limits) -> (String, Duration) {
    let ms = |d: Duration| d.as_millis();
    if let Some(c) = limits.clock {
        let mine = match pos.turn() {
            yinsh::Color::White => c.wtime,
            yinsh::Color::Black => c.btime,
        };
        let go = format!(
            "go wtime {} btime {} winc {} binc {}",
            ms(c.wtime),
            ms(c.btime),
            ms(c.winc),
            ms(c.binc)
        );
        return (go, mine);
    }
    let movetime = limits.movetime.unwrap_or(DEFAULT_MOVETIME);
    (format!("go movetime {}", ms(movetime)), movetime)
}

impl Engine for ExternalEngine {
    fn name(&self) -> String {
        self.command.clone()
    }

    fn new_game(&mut self, _rules: Rules) {
        // `newgame` goes out with the next search (the position says the rules).
        self.rules = None;
    }

    fn set_level(&mut self, level: u8) {
        self.level = Some(level.clamp(1, 10));
        self.rules = None;
    }

    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let best = match self.ask(pos, limits, stop, report) {
            Some(action) => action,
            None => {
                // Start afresh next time; play something legal now.
                if let Some(p) = self.process.take() {
                    p.shutdown();
                }
                self.rules = None;
                pos.legal_actions()[0]
            }
        };
        let info = SearchInfo {
            depth: 0,
            score: Score::Cp(0),
            nodes: 0,
            time: start.elapsed(),
            pv: vec![best],
        };
        report(&info);
        SearchResult { best, info }
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        if let Some(p) = self.process.take() {
            p.shutdown();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_tell_the_progress() {
        let info = parse_info("info depth 7 score cp -35 nodes 120000 nps 1000 time 840 pv e5")
            .expect("an info line with a depth");
        assert_eq!(
            (info.depth, info.score, info.nodes, info.time),
            (7, Score::Cp(-35), 120_000, Duration::from_millis(840))
        );
        let info = parse_info("info depth 3 score win 5").unwrap();
        assert_eq!((info.score, info.nodes), (Score::Win(5), 0));
        assert_eq!(parse_info("info string hello"), None);
        assert_eq!(parse_info("info depth deep"), None);
    }
}
