//! A run played back to be watched (`ledge replay FILE|LINK`, the page's `#run=`, the results'
//! "watch every attempt"): the lab script played frame by frame through the real [`Loop`],
//! paused, a tick forward or back, rewound and sped up, each picture exactly the one the lab
//! shows at that frame.
//!
//! Clock: the script's own scripted clock, walked at the window's pace ([`Playback::advance`]
//! is given the real time between two drawn frames, times the speed). What is shown is always
//! one of the script's frames: frame `f` is the loop after the script's frames 0..=f, so its
//! picture is the lab's (LAB.md Version 3). Going back restores a kept copy of the loop from
//! before and runs the script forward to `f` (a keyframe every [`Playback::keyframe_every`]
//! frames): nothing is ever interpolated between two frames of the script.
//!
//! The live loop is the caller's (the window draws it as it draws the game); this keeps the
//! script, the cursor for that loop, the keyframes and, per frame, where it falls on the script's
//! clock and how many ticks had run.

use super::cursor::Cursor;
use super::runner::{LabError, LabOptions, build_loop, parse_script};
use super::script::{Script, Step};
use crate::game_loop::{Loop, TickRecord};
use crate::present::ghost::GhostTrack;

/// Most keyframes kept: 128 copies of the loop (a few hundred KB each with a level's tiles;
/// a choice that holds a one-hour recording in tens of MB). Short runs keep one every
/// [`MIN_KEYFRAME_EVERY`] frames instead.
pub const MAX_KEYFRAMES: u64 = 128;

/// The fewest frames between two keyframes: 30 (half a second at 60 fps; going back runs at
/// most this many frames of the script, well under a millisecond of ticks).
pub const MIN_KEYFRAME_EVERY: u64 = 30;

/// The speeds, percent of the recorded pace (`-` and `=` step through them).
pub const SPEEDS: [u32; 7] = [10, 25, 50, 100, 200, 400, 800];

/// The index of 100 % in [`SPEEDS`].
const NORMAL_SPEED: usize = 3;

/// Most real time one [`Playback::advance`] counts: 250 ms, the game's frame-time clamp (a
/// stall of the window does not skip the picture ahead).
const MAX_STEP_NS: u64 = 250_000_000;

/// A frame of the script: where it ends on the script's clock, and the ticks run by then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameMark {
    /// The scripted clock at the end of the frame, ns.
    pub clock_ns: u64,
    /// Ticks run after it ([`crate::game_loop::Totals::ticks`]: rewound ticks count, so this
    /// never goes down, unlike the world's tick).
    pub ticks: u64,
}

/// The loop and cursor before frame `frame` ran.
#[derive(Clone, Debug)]
struct Keyframe {
    frame: u64,
    lp: Loop,
    cursor: Cursor,
}

/// Where a playback stands, for its on-screen bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaybackStatus {
    /// The frame shown, 0-based, and the number of frames.
    pub frame: u64,
    /// Frames in the run.
    pub frames: u64,
    /// Ticks run by the frame shown, and in the whole run.
    pub ticks: u64,
    /// Ticks in the whole run.
    pub total_ticks: u64,
    /// The speed, percent.
    pub speed_percent: u32,
    /// Paused (also at the end).
    pub paused: bool,
    /// Going backwards (rewind held).
    pub rewinding: bool,
    /// The last frame is shown.
    pub at_end: bool,
}

/// A run opened for watching; see the module docs.
#[derive(Debug)]
pub struct Playback {
    script: Script,
    name: String,
    /// The live loop's position in the script.
    cursor: Cursor,
    keyframes: Vec<Keyframe>,
    every: u64,
    marks: Vec<FrameMark>,
    /// The frame the live loop shows.
    shown: u64,
    /// The script's clock the picture has reached, ns (between two frames' ends while
    /// playing).
    pos_ns: u64,
    speed: usize,
    paused: bool,
    rewinding: bool,
    /// The script's `ghost` line's run, drawn beside it.
    ghost: Option<GhostTrack>,
    /// The ticks run by the frames [`Playback::advance`] ran forward this call (for their
    /// sounds); empty after a jump back.
    ticks_run: Vec<TickRecord>,
}

impl Playback {
    /// Open the script `text` (named `opts.script_name`, relative paths from
    /// `opts.script_dir`): it is run once to its end, keeping a keyframe every
    /// [`Playback::keyframe_every`] frames, and the loop showing its first frame is returned
    /// with it.
    ///
    /// # Errors
    /// What `ledge lab` refuses ([`LabError`], one line naming the script and the line): a
    /// malformed script, a missing level or one edited since the run, a bad event time; and a
    /// script with no frame.
    pub fn open(text: &str, opts: &LabOptions) -> Result<(Playback, Loop), LabError> {
        let script = parse_script(text, opts)?;
        let (mut lp, pause_on_focus_loss, _, _) = build_loop(&script, opts)?;
        lp.set_presenting(true);
        lp.set_rewind_history(script.rewinds());
        let ghost = super::ghost::for_script(script.ghost.as_ref(), opts, lp.config().tick_hz)?;
        let frames: u64 = script
            .steps
            .iter()
            .map(|(s, _)| if let Step::Frame { count, .. } = s { *count } else { 0 })
            .sum();
        if frames == 0 {
            return Err(LabError {
                script: opts.script_name.clone(),
                line: 0,
                msg: "no frame to watch".into(),
            });
        }
        let every = frames.div_ceil(MAX_KEYFRAMES).max(MIN_KEYFRAME_EVERY);
        let start = lp.clone();
        let mut cursor = Cursor::new(pause_on_focus_loss);
        let mut keyframes = Vec::new();
        let mut marks = Vec::new();
        loop {
            if cursor.frames_run().is_multiple_of(every) {
                keyframes.push(Keyframe {
                    frame: cursor.frames_run(),
                    lp: lp.clone(),
                    cursor: cursor.clone(),
                });
            }
            if cursor.next_frame(&script, &opts.script_name, &mut lp, None, None)?.is_none() {
                break;
            }
            marks.push(FrameMark { clock_ns: cursor.clock_ns(), ticks: lp.totals().ticks });
        }
        let mut pb = Playback {
            script,
            name: opts.script_name.clone(),
            cursor: Cursor::new(pause_on_focus_loss),
            keyframes,
            every,
            marks,
            shown: 0,
            pos_ns: 0,
            speed: NORMAL_SPEED,
            paused: false,
            rewinding: false,
            ghost,
            ticks_run: Vec::new(),
        };
        let mut live = start;
        pb.run_frame(&mut live);
        pb.pos_ns = pb.marks[0].clock_ns;
        pb.ticks_run.clear();
        Ok((pb, live))
    }

    /// Frames between two keyframes (at least [`MIN_KEYFRAME_EVERY`], at most
    /// [`MAX_KEYFRAMES`] in all).
    pub fn keyframe_every(&self) -> u64 {
        self.every
    }

    /// Every frame's mark, in order.
    pub fn marks(&self) -> &[FrameMark] {
        &self.marks
    }

    /// The script's `ghost` line's run, if it has one.
    pub fn ghost(&self) -> Option<&GhostTrack> {
        self.ghost.as_ref()
    }

    /// The ticks run forward by the last [`Playback::advance`] or step, in order (empty after
    /// going back): what the window plays the sounds of.
    pub fn ticks_run(&self) -> &[TickRecord] {
        &self.ticks_run
    }

    /// Where it stands.
    pub fn status(&self) -> PlaybackStatus {
        let last = self.marks.len() as u64 - 1;
        PlaybackStatus {
            frame: self.shown,
            frames: last + 1,
            ticks: self.marks[self.shown as usize].ticks,
            total_ticks: self.marks[last as usize].ticks,
            speed_percent: SPEEDS[self.speed],
            paused: self.paused || (self.shown == last && !self.rewinding),
            rewinding: self.rewinding,
            at_end: self.shown == last,
        }
    }

    /// Run the live loop's next frame of the script (the cursor is never at the end here: the
    /// marks say how many frames there are).
    fn run_frame(&mut self, lp: &mut Loop) {
        // The script ran to its end once in `open`: it cannot fail now.
        if let Ok(Some(run)) = self.cursor.next_frame(&self.script, &self.name, lp, None, None) {
            self.shown = run.index;
            if !run.paused {
                self.ticks_run.extend_from_slice(lp.ticks_this_frame());
            }
        }
    }

    /// Show frame `f` (clamped to the last): forward from the frame shown when it is near
    /// ahead, else from the keyframe at or before it.
    fn seek(&mut self, lp: &mut Loop, f: u64) {
        let f = f.min(self.marks.len() as u64 - 1);
        if f == self.shown {
            return;
        }
        if f < self.shown || f - self.shown > self.every {
            let k = &self.keyframes[(f / self.every) as usize];
            *lp = k.lp.clone();
            self.cursor = k.cursor.clone();
            self.ticks_run.clear();
            debug_assert_eq!(k.frame, self.cursor.frames_run());
            while self.cursor.frames_run() <= f {
                self.run_frame(lp);
            }
            self.ticks_run.clear();
        } else {
            while self.shown < f {
                self.run_frame(lp);
            }
        }
    }

    /// The real time `real_ns` passed since the last drawn frame: the script's clock moves by
    /// it times the speed, forwards or (rewind held) backwards, and `lp` shows the last frame
    /// of the script ending by then. Paused, nothing moves. The end pauses.
    pub fn advance(&mut self, lp: &mut Loop, real_ns: u64) {
        self.ticks_run.clear();
        let last = self.marks.len() as u64 - 1;
        let moved = real_ns.min(MAX_STEP_NS).saturating_mul(u64::from(SPEEDS[self.speed])) / 100;
        if self.rewinding {
            self.pos_ns = self.pos_ns.saturating_sub(moved);
            let f = self.marks.partition_point(|m| m.clock_ns <= self.pos_ns).saturating_sub(1) as u64;
            if f < self.shown {
                self.seek(lp, f);
            }
            return;
        }
        if self.paused || self.shown == last {
            return;
        }
        self.pos_ns = self.pos_ns.saturating_add(moved);
        let f = (self.marks.partition_point(|m| m.clock_ns <= self.pos_ns) as u64).saturating_sub(1);
        if f > self.shown {
            self.seek(lp, f);
        }
        if self.shown == last {
            self.paused = true;
        }
    }

    /// Pause or play on; playing at the end starts again from the first frame.
    pub fn toggle_pause(&mut self, lp: &mut Loop) {
        if self.paused && self.shown == self.marks.len() as u64 - 1 {
            self.restart(lp);
            return;
        }
        self.paused = !self.paused;
    }

    /// Pause (the window lost its focus); nothing when paused already.
    pub fn pause(&mut self) {
        self.paused = true;
    }

    /// Back to the first frame, playing.
    pub fn restart(&mut self, lp: &mut Loop) {
        self.seek(lp, 0);
        self.pos_ns = self.marks[0].clock_ns;
        self.paused = false;
    }

    /// Rewind held (`on`) or let go: while held the run plays backwards at the speed.
    pub fn set_rewinding(&mut self, on: bool) {
        self.rewinding = on;
    }

    /// One tick forward (`forward`) or back, and pause: the first frame after the one shown
    /// that ran a later tick, or the last one before it whose ticks came earlier (a frame that
    /// ran two ticks shows both at once, as it did to the player).
    pub fn step(&mut self, lp: &mut Loop, forward: bool) {
        self.paused = true;
        let now = self.marks[self.shown as usize].ticks;
        let f = if forward {
            let after = &self.marks[self.shown as usize..];
            self.shown + after.iter().position(|m| m.ticks > now).unwrap_or(after.len() - 1) as u64
        } else {
            self.marks.partition_point(|m| m.ticks < now).saturating_sub(1) as u64
        };
        self.seek(lp, f);
        self.pos_ns = self.marks[self.shown as usize].clock_ns;
    }

    /// One speed step up (`faster`) or down ([`SPEEDS`]).
    pub fn step_speed(&mut self, faster: bool) {
        self.speed =
            if faster { (self.speed + 1).min(SPEEDS.len() - 1) } else { self.speed.saturating_sub(1) };
    }
}

/// `ledge replay`'s summary line for the loop `lp`: `ledge replay: ticks=… jumps=… deaths=…
/// respawns=… level_complete=… state_hash=…` (the same words `--headless` prints at the end).
pub fn summary_line(lp: &Loop) -> String {
    let w = lp.world();
    line(
        lp.totals().ticks,
        w.jumps,
        w.deaths,
        w.respawns,
        w.level_complete,
        &format!("{:016x}", lp.state_hash()),
    )
}

/// The summary line from its numbers ([`summary_line`]).
pub(crate) fn line(ticks: u64, jumps: u64, deaths: u64, respawns: u64, complete: bool, hash: &str) -> String {
    format!(
        "ledge replay: ticks={ticks} jumps={jumps} deaths={deaths} respawns={respawns} level_complete={complete} state_hash={hash}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn opts() -> LabOptions {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        LabOptions {
            script_name: "level1.lab".into(),
            script_dir: root.join("tests/levels"),
            summary_only: true,
            force: false,
        }
    }

    fn level1() -> String {
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/levels/level1.lab"))
            .unwrap()
    }

    /// Run `pb` at 60 fps until it pauses at the end.
    fn play_out(pb: &mut Playback, lp: &mut Loop) {
        for _ in 0..100_000 {
            if pb.status().at_end {
                return;
            }
            pb.advance(lp, 16_666_667);
        }
        panic!("never reached the end");
    }

    #[test]
    fn played_out_it_ends_on_the_labs_hash_and_every_seek_shows_the_labs_frame() {
        let text = level1();
        let report = super::super::run_script(&text, &opts()).unwrap();
        let (mut pb, mut lp) = Playback::open(&text, &opts()).unwrap();
        assert_eq!(pb.status().frame, 0);
        play_out(&mut pb, &mut lp);
        assert_eq!(format!("{:016x}", lp.state_hash()), report.summary.state_hash);
        assert!(pb.status().paused);
        // Jump back anywhere and forward again: the same loop as a straight run to that frame.
        let mid = pb.marks().len() as u64 / 2 + 7;
        pb.seek(&mut lp, mid);
        let back = lp.state_hash();
        let (mut straight, mut sl) = Playback::open(&text, &opts()).unwrap();
        while straight.shown < mid {
            straight.run_frame(&mut sl);
        }
        assert_eq!(back, sl.state_hash());
        assert_eq!(lp.drawn(), sl.drawn(), "the picture too");
        assert_eq!(lp.view().camera, sl.view().camera);
        pb.seek(&mut lp, pb.marks().len() as u64 - 1);
        assert_eq!(format!("{:016x}", lp.state_hash()), report.summary.state_hash);
    }

    #[test]
    fn pause_step_rewind_and_speed() {
        let (mut pb, mut lp) = Playback::open(&level1(), &opts()).unwrap();
        for _ in 0..60 {
            pb.advance(&mut lp, 16_666_667);
        }
        let s = pb.status();
        assert!(s.ticks >= 55 && s.ticks <= 62, "about a second in: {s:?}");
        pb.toggle_pause(&mut lp);
        pb.advance(&mut lp, 100_000_000);
        assert_eq!(pb.status().ticks, s.ticks, "paused: nothing moves");
        pb.step(&mut lp, true);
        assert_eq!(pb.status().ticks, s.ticks + 1, "a tick forward");
        pb.step(&mut lp, false);
        pb.step(&mut lp, false);
        assert_eq!(pb.status().ticks, s.ticks - 1, "two ticks back");
        assert_eq!(lp.totals().ticks, s.ticks - 1);
        // Rewind held plays backwards, paused or not, down to the first frame.
        pb.set_rewinding(true);
        for _ in 0..30 {
            pb.advance(&mut lp, 16_666_667);
        }
        let r = pb.status().ticks;
        assert!(r + 25 < s.ticks && r + 35 > s.ticks, "half a second back: {r}");
        for _ in 0..100 {
            pb.advance(&mut lp, 16_666_667);
        }
        assert_eq!(pb.status().frame, 0);
        pb.set_rewinding(false);
        // 400 %: a second of real time is four of the run.
        pb.step_speed(true);
        pb.step_speed(true);
        assert_eq!(pb.status().speed_percent, 400);
        pb.toggle_pause(&mut lp);
        let before = pb.status().ticks;
        for _ in 0..60 {
            pb.advance(&mut lp, 16_666_667);
        }
        let ran = pb.status().ticks - before;
        assert!((230..=250).contains(&ran), "400 % ran {ran} ticks in a second");
        // At the end it pauses; play again starts over.
        play_out(&mut pb, &mut lp);
        pb.toggle_pause(&mut lp);
        assert_eq!(pb.status().frame, 0);
        assert!(!pb.status().paused);
    }

    #[test]
    fn a_script_without_frames_or_with_a_bad_line_is_refused() {
        let e = Playback::open("press right\n", &opts()).unwrap_err();
        assert!(e.to_string().contains("no frame"), "{e}");
        let e = Playback::open("frame 16.6\nbogus\n", &opts()).unwrap_err();
        assert!(e.to_string().contains(":2:"), "{e}");
    }
}
