//! What the HUD shows for a moment: a notice ("state saved", "reloaded level1.tmx") or the
//! last segment's split, from when it happened until a fixed time later.
//!
//! Clock: wall clock (`web_time::Instant`), the HUD's own: how long a notice stays is no part
//! of the world, whose picture comes from the ticks alone.

use std::time::Duration;
use web_time::Instant;

/// A value shown from [`Moment::show`] for the moment it was made with.
#[derive(Clone, Debug)]
pub(super) struct Moment<T> {
    shown: Option<(T, Instant)>,
    lasts: Duration,
}

impl<T> Moment<T> {
    /// Nothing shown yet; each value shows for `lasts`.
    pub const fn new(lasts: Duration) -> Self {
        Moment { shown: None, lasts }
    }

    /// Show `value` from now (replacing what was shown).
    pub fn show(&mut self, value: T) {
        self.shown = Some((value, Instant::now()));
    }

    /// Show nothing any more.
    pub fn clear(&mut self) {
        self.shown = None;
    }

    /// The value, while it shows.
    pub fn get(&self) -> Option<&T> {
        self.shown.as_ref().filter(|(_, at)| at.elapsed() < self.lasts).map(|(v, _)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_shows_for_its_moment_then_not_and_clear_ends_it() {
        let lasts = Duration::from_millis(30);
        let mut m = Moment::new(lasts);
        assert_eq!(m.get(), None);
        m.show("saved");
        assert_eq!(m.get(), Some(&"saved"));
        m.clear();
        assert_eq!(m.get(), None);
        m.show("loaded");
        std::thread::sleep(lasts + Duration::from_millis(5));
        assert_eq!(m.get(), None, "past its moment");
    }
}
