//! Golden images of the game feel drawn by the real loop between two ticks: a frame mid-burst
//! (a death's orbs flying out, the respawn's converging, the fade from black, the shake) and a
//! frame mid-squash (a landing's squash and dust), each at a fractional alpha, through the
//! game's off-screen renderer (`tests/common/golden.rs`; `LEDGE_BLESS=1` rewrites them). The
//! skies have their own goldens in `tests/golden.rs`.
//!
//! Clock: the lab's scripted wall clock (in-process), frames of a 144 Hz display.

mod common;

use common::golden::{check, shoot};
use ledge::present::view::EffectKind;

/// LAB.md Version 3's worked example (`../shared/cases/v3/v3-fx-ref.lab`: a jump at tick 16,
/// its landing at tick 49, deaths at ticks 69 and 139) at 144 Hz frames.
const SPIKES: &str = "map
........................................
........................................
........................................
........................................
........................................
........................................
..P.....................................
##############^^^^######################
end
press right @0
press jump @250
release jump @500
frame 6.9444 x300
";

#[test]
fn a_death_burst_between_two_ticks() {
    let mut seen = None;
    let img = shoot(SPIKES, |_, lp| {
        let (tick, alpha) = (lp.world().tick, lp.stepper().alpha());
        let pick = tick == 75 && (0.3..0.7).contains(&alpha);
        if pick {
            seen = Some((alpha, lp.cosmetic_draw().clone()));
        }
        pick
    });
    let (alpha, d) = seen.expect("picked");
    let bursts = d.effects.iter().filter(|e| e.kind == EffectKind::Burst).count();
    assert_eq!(bursts, 16, "8 orbs out of the death, 8 into the respawn (alpha {alpha})");
    assert!(d.effects.iter().any(|e| e.kind == EffectKind::Fade), "the respawn's fade");
    assert!(d.shake != glam::DVec2::ZERO, "6 ticks into the death's shake");
    check("feel-mid-burst", &img);
}

#[test]
fn a_landing_squash_between_two_ticks() {
    let mut seen = None;
    let img = shoot(SPIKES, |_, lp| {
        let (tick, alpha) = (lp.world().tick, lp.stepper().alpha());
        let pick = tick == 51 && (0.3..0.7).contains(&alpha);
        if pick {
            seen = Some(lp.cosmetic_draw().clone());
        }
        pick
    });
    let d = seen.expect("picked");
    let s = d.player_scale;
    assert!(s.x > 1.0 && s.y < 1.0, "squashed: {s:?}");
    assert!(d.effects.iter().any(|e| e.kind == EffectKind::Dust), "landing dust");
    check("feel-mid-squash", &img);
}
