//! Table-driven tests for the type checker: the types of expressions over a small schema, type errors and their
//! spans, built-in type names, suggestions and how types print.

use super::types::{builtin_type, did_you_mean};
use super::*;

const U1: Ty = Ty::U1;
const U2: Ty = Ty::Int {
    signed: false,
    width: 2,
};
const U4: Ty = Ty::Int {
    signed: false,
    width: 4,
};
const S8: Ty = Ty::CALC_INT;
const U8: Ty = Ty::U8;

fn user(n: &str) -> Ty {
    Ty::User(n.to_owned())
}

fn arr(t: Ty) -> Ty {
    Ty::Array(Box::new(t))
}

fn enm(n: &str) -> Ty {
    Ty::Enum(n.to_owned())
}

/// A small schema: type `root` (the current type) with a `header` and a
/// list of `entry`s, plus enums `animal` (top level) and `header::kind`.
struct TestEnv;

fn root_fields() -> Vec<(&'static str, Ty)> {
    vec![
        ("len_body", U4),
        ("foo_count", U2),
        ("flags", U1),
        ("big", U8),
        ("header", user("header")),
        ("entries", arr(user("entry"))),
        ("offs", arr(U4)),
        ("data", Ty::Bytes),
        ("name", Ty::Str),
        ("ratio", Ty::Float),
        ("is_valid", Ty::Bool),
        ("kind", enm("animal")),
    ]
}

fn fields(user_type: &str) -> Vec<(&'static str, Ty)> {
    match user_type {
        "root" => root_fields(),
        "header" => vec![
            ("magic", Ty::Bytes),
            ("version", U2),
            ("foo_count", U2),
            ("body_len", U4),
            ("kind", enm("header::kind")),
        ],
        "entry" => vec![("name", Ty::Str), ("size", U4), ("kind", enm("animal"))],
        _ => Vec::new(),
    }
}

impl Env for TestEnv {
    fn name(&self, name: &str) -> Option<Ty> {
        root_fields()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t)
    }

    fn special(&self, name: &str) -> Option<Ty> {
        (name == "_root").then(|| user("root"))
    }

    fn field_of(&self, user_type: &str, field: &str) -> Option<Ty> {
        fields(user_type)
            .into_iter()
            .find(|(n, _)| *n == field)
            .map(|(_, t)| t)
    }

    fn enum_value(&self, path: &[String], value: &str) -> Option<String> {
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        match (path.as_slice(), value) {
            (["animal"] | ["", "animal"], "cat" | "dog") => Some("animal".into()),
            (["header", "kind"] | ["", "header", "kind"], "v1" | "v2") => {
                Some("header::kind".into())
            }
            _ => None,
        }
    }

    fn type_named(&self, path: &[String]) -> Option<Ty> {
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        match path.as_slice() {
            ["header"] | ["", "header"] => Some(user("header")),
            ["entry"] | ["", "entry"] => Some(user("entry")),
            _ => None,
        }
    }

    fn field_names(&self, user_type: &str) -> Vec<String> {
        fields(user_type)
            .into_iter()
            .map(|(n, _)| n.to_owned())
            .collect()
    }

    fn names(&self) -> Vec<String> {
        self.field_names("root")
    }
}

/// An environment that knows nothing.
struct EmptyEnv;

impl Env for EmptyEnv {
    fn name(&self, _: &str) -> Option<Ty> {
        None
    }
    fn special(&self, _: &str) -> Option<Ty> {
        None
    }
    fn field_of(&self, _: &str, _: &str) -> Option<Ty> {
        None
    }
    fn enum_value(&self, _: &[String], _: &str) -> Option<String> {
        None
    }
    fn type_named(&self, _: &[String]) -> Option<Ty> {
        None
    }
}

fn check(src: &str) -> Result<Ty, TypeError> {
    let e = parse(src).unwrap_or_else(|err| panic!("{src:?} does not parse: {err}"));
    type_of(&e, &TestEnv)
}

#[test]
fn types_of_expressions() {
    let cases: Vec<(&str, Ty)> = vec![
        // literals
        ("42", S8),
        ("0x7FFF_FFFF_FFFF_FFFF", S8),
        ("0xFFFF_FFFF_FFFF_FFFF", U8),
        ("1.5", Ty::Float),
        ("'a'", Ty::Str),
        ("true", Ty::Bool),
        ("[1, 2]", Ty::Bytes),
        ("[0x50, 0x4b, 255]", Ty::Bytes),
        ("[]", arr(Ty::Any)),
        ("[256, 1]", arr(S8)),
        ("[-1, 1]", arr(S8)),
        ("[1.5, 2]", arr(Ty::Float)),
        ("['a', 'b']", arr(Ty::Str)),
        ("[header, entries[0]]", arr(Ty::Any)),
        // names
        ("len_body", U4),
        ("_io", Ty::Io),
        ("_root", user("root")),
        ("_parent", Ty::Any),
        ("_parent.foo.bar", Ty::Any),
        ("_root.header.magic", Ty::Bytes),
        // integer arithmetic
        ("len_body + 1", S8),
        ("len_body * foo_count", S8),
        ("big + 1", U8),
        ("1 + big", U8),
        ("big + big", U8),
        ("big + len_body", S8),
        ("big - -1", S8),
        ("big & 0xFF", U8),
        ("flags & 0x80", S8),
        ("big << 2", U8),
        ("1 << big", S8),
        ("big >> flags", U8),
        ("~big", U8),
        ("~flags", S8),
        ("-big", S8),
        ("-len_body", S8),
        // floats, strings
        ("ratio * 2", Ty::Float),
        ("2 / ratio", Ty::Float),
        ("ratio % 2", Ty::Float),
        ("-ratio", Ty::Float),
        ("name + 'x'", Ty::Str),
        ("'a' + 'b' + name", Ty::Str),
        // comparisons and logic
        ("flags & 0x80 != 0", Ty::Bool),
        ("len_body > 3 and not is_valid", Ty::Bool),
        ("len_body == 1.5", Ty::Bool),
        ("name < 'b'", Ty::Bool),
        ("data == [0x50, 0x4b]", Ty::Bool),
        ("data == []", Ty::Bool),
        ("data >= header.magic", Ty::Bool),
        ("kind == animal::cat", Ty::Bool),
        ("kind != entries[0].kind", Ty::Bool),
        ("is_valid == false or _parent.x", Ty::Bool),
        ("offs == [1, 2]", Ty::Bool),
        // members
        ("name.length", S8),
        ("name.reverse", Ty::Str),
        ("name.substring(0, 2)", Ty::Str),
        ("name.to_i", S8),
        ("name.to_i(16)", S8),
        ("data.length", S8),
        ("data.size", S8),
        ("data.first", U1),
        ("data.max", U1),
        ("data[0]", U1),
        ("data.to_s('ASCII')", Ty::Str),
        ("data.to_s(\"UTF-8\").length", S8),
        ("entries", arr(user("entry"))),
        ("entries.size", S8),
        ("entries.first", user("entry")),
        ("entries[1].name", Ty::Str),
        ("entries.last.kind", enm("animal")),
        ("offs.max", U4),
        ("offs.min + 1", S8),
        ("ratio.to_i", S8),
        ("is_valid.to_i", S8),
        ("kind.to_i", S8),
        ("len_body.to_s", Ty::Str),
        ("_io.size", S8),
        ("_io.pos", S8),
        ("_io.eof", Ty::Bool),
        ("header._io.pos", S8),
        ("header.version", U2),
        ("header._sizeof", S8),
        ("header._parent", Ty::Any),
        ("header._root.len_body", U4),
        ("header.kind", enm("header::kind")),
        // enums
        ("animal::dog", enm("animal")),
        ("header::kind::v1", enm("header::kind")),
        ("::header::kind::v2", enm("header::kind")),
        // ternary
        ("is_valid ? 1 : 2", S8),
        ("is_valid ? flags : foo_count", U2),
        ("is_valid ? flags : 1", S8),
        ("is_valid ? 1 : 2.5", Ty::Float),
        ("is_valid ? header : entries[0]", Ty::Any),
        ("is_valid ? header : header", user("header")),
        ("is_valid ? data : []", Ty::Bytes),
        ("is_valid ? offs : []", arr(Ty::Any)),
        ("is_valid ? animal::cat : kind", enm("animal")),
        ("_parent.x ? 1 : 2", S8),
        // casts and sizes
        ("len_body.as<u2>", U2),
        (
            "len_body.as<s4le>",
            Ty::Int {
                signed: true,
                width: 4,
            },
        ),
        ("header.as<entry>", user("entry")),
        ("_parent.as<header>.version", U2),
        ("_parent.as<::header>", user("header")),
        ("data.as<bytes>", Ty::Bytes),
        ("name.as<str>", Ty::Str),
        ("len_body.as<f8>", Ty::Float),
        ("flags.as<b1>", Ty::Bool),
        ("len_body.as<b12>", U2),
        ("data.as<u1[]>", arr(U1)),
        ("sizeof<u4>", S8),
        ("bitsizeof<b3>", S8),
        ("sizeof<header>", S8),
    ];
    for (src, want) in &cases {
        match check(src) {
            Ok(t) => assert_eq!(&t, want, "type of {src:?}"),
            Err(e) => panic!("{src:?}: unexpected type error: {e}"),
        }
    }
}

#[test]
fn type_errors() {
    let cases: &[(&str, &str)] = &[
        (
            "name + 1",
            "cannot add str and s8; convert the number with '.to_s' first",
        ),
        (
            "data + data",
            "cannot add bytes and bytes; byte arrays cannot be concatenated",
        ),
        (
            "header.foo",
            "no field 'foo' in type 'header'; did you mean 'foo_count'?",
        ),
        ("header.zzz", "no field 'zzz' in type 'header'"),
        (
            "lenbody",
            "unknown name 'lenbody'; did you mean 'len_body'?",
        ),
        (
            "name.lenght",
            "str has no member 'lenght'; did you mean 'length'?",
        ),
        ("_io.tell", "io stream has no member 'tell'"),
        (
            "len_body.to_str",
            "u4 has no member 'to_str'; did you mean 'to_s'?",
        ),
        (
            "name.substring",
            "'substring' is a method of str; call it with arguments",
        ),
        ("data.to_s", "'to_s' is a method of bytes"),
        (
            "name.length()",
            "'length' is a property of str, not a method",
        ),
        (
            "name.substring(1)",
            "'substring' takes 2 arguments (start, end), got 1",
        ),
        (
            "name.substring('a', 1)",
            "the start passed to 'substring' must be an integer, found str",
        ),
        ("name.to_i(1, 2)", "'to_i' takes 1 argument (radix), got 2"),
        ("data.to_s(name)", "must be a string literal"),
        (
            "header.version()",
            "'version' is a field of 'header', not a method",
        ),
        ("header.frob(1)", "user type 'header' has no methods"),
        (
            "kind == 1",
            "use '.to_i' to compare an enum's integer value",
        ),
        ("kind < animal::cat", "enums only support '==' and '!='"),
        (
            "kind == header.kind",
            "cannot compare enum animal and enum header::kind",
        ),
        ("header == header", "cannot compare header and header"),
        ("is_valid < true", "cannot compare bool and bool with '<'"),
        ("name == 1", "cannot compare str and s8 with '=='"),
        (
            "len_body and is_valid",
            "'and' needs bool operands, found u4",
        ),
        ("is_valid or 1", "'or' needs bool operands, found s8"),
        ("not len_body", "'not' needs a bool, found u4"),
        ("~is_valid", "use 'not' for booleans"),
        ("-name", "cannot negate str"),
        (
            "len_body ? 1 : 2",
            "the condition of '? :' must be a bool, found u4",
        ),
        ("is_valid ? 1 : 'a'", "incompatible types s8 and str"),
        (
            "is_valid ? kind : header.kind",
            "incompatible types enum animal and enum header::kind",
        ),
        ("[1, 'a']", "array literal mixes s8 and str"),
        ("name[0]", "strings cannot be indexed"),
        ("len_body[0]", "cannot index into u4"),
        ("entries['a']", "an index must be an integer, found str"),
        ("animal::cta", "unknown enum value 'animal::cta'"),
        ("::nope::v", "unknown enum value '::nope::v'"),
        ("x.as<nope>", "unknown name 'x'"),
        ("len_body.as<nope>", "unknown type 'nope'"),
        ("len_body.as<u3>", "unknown type 'u3'"),
        (
            "sizeof<str>",
            "sizeof<str> is undefined: str has no fixed size",
        ),
        ("bitsizeof<u1[]>", "has no fixed size"),
        (
            "_index",
            "'_index' is only available in attributes with 'repeat'",
        ),
        ("_", "only available in 'repeat-until'"),
        ("ratio & 1", "bitwise operators need integers"),
        ("ratio << 1", "cannot apply '<<' to float and s8"),
        ("is_valid & is_valid", "use 'and' / 'or' for booleans"),
        ("name * 2", "cannot apply '*' to str and s8"),
        ("entries.length", "has no member 'length'"),
        ("1 + (name + 2)", "cannot add str and s8"),
    ];
    assert!(cases.len() >= 15);
    for (src, want) in cases {
        match check(src) {
            Ok(t) => panic!("{src:?} typed as {t}, expected an error containing {want:?}"),
            Err(e) => assert!(
                e.message.contains(want),
                "{src:?}: error {:?} does not contain {want:?}",
                e.message
            ),
        }
    }
}

#[test]
fn type_error_spans() {
    let cases: &[(&str, &str)] = &[
        ("header.foo", "foo"),
        ("1 + (name + 2)", "(name + 2)"),
        ("lenbody + 1", "lenbody"),
        ("entries['a']", "'a'"),
        ("len_body.as<nope>", "nope"),
        ("len_body and is_valid", "len_body"),
        ("[1, 2, 'x']", "'x'"),
        ("name.substring(x2, 1)", "x2"),
    ];
    for (src, want) in cases {
        let err = check(src).expect_err(src);
        assert_eq!(
            &src[err.span.start..err.span.end],
            *want,
            "{src:?}: {}",
            err.message
        );
    }
}

#[test]
fn empty_env_degrades_gracefully() {
    let e = parse("_parent.foo + 1").unwrap();
    assert_eq!(type_of(&e, &EmptyEnv), Ok(Ty::Any));
    let e = parse("_io.eof").unwrap();
    assert_eq!(type_of(&e, &EmptyEnv), Ok(Ty::Bool));
    let e = parse("foo").unwrap();
    let err = type_of(&e, &EmptyEnv).unwrap_err();
    assert_eq!(err.message, "unknown name 'foo'");
}

#[test]
fn type_checker_bounds_hand_built_trees() {
    let mut e = Expr::new(ExprKind::Int(1), Span::default());
    for _ in 0..MAX_DEPTH + 5 {
        e = Expr::new(
            ExprKind::Unary {
                op: UnOp::Neg,
                expr: Box::new(e),
            },
            Span::default(),
        );
    }
    let err = type_of(&e, &TestEnv).unwrap_err();
    assert!(err.message.contains("nested too deeply"), "{}", err.message);
}

#[test]
fn builtin_type_names() {
    let cases: &[(&str, Option<Ty>)] = &[
        ("u1", Some(U1)),
        ("u2le", Some(U2)),
        ("u4be", Some(U4)),
        ("s8", Some(S8)),
        (
            "s2be",
            Some(Ty::Int {
                signed: true,
                width: 2,
            }),
        ),
        ("f4", Some(Ty::Float)),
        ("f8le", Some(Ty::Float)),
        ("b1", Some(Ty::Bool)),
        ("b3", Some(U1)),
        ("b12", Some(U2)),
        ("b24", Some(U4)),
        ("b64", Some(U8)),
        ("str", Some(Ty::Str)),
        ("strz", Some(Ty::Str)),
        ("bytes", Some(Ty::Bytes)),
        ("u3", None),
        ("u01", None),
        ("b0", None),
        ("b65", None),
        ("strle", None),
        ("le", None),
        ("", None),
        ("é1", None),
        ("header", None),
    ];
    for (name, want) in cases {
        assert_eq!(&builtin_type(name), want, "builtin_type({name:?})");
    }
}

#[test]
fn suggestions() {
    assert_eq!(
        did_you_mean("lenght", ["length", "reverse"]).as_deref(),
        Some("length")
    );
    assert_eq!(
        did_you_mean("foo", ["bar", "foo_count"]).as_deref(),
        Some("foo_count")
    );
    assert_eq!(did_you_mean("LEN", ["len", "size"]).as_deref(), Some("len"));
    assert_eq!(did_you_mean("xyz", ["length", "reverse"]), None);
    assert_eq!(did_you_mean("a", Vec::<&str>::new()), None);
}

#[test]
fn type_display() {
    let cases: &[(Ty, &str)] = &[
        (S8, "s8"),
        (U1, "u1"),
        (
            Ty::Int {
                signed: true,
                width: 0,
            },
            "int",
        ),
        (
            Ty::Int {
                signed: false,
                width: 0,
            },
            "uint",
        ),
        (arr(arr(Ty::Str)), "str[][]"),
        (user("a::b"), "a::b"),
        (enm("animal"), "enum animal"),
        (Ty::Io, "io stream"),
        (Ty::Any, "any"),
    ];
    for (ty, want) in cases {
        assert_eq!(ty.to_string(), *want);
    }
}

/// binspec's additions (`type_of_ext`, for the `-` keys): their types, their errors, and that Kaitai's own keys
/// (`type_of`) do not accept them.
#[test]
fn binspec_extensions() {
    use super::types::type_of_ext;
    let ok = [
        ("name.murmur3(0)", S8),
        ("data.crc32()", S8),
        ("name.sarc_hash(0x65)", S8),
        ("header._pos", S8),
        ("header._present", Ty::Bool),
        ("entries.bitmask(_.size > 0)", Ty::Bytes),
        ("header._present ? header._pos - 4 : 0", S8),
        ("_dic.ref_bit", Ty::Any),
        ("name.path_stem()", Ty::Str),
        ("entries.count(_.size > 0)", S8),
        ("name.path_extension().murmur3(0)", S8),
    ];
    for (src, want) in ok {
        let e = parse(src).unwrap();
        assert_eq!(type_of_ext(&e, &TestEnv), Ok(want), "{src}");
        assert!(
            type_of(&e, &TestEnv).is_err(),
            "{src}: Kaitai's keys accept it"
        );
    }
    let bad = [
        ("name.murmur3()", "'murmur3' takes 1 argument(s), got 0"),
        (
            "name.murmur3(\"x\")",
            "the argument of 'murmur3' must be an integer, found str",
        ),
        ("flags.crc32()", "'crc32' hashes a string or bytes, not u1"),
        (
            "entries.bitmask(_.size)",
            "the condition passed to 'bitmask' must be a boolean, found u4",
        ),
        (
            "name.bitmask(true)",
            "'bitmask' is a method of arrays, not of str",
        ),
        ("entries.bitmask(_.nope)", "no field 'nope' in type 'entry'"),
        ("name.path_stem(1)", "'path_stem' takes no argument, got 1"),
        (
            "entries.count(_.size)",
            "the condition passed to 'count' must be a boolean, found u4",
        ),
        (
            "name.count(true)",
            "'count' is a method of arrays, not of str",
        ),
        (
            "flags.path_extension()",
            "'path_extension' is a method of strings (a path), not of u1",
        ),
    ];
    for (src, want) in bad {
        let e = parse(src).unwrap();
        let got = type_of_ext(&e, &TestEnv).unwrap_err().message;
        assert!(got.starts_with(want), "{src}: {got}");
    }
}

/// `types_of` records the type of every node it checks, and `annotate` stores each in its node: the operands of
/// an operator keep their own types (the translator reads them there instead of typing the node again).
#[test]
fn every_node_keeps_its_type() {
    use super::types::{annotate, types_of, Recorded};
    let cases: Vec<(&str, Vec<(&str, Ty)>)> = vec![
        (
            "len_body + 1.5 > 2 ? 'a' : 'b'",
            vec![
                ("len_body + 1.5 > 2 ? 'a' : 'b'", Ty::Str),
                ("len_body + 1.5 > 2", Ty::Bool),
                ("len_body + 1.5", Ty::Float),
                ("len_body", U4),
                ("1.5", Ty::Float),
                ("2", S8),
                ("'a'", Ty::Str),
                ("'b'", Ty::Str),
            ],
        ),
        (
            "entries[flags].size * 2",
            vec![
                ("entries[flags].size * 2", S8),
                ("entries[flags].size", U4),
                ("entries[flags]", user("entry")),
                ("entries", arr(user("entry"))),
                ("flags", U1),
                ("2", S8),
            ],
        ),
        (
            "entries.count(_.size > 0)",
            vec![
                ("entries.count(_.size > 0)", S8),
                ("entries", arr(user("entry"))),
                ("_.size > 0", Ty::Bool),
                ("_.size", U4),
                ("_", user("entry")),
                ("0", S8),
            ],
        ),
    ];
    for (src, want) in cases {
        let mut e = parse(src).unwrap();
        let rec = Recorded::default();
        let t = types_of(&e, &TestEnv, true, &rec).unwrap();
        let found = rec.into_inner().into_iter().collect();
        annotate(&mut e, &found);
        assert_eq!(e.ty.as_deref(), Some(&t), "{src}");
        let mut got = Vec::new();
        let mut stack = vec![&e];
        while let Some(n) = stack.pop() {
            got.push((
                src[n.span.start..n.span.end].to_string(),
                n.ty.as_deref().cloned(),
            ));
            let mut kids = crate::ir::children(n);
            kids.reverse();
            stack.extend(kids);
        }
        let want: Vec<(String, Option<Ty>)> = want
            .into_iter()
            .map(|(s, t)| (s.to_string(), Some(t)))
            .collect();
        assert_eq!(got, want, "{src}");
    }
}
