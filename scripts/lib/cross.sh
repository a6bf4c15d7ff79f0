# Sourced by scripts/test and scripts/determinism: the lab-only cross builds scripts/determinism
# runs (not a command: `source scripts/lib/cross.sh`, then `build_cross ROOT`).
#
# build_cross ROOT: `cargo build --profile determinism --no-default-features` for
# aarch64-unknown-linux-gnu (linked by aarch64-linux-gnu-gcc) and wasm32-wasip1, in
# ROOT/target/cross: a target dir of its own, so it never waits on (or blocks) a cargo command
# on ROOT/target, and scripts/test can build it while its tests run. The `determinism` profile
# (release at opt-level 1): from clean it took less CPU time than debug (the dev profile builds
# every dependency at opt-level 1 with 256 codegen units) and has no debug info (the debug
# wasm32 file is 52 MB, which Node loads once a script; this one 2.8 MB), and less than release
# at opt-level 3 (aarch64 and wasm32: 204 s against 259 s of CPU). Two cargo runs, not one with
# both --target flags: cargo unifies features across a --target list, which would switch tiled's
# zstd (C, needs clang) back on for wasm32 (Cargo.toml). Exit status: 0, or 1 naming the target
# that failed on stderr.
CROSS_ARM=aarch64-unknown-linux-gnu
CROSS_WASM=wasm32-wasip1
build_cross() {
    local root=$1 t
    for t in $CROSS_ARM $CROSS_WASM; do
        CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
            cargo build --profile determinism --no-default-features --target-dir "$root/target/cross" \
            --manifest-path "$root/Cargo.toml" --target $t || {
            echo "cross: the $t build failed (see above)" >&2
            return 1
        }
    done
}
