//! Saved data that is never lost (issue #12): bad files and unwritable folders, through the
//! library (`ledge::save::Store`) and through the `ledge` binary's stderr.
//!
//! - each bad kind of file (corrupt, truncated, empty, future version), for each of the two
//!   files: exactly one warning naming the file and the problem, the file kept beside as
//!   `NAME.bad-1` byte for byte, defaults for that file only, the other file loaded;
//! - a file cut off at *every* byte: either it reads as the whole file or it is caught, never
//!   read as less than it held;
//! - a second bad file is kept as `.bad-2`, the first one untouched;
//! - a settings file from before the cosmetic keys (`screen_shake`, `flashes`,
//!   `visual_effects`) loads with their defaults and no warning, and is not rewritten; a bad
//!   `screen_shake` word is a bad file like any other;
//! - the game speed (`display.game_speed`) is read back as saved; a file without it is at full
//!   speed, quietly; a speed that is not 50 to 160 in steps of 10 is a bad file like any other
//!   (one warning, kept aside, defaults);
//! - a save folder that cannot be created (a path under a regular file): one warning, no
//!   saving, no panic;
//! - a read-only save folder with good files in it: one warning, the files still read, nothing
//!   written. Made read-only with `chmod 0555` when that stops writes; as root (where it does
//!   not: CAP_DAC_OVERRIDE) with a read-only bind mount in a private mount namespace
//!   (`unshare -m`), running the `ledge` binary inside it; in a chroot where `unshare -m`
//!   cannot work, the test says so and checks the folder-under-a-file case only;
//! - the binary: a bad settings file with `--save-dir` prints one `ledge: warning:` line naming
//!   it before the (here deliberate) missing-level error.
//!
//! The kill test (SIGKILL while saving) is `tests/save_kill.rs`.
//!
//! Clock: none (files only; the binary runs exit before opening a window).

mod common;

use common::scratch::Scratch;
use common::{GAME, ledge};
use ledge::save::progress::{PROGRESS_VERSION, ProgressFile};
use ledge::save::settings::SETTINGS_VERSION;
use ledge::save::{Progress, SaveDirs, SaveWarning, Settings, Store};
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

/// A settings file that is not the defaults (so loading it is told apart from defaults).
fn custom_settings() -> Settings {
    let mut s = Settings::default();
    s.volume.music = 0.25;
    s.display.reduced_motion = true;
    s.keys.keyboard.jump = vec!["KeyJ".into()];
    s
}

/// Progress with two levels (not the default).
fn custom_progress() -> Progress {
    let mut p = Progress::default();
    p.finish("level1", 1800, 2, Some("level2"));
    p.finish("level2", 2400, 0, Some("level3"));
    p
}

/// A save folder holding the custom settings and progress.
fn good_save(dir: &Path) {
    fs::create_dir_all(dir).unwrap();
    fs::write(dir.join("settings.toml"), custom_settings().to_text()).unwrap();
    fs::write(dir.join("progress.toml"), custom_progress().to_text()).unwrap();
}

/// The bad contents each file is tested with: (kind, bytes).
fn bad_contents(good: &str, version: i64) -> Vec<(&'static str, Vec<u8>)> {
    let future = good.replacen(&format!("version = {version}"), &format!("version = {}", version + 1), 1);
    assert_ne!(future, good, "the file has a version line");
    vec![
        ("corrupt", b"\x00\x13garbage\xff from a bad disk ]]]\n".to_vec()),
        ("truncated", good.as_bytes()[..good.len() * 2 / 3].to_vec()),
        ("empty", Vec::new()),
        ("future version", future.into_bytes()),
    ]
}

#[test]
fn each_bad_file_gives_one_warning_a_kept_copy_and_defaults_for_itself_only() {
    let settings_text = custom_settings().to_text();
    let progress_text = custom_progress().to_text();
    for (file, good, version) in [
        ("settings.toml", &settings_text, SETTINGS_VERSION),
        ("progress.toml", &progress_text, PROGRESS_VERSION),
    ] {
        for (kind, bytes) in bad_contents(good, version) {
            let scratch = Scratch::new("bad");
            let dir = scratch.path("save");
            good_save(&dir);
            let path = dir.join(file);
            fs::write(&path, &bytes).unwrap();
            let (store, warnings) = Store::open(Some(&dir));
            let ctx = format!("{file} {kind}");
            assert_eq!(warnings.len(), 1, "{ctx}: one warning, got {warnings:?}");
            let line = warnings[0].to_string();
            assert!(!line.contains('\n'), "{ctx}: one line: {line}");
            assert!(line.contains(&path.display().to_string()), "{ctx}: names the file: {line}");
            let SaveWarning::BadFile { kept, problem, .. } = &warnings[0] else {
                panic!("{ctx}: a BadFile warning, got {line}");
            };
            eprintln!("{ctx}: {line}");
            let expect = match kind {
                "empty" => "is empty",
                "future version" => "newer than",
                "corrupt" => "not text",
                _ => "",
            };
            assert!(problem.to_string().contains(expect), "{ctx}: {problem}");
            assert_eq!(kept, &dir.join(format!("{file}.bad-1")), "{ctx}");
            assert_eq!(fs::read(kept).unwrap(), bytes, "{ctx}: kept byte for byte");
            if file == "settings.toml" {
                assert_eq!(store.settings(), &Settings::default(), "{ctx}: defaults");
                assert_eq!(store.progress(), &custom_progress(), "{ctx}: the other file loaded");
                // the defaults are written in its place, for the player to edit
                assert_eq!(fs::read_to_string(&path).unwrap(), Settings::default().to_text());
            } else {
                assert_eq!(store.progress(), &Progress::default(), "{ctx}: defaults");
                assert_eq!(store.settings(), &custom_settings(), "{ctx}: the other file loaded");
                assert!(!path.exists(), "{ctx}: progress is written at the next completed level");
            }
            assert!(store.is_saving(), "{ctx}: still saving");
        }
    }
}

#[test]
fn a_file_cut_at_any_byte_is_whole_or_caught() {
    let settings = custom_settings().to_text();
    let progress = custom_progress().to_text();
    let scratch = Scratch::new("cuts");
    let path = scratch.path("f.toml");
    let (mut whole, mut caught) = (0, 0);
    for n in 0..settings.len() {
        fs::write(&path, &settings.as_bytes()[..n]).unwrap();
        match ledge::save::file::read_versioned(&path, SETTINGS_VERSION, |s: &Settings| s.validate()) {
            Ok(Some(s)) => {
                assert_eq!(s, custom_settings(), "settings cut at {n} of {} read as less", settings.len());
                whole += 1;
            }
            Ok(None) => unreachable!("the file exists"),
            Err(_) => caught += 1,
        }
    }
    for n in 0..progress.len() {
        fs::write(&path, &progress.as_bytes()[..n]).unwrap();
        match ledge::save::file::read_versioned(&path, PROGRESS_VERSION, ProgressFile::validate) {
            Ok(Some(f)) => {
                assert_eq!(Progress::from(f), custom_progress(), "progress cut at {n} read as less");
                whole += 1;
            }
            Ok(None) => unreachable!("the file exists"),
            Err(_) => caught += 1,
        }
    }
    eprintln!("{caught} cuts caught, {whole} read whole (only a lost final newline or digit-free tail)");
    assert!(whole <= 2, "only the cut of the last newline reads whole: {whole}");
}

#[test]
fn a_second_bad_file_is_kept_as_bad_2() {
    let scratch = Scratch::new("bad2");
    let dir = scratch.path("save");
    good_save(&dir);
    let path = dir.join("progress.toml");
    fs::write(&path, "version = 99\n").unwrap();
    let (_, w1) = Store::open(Some(&dir));
    fs::write(&path, "").unwrap();
    let (_, w2) = Store::open(Some(&dir));
    assert_eq!((w1.len(), w2.len()), (1, 1));
    assert_eq!(fs::read_to_string(dir.join("progress.toml.bad-1")).unwrap(), "version = 99\n");
    assert_eq!(fs::read_to_string(dir.join("progress.toml.bad-2")).unwrap(), "");
}

#[test]
fn an_old_settings_file_loads_quietly_and_a_bad_shake_word_is_a_bad_file() {
    let scratch = Scratch::new("cosmetic-keys");
    let dir = scratch.path("save");
    good_save(&dir);
    let path = dir.join("settings.toml");
    let new_keys = ["screen_shake", "flashes", "visual_effects"];
    let old: String = custom_settings()
        .to_text()
        .lines()
        .filter(|l| !new_keys.iter().any(|k| l.starts_with(k)))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(&path, &old).unwrap();
    let (store, warnings) = Store::open(Some(&dir));
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(store.settings(), &custom_settings(), "the defaults for the keys it lacks");
    assert_eq!(store.settings().cosmetic(), ledge::cosmetic::CosmeticSettings::default());
    assert_eq!(fs::read_to_string(&path).unwrap(), old, "not rewritten by loading");

    let bad = custom_settings().to_text().replace("screen_shake = \"full\"", "screen_shake = \"wild\"");
    fs::write(&path, &bad).unwrap();
    let (store, warnings) = Store::open(Some(&dir));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let line = warnings[0].to_string();
    assert!(line.contains("has a bad value") && line.contains("screen_shake = \"wild\""), "{line}");
    assert!(line.contains("settings.toml.bad-1"), "{line}");
    assert_eq!(store.settings(), &Settings::default(), "safe defaults");
    assert_eq!(fs::read_to_string(dir.join("settings.toml.bad-1")).unwrap(), bad, "kept as it was");
}

#[test]
fn the_game_speed_is_read_back_and_a_bad_one_is_a_bad_file() {
    let scratch = Scratch::new("game-speed");
    let dir = scratch.path("save");
    good_save(&dir);
    let path = dir.join("settings.toml");
    let mut slow = custom_settings();
    slow.display.game_speed = ledge::time::GameSpeed::from_percent(70).unwrap();
    fs::write(&path, slow.to_text()).unwrap();
    let (store, warnings) = Store::open(Some(&dir));
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(store.settings().display.game_speed.percent(), 70);

    let bad = slow.to_text().replace("game_speed = 70", "game_speed = 75");
    fs::write(&path, &bad).unwrap();
    let (store, warnings) = Store::open(Some(&dir));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let line = warnings[0].to_string();
    assert!(
        line.contains("game_speed = 75: must be 50 to 160 in steps of 10 (percent)")
            && line.contains("settings.toml.bad-1"),
        "{line}"
    );
    assert_eq!(store.settings(), &Settings::default(), "safe defaults: full speed");
    assert_eq!(fs::read_to_string(dir.join("settings.toml.bad-1")).unwrap(), bad, "kept as it was");
}

#[test]
fn a_folder_that_cannot_be_created_warns_once_and_saves_nothing() {
    let scratch = Scratch::new("under-file");
    let file = scratch.path("a-file");
    fs::write(&file, "not a folder").unwrap();
    let dir = file.join("save");
    let (mut store, warnings) = Store::open(Some(&dir));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let line = warnings[0].to_string();
    assert!(line.contains(&dir.display().to_string()) && line.contains("without saving"), "{line}");
    assert!(!store.is_saving());
    assert_eq!(store.settings(), &Settings::default());
    assert_eq!(store.finish_level("level1", 100, 0, Some("level2"), false, &[]), Ok(()), "no second warning");
    assert_eq!(store.progress().levels.len(), 1, "progress is kept in memory for the session");
    assert_eq!(fs::read_to_string(&file).unwrap(), "not a folder");

    // Two folders (the OS layout on Linux and Windows), only the data folder broken: the
    // warning says what is not saved, and settings still are.
    let config = scratch.path("config");
    let (mut store, warnings) = Store::open_in(&SaveDirs { config: config.clone(), data: dir.clone() });
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].to_string().ends_with("playing without saving progress"), "{}", warnings[0]);
    assert!(config.join("settings.toml").is_file(), "settings still saved");
    assert_eq!(store.finish_level("level1", 100, 0, None, false, &[]), Ok(()));
    assert!(store.is_saving());
}

/// Whether `chmod 0555` stops this process writing in `dir` (not as root).
fn chmod_stops_writes(dir: &Path) -> bool {
    fs::set_permissions(dir, fs::Permissions::from_mode(0o555)).unwrap();
    let probe = dir.join("probe");
    let stops = fs::write(&probe, "x").is_err();
    let _ = fs::remove_file(&probe);
    stops
}

/// Whether `/` is a mount point here (else `unshare -m` cannot work: a chroot).
fn root_is_a_mount_point() -> bool {
    fs::read_to_string("/proc/self/mountinfo")
        .map(|m| m.lines().any(|l| l.split_whitespace().nth(4) == Some("/")))
        .unwrap_or(false)
}

/// Run `ledge --save-dir DIR --level /nonexistent.tmx`: it opens the save, prints its
/// warnings, then exits 2 on the missing level, before any window. `read_only_mount` runs it
/// in a private mount namespace where DIR is a read-only bind mount of itself.
fn ledge_with_save(dir: &Path, read_only_mount: bool) -> (Option<i32>, Vec<String>) {
    let mut cmd = if read_only_mount {
        let mut c = Command::new("unshare");
        c.args([
            "-m",
            "sh",
            "-c",
            r#"mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && exec "$2" --save-dir "$1" --level /nonexistent.tmx"#,
            "sh",
        ])
        .arg(dir)
        .arg(GAME);
        c
    } else {
        let mut c = ledge();
        c.arg("--save-dir").arg(dir).args(["--level", "/nonexistent.tmx"]);
        c
    };
    let out = cmd.env_remove("RUST_LOG").output().expect("run ledge (or unshare, from util-linux)");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), stderr.lines().map(str::to_owned).collect())
}

#[test]
fn a_read_only_folder_warns_once_reads_the_files_and_writes_nothing() {
    let scratch = Scratch::new("read-only");
    let dir = scratch.path("save");
    good_save(&dir);
    fs::write(dir.join("settings.toml"), custom_settings().to_text()).unwrap();
    let before: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    let read_only_mount = if chmod_stops_writes(&dir) {
        eprintln!("read-only by chmod 0555");
        // in-process too: the files are read, nothing is written, no second warning
        let (mut store, warnings) = Store::open(Some(&dir));
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(matches!(warnings[0], SaveWarning::FolderNotWritable { .. }));
        assert_eq!(store.settings(), &custom_settings(), "the bindings are still the player's");
        assert_eq!(store.progress(), &custom_progress());
        assert_eq!(store.finish_level("level3", 10, 0, None, false, &[]), Ok(()));
        false
    } else if root_is_a_mount_point() {
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        eprintln!("root: chmod does not stop writes; read-only by a bind mount (unshare -m)");
        true
    } else {
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        eprintln!(
            "root in a chroot: neither chmod nor unshare -m can make a read-only folder here; \
             only the folder-under-a-file case (a_folder_that_cannot_be_created...) is checked"
        );
        return;
    };
    let (code, lines) = ledge_with_save(&dir, read_only_mount);
    let warnings: Vec<&String> = lines.iter().filter(|l| l.starts_with("ledge: warning:")).collect();
    assert!(!lines.iter().any(|l| l.contains("panicked") || l.starts_with("mount:")), "{lines:#?}");
    assert_eq!(warnings.len(), 1, "one warning line: {lines:#?}");
    assert!(warnings[0].contains(&dir.display().to_string()), "names the folder: {}", warnings[0]);
    assert!(warnings[0].contains("playing without saving"), "{}", warnings[0]);
    assert_eq!(code, Some(2), "the missing level's exit: {lines:#?}");
    assert!(lines.last().is_some_and(|l| l.contains("/nonexistent.tmx")), "{lines:#?}");
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    let after: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(before, after, "nothing written or moved");
    assert_eq!(fs::read_to_string(dir.join("settings.toml")).unwrap(), custom_settings().to_text());
}

#[test]
fn the_binary_prints_one_warning_line_for_a_bad_settings_file() {
    let scratch = Scratch::new("bin-bad");
    let dir = scratch.path("save");
    good_save(&dir);
    fs::write(dir.join("settings.toml"), "version = 1\n[volume]\nmaster = ").unwrap();
    let (code, lines) = ledge_with_save(&dir, false);
    assert_eq!(code, Some(2), "{lines:#?}");
    assert_eq!(lines.len(), 2, "the warning, then the missing level: {lines:#?}");
    let w = &lines[0];
    assert!(w.starts_with("ledge: warning: ") && w.contains("settings.toml"), "{w}");
    assert!(w.contains("not valid TOML") && w.contains("settings.toml.bad-1"), "{w}");
    assert!(dir.join("settings.toml.bad-1").is_file());
    // and the next start is clean: the defaults were written
    let (_, lines) = ledge_with_save(&dir, false);
    assert_eq!(lines.len(), 1, "only the missing level now: {lines:#?}");
}

#[test]
fn os_folders_follow_xdg_and_save_dir_puts_both_in_one() {
    let one = SaveDirs::single(Path::new("/x/y"));
    assert_eq!(one.settings_file(), Path::new("/x/y/settings.toml"));
    assert_eq!(one.progress_file(), Path::new("/x/y/progress.toml"));
    // ProjectDirs on Linux: $XDG_CONFIG_HOME/ledge and $XDG_DATA_HOME/ledge (absolute
    // values), else ~/.config/ledge and ~/.local/share/ledge.
    if let Some(os) = SaveDirs::os() {
        assert!(os.config.ends_with("ledge") && os.data.ends_with("ledge"), "{os:?}");
        assert_ne!(os.config, os.data);
    }
}
