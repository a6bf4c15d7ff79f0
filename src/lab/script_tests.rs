//! Tests of the lab script parser ([`super`]).
//!
//! Clock: none.

use super::*;

#[test]
fn parses_every_directive() {
    let s = parse(
        "# c\nconfig tick_hz 64\ntuning gravity 2000\nmap\n..P.\n####\nend\nframe 16.6667 x3\n\
         press jump @21.5\nrelease jump +2\nrepeat left\npress right synthetic +1\nrelease jump pad +1\nfocus lost\n\
         pad connect @100\naxis X -0.5 +3\nresize 800 0\nteleport 600 100\ntick-cost 5\n",
    )
    .unwrap();
    assert_eq!(s.config, vec![("tick_hz".into(), 64.0, 2)]);
    assert_eq!(s.level, LevelSource::Inline(vec!["..P.".into(), "####".into()], 5));
    assert_eq!(s.steps[0], (Step::Frame { ns: 16_666_700, count: 3 }, 8));
    assert_eq!(s.steps.len(), 12);
    assert_eq!(
        s.steps[5].0,
        Step::Event {
            event: InputEvent::Release(Source::Pad, Action::Jump),
            at: At::AfterFrame(1_000_000),
            player: 0
        }
    );
}

#[test]
fn times_are_exact_nanoseconds_from_the_decimal_text() {
    for (text, ns) in [
        ("16.6667", 16_666_700),
        ("16.666667", 16_666_667),
        ("0.000001", 1),
        ("6.9444", 6_944_400),
        ("250", 250_000_000),
        ("250.", 250_000_000),
        (".5", 500_000),
        ("0", 0),
        ("-0", 0),
        ("+7", 7_000_000),
        ("1e3", 1_000_000_000),
        ("1E-6", 1),
        ("2.5e-5", 25),
        ("16.666667000000", 16_666_667),
        ("0001048576000", 1_048_576_000_000_000),
        ("18446744073709.551615", u64::MAX),
        // Finer than a nanosecond: the nearest one, halves up, from the exact digits.
        ("16.6666667", 16_666_667),
        ("16.66666666666666666", 16_666_667),
        ("0.0000004", 0),
        ("0.0000005", 1),
        ("0.00000049999999999999999999", 0),
        ("1.5e-6", 2),
        ("2.5e-6", 3),
        ("1e-7", 0),
        ("1e-300", 0),
        ("18446744073709.5516154", u64::MAX),
    ] {
        assert_eq!(parse_ms(text), Ok(ns), "{text}");
    }
    for (text, why) in [
        ("18446744073709.551616", "more than 2^64"),
        ("18446744073709.5516155", "more than 2^64"),
        ("1e300", "more than 2^64"),
        ("99999999999999999999999999999999999999", "more than 2^64"),
        ("123456789012345678901234567890123456789e-30", "39 significant digits"),
        ("-1", "must be ≥ 0"),
        ("1e", "not a decimal"),
        ("16.6.7", "not a decimal"),
        ("inf", "not a decimal"),
        ("nan", "not a decimal"),
        ("", "not a decimal"),
        (".", "not a decimal"),
        ("0x10", "not a decimal"),
    ] {
        let e = parse_ms(text).unwrap_err();
        assert!(e.to_string().contains(why), "{text}: {e}");
    }
}

#[test]
fn time_errors_name_the_line_and_the_value() {
    let e = parse("frame 10\n\npress jump @16.6666.67\n").unwrap_err();
    assert_eq!(e.line, 3);
    assert_eq!(e.to_string(), "line 3: event time '16.6666.67': not a decimal number of milliseconds");
    let e = parse("tick-cost 18446744073709.551616\n").unwrap_err();
    assert_eq!(e.line, 1);
    assert!(e.to_string().contains("more than 2^64 - 1 ns"), "{e}");
    // The error is a std error: it goes into anyhow or a Box<dyn Error> as it is.
    let boxed: Box<dyn std::error::Error> = Box::new(e);
    assert!(boxed.to_string().starts_with("line 1: tick-cost MS"));
}

#[test]
fn twelve_days_of_milliseconds_are_read_exactly() {
    // 2^20 s, past the old 1e9 ms limit, and one nanosecond more.
    let s = parse("frame 1048576000 x2\npress jump @1048576000.000001\n").unwrap();
    let late = (1u64 << 20) * 1_000_000_000;
    assert_eq!(s.steps[0].0, Step::Frame { ns: late, count: 2 });
    let press = InputEvent::Press(Source::Keyboard, Action::Jump);
    assert_eq!(s.steps[1].0, Step::Event { event: press, at: At::Absolute(late + 1), player: 0 });
}

#[test]
fn errors_name_the_line() {
    for (text, line) in [
        ("frame 10\nbogus 3\n", 2),
        ("frame ten\n", 1),
        ("frame 10 x0\n", 1),
        ("map\n..P\n", 1),
        ("frame 1\ntuning gravity 3\n", 2),
        ("press fly\n", 1),
        ("press jump soon\n", 1),
        ("axis X 2\n", 1),
        ("frame -1\n", 1),
        ("frame nan\n", 1),
    ] {
        assert_eq!(parse(text).unwrap_err().line, line, "{text:?}");
    }
}

#[test]
fn a_level_line_may_end_with_its_content_hash() {
    let hex = "ab".repeat(32);
    let s = parse(&format!("level my levels/a.tmx sha256={hex}\n")).unwrap();
    assert_eq!(s.level, LevelSource::File("my levels/a.tmx".into(), 1, Some(hex.parse().unwrap())));
    let s = parse("level my levels/a.tmx\n").unwrap();
    assert_eq!(s.level, LevelSource::File("my levels/a.tmx".into(), 1, None));
    let e = parse("level a.tmx sha256=abc\n").unwrap_err();
    assert_eq!(e.to_string(), "line 1: level: sha256 must be 64 hex digits, got 'abc'");
}

#[test]
fn frames_and_events_past_the_limits_are_refused_at_their_line() {
    let e = parse(&format!("frame 16 x{MAX_FRAMES}\nframe 16\n")).unwrap_err();
    assert_eq!(e.to_string(), format!("line 2: more than {MAX_FRAMES} frames in one script"));
    assert!(parse(&format!("frame 16 x{MAX_FRAMES}\n")).is_ok());
    let e = parse(&format!("frame 16 x{}\n", u64::MAX)).unwrap_err();
    assert_eq!(e.line, 1);
    let text = "press jump\n".repeat(MAX_EVENTS + 1);
    let e = parse(&text).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("line {}: more than {MAX_EVENTS} input events in one script", MAX_EVENTS + 1)
    );
}

#[test]
fn players_and_player_tokens() {
    let s = parse("players 3\nmap\n..P.\n####\nend\npress jump p2 @10\naxis X 0.5 p3\npad connect p3\nrelease jump pad p2\nframe 16\n")
        .expect("parses");
    assert_eq!(s.players, 3);
    let players: Vec<u8> = s
        .steps
        .iter()
        .filter_map(|(st, _)| if let Step::Event { player, .. } = st { Some(*player) } else { None })
        .collect();
    assert_eq!(players, [1, 2, 2, 1]);
    assert_eq!(parse("press jump\nframe 16\n").expect("parses").players, 1);
    for (bad, want) in [
        ("press jump p2\nframe 16\n", "line 1: p2: the script has 1 player"),
        ("players 2\naxis X 0 p3\n", "line 2: p3: the script has 2 players"),
        ("players 5\n", "players: expected N"),
        ("players 2\nplayers 2\n", "already set"),
        ("press jump p9\n", "players are p1 to p4"),
        ("frame 16\nplayers 2\n", "setup directive"),
    ] {
        let e = parse(bad).expect_err(bad).to_string();
        assert!(e.contains(want), "{bad:?}: {e}");
    }
}
