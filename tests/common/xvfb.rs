//! A private X server for the windowed tests: `Xvfb` on a free display number, the game on
//! it, `xdotool` keys and window queries, `xwd | convert` screenshots, openbox as a window
//! manager when a test needs one. Xvfb is killed and its lock file and socket removed on every
//! exit path (`Drop`). When Xvfb, xdotool, xwd or convert is missing the tests fail and say to
//! run `scripts/test`, which installs them.
//!
//! Clock: wall time (real processes, real sleeps).

use super::proc::{Proc, run_tool};
use super::scratch::Scratch;
use super::{GAME, root};
use std::collections::HashMap;
use std::fs;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// How long the game may take to show its window (debug build, software Vulkan, busy CPUs).
const WINDOW_TIMEOUT: Duration = Duration::from_secs(45);

/// Fails (never skips) when a tool the windowed tests need is not installed.
pub fn require_tools(tools: &[&str]) {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let missing: Vec<&str> = tools
        .iter()
        .copied()
        .filter(|t| !std::env::split_paths(&path).any(|d| d.join(t).is_file()))
        .collect();
    assert!(
        missing.is_empty(),
        "windowed end-to-end tests need {missing:?}, not installed here: run scripts/test \
         (it installs xvfb xauth xdotool x11-apps imagemagick mesa-vulkan-drivers libvulkan1 \
         on Debian/Ubuntu)"
    );
}

/// Held by every windowed test of a test binary for its whole run: several measure rates, and
/// two cores rendering several games in software at once would starve them.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Waits for the other windowed tests to finish (a failed one does not block the rest).
pub fn serial() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// First and last X display numbers the tests try (`:90` .. `:159`).
const DISPLAYS: std::ops::RangeInclusive<u32> = 90..=159;

/// Spreads the display numbers that parallel tests of this process try first.
static NEXT_DISPLAY: AtomicU32 = AtomicU32::new(0);

/// True when the X server on display `n` answers a client request.
fn serves_clients(n: u32) -> bool {
    Command::new("xdotool")
        .arg("getdisplaygeometry")
        .env("DISPLAY", format!(":{n}"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether the X lock file at `path` names a running process.
fn owner_alive(path: &Path) -> bool {
    fs::read_to_string(path)
        .ok()
        .and_then(|t| t.trim().parse::<u32>().ok())
        .is_some_and(|pid| Path::new(&format!("/proc/{pid}")).exists())
}

/// A private X server. Dropping it kills the server and removes its lock file and socket.
pub struct Xvfb {
    /// The display name, `:N`.
    pub display: String,
    number: u32,
    proc: Option<Proc>,
}

impl Xvfb {
    /// Starts `Xvfb :N` (a 1280x800 screen) on a free display number N in `:90..=:159` and
    /// waits until it accepts connections. Xvfb's own lock file (`/tmp/.XN-lock`, taken
    /// atomically) decides who owns a number, so parallel tests and other users of the machine
    /// never share one.
    pub fn start() -> Xvfb {
        require_tools(&["Xvfb", "xdotool", "xwd", "convert"]);
        let span = DISPLAYS.end() - DISPLAYS.start() + 1;
        let first = std::process::id() * 7 + NEXT_DISPLAY.fetch_add(5, Ordering::Relaxed);
        let mut last_err = String::new();
        for i in 0..span {
            let n = DISPLAYS.start() + (first + i) % span;
            let lock = PathBuf::from(format!("/tmp/.X{n}-lock"));
            if owner_alive(&lock) {
                continue; // taken: do not even try
            }
            let mut proc = Proc::spawn(
                "Xvfb",
                Command::new("Xvfb").args([
                    &format!(":{n}"),
                    "-screen",
                    "0",
                    "1280x800x24",
                    "-nolisten",
                    "tcp",
                    // No server reset when the last client leaves: the readiness probe's
                    // disconnect would otherwise reset it just as the game connects.
                    "-noreset",
                ]),
            );
            let pid = proc.child.id();
            let socket = PathBuf::from(format!("/tmp/.X11-unix/X{n}"));
            let deadline = Instant::now() + Duration::from_secs(20);
            let ready = loop {
                if proc.poll().is_some() {
                    break false; // lost the race for this number (or cannot start at all)
                }
                let ours = fs::read_to_string(&lock).is_ok_and(|t| t.trim().parse::<u32>().ok() == Some(pid));
                // The socket accepts before the server serves: a real client request (xdotool
                // asking for the screen size) is the proof that the game can connect.
                if ours && UnixStream::connect(&socket).is_ok() && serves_clients(n) {
                    break true;
                }
                if Instant::now() >= deadline {
                    break false;
                }
                thread::sleep(Duration::from_millis(20));
            };
            if ready {
                return Xvfb { display: format!(":{n}"), number: n, proc: Some(proc) };
            }
            let (status, _, err) = proc.finish();
            last_err = format!(":{n}: {status:?}: {err}");
        }
        panic!("could not start Xvfb on any display in {DISPLAYS:?}; last try {last_err}");
    }

    /// Starts openbox, a light window manager, on this display and waits until it manages
    /// windows (it runs its `--startup` command once ready). Killed when the `Proc` drops.
    pub fn window_manager(&self, scratch: &Scratch) -> Proc {
        require_tools(&["openbox"]);
        let ready = scratch.path("wm-ready");
        let mut wm = Proc::spawn(
            "openbox",
            Command::new("openbox")
                .args(["--startup", &format!("touch '{}'", ready.display())])
                .env("DISPLAY", &self.display)
                .env("XDG_RUNTIME_DIR", scratch.xdg()),
        );
        let deadline = Instant::now() + Duration::from_secs(20);
        while !ready.exists() {
            if let Some(s) = wm.poll() {
                let (_, err) = wm.take_output();
                panic!("openbox exited ({s}) before it was ready: {err}");
            }
            assert!(Instant::now() < deadline, "openbox not ready on {} within 20 s", self.display);
            thread::sleep(Duration::from_millis(50));
        }
        wm
    }

    /// Runs `xdotool ARGS` on this display.
    pub fn xdotool(&self, args: &[&str]) -> (ExitStatus, String, String) {
        run_tool(
            Command::new("xdotool").args(args).env("DISPLAY", &self.display),
            &format!("xdotool {}", args.join(" ")),
            Duration::from_secs(10),
        )
    }

    /// Runs `xdotool ARGS` and fails the test if it fails.
    pub fn xdo(&self, args: &[&str]) -> String {
        let (s, out, err) = self.xdotool(args);
        assert!(s.success(), "xdotool {} failed ({s}): {err}", args.join(" "));
        out
    }

    /// Starts the game on this display with `args`, from the project folder, silent
    /// (`LEDGE_AUDIO=off`: the tests not about sound open no audio device).
    pub fn game(&self, scratch: &Scratch, args: &[&str]) -> Proc {
        Proc::spawn("ledge", self.game_command(scratch, args).env("LEDGE_AUDIO", "off"))
    }

    /// The command [`Xvfb::game`] runs, with the audio left as the environment has it (the
    /// sound tests point ALSA somewhere and spawn it themselves).
    pub fn game_command(&self, scratch: &Scratch, args: &[&str]) -> Command {
        let mut c = Command::new(GAME);
        c.args(args)
            .current_dir(root())
            .env("DISPLAY", &self.display)
            .env("XDG_RUNTIME_DIR", scratch.xdg())
            // The OS save folders (docs/playing.md "Saved data") in the scratch folder: a player's
            // own settings and progress neither change these tests nor are changed by them.
            .env("XDG_CONFIG_HOME", scratch.path("config"))
            .env("XDG_DATA_HOME", scratch.path("data"))
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("RUST_LOG");
        c
    }

    /// Waits for the game's visible window titled exactly `Ledge`; returns its id. Fails
    /// early with the game's output when the game exits first.
    pub fn wait_window(&self, game: &mut Proc) -> String {
        let deadline = Instant::now() + WINDOW_TIMEOUT;
        loop {
            let (_, out, _) = self.xdotool(&["search", "--onlyvisible", "--name", "^Ledge$"]);
            if let Some(id) = out.split_whitespace().next() {
                return id.to_owned();
            }
            if let Some(s) = game.poll() {
                let (out, err) = game.take_output();
                panic!("the game exited ({s}) before its window appeared\nstdout: {out}\nstderr: {err}");
            }
            assert!(
                Instant::now() < deadline,
                "no window titled 'Ledge' on {} within {WINDOW_TIMEOUT:?}",
                self.display
            );
            thread::sleep(Duration::from_millis(100));
        }
    }

    /// Gives `win` the keyboard focus (there is no window manager: activation may fail, and
    /// plain X focus plus the pointer inside the window is what counts).
    pub fn focus(&self, win: &str) {
        let _ = self.xdotool(&["windowactivate", win]);
        self.xdo(&["mousemove", "--window", win, "40", "40"]);
        self.xdo(&["windowfocus", "--sync", win]);
    }

    /// Screenshot of the whole screen as PNG (`xwd -root | convert`).
    pub fn screenshot(&self, png: &Path) {
        let pipeline =
            format!("xwd -root -display '{}' -silent | convert xwd:- 'PNG:{}'", self.display, png.display());
        let (s, _, err) =
            run_tool(Command::new("sh").args(["-c", &pipeline]), "xwd | convert", Duration::from_secs(20));
        assert!(s.success(), "screenshot failed ({s}): {err}");
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        // SIGKILL leaves the lock file and socket behind: remove them (they are ours).
        drop(self.proc.take());
        let _ = fs::remove_file(format!("/tmp/.X{}-lock", self.number));
        let _ = fs::remove_file(format!("/tmp/.X11-unix/X{}", self.number));
    }
}

/// The window's rectangle on the root window: (x, y, width, height).
pub fn window_rect(x: &Xvfb, win: &str) -> (usize, usize, usize, usize) {
    let out = x.xdo(&["getwindowgeometry", "--shell", win]);
    let vals: HashMap<&str, i64> = out
        .lines()
        .filter_map(|l| l.split_once('='))
        .filter_map(|(k, v)| Some((k, v.trim().parse().ok()?)))
        .collect();
    let get = |k: &str| *vals.get(k).unwrap_or_else(|| panic!("no {k} in geometry: {out}"));
    (get("X").max(0) as usize, get("Y").max(0) as usize, get("WIDTH") as usize, get("HEIGHT") as usize)
}

/// Waits up to 5 s for the window's size to become `want` (width, height); returns the last
/// rectangle seen either way.
pub fn await_size(x: &Xvfb, win: &str, want: (usize, usize)) -> (usize, usize, usize, usize) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let rect = window_rect(x, win);
        if (rect.2, rect.3) == want || Instant::now() >= deadline {
            return rect;
        }
        thread::sleep(Duration::from_millis(50));
    }
}
