//! `binspec wiki diff`, `wiki import` and `wiki lint` over the seed dumps in ../shared/seeds, as insta snapshots
//! (skipped with a message when the dumps are absent). Review a changed snapshot before accepting it.

use std::path::{Path, PathBuf};

use binspec_cli::wiki;
use binspec_tests::{run, seed};

const EPD: &str = "002_611e4de14f4074d5.txt";
const HEDGEDOCS: &str = "004_40617077792eaab2.txt";

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A schema whose types name tables that the diffs below change.
const SCHEMA: &str = "meta:\n  id: wiki_refs\n  endian: le\n\
    seq:\n  - id: meshlet\n    type: res_meshlet\n  - id: entry\n    type: multi_input_entry\n\
    types:\n  res_meshlet:\n    -wiki: {page: Bfres, section: ResMeshlet}\n    seq:\n      - id: a\n        type: u4\n\
    \x20 multi_input_entry:\n    -wiki:\n      - {page: AINB, section: Multi-Input, caption: Multi-Input Entry}\n    seq:\n      - id: b\n        type: u2\n";

fn schema(dir: &Path) -> PathBuf {
    let p = dir.join("wiki_refs.ksy");
    std::fs::write(&p, SCHEMA).unwrap();
    binspec_codegen::compile_file(&p).unwrap_or_else(|d| panic!("{d:?}"));
    p
}

#[test]
fn diff_between_revisions() {
    let Some(epd) = seed(EPD) else { return };
    let dir = tempfile::tempdir().unwrap();
    let s = schema(dir.path());
    for (name, args) in [
        ("diff_bfres", vec!["Bfres"]),
        ("diff_ainb_2_1", vec!["AINB", "2", "1"]),
        ("diff_ainb_by_date", vec!["AINB", "2026-01-08T03:32", "0"]),
    ] {
        let mut argv = vec!["wiki", "diff", p(&epd)];
        argv.extend(args);
        argv.extend(["--schemas", p(&s)]);
        let r = run(&argv);
        assert_eq!(r.code, 0, "{}", r.err);
        insta::assert_snapshot!(name, format!("{}\n--- stderr\n{}", r.out, r.err));
    }
    // The change in ResMeshlet touches the type that names it.
    let r = run(&["wiki", "diff", p(&epd), "Bfres", "--schemas", p(&s)]);
    assert!(
        r.out
            .contains("ResMeshlet | row 6 (Meshlet buffer count): offset 0x2c -> 0x44\n"),
        "{}",
        r.out
    );
    assert!(
        r.out
            .contains("  touches: wiki_refs.ksy: type res_meshlet\n"),
        "{}",
        r.out
    );
}

#[test]
fn diff_usage_errors() {
    let Some(epd) = seed(EPD) else { return };
    let r = run(&["wiki", "diff", p(&epd), "Nope"]);
    assert_eq!(r.code, 2);
    assert!(
        r.err.contains("no page \"Nope\"") && r.err.contains("\n  Bfres (2)"),
        "{}",
        r.err
    );
    let r = run(&["wiki", "diff", p(&epd), "Bfres", "7", "0"]);
    assert_eq!(r.code, 2);
    assert!(
        r.err.contains("Bfres has no revision \"7\"")
            && r.err.contains("\n  1 2025-02-08T20:40:33Z"),
        "{}",
        r.err
    );
    let r = run(&["wiki", "diff", p(&epd), "Pp"]);
    assert_eq!(r.code, 2, "one revision only: {}", r.err);
    let r = run(&["wiki", "diff", "/nonexistent/dump.txt", "Bfres"]);
    assert_eq!(r.code, 1, "{}", r.err);
    // Schemas that cannot be loaded: the diff still prints, and says why on stderr.
    let r = run(&[
        "wiki",
        "diff",
        p(&epd),
        "Bfres",
        "--schemas",
        "/nonexistent/x.ksy",
    ]);
    assert_eq!(r.code, 0);
    assert!(r.out.contains("offset 0x2c -> 0x44"), "{}", r.out);
    assert!(r.err.contains("schemas could not be loaded"), "{}", r.err);
}

/// Imports a table, checks the draft compiles, and returns it.
fn import(dump: &Path, args: &[&str], dir: &Path) -> String {
    let mut argv = vec!["wiki", "import", p(dump)];
    argv.extend(args);
    let r = run(&argv);
    assert_eq!(r.code, 0, "{args:?}: {}", r.err);
    compile(&r.out, dir);
    r.out
}

fn compile(ksy: &str, dir: &Path) {
    let id = ksy
        .lines()
        .find_map(|l| l.strip_prefix("  id: "))
        .expect("meta id")
        .to_string();
    let path = dir.join(format!("{id}.ksy"));
    std::fs::write(&path, ksy).unwrap();
    if let Err(d) = binspec_codegen::compile_file(&path) {
        let d: Vec<String> = d.iter().map(|x| x.to_string()).collect();
        panic!("{ksy}\n{}", d.join("\n"));
    }
}

#[test]
fn import_drafts() {
    let (Some(epd), Some(hd)) = (seed(EPD), seed(HEDGEDOCS)) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let pane = import(&epd, &["Bflyt", "Pane (pan1)"], dir.path());
    insta::assert_snapshot!("import_bflyt_pane", pane);
    let shape = import(&epd, &["Bphsh", "hknpShapeType::Enum"], dir.path());
    insta::assert_snapshot!("import_bphsh_shape_type", shape);
    let pxan = import(&hd, &["PXD", "PXAN Header"], dir.path());
    insta::assert_snapshot!("import_pxd_header", pxan);
    // -o writes the file.
    let out = dir.path().join("out.ksy");
    let r = run(&[
        "wiki",
        "import",
        p(&hd),
        "PXD",
        "PXAN Header",
        "-o",
        p(&out),
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), pxan);
    // Several tables in one section: a usage error that lists them.
    let r = run(&["wiki", "import", p(&epd), "Bphsh", "hknpMeshShape"]);
    assert_eq!(r.code, 2);
    assert!(
        r.err.contains("--table 1: ") && r.err.contains("[hkBaseObject]"),
        "{}",
        r.err
    );
    let r = run(&[
        "wiki",
        "import",
        p(&epd),
        "Bphsh",
        "hknpMeshShape",
        "--caption",
        "hkBaseObject",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    // A table of bits is neither a struct nor an enum.
    let r = run(&["wiki", "import", p(&epd), "AINB", "Element Flags"]);
    assert_eq!(r.code, 2);
    assert!(
        r.err
            .contains("is a table of bits, not a struct or enum table"),
        "{}",
        r.err
    );
    // An unknown section lists the page's tables.
    let r = run(&["wiki", "import", p(&epd), "Sarc", "Nope"]);
    assert_eq!(r.code, 2);
    assert!(
        r.err.contains("Sarc has no table under \"Nope\""),
        "{}",
        r.err
    );
}

/// Every struct and enum table of both dumps (each page's newest revision) imports to a schema that compiles.
#[test]
fn every_table_imports_and_compiles() {
    let (Some(epd), Some(hd)) = (seed(EPD), seed(HEDGEDOCS)) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut n = 0;
    for dump in [epd, hd] {
        let text = std::fs::read_to_string(&dump).unwrap();
        let revs = wiki::revisions(&text, "x");
        for rev in wiki::chosen(&revs, 0) {
            let ts = wiki::tables(&rev.text);
            for i in 0..ts.len() {
                let Ok((ksy, _)) = wiki::import::draft(rev, &ts, i) else {
                    continue;
                };
                // The reference in the draft names this table alone.
                let w = wiki::import::reference(&rev.page, &ts, i);
                assert_eq!(wiki::sources::resolve(&w, &ts), [i], "{}", ts[i].place());
                let sub = dir.path().join(format!("t{n}"));
                std::fs::create_dir_all(&sub).unwrap();
                compile(&ksy, &sub);
                n += 1;
            }
        }
    }
    assert!(n > 150, "{n} tables imported");
}

#[test]
fn lint_output() {
    for (name, dump) in [("lint_epd", EPD), ("lint_hedgedocs", HEDGEDOCS)] {
        let Some(path) = seed(dump) else { return };
        let r = run(&["wiki", "lint", p(&path)]);
        assert_eq!(r.code, 0);
        insta::assert_snapshot!(name, format!("{}\n--- stderr\n{}", r.out, r.err));
    }
}
