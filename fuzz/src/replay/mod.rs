//! One input of each format Ledge reads, through Ledge's real loader, and the rules the result
//! must keep: a good load, or an error that is one line naming the file — never a panic. The
//! fuzz targets run this on every input (a broken rule panics there, so libFuzzer keeps the
//! input); `tests/fuzz_regressions.rs` includes this very file (`#[path]`) and replays
//! `tests/fuzz-regressions/<format>/*` through it in a stable `cargo test`.
//!
//! Clock: none of its own. A lab script or ghost replays on the lab's scripted clock, cut to at
//! most [`lab::MAX_FRAMES`] frames and [`lab::MAX_TICKS`] ticks; a good level or tuning file
//! is then played for [`PLAY_FRAMES`] 60 Hz frames of the real loop, as the game would.

pub mod lab;
pub mod net;
pub mod saves;
pub mod tiled;

use ledge::game_loop::Loop;
use ledge::input::{Action, InputEvent, Source};
use ledge::level::Level;
use ledge::sim::Tuning;
use ledge::time::StepperConfig;
use std::path::PathBuf;

/// The most heap one input may hold at any moment while it loads and plays, bytes: 64 MiB.
/// The lead's stated map limits (`ledge::level::guard`: a map at every limit costs under 32 MB)
/// fit in it twice; the fuzz runs use it as libFuzzer's `-malloc_limit_mb` (scripts/fuzz), and
/// `tests/fuzz_regressions.rs` measures every regression file's peak against it.
pub const HEAP_LIMIT: usize = 64 << 20;

/// Frames of the real loop a good level or tuning file is played for: one second at 60 Hz,
/// holding right and jumping every third of a second.
pub const PLAY_FRAMES: u64 = 60;

/// A format Ledge reads; its [`Format::name`] is the fuzz target's and the regression folder's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A Tiled map (`.tmx`), with the shipped tileset and a template beside it.
    Tmx,
    /// A Tiled tileset (`.tsx`), used by a fixed small map.
    Tsx,
    /// A Tiled object template (`.tx`), used by a fixed small map's objects.
    Tx,
    /// A lab script or `--record` recording (`ledge lab FILE`).
    Lab,
    /// A ghost: a recording or a saved best run (`ghosts/LEVEL.lab`), replayed into a track.
    Ghost,
    /// `tuning.toml`.
    Tuning,
    /// `settings.toml`.
    Settings,
    /// `progress.toml`.
    Progress,
    /// A datagram from a peer of an online race.
    NetDatagram,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 9] = [
        Format::Tmx,
        Format::Tsx,
        Format::Tx,
        Format::Lab,
        Format::Ghost,
        Format::Tuning,
        Format::Settings,
        Format::Progress,
        Format::NetDatagram,
    ];

    /// The fuzz target's name, which is also its corpus and regression folder's.
    pub fn name(self) -> &'static str {
        match self {
            Format::Tmx => "tmx",
            Format::Tsx => "tsx",
            Format::Tx => "tx",
            Format::Lab => "lab",
            Format::Ghost => "ghost",
            Format::Tuning => "tuning",
            Format::Settings => "settings",
            Format::Progress => "progress",
            Format::NetDatagram => "net_datagram",
        }
    }

    /// The format whose [`Format::name`] is `name`.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// What an input did, when it kept every rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It loaded (and, for a level or tuning, played).
    Loaded,
    /// The loader refused it with this one line.
    Refused(String),
    /// It was not run: a lab script or ghost naming a file outside `assets/` and `tests/`
    /// (an absolute path, `..`), which the fuzzer must not make the loader read.
    NotRun(&'static str),
}

/// Run `bytes` as a file of `format` through Ledge's loader.
///
/// # Errors
/// Which rule the result broke, on one line: an error of more than one line, or not naming
/// the file; a loaded value that does not survive its own round trip. A panic inside Ledge
/// is not caught here: it is the finding.
pub fn replay(format: Format, bytes: &[u8]) -> Result<Outcome, String> {
    match format {
        Format::Tmx => tiled::map(bytes),
        Format::Tsx => tiled::tileset(bytes),
        Format::Tx => tiled::template(bytes),
        Format::Lab => lab::script(bytes),
        Format::Ghost => lab::ghost(bytes),
        Format::Tuning => saves::tuning(bytes),
        Format::Settings => saves::settings(bytes),
        Format::Progress => saves::progress(bytes),
        Format::NetDatagram => net::datagram(bytes),
    }
}

/// The repository's root (the folder above Ledge's `assets/`), where lab scripts are run from.
pub fn root() -> PathBuf {
    let assets = ledge::assets::assets_dir().expect("the fuzz targets run inside a Ledge checkout");
    assets.parent().map(PathBuf::from).unwrap_or_default()
}

/// `assets/tuning.toml`, read once.
///
/// # Errors
/// The shipped file does not load (its one line).
pub fn shipped_tuning() -> Result<Tuning, String> {
    static SHIPPED: std::sync::OnceLock<Result<Tuning, String>> = std::sync::OnceLock::new();
    SHIPPED
        .get_or_init(|| Tuning::load(&root().join("assets/tuning.toml")).map_err(|e| e.to_string()))
        .clone()
}

/// `message` as the outcome of a refusal by the loader of `file`.
///
/// # Errors
/// The message holds a character that breaks or hides the line (a line break, any other
/// control character but tab, a Unicode line separator: `ledge::printable::breaks_line`), or
/// does not name `file`.
pub fn refused(message: String, file: &str) -> Result<Outcome, String> {
    if message.chars().any(ledge::printable::breaks_line) {
        return Err(format!("the error for {file} is not one clean line: {message:?}"));
    }
    if !message.contains(file) {
        return Err(format!("the error does not name {file}: {message:?}"));
    }
    Ok(Outcome::Refused(message))
}

/// Play `level` with `tuning` for [`PLAY_FRAMES`] frames of the real loop (presentation on, as
/// in the game), holding right and pressing jump for 10 of every 20 frames.
///
/// # Errors
/// The loop refuses the default config (never: it is Ledge's own default).
pub fn play(level: Level, tuning: Tuning) -> Result<(), String> {
    let mut lp = Loop::new(level, tuning, StepperConfig::default()).map_err(|e| e.to_string())?;
    lp.set_presenting(true);
    lp.set_record_entities(true);
    const FRAME_NS: u64 = 16_666_667;
    lp.push_event(0, InputEvent::Press(Source::Keyboard, Action::Right));
    for f in 1..=PLAY_FRAMES {
        let t = (f - 1) * FRAME_NS;
        match f % 20 {
            1 => lp.push_event(t, InputEvent::Press(Source::Keyboard, Action::Jump)),
            11 => lp.push_event(t, InputEvent::Release(Source::Keyboard, Action::Jump)),
            _ => {}
        }
        lp.frame(f * FRAME_NS);
        let _ = lp.view();
        let _ = lp.drawn_entities();
    }
    let _ = lp.state_hash();
    Ok(())
}
