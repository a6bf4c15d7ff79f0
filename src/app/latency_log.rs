//! Input-to-present latency in the live game: `--latency-log FILE` (one CSV row per press and
//! release) and the F3 panel's p50/p99 over the last [`RECENT`] edges.
//!
//! Clock: render frame. After each present the loop is told when the frame was handed to the
//! display ([`crate::game_loop::Loop::inputs_shown_at`], on the game clock the events were
//! stamped with), and the edges that frame was the first to draw anything of are timed
//! (`game_loop/latency.rs` has the rule).
//!
//! What this measures is event arrival (when winit handed the event loop the key, which is
//! after the OS and the X server had it) to `present` returning. It cannot see what comes
//! after: the compositor, the swap chain's queue (`desired_maximum_frame_latency` frames at
//! most), scan-out and the panel's own response. docs/speed.md "Input latency" has figures.

use crate::game_loop::{InputShown, Loop, percentiles};
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Edges the F3 panel's percentiles cover: the last 256.
pub const RECENT: usize = 256;

/// The CSV header: one row per press and release. Times are milliseconds on the game clock
/// (since the game clock started, paused time left out); `presented_ms` and `latency_ms` are
/// empty for an edge no frame showed before the game ended.
pub const HEADER: &str = "action,edge,player,at_ms,tick,presented_ms,latency_ms\n";

/// The log file (when asked for) and the recent delays.
#[derive(Debug, Default)]
pub struct LatencyLog {
    /// `--latency-log FILE` and the rows so far (header included).
    file: Option<(PathBuf, String)>,
    /// The last [`RECENT`] delays, milliseconds.
    recent: VecDeque<f64>,
}

impl LatencyLog {
    /// A log writing to `path` when given: the file is created now with just the header (so a
    /// path that cannot be written is refused before play starts) and written whole, atomically,
    /// at the end ([`LatencyLog::finish`]).
    ///
    /// # Errors
    /// The file cannot be written; the message names it.
    pub fn open(path: Option<&Path>) -> anyhow::Result<Self> {
        let file = match path {
            Some(p) => {
                write_file(p, HEADER.as_bytes())
                    .map_err(|e| anyhow::anyhow!("--latency-log {}: {e}", p.display()))?;
                Some((p.to_path_buf(), HEADER.to_owned()))
            }
            None => None,
        };
        Ok(LatencyLog { file, recent: VecDeque::new() })
    }

    /// A frame was presented at `presented_ns` (game clock): time the edges it showed first.
    pub fn after_present(&mut self, game: &mut Loop, presented_ns: u64) {
        game.inputs_shown_at(presented_ns);
        for e in game.take_inputs_shown() {
            if let Some(d) = e.delay_ms() {
                if self.recent.len() == RECENT {
                    self.recent.pop_front();
                }
                self.recent.push_back(d);
            }
            self.row(&e);
        }
    }

    /// p50 and p99 over the recent edges, milliseconds, and how many there are.
    pub fn recent_percentiles(&self) -> (Option<f64>, Option<f64>, usize) {
        let delays: Vec<f64> = self.recent.iter().copied().collect();
        let (p50, p99, _) = percentiles(&delays);
        (p50, p99, self.recent.len())
    }

    fn row(&mut self, e: &InputShown) {
        let Some((_, text)) = &mut self.file else { return };
        let ms = |ns: u64| ns as f64 / 1e6;
        let edge = if e.press { "press" } else { "release" };
        let _ = write!(text, "{},{edge},{},{:.3},{},", e.action.name(), e.player + 1, ms(e.at_ns), e.tick);
        let _ = match (e.shown_ns, e.delay_ms()) {
            (Some(s), Some(d)) => writeln!(text, "{:.3},{d:.3}", ms(s)),
            _ => writeln!(text, ","),
        };
    }

    /// The game ended: add the edges never shown and write the file whole. (The page never
    /// ends this way, and has no files.)
    ///
    /// # Errors
    /// The file cannot be written; the message names it.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub fn finish(&mut self, game: &Loop) -> anyhow::Result<()> {
        let unshown: Vec<InputShown> = game.inputs_unshown().copied().collect();
        for e in &unshown {
            self.row(e);
        }
        if let Some((path, text)) = self.file.take() {
            write_file(&path, text.as_bytes())
                .map_err(|e| anyhow::anyhow!("--latency-log {}: {e}", path.display()))?;
        }
        Ok(())
    }
}

/// Write `bytes` to `path` whole (atomically); the browser has no files.
fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    return crate::save::atomic::write_atomic(path, bytes);
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        let _ = (path, bytes);
        Err(std::io::Error::new(std::io::ErrorKind::Unsupported, "the browser has no files"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_that_cannot_be_written_is_refused_naming_it() {
        let e = LatencyLog::open(Some(Path::new("/nonexistent-dir/x.csv"))).unwrap_err();
        assert!(e.to_string().starts_with("--latency-log /nonexistent-dir/x.csv: "), "{e}");
    }
}
