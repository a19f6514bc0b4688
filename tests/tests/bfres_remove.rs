//! A BFRES model removed, through the API (`Bfres::remove_model`) and through the CLI (decode, delete the model
//! from the JSON document, encode): the structures before the string pool are laid out again by the generated
//! writer, which derives the count, pointers, dictionary tree and relocation table; what is left reads back as it
//! was. On Super Mario Odyssey's AirCurrent.bfres (version 8; skipped with a message when the corpus is absent).
//! On version 10 (a fixture with two models whose materials have render infos of type string), what is left keeps
//! its render info values, their string pointers following the strings, which move.

use std::path::{Path, PathBuf};

use binspec_formats::bfres::Bfres;
use binspec_runtime::Format as _;
use serde_json::Value;

use binspec_tests::{
    bfres_dict_keys, nn_util_relocation_entries, nn_util_relocation_sections, repo, run,
};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn two_models() -> Vec<u8> {
    std::fs::read(repo().join("tests/fixtures/bfres/bfres_two_models_formats.bfres")).unwrap()
}

/// How many pointers the relocation table lists, over its sections.
fn listed_count(file: &[u8]) -> u64 {
    nn_util_relocation_entries(file)
        .iter()
        .map(|[_, structs, ptrs, _]| structs * ptrs)
        .sum()
}

fn air_current() -> Option<(std::path::PathBuf, Vec<u8>)> {
    let path = repo().join("../shared/corpus/real/bfres/AirCurrent.bfres");
    match std::fs::read(&path) {
        Ok(bytes) => Some((path, bytes)),
        Err(_) => {
            eprintln!("skipped: {} is absent", path.display());
            None
        }
    }
}

/// Where the string pool starts (its pointer, 0x14 into the block) and ends, in a version 8 file.
fn pool_v8(f: &[u8]) -> (u64, u64) {
    let ptr = u64::from_le_bytes(f[0xb0..0xb8].try_into().unwrap());
    let size = u32::from_le_bytes(f[0xb8..0xbc].try_into().unwrap());
    (ptr, ptr - 0x14 + u64::from(size))
}

/// What is left of AirCurrent.bfres without its model: no model, no key; the string pool moved up to where the
/// structures now end, with the relocation table's first section; the GPU region (the removed model's buffers
/// still in it, unused), the runtime memory pool and the relocation table moved up after it, with their pointers
/// and the table's sections.
fn check_without_model(bytes: &[u8], written: &[u8]) {
    let back = Bfres::from_binary(written).unwrap();
    assert!(back.model_summaries().is_empty());
    assert!(bfres_dict_keys(&back, "model_dict").is_empty());
    assert!(pool_v8(written).0 < pool_v8(bytes).0);
    let u64_at = |f: &[u8], at: usize| u64::from_le_bytes(f[at..at + 8].try_into().unwrap());
    let info = u64_at(written, 0x90) as usize;
    let (gpu, runtime) = (u64_at(written, info + 8), u64_at(written, 0x88));
    let table = u64::from(u32::from_le_bytes(written[0x18..0x1c].try_into().unwrap()));
    assert!(
        gpu < 0x5000 && gpu.is_multiple_of(0x1000) && gpu >= pool_v8(written).1,
        "{gpu:#x}"
    );
    assert_eq!(written[gpu as usize..][..0x1000], bytes[0x5000..0x6000]);
    assert_eq!((runtime, table), (gpu + 0x1000, gpu + 0x1120));
    let sections = nn_util_relocation_sections(written);
    assert_eq!(sections[0], [0, pool_v8(written).1]);
    // (No model: no index buffers before the first model's vertex buffers.)
    assert_eq!(
        sections[1..],
        [[gpu, 0], [gpu, 0x1000], [runtime, 0x120], [table, 0]]
    );
    assert!(listed_count(written) < listed_count(bytes));
    assert!(written.len() < bytes.len());
    // Written again as it reads.
    assert_eq!(back.to_binary().unwrap(), written);
}

#[test]
fn the_only_model_removed_through_the_api_version_8() {
    let Some((_, bytes)) = air_current() else {
        return;
    };
    let mut m = Bfres::from_binary(&bytes).unwrap();
    m.remove_model("AirCurrent").unwrap();
    check_without_model(&bytes, &m.to_binary().unwrap());
}

/// Every material's render info values, as `model/material: [values...]` lines, from a model's document.
fn render_info_values(m: &Bfres) -> Vec<String> {
    let v = serde_json::to_value(m).unwrap();
    let body = v["body"]["res_file"].clone();
    let mut out = Vec::new();
    for model in body["models"].as_array().unwrap() {
        for mat in model["materials"].as_array().unwrap() {
            let infos = mat["render_info_values"]["render_infos"]
                .as_array()
                .unwrap();
            let vals: Vec<String> = infos.iter().map(|i| i["values"].to_string()).collect();
            out.push(format!(
                "{}/{}: {}",
                model["name"]["data"].as_str().unwrap(),
                mat["name"]["data"].as_str().unwrap(),
                vals.join(" ")
            ));
        }
    }
    out
}

#[test]
fn a_model_removed_from_version_10_keeps_the_other_models_render_infos() {
    let bytes = two_models();
    let m = Bfres::from_binary(&bytes).unwrap();
    let before = render_info_values(&m);
    assert_eq!(before.len(), 3, "{before:?}");
    assert!(before[2].starts_with("Marker/"), "{before:?}");
    assert!(before[2].contains("\"xlu\""), "{before:?}");
    let mut api = m.clone();
    api.remove_model("Props").unwrap();
    let written = api.to_binary().unwrap();
    let back = Bfres::from_binary(&written).unwrap();
    assert_eq!(bfres_dict_keys(&back, "model_dict"), ["Marker"]);
    assert_eq!(render_info_values(&back), before[2..]);
    assert!(written.len() < bytes.len());
    assert!(listed_count(&written) < listed_count(&bytes));
    assert_eq!(back.to_binary().unwrap(), written);
    // Through the CLI: the same file.
    let path = repo().join("tests/fixtures/bfres/bfres_two_models_formats.bfres");
    let (cli, _) = through_the_cli(&path, |v| {
        delete_model(v, 0);
        forget_order(v);
    });
    assert_eq!(cli, written);
}

#[test]
fn removing_a_model_that_is_not_there_changes_nothing() {
    let mut m = Bfres::from_binary(&two_models()).unwrap();
    let was = m.clone();
    let e = m.remove_model("Nothing").unwrap_err();
    assert!(
        e.to_string().contains("no model is named \"Nothing\""),
        "{e}"
    );
    assert_eq!(m, was);
}

/// Decodes `path` to JSON with the CLI, edits the document with `edit` and encodes it: what the encoding said,
/// and where it wrote (in a folder that lives as long as the `TempDir`).
fn encode_edited(
    path: &Path,
    edit: impl FnOnce(&mut Value),
) -> (binspec_tests::Run, PathBuf, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let (doc, out) = (dir.path().join("a.json"), dir.path().join("a.bfres"));
    let r = run(&["decode", s(path), "--json", "-o", s(&doc)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&doc).unwrap()).unwrap();
    edit(&mut v);
    std::fs::write(&doc, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let r = run(&["encode", "--format", "bfres", s(&doc), "-o", s(&out)]);
    (r, out, dir)
}

/// [`encode_edited`], which must succeed: the bytes written and the file they read as.
fn through_the_cli(path: &Path, edit: impl FnOnce(&mut Value)) -> (Vec<u8>, Bfres) {
    let (r, out, _dir) = encode_edited(path, edit);
    assert_eq!(r.code, 0, "{}", r.err);
    let written = std::fs::read(&out).unwrap();
    let back = Bfres::from_binary(&written).unwrap();
    (written, back)
}

/// Deletes model `i` of the document and its dictionary node.
fn delete_model(v: &mut Value, i: usize) {
    let body = v["body"]
        .as_object_mut()
        .and_then(|b| b.values_mut().next())
        .unwrap();
    body["models"].as_array_mut().unwrap().remove(i);
    body["model_dict"]["nodes"]
        .as_array_mut()
        .unwrap()
        .remove(i + 1);
    for n in body["model_dict"]["nodes"].as_array_mut().unwrap() {
        let n = n.as_object_mut().unwrap();
        for k in ["ref_bit", "left", "right"] {
            n.remove(k);
        }
    }
}

/// Deletes the order of the structures the file had, which names a deleted model's too (the writer refuses an
/// order that does not name each structure once).
fn forget_order(v: &mut Value) {
    v.as_object_mut().unwrap().remove("layout_item_order");
}

#[test]
fn the_only_model_removed_through_the_cli_version_8() {
    let Some((path, bytes)) = air_current() else {
        return;
    };
    let (written, _) = through_the_cli(&path, |v| {
        delete_model(v, 0);
        forget_order(v);
    });
    check_without_model(&bytes, &written);
    // The API removes the same: the same file.
    let mut m = Bfres::from_binary(&bytes).unwrap();
    m.remove_model("AirCurrent").unwrap();
    assert_eq!(m.to_binary().unwrap(), written);
}

/// A model deleted from the document with the file's order left in it: the writer refuses the order, which names
/// the deleted model's structures too (62 in the file; 6 are left: the runtime memory pool, the memory pool info
/// and its GPU region, the dictionary, the string pool, the relocation table), and says what to do, leaving no
/// file.
#[test]
fn an_order_left_after_a_deletion_is_refused_with_what_to_do() {
    let Some((path, _)) = air_current() else {
        return;
    };
    let (r, out, _dir) = encode_edited(&path, |v| delete_model(v, 0));
    assert_eq!(r.code, 1, "{}", r.out);
    assert!(
        r.err.contains("layout_item_order")
            && r.err
                .contains("(62 indices) does not name each of the 6 non-empty items once")
            && r.err.contains("remove the order"),
        "{}",
        r.err
    );
    assert!(!out.exists(), "no file is left behind");
}
