//! Gamepad: gilrs events → [`InputEvent`] edges, behind the [`Pads`] newtype.
//!
//! Clock: event loop. The app polls [`Pads::poll`] once per event-loop iteration
//! (`about_to_wait`) and stamps each event with the time it was polled.
//!
//! Bindings come from the settings (`[keys.pad]` in `settings.toml`, by gilrs button name,
//! through a [`PadMap`]); the defaults (gilrs' standard layout): d-pad left/right/up/down →
//! Left/Right/Up/Down, South (A on Xbox, Cross on PlayStation) → Jump, the left shoulder
//! button (gilrs `LeftTrigger`: LB, L1) → Rewind (hold). Left stick x → `AxisX(raw)`, not
//! rebindable. Start and Select (Back / Share) are not game input but [`PadMenu`] buttons for the app (pause,
//! resume, quit), handed out separately by [`Pads::poll`]. The stick is
//! passed raw: the latch applies the dead zone, so gilrs' own default filters are turned off
//! and only its hat-to-d-pad filter is kept (pads that report the d-pad as an axis).
//!
//! Several pads share [`Source::Pad`]: an action is pressed while any pad holds it, and a pad
//! that goes away releases only what it held ([`InputEvent::PadDisconnected`] is sent when the
//! last pad goes).

use super::bindmap::PracticeMap;
use super::bindmap::{BindMap, UnknownName, name_table};
use super::{Action, InputEvent, Source};
use crate::save::{Bindings, PracticeKey, PracticeKeys};
use gilrs::{Axis, Button, EventType, Gilrs, GilrsBuilder};

name_table!(
    /// The bindable buttons: each gilrs [`Button`] with its variant name. Start and Select
    /// are the app's ([`PadMenu`]) and Mode is often the system's, so they are left out.
    BUTTON_NAMES: Button [
        South, East, North, West, C, Z, LeftTrigger, LeftTrigger2, RightTrigger, RightTrigger2,
        LeftThumb, RightThumb, DPadUp, DPadDown, DPadLeft, DPadRight,
    ]
);

/// The bindable button named `name` (`South`, `DPadLeft`, ...), if any.
pub fn button(name: &str) -> Option<Button> {
    BUTTON_NAMES.iter().find(|(n, _)| *n == name).map(|&(_, b)| b)
}

/// The name of a bindable button (the inverse of [`button`]); `None` for Start, Select, Mode.
pub fn button_name(b: Button) -> Option<&'static str> {
    BUTTON_NAMES.iter().find(|(_, k)| *k == b).map(|&(n, _)| n)
}

/// A press on a pad as the menus read it ([`Pads::take_presses`]): a button, or the left
/// stick pushed past half way in a direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PadPress {
    /// A button went down (any button, bound or not).
    Button(Button),
    /// The left stick crossed half way: x -1 left, 1 right; y -1 down, 1 up (one of them 0).
    Stick {
        /// Horizontal direction.
        x: i8,
        /// Vertical direction.
        y: i8,
    },
}

/// How far the stick must go for a menu step.
const MENU_STICK: f32 = 0.5;

/// The left stick moved to `v` on one axis, whose menu direction was `*now`: a menu press
/// into `presses` when it crosses half way (`vertical`: the y axis, up positive).
fn stick_press(now: &mut i8, v: f32, vertical: bool, presses: &mut Vec<PadPress>) {
    let dir = if v > MENU_STICK {
        1
    } else if v < -MENU_STICK {
        -1
    } else {
        0
    };
    if std::mem::replace(now, dir) != dir && dir != 0 {
        presses.push(if vertical {
            PadPress::Stick { x: 0, y: dir }
        } else {
            PadPress::Stick { x: dir, y: 0 }
        });
    }
}

/// Which actions each bound button holds ([`BindMap`] over gilrs' [`Button`]).
pub type PadMap = BindMap<Button>;

impl PadMap {
    /// The map of the settings' `[keys.pad]` bindings, and the names in them that are no
    /// bindable button (left out).
    pub fn pad(bindings: &Bindings) -> (PadMap, Vec<UnknownName>) {
        BindMap::from_bindings(bindings, "pad", button)
    }
}

impl Default for PadMap {
    /// The default bindings ([`Bindings::default_pad`]; the module docs).
    fn default() -> Self {
        PadMap::pad(&Bindings::default_pad()).0
    }
}

/// A gamepad button that drives the app (pause screen, end screen) rather than the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PadMenu {
    /// Start (Menu / Options): pause and resume, like Esc; play again on the end screen.
    Start,
    /// Select (Back / View / Share): quit from the pause or end screen, like Q.
    Select,
    /// A practice button (`[keys.practice.pad]`, with practice on): save or load the state.
    Practice(PracticeKey),
}

/// The menu button a gamepad button is, if any.
pub fn menu_for(button: Button) -> Option<PadMenu> {
    match button {
        Button::Start => Some(PadMenu::Start),
        Button::Select => Some(PadMenu::Select),
        _ => None,
    }
}

/// A gamepad happening in platform-free terms: what [`PadTracker`] consumes. `pad` is gilrs'
/// gamepad id as a number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PadEvent {
    /// Pad `pad` appeared.
    Connected {
        /// Pad id.
        pad: usize,
    },
    /// Pad `pad` went away.
    Disconnected {
        /// Pad id.
        pad: usize,
    },
    /// A bound button went down (`down`) or up on pad `pad`.
    Button {
        /// Pad id.
        pad: usize,
        /// The bound action.
        action: Action,
        /// Pressed (true) or released.
        down: bool,
    },
    /// Left-stick x of pad `pad`, raw in [-1, 1].
    StickX {
        /// Pad id.
        pad: usize,
        /// Raw axis value.
        x: f32,
    },
}

/// Which pads are connected and which actions each holds; turns [`PadEvent`]s into
/// [`InputEvent`]s. Pure: unit-tested without gilrs.
#[derive(Clone, Debug, Default)]
pub struct PadTracker {
    /// Connected pads and the actions each holds (bit `Action::index`).
    pads: Vec<(usize, u8)>,
}

impl PadTracker {
    /// How many pads hold `action` now.
    fn holders(&self, action: Action) -> usize {
        let bit = 1u8 << action.index();
        self.pads.iter().filter(|(_, held)| held & bit != 0).count()
    }

    /// Number of connected pads.
    pub fn connected(&self) -> usize {
        self.pads.len()
    }

    /// Release every action any pad holds now (emitting one `Release` each) and centre the
    /// stick (`AxisX(0)`, when a pad is connected), forgetting the holds; pads stay
    /// connected. A button still down counts again only once pressed again (its eventual
    /// release is then no edge), a stick once it moves. Used when a new level starts.
    pub fn release_all(&mut self, out: &mut impl FnMut(InputEvent)) {
        for a in Action::ALL {
            if self.holders(a) > 0 {
                out(InputEvent::Release(Source::Pad, a));
            }
        }
        if !self.pads.is_empty() {
            out(InputEvent::AxisX(0.0));
        }
        for (_, held) in &mut self.pads {
            *held = 0;
        }
    }

    /// Translate one pad event.
    pub fn handle(&mut self, ev: PadEvent, out: &mut impl FnMut(InputEvent)) {
        match ev {
            PadEvent::Connected { pad } => {
                if !self.pads.iter().any(|(p, _)| *p == pad) {
                    self.pads.push((pad, 0));
                }
                out(InputEvent::PadConnected);
            }
            PadEvent::Disconnected { pad } => {
                let Some(i) = self.pads.iter().position(|(p, _)| *p == pad) else {
                    return;
                };
                let (_, held) = self.pads.swap_remove(i);
                if self.pads.is_empty() {
                    // The latch releases everything the pad source held.
                    out(InputEvent::PadDisconnected);
                    return;
                }
                for a in Action::ALL {
                    if held & (1 << a.index()) != 0 && self.holders(a) == 0 {
                        out(InputEvent::Release(Source::Pad, a));
                    }
                }
            }
            PadEvent::Button { pad, action, down } => {
                let bit = 1u8 << action.index();
                let before = self.holders(action);
                let Some(entry) = self.pads.iter_mut().find(|(p, _)| *p == pad) else {
                    // A button from a pad we never saw connect: announce it, then use it.
                    self.handle(PadEvent::Connected { pad }, out);
                    return self.handle(ev, out);
                };
                if down {
                    entry.1 |= bit;
                } else {
                    entry.1 &= !bit;
                }
                let after = self.holders(action);
                if before == 0 && after > 0 {
                    out(InputEvent::Press(Source::Pad, action));
                } else if before > 0 && after == 0 {
                    out(InputEvent::Release(Source::Pad, action));
                }
            }
            PadEvent::StickX { pad, x } => {
                if !self.pads.iter().any(|(p, _)| *p == pad) {
                    self.handle(PadEvent::Connected { pad }, out);
                }
                out(InputEvent::AxisX(x.clamp(-1.0, 1.0)));
            }
        }
    }
}

/// The gamepads: gilrs, or nothing when gilrs could not start (then no pad ever appears).
pub struct Pads {
    /// gilrs context; `None` when initialisation failed.
    gilrs: Option<Gilrs>,
    /// Pads already connected at start, announced on the first poll.
    initial: Vec<usize>,
    /// Held-state bookkeeping.
    tracker: PadTracker,
    /// Which actions each button holds.
    map: PadMap,
    /// Which practice command each button gives (`[keys.practice.pad]`).
    practice: PracticeMap<Button>,
    /// Presses since the last [`Pads::take_presses`], for the menus.
    presses: Vec<PadPress>,
    /// The left stick's menu direction now (x, y), each -1, 0 or 1.
    stick: (i8, i8),
}

impl std::fmt::Debug for Pads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pads")
            .field("available", &self.gilrs.is_some())
            .field("connected", &self.tracker.connected())
            .finish()
    }
}

impl Pads {
    /// Start gilrs. A failure (no udev, unsupported platform) is logged as a warning and the
    /// game runs without pads; this never panics.
    pub fn new() -> Self {
        let gilrs = match GilrsBuilder::new().with_default_filters(false).build() {
            Ok(g) => Some(g),
            Err(gilrs::Error::NotImplemented(_)) => {
                log::warn!("gamepads: not supported on this platform; running without pads");
                None
            }
            Err(e) => {
                log::warn!("gamepads: gilrs failed to start ({e}); running without pads");
                None
            }
        };
        let initial = gilrs
            .as_ref()
            .map(|g| {
                g.gamepads()
                    .map(|(id, pad)| {
                        log::info!("gamepad {id}: {}", pad.name());
                        usize::from(id)
                    })
                    .collect()
            })
            .unwrap_or_default();
        Self { gilrs, initial, ..Self::disabled() }
    }

    /// Use the bindings of `map` from now on.
    pub fn set_map(&mut self, map: PadMap) {
        self.map = map;
    }

    /// Use the practice buttons of `map` from now on.
    pub fn set_practice(&mut self, map: PracticeMap<Button>) {
        self.practice = map;
    }

    /// A `Pads` that never reports anything: what [`Pads::new`] falls back to when gilrs cannot
    /// start, without trying (tests).
    pub fn disabled() -> Self {
        Self {
            gilrs: None,
            initial: Vec::new(),
            tracker: PadTracker::default(),
            map: PadMap::default(),
            practice: PracticeMap::from_binds(&PracticeKeys::default().pad, "pad", button).0,
            presses: Vec::new(),
            stick: (0, 0),
        }
    }

    /// Release every held pad action (see [`PadTracker::release_all`]).
    pub fn release_all(&mut self, out: &mut impl FnMut(InputEvent)) {
        self.tracker.release_all(out);
    }

    /// The presses since the last call (for the menus; the app takes them every poll, so at
    /// most a few wait here).
    pub fn take_presses(&mut self) -> Vec<PadPress> {
        std::mem::take(&mut self.presses)
    }

    /// Drain gilrs' pending events, emitting the [`InputEvent`]s they make in order, and each
    /// press of a [`PadMenu`] button to `menu`. A pad plugged in while playing arrives as
    /// `Connected` and works from then on.
    pub fn poll(&mut self, out: &mut impl FnMut(InputEvent), menu: &mut impl FnMut(PadMenu)) {
        for pad in self.initial.drain(..) {
            self.tracker.handle(PadEvent::Connected { pad }, out);
        }
        let Some(gilrs) = self.gilrs.as_mut() else {
            return;
        };
        use gilrs::ev::filter::{Filter, axis_dpad_to_button};
        while let Some(raw) = gilrs.next_event() {
            let Some(ev) = Some(raw).filter_ev(&axis_dpad_to_button, gilrs) else {
                continue;
            };
            let pad = usize::from(ev.id);
            let pe = match ev.event {
                EventType::Connected => {
                    log::info!("gamepad {} connected: {}", ev.id, gilrs.gamepad(ev.id).name());
                    PadEvent::Connected { pad }
                }
                EventType::Disconnected => {
                    log::info!("gamepad {} disconnected", ev.id);
                    PadEvent::Disconnected { pad }
                }
                EventType::ButtonPressed(b, _) | EventType::ButtonReleased(b, _) => {
                    let down = matches!(ev.event, EventType::ButtonPressed(..));
                    if down {
                        self.presses.push(PadPress::Button(b));
                    }
                    let actions = self.map.actions(b);
                    if actions.is_empty() {
                        let m = self.practice.get(b).map(PadMenu::Practice).or_else(|| menu_for(b));
                        if let Some(m) = m.filter(|_| down) {
                            menu(m);
                        }
                    }
                    for &action in actions {
                        self.tracker.handle(PadEvent::Button { pad, action, down }, out);
                    }
                    continue;
                }
                EventType::AxisChanged(Axis::LeftStickY, y, _) => {
                    stick_press(&mut self.stick.1, y, true, &mut self.presses);
                    continue;
                }
                EventType::AxisChanged(Axis::LeftStickX, x, _) => {
                    stick_press(&mut self.stick.0, x, false, &mut self.presses);
                    PadEvent::StickX { pad, x }
                }
                _ => continue,
            };
            self.tracker.handle(pe, out);
        }
    }
}

impl Default for Pads {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use InputEvent::*;
    use Source::Pad as P;

    fn feed(t: &mut PadTracker, ev: PadEvent) -> Vec<InputEvent> {
        let mut v = Vec::new();
        t.handle(ev, &mut |e| v.push(e));
        v
    }

    #[test]
    fn the_stick_steps_menus_once_per_push() {
        let mut now = 0;
        let mut p = Vec::new();
        for v in [0.2, 0.6, 0.9, 0.4, -0.7, -0.8, 0.0] {
            stick_press(&mut now, v, true, &mut p);
        }
        assert_eq!(p, [PadPress::Stick { x: 0, y: 1 }, PadPress::Stick { x: 0, y: -1 }]);
        assert_eq!(button_name(Button::South), Some("South"));
        assert_eq!(button_name(Button::Start), None);
    }

    #[test]
    fn bindings() {
        let map = PadMap::default();
        let action_for = |b| map.actions(b).first().copied();
        assert_eq!(action_for(Button::DPadLeft), Some(Action::Left));
        assert_eq!(action_for(Button::DPadRight), Some(Action::Right));
        assert_eq!(action_for(Button::DPadUp), Some(Action::Up));
        assert_eq!(action_for(Button::DPadDown), Some(Action::Down));
        assert_eq!(action_for(Button::South), Some(Action::Jump));
        assert_eq!(action_for(Button::Start), None);
        assert_eq!(menu_for(Button::Start), Some(PadMenu::Start));
        assert_eq!(menu_for(Button::Select), Some(PadMenu::Select));
        assert_eq!(menu_for(Button::South), None);
    }

    #[test]
    fn press_release_and_disconnect() {
        let mut t = PadTracker::default();
        assert_eq!(feed(&mut t, PadEvent::Connected { pad: 0 }), vec![PadConnected]);
        let down = PadEvent::Button { pad: 0, action: Action::Jump, down: true };
        assert_eq!(feed(&mut t, down), vec![Press(P, Action::Jump)]);
        let up = PadEvent::Button { pad: 0, action: Action::Jump, down: false };
        assert_eq!(feed(&mut t, up), vec![Release(P, Action::Jump)]);
        assert_eq!(feed(&mut t, PadEvent::StickX { pad: 0, x: 0.5 }), vec![AxisX(0.5)]);
        assert_eq!(feed(&mut t, PadEvent::Disconnected { pad: 0 }), vec![PadDisconnected]);
        assert_eq!(t.connected(), 0);
    }

    #[test]
    fn two_pads_share_an_action() {
        let mut t = PadTracker::default();
        feed(&mut t, PadEvent::Connected { pad: 0 });
        feed(&mut t, PadEvent::Connected { pad: 1 });
        let l = |pad, down| PadEvent::Button { pad, action: Action::Left, down };
        assert_eq!(feed(&mut t, l(0, true)), vec![Press(P, Action::Left)]);
        assert_eq!(feed(&mut t, l(1, true)), vec![]);
        assert_eq!(feed(&mut t, l(0, false)), vec![]);
        // Pad 1 leaves while holding Left: released, but pad 0 is still connected.
        assert_eq!(feed(&mut t, PadEvent::Disconnected { pad: 1 }), vec![Release(P, Action::Left)]);
        assert_eq!(feed(&mut t, PadEvent::Disconnected { pad: 0 }), vec![PadDisconnected]);
    }

    #[test]
    fn release_all_forgets_holds_until_pressed_again() {
        let mut t = PadTracker::default();
        feed(&mut t, PadEvent::Connected { pad: 0 });
        feed(&mut t, PadEvent::Button { pad: 0, action: Action::Right, down: true });
        let mut out = Vec::new();
        t.release_all(&mut |e| out.push(e));
        assert_eq!(out, vec![Release(P, Action::Right), AxisX(0.0)]);
        assert_eq!(t.connected(), 1, "the pad stays connected");
        // The button's real release is no edge now; pressing again is.
        assert_eq!(feed(&mut t, PadEvent::Button { pad: 0, action: Action::Right, down: false }), vec![]);
        assert_eq!(
            feed(&mut t, PadEvent::Button { pad: 0, action: Action::Right, down: true }),
            vec![Press(P, Action::Right)]
        );
    }

    #[test]
    fn release_all_without_pads_says_nothing() {
        let mut out = Vec::new();
        PadTracker::default().release_all(&mut |e| out.push(e));
        assert!(out.is_empty());
    }

    #[test]
    fn unknown_pad_is_adopted() {
        let mut t = PadTracker::default();
        let down = PadEvent::Button { pad: 3, action: Action::Right, down: true };
        assert_eq!(feed(&mut t, down), vec![PadConnected, Press(P, Action::Right)]);
        assert_eq!(t.connected(), 1);
    }

    #[test]
    fn disabled_pads_report_nothing() {
        let mut p = Pads::disabled();
        let (mut n, mut m) = (0, 0);
        p.poll(&mut |_| n += 1, &mut |_| m += 1);
        assert_eq!(n, 0);
        assert_eq!(m, 0, "no menu presses either");
    }

    #[test]
    fn button_names_round_trip_and_leave_out_the_menu_buttons() {
        for &(name, b) in BUTTON_NAMES {
            assert_eq!(format!("{b:?}"), name);
            assert_eq!(button(name), Some(b));
        }
        for menu in ["Start", "Select", "Mode"] {
            assert_eq!(button(menu), None);
        }
        let mut b = Bindings::default_pad();
        *b.keys_mut(Action::Jump) = vec!["East".into(), "Start".into()];
        let (map, unknown) = PadMap::pad(&b);
        assert_eq!(map.actions(Button::East), &[Action::Jump]);
        assert!(map.actions(Button::South).is_empty());
        assert_eq!(
            unknown[0].to_string(),
            "keys.pad.jump: no bindable key or button is named 'Start' (ignored)"
        );
    }
}
