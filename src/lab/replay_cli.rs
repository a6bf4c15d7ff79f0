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

/// Run `ledge replay` on `source` (a file, or a link holding `#run=`); returns the exit status:
/// 0, or 2 after one line on standard error naming the source and the problem (a file that
/// cannot be read, a bad link, a script the lab refuses, a level edited since the run).
pub fn run(source: &str, mode: ReplayMode) -> u8 {
    let (text, name, dir) = if link::is_link(source) {
        match link::decode(source) {
            Ok(text) => (text, "link".to_owned(), PathBuf::from(".")),
            Err(e) => {
                eprintln!("ledge replay: {e}");
                return 2;
            }
        }
    } else {
        let path = Path::new(source);
        match crate::read_limit::read_text_at_most(path, script::MAX_SCRIPT_BYTES) {
            Ok(text) => {
                let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
                (text, source.to_owned(), dir.to_path_buf())
            }
            Err(e) => {
                eprintln!("ledge replay: {source}: {e}");
                return 2;
            }
        }
    };
    match mode {
        ReplayMode::Link => {
            println!("{}", link::link(&text));
            0
        }
        ReplayMode::Headless => {
            let opts = LabOptions { script_name: name, script_dir: dir, summary_only: true, force: false };
            match run_script(&text, &opts) {
                Ok(r) => {
                    let s = &r.summary;
                    let (t, j, d, r) = (s.totals.ticks, s.jumps, s.deaths, s.respawns);
                    println!("{}", super::playback::line(t, j, d, r, s.level_complete, &s.state_hash));
                    0
                }
                Err(e) => {
                    eprintln!("ledge replay: {}", format!("{e}").replace('\n', " "));
                    2
                }
            }
        }
    }
}
