//! Table-driven tests for the lexer, parser and printer, and the nesting limits; the type checker's own tests are
//! in `type_tests`.

use super::*;

// ----- printing ----------------------------------------------------------

/// (input, canonical form). Every row is also checked to re-parse to an
/// equal tree and to print idempotently.
const CANONICAL: &[(&str, &str)] = &[
    // integer literals
    ("42", "42"),
    ("0", "0"),
    ("0x1F", "31"),
    ("0XfF", "255"),
    ("0o17", "15"),
    ("0b1010", "10"),
    ("0B1111_0000", "240"),
    ("1_000_000", "1000000"),
    ("0xFFFF_FFFF_FFFF_FFFF", "18446744073709551615"),
    ("18446744073709551615", "18446744073709551615"),
    // float literals
    ("1.5", "1.5"),
    ("1e3", "1000.0"),
    ("1.5e-3", "0.0015"),
    ("2.5E+2", "250.0"),
    ("1. + 2", "1.0 + 2"),
    // strings
    ("'abc'", r#""abc""#),
    (r"'a\nb'", r#""a\\nb""#),
    (r#""tab\there""#, r#""tab\there""#),
    (r#""\x41\u00e9\101\0""#, r#""AéA\u0000""#),
    (r#""q\"uote\\""#, r#""q\"uote\\""#),
    (r#""\a\e\'""#, r#""\u0007\u001b'""#),
    (r#""\b\f\v\r""#, r#""\u0008\u000c\u000b\r""#),
    (r#""line\nbreak""#, r#""line\nbreak""#),
    ("'café ☃'", "\"café ☃\""),
    (r#"'ab' "cd""#, r#""abcd""#),
    ("'it''s'", r#""its""#),
    // f-strings: literal parts, and each `{expression}` as its text
    (r#"f"""#, r#""""#),
    (r#"f"abc""#, r#""abc""#),
    (r#"f"a\tb""#, r#""a\tb""#),
    (r#"f"abc={123}""#, r#""abc=" + 123.to_s"#),
    (r#"f"{x}-{y + 1}!""#, r#"x.to_s + "-" + (y + 1).to_s + "!""#),
    (r#"f"v={'s'}""#, r#""v=" + "s".to_s"#),
    // booleans and arrays
    ("true", "true"),
    ("false", "false"),
    ("[0x49, 0x49]", "[73, 73]"),
    ("[]", "[]"),
    ("[ ]", "[]"),
    ("[1, 2, 3,]", "[1, 2, 3]"),
    ("[1, 'a', [2]]", r#"[1, "a", [2]]"#),
    ("[a or b, c ? d : e]", "[a or b, c ? d : e]"),
    // names, including the special ones
    ("foo", "foo"),
    ("_root", "_root"),
    ("_parent._io", "_parent._io"),
    ("_index", "_index"),
    ("_", "_"),
    ("_on", "_on"),
    ("_sizeof", "_sizeof"),
    ("_buf", "_buf"),
    ("order", "order"),
    ("notice", "notice"),
    // enum values
    ("animal::cat", "animal::cat"),
    ("header::kind::v1", "header::kind::v1"),
    ("::header::kind::v1", "::header::kind::v1"),
    ("animal :: cat", "animal::cat"),
    // postfix
    ("a.b.c", "a.b.c"),
    ("name.substring(1, 3)", "name.substring(1, 3)"),
    ("data.to_s('ASCII')", r#"data.to_s("ASCII")"#),
    ("x.foo()", "x.foo()"),
    ("x.foo(a ? b : c, [1])", "x.foo(a ? b : c, [1])"),
    ("entries[0].size", "entries[0].size"),
    ("a[i + 1]", "a[i + 1]"),
    ("a[b][c]", "a[b][c]"),
    ("a.b(1).c[2].as<u1>", "a.b(1).c[2].as<u1>"),
    ("a.as", "a.as"),
    ("1.to_s", "1.to_s"),
    ("(1.5).to_i", "1.5.to_i"),
    ("_io.eof", "_io.eof"),
    // casts and sizeof
    ("x.as<u4>", "x.as<u4>"),
    ("x.as< header :: entry >", "x.as<header::entry>"),
    ("x.as<bytes>", "x.as<bytes>"),
    ("x.as<str>", "x.as<str>"),
    ("x.as<u1[]>", "x.as<u1[]>"),
    ("x.as<::header>", "x.as<::header>"),
    ("x.as<u4>>2", "x.as<u4> > 2"),
    ("sizeof<u4>", "sizeof<u4>"),
    ("bitsizeof<b3>", "bitsizeof<b3>"),
    ("bsizeof<b3>", "bitsizeof<b3>"),
    ("sizeof<header::entry>", "sizeof<header::entry>"),
    ("sizeof < 3", "sizeof < 3"),
    // unary
    ("-x", "-x"),
    ("- 5", "-5"),
    ("--x", "--x"),
    ("-(-5)", "--5"),
    ("~flags", "~flags"),
    ("~-x", "~-x"),
    ("not is_valid", "not is_valid"),
    ("not not a", "not not a"),
    ("+x", "x"),
    ("-(a + b)", "-(a + b)"),
    ("(-a).to_s", "(-a).to_s"),
    ("-a.to_s", "-a.to_s"),
    ("(a + b).to_s", "(a + b).to_s"),
    ("a - -b", "a - -b"),
    ("-a * b", "-a * b"),
    // arithmetic precedence and associativity
    ("a + b * c", "a + b * c"),
    ("(a + b) * c", "(a + b) * c"),
    ("a - (b - c)", "a - (b - c)"),
    ("(a - b) - c", "a - b - c"),
    ("a * b % c / d", "a * b % c / d"),
    ("a / (b * c)", "a / (b * c)"),
    // shifts and bitwise (tighter than comparisons, as in Kaitai)
    ("a << 2 + 1", "a << 2 + 1"),
    ("(a << 2) + 1", "(a << 2) + 1"),
    ("a >> b >> c", "a >> b >> c"),
    ("a & b ^ c | d", "a & b ^ c | d"),
    ("a | (b ^ c)", "a | b ^ c"),
    ("(a | b) & c", "(a | b) & c"),
    ("(a ^ b) & c", "(a ^ b) & c"),
    ("a & b << 1", "a & b << 1"),
    ("flags & 0x80 != 0", "flags & 128 != 0"),
    ("(flags & 0x80) != 0", "flags & 128 != 0"),
    // comparisons and logic
    ("a == b and c != d", "a == b and c != d"),
    ("a < b or c >= d and e <= f", "a < b or c >= d and e <= f"),
    ("(a or b) and c", "(a or b) and c"),
    ("a or b or c", "a or b or c"),
    ("a or (b or c)", "a or (b or c)"),
    ("not a == b", "not a == b"),
    ("(not a) == b", "(not a) == b"),
    ("not (a and b)", "not (a and b)"),
    ("a and not b", "a and not b"),
    ("not a and b", "not a and b"),
    ("(a == b) == c", "(a == b) == c"),
    ("a == (b == c)", "a == (b == c)"),
    ("a > b", "a > b"),
    // ternary
    ("c ? a : b", "c ? a : b"),
    ("a ? b : c ? d : e", "a ? b : c ? d : e"),
    ("(a ? b : c) ? d : e", "(a ? b : c) ? d : e"),
    ("a ? (b ? c : d) : e", "a ? b ? c : d : e"),
    ("x > 0 ? x : -x", "x > 0 ? x : -x"),
    ("(a ? 1 : 2) + 3", "(a ? 1 : 2) + 3"),
    ("a or b ? c : d", "a or b ? c : d"),
    (
        "a % 2 == 0 ? 'even' : 'odd'",
        r#"a % 2 == 0 ? "even" : "odd""#,
    ),
    (
        "c ? animal::cat : animal::dog",
        "c ? animal::cat : animal::dog",
    ),
    // whitespace
    ("  a   +\n b ", "a + b"),
    ("a\\\n+ b", "a + b"),
    ("(((a)))", "a"),
    ("\ta\r\n==\tb", "a == b"),
];

#[test]
fn canonical_forms() {
    assert!(CANONICAL.len() >= 60);
    for &(input, expected) in CANONICAL {
        let e = parse(input).unwrap_or_else(|err| panic!("{input:?} failed: {err}"));
        let printed = e.to_string();
        assert_eq!(printed, expected, "canonical form of {input:?}");
        let again = parse(&printed).unwrap_or_else(|err| panic!("{printed:?} failed: {err}"));
        assert!(
            e.eq_ignoring_spans(&again),
            "{input:?} printed as {printed:?}, which re-parses differently:\n{e:#?}\n{again:#?}"
        );
        assert_eq!(again.to_string(), printed, "printing is not idempotent");
    }
}

// ----- tree shape and spans ----------------------------------------------

fn bin(e: &Expr) -> (BinOp, &Expr, &Expr) {
    match &e.kind {
        ExprKind::Binary { op, lhs, rhs } => (*op, lhs, rhs),
        other => panic!("expected a binary node, got {other:?}"),
    }
}

#[test]
fn precedence_shapes() {
    // Multiplication binds tighter than addition.
    let e = parse("a + b * c").unwrap();
    let (op, lhs, rhs) = bin(&e);
    assert_eq!(op, BinOp::Add);
    assert_eq!(lhs.kind, ExprKind::Name("a".into()));
    assert_eq!(bin(rhs).0, BinOp::Mul);

    // Kaitai: `&` binds tighter than `!=`.
    let e = parse("flags & 0x80 != 0").unwrap();
    let (op, lhs, _) = bin(&e);
    assert_eq!(op, BinOp::Ne);
    assert_eq!(bin(lhs).0, BinOp::BitAnd);

    // Left associativity.
    let e = parse("a - b - c").unwrap();
    let (op, lhs, rhs) = bin(&e);
    assert_eq!(op, BinOp::Sub);
    assert_eq!(bin(lhs).0, BinOp::Sub);
    assert_eq!(rhs.kind, ExprKind::Name("c".into()));

    // `not` covers a whole comparison.
    let e = parse("not a == b").unwrap();
    match &e.kind {
        ExprKind::Unary {
            op: UnOp::Not,
            expr,
        } => assert_eq!(bin(expr).0, BinOp::Eq),
        other => panic!("{other:?}"),
    }

    // Unary minus binds tighter than `*` but looser than `.`.
    let e = parse("-a.b * c").unwrap();
    let (op, lhs, _) = bin(&e);
    assert_eq!(op, BinOp::Mul);
    match &lhs.kind {
        ExprKind::Unary {
            op: UnOp::Neg,
            expr,
        } => {
            assert!(matches!(expr.kind, ExprKind::Attr { .. }))
        }
        other => panic!("{other:?}"),
    }

    // Ternary is right-associative.
    let e = parse("a ? b : c ? d : e").unwrap();
    match &e.kind {
        ExprKind::Ternary { else_, .. } => {
            assert!(matches!(else_.kind, ExprKind::Ternary { .. }))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn node_contents() {
    let e = parse("::t::animal::cat").unwrap();
    assert_eq!(
        e.kind,
        ExprKind::EnumValue {
            absolute: true,
            path: vec!["t".into(), "animal".into()],
            value: "cat".into()
        }
    );
    let e = parse("x.as<a::b[]>").unwrap();
    match &e.kind {
        ExprKind::Cast { ty, .. } => {
            assert_eq!(ty.path, vec!["a".to_owned(), "b".to_owned()]);
            assert!(ty.array);
            assert!(!ty.absolute);
            assert_eq!(ty.span, Span::new(5, 11));
        }
        other => panic!("{other:?}"),
    }
    let e = parse("bitsizeof<b12>").unwrap();
    assert!(matches!(e.kind, ExprKind::SizeOf { bits: true, .. }));
    let e = parse("s.substring(1, n - 1)").unwrap();
    match &e.kind {
        ExprKind::Call { method, args, .. } => {
            assert_eq!(method, "substring");
            assert_eq!(args.len(), 2);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(parse("1.5e-3").unwrap().kind, ExprKind::Float(1.5e-3));
    assert_eq!(
        parse(r#""\x41\u00e9\101\0""#).unwrap().kind,
        ExprKind::Str("AéA\0".into())
    );
    assert_eq!(
        parse("0xFFFF_FFFF_FFFF_FFFF").unwrap().kind,
        ExprKind::Int(u64::MAX)
    );
}

#[test]
fn spans() {
    let src = "a + b * c";
    let e = parse(src).unwrap();
    assert_eq!(e.span, Span::new(0, 9));
    let (_, _, rhs) = bin(&e);
    assert_eq!(rhs.span, Span::new(4, 9));
    assert_eq!(&src[rhs.span.start..rhs.span.end], "b * c");

    // Parentheses are part of the span.
    let src = "(a + b) * c";
    let e = parse(src).unwrap();
    let (_, lhs, _) = bin(&e);
    assert_eq!(&src[lhs.span.start..lhs.span.end], "(a + b)");
    assert_eq!(e.span, Span::new(0, 11));

    // Attribute and method name spans.
    let src = "hdr.len_body.to_s";
    let e = parse(src).unwrap();
    match &e.kind {
        ExprKind::Attr {
            base, name_span, ..
        } => {
            assert_eq!(&src[name_span.start..name_span.end], "to_s");
            assert_eq!(base.span, Span::new(0, 12));
        }
        other => panic!("{other:?}"),
    }
    let src = "s.substring(0, 2)";
    match parse(src).unwrap().kind {
        ExprKind::Call { method_span, .. } => assert_eq!(method_span, Span::new(2, 11)),
        other => panic!("{other:?}"),
    }

    // Byte offsets, not character offsets.
    let src = "'é' + x";
    let e = parse(src).unwrap();
    let (_, lhs, rhs) = bin(&e);
    assert_eq!(lhs.span, Span::new(0, 4));
    assert_eq!(rhs.span, Span::new(7, 8));

    // Unary, ternary, cast, sizeof and split `>>`.
    assert_eq!(parse(" -x ").unwrap().span, Span::new(1, 3));
    assert_eq!(parse("c ? 1 : 2").unwrap().span, Span::new(0, 9));
    assert_eq!(parse("x.as<u4>").unwrap().span, Span::new(0, 8));
    assert_eq!(parse("sizeof<u4>").unwrap().span, Span::new(0, 10));
    let e = parse("x.as<u4>>2").unwrap();
    let (op, lhs, _) = bin(&e);
    assert_eq!(op, BinOp::Gt);
    assert_eq!(lhs.span, Span::new(0, 8));
}

#[test]
fn eq_ignoring_spans_ignores_only_spans() {
    let a = parse("a+b*c").unwrap();
    let b = parse("  a +  b *  c").unwrap();
    assert_ne!(a, b, "spans differ, so derived equality must differ");
    assert!(a.eq_ignoring_spans(&b));
    assert!(!a.eq_ignoring_spans(&parse("a + b * d").unwrap()));
    assert!(!a.eq_ignoring_spans(&parse("(a + b) * c").unwrap()));
    assert!(!parse("x.as<u4>")
        .unwrap()
        .eq_ignoring_spans(&parse("x.as<u4[]>").unwrap()));
    assert!(!parse("sizeof<u4>")
        .unwrap()
        .eq_ignoring_spans(&parse("bitsizeof<u4>").unwrap()));
}

/// An environment where every name is a bool, so deep trees type-check.
struct BoolEnv;

impl Env for BoolEnv {
    fn name(&self, _: &str) -> Option<Ty> {
        Some(Ty::Bool)
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

#[test]
fn nesting_within_limits_is_accepted() {
    // Runs on the default 2 MiB test thread, in debug builds too: parsing,
    // printing, comparing, type checking and dropping the deepest accepted
    // trees must all fit.
    let n = MAX_DEPTH - 2;
    let cases: Vec<(String, Ty)> = vec![
        (format!("{}1{}", "(".repeat(n), ")".repeat(n)), Ty::CALC_INT),
        (format!("{}1{}", "[".repeat(n), "]".repeat(n)), {
            let mut t = Ty::Bytes;
            for _ in 1..n {
                t = Ty::Array(Box::new(t));
            }
            t
        }),
        (format!("1{}", " + 1".repeat(n)), Ty::CALC_INT),
        (format!("{}x", "-".repeat(n)), Ty::Any),
        (format!("{}x", "not ".repeat(n)), Ty::Bool),
        (format!("{}0", "c ? 1 : ".repeat(n)), Ty::CALC_INT),
        (format!("x{}", ".b".repeat(n)), Ty::Any),
        // Two levels per repetition: the parenthesis and the branch.
        (
            format!("{}x{}", "(x ? ".repeat(n / 2), " : 1)".repeat(n / 2)),
            Ty::Any,
        ),
    ];
    for (src, want) in cases {
        let e = parse(&src).unwrap_or_else(|err| panic!("{}...: {err}", &src[..20]));
        let printed = e.to_string();
        let again = parse(&printed).expect("canonical form re-parses");
        assert!(e.eq_ignoring_spans(&again), "{}...", &src[..20]);
        // `-x` with x: bool and `x ? x : 1` are type errors; only the
        // well-typed shapes are compared.
        match type_of(&e, &BoolEnv) {
            Ok(t) => assert_eq!(t, want, "{}...", &src[..20]),
            Err(err) => assert_eq!(want, Ty::Any, "{}...: {err}", &src[..20]),
        }
    }
}

// ----- parse errors ------------------------------------------------------

fn deep(prefix: &str, core: &str, suffix: &str, n: usize) -> String {
    format!("{}{core}{}", prefix.repeat(n), suffix.repeat(n))
}

#[test]
fn parse_errors() {
    let too_deep = "nested too deeply";
    let cases: Vec<(String, &str)> = vec![
        ("".into(), "the expression is empty"),
        ("   ".into(), "the expression is empty"),
        (
            "a && b".into(),
            "'&&' is not an operator here; Kaitai uses 'and'",
        ),
        ("a || b".into(), "Kaitai uses 'or'"),
        ("!a".into(), "Kaitai uses 'not'"),
        ("a <> b".into(), "use '!=' for inequality"),
        ("a = b".into(), "use '==' to compare"),
        ("a === b".into(), "'===' is not an operator"),
        ("a ** 2".into(), "no power operator"),
        ("a // 2".into(), "'//' is not an operator"),
        (
            "(a + b".into(),
            "expected ')' to close '(' at 0, found end of input",
        ),
        ("f((a)".into(), "only methods can be called"),
        (
            "x.y((a)".into(),
            "expected ',' or ')' in the arguments of 'y'",
        ),
        ("a $ b".into(), "unexpected character '$'"),
        ("{a}".into(), "braces"),
        (
            "a ? b".into(),
            "expected ':' to complete the conditional started by '?' at 2",
        ),
        (
            "a ? b : c ? d".into(),
            "expected ':' to complete the conditional started by '?' at 10",
        ),
        ("a ?: b".into(), "needs a value between '?' and ':'"),
        ("b if a else c".into(), "Kaitai has no 'a if cond else b'"),
        ("if a then b else c".into(), "no 'if ... then ... else'"),
        ("a < b < c".into(), "comparison operators cannot be chained"),
        ("a == b != c".into(), "cannot be chained"),
        (
            "1 +".into(),
            "expected an expression after '+', found end of input",
        ),
        (
            "1 * )".into(),
            "expected an expression after '*', found ')'",
        ),
        ("'abc".into(), "unterminated string literal"),
        ("\"abc".into(), "unterminated string literal"),
        (r#""a\qb""#.into(), r"unknown escape sequence '\q'"),
        (r#""\x4""#.into(), "exactly two hex digits"),
        (r#""\u12""#.into(), "exactly four hex digits"),
        (r#""\ud800""#.into(), "surrogate"),
        ("0x".into(), "hexadecimal literal '0x' has no digits"),
        ("0b_".into(), "has no digits"),
        ("0b102".into(), "invalid digit '2' in binary literal"),
        ("0o8".into(), "invalid digit '8' in octal literal"),
        ("0x1G".into(), "invalid digit 'G' in hexadecimal literal"),
        ("0x1_0000_0000_0000_0000".into(), "too large"),
        ("18446744073709551616".into(), "too large"),
        ("0123".into(), "leading zeros are not allowed"),
        ("12abc".into(), "invalid suffix 'abc'"),
        ("1e".into(), "an exponent needs digits"),
        ("1e999".into(), "out of range"),
        ("foo(1)".into(), "only methods can be called"),
        (
            "a.".into(),
            "expected an attribute or method name after '.'",
        ),
        (
            "a.5".into(),
            "expected an attribute or method name after '.', found integer 5",
        ),
        ("x.as<u4".into(), "expected '>' to close '.as<' at 1"),
        ("x.as<a::>".into(), "expected a type name in '.as<'"),
        (
            "x.as<u4[>".into(),
            "expected ']' to close '[' of the array type",
        ),
        ("sizeof<u4".into(), "expected '>' to close 'sizeof<' at 0"),
        ("a[1".into(), "expected ']' to close '[' at 1"),
        ("a[]".into(), "expected an expression after '['"),
        (
            "[1, 2".into(),
            "expected ',' or ']' in the array literal opened at 0",
        ),
        ("[1 2]".into(), "expected ',' or ']'"),
        ("a + not b".into(), "'not' binds more loosely"),
        ("a == not b".into(), "'not' binds more loosely"),
        (
            "a b".into(),
            "unexpected name 'b' after a complete expression",
        ),
        ("a)".into(), "unmatched ')'"),
        ("a]".into(), "unmatched ']'"),
        ("a, b".into(), "a single expression is expected"),
        ("a : b".into(), "':' without a matching '?'"),
        ("animal::".into(), "expected a name after '::'"),
        ("::cat".into(), "needs both the enum and the value"),
        ("and".into(), "found keyword 'and'"),
        ("a or".into(), "expected an expression after 'or'"),
        (
            "1..2".into(),
            "expected an attribute or method name after '.', found '.'",
        ),
        (deep("(", "1", ")", MAX_DEPTH + 10), too_deep),
        (format!("1{}", " + 1".repeat(MAX_DEPTH + 10)), too_deep),
        (deep("-", "1", "", MAX_DEPTH + 10), too_deep),
        (deep("not ", "a", "", MAX_DEPTH + 10), too_deep),
        (deep("[", "1", "]", MAX_DEPTH + 10), too_deep),
        (format!("a{}", ".b".repeat(MAX_DEPTH + 10)), too_deep),
        (format!("{}0", "c ? 1 : ".repeat(MAX_DEPTH + 10)), too_deep),
        (deep("(", "1", ")", 100_000), too_deep),
    ];
    assert!(cases.len() >= 15);
    for (input, want) in &cases {
        match parse(input) {
            Ok(e) => panic!("{input:?} parsed as {e}, expected an error containing {want:?}"),
            Err(err) => {
                assert!(
                    err.message.contains(want),
                    "{input:?}: error {:?} does not contain {want:?}",
                    err.message
                );
                assert!(
                    err.span.start <= err.span.end && err.span.end <= input.len(),
                    "{input:?}: span {:?} is outside the input",
                    err.span
                );
            }
        }
    }
}

#[test]
fn parse_error_spans() {
    let cases: &[(&str, Span)] = &[
        ("a && b", Span::new(2, 4)),
        ("(a + b", Span::new(6, 6)),
        ("a $ b", Span::new(2, 3)),
        ("0b102", Span::new(4, 5)),
        ("a < b < c", Span::new(6, 7)),
        ("'abc", Span::new(0, 4)),
        (r#""a\qb""#, Span::new(2, 4)),
        ("a b", Span::new(2, 3)),
        ("é $", Span::new(0, 2)),
    ];
    for (input, want) in cases {
        let err = parse(input).expect_err(input);
        assert_eq!(err.span, *want, "{input:?}: {}", err.message);
    }
}

#[test]
fn error_rendering() {
    let src = "a && b";
    let err = parse(src).unwrap_err();
    let rendered = err.render(src);
    let mut lines = rendered.lines();
    assert_eq!(lines.next(), Some("a && b"));
    assert!(lines
        .next()
        .is_some_and(|l| l.starts_with("  ^^ '&&' is not an operator")));
    assert!(err.to_string().ends_with("(at 2..4)"));
}

/// `children_mut` reaches the nodes `children` does, for every kind of node (its leaves fall under a wildcard).
#[test]
fn children_and_children_mut_agree() {
    for src in [
        "1",
        "1.5",
        "'s'",
        "true",
        "a",
        "e::v",
        "a.b",
        "a.f(1, 2)",
        "a[1]",
        "a.as<u4>",
        "sizeof<u4>",
        "-a",
        "a + b",
        "a ? b : c",
        "[1, a, 3]",
    ] {
        let mut e = parse(src).unwrap();
        let shown: Vec<String> = children(&e).iter().map(|c| c.to_string()).collect();
        let reached: Vec<String> = children_mut(&mut e).iter().map(|c| c.to_string()).collect();
        assert_eq!(shown, reached, "{src}");
    }
}
