//! A race in the window or the page (NET.md "What a player sees"): the app's loop driven by a
//! [`RacePeer`] instead of its own clock. While the room fills and the peers connect the level
//! stands still under a status line; then the race runs, the local player's keys latched into
//! its own runner on the race's clock; at the end the results (the summary's fields) stay on
//! screen and, in a page, on `window.ledgeRaceSummary`.
//!
//! Clock: the wall clock (`web_time::Instant`), read once a frame and handed to the peer; key
//! edges are stamped on the race's clock ([`RacePeer::race_clock_ns`]).
//!
//! Rewind, ghosts and game speed are off in a race (the loop refuses rewind with more than one
//! player; the app starts no ghost and keeps 100 %).

use crate::game_loop::{FrameStats, Loop};
use crate::input::InputEvent;
use crate::net::transport::Transport;
use crate::present::instances::RIVAL_SRGB;
use crate::present::letterbox::letterbox;
use crate::present::text::{Align, TextItem};
use crate::present::view::{FrameView, VIEW_SIZE};
use crate::race::code::RoomCode;
use crate::race::{NetSpec, Players, Polled, Progress, RaceEnd, RacePeer, Refused};
use crate::ui::Layer;
use web_time::Instant;

/// How a window or page joins a race (`?net=…&players=N`, `--net … --players N`).
#[derive(Clone, Debug, PartialEq)]
pub struct RaceStart {
    /// The room, or a UDP port.
    pub net: NetSpec,
    /// The players.
    pub players: Players,
    /// STUN/TURN servers.
    pub ice: Vec<String>,
    /// End at this many seconds of the race's clock (`exit_after`).
    pub exit_after: Option<f64>,
}

/// A race's peer whatever its transport.
trait Link {
    fn poll(&mut self, lp: &mut Loop, now: Instant) -> Result<Polled, Refused>;
    fn me(&self) -> Option<usize>;
    fn clock_ns(&self, now: Instant) -> u64;
    fn notices(&mut self) -> Vec<String>;
    fn last_frame(&self) -> FrameStats;
    fn panel(&mut self) -> Option<String>;
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    fn end(&mut self, lp: &Loop) -> RaceEnd;
}

impl<T: Transport> Link for RacePeer<T> {
    fn poll(&mut self, lp: &mut Loop, now: Instant) -> Result<Polled, Refused> {
        RacePeer::poll(self, lp, now)
    }
    fn me(&self) -> Option<usize> {
        RacePeer::me(self)
    }
    fn clock_ns(&self, now: Instant) -> u64 {
        self.race_clock_ns(now)
    }
    fn notices(&mut self) -> Vec<String> {
        self.take_notices()
    }
    fn last_frame(&self) -> FrameStats {
        RacePeer::last_frame(self)
    }
    fn panel(&mut self) -> Option<String> {
        RacePeer::panel(self)
    }
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    fn end(&mut self, lp: &Loop) -> RaceEnd {
        RacePeer::end(self, lp)
    }
}

/// Where the race stands, for the screen.
#[derive(Debug)]
pub enum Standing {
    /// Before the race: the room filling, the peers connecting.
    Waiting(Progress),
    /// Racing.
    Racing,
    /// Over: the summary.
    Over(Box<RaceEnd>),
    /// Refused or failed: the one line.
    Failed(String),
}

/// The app's race.
pub(super) struct LiveRace {
    link: Box<dyn Link>,
    /// Where it stands.
    pub(super) standing: Standing,
    /// Lines to show (a player left).
    pub(super) notices: Vec<String>,
    /// The status line ([`LiveRace::status`]) as of the last frame.
    status: Option<String>,
    /// The room's name (a room code when the race came from the menu), for the status line.
    room: Option<String>,
    /// Leave the app once the race is over (`exit_after` given).
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    exit_when_over: bool,
    /// The loop follows this peer's runner.
    following: bool,
    /// The game speed before the race, given back when it is left.
    speed_before: crate::time::GameSpeed,
    /// The race ended this frame (the app keeps its record once).
    just_ended: bool,
    /// Where the race was kept, for the results line.
    kept_as: Option<String>,
    /// A race from the menu: its room code and its rematch round (0: the first race).
    code: Option<RoomCode>,
    round: u32,
    /// The race's sounds, each (cue, tick) once, stopped when rolled back.
    pub(super) sounds: crate::audio::rollsafe::Ledger<Option<kira::sound::static_sound::StaticSoundHandle>>,
}

impl LiveRace {
    /// Join the race `start` asks for on `game` (set up for its players here), the level of
    /// `level_line` (its record's level line).
    ///
    /// # Errors
    /// One line: a UDP port that cannot be bound.
    pub(super) fn join(
        start: &RaceStart,
        game: &mut Loop,
        level_line: crate::lab::script::LevelSource,
    ) -> Result<LiveRace, String> {
        game.set_players(start.players.count());
        // A race is always 100 % (NET.md): the game-speed assist waits for single play.
        let speed_before = game.game_speed();
        game.set_game_speed(crate::time::GameSpeed::FULL);
        game.quiet_look();
        let end_tick = start.exit_after.map(|s| (s * f64::from(game.config().tick_hz)).round() as u64);
        let n = start.players.count();
        let link: Box<dyn Link> = match (&start.net, &start.players) {
            (NetSpec::Room { url, room }, _) => {
                let t = crate::net::room::SharedRoom::connect(url, room, n, &start.ice);
                Box::new(RacePeer::new(level_line, t, n, Vec::new(), end_tick, None))
            }
            #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
            (NetSpec::Udp { port }, Players::Listed(me, addrs)) => {
                let t = crate::net::udp::UdpTransport::bind(*port, *me, addrs.clone())
                    .map_err(|e| format!("--net udp:{port}: cannot bind the port: {e}"))?;
                let t = crate::net::udp::SharedUdp(std::rc::Rc::new(std::cell::RefCell::new(t)));
                Box::new(RacePeer::new(level_line, t, n, Vec::new(), end_tick, None))
            }
            _ => return Err("a UDP race names its peers (--peers) and runs natively".into()),
        };
        Ok(LiveRace {
            link,
            standing: Standing::Waiting(Progress::Gathering(1)),
            notices: Vec::new(),
            status: Some("Joining the race…".into()),
            room: match &start.net {
                NetSpec::Room { room, .. } => Some(room.clone()),
                NetSpec::Udp { .. } => None,
            },
            #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
            exit_when_over: start.exit_after.is_some(),
            following: false,
            speed_before,
            just_ended: false,
            kept_as: None,
            code: None,
            round: 0,
            sounds: Default::default(),
        })
    }

    /// The race is over or failed and the app is to leave (`exit_after` was given).
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub(super) fn leaving(&self) -> bool {
        self.exit_when_over && matches!(self.standing, Standing::Over(_) | Standing::Failed(_))
    }

    /// The app is closing: the race's end (the last confirmed tick when it is still running),
    /// or why it failed.
    ///
    /// # Errors
    /// The refusal's line.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub(super) fn finish(&mut self, game: &Loop) -> Result<RaceEnd, String> {
        match std::mem::replace(&mut self.standing, Standing::Racing) {
            Standing::Over(end) => Ok(*end),
            Standing::Failed(line) => Err(line),
            Standing::Waiting(_) | Standing::Racing => Ok(self.link.end(game)),
        }
    }

    /// Hand a key edge that arrived now to the local runner; dropped before the race runs and
    /// after it ends.
    pub(super) fn push(&mut self, game: &mut Loop, ev: InputEvent) {
        if let (Standing::Racing, Some(me)) = (&self.standing, self.link.me()) {
            game.push_event_for(me as u8, self.link.clock_ns(Instant::now()), ev);
        }
    }

    /// One frame: the peer polled (which runs the loop's frame once racing); what it came to.
    /// `panel`: the status gets the network panel's line under it (F3 on; NET.md "What a
    /// player sees").
    pub(super) fn frame(&mut self, game: &mut Loop, panel: bool) -> FrameStats {
        if matches!(self.standing, Standing::Over(_) | Standing::Failed(_)) {
            return FrameStats::default();
        }
        let polled = self.link.poll(game, Instant::now());
        self.notices.extend(self.link.notices());
        let mut stats = FrameStats::default();
        match polled {
            Ok(Polled::Going(Progress::Racing(_))) => {
                self.standing = Standing::Racing;
                stats = self.link.last_frame();
            }
            Ok(Polled::Going(p)) => self.standing = Standing::Waiting(p),
            Ok(Polled::Ended(end)) => {
                self.standing = Standing::Over(end);
                self.just_ended = true;
            }
            Err(r) => self.standing = Standing::Failed(r.line),
        }
        if !self.following
            && let Some(me) = self.link.me()
        {
            // The players are known: the camera on this peer's runner from the start.
            game.set_followed(me);
            self.following = true;
        }
        self.status = self.status_line(game);
        if let Some(line) = panel.then(|| self.link.panel()).flatten() {
            let status = self.status.get_or_insert_with(String::new);
            if !status.is_empty() {
                status.push('\n');
            }
            status.push_str(&line);
        }
        stats
    }

    /// Over, from the menu: Enter would start a rematch.
    pub(super) fn rematch_ready(&self) -> bool {
        self.code.is_some() && matches!(self.standing, Standing::Over(_))
    }

    /// The status line as of the last frame.
    pub(super) fn status(&self) -> Option<&str> {
        self.status.as_deref()
    }

    /// The status line for the screen: waiting, the results, or why it failed; `None` while
    /// racing.
    fn status_line(&self, game: &Loop) -> Option<String> {
        match &self.standing {
            Standing::Waiting(Progress::Gathering(k)) => Some(match &self.room {
                Some(room) => {
                    format!("Room {room}: waiting for players, {k} of {} here · Esc: leave", game.players())
                }
                None => format!("Waiting for players: {k} of {} here", game.players()),
            }),
            Standing::Waiting(Progress::Countdown(ms)) => {
                Some(format!("Race starts in {}", ms.div_ceil(1000)))
            }
            Standing::Waiting(_) => Some("Connecting to the other players…".into()),
            Standing::Racing => None,
            Standing::Over(end) => {
                let s = &end.summary;
                let again = if self.code.is_some() { "Enter: rematch · " } else { "" };
                let kept = self.kept_as.as_ref().map(|p| format!("\nkept as {p}")).unwrap_or_default();
                Some(format!(
                    "Race over (tick {}, {}): you are player {}\n{}{kept}\n{again}Esc: back",
                    s.confirmed_tick,
                    s.state_hash,
                    s.player,
                    results(game.world(), game.config().tick_hz)
                ))
            }
            Standing::Failed(line) => Some(format!("Race stopped: {line}")),
        }
    }
}

impl super::App {
    /// The menu's "Host a race": a new room code for level `level` (an index into the level
    /// list) and `players`, then the race in its room.
    pub(super) fn host_race(&mut self, level: usize, players: usize) {
        let seed = web_time::SystemTime::now()
            .duration_since(web_time::SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let code = RoomCode::new(u8::try_from(level + 1).unwrap_or(u8::MAX), players as u8, seed);
        self.start_race(code);
    }

    /// The menu's "Join": the race of the typed `code`, or a message saying what is wrong.
    pub(super) fn join_race(&mut self, code: &str) {
        match code.parse::<RoomCode>() {
            Ok(c) => self.start_race(c),
            Err(e) => self.menus.menu.say(e),
        }
    }

    /// Load the code's level, join its room on the settings' server, play.
    fn start_race(&mut self, code: RoomCode) {
        self.start_race_round(code, 0);
    }

    /// [`App::start_race`] for rematch `round` (0: the first race; N: room `CODE-rN`).
    fn start_race_round(&mut self, code: RoomCode, round: u32) {
        let Some((path, ..)) = self.menus.levels.get(usize::from(code.level) - 1).cloned() else {
            self.menus.menu.say(format!("Room {code}: there is no level {} here", code.level));
            return;
        };
        let level = match crate::level::tiled_map::load_tmx(&path) {
            Ok(l) => l,
            Err(e) => {
                self.menus.menu.say(e.to_string());
                return;
            }
        };
        let server = self.opts.save.settings().net.server.trim_end_matches('/').to_string();
        let room = if round == 0 { code.to_string() } else { format!("{code}-r{round}") };
        let net = match format!("{server}/{room}").parse::<NetSpec>() {
            Ok(n) => n,
            Err(e) => {
                self.menus.menu.say(format!("settings.toml [net] server: {e}"));
                return;
            }
        };
        let start = RaceStart {
            net,
            players: Players::Room(usize::from(code.players)),
            ice: Vec::new(),
            exit_after: None,
        };
        self.session.choose(path.clone());
        self.enter_level(level);
        let line = crate::lab::script::LevelSource::File(path.display().to_string(), 0, None);
        // A rematch keeps the speed from before the first race.
        let speed_before = self.race.as_ref().map(|r| r.speed_before);
        match LiveRace::join(&start, &mut self.game, line) {
            Ok(mut r) => {
                r.code = Some(code);
                r.round = round;
                if let Some(s) = speed_before {
                    r.speed_before = s;
                }
                self.race = Some(r);
                self.resume();
            }
            Err(e) => self.menus.menu.say(e),
        }
    }

    /// A race from the menu that just ended is kept in the save folder's `races/` as a lab
    /// script (its confirmed inputs: `ledge lab FILE` replays it); a race from the command line
    /// writes `--record` instead.
    pub(super) fn keep_race(&mut self) {
        let Some(r) = &mut self.race else { return };
        if !std::mem::take(&mut r.just_ended) || self.opts.race.is_some() {
            return;
        }
        let Standing::Over(end) = &r.standing else { return };
        let secs = web_time::SystemTime::now()
            .duration_since(web_time::SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let name = format!("race-{}-{secs}", r.room.as_deref().unwrap_or("udp"));
        match self.opts.save.save_race(&name, &end.record) {
            Ok(Some(path)) => {
                r.kept_as = Some(path.display().to_string());
                r.status = r.status_line(&self.game);
            }
            Ok(None) => {}
            Err(w) => log::warn!("ledge: warning: {w}"),
        }
    }

    /// The menu's race is over: Enter races the same level and players again, in the room
    /// `CODE-rN` (N: the rematch's number), which every player who presses Enter joins; the
    /// first room is still closed while anyone looks at its results.
    pub(super) fn rematch(&mut self) {
        let Some(r) = &self.race else { return };
        let Some(code) = r.code else { return };
        let round = r.round + 1;
        self.start_race_round(code, round);
    }

    /// Leave the race (Esc): the runner stops answering, the others drop it after 3 s; the
    /// loop back to one player, the title.
    pub(super) fn leave_race(&mut self) {
        let Some(r) = self.race.take() else { return };
        self.game.set_followed(0);
        self.game.set_players(1);
        self.game.set_game_speed(r.speed_before);
        self.session.mode = super::Mode::Title;
        self.open_menu(super::Mode::Title);
        self.request_redraw();
    }
}

/// Each rival's player number over its head, in its colour ([`RIVAL_SRGB`]), for a `size`
/// (window pixels) target: where the renderer puts the view ([`letterbox`]), from the view's
/// camera and shake.
pub(super) fn label_rivals(out: &mut Layer, size: (u32, u32), view: &FrameView<'_>) {
    let lb = letterbox(size.0, size.1);
    let origin = view.camera + view.shake - VIEW_SIZE / 2.0;
    let scale = f64::from(lb.scale);
    for r in view.rivals {
        // Centred over the hitbox, its baseline 4 level pixels over the sprite's top (the
        // sprite is 24 high, bottom-aligned on the 22-high hitbox).
        let x = f64::from(lb.x) + (r.draw.pos.x + r.draw.hitbox.x / 2.0 - origin.x) * scale;
        let y = f64::from(lb.y) + (r.draw.pos.y - LABEL_ABOVE - origin.y) * scale;
        let [cr, cg, cb] = RIVAL_SRGB[usize::from(r.player.saturating_sub(1) & 3)];
        let item = TextItem::new(
            format!("P{}", r.player),
            x as f32,
            y as f32,
            (LABEL_SIZE * scale) as f32,
            [cr, cg, cb, 255],
        );
        out.text.push(item.aligned(Align::Center));
    }
}

/// A rival's label: its top this far over the hitbox's top, level pixels.
const LABEL_ABOVE: f64 = 13.0;
/// A rival's label's size, level pixels (8: the HUD's text at scale 2 is 16 window pixels).
const LABEL_SIZE: f64 = 8.0;

/// The results in one line, by finish tick (a tie is a tie): `1. P2 9.70 s · 2. P1 10.00 s ·
/// P3 left`.
fn results(world: &crate::sim::World, tick_hz: u32) -> String {
    let mut rows: Vec<(Option<u64>, usize)> =
        (0..world.players()).map(|k| (world.runner_view(k).finished_at, k)).collect();
    // Finishers first, by tick; then the rest in player order.
    rows.sort_by_key(|&(at, k)| (at.is_none(), at, k));
    let (mut place, mut last) = (0, None);
    let parts: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, &(at, k))| {
            let r = world.runner_view(k);
            let deaths = match r.deaths {
                0 => String::new(),
                1 => ", 1 death".into(),
                d => format!(", {d} deaths"),
            };
            match at {
                Some(t) => {
                    if last != Some(t) {
                        place = i + 1;
                        last = Some(t);
                    }
                    format!("{place}. P{} {:.2} s{deaths}", k + 1, t as f64 / f64::from(tick_hz))
                }
                None if r.left => format!("P{} left{deaths}", k + 1),
                None => format!("P{} did not finish{deaths}", k + 1),
            }
        })
        .collect();
    parts.join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_order_by_finish_tick_and_ties_share_a_place() {
        let rows: Vec<String> = ["P...G", "#####"].iter().map(|r| r.to_string()).collect();
        let level = crate::level::ascii::parse_ascii(&rows, 1).expect("level");
        let mut w = crate::sim::World::for_race(&level, 4);
        w.finished_at = Some(600);
        w.others[0].finished_at = Some(582);
        w.others[1].finished_at = Some(600);
        w.others[2].deaths = 2;
        assert_eq!(
            results(&w, 60),
            "1. P2 9.70 s · 2. P1 10.00 s · 2. P3 10.00 s · P4 did not finish, 2 deaths"
        );
    }
}
