# Sourced by scripts/test and scripts/determinism: the lab-only x86-64 build, once.
# (Not a command: `source scripts/lib/lab-only.sh`, then `build_lab_only ROOT`.)
#
# build_lab_only ROOT: `cargo build --no-default-features` (no wgpu, winit, gilrs, ab_glyph,
# kira, cpal, alsa) in ROOT's own target dir ($CARGO_TARGET_DIR or ROOT/target), and a copy of
# that `ledge` at ROOT/target/lab-only/debug/ledge, where labcheck and scripts/determinism run
# it. Its exit status is cargo's (or cp's).
#
# Why the shared target dir and a copy, not `--target-dir target/lab-only`: the lab-only build
# uses the dependencies the test build already compiled wherever their features agree (all but
# serde, regex-syntax, bytemuck, bitflags and what depends on them), where a target dir of its
# own compiled all 73 crates again. Cargo puts the last-built `ledge` at target/debug/ledge, so
# the game binary there is set aside first and put back after (a hard link, no copy), and the
# next cargo command that builds it finds it fresh.
build_lab_only() {
    local root=$1
    local target=${CARGO_TARGET_DIR:-$root/target}
    local bin=$target/debug/ledge out=$root/target/lab-only/debug
    local kept=$target/debug/.ledge-before-lab-only rc=0
    rm -f "$kept"
    [[ -f "$bin" ]] && ln -f "$bin" "$kept"
    if cargo build --no-default-features --manifest-path "$root/Cargo.toml"; then
        mkdir -p "$out" && cp -f "$bin" "$out/ledge.tmp" && mv -f "$out/ledge.tmp" "$out/ledge" || rc=$?
    else
        rc=$?
    fi
    if [[ -f "$kept" ]]; then mv -f "$kept" "$bin"; fi
    return "$rc"
}
