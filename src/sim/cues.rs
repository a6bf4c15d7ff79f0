//! Sound cues: what a tick did that is heard, as names (`ticks[].sounds` in the lab report).
//!
//! Clock: fixed tick. Sound is an *output* of the tick, never an input: [`tick_cues`] reads the
//! player before the tick ([`CueBefore`]), the world after it and the tick's [`TickOutcome`],
//! and nothing here feeds back into the simulation or the state hash. Pure and deterministic,
//! so the lab reports exactly the cues the game plays; the game's audio side (`src/audio/`,
//! the only code that touches kira) plays each tick's [`CueSet`] once. A rewind tick has no
//! cues (the loop gives it [`CueSet::EMPTY`]).
//!
//! # Rules (one tick)
//!
//! | cue | when |
//! |---|---|
//! | `jump` | a ground or coyote jump started (`jump_started`, and the player stood or had coyote time before the tick) |
//! | `wall_jump` | a jump started with neither ground nor coyote time before the tick: only the wall jump fires then ([`super::wall`] rule 2) |
//! | `land` | airborne before the tick, standing after it, no respawn in the tick |
//! | `death` | the player died (`died`) |
//! | `respawn` | the player was placed anew (`respawned`: after a death, or a lab `teleport`) |
//! | `checkpoint` | a checkpoint was touched for the first time (one more `reached`) |
//! | `goal` | the goal was touched (`finished`) |
//! | `spring` | a spring launched the player (its recoil timer was set in the tick: it is at [`SPRING_RECOIL_TICKS`] after it) |
//! | `crumble` | a crumbling block broke (one more `broken` than before the tick) |
//! | `walker_stomp` | a walker was defeated by a landing from above (one more `defeated`) |
//! | `menu_move`, `menu_confirm` | never from a tick: the menus play them on the event loop |
//!
//! A tick with several cues lists them in [`Cue::ALL`] order.

use super::EntityState;
use super::entities::contacts::SPRING_RECOIL_TICKS;
use super::player::TickOutcome;
use super::world::World;
use crate::level::EntityKind;
use serde::ser::{Serialize, SerializeSeq, Serializer};

/// One sound the game can play. The names ([`Cue::name`]) are the lab report's and the sound
/// files' (`assets/sounds/NAME.wav`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cue {
    /// A ground or coyote jump started.
    Jump,
    /// A wall jump started.
    WallJump,
    /// The player landed on something.
    Land,
    /// The player died (hazard, fall, squish).
    Death,
    /// The player was placed at the respawn point (or teleported).
    Respawn,
    /// A checkpoint was reached for the first time.
    Checkpoint,
    /// The goal was touched.
    Goal,
    /// A spring launched the player.
    Spring,
    /// A crumbling block broke (the `delay` after the player first stood on it).
    Crumble,
    /// The player landed on a walker and defeated it.
    WalkerStomp,
    /// A menu's selection moved (played by the menus, never by a tick).
    MenuMove,
    /// A menu item was chosen (played by the menus, never by a tick).
    MenuConfirm,
}

impl Cue {
    /// Every cue, in the order a tick's cues are listed.
    pub const ALL: [Cue; 12] = [
        Cue::Jump,
        Cue::WallJump,
        Cue::Land,
        Cue::Death,
        Cue::Respawn,
        Cue::Checkpoint,
        Cue::Goal,
        Cue::Spring,
        Cue::Crumble,
        Cue::WalkerStomp,
        Cue::MenuMove,
        Cue::MenuConfirm,
    ];

    /// The cue's name: the lab report's `ticks[].sounds` entry and the sound file's stem.
    pub fn name(self) -> &'static str {
        match self {
            Cue::Jump => "jump",
            Cue::WallJump => "wall_jump",
            Cue::Land => "land",
            Cue::Death => "death",
            Cue::Respawn => "respawn",
            Cue::Checkpoint => "checkpoint",
            Cue::Goal => "goal",
            Cue::Spring => "spring",
            Cue::Crumble => "crumble",
            Cue::WalkerStomp => "walker_stomp",
            Cue::MenuMove => "menu_move",
            Cue::MenuConfirm => "menu_confirm",
        }
    }

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// The cues of one tick: a set (each cue at most once a tick), `Copy` so it rides in the
/// loop's per-tick record. Serialised as a JSON list of names in [`Cue::ALL`] order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CueSet(u16);

impl CueSet {
    /// No cue (a silent tick, every rewind tick).
    pub const EMPTY: CueSet = CueSet(0);

    /// Add `cue`.
    pub fn insert(&mut self, cue: Cue) {
        self.0 |= cue.bit();
    }

    /// `cue` is in the set.
    pub fn contains(self, cue: Cue) -> bool {
        self.0 & cue.bit() != 0
    }

    /// No cue at all.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cues, in [`Cue::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Cue> {
        Cue::ALL.into_iter().filter(move |c| self.contains(*c))
    }
}

impl FromIterator<Cue> for CueSet {
    fn from_iter<I: IntoIterator<Item = Cue>>(it: I) -> Self {
        let mut s = CueSet::EMPTY;
        for c in it {
            s.insert(c);
        }
        s
    }
}

impl Serialize for CueSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.count_ones() as usize))?;
        for c in self.iter() {
            seq.serialize_element(c.name())?;
        }
        seq.end()
    }
}

/// What [`tick_cues`] needs of the world *before* a tick: taken with [`CueBefore::of`] just
/// before the tick runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CueBefore {
    /// The player stood on something.
    pub on_ground: bool,
    /// Coyote ticks left (> 0: a ground jump was still allowed).
    pub coyote: u32,
    /// Checkpoints reached so far.
    pub reached: usize,
    /// Crumbling blocks broken.
    pub broken: usize,
    /// Walkers defeated.
    pub defeated: usize,
}

impl CueBefore {
    /// The facts of `world` now (call it before the tick).
    pub fn of(world: &World) -> CueBefore {
        let counts = EntityCounts::of(world);
        CueBefore {
            on_ground: world.player.on_ground,
            coyote: world.player.coyote,
            reached: reached(world),
            broken: counts.broken,
            defeated: counts.defeated,
        }
    }
}

/// What the cues count of the entities, in one pass over them (this runs every tick).
#[derive(Clone, Copy, Default)]
struct EntityCounts {
    /// Crumbling blocks broken.
    broken: usize,
    /// Walkers defeated.
    defeated: usize,
    /// A spring launched the player in this tick (its recoil just started).
    spring_launched: bool,
}

impl EntityCounts {
    fn of(world: &World) -> EntityCounts {
        let mut c = EntityCounts::default();
        for e in &world.entities {
            c.broken += usize::from(e.state == EntityState::Broken);
            c.defeated += usize::from(e.state == EntityState::Defeated);
            c.spring_launched |= e.kind == EntityKind::Spring && e.timer == SPRING_RECOIL_TICKS;
        }
        c
    }
}

fn reached(world: &World) -> usize {
    world.reached.iter().filter(|r| **r).count()
}

/// The cues of one forward tick (the table in the module docs): `before` taken before the
/// tick, `after` the world after it, `out` what the tick reported.
pub fn tick_cues(before: &CueBefore, after: &World, out: &TickOutcome) -> CueSet {
    let mut cues = CueSet::EMPTY;
    if out.jump_started {
        // The ground jump always wins; a jump without ground or coyote time is the wall's.
        let grounded = before.on_ground || before.coyote > 0;
        cues.insert(if grounded { Cue::Jump } else { Cue::WallJump });
    }
    if !before.on_ground && after.player.on_ground && !out.respawned {
        cues.insert(Cue::Land);
    }
    if out.died {
        cues.insert(Cue::Death);
    }
    if out.respawned {
        cues.insert(Cue::Respawn);
    }
    if reached(after) > before.reached {
        cues.insert(Cue::Checkpoint);
    }
    if out.finished {
        cues.insert(Cue::Goal);
    }
    let counts = EntityCounts::of(after);
    if counts.spring_launched {
        cues.insert(Cue::Spring);
    }
    if counts.broken > before.broken {
        cues.insert(Cue::Crumble);
    }
    if counts.defeated > before.defeated {
        cues.insert(Cue::WalkerStomp);
    }
    cues
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world(on_ground: bool, reached: Vec<bool>) -> World {
        let mut w = World::default();
        w.player.on_ground = on_ground;
        w.reached = reached;
        w
    }

    fn names(c: CueSet) -> Vec<&'static str> {
        c.iter().map(Cue::name).collect()
    }

    #[test]
    fn a_ground_jump_is_jump_and_an_airborne_one_is_a_wall_jump() {
        let out = TickOutcome { jump_started: true, ..Default::default() };
        let after = world(false, vec![]);
        let ground = CueBefore { on_ground: true, ..Default::default() };
        let coyote = CueBefore { coyote: 3, ..Default::default() };
        let air = CueBefore::default();
        assert_eq!(names(tick_cues(&ground, &after, &out)), ["jump"]);
        assert_eq!(names(tick_cues(&coyote, &after, &out)), ["jump"]);
        assert_eq!(names(tick_cues(&air, &after, &out)), ["wall_jump"]);
    }

    #[test]
    fn landing_death_respawn_checkpoint_goal() {
        let none = TickOutcome::default();
        let air = CueBefore::default();
        assert_eq!(names(tick_cues(&air, &world(true, vec![]), &none)), ["land"]);
        // Standing on: no land.
        let stood = CueBefore { on_ground: true, ..Default::default() };
        assert!(tick_cues(&stood, &world(true, vec![]), &none).is_empty());
        // A death respawns in the same tick; the respawn point may be on the ground: no land.
        let died = TickOutcome { died: true, respawned: true, ..Default::default() };
        assert_eq!(names(tick_cues(&air, &world(true, vec![]), &died)), ["death", "respawn"]);
        // A checkpoint touched again is no cue; a new one is.
        let one = CueBefore { reached: 1, ..Default::default() };
        assert!(tick_cues(&one, &world(false, vec![true]), &none).is_empty());
        assert_eq!(names(tick_cues(&one, &world(false, vec![true, true]), &none)), ["checkpoint"]);
        let fin = TickOutcome { finished: true, ..Default::default() };
        assert_eq!(names(tick_cues(&stood, &world(true, vec![]), &fin)), ["goal"]);
    }

    /// A level with `entity` under the spawn (a lab `entity` line's words, `{x}`/`{y}`
    /// replaced by the spawn's x − 2 and the spawned player's feet): the world and the cues
    /// after each of `ticks` idle ticks.
    fn heard(entity: &str, ticks: usize) -> Vec<(World, Vec<&'static str>)> {
        use crate::level::{EntitySpec, ascii::parse_ascii};
        use crate::sim::{HITBOX, TickInput, Tuning, step};
        let rows: Vec<String> = ["........", "........", "..P.....", "........", "........", "########"]
            .iter()
            .map(|r| r.to_string())
            .collect();
        let mut level = parse_ascii(&rows, 1).expect("level");
        let floor = level.spawn.y + HITBOX.y;
        let line =
            entity.replace("{x}", &(level.spawn.x - 2.0).to_string()).replace("{y}", &floor.to_string());
        let words: Vec<&str> = line.split_whitespace().collect();
        level.entities.push(EntitySpec::parse_words(&words).expect("entity"));
        let tuning = Tuning::default();
        let mut w = World::for_level(&level);
        (0..ticks)
            .map(|_| {
                let before = CueBefore::of(&w);
                let out = step(&mut w, &TickInput::default(), &level, &tuning, 60);
                (w.clone(), names(tick_cues(&before, &w, &out)))
            })
            .collect()
    }

    #[test]
    fn a_spring_is_heard_in_each_tick_it_launches_the_player() {
        // The spawn is in the air; the spring's top is at the spawned player's feet: it falls
        // into it, is launched, comes back down and is launched again.
        let ticks = heard("spring x={x} y={y} speed=370", 120);
        let launches: Vec<usize> =
            ticks.iter().enumerate().filter(|(_, (w, _))| w.player.vel.y == -370.0).map(|(i, _)| i).collect();
        let cued: Vec<usize> =
            ticks.iter().enumerate().filter(|(_, (_, c))| c.contains(&"spring")).map(|(i, _)| i).collect();
        assert!(!launches.is_empty());
        assert_eq!(cued, launches);
    }

    #[test]
    fn a_crumble_is_heard_once_when_it_breaks() {
        // A crumble with its top at the spawned player's feet: the player stands on it from
        // the first tick; it breaks 0.25 s later and does not come back in this run.
        let ticks = heard("crumble x={x} y={y} w=32 delay=0.25 back=100", 90);
        let cued: Vec<usize> =
            ticks.iter().enumerate().filter(|(_, (_, c))| c.contains(&"crumble")).map(|(i, _)| i).collect();
        assert_eq!(cued.len(), 1, "{cued:?}");
        let i = cued[0];
        assert_eq!(ticks[i].0.entities[0].state, EntityState::Broken);
        assert_ne!(ticks[i - 1].0.entities[0].state, EntityState::Broken);
    }

    #[test]
    fn a_set_serialises_as_names_in_order() {
        let s: CueSet = [Cue::Goal, Cue::Jump, Cue::Goal].into_iter().collect();
        assert_eq!(serde_json::to_string(&s).expect("serialises"), r#"["jump","goal"]"#);
        assert_eq!(serde_json::to_string(&CueSet::EMPTY).expect("serialises"), "[]");
        let names: Vec<_> = Cue::ALL.iter().map(|c| c.name()).collect();
        let mut unique = names.clone();
        unique.dedup();
        assert_eq!(unique.len(), 12);
    }
}
