# Sourced by scripts/play and scripts/test: the Debian packages Ledge needs, and one installer.
# (Not a command: `source scripts/lib/packages.sh`, then `install_missing TAG PACKAGE...`.)

# Building: gilrs (gamepads) compiles against libudev, kira's cpal backend (sound) against ALSA
# (alsa-sys finds it with pkg-config); rustc links with cc.
build_packages=(libudev-dev libasound2-dev pkg-config)
command -v cc >/dev/null 2>&1 || build_packages+=(gcc libc6-dev)

# Running: what the game loads at run time on a machine with a display server and nothing else.
# winit dlopens the X11 and Wayland client libraries and xkbcommon (src/app/syslibs.rs names the
# same sonames); wgpu dlopens the Vulkan loader (and EGL for its GL fallback); lavapipe
# (mesa-vulkan-drivers) is a Vulkan driver on the CPU for machines without a GPU.
runtime_packages=(
    libx11-6 libx11-xcb1 libxcb1 libxcursor1 libxi6 libxrandr2   # winit on X11
    libxkbcommon0 libxkbcommon-x11-0                             # winit's keyboard (X11, Wayland)
    libwayland-client0 libwayland-cursor0 libwayland-egl1        # winit (and wgpu's GL) on Wayland
    libvulkan1 mesa-vulkan-drivers libegl1                       # wgpu: Vulkan loader, lavapipe, EGL
)
# Sound: the binary links libasound.so.2 (alsa-sys), so without it the game cannot even start.
# Debian 13 and Ubuntu 24.04 renamed the package libasound2t64 (the 64-bit time_t move).
if command -v apt-cache >/dev/null 2>&1 && apt-cache show libasound2t64 >/dev/null 2>&1; then
    runtime_packages+=(libasound2t64)
else
    runtime_packages+=(libasound2)
fi

# scripts/determinism (run by scripts/test): the aarch64 build is linked with the cross gcc and
# run under qemu-user with the cross C library (-L /usr/aarch64-linux-gnu); Node's built-in WASI
# (Debian's Node 18 has it) runs the wasm32 build.
determinism_packages=(qemu-user-static gcc-aarch64-linux-gnu libc6-dev-arm64-cross nodejs)

# Ledge in the browser (scripts/web, web/tests/run.mjs): Debian's Chromium, driven headless by
# playwright-core (web/package.json; Playwright's own browser download is never used), and
# Node with npm for the harness and for npm's binaryen (wasm-opt). Node and npm only when the
# machine has none (one from NodeSource already carries npm; Debian's npm is a package apart).
web_packages=(chromium)
command -v node >/dev/null 2>&1 || web_packages+=(nodejs)
command -v npm >/dev/null 2>&1 || web_packages+=(npm)

# install_missing TAG PACKAGE...: apt-get install those of PACKAGE... that dpkg does not list as
# installed (nothing at all when every one is), as root or through sudo. TAG prefixes messages.
install_missing() {
    local tag=$1; shift
    local missing=() p status
    if ! command -v dpkg-query >/dev/null 2>&1; then
        echo "$tag: no dpkg-query (not Debian/Ubuntu): install by hand: $*" >&2
        return 0
    fi
    for p in "$@"; do
        status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
        [[ "$status" == "install ok installed" ]] || missing+=("$p")
    done
    ((${#missing[@]})) || return 0
    echo "$tag: installing ${missing[*]}" >&2
    local sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        if command -v sudo >/dev/null 2>&1; then
            sudo=(sudo)
        else
            echo "$tag: need root or sudo to install: ${missing[*]}" >&2
            return 1
        fi
    fi
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}
