//! The menus' state machine, tested (src/ui/menu.rs).

use super::*;
use crate::sim::action::Action;

fn levels(open: &[bool]) -> Vec<LevelEntry> {
    open.iter()
        .enumerate()
        .map(|(i, &open)| LevelEntry {
            name: format!("L{i}"),
            id: format!("level{}", i + 1),
            record: None,
            open,
        })
        .collect()
}

fn ctx<'a>(s: &'a Settings, l: &'a [LevelEntry]) -> Context<'a> {
    Context { settings: s, levels: l, speed_percent: 100, finished_run: false }
}

#[test]
fn levels_open_in_order() {
    let ids: Vec<(String, String)> = (1..=3).map(|i| (format!("level{i}"), format!("L{i}"))).collect();
    let mut p = Progress::default();
    let open = |p: &Progress| level_entries(&ids, p).iter().map(|e| e.open).collect::<Vec<_>>();
    assert_eq!(open(&p), [true, false, false], "a new player: only the first");
    p.unlocked.push("level3".into());
    assert_eq!(open(&p), [true, false, false], "level 3 without level 2 stays shut");
    p.finish("level1", 900, 0, Some("level2"));
    assert_eq!(open(&p), [true, true, true]);
    let e = &level_entries(&ids, &p)[0];
    assert_eq!(e.record, Some(LevelRecord { best_ticks: 900, fewest_deaths: 0, deathless: true }));
}

#[test]
fn title_level_select_and_locked_levels() {
    let s = Settings::default();
    let l = levels(&[true, true, false]);
    let c = ctx(&s, &l);
    let mut m = Menu::new(Page::Title);
    assert_eq!(m.input(Input::Down, &c), None);
    assert_eq!(m.page(), Page::LevelSelect, "any key, an arrow too");
    m.input(Input::Back, &c);
    assert_eq!(m.input(Input::Other, &c), None);
    assert_eq!(m.page(), Page::LevelSelect);
    assert_eq!(m.cursor(), 1, "the cursor starts on the last open level");
    m.input(Input::Down, &c);
    assert_eq!(m.cursor(), 3, "the locked level is skipped: Race online");
    assert_eq!(m.input(Input::Confirm, &c), None);
    assert_eq!((m.page(), m.race_form().level), (Page::Race, 1), "hosting the last open level");
    m.input(Input::Back, &c);
    m.input(Input::Down, &c);
    assert_eq!(m.cursor(), 4, "then Settings");
    m.input(Input::Up, &c);
    m.input(Input::Up, &c);
    m.input(Input::Up, &c);
    assert_eq!(m.input(Input::Confirm, &c), Some(MenuAction::Play(0)));
    m.input(Input::Up, &c);
    assert_eq!(m.cursor(), 5, "wraps to Quit");
    assert_eq!(m.input(Input::Confirm, &c), Some(MenuAction::Quit));
    assert_eq!(m.input(Input::Back, &c), None);
    assert_eq!(m.page(), Page::Title);
    assert_eq!(m.input(Input::Back, &c), Some(MenuAction::Quit), "Esc on the title quits");
}

#[test]
fn with_practice_on_the_pause_menu_saves_and_loads_states() {
    let mut s = Settings::default();
    assert_eq!(PauseItem::all(false, false).len(), 6);
    s.display.practice = true;
    let c = ctx(&s, &[]);
    let mut m = Menu::new(Page::Pause);
    for _ in 0..4 {
        m.input(Input::Down, &c);
    }
    assert_eq!(m.input(Input::Confirm, &c), Some(MenuAction::SaveState));
    m.input(Input::Down, &c);
    assert_eq!(m.input(Input::Confirm, &c), Some(MenuAction::LoadState));
    m.input(Input::Down, &c);
    assert_eq!(m.input(Input::Confirm, &c), Some(MenuAction::ToTitle));
    let labels: Vec<&str> = PauseItem::all(true, false).into_iter().map(PauseItem::label).collect();
    assert_eq!(labels[4..6], ["Save state", "Load state"]);
}

#[test]
fn pause_and_end_roots_keep_their_keys() {
    let s = Settings::default();
    let c = ctx(&s, &[]);
    let mut m = Menu::new(Page::Pause);
    assert_eq!(m.input(Input::Back, &c), Some(MenuAction::Resume), "Esc resumes");
    assert_eq!(m.input(Input::Start, &c), Some(MenuAction::Resume));
    assert_eq!(m.input(Input::Quit, &c), Some(MenuAction::Quit), "Q quits");
    assert_eq!(m.input(Input::Confirm, &c), Some(MenuAction::Resume));
    m.input(Input::Down, &c);
    assert_eq!(m.input(Input::Confirm, &c), Some(MenuAction::Restart));
    m.input(Input::Down, &c);
    assert_eq!(m.input(Input::Confirm, &c), None);
    assert_eq!(m.page(), Page::Settings);
    assert_eq!(m.input(Input::Quit, &c), None, "Q is no quit inside settings");
    assert_eq!(m.input(Input::Back, &c), None);
    assert_eq!((m.page(), m.cursor()), (Page::Pause, 2), "back where it was");
    m.input(Input::Down, &c);
    assert_eq!(m.input(Input::Confirm, &c), Some(MenuAction::SkipLevel));
    m.input(Input::Down, &c);
    assert_eq!(m.input(Input::Confirm, &c), Some(MenuAction::ToTitle));

    let mut e = Menu::new(Page::End);
    assert_eq!(e.input(Input::Confirm, &c), Some(MenuAction::PlayAgain), "Enter plays again");
    assert_eq!(e.input(Input::Back, &c), Some(MenuAction::Quit), "Esc quits");
    assert_eq!(e.input(Input::Quit, &c), Some(MenuAction::Quit));
    e.input(Input::Down, &c);
    assert_eq!(e.input(Input::Confirm, &c), Some(MenuAction::ToTitle));
    assert_eq!(e.input(Input::Start, &c), Some(MenuAction::PlayAgain), "Start plays again");
}

fn open_settings(c: &Context<'_>) -> Menu {
    let mut m = Menu::new(Page::Pause);
    m.input(Input::Down, c);
    m.input(Input::Down, c);
    m.input(Input::Confirm, c);
    assert_eq!(m.page(), Page::Settings);
    m
}

fn goto(m: &mut Menu, row: SettingRow, c: &Context<'_>) {
    while setting_rows()[m.cursor()] != row {
        m.input(Input::Down, c);
    }
}

#[test]
fn settings_values_step() {
    let mut s = Settings::default();
    let mut m = open_settings(&ctx(&s, &[]));
    let apply = |m: &mut Menu, s: &mut Settings, i: Input| {
        if let Some(MenuAction::Settings(n)) = m.input(i, &ctx(s, &[])) {
            *s = *n;
        }
    };
    apply(&mut m, &mut s, Input::Right);
    assert_eq!(s.volume.master, 1.0, "100 % is the top");
    apply(&mut m, &mut s, Input::Left);
    apply(&mut m, &mut s, Input::Left);
    assert_eq!(s.volume.master, 0.8);
    goto(&mut m, SettingRow::ScreenShake, &ctx(&s, &[]));
    apply(&mut m, &mut s, Input::Left);
    assert_eq!(s.display.screen_shake, crate::cosmetic::ShakeLevel::Half);
    apply(&mut m, &mut s, Input::Confirm);
    assert_eq!(s.display.screen_shake, crate::cosmetic::ShakeLevel::Full, "Enter steps on");
    s.display.reduced_motion = true;
    assert_eq!(m.input(Input::Right, &ctx(&s, &[])), None, "locked by reduced motion");
    assert_eq!(m.message(), Some("Screen shake stays off while reduced motion is on"));
    s.display.reduced_motion = false;
    m.input(Input::Down, &ctx(&s, &[]));
    apply(&mut m, &mut s, Input::Right);
    m.input(Input::Down, &ctx(&s, &[]));
    apply(&mut m, &mut s, Input::Confirm);
    assert!(!s.display.flashes && !s.display.visual_effects);
    assert_eq!(s.cosmetic().shake, crate::cosmetic::ShakeLevel::Full);
    goto(&mut m, SettingRow::Vsync, &ctx(&s, &[]));
    apply(&mut m, &mut s, Input::Confirm);
    assert!(!s.display.vsync);
    goto(&mut m, SettingRow::FpsCap, &ctx(&s, &[]));
    apply(&mut m, &mut s, Input::Right);
    assert_eq!(s.display.fps_cap, 30.0);
    apply(&mut m, &mut s, Input::Left);
    apply(&mut m, &mut s, Input::Left);
    assert_eq!(s.display.fps_cap, 240.0, "wraps from off to the top");
    m.input(Input::Down, &ctx(&s, &[]));
    assert_eq!(m.input(Input::Left, &ctx(&s, &[])), Some(MenuAction::GameSpeed { up: false }));
    assert_eq!(m.input(Input::Confirm, &ctx(&s, &[])), None, "Left / Right only");
    assert_eq!(s.validate(), Ok(()));
}

#[test]
fn rebinding_takes_a_key_and_refuses_a_conflict() {
    let mut s = Settings::default();
    let mut m = open_settings(&ctx(&s, &[]));
    goto(&mut m, SettingRow::Key(Device::Keyboard, Bind::Action(Action::Jump)), &ctx(&s, &[]));
    assert_eq!(m.input(Input::Confirm, &ctx(&s, &[])), None);
    assert_eq!(m.capture(), Some(Capture { device: Device::Keyboard, bind: Bind::Action(Action::Jump) }));
    // Esc, F3 and pad buttons are not taken.
    assert_eq!(m.capture_key(Device::Keyboard, None, "F3", &ctx(&s, &[])), None);
    assert_eq!(m.message(), Some("F3 cannot be bound"));
    assert_eq!(m.capture_key(Device::Pad, Some("North"), "North", &ctx(&s, &[])), None);
    // A key of another action: refused, the other action keeps it.
    assert_eq!(m.capture_key(Device::Keyboard, Some("KeyA"), "A", &ctx(&s, &[])), None);
    assert_eq!(m.message(), Some("A already holds left: rebind left first"));
    assert!(m.capture().is_some(), "still waiting");
    let Some(MenuAction::Settings(n)) = m.capture_key(Device::Keyboard, Some("KeyJ"), "J", &ctx(&s, &[]))
    else {
        panic!("J is free");
    };
    s = *n;
    assert_eq!(s.keys.keyboard.jump, ["KeyJ"]);
    assert_eq!(s.keys.keyboard.left, ["ArrowLeft", "KeyA"], "nothing else changed");
    assert_eq!(m.message(), Some("jump is now J"));
    assert_eq!(m.capture(), None);
    // Its own key again is no conflict; Esc cancels a capture and stays on the page.
    m.input(Input::Confirm, &ctx(&s, &[]));
    assert!(m.capture_key(Device::Keyboard, Some("KeyJ"), "J", &ctx(&s, &[])).is_some());
    m.input(Input::Confirm, &ctx(&s, &[]));
    assert_eq!(m.input(Input::Back, &ctx(&s, &[])), None);
    assert_eq!((m.page(), m.capture()), (Page::Settings, None));
    // The pad likewise; reset brings the defaults back.
    goto(&mut m, SettingRow::Key(Device::Pad, Bind::Action(Action::Jump)), &ctx(&s, &[]));
    m.input(Input::Confirm, &ctx(&s, &[]));
    assert!(m.capture_key(Device::Pad, Some("DPadLeft"), "DPadLeft", &ctx(&s, &[])).is_none());
    let Some(MenuAction::Settings(n)) = m.capture_key(Device::Pad, Some("North"), "North", &ctx(&s, &[]))
    else {
        panic!("North is free");
    };
    assert_eq!(n.keys.pad.jump, ["North"]);
    goto(&mut m, SettingRow::ResetKeys, &ctx(&n, &[]));
    let Some(MenuAction::Settings(r)) = m.input(Input::Confirm, &ctx(&n, &[])) else { panic!("reset") };
    assert_eq!(r.keys, Settings::default().keys);
}

#[test]
fn after_a_level_the_pause_menu_and_end_screen_watch_and_copy_the_run() {
    let s = Settings::default();
    let c = Context { finished_run: true, ..ctx(&s, &[]) };
    let labels: Vec<&str> = PauseItem::all(false, true).into_iter().map(PauseItem::label).collect();
    assert_eq!(labels[4..6], ["Watch every attempt", "Copy run link"]);
    let mut m = Menu::new(Page::Pause);
    for _ in 0..4 {
        m.input(Input::Down, &c);
    }
    assert_eq!(m.input(Input::Confirm, &c), Some(MenuAction::WatchAttempts));
    m.input(Input::Down, &c);
    assert_eq!(m.input(Input::Confirm, &c), Some(MenuAction::CopyLink));
    let mut end = Menu::new(Page::End);
    end.input(Input::Down, &c);
    assert_eq!(end.input(Input::Confirm, &c), Some(MenuAction::WatchAttempts));
    let names: Vec<&str> = end_items(true).iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["Play again", "Watch every attempt", "Copy run link", "Back to title", "Quit"]);
    let plain: Vec<&str> = end_items(false).iter().map(|(n, _)| *n).collect();
    assert_eq!(plain, ["Play again", "Back to title", "Quit"]);
}
