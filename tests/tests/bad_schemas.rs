//! Schemas that must be rejected, each with the message it must get (its first line: `# expect: ...`). A message
//! names the file, line:column and YAML path, says what is wrong and, where it can, what was probably meant.

use std::path::PathBuf;

#[test]
fn bad_schemas_get_their_messages() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bad_schemas");
    let mut n = 0;
    let mut failures = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        let text = std::fs::read_to_string(&p).unwrap();
        let expect = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect: "))
            .expect("first line: # expect: ...");
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let got = match binspec_codegen::compile_str(&name, &text) {
            Ok(_) => panic!("{name} was accepted"),
            Err(d) => d.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
        };
        if !got.iter().any(|m| m.starts_with(expect)) {
            failures.push(format!(
                "{name}: expected a message starting with\n  {expect}\ngot\n  {}",
                got.join("\n  ")
            ));
        }
        n += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(n >= 7, "only {n} bad schemas");
}

/// An error in an imported schema names the imported file and its own line:column, not the importing one's.
#[test]
fn errors_in_imported_schemas_name_their_file() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bad_schema_imports");
    let path = dir.join("importer.ksy");
    let text = std::fs::read_to_string(&path).unwrap();
    let expect = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# expect: "))
        .expect("first line: # expect: ...");
    let got: Vec<String> = match binspec_codegen::compile_file(&path) {
        Ok(_) => panic!("importer.ksy was accepted"),
        Err(d) => d.iter().map(|d| d.to_string()).collect(),
    };
    assert!(
        got.iter().any(|m| m.starts_with(expect)),
        "expected a message starting with\n  {expect}\ngot\n  {}",
        got.join("\n  ")
    );
}
