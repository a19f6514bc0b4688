//! Schemas that must be rejected, each with the message it must get (its first line: `# expect: ...`). A message
//! names the file, line:column and YAML path, says what is wrong and, where it can, what was probably meant.

use std::path::PathBuf;

use binspec_codegen::diag::Diagnostic;

/// Diagnostics as text, one a line.
fn text(d: &[Diagnostic]) -> String {
    d.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

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

/// Keys of Kaitai Struct's own tools (gallery schemas carry them: `-orig-id` 1,302 times, `-webide-representation`
/// 132, `-webide-parse-mode` 35, `-affected-by` 7, `-license` once) are accepted wherever they occur, and the
/// schema compiles without a message about them; any other key that is far from binspec's own is a warning (Kaitai's
/// compiler ignores every `-` key), and one close to binspec's own is still an error with a hint.
#[test]
fn kaitai_tool_keys_are_accepted() {
    let schema = r#"
meta:
  id: tool_keys
  endian: le
-license: CC0-1.0
doc: A schema with the keys of Kaitai's Web IDE and gallery.
seq:
  - id: header
    type: header
    -orig-id: Header
    -affected-by: 188
  - id: body
    size: header.len
instances:
  doubled:
    value: header.len * 2
    -webide-parse-mode: eager
types:
  header:
    -webide-representation: "{len:dec}"
    -orig-id: HDR
    seq:
      - id: len
        type: u4
        -webide-anything-else: 1
enums:
  kind:
    0:
      id: none
      -orig-id: KIND_NONE
      -affected-by: 90
"#;
    let c = binspec_codegen::compile_str("tool_keys.ksy", schema)
        .unwrap_or_else(|d| panic!("rejected: {}", text(&d)));
    assert!(c.warnings.is_empty(), "{}", text(&c.warnings));

    // A key of some other tool: compiled, with a warning that names it and says it is ignored.
    let other = schema.replace("-affected-by: 188", "-my-tool-note: 188");
    let c = binspec_codegen::compile_str("tool_keys.ksy", &other).expect("accepted with a warning");
    let w: Vec<String> = c.warnings.iter().map(|d| d.to_string()).collect();
    assert!(
        w.iter().any(|m| m.contains("/seq/0/-my-tool-note")
            && m.contains("'-my-tool-note' is not a binspec key; ignored")),
        "{w:?}"
    );

    // A misspelt binspec key is still an error, with a hint.
    let typo = schema.replace("-affected-by: 188", "-sort-bye: len");
    let Err(d) = binspec_codegen::compile_str("tool_keys.ksy", &typo) else {
        panic!("a misspelt binspec key was accepted");
    };
    let d: Vec<String> = d.iter().map(|d| d.to_string()).collect();
    assert!(
        d.iter().any(|m| m.contains(
            "unknown binspec key '-sort-bye' on a seq attribute (did you mean '-sort-by'?)"
        )),
        "{d:?}"
    );
}

/// An absolute import (`/common/le_u16_pair`, as the schemas of Kaitai's format gallery write them) is found under
/// the nearest folder above the importing schema that holds it; one that no folder above holds is an error that
/// names it.
#[test]
fn absolute_imports_are_found_under_a_root_above() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("import_roots");
    let c = binspec_codegen::compile_file(&root.join("formats/deep/uses_pair.ksy"))
        .unwrap_or_else(|d| panic!("{}", text(&d)));
    assert!(
        c.rust.contains("pub struct LeU16Pair"),
        "the imported type is generated"
    );

    let schema = std::fs::read_to_string(root.join("formats/deep/uses_pair.ksy"))
        .unwrap()
        .replace("/common/le_u16_pair", "/nowhere/le_u16_pair");
    let dir = tempfile::tempdir().unwrap();
    let moved = dir.path().join("uses_pair.ksy");
    std::fs::write(&moved, schema).unwrap();
    let Err(d) = binspec_codegen::compile_file(&moved) else {
        panic!("an import no folder holds was accepted");
    };
    assert!(
        d.iter().any(|d| d
            .to_string()
            .contains("cannot find imported schema '/nowhere/le_u16_pair'")),
        "{d:?}"
    );
}

/// Kaitai's dialect as the format gallery writes it compiles: an enum key `0x0253_f200` (YAML 1.1 reads digits
/// grouped by `_` as an integer), a type with arguments in a block over several lines, an imported schema's own
/// `meta: encoding`, `_root._io.size` inside a nested type (the input's size when reading, the output's when
/// writing), an outer value in a `valid` check, and `_root.head._sizeof` inside `head` (a number, not a value to
/// pass down).
#[test]
fn kaitai_dialect_of_the_gallery_compiles() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("import_roots");
    let c = binspec_codegen::compile_file(&root.join("formats/deep/kaitai_dialect.ksy"))
        .unwrap_or_else(|d| panic!("{}", text(&d)));
    let kind = c
        .module
        .enums
        .iter()
        .find(|e| e.name == "kind")
        .expect("enum kind");
    let values: Vec<i128> = kind.values.iter().map(|(v, _, _)| *v).collect();
    assert_eq!(values, vec![0x0253_f200, 1000]);
    let tag = c
        .module
        .types
        .iter()
        .find(|t| t.name == "ascii_tag")
        .expect("the imported type");
    assert!(
        matches!(&tag.seq[0].ty, binspec_codegen::ir::FieldTy::Str { encoding, .. } if encoding == "ASCII"),
        "{:?}",
        tag.seq[0].ty
    );
    assert!(c.rust.contains("root_io.size()"), "read: the input's size");
    assert!(
        c.rust.contains("x_root__limit"),
        "the outer value of a valid check is passed down"
    );
    let head = c
        .module
        .types
        .iter()
        .position(|t| t.name == "head")
        .expect("head");
    assert_eq!(c.module.root_alias(head), Some("head"));
    assert!(
        !c.rust.contains("x_root__head__n"),
        "`_root.head.n` under `head` is head's own `n`, not passed down from the root"
    );
    let num_marks = c.module.types[0]
        .seq
        .iter()
        .find(|f| f.name == "num_marks")
        .expect("num_marks");
    assert_eq!(
        num_marks.role,
        binspec_codegen::ir::Role::Data,
        "the count of a view stays data"
    );
    assert!(
        c.rust.contains("Io::ROOT.size(ctx)"),
        "write: the output's size"
    );
}

/// Two schema names with one Rust name (`foo_bar` and `foo__bar`, a type and an enum, or a type named like the
/// enum of a switch field) are not refused: the later one is named after its enclosing types (the switch's enum
/// gets `Switch` after its name), with a warning that names both. Schemas of Kaitai's gallery have such names
/// (lvm2, elf, windows_evt_log), and renaming is no option there.
#[test]
fn clashing_rust_names_are_renamed_with_a_warning() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("name_clashes");
    let compile = |name: &str| {
        binspec_codegen::compile_file(&dir.join(format!("{name}.ksy")))
            .unwrap_or_else(|d| panic!("{name}: {}", text(&d)))
    };
    let rust_of = |c: &binspec_codegen::Compiled| -> Vec<String> {
        c.module
            .types
            .iter()
            .map(|t| t.rust.clone())
            .chain(c.module.enums.iter().map(|e| e.rust.clone()))
            .collect()
    };

    let c = compile("camel_clash");
    assert_eq!(rust_of(&c), ["CamelClash", "FooBar", "CamelClashFooBar"]);
    assert!(
        text(&c.warnings).contains(
            "warning: /types/foo__bar: type 'foo__bar' and type 'foo_bar' (camel_clash.ksy:11:5, /types/foo_bar) both \
             become the Rust name 'FooBar': the later is named after its enclosing types"
        ),
        "{}",
        text(&c.warnings)
    );

    let c = compile("camel_clash_enum");
    // (Types first, then enums: the root's enum `foo__bar` is named before the type `foo_bar` inside it.)
    assert_eq!(
        rust_of(&c),
        ["CamelClashEnum", "CamelClashEnumFooBar", "FooBar"]
    );
    assert!(
        text(&c.warnings).contains("type 'foo_bar' and enum 'foo__bar'"),
        "{}",
        text(&c.warnings)
    );

    let c = compile("camel_clash_switch");
    assert!(
        c.rust.contains("pub enum CamelClashSwitchBodySwitch"),
        "the switch's enum steps aside"
    );
    assert!(
        c.rust.contains("pub struct CamelClashSwitchBody"),
        "the type keeps its name"
    );
    assert!(
        text(&c.warnings).contains(
            "the enum generated for switch field 'body' of type 'camel_clash_switch' would have the Rust name \
             'CamelClashSwitchBody', as type 'camel_clash_switch_body' does: it is named 'CamelClashSwitchBodySwitch'"
        ),
        "{}",
        text(&c.warnings)
    );
}
