//! The checks of the wall slide and wall jump cases (`tests/cases/wall*.lab`), one function
//! per case file, each assertion labelled with the Python expression it stands for. Included
//! by `tests/lab_cases.rs` (its `checks` module re-exports these).

use super::{Case, min_of, near, rise};

/// The ticks on which a jump started.
fn jump_ticks(c: &Case) -> Vec<u64> {
    c.ticks().iter().filter(|t| t.jump_started).map(|t| t.tick).collect()
}

pub fn wall01_slide_caps_fall(c: &Case) {
    let t = c.ticks();
    c.expect(
        r#"all(t["vy"] <= 40 for t in ticks if t["tick"] <= 40)"#,
        t.iter().filter(|t| t.tick <= 40).all(|t| t.player.vy <= 40.0),
    );
    c.expect(
        r#"ticks[39]["vy"] == 40 and ticks[39]["x"] == 148"#,
        t[39].player.vy == 40.0 && t[39].player.x == 148.0,
    );
    c.expect(r#"ticks[-1]["vy"] == 320"#, t[t.len() - 1].player.vy == 320.0);
    c.expect(r#"not any(t["on_ground"] for t in ticks)"#, !t.iter().any(|t| t.player.on_ground));
}

pub fn wall02_jump_pushes_away(c: &Case) {
    let t = c.ticks();
    c.expect(r#"[t["tick"] for t in ticks if t["jump_started"]] == [21]"#, jump_ticks(c) == [21]);
    c.expect(
        r#"ticks[20]["vx"] == -260 and ticks[20]["vy"] == -210"#,
        t[20].player.vx == -260.0 && t[20].player.vy == -210.0,
    );
    c.expect(r#"all(t["vx"] < 0 for t in ticks[20:31])"#, t[20..31].iter().all(|t| t.player.vx < 0.0));
    c.expect(r#"min(t["x"] for t in ticks) < 148 - 30"#, min_of(t.iter().map(|t| t.player.x)) < 148.0 - 30.0);
    c.expect(
        r#"min(t["y"] for t in ticks) < ticks[19]["y"] - 20"#,
        min_of(t.iter().map(|t| t.player.y)) < t[19].player.y - 20.0,
    );
}

pub fn wall03_ground_jump_wins(c: &Case) {
    let t = c.ticks();
    c.expect(r#"[t["tick"] for t in ticks if t["jump_started"]] == [21]"#, jump_ticks(c) == [21]);
    c.expect(r#"ticks[19]["on_ground"]"#, t[19].player.on_ground);
    c.expect(
        r#"ticks[20]["vx"] == 0 and ticks[20]["vy"] == -210"#,
        t[20].player.vx == 0.0 && t[20].player.vy == -210.0,
    );
    c.expect(r#"all(t["x"] == 148 for t in ticks[1:])"#, t[1..].iter().all(|t| t.player.x == 148.0));
}

pub fn wall04a_grace_last_tick(c: &Case) {
    let t = c.ticks();
    c.expect(r#"[t["tick"] for t in ticks if t["jump_started"]] == [26]"#, jump_ticks(c) == [26]);
    c.expect(
        r#"ticks[25]["vx"] == -260 and ticks[25]["vy"] == -210"#,
        t[25].player.vx == -260.0 && t[25].player.vy == -210.0,
    );
}

pub fn wall04b_grace_over(c: &Case) {
    c.expect(r#"summary["jumps"] == 0"#, c.summary().jumps == 0);
    c.expect(r#"ticks[26]["vy"] > 0"#, c.ticks()[26].player.vy > 0.0);
}

/// Every wall05 case: one jump in tick 25, 75 ticks, a 53 px rise, the others' state hash.
fn apex(c: &Case, others: [&str; 3]) {
    c.expect(r#"[t["tick"] for t in ticks if t["jump_started"]] == [25]"#, jump_ticks(c) == [25]);
    c.expect(r#"summary["ticks"] == 75"#, c.summary().totals.ticks == 75);
    c.expect("near(rise(ticks), 53.0, 0.001)", near(rise(c.ticks()), 53.0, 0.001));
    for other in others {
        c.expect_same_hash(other);
    }
}

pub fn wall05_apex_frame30(c: &Case) {
    apex(c, ["wall05-apex-frame60.lab", "wall05-apex-frame144.lab", "wall05-apex-frame240.lab"]);
}

pub fn wall05_apex_frame60(c: &Case) {
    apex(c, ["wall05-apex-frame30.lab", "wall05-apex-frame144.lab", "wall05-apex-frame240.lab"]);
}

pub fn wall05_apex_frame144(c: &Case) {
    apex(c, ["wall05-apex-frame30.lab", "wall05-apex-frame60.lab", "wall05-apex-frame240.lab"]);
}

pub fn wall05_apex_frame240(c: &Case) {
    apex(c, ["wall05-apex-frame30.lab", "wall05-apex-frame60.lab", "wall05-apex-frame144.lab"]);
}
