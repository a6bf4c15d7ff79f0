//! A device's bindings as codes: which actions each key or button holds, built from the
//! settings' names ([`crate::save::Bindings`]). Platform-free: the keyboard and gamepad
//! adapters give the name lookup ([`BindMap<winit KeyCode>`](BindMap), `BindMap<gilrs Button>`).
//!
//! Clock: none (built once when the game starts; looked up on the event loop per key event).

use super::Action;
use crate::save::{Bindings, PracticeBinds, PracticeKey};

/// `$table`: each variant of `$ty` listed with its name as written, for binding by name
/// (the keyboard and gamepad adapters, so only with the `game` feature).
#[cfg(feature = "game")]
macro_rules! name_table {
    ($(#[$doc:meta])* $table:ident: $ty:ident [$($v:ident),* $(,)?]) => {
        $(#[$doc])*
        const $table: &[(&str, $ty)] = &[$((stringify!($v), $ty::$v)),*];
    };
}
#[cfg(feature = "game")]
pub(crate) use name_table;

/// A name in the settings that is no bindable key or button of its device: left out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("keys.{device}.{}: no bindable key or button is named '{name}' (ignored)", action.name())]
pub struct UnknownName {
    /// `keyboard` or `pad` (the settings' table).
    pub device: &'static str,
    /// The action it was bound to.
    pub action: Action,
    /// The name as written.
    pub name: String,
}

/// Which actions each bound key or button `K` holds.
#[derive(Clone, Debug, PartialEq)]
pub struct BindMap<K> {
    /// Each bound code with its actions, in [`Action::ALL`] order (a handful of codes).
    codes: Vec<(K, Vec<Action>)>,
}

impl<K: Copy + PartialEq> BindMap<K> {
    /// The map of `bindings` for `device`, whose names `lookup` turns into codes; and the
    /// names it does not know (left out).
    pub fn from_bindings(
        bindings: &Bindings,
        device: &'static str,
        lookup: impl Fn(&str) -> Option<K>,
    ) -> (Self, Vec<UnknownName>) {
        let mut codes: Vec<(K, Vec<Action>)> = Vec::new();
        let mut unknown = Vec::new();
        for (action, names) in bindings.iter() {
            for name in names {
                let Some(code) = lookup(name) else {
                    unknown.push(UnknownName { device, action, name: name.clone() });
                    continue;
                };
                match codes.iter_mut().find(|(k, _)| *k == code) {
                    Some((_, actions)) if actions.contains(&action) => {}
                    Some((_, actions)) => actions.push(action),
                    None => codes.push((code, vec![action])),
                }
            }
        }
        (BindMap { codes }, unknown)
    }

    /// The actions `code` holds, in [`Action::ALL`] order (empty when unbound).
    pub fn actions(&self, code: K) -> &[Action] {
        self.codes.iter().find(|(k, _)| *k == code).map_or(&[], |(_, a)| a.as_slice())
    }
}

/// Which practice command ([`PracticeKey`]) each bound key or button `K` gives, built from a
/// device's `[keys.practice.*]` names ([`PracticeBinds`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PracticeMap<K> {
    codes: Vec<(K, PracticeKey)>,
}

impl<K> Default for PracticeMap<K> {
    fn default() -> Self {
        PracticeMap { codes: Vec::new() }
    }
}

impl<K: Copy + PartialEq> PracticeMap<K> {
    /// The map of `binds` for `device` (`keyboard`, `pad`), whose names `lookup` turns into
    /// codes; and one line for each name it does not know (left out, as [`UnknownName`]).
    pub fn from_binds(
        binds: &PracticeBinds,
        device: &'static str,
        lookup: impl Fn(&str) -> Option<K>,
    ) -> (Self, Vec<String>) {
        let mut codes = Vec::new();
        let mut unknown = Vec::new();
        for key in PracticeKey::ALL {
            for name in binds.keys(key) {
                match lookup(name) {
                    Some(code) if !codes.iter().any(|(k, _)| *k == code) => codes.push((code, key)),
                    Some(_) => {}
                    None => unknown.push(format!(
                        "keys.practice.{device}.{}: no bindable key or button is named '{name}' (ignored)",
                        key.name()
                    )),
                }
            }
        }
        (PracticeMap { codes }, unknown)
    }

    /// The practice command `code` gives, if any (a code bound to both: the first, save).
    pub fn get(&self, code: K) -> Option<PracticeKey> {
        self.codes.iter().find(|(k, _)| *k == code).map(|&(_, p)| p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_codes_with_their_actions_in_order() {
        let mut b = Bindings::default_keyboard();
        b.keys_mut(Action::Left).push("ArrowLeft".into());
        b.keys_mut(Action::Down).push("Bogus".into());
        let lookup = |n: &str| {
            n.strip_prefix("Key").and_then(|c| c.chars().next()).or(match n {
                "ArrowLeft" => Some('<'),
                "ArrowUp" => Some('^'),
                _ => None,
            })
        };
        let (map, unknown) = BindMap::from_bindings(&b, "keyboard", lookup);
        assert_eq!(map.actions('<'), &[Action::Left], "bound twice, held once");
        assert_eq!(map.actions('W'), &[Action::Up, Action::Jump]);
        assert_eq!(map.actions('^'), &[Action::Up, Action::Jump]);
        assert_eq!(map.actions('Q'), &[] as &[Action]);
        let names: Vec<String> = unknown.iter().map(|u| u.name.clone()).collect();
        assert_eq!(names, ["ArrowRight", "ArrowDown", "Bogus", "Space"]);
        assert_eq!(
            unknown[2].to_string(),
            "keys.keyboard.down: no bindable key or button is named 'Bogus' (ignored)"
        );
    }

    #[test]
    fn practice_names_become_codes_and_unknown_ones_are_named() {
        let mut b = crate::save::PracticeKeys::default().keyboard;
        b.loadstate.push("Bogus".into());
        let lookup = |n: &str| n.strip_prefix('F').and_then(|d| d.parse::<u8>().ok());
        let (map, unknown) = PracticeMap::from_binds(&b, "keyboard", lookup);
        assert_eq!(
            (map.get(7), map.get(8), map.get(9)),
            (Some(PracticeKey::SaveState), Some(PracticeKey::LoadState), None)
        );
        assert_eq!(
            unknown,
            ["keys.practice.keyboard.loadstate: no bindable key or button is named 'Bogus' (ignored)"]
        );
    }
}
