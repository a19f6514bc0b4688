//! BFRES (`schemas/bfres.ksy`): the version 10 fixtures that `scripts/fixtures/make_bfres.py` wrote from the wiki
//! page alone, by someone who had not seen the schema (read value by value against their `.expected.json`
//! sidecars, and written back byte for byte); Super Mario Odyssey's version 8 files from the shared corpus
//! (skipped with a message when absent); and the CLI's decode, edit, encode loop.

use std::path::{Path, PathBuf};

use binspec_formats::bfres::Bfres;
use binspec_runtime::Format as _;
use serde_json::Value;

use binspec_tests::{
    files_under, nn_util_relocation_entries, nn_util_relocation_sections, repo, run,
};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn fixtures() -> Vec<PathBuf> {
    let dir = repo().join("tests/fixtures/bfres");
    let is_file = |p: &PathBuf| p.extension().is_some_and(|x| x == "bfres");
    files_under(&dir).into_iter().filter(is_file).collect()
}

/// The model of a file, as the document a user sees (JSON).
fn doc(bytes: &[u8]) -> Value {
    let m = Bfres::from_binary(bytes).unwrap_or_else(|e| panic!("{e}"));
    serde_json::to_value(&m).unwrap()
}

/// An enum name, compared without case and underscores: the sidecar's `TriangleList` and `UInt` are binspec's
/// `triangle_list` and `uint`.
fn snake(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn arr(v: &Value) -> &Vec<Value> {
    v.as_array().unwrap_or_else(|| panic!("not an array: {v}"))
}

/// An array the model leaves out where its pointer is null (an empty one in the sidecar).
fn opt_arr<'a>(v: &'a Value, key: &str) -> Vec<&'a Value> {
    v[key]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default()
}

fn name(v: &Value) -> &str {
    v["data"].as_str().unwrap_or_else(|| panic!("no name: {v}"))
}

#[test]
fn fixtures_read_as_their_sidecars_say_and_write_back() {
    let files = fixtures();
    assert_eq!(files.len(), 3, "{files:?}");
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let want: Value = serde_json::from_str(
            &std::fs::read_to_string(path.with_extension("expected.json")).unwrap(),
        )
        .unwrap();
        let d = doc(&bytes);
        let file = path.file_name().unwrap().to_str().unwrap();
        let h = &want["header"];
        assert_eq!(d["header"]["version_major"], h["version_major"], "{file}");
        assert_eq!(d["header"]["version_minor"], h["version_minor"], "{file}");
        assert_eq!(d["header"]["version_micro"], h["version_micro"], "{file}");
        assert_eq!(
            d["header"]["alignment_shift"], h["packed_alignment"],
            "{file}"
        );
        let rf = &d["body"]["res_file"];
        assert_eq!(
            name(&rf["name"]),
            h["file_name"].as_str().unwrap(),
            "{file}"
        );

        let models = arr(&rf["models"]);
        let want_models = arr(&want["models"]);
        assert_eq!(models.len(), want_models.len(), "{file}");
        for (m, wm) in models.iter().zip(want_models) {
            let at = format!("{file}: model {}", wm["name"]);
            assert_eq!(name(&m["name"]), wm["name"].as_str().unwrap(), "{at}");
            for (v, wv) in arr(&m["vertices"]).iter().zip(arr(&wm["vertices"])) {
                assert_eq!(v["vertex_count"], wv["vertex_count"], "{at}");
                let attrs: Vec<(String, u64, u64, u64)> = arr(&v["attributes"])
                    .iter()
                    .map(|a| {
                        (
                            name(&a["name"]).to_string(),
                            a["format"].as_u64().unwrap(),
                            a["buffer_offset"].as_u64().unwrap(),
                            a["buffer_index"].as_u64().unwrap(),
                        )
                    })
                    .collect();
                let want_attrs: Vec<(String, u64, u64, u64)> = arr(&wv["attributes"])
                    .iter()
                    .map(|a| {
                        (
                            a["name"].as_str().unwrap().to_string(),
                            a["format"]["value"].as_u64().unwrap(),
                            a["buffer_offset"].as_u64().unwrap(),
                            a["buffer_index"].as_u64().unwrap(),
                        )
                    })
                    .collect();
                assert_eq!(attrs, want_attrs, "{at}");
                let bufs: Vec<(u64, u64)> = arr(&v["buffer_infos"])
                    .iter()
                    .zip(arr(&v["buffer_strides"]))
                    .map(|(i, st)| (i["size"].as_u64().unwrap(), st["stride"].as_u64().unwrap()))
                    .collect();
                let want_bufs: Vec<(u64, u64)> = arr(&wv["buffers"])
                    .iter()
                    .map(|b| (b["size"].as_u64().unwrap(), b["stride"].as_u64().unwrap()))
                    .collect();
                assert_eq!(bufs, want_bufs, "{at}");
            }
            let shapes = arr(&m["shapes"]);
            let want_shapes = arr(&wm["shapes"]);
            assert_eq!(shapes.len(), want_shapes.len(), "{at}");
            for (sh, ws) in shapes.iter().zip(want_shapes) {
                assert_eq!(name(&sh["name"]), ws["name"].as_str().unwrap(), "{at}");
                assert_eq!(sh["material_index"], ws["material_index"], "{at}");
                assert_eq!(sh["vertex_index"], ws["vertex_index"], "{at}");
                // (The count is derived from the key shapes: the model holds it only where they are absent.)
                assert_eq!(
                    opt_arr(sh, "key_shapes").len() as u64,
                    ws["key_shape_count"].as_u64().unwrap(),
                    "{at}"
                );
                assert_eq!(sh["key_shape_count"], Value::Null, "{at}");
                let xyz = |v: &Value| -> Vec<f64> {
                    match v.as_array() {
                        Some(a) => a.iter().map(|x| x.as_f64().unwrap()).collect(),
                        None => ["x", "y", "z"]
                            .iter()
                            .map(|k| v[k].as_f64().unwrap())
                            .collect(),
                    }
                };
                let boxes: Vec<(Vec<f64>, Vec<f64>)> = arr(&sh["bounding_boxes"])
                    .iter()
                    .map(|b| (xyz(&b["position"]), xyz(&b["extent"])))
                    .collect();
                let want_boxes: Vec<(Vec<f64>, Vec<f64>)> = arr(&ws["bounding_boxes"])
                    .iter()
                    .map(|b| (xyz(&b["center"]), xyz(&b["extent"])))
                    .collect();
                assert_eq!(boxes, want_boxes, "{at}");
                for (me, wme) in arr(&sh["meshes"]).iter().zip(arr(&ws["meshes"])) {
                    let topo = snake(wme["primitive_topology"]["name"].as_str().unwrap());
                    assert_eq!(
                        snake(me["primitive_topology"].as_str().unwrap()),
                        topo,
                        "{at}"
                    );
                    let fmt = snake(wme["index_format"]["name"].as_str().unwrap());
                    assert_eq!(snake(me["index_format"].as_str().unwrap()), fmt, "{at}");
                    assert_eq!(me["index_count"], wme["index_count"], "{at}");
                    assert_eq!(me["base_vertex"], wme["base_vertex"], "{at}");
                    assert_eq!(me["sub_meshes"], wme["sub_meshes"], "{at}");
                    assert_eq!(me["index_buffer"]["size"], wme["index_buffer_size"], "{at}");
                }
            }
            let mats = arr(&m["materials"]);
            let want_mats = arr(&wm["materials"]);
            assert_eq!(mats.len(), want_mats.len(), "{at}");
            for (mt, wmt) in mats.iter().zip(want_mats) {
                assert_eq!(name(&mt["name"]), wmt["name"].as_str().unwrap(), "{at}");
                // (A material with no textures has no array: its pointer is null.)
                let tex: Vec<&str> = mt["texture_names"]
                    .as_array()
                    .map(|v| v.iter().map(|t| name(&t["value"])).collect())
                    .unwrap_or_default();
                let want_tex: Vec<&str> = arr(&wmt["textures"])
                    .iter()
                    .map(|t| t.as_str().or_else(|| t["name"].as_str()).unwrap())
                    .collect();
                assert_eq!(tex, want_tex, "{at}");
                assert_eq!(
                    opt_arr(mt, "user_data").len() as u64,
                    wmt["user_data_count"].as_u64().unwrap(),
                    "{at}"
                );
                // Each render info's values, typed as the sidecar lists them (the size of their block and
                // its position are derived).
                let infos = opt_arr(&mt["render_info_values"], "render_infos");
                let want_infos = opt_arr(wmt, "render_infos");
                assert_eq!(infos.len(), want_infos.len(), "{at}");
                let offsets = opt_arr(mt, "render_info_value_offsets");
                let counts = opt_arr(mt, "render_info_value_counts");
                for (i, (info, want)) in infos.iter().zip(want_infos).enumerate() {
                    let v = &info["values"];
                    let want_values = arr(&want["values"]);
                    match snake(want["type"]["name"].as_str().unwrap()).as_str() {
                        "string" => {
                            let got: Vec<&str> = arr(&v["strings"])
                                .iter()
                                .map(|x| name(&x["value"]))
                                .collect();
                            let want: Vec<&str> =
                                want_values.iter().map(|x| x.as_str().unwrap()).collect();
                            assert_eq!(got, want, "{at}: render info {i}");
                        }
                        "int" => assert_eq!(arr(&v["ints"]), want_values, "{at}: render info {i}"),
                        _ => {
                            // (Stored as f32: compared within its precision.)
                            let got = arr(&v["floats"]);
                            assert_eq!(got.len(), want_values.len(), "{at}: render info {i}");
                            for (g, w) in got.iter().zip(want_values) {
                                let (g, w) = (g.as_f64().unwrap(), w.as_f64().unwrap());
                                assert!(
                                    (g - w).abs() <= w.abs() * 1e-6,
                                    "{at}: render info {i}: {g} {w}"
                                );
                            }
                        }
                    }
                    assert_eq!(offsets[i], &want["offset"], "{at}: render info {i}");
                    assert_eq!(counts[i], &want["count"], "{at}: render info {i}");
                }
            }
            for (r, wr) in arr(&m["shader_reflections"])
                .iter()
                .zip(arr(&wm["shader_reflections"]))
            {
                assert_eq!(
                    name(&r["archive_name"]),
                    wr["shader_archive"].as_str().unwrap()
                );
                assert_eq!(name(&r["name"]), wr["shader_name"].as_str().unwrap());
                let infos: Vec<(String, String)> = opt_arr(r, "render_infos")
                    .iter()
                    .map(|i| (name(&i["name"]).into(), snake(i["type"].as_str().unwrap())))
                    .collect();
                let want_infos: Vec<(String, String)> = arr(&wr["render_infos"])
                    .iter()
                    .map(|i| {
                        (
                            i["name"].as_str().unwrap().into(),
                            snake(i["type"]["name"].as_str().unwrap()),
                        )
                    })
                    .collect();
                assert_eq!(infos, want_infos, "{at}");
                let params: Vec<(String, String, u64)> = opt_arr(r, "shader_params")
                    .iter()
                    .map(|p| {
                        (
                            name(&p["name"]).into(),
                            snake(p["type"].as_str().unwrap()),
                            p["offset"].as_u64().unwrap(),
                        )
                    })
                    .collect();
                let want_params: Vec<(String, String, u64)> = arr(&wr["shader_params"])
                    .iter()
                    .map(|p| {
                        (
                            p["name"].as_str().unwrap().into(),
                            snake(p["type"]["name"].as_str().unwrap()),
                            p["offset"].as_u64().unwrap(),
                        )
                    })
                    .collect();
                assert_eq!(params, want_params, "{at}");
            }
        }

        // Embedded files: their data, and their names from the dictionary.
        let want_files = arr(&want["embedded_files"]);
        // (Their offsets and sizes are derived, so read from the bytes: version 10's embedded file array pointer
        // at 0xb8, each entry a u64 offset and a u32 size, 0x10 bytes.)
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
        let n_files = rf["embed_files"].as_array().map_or(0, |v| v.len());
        let files: Vec<(u64, u64)> = (0..n_files)
            .map(|i| {
                let e = u64_at(0xb8) as usize + i * 0x10;
                (u64_at(e), u64_at(e + 8) & 0xffff_ffff)
            })
            .collect();
        let model = Bfres::from_binary(&bytes).unwrap();
        let embedded = model.embedded_files();
        assert_eq!(embedded.len(), files.len(), "{file}");
        for ((at, len), (_, e)) in files.iter().zip(&embedded) {
            let b = &bytes[*at as usize..(at + len) as usize];
            assert!(b == &e.data[..], "{file}: the embedded file at {at:#x}");
        }
        let want_embedded: Vec<(u64, u64)> = want_files
            .iter()
            .map(|e| (e["offset"].as_u64().unwrap(), e["size"].as_u64().unwrap()))
            .collect();
        assert_eq!(files, want_embedded, "{file}");

        // The string pool, the empty string first.
        let strings: Vec<&str> = arr(&rf["strings"]["strings"]).iter().map(name).collect();
        let want_strings: Vec<&str> = arr(&want["string_pool"]["strings"])
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        assert_eq!(strings[0], "", "{file}");
        assert_eq!(&strings[1..], &want_strings[..], "{file}");

        // The relocation table: its sections' regions as the sidecar says, and, written (derived from the
        // pointers the schema marks, or kept where the file lists others), the sidecar's entries.
        // (The first section's region is derived: read from the bytes.)
        let wrt = &want["relocation_table"];
        let sections = nn_util_relocation_sections(&bytes);
        let want_sections: Vec<[u64; 2]> = arr(&wrt["sections"])
            .iter()
            .map(|x| ["offset", "size"].map(|k| x[k].as_u64().unwrap()))
            .collect();
        assert_eq!(sections, want_sections, "{file}");
        let want_entries: Vec<[u64; 4]> = arr(&wrt["entries"])
            .iter()
            .map(|x| {
                ["position", "struct_count", "pointer_count", "padding_count"]
                    .map(|k| x[k].as_u64().unwrap())
            })
            .collect();
        let written = Bfres::from_binary(&bytes).unwrap().to_binary().unwrap();
        assert_eq!(nn_util_relocation_entries(&written), want_entries, "{file}");

        let m = Bfres::from_binary(&bytes).unwrap();
        assert!(
            m.to_binary().unwrap() == bytes,
            "{file}: written back otherwise"
        );
    }
}

/// Super Mario Odyssey's version 8 files, written back byte for byte; AirCurrent's model as the schema's doc says.
#[test]
fn version_8_files_read_and_write_back() {
    let dir = repo().join("../shared/corpus/real/bfres");
    for f in ["AirCurrent.bfres", "HomeBed.bfres"] {
        let path = dir.join(f);
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!("skipped: {} is absent", path.display());
            continue;
        };
        let m = Bfres::from_binary(&bytes).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert_eq!(m.header.version_major, 8, "{f}");
        assert!(
            m.to_binary().unwrap() == bytes,
            "{f}: written back otherwise"
        );
        let d = serde_json::to_value(&m).unwrap();
        let models = arr(&d["body"]["res_file_v8"]["models"]);
        assert_eq!(models.len(), 1, "{f}");
    }
}

/// The user's loop on a fixture: `binspec decode`, edit values in place (in YAML as text, a mesh's base vertex;
/// in JSON, that and a vertex attribute's buffer offset), `binspec encode`, and the edits read back.
#[test]
fn cli_decode_edit_encode() {
    let src = repo().join("tests/fixtures/bfres/bfres_quad_single.bfres");
    let original = std::fs::read(&src).unwrap();
    for ext in ["yaml", "json"] {
        let d = tempfile::tempdir().unwrap();
        let text = binspec_tests::cli_decode_unchanged(&src, d.path(), ext);
        let out = d.path().join("t.bfres");
        let t = std::fs::read_to_string(&text).unwrap();
        let edited = if ext == "json" {
            let mut v: Value = serde_json::from_str(&t).unwrap();
            let m = &mut v["body"]["res_file"]["models"][0];
            m["vertices"][0]["attributes"][1]["buffer_offset"] = 4.into();
            m["shapes"][0]["meshes"][0]["base_vertex"] = 2.into();
            serde_json::to_string_pretty(&v).unwrap()
        } else {
            assert_eq!(t.matches(" base_vertex: 0\n").count(), 1, "{t}");
            t.replace(" base_vertex: 0\n", " base_vertex: 2\n")
        };
        std::fs::write(&text, edited).unwrap();
        let mut args = vec!["encode", s(&text), "-o", s(&out)];
        if ext == "json" {
            args.extend(["--format", "bfres"]);
        }
        let r = run(&args);
        assert_eq!(r.code, 0, "{}", r.err);
        let back = doc(&std::fs::read(&out).unwrap());
        let bm = &back["body"]["res_file"]["models"][0];
        assert_eq!(bm["shapes"][0]["meshes"][0]["base_vertex"], 2, "{ext}");
        let offset = if ext == "json" { 4 } else { 0 };
        assert_eq!(
            bm["vertices"][0]["attributes"][1]["buffer_offset"], offset,
            "{ext}"
        );
        assert_eq!(std::fs::read(&out).unwrap().len(), original.len());
    }
}

/// The fixtures are what `scripts/fixtures/make_bfres.py` writes (`--check` regenerates them into a temporary
/// folder and compares); skipped without python3.
#[test]
fn the_fixture_script_reproduces_the_fixtures() {
    binspec_tests::check_fixture_script("make_bfres.py");
}

/// A bone's transform edited through the CLI (Super Mario Odyssey's AirCurrent.bfres, version 8): decode to JSON,
/// move the root bone and scale it, encode, and the file reads back with the new transform and nothing else
/// changed but those 24 bytes.
#[test]
fn cli_edit_a_bones_transform() {
    let src = repo().join("../shared/corpus/real/bfres/AirCurrent.bfres");
    let Ok(original) = std::fs::read(&src) else {
        eprintln!("skipped: {} is absent", src.display());
        return;
    };
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("a.json");
    let out = d.path().join("a.bfres");
    let r = run(&["decode", s(&src), "-o", s(&json), "--json"]);
    assert_eq!(r.code, 0, "{}", r.err);
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let bone = &mut v["body"]["res_file_v8"]["models"][0]["skeleton_data"]["bones"][0];
    assert_eq!(name(&bone["name"]), "nw4f_root");
    bone["translation"] = serde_json::json!({"x": 1.5, "y": -2.0, "z": 300.25});
    bone["scale"]["y"] = 2.0.into();
    std::fs::write(&json, serde_json::to_string(&v).unwrap()).unwrap();
    let r = run(&["encode", s(&json), "-o", s(&out), "--format", "bfres"]);
    assert_eq!(r.code, 0, "{}", r.err);
    let bytes = std::fs::read(&out).unwrap();
    let back = doc(&bytes);
    let bone = &back["body"]["res_file_v8"]["models"][0]["skeleton_data"]["bones"][0];
    assert_eq!(
        bone["translation"],
        serde_json::json!({"x": 1.5, "y": -2.0, "z": 300.25})
    );
    assert_eq!(
        bone["scale"],
        serde_json::json!({"x": 1.0, "y": 2.0, "z": 1.0})
    );
    assert_eq!(bytes.len(), original.len());
    let changed = bytes.iter().zip(&original).filter(|(a, b)| a != b).count();
    assert!((1..=16).contains(&changed), "{changed} bytes changed");
}

/// `binspec info` on each version: its models and embedded files, counted from either layout.
#[test]
fn cli_info_counts_models_and_embedded_files() {
    for (file, models, embedded) in [
        ("tests/fixtures/bfres/bfres_two_models_formats.bfres", 2, 0),
        ("tests/fixtures/bfres/bfres_embedded_files.bfres", 1, 3),
        ("../shared/corpus/real/bfres/AirCurrent.bfres", 1, 0),
    ] {
        let path = repo().join(file);
        if !path.exists() {
            eprintln!("skipped: {} is absent", path.display());
            continue;
        }
        let r = run(&["info", s(&path)]);
        assert_eq!(r.code, 0, "{}", r.err);
        assert!(r.out.starts_with("bfres: "), "{}", r.out);
        assert!(
            r.out.contains(&format!("\nmodels: {models}\n")),
            "{}",
            r.out
        );
        assert!(
            r.out.contains(&format!("\nembedded files: {embedded}\n")),
            "{}",
            r.out
        );
        // With --json, the models as `Bfres::model_summaries` gives them, by name.
        let r = run(&["info", "--json", s(&path)]);
        assert_eq!(r.code, 0, "{}", r.err);
        let v: Value = serde_json::from_str(&r.out).unwrap();
        let m = Bfres::from_binary(&std::fs::read(&path).unwrap()).unwrap();
        let names: Vec<&str> = arr(&v["models"])
            .iter()
            .map(|x| x["name"].as_str().unwrap())
            .collect();
        let want: Vec<String> = m.model_summaries().into_iter().map(|x| x.name).collect();
        assert_eq!(names.len(), models, "{file}");
        assert_eq!(names, want, "{file}");
    }
}

/// `Bfres::model_summaries` against the sidecars: model, shape and material names, each shape's material by name,
/// and each attribute's format named as the sidecar names it (`R32G32B32_Float`: `r32g32b32 float`).
#[test]
fn model_summaries_name_what_the_sidecars_say() {
    let norm = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    for path in fixtures() {
        let want: Value = serde_json::from_str(
            &std::fs::read_to_string(path.with_extension("expected.json")).unwrap(),
        )
        .unwrap();
        let m = Bfres::from_binary(&std::fs::read(&path).unwrap()).unwrap();
        let got = m.model_summaries();
        let wm = arr(&want["models"]);
        assert_eq!(got.len(), wm.len());
        for (g, w) in got.iter().zip(wm) {
            assert_eq!(g.name, w["name"].as_str().unwrap());
            let mats: Vec<&str> = arr(&w["materials"])
                .iter()
                .map(|x| x["name"].as_str().unwrap())
                .collect();
            assert_eq!(g.materials, mats);
            for (gs, ws) in g.shapes.iter().zip(arr(&w["shapes"])) {
                assert_eq!(gs.name, ws["name"].as_str().unwrap());
                let mi = ws["material_index"].as_u64().unwrap() as usize;
                assert_eq!(gs.material.as_deref(), Some(mats[mi]));
            }
            for (gv, wv) in g.vertex_sets.iter().zip(arr(&w["vertices"])) {
                let formats: Vec<(String, String)> = gv
                    .attributes
                    .iter()
                    .map(|a| (a.name.clone(), norm(&a.format)))
                    .collect();
                let want_formats: Vec<(String, String)> = arr(&wv["attributes"])
                    .iter()
                    .map(|a| {
                        (
                            a["name"].as_str().unwrap().into(),
                            norm(a["format"]["name"].as_str().unwrap()),
                        )
                    })
                    .collect();
                assert_eq!(formats, want_formats);
            }
        }
    }
    // `binspec info` prints them: AirCurrent's one model, shape, material and bone.
    let path = repo().join("../shared/corpus/real/bfres/AirCurrent.bfres");
    if !path.exists() {
        return eprintln!("skipped: {} is absent", path.display());
    }
    let r = run(&["info", s(&path)]);
    assert!(
        r.out.contains("model \"AirCurrent\": 1 shapes, 1 materials (Default_Material), 1 bones\n")
            && r.out.contains("  shape \"nw4f_root__Default_Material__0\": material \"Default_Material\", vertex set 0, indices [36]\n")
            && r.out.contains("_p0 r32g32b32 float (buffer 0 +0)"),
        "{}",
        r.out
    );
}

/// The sections of a file's relocation table that its model keeps (`entries` present), by index; no section
/// keeps its region.
fn kept_sections(bytes: &[u8]) -> Vec<usize> {
    let d = doc(bytes);
    let sections = arr(&d["relocation_table"]["sections"]);
    // (Every section's region is derived: where the writer puts what the section covers.)
    for s in sections {
        assert!(
            s.get("region_ofs").is_none() && s.get("region_size").is_none(),
            "a region kept: {s}"
        );
    }
    sections
        .iter()
        .enumerate()
        .filter(|(_, s)| s.get("entries").is_some())
        .map(|(i, _)| i)
        .collect()
}

/// The relocation table is derived from the pointers the schema marks: Nintendo's files (AirCurrent.bfres and
/// the BFRES inside sarc/HomeBed.szs, version 8) and the fixtures written from the page (version 10) keep none of
/// its entries, and write back byte for byte. The corpus' HomeBed.bfres, which another tool wrote again, lists
/// null pointers that Nintendo's files do not: it keeps its first section's entries.
#[test]
fn relocation_tables_are_derived_from_the_marked_pointers() {
    use binspec_formats::sarc::Sarc;
    use binspec_runtime::Archive as _;
    let mut files: Vec<(String, Vec<u8>)> = fixtures()
        .iter()
        .map(|p| (p.display().to_string(), std::fs::read(p).unwrap()))
        .collect();
    let real = repo().join("../shared/corpus/real");
    let air = real.join("bfres/AirCurrent.bfres");
    let szs = real.join("sarc/HomeBed.szs");
    let rewritten = real.join("bfres/HomeBed.bfres");
    if let (Ok(a), Ok(s)) = (std::fs::read(&air), std::fs::read(&szs)) {
        files.push((air.display().to_string(), a));
        let (sarc, _) = binspec_runtime::compress::decompress(&s).unwrap();
        let sarc = Sarc::from_binary(&sarc).unwrap();
        let inner = sarc
            .get("HomeBed.bfres")
            .expect("HomeBed.bfres in HomeBed.szs");
        files.push(("HomeBed.szs/HomeBed.bfres".into(), inner.to_vec()));
    } else {
        eprintln!("skipped: {} or {} is absent", air.display(), szs.display());
    }
    assert!(files.len() >= 3);
    for (name, bytes) in &files {
        assert_eq!(kept_sections(bytes), Vec::<usize>::new(), "{name}");
        let m = Bfres::from_binary(bytes).unwrap();
        assert!(
            m.to_binary().unwrap() == *bytes,
            "{name}: written back otherwise"
        );
    }
    if let Ok(bytes) = std::fs::read(&rewritten) {
        assert_eq!(kept_sections(&bytes), [0]);
        assert!(Bfres::from_binary(&bytes).unwrap().to_binary().unwrap() == bytes);
    }
}
