//! What would make `state_hash` differ between x86-64, aarch64 and wasm32 stays out of the code
//! that feeds it (the rules and their reasons: the `ledge::sim` module docs;
//! `scripts/determinism` compares the hashes themselves on the three).
//!
//! Clock: none (reads source files).
//!
//! - No libm function (transcendentals, `powi`, `hypot`, `cbrt`: last bits differ between
//!   glibc and wasi-libc), no `mul_add`, no glam angle function in `src/sim`, `src/time`,
//!   `src/level`, `src/input`, `src/lab` and `src/game_loop.rs`.
//! - No glam SIMD-backed f32 type (`Vec3A`, `Vec4`, `Quat`, `Mat*`, `Affine*`: reductions in
//!   another order on NEON, avian #1030) in those either, and no glam `fast-math`.
//! - No `HashMap`/`HashSet` (randomly seeded iteration order) in `src/sim`, `src/time`,
//!   `src/input`. (`src/level/tiled_map.rs` keeps one as a lookup cache, never iterated.)

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Where the state a tick reads comes from: the simulation, the clock, levels, input, the lab.
const HASHED: &[&str] = &["src/sim", "src/time", "src/level", "src/input", "src/lab", "src/game_loop.rs"];

/// Where iteration order could reach the state.
const ORDERED: &[&str] = &["src/sim", "src/time", "src/input"];

/// Methods (`.name(`) and paths (`::name(`) whose result is up to the platform's libm, or fused.
const LIBM: &[&str] = &[
    "sin",
    "cos",
    "tan",
    "sin_cos",
    "asin",
    "acos",
    "atan",
    "atan2",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "exp",
    "exp2",
    "exp_m1",
    "ln",
    "log",
    "log2",
    "log10",
    "ln_1p",
    "powf",
    "powi",
    "cbrt",
    "hypot",
    "mul_add",
    "from_angle",
    "to_angle",
    "angle_to",
    "angle_between",
    "gamma",
];

/// glam types backed by SIMD registers on x86-64 (SSE2), aarch64 (NEON) or wasm32 (simd128).
const SIMD_TYPES: &[&str] = &["Vec3A", "Vec4", "Quat", "Mat2", "Mat3A", "Mat4", "Affine2", "Affine3A"];

/// Types whose iteration order is seeded at random per process.
const RANDOM_ORDER: &[&str] = &["HashMap", "HashSet", "RandomState", "DefaultHasher"];

fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_file() {
        out.push(path.to_path_buf());
    } else if let Ok(entries) = std::fs::read_dir(path) {
        let mut entries: Vec<PathBuf> = entries.map(|e| e.expect("dir entry").path()).collect();
        entries.sort();
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "rs") {
                rust_files(&e, out);
            }
        }
    }
}

fn files(roots: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for r in roots {
        rust_files(&root().join(r), &mut out);
    }
    out
}

/// `word` in `code` as a whole identifier.
fn has_word(code: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(word).any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = code[i + word.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

/// The forbidden names used in `text` (comments left out), as "line N: name".
fn offences(text: &str, calls: &[&str], types: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        for f in calls {
            if code.contains(&format!(".{f}(")) || code.contains(&format!("::{f}(")) {
                found.push(format!("line {}: {f}()", n + 1));
            }
        }
        for t in types {
            if has_word(code, t) {
                found.push(format!("line {}: {t}", n + 1));
            }
        }
    }
    found
}

fn check(roots: &[&str], calls: &[&str], types: &[&str]) -> (usize, Vec<String>) {
    let files = files(roots);
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for o in offences(&text, calls, types) {
            bad.push(format!("{}: {o}", f.strip_prefix(root()).unwrap_or(f).display()));
        }
    }
    (files.len(), bad)
}

#[test]
fn the_checker_finds_what_it_looks_for() {
    let text = "let a = x.sin();\nlet b = f64::powi(y, 2); // .cos( in a comment is fine\n\
                let v: Vec3A = Vec3A::ZERO;\nlet w: MyVec4 = Vec4Like;\nlet m: HashMap<u8, u8>;";
    assert_eq!(offences(text, LIBM, SIMD_TYPES), ["line 1: sin()", "line 2: powi()", "line 3: Vec3A"]);
    assert_eq!(offences(text, &[], RANDOM_ORDER), ["line 5: HashMap"]);
    assert!(offences("let d = (a * a + b * b).sqrt().floor();", LIBM, SIMD_TYPES).is_empty());
}

#[test]
fn no_libm_function_fma_or_simd_type_where_the_state_is_computed() {
    let (n, bad) = check(HASHED, LIBM, SIMD_TYPES);
    assert!(n >= 20, "only {n} files under {HASHED:?}");
    assert!(
        bad.is_empty(),
        "these would make state_hash differ between architectures (src/sim/mod.rs says why):\n{}",
        bad.join("\n")
    );
}

#[test]
fn no_randomly_ordered_collection_where_the_state_is_computed() {
    let (n, bad) = check(ORDERED, &[], RANDOM_ORDER);
    assert!(n >= 10, "only {n} files under {ORDERED:?}");
    assert!(
        bad.is_empty(),
        "iteration order is random per process; use a Vec or BTreeMap:\n{}",
        bad.join("\n")
    );
}

#[test]
fn glam_is_built_without_fast_math() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    let manifest: toml::Table = toml::from_str(&manifest).expect("Cargo.toml parses");
    let glam = &manifest["dependencies"]["glam"];
    let features: Vec<&str> = glam
        .get("features")
        .and_then(|f| f.as_array())
        .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default();
    for f in ["fast-math", "core-simd"] {
        assert!(!features.contains(&f), "glam feature {f} changes float results between targets");
    }
}

#[test]
fn dvec2_is_two_plain_f64_fields() {
    // glam (0.34 included) keeps DVec2 scalar on every target: `#[repr(C)] { x: f64, y: f64 }`,
    // 8-byte aligned. A SIMD-backed or padded layout would show here first.
    assert_eq!(std::mem::size_of::<glam::DVec2>(), 2 * std::mem::size_of::<f64>());
    assert_eq!(std::mem::align_of::<glam::DVec2>(), std::mem::align_of::<f64>());
    let v = glam::DVec2::new(0.1, 0.2);
    assert_eq!(<[f64; 2]>::from(v), [0.1, 0.2]);
}
