//! What `build.rs` generates into `OUT_DIR` (every schema's module and the registry) allows no lint but the naming
//! one (`non_snake_case`: names follow the schemas). Unused code is not generated rather than allowed (issue 20,
//! part 4); `tests/tests/snapshots.rs` checks the same of the feature schemas.

#[test]
fn generated_files_allow_no_lint_but_naming() {
    let dir = std::path::Path::new(env!("OUT_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    assert!(files.iter().any(|p| p.ends_with("formats.rs")), "{files:?}");
    for p in &files {
        let text = std::fs::read_to_string(p).unwrap();
        for (n, line) in text.lines().enumerate() {
            let Some(at) = line.find("allow(") else {
                continue;
            };
            let lints = &line[at + "allow(".len()..];
            let lints = &lints[..lints.find(')').unwrap_or(lints.len())];
            for lint in lints.split(',').map(str::trim) {
                assert_eq!(lint, "non_snake_case", "{}:{}: {line}", p.display(), n + 1);
            }
        }
    }
}
