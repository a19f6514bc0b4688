//! The tree says what is generated and what is written by hand: `generated/` holds only what a generator writes
//! (the pages `binspec docs` makes, and the Rust `binspec_codegen::crate_files` makes for `binspec-formats`), and
//! the hand-written crates stay under their size limit.

use std::path::PathBuf;

use binspec_cli::docs;
use binspec_tests::{files_under, repo};

/// Every file under `generated/` is a page that a generator writes (`binspec docs`, and Perro's page) or the
/// generated Rust of `binspec-formats` (`generated/rust/`): nothing written by hand lives there.
#[test]
fn generated_holds_only_generator_output() {
    let registry = binspec_formats::registry();
    let schemas = docs::load_schemas(&repo().join("schemas")).expect("the schemas compile");
    let dir = repo().join("generated/docs");
    let written: Vec<PathBuf> = docs::pages(
        &registry,
        &schemas,
        Some(&repo().join("tests/fixtures")),
        false,
    )
    .into_iter()
    .map(|(p, _)| dir.join(p))
    // Perro's page is made by its hand-written text format from the schema's tables (tests/tests/panim_perro.rs
    // checks that it is fresh).
    .chain([dir.join("panim_perro.md")])
    .chain(
        binspec_codegen::crate_files::crate_files(&repo().join("schemas"), &|_| true)
            .files
            .into_iter()
            .map(|(name, _)| repo().join("generated/rust").join(name)),
    )
    .collect();
    let found = files_under(&repo().join("generated"));
    assert!(!found.is_empty(), "generated/ is empty");
    let stray: Vec<String> = found
        .iter()
        .filter(|p| !written.contains(p))
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        stray.is_empty(),
        "files under generated/ that no generator writes (move hand-written files out of it, delete stale \
         pages):\n{}",
        stray.join("\n")
    );
}

/// No file of the code generator is over about 1,000 lines, and each opens with a `//!` comment saying what it
/// owns (issue 20: split along the pipeline, one concern per file).
#[test]
fn codegen_files_are_small_and_say_what_they_own() {
    let mut problems = Vec::new();
    for p in files_under(&repo().join("codegen/src")) {
        if p.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let lines = text.lines().count();
        if lines > 1_000 {
            problems.push(format!("{}: {lines} lines", p.display()));
        }
        if !text.starts_with("//!") {
            problems.push(format!("{}: does not open with a //! comment", p.display()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
