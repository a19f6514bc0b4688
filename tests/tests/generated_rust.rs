//! The generated Rust checked in under `generated/rust/` (what `binspec-formats` builds without its `codegen`
//! feature, as a tool that depends on it does) is what `binspec_codegen::crate_files` makes of `schemas/*.ksy`
//! with every format on: a schema edited without refreshing it fails here.
//!
//! Refresh it with `BINSPEC_UPDATE_GENERATED=1 cargo test -p binspec-tests --test generated_rust`.

use binspec_tests::repo;

const REFRESH: &str =
    "BINSPEC_UPDATE_GENERATED=1 cargo test -p binspec-tests --test generated_rust";

#[test]
fn checked_in_rust_matches_the_schemas() {
    let made = binspec_codegen::crate_files::crate_files(&repo().join("schemas"), &|_| true);
    assert!(made.errors.is_empty(), "{}", made.errors.join("\n"));
    let dir = repo().join("generated/rust");
    let update = std::env::var("BINSPEC_UPDATE_GENERATED").is_ok_and(|v| v == "1");
    // Every schema with a format of its own has a file, besides the two lists.
    assert!(made.files.iter().any(|(n, _)| n == "sarc.rs"));
    assert!(made.files.iter().any(|(n, _)| n == "formats.rs"));
    let mut stale = Vec::new();
    for (name, text) in &made.files {
        let path = dir.join(name);
        let old = std::fs::read_to_string(&path).ok();
        if old.as_deref() == Some(text.as_str()) {
            continue;
        }
        if update {
            std::fs::create_dir_all(&dir).expect("create generated/rust");
            std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        } else {
            stale.push(format!(
                "{} is {}",
                path.display(),
                if old.is_some() {
                    "out of date"
                } else {
                    "missing"
                }
            ));
        }
    }
    // Nothing else lives there (a schema removed leaves no file behind).
    let names: Vec<&str> = made.files.iter().map(|(n, _)| n.as_str()).collect();
    for entry in std::fs::read_dir(&dir).expect("generated/rust") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if names.contains(&name.as_str()) {
            continue;
        }
        if update {
            std::fs::remove_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        } else {
            stale.push(format!("{} is made from no schema", path.display()));
        }
    }
    assert!(
        stale.is_empty(),
        "{}\nrefresh with `{REFRESH}`",
        stale.join("\n")
    );
}
