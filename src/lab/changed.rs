//! The `level-changed TICK` and `tuning-changed TICK` lines: what `ledge --record` writes where
//! hot reload swapped the level or the tuning mid-session (docs/levels.md "Hot reload"), and the
//! lab's refusal of a script holding one. What follows such a line was played on files the
//! script does not hold, so the lab says so on that line rather than replay it wrongly.
//!
//! Clock: none (text in, text out).

/// The line for a swap of the level (`tuning` false) or the tuning after tick `tick`.
pub fn line(tuning: bool, tick: u64) -> String {
    format!("{}-changed {tick}", if tuning { "tuning" } else { "level" })
}

/// The parser's message for a `head` (`level-changed` or `tuning-changed`) line whose words
/// after the directive are `rest`: "the level changed during this recording at tick N", or what
/// is malformed about it.
pub fn refusal<'a>(head: &str, mut rest: impl Iterator<Item = &'a str>) -> String {
    let what = head.trim_end_matches("-changed");
    match (rest.next().and_then(|t| t.parse::<u64>().ok()), rest.next()) {
        (Some(tick), None) => format!("the {what} changed during this recording at tick {tick}"),
        _ => format!("{head}: expected one tick number ('{head} TICK')"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::script::parse;

    #[test]
    fn a_recording_across_a_reload_is_refused_on_its_line() {
        assert_eq!((line(false, 3), line(true, 1)), ("level-changed 3".into(), "tuning-changed 1".into()));
        let e = parse("frame 16 x3\nlevel-changed 3\nframe 16\n").unwrap_err();
        assert_eq!(e.to_string(), "line 2: the level changed during this recording at tick 3");
        let e = parse("frame 16\ntuning-changed 1\n").unwrap_err();
        assert_eq!(e.to_string(), "line 2: the tuning changed during this recording at tick 1");
        let e = parse("level-changed soon\n").unwrap_err();
        assert_eq!(e.to_string(), "line 1: level-changed: expected one tick number ('level-changed TICK')");
        assert_eq!(parse("level-changed 1 2\n").unwrap_err().line, 1);
    }
}
