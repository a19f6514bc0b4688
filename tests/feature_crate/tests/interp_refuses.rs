//! The feature schemas the interpreter refuses, with the start of its reason: the differential of
//! `tests/agree/mod.rs` skips them, so this list is kept true as support lands (the test fails when it changes).

const REFUSED: &[(&str, &str)] = &[];

#[test]
fn the_interpreter_refuses_only_these() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../feature_schemas");
    let mut refused = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ksy"))
        .collect();
    paths.sort();
    assert!(paths.len() > 40, "{} feature schemas", paths.len());
    for p in paths {
        let s = binspec_interp::Schema::load(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        if let Some(e) = s.unsupported() {
            let name = p.file_stem().unwrap().to_string_lossy().to_string();
            refused.push((name, e.to_string()));
        }
    }
    let got: Vec<&str> = refused.iter().map(|(n, _)| n.as_str()).collect();
    let want: Vec<&str> = REFUSED.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        got, want,
        "the feature schemas the interpreter refuses changed: {refused:#?}"
    );
    for ((n, e), (_, why)) in refused.iter().zip(REFUSED) {
        assert!(e.starts_with(why), "{n}: {e}");
    }
}
