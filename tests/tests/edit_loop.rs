//! The modder's loop, as a user runs it: `binspec decode FILE -o DOC`, edit DOC, `binspec encode DOC -o FILE`
//! (issue 19). For every fixture and corpus file that `binspec check` re-encodes identically, the text round trip
//! through YAML and through JSON must give the same bytes; and one edit per format made in the text is read back
//! by the independent reader where there is one (the oracle venv), else by ours.

use std::path::{Path, PathBuf};

use binspec_cli::{files, formats};
use binspec_runtime::DynFormat;
use serde_json::Value;

use binspec_tests::{files_under, oracle_python, repo, run};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every file of the bundled fixtures and of `../shared/corpus` (when present).
fn all_files() -> Vec<PathBuf> {
    let mut out = files_under(&repo().join("tests/fixtures"));
    let corpus = repo().join("../shared/corpus");
    if corpus.is_dir() {
        out.extend(files_under(&corpus));
    } else {
        eprintln!("skipped the corpus: {} is absent", corpus.display());
    }
    out
}

/// The format `binspec` picks for a file: its magic, else its extension (headerless tables).
fn format_of(path: &Path, data: &[u8]) -> Option<&'static dyn DynFormat> {
    let registry = binspec_formats::registry();
    formats::sniff(&registry, data).or_else(|| formats::by_extension(&registry, path))
}

/// `decode` -> `encode` of one file through YAML or JSON, in a temporary folder; the encoded bytes.
fn text_round_trip(path: &Path, f: &dyn DynFormat, json: bool) -> Result<Vec<u8>, String> {
    let d = tempfile::tempdir().unwrap();
    let doc = d.path().join(if json { "doc.json" } else { "doc.yaml" });
    let out = d.path().join("out.bin");
    let mut args = vec!["--format", f.id(), "decode", s(path), "-o", s(&doc)];
    if json {
        args.push("--json");
    }
    let r = run(&args);
    if r.code != 0 {
        return Err(format!("decode: {}", r.err.trim()));
    }
    // YAML documents name their format on their first line; JSON documents are given it as a user would.
    let mut args = vec!["encode", s(&doc), "-o", s(&out)];
    if json {
        args.extend(["--format", f.id()]);
    }
    let r = run(&args);
    if r.code != 0 {
        return Err(format!("encode: {}", r.err.trim()));
    }
    Ok(std::fs::read(&out).unwrap())
}

#[test]
fn decode_encode_through_yaml_and_json_gives_the_same_bytes() {
    let files = all_files();
    let results: Vec<(PathBuf, Result<bool, String>)> = std::thread::scope(|scope| {
        let chunks: Vec<&[PathBuf]> = files.chunks(files.len().div_ceil(2).max(1)).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|p| (p.clone(), check_one(p)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let mut failures = Vec::new();
    let mut checked = 0;
    for (p, r) in &results {
        match r {
            Ok(true) => checked += 1,
            Ok(false) => {}
            Err(e) => failures.push(format!("{}: {e}", p.display())),
        }
    }
    eprintln!(
        "{checked} files went through decode -> encode (YAML and JSON) byte for byte; {} of {} files are not \
         ones `check` re-encodes identically",
        results.len() - checked - failures.len(),
        results.len()
    );
    // The fixtures alone give 108 such files; with the corpus, about 250.
    let least = if repo().join("../shared/corpus").is_dir() {
        150
    } else {
        100
    };
    assert!(checked >= least, "only {checked} files checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `Ok(false)`: not a file `check` reports identical (not a known format, or it does not round-trip).
fn check_one(path: &Path) -> Result<bool, String> {
    let Ok(input) = files::load(path) else {
        return Ok(false);
    };
    let Some(f) = format_of(path, &input.data) else {
        return Ok(false);
    };
    if f.roundtrip(&input.data).ok().as_deref() != Some(&input.data[..]) {
        return Ok(false);
    }
    for json in [false, true] {
        let got = text_round_trip(path, f, json)?;
        if let Some(d) = binspec_tests::difference(&got, &input.data) {
            return Err(format!(
                "{} round trip {d}",
                if json { "JSON" } else { "YAML" }
            ));
        }
    }
    Ok(true)
}

// ---------------------------------------------------------------------------------------------------------------
// One edit per format, made in the text.

/// Decodes a fixture to YAML, applies `edit` to the text (each `(from, to)` must occur), encodes it; the new file.
fn edit_fixture(rel: &str, edits: &[(&str, &str)], dir: &Path) -> PathBuf {
    let src = repo().join("tests/fixtures").join(rel);
    let doc = dir.join("doc.yaml");
    let r = run(&["decode", s(&src), "-o", s(&doc)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let mut text = std::fs::read_to_string(&doc).unwrap();
    for (from, to) in edits {
        assert!(
            text.contains(from),
            "{from:?} is not in the document:\n{text}"
        );
        text = text.replacen(from, to, 1);
    }
    std::fs::write(&doc, text).unwrap();
    let ext = rel.rsplit('.').next().unwrap();
    let out = dir.join(format!("edited.{ext}"));
    let r = run(&["encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    out
}

/// The oracle's reading of a file (`scripts/oracle/read.py`), or `None` with a message when there is no oracle.
fn oracle_read(path: &Path) -> Option<Value> {
    let py = match oracle_python() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("skipped the independent reader: {why}");
            return None;
        }
    };
    Some(serde_json::from_slice(&binspec_tests::run_oracle(py, "read.py", &[path])).unwrap())
}

/// A file renamed in the YAML: the archive has the new name (and the oracle finds it by its hash).
#[test]
fn sarc_rename_a_file_in_the_text() {
    let d = tempfile::tempdir().unwrap();
    let out = edit_fixture(
        "sarc/oead_le_new_min4.sarc",
        &[("- name: Z.txt\n", "- name: Renamed/Z.txt\n")],
        d.path(),
    );
    let r = run(&["extract", s(&out), "-o", s(&d.path().join("x"))]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(
        std::fs::read(d.path().join("x/Renamed/Z.txt")).unwrap(),
        b"binspec fixture Z"
    );
    assert!(!d.path().join("x/Z.txt").exists());
    if let Some(v) = oracle_read(&out) {
        let names: Vec<&str> = v["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap())
            .collect();
        assert!(
            names.contains(&"Renamed/Z.txt") && !names.contains(&"Z.txt"),
            "{names:?}"
        );
        assert_eq!(v["lookup_by_name_ok"], true, "{v}");
    }
}

/// A scalar changed and a key renamed in the YAML of a version 3 big-endian file: the file stays version 3 big
/// endian (it became version 2 little endian before), and oead reads the edit.
#[test]
fn byml_change_a_scalar_and_rename_a_key_in_the_text() {
    let d = tempfile::tempdir().unwrap();
    let out = edit_fixture(
        "byml/oead_types_v3_be.byml",
        &[
            ("s32: -7,", "s32: 12345,"),
            ("empty_map: {}", "renamed_map: {}"),
        ],
        d.path(),
    );
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[..4], b"BY\x00\x03");
    if let Some(v) = oracle_read(&out) {
        assert_eq!(
            (v["version"].as_u64(), v["endian"].as_str()),
            (Some(3), Some("big"))
        );
        let root = &v["root"]["!h"];
        assert_eq!(
            root["map"]["!h"]["s32"],
            serde_json::json!({"!i": 12345}),
            "{v}"
        );
        assert_eq!(root["renamed_map"], serde_json::json!({"!h": {}}), "{v}");
        assert!(root.get("empty_map").is_none(), "{v}");
    }
}

/// A size changed in the YAML of a resource size table: the oracle reads the new size.
#[test]
fn rsizetable_change_a_size_in_the_text() {
    let d = tempfile::tempdir().unwrap();
    let src = repo().join("tests/fixtures/rsizetable/rstb_le.rsizetable");
    let text = run(&["decode", s(&src)]).out;
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("size: "))
        .expect("a size in the document")
        .to_string();
    let old: u64 = line.trim_start()["size: ".len()..].parse().unwrap();
    let new_line = line.replace(&format!("size: {old}"), &format!("size: {}", old + 4096));
    let out = edit_fixture(
        "rsizetable/rstb_le.rsizetable",
        &[(&format!("{line}\n"), &format!("{new_line}\n"))],
        d.path(),
    );
    let before = oracle_read(&src);
    let after = oracle_read(&out);
    if let (Some(before), Some(after)) = (before, after) {
        let changed: Vec<String> = ["crc", "names"]
            .iter()
            .flat_map(|t| {
                let (b, a) = (&before[t], &after[t]);
                a.as_object()
                    .unwrap()
                    .iter()
                    .filter(|(k, v)| b[k.as_str()] != **v)
                    .map(|(k, v)| format!("{k}: {} -> {v}", b[k.as_str()]))
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(changed.len(), 1, "{changed:?}");
        assert!(
            changed[0].ends_with(&format!("{old} -> {}", old + 4096)),
            "{changed:?}"
        );
    }
}

/// An element renamed in the YAML of an AINB file: the `ainb` package reads the new name, and the name's hash was
/// recomputed (the package's murmur3 of the name).
#[test]
fn ainb_rename_an_element_in_the_text() {
    let d = tempfile::tempdir().unwrap();
    let out = edit_fixture(
        "ainb/single_v407.ainb",
        &[("  name: Idle\n", "  name: Waiting\n")],
        d.path(),
    );
    use binspec_runtime::Format as _;
    let doc = binspec_formats::ainb::Document::from_binary(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(doc.elements[0].name.as_str(), "Waiting");
    let py = match oracle_python() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("skipped the independent reader: {why}");
            return;
        }
    };
    let o = binspec_tests::run_oracle(py, "ainb_io.py", &[Path::new("read"), &out]);
    let v: Value = serde_json::from_slice(&o).unwrap();
    assert_eq!(v["doc"]["Nodes"][0]["Name"], "Waiting", "{v}");
}

/// A float made NaN in the text (`.nan`): the file holds it, YAML writes it back, and JSON, which has no NaN,
/// refuses to write the document rather than write `null` in its place (which encodes to nothing).
#[test]
fn ainb_not_a_number_in_the_text() {
    let d = tempfile::tempdir().unwrap();
    let out = edit_fixture(
        "ainb/patrol_v407.ainb",
        &[("      value: 1.75\n", "      value: .nan\n")],
        d.path(),
    );
    use binspec_runtime::Format as _;
    let bytes = std::fs::read(&out).unwrap();
    let doc = binspec_formats::ainb::Document::from_binary(&bytes).unwrap();
    let i = doc
        .elements
        .iter()
        .position(|e| e.properties.f32.first().is_some_and(|p| p.value.is_nan()))
        .unwrap();
    let f = format_of(&out, &bytes).unwrap();
    assert_eq!(text_round_trip(&out, f, false).unwrap(), bytes);
    let json = d.path().join("nan.json");
    let r = run(&["decode", s(&out), "-o", s(&json), "--json"]);
    assert_eq!(r.code, 1, "{}", r.err);
    let path = format!("elements[{i}].properties.f32[0].value");
    assert!(r.err.contains(&path) && r.err.contains("YAML"), "{}", r.err);
    assert!(!json.exists());
}

/// The author changed in the YAML of a Pluto animation: read back by our reader (no independent reader exists).
#[test]
fn panim_edits_in_the_text() {
    let d = tempfile::tempdir().unwrap();
    let src = repo().join("tests/fixtures/panim_pluto/pluto_idle_core_only.panim");
    let text = run(&["decode", s(&src)]).out;
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("author: "))
        .unwrap_or_else(|| panic!("no author in\n{text}"))
        .to_string();
    let out = edit_fixture(
        "panim_pluto/pluto_idle_core_only.panim",
        &[(&line, &line.replacen("author: ", "author: X", 1))],
        d.path(),
    );
    let again = run(&["decode", s(&out)]);
    assert_eq!(again.code, 0, "{}", again.err);
    assert!(
        again
            .out
            .contains(&line.replacen("author: ", "author: X", 1)),
        "{}",
        again.out
    );
}

/// A misspelt or unknown field in a SARC or resource size table document is an error naming its line and column,
/// with the field it probably meant (issue 19, item 4: both were ignored, and the value silently took its default).
#[test]
fn unknown_fields_in_documents_are_refused() {
    let d = tempfile::tempdir().unwrap();
    for (rel, from, to, want) in [
        (
            "sarc/oead_le_new_min4.sarc",
            "  hash_multiplier: 101\n",
            "  hash_multipler: 101\n",
            "unknown field `hash_multipler` (did you mean `hash_multiplier`?)",
        ),
        (
            "sarc/oead_le_new_min4.sarc",
            "endian: little\n",
            "endian: little\nbogus: 1\n",
            "unknown field `bogus`; expected one of `endian`",
        ),
        (
            "rsizetable/rstb_le.rsizetable",
            "endian: little\n",
            "endian: little\nendianness: big\n",
            "unknown field `endianness`",
        ),
    ] {
        let src = repo().join("tests/fixtures").join(rel);
        let text = run(&["decode", s(&src)]).out;
        assert!(text.contains(from), "{rel}: {from:?} not in\n{text}");
        let doc = d.path().join("doc.yaml");
        std::fs::write(&doc, text.replacen(from, to, 1)).unwrap();
        let r = run(&["encode", s(&doc), "-o", s(&d.path().join("out.bin"))]);
        assert_eq!(r.code, 1, "{rel}: {}", r.err);
        let line = text[..text.find(from).unwrap()].lines().count()
            + 1
            + usize::from(to.starts_with(from));
        let prefix = format!("error: {}:{line}:", doc.display());
        assert!(
            r.err.starts_with(&prefix),
            "{rel}: want {prefix}: {}",
            r.err
        );
        assert!(r.err.contains(want), "{rel}: {}", r.err);
        // Through JSON too.
        let json = run(&["decode", "--json", s(&src)]).out;
        let key = from.trim().split(':').next().unwrap();
        let bad = to.trim().lines().last().unwrap().split(':').next().unwrap();
        let doc = d.path().join("doc.json");
        let edited = if to.starts_with(from) {
            json.replacen(
                &format!("\"{key}\""),
                &format!("\"{bad}\": 1, \"{key}\""),
                1,
            )
        } else {
            json.replacen(&format!("\"{key}\""), &format!("\"{bad}\""), 1)
        };
        std::fs::write(&doc, edited).unwrap();
        let r = run(&[
            "encode",
            s(&doc),
            "-o",
            s(&d.path().join("out.bin")),
            "--format",
            rel.split('/').next().unwrap(),
        ]);
        assert_eq!(r.code, 1, "{rel}: {}", r.err);
        assert!(
            r.err.contains(&format!("unknown field `{bad}`")),
            "{rel}: {}",
            r.err
        );
    }
}

/// A key's value changed in the YAML of a Perro clip: the clip written has the new value in its text (no
/// independent reader exists).
#[test]
fn perro_change_a_key_in_the_text() {
    let d = tempfile::tempdir().unwrap();
    let out = edit_fixture(
        "panim_perro/seed_door_open.panim",
        &[("              - 95\n", "              - 120\n")],
        d.path(),
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("rotation_deg = (0, 120, 0)"), "{text}");
    assert!(!text.contains("95"), "{text}");
    let r = run(&["check", s(&out)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
}

/// A Pluto clip decoded to JSON and encoded to `g.panim` without `--format`: two formats use `.panim`, so the
/// extension does not say which, and the command must ask instead of picking one (it picked Perro, whose
/// document read the Pluto fields as nothing and wrote an empty file with exit 0).
#[test]
fn an_extension_two_formats_share_asks_for_the_format() {
    let d = tempfile::tempdir().unwrap();
    let src = repo().join("tests/fixtures/panim_pluto/pluto_dance_11bones_multibyte_mask.panim");
    let doc = d.path().join("d.json");
    let r = run(&["decode", "--json", s(&src), "-o", s(&doc)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let out = d.path().join("g.panim");
    let r = run(&["encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 2, "{}", r.err);
    assert!(
        r.err
            .contains("`.panim` is the extension of panim-perro and panim-pluto")
            && r.err.contains("--format"),
        "{}",
        r.err
    );
    assert!(!out.exists(), "nothing is written");
    let r = run(&["encode", s(&doc), "-o", s(&out), "--format", "panim-pluto"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&src).unwrap());
}

/// A document of another format given to Perro: its fields are unknown to a clip and are refused, rather than
/// read as an empty clip (every field of a clip has a default).
#[test]
fn a_document_of_another_format_is_not_an_empty_perro_clip() {
    let d = tempfile::tempdir().unwrap();
    let src = repo().join("tests/fixtures/panim_pluto/pluto_dance_11bones_multibyte_mask.panim");
    for json in [false, true] {
        let doc = d.path().join(if json { "d.json" } else { "d.yaml" });
        let mut args = vec!["decode", s(&src), "-o", s(&doc)];
        if json {
            args.push("--json");
        }
        assert_eq!(run(&args).code, 0);
        let out = d.path().join("g.panim");
        let r = run(&["encode", s(&doc), "-o", s(&out), "--format", "panim-perro"]);
        assert_eq!(r.code, 1, "json {json}: {}", r.err);
        assert!(
            r.err.contains("unknown field `name`"),
            "json {json}: {}",
            r.err
        );
        assert!(!out.exists(), "json {json}: nothing is written");
    }
}

/// Bytes after a name's terminator in its fixed-size slot (garbage a tool left there) come through the text form:
/// the file reads back byte for byte. A name edited to another length drops them: the slot is padded again.
#[test]
fn rsizetable_garbage_after_a_name_survives_the_text() {
    let d = tempfile::tempdir().unwrap();
    let mut data =
        std::fs::read(repo().join("tests/fixtures/rsizetable/rstb_le.rsizetable")).unwrap();
    // 12 bytes of header and 7 CRC entries of 8 bytes; then 3 name entries of a 128-byte path and a size. The
    // first whose name leaves room in its slot.
    let (first, slot) = (12 + 7 * 8, 128);
    let (start, term) = (0..3)
        .map(|i| first + i * (slot + 4))
        .map(|at| (at, at + data[at..].iter().position(|&b| b == 0).unwrap()))
        .find(|&(at, term)| term + 10 < at + slot)
        .expect("a name shorter than its slot");
    data[term + 3..term + 10].copy_from_slice(b"GARBAGE");
    let name = String::from_utf8(data[start..term].to_vec()).unwrap();
    let src = d.path().join("g.rsizetable");
    std::fs::write(&src, &data).unwrap();
    let doc = d.path().join("g.yaml");
    let r = run(&["decode", s(&src), "-o", s(&doc)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let text = std::fs::read_to_string(&doc).unwrap();
    assert!(text.contains("name_filler"), "{text}");
    let out = d.path().join("out.rsizetable");
    let r = run(&["encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(&out).unwrap(), data);

    let longer = format!("{name}X");
    std::fs::write(&doc, text.replacen(&name, &longer, 1)).unwrap();
    let r = run(&["encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let written = std::fs::read(&out).unwrap();
    let at = written
        .windows(longer.len())
        .position(|w| w == longer.as_bytes())
        .expect("the new name is written");
    let slot_end = first + (at - first) / (slot + 4) * (slot + 4) + slot;
    assert!(
        written[at + longer.len()..slot_end].iter().all(|&b| b == 0),
        "{:?}",
        &written[at..slot_end]
    );
}
