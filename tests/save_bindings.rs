//! Key bindings from `settings.toml` drive the keyboard, and recordings store actions, not
//! keys (issue #12): a jump rebound to J in a hand-edited settings file, pressed as J, is
//! recorded exactly as the default Space press is, so a `--record` file replays the same
//! whatever the bindings of the machine that replays it.
//!
//! Clock: none (key events and the recorder are driven with made-up times).

mod common;

use common::root;
use common::scratch::Scratch;
use ledge::input::keyboard::{KeyMap, Keyboard};
use ledge::input::{Action, InputEvent, Source};
use ledge::lab::record::Recorder;
use ledge::save::{Settings, Store};
use ledge::sim::Tuning;
use ledge::time::{GameSpeed, StepperConfig};
use winit::keyboard::KeyCode;

/// Press and release `jump_key` (and run right with `right_key`) through `keyboard` into a
/// recorder; the recording's text.
fn record(keyboard: &mut Keyboard, right_key: KeyCode, jump_key: KeyCode) -> (String, Vec<InputEvent>) {
    let level = root().join("assets/levels/level1.tmx");
    let mut rec = Recorder::new(
        &root().join("unused.lab"),
        &level,
        None,
        &Tuning::default(),
        &StepperConfig::default(),
        GameSpeed::FULL,
        false,
    );
    let mut events = Vec::new();
    let presses = [(right_key, true, 1), (jump_key, true, 20), (jump_key, false, 30), (right_key, false, 40)];
    for (key, down, ms) in presses {
        let t = ms * 1_000_000;
        keyboard.key(key, down, false, false, &mut |ev| {
            rec.event(t, &ev);
            events.push(ev);
        });
        rec.frame(t);
    }
    (rec.text().to_owned(), events)
}

#[test]
fn a_rebound_key_records_the_same_actions_as_the_default_key() {
    let scratch = Scratch::new("bindings");
    let dir = scratch.path("save");
    std::fs::create_dir_all(&dir).unwrap();
    // A player's hand edit: jump on J, right on L.
    let text = Settings::default()
        .to_text()
        .replace(r#"jump = ["Space", "KeyZ", "ArrowUp", "KeyW"]"#, r#"jump = ["KeyJ"]"#)
        .replace(r#"right = ["ArrowRight", "KeyD"]"#, r#"right = ["KeyL"]"#);
    assert!(text.contains(r#"jump = ["KeyJ"]"#) && text.contains(r#"right = ["KeyL"]"#), "{text}");
    std::fs::write(dir.join("settings.toml"), text).unwrap();

    let (store, warnings) = Store::open(Some(&dir));
    assert!(warnings.is_empty(), "{warnings:?}");
    let (map, unknown) = KeyMap::keyboard(&store.settings().keys.keyboard);
    assert!(unknown.is_empty(), "{unknown:?}");
    let mut rebound = Keyboard::with_map(map);
    let (rebound_text, rebound_events) = record(&mut rebound, KeyCode::KeyL, KeyCode::KeyJ);
    let (default_text, default_events) = record(&mut Keyboard::new(), KeyCode::ArrowRight, KeyCode::Space);

    use InputEvent::{Press, Release};
    let k = Source::Keyboard;
    let expect = [
        Press(k, Action::Right),
        Press(k, Action::Jump),
        Release(k, Action::Jump),
        Release(k, Action::Right),
    ];
    assert_eq!(rebound_events, expect);
    assert_eq!(default_events, expect);
    assert_eq!(rebound_text, default_text, "the recording does not depend on the bindings");
    assert!(rebound_text.contains("jump") && !rebound_text.contains("KeyJ"), "{rebound_text}");

    // With the rebinding, the old keys do nothing.
    let mut events = Vec::new();
    rebound.key(KeyCode::Space, true, false, false, &mut |ev| events.push(ev));
    assert!(events.is_empty(), "Space is unbound now: {events:?}");
}
