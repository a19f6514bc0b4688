//! BFRES shader parameters (`binspec_formats::bfres_params`): every parameter of the version 10 fixtures against
//! the sidecars written from the page (name, type, offset, size, and the float values), a parameter changed and
//! read back with nothing else changed, and the same on Super Mario Odyssey's AirCurrent.bfres (version 8; skipped
//! with a message when the corpus is absent).

use std::path::PathBuf;

use binspec_formats::bfres::Bfres;
use binspec_runtime::Format as _;
use serde_json::Value;

use binspec_tests::{files_under, repo};

fn fixtures() -> Vec<PathBuf> {
    let is_file = |p: &PathBuf| p.extension().is_some_and(|x| x == "bfres");
    files_under(&repo().join("tests/fixtures/bfres"))
        .into_iter()
        .filter(is_file)
        .collect()
}

/// The sidecar's type name as the schema names it: `Matrix3x4` is `matrix3x4`, `UInt` is `uint`.
fn ty(v: &Value) -> String {
    v["name"].as_str().unwrap().to_ascii_lowercase()
}

/// The bytes where two files differ.
fn differing(a: &[u8], b: &[u8]) -> Vec<usize> {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn fixture_parameters_are_what_the_sidecars_say() {
    let mut compared = 0;
    for f in fixtures() {
        let bytes = std::fs::read(&f).unwrap();
        let m = Bfres::from_binary(&bytes).unwrap();
        let want: Value =
            serde_json::from_slice(&std::fs::read(f.with_extension("expected.json")).unwrap())
                .unwrap();
        for model in want["models"].as_array().into_iter().flatten() {
            let mname = model["name"].as_str().unwrap();
            // The sizes of the reflection's parameters, by name.
            let sizes: Vec<(String, u64)> = model["shader_reflections"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|r| r["shader_params"].as_array().into_iter().flatten())
                .map(|p| {
                    (
                        p["name"].as_str().unwrap().to_string(),
                        p["size"].as_u64().unwrap(),
                    )
                })
                .collect();
            for mat in model["materials"].as_array().into_iter().flatten() {
                let name = mat["name"].as_str().unwrap();
                let at = format!("{}: {mname}/{name}", f.display());
                let wanted = mat["shader_params"].as_array().unwrap();
                if wanted.is_empty() {
                    continue;
                }
                let ours = m
                    .shader_params(mname, name)
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
                assert_eq!(ours.len(), wanted.len(), "{at}");
                for (p, w) in ours.iter().zip(wanted) {
                    assert_eq!(p.name, w["name"].as_str().unwrap(), "{at}");
                    assert_eq!(p.ty, ty(&w["type"]), "{at}");
                    assert_eq!(p.offset as u64, w["offset"].as_u64().unwrap(), "{at}");
                    let size = sizes.iter().find(|(n, _)| *n == p.name).map(|(_, s)| *s);
                    assert_eq!(Some(p.size as u64), size, "{at}: {}", p.name);
                    let values: Vec<f64> = w["values"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.as_f64().unwrap())
                        .collect();
                    match m.shader_param_f32(mname, name, &p.name) {
                        Ok(got) => {
                            let got: Vec<f64> = got.into_iter().map(f64::from).collect();
                            assert_eq!(got, values, "{at}: {}", p.name);
                            compared += 1;
                        }
                        // Integers and booleans are not read as floats, and say why.
                        Err(e) => {
                            assert!(
                                ["int", "uint", "bool"].iter().any(|t| p.ty.starts_with(t)),
                                "{at}: {}: {e}",
                                p.name
                            );
                            assert!(e.to_string().contains("not read as floats"), "{e}");
                        }
                    }
                }
            }
        }
    }
    assert!(compared >= 6, "{compared}");
}

#[test]
fn a_parameter_set_reads_back_and_nothing_else_changes() {
    let f = repo().join("tests/fixtures/bfres/bfres_two_models_formats.bfres");
    let bytes = std::fs::read(&f).unwrap();
    let mut m = Bfres::from_binary(&bytes).unwrap();
    m.set_shader_param_f32("Props", "FanMat", "const_color0", &[0.25, 0.75, 0.0, 1.0])
        .unwrap();
    let out = m.to_binary().unwrap();
    let back = Bfres::from_binary(&out).unwrap();
    assert_eq!(
        back.shader_param_f32("Props", "FanMat", "const_color0")
            .unwrap(),
        [0.25, 0.75, 0.0, 1.0]
    );
    // Three floats changed (the alpha was 1.0 already), 4 bytes each at most.
    let d = differing(&bytes, &out);
    assert!(!d.is_empty() && d.len() <= 12, "{d:?}");
    assert!(d.last().unwrap() - d.first().unwrap() < 16, "{d:?}");
    // Wrong counts, types and names are errors that say so.
    let e = m
        .set_shader_param_f32("Props", "FanMat", "const_color0", &[1.0])
        .unwrap_err();
    assert!(e.to_string().contains("4 floats, 1 given"), "{e}");
    let e = m.shader_param_f32("Props", "FanMat", "flags0").unwrap_err();
    assert!(e.to_string().contains("uint, not read as floats"), "{e}");
    let e = m.shader_param_f32("Props", "FanMat", "nope").unwrap_err();
    assert!(
        e.to_string().contains("no shader parameter \"nope\""),
        "{e}"
    );
    let e = m.shader_params("Props", "Nope").unwrap_err();
    assert!(e.to_string().contains("no material \"Nope\""), "{e}");
}

#[test]
fn air_current_version_8_parameter_set_reads_back() {
    let path = repo().join("../shared/corpus/real/bfres/AirCurrent.bfres");
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("skipped: {} is absent", path.display());
        return;
    };
    let mut m = Bfres::from_binary(&bytes).unwrap();
    let params = m.shader_params("AirCurrent", "Default_Material").unwrap();
    assert!(params.len() > 10, "{params:?}");
    let p = params.iter().find(|p| p.name == "const_single3").unwrap();
    assert_eq!((p.ty.as_str(), p.size), ("float", 4));
    let v = m
        .shader_param_f32("AirCurrent", "Default_Material", "const_single3")
        .unwrap();
    assert_eq!(v.len(), 1);
    let new = [v[0] + 1.5];
    m.set_shader_param_f32("AirCurrent", "Default_Material", "const_single3", &new)
        .unwrap();
    let out = m.to_binary().unwrap();
    let back = Bfres::from_binary(&out).unwrap();
    assert_eq!(
        back.shader_param_f32("AirCurrent", "Default_Material", "const_single3")
            .unwrap(),
        new
    );
    let d = differing(&bytes, &out);
    assert!(!d.is_empty() && d.len() <= 4, "{d:?}");
}
