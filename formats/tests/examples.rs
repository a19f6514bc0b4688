//! The crate's examples, run as a user runs them, on an archive made here from the fixtures and, where present, on
//! the real file they were written for; the files they write are read back.

use std::path::{Path, PathBuf};
use std::process::Command;

use binspec_formats::byml::{Byml, Document, Map};
use binspec_formats::prelude::*;
use binspec_formats::sarc::Sarc;

/// Runs example `name` with `args`: the binary `cargo test` built next to this test's, or through `cargo run`
/// where it is not there (a test run filtered to this file).
fn run_example(name: &str, args: &[&Path]) -> std::process::Output {
    let exe = std::env::current_exe().unwrap();
    let built = exe
        .parent()
        .and_then(Path::parent)
        .map(|d| d.join("examples").join(name));
    let mut cmd = match built.filter(|p| p.is_file()) {
        Some(p) => Command::new(p),
        None => {
            let mut c = Command::new(env!("CARGO"));
            c.args([
                "run",
                "-q",
                "-p",
                "binspec-formats",
                "--example",
                name,
                "--",
            ]);
            c
        }
    };
    cmd.args(args).output().unwrap()
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("binspec-examples-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `edit_byml_in_szs` on `input` and checks what it wrote: Yaz0 as the input was, the value changed, every
/// other file as it was.
fn check_edit(input: &Path, dir: &Path) {
    let out = dir.join("out.szs");
    let run = run_example("edit_byml_in_szs", &[input, &out]);
    assert!(
        run.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let before: Packed<Sarc> = Packed::from_binary(&std::fs::read(input).unwrap()).unwrap();
    let after: Packed<Sarc> = Packed::from_binary(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(after.packing, before.packing);
    let doc = Document::from_binary(after.get("InitClipping.byml").unwrap()).unwrap();
    assert_eq!(doc.root.get("Radius"), Some(&Byml::F32(500.0)));
    assert_eq!(after.len(), before.len());
    for f in before.iter().filter(|f| f.name != "InitClipping.byml") {
        assert_eq!(after.get(f.name), Some(f.data), "{}", f.name);
    }
    let listed = String::from_utf8_lossy(&run.stdout);
    assert!(listed.contains("InitClipping.byml"), "{listed}");
}

/// On an archive made from oead's SARC fixture with a BYML added, compressed with a header alignment of 0x80.
#[test]
fn edit_byml_in_szs_on_a_fixture() {
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/sarc/oead_le_new_min4.sarc");
    let mut arc = Packed::new(Sarc::from_binary(&std::fs::read(fixture).unwrap()).unwrap());
    let mut root = Map::default();
    root.insert("Radius", Byml::F32(300.0));
    let byml = Document::new(Byml::Map(root)).to_binary().unwrap();
    arc.insert("InitClipping.byml", byml);
    arc.packing = Packing::Yaz0 { alignment: 0x80 };
    let dir = temp_dir("fixture");
    let input = dir.join("in.szs");
    std::fs::write(&input, arc.to_binary().unwrap()).unwrap();
    check_edit(&input, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// On the Super Mario Odyssey actor pack the example was written for (skipped without the corpus).
#[test]
fn edit_byml_in_szs_on_a_real_archive() {
    let input =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/real/sarc/HomeBed.szs");
    if !input.is_file() {
        eprintln!("skipped: {} is not here", input.display());
        return;
    }
    let dir = temp_dir("real");
    check_edit(&input, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(rel)
}

fn run_ok(name: &str, args: &[&Path]) -> String {
    let run = run_example(name, args);
    assert!(
        run.status.success(),
        "{name}: {}\n{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    String::from_utf8(run.stdout).unwrap()
}

/// `update_restbl` on the `restbl` package's zstd table: a new path added, then changed, the table still zstd.
#[test]
fn update_restbl_on_a_fixture() {
    use binspec_formats::rsizetable::Rsizetable;
    let dir = temp_dir("restbl");
    let (a, b) = (dir.join("a.rsizetable.zs"), dir.join("b.rsizetable.zs"));
    let path = Path::new("Actor/New.bgyml");
    let input = fixture("rsizetable/restbl_crc.rsizetable.zs");
    let said = run_ok("update_restbl", &[&input, &a, path, Path::new("0x100")]);
    assert_eq!(said.trim(), "Actor/New.bgyml: added, 256");
    let said = run_ok("update_restbl", &[&a, &b, path, Path::new("300")]);
    assert_eq!(said.trim(), "Actor/New.bgyml: 256 -> 300");
    let t: Packed<Rsizetable> = Packed::from_binary(&std::fs::read(&b).unwrap()).unwrap();
    assert!(matches!(t.packing, Packing::Zstd { .. }));
    assert_eq!(t.size("Actor/New.bgyml"), Some(300));
    let before: Packed<Rsizetable> = Packed::from_binary(&std::fs::read(&input).unwrap()).unwrap();
    assert_eq!(t.entries().0.len(), before.entries().0.len() + 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `rename_ainb_node` on a fixture written from the wiki page: the node renamed, nothing else changed.
#[test]
fn rename_ainb_node_on_a_fixture() {
    use binspec_formats::ainb::Document;
    let input = fixture("ainb/patrol_v407.ainb");
    let before = Document::from_binary(&std::fs::read(&input).unwrap()).unwrap();
    let i = before
        .elements
        .iter()
        .position(|e| !e.name.is_empty())
        .unwrap();
    let old = before.elements[i].name.clone();
    let dir = temp_dir("ainb");
    let out = dir.join("out.ainb");
    let said = run_ok(
        "rename_ainb_node",
        &[&input, &out, Path::new(&old), Path::new("Renamed")],
    );
    assert!(said.starts_with("renamed "), "{said}");
    let mut after = Document::from_binary(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(after.elements[i].name, "Renamed");
    for e in after.elements.iter_mut().filter(|e| e.name == "Renamed") {
        e.name = old.clone();
    }
    // The string pool (a layout choice: file order) takes the new name at its end, and drops the old one, which
    // nothing names any more.
    assert_eq!(
        after.layout.strings.last().map(String::as_str),
        Some("Renamed")
    );
    assert!(!after.layout.strings.iter().any(|s| *s == old));
    after.layout = before.layout.clone();
    assert_eq!(after, before);
    let missing = run_example(
        "rename_ainb_node",
        &[&input, &out, Path::new("NoSuchNode"), Path::new("X")],
    );
    assert!(!missing.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `list_archive` on oead's nested SARC: the files of the archives inside, plain and Yaz0, are listed under them.
#[test]
fn list_archive_on_a_nested_fixture() {
    let said = run_ok("list_archive", &[&fixture("sarc/oead_le_nested_new.sarc")]);
    for path in [
        "  a.txt",
        "  Pack/inner.sarc",
        "  Pack/inner.sarc/inner/b.bin",
        "  Pack/inner_yaz0.ssarc/inner/a.txt",
        "  z.bin",
    ] {
        assert!(said.lines().any(|l| l.ends_with(path)), "{path}: {said}");
    }
    assert_eq!(said.lines().count(), 10, "{said}");
}
