//! Every `shaders/*.wgsl` parses and validates with naga (the same front end wgpu uses).
//!
//! Clock: none (build-time check of the render frame's shaders).

use std::path::Path;

#[test]
fn every_wgsl_shader_parses_and_validates() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|ext| ext == "wgsl"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no .wgsl files in {}", dir.display());

    let mut failures = Vec::new();
    for path in &paths {
        let source = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        let module = match naga::front::wgsl::parse_str(&source) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{}: parse: {}", path.display(), e.emit_to_string(&source)));
                continue;
            }
        };
        let mut validator = naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::default(),
        );
        if let Err(e) = validator.validate(&module) {
            failures.push(format!("{}: validate: {}", path.display(), e.emit_to_string(&source)));
        }
        assert!(!module.entry_points.is_empty(), "{} has no entry points", path.display());
    }
    assert!(failures.is_empty(), "shader errors:\n{}", failures.join("\n"));
}
