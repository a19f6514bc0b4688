//! Edits of decoded AINB documents, checked by the independent `ainb` Python package: the package reads the file
//! binspec writes after an edit and must see exactly the original (as the package reads it) with the same edit
//! applied to its JSON. The name hashes binspec computes are checked against `mmh3`. Also: files that the package
//! writes from edited JSON documents round-trip through binspec byte for byte. Tests skip without the oracle venv.

use std::path::{Path, PathBuf};

use binspec_formats::ainb::{BlackboardParam, Document};
use binspec_formats::Format;
use binspec_tests::{oracle_or_skip, repo};
use serde_json::{json, Value};

const NEW_NAME: &str = "RenamedByBinspec";

/// The package's reading of each file: (its JSON document, murmur3 of every node and attachment name).
fn package_read(py: &Path, files: &[PathBuf]) -> Vec<(Value, Value)> {
    let mut args = vec![PathBuf::from("read")];
    args.extend(files.iter().cloned());
    String::from_utf8(binspec_tests::run_oracle(py, "ainb_io.py", &args))
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            (v["doc"].take(), v["mmh3"].take())
        })
        .collect()
}

fn package_write(py: &Path, doc: &Value, out: &Path) {
    let src = out.with_extension("json");
    std::fs::write(&src, serde_json::to_vec(doc).unwrap()).unwrap();
    binspec_tests::run_oracle(py, "ainb_io.py", &[Path::new("write"), &src, out]);
}

/// The files to edit: the patrol fixtures (written by the package; 0x404, 0x407, 0x408) and, with the corpus,
/// Tears of the Kingdom's PlayerCamera (Nintendo's writer, with attachments that elements share).
fn bases() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = ["patrol_v404", "patrol_v407", "patrol_v408"]
        .iter()
        .map(|n| repo().join(format!("tests/fixtures/ainb/{n}.ainb")))
        .collect();
    let real = repo().join("../shared/corpus/real/ainb/PlayerCamera.root.ainb");
    if real.is_file() {
        v.push(real);
    } else {
        eprintln!(
            "note: {} is absent; editing the fixtures only",
            real.display()
        );
    }
    v
}

/// An edit, applied to binspec's document and to the package's JSON alike.
struct Edit {
    name: &'static str,
    doc: fn(&mut Document) -> Option<Target>,
    json: fn(&mut Value, &Target),
}

/// Where an edit applied: an element index, and a second index (property or attachment) where it matters.
#[derive(Debug, Clone, Copy)]
struct Target(usize, usize);

const PROPERTY_KEYS: [(&str, &str); 2] = [("s32", "Int"), ("f32", "Float")];

fn edits() -> Vec<Edit> {
    vec![
        Edit {
            name: "rename a node",
            doc: |d| {
                let k = d.elements.iter().rposition(|e| !e.name.is_empty())?;
                d.elements[k].name = NEW_NAME.into();
                Some(Target(k, 0))
            },
            json: |j, t| j["Nodes"][t.0]["Name"] = json!(NEW_NAME),
        },
        Edit {
            name: "change a property default",
            doc: |d| {
                let k = d
                    .elements
                    .iter()
                    .position(|e| !e.properties.f32.is_empty() || !e.properties.s32.is_empty())?;
                let p = &mut d.elements[k].properties;
                if let Some(x) = p.f32.first_mut() {
                    x.value = 2.5;
                    Some(Target(k, 1))
                } else {
                    p.s32[0].value = -77;
                    Some(Target(k, 0))
                }
            },
            json: |j, t| {
                let (_, key) = PROPERTY_KEYS[t.1];
                j["Nodes"][t.0]["Properties"][key][0]["Default Value"] =
                    if t.1 == 1 { json!(2.5) } else { json!(-77) };
            },
        },
        Edit {
            name: "add a blackboard parameter",
            doc: |d| {
                d.blackboard.s32.push(BlackboardParam {
                    name: "AddedByBinspec".into(),
                    notes: "added".into(),
                    // Inherit mode 2, "DontInherit" in the package's terms (bits 22-23 of the name word).
                    flags: 2,
                    default: 7,
                });
                Some(Target(d.blackboard.s32.len() - 1, 0))
            },
            json: |j, t| {
                let bb = j["Blackboard"].as_object_mut().unwrap();
                let list = bb.entry("S32").or_insert_with(|| json!([]));
                list.as_array_mut().unwrap().push(json!({
                    "Blackboard Index": t.0, "Name": "AddedByBinspec", "Notes": "added",
                    "Inherit Mode": "DontInherit", "Default Value": 7
                }));
            },
        },
        Edit {
            name: "remove an attachment",
            doc: |d| {
                let k = d.elements.iter().position(|e| !e.attachments.is_empty())?;
                let a = d.elements[k].attachments.remove(0);
                // Drop the attachment itself when no other element uses it.
                if d.elements.iter().all(|e| !e.attachments.contains(&a)) {
                    d.attachments.remove(a as usize);
                    for e in &mut d.elements {
                        for x in &mut e.attachments {
                            if *x > a {
                                *x -= 1;
                            }
                        }
                    }
                }
                Some(Target(k, 0))
            },
            json: |j, t| {
                j["Nodes"][t.0]["Attachments"]
                    .as_array_mut()
                    .unwrap()
                    .remove(0);
            },
        },
    ]
}

#[test]
fn edits_read_back_by_the_ainb_package() {
    let py = oracle_or_skip!();
    let tmp = tempfile::tempdir().unwrap();
    let bases = bases();
    let originals = package_read(py, &bases);
    let mut written = Vec::new();
    let mut expected = Vec::new();
    for (base, (orig, _)) in bases.iter().zip(&originals) {
        let data = std::fs::read(base).unwrap();
        for (n, edit) in edits().into_iter().enumerate() {
            let mut doc = Document::from_binary(&data).unwrap();
            let Some(target) = (edit.doc)(&mut doc) else {
                continue;
            };
            let out = tmp.path().join(format!(
                "{}.{n}.ainb",
                base.file_stem().unwrap().to_string_lossy()
            ));
            std::fs::write(&out, doc.to_binary().unwrap()).unwrap();
            let mut want = orig.clone();
            (edit.json)(&mut want, &target);
            written.push(out);
            expected.push((base.clone(), edit.name, want, doc));
        }
    }
    // Every edit applies to every base file (each has a named node, a property, an attachment).
    assert_eq!(written.len(), 4 * bases.len(), "edits that did not apply");
    let got = package_read(py, &written);
    for ((base, name, want, doc), (got, hashes)) in expected.iter().zip(&got) {
        assert!(
            got == want,
            "{} after \"{name}\": the ainb package reads something else than the edit",
            base.display()
        );
        // Name hashes (0x407+) against mmh3.
        if doc.version >= 0x407 {
            let bytes = doc.to_binary().unwrap();
            let raw = binspec_formats::ainb::raw::Ainb::from_binary(&bytes).unwrap();
            for (e, r) in doc.elements.iter().zip(&raw.elements) {
                // The raw model holds a derived field only where the file disagrees with its
                // derivation, so `None` says the stored hash is murmur3 of the type name; that
                // name is the element's, and our murmur3 of it is the package's mmh3.
                let ctx = format!("{} after \"{name}\": hash of {:?}", base.display(), e.name);
                assert_eq!(r.name_hash, None, "{ctx}: stored hash is not derived");
                assert_eq!(&*r.type_name_text, e.name.as_str(), "{ctx}");
                assert_eq!(
                    binspec_runtime::hash::murmur3_32(e.name.as_bytes(), 0),
                    hashes[e.name.as_str()].as_u64().unwrap() as u32,
                    "{ctx}: murmur3 disagrees with mmh3"
                );
            }
        }
    }
}

#[test]
fn files_the_package_writes_from_edited_json_round_trip() {
    let py = oracle_or_skip!();
    let tmp = tempfile::tempdir().unwrap();
    for v in ["v404", "v407", "v408"] {
        let src = repo().join(format!("tests/fixtures/ainb/patrol_{v}.json"));
        let mut j: Value = serde_json::from_str(&std::fs::read_to_string(&src).unwrap()).unwrap();
        // The same four edits, on the package's JSON input.
        j["Nodes"][3]["Name"] = json!(NEW_NAME);
        j["Nodes"][3]["Properties"]["Float"][0]["Default Value"] = json!(9.5);
        j["Blackboard"]["S32"].as_array_mut().unwrap().push(json!({
            "Name": "AddedByPackage", "Notes": "", "Inherit Mode": "DontInherit", "Default Value": 3
        }));
        j["Nodes"][1]["Attachments"] = json!([]);
        let out = tmp.path().join(format!("patrol_edited_{v}.ainb"));
        package_write(py, &j, &out);
        let data = std::fs::read(&out).unwrap();
        let doc = Document::from_binary(&data).unwrap();
        assert_eq!(doc.elements[3].name, NEW_NAME, "{v}");
        assert_eq!(doc.elements[3].properties.f32[0].value, 9.5, "{v}");
        assert!(doc.elements[1].attachments.is_empty(), "{v}");
        assert!(doc.attachments.is_empty(), "{v}");
        assert_eq!(
            doc.blackboard.s32.last().unwrap().name,
            "AddedByPackage",
            "{v}"
        );
        assert_eq!(doc.blackboard.s32.last().unwrap().default, 3, "{v}");
        let again = doc.to_binary().unwrap();
        assert!(
            again == data,
            "{v}: {:?}",
            binspec_tests::difference(&again, &data)
        );
        // And `binspec check` says so.
        let r = binspec_tests::run(&["check", out.to_str().unwrap()]);
        assert_eq!(r.code, 0, "{v}: {}{}", r.out, r.err);
        assert!(r.out.contains("ainb "), "{}", r.out);
    }
}
