//! BNTX (`schemas/bntx.ksy`, with `nn_util.ksy` and `nn_gfx.ksy`): the fixtures that `scripts/fixtures/make_bntx.py`
//! wrote from the wiki pages alone (checked against their `.expected.json` sidecars, value by value), Super Mario
//! Odyssey's HomeBed.bntx from the shared corpus (skipped with a message when absent), and the CLI's decode, edit,
//! encode loop.

use std::path::{Path, PathBuf};

use binspec_formats::bntx::Bntx;
use binspec_runtime::Format as _;
use serde_json::Value;

use binspec_tests::{files_under, nn_util_relocation_entries, repo, run};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn fixtures() -> Vec<PathBuf> {
    let dir = repo().join("tests/fixtures/bntx");
    let is_file = |p: &PathBuf| p.extension().is_some_and(|x| x == "bntx");
    files_under(&dir).into_iter().filter(is_file).collect()
}

/// The model of a file, as the document a user sees (JSON).
fn doc(bytes: &[u8]) -> Value {
    let m = Bntx::from_binary(bytes).unwrap_or_else(|e| panic!("{e}"));
    serde_json::to_value(&m).unwrap()
}

/// The enum name binspec gives a wiki name: lower case, `Type2D` as `type2d`.
fn ident(wiki: &str) -> String {
    wiki.to_ascii_lowercase()
}

#[test]
fn fixtures_read_as_their_sidecars_say_and_write_back() {
    let files = fixtures();
    assert_eq!(files.len(), 5, "{files:?}");
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        let want: Value =
            serde_json::from_slice(&std::fs::read(f.with_extension("expected.json")).unwrap())
                .unwrap();
        let d = doc(&bytes);
        let name = f.display().to_string();
        let h = &d["header"];
        let wh = &want["header"];
        assert_eq!(h["version_major"], wh["version_major"], "{name}");
        assert_eq!(h["version_minor"], wh["version_minor"], "{name}");
        assert_eq!(h["alignment_shift"], wh["packed_alignment"], "{name}");
        // The file size is derived (the model keeps none); the file is as long as the sidecar says.
        assert!(h.get("file_size").is_none(), "{name}");
        assert_eq!(
            bytes.len() as u64,
            want["file_size"].as_u64().unwrap(),
            "{name}"
        );
        // The relocation table's offset is derived (where the writer puts it); the file has the sidecar's.
        assert!(h.get("relocation_table_ofs").is_none(), "{name}");
        assert_eq!(
            u64::from(u32_at(&bytes, 0x18)),
            wh["relocation_table_offset"].as_u64().unwrap(),
            "{name}"
        );
        let textures = d["container"]["textures"].as_array().unwrap();
        assert_eq!(
            textures.len() as u64,
            want["texture_count"].as_u64().unwrap(),
            "{name}"
        );
        for (t, w) in textures.iter().zip(want["textures"].as_array().unwrap()) {
            let t = &t["texture"];
            let at = format!("{name}: {}", w["name"]);
            assert_eq!(t["name"]["data"], w["name"], "{at}");
            let i = &t["info"];
            assert_eq!(i["width"], w["width"], "{at}");
            assert_eq!(i["height"], w["height"], "{at}");
            assert_eq!(i["depth"], w["depth"], "{at}");
            // The mip level count is derived from the mip level pointers (the model keeps none).
            assert!(i.get("mip_levels").is_none(), "{at}");
            assert_eq!(
                t["mip_ptrs"].as_array().unwrap().len() as u64,
                w["mip_count"].as_u64().unwrap(),
                "{at}"
            );
            assert_eq!(i["array_layers"], w["array_length"], "{at}");
            assert_eq!(
                i["image_format"].as_str().unwrap(),
                ident(w["format"]["name"].as_str().unwrap()),
                "{at}"
            );
            assert_eq!(
                i["tile_mode"].as_str().unwrap(),
                ident(w["tile_mode"]["name"].as_str().unwrap()),
                "{at}"
            );
            assert_eq!(
                i["storage_dimension"].as_str().unwrap(),
                ident(w["storage_dimension"]["name"].as_str().unwrap()),
                "{at}"
            );
            assert_eq!(t["texture_alignment"], w["data_alignment"], "{at}");
            // The mip level pointers are derived from where the writer puts the data: the model keeps each
            // level's offset into it (the first's is 0, and left out), and no pointer; the file has the sidecar's.
            let want_ptrs: Vec<u64> = w["mip_pointers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_u64().unwrap())
                .collect();
            let offsets: Vec<u64> = t["mip_ptrs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    assert!(
                        m.get("ptr").is_none(),
                        "{at}: the model keeps a pointer: {m}"
                    );
                    m.get("offset").and_then(Value::as_u64).unwrap_or(0)
                })
                .collect();
            let from_first: Vec<u64> = want_ptrs.iter().map(|p| p - want_ptrs[0]).collect();
            assert_eq!(offsets, from_first, "{at}");
            let le: Vec<u8> = want_ptrs.iter().flat_map(|p| p.to_le_bytes()).collect();
            assert!(
                bytes.windows(le.len()).any(|x| x == le),
                "{at}: the file does not hold the sidecar's mip level pointers"
            );
            let cs = &t["channel_sources"];
            assert_eq!(
                [&cs["r"], &cs["g"], &cs["b"], &cs["a"]]
                    .map(Clone::clone)
                    .to_vec(),
                *w["channel_sources"].as_array().unwrap(),
                "{at}"
            );
        }
        // The dictionary's keys, root first (the empty key).
        let keys: Vec<Value> = d["container"]["dictionary"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .skip(1)
            .map(|n| n["key"]["data"].clone())
            .collect();
        assert_eq!(
            keys,
            *want["dictionary"]["keys"].as_array().unwrap(),
            "{name}"
        );
        // The relocation table: its sections' regions as the sidecar says; their entries are derived from the
        // pointers the schema marks (the model keeps none), and the entries written are the sidecar's.
        let rt = &d["relocation_table"];
        let wt = &want["relocation_table"];
        // (The regions are derived from where the writer puts the GPU region and the table: the model keeps none.)
        let table = u32_at(&bytes, 0x18) as usize;
        for (i, (sct, w)) in rt["sections"]
            .as_array()
            .unwrap()
            .iter()
            .zip(wt["sections"].as_array().unwrap())
            .enumerate()
        {
            assert!(
                sct.get("region_ofs").is_none() && sct.get("region_size").is_none(),
                "{name}: the model keeps a region: {sct}"
            );
            let at = table + 0x10 + i * 0x18;
            assert_eq!(
                (
                    u64::from(u32_at(&bytes, at + 8)),
                    u64::from(u32_at(&bytes, at + 12))
                ),
                (w["offset"].as_u64().unwrap(), w["size"].as_u64().unwrap()),
                "{name}"
            );
            assert!(
                sct.get("entries").is_none() && sct.get("entry_count").is_none(),
                "{name}: the model keeps the table's entries: {sct}"
            );
        }
        let written = Bntx::from_binary(&bytes).unwrap().to_binary().unwrap();
        let want_entries: Vec<[u64; 4]> = wt["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                ["position", "struct_count", "pointer_count", "padding_count"]
                    .map(|k| e[k].as_u64().unwrap())
            })
            .collect();
        assert_eq!(nn_util_relocation_entries(&written), want_entries, "{name}");
        // Each texture's data, as long as the sidecar says; written back byte for byte.
        let m = Bntx::from_binary(&bytes).unwrap();
        for (t, w) in m
            .container
            .textures
            .iter()
            .zip(want["textures"].as_array().unwrap())
        {
            assert_eq!(
                Some(t.texture.data.len() as u64),
                w["data_size"].as_u64(),
                "{name}"
            );
        }
        assert!(
            m.to_binary().unwrap() == bytes,
            "{name}: written back otherwise"
        );
    }
}

/// Super Mario Odyssey's HomeBed.bntx (version 4.0.0): four BCn textures, written back byte for byte.
#[test]
fn home_bed_reads_and_writes_back() {
    let path = repo().join("../shared/corpus/real/bntx/HomeBed.bntx");
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("skipped: {} is absent", path.display());
        return;
    };
    let d = doc(&bytes);
    let got: Vec<(String, u64, u64, u64, String)> = d["container"]["textures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let t = &t["texture"];
            (
                t["name"]["data"].as_str().unwrap().to_string(),
                t["info"]["width"].as_u64().unwrap(),
                t["info"]["height"].as_u64().unwrap(),
                t["mip_ptrs"].as_array().unwrap().len() as u64,
                t["info"]["image_format"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(got.len(), 4, "{got:?}");
    // Nintendo's relocation table is what the writer derives from the pointers the schema marks: the model keeps
    // none of its 11 entries, and a texture's mip pointers moved into the GPU region's section are listed there.
    for s in d["relocation_table"]["sections"].as_array().unwrap() {
        assert!(s.get("entries").is_none(), "{s}");
    }
    // The pointers the entries list, each position once.
    let listed = |file: &[u8]| -> Vec<u64> {
        let mut ps: Vec<u64> = nn_util_relocation_entries(file)
            .iter()
            .flat_map(|&[p, s, c, pad]| {
                (0..s).flat_map(move |g| (0..c).map(move |k| p + 8 * (g * (c + pad) + k)))
            })
            .collect();
        ps.sort_unstable();
        ps
    };
    let mut m = Bntx::from_binary(&bytes).unwrap();
    let before = listed(&m.to_binary().unwrap());
    assert_eq!(before.len(), 71);
    // A pointer set where the file has a null one (the user memory pool's, at 0x48): listed too.
    m.container.user_memory_pool_ptr = 0x58;
    let after = listed(&m.to_binary().unwrap());
    assert_eq!(after.len(), 72);
    assert!(!before.contains(&0x48) && after.contains(&0x48));
    assert_eq!(
        got[0],
        ("BedBody_alb".into(), 512, 512, 10, "bc1_srgb".into())
    );
    assert_eq!(
        got[1],
        ("BedBody_mtl".into(), 256, 256, 9, "bc4_unorm".into())
    );
    assert_eq!(d["header"]["version_major"], 4);
    // Five strings and the empty one first (the count, derived, is not in the model).
    let strings: Vec<&str> = d["string_pool"]["strings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["data"].as_str().unwrap())
        .collect();
    assert_eq!(
        strings,
        [
            "",
            "BedBody_rgh",
            "BedBody_mtl",
            "BedBody_alb",
            "BedBody_nrm",
            "textures"
        ]
    );
    let m = Bntx::from_binary(&bytes).unwrap();
    assert!(
        m.to_binary().unwrap() == bytes,
        "HomeBed.bntx written back otherwise"
    );
}

/// The user's loop: `binspec decode`, edit the text, `binspec encode`, and the edit reads back (YAML and JSON).
#[test]
fn cli_decode_edit_encode() {
    let src = repo().join("tests/fixtures/bntx/bntx_single_rgba8_16x16.bntx");
    let original = std::fs::read(&src).unwrap();
    for ext in ["yaml", "json"] {
        let d = tempfile::tempdir().unwrap();
        // Unchanged, it encodes to the same bytes.
        let text = binspec_tests::cli_decode_unchanged(&src, d.path(), ext);
        let out = d.path().join("t.bntx");
        // An edit: the texture's red channel taken from its alpha (channel source 5).
        let t = std::fs::read_to_string(&text).unwrap();
        let edited = if ext == "json" {
            let mut v: Value = serde_json::from_str(&t).unwrap();
            v["container"]["textures"][0]["texture"]["channel_sources"]["r"] = 5.into();
            serde_json::to_string_pretty(&v).unwrap()
        } else {
            assert_eq!(t.matches("        r: 2\n").count(), 1, "{t}");
            t.replace("        r: 2\n", "        r: 5\n")
        };
        std::fs::write(&text, edited).unwrap();
        let r = run(&["encode", s(&text), "-o", s(&out), "--force"]);
        assert_eq!(r.code, 0, "{}", r.err);
        let back = doc(&std::fs::read(&out).unwrap());
        let cs = &back["container"]["textures"][0]["texture"]["channel_sources"];
        assert_eq!(
            (cs["r"].as_u64(), cs["g"].as_u64()),
            (Some(5), Some(3)),
            "{ext}"
        );
        let before = doc(&original);
        assert_eq!(
            before["container"]["textures"][0]["texture"]["name"],
            back["container"]["textures"][0]["texture"]["name"]
        );
    }
}

/// The fixtures are what `scripts/fixtures/make_bntx.py` writes (`--check` regenerates them into a temporary
/// folder and compares); skipped without python3.
#[test]
fn the_fixture_script_reproduces_the_fixtures() {
    binspec_tests::check_fixture_script("make_bntx.py");
}

/// Renaming a texture re-derives the dictionary: its nodes' reference bits and indices are not in the model, and
/// the writer computes them from the keys (a name of the same length, so that nothing moves; `bntx_edits.rs` has
/// longer names).
#[test]
fn renaming_a_texture_re_derives_the_dictionary() {
    use binspec_runtime::layout::resdic;
    let path = repo().join("../shared/corpus/real/bntx/HomeBed.bntx");
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("skipped: {} is absent", path.display());
        return;
    };
    let mut m = Bntx::from_binary(&bytes).unwrap();
    let nodes = &m.container.dictionary.nodes;
    assert!(nodes
        .iter()
        .all(|n| n.ref_bit.is_none() && n.left.is_none() && n.right.is_none()));
    let (old, new) = ("BedBody_mtl", "BedBody_alc");
    m.container.textures[1].texture.name.data = new.into();
    for n in m.container.dictionary.nodes.iter_mut() {
        if let Some(k) = n.key.as_mut().filter(|k| &*k.data == old) {
            k.data = new.into();
        }
    }
    for s in m.string_pool.strings.iter_mut().filter(|s| &*s.data == old) {
        s.data = new.into();
    }
    let out = m.to_binary().unwrap();
    assert_ne!(out, bytes);
    // Read back: the new name, and a dictionary whose values are the ones its keys make (the model keeps none).
    let back = Bntx::from_binary(&out).unwrap();
    let keys: Vec<String> = back.container.dictionary.nodes[1..]
        .iter()
        .map(|n| n.key.as_ref().unwrap().data.to_string())
        .collect();
    assert!(keys.contains(&new.to_string()), "{keys:?}");
    assert!(back
        .container
        .dictionary
        .nodes
        .iter()
        .all(|n| n.ref_bit.is_none()));
    // The tree written finds every name, from the values in the bytes (node i at the dictionary + 8 + 16 i).
    // (The container's dictionary pointer, derived, is at 0x38: the container starts at 0x20.)
    let at = u64::from_le_bytes(out[0x38..0x40].try_into().unwrap()) as usize;
    let written = binspec_tests::nn_util_dictionary_nodes(&out, at, keys.len());
    for (i, k) in keys.iter().enumerate() {
        assert_eq!(
            resdic::lookup(&written, &keys, k.as_bytes()),
            Some(i),
            "{k}"
        );
    }
    // The values changed with the key: they are not the old file's tree.
    let old_nodes = resdic::build(&bytes_keys(&Bntx::from_binary(&bytes).unwrap())).unwrap();
    assert_ne!(old_nodes, written);
}

/// The dictionary keys of a BNTX's texture dictionary (from node 1).
fn bytes_keys(m: &Bntx) -> Vec<Vec<u8>> {
    m.container.dictionary.nodes[1..]
        .iter()
        .map(|n| n.key.as_ref().unwrap().data.as_bytes().to_vec())
        .collect()
}

/// The little-endian u32 at `at`.
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
