//! The system libraries the window loads at run time, checked before the event loop starts.
//!
//! Clock: none — runs once at start-up, before the event loop exists.
//!
//! winit does not link its windowing libraries: it `dlopen`s them when the event loop starts
//! (x11-dl for Xlib and its extensions, x11rb for libxcb, xkbcommon-dl for the keyboard,
//! wayland-sys for Wayland), and xkbcommon-dl *panics* from inside its lazy loader when
//! `libxkbcommon-x11.so.0` is missing (`xkbcommon-dl` 0.4 `x11.rs`: "Library
//! libxkbcommon-x11.so could not be loaded."). A missing system library is bad input from the
//! machine, not a bug in Ledge, so [`check`] loads each library the chosen backend needs
//! first and names the first one that fails, with the Debian package that provides it.
//!
//! The sonames are the ones those crates ask for first (x11-dl 2.21 `x11_link!` lists,
//! xkbcommon-dl 0.4 `open_with_sonames`, x11rb-protocol's `dl-libxcb`, wayland-sys 0.31); the
//! packages are Debian 12's (`dpkg -S`). `scripts/play` and `scripts/test` install them all.

use std::ffi::OsStr;

/// A shared library the window needs at run time and the Debian package that ships it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SystemLibrary {
    /// The name `dlopen` is asked for, e.g. `libxkbcommon-x11.so.0`.
    pub soname: &'static str,
    /// The Debian 12 package that provides it, e.g. `libxkbcommon-x11-0`.
    pub package: &'static str,
}

const fn lib(soname: &'static str, package: &'static str) -> SystemLibrary {
    SystemLibrary { soname, package }
}

/// What winit 0.30 loads for an X11 session (`DISPLAY`): Xlib, its xcb bridge, Xcursor,
/// XInput2, Xrandr, libxcb and xkbcommon with its X11 part.
pub const X11: &[SystemLibrary] = &[
    lib("libX11.so.6", "libx11-6"),
    lib("libX11-xcb.so.1", "libx11-xcb1"),
    lib("libxcb.so.1", "libxcb1"),
    lib("libXcursor.so.1", "libxcursor1"),
    lib("libXi.so.6", "libxi6"),
    lib("libXrandr.so.2", "libxrandr2"),
    lib("libxkbcommon.so.0", "libxkbcommon0"),
    lib("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
];

/// What winit 0.30 loads for a Wayland session (`WAYLAND_DISPLAY`).
pub const WAYLAND: &[SystemLibrary] = &[
    lib("libwayland-client.so.0", "libwayland-client0"),
    lib("libwayland-cursor.so.0", "libwayland-cursor0"),
    lib("libxkbcommon.so.0", "libxkbcommon0"),
];

/// A library the window needs could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot load the system library {} ({session} window); install the Debian package {} \
     (apt-get install {}), or run scripts/play, which installs it",
    .library.soname, .library.package, .library.package
)]
pub struct MissingLibrary {
    /// The library that failed to load.
    pub library: SystemLibrary,
    /// `"X11"` or `"Wayland"`: the session that needed it.
    pub session: &'static str,
}

/// Which session winit will open, from the environment: Wayland when `WAYLAND_DISPLAY` is set
/// and its libraries load (winit tries Wayland first), else X11 when `DISPLAY` is set.
///
/// `env` reads a variable; `loads` says whether a soname can be loaded. Returns the first
/// library the chosen session lacks. With neither variable set there is nothing to check
/// (winit itself reports that no display is available).
pub fn check_with(
    env: impl Fn(&str) -> Option<String>,
    loads: impl Fn(&str) -> bool,
) -> Result<(), MissingLibrary> {
    let set = |name: &str| env(name).is_some_and(|v| !v.is_empty());
    let first_missing = |libs: &[SystemLibrary], session| {
        libs.iter().find(|l| !loads(l.soname)).map(|&library| MissingLibrary { library, session })
    };
    let wayland = set("WAYLAND_DISPLAY").then(|| first_missing(WAYLAND, "Wayland"));
    if let Some(None) = wayland {
        return Ok(());
    }
    if set("DISPLAY") {
        return first_missing(X11, "X11").map_or(Ok(()), Err);
    }
    wayland.flatten().map_or(Ok(()), Err)
}

/// [`check_with`] on this process's environment and the real dynamic loader.
///
/// # Errors
/// [`MissingLibrary`] naming the first library of the session's list that does not load.
pub fn check() -> Result<(), MissingLibrary> {
    check_with(|name| std::env::var(name).ok(), loads)
}

/// Whether the dynamic loader can load `soname` (the library is closed again at once).
#[expect(
    unsafe_code,
    reason = "dlopen runs the library's initialisers; these are the same system libraries winit \
              loads a moment later, so loading them first adds no risk"
)]
fn loads(soname: &str) -> bool {
    // SAFETY: see the reason above; no symbol is looked up or called.
    unsafe { libloading::Library::new(OsStr::new(soname)) }.is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
    }

    fn all_but(missing: &'static str) -> impl Fn(&str) -> bool {
        move |soname| soname != missing
    }

    #[test]
    fn x11_names_the_missing_library_and_its_package() {
        let err = check_with(env(&[("DISPLAY", ":0")]), all_but("libxkbcommon-x11.so.0")).unwrap_err();
        assert_eq!(err.library, lib("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"));
        assert_eq!(err.session, "X11");
        let text = err.to_string();
        assert!(
            text.contains("libxkbcommon-x11.so.0") && text.contains("apt-get install libxkbcommon-x11-0")
        );
        assert!(!text.contains('\n'), "one line: {text}");
    }

    #[test]
    fn wayland_with_its_libraries_needs_no_x11_library() {
        let vars = [("WAYLAND_DISPLAY", "wayland-0"), ("DISPLAY", ":0")];
        assert_eq!(check_with(env(&vars), all_but("libxkbcommon-x11.so.0")), Ok(()));
    }

    #[test]
    fn wayland_without_its_libraries_falls_back_to_x11() {
        let vars = [("WAYLAND_DISPLAY", "wayland-0"), ("DISPLAY", ":0")];
        assert_eq!(check_with(env(&vars), all_but("libwayland-client.so.0")), Ok(()));
        let err = check_with(env(&[("WAYLAND_DISPLAY", "wayland-0")]), all_but("libwayland-cursor.so.0"))
            .unwrap_err();
        assert_eq!((err.library.package, err.session), ("libwayland-cursor0", "Wayland"));
    }

    #[test]
    fn no_display_checks_nothing() {
        assert_eq!(check_with(env(&[("DISPLAY", "")]), |_| false), Ok(()));
    }

    #[test]
    fn the_real_loader_finds_libc_and_not_a_made_up_library() {
        assert!(loads("libc.so.6"));
        assert!(!loads("libledge-does-not-exist.so.0"));
    }
}
