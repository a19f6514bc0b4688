//! Tests of the Rust emitter: helpers, the model-expression translator, and features checked in the code they
//! generate.

use super::*;

#[test]
fn utf8_encoding_names() {
    for (name, utf8) in [
        ("UTF-8", true),
        ("utf8", true),
        ("Utf_8", true),
        ("ASCII", false),
        ("UTF-16LE", false),
        ("SJIS", false),
        ("", false),
    ] {
        assert_eq!(is_utf8(name), utf8, "{name:?}");
    }
}

const SCHEMA: &str = "
meta:
  id: t
  endian: le
seq:
  - id: count
    type: u2
  - id: flags
    type: b1
  - id: kind
    type: u1
    enum: kind
  - id: name
    type: strz
    encoding: UTF-8
  - id: data
    size: count
  - id: opt
    type: u4
    if: count > 2
  - id: items
    type: item
    repeat: expr
    repeat-expr: 2
  - id: a
    type: u1
  - id: b
    type: u1
  - id: x
    type: f4
  - id: more
    type: item
    repeat: expr
    repeat-expr: 1
    if: count > 9
  - id: body
    type:
      switch-on: kind
      cases:
        kind::one: item
        kind::two: other
instances:
  twice:
    value: count * 2
types:
  other:
    seq:
      - id: w
        type: u1
  item:
    seq:
      - id: v
        type: s4
enums:
  kind:
    1: one
    2: two
";

/// Expressions over a decoded model and the Rust they become (integers are computed in `i128`), parenthesised
/// only where Rust needs it: a looser operand, the right operand of a left-associative operator, either side of a
/// comparison that is itself a comparison, a cast left of `<` (Rust would read generic arguments), a negative
/// literal or cast as a method's receiver or under a prefix operator, an `if` as an operand, and (for clippy's
/// `precedence`) arithmetic inside a bit operation.
#[test]
fn translates_model_expressions() {
    let c = crate::compile_str("t.ksy", SCHEMA).unwrap();
    let rows: &[(&str, &str, &str)] = &[
        ("1 + 2", "1i128 + 2i128", "Int"),
        (
            "7 / 2",
            ":: binspec_runtime :: expr :: div (7i128 , 2i128) ?",
            "Int",
        ),
        (
            "-7 % 3",
            ":: binspec_runtime :: expr :: modulo (- 7i128 , 3i128) ?",
            "Int",
        ),
        ("count", "m . data . len () as i128", "Int"),
        (
            "count * 2",
            "(m . data . len () as i128) . wrapping_mul (2i128)",
            "Int",
        ),
        (
            "twice",
            "(m . data . len () as i128) . wrapping_mul (2i128)",
            "Int",
        ),
        // A value instance without a condition is there when its value is: a product always is.
        ("twice._present", "true", "Bool"),
        ("flags", "m . flags", "Bool"),
        // A range test of one operand, written twice, becomes `contains`; two operands stay comparisons.
        (
            "count >= 1 and count <= 3",
            "(1i128 ..= 3i128) . contains (& (m . data . len () as i128))",
            "Bool",
        ),
        (
            "count >= 1 and twice < 3",
            "m . data . len () as i128 >= 1i128 && (m . data . len () as i128) . wrapping_mul (2i128) < 3i128",
            "Bool",
        ),
        ("kind == kind::two", "m . kind . value () == 2i128", "Bool"),
        ("kind.to_i", "m . kind . value ()", "Int"),
        (
            "name.length",
            "m . name [..] . chars () . count () as i128",
            "Int",
        ),
        (
            "name.reverse",
            "m . name [..] . chars () . rev () . collect :: < :: std :: string :: String > ()",
            "Str",
        ),
        (
            "name.path_stem()",
            ":: binspec_runtime :: text :: path_split (& m . name [..]) . 0 . to_owned ()",
            "Str",
        ),
        (
            "name.path_extension().murmur3(0)",
            ":: binspec_runtime :: hash :: murmur3_32 (:: binspec_runtime :: text :: path_split (& m . name [..]) . 1 . to_owned () . as_bytes () , 0i128 as u32) as i128",
            "Int",
        ),
        ("data.size", "m . data [..] . len () as i128", "Int"),
        // Sizes known without reading are literals: a built-in type, a user type of fixed size, a field (through
        // fields of user types too), bits for `bitsizeof`.
        ("sizeof<u2be>", "2i128", "Int"),
        ("sizeof<f8>", "8i128", "Int"),
        ("bitsizeof<b12>", "12i128", "Int"),
        ("sizeof<b12>", "2i128", "Int"),
        ("sizeof<item>", "4i128", "Int"),
        ("count._sizeof", "2i128", "Int"),
        ("items._sizeof", "8i128", "Int"),
        ("items[0].v._sizeof + x._sizeof", "4i128 + 4i128", "Int"),
        (
            "data[0]",
            "* :: binspec_runtime :: expr :: at (& m . data [..] , 0i128) ? as i128",
            "Int",
        ),
        ("opt", "m . opt . unwrap_or_default () as i128", "Int"),
        ("items.size", "m . items . len () as i128", "Int"),
        (
            "items.count(_.v > 1)",
            "{ let mut n__ = 0i128 ; for v__ in m . items . iter () { if v__ . v as i128 > 1i128 { n__ += 1 ; } } n__ }",
            "Int",
        ),
        // An element's or a case's number is read where the record is, not from a copy of it.
        (
            "more[0].v",
            "{ let x = :: binspec_runtime :: expr :: at (m . more . as_deref () . unwrap_or (& []) , 0i128) ? ; x . v as i128 }",
            "Int",
        ),
        (
            "body.as<item>.v",
            "match & * :: binspec_runtime :: expr :: or_default (& m . body) { TBody :: Item (x) => x . v as i128 , _ => :: std :: default :: Default :: default () , }",
            "Int",
        ),
        (
            "items[1].v",
            "{ let x = :: binspec_runtime :: expr :: at (& m . items , 1i128) ? ; x . v as i128 }",
            "Int",
        ),
        (
            "count > 2 ? 1 : 2.5",
            "if m . data . len () as i128 > 2i128 { 1i128 as f64 } else { 2.5f64 }",
            "Float",
        ),
        (
            "[1, 2] == data",
            "[1u8 , 2u8] [..] == m . data [..]",
            "Bool",
        ),
        (
            "name + \"x\"",
            "format ! (\"{}{}\" , & m . name [..] , \"x\")",
            "Str",
        ),
        ("a + b - 1", "m . a as i128 + m . b as i128 - 1i128", "Int"),
        (
            "a - (b - 1)",
            "m . a as i128 - (m . b as i128 - 1i128)",
            "Int",
        ),
        (
            "(a + b) * 2",
            "(m . a as i128 + m . b as i128) . wrapping_mul (2i128)",
            "Int",
        ),
        ("a < b", "(m . a as i128) < m . b as i128", "Bool"),
        ("a + 1 < b", "m . a as i128 + 1i128 < m . b as i128", "Bool"),
        (
            "1 + a < b",
            "(1i128 + m . a as i128) < m . b as i128",
            "Bool",
        ),
        ("b > a", "m . b as i128 > m . a as i128", "Bool"),
        (
            "(a == 1) == (b == 2)",
            "(m . a as i128 == 1i128) == (m . b as i128 == 2i128)",
            "Bool",
        ),
        ("a & 3 + 1", "m . a as i128 & (3i128 + 1i128)", "Int"),
        (
            "a + (3 & b)",
            "m . a as i128 + (3i128 & m . b as i128)",
            "Int",
        ),
        ("a | b & 1", "m . a as i128 | m . b as i128 & 1i128", "Int"),
        ("-a", "- (m . a as i128)", "Int"),
        ("-(a + 1)", "- (m . a as i128 + 1i128)", "Int"),
        ("(-5).to_s", "(- 5i128) . to_string ()", "Str"),
        ("a.to_s", "(m . a as i128) . to_string ()", "Str"),
        (
            "a > 1 ? 2 : 3",
            "if m . a as i128 > 1i128 { 2i128 } else { 3i128 }",
            "Int",
        ),
        (
            "(a > 1 ? 2 : 3) + 1",
            "(if m . a as i128 > 1i128 { 2i128 } else { 3i128 }) + 1i128",
            "Int",
        ),
        (
            "1 + (a > 1 ? 2 : 3)",
            "1i128 + (if m . a as i128 > 1i128 { 2i128 } else { 3i128 })",
            "Int",
        ),
        (
            "not flags and a > 1",
            "! m . flags && m . a as i128 > 1i128",
            "Bool",
        ),
        ("not (a > 1)", "! (m . a as i128 > 1i128)", "Bool"),
        (
            "a > 1 or b > 1 and flags",
            "m . a as i128 > 1i128 || m . b as i128 > 1i128 && m . flags",
            "Bool",
        ),
        (
            "(a > 1 or b > 1) and flags",
            "(m . a as i128 > 1i128 || m . b as i128 > 1i128) && m . flags",
            "Bool",
        ),
        ("x + a", "m . x as f64 + m . a as i128 as f64", "Float"),
        ("x / 2", "m . x as f64 / 2i128 as f64", "Float"),
        (
            "a >= 2 and a <= 5",
            "(2i128 ..= 5i128) . contains (& (m . a as i128))",
            "Bool",
        ),
    ];
    let mut failures = Vec::new();
    for (src, want, want_t) in rows {
        match translate_model_expr(&c.module, "m", src) {
            Ok((got, t)) if got == *want && t == *want_t => {}
            other => failures.push(format!("{src}: got {other:?}, want ({want:?}, {want_t})")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A tree linked by offsets, in either byte order: `node` reaches itself through `child.target`.
const TREE: &str = "
meta:
  id: tree
  endian:
    switch-on: magic_be
    cases:
      0x4c45: le
      0x4245: be
seq:
  - id: magic
    type: u2
  - id: root_ofs
    type: u4
instances:
  magic_be:
    pos: 0
    type: u2be
  is_le:
    value: magic_be == 0x4c45
  root:
    pos: root_ofs
    type: node
types:
  node:
    seq:
      - id: header
        type: u4
      - id: kids
        type: child(kind)
        repeat: expr
        repeat-expr: count
    instances:
      kind:
        value: '_root.is_le ? header & 0xff : header >> 24'
      count:
        value: '_root.is_le ? header >> 8 : header & 0xffffff'
  child:
    params:
      - id: kind
        type: u1
    seq:
      - id: ofs
        type: u4
      - id: payload
        type: u1
        repeat: expr
        repeat-expr: width
    instances:
      width:
        pos: ofs
        type: u1
        io: _root._io
      target:
        pos: ofs + 1
        type: node
        io: _root._io
        -eager: true
";

fn tree(eager: bool) -> crate::Compiled {
    let text = if eager {
        TREE.to_string()
    } else {
        TREE.replace("        -eager: true\n", "")
    };
    crate::compile_str("tree.ksy", &text).unwrap_or_else(|d| panic!("{d:?}"))
}

/// The text between `start` and the next line that begins a function, for checks inside one function.
fn function<'a>(rust: &'a str, ty: &str, start: &str) -> &'a str {
    let from = rust.find(&format!("impl {ty} {{")).expect("type");
    let at = from + rust[from..].find(start).expect("function");
    let end = rust[at + start.len()..]
        .find("    pub(crate) fn ")
        .map_or(rust.len(), |e| at + start.len() + e);
    &rust[at..end]
}

/// An `-eager` instance that leads to its own type again is read with its parent and kept in the model,
/// counting against the budget of followed references and carrying the nesting depth; without the key it is a
/// view, left out of the model.
#[test]
fn eager_instances_are_read_and_kept() {
    let c = tree(true);
    let child = c.module.types.iter().find(|t| t.name == "child").unwrap();
    let target = child.instances.iter().find(|f| f.name == "target").unwrap();
    assert_eq!(target.role, Role::Placed);
    // `Node` holds `Child` in a `Vec`, so the model has a finite size without a box.
    assert!(c.rust.contains("pub target: Node,"), "{}", c.rust);
    let read = function(&c.rust, "Child", "pub(crate) fn read");
    assert!(
        read.contains("pools.follow(r.abs_pos(), root_io.size() as u64).at(\"target\")?;"),
        "{read}"
    );
    assert!(read.contains("root_io.clone().nested(r.depth())"), "{read}");

    let c = tree(false);
    let child = c.module.types.iter().find(|t| t.name == "child").unwrap();
    let target = child.instances.iter().find(|f| f.name == "target").unwrap();
    assert_eq!(target.role, Role::View);
    assert!(!c.rust.contains("pub target:"), "{}", c.rust);
}

/// A field whose presence the model decides is checked against its condition when writing, also where the
/// condition names a parameter, unless a switch case reads the type with arguments (the writer passes the first
/// such case's, which need not be the ones the file was read with).
#[test]
fn presence_is_checked_against_the_condition() {
    let text = "meta:\n  id: cond\n  endian: le\nseq:\n  - id: version\n    type: u1\n  - id: extra\n    type: u1\n    if: version >= 2\n  - id: b\n    type: sub(version == 3)\n  - id: c\n    type:\n      switch-on: version\n      cases:\n        1: other(true)\n        _: other(false)\ntypes:\n  sub:\n    params:\n      - id: flag\n        type: bool\n    seq:\n      - id: more\n        type: u1\n        if: flag\n  other:\n    params:\n      - id: flag\n        type: bool\n    seq:\n      - id: more\n        type: u1\n        if: flag\n";
    let c = crate::compile_str("cond.ksy", text).unwrap_or_else(|d| panic!("{d:?}"));
    let write = function(&c.rust, "Cond", "pub(crate) fn write");
    assert!(
        write.contains("match (self.version as i128 >= 2i128, self.extra.is_some())"),
        "{write}"
    );
    assert!(
        write.contains("its condition `version >= 2` is false"),
        "{write}"
    );
    let sub = function(&c.rust, "Sub", "pub(crate) fn write");
    assert!(sub.contains("match (p_flag, self.more.is_some())"), "{sub}");
    let other = function(&c.rust, "Other", "pub(crate) fn write");
    assert!(!other.contains("is_some())"), "{other}");
}

/// A field's `valid` key is checked before it is written (a file the reader would refuse is an error), with the
/// model's values and the params the writer passes.
#[test]
fn valid_is_checked_when_writing() {
    let text = "meta:\n  id: v\n  endian: le\nseq:\n  - id: version\n    type: u1\n    valid:\n      any-of: [1, 2]\n  - id: items\n    type: item(version)\n    repeat: expr\n    repeat-expr: 2\ntypes:\n  item:\n    params:\n      - id: least\n        type: u1\n    seq:\n      - id: x\n        type: u1\n        valid:\n          min: least\n";
    let c = crate::compile_str("v.ksy", text).unwrap_or_else(|d| panic!("{d:?}"));
    let write = function(&c.rust, "V", "pub(crate) fn write");
    assert!(
        write.contains("v__ as i128 == 1i128 || v__ as i128 == 2i128"),
        "{write}"
    );
    assert!(write.contains("must be one of 1, 2"), "{write}");
    let item = function(&c.rust, "Item", "pub(crate) fn write");
    assert!(item.contains("v__ as i128 >= p_least"), "{item}");
}

/// A value instance with `-data: u1` is kept in the model as a `u8`: read from the expression, and named by
/// its model value (not its expression) in the writer's derived values, so a field can be derived from it.
#[test]
fn data_value_instances_are_kept_and_used_when_writing() {
    let text = "meta:\n  id: kept\n  endian: le\nseq:\n  - id: attrs\n    type: u4\n    -derive: tag << 24 | 7\ninstances:\n  tag:\n    value: attrs >> 24\n    -data: u1\n    -default: 1\n";
    let c = crate::compile_str("kept.ksy", text).unwrap_or_else(|d| panic!("{d:?}"));
    let tag = c.module.types[0]
        .instances
        .iter()
        .find(|f| f.name == "tag")
        .unwrap();
    assert_eq!(tag.role, Role::Kept);
    assert!(c.rust.contains("pub tag: u8,"), "{}", c.rust);
    assert!(
        c.rust
            .contains("skip_serializing_if = \"is_default_kept_tag\""),
        "{}",
        c.rust
    );
    let read = function(&c.rust, "Kept", "pub(crate) fn read");
    // Read from the field as read, before the field becomes an `Option` (set only where it disagrees).
    let kept_at = read.find("let v_tag: u8").expect("tag read");
    let opt_at = read
        .find("let v_attrs: ::std::option::Option<u32>")
        .expect("attrs override");
    assert!(kept_at < opt_at, "{read}");
    let write = function(&c.rust, "Kept", "pub(crate) fn write");
    assert!(write.contains("self.tag as i128"), "{write}");
    assert!(!write.contains("shr"), "{write}");
}

/// Placed instances are written by a writer whose positions are the output's, and laid over the output at the
/// end of the pass, so that one nested in another lands at its own position; placing fails (for bytes that overlap
/// others and differ from them), and the error names the instance.
#[test]
fn placed_instances_are_laid_over_the_output() {
    let c = tree(true);
    let write = function(&c.rust, "Child", "pub(crate) fn write");
    for want in [
        "let io = ::binspec_runtime::layout::Io::ROOT;",
        "let mut w = ::binspec_runtime::Writer::at_origin(at);",
        "ctx.place(at, w.into_inner())?;",
        ".at(\"target\")?;",
    ] {
        assert!(write.contains(want), "{want}:\n{write}");
    }
    assert!(!write.contains("write_at"), "{write}");
}

/// A view that decides the byte order is known when writing, from the model's byte order; a value instance
/// that is a boolean is passed on as one.
#[test]
fn byte_order_views_and_boolean_values_when_writing() {
    let c = tree(true);
    let write = function(&c.rust, "Tree", "pub(crate) fn write");
    assert!(
        write.contains("::binspec_runtime::Endian::Little => 19525i128,")
            && write.contains("::binspec_runtime::Endian::Big => 16965i128,"),
        "{write}"
    );
    let read = function(&c.rust, "Node", "pub(crate) fn read");
    assert!(read.contains("let (x_root__is_le,) = args;"), "{read}");
    assert!(
        c.rust.contains("pub(crate) type NodeArgs = (bool,);"),
        "{}",
        c.rust
    );
}

/// An instance that a field's arguments use is read before the field.
#[test]
fn instances_used_by_arguments_are_read_first() {
    let c = crate::compile_str(
        "args.ksy",
        "
meta:
  id: args
  endian: le
seq:
  - id: item
    type: item(tag)
instances:
  tag:
    pos: 4
    type: u1
types:
  item:
    params:
      - id: t
        type: u1
    seq:
      - id: v
        type: u1
",
    )
    .unwrap();
    let read = function(&c.rust, "Args", "pub(crate) fn read");
    let tag = read.find("let (v_tag, _pos_tag)").expect("tag is read");
    let item = read.find("let v_item").expect("item is read");
    assert!(tag < item, "{read}");
}

/// `-eager` belongs on an instance read from a position.
#[test]
fn eager_needs_a_placed_instance() {
    let bad = TREE.replace(
        "    value: magic_be == 0x4c45\n",
        "    value: magic_be == 0x4c45\n    -eager: true\n",
    );
    assert_ne!(bad, TREE);
    let d = crate::compile_str("tree.ksy", &bad).unwrap_err();
    assert!(
        d.iter().any(|d| d
            .to_string()
            .contains("/instances/is_le: '-eager' needs an instance with 'pos'")),
        "{d:?}"
    );
    let bad = TREE.replace(
        "        type: u4\n      - id: payload",
        "        type: u4\n        -eager: true\n      - id: payload",
    );
    assert_ne!(bad, TREE);
    let d = crate::compile_str("tree.ksy", &bad).unwrap_err();
    assert!(
        d.iter()
            .any(|d| d.to_string().contains("'-eager' applies to instances only")),
        "{d:?}"
    );
}

/// `x.param` from outside a type is the argument `x` passes it, translated where `x` is (also inside a value
/// instance of `x`, and through params passed on); in an element's arguments, `_index` is the index it is reached by.
#[test]
fn params_from_outside_are_the_arguments_given() {
    let c = crate::compile_str(
        "params.ksy",
        include_str!("../../../tests/feature_schemas/params.ksy"),
    )
    .unwrap();
    for (src, want) in [
        ("chunk.sizes[1]", "m . lens"),
        ("chunk.head.flag", "m . header . flag"),
        ("chunk.labels[0]", "m . names"),
        ("chunk.first_label", "m . names"),
        ("chunk.any.as<header>.flag", "m . header . flag"),
        ("flagged.on", "m . header . flag"),
        ("first_size", "m . lens"),
    ] {
        let (got, _) =
            translate_model_expr(&c.module, "m", src).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert!(got.contains(want), "{src}: {got}");
    }
    // An element's argument that names its index: the index it is reached by.
    let (got, _) = translate_model_expr(&c.module, "m", "items[1].i").unwrap();
    assert!(got.contains("1i128") && !got.contains(" i "), "{got}");
}

/// In an expression over a decoded tree, `_root` is the tree's root and `_parent` the value the expression went
/// down from, also inside a type that is the root's own (a recursive root).
#[test]
fn outer_values_of_a_tree() {
    let text = "meta:\n  id: r\nseq:\n  - id: value\n    type: u1\n  - id: next\n    type: r\n    if: value == 0xff\ninstances:\n  root_value:\n    value: _root.value\n  parent_value:\n    value: _parent.as<r>.value\n";
    let c = crate::compile_str("r.ksy", text).unwrap_or_else(|d| panic!("{d:?}"));
    for (src, want) in [
        ("root_value", "m . value"),
        ("next.root_value", "m . value"),
        ("next.parent_value", "m . value"),
        ("next.value", "next"),
    ] {
        let (got, _) =
            translate_model_expr(&c.module, "m", src).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert!(got.contains(want), "{src}: {got}");
        if src != "next.value" {
            assert!(!got.contains("next"), "{src}: {got}");
        }
    }
}

/// A value instance that nothing read or written names (for the model's users, as Kaitai's `java_class` names
/// entries of its constant pool from inside them) needs no outer value passed down; one a size uses does.
#[test]
fn outer_values_only_for_what_reading_uses() {
    let schema = |size: &str| {
        format!(
            "meta:\n  id: pool\nseq:\n  - id: n\n    type: u1\n  - id: items\n    type: item\n    repeat: expr\n    repeat-expr: n\ntypes:\n  item:\n    seq:\n      - id: ref\n        type: u1\n      - id: body\n        size: {size}\n    instances:\n      target:\n        value: _root.items[ref].ref\n"
        )
    };
    let c = crate::compile_str("pool.ksy", &schema("1")).unwrap_or_else(|d| panic!("{d:?}"));
    let (got, _) = translate_model_expr(&c.module, "m", "items[0].target").unwrap();
    assert!(got.contains("m . items"), "{got}");
    let e = crate::compile_str("pool.ksy", &schema("target")).unwrap_err();
    let e = e
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(e.contains("'_root.items' is not read yet"), "{e}");
}

/// A reader that reaches into a value it has read (`child.total`) and from there back to `_parent` reads the
/// parent's locals, not a model it does not have yet.
#[test]
fn a_parent_reached_from_a_reader_is_the_reader() {
    let text = "meta:\n  id: up\nseq:\n  - id: n\n    type: u1\n  - id: child\n    type: child\n  - id: data\n    size: child.total\ntypes:\n  child:\n    seq:\n      - id: extra\n        type: u1\n    instances:\n      total:\n        value: extra + _parent.n\n";
    let c = crate::compile_str("up.ksy", text).unwrap_or_else(|d| panic!("{d:?}"));
    let read = function(&c.rust, "Up", "pub(crate) fn read");
    assert!(
        read.contains("v_child.extra as i128 + v_n as i128"),
        "{read}"
    );
    let write = function(&c.rust, "Up", "pub(crate) fn write");
    assert!(write.contains("self.n"), "{write}");
}

/// Expressions refused, with why (by the type checker, which runs first and types each node for the translator).
#[test]
fn refuses_what_it_cannot_translate() {
    let c = crate::compile_str("t.ksy", SCHEMA).unwrap();
    for (src, msg) in [
        ("nope", "unknown name 'nope'"),
        ("kind::three", "unknown enum value 'kind::three'"),
        ("data.frobnicate(1)", "bytes has no member 'frobnicate'"),
        ("items.first.w", "no field 'w' in type 't::item'"),
        // A size that depends on the data is not known without reading.
        ("data._sizeof", "the size of 'data' depends on the data"),
        ("name._sizeof", "the size of 'name' depends on the data"),
        ("sizeof<t>", "the size of 't' depends on the data"),
        ("sizeof<nope>", "unknown type 'nope'"),
        ("(count + 1)._sizeof", "does not name a field"),
    ] {
        let e = translate_model_expr(&c.module, "m", src).unwrap_err();
        assert!(e.contains(msg), "{src}: {e}");
    }
}

/// A sorted repetition keeps its order from pass to pass only where the key cannot change between passes: a key
/// that reads a position (an offset the writer derives, `_pos`, through a value instance or a parameter) is sorted
/// again in every pass; one of data, or derived from data only, is kept.
#[test]
fn sort_orders_are_kept_only_for_keys_that_read_no_position() {
    let schema = |key: &str, arg: &str| {
        format!(
            "
meta:
  id: s
  endian: le
seq:
  - id: n
    type: u1
  - id: m
    type: u1
  - id: entries
    type: entry({arg})
    repeat: expr
    repeat-expr: n
    -sort-by: {key}
  - id: heap
    size-eos: true
    -pool:
      id: heap
types:
  entry:
    params:
      - id: p
        type: u1
    seq:
      - id: v
        type: u2
      - id: name_ofs
        type: u4
      - id: h
        type: u4
        -derive: v * 2
    instances:
      name:
        pos: name_ofs
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: heap
      twice_ofs:
        value: name_ofs * 2
      twice_v:
        value: v * 2
"
        )
    };
    let rows = [
        ("v", "m", true),
        ("h", "m", true),
        ("twice_v", "m", true),
        ("p", "m", true),
        ("name", "m", true),
        ("name_ofs", "m", false),
        ("twice_ofs", "m", false),
        ("name._pos", "m", false),
        ("p", "entries.size", true),
        ("v + p", "_io.pos", false),
    ];
    let mut failures = Vec::new();
    for (key, arg, kept) in rows {
        let c = crate::compile_str("s.ksy", &schema(key, arg))
            .unwrap_or_else(|e| panic!("{key} / {arg}: {e:?}"));
        let got = c.rust.contains("keep_order") || c.rust.contains("keep_keyed");
        if got != kept {
            failures.push(format!(
                "key {key}, argument {arg}: kept {got}, want {kept}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A type that reads a whole object two levels up (`_parent._parent`, here to cast it) is refused with a message,
/// where the emitter once panicked building the argument that passes it down (Kaitai's `nav_parent_switch_cast`).
#[test]
fn a_whole_grandparent_is_refused_not_a_panic() {
    let schema = "
meta:
  id: t
seq:
  - id: main
    type: foo
types:
  foo:
    seq:
      - id: kind
        type: u1
      - id: flag
        type: u1
      - id: buf
        size: 4
        type:
          switch-on: kind
          cases:
            0: zero
    types:
      zero:
        seq:
          - id: branch
            type: common
      common:
        seq:
          - id: extra
            type: u1
            if: flag == 1
        instances:
          flag:
            value: '_parent._parent.as<foo>.flag'
";
    let e = match std::panic::catch_unwind(|| crate::compile_str("t.ksy", schema)) {
        Ok(r) => r.map(|_| ()).unwrap_err(),
        Err(_) => panic!("the emitter panicked"),
    };
    let text = format!("{e:?}");
    assert!(text.contains("_parent"), "{text}");
}

/// Schema text in rustdoc: a `<` of wiki text is escaped outside code spans and fenced blocks (rustdoc took
/// `Input<T>` for an HTML tag and hid the rest of the line), and everything else is left as written.
#[test]
fn schema_text_is_escaped_for_rustdoc() {
    for (text, want) in [
        ("Input<T> array", "Input&lt;T> array"),
        ("Property<s32>.", "Property&lt;s32>."),
        ("`Input<T>` and Output<T>", "`Input<T>` and Output&lt;T>"),
        ("``a ` <b>`` <c>", "``a ` <b>`` &lt;c>"),
        (
            "```\nVec<u8>\n```\nVec<u8>",
            "```\nVec<u8>\n```\nVec&lt;u8>",
        ),
        (
            "an unclosed `span\n\nthen <x>",
            "an unclosed `span\n\nthen &lt;x>",
        ),
        ("a -> b, 1 < 2", "a -> b, 1 &lt; 2"),
        ("nothing to do", "nothing to do"),
    ] {
        assert_eq!(crate::doc_text::escape_tags(text), want, "{text:?}");
    }
}

/// A custom process calls the schema's hooks: `decode` to read, `encode` to write, with its arguments; a name that
/// is not one is refused with what binspec knows.
#[test]
fn custom_processes_call_hooks() {
    let schema = |process: &str| {
        format!(
            "meta:\n  id: t\nseq:\n  - id: key\n    type: u1\n  - id: buf\n    size: 4\n    process: {process}\n"
        )
    };
    let c = crate::compile_str("t.ksy", &schema("a.b.my_fx(key, true, [1, 2])")).unwrap();
    let code = c.rust.replace(char::is_whitespace, "");
    assert!(
        code.contains("crate::hooks::t::a::b::my_fx::decode(raw,v_keyasi128,true,"),
        "{}",
        c.rust
    );
    assert!(
        code.contains("crate::hooks::t::a::b::my_fx::encode("),
        "{}",
        c.rust
    );
    let d = crate::compile_str("t.ksy", &schema("My-Fx(1)")).unwrap_err();
    assert!(
        d.iter().any(|d| {
            let t = d.to_string();
            t.contains("unknown process 'My-Fx(1)'") && t.contains("a custom process is a name")
        }),
        "{d:?}"
    );
}

/// Two values whose names come out the same in CamelCase (`gsm610`, `gsm_610`) get two variants; the text form
/// keeps the schema's names.
#[test]
fn enum_values_with_the_same_rust_name_get_two_variants() {
    let c = crate::compile_str(
        "t.ksy",
        "meta:\n  id: t\nseq:\n  - id: f\n    type: u1\n    enum: fmt\nenums:\n  fmt:\n    1: gsm610\n    2: gsm_610\n    3: gsm_610_alt\n",
    )
    .unwrap();
    let code = c.rust.replace(char::is_whitespace, "");
    for want in [
        "#[serde(rename=\"gsm610\")]Gsm610,",
        "#[serde(rename=\"gsm_610\")]Gsm610Alt,",
        "#[serde(rename=\"gsm_610_alt\")]Gsm610AltAlt,",
        "2i128=>Fmt::Gsm610Alt,",
    ] {
        assert!(code.contains(want), "{want}\n{}", c.rust);
    }
}

/// A cast's type path is resolved as Kaitai resolves it, one name at a time from the type before (each where
/// `type:` would find it from there): `top::chunk::body` names a `body` declared beside `chunk`, not in it.
#[test]
fn cast_paths_resolve_name_by_name() {
    let c = crate::compile_str(
        "top.ksy",
        "meta:\n  id: top\nseq:\n  - id: c\n    type: chunk\ntypes:\n  chunk:\n    seq:\n      - id: b\n        \
         type: body\n  body:\n    seq:\n      - id: v\n        type: u1\n",
    )
    .unwrap();
    for (src, want) in [
        ("c.b.as<top::chunk::body>.v", true),
        ("c.b.as<top::body>.v", true),
        ("c.b.as<top::chunk::nope>.v", false),
    ] {
        let r = translate_model_expr(&c.module, "m", src);
        assert_eq!(r.is_ok(), want, "{src}: {r:?}");
    }
}

/// Expressions Kaitai gives a meaning the Rust types do not have: a ternary over records of two types (a record of
/// any type, which a cast takes apart), a string's integer (an error where it is none, never a made-up 0), and
/// whether a record has a parent or a root in this file.
#[test]
fn records_of_any_type_conversions_and_links() {
    let text = "meta:\n  id: t\nseq:\n  - id: flag\n    type: u1\n  - id: s\n    type: str\n    size: 2\n    encoding: ASCII\n  - id: a\n    type: ta\n  - id: b\n    type: tb\n  - id: lone\n    type: ta\n    parent: false\ntypes:\n  ta:\n    seq:\n      - id: x\n        type: u1\n  tb:\n    seq:\n      - id: y\n        type: u1\ninstances:\n  either:\n    value: 'flag == 0 ? a : b'\n";
    let c = crate::compile_str("t.ksy", text).unwrap_or_else(|d| panic!("{d:?}"));
    let tr = |src: &str| {
        translate_model_expr(&c.module, "m", src).unwrap_or_else(|e| panic!("{src}: {e}"))
    };
    let (got, t) = tr("either.as<ta>.x");
    assert_eq!(t, "Int");
    for want in [
        "Box < dyn :: std :: any :: Any >",
        "m . a . clone ()",
        "m . b . clone ()",
    ] {
        assert!(got.contains(want), "{got}");
    }
    assert!(got.contains("downcast_ref :: < Ta > ()"), "{got}");
    let (got, _) = tr("s.to_i(16)");
    assert_eq!(
        got,
        ":: binspec_runtime :: expr :: to_i (& m . s [..] , 16i128) ?"
    );
    let (got, _) = tr("s.to_i");
    assert_eq!(
        got,
        ":: binspec_runtime :: expr :: to_i (& m . s [..] , 10) ?"
    );
    for (src, want) in [
        ("a._parent._present", "true"),
        ("a._root._present", "true"),
        ("lone._parent._present", "false"),
        ("lone._root._present", "true"),
    ] {
        assert_eq!(tr(src).0, want, "{src}");
    }
}

/// `x._io.size` of a sized field is the size of its substream, where known without reading (`uefi_te` adds it to
/// a position); one that depends on the data is refused, as `_sizeof` is.
#[test]
fn substream_sizes_known_without_reading() {
    let text = "meta:\n  id: s\nseq:\n  - id: hdr\n    size: 0x10\n    type: h\n  - id: items\n    size: 4\n    type: h\n    repeat: expr\n    repeat-expr: 2\n  - id: n\n    type: u1\n  - id: var\n    size: n\n    type: h\ntypes:\n  h:\n    seq:\n      - id: x\n        type: u1\n";
    let c = crate::compile_str("s.ksy", text).unwrap_or_else(|d| panic!("{d:?}"));
    for (src, want) in [("hdr._io.size", "16i128"), ("items[1]._io.size", "4i128")] {
        let (got, _) =
            translate_model_expr(&c.module, "m", src).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert_eq!(got, want, "{src}");
    }
    let e = translate_model_expr(&c.module, "m", "var._io.size").unwrap_err();
    assert!(e.contains("the size of 'var' depends on the data"), "{e}");
}

/// A record's slot size given by a field of its holder is derived from what writing the record gives (the field
/// is not kept in the model; asked of a finished model, it is measured); a record whose condition names the size
/// keeps it as data (an absent record would not say what it was).
#[test]
fn record_slot_sizes_are_derived() {
    let schema = |cond: &str| {
        format!(
            "meta:\n  id: r\nseq:\n  - id: len\n    type: u1\n  - id: body\n    size: len - 1\n    type: p\n{cond}types:\n  p:\n    seq:\n      - id: x\n        type: u1\n"
        )
    };
    let c = crate::compile_str("r.ksy", &schema("")).unwrap_or_else(|d| panic!("{d:?}"));
    let t = &c.module.types[0];
    assert!(
        matches!(t.seq[0].role, Role::Length { .. }),
        "{:?}",
        t.seq[0].role
    );
    assert!(t.seq[1].size_derived && t.seq[1].has_filler());
    let (got, _) = translate_model_expr(&c.module, "m", "len").unwrap();
    assert!(
        got.contains("written_len") && got.contains("body_filler"),
        "{got}"
    );
    assert!(got.ends_with("+ 1i128"), "{got}");
    let c = crate::compile_str("r.ksy", &schema("    if: len > 1\n"))
        .unwrap_or_else(|d| panic!("{d:?}"));
    let t = &c.module.types[0];
    assert_eq!(t.seq[0].role, Role::Data);
    assert!(!t.seq[1].size_derived);
}
