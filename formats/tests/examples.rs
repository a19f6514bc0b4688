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
