//! Whole-file snapshots of the Rust generated for the small per-feature schemas in `tests/feature_schemas/`: one
//! schema per generator feature (switch, pools, derived fields, sort order, tag scans, bit fields, ...), so that a
//! change in the emitter shows up as a reviewable diff of a short file. The same schemas are compiled and exercised
//! (decoded, written back, edited) by the `binspec-feature-schemas` crate (`tests/feature_crate/`).
//!
//! Refresh after a deliberate emitter change with
//! `INSTA_UPDATE=always cargo test -p binspec-tests --test feature_schemas`, then read the diff.

use std::path::PathBuf;

use binspec_tests::repo;

/// Every `tests/feature_schemas/*.ksy`, by name, sorted.
fn schemas() -> Vec<(String, PathBuf)> {
    let dir = repo().join("tests/feature_schemas");
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ksy"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    out.sort();
    out
}

#[test]
fn feature_schemas_generate_what_the_snapshots_hold() {
    let schemas = schemas();
    assert!(
        schemas.len() >= 14,
        "only {} feature schemas",
        schemas.len()
    );
    for (name, path) in schemas {
        let c = binspec_codegen::compile_file(&path).unwrap_or_else(|d| {
            panic!(
                "{name}: {}",
                d.iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        });
        assert!(
            c.warnings.is_empty(),
            "{name}: {}",
            c.warnings
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        );
        let rust = c.rust;
        insta::assert_snapshot!(format!("feature_{name}"), rust);
    }
}
