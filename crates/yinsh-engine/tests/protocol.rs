//! The engine text protocol, driven in-process: commands go in through a channel, replies
//! come out line by line through another, and `run` works on its own thread, as it
//! would in the `yinsh engine` process.

use std::io::{self, BufReader, Read, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

use yinsh::random::{SplitMix64, playout};
use yinsh::{Action, Position, Rules};
use yinsh_engine::mcts::Uct;
use yinsh_engine::protocol::{self, parse_go};
use yinsh_engine::search::Searcher;
use yinsh_engine::{Clock, Engine};

use crate::support::{after, after_in};

/// Long enough for a debug build on a busy machine; only reached when a test fails.
const PATIENCE: Duration = Duration::from_secs(60);

/// Input that blocks until the test sends the next command; ends when the sender drops.
struct ChannelReader {
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    at: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at == self.buf.len() {
            match self.rx.recv() {
                Ok(bytes) => {
                    self.buf = bytes;
                    self.at = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len() - self.at);
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Output that hands every complete line to the test and records the flushes.
struct ChannelWriter {
    tx: Sender<String>,
    partial: Vec<u8>,
}

impl Write for ChannelWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(bytes);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            let text = String::from_utf8(line[..end].to_vec()).expect("the protocol writes UTF-8");
            // The test may have hung up already; the session is over then.
            let _ = self.tx.send(text);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A running protocol session.
pub struct Session {
    to_engine: Option<Sender<Vec<u8>>>,
    from_engine: Receiver<String>,
    handle: Option<JoinHandle<io::Result<()>>>,
    /// Every line sent (`> `) and received (`< `), in order.
    pub transcript: Vec<String>,
}

impl Session {
    pub fn start(engine: Box<dyn Engine>) -> Session {
        let (to_engine, rx) = channel();
        let (tx, from_engine) = channel();
        let input = BufReader::new(ChannelReader {
            rx,
            buf: Vec::new(),
            at: 0,
        });
        let output = ChannelWriter {
            tx,
            partial: Vec::new(),
        };
        let handle = std::thread::spawn(move || protocol::run(engine, input, output));
        Session {
            to_engine: Some(to_engine),
            from_engine,
            handle: Some(handle),
            transcript: Vec::new(),
        }
    }

    pub fn uct() -> Session {
        Session::start(Box::new(Uct::new()))
    }

    pub fn send(&mut self, command: &str) {
        self.transcript.push(format!("> {command}"));
        self.to_engine
            .as_ref()
            .expect("input is open")
            .send(format!("{command}\n").into_bytes())
            .expect("the session is running");
    }

    pub fn recv(&mut self) -> String {
        match self.from_engine.recv_timeout(PATIENCE) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                line
            }
            Err(RecvTimeoutError::Timeout) => {
                panic!("no reply; transcript: {:#?}", self.transcript)
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!("the session ended; transcript: {:#?}", self.transcript)
            }
        }
    }

    /// The next line that is not the `info` of a running search.
    pub fn reply(&mut self) -> String {
        loop {
            let line = self.recv();
            if !line.starts_with("info ") {
                return line;
            }
        }
    }

    /// Sends a command and expects exactly one `error` line naming `needle`, and nothing
    /// else (the `readyok` of a following `isready` comes next).
    pub fn expect_error(&mut self, command: &str, needle: &str) -> String {
        self.send(command);
        let line = self.reply();
        assert!(line.starts_with("error "), "{command}: {line}");
        assert!(
            line.contains(needle),
            "{command}: '{line}' does not name '{needle}'"
        );
        self.sync();
        line
    }

    /// `isready` → `readyok`, with nothing but a running search's `info` before it.
    pub fn sync(&mut self) {
        self.send("isready");
        let line = self.reply();
        assert_eq!(line, "readyok", "transcript: {:#?}", self.transcript);
    }

    /// Sends a command that has no reply.
    pub fn quiet(&mut self, command: &str) {
        self.send(command);
        self.sync();
    }

    /// The info lines and the best move of a search that has been started.
    pub fn bestmove(&mut self) -> (Vec<String>, Action) {
        let mut infos = Vec::new();
        loop {
            let line = self.recv();
            if let Some(token) = line.strip_prefix("bestmove ") {
                return (infos, token.parse().expect("bestmove token"));
            }
            assert!(line.starts_with("info "), "unexpected '{line}'");
            infos.push(line);
        }
    }

    pub fn fen(&mut self) -> String {
        self.send("fen");
        let line = self.recv();
        line.strip_prefix("fen ").expect("fen reply").to_owned()
    }

    /// Closes the session with `quit` and waits for `run` to return.
    pub fn quit(mut self) -> Vec<String> {
        self.send("quit");
        self.join()
    }

    fn join(&mut self) -> Vec<String> {
        let result = self
            .handle
            .take()
            .expect("running")
            .join()
            .expect("no panic");
        result.expect("run returns Ok");
        // Anything written while quitting (the bestmove of a stopped search).
        while let Ok(line) = self.from_engine.try_recv() {
            self.transcript.push(format!("< {line}"));
        }
        std::mem::take(&mut self.transcript)
    }
}

const SETUP: &str = "e3 a5 b5 c6 d6 e4 h7 g2 g3 g8";

#[test]
fn handshake_names_the_engine() {
    let mut s = Session::uct();
    s.send("yei");
    assert!(s.recv().starts_with("id name yinsh-uct"));
    assert_eq!(s.recv(), "id protocol 1");
    assert_eq!(s.recv(), "yeiok");
    s.send("hello");
    assert!(s.recv().starts_with("id name "));
    assert_eq!(s.recv(), "id protocol 1");
    assert_eq!(s.recv(), "yeiok");
    s.quit();
}

#[test]
fn scripted_session_with_the_alpha_beta_engine() {
    let mut s = Session::start(Box::new(Searcher::new()));
    s.send("yei");
    assert!(s.recv().starts_with("id name "));
    assert_eq!(s.recv(), "id protocol 1");
    assert_eq!(s.recv(), "yeiok");
    s.quiet("newgame standard");
    s.quiet(&format!("position startpos moves {SETUP}"));
    assert_eq!(s.fen(), after(SETUP).to_fen());

    s.send("go depth 1");
    let (infos, best) = s.bestmove();
    assert!(!infos.is_empty());
    assert!(infos[0].starts_with("info depth 1 score "), "{}", infos[0]);
    assert!(after(SETUP).is_legal(best));

    s.send("go movetime 50");
    let (_, best) = s.bestmove();
    assert!(after(SETUP).is_legal(best));
    s.quit();
}

#[test]
fn info_lines_have_every_field() {
    let mut s = Session::uct();
    s.quiet(&format!("position startpos moves {SETUP}"));
    s.send("go nodes 100");
    let (infos, best) = s.bestmove();
    let last = infos.last().expect("a final report");
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(words[0], "info");
    for key in ["depth", "score", "nodes", "nps", "time", "pv"] {
        assert!(words.contains(&key), "{last}");
    }
    assert!(last.contains(" nodes 100 "), "{last}");
    assert!(last.contains(&format!(" pv {best}")), "{last}");
    s.quit();
}

#[test]
fn isready_and_stop_during_a_search() {
    let mut s = Session::uct();
    s.quiet(&format!("position startpos moves {SETUP}"));
    s.send("go infinite");
    // The search never ends by itself, so these replies come during it.
    s.sync();
    s.expect_error("go depth 1", "during a search");
    s.expect_error("position startpos", "during a search");
    s.expect_error("newgame blitz", "during a search");
    s.expect_error("level 3", "during a search");
    s.send("stop");
    let (infos, best) = s.bestmove();
    assert!(after(SETUP).is_legal(best));
    assert!(!infos.is_empty());
    // Idle again: the position was kept and new commands work.
    assert_eq!(s.fen(), after(SETUP).to_fen());
    s.send("go nodes 20");
    s.bestmove();
    s.quit();
}

#[test]
fn commands_right_after_bestmove_find_the_engine_idle() {
    let mut s = Session::uct();
    for _ in 0..20 {
        s.send("go nodes 10");
        s.bestmove();
        // No isready in between: a fast client sends at once.
        s.send("position startpos moves e3");
        s.send("go nodes 5");
        let (_, best) = s.bestmove();
        assert!(after("e3").is_legal(best));
        s.send("position startpos");
    }
    s.sync();
    s.quit();
}

#[test]
fn bad_input_gets_one_error_and_keeps_the_state() {
    let mut s = Session::uct();
    s.quiet("newgame blitz");
    s.quiet("position startpos moves e3 a5");
    let kept = s.fen();
    assert_eq!(kept, after_in(Rules::BLITZ, "e3 a5").to_fen());

    s.expect_error("frobnicate now", "'frobnicate'");
    s.expect_error("position startpos moves e3 a5 b5 c6 e3", "move 5 'e3'");
    s.expect_error("position startpos moves e3 a5 e33", "'e33'");
    s.expect_error("position startpos moves e3-e4", "move 1 'e3-e4'");
    s.expect_error("position startpos e3", "'e3'");
    s.expect_error("position", "startpos or fen");
    s.expect_error("position somewhere", "'somewhere'");
    s.expect_error("position fen 4/7/8 w place 0-0 1-1 0", "board");
    s.expect_error(
        "position fen 4/7/8/9/10/9/10/9/8/7/4 x place 0-0 1-1 0",
        "'x'",
    );
    s.expect_error("position fen 4/7/8/9/10/9/10/9/8/7/4 w place 0-0", "fields");
    s.expect_error("go movetime", "missing number after movetime");
    s.expect_error("go movetime fast", "'fast'");
    s.expect_error("go nodes -5", "'-5'");
    s.expect_error("go depth 99999999999", "'99999999999'");
    s.expect_error("go depth 0", "depth");
    s.expect_error("go wtime 1000", "btime");
    s.expect_error("go winc 10", "wtime");
    s.expect_error("go sideways", "'sideways'");
    s.expect_error("level 11", "'11'");
    s.expect_error("level 0", "'0'");
    s.expect_error("level", "missing number after level");
    s.expect_error("level 5 6", "'6'");
    s.expect_error("newgame chess", "'chess'");
    s.expect_error("newgame blitz targets 9 1", "targets");
    s.expect_error("newgame standard targets 2", "missing number after targets");
    s.expect_error("newgame standard turns 0", "turns");
    s.expect_error("newgame standard tempo 3", "'tempo'");
    s.expect_error("yei please", "'please'");
    assert_eq!(s.fen(), kept);

    // Empty and blank lines are ignored; case does not matter for keywords and tokens.
    s.quiet("");
    s.quiet("   ");
    s.quiet("POSITION STARTPOS MOVES E3 A5 B5");
    assert_eq!(s.fen(), after_in(Rules::BLITZ, "e3 a5 b5").to_fen());
    s.quit();
}

#[test]
fn newgame_sets_rules_and_resets_the_position() {
    let mut s = Session::uct();
    s.quiet("position startpos moves e3 a5");
    s.quiet("newgame blitz targets 1 2 turns 40");
    let rules = Rules::BLITZ.with_targets(1, 2).with_turn_limit(Some(40));
    assert_eq!(s.fen(), Position::with_rules(rules).to_fen());
    // `position startpos` uses the rules of the game.
    s.quiet("position startpos moves e3");
    assert!(s.fen().ends_with(" 1-2 0/40"), "{:?}", s.transcript);
    s.quiet("newgame");
    assert_eq!(s.fen(), Position::new().to_fen());
    s.quiet("level 3");
    s.quit();
}

#[test]
fn go_on_a_finished_game_is_an_error() {
    let finished = playout(Position::with_rules(Rules::BLITZ), &mut SplitMix64::new(3));
    assert!(finished.is_over());
    let mut s = Session::uct();
    s.quiet(&format!("position fen {}", finished.to_fen()));
    s.expect_error("go nodes 10", "game is over");
    s.quit();
}

#[test]
fn position_fen_with_moves() {
    let base = after(SETUP);
    let mut s = Session::uct();
    s.quiet(&format!("position fen {} moves e3-e2", base.to_fen()));
    let mut expected = base;
    expected.play("e3-e2".parse().unwrap()).unwrap();
    assert_eq!(s.fen(), expected.to_fen());
    s.send("go nodes 30");
    let (_, best) = s.bestmove();
    assert!(expected.is_legal(best));
    s.quit();
}

#[test]
fn quit_during_a_search_still_answers_bestmove() {
    let mut s = Session::uct();
    s.send("go infinite");
    s.sync();
    let transcript = s.quit();
    assert!(
        transcript.last().unwrap().starts_with("< bestmove "),
        "{transcript:#?}"
    );
}

#[test]
fn end_of_input_ends_the_session() {
    let mut s = Session::uct();
    s.sync();
    s.to_engine = None;
    s.join();
}

#[test]
fn go_parameters_combine() {
    let limits = parse_go(&[
        "wtime", "60000", "btime", "50000", "winc", "1000", "depth", "4",
    ])
    .unwrap();
    assert_eq!(
        limits.clock,
        Some(Clock {
            wtime: Duration::from_secs(60),
            btime: Duration::from_secs(50),
            winc: Duration::from_secs(1),
            binc: Duration::ZERO,
        })
    );
    assert_eq!(limits.depth, Some(4));
    assert_eq!(limits.movetime, None);
    let limits = parse_go(&["movetime", "250", "nodes", "1000"]).unwrap();
    assert_eq!(limits.movetime, Some(Duration::from_millis(250)));
    assert_eq!(limits.nodes, Some(1000));
    assert_eq!(parse_go(&["infinite"]).unwrap(), Default::default());
}

/// A real session with the alpha-beta engine, printed for `docs/protocol.md`:
/// `cargo test -p yinsh-engine --release -- transcript --nocapture`.
#[test]
fn transcript() {
    let mut s = Session::start(Box::new(Searcher::new()));
    s.send("yei");
    for _ in 0..3 {
        s.recv();
    }
    s.quiet("newgame standard");
    s.quiet(&format!("position startpos moves {SETUP}"));
    s.send("go depth 2");
    s.bestmove();
    s.send("go movetime 200");
    s.bestmove();
    s.expect_error("position startpos moves e3 a5 e3", "move 3 'e3'");
    s.expect_error("go movetime soon", "'soon'");
    s.quiet("level 4");
    s.send("go wtime 60000 btime 60000 winc 1000 binc 1000");
    s.bestmove();
    s.quiet("level 10");
    s.send("go infinite");
    s.sync();
    s.send("stop");
    s.bestmove();
    s.quiet("newgame blitz");
    let finished = playout(Position::with_rules(Rules::BLITZ), &mut SplitMix64::new(3));
    s.quiet(&format!("position fen {}", finished.to_fen()));
    s.expect_error("go movetime 100", "game is over");
    let transcript = s.quit();
    println!("{}", transcript.join("\n"));
}

#[test]
fn crlf_line_ends_and_invalid_utf8() {
    let mut s = Session::uct();
    let raw = |s: &mut Session, bytes: &[u8]| {
        s.to_engine.as_ref().unwrap().send(bytes.to_vec()).unwrap();
    };
    raw(&mut s, b"position startpos moves e3\r\n");
    raw(&mut s, b"isready\r\n");
    assert_eq!(s.recv(), "readyok");
    assert_eq!(s.fen(), after("e3").to_fen());
    raw(&mut s, b"go\xff\xfe nodes 5\n");
    let line = s.recv();
    assert!(line.starts_with("error unknown command 'go"), "{line}");
    s.sync();
    s.quit();
}
