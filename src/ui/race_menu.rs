//! The title menu's "Race online" page (NET.md "What a player sees"): host a race (choose the
//! level and the number of players; the app makes the room code) or join one (type the code a
//! host read out). The signalling server is the settings' `[net] server`.
//!
//! Clock: event loop (one input or typed key at a time). Pure, like [`super::menu`]: the app
//! turns keys into [`Input`]s and typed text, and carries out the [`MenuAction`].

use super::menu::{Context, Input, MenuAction};

/// The page's rows, in order.
pub const RACE_ROWS: [&str; 6] = ["Level", "Players", "Host a race", "Room code", "Join", "Back"];

/// The row the room code is typed into.
pub const CODE_ROW: usize = 3;

/// The longest code the row takes, characters (a code is 7; dashes and spaces are allowed).
const MAX_CODE: usize = 12;

/// What the page holds between inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceForm {
    /// The level to host, an index into the level list.
    pub level: usize,
    /// The number of players to host, 2 to 4.
    pub players: usize,
    /// The code typed so far.
    pub code: String,
}

impl Default for RaceForm {
    fn default() -> Self {
        RaceForm { level: 0, players: 2, code: String::new() }
    }
}

/// What a race page input comes to: an action, a message, going back, or nothing.
#[derive(Clone, Debug, PartialEq)]
pub enum RaceInput {
    /// Nothing more to do.
    Done,
    /// The app must do this.
    Act(MenuAction),
    /// Show this message.
    Say(String),
    /// Leave the page.
    Back,
}

impl RaceForm {
    /// Handle `input` with the cursor on `row` (an index into [`RACE_ROWS`]).
    pub fn input(&mut self, row: usize, input: Input, ctx: &Context<'_>) -> RaceInput {
        let by: isize = match input {
            Input::Left => -1,
            Input::Right => 1,
            Input::Confirm | Input::Start => 0,
            _ => return RaceInput::Done,
        };
        match (row, by) {
            (0, _) => {
                self.step_level(if by == 0 { 1 } else { by }, ctx);
                RaceInput::Done
            }
            (1, _) => {
                let step = if by == 0 { 1 } else { by };
                self.players = (self.players as isize - 2 + step).rem_euclid(3) as usize + 2;
                RaceInput::Done
            }
            (2, 0) => RaceInput::Act(MenuAction::HostRace { level: self.level, players: self.players }),
            (4, 0) | (CODE_ROW, 0) if self.code.trim().is_empty() => {
                RaceInput::Say("Type the room code the host gave you".into())
            }
            (4, 0) | (CODE_ROW, 0) => RaceInput::Act(MenuAction::JoinRace { code: self.code.clone() }),
            (5, 0) => RaceInput::Back,
            _ => RaceInput::Done,
        }
    }

    /// The next open level `by` (±1) from the chosen one, wrapping.
    fn step_level(&mut self, by: isize, ctx: &Context<'_>) {
        let n = ctx.levels.len();
        if n == 0 {
            return;
        }
        let mut i = self.level.min(n - 1);
        for _ in 0..n {
            i = (i as isize + by).rem_euclid(n as isize) as usize;
            if ctx.levels[i].open {
                break;
            }
        }
        self.level = i;
    }

    /// Typed `text` on the code row: letters, digits, dashes and spaces kept (letters upper
    /// case), up to 12 characters.
    pub fn type_text(&mut self, text: &str) {
        for c in text.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-') {
            if self.code.chars().count() < MAX_CODE {
                self.code.push(c.to_ascii_uppercase());
            }
        }
    }

    /// Backspace on the code row.
    pub fn erase(&mut self) {
        self.code.pop();
    }

    /// Row `row`'s text as the page shows it (`names`: the level names).
    pub fn row_text(&self, row: usize, ctx: &Context<'_>) -> String {
        match row {
            0 => {
                let name = ctx.levels.get(self.level).map_or("", |l| l.name.as_str());
                format!("Level      ◀ {}. {name} ▶", self.level + 1)
            }
            1 => format!("Players    ◀ {} ▶", self.players),
            CODE_ROW => format!("Room code  {}_", self.code),
            r => RACE_ROWS.get(r).copied().unwrap_or_default().to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::save::Settings;
    use crate::ui::menu::LevelEntry;

    #[test]
    fn the_form_hosts_joins_and_types_a_code() {
        let levels: Vec<LevelEntry> = [true, true, false]
            .iter()
            .enumerate()
            .map(|(i, &open)| LevelEntry {
                name: format!("L{i}"),
                id: format!("level{i}"),
                record: None,
                open,
            })
            .collect();
        let s = Settings::default();
        let c = Context { settings: &s, levels: &levels, speed_percent: 100, finished_run: false };
        let mut f = RaceForm::default();
        f.input(0, Input::Right, &c);
        assert_eq!(f.level, 1);
        f.input(0, Input::Right, &c);
        assert_eq!(f.level, 0, "a locked level is skipped");
        f.input(1, Input::Left, &c);
        assert_eq!(f.players, 4, "2 - 1 wraps to 4");
        assert_eq!(
            f.input(2, Input::Confirm, &c),
            RaceInput::Act(MenuAction::HostRace { level: 0, players: 4 })
        );
        assert!(matches!(f.input(4, Input::Confirm, &c), RaceInput::Say(_)), "no code yet");
        f.type_text("kqxz 03!2");
        f.erase();
        f.type_text("2");
        assert_eq!(f.code, "KQXZ032");
        assert_eq!(f.row_text(CODE_ROW, &c), "Room code  KQXZ032_");
        assert_eq!(
            f.input(4, Input::Confirm, &c),
            RaceInput::Act(MenuAction::JoinRace { code: "KQXZ032".into() })
        );
        assert_eq!(f.input(5, Input::Confirm, &c), RaceInput::Back);
        f.type_text("ABCDEFGHIJKLMNOP");
        assert_eq!(f.code.len(), 12);
    }
}
