//! The one-line exit summary and its `--stats` JSON.
//!
//! Clock: none (built once, at exit, from the loop's totals).

use super::{Graphics, Pacer};
use serde::Serialize;
use web_time::Instant;

/// What a play session did, printed at exit; serialised (derive) as the `--stats` JSON.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Render frames run.
    pub frames: u64,
    /// Fixed ticks run.
    pub ticks: u64,
    /// Frames per second while playing: frames / (`wall_s` - `paused_s`).
    pub mean_fps: f64,
    /// Most ticks run in one frame.
    pub max_ticks_in_frame: u32,
    /// Frames whose delta was clamped.
    pub clamp_events: u64,
    /// Frames that hit the catch-up cap.
    pub cap_hits: u64,
    /// Jumps started.
    pub jumps: u64,
    /// Respawns.
    pub respawns: u64,
    /// Hash of the simulation state at exit (written as 16 hex digits).
    #[serde(serialize_with = "hex16")]
    pub state_hash: u64,
    /// Player hitbox top-left at exit, pixels.
    pub player_x: f64,
    /// Player hitbox top-left at exit, pixels.
    pub player_y: f64,
    /// Player spawn in the first level, pixels.
    pub start_x: f64,
    /// Player spawn in the first level, pixels.
    pub start_y: f64,
    /// `start_y` minus the smallest player y seen after any frame, pixels (how high the
    /// player got above the spawn; y grows downward).
    pub max_rise: f64,
    /// Window inner size at exit, physical pixels.
    pub window_w: u32,
    /// Window inner size at exit, physical pixels.
    pub window_h: u32,
    /// Wall seconds since the game clock started (paused time included).
    pub wall_s: f64,
    /// Wall seconds spent paused (pause screen, focus lost, end screen): the game clock
    /// stood still for them.
    pub paused_s: f64,
    /// Levels completed.
    pub levels_completed: u32,
    /// The game-speed assist at exit, whole percent (50..=160; `--game-speed`, else the
    /// settings' `display.game_speed`, as changed in play).
    pub game_speed: u32,
    /// `--fps-cap` pacing: mean lateness of a frame start after its deadline, microseconds.
    pub pace_late_mean_us: f64,
    /// `--fps-cap` pacing: worst lateness, microseconds.
    pub pace_late_max_us: f64,
    /// Frames presented to the window.
    pub presented: u64,
    /// Frames not drawn (zero-size window, surface timeout/occluded/validation).
    pub skipped_draws: u64,
    /// Wall seconds the window was minimised or occluded (nothing drawn).
    pub hidden_s: f64,
    /// Event-loop wake-ups while hidden (≤ 60 per hidden second: the loop sleeps until the
    /// next tick).
    pub hidden_wakeups: u64,
    /// Times the window came back from hidden.
    pub restores: u64,
    /// Frames presented per second since the last restore (0 if never hidden).
    pub fps_since_restore: f64,
    /// Lost GPU devices replaced by a new one (`--lose-device-after`, a GPU reset).
    pub device_losses: u32,
    /// The adapter used, for logs.
    pub adapter: String,
    /// The present mode used.
    pub present_mode: String,
    /// Drawn frames in which the player rode the same platform through both ticks the frame
    /// blends ([`crate::present::ride_stats`]).
    pub ride_frames: u64,
    /// Over those frames, max − min of (drawn platform − drawn player) x, pixels: 0 when the
    /// rider is drawn at a constant offset from its platform.
    pub ride_offset_spread_x: f64,
    /// The same for y, pixels.
    pub ride_offset_spread_y: f64,
    /// Over those frames in which the camera moved on x, max − min of the rider's drawn x on
    /// screen, pixels: 0 when the camera carries the rider without it moving on screen.
    pub ride_screen_spread_x: f64,
    /// The same for y (frames in which the camera moved on y), pixels.
    pub ride_screen_spread_y: f64,
    /// How many riding frames the camera moved in (those the screen spreads cover).
    pub ride_camera_frames: u64,
}

impl Summary {
    /// The one-line exit summary.
    pub fn line(&self) -> String {
        format!(
            "ledge: frames={} ticks={} mean_fps={:.1} max_ticks_in_frame={} clamp_events={} \
             cap_hits={} jumps={} respawns={} state_hash={:016x} player_x={:.2} player_y={:.2}",
            self.frames,
            self.ticks,
            self.mean_fps,
            self.max_ticks_in_frame,
            self.clamp_events,
            self.cap_hits,
            self.jumps,
            self.respawns,
            self.state_hash,
            self.player_x,
            self.player_y,
        )
    }

    /// The summary as a JSON object (`--stats FILE`): its fields by their names, keys sorted
    /// (serde_json's map), `state_hash` as 16 hex digits.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("a summary is numbers and strings")
    }
}

/// A hash as 16 lower-case hex digits.
fn hex16<S: serde::Serializer>(h: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&format_args!("{h:016x}"))
}

/// The exit summary: what [`super::run`] prints and writes for `--stats`, from the app's state.
impl super::App {
    /// The exit summary of the session so far.
    pub(super) fn summary(&self) -> Summary {
        let t = self.game.totals();
        let wall_ns = self.wall_ns();
        let wall_s = wall_ns as f64 / 1e9;
        let paused_s = self.clock.paused_ns(wall_ns) as f64 / 1e9;
        let played_s = wall_s - paused_s;
        let player = self.game.world().player.pos;
        let (late_mean, late_max) = self.pacer.as_ref().map_or((0.0, 0.0), Pacer::lateness_us);
        let (window_w, window_h) =
            self.gfx.as_ref().map_or((0, 0), |g| (g.window.inner_size().width, g.window.inner_size().height));
        let stats = self.gfx.as_ref().map(|g| g.gpu.stats()).unwrap_or_default();
        let vis = self.visibility.stats(Instant::now());
        let ride = self.ride.figures();
        Summary {
            frames: t.frames,
            ticks: t.ticks,
            mean_fps: if played_s > 0.0 { t.frames as f64 / played_s } else { 0.0 },
            max_ticks_in_frame: t.max_steps_in_frame,
            clamp_events: t.clamp_events,
            cap_hits: t.cap_hits,
            jumps: self.game.world().jumps,
            respawns: self.game.world().respawns,
            state_hash: self.game.state_hash(),
            player_x: player.x,
            player_y: player.y,
            start_x: self.start_pos.x,
            start_y: self.start_pos.y,
            max_rise: self.start_pos.y - self.min_y,
            window_w,
            window_h,
            wall_s,
            paused_s,
            levels_completed: self.session.levels_completed,
            game_speed: self.game.game_speed().percent(),
            pace_late_mean_us: late_mean,
            pace_late_max_us: late_max,
            presented: stats.presented,
            skipped_draws: stats.timeouts + stats.occluded + stats.validation + stats.zero_size,
            hidden_s: vis.hidden_s,
            hidden_wakeups: vis.hidden_wakeups,
            restores: vis.restores,
            fps_since_restore: vis.fps_since_restore,
            device_losses: self.device_loss.recreated,
            adapter: self.gfx.as_ref().map_or_else(String::new, |g| g.gpu.ctx.info.to_string()),
            present_mode: self.gfx.as_ref().map_or_else(String::new, Graphics::present_mode),
            ride_frames: ride.frames,
            ride_offset_spread_x: ride.offset_spread.x,
            ride_offset_spread_y: ride.offset_spread.y,
            ride_screen_spread_x: ride.screen_spread.x,
            ride_screen_spread_y: ride.screen_spread.y,
            ride_camera_frames: ride.camera_frames,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_line_format() {
        let s = Summary { frames: 3, state_hash: 0xab, ..Default::default() };
        let line = s.line();
        assert!(line.starts_with("ledge: frames=3 ticks=0 mean_fps=0.0 "));
        assert!(line.contains("state_hash=00000000000000ab"));
        assert_eq!(s.to_json()["state_hash"], "00000000000000ab");
        assert_eq!(s.to_json()["paused_s"], 0.0);
    }
}
