//! The menus' state machine: which page is open (title, level select, pause, settings, end),
//! where the cursor is, a key being rebound, and what a menu input asks the app to do.
//!
//! Clock: event loop (one [`Menu::input`] per key or pad press). Menus never tick the
//! simulation: the app freezes the game clock while one is open, and nothing here is part of
//! any state hash. Pure: no winit, no gilrs; the app turns keys and buttons into [`Input`]s
//! (and, while a key is being rebound, into [`Menu::capture`] calls with the key's name), and
//! carries out the [`MenuAction`] returned. Drawn by [`super::pages`].
//!
//! Pages form a stack on a root: the title (then the level select, then settings), the pause
//! menu (then settings) or the end screen. Back (Esc, pad B) pops a page; on a root it does
//! what Esc always did there: the title quits, the pause menu resumes, the end screen quits.
//!
//! **Rebinding conflicts are refused**, with a message: a key that already holds another
//! action is not taken from it (rebind that action first, or reset to the defaults). A key
//! bound through the menu replaces the action's keys on that device. Swapping was the other
//! choice; refusing never changes an action the player did not select.

use super::race_menu::{CODE_ROW, RACE_ROWS, RaceForm, RaceInput};
use super::settings_menu::adjust;
pub use super::settings_menu::{
    Bind, Device, FPS_CAPS, SHAKE_LEVELS, SettingRow, changeable, key_label, rebind, setting_rows,
};
use crate::save::Settings;
use crate::save::progress::{LevelRecord, Progress};

/// A menu input: what a key or a pad button means to the menus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// The keys bound to `up` (and the arrow), the pad's d-pad/stick up.
    Up,
    /// Down likewise.
    Down,
    /// Left likewise (changes a setting's value).
    Left,
    /// Right likewise.
    Right,
    /// Enter, Space, pad South (A).
    Confirm,
    /// Esc, pad East (B).
    Back,
    /// The key that types "q", pad Select: quit where the pause and end screens always did.
    Quit,
    /// Pad Start: resume on the pause menu, play again on the end screen, confirm elsewhere.
    Start,
    /// Any other key ("press any key" on the title).
    Other,
}

/// What the app must do after a menu input.
#[derive(Clone, Debug, PartialEq)]
pub enum MenuAction {
    /// Start level `index` of the level list.
    Play(usize),
    /// Close the pause menu: the game clock runs again.
    Resume,
    /// The current level again from its start.
    Restart,
    /// Keep the practice savestate, then resume.
    SaveState,
    /// Load the practice savestate in the next tick, then resume.
    LoadState,
    /// Replay every attempt at the last level finished together (`app/replay.rs`).
    WatchAttempts,
    /// Copy (the page) or print (a window) the link to the last level's finishing run.
    CopyLink,
    /// The skip-level assist (Celeste's Assist Mode "skip chapter"): the next level (or the end
    /// screen) at once; the level skipped unlocks the next but keeps no record.
    SkipLevel,
    /// Leave the level for the title screen.
    ToTitle,
    /// From the end screen: the first level again.
    PlayAgain,
    /// Quit the game.
    Quit,
    /// One step of the game-speed assist, up or down, from the speed in force; the app applies
    /// it at once and saves it as `display.game_speed` (not while recording: the speed stays).
    GameSpeed {
        /// Faster (true) or slower.
        up: bool,
    },
    /// Save these settings (atomically) and apply them at once.
    Settings(Box<Settings>),
    /// Host a race of `players` on level `level` (an index into the level list): the app makes
    /// the room code and joins its room.
    HostRace {
        /// The level, an index into the level list.
        level: usize,
        /// 2 to 4.
        players: usize,
    },
    /// Join the race of room code `code` (as typed: the app checks it).
    JoinRace {
        /// The code.
        code: String,
    },
}

/// A page of the menus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// The game's name over the moving level, "press any key".
    Title,
    /// The levels (open ones with their best results), then settings and quit.
    LevelSelect,
    /// Resume, restart level, settings, skip level, (save state, load state,) quit to title,
    /// quit ([`PauseItem`]).
    Pause,
    /// Volumes, display, key bindings.
    Settings,
    /// The results table; play again, back to title, quit.
    End,
    /// "Race online": host (level, players) or join (a room code) ([`super::race_menu`]).
    Race,
}

/// One item of the pause menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PauseItem {
    /// Resume.
    Resume,
    /// Restart level.
    Restart,
    /// The settings page.
    Settings,
    /// Skip level (an assist).
    Skip,
    /// Keep the practice savestate (with practice on).
    SaveState,
    /// Load the practice savestate (with practice on).
    LoadState,
    /// Watch every attempt at the last level finished.
    WatchAttempts,
    /// Copy the last level's finishing run as a link.
    CopyLink,
    /// Quit to title.
    ToTitle,
    /// Quit.
    Quit,
}

impl PauseItem {
    /// The item as the menu shows it.
    pub fn label(self) -> &'static str {
        match self {
            PauseItem::Resume => "Resume",
            PauseItem::Restart => "Restart level",
            PauseItem::Settings => "Settings",
            PauseItem::Skip => "Skip level",
            PauseItem::SaveState => "Save state",
            PauseItem::LoadState => "Load state",
            PauseItem::WatchAttempts => "Watch every attempt",
            PauseItem::CopyLink => "Copy run link",
            PauseItem::ToTitle => "Quit to title",
            PauseItem::Quit => "Quit",
        }
    }

    /// The pause menu's items in order; with `practice` (`display.practice`) the two savestate
    /// items come before "Quit to title", and with `finished_run` ([`Context::finished_run`])
    /// the last level's "Watch every attempt" and "Copy run link" after them.
    pub fn all(practice: bool, finished_run: bool) -> Vec<PauseItem> {
        use PauseItem::*;
        let mut items = vec![Resume, Restart, Settings, Skip];
        if practice {
            items.extend([SaveState, LoadState]);
        }
        if finished_run {
            items.extend([WatchAttempts, CopyLink]);
        }
        items.extend([ToTitle, Quit]);
        items
    }
}

/// The end screen's items with `finished_run` ([`Context::finished_run`]): the last level's
/// "Watch every attempt" and "Copy run link" after "Play again"; each with its action.
pub fn end_items(finished_run: bool) -> Vec<(&'static str, MenuAction)> {
    let mut items = vec![("Play again", MenuAction::PlayAgain)];
    if finished_run {
        items.push((PauseItem::WatchAttempts.label(), MenuAction::WatchAttempts));
        items.push((PauseItem::CopyLink.label(), MenuAction::CopyLink));
    }
    items.extend([("Back to title", MenuAction::ToTitle), ("Quit", MenuAction::Quit)]);
    items
}

/// A shipped level as the level select shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelEntry {
    /// The level's name (its map's `name`).
    pub name: String,
    /// Its progress id (`level1`, ...).
    pub id: String,
    /// Its best results, if finished.
    pub record: Option<LevelRecord>,
    /// It can be played.
    pub open: bool,
}

/// The level select's entries for the shipped levels `levels` ((id, name) in order) and the
/// player's `progress`: levels open **in order** — the first always, each next one only when
/// it is unlocked and every level before it is open (a hand-edited file that unlocks level 3
/// without level 2 opens neither past level 1).
pub fn level_entries(levels: &[(String, String)], progress: &Progress) -> Vec<LevelEntry> {
    let mut open = true;
    levels
        .iter()
        .enumerate()
        .map(|(i, (id, name))| {
            open = open && (i == 0 || progress.is_unlocked(id));
            LevelEntry { name: name.clone(), id: id.clone(), record: progress.levels.get(id).copied(), open }
        })
        .collect()
}

/// What the menus read besides their own state: the settings in force, the level list, the
/// game speed.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// The settings in force (the settings page edits a copy and hands it back).
    pub settings: &'a Settings,
    /// The shipped levels.
    pub levels: &'a [LevelEntry],
    /// The game-speed assist now, percent (100: full speed).
    pub speed_percent: u32,
    /// A level was finished this session with a run that replays (the pause menu offers
    /// "Watch every attempt" and "Copy run link").
    pub finished_run: bool,
}

/// A key being rebound: the device and action (or practice command) waiting for a key or
/// button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capture {
    /// Which device's binding.
    pub device: Device,
    /// Which action or practice command.
    pub bind: Bind,
}

/// The menus' state.
#[derive(Clone, Debug, PartialEq)]
pub struct Menu {
    /// Open pages, root first, each with its cursor (an item index).
    stack: Vec<(Page, usize)>,
    /// Waiting for a key to bind.
    capture: Option<Capture>,
    /// The last message (a refused key, a rebinding done); cleared by the next input.
    message: Option<String>,
    /// The race page's choices and typed code.
    race: RaceForm,
}

impl Menu {
    /// The menus with `root` open (cursor on its first item; on the end screen, "Play again").
    pub fn new(root: Page) -> Self {
        Self { stack: vec![(root, 0)], capture: None, message: None, race: RaceForm::default() }
    }

    /// The page on top.
    pub fn page(&self) -> Page {
        self.stack.last().map_or(Page::Title, |&(p, _)| p)
    }

    /// The root page (what the stack started from).
    pub fn root(&self) -> Page {
        self.stack.first().map_or(Page::Title, |&(p, _)| p)
    }

    /// The cursor on the page on top (an item index).
    pub fn cursor(&self) -> usize {
        self.stack.last().map_or(0, |&(_, c)| c)
    }

    /// The key being rebound, if any.
    pub fn capture(&self) -> Option<Capture> {
        self.capture
    }

    /// The race page's choices and typed code.
    pub fn race_form(&self) -> &RaceForm {
        &self.race
    }

    /// Typed `text` (a key's characters) while the race page's code row is selected: kept
    /// in the code; false anywhere else (the key is the menus' as usual).
    pub fn type_text(&mut self, text: &str) -> bool {
        let on_code = self.page() == Page::Race && self.cursor() == CODE_ROW;
        if on_code {
            self.message = None;
            self.race.type_text(text);
        }
        on_code
    }

    /// Backspace: the code row loses its last character; false anywhere else.
    pub fn erase(&mut self) -> bool {
        let on_code = self.page() == Page::Race && self.cursor() == CODE_ROW;
        if on_code {
            self.race.erase();
        }
        on_code
    }

    /// The message to show, if any.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// Show `msg` (until the next input): what the app refused to do.
    pub fn say(&mut self, msg: impl Into<String>) {
        self.message = Some(msg.into());
    }

    fn set_cursor(&mut self, c: usize) {
        if let Some(top) = self.stack.last_mut() {
            top.1 = c;
        }
    }

    fn push(&mut self, page: Page, ctx: &Context<'_>) {
        let first = match page {
            Page::LevelSelect => ctx.levels.iter().rposition(|l| l.open).unwrap_or(0),
            _ => 0,
        };
        self.stack.push((page, first));
    }

    /// How many items `page` has (0: none to select).
    fn items(page: Page, ctx: &Context<'_>) -> usize {
        match page {
            Page::Title => 0,
            Page::LevelSelect => ctx.levels.len() + 3,
            Page::Race => RACE_ROWS.len(),
            Page::Pause => PauseItem::all(ctx.settings.display.practice, ctx.finished_run).len(),
            Page::Settings => setting_rows().len(),
            Page::End => end_items(ctx.finished_run).len(),
        }
    }

    /// Whether item `i` of `page` can be selected (a locked level cannot).
    fn selectable(page: Page, i: usize, ctx: &Context<'_>) -> bool {
        page != Page::LevelSelect || ctx.levels.get(i).is_none_or(|l| l.open)
    }

    /// Move the cursor `by` (±1) to the next selectable item, wrapping.
    fn step(&mut self, by: isize, ctx: &Context<'_>) {
        let page = self.page();
        let n = Self::items(page, ctx);
        if n == 0 {
            return;
        }
        let mut c = self.cursor();
        for _ in 0..n {
            c = (c as isize + by).rem_euclid(n as isize) as usize;
            if Self::selectable(page, c, ctx) {
                break;
            }
        }
        self.set_cursor(c);
    }

    /// Back from the page on top: pop it, or on a root do what Esc did there.
    fn back(&mut self) -> Option<MenuAction> {
        if self.stack.len() > 1 {
            self.stack.pop();
            return None;
        }
        match self.page() {
            Page::Pause => Some(MenuAction::Resume),
            Page::Title | Page::End => Some(MenuAction::Quit),
            Page::LevelSelect | Page::Settings | Page::Race => None,
        }
    }

    /// Handle one menu input with `ctx`; returns what the app must do, if anything.
    pub fn input(&mut self, input: Input, ctx: &Context<'_>) -> Option<MenuAction> {
        self.message = None;
        if self.capture.is_some() {
            // Only Esc / B end a capture without a key; the app sends keys to `capture`.
            if input == Input::Back {
                self.capture = None;
                self.message = Some("Rebinding cancelled".to_owned());
            }
            return None;
        }
        let page = self.page();
        let root = self.stack.len() == 1;
        match (page, input) {
            (Page::Title, Input::Back | Input::Quit) => return Some(MenuAction::Quit),
            (Page::Title, _) => self.push(Page::LevelSelect, ctx),
            (_, Input::Up) => self.step(-1, ctx),
            (_, Input::Down) => self.step(1, ctx),
            (Page::Pause, Input::Start) if root => return Some(MenuAction::Resume),
            (Page::Pause | Page::End, Input::Quit) if root => return Some(MenuAction::Quit),
            (Page::End, Input::Start) => return Some(MenuAction::PlayAgain),
            (Page::Race, Input::Left | Input::Right | Input::Confirm | Input::Start) => {
                return match self.race.input(self.cursor(), input, ctx) {
                    RaceInput::Done => None,
                    RaceInput::Act(a) => Some(a),
                    RaceInput::Say(m) => {
                        self.message = Some(m);
                        None
                    }
                    RaceInput::Back => self.back(),
                };
            }
            (Page::Settings, Input::Left | Input::Right)
                if setting_rows()[self.cursor()] == SettingRow::GameSpeed =>
            {
                return Some(MenuAction::GameSpeed { up: input == Input::Right });
            }
            (Page::Settings, Input::Left | Input::Right) => {
                let by = if input == Input::Left { -1 } else { 1 };
                return self.change(ctx, by);
            }
            (_, Input::Back) => return self.back(),
            (_, Input::Confirm | Input::Start) => return self.confirm(ctx),
            _ => {}
        }
        None
    }

    /// Change the settings row under the cursor one step (`by` ±1); a row locked now says
    /// why instead.
    fn change(&mut self, ctx: &Context<'_>, by: i32) -> Option<MenuAction> {
        let row = setting_rows()[self.cursor()];
        if !changeable(row, ctx.settings) {
            self.message = Some("Screen shake stays off while reduced motion is on".to_owned());
            return None;
        }
        adjust(row, ctx.settings, by).map(|s| MenuAction::Settings(Box::new(s)))
    }

    /// Confirm the item under the cursor.
    fn confirm(&mut self, ctx: &Context<'_>) -> Option<MenuAction> {
        let c = self.cursor();
        match self.page() {
            Page::Title => self.push(Page::LevelSelect, ctx),
            Page::LevelSelect => match c.checked_sub(ctx.levels.len()) {
                None if ctx.levels[c].open => return Some(MenuAction::Play(c)),
                None => self.message = Some("Locked: finish the level before it first".to_owned()),
                Some(0) => {
                    // Host the level the cursor was last on.
                    self.race.level = ctx.levels.iter().rposition(|l| l.open).unwrap_or(0);
                    self.push(Page::Race, ctx);
                }
                Some(1) => self.push(Page::Settings, ctx),
                Some(_) => return Some(MenuAction::Quit),
            },
            Page::Pause => {
                let item = PauseItem::all(ctx.settings.display.practice, ctx.finished_run).get(c).copied();
                return match item.unwrap_or(PauseItem::Quit) {
                    PauseItem::Resume => Some(MenuAction::Resume),
                    PauseItem::Restart => Some(MenuAction::Restart),
                    PauseItem::Settings => {
                        self.push(Page::Settings, ctx);
                        None
                    }
                    PauseItem::Skip => Some(MenuAction::SkipLevel),
                    PauseItem::SaveState => Some(MenuAction::SaveState),
                    PauseItem::LoadState => Some(MenuAction::LoadState),
                    PauseItem::WatchAttempts => Some(MenuAction::WatchAttempts),
                    PauseItem::CopyLink => Some(MenuAction::CopyLink),
                    PauseItem::ToTitle => Some(MenuAction::ToTitle),
                    PauseItem::Quit => Some(MenuAction::Quit),
                };
            }
            Page::End => {
                let items = end_items(ctx.finished_run);
                return Some(items[c.min(items.len() - 1)].1.clone());
            }
            // Its rows take Confirm in `input`.
            Page::Race => {}
            Page::Settings => match setting_rows()[c] {
                SettingRow::Key(device, bind) => {
                    self.capture = Some(Capture { device, bind });
                }
                SettingRow::ResetKeys => {
                    let mut s = ctx.settings.clone();
                    s.keys = Settings::default().keys; // the practice keys too
                    self.message = Some("Keys reset to the defaults".to_owned());
                    return Some(MenuAction::Settings(Box::new(s)));
                }
                SettingRow::Back => return self.back(),
                _ => return self.change(ctx, 1),
            },
        }
        None
    }

    /// While a key is being rebound ([`Menu::capture`]): the player pressed a key or button
    /// of `device`, named `name` as the settings write it (`None`: a key that cannot be bound —
    /// Esc, F3, F11, pad Start/Select — shown as `shown`). Returns the new settings when the
    /// binding was made; a refused key leaves a message and keeps waiting (Esc / B cancel).
    pub fn capture_key(
        &mut self,
        device: Device,
        name: Option<&str>,
        shown: &str,
        ctx: &Context<'_>,
    ) -> Option<MenuAction> {
        let cap = self.capture?;
        if device != cap.device {
            let want = if cap.device == Device::Keyboard { "a key" } else { "a pad button" };
            self.message = Some(format!("Press {want} for {} (Esc: cancel)", cap.bind.name()));
            return None;
        }
        let Some(name) = name else {
            self.message = Some(format!("{shown} cannot be bound"));
            return None;
        };
        match rebind(ctx.settings, cap.device, cap.bind, name) {
            Ok(s) => {
                self.capture = None;
                self.message = Some(format!("{} is now {}", cap.bind.name(), key_label(name)));
                Some(MenuAction::Settings(Box::new(s)))
            }
            Err(refused) => {
                self.message = Some(refused);
                None
            }
        }
    }
}

#[cfg(test)]
#[path = "menu_tests.rs"]
mod tests;
