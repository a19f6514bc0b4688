//! The interpreter's differential test over the built-in formats: every fixture (and corpus file, when
//! `../shared/corpus` is present) of a built-in schema is read by binspec-interp and by the code generated from
//! the same schema; the documents must be the same, and writing them must give the same bytes.
//!
//! A schema that uses what the interpreter cannot do (a custom process or a `-hook` it is not given) would be
//! listed in `UNSUPPORTED` with the reason the interpreter gives (none is today: the built-in schemas' hooks are
//! given, as the CLI gives them); the test fails when that changes. The same comparison over Kaitai's conformance suite runs in
//! the conformance crate.

use std::path::{Path, PathBuf};

use binspec_formats::Format;
use binspec_interp::Schema;

type Model = fn(&[u8]) -> Result<(serde_json::Value, Result<Vec<u8>, String>), String>;

fn model<T: Format + serde::Serialize>(
    data: &[u8],
) -> Result<(serde_json::Value, Result<Vec<u8>, String>), String> {
    let m = T::from_binary(data).map_err(|e| e.to_string())?;
    let doc = serde_json::to_value(&m).map_err(|e| e.to_string())?;
    Ok((doc, m.to_binary().map_err(|e| e.to_string())))
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Each built-in schema with a generated root, the fixture folders and file extensions it reads.
fn schemas() -> Vec<(
    &'static str,
    Model,
    &'static [&'static str],
    &'static [&'static str],
)> {
    vec![
        (
            "byml",
            model::<binspec_formats::byml::raw::Byml>,
            &[
                "tests/fixtures/byml",
                "../shared/corpus/oracle/byml",
                "../shared/corpus/real/byml",
            ],
            &["byml", "bgyml"],
        ),
        (
            "sarc",
            model::<binspec_formats::sarc::Sarc>,
            &["tests/fixtures/sarc"],
            &["sarc"],
        ),
        (
            "rsizetable",
            model::<binspec_formats::rsizetable::Rsizetable>,
            &[
                "tests/fixtures/rsizetable",
                "../shared/corpus/oracle/restbl",
                "../shared/corpus/real/restbl",
            ],
            &["rsizetable", "rstb", "restbl", "srsizetable"],
        ),
        (
            "panim_pluto",
            model::<binspec_formats::panim_pluto::PanimPluto>,
            &["tests/fixtures/panim_pluto"],
            &["panim"],
        ),
        (
            "ainb",
            model::<binspec_formats::ainb::raw::Ainb>,
            &[
                "tests/fixtures/ainb",
                "../shared/corpus/oracle/ainb",
                "../shared/corpus/real/ainb",
            ],
            &["ainb"],
        ),
        (
            "bntx",
            model::<binspec_formats::bntx::Bntx>,
            &["tests/fixtures/bntx", "../shared/corpus/real/bntx"],
            &["bntx"],
        ),
        (
            "bfres",
            model::<binspec_formats::bfres::Bfres>,
            &["tests/fixtures/bfres", "../shared/corpus/real/bfres"],
            &["bfres"],
        ),
    ]
}

/// Schemas the interpreter refuses today, and the start of its reason.
const UNSUPPORTED: &[(&str, &str)] = &[];

/// The files under `dir` with one of the extensions.
fn files_in(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    binspec_tests::files_under(dir)
        .into_iter()
        .filter(|p| {
            p.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| exts.contains(&x))
        })
        .collect()
}

/// Where two documents first differ: a path, and the two values there (interpreter's, then generated code's).
fn first_difference(a: &serde_json::Value, b: &serde_json::Value, at: &str) -> String {
    use serde_json::Value as J;
    match (a, b) {
        (J::Object(x), J::Object(y)) => {
            for k in x.keys().chain(y.keys()) {
                match (x.get(k), y.get(k)) {
                    (Some(u), Some(v)) if u == v => {}
                    (Some(u), Some(v)) => return first_difference(u, v, &format!("{at}.{k}")),
                    (u, v) => return format!("{at}.{k}: {u:?} / {v:?}"),
                }
            }
            format!("{at}: (equal maps)")
        }
        (J::Array(x), J::Array(y)) if x.len() == y.len() => {
            match x.iter().zip(y).position(|(u, v)| u != v) {
                Some(i) => first_difference(&x[i], &y[i], &format!("{at}[{i}]")),
                None => format!("{at}: (equal arrays)"),
            }
        }
        (u, v) => {
            let (u, v) = (u.to_string(), v.to_string());
            format!(
                "{at}: {} / {}",
                &u[..u.len().min(200)],
                &v[..v.len().min(200)]
            )
        }
    }
}

#[test]
fn interpreter_agrees_with_the_generated_code() {
    let mut compared = 0;
    let mut failures = Vec::new();
    for (id, model, dirs, exts) in schemas() {
        let schema = Schema::load(&root().join("schemas").join(format!("{id}.ksy"))).unwrap();
        // (The built-in schemas' `-hook`s, as the CLI gives them.)
        let schema = binspec_cli::schema_cmd::with_hooks(schema);
        let expected = UNSUPPORTED
            .iter()
            .find(|(s, _)| *s == id)
            .map(|(_, why)| *why);
        match (schema.unsupported(), expected) {
            (Some(e), Some(why)) => {
                assert!(
                    e.to_string().starts_with(why),
                    "{id}: the interpreter now says: {e}"
                );
                continue;
            }
            (Some(e), None) => panic!("{id}: {e}"),
            (None, Some(_)) => {
                panic!("{id}: the interpreter supports it now: remove it from UNSUPPORTED")
            }
            (None, None) => {}
        }
        for dir in dirs.iter() {
            let dir = root().join(dir);
            if !dir.exists() {
                eprintln!("skipped {}: absent", dir.display());
                continue;
            }
            for f in files_in(&dir, exts) {
                let data = std::fs::read(&f).unwrap();
                // Compressed corpus files are read by the formats through their own layer: compare raw files.
                let Ok((gen_doc, gen_bytes)) = model(&data) else {
                    continue;
                };
                compared += 1;
                let doc = match schema.decode(&data) {
                    Ok(d) => d,
                    Err(e) => {
                        failures.push(format!("{}: decode: {e}", f.display()));
                        continue;
                    }
                };
                if doc.to_json() != gen_doc {
                    failures.push(format!(
                        "{}: the documents differ at {}",
                        f.display(),
                        first_difference(&doc.to_json(), &gen_doc, "")
                    ));
                    continue;
                }
                match (schema.encode(&doc), gen_bytes) {
                    (Ok(a), Ok(b)) if a == b => {}
                    (Err(_), Err(_)) => {}
                    (a, b) => failures.push(format!(
                        "{}: writing differs: interpreter {:?}, generated {:?}",
                        f.display(),
                        a.map(|x| x.len()),
                        b.map(|x| x.len())
                    )),
                }
            }
        }
    }
    eprintln!("interpreter differential over the built-in formats: {compared} files compared");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared > 0, "no file was compared");
}

/// Cut and mutated AINB files: the interpreter never panics, reads a document where the generated reader does (the
/// same one) and refuses where it refuses, and writes what it reads as the generated writer does (or fails where
/// it fails).
#[test]
fn the_interpreter_agrees_on_cut_and_mutated_ainb_files() {
    let path = root().join("schemas/ainb.ksy");
    let schema = binspec_cli::schema_cmd::with_hooks(Schema::load(&path).unwrap());
    let file = std::fs::read(root().join("tests/fixtures/ainb/single_v407.ainb")).unwrap();
    let mut inputs: Vec<Vec<u8>> = (0..file.len())
        .step_by(3)
        .map(|n| file[..n].to_vec())
        .collect();
    for i in 0..file.len() {
        for v in [0u8, 0xff] {
            if file[i] != v {
                let mut b = file.clone();
                b[i] = v;
                inputs.push(b);
            }
        }
    }
    let (mut read, mut written, mut failures) = (0, 0, Vec::new());
    for (k, b) in inputs.iter().enumerate() {
        let generated = model::<binspec_formats::ainb::raw::Ainb>(b);
        match (generated, schema.decode(b)) {
            (Ok((doc, bytes)), Ok(d)) => {
                if d.to_json() != doc {
                    failures.push(format!(
                        "input {k}: the documents differ at {}",
                        first_difference(&d.to_json(), &doc, "")
                    ));
                    continue;
                }
                read += 1;
                match (bytes, schema.encode(&d)) {
                    (Ok(a), Ok(c)) if a == c => written += 1,
                    (Err(_), Err(_)) => {}
                    (a, c) => failures.push(format!(
                        "input {k}: writing: generated {:?}, interpreter {:?}",
                        a.map(|x| x.len()),
                        c.map(|x| x.len())
                    )),
                }
            }
            (Err(_), Err(_)) => {}
            (g, i) => failures.push(format!(
                "input {k}: reading: generated {:?}, interpreter {:?}",
                g.err(),
                i.err().map(|e| e.to_string())
            )),
        }
    }
    eprintln!(
        "{} cut and mutated AINB inputs: {read} read alike, {written} written alike",
        inputs.len()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(read > 0 && written > 0);
}
