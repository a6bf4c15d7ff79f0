//! Child processes for the windowed tests: output collected on threads, killed and reaped on
//! every exit path.
//!
//! Clock: wall time.

use std::io::{BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Collects everything a pipe produces, on a thread (so a chatty child never blocks).
fn drain(r: impl Read + Send + 'static) -> JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = BufReader::new(r).read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// A child process that is killed and reaped when dropped, unless it already finished.
pub struct Proc {
    /// What the process is, for messages.
    pub name: String,
    /// The process itself.
    pub child: Child,
    done: Option<ExitStatus>,
    stdout: Option<JoinHandle<String>>,
    stderr: Option<JoinHandle<String>>,
}

impl Proc {
    /// Starts `cmd` with stdout and stderr captured.
    pub fn spawn(name: &str, cmd: &mut Command) -> Proc {
        let mut child =
            cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap_or_else(
                |e| panic!("cannot start {name}: {e} (run scripts/test to install what the tests need)"),
            );
        let stdout = child.stdout.take().map(drain);
        let stderr = child.stderr.take().map(drain);
        Proc { name: name.to_owned(), child, done: None, stdout, stderr }
    }

    /// The exit status if the process has finished.
    pub fn poll(&mut self) -> Option<ExitStatus> {
        if self.done.is_none() {
            self.done = self.child.try_wait().expect("try_wait");
        }
        self.done
    }

    /// Waits up to `limit` for the process to finish.
    pub fn wait_for(&mut self, limit: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(s) = self.poll() {
                return Some(s);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Kills the process if it still runs, then returns its status and output.
    pub fn finish(mut self) -> (Option<ExitStatus>, String, String) {
        let status = self.poll();
        if status.is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        let (out, err) = self.take_output();
        (status, out, err)
    }

    /// Everything the process wrote (waits for its pipes to close: call once it has exited
    /// or been killed).
    pub fn take_output(&mut self) -> (String, String) {
        let join =
            |h: Option<JoinHandle<String>>| h.map(|h| h.join().unwrap_or_default()).unwrap_or_default();
        (join(self.stdout.take()), join(self.stderr.take()))
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if self.poll().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Runs a short helper command to completion, killing it and failing after `limit`.
pub fn run_tool(cmd: &mut Command, what: &str, limit: Duration) -> (ExitStatus, String, String) {
    let mut p = Proc::spawn(what, cmd);
    p.wait_for(limit);
    let name = p.name.clone();
    let (status, out, err) = p.finish();
    match status {
        Some(s) => (s, out, err),
        None => panic!("{name} did not finish within {limit:?}; stderr: {err}"),
    }
}
