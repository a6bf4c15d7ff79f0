//! Movement mechanics through the lab (LAB.md scripts, the game's own loop): short hop vs full
//! jump, coyote time, jump buffer, corner correction, drop-through, checkpoint respawn without
//! a streak, no tunnelling onto one-way platforms, no phantom walls at tile seams.
//!
//! Tick numbering: with `frame 16.666667` frames at 60 Hz, frame n runs exactly tick n, and an
//! event written right after frame n (offset +0) is consumed by tick n + 1.

mod common;

use ledge::game_loop::TickRecord;
use ledge::lab::report::Report;

const FRAME: &str = "frame 16.666667";

fn run(script: &str) -> Report {
    common::lab::run(script, &common::lab::options("mechanics", common::root(), false))
}

fn ticks(r: &Report) -> &[TickRecord] {
    r.ticks.as_deref().unwrap()
}

/// Rise of the first jump, pixels (labcheck's `rise`); fails when no jump started.
fn rise(r: &Report) -> f64 {
    let t = ticks(r);
    assert!(t.iter().any(|t| t.jump_started), "a jump started");
    common::lab::rise(t)
}

fn frames(n: u64) -> String {
    if n == 0 { String::new() } else { format!("{FRAME} x{n}\n") }
}

const FLAT: &str = "map\n..............................\n..............................\n..............................\n..............................\n..............................\n...P..........................\n##############################\nend\n";

#[test]
fn short_hop_is_lower_than_full_jump() {
    let full = run(&format!("{FLAT}{}press jump\n{}", frames(5), frames(60)));
    let hop = run(&format!("{FLAT}{}press jump\nrelease jump +1\n{}", frames(5), frames(60)));
    assert_eq!(full.summary.jumps, 1);
    assert_eq!(hop.summary.jumps, 1);
    let (f, h) = (rise(&full), rise(&hop));
    assert!(f > 48.0, "a full jump clears 3 tiles: {f}");
    assert!(h > 4.0 && h < f - 24.0, "hop {h} vs full {f}");
}

/// A ledge the player runs off to the right, with a floor far below (a long fall, so a buffered
/// press cannot fire on landing within the test's window).
const LEDGE: &str = "map\n....................\n.P..................\n#####...............\n....................\n....................\n....................\n....................\n....................\n....................\n....................\n....................\n....................\n####################\nend\n";

fn walk_off_tick() -> u64 {
    let r = run(&format!("{LEDGE}press right\n{}", frames(60)));
    ticks(&r).iter().find(|t| !t.player.on_ground).expect("walks off").tick
}

fn coyote_jump_at(k: u64) -> bool {
    let w = walk_off_tick();
    let r = run(&format!("{LEDGE}press right\n{}press jump\n{}", frames(w + k - 1), frames(30)));
    let t = &ticks(&r)[(w + k - 1) as usize];
    assert_eq!(t.tick, w + k);
    assert!(!t.player.on_ground || t.jump_started);
    r.summary.jumps == 1 && t.jump_started
}

#[test]
fn coyote_jump_succeeds_within_coyote_time_and_fails_after() {
    // coyote_time 0.1 s at 60 Hz = 6 ticks
    assert!(coyote_jump_at(5), "C - 1 ticks after walking off");
    assert!(coyote_jump_at(6), "C ticks after walking off");
    assert!(!coyote_jump_at(7), "C + 1 ticks after walking off");
}

/// Falls from a height onto a floor; returns (landing tick L, report without any press).
fn landing_tick() -> u64 {
    let r = run(&format!("{FLAT}teleport 50 0\n{}", frames(60)));
    let t = ticks(&r);
    t.iter().skip(1).find(|t| t.player.on_ground).expect("lands").tick
}

#[test]
fn the_teleport_tick_ends_at_rest_where_it_placed_the_player() {
    // LAB.md: "placed there with zero velocity, as a respawn does" — like a death respawn, the
    // tick that places the player ends there: no gravity integrated in it; the fall starts in
    // the next tick.
    let r = run(&format!("{FLAT}{}teleport 50 10\npress jump\n{}", frames(3), frames(3)));
    let t = ticks(&r);
    let placed = t.iter().find(|t| t.respawned).expect("a respawned tick");
    assert_eq!((placed.player.x, placed.player.y), (50.0, 10.0), "ends exactly where it was placed");
    assert_eq!((placed.player.vx, placed.player.vy), (0.0, 0.0), "at rest");
    assert!(!placed.jump_started, "its own press is not applied (as in a death tick)");
    let next = t.iter().find(|n| n.tick == placed.tick + 1).expect("the next tick");
    assert!(next.player.vy > 0.0 && next.player.y > 10.0, "the fall starts in the next tick");
    assert_eq!(r.summary.respawns, 1);
}

#[test]
fn buffered_jump_fires_on_landing_exactly_once() {
    // jump_buffer_time 0.08 s at 60 Hz = 5 ticks; the jump fires in the first tick that starts
    // on the ground, L + 1, when the press came at most 5 ticks before it.
    let l = landing_tick();
    let press_at = l + 1 - 5;
    let r = run(&format!("{FLAT}teleport 50 0\n{}press jump\n{}", frames(press_at - 1), frames(60)));
    let started: Vec<u64> = ticks(&r).iter().filter(|t| t.jump_started).map(|t| t.tick).collect();
    assert_eq!(started, vec![l + 1]);
    let late = run(&format!("{FLAT}teleport 50 0\n{}press jump\n{}", frames(press_at - 2), frames(60)));
    assert_eq!(late.summary.jumps, 0, "a press 6 ticks before the first grounded tick is forgotten");
}

#[test]
fn a_zero_jump_buffer_buffers_nothing() {
    // With jump_buffer_time 0 a press counts in its own tick only: pressed in the landing tick
    // L (which starts in the air) it is lost; pressed in L + 1 (which starts on the ground) it
    // jumps at once.
    let l = landing_tick();
    let script = |press_tick: u64| {
        format!(
            "tuning jump_buffer_time 0\n{FLAT}teleport 50 0\n{}press jump\n{}",
            frames(press_tick - 1),
            frames(60)
        )
    };
    assert_eq!(run(&script(l)).summary.jumps, 0, "a press in the landing tick is not buffered");
    let r = run(&script(l + 1));
    let started: Vec<u64> = ticks(&r).iter().filter(|t| t.jump_started).map(|t| t.tick).collect();
    assert_eq!(started, vec![l + 1], "a press on the ground jumps in its own tick");
}

/// A ceiling tile at column 4 (x 64..80, bottom edge y = 32) above a floor at y = 80.
fn corner(x: f64, ceiling: bool) -> Report {
    let row1 = if ceiling { "....#.........." } else { "..............." };
    run(&format!(
        "tuning var_jump_time 0.2\nmap\n...............\n{row1}\n...............\n...............\nP..............\n###############\nend\nteleport {x} 58\n{}press jump\n{}",
        frames(5),
        frames(40)
    ))
}

#[test]
fn corner_correction_slides_at_4px_and_blocks_at_5px_and_never_adds_height() {
    let top = |r: &Report| ticks(r).iter().map(|t| t.player.y).fold(f64::INFINITY, f64::min);
    for (x, overlap_side) in [(56.0, "left"), (76.0, "right")] {
        let slid = corner(x, true);
        let free = corner(x, false);
        assert!(top(&slid) < 32.0, "4 px on the {overlap_side}: slides past the ceiling");
        assert_eq!(top(&slid), top(&free), "no extra height");
    }
    for x in [57.0, 75.0] {
        let blocked = corner(x, true);
        assert!(top(&blocked) >= 32.0, "5 px overlap at x={x} is a real ceiling: {}", top(&blocked));
    }
}

const ONEWAY: &str =
    "map\n..........\n..........\n...P......\n----------\n..........\n..........\n##########\nend\n";

#[test]
fn down_jump_drops_through_a_one_way_platform_and_jump_alone_does_not() {
    let r = run(&format!("{ONEWAY}{}press down\npress jump\n{}", frames(5), frames(60)));
    let last = ticks(&r).last().unwrap();
    assert!(
        last.player.on_ground && last.player.y == 6.0 * 16.0 - 22.0,
        "lands on the floor below: {}",
        last.player.y
    );
    assert_eq!(r.summary.jumps, 0);
    let r = run(&format!("{ONEWAY}{}press jump\n{}", frames(5), frames(60)));
    let last = ticks(&r).last().unwrap();
    assert_eq!(r.summary.jumps, 1);
    assert!(
        last.player.on_ground && last.player.y == 3.0 * 16.0 - 22.0,
        "back on the plank: {}",
        last.player.y
    );
}

#[test]
fn hazard_respawns_at_the_checkpoint_with_no_in_between_drawn_position() {
    let r = run(&format!(
        "map\n..........\n..........\nP..C...^..\n##########\nend\npress right\n{}",
        "frame 6.9444 x200\n"
    ));
    let t = ticks(&r);
    let death = t.iter().find(|t| t.respawned).expect("the hazard respawns the player");
    let checkpoint_x = 3.0 * 16.0 + 2.0;
    assert_eq!(death.player.x, checkpoint_x);
    assert_eq!(death.player.vx, 0.0);
    let frames = r.frames.as_deref().unwrap();
    let i = frames.iter().position(|f| f.stats.tick >= death.tick).unwrap();
    // Before: drawn near the hazard; from the respawn frame on: drawn from the checkpoint, never
    // anywhere between the two (a streak).
    assert!(frames[i - 1].stats.drawn.x > 5.0 * 16.0);
    assert_eq!(frames[i].stats.drawn.x, frames[i].stats.player.x);
    let next_death = t.iter().filter(|t| t.respawned).nth(1).map_or(u64::MAX, |t| t.tick);
    for f in &frames[i..] {
        if f.stats.tick >= next_death {
            break;
        }
        assert!(
            f.stats.drawn.x >= checkpoint_x && f.stats.drawn.x <= f.stats.player.x,
            "frame {}: {}",
            f.frame,
            f.stats.drawn.x
        );
    }
}

#[test]
fn max_fall_speed_never_tunnels_through_a_one_way_platform() {
    for (fall, grav) in [(900.0, 5000.0), (2000.0, 20000.0), (5000.0, 100000.0)] {
        let sky = ".....\n".repeat(26);
        let r = run(&format!(
            "tuning max_fall_speed {fall}\ntuning gravity {grav}\nmap\n..P..\n{sky}-----\n.....\n.....\nend\n{}",
            frames(60)
        ));
        let last = ticks(&r).last().unwrap();
        assert!(
            last.player.on_ground && last.player.y == 27.0 * 16.0 - 22.0,
            "fall {fall}: y {}",
            last.player.y
        );
        assert!(ticks(&r).iter().any(|t| t.player.vy >= fall * 0.99), "reached max fall speed {fall}");
    }
}

#[test]
fn walking_across_tile_seams_never_stops_from_any_sub_pixel_start() {
    let floor = "#".repeat(40);
    let sky = ".".repeat(40);
    for x0 in [0.0, 0.001, 8.5, 15.999] {
        let r = run(&format!(
            "map\n{sky}\n{sky}\nP{}\n{floor}\nend\nteleport {x0} 26\npress right\n{}",
            ".".repeat(39),
            frames(240)
        ));
        let t = ticks(&r);
        let wall = 40.0 * 16.0 - 12.0;
        let mut last_x = f64::NEG_INFINITY;
        for tick in t.iter().skip(2).filter(|t| t.player.x < wall - 8.0) {
            assert!(tick.player.x > last_x, "start {x0}: stalled at tick {} x {}", tick.tick, tick.player.x);
            assert!(
                tick.player.y == 26.0 && tick.player.on_ground,
                "start {x0}: bumped at tick {}",
                tick.tick
            );
            last_x = tick.player.x;
        }
        assert_eq!(t.last().unwrap().player.x, wall, "start {x0}: reaches the wall");
    }
}

#[test]
fn pause_on_focus_loss_stops_the_game_clock_and_leaves_no_trace() {
    let paused = run(&format!(
        "config pause_on_focus_loss 1\n{FLAT}press right @0\n{}focus lost\n{}press jump\nfocus gained\n{}",
        frames(30),
        frames(30),
        frames(30)
    ));
    let straight =
        run(&format!("{FLAT}press right @0\n{}focus lost\nfocus gained\n{}", frames(30), frames(30)));
    let f = paused.frames.as_deref().unwrap();
    assert!(f[30..60].iter().all(|f| f.paused && f.stats.steps == 0), "paused frames run no ticks");
    assert!(!f[60].paused && f[60].stats.steps == 1);
    assert_eq!(paused.summary.totals.ticks, 60);
    assert_eq!(paused.summary.jumps, 0, "the jump pressed while paused is ignored");
    assert_eq!(paused.summary.state_hash, straight.summary.state_hash);
}
