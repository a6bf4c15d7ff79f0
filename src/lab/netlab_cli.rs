//! `ledge netlab`'s command line: read the peer scripts and the link, run the race
//! ([`super::netlab::run_netlab`]), write the report and the record, and the exit status
//! (LAB.md Version 4: 0 when the peers agree, 3 when they do not, 2 for a malformed script or
//! SPEC).
//!
//! Clock: none of its own (the race runs on [`super::netlab`]'s simulated clock).

use super::netlab::{PeerScript, run_netlab};
use super::script::MAX_SCRIPT_BYTES;
use crate::net::link::LinkSpec;
use std::path::{Path, PathBuf};

/// Write `text` to `path` whole or not at all (a temporary file beside it, renamed).
fn write_whole(path: &Path, text: &str) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".partial");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text.as_bytes()).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Run `ledge netlab`; prints its one-line failures on standard error and returns the exit
/// status.
pub fn run(link: &str, json: Option<&Path>, record: Option<&Path>, scripts: &[PathBuf]) -> u8 {
    let fail = |msg: String| {
        eprintln!("ledge netlab: {}", crate::printable::escape(&msg));
        2
    };
    let spec: LinkSpec = match link.parse() {
        Ok(s) => s,
        Err(e) => return fail(format!("--link: {e}")),
    };
    let mut peers = Vec::with_capacity(scripts.len());
    for path in scripts {
        let text = match crate::read_limit::read_text_at_most(path, MAX_SCRIPT_BYTES) {
            Ok(t) => t,
            Err(e) => return fail(format!("{}: {e}", path.display())),
        };
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        peers.push(PeerScript { name: path.display().to_string(), text, dir });
    }
    let run = match run_netlab(&peers, &spec, link) {
        Ok(r) => r,
        Err(e) => return fail(e.to_string()),
    };
    let out = serde_json::to_string_pretty(&run.report).expect("the report serialises");
    let written = match json {
        Some(p) => write_whole(p, &out),
        None => {
            println!("{out}");
            Ok(())
        }
    };
    if let Err(e) = written {
        return fail(e);
    }
    if let Some(p) = record {
        if let Err(e) = write_whole(p, &run.record) {
            return fail(e);
        }
    }
    if run.report.agree {
        return 0;
    }
    let hashes: Vec<String> =
        run.report.peers.iter().map(|p| format!("player {} {}", p.player, p.state_hash)).collect();
    match run.report.first_difference {
        Some(t) => eprintln!("ledge netlab: the peers differ from tick {t}: {}", hashes.join(", ")),
        None => eprintln!("ledge netlab: the peers differ: {}", hashes.join(", ")),
    }
    3
}
