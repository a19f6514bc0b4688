//! Stage 1: YAML text to a raw schema that keeps positions. Nothing is resolved here: names stay names and
//! expressions stay text. Unknown keys are reported (with a suggestion); keys starting with `-` are kept for the
//! IR passes, which give them meaning.

use saphyr::{LoadableYamlNode, MarkedYaml, Scalar, YamlData};

use crate::diag::{did_you_mean, Diags, Pos};

/// A YAML node with its position and YAML path.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    pub pos: Pos,
    pub path: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<(Node, Node)>),
}

impl Node {
    /// The scalar as text (`0x14`, `true`, `foo`), as Kaitai reads expressions.
    pub fn scalar_text(&self) -> Option<String> {
        match &self.value {
            Value::Bool(b) => Some(b.to_string()),
            Value::Int(i) => Some(i.to_string()),
            Value::Float(f) => Some(f.to_string()),
            Value::Str(s) => Some(s.clone()),
            Value::Null => None,
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.value {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_map()?
            .iter()
            .find(|(k, _)| k.scalar_text().as_deref() == Some(key))
            .map(|(_, v)| v)
    }
    pub fn kind_name(&self) -> &'static str {
        match &self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a float",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a map",
        }
    }
}

/// Parses YAML text into a [`Node`] tree.
pub fn load_yaml(text: &str, diags: &mut Diags) -> Option<Node> {
    let docs = match MarkedYaml::load_from_str(text) {
        Ok(d) => d,
        Err(e) => {
            let m = e.marker();
            diags.error(
                Pos {
                    line: m.line(),
                    col: m.col() + 1,
                },
                "/",
                format!("not valid YAML: {}", e.info()),
                None,
            );
            return None;
        }
    };
    match docs.into_iter().next() {
        Some(d) => Some(convert(&d, text, "", 0, diags)),
        None => {
            diags.error(
                Pos { line: 1, col: 1 },
                "/",
                "the file holds no YAML document",
                None,
            );
            None
        }
    }
}

fn convert(y: &MarkedYaml<'_>, src: &str, path: &str, depth: usize, diags: &mut Diags) -> Node {
    let pos = Pos {
        line: y.span.start.line(),
        col: y.span.start.col() + 1,
    };
    let p = if path.is_empty() {
        "/".to_string()
    } else {
        path.to_string()
    };
    if depth > 128 {
        diags.error(pos, &p, "YAML nests deeper than 128 levels", None);
        return Node {
            value: Value::Null,
            pos,
            path: p,
        };
    }
    let value = match &y.data {
        YamlData::Value(s) => match s {
            Scalar::Null => Value::Null,
            Scalar::Boolean(b) => Value::Bool(*b),
            Scalar::Integer(i) => Value::Int(*i as i128),
            // YAML reads integers beyond i64 as floats; the source text tells them apart.
            Scalar::FloatingPoint(f) => {
                match integer_text(src, y.span.start.index(), y.span.end.index()) {
                    Some(i) => Value::Int(i),
                    None => Value::Float(f.into_inner()),
                }
            }
            Scalar::String(s) => Value::Str(s.to_string()),
        },
        YamlData::Representation(s, _, _) => Value::Str(s.to_string()),
        YamlData::Sequence(items) => Value::Seq(
            items
                .iter()
                .enumerate()
                .map(|(i, n)| convert(n, src, &format!("{path}/{i}"), depth + 1, diags))
                .collect(),
        ),
        YamlData::Mapping(m) => Value::Map(
            m.iter()
                .map(|(k, v)| {
                    let key = convert(k, src, path, depth + 1, diags);
                    let kt = key.scalar_text().unwrap_or_default();
                    let val = convert(v, src, &format!("{path}/{kt}"), depth + 1, diags);
                    (key, val)
                })
                .collect(),
        ),
        YamlData::Tagged(_, inner) => return convert(inner, src, path, depth + 1, diags),
        YamlData::Alias(_) | YamlData::BadValue => {
            diags.error(
                pos,
                &p,
                "aliases and bad values are not supported in schemas",
                None,
            );
            Value::Null
        }
    };
    Node {
        value,
        pos,
        path: p,
    }
}

/// The integer that the source text between two char indices spells, if it is one.
fn integer_text(src: &str, start: usize, end: usize) -> Option<i128> {
    let raw: String = src
        .chars()
        .skip(start)
        .take(end.saturating_sub(start))
        .collect();
    let t = raw.trim().replace('_', "");
    let (neg, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t.trim_start_matches('+')),
    };
    let v = if let Some(h) = digits.strip_prefix("0x") {
        i128::from_str_radix(h, 16).ok()?
    } else if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        digits.parse::<i128>().ok()?
    } else {
        return None;
    };
    Some(if neg { -v } else { v })
}

/// An expression as written, with where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct ExprSrc {
    pub text: String,
    pub pos: Pos,
    pub path: String,
}

impl ExprSrc {
    fn from_node(n: &Node, diags: &mut Diags) -> Option<ExprSrc> {
        match n.scalar_text() {
            Some(text) => Some(ExprSrc {
                text,
                pos: n.pos,
                path: n.path.clone(),
            }),
            None => {
                diags.error(
                    n.pos,
                    &n.path,
                    format!("expected an expression, found {}", n.kind_name()),
                    None,
                );
                None
            }
        }
    }
}

/// A `-`-prefixed key and its value, for the IR passes.
pub type Ext = Vec<(String, Node)>;

#[derive(Debug, Clone, PartialEq)]
pub enum RawEndian {
    Fixed {
        le: bool,
        pos: Pos,
    },
    Switch {
        on: ExprSrc,
        cases: Vec<(ExprSrc, bool, Pos)>,
    },
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct RawMeta {
    pub id: Option<(String, Pos)>,
    pub title: Option<String>,
    pub file_extension: Vec<String>,
    pub endian: Option<RawEndian>,
    pub bit_endian: Option<(bool, Pos)>,
    pub encoding: Option<String>,
    pub imports: Vec<(String, Pos)>,
    pub ext: Ext,
    pub pos: Pos,
}

#[derive(Debug, Clone, PartialEq)]
pub enum RawTypeRef {
    /// A type name, possibly with arguments: `u4`, `strz`, `name_entry(128)`, `a::b`.
    Name {
        text: String,
        pos: Pos,
        path: String,
    },
    Switch {
        on: ExprSrc,
        cases: Vec<(ExprSrc, String, Pos)>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum RawRepeat {
    Eos,
    Expr(ExprSrc),
    Until(ExprSrc),
}

#[derive(Debug, Clone, PartialEq)]
pub enum RawValid {
    Eq(ExprSrc),
    Min(ExprSrc),
    Max(ExprSrc),
    Range(Option<ExprSrc>, Option<ExprSrc>),
    AnyOf(Vec<ExprSrc>),
    Expr(ExprSrc),
    InEnum,
}

/// A `seq` attribute or an instance.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RawAttr {
    pub id: String,
    pub pos: Pos,
    pub path: String,
    pub doc: Option<String>,
    pub doc_ref: Vec<String>,
    pub ty: Option<RawTypeRef>,
    pub size: Option<ExprSrc>,
    pub size_eos: bool,
    pub contents: Option<Vec<u8>>,
    pub terminator: Option<u8>,
    pub consume: Option<bool>,
    pub include: Option<bool>,
    pub eos_error: Option<bool>,
    pub pad_right: Option<u8>,
    pub encoding: Option<String>,
    pub repeat: Option<RawRepeat>,
    pub if_: Option<ExprSrc>,
    pub enum_: Option<(String, Pos)>,
    pub valid: Option<RawValid>,
    pub process: Option<ExprSrc>,
    /// Instances only.
    pub pos_expr: Option<ExprSrc>,
    pub io: Option<ExprSrc>,
    pub value: Option<ExprSrc>,
    pub ext: Ext,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawParam {
    pub id: String,
    pub ty: Option<String>,
    pub enum_: Option<String>,
    pub doc: Option<String>,
    pub pos: Pos,
    pub path: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawEnumValue {
    pub value: i128,
    pub id: String,
    pub doc: Option<String>,
    pub pos: Pos,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawEnum {
    pub name: String,
    pub values: Vec<RawEnumValue>,
    pub pos: Pos,
    pub path: String,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct RawType {
    pub name: String,
    pub pos: Pos,
    pub path: String,
    pub meta: Option<RawMeta>,
    pub doc: Option<String>,
    pub doc_ref: Vec<String>,
    pub params: Vec<RawParam>,
    pub seq: Vec<RawAttr>,
    pub instances: Vec<RawAttr>,
    pub types: Vec<RawType>,
    pub enums: Vec<RawEnum>,
    pub ext: Ext,
}

/// A whole schema file.
#[derive(Debug, Clone, PartialEq)]
pub struct RawSchema {
    pub file: String,
    pub root: RawType,
}

const TYPE_KEYS: &[&str] = &[
    "meta",
    "doc",
    "doc-ref",
    "params",
    "seq",
    "instances",
    "types",
    "enums",
    "to-string",
];
const META_KEYS: &[&str] = &[
    "id",
    "title",
    "application",
    "file-extension",
    "xref",
    "license",
    "ks-version",
    "ks-debug",
    "ks-opaque-types",
    "imports",
    "encoding",
    "endian",
    "bit-endian",
    "tags",
];
const ATTR_KEYS: &[&str] = &[
    "id",
    "doc",
    "doc-ref",
    "type",
    "size",
    "size-eos",
    "contents",
    "terminator",
    "consume",
    "include",
    "eos-error",
    "pad-right",
    "encoding",
    "repeat",
    "repeat-expr",
    "repeat-until",
    "if",
    "enum",
    "valid",
    "process",
];
const INSTANCE_KEYS: &[&str] = &["pos", "io", "value"];
const PARAM_KEYS: &[&str] = &["id", "type", "doc", "doc-ref", "enum"];

/// Parses a schema file's text.
pub fn parse_schema(file: &str, text: &str, diags: &mut Diags) -> Option<RawSchema> {
    let node = load_yaml(text, diags)?;
    if node.as_map().is_none() {
        diags.error(
            node.pos,
            "/",
            format!("a schema must be a map, found {}", node.kind_name()),
            None,
        );
        return None;
    }
    let root = parse_type(&node, "", diags, true);
    Some(RawSchema {
        file: file.to_string(),
        root,
    })
}

fn check_keys(n: &Node, allowed: &[&str], what: &str, diags: &mut Diags) -> Ext {
    let mut ext = Vec::new();
    let Some(m) = n.as_map() else { return ext };
    for (k, v) in m {
        let key = k.scalar_text().unwrap_or_default();
        if key.starts_with('-') {
            ext.push((key, v.clone()));
        } else if !allowed.contains(&key.as_str()) {
            diags.error(
                k.pos,
                &v.path,
                format!("unknown key '{key}' in {what}"),
                did_you_mean(&key, allowed.iter().copied()),
            );
        }
    }
    ext
}

fn str_of(n: &Node, diags: &mut Diags) -> Option<String> {
    match &n.value {
        Value::Str(s) => Some(s.clone()),
        Value::Int(_) | Value::Bool(_) | Value::Float(_) => n.scalar_text(),
        _ => {
            diags.error(
                n.pos,
                &n.path,
                format!("expected a string, found {}", n.kind_name()),
                None,
            );
            None
        }
    }
}

fn bool_of(n: &Node, diags: &mut Diags) -> Option<bool> {
    match &n.value {
        Value::Bool(b) => Some(*b),
        _ => {
            diags.error(
                n.pos,
                &n.path,
                format!("expected true or false, found {}", n.kind_name()),
                None,
            );
            None
        }
    }
}

fn doc_refs(n: &Node, diags: &mut Diags) -> Vec<String> {
    match &n.value {
        Value::Seq(items) => items.iter().filter_map(|i| str_of(i, diags)).collect(),
        _ => str_of(n, diags).into_iter().collect(),
    }
}

fn is_identifier(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some('a'..='z')) && c.all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_'))
}

fn check_id(id: &str, n: &Node, diags: &mut Diags) {
    if !is_identifier(id) {
        diags.error(
            n.pos,
            &n.path,
            format!("invalid name '{id}': names are lower_snake_case, starting with a letter"),
            Some(format!("try '{}'", suggest_identifier(id))),
        );
    }
}

fn suggest_identifier(id: &str) -> String {
    let mut out = String::new();
    for (i, c) in id.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    if out.is_empty() || !out.starts_with(|c: char| c.is_ascii_lowercase()) {
        out.insert(0, 'x');
    }
    out
}

fn parse_meta(n: &Node, diags: &mut Diags) -> RawMeta {
    let ext = check_keys(n, META_KEYS, "meta", diags);
    let mut meta = RawMeta {
        ext,
        pos: n.pos,
        ..Default::default()
    };
    if let Some(v) = n.get("id") {
        if let Some(s) = str_of(v, diags) {
            check_id(&s, v, diags);
            meta.id = Some((s, v.pos));
        }
    }
    meta.title = n.get("title").and_then(|v| str_of(v, diags));
    if let Some(v) = n.get("file-extension") {
        meta.file_extension = doc_refs(v, diags);
    }
    meta.encoding = n.get("encoding").and_then(|v| str_of(v, diags));
    if let Some(v) = n.get("imports") {
        if let Value::Seq(items) = &v.value {
            meta.imports = items
                .iter()
                .filter_map(|i| str_of(i, diags).map(|s| (s, i.pos)))
                .collect();
        } else {
            diags.error(
                v.pos,
                &v.path,
                "imports must be a list of schema names",
                None,
            );
        }
    }
    if let Some(v) = n.get("bit-endian") {
        match v.as_str() {
            Some("le") => meta.bit_endian = Some((true, v.pos)),
            Some("be") => meta.bit_endian = Some((false, v.pos)),
            _ => diags.error(v.pos, &v.path, "bit-endian must be 'le' or 'be'", None),
        }
    }
    if let Some(v) = n.get("endian") {
        meta.endian = parse_endian(v, diags);
    }
    meta
}

fn endian_word(n: &Node, diags: &mut Diags) -> Option<bool> {
    match n.as_str() {
        Some("le") => Some(true),
        Some("be") => Some(false),
        _ => {
            diags.error(
                n.pos,
                &n.path,
                "endian must be 'le' or 'be'",
                did_you_mean(&n.scalar_text().unwrap_or_default(), ["le", "be"]),
            );
            None
        }
    }
}

fn parse_endian(v: &Node, diags: &mut Diags) -> Option<RawEndian> {
    if v.as_map().is_some() {
        check_keys(v, &["switch-on", "cases"], "endian", diags);
        let on = match v.get("switch-on") {
            Some(o) => ExprSrc::from_node(o, diags)?,
            None => {
                diags.error(v.pos, &v.path, "endian switch needs 'switch-on'", None);
                return None;
            }
        };
        let mut cases = Vec::new();
        match v.get("cases").and_then(|c| c.as_map()) {
            Some(m) => {
                for (k, val) in m {
                    let key = ExprSrc {
                        text: k.scalar_text().unwrap_or_default(),
                        pos: k.pos,
                        path: val.path.clone(),
                    };
                    if let Some(le) = endian_word(val, diags) {
                        cases.push((key, le, val.pos));
                    }
                }
            }
            None => diags.error(v.pos, &v.path, "endian switch needs a 'cases' map", None),
        }
        Some(RawEndian::Switch { on, cases })
    } else {
        endian_word(v, diags).map(|le| RawEndian::Fixed { le, pos: v.pos })
    }
}

fn parse_type(n: &Node, name: &str, diags: &mut Diags, is_root: bool) -> RawType {
    let ext = check_keys(
        n,
        TYPE_KEYS,
        if is_root { "the schema" } else { "a type" },
        diags,
    );
    let mut t = RawType {
        name: name.to_string(),
        pos: n.pos,
        path: n.path.clone(),
        ext,
        ..Default::default()
    };
    if let Some(m) = n.get("meta") {
        let meta = parse_meta(m, diags);
        if is_root {
            match &meta.id {
                Some((id, _)) => t.name = id.clone(),
                None => diags.error(m.pos, &m.path, "meta needs an 'id'", None),
            }
        }
        t.meta = Some(meta);
    } else if is_root {
        diags.error(n.pos, "/", "a schema needs 'meta' with an 'id'", None);
    }
    t.doc = n.get("doc").and_then(|v| str_of(v, diags));
    t.doc_ref = n
        .get("doc-ref")
        .map(|v| doc_refs(v, diags))
        .unwrap_or_default();
    if let Some(p) = n.get("params") {
        match &p.value {
            Value::Seq(items) => {
                for i in items {
                    let pext = check_keys(i, PARAM_KEYS, "a parameter", diags);
                    let _ = pext;
                    let id = i
                        .get("id")
                        .and_then(|v| str_of(v, diags))
                        .unwrap_or_default();
                    if id.is_empty() {
                        diags.error(i.pos, &i.path, "a parameter needs an 'id'", None);
                    } else {
                        check_id(&id, i, diags);
                    }
                    t.params.push(RawParam {
                        id,
                        ty: i.get("type").and_then(|v| str_of(v, diags)),
                        enum_: i.get("enum").and_then(|v| str_of(v, diags)),
                        doc: i.get("doc").and_then(|v| str_of(v, diags)),
                        pos: i.pos,
                        path: i.path.clone(),
                    });
                }
            }
            _ => diags.error(p.pos, &p.path, "params must be a list", None),
        }
    }
    if let Some(s) = n.get("seq") {
        match &s.value {
            Value::Seq(items) => {
                for (i, item) in items.iter().enumerate() {
                    t.seq.push(parse_attr(item, None, i, diags));
                }
            }
            Value::Null => {}
            _ => diags.error(
                s.pos,
                &s.path,
                format!("seq must be a list, found {}", s.kind_name()),
                None,
            ),
        }
    }
    if let Some(s) = n.get("instances") {
        match s.as_map() {
            Some(m) => {
                for (k, v) in m {
                    let id = k.scalar_text().unwrap_or_default();
                    check_id(&id, k, diags);
                    t.instances.push(parse_attr(v, Some(id), 0, diags));
                }
            }
            None => diags.error(
                s.pos,
                &s.path,
                "instances must be a map of name to instance",
                None,
            ),
        }
    }
    if let Some(s) = n.get("types") {
        match s.as_map() {
            Some(m) => {
                for (k, v) in m {
                    let id = k.scalar_text().unwrap_or_default();
                    check_id(&id, k, diags);
                    t.types.push(parse_type(v, &id, diags, false));
                }
            }
            None => diags.error(s.pos, &s.path, "types must be a map of name to type", None),
        }
    }
    if let Some(s) = n.get("enums") {
        match s.as_map() {
            Some(m) => {
                for (k, v) in m {
                    let id = k.scalar_text().unwrap_or_default();
                    check_id(&id, k, diags);
                    t.enums.push(parse_enum(&id, v, diags));
                }
            }
            None => diags.error(
                s.pos,
                &s.path,
                "enums must be a map of name to values",
                None,
            ),
        }
    }
    t
}

fn parse_enum(name: &str, n: &Node, diags: &mut Diags) -> RawEnum {
    let mut e = RawEnum {
        name: name.to_string(),
        values: Vec::new(),
        pos: n.pos,
        path: n.path.clone(),
    };
    let Some(m) = n.as_map() else {
        diags.error(
            n.pos,
            &n.path,
            "an enum must be a map of value to name",
            None,
        );
        return e;
    };
    for (k, v) in m {
        let value = match &k.value {
            Value::Int(i) => *i,
            Value::Bool(b) => *b as i128,
            _ => {
                diags.error(
                    k.pos,
                    &v.path,
                    format!("enum keys must be integers, found {}", k.kind_name()),
                    None,
                );
                continue;
            }
        };
        let (id, doc) = if v.as_map().is_some() {
            check_keys(
                v,
                &["id", "doc", "doc-ref", "-orig-id"],
                "an enum value",
                diags,
            );
            (
                v.get("id")
                    .and_then(|x| str_of(x, diags))
                    .unwrap_or_default(),
                v.get("doc").and_then(|x| str_of(x, diags)),
            )
        } else {
            (str_of(v, diags).unwrap_or_default(), None)
        };
        check_id(&id, v, diags);
        if let Some(prev) = e.values.iter().find(|x| x.id == id) {
            diags.error(
                v.pos,
                &v.path,
                format!(
                    "'{id}' names two values of enum '{name}' ({:#x} and {value:#x})",
                    prev.value
                ),
                Some("give each value its own name".into()),
            );
        }
        e.values.push(RawEnumValue {
            value,
            id,
            doc,
            pos: v.pos,
        });
    }
    e
}

fn parse_contents(n: &Node, diags: &mut Diags) -> Option<Vec<u8>> {
    match &n.value {
        Value::Str(s) => Some(s.as_bytes().to_vec()),
        Value::Int(i) if (0..=255).contains(i) => Some(vec![*i as u8]),
        Value::Seq(items) => {
            let mut out = Vec::new();
            for i in items {
                match &i.value {
                    Value::Int(b) if (0..=255).contains(b) => out.push(*b as u8),
                    Value::Str(s) => out.extend_from_slice(s.as_bytes()),
                    _ => diags.error(
                        i.pos,
                        &i.path,
                        "contents items must be bytes (0..=255) or strings",
                        None,
                    ),
                }
            }
            Some(out)
        }
        _ => {
            diags.error(
                n.pos,
                &n.path,
                "contents must be a string or a list of bytes",
                None,
            );
            None
        }
    }
}

fn byte_of(n: &Node, what: &str, diags: &mut Diags) -> Option<u8> {
    match &n.value {
        Value::Int(i) if (0..=255).contains(i) => Some(*i as u8),
        _ => {
            diags.error(
                n.pos,
                &n.path,
                format!("{what} must be a byte (0..=255)"),
                None,
            );
            None
        }
    }
}

fn parse_attr(n: &Node, instance_id: Option<String>, index: usize, diags: &mut Diags) -> RawAttr {
    let is_instance = instance_id.is_some();
    let mut allowed: Vec<&str> = ATTR_KEYS.to_vec();
    if is_instance {
        allowed.extend_from_slice(INSTANCE_KEYS);
    }
    let ext = check_keys(
        n,
        &allowed,
        if is_instance {
            "an instance"
        } else {
            "a seq attribute"
        },
        diags,
    );
    let mut a = RawAttr {
        pos: n.pos,
        path: n.path.clone(),
        ext,
        ..Default::default()
    };
    match instance_id {
        Some(id) => a.id = id,
        None => match n.get("id").and_then(|v| str_of(v, diags)) {
            Some(id) => {
                check_id(&id, n.get("id").unwrap_or(n), diags);
                a.id = id;
            }
            None => a.id = format!("unnamed{index}"),
        },
    }
    let e = |k: &str, diags: &mut Diags| n.get(k).and_then(|v| ExprSrc::from_node(v, diags));
    a.doc = n.get("doc").and_then(|v| str_of(v, diags));
    a.doc_ref = n
        .get("doc-ref")
        .map(|v| doc_refs(v, diags))
        .unwrap_or_default();
    if let Some(t) = n.get("type") {
        if t.as_map().is_some() {
            check_keys(t, &["switch-on", "cases"], "a type switch", diags);
            let on = t
                .get("switch-on")
                .and_then(|o| ExprSrc::from_node(o, diags));
            let mut cases = Vec::new();
            if let Some(m) = t.get("cases").and_then(|c| c.as_map()) {
                for (k, v) in m {
                    let key = ExprSrc {
                        text: k.scalar_text().unwrap_or_default(),
                        pos: k.pos,
                        path: v.path.clone(),
                    };
                    if let Some(tn) = str_of(v, diags) {
                        cases.push((key, tn, v.pos));
                    }
                }
            } else {
                diags.error(t.pos, &t.path, "a type switch needs a 'cases' map", None);
            }
            match on {
                Some(on) => a.ty = Some(RawTypeRef::Switch { on, cases }),
                None => diags.error(t.pos, &t.path, "a type switch needs 'switch-on'", None),
            }
        } else if let Some(s) = str_of(t, diags) {
            a.ty = Some(RawTypeRef::Name {
                text: s,
                pos: t.pos,
                path: t.path.clone(),
            });
        }
    }
    a.size = e("size", diags);
    a.size_eos = n
        .get("size-eos")
        .and_then(|v| bool_of(v, diags))
        .unwrap_or(false);
    a.contents = n.get("contents").and_then(|v| parse_contents(v, diags));
    a.terminator = n
        .get("terminator")
        .and_then(|v| byte_of(v, "terminator", diags));
    a.consume = n.get("consume").and_then(|v| bool_of(v, diags));
    a.include = n.get("include").and_then(|v| bool_of(v, diags));
    a.eos_error = n.get("eos-error").and_then(|v| bool_of(v, diags));
    a.pad_right = n
        .get("pad-right")
        .and_then(|v| byte_of(v, "pad-right", diags));
    a.encoding = n.get("encoding").and_then(|v| str_of(v, diags));
    a.if_ = e("if", diags);
    a.enum_ = n
        .get("enum")
        .and_then(|v| str_of(v, diags).map(|s| (s, v.pos)));
    a.process = e("process", diags);
    if let Some(r) = n.get("repeat") {
        // A key that belongs to another kind of repeat is a mistake.
        let kind = r.as_str().unwrap_or("");
        for (k, own) in [("repeat-expr", "expr"), ("repeat-until", "until")] {
            if let (Some(v), true) = (n.get(k), kind != own) {
                diags.error(
                    v.pos,
                    &v.path,
                    format!("'{k}' does not go with 'repeat: {kind}'"),
                    Some(format!("use 'repeat: {own}', or remove '{k}'")),
                );
            }
        }
        match r.as_str() {
            Some("eos") => a.repeat = Some(RawRepeat::Eos),
            Some("expr") => match e("repeat-expr", diags) {
                Some(x) => a.repeat = Some(RawRepeat::Expr(x)),
                None => diags.error(r.pos, &r.path, "repeat: expr needs 'repeat-expr'", None),
            },
            Some("until") => match e("repeat-until", diags) {
                Some(x) => a.repeat = Some(RawRepeat::Until(x)),
                None => diags.error(r.pos, &r.path, "repeat: until needs 'repeat-until'", None),
            },
            _ => diags.error(
                r.pos,
                &r.path,
                format!(
                    "repeat must be 'eos', 'expr' or 'until', found '{}'",
                    r.scalar_text().unwrap_or_default()
                ),
                did_you_mean(
                    &r.scalar_text().unwrap_or_default(),
                    ["eos", "expr", "until"],
                ),
            ),
        }
    } else {
        for k in ["repeat-expr", "repeat-until"] {
            if let Some(v) = n.get(k) {
                diags.error(
                    v.pos,
                    &v.path,
                    format!("'{k}' without 'repeat'"),
                    Some(format!("add 'repeat: {}'", &k[7..])),
                );
            }
        }
    }
    if let Some(v) = n.get("valid") {
        a.valid = parse_valid(v, diags);
    }
    if is_instance {
        a.pos_expr = e("pos", diags);
        a.io = e("io", diags);
        a.value = e("value", diags);
    }
    a
}

fn parse_valid(v: &Node, diags: &mut Diags) -> Option<RawValid> {
    if v.as_map().is_some() {
        check_keys(
            v,
            &["eq", "min", "max", "any-of", "expr", "in-enum"],
            "valid",
            diags,
        );
        let e = |k: &str, diags: &mut Diags| v.get(k).and_then(|x| ExprSrc::from_node(x, diags));
        if let Some(x) = e("eq", diags) {
            return Some(RawValid::Eq(x));
        }
        if let Some(x) = e("expr", diags) {
            return Some(RawValid::Expr(x));
        }
        if let Some(l) = v.get("any-of") {
            if let Value::Seq(items) = &l.value {
                return Some(RawValid::AnyOf(
                    items
                        .iter()
                        .filter_map(|i| ExprSrc::from_node(i, diags))
                        .collect(),
                ));
            }
            diags.error(l.pos, &l.path, "any-of must be a list", None);
            return None;
        }
        if v.get("in-enum").is_some() {
            return Some(RawValid::InEnum);
        }
        let min = e("min", diags);
        let max = e("max", diags);
        match (min, max) {
            (Some(a), None) => Some(RawValid::Min(a)),
            (None, Some(b)) => Some(RawValid::Max(b)),
            (a, b) if a.is_some() || b.is_some() => Some(RawValid::Range(a, b)),
            _ => {
                diags.error(
                    v.pos,
                    &v.path,
                    "valid needs one of eq, min, max, any-of, expr, in-enum",
                    None,
                );
                None
            }
        }
    } else {
        ExprSrc::from_node(v, diags).map(RawValid::Eq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Option<RawSchema>, Vec<String>) {
        let mut d = Diags::new("t.ksy");
        let s = parse_schema("t.ksy", text, &mut d);
        (s, d.list.iter().map(|x| x.to_string()).collect())
    }

    #[test]
    fn keeps_positions_and_paths() {
        let (s, d) =
            parse("meta:\n  id: x\nseq:\n  - id: a\n    type: u4\n  - id: b\n    size: a * 2\n");
        assert!(d.is_empty(), "{d:?}");
        let s = s.unwrap();
        assert_eq!(s.root.name, "x");
        let b = &s.root.seq[1];
        assert_eq!(b.size.as_ref().unwrap().text, "a * 2");
        assert_eq!(b.size.as_ref().unwrap().pos, Pos { line: 7, col: 11 });
        assert_eq!(b.size.as_ref().unwrap().path, "/seq/1/size");
    }

    #[test]
    fn unknown_key_suggests() {
        let (_, d) = parse("meta:\n  id: x\nseq:\n  - id: a\n    typ: u4\n");
        assert_eq!(d, vec!["t.ksy:5:5: error: /seq/0/typ: unknown key 'typ' in a seq attribute (did you mean 'type'?)"]);
    }

    #[test]
    fn extension_keys_are_kept() {
        let (s, d) = parse("meta:\n  id: x\nseq:\n  - id: a\n    type: u4\n    -derive: b.size\n");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(s.unwrap().root.seq[0].ext[0].0, "-derive");
    }

    #[test]
    fn bad_names_and_repeat() {
        let (_, d) =
            parse("meta:\n  id: x\nseq:\n  - id: FileCount\n    type: u4\n    repeat: exprs\n");
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(
            d[0].contains("invalid name 'FileCount'") && d[0].contains("try 'file_count'"),
            "{d:?}"
        );
        assert!(d[1].contains("did you mean 'expr'?"), "{d:?}");
    }

    #[test]
    fn invalid_yaml_has_position() {
        let (s, d) = parse("meta:\n  id: [x\n");
        assert!(s.is_none());
        assert!(d[0].starts_with("t.ksy:"), "{d:?}");
        assert!(d[0].contains("not valid YAML"), "{d:?}");
    }
}
