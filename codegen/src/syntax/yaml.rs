//! YAML text to [`Node`]s: every value with its position and YAML path. Integers beyond `i64` are read from their
//! source text (YAML reads them as floats); aliases are refused and nesting is limited to 128 levels.

use saphyr::{LoadableYamlNode, MarkedYaml, Scalar, YamlData};

use crate::diag::{Diags, Pos};

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
