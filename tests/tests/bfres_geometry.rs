//! BFRES geometry (`binspec_formats::bfres_geometry`): vertex attributes as `f32` values and index buffers as
//! `u32`, checked value by value against the `.expected.json` sidecars that `scripts/fixtures/make_bfres.py` wrote
//! from the wiki page alone (every stored format the fixtures use: 32- and 16-bit floats, 8-bit and 10-bit
//! snorm, 8- and 16-bit unorm; 16- and 32-bit indices), and for plausibility on Super Mario Odyssey's files of
//! the shared corpus (skipped with a message when absent). Crafted files get errors, not panics.

use std::path::{Path, PathBuf};

use binspec_formats::bfres::{Bfres, BfresBody};
use binspec_runtime::Format as _;
use serde_json::Value;

use binspec_tests::{files_under, repo};

fn fixtures() -> Vec<PathBuf> {
    let dir = repo().join("tests/fixtures/bfres");
    let is_file = |p: &PathBuf| p.extension().is_some_and(|x| x == "bfres");
    files_under(&dir).into_iter().filter(is_file).collect()
}

fn sidecar(p: &Path) -> Value {
    let json = p.with_extension("expected.json");
    serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap()
}

fn arr(v: &Value) -> &Vec<Value> {
    v.as_array().unwrap_or_else(|| panic!("not an array: {v}"))
}

#[test]
fn fixture_attributes_and_indices_are_the_sidecars_values() {
    let files = fixtures();
    assert!(files.len() >= 3, "fixtures: {files:?}");
    let (mut attrs, mut meshes) = (0, 0);
    for p in &files {
        let want = sidecar(p);
        let bfres = Bfres::from_binary(&std::fs::read(p).unwrap()).unwrap();
        for (mi, m) in arr(&want["models"]).iter().enumerate() {
            for (vi, v) in arr(&m["vertices"]).iter().enumerate() {
                let got = bfres.vertex_attributes(mi, vi).unwrap();
                let expect = arr(&v["attributes"]);
                assert_eq!(
                    got.len(),
                    expect.len(),
                    "{}: model {mi} set {vi}",
                    p.display()
                );
                for (g, e) in got.iter().zip(expect) {
                    let at = format!("{}: model {mi} set {vi} {}", p.display(), g.name);
                    assert_eq!(g.name, e["name"].as_str().unwrap(), "{at}");
                    assert_eq!(
                        g.values.len() as u64,
                        v["vertex_count"].as_u64().unwrap(),
                        "{at}"
                    );
                    for (gv, ev) in g.values.iter().zip(arr(&e["values"])) {
                        let ev = arr(ev);
                        assert_eq!(g.components, ev.len(), "{at}");
                        for (x, y) in gv.iter().zip(ev) {
                            let y = y.as_f64().unwrap() as f32;
                            assert!((x - y).abs() <= 1e-6, "{at}: {gv:?} against {ev:?}");
                        }
                        assert!(gv[ev.len()..].iter().all(|&x| x == 0.0), "{at}: {gv:?}");
                    }
                    attrs += 1;
                }
                let positions = bfres.positions(mi, vi).unwrap();
                let p0 = &expect.iter().find(|a| a["name"] == "_p0").unwrap()["values"];
                for (g, e) in positions.iter().zip(arr(p0)) {
                    let e: Vec<f32> = arr(e).iter().map(|x| x.as_f64().unwrap() as f32).collect();
                    assert_eq!(g[..], e[..3]);
                }
            }
            for (si, s) in arr(&m["shapes"]).iter().enumerate() {
                for (xi, x) in arr(&s["meshes"]).iter().enumerate() {
                    let got = bfres.mesh_indices(mi, si, xi).unwrap();
                    let want: Vec<u32> = arr(&x["indices"])
                        .iter()
                        .map(|i| i.as_u64().unwrap() as u32)
                        .collect();
                    assert_eq!(
                        got.indices,
                        want,
                        "{}: model {mi} shape {si} mesh {xi}",
                        p.display()
                    );
                    assert_eq!(
                        u64::from(got.base_vertex),
                        x["base_vertex"].as_u64().unwrap()
                    );
                    let width = match x["index_format"]["name"].as_str().unwrap() {
                        "Uint8" => 1,
                        "Uint16" => 2,
                        _ => 4,
                    };
                    let subs: Vec<(u32, u32)> = arr(&x["sub_meshes"])
                        .iter()
                        .map(|r| {
                            let o = r["offset"].as_u64().unwrap() as u32;
                            (o / width, r["index_count"].as_u64().unwrap() as u32)
                        })
                        .collect();
                    assert_eq!(got.sub_meshes, subs);
                    meshes += 1;
                }
            }
        }
    }
    // Every fixture holds geometry: a sidecar without it would make this test pass on nothing.
    assert!(
        attrs >= 8 && meshes >= 3,
        "{attrs} attributes, {meshes} meshes"
    );
}

#[test]
fn real_files_have_finite_positions_and_indices_within_their_vertices() {
    let dir = repo().join("../shared/corpus/real/bfres");
    for name in ["AirCurrent.bfres", "HomeBed.bfres"] {
        let path = dir.join(name);
        if !path.exists() {
            eprintln!("skipped: {} is absent", path.display());
            continue;
        }
        let bfres = Bfres::from_binary(&std::fs::read(&path).unwrap()).unwrap();
        let summaries = bfres.model_summaries();
        assert!(!summaries.is_empty(), "{name}");
        for (mi, m) in summaries.iter().enumerate() {
            let mut counts = Vec::new();
            for (vi, v) in m.vertex_sets.iter().enumerate() {
                let attrs = bfres.vertex_attributes(mi, vi).unwrap();
                assert_eq!(attrs.len(), v.attributes.len());
                for a in &attrs {
                    assert_eq!(a.values.len(), v.vertex_count as usize, "{name} {}", a.name);
                    assert!(
                        a.values.iter().flatten().all(|x| x.is_finite()),
                        "{name} {}",
                        a.name
                    );
                }
                let p = bfres.positions(mi, vi).unwrap();
                // Not all at one point: positions read from the wrong bytes would hardly spread like a model.
                let spread = p.iter().any(|q| q != &p[0]);
                assert!(spread && p.len() > 3, "{name}: {} positions", p.len());
                // Normals are unit vectors, within the format's rounding: nearly all of them (HomeBed.bfres
                // stores 7 of 954 at half length, as its bytes show); a misread buffer would have few.
                if let Some(n) = attrs.iter().find(|a| a.name == "_n0") {
                    let unit = n.values.iter().filter(|v| {
                        let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
                        (len - 1.0).abs() < 0.02
                    });
                    let share = unit.count() as f64 / n.values.len() as f64;
                    assert!(
                        share > 0.99,
                        "{name}: {share} of the normals are unit vectors"
                    );
                }
                // Tangents, where present: w is the handedness, -1 or 1.
                if let Some(t) = attrs.iter().find(|a| a.name == "_t0") {
                    // (HomeBed.bfres has 23 zero tangents.)
                    let hand = |v: &[f32; 4]| v[3] == 0.0 || v[3].abs() == 1.0;
                    assert!(t.values.iter().all(hand), "{name}: tangents");
                }
                counts.push(v.vertex_count);
            }
            for (si, s) in m.shapes.iter().enumerate() {
                let n = counts[usize::from(s.vertex_set)];
                for (xi, &count) in s.index_counts.iter().enumerate() {
                    let x = bfres.mesh_indices(mi, si, xi).unwrap();
                    assert_eq!(x.indices.len(), count as usize);
                    assert!(
                        x.indices.iter().all(|&i| i + x.base_vertex < n),
                        "{name}: shape {} mesh {xi} names a vertex past {n}",
                        s.name
                    );
                    // Triangles use every vertex of a lod 0 mesh: a misread buffer would not.
                    if xi == 0 {
                        let max = x.indices.iter().max().copied().unwrap_or(0);
                        assert_eq!(max + 1, n, "{name}: shape {}", s.name);
                    }
                }
            }
        }
    }
}

/// The first vertex set of the first model of a fixture, through either version's types.
fn first_set(b: &mut Bfres) -> &mut binspec_formats::bfres::Vertex {
    match &mut b.body {
        Some(BfresBody::ResFile(f)) => {
            &mut f.models.as_mut().unwrap()[0].vertices.as_mut().unwrap()[0]
        }
        _ => panic!("the fixtures are version 10"),
    }
}

#[test]
fn crafted_counts_and_offsets_are_errors_naming_where() {
    let p = repo().join("tests/fixtures/bfres/bfres_quad_single.bfres");
    let bytes = std::fs::read(&p).unwrap();
    let good = Bfres::from_binary(&bytes).unwrap();

    // A vertex count of 4 billion: refused before anything is allocated.
    let mut b = good.clone();
    first_set(&mut b).vertex_count = u32::MAX;
    let e = b.vertex_attributes(0, 0).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("models[0].vertices[0].attributes[0]"), "{msg}");
    assert!(msg.contains("4294967295 vertices"), "{msg}");

    // A base offset past the GPU region.
    let mut b = good.clone();
    first_set(&mut b).base_offset = 0xffff_fff0;
    let msg = b.vertex_attributes(0, 0).unwrap_err().to_string();
    assert!(msg.contains("GPU region"), "{msg}");

    // A format that is no vertex format (BC1), and a buffer index past the set's buffers.
    let mut b = good.clone();
    first_set(&mut b).attributes.as_mut().unwrap()[0].format = 0x1a01;
    let msg = b.vertex_attributes(0, 0).unwrap_err().to_string();
    assert!(msg.contains("0x1a01"), "{msg}");
    let mut b = good.clone();
    first_set(&mut b).attributes.as_mut().unwrap()[1].buffer_index = 9;
    let msg = b.vertex_attributes(0, 0).unwrap_err().to_string();
    assert!(
        msg.contains("attributes[1]") && msg.contains("buffer 9"),
        "{msg}"
    );

    // An index count the index buffer does not hold.
    let mut b = good.clone();
    if let Some(BfresBody::ResFile(f)) = &mut b.body {
        let shape = &mut f.models.as_mut().unwrap()[0].shapes.as_mut().unwrap()[0];
        shape.meshes.as_mut().unwrap()[0].index_count = 1 << 30;
    }
    let msg = b.mesh_indices(0, 0, 0).unwrap_err().to_string();
    assert!(msg.contains("models[0].shapes[0].meshes[0]"), "{msg}");
    assert!(msg.contains("1073741824 indices"), "{msg}");

    // Indices that do not exist.
    assert!(good
        .mesh_indices(0, 5, 0)
        .unwrap_err()
        .to_string()
        .contains("shape 5, of 1"));
    assert!(good
        .vertex_attributes(3, 0)
        .unwrap_err()
        .to_string()
        .contains("model 3, of 1"));
}

/// Mutated fixtures (bytes of the headers, sets and meshes changed, seeded): whatever still reads as a BFRES gives
/// values or errors for every set and mesh, never a panic.
#[test]
fn mutated_files_give_values_or_errors() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut read, mut errors) = (0, 0);
    for p in fixtures() {
        let good = std::fs::read(&p).unwrap();
        for _ in 0..150 {
            let mut bytes = good.clone();
            for _ in 0..1 + next() % 4 {
                let at = (next() % 0x1800) as usize % bytes.len();
                bytes[at] = next() as u8;
            }
            let Ok(m) = Bfres::from_binary(&bytes) else {
                continue;
            };
            read += 1;
            for (mi, model) in m.model_summaries().iter().enumerate() {
                for vi in 0..model.vertex_sets.len() {
                    errors += usize::from(m.vertex_attributes(mi, vi).is_err());
                }
                for (si, s) in model.shapes.iter().enumerate() {
                    for xi in 0..s.index_counts.len() {
                        errors += usize::from(m.mesh_indices(mi, si, xi).is_err());
                    }
                }
            }
        }
    }
    // Most mutations leave a file that reads; some of those give geometry errors.
    assert!(read > 100, "{read} mutated files read");
    eprintln!("{read} mutated files read, {errors} geometry errors");
}
