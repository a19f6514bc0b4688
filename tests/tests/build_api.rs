//! `binspec-build`, the build-script API for a tool's own schemas (`examples/own_schema` uses it in its
//! `build.rs`; its tests read and write with the result): one file per schema, named by its `meta: id`, in the
//! folder given; a schema error fails with every diagnostic, naming the file and line:column.

use binspec_build::Builder;

#[test]
fn compiles_schemas_into_the_folder_given() {
    let dir = tempfile::tempdir().unwrap();
    let schemas = dir.path().join("schemas");
    std::fs::create_dir(&schemas).unwrap();
    std::fs::write(
        schemas.join("tiny.ksy"),
        "meta:\n  id: tiny\n  endian: le\nseq:\n  - id: n\n    type: u4\n",
    )
    .unwrap();
    std::fs::write(
        schemas.join("pair.ksy"),
        "meta:\n  id: pair\n  endian: be\n  imports: [tiny]\nseq:\n  - id: a\n    type: tiny\n  - id: b\n    type: tiny\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let written = Builder::new()
        .emit_cargo_lines(false)
        .schemas_in(&schemas)
        .unwrap()
        .out_dir(&out)
        .compile()
        .expect("compiles");
    let names: Vec<String> = written
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["pair.rs", "tiny.rs"]);
    let pair = std::fs::read_to_string(out.join("pair.rs")).unwrap();
    assert!(pair.starts_with("// @generated"), "{}", &pair[..80]);
    assert!(pair.contains("pub struct Pair") && pair.contains("pub struct Tiny"));

    // The runtime reached by another path (a tool that re-exports it).
    let renamed = Builder::new()
        .emit_cargo_lines(false)
        .schema(schemas.join("tiny.ksy"))
        .out_dir(&out)
        .runtime_path("crate::rt")
        .struct_attribute("#[derive(Eq, Hash)]")
        .compile()
        .expect("compiles");
    let tiny = std::fs::read_to_string(&renamed[0]).unwrap();
    assert!(
        tiny.contains("#[derive(Eq, Hash)]\npub struct Tiny"),
        "the attribute before the struct"
    );
    assert!(
        tiny.contains("crate::rt::Reader"),
        "the reader by the path given"
    );
    assert!(
        !tiny.contains("binspec_runtime"),
        "no other path to the runtime"
    );

    // Every schema's errors, together, with where they are.
    std::fs::write(
        schemas.join("bad.ksy"),
        "meta:\n  id: bad\nseq:\n  - id: n\n    type: u5\n",
    )
    .unwrap();
    let e = Builder::new()
        .emit_cargo_lines(false)
        .schema(schemas.join("bad.ksy"))
        .out_dir(&out)
        .compile()
        .expect_err("a bad schema");
    assert!(e.to_string().contains("bad.ksy:5:11"), "{e}");
    assert!(e.to_string().contains("unknown type 'u5'"), "{e}");
    // Outside a build script, without a folder.
    let e = Builder::new()
        .emit_cargo_lines(false)
        .schema(schemas.join("tiny.ksy"))
        .compile();
    if std::env::var_os("OUT_DIR").is_none() {
        assert!(e
            .expect_err("no OUT_DIR")
            .to_string()
            .contains("OUT_DIR is not set"));
    }
}
