//! The shipped levels can be finished, have what their design promises, and level 3 needs its
//! mechanics.
//!
//! Clock: fixed tick (the lab's scripted clock for the replays, `sim::step` for the sweeps).
//!
//! - Each `tests/levels/levelN.lab` (a run found by `examples/solve`, kept as data) replays
//!   through `ledge::lab::run_script` to `level_complete` with no deaths, and every shipped
//!   level has such a script; each is, comments aside, what the lab's `ScriptWriter` writes.
//! - Each level loads and has a spawn on the ground, a goal, checkpoints, hazards; level 2
//!   one-way platforms that its run drops through.
//! - Levels 4 to 9 have the entities they teach (platforms and lifts, crumbles and springs, none
//!   in the wall-jump climb, saws and walkers, all of them in the last two); levels 10 to 12
//!   combine them: a tower climbed bottom to top, a descent (dropping through planks on the
//!   way), and a last level with every kind.
//! - Level 3 ("Leap of Faith") needs coyote time, jump buffering and corner correction: its run
//!   fails with any of them off; the tunnel and the long gap cannot be crossed by any jump from
//!   the ground (a sweep of run-up phases and jump ticks), only by jumps in the air after the
//!   ledge; in the hop corridor a press made before a landing chains the hops only with the
//!   jump buffer; in the chimney, corner correction widens the window of running jumps that
//!   pass up through a 1-tile hole.

use glam::DVec2;
use ledge::input::Action;
use ledge::input::latch::TickInput;
mod common;

use common::root;
use ledge::lab::report::SummaryReport;
use ledge::lab::script::{LevelSource, parse};
use ledge::lab::writer::{Repeat, ScriptWriter};
use ledge::level::tiled_map::level_path;
use ledge::level::{Level, TILE, TileKind};
use ledge::sim::{HITBOX, Tuning, World, step};
use std::path::PathBuf;

fn scripts_dir() -> PathBuf {
    root().join("tests/levels")
}

fn level(n: u32) -> Level {
    common::levels::shipped(&format!("level{n}"))
}

fn tuning() -> Tuning {
    Tuning::load(&root().join("assets/tuning.toml")).unwrap_or_else(|e| panic!("{e}"))
}

fn script_text(n: u32) -> String {
    let path = scripts_dir().join(format!("level{n}.lab"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Run a level script (optionally with extra `tuning KEY VALUE` lines after its `level` line)
/// through the lab, summary only.
fn replay(n: u32, tuning_overrides: &[(&str, f64)]) -> SummaryReport {
    let mut text = String::new();
    for line in script_text(n).lines() {
        text.push_str(line);
        text.push('\n');
        if line.starts_with("level ") {
            for (k, v) in tuning_overrides {
                text.push_str(&format!("tuning {k} {v}\n"));
            }
        }
    }
    let opts = common::lab::options(&format!("tests/levels/level{n}.lab"), &scripts_dir(), true);
    common::lab::run(&text, &opts).summary
}

/// The shipped levels, `assets/levels/level1.tmx`, `level2.tmx`, ... (numbered without gaps,
/// as the game loads the next one).
fn shipped_levels() -> Vec<u32> {
    (1..).take_while(|n| level_path(&root().join("assets"), &format!("level{n}")).is_file()).collect()
}

#[test]
fn every_level_has_a_script_and_every_script_finishes_without_dying() {
    let levels = shipped_levels();
    assert!(levels.len() >= 3, "levels: {levels:?}");
    for n in levels {
        let text = script_text(n);
        assert!(
            text.lines().any(|l| l == format!("level assets/levels/level{n}.tmx")),
            "level{n}.lab must play assets/levels/level{n}.tmx"
        );
        for expect in ["# expect: summary[\"level_complete\"]", "# expect: summary[\"deaths\"] == 0"] {
            assert!(text.lines().any(|l| l == expect), "level{n}.lab lacks '{expect}'");
        }
        let s = replay(n, &[]);
        assert!(
            s.level_complete && s.deaths == 0,
            "level{n}.lab: level_complete {}, deaths {} after {} ticks",
            s.level_complete,
            s.deaths,
            s.totals.ticks
        );
    }
    // no stray scripts for levels that do not exist
    for entry in std::fs::read_dir(scripts_dir()).expect("tests/levels") {
        let name = entry.expect("entry").file_name();
        let name = name.to_string_lossy();
        if let Some(n) = name.strip_prefix("level").and_then(|s| s.strip_suffix(".lab")) {
            let n: u32 = n.parse().unwrap_or_else(|_| panic!("odd script name {name}"));
            assert!(shipped_levels().contains(&n), "{name} has no level");
        }
    }
}

/// Every level's finishing run ends on the state hash it ended on when it was recorded, twice in
/// a row: the run (and with it the level, its entities and the tuning) is unchanged and the
/// replay deterministic. After remaking a level or its run, put the new hash here (the
/// failure prints it).
#[test]
fn level_scripts_end_on_their_recorded_state_hash() {
    let want = [
        (1, "6299330cdfddd797"),
        (2, "347412546d8152ad"),
        (3, "ae5d0058c56492ac"),
        (4, "67fd0c7e7cd954aa"),
        (5, "9874bc6ced085f39"),
        (6, "f9bb9f6fbb06f329"),
        (7, "837d270fd249440b"),
        (8, "28d068f1bfff5e20"),
        (9, "1b352a1f256d8cf3"),
        (10, "63d5e2f09ca975e4"),
        (11, "39ce5914556a0e13"),
        (12, "21953b268c6889ee"),
    ];
    assert_eq!(want.len(), shipped_levels().len(), "one hash per shipped level");
    for (n, hash) in want {
        let (a, b) = (replay(n, &[]), replay(n, &[]));
        assert_eq!(a.state_hash, b.state_hash, "level{n}.lab: two replays differ");
        assert_eq!(a.state_hash, hash, "level{n}.lab ends on another state hash");
    }
}

/// The level scripts are exactly what the lab's one writer writes in the solver's style: every
/// line but the comments, read with the lab's parser and written back with `ScriptWriter`, is
/// the file's own.
#[test]
fn level_scripts_are_what_the_lab_writer_writes() {
    for n in shipped_levels() {
        let text = script_text(n);
        let script = parse(&text).unwrap_or_else(|e| panic!("level{n}.lab: {e}"));
        let mut w = ScriptWriter::new(Repeat::Always);
        let LevelSource::File(path, _, sha256) = &script.level else { panic!("level{n}.lab: no level line") };
        w.level(path, *sha256);
        for (key, value, _) in &script.tuning {
            w.tuning(key, *value);
        }
        for (step, _) in &script.steps {
            w.step(step);
        }
        let body: String = text.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
        assert_eq!(w.finish(), body, "level{n}.lab");
    }
}

fn count(level: &Level, kind: TileKind) -> usize {
    level.kinds.iter().filter(|&&k| k == kind).count()
}

/// The kind of the cell holding the pixel (x, y).
fn kind_at_px(level: &Level, x: f64, y: f64) -> TileKind {
    level.kind_at((x / TILE).floor() as i64, (y / TILE).floor() as i64)
}

/// The player at `pos` stands on something solid or one-way under its feet.
fn stands(level: &Level, pos: DVec2) -> bool {
    let feet = pos.y + HITBOX.y;
    feet % TILE == 0.0
        && [pos.x + 1.0, pos.x + HITBOX.x / 2.0, pos.x + HITBOX.x - 1.0]
            .iter()
            .any(|&x| matches!(kind_at_px(level, x, feet + 1.0), TileKind::Solid | TileKind::OneWay))
}

#[test]
fn levels_have_spawn_goal_checkpoints_hazards_and_level2_has_planks() {
    for (n, name, min_checkpoints) in
        [(1, "First Steps", 1), (2, "Planks and Spikes", 2), (3, "Leap of Faith", 3)]
    {
        let l = level(n);
        assert_eq!(l.name, name);
        assert!(stands(&l, l.spawn), "level{n}: spawn {:?} not on the ground", l.spawn);
        assert!(l.goal.is_some(), "level{n}: no goal");
        assert!(l.checkpoints.len() >= min_checkpoints, "level{n}: {} checkpoints", l.checkpoints.len());
        for (i, cp) in l.checkpoints.iter().enumerate() {
            assert!(stands(&l, cp.respawn), "level{n}: checkpoint {i} respawn not on the ground");
        }
        assert!(count(&l, TileKind::Hazard) > 0, "level{n}: no hazards");
        assert!(l.width >= 100, "level{n}: {} wide", l.width);
    }
    let l2 = level(2);
    assert!(count(&l2, TileKind::OneWay) >= 40, "level2: few planks");
    assert!(l2.height > 22, "level2 has vertical sections");
    assert!(
        script_text(2).lines().any(|l| l == "press down"),
        "level2's run drops through a plank (Down+Jump)"
    );
}

/// Levels 4 to 12 each bring the entities their drawing's comment promises (`scripts/levels/`):
/// the world teaches moving platforms (a rising lift, one-way lifts), crumbling blocks and
/// springs, wall jumps (no entities: a climb of shafts), saws and walkers, then combines them:
/// all of them together twice, a tower climbed bottom to top (its goal at least 50 rows above
/// its spawn), a descent (its goal at least 25 rows below its spawn, a plank shaft its run
/// drops through) and a last level with every kind and four checkpoints.
#[test]
fn new_levels_have_their_entities() {
    use ledge::level::{EntityKind, EntitySpec};
    let kinds = |l: &Level| -> Vec<EntityKind> {
        let mut k: Vec<EntityKind> = l.entities.iter().map(EntitySpec::kind).collect();
        k.dedup();
        k.sort_by_key(|k| k.name());
        k.dedup();
        k
    };
    let lifts = |l: &Level| {
        l.entities.iter().fold((0, 0), |(up, oneway), e| match e {
            EntitySpec::Platform { pos, to: Some(to), oneway: o, .. } => {
                (up + usize::from(to.x == pos.x && to.y != pos.y), oneway + usize::from(*o))
            }
            _ => (up, oneway),
        })
    };
    use EntityKind::*;
    let all: &[EntityKind] = &[Crumble, Platform, Saw, Spring, Walker];
    let want: [(u32, &str, &[EntityKind]); 9] = [
        (4, "Moving Parts", &[Platform]),
        (5, "Crumble and Spring", &[Crumble, Spring]),
        (6, "The Shaft", &[]),
        (7, "Saw Mill", &[Saw, Walker]),
        (8, "The Works", all),
        (9, "Long Haul", all),
        (10, "The Tower", all),
        (11, "The Long Way Down", &[Crumble, Platform, Saw, Walker]),
        (12, "The Gauntlet", all),
    ];
    for (n, name, kinds_wanted) in want {
        let l = level(n);
        assert_eq!((l.name.as_str(), kinds(&l).as_slice()), (name, kinds_wanted), "level{n}");
        assert!(stands(&l, l.spawn), "level{n}: spawn {:?} not on the ground", l.spawn);
        assert!(l.goal.is_some() && !l.checkpoints.is_empty(), "level{n}: goal and checkpoints");
    }
    let (up, oneway) = lifts(&level(4));
    assert!(up >= 3 && oneway >= 3, "level4: {up} vertical lifts, {oneway} one-way");
    assert!(level(6).height >= 60, "level6 is a climb");
    // rows from the spawn's feet up (+) or down (-) to the goal's bottom
    let rise = |l: &Level| (l.spawn.y + HITBOX.y - l.goal.map_or(0.0, |g| g.pos.y + g.size.y)) / TILE;
    let l10 = level(10);
    assert!(rise(&l10) >= 50.0, "level10 is a tower: the goal {} rows up", rise(&l10));
    let l11 = level(11);
    assert!(rise(&l11) <= -25.0, "level11 is a descent: the goal {} rows up", rise(&l11));
    assert!(count(&l11, TileKind::OneWay) >= 18, "level11: a plank shaft");
    assert!(script_text(11).lines().any(|l| l == "press down"), "level11's run drops through a plank");
    assert!(level(12).checkpoints.len() >= 4, "level12: four checkpoints");
}

#[test]
fn level3_run_fails_with_coyote_time_buffering_or_corner_correction_off() {
    for key in ["coyote_time", "jump_buffer_time", "corner_correction"] {
        let s = replay(3, &[(key, 0.0)]);
        assert!(!(s.level_complete && s.deaths == 0), "level3.lab still finishes cleanly with {key} 0");
    }
}

/// A player driven tick by tick with `sim::step`.
struct Sim<'a> {
    level: &'a Level,
    tuning: Tuning,
    world: World,
    jump_held: bool,
}

impl<'a> Sim<'a> {
    /// Standing with the hitbox's left edge at `x`, feet on row `feet_row`'s top.
    fn standing(level: &'a Level, tuning: &Tuning, x: f64, feet_row: i64) -> Self {
        let pos = DVec2::new(x, feet_row as f64 * TILE - HITBOX.y);
        let mut world = World::for_level(level);
        world.player.pos = pos;
        world.respawn_point = pos;
        world.player.on_ground = true;
        Sim { level, tuning: tuning.clone(), world, jump_held: false }
    }

    /// One tick holding `dir` (-1, 0, 1) and jump as given; a press is an edge of `jump`.
    fn tick(&mut self, dir: i8, jump: bool) -> ledge::sim::TickOutcome {
        let mut input = TickInput::default();
        input.held[Action::Left.index()] = dir < 0;
        input.held[Action::Right.index()] = dir > 0;
        input.held[Action::Jump.index()] = jump;
        input.pressed[Action::Jump.index()] = jump && !self.jump_held;
        self.jump_held = jump;
        step(&mut self.world, &input, self.level, &self.tuning, 60)
    }
}

fn assert_solid(l: &Level, cells: &[(i64, i64)], what: &str) {
    for &(x, y) in cells {
        assert_eq!(l.kind_at(x, y), TileKind::Solid, "level3 changed: expected {what} at ({x}, {y})");
    }
}

fn assert_open(l: &Level, cells: &[(i64, i64)], what: &str) {
    for &(x, y) in cells {
        assert_ne!(l.kind_at(x, y), TileKind::Solid, "level3 changed: expected {what} open at ({x}, {y})");
    }
}

/// Run right at full speed from `run_up` px before the ledge's edge (`edge_col`: the first
/// column past it), with the sub-pixel phase `phase`, and press jump `k` ticks after the first
/// tick that ends in the air (k <= 0: from the ground), holding jump and right. True when the
/// player then stands on the far side (right of `far_col`'s left edge) without dying.
fn leap(l: &Level, t: &Tuning, edge_col: i64, feet_row: i64, far_col: i64, phase: f64, k: i64) -> bool {
    let edge = edge_col as f64 * TILE;
    let start = edge - 100.0 - phase;
    // find the first airborne tick W
    let mut probe = Sim::standing(l, t, start, feet_row);
    let mut w = 0;
    for i in 1..200 {
        probe.tick(1, false);
        if !probe.world.player.on_ground {
            w = i;
            break;
        }
    }
    assert!(w > 0, "never left the ledge");
    let mut sim = Sim::standing(l, t, start, feet_row);
    for i in 1..400i64 {
        let out = sim.tick(1, i >= w + k);
        if out.died {
            return false;
        }
        let p = &sim.world.player;
        if i > w + k && p.on_ground {
            return p.pos.x + HITBOX.x > far_col as f64 * TILE;
        }
    }
    false
}

/// Sub-pixel run-up phases swept: 0 to 3 px (one tick at run speed) by 0.125 px.
fn phases() -> impl Iterator<Item = f64> {
    (0..24).map(|i| f64::from(i) * 0.125)
}

#[test]
fn level3_tunnel_needs_coyote_time() {
    let l = level(3);
    let t = tuning();
    // The drawing: tunnel floor cols 28-44 (top row 20), roof cols 33-45 (bottom row 17, 10 px
    // over the player's head), the pit cols 45-51, ground again from col 52.
    assert_solid(&l, &[(44, 20), (45, 17), (33, 17), (52, 20)], "tunnel");
    assert_open(&l, &[(46, 17), (45, 20), (51, 20), (40, 18), (40, 19)], "tunnel");
    let mut late = 0;
    for phase in phases() {
        for k in -4..=0 {
            assert!(
                !leap(&l, &t, 45, 20, 52, phase, k),
                "a jump from the ground (k {k}, phase {phase}) crossed the tunnel's pit"
            );
        }
        late += (1..=6).filter(|&k| leap(&l, &t, 45, 20, 52, phase, k)).count();
    }
    // with coyote time, jumps made in the air after the ledge cross (nearly all of them)
    assert!(late >= 24 * 5, "only {late} coyote jumps of {} crossed", 24 * 6);
    // without it, none can be made (nor a wall jump off the ledge's side, which a press in
    // the first ticks past the ledge would otherwise be: wall_jump_reach is a different
    // mechanic from the ground jump this checks, and is turned off with coyote time)
    let mut t0 = t.clone();
    t0.coyote_time = 0.0;
    t0.wall_jump_reach = 0.0;
    for phase in phases() {
        for k in -4..=6 {
            assert!(!leap(&l, &t0, 45, 20, 52, phase, k), "k {k} phase {phase}");
        }
    }
}

#[test]
fn level3_long_gap_needs_coyote_time() {
    let l = level(3);
    let t = tuning();
    // The drawing: the ledge ends at col 62 (top row 20), the gap is cols 63-71, the far side
    // starts at col 72 one row lower (top row 21).
    assert_solid(&l, &[(62, 20), (72, 21)], "long gap edges");
    assert_open(&l, &[(63, 20), (71, 21), (67, 22)], "long gap");
    let mut late = 0;
    for phase in phases() {
        for k in -4..=0 {
            assert!(
                !leap(&l, &t, 63, 20, 72, phase, k),
                "a jump from the ground (k {k}, phase {phase}) crossed the long gap"
            );
        }
        let ok: Vec<i64> = (1..=6).filter(|&k| leap(&l, &t, 63, 20, 72, phase, k)).collect();
        assert!(ok.len() >= 3, "phase {phase}: only coyote jumps {ok:?} crossed");
        late += ok.len();
    }
    assert!(late > 0);
}

/// From checkpoint 2's respawn (before the hop corridor), run right; press jump on tick
/// `first`, then `delta` ticks after each landing (negative: before it, as a person chaining
/// hops does), holding it 30 ticks. True when the player gets past the corridor's spikes.
fn hop_corridor(l: &Level, t: &Tuning, first: i64, delta: i64) -> bool {
    let cp = l.checkpoints[1].respawn;
    let feet_row = ((cp.y + HITBOX.y) / TILE) as i64;
    let end = 101.0 * TILE;
    let mut presses = vec![first];
    // Each round simulates the presses so far up to the landing after the last one's jump,
    // then adds the press for that landing.
    while presses.len() <= 20 {
        let last = *presses.last().expect("a press");
        let held = |i: i64| {
            presses.contains(&i)
                || (presses.iter().any(|&p| p <= i && i < p + 30) && !presses.contains(&(i + 1)))
        };
        let mut sim = Sim::standing(l, t, cp.x, feet_row);
        let mut jumped = false;
        let mut landing = None;
        for i in 1..600i64 {
            let out = sim.tick(1, held(i));
            if out.died {
                return false;
            }
            if sim.world.player.pos.x > end {
                return true;
            }
            if out.jump_started && i >= last {
                jumped = true;
            } else if jumped && sim.world.player.on_ground {
                landing = Some(i);
                break;
            }
        }
        let Some(land) = landing else {
            return false;
        };
        if land + delta <= last {
            return false;
        }
        presses.push(land + delta);
    }
    false
}

#[test]
fn level3_hop_corridor_chains_early_presses_only_with_the_jump_buffer() {
    let l = level(3);
    let t = tuning();
    // The drawing: stone roof cols 78-103 (bottom row 17, 26 px of headroom); the floor (top
    // row 21) is spike runs of 3 (cols 82-84, 86-88, ...) between 1-tile steps.
    assert_solid(&l, &[(78, 17), (103, 17), (85, 21), (89, 21)], "corridor");
    assert_eq!(l.kind_at(82, 21), TileKind::Hazard, "corridor spikes");
    let mut without = t.clone();
    without.jump_buffer_time = 0.0;
    let firsts: Vec<i64> = (1..80).filter(|&f| (0..=2).any(|d| hop_corridor(&l, &t, f, d))).collect();
    assert!(!firsts.is_empty(), "no run through the corridor at all");
    let mut early_with = 0;
    for &f in &firsts {
        for d in -4..=-1 {
            early_with += hop_corridor(&l, &t, f, d) as usize;
            assert!(
                !hop_corridor(&l, &without, f, d),
                "pressing {d} ticks before landing chained the hops without the buffer"
            );
        }
    }
    assert!(
        early_with >= firsts.len() * 3,
        "early presses chained only {early_with} times over {} starts",
        firsts.len()
    );
}

/// From checkpoint 3's respawn (in the chimney), run right and jump on tick `j` holding jump
/// and right. True when the player then stands on the first slab (feet on row 18's top).
fn chimney_jump(l: &Level, t: &Tuning, j: i64) -> bool {
    let cp = l.checkpoints[2].respawn;
    let mut sim = Sim::standing(l, t, cp.x, ((cp.y + HITBOX.y) / TILE) as i64);
    for i in 1..200 {
        let out = sim.tick(1, i >= j);
        if out.died {
            return false;
        }
        let p = &sim.world.player;
        if i > j + 2 && p.on_ground {
            return p.pos.y + HITBOX.y == 18.0 * TILE;
        }
    }
    false
}

#[test]
fn level3_chimney_corner_correction_widens_the_jump_window() {
    let l = level(3);
    let t = tuning();
    // The drawing: slabs on rows 18, 15, 12 with 1-tile holes at cols 113, 119, 113.
    assert_solid(&l, &[(112, 18), (114, 18), (118, 15), (120, 15)], "chimney slabs");
    assert_open(&l, &[(113, 18), (119, 15), (113, 12)], "chimney holes");
    let mut without = t.clone();
    without.corner_correction = 0.0;
    let with_cc: Vec<i64> = (1..120).filter(|&j| chimney_jump(&l, &t, j)).collect();
    let no_cc: Vec<i64> = (1..120).filter(|&j| chimney_jump(&l, &without, j)).collect();
    assert!(
        with_cc.len() >= 3 && with_cc.len() >= 2 * no_cc.len(),
        "running-jump ticks through the first hole: {with_cc:?} with corner correction, \
         {no_cc:?} without"
    );
    assert!(no_cc.iter().all(|j| with_cc.contains(j)));
}
