//! The value syntax (numbers, strings, bools, tuples, arrays, `{ k = v }` objects, `@references`) and the line
//! grammar of clips, with `winnow`. Errors carry the byte offset in the parsed text; the reader turns it into
//! `line:column`.

use std::fmt;

use serde::{Deserialize, Serialize};
use winnow::combinator::{cut_err, opt};
use winnow::error::{ContextError, ErrMode, StrContext, StrContextValue};
use winnow::prelude::*;
use winnow::token::{any, one_of, take_while};

use super::schema;

/// The scan that finds where a multi-line value ends lives with the reader; it stays reachable here.
pub use super::read::{opens_more, Opener};

/// Values nested deeper than this are refused (no unbounded recursion on hostile input).
pub const MAX_DEPTH: usize = 64;

/// A value in the scene syntax.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A number (`0`, `-1.5`, `1e3`); its spelling is layout.
    Number(f64),
    /// A string (`"res://a.glb"`).
    String(String),
    /// `true` or `false`.
    Bool(bool),
    /// A bare word (`once`).
    Ident(String),
    /// `(x, y, z)`.
    Tuple(Vec<Value>),
    /// `[a, b]`.
    Array(Vec<Value>),
    /// `{ k = v, ... }`, in written order.
    Object(Vec<(String, Value)>),
    /// `@Name` (an object or a variable) or `@Object.field`.
    Ref(Reference),
}

impl Value {
    /// The value of key `k` of an object.
    pub fn get(&self, k: &str) -> Option<&Value> {
        match self {
            Value::Object(kv) => kv.iter().find(|(n, _)| n == k).map(|(_, v)| v),
            _ => None,
        }
    }
    /// The number, if this is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }
    /// The numbers of a tuple of numbers.
    pub fn as_numbers(&self) -> Option<Vec<f64>> {
        match self {
            Value::Tuple(v) => v.iter().map(Value::as_f64).collect(),
            _ => None,
        }
    }
    /// Every reference in the value, depth first.
    pub fn refs(&self) -> Vec<&Reference> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(v) = stack.pop() {
            match v {
                Value::Ref(r) => out.push(r),
                Value::Tuple(xs) | Value::Array(xs) => stack.extend(xs.iter().rev()),
                Value::Object(kv) => stack.extend(kv.iter().rev().map(|(_, v)| v)),
                _ => {}
            }
        }
        out
    }
}

/// `@Name` or `@Name.field`.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    /// The object or variable name, without `@`.
    pub name: String,
    /// The field of the object, for `@Object.field`.
    pub field: Option<FieldPath>,
}

/// A bone selector.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bone {
    /// `bones[3]`.
    Index(u32),
    /// `bones["Spine"]`.
    Name(String),
}

/// A field path: `position`, `rotation_deg`, `bones[0].rotation`, `bones["Spine"].position`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldPath {
    /// The bone, for a skeleton's bone channel (`bone[…]` and `bones[…]` are the same; which was written is
    /// layout).
    pub bone: Option<Bone>,
    /// The field or bone channel, as written (`rotation_deg` stays `rotation_deg`: it is a different unit).
    pub field: String,
}

impl FieldPath {
    /// A plain field.
    pub fn field(name: &str) -> FieldPath {
        FieldPath {
            bone: None,
            field: name.to_string(),
        }
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.bone {
            None => {}
            Some(Bone::Index(i)) => write!(f, "bones[{i}].")?,
            Some(Bone::Name(n)) => write!(f, "bones[{}].", quote(n))?,
        }
        f.write_str(&self.field)
    }
}

impl fmt::Display for Reference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}", self.name)?;
        if let Some(p) = &self.field {
            write!(f, ".{p}")?;
        }
        Ok(())
    }
}

/// A number as the canonical form writes it: whole numbers without a fraction, others in the shortest form that
/// reads back to the same `f64`.
pub fn fmt_number(n: f64) -> String {
    if n.is_finite() && n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

/// A string in double quotes, escaped.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && c.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Number(n) => f.write_str(&fmt_number(*n)),
            Value::String(s) => f.write_str(&quote(s)),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Ident(s) => f.write_str(s),
            Value::Tuple(xs) | Value::Array(xs) => {
                let (o, c) = if matches!(self, Value::Tuple(_)) {
                    ("(", ")")
                } else {
                    ("[", "]")
                };
                f.write_str(o)?;
                for (i, x) in xs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str(c)
            }
            Value::Object(kv) => {
                if kv.is_empty() {
                    return f.write_str("{}");
                }
                f.write_str("{ ")?;
                for (i, (k, v)) in kv.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    if is_ident(k) {
                        write!(f, "{k} = {v}")?;
                    } else {
                        write!(f, "{} = {v}", quote(k))?;
                    }
                }
                f.write_str(" }")
            }
            Value::Ref(r) => write!(f, "{r}"),
        }
    }
}

// ---- serde: numbers, strings, bools and arrays as themselves; the rest as one-key maps. ----

impl Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Value::Number(n) => {
                if n.fract() == 0.0 && n.abs() < 1e15 {
                    s.serialize_i64(*n as i64)
                } else {
                    s.serialize_f64(*n)
                }
            }
            Value::String(x) => s.serialize_str(x),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Array(xs) => xs.serialize(s),
            Value::Tuple(xs) => {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("tuple", xs)?;
                m.end()
            }
            Value::Object(kv) => {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("object", &ObjMap(kv.clone()))?;
                m.end()
            }
            Value::Ref(r) => {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("ref", &r.to_string())?;
                m.end()
            }
            Value::Ident(x) => {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("ident", x)?;
                m.end()
            }
        }
    }
}

struct ObjMap(Vec<(String, Value)>);

impl Serialize for ObjMap {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for ObjMap {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = ObjMap;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of keys to values")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<ObjMap, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<String, Value>()? {
                    out.push((k, v));
                }
                Ok(ObjMap(out))
            }
        }
        d.deserialize_map(V)
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Value;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number, string, bool, list, or a map with one key: tuple, object, ref or ident")
            }
            fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
                Ok(Value::Bool(b))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
                Ok(Value::Number(n as f64))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
                Ok(Value::Number(n as f64))
            }
            fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
                Ok(Value::Number(n))
            }
            fn visit_str<E>(self, s: &str) -> Result<Value, E> {
                Ok(Value::String(s.to_string()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Value, A::Error> {
                let mut out = Vec::new();
                while let Some(v) = a.next_element::<Value>()? {
                    out.push(v);
                }
                Ok(Value::Array(out))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Value, A::Error> {
                use serde::de::Error as _;
                let Some(k) = m.next_key::<String>()? else {
                    return Err(A::Error::custom(
                        "an empty map is no value (write {object: {}} for an empty object)",
                    ));
                };
                let v = match k.as_str() {
                    "tuple" => Value::Tuple(m.next_value()?),
                    "object" => Value::Object(m.next_value::<ObjMap>()?.0),
                    "ident" => Value::Ident(m.next_value()?),
                    "ref" => {
                        let s: String = m.next_value()?;
                        match run(&s, |i| value(i, 0)) {
                            Ok(Value::Ref(r)) => Value::Ref(r),
                            _ => {
                                return Err(A::Error::custom(format!(
                                    "`{s}` is not a reference (@Name or @Object.field)"
                                )))
                            }
                        }
                    }
                    other => {
                        return Err(A::Error::custom(format!(
                            "unknown value map key `{other}` (expected tuple, object, ref or ident)"
                        )))
                    }
                };
                if m.next_key::<String>()?.is_some() {
                    return Err(A::Error::custom("a value map has exactly one key"));
                }
                Ok(v)
            }
        }
        d.deserialize_any(V)
    }
}

impl Serialize for FieldPath {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for FieldPath {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        let s = String::deserialize(d)?;
        run(&s, |i| {
            let p = key_path(i)?;
            end(i)?;
            Ok(p)
        })
        .map_err(|e| D::Error::custom(format!("`{s}`: {}", e.msg)))
        .and_then(|p| match interpret_key(&p) {
            Ok((f, None)) => Ok(f),
            Ok((_, Some(_))) => Err(D::Error::custom(format!("`{s}` is a control, not a field"))),
            Err(e) => Err(D::Error::custom(format!("`{s}`: {}", e.msg))),
        })
    }
}

// ---- the grammar ----

/// A syntax error: byte offset in the parsed text and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SynErr {
    /// Byte offset in the parsed text.
    pub at: usize,
    /// What is wrong.
    pub msg: String,
}

type PResult<T> = ModalResult<T>;

fn expected(what: &'static str) -> StrContext {
    StrContext::Expected(StrContextValue::Description(what))
}

fn label(what: &'static str) -> StrContext {
    StrContext::Label(what)
}

/// A cut error with a message.
fn fail_with<T>(i: &mut &str, what: &'static str) -> PResult<T> {
    let _ = i;
    let mut e = ContextError::new();
    e.push(label(what));
    Err(ErrMode::Cut(e))
}

/// Runs a parser on all of `text`, turning a failure into a [`SynErr`] at the failure's offset.
pub fn run<T>(text: &str, mut p: impl FnMut(&mut &str) -> PResult<T>) -> Result<T, SynErr> {
    let mut i = text;
    match p(&mut i) {
        Ok(v) => Ok(v),
        Err(e) => {
            let at = text.len() - i.len();
            let ctx = match e {
                ErrMode::Backtrack(c) | ErrMode::Cut(c) => c,
                ErrMode::Incomplete(_) => ContextError::new(),
            };
            let mut labels = Vec::new();
            let mut exp = Vec::new();
            for c in ctx.context() {
                match c {
                    StrContext::Label(l) => labels.push(l.to_string()),
                    StrContext::Expected(StrContextValue::Description(d)) => {
                        exp.push(d.to_string())
                    }
                    StrContext::Expected(v) => exp.push(v.to_string()),
                    _ => {}
                }
            }
            let found = describe(i);
            let msg = if let Some(l) = labels.first() {
                l.clone()
            } else if !exp.is_empty() {
                format!("expected {}, found {found}", exp.join(" or "))
            } else {
                format!("unexpected {found}")
            };
            Err(SynErr { at, msg })
        }
    }
}

fn describe(rest: &str) -> String {
    match rest.chars().next() {
        None | Some('\n') | Some('\r') => "the end of the line".into(),
        Some(c) => format!("`{c}`"),
    }
}

/// Spaces, line ends and `//` comments.
pub fn ws(i: &mut &str) -> PResult<()> {
    loop {
        let before = i.len();
        let _: &str = take_while(0.., char::is_whitespace).parse_next(i)?;
        if i.starts_with("//") {
            let _: &str = take_while(0.., |c| c != '\n').parse_next(i)?;
        }
        if i.len() == before {
            return Ok(());
        }
    }
}

/// Nothing but spaces and a comment to the end.
pub fn end(i: &mut &str) -> PResult<()> {
    ws(i)?;
    if !i.is_empty() {
        let mut e = ContextError::new();
        e.push(expected("the end of the line (or a `//` comment)"));
        return Err(ErrMode::Cut(e));
    }
    Ok(())
}

/// An identifier: a letter or `_`, then letters, digits and `_`.
pub fn ident<'a>(i: &mut &'a str) -> PResult<&'a str> {
    (
        one_of(|c: char| c.is_ascii_alphabetic() || c == '_'),
        take_while(0.., |c: char| c.is_ascii_alphanumeric() || c == '_'),
    )
        .take()
        .context(expected("a name"))
        .parse_next(i)
}

fn digits<'a>(i: &mut &'a str) -> PResult<&'a str> {
    take_while(1.., |c: char| c.is_ascii_digit()).parse_next(i)
}

fn number(i: &mut &str) -> PResult<f64> {
    let s = (
        opt(one_of(['-', '+'])),
        winnow::combinator::alt((
            (digits, opt(('.', opt(digits)))).void(),
            ('.', digits).void(),
        )),
        opt((one_of(['e', 'E']), opt(one_of(['+', '-'])), cut_err(digits))),
    )
        .take()
        .parse_next(i)?;
    match s.parse::<f64>() {
        Ok(n) if n.is_finite() => Ok(n),
        _ => fail_with(i, "the number is out of range"),
    }
}

/// A double-quoted string with `\" \\ \n \t \r \0` escapes.
pub fn string(i: &mut &str) -> PResult<String> {
    '"'.parse_next(i)?;
    let mut out = String::new();
    loop {
        let Some(c) = opt(any).parse_next(i)? else {
            return fail_with(i, "the string is not closed (missing `\"`)");
        };
        match c {
            '"' => return Ok(out),
            '\n' => return fail_with(i, "the string is not closed on its line (missing `\"`)"),
            '\\' => {
                let e: Option<char> = opt(any).parse_next(i)?;
                out.push(match e {
                    Some('"') => '"',
                    Some('\\') => '\\',
                    Some('n') => '\n',
                    Some('t') => '\t',
                    Some('r') => '\r',
                    Some('0') => '\0',
                    _ => return fail_with(i, "unknown escape (use \\\" \\\\ \\n \\t \\r or \\0)"),
                });
            }
            c => out.push(c),
        }
    }
}

/// One segment of a key path: a name with an optional `[index]` or `["name"]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Seg {
    /// Byte offset of the segment in the line.
    pub at: usize,
    /// The name.
    pub name: String,
    /// The bracket selector.
    pub index: Option<Bone>,
}

/// `a.b[0].c` as segments, with offsets relative to where `start` points.
pub fn key_path(i: &mut &str) -> PResult<Vec<Seg>> {
    let total = i.len();
    let mut segs = Vec::new();
    loop {
        let at = total - i.len();
        let name = ident(i)?.to_string();
        let mut index = None;
        if opt('[').parse_next(i)?.is_some() {
            let _: &str = take_while(0.., [' ', '\t']).parse_next(i)?;
            index = Some(if i.starts_with('"') {
                Bone::Name(cut_err(string).parse_next(i)?)
            } else {
                let d = cut_err(digits.context(expected("a bone index or a quoted bone name")))
                    .parse_next(i)?;
                match d.parse::<u32>() {
                    Ok(n) => Bone::Index(n),
                    Err(_) => return fail_with(i, "the bone index does not fit in 32 bits"),
                }
            });
            let _: &str = take_while(0.., [' ', '\t']).parse_next(i)?;
            cut_err(']'.context(expected("`]`"))).parse_next(i)?;
        }
        segs.push(Seg { at, name, index });
        if opt('.').parse_next(i)?.is_none() {
            return Ok(segs);
        }
    }
}

/// A value; `depth` counts the enclosing tuples, arrays and objects.
pub fn value(i: &mut &str, depth: usize) -> PResult<Value> {
    if depth > MAX_DEPTH {
        return fail_with(i, "values are nested more than 64 levels deep");
    }
    let Some(c) = i.chars().next() else {
        let mut e = ContextError::new();
        e.push(expected("a value"));
        return Err(ErrMode::Cut(e));
    };
    match c {
        '"' => string.map(Value::String).parse_next(i),
        '(' => seq(i, '(', ')', depth).map(Value::Tuple),
        '[' => seq(i, '[', ']', depth).map(Value::Array),
        '{' => object(i, depth),
        '@' => {
            '@'.parse_next(i)?;
            let name = cut_err(ident).parse_next(i)?.to_string();
            let field = if opt('.').parse_next(i)?.is_some() {
                let p = cut_err(key_path).parse_next(i)?;
                match interpret_key(&p) {
                    Ok((f, None)) => Some(f),
                    _ => return fail_with(i, "a reference names an object's field: @Object.field"),
                }
            } else {
                None
            };
            Ok(Value::Ref(Reference { name, field }))
        }
        c if c.is_ascii_digit() || c == '-' || c == '+' || c == '.' => {
            cut_err(number.context(expected("a number")))
                .map(Value::Number)
                .parse_next(i)
        }
        c if c.is_ascii_alphabetic() || c == '_' => {
            let w = ident(i)?;
            Ok(match w {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                w => Value::Ident(w.to_string()),
            })
        }
        _ => {
            let mut e = ContextError::new();
            e.push(expected(
                "a value (a number, \"string\", true/false, (tuple), [array], { object } or @reference)",
            ));
            Err(ErrMode::Cut(e))
        }
    }
}

fn seq(i: &mut &str, mut open: char, close: char, depth: usize) -> PResult<Vec<Value>> {
    open.parse_next(i)?;
    let mut out = Vec::new();
    loop {
        ws(i)?;
        if opt(close).parse_next(i)?.is_some() {
            return Ok(out);
        }
        out.push(value(i, depth + 1)?);
        ws(i)?;
        if opt(',').parse_next(i)?.is_some() {
            continue;
        }
        if opt(close).parse_next(i)?.is_some() {
            return Ok(out);
        }
        let mut e = ContextError::new();
        e.push(expected(if close == ')' {
            "`,` or `)`"
        } else {
            "`,` or `]`"
        }));
        return Err(ErrMode::Cut(e));
    }
}

fn object(i: &mut &str, depth: usize) -> PResult<Value> {
    '{'.parse_next(i)?;
    let mut out = Vec::new();
    loop {
        ws(i)?;
        if opt('}').parse_next(i)?.is_some() {
            return Ok(Value::Object(out));
        }
        let k = if i.starts_with('"') {
            string(i)?
        } else {
            cut_err(ident.context(expected("a key or `}`")))
                .parse_next(i)?
                .to_string()
        };
        ws(i)?;
        cut_err('='.context(expected("`=`"))).parse_next(i)?;
        ws(i)?;
        let v = value(i, depth + 1)?;
        out.push((k, v));
        ws(i)?;
        // Entries are separated by `,` (or by line ends alone in a multi-line object).
        let _ = opt(',').parse_next(i)?;
    }
}

/// What a key path means.
pub type Interpreted = (FieldPath, Option<ControlKind>);

/// `field.interp` or `field.ease`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControlKind {
    /// `.interp`.
    Interp,
    /// `.ease`.
    Ease,
}

/// Turns key path segments into a field path and, for `field.interp` / `field.ease`, the control kind.
pub fn interpret_key(segs: &[Seg]) -> Result<Interpreted, SynErr> {
    let t = schema::tables();
    let control = |s: &Seg| match s.name.as_str() {
        "interp" if s.index.is_none() => Some(ControlKind::Interp),
        "ease" if s.index.is_none() => Some(ControlKind::Ease),
        _ => None,
    };
    let plain = |s: &Seg| -> Result<(), SynErr> {
        if s.index.is_some() {
            Err(SynErr {
                at: s.at,
                msg: format!("`{}[…]` selects a bone: write bones[i].position, bones[i].rotation or bones[i].scale", s.name),
            })
        } else {
            Ok(())
        }
    };
    let bone_of = |s: &Seg| -> Result<Bone, SynErr> {
        if !t.bone_paths.spellings.contains(&s.name) {
            return Err(SynErr {
                at: s.at,
                msg: format!(
                    "`{}[…]` is not a bone path (bone paths are {})",
                    s.name,
                    t.bone_paths
                        .spellings
                        .iter()
                        .map(|b| format!("{b}[i]"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            });
        }
        s.index.clone().ok_or_else(|| SynErr {
            at: s.at,
            msg: format!(
                "`{}` needs a bone: {}[0] or {}[\"Name\"]",
                s.name, s.name, s.name
            ),
        })
    };
    let bad = |s: &Seg| {
        SynErr {
        at: s.at,
        msg: "not a field path (fields are `field`, `field.interp`, `field.ease`, `bones[i].channel`)".into(),
    }
    };
    match segs {
        [a] if a.index.is_none() => Ok((FieldPath::field(&a.name), None)),
        [a] if t.bone_paths.spellings.contains(&a.name) => Err(SynErr {
            at: a.at,
            msg: format!(
                "`{}[…]` needs a channel: .position, .rotation or .scale",
                a.name
            ),
        }),
        [a] => Err(plain(a).err().unwrap_or_else(|| bad(a))),
        [a, b] if a.index.is_none() => {
            let k = control(b).ok_or_else(|| SynErr {
                at: b.at,
                msg: format!(
                    "`{}.{}`: a field is followed only by .interp or .ease{}",
                    a.name,
                    b.name,
                    schema::did_you_mean(&b.name, ["interp", "ease"])
                        .map(|m| format!(" (did you mean `{}.{m}`?)", a.name))
                        .unwrap_or_default()
                ),
            })?;
            Ok((FieldPath::field(&a.name), Some(k)))
        }
        [a, b] => {
            let bone = bone_of(a)?;
            plain(b)?;
            Ok((
                FieldPath {
                    bone: Some(bone),
                    field: b.name.clone(),
                },
                None,
            ))
        }
        [a, b, c] if a.index.is_some() => {
            let bone = bone_of(a)?;
            plain(b)?;
            let k = control(c).ok_or_else(|| bad(c))?;
            Ok((
                FieldPath {
                    bone: Some(bone),
                    field: b.name.clone(),
                },
                Some(k),
            ))
        }
        [a, ..] => Err(bad(a)),
        [] => Err(SynErr {
            at: 0,
            msg: "expected a name".into(),
        }),
    }
}

/// The block a header line opens or closes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderKind {
    /// `[Animation]`.
    Animation,
    /// `[Objects]`.
    Objects,
    /// `[FrameN]` (`open`: `[FrameN?]`).
    Frame {
        /// N.
        index: u32,
        /// `?`.
        open: bool,
    },
}

/// One logical line of a clip.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    /// `[Block]` or `[/Block]`.
    Header {
        /// `[/…]`.
        close: bool,
        /// Which block.
        kind: HeaderKind,
    },
    /// `@Object {`.
    ObjectOpen {
        /// The name.
        name: String,
        /// Offset of the name.
        at: usize,
    },
    /// `}`.
    ObjectClose,
    /// `@name = value`.
    Variable {
        /// The name.
        name: String,
        /// The value.
        value: Value,
        /// Offset of the value.
        value_at: usize,
    },
    /// `key.path = value`.
    Assign {
        /// The key path.
        key: Vec<Seg>,
        /// The value.
        value: Value,
        /// Offset of the value.
        value_at: usize,
    },
}

/// Parses one logical line (which may span several physical lines for a multi-line value).
pub fn line(text: &str) -> Result<Line, SynErr> {
    let total = text.len();
    run(text, |i| {
        let _: &str = take_while(0.., [' ', '\t']).parse_next(i)?;
        let l = match i.chars().next() {
            Some('[') => header(i)?,
            Some('}') => {
                '}'.parse_next(i)?;
                Line::ObjectClose
            }
            Some('@') => {
                '@'.parse_next(i)?;
                let at = total - i.len();
                let name = cut_err(ident).parse_next(i)?.to_string();
                let _: &str = take_while(0.., [' ', '\t']).parse_next(i)?;
                if opt('{').parse_next(i)?.is_some() {
                    ws(i)?;
                    if !i.is_empty() {
                        return fail_with(
                            i,
                            "an object block's entries go on their own lines: `@Name {`, then one entry per \
                             line, then `}` on its own line",
                        );
                    }
                    Line::ObjectOpen { name, at }
                } else if opt('=').parse_next(i)?.is_some() {
                    ws(i)?;
                    let value_at = total - i.len();
                    let value = value(i, 0)?;
                    Line::Variable {
                        name,
                        value,
                        value_at,
                    }
                } else {
                    let mut e = ContextError::new();
                    e.push(expected("`{` (an object block) or `=` (a variable)"));
                    return Err(ErrMode::Cut(e));
                }
            }
            _ => {
                let base = total - i.len();
                let mut key = cut_err(key_path).parse_next(i)?;
                for s in &mut key {
                    s.at += base;
                }
                let _: &str = take_while(0.., [' ', '\t']).parse_next(i)?;
                cut_err('='.context(expected("`=`"))).parse_next(i)?;
                ws(i)?;
                let value_at = total - i.len();
                let value = value(i, 0)?;
                Line::Assign {
                    key,
                    value,
                    value_at,
                }
            }
        };
        end(i)?;
        Ok(l)
    })
}

fn header(i: &mut &str) -> PResult<Line> {
    '['.parse_next(i)?;
    let close = opt('/').parse_next(i)?.is_some();
    let word = cut_err(ident.context(expected("a block name (Animation, Objects or FrameN)")))
        .parse_next(i)?;
    let kind = match word {
        "Animation" => HeaderKind::Animation,
        "Objects" => HeaderKind::Objects,
        w if w.starts_with("Frame") => {
            let n = &w["Frame".len()..];
            if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                return fail_with(
                    i,
                    "a frame block is [FrameN] with a frame index N: [Frame0]",
                );
            }
            let Ok(index) = n.parse::<u32>() else {
                return fail_with(i, "the frame index does not fit in 32 bits");
            };
            let open = opt('?').parse_next(i)?.is_some();
            HeaderKind::Frame { index, open }
        }
        _ => {
            return fail_with(
                i,
                "unknown block (blocks are [Animation], [Objects], [FrameN] and [FrameN?])",
            );
        }
    };
    cut_err(']'.context(expected("`]`"))).parse_next(i)?;
    Ok(Line::Header { close, kind })
}
