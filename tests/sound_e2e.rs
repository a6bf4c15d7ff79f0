//! The game's real sound path, end to end (docs/playing.md "Sound"): kira → cpal → ALSA, in a
//! real window on a private Xvfb, keys pressed with XTest (`xdotool`).
//!
//! - `a_jump_is_heard_within_the_stated_latency`: ALSA's default device is pointed (with
//!   `ALSA_CONFIG_PATH`) at its `file` plugin writing into a named pipe read by
//!   `tests/common/alsa_sink.py`, a software sound card that takes the samples at the
//!   real-time rate and notes when it took each. Music volume 0 in the saved settings (the volumes are applied at start), effects 1.
//!   After the start is quiet, jump is pressed; the first loud sample after the press must be
//!   heard within [`LATENCY_LIMIT_MS`] of the jump's tick time (in one of [`ATTEMPTS`] runs). The tick time comes from the
//!   game's own `--record`ing: the press's game-clock time and, replayed in the lab, the time
//!   the jump's tick fell due (accounting for any dropped time).
//! - `pausing_pauses_the_music`: default volumes, the same card: music is heard while
//!   playing, the card is silent from 200 ms after Esc (pause) on, and the music is back
//!   after Esc again (resume).
//! - `no_audio_device_is_one_warning_and_a_silent_game`: ALSA pointed at a card that does not
//!   exist: exactly one stderr line, the game plays (ticks run, jump works) and exits 0.
//! - `the_game_plays_on_when_the_sound_device_goes_away` (issue #20): default volumes, the
//!   same card; the music is heard, then the card's reader is killed mid-game, so ALSA's
//!   writes into its pipe fail; a jump is pressed in the silence, then a new reader opens the
//!   pipe and a second jump is pressed: exactly one stderr line (the "sound device lost"
//!   warning), both jumps counted, exit 0 with the summary, and the new reader hears the
//!   music again.
//!
//! Clock: wall time (real processes, real sleeps); CLOCK_MONOTONIC shared with the sink.

mod common;

use common::exit::{exit_ok, summary_line};
use common::levels::write_flat_level;
use common::proc::{Proc, run_tool};
use common::scratch::Scratch;
use common::xvfb::{Xvfb, require_tools, serial};
use common::{ledge, root};
use std::fs;
use std::path::Path;
use std::process::Command;
use std::thread;
use std::time::Duration;

/// The most milliseconds from the jump's tick time to its sound's first loud sample at the
/// software card. What it covers: the frame that runs the tick (the loop wakes on the tick),
/// kira's command queue and 128-frame internal buffer, cpal's ALSA period and buffer, the
/// `plug` conversion and the sink's one-page pipe (4 KiB, 21 ms) — as a real card's buffer would.
/// docs/speed.md has the figure measured.
const LATENCY_LIMIT_MS: f64 = 150.0;

/// A sample louder than this (of 32767) is sound: the jump's square wave starts at 0.5 of
/// full scale, far above it; silence (music at volume 0) is 0.
const LOUD: i16 = 3000;

/// The sink's format (tests/common/alsa_sink.py): S16_LE stereo at 48 kHz.
const RATE: f64 = 48_000.0;

/// CLOCK_MONOTONIC now, nanoseconds (the clock the sink stamps with).
fn monotonic_ns() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// Starts the software card (`tests/common/alsa_sink.py` reading a named pipe) and writes an
/// ALSA configuration whose default device is `plug` → `file` (into that pipe) → `null`.
/// Returns the configuration's path and the sink (killed on drop; it flushes every chunk),
/// writing `out.raw` and `times.txt`.
fn start_sink(scratch: &Scratch) -> (std::path::PathBuf, Proc) {
    let fifo = scratch.path("card.fifo");
    let (s, _, err) = run_tool(Command::new("mkfifo").arg(&fifo), "mkfifo", Duration::from_secs(10));
    assert!(s.success(), "mkfifo: {err}");
    let conf = format!(
        "pcm.!default {{ type plug; slave {{ pcm \"ledgesink\"; format S16_LE; rate 48000; channels 2 }} }}\n\
         pcm.ledgesink {{ type file; slave.pcm \"ledgenull\"; file \"{}\"; format \"raw\" }}\n\
         pcm.ledgenull {{ type null }}\n",
        fifo.display()
    );
    let path = scratch.path("asound.conf");
    fs::write(&path, conf).expect("write ALSA config");
    (path, start_reader(scratch, "out.raw", "times.txt"))
}

/// Starts the software card's reader on `SCRATCH/card.fifo` (made by [`start_sink`]), writing
/// `SCRATCH/OUT` and `SCRATCH/TIMES`, and waits until it reads: it creates OUT once its pipe
/// is shrunk (start the game only then).
fn start_reader(scratch: &Scratch, out: &str, times: &str) -> Proc {
    let sink = Proc::spawn(
        "alsa_sink.py",
        Command::new("python3")
            .arg(root().join("tests/common/alsa_sink.py"))
            .arg(scratch.path("card.fifo"))
            .arg(scratch.path(out))
            .arg(scratch.path(times)),
    );
    let ready = std::time::Instant::now();
    while !scratch.path(out).exists() {
        assert!(ready.elapsed() < Duration::from_secs(20), "the software sound card did not start");
        thread::sleep(Duration::from_millis(20));
    }
    sink
}

/// The saved settings in `dir` with music at volume 0 and effects and master at 1.
fn save_dir_without_music(dir: &Path) {
    let (mut store, warnings) = ledge::save::Store::open(Some(dir));
    assert!(warnings.is_empty(), "{warnings:?}");
    let mut s = store.settings().clone();
    s.volume.master = 1.0;
    s.volume.effects = 1.0;
    s.volume.music = 0.0;
    store.set_settings(s).expect("settings saved");
}

/// The sink's samples (left channel) and, per chunk, (monotonic ns it was played, first frame).
fn read_sink(scratch: &Scratch) -> (Vec<i16>, Vec<(u64, usize)>) {
    read_reader(scratch, "out.raw", "times.txt")
}

/// [`read_sink`] for the reader that wrote `SCRATCH/OUT` and `SCRATCH/TIMES`.
fn read_reader(scratch: &Scratch, out: &str, times: &str) -> (Vec<i16>, Vec<(u64, usize)>) {
    let raw = fs::read(scratch.path(out)).expect("the sink wrote samples");
    let left: Vec<i16> = raw.chunks_exact(4).map(|f| i16::from_le_bytes([f[0], f[1]])).collect();
    let times = fs::read_to_string(scratch.path(times)).expect("the sink wrote times");
    let chunks = times
        .lines()
        .filter_map(|l| {
            let (t, n) = l.split_once(' ')?;
            Some((t.parse().ok()?, n.parse().ok()?))
        })
        .collect();
    (left, chunks)
}

/// When frame `n` was played: its chunk's time plus its place in the chunk.
fn played_at(chunks: &[(u64, usize)], n: usize) -> u64 {
    let i = chunks.partition_point(|c| c.1 <= n).saturating_sub(1);
    let (t, first) = chunks[i];
    t + ((n - first) as f64 / RATE * 1e9) as u64
}

/// The first frame played at or after `t` (monotonic ns).
fn frame_at(chunks: &[(u64, usize)], t: u64) -> usize {
    let i = chunks.partition_point(|c| c.0 < t);
    chunks.get(i).map_or(usize::MAX, |c| c.1)
}

/// From the recording: the press's game-clock time and, replayed, the game-clock times the
/// jump's tick fell due and the frame that ran it ran, milliseconds.
fn press_and_tick_ms(rec: &Path, scratch: &Scratch) -> (f64, f64, f64) {
    let script = fs::read_to_string(rec).expect("the recording");
    let press = script
        .lines()
        .find_map(|l| l.trim().strip_prefix("press jump @"))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no 'press jump @MS' in the recording:\n{script}"));
    let json = scratch.path("replay.json");
    let out = ledge()
        .args(["lab", rec.to_str().expect("utf-8"), "--json", json.to_str().expect("utf-8")])
        .output()
        .expect("run ledge lab");
    assert!(out.status.success(), "replay failed: {}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&json).expect("report")).expect("JSON");
    let tick_ms = 1000.0 / r["config"]["tick_hz"].as_f64().expect("tick_hz");
    let jump = r["ticks"]
        .as_array()
        .expect("ticks")
        .iter()
        .find(|t| t["jump_started"] == true)
        .unwrap_or_else(|| panic!("no jump in the replay of\n{script}"));
    assert_eq!(jump["sounds"], serde_json::json!(["jump"]), "the jump tick's cue");
    let k = jump["tick"].as_u64().expect("tick");
    // The frame that ran tick k ended at game time T with `accumulator_ms` banked after its
    // last tick: tick k fell due (last − k) ticks and that remainder before T.
    let mut t = 0.0;
    for f in r["frames"].as_array().expect("frames") {
        t += f["dt_ms"].as_f64().expect("dt_ms");
        let last = f["tick"].as_u64().expect("tick");
        if last >= k && f["steps"].as_u64().expect("steps") > 0 {
            let due = t - f["accumulator_ms"].as_f64().expect("acc") - (last - k) as f64 * tick_ms;
            return (press, due, t);
        }
    }
    panic!("no frame ran tick {k}");
}

/// Up to this many runs of the jump test: the latency limit must hold in one of them. Every
/// other check holds in every run. On a shared 2-core machine (load 10) about one run in ten
/// heard the jump some 250 ms late while the rest were at 50–105 ms; a path that is always
/// slow still fails, with every run's figure in the message.
const ATTEMPTS: usize = 3;

#[test]
fn a_jump_is_heard_within_the_stated_latency() {
    require_tools(&["Xvfb", "xdotool", "python3"]);
    let _serial = serial();
    let mut figures = Vec::new();
    for attempt in 1..=ATTEMPTS {
        let (latency_ms, ctx) = jump_latency(attempt);
        figures.push(latency_ms);
        if latency_ms <= LATENCY_LIMIT_MS {
            return;
        }
        if attempt == ATTEMPTS {
            panic!(
                "jump heard {figures:.1?} ms after its tick in {ATTEMPTS} runs (limit {LATENCY_LIMIT_MS}){ctx}"
            );
        }
    }
}

/// The game on a flat level (`SCRATCH/flat.tmx`, saving into `SCRATCH/save`, which the caller
/// may have prepared) with sound on through the ALSA configuration `conf` and `extra` flags;
/// its window mapped and focused.
fn game_on_flat_level(x: &Xvfb, scratch: &Scratch, conf: &Path, extra: &[&str]) -> Proc {
    let level = scratch.path("flat.tmx");
    write_flat_level(&level);
    let save = scratch.path("save");
    let mut args =
        vec!["--level", level.to_str().expect("utf-8"), "--save-dir", save.to_str().expect("utf-8")];
    args.extend_from_slice(extra);
    let mut cmd = x.game_command(scratch, &args);
    cmd.env("ALSA_CONFIG_PATH", conf).env_remove("LEDGE_AUDIO");
    let mut game = Proc::spawn("ledge", &mut cmd);
    let win = x.wait_window(&mut game);
    x.focus(&win);
    game
}

/// One run of the jump test: the latency from the jump's tick to its first loud sample,
/// milliseconds, and the game's output for messages.
fn jump_latency(attempt: usize) -> (f64, String) {
    let scratch = Scratch::new(&format!("sound{attempt}"));
    let (conf, sink) = start_sink(&scratch);
    let save = scratch.path("save");
    save_dir_without_music(&save);
    let rec = scratch.path("jump.lab");
    let x = Xvfb::start();
    let rec_arg = rec.to_str().expect("utf-8");
    let game = game_on_flat_level(
        &x,
        &scratch,
        &conf,
        &["--record", rec_arg, "--fps-cap", "60", "--exit-after", "5"],
    );
    // Let the spawn's landing sound end, then jump.
    thread::sleep(Duration::from_millis(1500));
    let before_press = monotonic_ns();
    x.xdo(&["key", "space"]);
    let (stdout, ctx) = exit_ok(game);
    let line = summary_line(&stdout).expect("summary");
    assert!(line.contains("jumps=1"), "one jump: {line}");
    drop(sink);

    let (samples, chunks) = read_sink(&scratch);
    assert!(chunks.len() > 100, "the sink played for a while: {} chunks{ctx}", chunks.len());
    let from = frame_at(&chunks, before_press);
    assert!(from < samples.len(), "the sink stopped before the press{ctx}");
    let quiet_from = frame_at(&chunks, before_press.saturating_sub(300_000_000));
    let before_max = samples[quiet_from..from].iter().map(|s| s.unsigned_abs()).max().unwrap_or(0);
    assert!(before_max < LOUD as u16, "not quiet before the press (music at volume 0): peak {before_max}");
    let onset = from
        + samples[from..]
            .iter()
            .position(|s| s.unsigned_abs() > LOUD as u16)
            .unwrap_or_else(|| panic!("no sound after the jump press{ctx}"));
    let heard = played_at(&chunks, onset);

    // The tick's time on the monotonic clock: the press arrived at or after `before_press`,
    // and the tick fell due (tick − press) later in game time (running at 1x, unpaused).
    let (press_ms, tick_ms, frame_ms) = press_and_tick_ms(&rec, &scratch);
    assert!(tick_ms >= press_ms - 1e-6, "the tick is not before the press: {tick_ms} < {press_ms}");
    let tick_at = before_press as f64 + (tick_ms - press_ms) * 1e6;
    let latency_ms = (heard as f64 - tick_at) / 1e6;
    let press_to_sound = (heard - before_press) as f64 / 1e6;
    eprintln!(
        "sound latency: {latency_ms:.1} ms from the jump's tick to its first loud sample \
         ({press_to_sound:.1} ms from the XTest press; tick {:.1} ms after the press; the frame \
         that ran it {:.1} ms after the tick)",
        tick_ms - press_ms,
        frame_ms - tick_ms
    );
    assert!(latency_ms >= 0.0, "the sound before its tick? {latency_ms} ms");
    (latency_ms, ctx)
}

/// The loudest left-channel sample the card played between monotonic times `from` and `to`.
fn peak(samples: &[i16], chunks: &[(u64, usize)], from: u64, to: u64) -> u16 {
    let (a, b) = (frame_at(chunks, from).min(samples.len()), frame_at(chunks, to).min(samples.len()));
    samples[a..b].iter().map(|s| s.unsigned_abs()).max().unwrap_or(0)
}

#[test]
fn pausing_pauses_the_music() {
    require_tools(&["Xvfb", "xdotool", "python3"]);
    let _serial = serial();
    let scratch = Scratch::new("sound-pause");
    let (conf, sink) = start_sink(&scratch);
    let x = Xvfb::start();
    let game = game_on_flat_level(&x, &scratch, &conf, &["--exit-after", "6"]);
    thread::sleep(Duration::from_millis(1000));
    let paused_at = monotonic_ns();
    x.xdo(&["key", "Escape"]);
    thread::sleep(Duration::from_millis(1000));
    let resumed_at = monotonic_ns();
    x.xdo(&["key", "Escape"]);
    let (_, ctx) = exit_ok(game);
    drop(sink);
    let (samples, chunks) = read_sink(&scratch);
    let ms = 1_000_000;
    let playing = peak(&samples, &chunks, paused_at - 600 * ms, paused_at);
    let paused = peak(&samples, &chunks, paused_at + 200 * ms, resumed_at);
    let again = peak(&samples, &chunks, resumed_at + 200 * ms, resumed_at + 900 * ms);
    eprintln!("music peaks: playing {playing}, paused {paused}, resumed {again}");
    assert!(playing > LOUD as u16, "music heard while playing: peak {playing}{ctx}");
    assert!(paused < 200, "silent while paused: peak {paused}{ctx}");
    assert!(again > LOUD as u16, "music back after resuming: peak {again}{ctx}");
}

#[test]
fn no_audio_device_is_one_warning_and_a_silent_game() {
    require_tools(&["Xvfb", "xdotool"]);
    let _serial = serial();
    let scratch = Scratch::new("nosound");
    let conf = scratch.path("asound.conf");
    fs::write(&conf, "pcm.!default { type hw; card 97 }\nctl.!default { type hw; card 97 }\n").expect("conf");
    let x = Xvfb::start();
    let mut game = game_on_flat_level(&x, &scratch, &conf, &["--exit-after", "3"]);
    thread::sleep(Duration::from_millis(500));
    x.xdo(&["key", "space"]);
    let status = game.wait_for(Duration::from_secs(40));
    let (_, stdout, stderr) = game.finish();
    let ctx = format!("\nstdout: {stdout}\nstderr: {stderr}");
    assert!(status.is_some_and(|s| s.success()), "exit 0{ctx}");
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "exactly one stderr line{ctx}");
    assert!(
        lines[0].starts_with("ledge: warning: no audio output")
            && lines[0].ends_with("the game plays silently"),
        "the warning{ctx}"
    );
    let line = summary_line(&stdout).unwrap_or_else(|| panic!("no summary{ctx}"));
    assert!(line.contains("jumps=1"), "the game played on: {line}");
}

#[test]
fn the_game_plays_on_when_the_sound_device_goes_away() {
    require_tools(&["Xvfb", "xdotool", "python3"]);
    let _serial = serial();
    let scratch = Scratch::new("sound-lost");
    let (conf, sink) = start_sink(&scratch);
    let x = Xvfb::start();
    let mut game = game_on_flat_level(&x, &scratch, &conf, &["--exit-after", "7"]);
    thread::sleep(Duration::from_millis(1000));
    let lost_at = monotonic_ns();
    drop(sink); // killed: the pipe has no reader, ALSA's writes into it fail (EPIPE)
    thread::sleep(Duration::from_millis(700));
    x.xdo(&["key", "space"]); // a jump in the silence
    thread::sleep(Duration::from_millis(500));
    let again = start_reader(&scratch, "out2.raw", "times2.txt");
    // The reader has opened the pipe (the game's waiting open returns then) and shrunk it.
    let reader_at = monotonic_ns();
    thread::sleep(Duration::from_millis(2500));
    x.xdo(&["key", "space"]); // a jump with sound again

    let status = game.wait_for(Duration::from_secs(40));
    let (_, stdout, stderr) = game.finish();
    drop(again);
    let ctx = format!("\nstdout: {stdout}\nstderr: {stderr}");
    assert!(status.is_some_and(|s| s.success()), "exit 0 (before issue #20: SIGABRT, 134){ctx}");
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "exactly one stderr line{ctx}");
    assert!(
        lines[0].starts_with("ledge: warning: sound device lost (")
            && lines[0].ends_with("the game plays silently until it is back"),
        "the warning{ctx}"
    );
    let line = summary_line(&stdout).unwrap_or_else(|| panic!("no summary{ctx}"));
    assert!(line.contains("jumps=2"), "both jumps, in the silence and after: {line}");

    let ms = 1_000_000;
    let (before, chunks) = read_sink(&scratch);
    let heard = peak(&before, &chunks, lost_at - 600 * ms, lost_at);
    let (after, chunks2) = read_reader(&scratch, "out2.raw", "times2.txt");
    let back = after.iter().map(|s| s.unsigned_abs()).max().unwrap_or(0);
    let since_reader = |pred: fn(&i16) -> bool| {
        let n = after.iter().position(pred)?;
        Some((played_at(&chunks2, n) as f64 - reader_at as f64) / 1e6)
    };
    eprintln!(
        "music peaks: before the loss {heard}, from the new reader {back} ({:.2} s of samples); \
         its first sample {:.0?} ms, first loud one {:.0?} ms after it was ready (seen within \
         20 ms)",
        after.len() as f64 / RATE,
        since_reader(|s| *s != 0),
        since_reader(|s| s.unsigned_abs() > LOUD as u16),
    );
    assert!(heard > LOUD as u16, "music heard before the loss: peak {heard}{ctx}");
    assert!(back > LOUD as u16, "music heard again by the new reader: peak {back}{ctx}");
}
