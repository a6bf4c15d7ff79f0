//! Windowed end-to-end tests: the real game binary in a real X window on a private Xvfb
//! server, rendered by whatever Vulkan adapter exists (Mesa lavapipe in CI), driven with
//! `xdotool` key presses and photographed with `xwd | convert`.
//!
//! - `run_and_jump`: hold Right, tap Space, screenshot, let `--exit-after` end the run; the
//!   stats file must show the player ran right and left the ground, and the screenshot must
//!   show a drawn game.
//! - `escape_pauses_and_q_quits`: Esc pauses (the game keeps running), then Q on the pause
//!   screen quits with exit status 0 and the summary line.
//! - `missing_level_is_one_line_error`: `--level /nonexistent.tmx` exits 2 with one stderr
//!   line naming the file.
//! - `recorded_session_replays_to_the_printed_hash`: `--record` a live session, replay it
//!   headless to the same state hash.
//! - `window_survives_resize_unmap_fullscreen_overlay_and_pause`: 1x1 resizes, moves, unmap/map, F11,
//!   Alt+Enter, F3, Esc twice, with `--vsync off`, and no panic.
//! - `window_manager_fullscreen_minimise_restore`: under a real window manager (openbox), F11
//!   and Alt+Enter make the window fill the screen and give it back; minimised with
//!   `--vsync off` the loop wakes at most once per tick, and after restore it is back to an
//!   uncapped frame rate.
//! - `occluded_window_keeps_ticking_and_sleeps`: a window covering the game's (no window
//!   manager, so the game keeps the focus and keeps playing): nothing is drawn, the loop wakes
//!   at most once per tick, the simulation keeps its 60 Hz clock, and drawing resumes at full
//!   rate when the cover goes.
//! - `levels_play_through_in_real_time_under_xdotool`: `scripts/xdo-playthrough` plays the
//!   three recorded level scripts into the game in real time as XTest keys, level 1 to the end
//!   screen (about 45 s).
//!
//! Each test starts its own Xvfb on a free display number in `:90..=:159` (Xvfb's lock file
//! decides, so other users of the machine never share one). The tests of this file run one
//! at a time ([`serial`]): several measure rates, and two cores rendering several games in
//! software at once would starve them. Xvfb and the game are killed on every exit path (guards with `Drop`). When
//! Xvfb, xdotool, xwd or convert is missing the tests fail and say to run `scripts/test`,
//! which installs them.
//!
//! `LEDGE_E2E_SHOT=FILE.png cargo test --test window_e2e` keeps `run_and_jump`'s screenshot.
//!
//! Clock: wall time (real processes, real sleeps).

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{BufReader, Read};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

const GAME: &str = env!("CARGO_BIN_EXE_ledge");
const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// How long the game may take to show its window (debug build, software Vulkan, busy CPUs).
const WINDOW_TIMEOUT: Duration = Duration::from_secs(45);

/// Fails (never skips) when a tool the windowed tests need is not installed.
fn require_tools(tools: &[&str]) {
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

/// Held by every test of this file for its whole run: see the module docs.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Waits for the other windowed tests to finish (a failed one does not block the rest).
fn serial() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// A scratch directory (removed on drop) with a private `XDG_RUNTIME_DIR` inside.
struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("ledge-e2e-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("xdg")).expect("create scratch dir");
        fs::set_permissions(dir.join("xdg"), fs::Permissions::from_mode(0o700))
            .expect("chmod 700 XDG_RUNTIME_DIR");
        Scratch { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn xdg(&self) -> PathBuf {
        self.dir.join("xdg")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// Collects everything a pipe produces, on a thread (so a chatty child never blocks).
fn drain(r: impl Read + Send + 'static) -> JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = BufReader::new(r).read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// A child process that is killed and reaped when dropped, unless it already finished.
struct Proc {
    name: String,
    child: Child,
    done: Option<ExitStatus>,
    stdout: Option<JoinHandle<String>>,
    stderr: Option<JoinHandle<String>>,
}

impl Proc {
    /// Starts `cmd` with stdout and stderr captured.
    fn spawn(name: &str, cmd: &mut Command) -> Proc {
        let mut child =
            cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap_or_else(
                |e| panic!("cannot start {name}: {e} (run scripts/test to install what the tests need)"),
            );
        let stdout = child.stdout.take().map(drain);
        let stderr = child.stderr.take().map(drain);
        Proc { name: name.to_owned(), child, done: None, stdout, stderr }
    }

    /// The exit status if the process has finished.
    fn poll(&mut self) -> Option<ExitStatus> {
        if self.done.is_none() {
            self.done = self.child.try_wait().expect("try_wait");
        }
        self.done
    }

    /// Waits up to `limit` for the process to finish.
    fn wait_for(&mut self, limit: Duration) -> Option<ExitStatus> {
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
    fn finish(mut self) -> (Option<ExitStatus>, String, String) {
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
    fn take_output(&mut self) -> (String, String) {
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
fn run_tool(cmd: &mut Command, what: &str, limit: Duration) -> (ExitStatus, String, String) {
    let mut p = Proc::spawn(what, cmd);
    p.wait_for(limit);
    let name = p.name.clone();
    let (status, out, err) = p.finish();
    match status {
        Some(s) => (s, out, err),
        None => panic!("{name} did not finish within {limit:?}; stderr: {err}"),
    }
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

/// A private X server. Dropping it kills the server and removes its lock file and socket.
struct Xvfb {
    display: String,
    number: u32,
    proc: Option<Proc>,
}

impl Xvfb {
    /// Starts `Xvfb :N` on a free display number N in [`DISPLAYS`] and waits until it
    /// accepts connections. Xvfb's own lock file (`/tmp/.XN-lock`, taken atomically) decides
    /// who owns a number, so parallel tests and other users of the machine never share one.
    fn start() -> Xvfb {
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
    fn window_manager(&self, scratch: &Scratch) -> Proc {
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
    fn xdotool(&self, args: &[&str]) -> (ExitStatus, String, String) {
        run_tool(
            Command::new("xdotool").args(args).env("DISPLAY", &self.display),
            &format!("xdotool {}", args.join(" ")),
            Duration::from_secs(10),
        )
    }

    /// Runs `xdotool ARGS` and fails the test if it fails.
    fn xdo(&self, args: &[&str]) -> String {
        let (s, out, err) = self.xdotool(args);
        assert!(s.success(), "xdotool {} failed ({s}): {err}", args.join(" "));
        out
    }

    /// Starts the game on this display with `args`.
    fn game(&self, scratch: &Scratch, args: &[&str]) -> Proc {
        Proc::spawn(
            "ledge",
            Command::new(GAME)
                .args(args)
                .current_dir(MANIFEST_DIR)
                .env("DISPLAY", &self.display)
                .env("XDG_RUNTIME_DIR", scratch.xdg())
                .env_remove("WAYLAND_DISPLAY")
                .env_remove("RUST_LOG"),
        )
    }

    /// Waits for the game's visible window titled exactly `Ledge`; returns its id. Fails
    /// early with the game's output when the game exits first.
    fn wait_window(&self, game: &mut Proc) -> String {
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
    fn focus(&self, win: &str) {
        let _ = self.xdotool(&["windowactivate", win]);
        self.xdo(&["mousemove", "--window", win, "40", "40"]);
        self.xdo(&["windowfocus", "--sync", win]);
    }

    /// Screenshot of the whole screen as PNG (`xwd -root | convert`).
    fn screenshot(&self, png: &Path) {
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

/// Whether the X lock file at `path` names a running process.
fn owner_alive(path: &Path) -> bool {
    fs::read_to_string(path)
        .ok()
        .and_then(|t| t.trim().parse::<u32>().ok())
        .is_some_and(|pid| Path::new(&format!("/proc/{pid}")).exists())
}

/// A flat 120 x 22 tile level (ground from tile row 18 down, spawn at x = 56, decoration
/// only above it), written to `path` with the shipped tileset, so a blind run to the right
/// never meets a pit, and the screenshot shows the usual mix of sky, clouds, grass and dirt.
fn write_flat_level(path: &Path) {
    let (w, h) = (120, 22);
    let gid = |col: usize, row: usize| match row {
        // clouds (decoration)
        4 if col % 23 == 9 => 20,
        4 if col % 23 == 10 => 21,
        // bush, flowers, grass tuft (decoration)
        17 if col % 11 == 6 => 17,
        17 if col % 7 == 3 => 19,
        17 if col % 5 == 1 => 18,
        18 => 1,                      // ground_top
        19 | 20 if col % 6 == 4 => 8, // ground_fill_alt
        19 | 20 => 5,                 // ground_fill
        21 => 23,                     // ground_deep
        _ => 0,
    };
    let rows: Vec<String> =
        (0..h).map(|r| (0..w).map(|c| gid(c, r).to_string()).collect::<Vec<_>>().join(",")).collect();
    let tileset = Path::new(MANIFEST_DIR).join("assets/tilesets/ledge.tsx");
    let tmx = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="{w}" height="{h}" tilewidth="16" tileheight="16" infinite="0" nextlayerid="3" nextobjectid="2">
 <properties>
  <property name="name" value="e2e flat"/>
 </properties>
 <tileset firstgid="1" source="{tileset}"/>
 <layer id="1" name="tiles" width="{w}" height="{h}">
  <data encoding="csv">
{data}
</data>
 </layer>
 <objectgroup id="2" name="objects">
  <object id="1" name="start" type="spawn" x="56" y="288">
   <point/>
  </object>
 </objectgroup>
</map>
"#,
        tileset = tileset.display(),
        data = rows.join(",\n"),
    );
    fs::write(path, tmx).expect("write flat level");
}

/// Decodes a PNG into RGB pixels: (width, height, rgb bytes).
fn read_rgb(path: &Path) -> (usize, usize, Vec<u8>) {
    let file = BufReader::new(fs::File::open(path).expect("open screenshot"));
    let mut dec = png::Decoder::new(file);
    dec.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = dec.read_info().expect("screenshot is a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("buffer size")];
    let info = reader.next_frame(&mut buf).expect("decode screenshot");
    let (w, h) = (info.width as usize, info.height as usize);
    let channels = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => panic!("palette not expanded"),
    };
    let mut rgb = Vec::with_capacity(w * h * 3);
    for px in buf[..info.buffer_size()].chunks_exact(channels) {
        match channels {
            1 | 2 => rgb.extend_from_slice(&[px[0]; 3]),
            _ => rgb.extend_from_slice(&px[..3]),
        }
    }
    (w, h, rgb)
}

/// The window's rectangle on the root window: (x, y, width, height).
fn window_rect(x: &Xvfb, win: &str) -> (usize, usize, usize, usize) {
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
fn await_size(x: &Xvfb, win: &str, want: (usize, usize)) -> (usize, usize, usize, usize) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let rect = window_rect(x, win);
        if (rect.2, rect.3) == want || Instant::now() >= deadline {
            return rect;
        }
        thread::sleep(Duration::from_millis(50));
    }
}

/// Waits for a game started with `--exit-after` to exit by itself with status 0, then reads
/// its `--stats` file. Returns the stats and a context string (stats, stdout, stderr) for
/// assertion messages.
fn exit_stats(game: Proc, stats: &Path) -> (serde_json::Value, String) {
    let (_, ctx) = exit_ok(game);
    let text = fs::read_to_string(stats).unwrap_or_else(|e| panic!("no stats file: {e}{ctx}"));
    let s: serde_json::Value = serde_json::from_str(&text).expect("stats file is JSON");
    (s, format!("\nstats: {text}{ctx}"))
}

/// Waits up to 40 s for a game started with `--exit-after` to exit by itself, and fails the
/// test unless it exited with status 0, without a panic, after printing its summary line.
/// Returns its stdout and a context string (stdout, stderr) for assertion messages.
fn exit_ok(mut game: Proc) -> (String, String) {
    let status = game.wait_for(Duration::from_secs(40));
    let (_, stdout, stderr) = game.finish();
    let ctx = format!("\nstdout: {stdout}\nstderr: {stderr}");
    let status = status.unwrap_or_else(|| panic!("the game did not exit by itself; killed{ctx}"));
    assert!(status.success(), "exit status {status}{ctx}");
    assert!(!stderr.contains("panicked"), "a panic{ctx}");
    assert!(summary_line(&stdout).is_some(), "no 'ledge: frames=' summary line{ctx}");
    (stdout, ctx)
}

/// A number from the stats JSON (fails the test when missing).
fn stat(s: &serde_json::Value, key: &str) -> f64 {
    s[key].as_f64().unwrap_or_else(|| panic!("stats field {key} missing or not a number: {s}"))
}

/// The loop's wake-ups while hidden are at most one per tick (60/s), plus a few for the X
/// events that hiding and showing bring (focus, map state, visibility).
fn assert_sleeps_while_hidden(s: &serde_json::Value, ctx: &str) {
    let hidden_s = stat(s, "hidden_s");
    let wakeups = stat(s, "hidden_wakeups");
    assert!(hidden_s >= 2.5, "hidden for {hidden_s} s, want about 3{ctx}");
    assert!(
        wakeups <= 60.0 * hidden_s + 10.0,
        "{wakeups} wake-ups in {hidden_s:.2} s hidden ({:.1}/s): more than one per tick{ctx}",
        wakeups / hidden_s
    );
    assert!(wakeups >= 20.0 * hidden_s, "{wakeups} wake-ups in {hidden_s:.2} s: the loop stalled{ctx}");
    assert_eq!(stat(s, "restores"), 1.0, "one restore{ctx}");
    // Uncapped (--vsync off, Immediate) at 640x360 the loop draws far faster than the 60/s
    // it wakes at while hidden: back to full rate.
    let fps = stat(s, "fps_since_restore");
    eprintln!(
        "hidden {hidden_s:.2} s: {wakeups} wake-ups ({:.1}/s); {fps:.1} frames/s after restore",
        wakeups / hidden_s
    );
    assert!(fps > 75.0, "{fps:.1} frames/s after restore: not back to full rate{ctx}");
}

fn summary_line(stdout: &str) -> Option<&str> {
    stdout.lines().find(|l| l.starts_with("ledge: frames="))
}

#[test]
fn run_and_jump() {
    let _serial = serial();
    let scratch = Scratch::new("run");
    let level = scratch.path("flat.tmx");
    write_flat_level(&level);
    let stats = scratch.path("stats.json");
    let shot = scratch.path("shot.png");
    let x = Xvfb::start();
    let level_arg = level.to_str().expect("utf-8 temp path");
    let stats_arg = stats.to_str().expect("utf-8 temp path");
    let mut game = x.game(
        &scratch,
        &["--level", level_arg, "--fps-cap", "60", "--exit-after", "9", "--stats", stats_arg],
    );
    let win = x.wait_window(&mut game);
    x.focus(&win);

    // Run right, jump while running, keep running, photograph, let go.
    x.xdo(&["keydown", "Right"]);
    thread::sleep(Duration::from_millis(1000));
    x.xdo(&["keydown", "space"]);
    thread::sleep(Duration::from_millis(150));
    x.xdo(&["keyup", "space"]);
    thread::sleep(Duration::from_millis(500));
    x.screenshot(&shot);
    x.xdo(&["keyup", "Right"]);
    let rect = window_rect(&x, &win);

    // --exit-after 9 ends the game; a game still running 40 s later is a failure.
    let (s, ctx) = exit_stats(game, &stats);
    let num = |k: &str| stat(&s, k);
    assert!(num("frames") > 60.0, "frames <= 60{ctx}");
    assert!(num("ticks") > 60.0, "ticks <= 60{ctx}");
    assert!(num("player_x") > num("start_x") + 48.0, "the player did not run right (holding Right){ctx}");
    assert!(num("max_rise") > 8.0, "the player never left the ground (Space){ctx}");
    assert!(num("jumps") >= 1.0, "no jump counted (Space){ctx}");

    // The screenshot: a drawn game in the window's rectangle, not one flat or black colour.
    let (w, h, rgb) = read_rgb(&shot);
    let (x0, y0, ww, wh) = rect;
    let (x1, y1) = ((x0 + ww).min(w), (y0 + wh).min(h));
    assert!(x1 > x0 + 100 && y1 > y0 + 100, "window {rect:?} not on the {w}x{h} screenshot");
    let mut colours = HashSet::new();
    let (mut black, mut total) = (0usize, 0usize);
    for y in y0..y1 {
        for px in rgb[(y * w + x0) * 3..(y * w + x1) * 3].chunks_exact(3) {
            colours.insert([px[0], px[1], px[2]]);
            black += usize::from(px == [0, 0, 0]);
            total += 1;
        }
    }
    if let Some(keep) = std::env::var_os("LEDGE_E2E_SHOT") {
        fs::copy(&shot, &keep).expect("copy screenshot to $LEDGE_E2E_SHOT");
    }
    let where_ = if colours.len() <= 8 || black * 2 >= total {
        let kept = std::env::temp_dir().join("ledge-e2e-failed-shot.png");
        let _ = fs::copy(&shot, &kept);
        format!("(screenshot kept as {})", kept.display())
    } else {
        String::new()
    };
    assert!(colours.len() > 1, "the window is one flat colour {where_}");
    assert!(
        colours.len() > 8,
        "only {} distinct colours in the window: not a drawn game {where_}",
        colours.len()
    );
    assert!(black * 2 < total, "{black} of {total} window pixels are pure black: not rendered {where_}");
}

#[test]
fn escape_pauses_and_q_quits() {
    let _serial = serial();
    let scratch = Scratch::new("esc");
    let x = Xvfb::start();
    let mut game = x.game(&scratch, &["--fps-cap", "60"]);
    let win = x.wait_window(&mut game);
    x.focus(&win);
    thread::sleep(Duration::from_millis(300));
    // Esc pauses (it does not quit): the game is still running a second later.
    x.xdo(&["key", "Escape"]);
    if let Some(s) = game.wait_for(Duration::from_secs(1)) {
        let (out, err) = game.take_output();
        panic!("Esc quit the game ({s}) instead of pausing\nstdout: {out}\nstderr: {err}");
    }
    // Q on the pause screen quits, with status 0 and the summary line.
    x.xdo(&["key", "q"]);
    let status = game.wait_for(Duration::from_secs(10));
    let (_, stdout, stderr) = game.finish();
    let ctx = format!("\nstdout: {stdout}\nstderr: {stderr}");
    let status = status.unwrap_or_else(|| panic!("Esc, Q did not quit the game within 10 s; killed{ctx}"));
    assert!(status.success(), "exit status after Esc, Q: {status}{ctx}");
    assert!(summary_line(&stdout).is_some(), "no 'ledge: frames=' summary line after Esc, Q{ctx}");
}

#[test]
fn missing_level_is_one_line_error() {
    let _serial = serial();
    let scratch = Scratch::new("badlevel");
    let x = Xvfb::start();
    let mut game = x.game(&scratch, &["--level", "/nonexistent.tmx"]);
    let status = game.wait_for(Duration::from_secs(20));
    let (_, stdout, stderr) = game.finish();
    let ctx = format!("\nstdout: {stdout}\nstderr: {stderr}");
    let status = status.unwrap_or_else(|| panic!("the game kept running with a missing level{ctx}"));
    assert_eq!(status.code(), Some(2), "exit status for a missing level{ctx}");
    assert!(!stderr.contains("panicked"), "a panic instead of an error{ctx}");
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "want exactly one stderr line{ctx}");
    assert!(lines[0].contains("/nonexistent.tmx"), "the error does not name the file{ctx}");
}

/// `--record`: a live session under Xvfb, driven by xdotool (run, jump, turn, a focus change
/// by a second window), is written as a lab script, and `ledge lab` replays it headless to the
/// state hash the game printed at exit (LAB.md "Recording").
#[test]
fn recorded_session_replays_to_the_printed_hash() {
    let _serial = serial();
    let scratch = Scratch::new("record");
    let rec = scratch.path("session.lab");
    let x = Xvfb::start();
    let rec_arg = rec.to_str().expect("utf-8 temp path");
    let mut game = x.game(&scratch, &["--record", rec_arg, "--fps-cap", "60", "--exit-after", "6"]);
    let win = x.wait_window(&mut game);
    x.focus(&win);
    x.xdo(&["keydown", "Right"]);
    thread::sleep(Duration::from_millis(700));
    x.xdo(&["key", "space"]);
    thread::sleep(Duration::from_millis(400));
    x.xdo(&["keydown", "space"]);
    thread::sleep(Duration::from_millis(300));
    x.xdo(&["keyup", "space"]);
    x.xdo(&["keyup", "Right"]);
    x.xdo(&["keydown", "Left"]);
    thread::sleep(Duration::from_millis(400));
    x.xdo(&["keyup", "Left"]);
    let (stdout, ctx) = exit_ok(game);
    let line = summary_line(&stdout).unwrap_or_else(|| panic!("no summary line{ctx}"));
    let hash = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("state_hash="))
        .unwrap_or_else(|| panic!("no state_hash in {line}"));
    let jumps: u32 = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("jumps="))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no jumps in {line}"));
    assert!(jumps >= 1, "the keys reached the game: {line}");

    let script = fs::read_to_string(&rec).unwrap_or_else(|e| panic!("no recording: {e}{ctx}"));
    assert!(script.contains("press right @") && script.contains("press jump @"), "{script}");
    let out = Command::new(env!("CARGO_BIN_EXE_ledge"))
        .args(["lab", rec_arg, "--summary"])
        .output()
        .expect("run ledge lab");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "ledge lab failed: {}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_str(&report).expect("lab report is JSON");
    assert_eq!(r["summary"]["state_hash"].as_str(), Some(hash), "replay of {script}");
}

/// The window survives what a window manager and a player can do to it: resize to 1x1 (the
/// smallest X allows) and back, moves (partly off screen, and back), unmap and map again
/// (minimise without a window manager), F11 and Alt+Enter (fullscreen), F3 (overlay), Esc
/// twice (pause, resume), all while running uncapped with `--vsync off`. No panic, exit 0, the game keeps ticking, and what is on screen
/// afterwards is still a drawn game.
#[test]
fn window_survives_resize_unmap_fullscreen_overlay_and_pause() {
    let _serial = serial();
    let scratch = Scratch::new("survive");
    let stats = scratch.path("stats.json");
    let shot = scratch.path("after.png");
    let x = Xvfb::start();
    let stats_arg = stats.to_str().expect("utf-8 temp path");
    let mut game = x.game(&scratch, &["--vsync", "off", "--exit-after", "8", "--stats", stats_arg]);
    let win = x.wait_window(&mut game);
    x.focus(&win);
    let pause = || thread::sleep(Duration::from_millis(300));
    x.xdo(&["key", "F3"]);
    pause();
    for (w, h) in [("1", "1"), ("300", "200"), ("1", "1"), ("1280", "720")] {
        x.xdo(&["windowsize", &win, w, h]);
        pause();
    }
    for (wx, wy) in [("200", "150"), ("-300", "-200"), ("0", "0")] {
        x.xdo(&["windowmove", "--sync", &win, wx, wy]);
        pause();
    }
    x.xdo(&["windowunmap", "--sync", &win]);
    pause();
    x.xdo(&["windowmap", "--sync", &win]);
    x.focus(&win);
    pause();
    x.xdo(&["key", "F11"]);
    pause();
    x.xdo(&["key", "alt+Return"]);
    pause();
    x.xdo(&["key", "Escape"]);
    pause();
    x.xdo(&["key", "Escape"]);
    pause();
    x.screenshot(&shot);
    let (s, ctx) = exit_stats(game, &stats);
    assert!(stat(&s, "ticks") > 60.0, "the game kept ticking{ctx}");
    assert_eq!(s["present_mode"].as_str(), Some("Immediate"), "--vsync off on lavapipe{ctx}");
    let (_, _, rgb) = read_rgb(&shot);
    let colours: std::collections::HashSet<&[u8]> = rgb.chunks(3).collect();
    assert!(colours.len() > 8, "a drawn game after all that: {} colours", colours.len());
}

/// Under a window manager (openbox): F11 and Alt+Enter make the window fill the 1280x800
/// screen and give it back; minimised (iconified with xdotool) with `--vsync off`, nothing is
/// drawn and the loop wakes at most once per tick; restored (and unpaused: minimising took the
/// focus, which pauses), it is back to an uncapped frame rate. Measured from the game's
/// `--stats` (`hidden_s`, `hidden_wakeups`, `restores`, `fps_since_restore`).
#[test]
fn window_manager_fullscreen_minimise_restore() {
    let _serial = serial();
    let scratch = Scratch::new("wm");
    let stats = scratch.path("stats.json");
    let full = scratch.path("fullscreen.png");
    let x = Xvfb::start();
    let _wm = x.window_manager(&scratch);
    let stats_arg = stats.to_str().expect("utf-8 temp path");
    let mut game = x.game(&scratch, &["--vsync", "off", "--exit-after", "16", "--stats", stats_arg]);
    let win = x.wait_window(&mut game);
    x.focus(&win);
    let (_, _, w0, h0) = window_rect(&x, &win);
    assert_eq!((w0, h0), (1280, 720), "the game opens a 1280x720 window");
    for key in ["F11", "alt+Return"] {
        x.xdo(&["key", key]);
        let rect = await_size(&x, &win, (1280, 800));
        assert_eq!(rect, (0, 0, 1280, 800), "{key}: the window does not fill the screen");
        if key == "F11" {
            // The 640x360 view at scale 2 is 1280x720: 40 px letterbox bars above and below,
            // the game in between, once the game has drawn a frame at the new size.
            let deadline = Instant::now() + Duration::from_secs(5);
            let (bars, game_between) = loop {
                x.screenshot(&full);
                let (w, h, rgb) = read_rgb(&full);
                assert_eq!((w, h), (1280, 800));
                let px = |x: usize, y: usize| rgb[(y * w + x) * 3..(y * w + x) * 3 + 3].to_vec();
                let seen = (px(640, 10) == px(640, 790), px(640, 10) != px(640, 200));
                if seen == (true, true) || Instant::now() >= deadline {
                    break seen;
                }
                thread::sleep(Duration::from_millis(200));
            };
            assert!(bars, "letterbox bars top and bottom (screenshot {})", full.display());
            assert!(game_between, "the game between the bars");
            if let Some(keep) = std::env::var_os("LEDGE_E2E_FULLSCREEN_SHOT") {
                fs::copy(&full, &keep).expect("copy screenshot");
            }
        }
        x.xdo(&["key", key]);
        let rect = await_size(&x, &win, (w0, h0));
        assert_eq!((rect.2, rect.3), (w0, h0), "{key} again: the window is not given back");
    }
    // A small window draws fast in software: the restore rate is then clearly uncapped.
    x.xdo(&["windowsize", "--sync", &win, "640", "360"]);
    thread::sleep(Duration::from_millis(500));
    x.xdo(&["windowminimize", "--sync", &win]);
    thread::sleep(Duration::from_secs(3));
    x.xdo(&["windowactivate", "--sync", &win]);
    thread::sleep(Duration::from_millis(500));
    x.xdo(&["key", "Escape"]);
    let (s, ctx) = exit_stats(game, &stats);
    assert_sleeps_while_hidden(&s, &ctx);
    assert!(stat(&s, "paused_s") >= 2.5, "minimising (focus lost) paused the game{ctx}");
    assert_eq!((stat(&s, "window_w"), stat(&s, "window_h")), (640.0, 360.0), "{ctx}");
}

/// No window manager: a second window (xlogo) covers the game's completely for 3 s. The game
/// keeps the focus, so it keeps playing: nothing is drawn, the loop wakes at most once per
/// tick yet the simulation keeps its 60 Hz clock, and drawing comes back at full rate once the
/// cover is gone. No key is held while covered: X's key auto-repeat (about 25 events a second)
/// would wake any event loop, and what is measured is the loop's own sleeping.
#[test]
fn occluded_window_keeps_ticking_and_sleeps() {
    let _serial = serial();
    let scratch = Scratch::new("occluded");
    let stats = scratch.path("stats.json");
    let x = Xvfb::start();
    let stats_arg = stats.to_str().expect("utf-8 temp path");
    let mut game = x.game(&scratch, &["--vsync", "off", "--exit-after", "10", "--stats", stats_arg]);
    let win = x.wait_window(&mut game);
    x.focus(&win);
    x.xdo(&["windowsize", "--sync", &win, "640", "360"]);
    thread::sleep(Duration::from_millis(500));
    let cover = Proc::spawn(
        "xlogo",
        Command::new("xlogo").args(["-geometry", "1280x800+0+0"]).env("DISPLAY", &x.display),
    );
    thread::sleep(Duration::from_secs(3));
    drop(cover);
    let (s, ctx) = exit_stats(game, &stats);
    assert_sleeps_while_hidden(&s, &ctx);
    assert_eq!(stat(&s, "paused_s"), 0.0, "covered, not unfocused: no pause{ctx}");
    let (ticks, wall) = (stat(&s, "ticks"), stat(&s, "wall_s"));
    assert!(
        ticks >= 0.95 * 60.0 * wall && ticks <= 60.0 * wall + 1.0,
        "{ticks} ticks in {wall:.2} s: the 60 Hz clock did not keep running while hidden{ctx}"
    );
}

/// Issue #4's "playable start to finish under Xvfb with xdotool": `scripts/xdo-playthrough`
/// starts its own Xvfb, this build's game (`--fps-cap 60`, a 640x360 window) and plays the three
/// recorded level scripts (`tests/levels/levelN.lab`) into it in real time as XTest key events
/// (what xdotool sends), chained from level 1 to the end screen. It exits 0 only when the game's
/// `--stats` say all three levels were completed.
///
/// Up to three attempts, each printed: real-time keys on a shared 2-core machine are not
/// tick-exact (a key that lands on a tick boundary goes to either tick), so an attempt can
/// miss where the lab replay cannot; a player retries too. The tick-exact claim is
/// `tests/level_runs.rs`; README "Levels" gives the measured success rate of single attempts.
#[test]
fn levels_play_through_in_real_time_under_xdotool() {
    let _serial = serial();
    require_tools(&["Xvfb", "xdotool", "xwd", "convert", "python3"]);
    let scratch = Scratch::new("playthrough");
    let shot = scratch.path("end-screen.png");
    let script = Path::new(MANIFEST_DIR).join("scripts/xdo-playthrough");
    let mut tries = Vec::new();
    for attempt in 1..=3 {
        let (status, out, err) = run_tool(
            Command::new(&script)
                .args(["--bin", GAME, "--shot", shot.to_str().expect("utf-8 temp path")])
                .current_dir(MANIFEST_DIR),
            "scripts/xdo-playthrough",
            Duration::from_secs(240),
        );
        let result: Vec<&str> =
            out.lines().filter(|l| l.starts_with("ledge:") || l.starts_with("levels_completed")).collect();
        eprintln!("attempt {attempt}: {status}\n{}", result.join("\n"));
        if status.success() {
            assert!(out.contains("levels_completed=3"), "exit 0 without three levels: {out}");
            assert!(shot.is_file(), "no end-screen screenshot\nstdout: {out}\nstderr: {err}");
            return;
        }
        tries.push(format!("attempt {attempt} ({status}):\nstdout: {out}\nstderr: {err}"));
    }
    panic!("three real-time playthroughs in a row did not finish all three levels\n{}", tries.join("\n"));
}
