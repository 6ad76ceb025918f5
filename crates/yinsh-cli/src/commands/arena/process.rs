//! An engine as a child process: lines in on its stdin, lines out of its stdout read by
//! a thread of our own, so that every wait has a deadline and a silent, dead or
//! flooding engine can never hang the arena.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Lines buffered between the reader thread and the game: a flooding engine blocks on
/// its own pipe instead of filling our memory.
const LINE_BUFFER: usize = 1024;
/// Longest line kept; the rest of a longer one is dropped (garbage, not protocol).
const MAX_LINE: usize = 64 * 1024;
/// How long an engine may take to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(250);

/// What came back while waiting for a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// The awaited line.
    Line(String),
    /// Nothing suitable before the deadline.
    Timeout,
    /// The engine closed its output (it exited or crashed).
    Closed,
}

/// A running engine. Dropping it kills the process (and everything it started).
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl EngineProcess {
    /// Starts `command` through `sh -c`, with its stderr discarded.
    pub fn spawn(command: &str) -> io::Result<EngineProcess> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // Its own process group, so that killing it also ends whatever `sh` started.
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::sync_channel(LINE_BUFFER);
        // Detached: it ends when the engine's stdout closes, at the latest when the
        // process group is killed.
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                if !read_line_capped(&mut reader, &mut buf) {
                    break;
                }
                let line = String::from_utf8_lossy(&buf).trim().to_owned();
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProcess {
            child,
            stdin,
            lines,
        })
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "stdin closed"))?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    /// Waits until `deadline` for a line for which `wanted` holds, dropping the others.
    pub fn wait_for(&self, deadline: Instant, wanted: impl Fn(&str) -> bool) -> Reply {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if wanted(&line) => return Reply::Line(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Reply::Timeout,
                Err(RecvTimeoutError::Disconnected) => return Reply::Closed,
            }
        }
    }

    /// The exit status, once the process has ended (waiting up to `patience` for it).
    pub fn exit_status(&mut self, patience: Duration) -> Option<ExitStatus> {
        let start = Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if start.elapsed() < patience => thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// Asks the engine to quit, gives it a moment, then kills what is left.
    pub fn shutdown(mut self) {
        let _ = self.send("quit");
        // Closing stdin is the end of input for engines that read until EOF.
        self.stdin = None;
        self.exit_status(QUIT_GRACE);
        // Drop kills any straggler.
    }

    /// Kills the process group and reaps the child.
    fn kill(&mut self) {
        #[cfg(unix)]
        {
            // Negative pid: the whole group, led by our child.
            let _ = Command::new("kill")
                .args(["-s", "KILL", "--", &format!("-{}", self.child.id())])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads one line into `buf`, keeping at most [`MAX_LINE`] bytes of it (the rest of a
/// longer line is read and dropped, in bounded pieces). `false` at the end of the
/// output or on a read error.
fn read_line_capped(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> bool {
    match reader.take(MAX_LINE as u64).read_until(b'\n', buf) {
        Ok(0) | Err(_) => return false,
        Ok(_) => {}
    }
    let mut complete = buf.last() == Some(&b'\n');
    let mut rest = Vec::new();
    while !complete {
        rest.clear();
        match reader.take(MAX_LINE as u64).read_until(b'\n', &mut rest) {
            Ok(0) => break,
            Ok(_) => complete = rest.last() == Some(&b'\n'),
            Err(_) => return false,
        }
    }
    true
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlong_lines_are_cut() {
        let mut text = vec![b'x'; 3 * MAX_LINE + 7];
        text.extend_from_slice(b"\nbestmove e3\nlast");
        let mut reader = io::Cursor::new(text);
        let mut buf = Vec::new();
        assert!(read_line_capped(&mut reader, &mut buf));
        assert_eq!(buf.len(), MAX_LINE);
        buf.clear();
        assert!(read_line_capped(&mut reader, &mut buf));
        assert_eq!(buf, b"bestmove e3\n");
        buf.clear();
        assert!(read_line_capped(&mut reader, &mut buf));
        assert_eq!(buf, b"last");
        buf.clear();
        assert!(!read_line_capped(&mut reader, &mut buf));
    }

    #[test]
    fn a_dead_engine_is_noticed() {
        let mut engine = EngineProcess::spawn("echo hello; exit 4").unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        assert_eq!(
            engine.wait_for(deadline, |_| true),
            Reply::Line("hello".to_owned())
        );
        assert_eq!(engine.wait_for(deadline, |_| true), Reply::Closed);
        assert_eq!(
            engine
                .exit_status(Duration::from_secs(5))
                .and_then(|s| s.code()),
            Some(4)
        );
    }

    #[test]
    fn a_silent_engine_times_out_and_is_killed() {
        let engine = EngineProcess::spawn("sleep 30").unwrap();
        let deadline = Instant::now() + Duration::from_millis(50);
        assert_eq!(engine.wait_for(deadline, |_| true), Reply::Timeout);
        let start = Instant::now();
        engine.shutdown();
        assert!(start.elapsed() < Duration::from_secs(5));
    }
}
