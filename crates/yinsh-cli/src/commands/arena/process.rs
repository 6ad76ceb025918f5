//! An engine as a child process: lines in on its stdin, lines out of its stdout read by
//! a thread of our own, so that every wait has a deadline and a silent, dead or
//! flooding engine can never hang the arena.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
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
                match (&mut reader).take(MAX_LINE as u64).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                if buf.last() != Some(&b'\n') && buf.len() >= MAX_LINE {
                    // Skip the rest of an overlong line.
                    let mut rest = Vec::new();
                    if reader.read_until(b'\n', &mut rest).is_err() {
                        break;
                    }
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

    /// Asks the engine to quit, gives it a moment, then kills what is left.
    pub fn shutdown(mut self) {
        let _ = self.send("quit");
        // Closing stdin is the end of input for engines that read until EOF.
        self.stdin = None;
        let start = Instant::now();
        while start.elapsed() < QUIT_GRACE {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
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

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        self.kill();
    }
}
