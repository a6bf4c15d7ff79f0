//! A device's bindings as codes: which actions each key or button holds, built from the
//! settings' names ([`crate::save::Bindings`]). Platform-free: the keyboard and gamepad
//! adapters give the name lookup ([`BindMap<winit KeyCode>`](BindMap), `BindMap<gilrs Button>`).
//!
//! Clock: none (built once when the game starts; looked up on the event loop per key event).

use super::Action;
use crate::save::Bindings;

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
}
