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

/// The YAML and JSON forms hold everything: decode, write as text, read the text, encode gives the same bytes.
#[test]
fn text_forms_round_trip_byte_for_byte() {
    let mut files = fixtures();
    files.extend(corpus_files());
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let doc = Document::from_binary(&data).unwrap();
        let from_yaml = Document::from_text(&doc.to_text().unwrap()).unwrap();
        assert!(
            from_yaml == doc,
            "{}: the YAML form reads back differently",
            f.display()
        );
        let from_json = Document::from_json(&doc.to_json().unwrap()).unwrap();
        assert!(
            from_json == doc,
            "{}: the JSON form reads back differently",
            f.display()
        );
        assert!(from_yaml.to_binary().unwrap() == data, "{}", f.display());
    }
}

/// `binspec check` over the corpus's AINB folders: every file identical.
#[test]
fn binspec_check_reports_every_corpus_file_identical() {
    let p = repo().join("../shared/corpus");
    if !p.join("real/ainb").is_dir() {
        eprintln!("skipped: {} has no real/ainb", p.display());
        return;
    }
    let real = p.join("real/ainb");
    let oracle = p.join("oracle/ainb");
    let r = binspec_tests::run(&["check", real.to_str().unwrap(), oracle.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let n = corpus_files().len();
    let line = r
        .out
        .lines()
        .find(|l| l.starts_with("ainb "))
        .unwrap_or_else(|| panic!("no ainb line in:\n{}", r.out));
    let cols: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        &cols[1..5],
        &[n.to_string().as_str(), n.to_string().as_str(), "0", "0"],
        "{line}"
    );
}

/// Decoded documents, reviewed: the one-action fixture in each version, the patrol fixture (every property,
/// input and output type, plugs, a query, an attachment, every blackboard type), the expression fixtures (EXB
/// versions 2 and 3) and Splatoon 3's 0x404 file.
#[test]
fn decoded_documents() {
    for name in [
        "single_v404",
        "single_v407",
        "single_v408",
        "patrol_v407",
        "expr_v407",
        "expr_v408",
    ] {
        let data = std::fs::read(repo().join(format!("tests/fixtures/ainb/{name}.ainb"))).unwrap();
        let doc = Document::from_binary(&data).unwrap();
        insta::assert_snapshot!(name, doc.to_text().unwrap());
    }
}

#[test]
fn decoded_splatoon3_document() {
    let f = repo().join("../shared/corpus/real/ainb/Vss_Kaisou04_66b8.logic.root.ainb");
    if !f.is_file() {
        eprintln!("skipped: {} is absent", f.display());
        return;
    }
    let doc = Document::from_binary(&std::fs::read(f).unwrap()).unwrap();
    insta::assert_snapshot!("vss_kaisou04_v404", doc.to_text().unwrap());
}

/// Bad input gets an error, never a panic: every truncation of every fixture, and seeded byte flips and planted
/// large words; whatever decodes must also encode (or fail cleanly).
#[test]
fn truncated_and_mutated_fixtures_fail_cleanly() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut decoded = 0;
    for f in fixtures() {
        let data = std::fs::read(&f).unwrap();
        for cut in 0..data.len() {
            let _ = Document::from_binary(&data[..cut]);
        }
        for _ in 0..600 {
            let mut m = data.clone();
            let at = (next() as usize) % m.len();
            match next() % 3 {
                0 => m[at] ^= 1 << (next() % 8),
                1 => {
                    let at = at & !3;
                    let big = [0xffff_ffffu32, 0x7fff_ffff, 0x0010_0000, m.len() as u32 + 4]
                        [(next() % 4) as usize];
                    if at + 4 <= m.len() {
                        m[at..at + 4].copy_from_slice(&big.to_le_bytes());
                    }
                }
                _ => m[at] = next() as u8,
            }
            if let Ok(doc) = Document::from_binary(&m) {
                decoded += 1;
                let _ = doc.to_binary();
            }
        }
    }
    // Some mutations land in values (names, defaults) and still decode; the loop must have exercised the writer.
    assert!(decoded > 100, "only {decoded} mutated files decoded");
}
