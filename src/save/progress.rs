//! `progress.toml`: which levels are unlocked and the best result on each, with a `version`
//! field and a record count that catches a file cut off between two records.
//!
//! Clock: none (read when the game starts, written when a level is completed).
//!
//! A level is known by its id ([`level_id`]): the file stem for a level shipped in the assets'
//! `levels/` folder (`level1`), the absolute path for any other (`--level`), so a designer's
//! `level1.tmx` elsewhere never touches the shipped level's record.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The progress format this build writes and the newest it reads.
pub const PROGRESS_VERSION: i64 = 1;

/// The best results on one level. Times are fixed ticks at the loop's tick rate (60 Hz by
/// default: 60 ticks = 1 s), counted from the level's start to its goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelRecord {
    /// Fastest finish, ticks.
    pub best_ticks: u64,
    /// Fewest deaths in one finish (not necessarily the fastest one).
    pub fewest_deaths: u64,
    /// Finished at least once without dying.
    pub deathless: bool,
}

/// What the player has done, in memory.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// Level ids unlocked beyond the first level (which is always open), in unlock order.
    pub unlocked: Vec<String>,
    /// Best results by level id.
    pub levels: BTreeMap<String, LevelRecord>,
    /// The segment timer's bests: by level id, then by where the segment ends
    /// ([`crate::timer::SegmentEnd::key`]: `checkpoint 1`, `goal`), ticks.
    pub segments: BTreeMap<String, BTreeMap<String, u64>>,
}

/// One segment best as written (`[[segment]]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SegmentEntry {
    /// The level id ([`level_id`]).
    pub level: String,
    /// Where the segment ends: `checkpoint N` or `goal`.
    pub to: String,
    /// Its best time, ticks.
    pub best_ticks: u64,
}

/// One record as written: the id beside the results (`[[level]]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelEntry {
    /// The level id ([`level_id`]).
    pub id: String,
    /// Its results.
    #[serde(flatten)]
    pub record: LevelRecord,
}

/// `progress.toml` as written. Every field is required.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProgressFile {
    /// Format version ([`PROGRESS_VERSION`]).
    pub version: i64,
    /// Unlocked level ids.
    pub unlocked: Vec<String>,
    /// How many `[[level]]` records follow: a file cut off between two has fewer.
    pub records: usize,
    /// The records.
    #[serde(default)]
    pub level: Vec<LevelEntry>,
    /// The segment bests (missing in a file from before the segment timer: none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub segment: Vec<SegmentEntry>,
}

impl ProgressFile {
    /// The lines written above the TOML.
    pub const HEADER: &'static str = "\
# Ledge progress, written by the game (docs/playing.md \"Saved data\"). Times are ticks at 60 Hz.
";

    /// Check the record count (a file cut off between two records parses, but has fewer).
    ///
    /// # Errors
    /// The count found against the count written, on one line.
    pub fn validate(&self) -> Result<(), String> {
        if self.level.len() != self.records {
            return Err(format!(
                "records = {} but {} [[level]] entries: cut off or edited",
                self.records,
                self.level.len()
            ));
        }
        Ok(())
    }
}

impl From<ProgressFile> for Progress {
    fn from(f: ProgressFile) -> Self {
        let mut segments: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
        for s in f.segment {
            segments.entry(s.level).or_default().insert(s.to, s.best_ticks);
        }
        Progress {
            unlocked: f.unlocked,
            levels: f.level.into_iter().map(|e| (e.id, e.record)).collect(),
            segments,
        }
    }
}

impl Progress {
    /// The file's text: [`ProgressFile::HEADER`] then the TOML.
    pub fn to_text(&self) -> String {
        let file = ProgressFile {
            version: PROGRESS_VERSION,
            unlocked: self.unlocked.clone(),
            records: self.levels.len(),
            level: self.levels.iter().map(|(id, r)| LevelEntry { id: id.clone(), record: *r }).collect(),
            segment: self
                .segments
                .iter()
                .flat_map(|(level, bests)| {
                    bests.iter().map(|(to, &best_ticks)| SegmentEntry {
                        level: level.clone(),
                        to: to.clone(),
                        best_ticks,
                    })
                })
                .collect(),
        };
        let body = toml::to_string(&file).expect("progress is plain TOML values");
        format!("{}\n{body}", ProgressFile::HEADER)
    }

    /// Level `id` was finished in `ticks` ticks with `deaths` deaths: keep the best of each,
    /// and unlock `next` (the level after it) if there is one. Returns true when anything
    /// changed (then it is worth saving).
    pub fn finish(&mut self, id: &str, ticks: u64, deaths: u64, next: Option<&str>) -> bool {
        let mut changed = match self.levels.get_mut(id) {
            Some(record) => {
                let before = *record;
                record.best_ticks = record.best_ticks.min(ticks);
                record.fewest_deaths = record.fewest_deaths.min(deaths);
                record.deathless |= deaths == 0;
                before != *record
            }
            None => {
                let new = LevelRecord { best_ticks: ticks, fewest_deaths: deaths, deathless: deaths == 0 };
                self.levels.insert(id.to_owned(), new);
                true
            }
        };
        changed |= self.unlock(next);
        changed
    }

    /// A level was finished with an assist: no record is kept (no best time, no fewest deaths),
    /// but `next` (the level after it) is unlocked, as Celeste's Assist Mode lets a player on.
    /// Returns true when that changed anything.
    pub fn unlock(&mut self, next: Option<&str>) -> bool {
        let Some(next) = next.filter(|n| !self.unlocked.iter().any(|u| u == n)) else { return false };
        self.unlocked.push(next.to_owned());
        true
    }

    /// Level `id`'s run split into `segments` (where each ended, its ticks): keep each one's
    /// best. Returns true when any improved.
    pub fn note_segments(&mut self, id: &str, segments: &[(String, u64)]) -> bool {
        let bests = self.segments.entry(id.to_owned()).or_default();
        let mut changed = false;
        for (to, ticks) in segments {
            let best = bests.entry(to.clone()).or_insert(u64::MAX);
            if *ticks < *best {
                *best = *ticks;
                changed = true;
            }
        }
        changed
    }

    /// Level `id`'s segment bests by where they end (empty: none yet).
    pub fn segment_bests(&self, id: &str) -> Option<&BTreeMap<String, u64>> {
        self.segments.get(id)
    }

    /// True when level `id` can be played: it is unlocked, or it has a record.
    pub fn is_unlocked(&self, id: &str) -> bool {
        self.unlocked.iter().any(|u| u == id) || self.levels.contains_key(id)
    }
}

/// The id progress keeps a level under: its file stem when it lies directly in `shipped`
/// (the assets' `levels/` folder), else its absolute path.
pub fn level_id(path: &Path, shipped: Option<&Path>) -> String {
    let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let shipped = shipped.and_then(|s| std::fs::canonicalize(s).ok());
    match (abs.parent(), shipped, abs.file_stem()) {
        (Some(parent), Some(dir), Some(stem)) if parent == dir => stem.to_string_lossy().into_owned(),
        _ => abs.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_bests_keep_the_fastest_and_round_trip_through_the_file() {
        let mut p = Progress::default();
        let run = |a: u64, b: u64| vec![("checkpoint 1".to_owned(), a), ("goal".to_owned(), b)];
        assert!(p.note_segments("level1", &run(200, 300)));
        assert!(p.note_segments("level1", &run(190, 310)), "the first segment improved");
        assert!(!p.note_segments("level1", &run(195, 305)));
        let bests = p.segment_bests("level1").unwrap();
        assert_eq!((bests["checkpoint 1"], bests["goal"]), (190, 300));
        let text = p.to_text();
        assert!(text.contains("[[segment]]"), "{text}");
        let back: Progress = toml::from_str::<ProgressFile>(&text).unwrap().into();
        assert_eq!(back, p);
        // A file from before the segment timer has none, and writes none.
        let plain = Progress::default().to_text();
        assert!(!plain.contains("segment"), "{plain}");
    }

    #[test]
    fn an_assisted_finish_keeps_no_record_but_unlocks_the_next_level() {
        let mut p = Progress::default();
        assert!(p.unlock(Some("level2")));
        assert!(!p.unlock(Some("level2")), "already unlocked");
        assert!(!p.unlock(None));
        assert!(p.levels.is_empty(), "no best time, no fewest deaths");
        assert!(p.is_unlocked("level2"));
    }

    #[test]
    fn keeps_the_best_of_each_and_unlocks_the_next() {
        let mut p = Progress::default();
        assert!(p.finish("level1", 900, 3, Some("level2")));
        assert_eq!(p.levels["level1"], LevelRecord { best_ticks: 900, fewest_deaths: 3, deathless: false });
        assert_eq!(p.unlocked, ["level2"]);
        // slower but deathless: the time stays, deaths and the flag improve
        assert!(p.finish("level1", 1200, 0, Some("level2")));
        assert_eq!(p.levels["level1"], LevelRecord { best_ticks: 900, fewest_deaths: 0, deathless: true });
        assert_eq!(p.unlocked, ["level2"], "unlocked once");
        // nothing better: no change, nothing to save
        assert!(!p.finish("level1", 901, 1, Some("level2")));
        assert!(!p.finish("level1", 900, 0, Some("level2")), "equal to the best: no change");
        assert!(p.is_unlocked("level2") && p.is_unlocked("level1") && !p.is_unlocked("level3"));
    }

    #[test]
    fn text_round_trips_and_counts_its_records() {
        let mut p = Progress::default();
        p.finish("level1", 900, 3, Some("level2"));
        p.finish("level2", 1500, 0, Some("level3"));
        let text = p.to_text();
        assert!(text.contains("records = 2"), "{text}");
        let file: ProgressFile = toml::from_str(&text).unwrap();
        assert_eq!(file.validate(), Ok(()));
        assert_eq!(Progress::from(file), p);
        // cut off just before the last record: valid TOML, caught by the count
        let cut = &text[..text.rfind("[[level]]").unwrap()];
        let file: ProgressFile = toml::from_str(cut).unwrap();
        assert!(file.validate().unwrap_err().contains("records = 2 but 1"));
    }

    #[test]
    fn shipped_levels_by_stem_others_by_path() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let shipped = root.join("assets/levels");
        assert_eq!(level_id(&shipped.join("level1.tmx"), Some(&shipped)), "level1");
        let other = root.join("tests/levels");
        let id = level_id(&other.join("x.tmx"), Some(&shipped));
        assert!(id.ends_with("tests/levels/x.tmx") && Path::new(&id).is_absolute(), "{id}");
    }
}
