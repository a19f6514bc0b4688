//! BFRES edits through the CLI on Super Mario Odyssey's AirCurrent.bfres (version 8; skipped with a message when
//! the corpus is absent): a material renamed where the document has its name (the material's, its dictionary
//! key's and the string pool's list). The name keeps its length: BFRES offsets are kept as read, so a longer name
//! would run into what follows the string pool (BNTX has longer names, `bntx_edits.rs`).

use std::path::Path;

use binspec_formats::bfres::Bfres;
use binspec_runtime::Format as _;

use binspec_tests::{repo, run};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_material_renamed_through_the_cli() {
    let path = repo().join("../shared/corpus/real/bfres/AirCurrent.bfres");
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("skipped: {} is absent", path.display());
        return;
    };
    let d = tempfile::tempdir().unwrap();
    let (doc, out) = (d.path().join("a.yaml"), d.path().join("a.bfres"));
    let r = run(&["decode", s(&path), "-o", s(&doc)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let text = std::fs::read_to_string(&doc).unwrap();
    assert_eq!(text.matches("data: Default_Material\n").count(), 3);
    let edited = text.replace("data: Default_Material\n", "data: Default_Matte_01\n");
    std::fs::write(&doc, edited).unwrap();
    let r = run(&["encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let written = std::fs::read(&out).unwrap();
    assert_eq!(written.len(), bytes.len());
    let back = Bfres::from_binary(&written).unwrap();
    let m = &back.model_summaries()[0];
    assert_eq!(m.materials, ["Default_Matte_01"]);
    assert_eq!(m.shapes[0].material.as_deref(), Some("Default_Matte_01"));
    // Found by its new name, with its shader parameters.
    assert!(back
        .shader_params("AirCurrent", "Default_Matte_01")
        .is_ok_and(|p| !p.is_empty()));
    let r = run(&["info", s(&out)]);
    assert!(r.out.contains("materials (Default_Matte_01)"), "{}", r.out);
    assert_eq!(back.to_binary().unwrap(), written);
}
