//! The decoded AINB document (`binspec_formats::ainb::Document`): every AINB file of the shared corpus and every
//! fixture decodes and re-encodes byte for byte, with every offset, count, pool offset and hash recomputed.

use std::path::PathBuf;

use binspec_formats::ainb::Document;
use binspec_formats::Format;
use binspec_tests::{difference, files_under, repo};

fn fixtures() -> Vec<PathBuf> {
    let mut v = files_under(&repo().join("tests/fixtures/ainb"));
    v.retain(|p| p.extension().is_some_and(|e| e == "ainb"));
    assert!(v.len() >= 6, "the AINB fixtures are missing");
    v
}

fn corpus_files() -> Vec<PathBuf> {
    let p = repo().join("../shared/corpus");
    if !p.join("real/ainb").is_dir() {
        eprintln!("skipped: {} has no real/ainb", p.display());
        return Vec::new();
    }
    let mut v = files_under(&p.join("real/ainb"));
    v.extend(files_under(&p.join("oracle/ainb")));
    v.retain(|p| p.extension().is_some_and(|e| e == "ainb"));
    v
}

fn round_trip(files: &[PathBuf]) {
    let mut failures = Vec::new();
    for f in files {
        let data = std::fs::read(f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        match Document::from_binary(&data).and_then(|d| d.to_binary()) {
            Ok(out) => {
                if let Some(d) = difference(&out, &data) {
                    failures.push(format!("{name}: {d}"));
                }
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fixtures_round_trip_byte_for_byte() {
    round_trip(&fixtures());
}

#[test]
fn corpus_round_trips_byte_for_byte() {
    round_trip(&corpus_files());
}
