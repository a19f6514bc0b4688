//! The registry `build.rs` generates (`formats.rs` in `OUT_DIR` or `generated/rust`) allows no lint: a build with any set of format features
//! compiles without `unused_mut` or `unused_imports` allowed. (The generated format modules are checked by
//! `tests/tests/snapshots.rs`, which compiles every schema.)

#[test]
fn the_generated_registry_allows_no_lint() {
    let path = std::path::Path::new(env!("BINSPEC_GENERATED")).join("formats.rs");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("pub fn registry()"), "{}", path.display());
    if let Some(line) = text.lines().find(|l| l.contains("allow(")) {
        panic!("{}: {line}", path.display());
    }
}
