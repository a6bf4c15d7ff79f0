//! The timing lab (`ledge lab SCRIPT`): the real [`Loop`](crate::game_loop::Loop) on a scripted
//! clock, reported as JSON. The script and report are a public contract: LAB.md.
//!
//! Clock: a scripted wall clock in integer nanoseconds replaces `Instant`; everything else —
//! latch, stepper, simulation, interpolation, camera — is the game's own code.

pub mod record;
pub mod report;
pub mod runner;
pub mod script;
pub mod shots;

pub use runner::{LabError, LabOptions, run_script, run_script_observed};
pub use shots::FrameObserver;

use std::io::{Read, Write};
use std::path::Path;

/// Entry point for `ledge lab SCRIPT [--json OUT] [--summary] [--shot FRAME=PATH.png]...`: read
/// the script (`-` for standard input), run it, draw the asked-for frames through `observer`
/// (`None` in a build without a renderer), write the report (atomically when OUT is a file).
///
/// # Errors
/// A one-line message naming the script, the line and the problem (exit status 2 in `main`).
pub fn run_cli(
    script: &str,
    json: Option<&Path>,
    summary_only: bool,
    shots: &[String],
    observer: Option<&mut dyn shots::FrameObserver>,
) -> anyhow::Result<()> {
    if !shots.is_empty() && observer.is_none() {
        anyhow::bail!(
            "--shot: this ledge was built without the `game` feature (no renderer); rebuild with default features"
        );
    }
    let mut wanted = std::collections::BTreeMap::new();
    for s in shots {
        let (frame, path) = shots::parse_shot(s).map_err(|e| anyhow::anyhow!(e))?;
        wanted.insert(frame, path);
    }
    let mut shooter = shots::Shooter::new(wanted, observer);
    let (text, name, dir) = if script == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map_err(|e| anyhow::anyhow!("<stdin>: {e}"))?;
        (s, "<stdin>".to_string(), std::env::current_dir()?)
    } else {
        let p = Path::new(script);
        let s = std::fs::read_to_string(p).map_err(|e| anyhow::anyhow!("{script}: {e}"))?;
        let dir = p.parent().map(Path::to_path_buf).unwrap_or_default();
        (s, script.to_string(), dir)
    };
    let opts = LabOptions { script_name: name, script_dir: dir, summary_only };
    let report = run_script_observed(&text, &opts, &mut |f, lp| shooter.observe(f, lp))?;
    if let Some(first) = shooter.missed().first() {
        anyhow::bail!(
            "{}: --shot {first}: the script has only {} frames",
            opts.script_name,
            report.summary.totals.frames
        );
    }
    let out = report.to_json();
    match json {
        Some(path) => {
            let tmp = path.with_extension("json.partial");
            std::fs::write(&tmp, out.as_bytes()).map_err(|e| anyhow::anyhow!("{}: {e}", tmp.display()))?;
            std::fs::rename(&tmp, path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(out.as_bytes())?;
            stdout.write_all(b"\n")?;
        }
    }
    Ok(())
}
