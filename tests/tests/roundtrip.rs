//! Byte-exact round trips of every fixture (written by independent writers) and, when present, of the shared
//! corpus. A round trip goes through the model only: bytes -> model -> bytes.

use std::path::Path;

use binspec_runtime::compress;

use binspec_tests::{difference, files_under, repo};

/// Round-trips every file the registry recognises under `dir`; returns (checked, failures).
fn check_dir(dir: &Path) -> (usize, Vec<String>) {
    let reg = binspec_formats::registry();
    let mut checked = 0;
    let mut failures = Vec::new();
    for p in files_under(dir) {
        let raw = std::fs::read(&p).unwrap();
        let Ok((data, _)) = compress::decompress(&raw) else {
            continue;
        };
        let Some(f) = reg.iter().find(|f| f.sniff(&data)) else {
            continue;
        };
        checked += 1;
        match f.roundtrip(&data) {
            Ok(out) => {
                if let Some(d) = difference(&out, &data) {
                    failures.push(format!("{}: {d}", p.display()));
                }
            }
            Err(e) => failures.push(format!("{}: {e}", p.display())),
        }
    }
    (checked, failures)
}

#[test]
fn fixtures_round_trip_byte_for_byte() {
    let (n, failures) = check_dir(&repo().join("tests/fixtures"));
    assert!(
        failures.is_empty(),
        "{} of {n} fixtures failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(n >= 30, "only {n} fixtures were recognised");
}

#[test]
fn corpus_round_trips_byte_for_byte() {
    let corpus = repo().join("../shared/corpus");
    if !corpus.exists() {
        eprintln!("skipped: ../shared/corpus is not present");
        return;
    }
    let mut all = Vec::new();
    let mut total = 0;
    for sub in ["oracle/sarc", "oracle/restbl", "real/sarc", "real/restbl"] {
        let (n, f) = check_dir(&corpus.join(sub));
        total += n;
        all.extend(f);
    }
    assert!(
        all.is_empty(),
        "{} of {total} corpus files failed:\n{}",
        all.len(),
        all.join("\n")
    );
    assert!(total > 40, "only {total} corpus files were recognised");
}
