use super::super::{Byml, Document, Endian, HashArray, Layout, Map, ValuePlacement};

fn map(pairs: Vec<(&str, Byml)>) -> Byml {
    Byml::Map(pairs.into_iter().collect())
}

fn remap(pairs: Vec<(&str, Byml)>) -> Byml {
    Byml::RemapMap(pairs.into_iter().collect())
}

fn s(v: &str) -> Byml {
    Byml::String(v.into())
}

fn root(text: &str) -> Byml {
    match Document::from_text(text) {
        Ok(d) => d.root,
        Err(e) => panic!("{text:?}: {e}"),
    }
}

/// The value of `v: <text>`.
fn value(text: &str) -> Byml {
    let r = root(&format!("v: {text}"));
    r.get("v")
        .cloned()
        .unwrap_or_else(|| panic!("{text:?}: no v in {r:?}"))
}

fn error(text: &str) -> String {
    match Document::from_text(text) {
        Ok(d) => panic!("{text:?} should not parse, gave {:?}", d.root),
        Err(e) => e.to_string(),
    }
}

fn yaml(root: Byml) -> String {
    let text = Document::new(root.clone()).to_text().unwrap();
    let body = text.split_once('\n').unwrap().1.to_owned();
    let back = Document::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(back.root, root, "{text}");
    body
}

/// The YAML of `value` after `v: ` in a block mapping.
fn yaml_value(v: Byml) -> String {
    let body = yaml(map(vec![
        ("v", v),
        ("z", Byml::Array(vec![Byml::Array(vec![])])),
    ]));
    let line = body.lines().next().unwrap();
    line.strip_prefix("v: ").unwrap_or(line).to_owned()
}

fn check_yaml_roundtrip(doc: &Document) {
    let text = doc.to_text().unwrap();
    let back = Document::from_text(&text).unwrap_or_else(|e| panic!("{text}\n{e}"));
    assert_eq!(&back, doc, "YAML:\n{text}");
}

fn check_roundtrip(doc: &Document) {
    check_yaml_roundtrip(doc);
    let json = serde_json::to_string(doc).unwrap();
    let back: Document = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json}\n{e}"));
    assert_eq!(&back, doc, "JSON:\n{json}");
    let pretty = serde_json::to_string_pretty(doc).unwrap();
    let back: Document = serde_json::from_str(&pretty).unwrap();
    assert_eq!(&back, doc);
}

// ---------------------------------------------------------------------------------------------------------------
// Reading scalars.

#[test]
fn plain_scalars_resolve_as_oead() {
    // What oead 1.3.0 gives for `v: <text>` (probed with oead.byml.from_text).
    let cases: Vec<(&str, Byml)> = vec![
        ("5", Byml::I32(5)),
        ("-5", Byml::I32(-5)),
        ("+1", Byml::I32(1)),
        ("-0", Byml::I32(0)),
        ("0x10", Byml::I32(16)),
        ("0X10", Byml::I32(16)),
        ("-0x10", Byml::I32(-16)),
        ("012", Byml::I32(10)),
        ("00", Byml::I32(0)),
        ("0x7fffffff", Byml::I32(i32::MAX)),
        ("-0x80000000", Byml::I32(i32::MIN)),
        ("2147483647", Byml::I32(i32::MAX)),
        ("-2147483648", Byml::I32(i32::MIN)),
        ("1.0", Byml::F32(1.0)),
        ("1.", Byml::F32(1.0)),
        ("0.", Byml::F32(0.0)),
        (".5", Byml::F32(0.5)),
        ("+.5", Byml::F32(0.5)),
        ("01.5", Byml::F32(1.5)),
        ("-0.0", Byml::F32(-0.0)),
        ("1.e5", Byml::F32(1e5)),
        ("1.0e5", Byml::F32(1e5)),
        ("1.5E5", Byml::F32(1.5e5)),
        ("1.5e+3", Byml::F32(1500.0)),
        ("0.5e-3", Byml::F32(0.0005)),
        ("0.100000001", Byml::F32(0.1)),
        ("3.4028236e38", Byml::F32(f32::INFINITY)),
        (".inf", Byml::F32(f32::INFINITY)),
        (".Inf", Byml::F32(f32::INFINITY)),
        (".INF", Byml::F32(f32::INFINITY)),
        ("+.inf", Byml::F32(f32::INFINITY)),
        ("-.inf", Byml::F32(f32::NEG_INFINITY)),
        ("-.Inf", Byml::F32(f32::NEG_INFINITY)),
        (".nan", Byml::F32(f32::from_bits(0x7fc0_0000))),
        (".NaN", Byml::F32(f32::from_bits(0x7fc0_0000))),
        (".NAN", Byml::F32(f32::from_bits(0x7fc0_0000))),
        // What oead writes for non-finite f32 (it reads these back as strings).
        ("inf.0", Byml::F32(f32::INFINITY)),
        ("-inf.0", Byml::F32(f32::NEG_INFINITY)),
        ("nan.0", Byml::F32(f32::from_bits(0x7fc0_0000))),
        ("true", Byml::Bool(true)),
        ("false", Byml::Bool(false)),
        ("null", Byml::Null),
        // Strings.
        ("", s("")),
        ("~", s("~")),
        ("Null", s("Null")),
        ("NULL", s("NULL")),
        ("True", s("True")),
        ("FALSE", s("FALSE")),
        ("yes", s("yes")),
        ("Yes", s("Yes")),
        ("on", s("on")),
        ("y", s("y")),
        ("1e5", s("1e5")),
        ("1E5", s("1E5")),
        ("1e+5", s("1e+5")),
        ("0o17", s("0o17")),
        ("0b101", s("0b101")),
        ("08", s("08")),
        ("0x", s("0x")),
        ("0xg", s("0xg")),
        ("1_000", s("1_000")),
        ("0x1_0", s("0x1_0")),
        ("12:30", s("12:30")),
        ("2001-12-14", s("2001-12-14")),
        ("inf", s("inf")),
        ("nan", s("nan")),
        ("NaN", s("NaN")),
        ("Inf", s("Inf")),
        ("infinity", s("infinity")),
        (".", s(".")),
        ("1.0f", s("1.0f")),
        ("1.5e3x", s("1.5e3x")),
        ("1e400", s("1e400")),
        ("tRue", s("tRue")),
        ("truee", s("truee")),
        ("x,y", s("x,y")),
        ("a#b", s("a#b")),
        ("a:b", s("a:b")),
        ("é ü", s("é ü")),
        ("1.5 # comment", Byml::F32(1.5)),
        ("1.5#c", s("1.5#c")),
        ("1.2.3", s("1.2.3")),
    ];
    for (text, expected) in cases {
        assert_eq!(value(text), expected, "v: {text}");
    }
}

/// Integers that do not fit their node's type are errors at their line and column, never wrapped (oead reads
/// them modulo 2^32 or 2^64; issue 19: `2147483648` became -2147483648 and `!u -1` 0xffffffff).
#[test]
fn integers_out_of_range_are_refused() {
    for (text, col, message) in [
        ("2147483648", 4, "2147483648 is out of the range of s32 (-2147483648 to 2147483647), the type of an untagged integer: tag it `!u` (u32), `!l` (s64) or `!ul` (u64) for a wider type, or quote it for a string"),
        ("-2147483649", 4, "-2147483649 is out of the range of s32"),
        ("4294967296", 4, "4294967296 is out of the range of s32"),
        ("0x80000000", 4, "0x80000000 is out of the range of s32"),
        ("0xFFFFFFFF", 4, "0xFFFFFFFF is out of the range of s32"),
        ("99999999999999999999", 4, "99999999999999999999 is out of the range of s32"),
        ("!u -1", 7, "!u \"-1\" is out of the range of u32 (0 to 4294967295)"),
        ("!u 4294967296", 7, "!u \"4294967296\" is out of the range of u32"),
        ("!l 9223372036854775808", 7, "!l \"9223372036854775808\" is out of the range of s64"),
        ("!l 0xffffffffffffffff", 7, "is out of the range of s64"),
        ("!ul -1", 8, "!ul \"-1\" is out of the range of u64 (0 to 18446744073709551615)"),
        ("!ul 18446744073709551616", 8, "is out of the range of u64"),
        ("!!int 2147483648", 10, "!!int \"2147483648\" is out of the range of s32"),
    ] {
        let e = error(&format!("v: {text}\n"));
        assert!(e.starts_with(&format!("1:{col}: ")), "{text}: {e}");
        assert!(e.contains(message), "{text}: {e}");
    }
    // In a sequence, on a later line.
    let e = error("- 1\n- [2, 4294967296]\n");
    assert!(e.starts_with("2:7: 4294967296 is out of the range"), "{e}");
}

#[test]
fn quoted_scalars_are_strings() {
    for (text, expected) in [
        ("'1'", "1"),
        ("\"1\"", "1"),
        ("'1.0'", "1.0"),
        ("'true'", "true"),
        ("'null'", "null"),
        ("''", ""),
        ("\"\"", ""),
        ("'it''s'", "it's"),
        ("'~'", "~"),
        ("\"\\x41\\u00e9\\n\\t\\0\\/\"", "Aé\n\t\0/"),
        ("\"\\U0001F600\"", "😀"),
        ("\"\\e\\N\\_\\L\\P\"", "\x1b\u{85}\u{a0}\u{2028}\u{2029}"),
        ("\"\\ \"", " "),
        ("\"a\\\"b\\\\c\"", "a\"b\\c"),
        ("\"\\a\\b\\v\\f\\r\"", "\x07\x08\x0b\x0c\r"),
    ] {
        assert_eq!(value(text), s(expected), "v: {text}");
    }
}

#[test]
fn tagged_scalars() {
    let cases: Vec<(&str, Byml)> = vec![
        ("!u 5", Byml::U32(5)),
        ("!u 0x5", Byml::U32(5)),
        ("!u 0x00001234", Byml::U32(0x1234)),
        ("!u 4294967295", Byml::U32(u32::MAX)),
        ("!u 017", Byml::U32(15)),
        ("!u '5'", Byml::U32(5)),
        ("!u 0x1 # comment", Byml::U32(1)),
        ("!l 5", Byml::I64(5)),
        ("!l -9223372036854775808", Byml::I64(i64::MIN)),
        ("!l 0x7fffffffffffffff", Byml::I64(i64::MAX)),
        ("!ul 0x5", Byml::U64(5)),
        ("!ul 18446744073709551615", Byml::U64(u64::MAX)),
        ("!ul 0xffffffffffffffff", Byml::U64(u64::MAX)),
        ("!!int -2147483648", Byml::I32(i32::MIN)),
        ("!f64 1", Byml::F64(1.0)),
        ("!f64 1.0", Byml::F64(1.0)),
        ("!f64 1e5", Byml::F64(1e5)),
        ("!f64 0.10000000000000001", Byml::F64(0.1)),
        ("!f64 .inf", Byml::F64(f64::INFINITY)),
        ("!f64 -.inf", Byml::F64(f64::NEG_INFINITY)),
        ("!f64 nan", Byml::F64(f64::from_bits(0x7ff8_0000_0000_0000))),
        (
            "!f64 .NaN",
            Byml::F64(f64::from_bits(0x7ff8_0000_0000_0000)),
        ),
        ("!f64 inf.0", Byml::F64(f64::INFINITY)),
        ("!f32 1", Byml::F32(1.0)),
        (
            "!f32bits 0xffc00000",
            Byml::F32(f32::from_bits(0xffc0_0000)),
        ),
        (
            "!f64bits 0x7ff8000000000001",
            Byml::F64(f64::from_bits(0x7ff8_0000_0000_0001)),
        ),
        ("!!binary AAE=", Byml::Binary(vec![0, 1])),
        ("!!binary AAE", Byml::Binary(vec![0, 1])),
        ("!!binary 'AAE='", Byml::Binary(vec![0, 1])),
        ("!!binary AA E=", Byml::Binary(vec![0, 1])),
        ("!!binary", Byml::Binary(vec![])),
        ("!<tag:yaml.org,2002:binary> AAE=", Byml::Binary(vec![0, 1])),
        ("!!file AAE=", Byml::AlignedBinary(vec![0, 1], 0x1000)),
        ("!binary_align16 AAE=", Byml::AlignedBinary(vec![0, 1], 16)),
        ("!!str 5", s("5")),
        ("!!str true", s("true")),
        ("!!str", s("")),
        ("! 5", s("5")),
        ("!!int 0x10", Byml::I32(16)),
        ("!!float 1", Byml::F32(1.0)),
        ("!!bool true", Byml::Bool(true)),
        ("!!null ''", Byml::Null),
        ("!!null", Byml::Null),
        ("!!map {a: 1}", map(vec![("a", Byml::I32(1))])),
        ("!!seq [1]", Byml::Array(vec![Byml::I32(1)])),
    ];
    for (text, expected) in cases {
        assert_eq!(value(text), expected, "v: {text}");
    }
}

#[test]
fn containers_and_layouts() {
    let expected = map(vec![
        ("a", Byml::Array(vec![Byml::I32(1), Byml::I32(2)])),
        ("b", map(vec![("c", s("d"))])),
    ]);
    for text in [
        "a: [1, 2]\nb: {c: d}\n",
        "{a: [1, 2], b: {c: d}}",
        "a:\n- 1\n- 2\nb:\n  c: d\n",
        "a:\n  - 1\n  - 2\nb:\n    c: d",
        "---\na: [1,\n  2]\nb: {c:\n   d}\n...\n",
        "%YAML 1.2\n---\na: [1, 2]\nb: {c: d}\n",
        "# comment\n\na: # c\n  # c\n  - 1 # c\n  - 2\n\n# c\nb:\n  c: d # c\n",
        "a: [1, 2,]\nb: {c: d,}\n",
        "\u{feff}a: [1, 2]\r\nb:\r\n  c: d\r\n",
        "a: &x [1, 2]\nb: {c: d}\n",
        "\"a\": [1, 2]\n'b': {\"c\":d}\n",
        "a:\t[1, 2]\nb: {c: d}\n",
        "--- {a: [1, 2], b: {c: d}}\n",
    ] {
        assert_eq!(root(text), expected, "{text:?}");
    }
    // Compact forms.
    assert_eq!(
        root("- - - 1\n    - 2\n  - 3\n- a: 1\n  b: 2\n- c"),
        Byml::Array(vec![
            Byml::Array(vec![
                Byml::Array(vec![Byml::I32(1), Byml::I32(2)]),
                Byml::I32(3)
            ]),
            map(vec![("a", Byml::I32(1)), ("b", Byml::I32(2))]),
            s("c"),
        ])
    );
    assert_eq!(
        root("- [a,b]\n-\n  - c\n-\n- d"),
        Byml::Array(vec![
            Byml::Array(vec![s("a"), s("b")]),
            Byml::Array(vec![s("c")]),
            s(""),
            s("d"),
        ])
    );
    // Keys without values, single pairs, empty values.
    assert_eq!(value("{x, y}"), map(vec![("x", s("")), ("y", s(""))]));
    assert_eq!(
        value("[x: 1]"),
        Byml::Array(vec![map(vec![("x", Byml::I32(1))])])
    );
    assert_eq!(
        root("a:\nb: {c: }"),
        map(vec![("a", s("")), ("b", map(vec![("c", s(""))]))])
    );
    // Keys are text, as written.
    assert_eq!(
        root("1: 2\nnull: 3\n'x y': 4\n0x10: 5\n!!str k: 6"),
        map(vec![
            ("1", Byml::I32(2)),
            ("null", Byml::I32(3)),
            ("x y", Byml::I32(4)),
            ("0x10", Byml::I32(5)),
            ("k", Byml::I32(6)),
        ])
    );
    // Order is kept.
    let r = root("z: 1\na: 2\nm: 3");
    let keys: Vec<&str> = r.as_map().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(keys, ["z", "a", "m"]);
    // Roots.
    assert_eq!(root(""), Byml::Null);
    assert_eq!(root("# only a comment\n"), Byml::Null);
    assert_eq!(root("null"), Byml::Null);
    assert_eq!(root("---\n"), Byml::Null);
    assert_eq!(root("5"), Byml::I32(5));
    assert_eq!(root("hello world"), s("hello world"));
    assert_eq!(root("{}"), Byml::Map(Map::default()));
    assert_eq!(root("[]"), Byml::Array(vec![]));
    assert_eq!(
        root("  a: 1\n  b: 2"),
        map(vec![("a", Byml::I32(1)), ("b", Byml::I32(2))])
    );
}

#[test]
fn our_tags_on_containers() {
    assert_eq!(
        value("!mono [1, 2]"),
        Byml::MonoArray(vec![Byml::I32(1), Byml::I32(2)])
    );
    assert_eq!(
        value("!mono\n- 1\n- 2"),
        Byml::MonoArray(vec![Byml::I32(1), Byml::I32(2)])
    );
    assert_eq!(
        value("!remap {b: 1, a: 2}"),
        remap(vec![("b", Byml::I32(1)), ("a", Byml::I32(2))])
    );
    assert_eq!(
        value("!remap\n  b: 1\n  a: 2"),
        remap(vec![("b", Byml::I32(1)), ("a", Byml::I32(2))])
    );
    assert_eq!(
        value("!hash1 {0x0000abcd: 1, 0x12: !u 2}"),
        Byml::HashArray(HashArray {
            width: 1,
            remap: false,
            entries: vec![(vec![0xabcd], Byml::I32(1)), (vec![0x12], Byml::U32(2))],
        })
    );
    assert_eq!(
        value("!hash2_remap\n  0x00000001_0000abcd: [1]\n  0x2_3: x"),
        Byml::HashArray(HashArray {
            width: 2,
            remap: true,
            entries: vec![
                (vec![1, 0xabcd], Byml::Array(vec![Byml::I32(1)])),
                (vec![2, 3], s("x")),
            ],
        })
    );
    assert_eq!(
        value("!hash0 {'': 1}"),
        Byml::HashArray(HashArray {
            width: 0,
            remap: false,
            entries: vec![(vec![], Byml::I32(1))],
        })
    );
    assert_eq!(
        root("!remap\nb: 1\na: 2"),
        remap(vec![("b", Byml::I32(1)), ("a", Byml::I32(2))])
    );
    assert_eq!(
        root("- !remap\n  b: 1\n- !mono\n  - 1\n- !mono [2]"),
        Byml::Array(vec![
            remap(vec![("b", Byml::I32(1))]),
            Byml::MonoArray(vec![Byml::I32(1)]),
            Byml::MonoArray(vec![Byml::I32(2)]),
        ])
    );
}

#[test]
fn multi_line_scalars() {
    assert_eq!(value("x\n  y\n\n  z"), s("x y\nz"));
    assert_eq!(value("'x\n\n\n  y'"), s("x\n\ny"));
    assert_eq!(value("'word \n  word '"), s("word word "));
    assert_eq!(value("\"x\\\n   y\""), s("xy"));
    assert_eq!(value("\"x \\t\n   y\""), s("x \t y"));
    assert_eq!(value("'multi\n\n  line'"), s("multi\nline"));
    assert_eq!(value("[a\n  b, c]"), Byml::Array(vec![s("a b"), s("c")]));
    // Block scalars.
    assert_eq!(value("|\n  text\n  more\n"), s("text\nmore\n"));
    assert_eq!(value("|-\n  x\n  y"), s("x\ny"));
    assert_eq!(value("|+\n  x\n\n"), s("x\n\n"));
    assert_eq!(
        value(">\n  folded\n  text\n\n  next\n"),
        s("folded text\nnext\n")
    );
    assert_eq!(value(">\n  a\n    b\n  c\n"), s("a\n  b\nc\n"));
    assert_eq!(value("|2\n   x\n  y\n"), s(" x\ny\n"));
    assert_eq!(value("!!binary |\n  AAE=\n"), Byml::Binary(vec![0, 1]));
    assert_eq!(
        root("a: |\n  x\nb: 1"),
        map(vec![("a", s("x\n")), ("b", Byml::I32(1))])
    );
    assert_eq!(
        root("a: |\nb: 1"),
        map(vec![("a", s("")), ("b", Byml::I32(1))])
    );
    assert_eq!(
        root("- >-\n  a\n  b\n- c"),
        Byml::Array(vec![s("a b"), s("c")])
    );
}

#[test]
fn anchors_and_aliases() {
    assert_eq!(
        root("a: &x [1, {b: 2}]\nc: *x\nd: &y 5\ne: [*y, *x]"),
        map(vec![
            (
                "a",
                Byml::Array(vec![Byml::I32(1), map(vec![("b", Byml::I32(2))])])
            ),
            (
                "c",
                Byml::Array(vec![Byml::I32(1), map(vec![("b", Byml::I32(2))])])
            ),
            ("d", Byml::I32(5)),
            (
                "e",
                Byml::Array(vec![
                    Byml::I32(5),
                    Byml::Array(vec![Byml::I32(1), map(vec![("b", Byml::I32(2))])])
                ])
            ),
        ])
    );
    assert_eq!(
        root("a: &x !u 5\nb: *x"),
        map(vec![("a", Byml::U32(5)), ("b", Byml::U32(5))])
    );
    assert_eq!(
        root("a: !u &x 5\nb: *x"),
        map(vec![("a", Byml::U32(5)), ("b", Byml::U32(5))])
    );
    // Billion laughs: an error, quickly.
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let p = i - 1;
        text += &format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        );
    }
    assert!(error(&text).contains("aliases expand to too many nodes"));
}

// ---------------------------------------------------------------------------------------------------------------
// oead's output.

/// Written by oead 1.3.0 (`oead.byml.to_text`) from a tree of every type it has.
const OEAD_SAMPLE: &str = "Actors:
- Big: !ul 18446744073709551615
  Data: !!binary aGk=
  Empty: ''
  Flags: [true, false, null]
  Hp: !u 0x00000020
  Id: !l -3
  Name: Enemy_Bokoblin
  Nested:
    a: []
  Note: '1.0'
  Pos: [1.5, -0.0, 100.0]
  Rate: !f64 0.10000000000000001
Count: 2
";

#[test]
fn reads_oead_output() {
    let expected = map(vec![
        (
            "Actors",
            Byml::Array(vec![map(vec![
                ("Big", Byml::U64(u64::MAX)),
                ("Data", Byml::Binary(b"hi".to_vec())),
                ("Empty", s("")),
                (
                    "Flags",
                    Byml::Array(vec![Byml::Bool(true), Byml::Bool(false), Byml::Null]),
                ),
                ("Hp", Byml::U32(0x20)),
                ("Id", Byml::I64(-3)),
                ("Name", s("Enemy_Bokoblin")),
                ("Nested", map(vec![("a", Byml::Array(vec![]))])),
                ("Note", s("1.0")),
                (
                    "Pos",
                    Byml::Array(vec![Byml::F32(1.5), Byml::F32(-0.0), Byml::F32(100.0)]),
                ),
                ("Rate", Byml::F64(0.1)),
            ])]),
        ),
        ("Count", Byml::I32(2)),
    ]);
    let doc = Document::from_text(OEAD_SAMPLE).unwrap();
    assert_eq!(doc.root, expected);
    assert_eq!(
        (doc.version, doc.endian, doc.layout),
        (2, Endian::Little, None)
    );
    // And we write it as oead does, but for the header line and the shortest digits of floats.
    assert_eq!(
        yaml(expected),
        OEAD_SAMPLE.replace("0.10000000000000001", "0.1")
    );

    // oead's float digits (%.9g) and its strings.
    assert_eq!(
        root("[inf.0, 3.40282347e+38, 1.40129846e-45, 16777216.0, 0.100000001, 123456792.0, 9.99999975e-06]\n"),
        Byml::Array(
            [f32::INFINITY, f32::MAX, 1e-45, 16777216.0, 0.1, 123456792.0, 1e-5]
                .into_iter()
                .map(Byml::F32)
                .collect()
        )
    );
    assert_eq!(
        root("k:\n  '0': 0\n  '1': 1\n  '10': 10\n  '2': 2\n"),
        map(vec![(
            "k",
            map(vec![
                ("0", Byml::I32(0)),
                ("1", Byml::I32(1)),
                ("10", Byml::I32(10)),
                ("2", Byml::I32(2)),
            ])
        )])
    );
    assert_eq!(
        root(
            "long: 'word word word\n  word '\nmix: 'it''s \"x\"\n\n  '\nctrl: \"a\\x7Fb\"\nemoji: \"\\U0001F600\"\n\
             bom: \"\\uFEFFx\"\nhash: a#b\nlead-: -a\nq?: ?a\n'key: colon': 2\n'': 3\n"
        ),
        map(vec![
            ("long", s("word word word word ")),
            ("mix", s("it's \"x\"\n")),
            ("ctrl", s("a\x7fb")),
            ("emoji", s("😀")),
            ("bom", s("\u{feff}x")),
            ("hash", s("a#b")),
            ("lead-", s("-a")),
            ("q?", s("?a")),
            ("key: colon", Byml::I32(2)),
            ("", Byml::I32(3)),
        ])
    );
}

/// Written by roead 1.0 (`Byml::to_text`, through rapidyaml): explicit keys for keys with line breaks or leading
/// spaces, block scalars, flow sequences without spaces, upper-case hex, raw tabs.
const ROEAD_SAMPLE: &str = "? |2-
   lead
: 17
'!bang': 21
d: [!f64 1.0,!f64 0.1,!f64 1.0e300,!f64 -inf]
f: [1.0,-0.0,0.10000000149011612,1.0000000200408773e20,1.0000000116860974e-7,3.4028234663852886e38]
file: !!file AwQ=
ints: [-5,!u 0x1234,!l -3,!ul 0xFFFFFFFFFFFFFFFF,true,null]
long:
  - 0
  - 1
? |-
  multi
  line
: 15
nested:
  - - 1
    - [2]
  - {}
s00: ''
s02: \"1\"
s15: |-
  multi
  line
s16: tab\there
s17: |2-
   lead
";

#[test]
fn reads_roead_output() {
    let expected = map(vec![
        (" lead", Byml::I32(17)),
        ("!bang", Byml::I32(21)),
        (
            "d",
            Byml::Array(vec![
                Byml::F64(1.0),
                Byml::F64(0.1),
                Byml::F64(1e300),
                Byml::F64(f64::NEG_INFINITY),
            ]),
        ),
        (
            "f",
            Byml::Array(
                [1.0, -0.0, 0.1, 1e20, 1e-7, f32::MAX]
                    .into_iter()
                    .map(Byml::F32)
                    .collect(),
            ),
        ),
        ("file", Byml::AlignedBinary(vec![3, 4], 0x1000)),
        (
            "ints",
            Byml::Array(vec![
                Byml::I32(-5),
                Byml::U32(0x1234),
                Byml::I64(-3),
                Byml::U64(u64::MAX),
                Byml::Bool(true),
                Byml::Null,
            ]),
        ),
        ("long", Byml::Array(vec![Byml::I32(0), Byml::I32(1)])),
        ("multi\nline", Byml::I32(15)),
        (
            "nested",
            Byml::Array(vec![
                Byml::Array(vec![Byml::I32(1), Byml::Array(vec![Byml::I32(2)])]),
                map(vec![]),
            ]),
        ),
        ("s00", s("")),
        ("s02", s("1")),
        ("s15", s("multi\nline")),
        ("s16", s("tab\there")),
        ("s17", s(" lead")),
    ]);
    assert_eq!(root(ROEAD_SAMPLE), expected);
}

#[test]
fn explicit_keys() {
    assert_eq!(
        root("? a\n: 1\n? b\nc: 2\n? 'd'\n: [3]\n?\n  e\n:\n  - 4"),
        map(vec![
            ("a", Byml::I32(1)),
            ("b", s("")),
            ("c", Byml::I32(2)),
            ("d", Byml::Array(vec![Byml::I32(3)])),
            ("e", Byml::Array(vec![Byml::I32(4)])),
        ])
    );
    assert_eq!(
        root("x:\n  ? |\n    k\n  : v\n"),
        map(vec![("x", map(vec![("k\n", s("v"))]))])
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Writing.

#[test]
fn writes_tricky_scalars() {
    let cases: Vec<(Byml, &str)> = vec![
        (Byml::Null, "null"),
        (Byml::Bool(true), "true"),
        (Byml::I32(-5), "-5"),
        (Byml::U32(0x1234), "!u 0x00001234"),
        (Byml::I64(-5), "!l -5"),
        (Byml::U64(u64::MAX), "!ul 18446744073709551615"),
        (Byml::F32(1.0), "1.0"),
        (Byml::F32(-0.0), "-0.0"),
        (Byml::F32(0.1), "0.1"),
        (Byml::F32(1e20), "1.0e+20"),
        (Byml::F32(1.5e-7), "1.5e-7"),
        (Byml::F32(16777216.0), "16777216.0"),
        (Byml::F32(f32::INFINITY), ".inf"),
        (Byml::F32(f32::NEG_INFINITY), "-.inf"),
        (Byml::F32(f32::NAN), ".nan"),
        (
            Byml::F32(f32::from_bits(0xffc0_0000)),
            "!f32bits 0xffc00000",
        ),
        (
            Byml::F32(f32::from_bits(0x7f80_0001)),
            "!f32bits 0x7f800001",
        ),
        (Byml::F64(0.1), "!f64 0.1"),
        (Byml::F64(1.0), "!f64 1.0"),
        (Byml::F64(-0.0), "!f64 -0.0"),
        (Byml::F64(f64::NEG_INFINITY), "!f64 -.inf"),
        (Byml::F64(f64::NAN), "!f64 .nan"),
        (
            Byml::F64(f64::from_bits(0xfff8_0000_0000_0000)),
            "!f64bits 0xfff8000000000000",
        ),
        (
            Byml::Binary(b"\0\x01hello".to_vec()),
            "!!binary AAFoZWxsbw==",
        ),
        (Byml::AlignedBinary(vec![0, 1], 16), "!binary_align16 AAE="),
        (Byml::AlignedBinary(vec![0, 1], 0x1000), "!!file AAE="),
        (s(""), "''"),
        (s("plain"), "plain"),
        (s("two words"), "two words"),
        (s("é ü"), "é ü"),
        (s("1"), "'1'"),
        (s("1.0"), "'1.0'"),
        (s("0x10"), "'0x10'"),
        (s("012"), "'012'"),
        (s("1e5"), "'1e5'"),
        (s("-1"), "'-1'"),
        (s(".5"), "'.5'"),
        (s("true"), "'true'"),
        (s("false"), "'false'"),
        (s("null"), "'null'"),
        (s("~"), "'~'"),
        (s("Null"), "'Null'"),
        (s("NULL"), "'NULL'"),
        (s("yes"), "'yes'"),
        (s("Off"), "'Off'"),
        (s("y"), "'y'"),
        (s(".inf"), "'.inf'"),
        (s("-.inf"), "'-.inf'"),
        (s(".nan"), "'.nan'"),
        (s("inf.0"), "'inf.0'"),
        (s("nan"), "'nan'"),
        (s("Infinity"), "'Infinity'"),
        (s("it's"), "it's"),
        (s("'q'"), "'''q'''"),
        (s("\"dq\""), "'\"dq\"'"),
        (s("a: b"), "'a: b'"),
        (s("a:"), "'a:'"),
        (s("a:b"), "a:b"),
        (s("- x"), "'- x'"),
        (s("-a"), "'-a'"),
        (s(" lead"), "' lead'"),
        (s("trail "), "'trail '"),
        (s("#c"), "'#c'"),
        (s("a #b"), "'a #b'"),
        (s("a#b"), "a#b"),
        (s("!tag"), "'!tag'"),
        (s("&a"), "'&a'"),
        (s("*a"), "'*a'"),
        (s("[x]"), "'[x]'"),
        (s("{x}"), "'{x}'"),
        (s("x,y"), "x,y"),
        (s("%"), "'%'"),
        (s("@"), "'@'"),
        (s("`"), "'`'"),
        (s("|"), "'|'"),
        (s(">"), "'>'"),
        (s("?"), "'?'"),
        (s(":"), "':'"),
        (s("---"), "'---'"),
        (s("..."), "'...'"),
        (s("multi\nline"), "\"multi\\nline\""),
        (s("tab\there"), "\"tab\\there\""),
        (s("\r\n"), "\"\\r\\n\""),
        (s("\0\x01\x1b\x7f"), "\"\\0\\x01\\e\\x7F\""),
        (s("back\\slash\n"), "\"back\\\\slash\\n\""),
        (s("q\"\n"), "\"q\\\"\\n\""),
        (
            s("\u{85}\u{2028}\u{2029}\u{feff}\u{9f}"),
            "\"\\N\\L\\P\\uFEFF\\x9F\"",
        ),
        (s("\u{a0}nbsp"), "\u{a0}nbsp"),
        (s("😀"), "😀"),
    ];
    for (v, expected) in cases {
        assert_eq!(yaml_value(v.clone()), expected, "{v:?}");
    }
}

#[test]
fn writes_strings_in_flow_collections() {
    let v = Byml::Array(vec![
        s("a,b"),
        s("a:b"),
        s("[x"),
        s("x}"),
        s("plain"),
        s("a b"),
    ]);
    assert_eq!(yaml_value(v), "['a,b', 'a:b', '[x', 'x}', plain, a b]");
    let m = map(vec![("a,b", Byml::I32(1)), ("c", s("{"))]);
    assert_eq!(yaml_value(m), "{'a,b': 1, c: '{'}");
}

#[test]
fn writes_oead_layout() {
    let tree = map(vec![
        ("Empty", map(vec![])),
        ("List", Byml::Array((0..11).map(Byml::I32).collect())),
        (
            "Nested",
            Byml::Array(vec![
                Byml::Array(vec![
                    Byml::I32(1),
                    Byml::Array(vec![Byml::I32(2), map(vec![("k", Byml::I32(3))])]),
                ]),
                map(vec![]),
            ]),
        ),
        (
            "Remap",
            remap(vec![
                ("z", Byml::I32(1)),
                ("a", Byml::Array(vec![Byml::I32(1), map(vec![])])),
            ]),
        ),
        (
            "Mono",
            Byml::MonoArray(vec![Byml::F32(1.0), Byml::F32(2.0)]),
        ),
        (
            "MonoBlock",
            Byml::MonoArray(vec![
                Byml::Array(vec![Byml::I32(1)]),
                Byml::Array(vec![Byml::I32(2)]),
            ]),
        ),
        (
            "Hash",
            Byml::HashArray(HashArray {
                width: 1,
                remap: false,
                entries: vec![
                    (vec![0xdead_beef], s("x")),
                    (vec![1], Byml::Array(vec![Byml::I32(1), map(vec![])])),
                ],
            }),
        ),
        (
            "Items",
            Byml::Array(vec![
                map(vec![
                    ("a", Byml::I32(1)),
                    ("b", Byml::Array(vec![map(vec![("c", Byml::I32(2))])])),
                ]),
                remap(vec![("x", Byml::Array(vec![map(vec![])]))]),
                Byml::MonoArray(vec![Byml::Array(vec![]), map(vec![])]),
            ]),
        ),
    ]);
    let expected = "\
Empty: {}
List:
- 0
- 1
- 2
- 3
- 4
- 5
- 6
- 7
- 8
- 9
- 10
Nested:
- - 1
  - - 2
    - {k: 3}
- {}
Remap: !remap
  z: 1
  a:
  - 1
  - {}
Mono: !mono [1.0, 2.0]
MonoBlock: !mono
- [1]
- [2]
Hash: !hash1
  0xdeadbeef: x
  0x00000001:
  - 1
  - {}
Items:
- a: 1
  b:
  - {c: 2}
- !remap
  x:
  - {}
- !mono
  - []
  - {}
";
    assert_eq!(yaml(tree.clone()), expected);
    // Roots.
    assert_eq!(yaml(Byml::Null), "null\n");
    assert_eq!(yaml(Byml::I32(5)), "5\n");
    assert_eq!(yaml(s("x")), "x\n");
    assert_eq!(yaml(s("---")), "'---'\n");
    assert_eq!(yaml(map(vec![])), "{}\n");
    assert_eq!(yaml(Byml::MonoArray(vec![])), "!mono []\n");
    assert_eq!(yaml(remap(vec![("a", map(vec![]))])), "!remap\na: {}\n");
    assert_eq!(
        yaml(Byml::MonoArray(vec![Byml::Array(vec![])])),
        "!mono\n- []\n"
    );
    assert_eq!(
        yaml(Byml::Array(vec![Byml::Array(vec![]), Byml::I32(1)])),
        "- []\n- 1\n"
    );
}

#[test]
fn header_line() {
    let mut doc = Document::new(map(vec![("a", Byml::I32(1))]));
    assert_eq!(
        doc.to_text().unwrap(),
        "# byml: version 2, little endian\n{a: 1}\n"
    );
    doc.version = 7;
    doc.endian = Endian::Big;
    doc.layout = Some(Layout {
        share: false,
        values: ValuePlacement::BeforeRoot,
    });
    let text = doc.to_text().unwrap();
    assert_eq!(
        text,
        "# byml: version 7, big endian, layout: share=false values=before-root\n{a: 1}\n"
    );
    assert_eq!(Document::from_text(&text).unwrap(), doc);
    for values in [ValuePlacement::Inline, ValuePlacement::AfterContainers] {
        doc.layout = Some(Layout {
            share: true,
            values,
        });
        check_roundtrip(&doc);
    }
    // Reordered, spaced, with a BOM.
    let d = Document::from_text("\u{feff}# byml:  big endian ,version 4\n[1]").unwrap();
    assert_eq!((d.version, d.endian, d.layout), (4, Endian::Big, None));
    // A comment line that is not the header.
    let d = Document::from_text("# bymlx\n[1]").unwrap();
    assert_eq!((d.version, d.endian), (2, Endian::Little));
    // The header among the comment lines that open the document, after a blank line or other comments, as
    // `binspec decode` writes it (issue 19: it was ignored unless it came first, and every file became version 2).
    let d = Document::from_text("\n# byml: version 7, big endian\n[1]").unwrap();
    assert_eq!((d.version, d.endian), (7, Endian::Big));
    let d = Document::from_text(
        "# binspec: byml\r\n# compression: zstd\r\n\n  # byml: version 3, big endian\r\n[1]",
    )
    .unwrap();
    assert_eq!((d.version, d.endian), (3, Endian::Big));
    // After the first non-comment line it is an ordinary comment.
    let d = Document::from_text("- 1\n# byml: version 7, big endian\n").unwrap();
    assert_eq!((d.version, d.endian), (2, Endian::Little));
    let e = error("# byml: version 7\n# byml: version 3\n[]");
    assert!(
        e.starts_with("2:1: a second `# byml:` header line (the first is line 1)"),
        "{e}"
    );
    assert!(error("# binspec: byml\n# byml: version 7, middle endian\n[]").starts_with("2:20:"));
    for bad in [
        "# byml: version x, big endian\n[]",
        "# byml: version 7, middle endian\n[]",
        "# byml: version 7, big endian, layout: share=maybe values=inline\n[]",
        "# byml: version 7, big endian, layout: share=true\n[]",
        "# byml: version 7, big endian, colour: red\n[]",
        "# byml: version 7, version 8\n[]",
    ] {
        let e = error(bad);
        assert!(e.starts_with("1:"), "{bad}: {e}");
        assert!(e.contains("malformed header comment"), "{bad}: {e}");
    }
    assert!(error("# byml: version 7, middle endian\n[]").starts_with("1:20:"));
}

// ---------------------------------------------------------------------------------------------------------------
// Round trips.

/// A tree with every variant, and values that are hard to write.
fn every_variant() -> Byml {
    let floats: Vec<Byml> = [
        0.0f32,
        -0.0,
        1.0,
        0.1,
        1e20,
        1e-45,
        f32::MAX,
        f32::MIN_POSITIVE,
        16777217.0,
        123456789.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::from_bits(0xffc0_0000),
        f32::from_bits(0x7f80_0001),
        f32::from_bits(0x7fff_ffff),
    ]
    .into_iter()
    .map(Byml::F32)
    .collect();
    let doubles: Vec<Byml> = [
        0.0f64,
        -0.0,
        0.1,
        1e300,
        5e-324,
        f64::MAX,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::from_bits(0x7ff8_0000_0000_0001),
        f64::from_bits(0xfff8_0000_0000_0000),
    ]
    .into_iter()
    .map(Byml::F64)
    .collect();
    let strings: Vec<Byml> = [
        "",
        "plain",
        "1",
        "1.0",
        "true",
        "null",
        "~",
        "yes",
        "a: b",
        "#",
        "- x",
        "'",
        "\"",
        "\\",
        "\n",
        " ",
        "\t",
        "é",
        "😀",
        "\u{85}",
        "\u{2028}",
        "\u{feff}",
        "\0",
        "x\r\ny",
        "[",
        "]",
        "{",
        "}",
        ",",
        "a, b",
        "!u 5",
        "&a",
        "*a",
        "%",
        "@",
        "---",
        "...",
        "inf.0",
        "0x10",
        "012",
        "1e5",
        "-",
        "?",
        ":",
        "|",
        ">",
        "key:",
        " a ",
        "multi\n\nline\n",
        "trailing\n\n",
        "\n\nleading",
        "é\u{a0}é",
    ]
    .into_iter()
    .map(s)
    .collect();
    let long: Vec<Byml> = (0..25).map(|i| Byml::I32(i * 1000 - 7)).collect();
    let big_map: Map = (0..12).map(|i| (format!("k{i}"), Byml::U32(i))).collect();
    map(vec![
        ("null", Byml::Null),
        (
            "bools",
            Byml::Array(vec![Byml::Bool(true), Byml::Bool(false)]),
        ),
        (
            "ints",
            Byml::Array(vec![Byml::I32(0), Byml::I32(i32::MIN), Byml::I32(i32::MAX)]),
        ),
        (
            "uints",
            Byml::Array(vec![Byml::U32(0), Byml::U32(u32::MAX)]),
        ),
        (
            "longs",
            Byml::Array(vec![
                Byml::I64(i64::MIN),
                Byml::I64(i64::MAX),
                Byml::U64(0),
                Byml::U64(u64::MAX),
            ]),
        ),
        ("floats", Byml::Array(floats)),
        ("doubles", Byml::Array(doubles)),
        ("strings", Byml::Array(strings.clone())),
        (
            "binary",
            Byml::Array(vec![
                Byml::Binary(vec![]),
                Byml::Binary((0..=255).collect()),
            ]),
        ),
        (
            "aligned",
            Byml::Array(vec![
                Byml::AlignedBinary(vec![], 0),
                Byml::AlignedBinary(vec![1, 2, 3], 16),
                Byml::AlignedBinary(vec![4], 0x1000),
                Byml::AlignedBinary(vec![5], u32::MAX),
            ]),
        ),
        ("long", Byml::Array(long.clone())),
        ("mono", Byml::MonoArray(long)),
        ("mono_small", Byml::MonoArray(vec![Byml::U32(1)])),
        ("mono_empty", Byml::MonoArray(vec![])),
        ("map", Byml::Map(big_map.clone())),
        ("remap", Byml::RemapMap(big_map)),
        (
            "remap_small",
            remap(vec![("b", Byml::I32(1)), ("a", Byml::I32(2))]),
        ),
        ("remap_empty", remap(vec![])),
        (
            "keys",
            Byml::Map(
                strings
                    .iter()
                    .filter_map(|v| v.as_str())
                    .map(|k| (k, s(k)))
                    .collect(),
            ),
        ),
        (
            "!bang",
            map(vec![("!u", Byml::I32(1)), ("x", Byml::I32(2))]),
        ),
        (
            "hash",
            Byml::Array(vec![
                Byml::HashArray(HashArray {
                    width: 1,
                    remap: false,
                    entries: vec![
                        (vec![0xdead_beef], s("x")),
                        (vec![0], Byml::Array(vec![Byml::I32(1)])),
                    ],
                }),
                Byml::HashArray(HashArray {
                    width: 2,
                    remap: true,
                    entries: (0..12u32)
                        .map(|i| (vec![i, !i], Byml::I32(i as i32)))
                        .collect(),
                }),
                Byml::HashArray(HashArray {
                    width: 15,
                    remap: true,
                    entries: vec![((0..15).collect(), Byml::Null)],
                }),
                Byml::HashArray(HashArray {
                    width: 0,
                    remap: false,
                    entries: vec![(vec![], Byml::I32(1)), (vec![], Byml::I32(2))],
                }),
                Byml::HashArray(HashArray::default()),
            ]),
        ),
        (
            "nested",
            Byml::Array(vec![
                Byml::Array(vec![
                    Byml::Array(vec![Byml::Array(vec![])]),
                    map(vec![("a", map(vec![]))]),
                ]),
                Byml::MonoArray(vec![
                    Byml::MonoArray(vec![Byml::I32(1)]),
                    remap(vec![("x", remap(vec![]))]),
                ]),
                remap(vec![(
                    "m",
                    Byml::MonoArray(vec![map(vec![("k", Byml::Null)])]),
                )]),
            ]),
        ),
    ])
}

#[test]
fn every_variant_round_trips() {
    let tree = every_variant();
    let mut doc = Document::new(tree.clone());
    check_roundtrip(&doc);
    doc.version = 7;
    doc.endian = Endian::Big;
    doc.layout = Some(Layout {
        share: false,
        values: ValuePlacement::AfterContainers,
    });
    check_roundtrip(&doc);
    // Every child as the root, and inside a sequence.
    for (_, v) in tree.as_map().unwrap() {
        check_roundtrip(&Document::new(v.clone()));
        check_roundtrip(&Document::new(Byml::Array(vec![v.clone()])));
        for c in v.children() {
            check_roundtrip(&Document::new(c.1.clone()));
        }
    }
}

/// A small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_string(r: &mut Rng) -> String {
    const PARTS: &[&str] = &[
        "a", "B", "1", "0x", ".", "-", " ", ":", "#", "'", "\"", "\\", "\n", "\t", "!", "&", "*",
        "[", "]", "{", "}", ",", "?", "|", ">", "%", "@", "`", "~", "é", "😀", "\u{85}",
        "\u{2028}", "\0", "true", "null", "e5", ".inf", "nan", "---", "\r",
    ];
    let n = r.below(6);
    (0..n)
        .map(|_| PARTS[r.below(PARTS.len() as u64) as usize])
        .collect()
}

fn random_tree(r: &mut Rng, depth: usize) -> Byml {
    let kind = if depth > 4 { r.below(13) } else { r.below(19) };
    match kind {
        0 => Byml::Null,
        1 => Byml::Bool(r.below(2) == 0),
        2 => Byml::I32(r.next() as i32),
        3 => Byml::U32(r.next() as u32),
        4 => Byml::F32(f32::from_bits(r.next() as u32)),
        5 => Byml::F32((r.below(2_000_000) as f32 - 1e6) / 1024.0),
        6 => Byml::I64(r.next() as i64),
        7 => Byml::U64(r.next()),
        8 => Byml::F64(f64::from_bits(r.next())),
        9 | 10 => Byml::String(random_string(r).into()),
        11 => Byml::Binary((0..r.below(8)).map(|_| r.next() as u8).collect()),
        12 => Byml::AlignedBinary(
            (0..r.below(8)).map(|_| r.next() as u8).collect(),
            r.next() as u32 >> r.below(32),
        ),
        13 | 14 => {
            let n = r.below(14);
            let items = (0..n).map(|_| random_tree(r, depth + 1)).collect();
            if kind == 13 {
                Byml::Array(items)
            } else {
                Byml::MonoArray(items)
            }
        }
        15 | 16 => {
            let n = r.below(14);
            let mut m = Map::default();
            for _ in 0..n {
                m.insert(random_string(r), random_tree(r, depth + 1));
            }
            if kind == 15 {
                Byml::Map(m)
            } else {
                Byml::RemapMap(m)
            }
        }
        _ => {
            let width = r.below(4) as u8;
            let n = r.below(14);
            Byml::HashArray(HashArray {
                width,
                remap: r.below(2) == 0,
                entries: (0..n)
                    .map(|_| {
                        (
                            (0..width).map(|_| r.next() as u32).collect(),
                            random_tree(r, depth + 1),
                        )
                    })
                    .collect(),
            })
        }
    }
}

#[test]
fn random_trees_round_trip() {
    let mut r = Rng(42);
    for _ in 0..400 {
        let tree = random_tree(&mut r, 0);
        check_roundtrip(&Document::new(tree));
    }
}

#[test]
fn every_f32_near_a_double_rounding_trap_round_trips() {
    // Floats whose shortest digits are far from their value stress the text -> f64 -> f32 path: sweep many bit
    // patterns, every exponent.
    let mut text = String::new();
    let mut r = Rng(7);
    for i in 0..200_000u32 {
        let bits = if i < 100_000 {
            i.wrapping_mul(42_949)
        } else {
            r.next() as u32
        };
        let v = f32::from_bits(bits);
        if !v.is_finite() {
            continue;
        }
        text.clear();
        super::scalar::push_finite_f32(&mut text, v);
        let back = super::scalar::f32_from_f64(text.parse::<f64>().unwrap());
        assert_eq!(back.to_bits(), bits, "{text}");
        assert!(text.contains('.'), "{text}");
    }
}

// ---------------------------------------------------------------------------------------------------------------
// JSON.

#[test]
fn json_form() {
    let mut doc = Document::new(map(vec![
        (
            "a",
            Byml::Array(vec![
                Byml::I32(1),
                Byml::F32(1.0),
                Byml::F32(0.1),
                Byml::Null,
                Byml::Bool(true),
            ]),
        ),
        ("u", Byml::U32(5)),
        ("l", Byml::I64(-1)),
        ("ul", Byml::U64(u64::MAX)),
        ("d", Byml::F64(1.5)),
        ("b", Byml::Binary(vec![0, 1])),
        ("ab", Byml::AlignedBinary(vec![0, 1], 16)),
        ("m", Byml::MonoArray(vec![Byml::I32(1)])),
        ("r", remap(vec![("x", Byml::I32(1))])),
        (
            "h",
            Byml::HashArray(HashArray {
                width: 1,
                remap: true,
                entries: vec![(vec![0xabcd], Byml::I32(1))],
            }),
        ),
        ("nan", Byml::F32(f32::NAN)),
        ("inf", Byml::F64(f64::INFINITY)),
        ("nan2", Byml::F32(f32::from_bits(0xffc0_0000))),
        ("bang", map(vec![("!x", Byml::I32(1))])),
    ]));
    let json = serde_json::to_string(&doc).unwrap();
    assert_eq!(
        json,
        r#"{"version":2,"endian":"little","root":{"a":[1,1.0,0.1,null,true],"u":{"!u":5},"l":{"!l":-1},"ul":{"!ul":18446744073709551615},"d":{"!f64":1.5},"b":{"!!binary":"AAE="},"ab":{"!binary_align16":"AAE="},"m":{"!mono":[1]},"r":{"!remap":{"x":1}},"h":{"!hash1_remap":{"0x0000abcd":1}},"nan":{"!f32":".nan"},"inf":{"!f64":".inf"},"nan2":{"!f32bits":"0xffc00000"},"bang":{"!!map":{"!x":1}}}}"#
    );
    check_roundtrip(&doc);
    doc.layout = Some(Layout {
        share: true,
        values: ValuePlacement::Inline,
    });
    let json = serde_json::to_string(&doc).unwrap();
    assert!(
        json.contains(r#""layout":{"share":true,"values":"inline"}"#),
        "{json}"
    );
    check_roundtrip(&doc);

    // Reading: defaults, alternative forms, errors.
    let d: Document = serde_json::from_str(
        r#"{"root": [1, 2.5, {"!f32": 3}, {"!f64": "-.inf"}, {"!!file": "AAE"}]}"#,
    )
    .unwrap();
    assert_eq!(
        d,
        Document::new(Byml::Array(vec![
            Byml::I32(1),
            Byml::F32(2.5),
            Byml::F32(3.0),
            Byml::F64(f64::NEG_INFINITY),
            Byml::AlignedBinary(vec![0, 1], 0x1000),
        ]))
    );
    for (bad, msg) in [
        (r#"{"root": 3000000000}"#, "out of the range of s32"),
        (r#"{"root": {"!x": 1}}"#, "unknown tag"),
        (r#"{"root": {"!u": 1, "b": 2}}"#, "one key"),
        (r#"{"root": {"!u": -1}}"#, "invalid value"),
        (r#"{"root": {"!hash1": {"xyz": 1}}}"#, "hash array key"),
        (r#"{"root": {"a": 1, "a": 2}}"#, "duplicate key"),
        (r#"{"version": 2}"#, "missing field `root`"),
        (r#"{"root": 1, "colour": 2}"#, "unknown field"),
        (r#"{"root": {"!!binary": "*"}}"#, "base64"),
    ] {
        let e = serde_json::from_str::<Document>(bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains(msg), "{bad}: {e}");
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Errors.

#[test]
fn errors_name_line_and_column() {
    let cases = [
        ("a: 1\nb: [1, 2\n", "2:4: unterminated flow sequence"),
        ("a: {x: 1", "1:4: unterminated flow mapping"),
        ("a: 'x", "1:4: unterminated single-quoted string"),
        ("a: \"x", "1:4: unterminated double-quoted string"),
        ("a: \"\\q\"", "1:5: unknown escape \\q"),
        ("a: \"\\x4\"", "1:5: invalid escape \\x"),
        ("a: 1\na: 2\n", "2:1: duplicate key \"a\""),
        ("{a: 1, a: 2}", "1:8: duplicate key"),
        ("a: !x 1", "1:4: unknown tag !x"),
        (
            "a: !h {1: 2}",
            "1:4: roead's !h hash maps are not supported",
        ),
        ("a: !u x", "1:7: !u needs an integer, not \"x\""),
        ("a: !u", "1:6: !u needs an integer"),
        ("a: !f64 x", "1:9: !f64 needs a number"),
        ("a: !!binary ab$", "1:13: !!binary needs base64 data"),
        ("a: !remap [1]", "1:4: !remap cannot tag a sequence"),
        ("a: !mono {x: 1}", "1:4: !mono cannot tag a mapping"),
        ("a: !remap 5", "1:11: !remap needs a mapping"),
        ("a: !hash1 {xyz: 1}", "1:12: a hash array key is a hex hash"),
        ("a: b: c", "1:5: unexpected ':'"),
        (
            "a: - b",
            "1:4: a block sequence cannot start on the line of its key",
        ),
        ("a:\n  b: 1\n c: 2", "3:2: bad indentation"),
        (
            "a: 1\n b: 2",
            "2:2: a key in the lines of a multi-line plain scalar",
        ),
        (
            "- a\n- b\n c: d",
            "3:2: a key in the lines of a multi-line plain scalar",
        ),
        (
            "a:\n  b: 1\n    c: 2",
            "3:5: a key in the lines of a multi-line plain scalar",
        ),
        ("a:\n  b: [1]\n    c: 2", "3:5: bad indentation"),
        ("- [1]\n  - 2", "2:3: bad indentation"),
        ("a: 1\n- b", "2:1: expected a key"),
        ("a: 1\nfoo\n", "2:4: expected 'key: value'"),
        ("a:\n\tb: 1", "2:1: a tab cannot indent YAML"),
        ("? [a]\n: 1", "1:3: only scalars can be keys"),
        ("? a: b\n: 1", "1:4: only scalars can be keys"),
        ("a:\n  ? x\n: y", "3:1: expected 'key: value'"),
        ("[a]: 1", "1:4: flow collections cannot be keys"),
        ("a: *x", "1:4: unknown anchor *x"),
        (
            "a: 1\n---\nb: 2",
            "2:1: only one YAML document is supported",
        ),
        (
            "a: 1\n...\nb: 2",
            "3:1: only one YAML document is supported",
        ),
        (
            "%TAG ! tag:x\n---\na: 1",
            "1:1: %TAG directives are not supported",
        ),
        ("a: 'x' y", "1:8: unexpected text after the value"),
        ("a: ['x' y]", "1:9: expected ',' or ']'"),
        ("a: [1,, 2]", "1:7: empty entry"),
        ("a: {x: 'a' y}", "1:12: expected ',' or '}'"),
        ("é: ['x' y]", "1:9: expected ',' or ']'"),
        (
            "a: x\n  b: c",
            "2:3: a key in the lines of a multi-line plain scalar",
        ),
        ("a: !u !l 5", "1:7: a node cannot have two tags or anchors"),
        (
            "a: |x\n  y",
            "1:5: expected a line break after the block scalar indicator",
        ),
        ("a: &", "1:4: an anchor needs a name"),
        ("a: !<x", "1:4: unterminated verbatim tag"),
        (": 1", "1:1: expected a key before ':'"),
        ("a: ]", "1:4: unexpected ']'"),
    ];
    for (text, expected) in cases {
        let e = error(text);
        assert!(
            e.starts_with(expected),
            "{text:?}:\n  got      {e}\n  expected {expected}"
        );
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    // Run on a thread with a small stack: the depth limit, not the stack, must stop these.
    let t = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let flow = "[".repeat(100_000);
            assert!(error(&flow).contains("nested deeper than 512 levels"));
            let flow_maps = "{a: ".repeat(100_000);
            assert!(error(&flow_maps).contains("nested deeper than 512 levels"));
            let compact = "- ".repeat(100_000) + "x";
            assert!(error(&compact).contains("nested deeper than 512 levels"));
            let mut block = String::new();
            for i in 0..2000 {
                block += &" ".repeat(i);
                block += "a:\n";
            }
            assert!(error(&block).contains("nested deeper than 512 levels"));
            let mut seqs = String::new();
            for i in 0..2000 {
                seqs += &" ".repeat(2 * i);
                seqs += "-\n";
            }
            assert!(error(&seqs).contains("nested deeper than 512 levels"));

            // 512 levels are fine, both ways; 513 are not.
            let mut v = Byml::I32(1);
            for _ in 0..511 {
                v = Byml::Array(vec![v]);
            }
            let ok = Document::new(Byml::Array(vec![v.clone()]));
            check_yaml_roundtrip(&ok);
            // serde_json stops at 128 levels by default; what it writes is fine.
            assert!(serde_json::to_string(&ok).is_ok());
            let flow = format!("{}1{}", "[".repeat(512), "]".repeat(512));
            assert_eq!(Document::from_text(&flow).unwrap().root, ok.root);
            let mut m = Byml::I32(1);
            for _ in 0..512 {
                m = map(vec![("k", m)]);
            }
            check_yaml_roundtrip(&Document::new(m.clone()));
            let too_deep = Document::new(Byml::Array(vec![ok.root.clone()]));
            assert!(too_deep
                .to_text()
                .unwrap_err()
                .to_string()
                .contains("deeper than 512"));
            assert!(serde_json::to_string(&too_deep).is_err());
            let too_deep = Document::new(map(vec![("k", m)]));
            assert!(too_deep.to_text().is_err());
        })
        .unwrap();
    t.join().unwrap();
}

#[test]
fn garbage_never_panics() {
    let samples = [
        OEAD_SAMPLE,
        "a: [1, {b: 'c', d: \"e\\n\"}]\n- x\n? y\n: z\n",
        "k: |\n  x\n   y\n\n z\n>-\n a\n",
        "a: &x !u 5\nb: *x\nc: !!binary AAE=\n---\n...\n",
        "- - - [a, b]\n  - {c: d}\n    e: f\n",
    ];
    let mut r = Rng(1);
    let alphabet: &[u8] = b" \n\t-:?[]{},#&*!|>'\"%@`\\abc01.\r~";
    for _ in 0..20_000 {
        let base = samples[r.below(samples.len() as u64) as usize].as_bytes();
        let mut bytes = base.to_vec();
        for _ in 0..1 + r.below(4) {
            let i = r.below(bytes.len() as u64 + 1) as usize;
            match r.below(3) {
                0 if i < bytes.len() => {
                    bytes.remove(i);
                }
                1 => bytes.insert(i, alphabet[r.below(alphabet.len() as u64) as usize]),
                _ if i < bytes.len() => {
                    bytes[i] = alphabet[r.below(alphabet.len() as u64) as usize]
                }
                _ => {}
            }
        }
        if let Ok(text) = std::str::from_utf8(&bytes) {
            if let Ok(doc) = Document::from_text(text) {
                // What reads must write and read back the same.
                let out = doc.to_text().unwrap();
                let back =
                    Document::from_text(&out).unwrap_or_else(|e| panic!("{text:?}\n{out}\n{e}"));
                assert_eq!(back, doc, "{text:?}\n{out}");
            }
        }
    }
}

/// A document shaped like a game's actor list, of about `n` nodes.
fn actor_list(n: usize) -> Byml {
    let mut r = Rng(3);
    let names = [
        "Enemy_Bokoblin_A",
        "Obj_TreeApple_L_01",
        "Npc_Rito_Junior",
        "Item_Fruit_A",
    ];
    let mut actors = Vec::new();
    let mut nodes = 0;
    while nodes < n {
        let f = |r: &mut Rng| Byml::F32((r.below(8_000_000) as f32 - 4e6) / 997.0);
        let a = map(vec![
            ("UnitConfigName", s(names[r.below(4) as usize])),
            ("HashId", Byml::U32(r.next() as u32)),
            ("SRTHash", Byml::I32(r.next() as i32)),
            (
                "Translate",
                Byml::Array(vec![f(&mut r), f(&mut r), f(&mut r)]),
            ),
            (
                "Rotate",
                Byml::Array(vec![Byml::F32(0.0), f(&mut r), Byml::F32(0.0)]),
            ),
            ("IsHardModeActor", Byml::Bool(r.below(8) == 0)),
            (
                "!Parameters",
                map(vec![
                    ("DropActor", s("Item_Meat_01")),
                    ("EnemyRank", Byml::I32(r.below(5) as i32 - 1)),
                    ("CreateTime", Byml::U64(r.next())),
                    ("Probability", Byml::F64(r.below(1_000_000) as f64 / 1e6)),
                ]),
            ),
            (
                "LinksToObj",
                Byml::Array(vec![map(vec![
                    ("DestUnitHashId", Byml::U32(r.next() as u32)),
                    ("DefinitionName", s("BasicSig")),
                ])]),
            ),
        ]);
        nodes += a.count_nodes();
        actors.push(a);
    }
    map(vec![("Objs", Byml::Array(actors))])
}

/// CPU time of this thread (the machine may be busy).
fn cpu() -> std::time::Duration {
    let t = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    std::time::Duration::from_nanos(
        t.split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0),
    )
}

/// `cargo test --release -p binspec-formats --lib byml::text::tests::speed -- --ignored --nocapture`
#[test]
#[ignore]
fn speed() {
    let doc = Document::new(actor_list(100_000));
    let n = 20;
    let t = cpu();
    for _ in 0..n {
        std::hint::black_box(std::hint::black_box(&doc).to_text().unwrap());
    }
    let write = (cpu() - t) / n;
    let text = doc.to_text().unwrap();
    let (mut read, mut drop) = (std::time::Duration::ZERO, std::time::Duration::ZERO);
    for _ in 0..n {
        let t = cpu();
        let d = std::hint::black_box(Document::from_text(std::hint::black_box(&text)).unwrap());
        let t2 = cpu();
        std::mem::drop(d);
        read += t2 - t;
        drop += cpu() - t2;
    }
    let (read, drop) = (read / n, drop / n);
    let json = serde_json::to_string(&doc).unwrap();
    let t = cpu();
    let back: Document = serde_json::from_str(&json).unwrap();
    let json_read = cpu() - t;
    assert_eq!(back, doc);
    println!(
        "{} nodes, {} bytes of YAML (CPU time): to_text {:?}, from_text {:?} ({:.0} MB/s), drop {:?}; JSON from_str {:?}",
        doc.root.count_nodes(),
        text.len(),
        write,
        read,
        text.len() as f64 / read.as_secs_f64() / 1e6,
        drop,
        json_read
    );
}
