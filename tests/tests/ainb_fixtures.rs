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
        String::from_utf8_lossy(&out.stdout).contains("12 files match a fresh run"),
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
    let dir = repo().join("tests/fixtures/ainb");
    let mut seen = 0;
    for path in binspec_tests::files_under(&dir) {
        if path.extension().is_none_or(|e| e != "ainb") {
            continue;
        }
        let what = path.display().to_string();
        let data = std::fs::read(&path).expect("read fixture");
        let doc: serde_json::Value =
            serde_json::from_slice(&std::fs::read(path.with_extension("json")).expect("its JSON"))
                .expect("JSON");
        let f = Ainb::from_binary(&data).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(
            i64::from(f.version),
            doc["Version"].as_i64().unwrap(),
            "{what}"
        );
        let pool = f.string_pool_ofs as usize;
        let text = |ofs: u32| {
            let s = &data[pool + ofs as usize..];
            String::from_utf8_lossy(&s[..s.iter().position(|&b| b == 0).unwrap()]).into_owned()
        };
        assert_eq!(text(f.filename), doc["Filename"], "{what}");
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
                    data[pool..]
                        .windows(name.len() + 1)
                        .any(|w| &w[..name.len()] == name.as_bytes() && w[name.len()] == 0),
                    "{what}: blackboard parameter {name} is not in the string pool"
                );
            }
        }
        assert!(bb > 0, "{what}");
        seen += 1;
    }
    assert_eq!(seen, 6, "fixtures in {}", dir.display());
}
