//! The `ledge` command: play (default) or run the timing lab (`ledge lab SCRIPT`).
//!
//! Clock: none of its own; it parses flags and hands over to the event loop (`app`) or the lab.
//! It also wires the lab's `--shot` to the off-screen renderer ([`OffscreenShots`]), so the lab
//! itself never links a GPU crate.
//!
//! Built without the default `game` feature (`cargo build --no-default-features`), `ledge` is
//! lab-only: no window, GPU, gamepad or font crates are linked, the play flags do not exist,
//! `ledge` with no subcommand prints one line and exits 2, and `ledge lab --shot` is refused.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
use clap::{Parser, Subcommand};
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
use std::path::PathBuf;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
use std::process::ExitCode;

/// In a browser page (`scripts/web`): the page's entry, [`ledge::app::web::main`].
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
fn main() {
    ledge::app::web::main();
}

/// Ledge: a 2D platformer whose jump is the same on every screen.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
#[derive(Parser, Debug)]
#[command(name = "ledge", version, about)]
struct Cli {
    #[cfg(feature = "game")]
    #[command(flatten)]
    play: PlayArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

/// The flags of play (the default command); only in a build with the `game` feature.
#[cfg(all(feature = "game", not(all(target_arch = "wasm32", target_os = "unknown"))))]
#[derive(clap::Args, Debug)]
struct PlayArgs {
    /// Present mode: `on` waits for the display (Fifo), `off` presents at once (Immediate,
    /// else Mailbox, else Fifo: only modes the surface offers) for uncapped testing.
    /// Default: the settings file's `display.vsync` (on).
    #[arg(long, value_name = "on|off", value_parser = ["on", "off"])]
    vsync: Option<String>,
    /// Play this Tiled `.tmx` level instead of the first shipped level.
    #[arg(long, value_name = "PATH")]
    level: Option<PathBuf>,
    /// Frame limiter, Hz (1 to 1000): emulate a 30/60/144/240 Hz display where vsync does not
    /// pace (Xvfb).
    #[arg(long, value_name = "HZ", value_parser = fps_cap_hz)]
    fps_cap: Option<f64>,
    /// Quit after this many seconds of wall time (scripted runs).
    #[arg(long, value_name = "SECONDS")]
    exit_after: Option<f64>,
    /// Write the exit summary as JSON to this file.
    #[arg(long, value_name = "FILE")]
    stats: Option<PathBuf>,
    /// Tuning file (default: assets/tuning.toml).
    #[arg(long, value_name = "FILE")]
    tuning: Option<PathBuf>,
    /// Record the session as a lab script; `ledge lab FILE` replays it to the same state hash.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Frames the presentation engine may queue, 1 to 3 (default 2); fewer is less latency.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=3))]
    frame_latency: Option<u32>,
    /// Write one CSV row per press and release: its arrival, the tick it applied in, when the
    /// first frame showing that tick was presented, and the difference in ms.
    #[arg(long, value_name = "FILE")]
    latency_log: Option<PathBuf>,
    /// Destroy the GPU device after SECONDS of play (a test of surviving a lost device: the
    /// renderer is rebuilt on a new device and the game plays on).
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
    lose_device_after: Option<f64>,
    /// Reduced motion: no camera easing: the camera moves only with the player.
    #[arg(long)]
    reduced_motion: bool,
    /// Stall the loop MS milliseconds every EVERY_S seconds (default 2) to test hostile timing.
    #[arg(long, value_name = "MS[@EVERY_S]")]
    hitch: Option<ledge::app::Hitch>,
    /// Renderer stress test: draw N extra moving sprites (see the F3 overlay).
    #[arg(long, value_name = "N", default_value_t = 0)]
    stress: usize,
    /// Keep settings.toml and progress.toml in DIR instead of the OS's config and data
    /// folders (created if missing).
    #[arg(long, value_name = "DIR")]
    save_dir: Option<PathBuf>,
    /// Game-speed assist, percent: 50 to 160 in steps of 10 (the physics does not change;
    /// the - and = keys change it in play). Default: the settings file's `display.game_speed`
    /// (100); the flag is not saved.
    #[arg(long, value_name = "PCT")]
    game_speed: Option<String>,
    /// The invincibility assist for this run (not saved): hazards, saws, walkers and squishes
    /// do not kill, a fall puts you back on the last ground you stood on. Default: the settings
    /// file's `display.invincible` (off). Such a run is never a personal best or a ghost.
    #[arg(long)]
    invincible: bool,
    /// Race online (NET.md): `udp:PORT`, a UDP socket on PORT, with `--peers`; or
    /// `ws://HOST:PORT/ROOM`, a room of a signaling server (`ledge serve`), with `--players`.
    #[arg(long, value_name = "udp:PORT|ws://HOST:PORT/ROOM")]
    net: Option<String>,
    /// The number of players of a room's race, 2 to 4 (with `--net ws://…`).
    #[arg(long, value_name = "N")]
    players: Option<usize>,
    /// A STUN or TURN server for a room's race (`stun:HOST:PORT`, `turn:HOST:PORT`);
    /// repeatable. None by default: loopback and a LAN need none, the internet needs STUN.
    #[arg(long, value_name = "URL")]
    ice: Vec<String>,
    /// The race's players in order, comma-separated, each `me` or `HOST:PORT`; your place in
    /// the list is your player number. Every peer gives the same order.
    #[arg(long, value_name = "LIST")]
    peers: Option<String>,
    /// No window, GPU or sound: a race on the real clock at 60 frames a second.
    #[arg(long)]
    headless: bool,
    /// Feed a lab script's press/release/axis edges into the race at their times, counted from
    /// the race start; its `level` line picks the level when `--level` is absent.
    #[arg(long, value_name = "SCRIPT")]
    autoplay: Option<PathBuf>,
    /// Play a recording (`--record`, a saved ghost, any lab script) as a translucent ghost on
    /// the first level, aligned by tick (G hides it).
    #[arg(long, value_name = "FILE")]
    ghost: Option<PathBuf>,
    /// Do not watch the level's files and the tuning file for changes (hot reload is on by
    /// default while a level is played).
    #[arg(long)]
    no_watch: bool,
}

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
#[derive(Subcommand, Debug)]
enum Command {
    /// Run the real loop headless on a scripted clock and report every frame and tick as JSON
    /// (see LAB.md).
    Lab {
        /// The lab script, or `-` for standard input.
        script: String,
        /// Write the JSON report here instead of standard output.
        #[arg(long, value_name = "OUT")]
        json: Option<PathBuf>,
        /// Leave out `frames` and `ticks` (long soak scripts).
        #[arg(long)]
        summary: bool,
        /// Draw frame FRAME (index from 0) off-screen to PATH.png, 1280x720; repeatable.
        #[arg(long, value_name = "FRAME=PATH.png")]
        shot: Vec<String>,
        /// Replay under another frame cut of the same wall time: 30, 60, 144, 240 (Hz) or
        /// jitter:SEED (3-40 ms frames); events keep their times (LAB.md "Time tools").
        #[arg(long, value_name = "R")]
        recut: Option<ledge::lab::recut::Recut>,
        /// Replay even when the level's content hash differs from the script's `level PATH
        /// sha256=HEX` (the level was edited since the recording): a warning instead of exit 2.
        #[arg(long)]
        force: bool,
        /// Run every tick through ggrs's sync-test session, rolling back D ticks (1..=8) and
        /// simulating them again each tick; a state that differs exits 3 (LAB.md Version 4).
        #[arg(long, value_name = "D")]
        synctest: Option<usize>,
    },
    /// Race two to four peers in one process, one lab script each, over a simulated network
    /// (LAB.md Version 4): the peers' hashes, rollbacks and stalls as JSON; exit 3 when the
    /// peers disagree.
    Netlab {
        /// The network: `latency=MS,jitter=MS,loss=P,dup=P,seed=N`, each optional (one-way, per
        /// datagram; default a perfect link).
        #[arg(long, value_name = "SPEC", default_value = "")]
        link: String,
        /// Write the JSON report here instead of standard output.
        #[arg(long, value_name = "OUT")]
        json: Option<PathBuf>,
        /// Write the race's confirmed inputs as a tick-by-tick lab script (`ledge lab` on it
        /// ends on the peers' state_hash).
        #[arg(long, value_name = "OUT.lab")]
        record: Option<PathBuf>,
        /// One lab script per peer (2 to 4), each with its own player's input; peer K plays
        /// player K.
        #[arg(required = true, num_args = 2..=4)]
        scripts: Vec<PathBuf>,
    },
    /// A run (a recording, a ghost, a race's record, any lab script) from FILE or a LINK
    /// (`…index.html#run=…`) played in a window (Space pause, ←/→ a tick, hold R rewind, −/=
    /// speed, Home start, Q quit), printed as a link to the browser page (`--link`), or played
    /// with no window to its summary line with `state_hash=` (`--headless`).
    Replay {
        /// The run: a lab script file, or a link holding `#run=`.
        #[arg(value_name = "FILE|LINK")]
        source: String,
        /// Print the run as a link to the browser page: `index.html#run=` then the script
        /// compressed (DEFLATE, base64url).
        #[arg(long, conflicts_with = "headless")]
        link: bool,
        /// Play the run with no window and print `ledge replay: ticks=… state_hash=…`.
        #[arg(long)]
        headless: bool,
        /// The window: quit after this many seconds (printing the summary line of the frame
        /// shown then).
        #[arg(long, value_name = "S", value_parser = positive_seconds, conflicts_with_all = ["headless", "link"])]
        exit_after: Option<f64>,
        /// The window: frame limiter, Hz, 1 to 1000 (as the game's `--fps-cap`).
        #[arg(long, value_name = "HZ", value_parser = fps_cap_hz, conflicts_with_all = ["headless", "link"])]
        fps_cap: Option<f64>,
        /// The window: the folder of the saved settings (volume, display) to use.
        #[arg(long, value_name = "DIR", conflicts_with_all = ["headless", "link"])]
        save_dir: Option<PathBuf>,
    },
    /// Run the signaling server races meet through (`--net ws://HOST:PORT/ROOM`) until
    /// stopped; prints `ledge serve: listening on ws://HOST:PORT` once it accepts.
    #[cfg(all(feature = "game", not(target_arch = "wasm32")))]
    Serve {
        /// The address to listen on.
        #[arg(default_value = ledge::race::serve::DEFAULT_ADDR, value_name = "HOST:PORT")]
        addr: String,
    },
}

/// The log's default filter (`RUST_LOG` replaces it): warnings, without wgpu's GLES chatter
/// and the WebRTC stack's and signaling server's warnings about states they recover from
/// (candidates not gathered yet, a peer's websocket reset when its race ends); their errors
/// stay. winit's events reach the log through `tracing`'s `log` feature, which the signaling
/// server's crates turn on for every crate: winit's warnings about the X server (XSETTINGS, a
/// display reported 0 mm wide) are left out as they were before it, its errors stay.
/// `--fps-cap`'s value: a number of Hz [`ledge::time::FPS_CAP_HZ`] takes.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn fps_cap_hz(s: &str) -> Result<f64, String> {
    let hz = s.trim().parse::<f64>().map_err(|_| format!("'{s}' is not a number of Hz"))?;
    ledge::time::fps_cap(hz)
}

/// A flag's number of seconds: finite and not negative.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn positive_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("'{s}' is not a number of seconds (0 or more)")),
    }
}

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
const LOG_FILTER: &str = "warn,wgpu_hal::gles=off,winit=error,rtc=error,rtc_ice=error,rtc_dtls=error,rtc_sctp=error,\
    webrtc=error,matchbox_socket=error,matchbox_signaling=error";

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(LOG_FILTER)).init();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            if code == 2 {
                // one line: clap's first line names the problem
                let text = e.to_string();
                eprintln!("{}", text.lines().next().unwrap_or("ledge: bad arguments"));
                eprintln!("For more information, try '--help'.");
            } else {
                print!("{e}");
            }
            return ExitCode::from(code);
        }
    };
    let result: anyhow::Result<()> = match cli.command {
        Some(Command::Lab { script, json, summary, shot, recut, force, synctest }) => {
            #[cfg(feature = "game")]
            let mut shots = OffscreenShots(None);
            #[cfg(feature = "game")]
            let observer: Option<&mut dyn ledge::lab::FrameObserver> = Some(&mut shots);
            #[cfg(not(feature = "game"))]
            let observer: Option<&mut dyn ledge::lab::FrameObserver> = None;
            let mode = match (recut, synctest) {
                (Some(_), Some(_)) => {
                    eprintln!("ledge: {}", ledge::lab::CliError::SyncTestWith);
                    return ExitCode::from(2);
                }
                (Some(r), None) => ledge::lab::RunMode::Recut(r),
                (None, Some(d)) => ledge::lab::RunMode::SyncTest(d),
                (None, None) => ledge::lab::RunMode::Plain,
            };
            match ledge::lab::run_cli(&script, json.as_deref(), summary, force, &shot, mode, observer) {
                Ok(()) => Ok(()),
                Err(e) => {
                    eprintln!("ledge: {}", format!("{e:#}").replace('\n', " "));
                    return ExitCode::from(e.exit_code());
                }
            }
        }
        Some(Command::Replay { source, link, headless, exit_after, fps_cap, save_dir }) => {
            let mode = match (link, headless) {
                (true, _) => ledge::lab::replay_cli::ReplayMode::Link,
                (false, true) => ledge::lab::replay_cli::ReplayMode::Headless,
                #[cfg(feature = "game")]
                (false, false) => return replay_window(&source, exit_after, fps_cap, save_dir),
                #[cfg(not(feature = "game"))]
                (false, false) => {
                    let _ = (exit_after, fps_cap, save_dir);
                    eprintln!(
                        "ledge replay: this build has no window (built without the `game` feature): give --headless or --link"
                    );
                    return ExitCode::from(2);
                }
            };
            return ExitCode::from(ledge::lab::replay_cli::run(&source, mode));
        }
        Some(Command::Netlab { link, json, record, scripts }) => {
            return ExitCode::from(ledge::lab::netlab_cli::run(
                &link,
                json.as_deref(),
                record.as_deref(),
                &scripts,
            ));
        }
        #[cfg(all(feature = "game", not(target_arch = "wasm32")))]
        Some(Command::Serve { addr }) => {
            let listening = |line: String| {
                use std::io::Write;
                println!("{line}");
                let _ = std::io::stdout().flush();
            };
            return match ledge::race::serve::serve(&addr, listening) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("ledge {}", ledge::printable::escape(&e));
                    ExitCode::from(2)
                }
            };
        }
        #[cfg(not(feature = "game"))]
        None => {
            eprintln!(
                "ledge: this build has only `ledge lab` (built without the `game` feature); see `ledge lab --help`"
            );
            return ExitCode::from(2);
        }
        #[cfg(feature = "game")]
        None if cli.play.net.is_some()
            || cli.play.headless
            || cli.play.peers.is_some()
            || cli.play.players.is_some() =>
        {
            return race(cli.play);
        }
        #[cfg(feature = "game")]
        None => {
            let cli = cli.play;
            if let Some(s) = cli.exit_after {
                if !(s.is_finite() && s >= 0.0) {
                    eprintln!("ledge: --exit-after must be a non-negative number of seconds, got {s}");
                    return ExitCode::from(2);
                }
            }
            // The saved settings fill what the command line leaves out; every problem with
            // the save is one warning line, never fatal.
            let save = open_save(cli.save_dir.as_deref());
            let display = &save.settings().display;
            // The flag wins for this run and is not saved (as --vsync and --fps-cap).
            let game_speed = match cli.game_speed.as_deref().map(ledge::time::GameSpeed::from_percent_text) {
                None => display.game_speed,
                Some(Ok(s)) => s,
                Some(Err(e)) => {
                    eprintln!("ledge: --game-speed {e}");
                    return ExitCode::from(2);
                }
            };
            let invincible = cli.invincible || display.invincible;
            let opts = ledge::app::AppOptions {
                vsync: cli.vsync.map_or(display.vsync, |v| v == "on"),
                level: cli.level,
                fps_cap: cli.fps_cap.or(save.settings().fps_cap()),
                exit_after: cli.exit_after,
                stats: cli.stats,
                tuning: cli.tuning,
                record: cli.record,
                latency_log: cli.latency_log,
                frame_latency: cli.frame_latency,
                lose_device_after: cli.lose_device_after,
                bare: false,
                reduced_motion: cli.reduced_motion || display.reduced_motion,
                hitch: cli.hitch,
                stress: cli.stress,
                fullscreen: display.fullscreen,
                save,
                game_speed,
                invincible,
                ghost: cli.ghost,
                watch: !cli.no_watch,
                race: None,
                replay: None,
            };
            ledge::app::run(opts).map(|_| ())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ledge: {}", format!("{e:#}").replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

/// `--net`: one peer of a race, headless (NET.md); the exit status NET.md gives.
#[cfg(all(feature = "game", not(all(target_arch = "wasm32", target_os = "unknown"))))]
fn race(play: PlayArgs) -> ExitCode {
    let refuse = |line: String| {
        eprintln!("ledge: {}", ledge::printable::escape(&line));
        ExitCode::from(2)
    };
    let Some(net) = play.net.as_deref() else { return refuse("--headless and --peers go with --net".into()) };
    let net = match net.parse::<ledge::race::NetSpec>() {
        Ok(n) => n,
        Err(e) => return refuse(e),
    };
    let players = match (&net, play.peers.as_deref(), play.players) {
        (ledge::race::NetSpec::Udp { .. }, Some(list), None) => match ledge::race::parse_peers(list) {
            Ok((me, addrs)) => ledge::race::Players::Listed(me, addrs),
            Err(e) => return refuse(e),
        },
        (ledge::race::NetSpec::Udp { .. }, None, _) => {
            return refuse("--net udp:PORT needs --peers LIST".into());
        }
        (ledge::race::NetSpec::Udp { .. }, Some(_), Some(_)) => {
            return refuse("--players goes with --net ws://…; --peers already counts the players".into());
        }
        (ledge::race::NetSpec::Room { .. }, None, Some(n)) if (2..=4).contains(&n) => {
            ledge::race::Players::Room(n)
        }
        (ledge::race::NetSpec::Room { .. }, None, Some(n)) => {
            return refuse(format!("--players must be 2 to 4, got {n}"));
        }
        (ledge::race::NetSpec::Room { .. }, None, None) => {
            return refuse("--net ws://HOST:PORT/ROOM needs --players N".into());
        }
        (ledge::race::NetSpec::Room { .. }, Some(_), _) => {
            return refuse("--peers goes with --net udp:PORT; a room orders its own players".into());
        }
    };
    if !play.ice.is_empty() && matches!(net, ledge::race::NetSpec::Udp { .. }) {
        return refuse("--ice goes with --net ws://… (WebRTC); UDP races connect directly".into());
    }
    if let Some(bad) = play
        .ice
        .iter()
        .find(|u| !(u.starts_with("stun:") || u.starts_with("turn:") || u.starts_with("turns:")))
    {
        return refuse(format!("--ice {bad}: expected stun:HOST:PORT or turn:HOST:PORT"));
    }
    if let Some(s) = play.exit_after {
        if !(s.is_finite() && s >= 0.0) {
            return refuse(format!("--exit-after must be a non-negative number of seconds, got {s}"));
        }
    }
    let opts = ledge::race::RaceOptions {
        net,
        players,
        level: play.level,
        tuning: play.tuning,
        autoplay: play.autoplay,
        exit_after: play.exit_after,
        record: play.record,
        ice: play.ice,
        headless: play.headless,
    };
    if !opts.headless {
        return race_in_window(opts, play.save_dir, play.fps_cap);
    }
    match ledge::race::run_headless(&opts) {
        Ok(lines) => {
            for l in &lines {
                println!("{l}");
            }
            ExitCode::SUCCESS
        }
        Err(r) => {
            eprintln!("ledge: {}", ledge::printable::escape(&r.line));
            ExitCode::from(r.code)
        }
    }
}

/// `ledge replay FILE|LINK` without `--headless` or `--link`: the replay window
/// (`ledge::app::replay`); a bad file, link or script is one line and exit 2 before any
/// window opens.
#[cfg(all(feature = "game", not(all(target_arch = "wasm32", target_os = "unknown"))))]
fn replay_window(
    source: &str,
    exit_after: Option<f64>,
    fps_cap: Option<f64>,
    save_dir: Option<PathBuf>,
) -> ExitCode {
    let src = match ledge::app::replay::ReplaySource::read(source) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("ledge replay: {e}");
            return ExitCode::from(2);
        }
    };
    let save = open_save(save_dir.as_deref());
    let app = ledge::app::AppOptions {
        vsync: save.settings().display.vsync,
        fps_cap: fps_cap.or(save.settings().fps_cap()),
        exit_after,
        fullscreen: save.settings().display.fullscreen,
        save,
        watch: false,
        replay: Some(src),
        ..Default::default()
    };
    run_window(app, "ledge replay:")
}

/// The save folder (`--save-dir`, else the OS folders), each problem with it one warning line.
#[cfg(all(feature = "game", not(all(target_arch = "wasm32", target_os = "unknown"))))]
fn open_save(dir: Option<&std::path::Path>) -> ledge::save::Store {
    let (save, warnings) = ledge::save::Store::open(dir);
    for w in warnings {
        eprintln!("ledge: warning: {w}");
    }
    save
}

/// Run the window for `app`: exit 0, or one line after `prefix` (`ledge:`, `ledge replay:`)
/// and exit 2 on an error.
#[cfg(all(feature = "game", not(all(target_arch = "wasm32", target_os = "unknown"))))]
fn run_window(app: ledge::app::AppOptions, prefix: &str) -> ExitCode {
    match ledge::app::run(app) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{prefix} {}", format!("{e:#}").replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

/// `--net` without `--headless`: the race in a window, the camera on this peer's runner; the
/// exit lines as the headless peer prints them.
#[cfg(all(feature = "game", not(all(target_arch = "wasm32", target_os = "unknown"))))]
fn race_in_window(
    opts: ledge::race::RaceOptions,
    save_dir: Option<PathBuf>,
    fps_cap: Option<f64>,
) -> ExitCode {
    if opts.autoplay.is_some() {
        eprintln!("ledge: --autoplay goes with --headless (a window's runner is played with the keys)");
        return ExitCode::from(2);
    }
    let save = open_save(save_dir.as_deref());
    let app = ledge::app::AppOptions {
        vsync: save.settings().display.vsync,
        level: opts.level.clone(),
        fps_cap: fps_cap.or(save.settings().fps_cap()),
        tuning: opts.tuning.clone(),
        record: opts.record.clone(),
        reduced_motion: save.settings().display.reduced_motion,
        fullscreen: save.settings().display.fullscreen,
        save,
        watch: false,
        race: Some(ledge::app::race::RaceStart {
            net: opts.net,
            players: opts.players,
            ice: opts.ice,
            exit_after: opts.exit_after,
        }),
        ..Default::default()
    };
    run_window(app, "ledge:")
}

/// `--shot`'s renderer: the off-screen [`ledge::render::Offscreen`], opened at the first shot
/// (so a lab run without shots never touches the GPU).
#[cfg(all(feature = "game", not(all(target_arch = "wasm32", target_os = "unknown"))))]
struct OffscreenShots(Option<ledge::render::Offscreen>);

#[cfg(all(feature = "game", not(all(target_arch = "wasm32", target_os = "unknown"))))]
impl ledge::lab::FrameObserver for OffscreenShots {
    fn draw(
        &mut self,
        view: &ledge::present::view::FrameView<'_>,
        width: u32,
        height: u32,
    ) -> Result<Vec<u8>, ledge::lab::ObserverError> {
        let offscreen = match &mut self.0 {
            Some(o) => o,
            None => self.0.insert(ledge::render::Offscreen::new()?),
        };
        Ok(offscreen.render(view, width, height)?)
    }
}
