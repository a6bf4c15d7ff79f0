//! `summary.inputs` and `summary.shown_ms` (LAB.md Version 4 "Latency"): every press and
//! release with the tick it applied in and the wall time until a frame first drew anything of
//! that tick — the delay the fixed tick and the interpolation add by design.
//!
//! Clock: the lab's scripted clock.

mod common;

use common::lab::{options, run};
use ledge::lab::report::Report;
use std::path::Path;

const MAP: &str = "map
..............................
..P...........................
##############################
end
";

fn lab(body: &str) -> Report {
    run(&format!("{MAP}{body}"), &options("latency", Path::new("."), true))
}

#[test]
fn a_tap_is_listed_with_its_tick_and_the_end_of_the_first_frame_that_draws_it() {
    // 50 ms frames run exactly 3 ticks each and end at alpha 0. The press at 60 ms applies in
    // tick 4 (50..66.7 ms); the frame ending at 100 ms ends on tick 6, so it draws tick 4:
    // 40 ms. The release at 95 ms applies in tick 6, which that frame ends on at alpha 0 (it
    // draws tick 5 exactly): the frame ending at 150 ms is the first to draw any of it, 55 ms.
    let r = lab("press jump @60\nrelease jump @95\nframe 50 x4\n");
    let i = &r.summary.inputs;
    assert_eq!(i.len(), 2);
    assert_eq!((i[0].action, i[0].edge, i[0].player, i[0].tick), ("jump", "press", 1, 4));
    assert_eq!((i[1].edge, i[1].tick), ("release", 6));
    assert_eq!((i[0].at_ms, i[1].at_ms), (60.0, 95.0));
    assert_eq!((i[0].shown_ms, i[1].shown_ms), (Some(40.0), Some(55.0)));
    assert_eq!(r.summary.shown_ms.max, Some(55.0));
    assert_eq!(r.summary.shown_ms.p50, Some(40.0), "nearest rank: the smaller of two");
}

#[test]
fn at_every_display_rate_a_tap_is_shown_within_a_tick_and_a_frame() {
    for (hz, frame) in [
        (30.0, "33.333333 x90"),
        (60.0, "16.666667 x180"),
        (144.0, "6.944444 x432"),
        (240.0, "4.166667 x720"),
    ] {
        let taps: String = (0..10)
            .map(|k| format!("press left @{}\nrelease left @{}\n", 100 + 271 * k, 140 + 271 * k))
            .collect();
        let r = lab(&format!("{taps}frame {frame}\n"));
        assert_eq!(r.summary.inputs.len(), 20, "{hz} Hz");
        let bound = 1000.0 / 60.0 + 1000.0 / hz + 0.01;
        for i in &r.summary.inputs {
            let d = i.shown_ms.expect("every tap is shown before the run ends");
            assert!(d > 0.0 && d <= bound, "{hz} Hz: {d} ms > {bound}");
        }
        assert!(r.summary.shown_ms.p99.expect("shown") <= bound);
    }
}

#[test]
fn an_edge_the_run_never_draws_is_null_and_left_out_of_the_percentiles() {
    let r = lab("press right @10\nframe 16.666667 x3\npress jump +1\nframe 1\n");
    let i = &r.summary.inputs;
    assert_eq!(i.len(), 2);
    assert!(i[0].shown_ms.is_some() && i[1].shown_ms.is_none());
    assert_eq!(r.summary.shown_ms.max, i[0].shown_ms);
    let json = r.to_json();
    assert!(json.contains("\"shown_ms\":null"), "{json}");
}

#[test]
fn a_second_players_edges_name_their_player() {
    let r = lab("players 2\npress jump p2 @50\nframe 16.666667 x8\n");
    assert_eq!(r.summary.inputs.len(), 1);
    assert_eq!(r.summary.inputs[0].player, 2);
}
