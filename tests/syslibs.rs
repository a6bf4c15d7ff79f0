//! A missing system library is bad input from the machine: the game names it and its Debian
//! package in one line and exits 2 — no panic, no backtrace (issue: a fresh Debian 12 without
//! `libxkbcommon-x11-0` got winit's panic instead of a window).
//!
//! The absence is simulated the way a machine lacks it: in a private mount namespace
//! (`unshare -m`, as root; `unshare -rm` maps the user to root otherwise) `/dev/null` is
//! bind-mounted over the library file `ldconfig` resolves, so `dlopen` fails ("file too
//! short") for this process tree only. Inside a chroot whose root is not a mount point (the
//! newcomer check's), empty files of the library's names on the game's `LD_LIBRARY_PATH` make
//! `dlopen` fail the same way. The game then runs under a real X server (`xvfb-run`, which
//! `scripts/test` installs), where without the check winit would panic.

mod common;

use common::GAME;
use common::scratch::Scratch;
use std::path::PathBuf;
use std::process::Command;

/// The file the dynamic loader opens for `soname`, from `ldconfig -p`, symlinks resolved.
fn library_file(soname: &str) -> PathBuf {
    let out = Command::new("/sbin/ldconfig").arg("-p").output().expect("run /sbin/ldconfig -p");
    let text = String::from_utf8_lossy(&out.stdout);
    // On x86-64 the 64-bit entry ("libc6,x86-64"), not a 32-bit one that may sit beside it.
    let ours = |l: &&str| !cfg!(target_arch = "x86_64") || l.contains("x86-64");
    let line = text
        .lines()
        .filter(|l| l.trim_start().starts_with(&format!("{soname} (")))
        .find(ours)
        .unwrap_or_else(|| panic!("{soname} is not installed (scripts/test installs it)"));
    let path = line.rsplit("=> ").next().expect("ldconfig line has a path").trim();
    std::fs::canonicalize(path).expect("resolve the library's symlinks")
}

/// Whether `/` is a mount point of this process's mount namespace (`/proc/self/mountinfo`
/// lists it). In a chroot whose directory is not one (the newcomer check's Debian chroot),
/// `unshare -m` cannot make `/` private and fails ("cannot change root filesystem
/// propagation"), and a bind mount there could propagate to the host, so the test hides the
/// library another way.
fn root_is_a_mount_point() -> bool {
    std::fs::read_to_string("/proc/self/mountinfo")
        .map(|m| m.lines().any(|l| l.split_whitespace().nth(4) == Some("/")))
        .unwrap_or(false)
}

#[test]
fn missing_libxkbcommon_x11_is_one_line_and_exit_2() {
    let lib = library_file("libxkbcommon-x11.so.0");
    let root = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("Uid:")).map(|l| l.split_whitespace().nth(1) == Some("0"))
        })
        .unwrap_or(false);
    let scratch = Scratch::new("syslibs");
    let mut cmd = if root_is_a_mount_point() {
        // The library file itself is /dev/null for this process tree: what a machine without
        // the package has, as far as dlopen can tell.
        let mut c = Command::new("unshare");
        c.arg(if root { "-m" } else { "-rm" })
            .args([
                "sh",
                "-c",
                r#"mount --bind /dev/null "$1" && exec xvfb-run -a "$2" --exit-after 3"#,
                "sh",
            ])
            .arg(&lib)
            .arg(GAME);
        c
    } else {
        // A chroot: both names xkbcommon-dl tries resolve first to empty files in a folder on
        // the game's LD_LIBRARY_PATH (searched before the loader's cache): the same dlopen
        // failure ("file too short"), for the game's process only.
        let shadow = scratch.path("lib");
        std::fs::create_dir_all(&shadow).expect("shadow library folder");
        for name in ["libxkbcommon-x11.so.0", "libxkbcommon-x11.so"] {
            std::fs::write(shadow.join(name), b"").expect("empty library file");
        }
        let mut c = Command::new("xvfb-run");
        c.args(["-a", "env"]).arg(format!("LD_LIBRARY_PATH={}", shadow.display())).args([
            GAME,
            "--exit-after",
            "3",
        ]);
        c
    };
    cmd.env("XDG_RUNTIME_DIR", scratch.xdg())
        .env("XDG_CONFIG_HOME", scratch.path("config"))
        .env("XDG_DATA_HOME", scratch.path("data"))
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("RUST_BACKTRACE");
    let out = cmd.output().expect("run unshare (util-linux) or xvfb-run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stderr.contains("mount:") && !stderr.contains("unshare:"), "the simulation failed: {stderr}");
    assert_eq!(out.status.code(), Some(2), "exit status; stderr: {stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "exactly one line on stderr, got: {stderr}");
    let line = lines[0];
    assert!(line.contains("libxkbcommon-x11.so.0"), "names the library: {line}");
    assert!(line.contains("libxkbcommon-x11-0"), "names the Debian package: {line}");
    assert!(!line.contains("panicked"), "no panic: {line}");
    assert!(stdout.trim().is_empty(), "no summary line: the game never started: {stdout}");
}
