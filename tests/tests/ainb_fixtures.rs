//! The AINB fixtures in `tests/fixtures/ainb` are what `scripts/oracle/make_ainb.py` writes with the `ainb`
//! package today (skipped with a message when the oracle venv cannot be set up).

use binspec_tests::{oracle_python, repo};

#[test]
fn the_ainb_fixtures_are_what_the_ainb_package_writes() {
    let py = match oracle_python() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let out = std::process::Command::new(py)
        .arg(repo().join("scripts/oracle/make_ainb.py"))
        .arg(repo().join("tests/fixtures/ainb"))
        .arg("--check")
        .output()
        .expect("run make_ainb.py");
    assert!(
        out.status.success(),
        "make_ainb.py --check failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("18 files match a fresh run"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Every fixture reads with the generated raw reader, and holds what the document the `ainb` package wrote it from
/// says: version, file name, commands and their root nodes, nodes, blackboard parameter names. Needs no corpus.
#[test]
fn the_raw_reader_reads_every_fixture_as_its_document_says() {
    use binspec_formats::ainb::raw::Ainb;
    use binspec_formats::Format;
    for (what, data, doc) in fixtures_with_json() {
        let f = Ainb::from_binary(&data).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(
            i64::from(f.version),
            doc["Version"].as_i64().unwrap(),
            "{what}"
        );
        assert_eq!(*f.file_name, doc["Filename"], "{what}");
        let commands = doc["Commands"].as_array().unwrap();
        assert_eq!(f.commands.len(), commands.len(), "{what}");
        let nodes = doc["Nodes"].as_array().unwrap();
        assert_eq!(f.elements.len(), nodes.len(), "{what}");
        let bb: usize = doc["Blackboard"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_array().unwrap().len())
            .sum();
        // The blackboard's parameter names are in the string pool.
        for v in doc["Blackboard"].as_object().unwrap().values() {
            for p in v.as_array().unwrap() {
                let name = p["Name"].as_str().unwrap();
                assert!(
                    f.string_pool.strings.iter().any(|s| s == name),
                    "{what}: blackboard parameter {name} is not in the string pool"
                );
            }
        }
        assert!(bb > 0, "{what}");
    }
}

/// The decoded document of every fixture holds what the `ainb` package's JSON input says: commands and their root
/// nodes, node names and queries, properties, blackboard parameters with defaults, and the expression functions
/// with their types and instruction counts. Needs no corpus.
#[test]
fn the_decoded_document_holds_what_each_fixture_was_written_from() {
    use binspec_formats::ainb::{exb::ExbType, Document};
    use binspec_formats::Format;
    for (what, data, j) in fixtures_with_json() {
        let d = Document::from_binary(&data).unwrap();
        assert_eq!(d.file_name.as_str(), j["Filename"], "{what}");
        assert_eq!(d.category.as_str(), j["Category"], "{what}");
        for (c, jc) in d.commands.iter().zip(j["Commands"].as_array().unwrap()) {
            assert_eq!(c.name.as_str(), jc["Name"], "{what}");
            assert_eq!(
                i64::from(c.main_element),
                jc["Root Node Index"].as_i64().unwrap(),
                "{what}"
            );
        }
        let nodes = j["Nodes"].as_array().unwrap();
        assert_eq!(d.elements.len(), nodes.len(), "{what}");
        for (e, n) in d.elements.iter().zip(nodes) {
            assert_eq!(e.name.as_str(), n["Name"], "{what}");
            assert_eq!(
                e.attachments.len(),
                n["Attachments"].as_array().unwrap().len(),
                "{what}"
            );
            assert_eq!(
                e.queries.len(),
                n["Queries"].as_array().unwrap().len(),
                "{what}"
            );
            let props = &n["Properties"];
            let names = |v: &serde_json::Value| -> Vec<String> {
                v.as_array()
                    .map(|a| {
                        a.iter()
                            .map(|p| p["Name"].as_str().unwrap().to_string())
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let p = &e.properties;
            assert_eq!(
                p.s32.iter().map(|x| x.name.clone()).collect::<Vec<_>>(),
                names(&props["Int"]),
                "{what}"
            );
            assert_eq!(
                p.f32.iter().map(|x| x.name.clone()).collect::<Vec<_>>(),
                names(&props["Float"]),
                "{what}"
            );
            for (x, jp) in p
                .s32
                .iter()
                .zip(props["Int"].as_array().into_iter().flatten())
            {
                assert_eq!(
                    i64::from(x.value),
                    jp["Default Value"].as_i64().unwrap(),
                    "{what}"
                );
            }
            for (x, jp) in p
                .f32
                .iter()
                .zip(props["Float"].as_array().into_iter().flatten())
            {
                assert_eq!(
                    f64::from(x.value),
                    f64::from(jp["Default Value"].as_f64().unwrap() as f32),
                    "{what}"
                );
            }
        }
        let bb = &j["Blackboard"];
        let bnames = |k: &str| -> Vec<String> {
            bb[k]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|p| p["Name"].as_str().unwrap().to_string())
                        .collect()
                })
                .unwrap_or_default()
        };
        assert_eq!(
            names(&d.blackboard.string, |p| p.name.as_str()),
            bnames("String"),
            "{what}"
        );
        assert_eq!(
            names(&d.blackboard.s32, |p| p.name.as_str()),
            bnames("S32"),
            "{what}"
        );
        assert_eq!(
            names(&d.blackboard.bool, |p| p.name.as_str()),
            bnames("Bool"),
            "{what}"
        );
        assert_eq!(
            names(&d.blackboard.pointer, |p| p.name.as_str()),
            bnames("VoidPtr"),
            "{what}"
        );
        for (p, jp) in d
            .blackboard
            .s32
            .iter()
            .zip(bb["S32"].as_array().into_iter().flatten())
        {
            assert_eq!(
                i64::from(p.default),
                jp["Default Value"].as_i64().unwrap(),
                "{what}"
            );
        }
        let exprs = j["Expressions"]["Expressions"].as_array();
        match (&d.expressions, exprs) {
            (None, None) => {}
            (Some(x), Some(je)) => {
                assert_eq!(
                    i64::from(x.version),
                    j["Expressions"]["Version"].as_i64().unwrap(),
                    "{what}"
                );
                assert_eq!(x.functions.len(), je.len(), "{what}");
                let ty = |s: &str| match s {
                    "BOOL" => ExbType::Bool,
                    "INT" => ExbType::Int,
                    "UINT" => ExbType::Uint,
                    "FLOAT" => ExbType::Float,
                    "STRING" => ExbType::String,
                    "VECTOR3F" => ExbType::Vec3f,
                    "IMM" => ExbType::Imm,
                    other => panic!("type {other}"),
                };
                for (f, jf) in x.functions.iter().zip(je) {
                    assert_eq!(f.main.len(), jf["Main"].as_array().unwrap().len(), "{what}");
                    assert_eq!(
                        f.input_type,
                        ty(jf["Input Type"].as_str().unwrap()),
                        "{what}"
                    );
                    assert_eq!(
                        f.output_type,
                        ty(jf["Output Type"].as_str().unwrap()),
                        "{what}"
                    );
                }
            }
            (a, b) => panic!(
                "{what}: expressions {} in the file, {} in the JSON",
                a.is_some(),
                b.is_some()
            ),
        }
    }
}

/// The names of a list, for comparing with the JSON's.
fn names<T>(v: &[T], name: impl Fn(&T) -> &str) -> Vec<String> {
    v.iter().map(|x| name(x).to_string()).collect()
}

/// Every AINB fixture with the `ainb` package's JSON document it was written from: (path for messages, bytes,
/// JSON). There are nine (three documents in three versions).
fn fixtures_with_json() -> Vec<(String, Vec<u8>, serde_json::Value)> {
    let dir = repo().join("tests/fixtures/ainb");
    let v: Vec<_> = binspec_tests::files_under(&dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "ainb"))
        .map(|path| {
            let data = std::fs::read(&path).expect("read fixture");
            let json = serde_json::from_slice(
                &std::fs::read(path.with_extension("json")).expect("its JSON"),
            )
            .expect("JSON");
            (path.display().to_string(), data, json)
        })
        .collect();
    assert_eq!(v.len(), 9, "fixtures in {}", dir.display());
    v
}
