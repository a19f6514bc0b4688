//! BYML (issue "BYML: every documented node type, versions 1 to 10, both byte orders").
//!
//! - byte-exact round trips of the fixtures in `tests/fixtures/byml` (written by oead 1.3.0 and the byml package,
//!   see `tests/fixtures/MANIFEST.md`) and of every BYML in `../shared/corpus/{real,oracle}/byml`;
//! - the decoded trees: values checked one by one against `scripts/oracle/make_fixtures.py`, compared with what
//!   oead and the byml package read (every fixture and corpus file), and snapshots of a few (`to_text()`);
//! - edits (change a scalar, add a key, delete a subtree, change a type) read back by oead;
//! - oead's YAML read by `Document::from_text`, and our YAML read by oead;
//! - random trees (proptest) of every node type, versions 1 to 10, both byte orders, layouts;
//! - hostile input: errors name the node path (`byml.root["Actors"][12]["Params"]`) and the byte offset;
//! - `binspec check` over the fixtures and the corpus.
//!
//! Trees are compared in the typed JSON form of `scripts/oracle/read.py` (`{"!u": 5}` for a u32, floats by their
//! bits, `{"!h": {...}}` for a dictionary): a plain dictionary (0xc1) compares without regard to key order, since
//! the file sorts its pairs by key and the order a reader gives back is a layout matter; everything else, the
//! order of a dictionary with remap (0xc4) included, compares exactly. Tests that need the oracle venv
//! (`scripts/oracle/setup-venv.sh`) or the shared corpus skip with `skipped: <why>` when they cannot have it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use binspec_formats::byml::{Byml, Document, HashArray, Layout, Map, ValuePlacement};
use binspec_runtime::{Endian, Format};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use serde_json::{json, Value};

use binspec_tests::{difference, files_under, oracle_or_skip, oracle_python, repo};

// ---------------------------------------------------------------------------------------------------------------
// Helpers

fn fixtures_dir() -> PathBuf {
    repo().join("tests/fixtures/byml")
}

fn fixture(name: &str) -> PathBuf {
    fixtures_dir().join(name)
}

fn corpus() -> PathBuf {
    repo().join("../shared/corpus")
}

/// The binary fixtures (`*.byml`), sorted.
fn binary_fixtures() -> Vec<PathBuf> {
    files_under(&fixtures_dir())
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "byml"))
        .collect()
}

/// Every file under `dir` that starts like a BYML file (magic and a version of 1 to 10).
fn bymls_under(dir: &Path) -> Vec<PathBuf> {
    files_under(dir)
        .into_iter()
        .filter(|p| std::fs::read(p).is_ok_and(|d| Document::sniff(&d)))
        .collect()
}

/// The corpus folders with BYML files, or why there are none.
fn corpus_byml_dirs() -> Result<Vec<PathBuf>, String> {
    let c = corpus();
    if !c.exists() {
        return Err(format!("{} is not present", c.display()));
    }
    let dirs: Vec<PathBuf> = ["real/byml", "oracle/byml"]
        .iter()
        .map(|s| c.join(s))
        .filter(|d| d.is_dir())
        .collect();
    if dirs.is_empty() {
        return Err(format!("{} has no real/byml or oracle/byml", c.display()));
    }
    Ok(dirs)
}

fn name_of(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

fn endian_name(e: Endian) -> &'static str {
    match e {
        Endian::Little => "little",
        Endian::Big => "big",
    }
}

/// `(version, endian)` from a file's header.
fn header_of(data: &[u8]) -> (u16, Endian) {
    if &data[..2] == b"BY" {
        (u16::from_be_bytes([data[2], data[3]]), Endian::Big)
    } else {
        (u16::from_le_bytes([data[2], data[3]]), Endian::Little)
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The typed JSON form of `scripts/oracle/read.py` (see its docstring). Node types that oead and the byml package
/// cannot read get tags of their own, so that they never compare equal to anything those readers give.
fn tree_json(v: &Byml) -> Value {
    match v {
        Byml::Null => Value::Null,
        Byml::Bool(b) => json!(b),
        Byml::I32(x) => json!({ "!i": x }),
        Byml::U32(x) => json!({ "!u": x }),
        Byml::I64(x) => json!({ "!l": x }),
        Byml::U64(x) => json!({ "!ul": x }),
        Byml::F32(x) => json!({ "!f": format!("{:08x}", x.to_bits()) }),
        Byml::F64(x) => json!({ "!d": format!("{:016x}", x.to_bits()) }),
        Byml::String(s) => json!(s),
        Byml::Binary(b) => json!({ "!bin": hex(b) }),
        Byml::AlignedBinary(b, a) => json!({ "!abin": [hex(b), a] }),
        Byml::Array(a) => Value::Array(a.iter().map(tree_json).collect()),
        Byml::MonoArray(a) => json!({ "!mono": a.iter().map(tree_json).collect::<Vec<_>>() }),
        Byml::Map(m) => {
            let o: serde_json::Map<String, Value> = m
                .iter()
                .map(|(k, v)| (k.to_string(), tree_json(v)))
                .collect();
            json!({ "!h": o })
        }
        // in order: a dictionary with remap keeps its order of insertion
        Byml::RemapMap(m) => json!({
            "!rh": m.iter().map(|(k, v)| json!([k, tree_json(v)])).collect::<Vec<_>>()
        }),
        Byml::HashArray(h) => json!({
            "!hash": {
                "width": h.width,
                "remap": h.remap,
                "entries": h.entries.iter().map(|(k, v)| json!([k, tree_json(v)])).collect::<Vec<_>>(),
            }
        }),
    }
}

/// Whether two trees are the same (plain dictionaries compared without regard to key order).
fn same_tree(a: &Byml, b: &Byml) -> bool {
    tree_json(a) == tree_json(b)
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 1500 {
        format!(
            "{}...",
            &s[..s
                .char_indices()
                .take_while(|(i, _)| *i < 1500)
                .last()
                .unwrap()
                .0]
        )
    } else {
        s
    }
}

/// The first place where two typed trees differ, as a path and the two values.
fn first_json_difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    if a == b {
        return None;
    }
    match (a, b) {
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| first_json_difference(p, q, &format!("{path}[{i}]"))),
        (Value::Object(x), Value::Object(y)) if x.len() == 1 && y.len() == 1 => {
            let (kx, vx) = x.iter().next().unwrap();
            let (ky, vy) = y.iter().next().unwrap();
            if kx == "!h" && ky == "!h" {
                let (mx, my) = (vx.as_object().unwrap(), vy.as_object().unwrap());
                for k in mx.keys().chain(my.keys()) {
                    match (mx.get(k), my.get(k)) {
                        (Some(p), Some(q)) => {
                            if let Some(d) = first_json_difference(p, q, &format!("{path}[{k:?}]"))
                            {
                                return Some(d);
                            }
                        }
                        (p, q) => {
                            return Some(format!(
                                "{path}[{k:?}]: {} vs {}",
                                p.map(short).unwrap_or("(missing)".into()),
                                q.map(short).unwrap_or("(missing)".into())
                            ))
                        }
                    }
                }
                None
            } else {
                Some(format!("{path}: {} vs {}", short(a), short(b)))
            }
        }
        _ => Some(format!("{path}: {} vs {}", short(a), short(b))),
    }
}

fn describe_difference(ours: &Value, theirs: &Value) -> String {
    first_json_difference(ours, theirs, "root").unwrap_or_else(|| "(no difference)".into())
}

/// Replaces every NaN by the canonical quiet NaN: the YAML dialect (`.nan`) and the Python oracles (which read
/// floats through Python floats) cannot carry NaN payloads, signs or signalling bits.
fn canonical_nans(v: &mut Byml) {
    match v {
        Byml::F32(x) if x.is_nan() => *x = f32::NAN,
        Byml::F64(x) if x.is_nan() => *x = f64::NAN,
        Byml::Array(a) | Byml::MonoArray(a) => a.iter_mut().for_each(canonical_nans),
        Byml::Map(m) | Byml::RemapMap(m) => m.values_mut().for_each(canonical_nans),
        Byml::HashArray(h) => h.entries.iter_mut().for_each(|(_, v)| canonical_nans(v)),
        _ => {}
    }
}

/// Runs `f`; a panic becomes an `Err` with the panic message.
fn no_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

// ---------------------------------------------------------------------------------------------------------------
// The oracle (scripts/oracle/read.py with oead and the byml package)

/// Reads every file with `read.py --keep-going` in one run; one JSON document per file, in order (`{"error": ...}`
/// for a file that the oracle rejects). If read.py itself dies (oead can crash on a bad file), the files are read
/// one by one and the one that kills it gets `{"error": "read.py died ..."}`.
fn oracle_read(py: &Path, files: &[PathBuf]) -> Vec<Value> {
    assert!(!files.is_empty());
    let run = |chunk: &[PathBuf]| -> Result<Value, String> {
        let out = Command::new(py)
            .arg(repo().join("scripts/oracle/read.py"))
            .arg("--keep-going")
            .args(chunk)
            .output()
            .unwrap();
        if !out.status.success() {
            return Err(format!(
                "read.py died ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(serde_json::from_slice(&out.stdout).unwrap())
    };
    let mut all = Vec::new();
    // a few hundred paths per run, well under any command-line limit
    for chunk in files.chunks(400) {
        match run(chunk) {
            Ok(v) if chunk.len() == 1 => all.push(v),
            Ok(v) => all.extend(v.as_array().unwrap().iter().cloned()),
            Err(_) => {
                for f in chunk {
                    all.push(
                        run(std::slice::from_ref(f)).unwrap_or_else(|e| json!({ "error": e })),
                    );
                }
            }
        }
    }
    all
}

/// Checks one oracle document against the tree, version and byte order we expect; `Err(what differs)`.
fn check_oracle_doc(got: &Value, version: u16, endian: Endian, root: &Byml) -> Result<(), String> {
    if let Some(e) = got.get("error") {
        return Err(format!("the oracle rejects it: {e}"));
    }
    let mut problems = Vec::new();
    if got["format"] != "byml" {
        problems.push(format!("format {}", got["format"]));
    }
    if got["version"] != json!(version) {
        problems.push(format!("version {} (want {version})", got["version"]));
    }
    if got["endian"] != endian_name(endian) {
        problems.push(format!(
            "endian {} (want {})",
            got["endian"],
            endian_name(endian)
        ));
    }
    let want = tree_json(root);
    if got["root"] != want {
        problems.push(format!(
            "{} reads another tree: first difference (ours vs theirs) at {}",
            got["reader"],
            describe_difference(&want, &got["root"])
        ));
    }
    // the second reader, where both read the file
    if got["bymlpkg_agrees"] == json!(false) {
        problems.push("oead and the byml package read different trees".into());
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Byte-exact round trips

/// `from_binary` then `to_binary`: the same bytes; also the header fields, and a second read of the output.
fn round_trip(p: &Path) -> Result<(), String> {
    let data = std::fs::read(p).map_err(|e| e.to_string())?;
    let doc = no_panic(|| Document::from_binary(&data))
        .map_err(|m| format!("from_binary panicked: {m}"))?
        .map_err(|e| format!("from_binary: {e}"))?;
    let (version, endian) = header_of(&data);
    if (doc.version, doc.endian) != (version, endian) {
        return Err(format!(
            "read version {} {:?}, the header says {version} {endian:?}",
            doc.version, doc.endian
        ));
    }
    let out = no_panic(|| doc.to_binary())
        .map_err(|m| format!("to_binary panicked: {m}"))?
        .map_err(|e| format!("to_binary: {e}"))?;
    if let Some(d) = difference(&out, &data) {
        return Err(format!("written back with other bytes: {d}"));
    }
    Ok(())
}

fn round_trip_all(files: &[PathBuf]) -> Vec<String> {
    files
        .iter()
        .filter_map(|p| round_trip(p).err().map(|e| format!("{}: {e}", p.display())))
        .collect()
}

#[test]
fn fixtures_round_trip_byte_for_byte() {
    let files = binary_fixtures();
    assert_eq!(
        files.len(),
        44,
        "tests/fixtures/byml should hold 44 .byml files (see MANIFEST.md)"
    );
    let failures = round_trip_all(&files);
    assert!(
        failures.is_empty(),
        "{} of {} fixtures failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_round_trips_byte_for_byte() {
    let dirs = match corpus_byml_dirs() {
        Ok(d) => d,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let mut files = Vec::new();
    for d in &dirs {
        files.extend(bymls_under(d));
    }
    assert!(
        files.len() >= 40,
        "only {} BYML files under {dirs:?}",
        files.len()
    );
    let failures = round_trip_all(&files);
    assert!(
        failures.is_empty(),
        "{} of {} corpus BYML files failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    eprintln!(
        "{} corpus BYML files round-tripped byte for byte",
        files.len()
    );
}

// ---------------------------------------------------------------------------------------------------------------
// 2. The decoded trees

fn read_fixture(name: &str) -> Document {
    let data = std::fs::read(fixture(name)).unwrap();
    Document::from_binary(&data).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The values that `make_fixtures.py` put in `BYML_TYPES`, read through the API, for every writer, version and
/// byte order.
#[test]
fn fixture_values_are_what_the_script_wrote() {
    let mut names: Vec<String> = (1..=4)
        .flat_map(|v| ["le", "be"].map(|e| format!("oead_types_v{v}_{e}.byml")))
        .collect();
    names.extend(["v3_be", "v5_le", "v6_be", "v7_le"].map(|s| format!("bymlpkg_types_{s}.byml")));
    for name in &names {
        let doc = read_fixture(name);
        let r = &doc.root;
        let ctx = name.as_str();
        assert_eq!(r.len(), 16, "{ctx}: root keys");
        assert_eq!(r["bool"][0].as_bool(), Some(false), "{ctx}");
        assert_eq!(r["bool"][1].as_bool(), Some(true), "{ctx}");
        let s32: Vec<_> = r["s32"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i32())
            .collect();
        assert_eq!(s32, [0, -1, i32::MIN, i32::MAX].map(Some), "{ctx}");
        let u32s: Vec<_> = r["u32"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u32())
            .collect();
        assert_eq!(u32s, [0, 0x8000_0000, u32::MAX].map(Some), "{ctx}");
        let f32s: Vec<u32> = r["f32"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                v.as_f32()
                    .unwrap_or_else(|| panic!("{ctx}: {v:?} is not an f32"))
                    .to_bits()
            })
            .collect();
        assert_eq!(
            f32s,
            [
                0.0f32.to_bits(),
                (-0.0f32).to_bits(),
                1.5f32.to_bits(),
                0.1f32.to_bits(),
                f32::MAX.to_bits(),
                1,
                f32::INFINITY.to_bits(),
                f32::NEG_INFINITY.to_bits(),
                0x7fc0_0000
            ],
            "{ctx}: f32 bits"
        );
        let s64: Vec<_> = r["s64"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64())
            .collect();
        assert_eq!(s64, [5, i64::MIN, i64::MAX].map(Some), "{ctx}");
        let u64s: Vec<_> = r["u64"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64())
            .collect();
        assert_eq!(u64s, [0, u64::MAX].map(Some), "{ctx}");
        let f64s: Vec<u64> = r["f64"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                v.as_f64()
                    .unwrap_or_else(|| panic!("{ctx}: {v:?} is not an f64"))
                    .to_bits()
            })
            .collect();
        assert_eq!(
            f64s,
            [
                (-2.5f64).to_bits(),
                0.1f64.to_bits(),
                1,
                f64::NEG_INFINITY.to_bits(),
                0x7ff8_0000_0000_0000
            ],
            "{ctx}: f64 bits"
        );
        assert!(r["null"].is_null() && r.get("null").is_some(), "{ctx}");
        let strs: Vec<_> = r["str"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(
            strs,
            [
                "",
                "plain",
                "Ünïcödé",
                "日本語",
                "🍄",
                "a: b # c",
                "l1\nl2",
                "123",
                "true",
                "null",
                "~",
                " x"
            ],
            "{ctx}"
        );
        let bins: Vec<_> = r["bin"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_binary().unwrap())
            .collect();
        assert_eq!(
            bins,
            [&b""[..], &b"\x00\x01\x02\xff"[..], &b"12345678"[..]],
            "{ctx}"
        );
        assert!(
            matches!(r["bin"][0], Byml::Binary(_)),
            "{ctx}: plain binary (0xa1)"
        );
        let m = &r["map"];
        assert_eq!(m.len(), 10, "{ctx}");
        assert_eq!(m["s32"], Byml::I32(-7), "{ctx}");
        assert_eq!(m["u32"], Byml::U32(7), "{ctx}");
        assert_eq!(m["f32"], Byml::F32(2.5), "{ctx}");
        assert_eq!(m["bool"], Byml::Bool(true), "{ctx}");
        assert!(m["null"].is_null() && m.get("null").is_some(), "{ctx}");
        assert_eq!(m["str"], Byml::String("plain".into()), "{ctx}");
        assert_eq!(m["s64"], Byml::I64(-5), "{ctx}: a small s64 stays an s64");
        assert_eq!(m["u64"], Byml::U64(5), "{ctx}: a small u64 stays a u64");
        assert_eq!(m["f64"], Byml::F64(2.5), "{ctx}");
        assert_eq!(m["bin"].as_binary(), Some(&b"four"[..]), "{ctx}");
        assert_eq!(r["nested"]["a"]["b"][0][0], Byml::I32(1), "{ctx}");
        assert!(
            matches!(&r["nested"]["a"]["b"][1], Byml::Array(a) if a.is_empty()),
            "{ctx}"
        );
        assert_eq!(
            r["nested"]["a"]["b"][2]["c"].as_str(),
            Some("deep"),
            "{ctx}"
        );
        assert!(
            matches!(&r["empty_map"], Byml::Map(m) if m.is_empty()),
            "{ctx}"
        );
        assert!(
            matches!(&r["empty_array"], Byml::Array(a) if a.is_empty()),
            "{ctx}"
        );
        assert_eq!(r["zodd"].as_binary(), Some(&b"odd"[..]), "{ctx}");
        assert_eq!(r["日本語"].as_str(), Some("non-ASCII key"), "{ctx}");
    }

    for (name, version, endian) in [
        ("oead_rootarray_v1_be.byml", 1, Endian::Big),
        ("bymlpkg_rootarray_v5_be.byml", 5, Endian::Big),
    ] {
        let doc = read_fixture(name);
        assert_eq!((doc.version, doc.endian), (version, endian), "{name}");
        let a = doc
            .root
            .as_array()
            .unwrap_or_else(|| panic!("{name}: root is not an array"));
        assert_eq!(a.len(), 9, "{name}");
        assert_eq!(a[0], Byml::I32(1));
        assert_eq!(a[1].as_str(), Some("two"));
        assert_eq!(a[2][0], Byml::U32(3));
        assert_eq!(a[3]["k"], Byml::F32(4.0));
        assert!(a[4].is_null());
        assert_eq!(a[5], Byml::Bool(true));
        assert_eq!(a[6], Byml::I64(-1));
        assert!(matches!(&a[7], Byml::Array(x) if x.is_empty()));
        assert_eq!(a[8].as_binary(), Some(&b"xy"[..]));
    }

    for e in ["le", "be"] {
        for v in 1..=4 {
            let m = read_fixture(&format!("oead_emptymap_v{v}_{e}.byml"));
            assert!(
                matches!(&m.root, Byml::Map(x) if x.is_empty()),
                "emptymap v{v} {e}"
            );
            let a = read_fixture(&format!("oead_emptyarray_v{v}_{e}.byml"));
            assert!(
                matches!(&a.root, Byml::Array(x) if x.is_empty()),
                "emptyarray v{v} {e}"
            );
        }
    }

    let s = read_fixture("oead_shared_v4_be.byml");
    assert!(same_tree(&s.root["A"], &s.root["B"]));
    assert_eq!(s.root["C"].len(), 3);
    assert_eq!(
        s.root["J"][0],
        Byml::I32(1),
        "[s32 1] must not be read as the [u32 1] next to it"
    );
    assert_eq!(
        s.root["K"][0],
        Byml::U32(1),
        "[u32 1] must not be read as the [s32 1] next to it"
    );
    assert_eq!(s.root["D"], Byml::U64(1 << 40));
    assert_eq!(s.root["E"], Byml::U64(1 << 40));
    assert_eq!(s.root["I"][1].as_str(), Some("rep"));
}

/// Every fixture and every corpus BYML decodes to the tree that oead (versions 1-4) or the byml package (5-7)
/// reads, with the same version and byte order; oead and the byml package agree where both read the file.
#[test]
fn decoded_trees_match_oead_and_the_byml_package() {
    let py = oracle_or_skip!();
    let mut files = binary_fixtures();
    match corpus_byml_dirs() {
        Ok(dirs) => dirs.iter().for_each(|d| files.extend(bymls_under(d))),
        Err(why) => eprintln!("corpus part skipped: {why}"),
    }
    let docs: Vec<Result<Document, String>> = files
        .iter()
        .map(|p| Document::from_binary(&std::fs::read(p).unwrap()).map_err(|e| e.to_string()))
        .collect();
    let theirs = oracle_read(py, &files);
    let mut failures = Vec::new();
    for ((p, doc), t) in files.iter().zip(&docs).zip(&theirs) {
        match doc {
            Err(e) => failures.push(format!("{}: from_binary: {e}", p.display())),
            Ok(doc) => {
                if let Err(e) = check_oracle_doc(t, doc.version, doc.endian, &doc.root) {
                    failures.push(format!("{}: {e}", p.display()));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} files decode differently from the oracle:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    eprintln!(
        "{} files decode as oead / the byml package read them",
        files.len()
    );
}

/// New documents that oead writes: random trees from `scripts/oracle/random_byml.py` (oead, versions 2-4, both
/// byte orders; dictionaries, arrays, every scalar type, shared subtrees). Each decodes to the tree oead reads and
/// is written back byte for byte. `BINSPEC_RANDOM_BYML=COUNT` makes more of them (the seed is fixed).
#[test]
fn random_documents_that_oead_writes_are_written_back_byte_for_byte() {
    let py = oracle_or_skip!();
    let count: usize = std::env::var("BINSPEC_RANDOM_BYML")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(py)
        .arg(repo().join("scripts/oracle/random_byml.py"))
        .args(["--seed", "1", "--count", &count.to_string(), "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "random_byml.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files = bymls_under(dir.path());
    assert_eq!(
        files.len(),
        count * 6,
        "three versions, two byte orders each"
    );
    let mut failures = round_trip_all(&files);
    let theirs = oracle_read(py, &files);
    for (p, t) in files.iter().zip(&theirs) {
        if let Ok(doc) = Document::from_binary(&std::fs::read(p).unwrap()) {
            if let Err(e) = check_oracle_doc(t, doc.version, doc.endian, &doc.root) {
                failures.push(format!("{}: {e}", name_of(p)));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} oead documents:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    eprintln!(
        "{} random documents written by oead decode as oead reads them and are written back byte for byte",
        files.len()
    );
}

/// Snapshots of the decoded trees of one fixture per writer and version family. Each was reviewed against
/// `BYML_TYPES` etc. in `scripts/oracle/make_fixtures.py` before it was accepted.
#[test]
fn decoded_snapshots() {
    for name in [
        "oead_types_v2_le.byml",
        "oead_shared_v4_be.byml",
        "oead_rootarray_v1_be.byml",
        "bymlpkg_types_v7_le.byml",
        "bymlpkg_rootarray_v5_be.byml",
    ] {
        let doc = read_fixture(name);
        let text = doc
            .to_text()
            .unwrap_or_else(|e| panic!("{name}: to_text: {e}"));
        insta::assert_snapshot!(format!("decoded_{}", name.replace('.', "_")), text);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Edits read back by oead

const EDITS: [&str; 5] = ["scalar", "add_key", "delete", "retype", "all"];

/// Applies one edit to a `BYML_TYPES` document.
fn apply_edit(doc: &mut Document, edit: &str) {
    let r = &mut doc.root;
    match edit {
        "scalar" => {
            r["map"]["s32"] = Byml::I32(123_456);
            r["s32"][1] = Byml::I32(-42);
            r["f32"][2] = Byml::F32(-0.25);
            r["str"][1] = Byml::String("changed".into());
        }
        "add_key" => {
            // sorts first: every key index moves; new strings, a new out-of-line value, a new binary
            let mut added = Map::default();
            added.insert("new", Byml::String("a brand new string".into()));
            added.insert("u64", Byml::U64(1 << 40));
            added.insert(
                "list",
                Byml::Array(vec![Byml::F32(0.5), Byml::Binary(vec![1, 2, 3, 4])]),
            );
            r["aaa_added"] = Byml::Map(added);
            r["nested"]["a"]["zz"] = Byml::String("plain".into()); // an existing string
        }
        "delete" => {
            let m = r.as_map_mut().unwrap();
            m.shift_remove("nested"); // a subtree of three levels
            m.shift_remove("bin");
            r["str"].as_array_mut().unwrap().remove(2); // "Ünïcödé": no longer in the string table
        }
        "retype" => {
            r["map"]["s32"] = Byml::U64(0xFFFF_FFFF_FFFF_FFF9); // s32 (inline) -> u64 (out of line)
            r["u64"][0] = Byml::I32(7); // u64 -> s32
            r["map"]["str"] = Byml::F64(1.25); // string -> f64
            r["empty_array"] = Byml::Map(Map::default()); // array -> dictionary
        }
        "all" => {
            for e in ["scalar", "add_key", "delete", "retype"] {
                apply_edit(doc, e);
            }
        }
        _ => unreachable!(),
    }
}

/// Edits of oead's version 2-4 files (both byte orders) and of the byml package's version 7 file, written with
/// `to_binary`, read by oead (and the byml package).
#[test]
fn edits_are_read_back_by_oead() {
    let py = oracle_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let mut bases: Vec<String> = (2..=4)
        .flat_map(|v| ["le", "be"].map(|e| format!("oead_types_v{v}_{e}.byml")))
        .collect();
    bases.push("bymlpkg_types_v7_le.byml".into());
    let mut cases = Vec::new(); // (label, expected document, written file)
    let mut failures = Vec::new();
    for base in &bases {
        let original = read_fixture(base);
        for edit in EDITS {
            let mut doc = original.clone();
            apply_edit(&mut doc, edit);
            let label = format!("{base} + {edit}");
            let bytes = doc
                .to_binary()
                .unwrap_or_else(|e| panic!("{label}: to_binary: {e}"));
            assert_eq!(
                header_of(&bytes),
                (doc.version, doc.endian),
                "{label}: header"
            );
            // our own reader reads it back, and writes it again byte for byte
            let back = Document::from_binary(&bytes)
                .unwrap_or_else(|e| panic!("{label}: from_binary: {e}"));
            if !same_tree(&back.root, &doc.root) {
                failures.push(format!(
                    "{label}: read back differently: {}",
                    describe_difference(&tree_json(&doc.root), &tree_json(&back.root))
                ));
            }
            let again = back.to_binary().unwrap();
            if again != bytes {
                failures.push(format!(
                    "{label}: what was read is written again with other bytes: {:?}",
                    difference(&again, &bytes)
                ));
            }
            let p = dir
                .path()
                .join(format!("{}_{edit}.byml", base.trim_end_matches(".byml")));
            std::fs::write(&p, &bytes).unwrap();
            cases.push((label, doc, p));
        }
    }
    // the edits did what they say (so that the oracle checks real changes)
    let (_, d, _) = &cases[4]; // oead_types_v2_le + all
    assert_eq!(d.root["map"]["s32"], Byml::U64(0xFFFF_FFFF_FFFF_FFF9));
    assert!(d.root.get("nested").is_none() && d.root.get("aaa_added").is_some());

    let files: Vec<PathBuf> = cases.iter().map(|c| c.2.clone()).collect();
    let theirs = oracle_read(py, &files);
    for ((label, doc, _), t) in cases.iter().zip(&theirs) {
        if let Err(e) = check_oracle_doc(t, doc.version, doc.endian, &doc.root) {
            failures.push(format!("{label}: {e}"));
        }
    }
    if !failures.is_empty() {
        let keep = dir.keep();
        panic!(
            "{} problems with {} edited files (kept in {}):\n{}",
            failures.len(),
            cases.len(),
            keep.display(),
            failures.join("\n")
        );
    }
}

/// Small documents whose files must read back as written and be written again byte for byte (minimal cases found
/// by `prop_binary_round_trip` and `oracle_reads_random_trees`), and be read by oead as we read them.
#[test]
fn own_output_reads_back_and_is_written_again_byte_for_byte() {
    let map = |kv: Vec<(&str, Byml)>| Byml::Map(kv.into_iter().collect());
    let inline = Some(Layout {
        share: false,
        values: ValuePlacement::Inline,
    });
    // (what, root, versions, layout)
    let cases = [
        // an out-of-line value placed before a container whose key sorts first
        (
            "f64 then array",
            map(vec![("b", Byml::F64(1.0)), ("a", Byml::Array(vec![]))]),
            &[2u16, 7][..],
            None,
        ),
        (
            "binary then dictionary",
            map(vec![
                ("b", Byml::Binary(vec![1, 2, 3, 4])),
                ("a", map(vec![])),
            ]),
            &[2, 7][..],
            None,
        ),
        (
            "two s64 in a dictionary in a dictionary",
            map(vec![(
                "",
                map(vec![("a", Byml::I64(0)), ("A", Byml::I64(-1))]),
            )]),
            &[1, 2, 7][..],
            None,
        ),
        // an odd-sized binary value followed by an array: its values must be where other readers look for them
        (
            "odd binary then array",
            map(vec![
                ("a", Byml::Binary(vec![1, 2, 3])),
                ("b", Byml::Array(vec![Byml::I32(7), Byml::Bool(true)])),
            ]),
            &[2, 7][..],
            None,
        ),
        (
            "odd binary in an array then an array",
            Byml::Array(vec![
                Byml::Binary(vec![9]),
                Byml::Array(vec![Byml::U32(1), Byml::U32(2)]),
            ]),
            &[2, 7][..],
            None,
        ),
        // the same before a mono-typed array, empty or not (version 7, values among the containers)
        (
            "odd binary then mono-typed array",
            Byml::Array(vec![
                Byml::Binary(vec![0]),
                Byml::MonoArray(vec![Byml::I32(0)]),
            ]),
            &[7][..],
            inline,
        ),
        (
            "odd binary then empty mono-typed array",
            Byml::Array(vec![Byml::Binary(vec![0]), Byml::MonoArray(vec![])]),
            &[7][..],
            inline,
        ),
    ];
    let py = oracle_python().ok();
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut files = Vec::new();
    for (what, root, versions, layout) in &cases {
        for &version in *versions {
            for endian in [Endian::Little, Endian::Big] {
                let doc = Document {
                    version,
                    endian,
                    root: root.clone(),
                    layout: *layout,
                };
                let label = format!("{what}, v{version} {endian:?}");
                let bytes = doc.to_binary().unwrap_or_else(|e| panic!("{label}: {e}"));
                let back = match Document::from_binary(&bytes) {
                    Ok(b) => b,
                    Err(e) => {
                        failures.push(format!(
                            "{label}: from_binary of our own output: {e}\n  file: {}",
                            hex(&bytes)
                        ));
                        continue;
                    }
                };
                if !same_tree(&back.root, &doc.root) {
                    failures.push(format!(
                        "{label}: read back another tree: {}",
                        describe_difference(&tree_json(&doc.root), &tree_json(&back.root))
                    ));
                }
                let again = back.to_binary().unwrap();
                if again != bytes {
                    failures.push(format!(
                        "{label}: written again with other bytes ({:?}); read back as {:?}\n  first:  {}\n  again:  {}",
                        difference(&again, &bytes),
                        back.root,
                        hex(&bytes),
                        hex(&again)
                    ));
                }
                if oracle_can_read(&doc.root) {
                    let p = dir.path().join(format!(
                        "{}_v{version}_{endian:?}.byml",
                        what.replace(' ', "_")
                    ));
                    std::fs::write(&p, &bytes).unwrap();
                    files.push((label, doc, p));
                }
            }
        }
    }
    if let Some(py) = py {
        let theirs = oracle_read(py, &files.iter().map(|f| f.2.clone()).collect::<Vec<_>>());
        for ((label, doc, p), t) in files.iter().zip(&theirs) {
            if let Err(e) = check_oracle_doc(t, doc.version, doc.endian, &doc.root) {
                let bytes = std::fs::read(p).unwrap();
                failures.push(format!("{label}: {e}\n  file: {}", hex(&bytes)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A document without a root (root offset 0); a scalar root, which only version 10 allows, in versions 1-9.
#[test]
fn missing_root_and_scalar_roots_before_version_10() {
    for endian in [Endian::Little, Endian::Big] {
        let doc = Document {
            version: 2,
            endian,
            root: Byml::Null,
            layout: None,
        };
        let bytes = no_panic(|| doc.to_binary())
            .unwrap_or_else(|m| panic!("to_binary of a document without a root panicked: {m}"))
            .expect("a version 2 document without a root");
        let root_ofs = &bytes[12..16];
        assert_eq!(root_ofs, &[0, 0, 0, 0], "no root: root offset 0");
        let back = Document::from_binary(&bytes).unwrap();
        assert!(back.root.is_null());
        if let Ok(py) = oracle_python() {
            let dir = tempfile::tempdir().unwrap();
            let p = dir.path().join("noroot.byml");
            std::fs::write(&p, &bytes).unwrap();
            let t = &oracle_read(py, &[p])[0];
            assert_eq!(t["root"], Value::Null, "oead reads no root as None: {t}");
        }
    }
    for version in 1..=9u16 {
        let doc = Document {
            version,
            endian: Endian::Little,
            root: Byml::I32(5),
            layout: None,
        };
        assert!(
            doc.to_binary().is_err(),
            "version {version} cannot have a scalar root"
        );
    }
}

/// Version 10 allows any root: inline scalars, strings, out-of-line values.
#[test]
fn version_10_scalar_roots() {
    let mut failures = Vec::new();
    for root in [
        Byml::Bool(false),
        Byml::I32(5),
        Byml::U32(6),
        Byml::F32(1.5),
        Byml::String("root".into()),
        Byml::U64(7),
        Byml::F64(-0.5),
        Byml::Binary(vec![1, 2, 3]),
    ] {
        for endian in [Endian::Little, Endian::Big] {
            let doc = Document {
                version: 10,
                endian,
                root: root.clone(),
                layout: None,
            };
            let label = format!("v10 {endian:?} root {root:?}");
            let bytes = match no_panic(|| doc.to_binary()) {
                Err(m) => {
                    failures.push(format!("{label}: to_binary panicked: {m}"));
                    continue;
                }
                Ok(Err(e)) => {
                    failures.push(format!("{label}: to_binary: {e}"));
                    continue;
                }
                Ok(Ok(b)) => b,
            };
            match Document::from_binary(&bytes) {
                Err(e) => failures.push(format!("{label}: from_binary: {e}")),
                Ok(back) if back.root != root => {
                    failures.push(format!("{label}: read back {:?}", back.root))
                }
                Ok(back) => {
                    if back.to_binary().ok().as_ref() != Some(&bytes) {
                        failures.push(format!("{label}: written again with other bytes"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Mono-typed arrays, dictionaries with remap and hash arrays exist from version 7 on; earlier versions cannot
/// hold them and `to_binary` says so.
#[test]
fn version_7_node_types_are_refused_before_version_7() {
    let mut remap = Map::default();
    remap.insert("b", Byml::I32(1));
    remap.insert("a", Byml::I32(2));
    let nodes = [
        Byml::MonoArray(vec![Byml::I32(1), Byml::I32(2)]),
        Byml::RemapMap(remap),
        Byml::HashArray(HashArray {
            width: 1,
            remap: false,
            entries: vec![(vec![5], Byml::I32(1))],
        }),
    ];
    for node in &nodes {
        for version in 1..=10u16 {
            let mut root = Map::default();
            root.insert("x", node.clone());
            let doc = Document {
                version,
                endian: Endian::Big,
                root: Byml::Map(root),
                layout: None,
            };
            let r = doc.to_binary();
            if version < 7 {
                assert!(
                    r.is_err(),
                    "version {version} accepted a {}",
                    node.type_name()
                );
            } else {
                let bytes =
                    r.unwrap_or_else(|e| panic!("version {version}, {}: {e}", node.type_name()));
                let back = Document::from_binary(&bytes).unwrap();
                assert_eq!(back.root["x"], *node, "version {version}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// 4. YAML: oead's, read by from_text; ours, read by oead

/// What `byml_yaml_safe` in make_fixtures.py leaves out of the documents before oead writes their YAML.
fn oead_yaml_safe(v: &Byml) -> Byml {
    fn unsafe_(v: &Byml) -> bool {
        match v {
            Byml::String(s) => matches!(s.as_str(), "~" | "true" | "false" | "null"),
            Byml::F32(x) => !x.is_finite(),
            Byml::F64(x) => !x.is_finite(),
            _ => false,
        }
    }
    match v {
        Byml::Array(a) => Byml::Array(
            a.iter()
                .filter(|x| !unsafe_(x))
                .map(oead_yaml_safe)
                .collect(),
        ),
        Byml::Map(m) => Byml::Map(
            m.iter()
                .filter(|(_, x)| !unsafe_(x))
                .map(|(k, x)| (k.clone(), oead_yaml_safe(x)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `Document::from_text` of oead's YAML (`oead_<doc>.yml`, made by make_fixtures.py) gives the tree that
/// `from_binary` gives for oead's binary files of the same document, at the default version 2, little endian.
#[test]
fn oead_yaml_reads_as_the_binary() {
    let mut checked = 0;
    for doc_name in ["types", "shared", "rootarray", "emptymap", "emptyarray"] {
        let yml = std::fs::read_to_string(fixture(&format!("oead_{doc_name}.yml"))).unwrap();
        let from_text = Document::from_text(&yml)
            .unwrap_or_else(|e| panic!("oead_{doc_name}.yml: from_text: {e}"));
        assert_eq!(
            from_text.version, 2,
            "oead_{doc_name}.yml: a YAML file without a header is version 2"
        );
        assert_eq!(
            from_text.endian,
            Endian::Little,
            "oead_{doc_name}.yml: ... and little endian"
        );
        for p in binary_fixtures() {
            let n = name_of(&p);
            if !n.starts_with(&format!("oead_{doc_name}_v")) {
                continue;
            }
            let bin = Document::from_binary(&std::fs::read(&p).unwrap()).unwrap();
            let want = oead_yaml_safe(&bin.root);
            assert!(
                same_tree(&from_text.root, &want),
                "oead_{doc_name}.yml vs {n}: first difference (yaml vs binary) at {}",
                describe_difference(&tree_json(&from_text.root), &tree_json(&want))
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 36);
}

/// Removes strings that oead's YAML reader turns into other types even when they are quoted.
fn without_oead_yaml_bugs(v: &Byml) -> Byml {
    fn bad(v: &Byml) -> bool {
        matches!(v, Byml::String(s) if matches!(s.as_str(), "true" | "false" | "null"))
    }
    match v {
        Byml::Array(a) => Byml::Array(
            a.iter()
                .filter(|x| !bad(x))
                .map(without_oead_yaml_bugs)
                .collect(),
        ),
        Byml::Map(m) => Byml::Map(
            m.iter()
                .filter(|(_, x)| !bad(x))
                .map(|(k, x)| (k.clone(), without_oead_yaml_bugs(x)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Our `to_text` of every oead fixture, read by `oead.byml.from_text`, gives our tree (oead ignores the header
/// comment). NaN and infinities are kept: oead reads `.nan`/`.inf`.
#[test]
fn our_yaml_is_read_by_oead() {
    let py = oracle_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let mut cases = Vec::new();
    for p in binary_fixtures() {
        let n = name_of(&p);
        let mut doc = Document::from_binary(&std::fs::read(&p).unwrap()).unwrap();
        doc.root = without_oead_yaml_bugs(&doc.root);
        let text = doc
            .to_text()
            .unwrap_or_else(|e| panic!("{n}: to_text: {e}"));
        let yml = dir.path().join(n.replace(".byml", ".yml"));
        std::fs::write(&yml, text).unwrap();
        cases.push((n, doc, yml));
    }
    let theirs = oracle_read(py, &cases.iter().map(|c| c.2.clone()).collect::<Vec<_>>());
    let mut failures = Vec::new();
    for ((n, doc, yml), t) in cases.iter().zip(&theirs) {
        let want = tree_json(&doc.root);
        if let Some(e) = t.get("error") {
            failures.push(format!(
                "{n}: oead rejects our YAML ({}): {e}",
                yml.display()
            ));
        } else if t["root"] != want {
            failures.push(format!(
                "{n}: oead reads our YAML ({}) as another tree: {}",
                yml.display(),
                describe_difference(&want, &t["root"])
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `from_text(to_text(doc)) == doc` and the same through serde JSON, for every fixture as read.
#[test]
fn text_and_json_round_trips_of_fixtures() {
    let mut failures = Vec::new();
    for p in binary_fixtures() {
        let n = name_of(&p);
        let mut doc = Document::from_binary(&std::fs::read(&p).unwrap()).unwrap();
        canonical_nans(&mut doc.root);
        match doc.to_text().and_then(|t| Document::from_text(&t).map(|d| (t, d))) {
            Ok((_, back)) if back == doc => {}
            Ok((t, back)) => failures.push(format!(
                "{n}: YAML gives another document ({}; version {} {:?} layout {:?} vs {} {:?} {:?}):\n{t}",
                describe_difference(&tree_json(&doc.root), &tree_json(&back.root)),
                doc.version,
                doc.endian,
                doc.layout,
                back.version,
                back.endian,
                back.layout
            )),
            Err(e) => failures.push(format!("{n}: YAML: {e}")),
        }
        match serde_json::to_string(&doc).and_then(|j| serde_json::from_str::<Document>(&j)) {
            Ok(back) if back == doc => {}
            Ok(back) => failures.push(format!(
                "{n}: JSON gives another document: {}",
                describe_difference(&tree_json(&doc.root), &tree_json(&back.root))
            )),
            Err(e) => failures.push(format!("{n}: JSON: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------------------------------
// 5. Random trees

/// Strings that YAML and the string table find awkward.
const TRICKY: &[&str] = &[
    "",
    "~",
    "true",
    "false",
    "null",
    "Null",
    "123",
    "-1",
    "0x10",
    "1.5",
    ".nan",
    ".inf",
    "1e3",
    "a: b",
    "- x",
    "#c",
    "a #c",
    " lead",
    "trail ",
    "!u",
    "!!binary",
    "'",
    "\"",
    "\\",
    "{x}",
    "[x]",
    "*a",
    "&a",
    "? q",
    "|",
    ">",
    "%",
    "@",
    "`",
    "l1\nl2",
    "tab\there",
    "日本語",
    "Ünïcödé",
    "🍄",
];

const CHARS: &[char] = &[
    'a', 'b', 'z', 'A', 'Z', '0', '9', '_', '-', ' ', ':', '#', '\'', '"', '\\', '/', '.', ',',
    '!', '?', '{', '}', '[', ']', '&', '*', '|', '>', '%', '@', '`', '\n', '\t', 'é', 'Ü', 'ß',
    '日', '本', '語', '🍄', '\u{7f}', '\u{a0}', '\u{2028}', '\u{feff}',
];

fn arb_string() -> BoxedStrategy<String> {
    prop_oneof![
        3 => proptest::collection::vec(proptest::sample::select(CHARS), 0..10)
            .prop_map(|v| v.into_iter().collect::<String>()),
        1 => proptest::sample::select(TRICKY).prop_map(String::from),
    ]
    .boxed()
}

fn arb_f32() -> BoxedStrategy<f32> {
    prop_oneof![
        3 => any::<u32>().prop_map(f32::from_bits),
        1 => proptest::sample::select(&[0.0f32, -0.0, 1.0, 0.1, f32::MAX, f32::MIN_POSITIVE, 1e-45,
            f32::INFINITY, f32::NEG_INFINITY, f32::NAN][..]),
    ]
    .boxed()
}

fn arb_f64() -> BoxedStrategy<f64> {
    prop_oneof![
        3 => any::<u64>().prop_map(f64::from_bits),
        1 => proptest::sample::select(&[0.0f64, -0.0, 1.0, 0.1, f64::MAX, 5e-324, f64::INFINITY,
            f64::NEG_INFINITY, f64::NAN][..]),
    ]
    .boxed()
}

/// Scalars and the other values that are not containers. `v7`: also aligned binary data (0xa2).
fn arb_scalar(v7: bool) -> BoxedStrategy<Byml> {
    let mut s: Vec<BoxedStrategy<Byml>> = vec![
        Just(Byml::Null).boxed(),
        any::<bool>().prop_map(Byml::Bool).boxed(),
        any::<i32>().prop_map(Byml::I32).boxed(),
        any::<u32>().prop_map(Byml::U32).boxed(),
        arb_f32().prop_map(Byml::F32).boxed(),
        any::<i64>().prop_map(Byml::I64).boxed(),
        any::<u64>().prop_map(Byml::U64).boxed(),
        arb_f64().prop_map(Byml::F64).boxed(),
        arb_string().prop_map(Byml::from).boxed(),
        arb_string().prop_map(Byml::from).boxed(),
        proptest::collection::vec(any::<u8>(), 0..10)
            .prop_map(Byml::Binary)
            .boxed(),
    ];
    if v7 {
        s.push(
            (
                proptest::collection::vec(any::<u8>(), 0..10),
                proptest::sample::select(&[1u32, 2, 4, 8, 16, 32, 0x80, 0x100][..]),
            )
                .prop_map(|(b, a)| Byml::AlignedBinary(b, a))
                .boxed(),
        );
    }
    proptest::strategy::Union::new(s).boxed()
}

fn arb_map(inner: BoxedStrategy<Byml>) -> BoxedStrategy<Map> {
    proptest::collection::vec((arb_string(), inner), 0..6)
        .prop_map(|kv| {
            kv.into_iter()
                .map(|(k, v): (String, Byml)| (k, v))
                .collect::<Map>()
        })
        .boxed()
}

/// A mono-typed array: elements of one type.
fn arb_mono(inner: BoxedStrategy<Byml>) -> BoxedStrategy<Byml> {
    use proptest::collection::vec;
    prop_oneof![
        vec(any::<i32>().prop_map(Byml::I32), 0..6),
        vec(any::<u32>().prop_map(Byml::U32), 1..6),
        vec(arb_f32().prop_map(Byml::F32), 1..6),
        vec(any::<bool>().prop_map(Byml::Bool), 1..6),
        vec(arb_string().prop_map(Byml::from), 1..6),
        vec(any::<u64>().prop_map(Byml::U64), 1..4),
        vec(arb_f64().prop_map(Byml::F64), 1..4),
        vec(vec(inner.clone(), 0..3).prop_map(Byml::Array), 1..3),
        vec(arb_map(inner).prop_map(Byml::Map), 1..3),
    ]
    .prop_map(Byml::MonoArray)
    .boxed()
}

/// A hash array. Without remap its entries are in hash order, so they are generated sorted; for widths above 1
/// every word of a hash is the same, so that the order does not depend on how multi-word hashes compare.
fn arb_hash_array(inner: BoxedStrategy<Byml>) -> BoxedStrategy<Byml> {
    (
        1u8..=4,
        any::<bool>(),
        proptest::collection::vec((any::<u32>(), inner), 0..6),
    )
        .prop_map(|(width, remap, mut entries)| {
            entries.sort_by_key(|e| e.0);
            entries.dedup_by_key(|e| e.0);
            let mut entries: Vec<(Vec<u32>, Byml)> = entries
                .into_iter()
                .map(|(h, v)| (vec![h; width as usize], v))
                .collect();
            if remap {
                // any order of insertion: reverse, then rotate by one
                entries.reverse();
                if !entries.is_empty() {
                    entries.rotate_left(1);
                }
            }
            Byml::HashArray(HashArray {
                width,
                remap,
                entries,
            })
        })
        .boxed()
}

/// Containers of the version's node types around `arb_scalar` leaves; repeated equal children, so that sharing
/// is exercised.
fn arb_tree(v7: bool) -> BoxedStrategy<Byml> {
    arb_scalar(v7)
        .prop_recursive(4, 40, 6, move |inner| {
            let mut s: Vec<BoxedStrategy<Byml>> = vec![
                proptest::collection::vec(inner.clone(), 0..6)
                    .prop_map(Byml::Array)
                    .boxed(),
                arb_map(inner.clone()).prop_map(Byml::Map).boxed(),
                // equal siblings: a container (or out-of-line value) repeated
                (inner.clone(), 2..4usize)
                    .prop_map(|(c, n)| Byml::Array(vec![c; n]))
                    .boxed(),
                (inner.clone(), arb_string(), arb_string())
                    .prop_map(|(c, k1, k2)| {
                        let mut m = Map::default();
                        m.insert(k1, c.clone());
                        m.insert(format!("{k2}_2"), c);
                        Byml::Map(m)
                    })
                    .boxed(),
            ];
            if v7 {
                s.push(arb_mono(inner.clone()));
                s.push(arb_map(inner.clone()).prop_map(Byml::RemapMap).boxed());
                s.push(arb_hash_array(inner.clone()));
            }
            proptest::strategy::Union::new(s)
        })
        .boxed()
}

/// A root the version allows: a container (array, dictionary, and from version 7 the new kinds); any value in
/// version 10.
fn arb_root(version: u16) -> BoxedStrategy<Byml> {
    let v7 = version >= 7;
    let tree = arb_tree(v7);
    let container = tree
        .clone()
        .prop_filter("a container root", |v| v.is_container());
    let mut s: Vec<BoxedStrategy<Byml>> = vec![
        proptest::collection::vec(tree.clone(), 0..6)
            .prop_map(Byml::Array)
            .boxed(),
        arb_map(tree.clone()).prop_map(Byml::Map).boxed(),
        container.boxed(),
    ];
    if version >= 10 {
        s.push(
            arb_scalar(true)
                .prop_filter("a value", |v| !v.is_null())
                .boxed(),
        );
    }
    proptest::strategy::Union::new(s).boxed()
}

fn arb_layout() -> BoxedStrategy<Option<Layout>> {
    prop_oneof![
        2 => Just(None),
        1 => (
            any::<bool>(),
            proptest::sample::select(
                &[ValuePlacement::Inline, ValuePlacement::BeforeRoot, ValuePlacement::AfterContainers][..]
            )
        )
            .prop_map(|(share, values)| Some(Layout { share, values })),
    ]
    .boxed()
}

fn arb_document(versions: std::ops::RangeInclusive<u16>) -> BoxedStrategy<Document> {
    (versions, any::<bool>(), arb_layout())
        .prop_flat_map(|(version, big, layout)| {
            arb_root(version).prop_map(move |root| Document {
                version,
                endian: if big { Endian::Big } else { Endian::Little },
                root,
                layout,
            })
        })
        .boxed()
}

/// `cases` cases from a fixed seed (the same trees on every run, so CI does not flake; change the seed to explore),
/// no regression files.
fn prop_config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0xB7_3A11),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(prop_config(256))]

    /// `to_binary` then `from_binary` gives the tree, version and byte order back, and writing what was read gives
    /// the same bytes.
    #[test]
    fn prop_binary_round_trip(doc in arb_document(1..=10)) {
        let bytes = doc.to_binary().map_err(|e| TestCaseError::fail(format!("to_binary: {e}")))?;
        prop_assert_eq!(header_of(&bytes), (doc.version, doc.endian));
        let back = Document::from_binary(&bytes)
            .map_err(|e| TestCaseError::fail(format!("from_binary of our own output: {e}")))?;
        prop_assert_eq!((back.version, back.endian), (doc.version, doc.endian));
        prop_assert!(
            same_tree(&back.root, &doc.root),
            "read back another tree: {}",
            describe_difference(&tree_json(&doc.root), &tree_json(&back.root))
        );
        let again = back.to_binary().map_err(|e| TestCaseError::fail(format!("to_binary of what was read: {e}")))?;
        prop_assert!(again == bytes, "written again with other bytes: {:?}", difference(&again, &bytes));
    }
}

proptest! {
    #![proptest_config(prop_config(128))]

    /// `from_text(to_text(doc)) == doc` (tree, order, version, byte order, layout), and the same through serde JSON.
    #[test]
    fn prop_text_round_trip(mut doc in arb_document(1..=10)) {
        canonical_nans(&mut doc.root);
        let text = doc.to_text().map_err(|e| TestCaseError::fail(format!("to_text: {e}")))?;
        let back = Document::from_text(&text)
            .map_err(|e| TestCaseError::fail(format!("from_text of our own YAML: {e}\n{text}")))?;
        prop_assert!(back == doc, "YAML gives another document:\n{}\n{:?}\nvs\n{:?}", text, back, doc);
        let j = serde_json::to_string(&doc).map_err(|e| TestCaseError::fail(format!("to JSON: {e}")))?;
        let back: Document = serde_json::from_str(&j)
            .map_err(|e| TestCaseError::fail(format!("from JSON of our own JSON: {e}\n{j}")))?;
        prop_assert!(back == doc, "JSON gives another document:\n{}", j);
    }
}

/// Whether a tree holds only what oead 1.3.0 and the byml package read (no version 7 node types, no aligned
/// binary data) and strings that their YAML reader does not mistake for something else.
fn oracle_can_read(v: &Byml) -> bool {
    match v {
        Byml::MonoArray(_) | Byml::RemapMap(_) | Byml::HashArray(_) | Byml::AlignedBinary(..) => {
            false
        }
        Byml::String(s) => !matches!(s.as_str(), "true" | "false" | "null"),
        Byml::Array(a) => a.iter().all(oracle_can_read),
        Byml::Map(m) => m.values().all(oracle_can_read),
        _ => true,
    }
}

/// Random trees, versions 1-7, both byte orders, written by `to_binary` and `to_text`, all read by oead (versions
/// 1-4; the byml package for 5-7) in one run of read.py.
#[test]
fn oracle_reads_random_trees() {
    let py = oracle_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let mut runner = TestRunner::deterministic();
    // versions 1-6 cannot hold the version 7 node types, so version 7 trees are drawn from the 1-6 strategy
    let strategy = (arb_document(1..=6), 1u16..=7).prop_map(|(mut d, v)| {
        d.version = v;
        d
    });
    let mut cases = Vec::new();
    let mut tries = 0;
    while cases.len() < 200 {
        tries += 1;
        assert!(tries < 2000, "too few trees the oracle can read");
        let mut doc = strategy.new_tree(&mut runner).unwrap().current();
        if !oracle_can_read(&doc.root) || !doc.root.is_container() {
            continue;
        }
        canonical_nans(&mut doc.root);
        let i = cases.len();
        let bin = dir.path().join(format!("case{i:03}_v{}.byml", doc.version));
        let bytes = doc
            .to_binary()
            .unwrap_or_else(|e| panic!("case {i}: to_binary: {e}\n{doc:?}"));
        std::fs::write(&bin, bytes).unwrap();
        let yml = dir.path().join(format!("case{i:03}.yml"));
        std::fs::write(
            &yml,
            doc.to_text()
                .unwrap_or_else(|e| panic!("case {i}: to_text: {e}")),
        )
        .unwrap();
        cases.push((doc, bin, yml));
    }
    let files: Vec<PathBuf> = cases
        .iter()
        .flat_map(|c| [c.1.clone(), c.2.clone()])
        .collect();
    let theirs = oracle_read(py, &files);
    let mut failures = Vec::new();
    for (i, (doc, bin, yml)) in cases.iter().enumerate() {
        let (tb, ty) = (&theirs[2 * i], &theirs[2 * i + 1]);
        if let Err(e) = check_oracle_doc(tb, doc.version, doc.endian, &doc.root) {
            failures.push(format!(
                "{}: {e}\n  tree: {}",
                bin.display(),
                short(&tree_json(&doc.root))
            ));
        }
        if let Some(e) = ty.get("error") {
            failures.push(format!("{}: oead rejects our YAML: {e}", yml.display()));
        } else if ty["root"] != tree_json(&doc.root) {
            failures.push(format!(
                "{}: oead reads our YAML as another tree: {}",
                yml.display(),
                describe_difference(&tree_json(&doc.root), &ty["root"])
            ));
        }
    }
    if !failures.is_empty() {
        let keep = dir.keep();
        panic!(
            "{} of {} random trees (files kept in {}):\n{}",
            failures.len(),
            cases.len(),
            keep.display(),
            failures
                .iter()
                .take(20)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

// ---------------------------------------------------------------------------------------------------------------
// 6. Hostile input

/// Builds BYML files by hand, in either byte order.
struct Builder {
    big: bool,
    buf: Vec<u8>,
}

impl Builder {
    fn new(big: bool) -> Self {
        Builder {
            big,
            buf: Vec::new(),
        }
    }
    fn pos(&self) -> u32 {
        self.buf.len() as u32
    }
    fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    fn u16(&mut self, v: u16) {
        let b = if self.big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.buf.extend_from_slice(&b);
    }
    fn u32(&mut self, v: u32) {
        let b = if self.big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.buf.extend_from_slice(&b);
    }
    fn u24(&mut self, v: u32) {
        assert!(v < 1 << 24);
        let b = if self.big {
            v.to_be_bytes()[1..].to_vec()
        } else {
            v.to_le_bytes()[..3].to_vec()
        };
        self.buf.extend_from_slice(&b);
    }
    /// A container header: the type byte, then a u24 count.
    fn container(&mut self, ty: u8, count: u32) {
        self.u8(ty);
        self.u24(count);
    }
    /// A dictionary pair: u24 key index, u8 type, u32 value.
    fn pair(&mut self, key: u32, ty: u8, value: u32) {
        self.u24(key);
        self.u8(ty);
        self.u32(value);
    }
    fn patch_u32(&mut self, at: u32, v: u32) {
        let b = if self.big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.buf[at as usize..at as usize + 4].copy_from_slice(&b);
    }
    fn align4(&mut self) {
        while !self.buf.len().is_multiple_of(4) {
            self.buf.push(0);
        }
    }
    /// "YB"/"BY", version, then three offsets to patch (at 4, 8 and 12).
    fn header(&mut self, version: u16) {
        self.buf
            .extend_from_slice(if self.big { b"BY" } else { b"YB" });
        self.u16(version);
        self.u32(0);
        self.u32(0);
        self.u32(0);
    }
    fn string_table(&mut self, strings: &[&str]) -> u32 {
        let start = self.pos();
        self.container(0xc2, strings.len() as u32);
        let offsets_at = self.pos();
        for _ in 0..=strings.len() {
            self.u32(0);
        }
        for (i, s) in strings.iter().enumerate() {
            let rel = self.pos() - start;
            self.patch_u32(offsets_at + 4 * i as u32, rel);
            self.buf.extend_from_slice(s.as_bytes());
            self.u8(0);
        }
        let rel = self.pos() - start;
        self.patch_u32(offsets_at + 4 * strings.len() as u32, rel);
        self.align4();
        start
    }
}

/// The offsets of the interesting parts of an [`actors_file`].
#[derive(Debug, Default, Clone, Copy)]
struct Parts {
    root: u32,
    actors: u32,
    /// The empty dictionary that `Actors[0..12]` share.
    empty: u32,
    params_pair: u32,
    extra: u32,
}

/// `{Actors: [{} x 12, {Params: <value>}]}` with key table [Actors, Params] and string table [hello], version 2.
/// The twelve empty dictionaries are one node, shared. The Params pair has key index `key` and type `ty`;
/// `value_of` gives its value from the parts' offsets (`None`: the offset of `extra`, at the end of the file).
fn actors_file(
    big: bool,
    key: u32,
    ty: u8,
    value_of: impl Fn(&Parts) -> Option<u32>,
    extra: &[u8],
) -> (Vec<u8>, Parts) {
    let mut b = Builder::new(big);
    let mut parts = Parts::default();
    b.header(2);
    let keys = b.string_table(&["Actors", "Params"]);
    b.patch_u32(4, keys);
    let strings = b.string_table(&["hello"]);
    b.patch_u32(8, strings);
    parts.root = b.pos();
    b.patch_u32(12, parts.root);
    b.container(0xc1, 1);
    let actors_ref = b.pos() + 4;
    b.pair(0, 0xc0, 0);
    parts.actors = b.pos();
    b.patch_u32(actors_ref, parts.actors);
    b.container(0xc0, 13);
    for _ in 0..13 {
        b.u8(0xc1);
    }
    b.align4();
    let elems_at = b.pos();
    for _ in 0..13 {
        b.u32(0);
    }
    let empty = b.pos();
    parts.empty = empty;
    b.container(0xc1, 0);
    let p = b.pos();
    b.container(0xc1, 1);
    parts.params_pair = b.pos();
    b.pair(key, ty, 0);
    parts.extra = b.pos();
    b.buf.extend_from_slice(extra);
    for i in 0..12 {
        b.patch_u32(elems_at + 4 * i, empty);
    }
    b.patch_u32(elems_at + 4 * 12, p);
    let value = value_of(&parts).unwrap_or(parts.extra);
    b.patch_u32(parts.params_pair + 4, value);
    (b.buf, parts)
}

/// An [`actors_file`] whose Params pair has type `ty` and value `value` (`None`: the offset of `extra`).
fn params(big: bool, ty: u8, value: Option<u32>, extra: &[u8]) -> Vec<u8> {
    actors_file(big, 1, ty, move |_| value, extra).0
}

/// Asserts that `data` is refused with an error whose text starts with `path` and names a byte offset.
fn assert_refused(what: &str, data: &[u8], path: &str) -> String {
    let start = Instant::now();
    let r = no_panic(|| Document::from_binary(data))
        .unwrap_or_else(|m| panic!("{what}: from_binary panicked: {m}"));
    let e = match r {
        Ok(d) => panic!("{what}: accepted; read {:?}", tree_json(&d.root)),
        Err(e) => e,
    };
    let msg = e.to_string();
    eprintln!(
        "{what}: {}",
        if msg.len() > 300 {
            &msg[..msg
                .char_indices()
                .take_while(|(i, _)| *i < 300)
                .last()
                .unwrap()
                .0]
        } else {
            &msg
        }
    );
    assert!(
        msg.starts_with(path),
        "{what}: the error should start with the node path {path}: {msg}"
    );
    assert!(
        msg.contains("offset 0x"),
        "{what}: the error should give the byte offset: {msg}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{what}: took {:?}",
        start.elapsed()
    );
    msg
}

const PARAMS_PATH: &str = "byml.root[\"Actors\"][12][\"Params\"]";

/// The hand-built file is a valid BYML file when its Params is valid (so that the errors below come from the
/// damage alone), and oead reads it the same way.
#[test]
fn hand_built_file_is_valid() {
    for big in [false, true] {
        let data = params(big, 0xa0, Some(0), &[]);
        let doc = Document::from_binary(&data).unwrap_or_else(|e| panic!("big={big}: {e}"));
        assert_eq!(doc.version, 2);
        assert_eq!(doc.root["Actors"].len(), 13);
        assert_eq!(doc.root["Actors"][0], Byml::Map(Map::default()));
        assert_eq!(doc.root["Actors"][12]["Params"].as_str(), Some("hello"));
        let again = Document::from_binary(&doc.to_binary().unwrap()).unwrap();
        assert!(same_tree(&again.root, &doc.root));
        if let Ok(py) = oracle_python() {
            let dir = tempfile::tempdir().unwrap();
            let p = dir.path().join("actors.byml");
            std::fs::write(&p, &data).unwrap();
            let t = &oracle_read(py, &[p])[0];
            check_oracle_doc(t, 2, doc.endian, &doc.root).unwrap();
        }
    }
}

#[test]
fn bad_nodes_are_errors_naming_the_node_path_and_offset() {
    let mut unnamed_counts = Vec::new();
    for big in [false, true] {
        let e = if big { "be" } else { "le" };
        // an offset past the end of the file, for a container, a 64-bit value and binary data
        let msg = assert_refused(
            &format!("{e}: container offset past the end"),
            &params(big, 0xc0, Some(0x10000), &[]),
            PARAMS_PATH,
        );
        assert!(msg.contains("0x10000"), "{msg}");
        assert_refused(
            &format!("{e}: dictionary offset past the end"),
            &params(big, 0xc1, Some(0x10000), &[]),
            PARAMS_PATH,
        );
        assert_refused(
            &format!("{e}: u64 offset past the end"),
            &params(big, 0xd5, Some(0x10000), &[]),
            PARAMS_PATH,
        );
        assert_refused(
            &format!("{e}: f64 offset past the end"),
            &params(big, 0xd6, Some(0xffff_fff0), &[]),
            PARAMS_PATH,
        );
        assert_refused(
            &format!("{e}: binary offset past the end"),
            &params(big, 0xa1, Some(0x10000), &[]),
            PARAMS_PATH,
        );
        // a u64 that starts inside the file and ends past it
        let mut b = Builder::new(big);
        b.u32(0xdead);
        assert_refused(
            &format!("{e}: u64 cut by the end"),
            &params(big, 0xd4, None, &b.buf),
            PARAMS_PATH,
        );
        // binary data whose size runs past the end
        let mut b = Builder::new(big);
        b.u32(0x0010_0000);
        b.u32(0);
        assert_refused(
            &format!("{e}: binary size past the end"),
            &params(big, 0xa1, None, &b.buf),
            PARAMS_PATH,
        );
        // containers whose count exceeds the file
        for (ty, what) in [(0xc0, "array"), (0xc1, "dictionary")] {
            let mut b = Builder::new(big);
            b.container(ty, 0xff_ffff);
            b.u32(0);
            b.u32(0);
            let msg = assert_refused(
                &format!("{e}: {what} count 0xffffff"),
                &params(big, ty, None, &b.buf),
                PARAMS_PATH,
            );
            // the message names the count that does not fit (checked after the other cases)
            if !(msg.contains("16777215") || msg.contains("0xffffff")) {
                unnamed_counts.push(format!("{e}: {what} count 0xffffff: {msg}"));
            }
        }
        // a string index out of range (the table has one string)
        let msg = assert_refused(
            &format!("{e}: string index 7"),
            &params(big, 0xa0, Some(7), &[]),
            PARAMS_PATH,
        );
        assert!(msg.contains('7'), "{msg}");
        // a key index out of range: the dictionary at [12] is where it fails
        let data = actors_file(big, 9, 0xa0, |_| Some(0), &[]).0;
        assert_refused(
            &format!("{e}: key index 9"),
            &data,
            "byml.root[\"Actors\"][12]",
        );
        // an unknown node type
        assert_refused(
            &format!("{e}: node type 0x99"),
            &params(big, 0x99, Some(0), &[]),
            PARAMS_PATH,
        );
        // the pair says array, the node is a dictionary
        let data = actors_file(big, 1, 0xc0, |p| Some(p.empty), &[]).0;
        let _ = assert_refused(
            &format!("{e}: array type pointing at a dictionary"),
            &data,
            PARAMS_PATH,
        );
        // cycles: Params points back at the root, and at the array that holds it
        let data = actors_file(big, 1, 0xc1, |p| Some(p.root), &[]).0;
        assert_refused(&format!("{e}: cycle through the root"), &data, PARAMS_PATH);
        let data = actors_file(big, 1, 0xc0, |p| Some(p.actors), &[]).0;
        assert_refused(&format!("{e}: cycle through Actors"), &data, PARAMS_PATH);
    }
    assert!(
        unnamed_counts.is_empty(),
        "the error for a count that does not fit should name the count:\n{}",
        unnamed_counts.join("\n")
    );
}

/// An array that contains itself, at the root.
#[test]
fn a_container_that_contains_itself_is_an_error() {
    for big in [false, true] {
        let mut b = Builder::new(big);
        b.header(3);
        b.patch_u32(12, 0x10);
        b.container(0xc0, 1);
        b.u8(0xc0);
        b.align4();
        b.u32(0x10);
        assert_refused(
            &format!("self-containing array (big={big})"),
            &b.buf,
            "byml.root[0]",
        );
    }
}

/// `depth` arrays, each holding the next; the innermost is empty.
fn nested_arrays(big: bool, depth: u32) -> Vec<u8> {
    let mut b = Builder::new(big);
    b.header(2);
    b.patch_u32(12, 0x10);
    for i in 0..depth {
        let here = b.pos();
        assert_eq!(here, 0x10 + 12 * i);
        if i + 1 == depth {
            b.container(0xc0, 0);
        } else {
            b.container(0xc0, 1);
            b.u8(0xc0);
            b.align4();
            b.u32(here + 12);
        }
    }
    b.buf
}

fn deep_nesting_checks() {
    for big in [false, true] {
        let data = nested_arrays(big, 10_000);
        let msg = assert_refused(
            &format!("10,000 nested arrays (big={big})"),
            &data,
            "byml.root[0][0][0][0]",
        );
        assert!(msg.len() < 200_000, "{}", msg.len());
    }
    // a depth that real files can have is accepted
    let data = nested_arrays(false, 32);
    let doc = Document::from_binary(&data).expect("32 nested arrays");
    assert_eq!(doc.to_binary().unwrap(), data);
}

/// 10,000 nested arrays are refused with an error naming the path and offset. A stack overflow cannot be caught,
/// so the check runs in a child process (this test binary, on a thread with the 2 MiB stack that test threads and
/// rayon's workers get by default): an overflow fails this test instead of aborting the whole run.
#[test]
fn ten_thousand_deep_nesting_is_an_error_not_a_stack_overflow() {
    const NAME: &str = "ten_thousand_deep_nesting_is_an_error_not_a_stack_overflow";
    if std::env::var_os("BINSPEC_BYML_DEEP_CHILD").is_some() {
        let t = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(deep_nesting_checks)
            .unwrap();
        if let Err(p) = t.join() {
            std::panic::resume_unwind(p);
        }
        return;
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", NAME, "--nocapture", "--test-threads=1"])
        .env("BINSPEC_BYML_DEEP_CHILD", "1")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "reading deeply nested files on a 2 MiB stack failed ({}):\n{text}",
        out.status
    );
    assert!(text.contains("1 passed"), "the child ran no test:\n{text}");
}

#[test]
fn bad_headers_are_errors() {
    let good = params(false, 0xa0, Some(0), &[]);
    assert!(Document::from_binary(&good).is_ok());
    for n in [0usize, 1, 2, 3, 4, 6, 8, 11, 12, 15] {
        assert_refused(&format!("header cut to {n} bytes"), &good[..n], "byml");
    }
    let mut d = good.clone();
    d[..2].copy_from_slice(b"XY");
    assert!(Document::from_binary(&d).is_err(), "bad magic");
    for v in [0u16, 11, 0x100] {
        let mut d = good.clone();
        d[2..4].copy_from_slice(&v.to_le_bytes());
        assert!(Document::from_binary(&d).is_err(), "version {v}");
    }
    for (at, what) in [(4, "key table"), (8, "string table"), (12, "root")] {
        let mut d = good.clone();
        d[at..at + 4].copy_from_slice(&0x0010_0000u32.to_le_bytes());
        let msg = assert_refused(&format!("{what} offset past the end"), &d, "byml");
        assert!(msg.contains("0x100000"), "{msg}");
    }
    // the key table's node type is not 0xc2
    let mut d = good.clone();
    let keys = u32::from_le_bytes(d[4..8].try_into().unwrap()) as usize;
    d[keys] = 0xc0;
    assert!(
        Document::from_binary(&d).is_err(),
        "a key table that is not a string table"
    );
}

/// Every truncation and 300 single-byte corruptions of every fixture: `Ok` or an error that names `byml...` and
/// an offset or a check, never a panic; what is read can be written without a panic.
#[test]
fn truncated_and_corrupted_fixtures_never_panic() {
    let mut problems = Vec::new();
    let (mut ok, mut err) = (0usize, 0usize);
    for p in binary_fixtures() {
        let data = std::fs::read(&p).unwrap();
        let n = name_of(&p);
        let mut state = n.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        }) | 1;
        let mut rand = move || {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_F491_4F6C_DD1D)
        };
        let mut inputs: Vec<(String, Vec<u8>)> = (0..data.len())
            .map(|k| (format!("{n} cut to {k:#x}"), data[..k].to_vec()))
            .collect();
        for _ in 0..300 {
            let at = (rand() % data.len() as u64) as usize;
            let x = (rand() % 255 + 1) as u8;
            let mut d = data.clone();
            d[at] ^= x;
            inputs.push((format!("{n} with byte {at:#x} ^= {x:#04x}"), d));
        }
        for (what, d) in inputs {
            match no_panic(|| Document::from_binary(&d)) {
                Err(m) => problems.push(format!("{what}: from_binary PANIC: {m}")),
                Ok(Err(e)) => {
                    err += 1;
                    let msg = e.to_string();
                    if !msg.starts_with("byml") {
                        problems.push(format!("{what}: the error does not start with byml: {msg}"));
                    }
                }
                Ok(Ok(doc)) => {
                    ok += 1;
                    if let Err(m) = no_panic(|| doc.to_binary()) {
                        problems.push(format!("{what}: to_binary PANIC: {m}"));
                    }
                }
            }
        }
    }
    eprintln!("{ok} damaged inputs read, {err} refused");
    assert!(
        problems.is_empty(),
        "{} problems; first 20:\n{}",
        problems.len(),
        problems
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

// ---------------------------------------------------------------------------------------------------------------
// 7. binspec check

fn run_cli(args: &[&str]) -> (u8, String, String) {
    let registry = binspec_formats::registry();
    let mut out = Vec::new();
    let mut err = Vec::new();
    let argv = std::iter::once("binspec").chain(args.iter().copied());
    let code = binspec_cli::run_from(argv, &registry, &mut out, &mut err, false);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// `binspec check DIR`: exit 0, and the `byml` row says every BYML file is identical.
fn check_dir_with_cli(dir: &Path) -> Result<(), String> {
    let want = bymls_under(dir).len();
    if want == 0 {
        return Err(format!("{}: no BYML files", dir.display()));
    }
    let (code, out, err) = run_cli(&["check", dir.to_str().unwrap()]);
    let row: Option<Vec<usize>> = out
        .lines()
        .find(|l| l.split_whitespace().next() == Some("byml"))
        .map(|l| {
            // format files identical differ failed skipped ...
            l.split_whitespace()
                .skip(1)
                .take(4)
                .map(|x| x.parse().unwrap())
                .collect()
        });
    if code != 0
        || out.contains("DIFF")
        || out.contains("FAIL")
        || row != Some(vec![want, want, 0, 0])
    {
        return Err(format!(
            "binspec check {}: exit {code}, want {want} of {want} BYML files identical:\n{out}{err}",
            dir.display()
        ));
    }
    Ok(())
}

#[test]
fn cli_check_reports_identical_bytes() {
    let mut dirs = vec![fixtures_dir()];
    match corpus_byml_dirs() {
        Ok(d) => dirs.extend(d),
        Err(why) => eprintln!("skipped the corpus: {why}"),
    }
    let failures: Vec<String> = dirs
        .iter()
        .filter_map(|d| check_dir_with_cli(d).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
