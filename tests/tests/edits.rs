//! Edits made through the generated models (add, remove, rename, resize entries), written to disk and read back by
//! the independent oracle readers (`scripts/oracle/read.py`: oead + sarc for SARC, rstb, restbl). Also a YAML round
//! trip of every fixture. The oracle tests skip (with `skipped: <why>`) when the oracle venv cannot be set up.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use binspec_formats::rsizetable::{CrcEntry, Rsizetable, RsizetableTable};
use binspec_formats::sarc::{Sarc, SfatEntry};
use binspec_runtime::{compress, Format};
use serde_json::Value;

use binspec_tests::{oracle_or_skip, repo};

/// Reads `path` with the oracle; panics with the oracle's stderr if it rejects the file.
fn oracle_read_file(py: &Path, path: &Path) -> Value {
    serde_json::from_slice(&binspec_tests::run_oracle(py, "read.py", &[path])).unwrap()
}

/// Writes `bytes` to a temp file and reads it with the oracle.
fn oracle_read_bytes(py: &Path, bytes: &[u8], suffix: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join(format!("out{suffix}"));
    std::fs::write(&p, bytes).unwrap();
    oracle_read_file(py, &p)
}

fn fixture(rel: &str) -> PathBuf {
    repo().join("tests/fixtures").join(rel)
}

// ---------------------------------------------------------------------------------------------------------------
// SHA-1 (small, for comparing with the oracle's per-file sha1; checked against the oracle on untouched files too).

fn sha1_hex(data: &[u8]) -> String {
    let mut h: [u32; 5] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0];
    let mut msg = data.to_vec();
    let bit_len = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bit_len.to_be_bytes());
    for chunk in msg.chunks(64) {
        let mut w = [0u32; 80];
        for i in 0..16 {
            w[i] = u32::from_be_bytes(chunk[i * 4..i * 4 + 4].try_into().unwrap());
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let [mut a, mut b, mut c, mut d, mut e] = h;
        for (i, wi) in w.iter().enumerate() {
            let (f, k) = match i {
                0..=19 => ((b & c) | (!b & d), 0x5A827999),
                20..=39 => (b ^ c ^ d, 0x6ED9EBA1),
                40..=59 => ((b & c) | (b & d) | (c & d), 0x8F1BBCDC),
                _ => (b ^ c ^ d, 0xCA62C1D6),
            };
            let t = a
                .rotate_left(5)
                .wrapping_add(f)
                .wrapping_add(e)
                .wrapping_add(k)
                .wrapping_add(*wi);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = t;
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e]) {
            *x = x.wrapping_add(y);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

#[test]
fn sha1_helper_known_values() {
    assert_eq!(sha1_hex(b""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    assert_eq!(sha1_hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
    assert_eq!(
        sha1_hex(&[b'a'; 1000]),
        "291e9a6c66994949b57ba5e650361e98fc36b1ba"
    );
}

// ---------------------------------------------------------------------------------------------------------------
// SARC

/// name -> (size, sha1) as the oracle sees the archive; also asserts the oracle's own consistency flags.
fn oracle_sarc_files(doc: &Value) -> BTreeMap<String, (u64, String)> {
    assert_eq!(doc["format"], "sarc", "{doc}");
    assert_eq!(
        doc["lookup_by_name_ok"], true,
        "oead cannot find every file by name: {doc}"
    );
    assert_eq!(
        doc["sarcpkg_agrees"], true,
        "the sarc package disagrees with oead: {doc}"
    );
    let files = doc["files"].as_array().unwrap();
    assert_eq!(doc["num_files"].as_u64().unwrap() as usize, files.len());
    let mut m = BTreeMap::new();
    for f in files {
        let name = f["name"].as_str().unwrap().to_string();
        let prev = m.insert(
            name.clone(),
            (
                f["size"].as_u64().unwrap(),
                f["sha1"].as_str().unwrap().to_string(),
            ),
        );
        assert!(prev.is_none(), "oracle lists {name:?} twice: {doc}");
    }
    m
}

fn model_files(s: &Sarc) -> BTreeMap<String, (u64, String)> {
    s.sfat
        .entries
        .iter()
        .map(|e| {
            (
                e.name
                    .as_deref()
                    .expect("fixture entries are named")
                    .to_string(),
                (e.data.len() as u64, sha1_hex(&e.data)),
            )
        })
        .collect()
}

fn sarc_edit_case(rel: &str, expect_endian: &str) {
    let py = oracle_or_skip!();
    let path = fixture(rel);
    let bytes = std::fs::read(&path).unwrap();
    let orig_doc = oracle_read_file(py, &path);
    let orig = oracle_sarc_files(&orig_doc);
    let mut s = Sarc::from_binary(&bytes).unwrap();
    // Our reader and the oracle agree on the untouched archive (also checks the sha1 helper).
    assert_eq!(
        model_files(&s),
        orig,
        "{rel}: model and oracle disagree before any edit"
    );
    assert!(
        s.sfat.entries.len() >= 4,
        "{rel}: fixture too small for this test"
    );

    // Add.
    let new_data: Vec<u8> = (0..333u32).map(|i| (i * 7 + 3) as u8).collect();
    s.sfat.entries.push(SfatEntry {
        name: Some("Added/new.bin".into()),
        data: new_data.clone().into(),
        // A collision count the writer keeps while it derives the name's offset next to it.
        collision_count: 2,
        ..Default::default()
    });
    // Remove (the second entry, in SFAT order).
    let removed = s.sfat.entries.remove(1).name.unwrap();
    // Rename (the entry now first); its overrides must be None so hash and attrs are re-derived.
    let renamed_from;
    {
        let e = &mut s.sfat.entries[0];
        assert_eq!(
            e.name_hash, None,
            "{rel}: entry 0 carries a name_hash override"
        );
        assert_eq!(
            e.name_attrs, None,
            "{rel}: entry 0 carries a name_attrs override"
        );
        renamed_from = e.name.replace("Renamed/zz_renamed.dat".into()).unwrap();
    }

    let mut expected = orig.clone();
    expected.remove(&removed[..]).unwrap();
    let v = expected.remove(&renamed_from[..]).unwrap();
    expected.insert("Renamed/zz_renamed.dat".into(), v);
    expected.insert(
        "Added/new.bin".into(),
        (new_data.len() as u64, sha1_hex(&new_data)),
    );

    let out = s.to_binary().unwrap();
    let doc = oracle_read_bytes(py, &out, ".sarc");
    assert_eq!(
        doc["endian"], expect_endian,
        "{rel}: byte order changed: {doc}"
    );
    let got = oracle_sarc_files(&doc);
    assert_eq!(
        got, expected,
        "{rel}: oracle sees different files after add/remove/rename"
    );

    // Our own reader reads our output back to the same model contents.
    let back = Sarc::from_binary(&out).unwrap();
    assert_eq!(
        model_files(&back),
        expected,
        "{rel}: our reader disagrees with our writer"
    );
    // The added entry's `name_attrs` holds the collision count in its top byte (read here from the bytes, in the
    // archive's byte order) and the name's offset below it (which the oracle followed to find the name).
    let i = back
        .sfat
        .entries
        .iter()
        .position(|e| e.name.as_deref() == Some("Added/new.bin"))
        .unwrap();
    let at = 0x14 + 0xc + i * 0x10 + 4;
    let raw: [u8; 4] = out[at..at + 4].try_into().unwrap();
    let attrs = if expect_endian == "big" {
        u32::from_be_bytes(raw)
    } else {
        u32::from_le_bytes(raw)
    };
    assert_eq!(attrs >> 24, 2, "{rel}: name_attrs {attrs:#x}");
    assert_eq!(back.sfat.entries[i].collision_count, 2);
    assert_eq!(back.sfat.entries[i].name_attrs, None);
}

#[test]
fn sarc_le_add_remove_rename_read_by_oracle() {
    sarc_edit_case("sarc/oead_le_new_min4.sarc", "little");
}

#[test]
fn sarc_be_add_remove_rename_read_by_oracle() {
    sarc_edit_case("sarc/oead_be_new_min4.sarc", "big");
}

// ---------------------------------------------------------------------------------------------------------------
// Resource size tables

fn oracle_map(doc: &Value, key: &str) -> BTreeMap<String, u64> {
    doc[key]
        .as_object()
        .unwrap_or_else(|| panic!("no {key:?} in {doc}"))
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
        .collect()
}

fn crc_key(c: u32) -> String {
    format!("0x{c:08x}")
}

/// Edits a table's crc entries (and names, when `names` is given): resizes the first crc entry, appends a crc entry
/// for a new path at the end (unsorted), removes the last original crc entry, resizes one name and removes another.
fn rsizetable_edit_case(rel: &str, format: &str) {
    let py = oracle_or_skip!();
    let path = fixture(rel);
    let bytes = std::fs::read(&path).unwrap();
    let orig_doc = oracle_read_file(py, &path);
    assert_eq!(orig_doc["format"], format);
    let mut want_crc = oracle_map(&orig_doc, "crc");
    let mut want_names = oracle_map(&orig_doc, "names");

    let mut t = Rsizetable::from_binary(&bytes).unwrap();
    let (crcs, names) = match &mut t.table {
        RsizetableTable::Rstb(r) => (&mut r.crc_entries, &mut r.name_entries),
        RsizetableTable::Restbl(r) => (&mut r.crc_entries, &mut r.name_entries),
        other => panic!("{rel}: unexpected table {other:?}"),
    };
    assert!(
        crcs.len() >= 3 && names.len() >= 2,
        "{rel}: fixture too small for this test"
    );

    // Resize crc entry 0.
    crcs[0].size = crcs[0].size.wrapping_add(0x1234);
    *want_crc.get_mut(&crc_key(crcs[0].crc)).unwrap() = crcs[0].size as u64;
    // Remove the last crc entry.
    let gone = crcs.pop().unwrap();
    assert!(want_crc.remove(&crc_key(gone.crc)).is_some());
    // Add the crc of a new path; 0x00000001 sorts before everything, the new path's crc somewhere in the middle.
    let new_crc = binspec_runtime::hash::crc32(b"Actor/Pack/BinspecAdded.bactorpack");
    assert_eq!(new_crc, 0x0434_e7a4, "zlib.crc32 of the new path");
    assert!(!want_crc.contains_key(&crc_key(new_crc)));
    crcs.push(CrcEntry {
        crc: new_crc,
        size: 4242,
    });
    want_crc.insert(crc_key(new_crc), 4242);
    if let std::collections::btree_map::Entry::Vacant(e) = want_crc.entry(crc_key(1)) {
        crcs.push(CrcEntry { crc: 1, size: 77 });
        e.insert(77);
    }
    // Resize name entry 0, remove name entry 1.
    names[0].size = 31337;
    *want_names.get_mut(&names[0].name[..]).unwrap() = 31337;
    let gone = names.remove(1);
    assert!(want_names.remove(&gone.name[..]).is_some());

    let out = t.to_binary().unwrap();
    let doc = oracle_read_bytes(py, &out, ".rsizetable");
    assert_eq!(doc["format"], format, "{doc}");
    assert!(doc.get("duplicates_collapsed").is_none(), "{doc}");
    let got_crc = oracle_map(&doc, "crc");
    assert!(
        got_crc.contains_key(&crc_key(new_crc)),
        "{rel}: oracle does not see the added crc entry: {doc}"
    );
    assert_eq!(got_crc, want_crc, "{rel}: crc map after edits");
    assert_eq!(
        oracle_map(&doc, "names"),
        want_names,
        "{rel}: name map after edits"
    );
    if format == "restbl" {
        // restbl re-serialises with sorted entries: identical means we wrote them sorted too.
        assert_eq!(
            doc["restbl_roundtrip_identical"], true,
            "{rel}: our output is not what restbl writes: {doc}"
        );
    } else {
        let n_crc = want_crc.len() as u64;
        let n_names = want_names.len() as u64;
        assert_eq!(
            doc["header_counts"],
            serde_json::json!([n_crc, n_names]),
            "{doc}"
        );
    }
    // Sorted on write: the crc column of our own re-read is ascending.
    let back = Rsizetable::from_binary(&out).unwrap();
    let crcs: Vec<u32> = match &back.table {
        RsizetableTable::Rstb(r) => r.crc_entries.iter().map(|e| e.crc).collect(),
        RsizetableTable::Restbl(r) => r.crc_entries.iter().map(|e| e.crc).collect(),
        other => panic!("{other:?}"),
    };
    assert!(
        crcs.windows(2).all(|w| w[0] < w[1]),
        "{rel}: crc entries not sorted on write: {crcs:x?}"
    );
}

#[test]
fn rstb_edit_entries_read_by_oracle() {
    rsizetable_edit_case("rsizetable/rstb_le.rsizetable", "rstb");
}

#[test]
fn restbl_edit_entries_read_by_oracle() {
    rsizetable_edit_case("rsizetable/restbl_names.rsizetable", "restbl");
}

/// Headerless tables (no magic, no byte-order flag): the game binary-searches the crc column, so the byte order is
/// the one in which that column is sorted. The oracle (rstb package) picks it that way; our model must hold the same
/// crc -> size pairs.
fn headerless_case(rel: &str, want_endian: &str) {
    let py = oracle_or_skip!();
    let path = fixture(rel);
    let doc = oracle_read_file(py, &path);
    assert_eq!(doc["layout"], "headerless", "{doc}");
    assert_eq!(doc["endian"], want_endian, "{doc}");
    let want = oracle_map(&doc, "crc");
    let t = Rsizetable::from_binary(&std::fs::read(&path).unwrap()).unwrap();
    let RsizetableTable::Headerless(h) = &t.table else {
        panic!("{rel}: not read as headerless: {t:?}")
    };
    let got: BTreeMap<String, u64> = h
        .crc_entries
        .iter()
        .map(|e| (crc_key(e.crc), e.size as u64))
        .collect();
    assert_eq!(
        got, want,
        "{rel}: our model (endian {:?}) holds different crc -> size pairs than the oracle (endian {want_endian})",
        t.endian
    );
}

#[test]
fn headerless_le_matches_oracle() {
    headerless_case("rsizetable/headerless_le.rsizetable", "little");
}

#[test]
fn headerless_be_matches_oracle() {
    headerless_case("rsizetable/headerless_be.rsizetable", "big");
}

// ---------------------------------------------------------------------------------------------------------------
// YAML round trip

fn yaml_round_trip<F: Format>(data: &[u8]) -> Result<Vec<u8>, String> {
    let m = F::from_binary(data).map_err(|e| format!("from_binary: {e}"))?;
    // Tell a reader/writer bug apart from a text bug.
    match m.to_binary() {
        Ok(b) if b == data => {}
        Ok(b) => {
            let at = b
                .iter()
                .zip(data)
                .position(|(a, b)| a != b)
                .unwrap_or(b.len().min(data.len()));
            return Err(format!(
                "the plain binary round trip (no YAML) already differs at {at:#x} ({} vs {} bytes): reader/writer bug",
                b.len(),
                data.len()
            ));
        }
        Err(e) => return Err(format!("to_binary of the model as read: {e}")),
    }
    let text = m.to_text().map_err(|e| format!("to_text: {e}"))?;
    let m2 = F::from_text(&text).map_err(|e| format!("from_text: {e}"))?;
    m2.to_binary().map_err(|e| format!("to_binary: {e}"))
}

#[test]
fn yaml_round_trip_every_fixture() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (dir, is_sarc) in [("sarc", true), ("rsizetable", false)] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(fixture(dir))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        paths.sort();
        for p in paths {
            let raw = std::fs::read(&p).unwrap();
            let (data, _) = compress::decompress(&raw).unwrap();
            let r = if is_sarc {
                yaml_round_trip::<Sarc>(&data)
            } else {
                yaml_round_trip::<Rsizetable>(&data)
            };
            checked += 1;
            match r {
                Ok(out) => {
                    if let Some(d) = binspec_tests::difference(&out, &data) {
                        failures.push(format!("{}: {d}", p.display()))
                    }
                }
                Err(e) => failures.push(format!("{}: {e}", p.display())),
            }
        }
    }
    assert!(checked >= 39, "only {checked} fixtures");
    assert!(
        failures.is_empty(),
        "{} of {checked} failed the YAML round trip:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
