//! `ledge replay SOURCE [--link] [--headless]`: a run (a `--record` recording, a ghost, a race's
//! record, any lab script) from a file or from a link ([`super::link`]), printed as a link or
//! played headless to its summary line.
//!
//! Clock: the lab's scripted clock (a headless replay is `ledge lab SCRIPT --summary`).

use super::{LabOptions, link, run_script, script};
use std::path::{Path, PathBuf};

/// What `ledge replay` was asked to do with its run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayMode {
    /// `--link`: print the run as a link to the browser page.
    Link,
    /// `--headless`: play it with no window and print the summary line.
    Headless,
}

/// The run a replay plays: a script's text, its name for messages and the window's bar, and
/// the folder its relative `level` path is read from first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplaySource {
    /// The script (a recording, a ghost, a race's record, any lab script).
    pub text: String,
    /// Its file, or `link` for one from a link.
    pub name: String,
    /// Where relative `level` paths are tried first.
    pub dir: PathBuf,
}

impl ReplaySource {
    /// The run at `source`: a file, or else a link holding `#run=` ([`link::decode`]).
    ///
    /// # Errors
    /// One line: the bad link, or the file that cannot be read (missing, too big, not text),
    /// its name escaped ([`crate::printable::escape`]).
    pub fn read(source: &str) -> Result<ReplaySource, String> {
        if link::is_link(source) {
            let text = link::decode(source).map_err(|e| e.to_string())?;
            return Ok(ReplaySource { text, name: "link".into(), dir: PathBuf::from(".") });
        }
        let path = Path::new(source);
        let text = crate::read_limit::read_text_at_most(path, script::MAX_SCRIPT_BYTES)
            .map_err(|e| format!("{}: {e}", crate::printable::escape(source)))?;
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        Ok(ReplaySource { text, name: source.to_owned(), dir: dir.to_path_buf() })
    }
}

/// Run `ledge replay` on `source` (a file, or a link holding `#run=`); returns the exit status:
/// 0, or 2 after one line on standard error naming the source and the problem (a file that
/// cannot be read, a bad link, a script the lab refuses, a level edited since the run). Both
/// modes play the run first: a link is only made of a run that plays.
pub fn run(source: &str, mode: ReplayMode) -> u8 {
    let src = match ReplaySource::read(source) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("ledge replay: {e}");
            return 2;
        }
    };
    let opts = LabOptions { script_name: src.name, script_dir: src.dir, summary_only: true, force: false };
    let report = match run_script(&src.text, &opts) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("ledge replay: {}", format!("{e}").replace('\n', " "));
            return 2;
        }
    };
    match mode {
        ReplayMode::Link => println!("{}", link::link(&src.text)),
        ReplayMode::Headless => {
            let s = &report.summary;
            let (t, j, d, r) = (s.totals.ticks, s.jumps, s.deaths, s.respawns);
            println!("{}", super::playback::line(t, j, d, r, s.level_complete, &s.state_hash));
        }
    }
    0
}
