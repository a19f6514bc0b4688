//! The markdown pages in `generated/docs/` match what `emit_md` makes of `schemas/*.ksy`.
//! Refresh them with `BINSPEC_UPDATE_DOCS=1 cargo test -p binspec-tests --test docs`.

use std::path::PathBuf;

const REFRESH: &str = "BINSPEC_UPDATE_DOCS=1 cargo test -p binspec-tests --test docs";

use binspec_tests::repo;

#[test]
fn docs_are_up_to_date() {
    let update = std::env::var("BINSPEC_UPDATE_DOCS").is_ok_and(|v| v == "1");
    let mut schemas: Vec<PathBuf> = std::fs::read_dir(repo().join("schemas"))
        .expect("schemas/ exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ksy"))
        .collect();
    schemas.sort();
    assert!(!schemas.is_empty(), "no schemas found");
    let docs = repo().join("generated/docs");
    let mut stale = Vec::new();
    for path in &schemas {
        let compiled = binspec_codegen::compile_file(path)
            .unwrap_or_else(|d| panic!("{} does not compile: {d:?}", path.display()));
        // A text format's page is made by its own module from the schema's tables (see its tests).
        if compiled.module.text_format.is_some() {
            continue;
        }
        let page = binspec_codegen::emit_md::emit(&compiled.module);
        let out = docs.join(format!("{}.md", compiled.module.id));
        if update {
            std::fs::create_dir_all(&docs).expect("create generated/docs");
            std::fs::write(&out, &page)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
            continue;
        }
        match std::fs::read_to_string(&out) {
            Ok(old) if old == page => {}
            Ok(_) => stale.push(format!("{} is out of date", out.display())),
            Err(e) => stale.push(format!("{} cannot be read: {e}", out.display())),
        }
    }
    assert!(
        stale.is_empty(),
        "{}\nrefresh with: {REFRESH}",
        stale.join("\n")
    );
}
