//! Stage 1: YAML text to a raw schema that keeps positions. Nothing is resolved here: names stay names and
//! expressions stay text. Unknown keys are reported (with a suggestion); keys starting with `-` are kept for the
//! IR passes, which give them meaning.
//!
//! This module holds the raw schema's types and the entry point, [`parse_schema`]. `yaml` loads the text into
//! [`Node`]s that know their position and YAML path; `parse` reads those into the raw types, checking each key.

mod parse;
mod yaml;

pub use yaml::{load_yaml, Node, Value};

use crate::diag::{Diags, Pos};

use parse::parse_type;

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
    /// `ks-opaque-types: true`: a type name the schema does not define names a type of its own schema file.
    pub opaque_types: bool,
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
    /// `parent:` what the record's `_parent` is (`false`: none; `_parent`: the reader's own parent).
    pub parent: Option<ExprSrc>,
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

/// The type names a schema uses but defines nowhere in it (not built-in types, not `a::b` paths), where they are
/// used: the opaque types of a schema with `ks-opaque-types: true`.
pub fn opaque_type_names(root: &RawType) -> Vec<(String, Pos)> {
    fn defined(t: &RawType, out: &mut std::collections::BTreeSet<String>) {
        out.insert(t.name.clone());
        for c in &t.types {
            defined(c, out);
        }
    }
    fn builtin(name: &str) -> bool {
        let bits = name
            .strip_prefix('b')
            .map(|r| r.trim_end_matches("le").trim_end_matches("be"))
            .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
        let num = name.len() >= 2
            && matches!(name.as_bytes()[0], b'u' | b's' | b'f')
            && name[1..]
                .trim_end_matches("le")
                .trim_end_matches("be")
                .chars()
                .all(|c| c.is_ascii_digit());
        bits || num
            || matches!(
                name,
                "str" | "strz" | "bytes" | "struct" | "io" | "bool" | "any"
            )
    }
    fn used(t: &RawType, out: &mut Vec<(String, Pos)>) {
        for a in t.seq.iter().chain(t.instances.iter()) {
            let names: Vec<(String, Pos)> = match &a.ty {
                Some(RawTypeRef::Name { text, pos, .. }) => vec![(text.clone(), *pos)],
                Some(RawTypeRef::Switch { cases, .. }) => {
                    cases.iter().map(|(_, n, p)| (n.clone(), *p)).collect()
                }
                None => Vec::new(),
            };
            for (n, p) in names {
                let base = n.split('(').next().unwrap_or("").trim().to_string();
                if !base.is_empty() && !base.contains("::") && !builtin(&base) {
                    out.push((base, p));
                }
            }
        }
        for c in &t.types {
            used(c, out);
        }
    }
    let mut names = std::collections::BTreeSet::new();
    defined(root, &mut names);
    let mut out = Vec::new();
    used(root, &mut out);
    out.retain(|(n, _)| !names.contains(n));
    out.sort();
    out.dedup_by(|a, b| a.0 == b.0);
    out
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
