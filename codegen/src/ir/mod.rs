//! Stage 2: the resolved, checked IR. Built from the raw schema by named passes, each adding diagnostics:
//! `collect_types` (flatten nested types, give them Rust names, find each type's parent), `resolve_fields` (type
//! names, expressions parsed), `classify` (which bytes are data, layout, constant or derived, per DEVELOPERS.md
//! principle 1), `static_layout` (offsets and sizes where they are static).

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::{did_you_mean, Diags, Pos};
use crate::expr::{self, BinOp, Expr, ExprKind};
use crate::syntax::{
    ExprSrc, Node, RawAttr, RawEndian, RawRepeat, RawSchema, RawType, RawTypeRef, RawValid, Value,
};

/// A parsed expression with its source text and position.
#[derive(Debug, Clone, PartialEq)]
pub struct Ex {
    pub expr: Expr,
    pub text: String,
    pub pos: Pos,
    pub path: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endian {
    Le,
    Be,
}

/// How a type knows its byte order.
#[derive(Debug, Clone, PartialEq)]
pub enum EndianSpec {
    /// Taken from the type that reads it (or little-endian at the root when nothing says otherwise).
    Inherit,
    Fixed(Endian),
    /// Chosen by an expression when read; a model field when written.
    Switch {
        on: Ex,
        cases: Vec<(Ex, Endian)>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum FieldTy {
    /// An integer of 1..=8 bytes. `endian` is `None` when the type's byte order applies.
    Int {
        bytes: u8,
        signed: bool,
        endian: Option<Endian>,
    },
    Float {
        bytes: u8,
        endian: Option<Endian>,
    },
    /// `bN`: an unsigned integer of N bits (`b1` is a bool), in the type's bit order (`le`: least significant
    /// bit first).
    Bits {
        n: u8,
        le: bool,
    },
    /// Raw bytes (`size`, `size-eos`, `terminator`).
    Bytes,
    /// A string (`str`/`strz`), in an encoding.
    Str {
        encoding: String,
        zero_terminated: bool,
    },
    /// A user type, with arguments for its params.
    User {
        ty: usize,
        args: Vec<Ex>,
    },
    /// A type chosen by an expression.
    Switch {
        on: Ex,
        cases: Vec<SwitchCase>,
    },
    /// A value instance; its type comes from the expression.
    Value,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SwitchCase {
    /// `None` for `_` (the default case).
    pub key: Option<Ex>,
    /// The user type, or `usize::MAX` for a built-in type (then `prim` holds it).
    pub ty: usize,
    /// Arguments for the user type's params.
    pub args: Vec<Ex>,
    /// A built-in case type (`u4`, `strz`, ...).
    pub prim: Option<FieldTy>,
    /// The Rust variant; cases with the same type share one.
    pub variant: String,
}

impl SwitchCase {
    /// The user type, if the case is one.
    pub fn user(&self) -> Option<usize> {
        (self.ty != usize::MAX).then_some(self.ty)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Repeat {
    None,
    Eos,
    Expr(Ex),
    Until(Ex),
}

/// What a field's bytes are, from the writer's point of view.
#[derive(Debug, Clone, PartialEq)]
pub enum Role {
    /// What the user edits: a model field.
    Data,
    /// Fixed bytes (`contents`) or a value that `valid` pins down.
    Const(ConstVal),
    /// The length of the repeated field named here.
    Count { of: String },
    /// The size of the field or instance named here.
    Length { of: String },
    /// Solved from the `pos` of the instance named here, once it is placed.
    Offset { of: String },
    /// Computed by the `-derive` expression; kept in the model only where a file disagrees.
    Derive(Ex),
    /// A region where a pool's items are written.
    Pool(PoolUse),
    /// An instance that is only read (a view on bytes that something else writes: what decides the byte order
    /// or which type a switch reads).
    View,
    /// An instance read from its `pos` that is data: written back at the position its `pos` gives.
    Placed,
    /// A value instance: computed, never written.
    Computed,
    /// A value instance marked `-data: TYPE`: computed from the fields when reading and kept in the model as an
    /// integer of that type; when writing, the model's value is used wherever the instance is named (typically in
    /// the `-derive` of the field it was computed from, so that the field keeps the part the model cannot derive).
    Kept,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ConstVal {
    Bytes(Vec<u8>),
    Int(i128),
}

#[derive(Debug, Clone, PartialEq)]
pub struct PoolUse {
    pub pool: usize,
    /// For a pool region: the layout field that holds its start alignment.
    pub align_field: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PoolDef {
    pub id: String,
    /// Default alignment of each item.
    pub item_align: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: String,
    pub doc: Option<String>,
    pub pos: Pos,
    pub path: String,
    pub ty: FieldTy,
    pub repeat: Repeat,
    pub cond: Option<Ex>,
    pub role: Role,
    pub valid: Option<Valid>,
    pub enum_: Option<usize>,
    pub size: Option<Ex>,
    pub size_eos: bool,
    pub terminator: Option<u8>,
    pub consume: bool,
    pub include: bool,
    pub eos_error: bool,
    pub pad_right: Option<u8>,
    pub contents: Option<Vec<u8>>,
    pub is_instance: bool,
    pub pos_expr: Option<Ex>,
    pub io: Option<Ex>,
    pub value: Option<Ex>,
    /// `-pool` on an instance: placed as an item of this pool.
    pub item_of: Option<usize>,
    pub sort_by: Option<Ex>,
    /// `process:` applied to the bytes read (and undone when writing).
    pub process: Option<Process>,
    pub default: Option<Ex>,
    /// `-eager: true` on an instance whose type can contain its own type again (a tree linked by offsets): read
    /// when its parent is read and kept in the model, like every other positioned instance, instead of being left
    /// out as a view. Reading is bounded by the nesting depth and by a budget of followed instances.
    pub eager: bool,
    /// `-scan`: the field has no stored length; it ends where a tag is found.
    pub scan: Option<Scan>,
    /// `-view: true` on an instance: only read, never written (what it reads is written by something else).
    pub view: bool,
    /// `-data: TYPE` on a value instance: kept in the model as an integer of that type (see [`Role::Kept`]).
    pub data: bool,
    /// `-hook: NAME` on a value instance: binspec computes it with the hand-written function
    /// `crate::hooks::<schema id>::NAME(stream bytes)` instead of its `value` expression, which stays for Kaitai's
    /// tools (for what Kaitai's expressions cannot say, such as a vote over every element of an array).
    pub hook: Option<String>,
}

/// `-scan: {tag: BYTES | tags: [BYTES...], step: N, or-eos: BOOL}` on a `repeat: eos` attribute: the attribute's
/// bytes end where one of the tags begins, looking at every `step`-th offset from the attribute's start (or at the
/// end of the stream, with `or-eos`). The writer checks that the data contains no tag at such an offset.
#[derive(Debug, Clone, PartialEq)]
pub struct Scan {
    pub tags: Vec<Vec<u8>>,
    pub step: u64,
    pub or_eos: bool,
}

/// A `process:` transformation.
#[derive(Debug, Clone, PartialEq)]
pub enum Process {
    /// XOR with a byte (integer key) or a repeating byte string.
    Xor(Ex),
    /// Rotate each byte left by the given number of bits.
    Rol(Ex),
    /// Rotate each byte right.
    Ror(Ex),
    /// zlib-compressed data.
    Zlib,
}

fn parse_process(src: &ExprSrc, diags: &mut Diags) -> Option<Process> {
    let text = src.text.trim();
    let (name, arg) = match text.find('(') {
        Some(i) if text.ends_with(')') => (&text[..i], Some(&text[i + 1..text.len() - 1])),
        _ => (text, None),
    };
    let arg_ex = |diags: &mut Diags| {
        arg.and_then(|a| {
            parse_ex(
                &ExprSrc {
                    text: a.to_string(),
                    pos: src.pos,
                    path: src.path.clone(),
                },
                diags,
            )
        })
    };
    match (name, arg) {
        ("xor", Some(_)) => arg_ex(diags).map(Process::Xor),
        ("rol", Some(_)) => arg_ex(diags).map(Process::Rol),
        ("ror", Some(_)) => arg_ex(diags).map(Process::Ror),
        ("zlib", None) => Some(Process::Zlib),
        _ => {
            diags.error(
                src.pos,
                &src.path,
                format!("unknown process '{text}'"),
                Some("binspec knows xor(key), rol(n), ror(n) and zlib".into()),
            );
            None
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Valid {
    /// `valid: in-enum`: the value must be one the enum names.
    InEnum,
    Eq(Ex),
    Min(Ex),
    Max(Ex),
    Range(Option<Ex>, Option<Ex>),
    AnyOf(Vec<Ex>),
    Expr(Ex),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub name: String,
    pub ty: FieldTy,
    /// `enum:` on an integer parameter.
    pub enum_: Option<usize>,
    pub doc: Option<String>,
}

/// A model field that is not in the bytes: a layout choice with a default.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutField {
    pub name: String,
    pub default: i128,
    pub doc: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TypeDef {
    pub name: String,
    /// Names from the root down, the root's id first.
    pub path: Vec<String>,
    pub rust: String,
    pub doc: Option<String>,
    pub doc_ref: Vec<String>,
    pub params: Vec<Param>,
    pub seq: Vec<Field>,
    pub instances: Vec<Field>,
    pub parent: Option<usize>,
    pub endian: EndianSpec,
    pub layout: Vec<LayoutField>,
    /// `-wiki`: the wiki tables this type transcribes.
    pub wiki: Vec<WikiRef>,
    pub pos: Pos,
}

/// Where a type or enum comes from on a wiki (`-wiki: {page, section, caption, table}` on a type, or under
/// `-wiki-enums: {ENUM: ...}` on the type that declares the enum). `binspec wiki drift` compares the two.
#[derive(Debug, Clone, PartialEq)]
pub struct WikiRef {
    /// The page's title as the wiki (or dump) names it.
    pub page: String,
    /// The heading the table sits under: the nearest heading, or a path of headings joined by ` > `.
    pub section: String,
    /// The table's caption, when the section holds several tables.
    pub caption: Option<String>,
    /// 1-based: which of the tables that match `section` (and `caption`) it is.
    pub table: Option<usize>,
    /// The table offset where this type starts (`from: 0x4`): rows before it belong to the type that reads this
    /// one (a container's header that the schema reads elsewhere).
    pub from: u64,
    pub pos: Pos,
    pub path: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EnumDef {
    pub name: String,
    pub owner: usize,
    pub rust: String,
    pub values: Vec<(i128, String, Option<String>)>,
    /// `-wiki-enums` on the owner: the wiki tables this enum transcribes.
    pub wiki: Vec<WikiRef>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ArchiveSpec {
    pub entries: Vec<String>,
    pub name: String,
    pub data: String,
    /// The entry's field that stands for its name where it has none (SARC's name hash), if any.
    pub hash: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct InfoSpec {
    pub version: Option<Ex>,
    pub summary: Vec<(String, Ex)>,
}

/// One schema, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    pub id: String,
    pub file: String,
    pub title: Option<String>,
    pub source: Option<String>,
    pub extensions: Vec<String>,
    pub doc: Option<String>,
    pub doc_ref: Vec<String>,
    /// The root is type 0.
    pub types: Vec<TypeDef>,
    pub enums: Vec<EnumDef>,
    pub pools: Vec<PoolDef>,
    pub archive: Option<ArchiveSpec>,
    pub info: InfoSpec,
    pub magic: Option<Vec<u8>>,
    /// Further magics that identify the format (`-binspec: magic:`), for formats whose first field is not fixed.
    pub magics: Vec<Vec<u8>>,
    /// Where the magic is (`-binspec: magic-at: N`): then the magic is the root's first `contents` attribute, which
    /// the schema says starts at that offset (formats that begin with data, such as a name).
    pub magic_at: u64,
    /// The format id that tools use (`-binspec: id:`; the schema's `meta/id` by default, which must be a Rust-like
    /// identifier while a format id may contain `-`).
    pub format_id: String,
    /// `-binspec: text-format: NAME`: a text format whose reader, writer and docs page are hand-written; the schema
    /// holds the tables they use.
    pub text_format: Option<String>,
    /// For each type, the one type that reads it (Kaitai's `_parent`), if exactly one does.
    pub owners: Vec<Option<usize>>,
}

/// How deep the static-size functions follow user types before giving up.
const MAX_STATIC_DEPTH: usize = 16;

impl Module {
    /// Bytes one element of a field takes, when known without reading.
    pub fn static_elem_size(&self, f: &Field) -> Option<u64> {
        self.elem_size_at(f, 0)
    }

    /// Bytes a field takes, when known without reading (ignores `if`).
    pub fn static_field_size(&self, f: &Field) -> Option<u64> {
        self.field_size_at(f, 0)
    }

    /// How far a field moves the position, when known without reading (a conditional field never is).
    pub fn static_advance(&self, f: &Field) -> Option<u64> {
        self.advance_at(f, 0)
    }

    /// The size of a type whose whole `seq` is static.
    pub fn static_type_size(&self, ti: usize) -> Option<u64> {
        self.type_size_at(ti, 0)
    }

    fn field_size_at(&self, f: &Field, depth: usize) -> Option<u64> {
        let one = self.elem_size_at(f, depth)?;
        match &f.repeat {
            Repeat::None => Some(one),
            Repeat::Expr(x) => const_int(&x.expr)
                .and_then(|n| u64::try_from(n).ok())
                .map(|n| n * one),
            _ => None,
        }
    }

    fn elem_size_at(&self, f: &Field, depth: usize) -> Option<u64> {
        if let Some(c) = &f.contents {
            return Some(c.len() as u64);
        }
        if let Some(s) = &f.size {
            return const_int(&s.expr).and_then(|n| u64::try_from(n).ok());
        }
        match &f.ty {
            FieldTy::Int { bytes, .. } | FieldTy::Float { bytes, .. } => Some(u64::from(*bytes)),
            FieldTy::User { ty, .. } => self.type_size_at(*ty, depth + 1),
            _ => None,
        }
    }

    fn advance_at(&self, f: &Field, depth: usize) -> Option<u64> {
        if f.cond.is_some() {
            return None;
        }
        self.field_size_at(f, depth)
    }

    fn type_size_at(&self, ti: usize, depth: usize) -> Option<u64> {
        if depth > MAX_STATIC_DEPTH {
            return None;
        }
        self.types[ti]
            .seq
            .iter()
            .try_fold(0u64, |acc, f| self.advance_at(f, depth).map(|s| acc + s))
    }

    pub fn root(&self) -> &TypeDef {
        &self.types[0]
    }
    pub fn field(&self, ty: usize, name: &str) -> Option<&Field> {
        let t = &self.types[ty];
        t.seq
            .iter()
            .chain(t.instances.iter())
            .find(|f| f.name == name)
    }
}

/// CamelCase from snake_case.
pub fn camel(s: &str) -> String {
    s.split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

fn parse_ex(src: &ExprSrc, diags: &mut Diags) -> Option<Ex> {
    match expr::parse(&src.text) {
        Ok(e) => Some(Ex {
            expr: e,
            text: src.text.clone(),
            pos: src.pos,
            path: src.path.clone(),
        }),
        Err(e) => {
            diags.error(
                src.pos,
                &src.path,
                format!("bad expression '{}': {}", src.text, e.message),
                None,
            );
            None
        }
    }
}

fn ext_get<'a>(ext: &'a [(String, Node)], key: &str) -> Option<&'a Node> {
    ext.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

const FIELD_EXT: &[&str] = &[
    "-derive", "-pool", "-sort-by", "-default", "-orig-id", "-eager", "-scan", "-view", "-data",
    "-hook",
];

/// Reads `-scan`, reporting what is wrong with it.
fn parse_scan(n: &Node, repeat_eos: bool, diags: &mut Diags) -> Option<Scan> {
    let usage = "'-scan' takes a map: {tag: TEXT} or {tags: [TEXT, ...]}, with optional step: N (default 1) and or-eos: true|false";
    if n.as_map().is_none() {
        diags.error(n.pos, &n.path, usage, None);
        return None;
    }
    if let Some((k, _)) = n.as_map().unwrap_or_default().iter().find(|(k, _)| {
        !matches!(
            k.scalar_text().as_deref(),
            Some("tag" | "tags" | "step" | "or-eos")
        )
    }) {
        let key = k.scalar_text().unwrap_or_default();
        diags.error(
            k.pos,
            &n.path,
            format!("unknown key '{key}' in '-scan'"),
            did_you_mean(&key, ["tag", "tags", "step", "or-eos"]),
        );
        return None;
    }
    let mut tags = Vec::new();
    match (n.get("tag"), n.get("tags")) {
        (Some(t), None) => tags.extend(t.scalar_text().map(String::into_bytes)),
        (
            None,
            Some(Node {
                value: Value::Seq(items),
                ..
            }),
        ) => tags.extend(
            items
                .iter()
                .filter_map(|t| t.scalar_text().map(String::into_bytes)),
        ),
        _ => {
            diags.error(n.pos, &n.path, usage, None);
            return None;
        }
    }
    if tags.is_empty() || tags.iter().any(|t| t.is_empty()) {
        diags.error(
            n.pos,
            &n.path,
            "'-scan' needs at least one tag, and no empty tag",
            None,
        );
        return None;
    }
    let step = match n.get("step").map(|s| &s.value) {
        None => 1,
        Some(Value::Int(i)) if *i >= 1 && *i <= 4096 => *i as u64,
        Some(_) => {
            diags.error(
                n.pos,
                &n.path,
                "'-scan' step must be an integer from 1 to 4096",
                None,
            );
            return None;
        }
    };
    let or_eos = match n.get("or-eos").map(|s| &s.value) {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            diags.error(n.pos, &n.path, "'-scan' or-eos must be true or false", None);
            return None;
        }
    };
    if !repeat_eos {
        diags.error(
            n.pos,
            &n.path,
            "'-scan' needs 'repeat: eos' (the scan decides where the stream of elements ends)",
            None,
        );
        return None;
    }
    Some(Scan { tags, step, or_eos })
}
const TYPE_EXT: &[&str] = &["-layout", "-orig-id", "-wiki", "-wiki-enums"];

/// Reads a `-wiki` value: one `{page, section, caption, table}` map or a list of them.
fn parse_wiki(n: &Node, diags: &mut Diags) -> Vec<WikiRef> {
    let usage = "'-wiki' takes {page: TITLE, section: HEADING} (optional caption: TEXT, table: N, from: OFFSET), or a list of them";
    let items: Vec<&Node> = match &n.value {
        Value::Seq(xs) => xs.iter().collect(),
        Value::Map(_) => vec![n],
        _ => {
            diags.error(n.pos, &n.path, usage, None);
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for it in items {
        let Some(m) = it.as_map() else {
            diags.error(it.pos, &it.path, usage, None);
            continue;
        };
        const KEYS: &[&str] = &["page", "section", "caption", "table", "from"];
        for (k, v) in m {
            let k = k.scalar_text().unwrap_or_default();
            if !KEYS.contains(&k.as_str()) {
                diags.error(
                    v.pos,
                    &v.path,
                    format!("unknown key '{k}' in '-wiki'"),
                    did_you_mean(&k, KEYS.iter().copied()),
                );
            }
        }
        let text = |k: &str| it.get(k).and_then(|x| x.scalar_text());
        let (Some(page), Some(section)) = (text("page"), text("section")) else {
            diags.error(
                it.pos,
                &it.path,
                "'-wiki' needs both 'page' and 'section'",
                Some(usage.into()),
            );
            continue;
        };
        let table = match it.get("table").map(|t| &t.value) {
            None => None,
            Some(Value::Int(i)) if *i >= 1 && *i < 1000 => Some(*i as usize),
            Some(_) => {
                let t = it.get("table").expect("present");
                diags.error(
                    t.pos,
                    &t.path,
                    "'table' is a 1-based table number among the section's tables",
                    None,
                );
                None
            }
        };
        let from = match it.get("from").map(|t| &t.value) {
            None => 0,
            Some(Value::Int(i)) if *i >= 0 && *i < 1 << 32 => *i as u64,
            Some(_) => {
                let t = it.get("from").expect("present");
                diags.error(
                    t.pos,
                    &t.path,
                    "'from' is the table offset where the type starts",
                    None,
                );
                0
            }
        };
        out.push(WikiRef {
            page,
            section,
            caption: text("caption"),
            table,
            from,
            pos: it.pos,
            path: it.path.clone(),
        });
    }
    out
}
const META_EXT: &[&str] = &["-binspec"];

fn check_ext(ext: &[(String, Node)], allowed: &[&str], what: &str, diags: &mut Diags) {
    for (k, v) in ext {
        if !allowed.contains(&k.as_str()) {
            diags.error(
                v.pos,
                &v.path,
                format!("unknown binspec key '{k}' on {what}"),
                did_you_mean(k, allowed.iter().copied()),
            );
        }
    }
}

fn node_ex(n: &Node, diags: &mut Diags) -> Option<Ex> {
    let text = n.scalar_text()?;
    parse_ex(
        &ExprSrc {
            text,
            pos: n.pos,
            path: n.path.clone(),
        },
        diags,
    )
}

/// Builds the IR of one schema.
pub fn build(raw: &RawSchema, imports: &[RawSchema], diags: &mut Diags) -> Option<Module> {
    let mut b = Builder {
        types: Vec::new(),
        raw_types: Vec::new(),
        enums: Vec::new(),
        pools: Vec::new(),
    };
    // Pass: collect_types.
    b.collect(&raw.root, None, Vec::new(), diags);
    // Imported schemas' types come after this schema's own, under their ids.
    for imp in imports {
        b.collect(&imp.root, None, Vec::new(), diags);
    }
    // Pass: resolve_fields.
    for i in 0..b.raw_types.len() {
        let rt = b.raw_types[i].clone();
        b.resolve_type(i, &rt, diags);
    }
    let meta = raw.root.meta.clone().unwrap_or_default();
    check_ext(&meta.ext, META_EXT, "meta", diags);
    let mut module = Module {
        id: raw.root.name.clone(),
        file: raw.file.clone(),
        title: meta.title.clone(),
        source: None,
        extensions: meta.file_extension.clone(),
        doc: raw.root.doc.clone(),
        doc_ref: raw.root.doc_ref.clone(),
        types: b.types,
        enums: b.enums,
        pools: b.pools,
        archive: None,
        info: InfoSpec::default(),
        magic: None,
        magics: Vec::new(),
        magic_at: 0,
        format_id: raw.root.name.clone(),
        text_format: None,
        owners: Vec::new(),
    };
    if let Some(bs) = ext_get(&meta.ext, "-binspec") {
        module.source = bs.get("source").and_then(|s| s.scalar_text());
        if let Some(id) = bs.get("id").and_then(|s| s.scalar_text()) {
            module.format_id = id;
        }
        module.text_format = bs.get("text-format").and_then(|s| s.scalar_text());
        match bs.get("magic-at").map(|m| &m.value) {
            None => {}
            Some(Value::Int(i)) if *i >= 0 && *i < 1 << 20 => module.magic_at = *i as u64,
            Some(_) => {
                let n = bs.get("magic-at").unwrap();
                diags.error(
                    n.pos,
                    &n.path,
                    "'magic-at' must be a byte offset (an integer)",
                    None,
                );
            }
        }
        if let Some(Value::Seq(ms)) = bs.get("magic").map(|m| &m.value) {
            module.magics = ms
                .iter()
                .filter_map(|m| m.scalar_text())
                .map(|s| s.into_bytes())
                .collect();
        }
        if let Some(a) = bs.get("archive") {
            let s = |k: &str| a.get(k).and_then(|x| x.scalar_text()).unwrap_or_default();
            module.archive = Some(ArchiveSpec {
                entries: s("entries").split('.').map(str::to_string).collect(),
                name: s("name"),
                data: s("data"),
                hash: Some(s("hash")).filter(|h| !h.is_empty()),
            });
        }
        if let Some(i) = bs.get("info") {
            module.info.version = i.get("version").and_then(|v| node_ex(v, diags));
            if let Some(m) = i.get("summary").and_then(|s| s.as_map()) {
                for (k, v) in m {
                    if let Some(e) = node_ex(v, diags) {
                        module
                            .info
                            .summary
                            .push((k.scalar_text().unwrap_or_default(), e));
                    }
                }
            }
        }
    }
    // The magic: leading `contents` of the root (with `magic-at`, its first `contents`, at that offset).
    module.magic = if module.magic_at > 0 {
        module.root().seq.iter().find_map(|f| f.contents.clone())
    } else {
        module.root().seq.first().and_then(|f| f.contents.clone())
    };
    // Pass: owners (who reads each type, for `_parent`).
    module.owners = owners(&module);
    // Pass: classify.
    classify(&mut module, diags);
    // Pass: typecheck.
    crate::check::typecheck(&module, diags);
    if diags.has_errors() {
        None
    } else {
        Some(module)
    }
}

struct Builder {
    types: Vec<TypeDef>,
    raw_types: Vec<RawType>,
    enums: Vec<EnumDef>,
    pools: Vec<PoolDef>,
}

impl Builder {
    fn collect(
        &mut self,
        rt: &RawType,
        parent: Option<usize>,
        mut path: Vec<String>,
        diags: &mut Diags,
    ) -> usize {
        path.push(rt.name.clone());
        let idx = self.types.len();
        // Types with the same name in different scopes get their enclosing types' names in front.
        let mut rust = camel(&rt.name);
        if self.types.iter().any(|t| t.rust == rust) || self.enums.iter().any(|e| e.rust == rust) {
            rust = camel(&path.join("_"));
        }
        if self.types.iter().any(|t| t.path == path) {
            diags.error(
                rt.pos,
                &rt.path,
                format!("type '{}' is defined twice", rt.name),
                Some("give one of them another name".into()),
            );
        }
        check_ext(&rt.ext, TYPE_EXT, "a type", diags);
        let mut layout = Vec::new();
        if let Some(l) = ext_get(&rt.ext, "-layout").and_then(|n| n.as_map()) {
            for (k, v) in l {
                let default = match v.get("default").map(|d| &d.value) {
                    Some(Value::Int(i)) => *i,
                    _ => 0,
                };
                layout.push(LayoutField {
                    name: k.scalar_text().unwrap_or_default(),
                    default,
                    doc: v.get("doc").and_then(|d| d.scalar_text()),
                });
            }
        }
        let endian = match rt.meta.as_ref().and_then(|m| m.endian.clone()) {
            None => EndianSpec::Inherit,
            Some(RawEndian::Fixed { le, .. }) => {
                EndianSpec::Fixed(if le { Endian::Le } else { Endian::Be })
            }
            Some(RawEndian::Switch { on, cases }) => {
                let on = parse_ex(&on, diags);
                let cases = cases
                    .iter()
                    .filter_map(|(k, le, _)| {
                        parse_ex(k, diags).map(|e| (e, if *le { Endian::Le } else { Endian::Be }))
                    })
                    .collect();
                match on {
                    Some(on) => EndianSpec::Switch { on, cases },
                    None => EndianSpec::Inherit,
                }
            }
        };
        self.types.push(TypeDef {
            name: rt.name.clone(),
            path: path.clone(),
            rust,
            doc: rt.doc.clone(),
            doc_ref: rt.doc_ref.clone(),
            params: Vec::new(),
            seq: Vec::new(),
            instances: Vec::new(),
            parent,
            endian,
            layout,
            wiki: ext_get(&rt.ext, "-wiki")
                .map(|n| parse_wiki(n, diags))
                .unwrap_or_default(),
            pos: rt.pos,
        });
        self.raw_types.push(rt.clone());
        let enum_wiki = ext_get(&rt.ext, "-wiki-enums");
        if let Some(w) = enum_wiki {
            match w.as_map() {
                Some(m) => {
                    for (k, v) in m {
                        let k = k.scalar_text().unwrap_or_default();
                        if !rt.enums.iter().any(|e| e.name == k) {
                            diags.error(
                                v.pos,
                                &v.path,
                                format!("'-wiki-enums' names '{k}', which this type does not declare"),
                                did_you_mean(&k, rt.enums.iter().map(|e| e.name.as_str())),
                            );
                        }
                    }
                }
                None => diags.error(
                    w.pos,
                    &w.path,
                    "'-wiki-enums' maps enum names to their wiki tables: {ENUM: {page: TITLE, section: HEADING}}",
                    None,
                ),
            }
        }
        for e in &rt.enums {
            self.enums.push(EnumDef {
                name: e.name.clone(),
                owner: idx,
                rust: {
                    let plain = camel(&e.name);
                    if self.enums.iter().any(|x| x.rust == plain)
                        || self.types.iter().any(|t| t.rust == plain)
                    {
                        camel(&format!("{}_{}", path.join("_"), e.name))
                    } else {
                        plain
                    }
                },
                values: e
                    .values
                    .iter()
                    .map(|v| (v.value, v.id.clone(), v.doc.clone()))
                    .collect(),
                wiki: enum_wiki
                    .and_then(|w| w.get(&e.name))
                    .map(|n| parse_wiki(n, diags))
                    .unwrap_or_default(),
            });
        }
        for sub in &rt.types {
            self.collect(sub, Some(idx), path.clone(), diags);
        }
        idx
    }

    /// Finds a type by name as seen from type `from` (its own nested types, then its ancestors').
    fn find_type(&self, from: usize, name: &str) -> Option<usize> {
        let parts: Vec<&str> = name.split("::").collect();
        let mut scope = Some(from);
        while let Some(s) = scope {
            let base = &self.types[s].path;
            let mut want = base.clone();
            want.extend(parts.iter().map(|p| p.to_string()));
            if let Some(i) = self.types.iter().position(|t| t.path == want) {
                return Some(i);
            }
            scope = self.types[s].parent;
        }
        // A type named at the root level (the root's own name, or an imported schema's), or a full path from one.
        self.types
            .iter()
            .position(|t| t.name == name && t.parent.is_none())
            .or_else(|| self.types.iter().position(|t| t.path == parts))
    }

    fn find_enum(&self, from: usize, name: &str) -> Option<usize> {
        if let Some((owner, enum_name)) = name.rsplit_once("::") {
            let owner = self.find_type(from, owner)?;
            return self
                .enums
                .iter()
                .position(|e| e.owner == owner && e.name == enum_name);
        }
        let mut scope = Some(from);
        while let Some(s) = scope {
            if let Some(i) = self
                .enums
                .iter()
                .position(|e| e.owner == s && e.name == name)
            {
                return Some(i);
            }
            scope = self.types[s].parent;
        }
        None
    }

    /// Whether bit fields of a type are little-endian (`meta: bit-endian: le` on it or an enclosing type).
    fn bit_le(&self, idx: usize) -> bool {
        let mut scope = Some(idx);
        while let Some(s) = scope {
            if let Some((le, _)) = self.raw_types[s].meta.as_ref().and_then(|m| m.bit_endian) {
                return le;
            }
            scope = self.types[s].parent;
        }
        false
    }

    fn pool_index(&mut self, id: &str) -> usize {
        match self.pools.iter().position(|p| p.id == id) {
            Some(i) => i,
            None => {
                self.pools.push(PoolDef {
                    id: id.to_string(),
                    item_align: 1,
                });
                self.pools.len() - 1
            }
        }
    }

    fn resolve_type(&mut self, idx: usize, rt: &RawType, diags: &mut Diags) {
        let mut params = Vec::new();
        for p in &rt.params {
            let ty = match p.ty.as_deref() {
                Some(t) => self
                    .prim_or_user(idx, t, &p.path, p.pos, self.bit_le(idx), None, diags)
                    .unwrap_or(FieldTy::Value),
                None => FieldTy::Value,
            };
            let enum_ = p.enum_.as_deref().and_then(|e| self.find_enum(idx, e));
            params.push(Param {
                name: p.id.clone(),
                ty,
                enum_,
                doc: p.doc.clone(),
            });
        }
        self.types[idx].params = params;
        let seq: Vec<Field> = rt
            .seq
            .iter()
            .filter_map(|a| self.resolve_attr(idx, rt, a, false, diags))
            .collect();
        let inst: Vec<Field> = rt
            .instances
            .iter()
            .filter_map(|a| self.resolve_attr(idx, rt, a, true, diags))
            .collect();
        let mut seen = BTreeSet::new();
        for f in seq.iter().chain(inst.iter()) {
            if !seen.insert(f.name.clone()) {
                diags.error(
                    f.pos,
                    &f.path,
                    format!("'{}' is defined twice in type '{}'", f.name, rt.name),
                    None,
                );
            }
        }
        self.types[idx].seq = seq;
        self.types[idx].instances = inst;
    }

    #[allow(clippy::too_many_arguments)]
    fn prim_or_user(
        &mut self,
        idx: usize,
        text: &str,
        path: &str,
        pos: Pos,
        bit_le: bool,
        encoding: Option<&str>,
        diags: &mut Diags,
    ) -> Option<FieldTy> {
        let (name, args) = match text.find('(') {
            Some(i) if text.ends_with(')') => (&text[..i], Some(&text[i + 1..text.len() - 1])),
            _ => (text, None),
        };
        if let Some(t) = prim_type(name, encoding) {
            return Some(match t {
                FieldTy::Bits { n, .. } => FieldTy::Bits { n, le: bit_le },
                t => t,
            });
        }
        match self.find_type(idx, name) {
            Some(ty) => {
                let mut a = Vec::new();
                if let Some(args) = args {
                    for (i, part) in split_args(args).into_iter().enumerate() {
                        if let Some(e) = parse_ex(
                            &ExprSrc {
                                text: part,
                                pos,
                                path: format!("{path}[arg {i}]"),
                            },
                            diags,
                        ) {
                            a.push(e);
                        }
                    }
                }
                Some(FieldTy::User { ty, args: a })
            }
            None => {
                let mut names: Vec<String> = PRIMS.iter().map(|s| s.to_string()).collect();
                names.extend(self.types.iter().map(|t| t.name.clone()));
                diags.error(
                    pos,
                    path,
                    format!("unknown type '{name}'"),
                    did_you_mean(name, names.iter().map(|s| s.as_str())),
                );
                None
            }
        }
    }

    fn resolve_attr(
        &mut self,
        idx: usize,
        rt: &RawType,
        a: &RawAttr,
        is_instance: bool,
        diags: &mut Diags,
    ) -> Option<Field> {
        check_ext(
            &a.ext,
            FIELD_EXT,
            if is_instance {
                "an instance"
            } else {
                "a seq attribute"
            },
            diags,
        );
        let enc = a
            .encoding
            .clone()
            .or_else(|| rt.meta.as_ref().and_then(|m| m.encoding.clone()))
            .or_else(|| {
                // Inherit the root's default encoding.
                self.raw_types
                    .first()
                    .and_then(|r| r.meta.as_ref())
                    .and_then(|m| m.encoding.clone())
            });
        // `-data: TYPE` on a value instance: an integer kept in the model.
        let data_ty = match ext_get(&a.ext, "-data") {
            None => None,
            Some(n) => {
                let t = match (&n.value, is_instance && a.value.is_some()) {
                    (Value::Str(t), true) => match prim_type(t, None) {
                        Some(FieldTy::Int { bytes, signed, .. }) => Some(FieldTy::Int {
                            bytes,
                            signed,
                            endian: None,
                        }),
                        _ => None,
                    },
                    _ => None,
                };
                if t.is_none() {
                    diags.error(
                        n.pos,
                        &n.path,
                        "'-data' takes an integer type (u1, u2, u4, u8, s1, ...), on a value instance",
                        Some("for example '-data: u1'".into()),
                    );
                }
                t
            }
        };
        let ty = match &a.ty {
            None if a.value.is_some() => data_ty.clone().unwrap_or(FieldTy::Value),
            None => FieldTy::Bytes,
            Some(RawTypeRef::Name { text, pos, path }) => {
                let t = self.prim_or_user(
                    idx,
                    text,
                    path,
                    *pos,
                    self.bit_le(idx),
                    enc.as_deref(),
                    diags,
                )?;
                if let FieldTy::Str { encoding, .. } = &t {
                    if encoding.is_empty() {
                        diags.error(
                            *pos,
                            path,
                            "a string needs an encoding",
                            Some("add 'encoding: UTF-8' here or in meta".into()),
                        );
                    }
                }
                t
            }
            Some(RawTypeRef::Switch { on, cases }) => {
                let on = parse_ex(on, diags)?;
                let mut cs = Vec::new();
                for (k, tn, pos) in cases {
                    let case_ty = self.prim_or_user(
                        idx,
                        tn,
                        &k.path,
                        *pos,
                        self.bit_le(idx),
                        enc.as_deref(),
                        diags,
                    )?;
                    let key = if k.text == "_" {
                        None
                    } else {
                        Some(parse_ex(k, diags)?)
                    };
                    let base_name = tn.split('(').next().unwrap_or(tn).replace("::", "_");
                    match case_ty {
                        FieldTy::User { ty, args } => {
                            let variant = camel(&self.types[ty].name);
                            cs.push(SwitchCase {
                                key,
                                ty,
                                args,
                                prim: None,
                                variant,
                            });
                        }
                        prim => cs.push(SwitchCase {
                            key,
                            ty: usize::MAX,
                            args: Vec::new(),
                            prim: Some(prim),
                            variant: camel(&base_name),
                        }),
                    }
                }
                FieldTy::Switch { on, cases: cs }
            }
        };
        let e =
            |x: &Option<ExprSrc>, diags: &mut Diags| x.as_ref().and_then(|s| parse_ex(s, diags));
        let repeat = match &a.repeat {
            None => Repeat::None,
            Some(RawRepeat::Eos) => Repeat::Eos,
            Some(RawRepeat::Expr(x)) => Repeat::Expr(parse_ex(x, diags)?),
            Some(RawRepeat::Until(x)) => Repeat::Until(parse_ex(x, diags)?),
        };
        let valid = match &a.valid {
            None => None,
            Some(RawValid::Eq(x)) => Some(Valid::Eq(parse_ex(x, diags)?)),
            Some(RawValid::Min(x)) => Some(Valid::Min(parse_ex(x, diags)?)),
            Some(RawValid::Max(x)) => Some(Valid::Max(parse_ex(x, diags)?)),
            Some(RawValid::Range(x, y)) => Some(Valid::Range(e(x, diags), e(y, diags))),
            Some(RawValid::AnyOf(xs)) => Some(Valid::AnyOf(
                xs.iter().filter_map(|x| parse_ex(x, diags)).collect(),
            )),
            Some(RawValid::Expr(x)) => Some(Valid::Expr(parse_ex(x, diags)?)),
            Some(RawValid::InEnum) => Some(Valid::InEnum),
        };
        let enum_ = match &a.enum_ {
            Some((name, pos)) => match self.find_enum(idx, name) {
                Some(i) => Some(i),
                None => {
                    diags.error(
                        *pos,
                        &a.path,
                        format!("unknown enum '{name}'"),
                        did_you_mean(name, self.enums.iter().map(|e| e.name.as_str())),
                    );
                    None
                }
            },
            None => None,
        };
        let mut item_of = None;
        let mut role = Role::Data;
        if let Some(p) = ext_get(&a.ext, "-pool") {
            let (id, align_field, item_align) = if p.as_map().is_some() {
                (
                    p.get("id")
                        .and_then(|x| x.scalar_text())
                        .unwrap_or_default(),
                    p.get("align").and_then(|x| x.scalar_text()),
                    p.get("item-align").and_then(|x| match x.value {
                        Value::Int(i) => Some(i as u64),
                        _ => None,
                    }),
                )
            } else {
                (p.scalar_text().unwrap_or_default(), None, None)
            };
            let pi = self.pool_index(&id);
            if let Some(ia) = item_align {
                self.pools[pi].item_align = ia;
            }
            if is_instance {
                item_of = Some(pi);
            } else {
                role = Role::Pool(PoolUse {
                    pool: pi,
                    align_field,
                });
            }
        }
        let scan = ext_get(&a.ext, "-scan")
            .and_then(|n| parse_scan(n, matches!(a.repeat, Some(RawRepeat::Eos)), diags));
        let derive = ext_get(&a.ext, "-derive").and_then(|n| node_ex(n, diags));
        if let Some(d) = derive {
            role = Role::Derive(d);
        }
        Some(Field {
            name: a.id.clone(),
            doc: a.doc.clone(),
            pos: a.pos,
            path: a.path.clone(),
            ty,
            repeat,
            cond: e(&a.if_, diags),
            role,
            valid,
            enum_,
            size: e(&a.size, diags),
            size_eos: a.size_eos,
            terminator: a.terminator.or(
                if matches!(a.ty, Some(RawTypeRef::Name { ref text, .. }) if text == "strz") {
                    Some(0)
                } else {
                    None
                },
            ),
            consume: a.consume.unwrap_or(true),
            include: a.include.unwrap_or(false),
            eos_error: a.eos_error.unwrap_or(true),
            pad_right: a.pad_right,
            contents: a.contents.clone(),
            is_instance,
            pos_expr: e(&a.pos_expr, diags),
            io: e(&a.io, diags),
            value: e(&a.value, diags),
            item_of,
            sort_by: ext_get(&a.ext, "-sort-by").and_then(|n| node_ex(n, diags)),
            process: a.process.as_ref().and_then(|p| parse_process(p, diags)),
            default: ext_get(&a.ext, "-default").and_then(|n| node_ex(n, diags)),
            eager: match ext_get(&a.ext, "-eager") {
                None => false,
                Some(n) => match (&n.value, is_instance) {
                    (Value::Bool(b), true) => *b,
                    (Value::Bool(_), false) => {
                        diags.error(
                            n.pos,
                            &n.path,
                            "'-eager' applies to instances only (seq attributes are always read)",
                            None,
                        );
                        false
                    }
                    _ => {
                        diags.error(n.pos, &n.path, "'-eager' must be true or false", None);
                        false
                    }
                },
            },
            scan,
            view: match ext_get(&a.ext, "-view") {
                None => false,
                Some(n) => match (&n.value, is_instance) {
                    (Value::Bool(b), true) => *b,
                    _ => {
                        diags.error(
                            n.pos,
                            &n.path,
                            "'-view' takes true or false, on an instance",
                            None,
                        );
                        false
                    }
                },
            },
            data: data_ty.is_some(),
            hook: match ext_get(&a.ext, "-hook") {
                None => None,
                Some(n) => match (&n.value, is_instance && a.value.is_some()) {
                    (Value::Str(h), true)
                        if !h.is_empty()
                            && h.chars().all(|c| {
                                c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'
                            })
                            && !h.starts_with(|c: char| c.is_ascii_digit()) =>
                    {
                        Some(h.clone())
                    }
                    _ => {
                        diags.error(
                            n.pos,
                            &n.path,
                            "'-hook' takes the name of a hand-written function (snake_case), on a value instance",
                            Some("for example '-hook: headerless_little_endian'".into()),
                        );
                        None
                    }
                },
            },
        })
    }
}

const PRIMS: &[&str] = &[
    "u1", "u2", "u4", "u8", "s1", "s2", "s4", "s8", "u2le", "u2be", "u4le", "u4be", "u8le", "u8be",
    "s2le", "s2be", "s4le", "s4be", "s8le", "s8be", "f4", "f8", "f4le", "f4be", "f8le", "f8be",
    "str", "strz", "b1",
];

fn prim_type(name: &str, encoding: Option<&str>) -> Option<FieldTy> {
    let (base, endian) = if let Some(b) = name.strip_suffix("le") {
        (b, Some(Endian::Le))
    } else if let Some(b) = name.strip_suffix("be") {
        (b, Some(Endian::Be))
    } else {
        (name, None)
    };
    match name {
        // `bool` is a parameter type: stored like `b1`.
        "bool" => return Some(FieldTy::Bits { n: 1, le: false }),
        "bytes" => return Some(FieldTy::Bytes),
        _ => {}
    }
    match base {
        "str" | "strz" => {
            return Some(FieldTy::Str {
                encoding: encoding.unwrap_or("").to_string(),
                zero_terminated: base == "strz",
            })
        }
        _ => {}
    }
    let mut c = base.chars();
    let k = c.next()?;
    let n: u8 = c.as_str().parse().ok()?;
    match k {
        'u' | 's' if [1, 2, 4, 8].contains(&n) => {
            if n == 1 && endian.is_some() {
                return None;
            }
            Some(FieldTy::Int {
                bytes: n,
                signed: k == 's',
                endian,
            })
        }
        'f' if [4, 8].contains(&n) => Some(FieldTy::Float { bytes: n, endian }),
        'b' if (1..=64).contains(&n) && endian.is_none() => Some(FieldTy::Bits { n, le: false }),
        _ => None,
    }
}

fn split_args(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for ch in s.chars() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// If the expression is a bare name, that name.
pub fn bare_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Name(n) => Some(n),
        _ => None,
    }
}

/// The direct sub-expressions of an expression.
pub fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Attr { base, .. } | ExprKind::Cast { base, .. } => vec![base],
        ExprKind::Call { base, args, .. } => std::iter::once(&**base).chain(args.iter()).collect(),
        ExprKind::Index { base, index } => vec![base, index],
        ExprKind::Unary { expr, .. } => vec![expr],
        ExprKind::Binary { lhs, rhs, .. } => vec![lhs, rhs],
        ExprKind::Ternary { cond, then, else_ } => vec![cond, then, else_],
        ExprKind::Array(items) => items.iter().collect(),
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Str(_)
        | ExprKind::Bool(_)
        | ExprKind::Name(_)
        | ExprKind::EnumValue { .. }
        | ExprKind::SizeOf { .. } => Vec::new(),
    }
}

/// Every bare name the expression uses at its top level (not attributes of other values).
pub fn names_used(e: &Expr, out: &mut BTreeSet<String>) {
    if let ExprKind::Name(n) = &e.kind {
        out.insert(n.clone());
    }
    for c in children(e) {
        names_used(c, out);
    }
}

/// Whether `e` is linear in `name` (appears once, under + - and multiplication by a constant), so that it can
/// be solved for it.
pub fn solvable_for(e: &Expr, name: &str) -> bool {
    fn count(e: &Expr, name: &str) -> usize {
        let mut s = BTreeSet::new();
        names_used(e, &mut s);
        match &e.kind {
            ExprKind::Name(n) if n == name => 1,
            ExprKind::Binary { lhs, rhs, .. } => count(lhs, name) + count(rhs, name),
            _ => usize::from(s.contains(name)) * 2,
        }
    }
    fn ok(e: &Expr, name: &str) -> bool {
        match &e.kind {
            ExprKind::Name(n) => n == name,
            ExprKind::Binary {
                op: BinOp::Add | BinOp::Sub,
                lhs,
                rhs,
            } => {
                let mut l = BTreeSet::new();
                names_used(lhs, &mut l);
                if l.contains(name) {
                    ok(lhs, name)
                } else {
                    ok(rhs, name)
                }
            }
            ExprKind::Binary {
                op: BinOp::Mul,
                lhs,
                rhs,
            } => {
                let mut l = BTreeSet::new();
                names_used(lhs, &mut l);
                if l.contains(name) {
                    matches!(rhs.kind, ExprKind::Int(_)) && ok(lhs, name)
                } else {
                    matches!(lhs.kind, ExprKind::Int(_)) && ok(rhs, name)
                }
            }
            _ => false,
        }
    }
    count(e, name) == 1 && ok(e, name)
}

/// Pass `classify`: decides each seq field's role.
fn classify(m: &mut Module, diags: &mut Diags) {
    for ti in 0..m.types.len() {
        let t = m.types[ti].clone();
        let mut roles: BTreeMap<String, Role> = BTreeMap::new();
        // Counts and lengths referenced by siblings.
        for f in t.seq.iter().chain(t.instances.iter()) {
            if let Repeat::Expr(x) = &f.repeat {
                if let Some(n) = bare_name(&x.expr) {
                    roles.insert(n.to_string(), Role::Count { of: f.name.clone() });
                }
            }
            let content_sized = f.terminator.is_none()
                && f.pad_right.is_none()
                && matches!(
                    f.ty,
                    FieldTy::Bytes
                        | FieldTy::Str {
                            zero_terminated: false,
                            ..
                        }
                )
                && f.repeat == Repeat::None;
            if let (Some(sz), true) = (&f.size, content_sized) {
                if f.is_instance && f.item_of.is_none() {
                    continue;
                }
                let mut used = BTreeSet::new();
                names_used(&sz.expr, &mut used);
                for n in used {
                    if t.seq.iter().any(|s| s.name == n && s.role == Role::Data)
                        && solvable_for(&sz.expr, &n)
                    {
                        roles
                            .entry(n)
                            .or_insert(Role::Length { of: f.name.clone() });
                    }
                }
            }
            if let (Some(p), Some(_)) = (&f.pos_expr, f.item_of) {
                let mut used = BTreeSet::new();
                names_used(&p.expr, &mut used);
                for n in used {
                    if t.seq.iter().any(|s| s.name == n && s.role == Role::Data)
                        && solvable_for(&p.expr, &n)
                    {
                        roles.insert(n, Role::Offset { of: f.name.clone() });
                    }
                }
            }
        }
        // Instances whose type contains their own type again are read lazily by Kaitai (or they would never end):
        // read-only views here.
        let snapshot = types_graph(&m.types, false);
        let tm = &mut m.types[ti];
        for f in tm.seq.iter_mut() {
            if let Some(c) = &f.contents {
                f.role = Role::Const(ConstVal::Bytes(c.clone()));
                continue;
            }
            if f.role != Role::Data {
                continue;
            }
            // Only a plain integer can be a constant, or derived as a count, size or offset.
            let plain_int = matches!(f.ty, FieldTy::Int { .. } | FieldTy::Bits { .. })
                && f.enum_.is_none()
                && f.repeat == Repeat::None
                && f.cond.is_none();
            if let (Some(Valid::Eq(x)), true) = (&f.valid, plain_int) {
                if let Some(v) = const_int(&x.expr) {
                    f.role = Role::Const(ConstVal::Int(v));
                    continue;
                }
            }
            if let (Some(r), true) = (roles.get(&f.name), plain_int) {
                f.role = r.clone();
            }
        }
        // Instances that decide the byte order or a switch's type are views: the model holds the byte order and
        // the switch's variant instead. Value instances pass this on to what they use. `-view: true` makes any
        // positioned instance one (for instance one that decides whether a field is there: the model's presence
        // decides that when writing).
        let mut views = BTreeSet::new();
        if let EndianSpec::Switch { on, .. } = &tm.endian {
            names_used(&on.expr, &mut views);
        }
        for f in tm.seq.iter() {
            if let FieldTy::Switch { on, .. } = &f.ty {
                names_used(&on.expr, &mut views);
            }
        }
        loop {
            let mut more = BTreeSet::new();
            for f in tm.instances.iter().filter(|f| views.contains(&f.name)) {
                if let Some(v) = &f.value {
                    names_used(&v.expr, &mut more);
                }
            }
            let before = views.len();
            views.extend(more);
            if views.len() == before {
                break;
            }
        }
        for f in tm.instances.iter_mut() {
            f.role = if f.value.is_some() && f.data {
                Role::Kept
            } else if f.value.is_some() {
                Role::Computed
            } else if f.item_of.is_some() {
                Role::Data
            } else if views.contains(&f.name)
                || f.view
                || f.pos_expr.is_none()
                || f.io.as_ref().is_some_and(|io| io.text != "_root._io")
                || passes_object(&f.ty)
                || (reaches_type(&snapshot, &f.ty, ti) && !f.eager)
            {
                // Other streams (`_parent._io`, a field's `_io`) are not written back yet: read-only.
                Role::View
            } else {
                Role::Placed
            };
        }
        // Checks: a pool item needs a pos; a pool region needs a known pool; `-eager` needs a placed instance.
        for f in tm.instances.iter() {
            if f.eager && f.role != Role::Placed {
                diags.error(
                    f.pos,
                    &f.path,
                    "'-eager' needs an instance with 'pos' (in its own stream or '_root._io') that decides nothing \
                     else's type or byte order",
                    None,
                );
            }
            if f.item_of.is_some() && f.pos_expr.is_none() {
                diags.error(
                    f.pos,
                    &f.path,
                    "an instance placed in a pool needs 'pos'",
                    None,
                );
            }
        }
    }
    // Every pool needs exactly one region.
    for (pi, p) in m.pools.iter().enumerate() {
        let regions = m
            .types
            .iter()
            .flat_map(|t| t.seq.iter())
            .filter(|f| matches!(&f.role, Role::Pool(u) if u.pool == pi))
            .count();
        if regions != 1 {
            diags.error(
                m.types[0].pos,
                "/",
                format!("pool '{}' needs exactly one seq attribute with '-pool: {}' to hold it, found {regions}", p.id, p.id),
                None,
            );
        }
    }
}

/// An integer constant, if the expression is one.
pub fn const_int(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::Int(i) => Some(*i as i128),
        ExprKind::Unary {
            op: expr::UnOp::Neg,
            expr,
        } => const_int(expr).map(|v| -v),
        _ => None,
    }
}

/// Pass `owners`: the type that reads each type, when exactly one does.
fn owners(m: &Module) -> Vec<Option<usize>> {
    let mut users: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); m.types.len()];
    for (ti, t) in m.types.iter().enumerate() {
        for f in t.seq.iter().chain(t.instances.iter()) {
            match &f.ty {
                FieldTy::User { ty, .. } => {
                    users[*ty].insert(ti);
                }
                FieldTy::Switch { cases, .. } => {
                    for c in cases.iter().filter_map(|c| c.user()) {
                        users[c].insert(ti);
                    }
                }
                _ => {}
            }
        }
    }
    users
        .into_iter()
        .map(|u| {
            if u.len() == 1 {
                u.into_iter().next()
            } else {
                None
            }
        })
        .collect()
}

/// Whether a name is a built-in integer type (`u4`, `s2be`, `b12`).
pub fn is_int_type_name(name: &str) -> bool {
    matches!(
        prim_type(name, None),
        Some(FieldTy::Int { .. } | FieldTy::Bits { .. })
    )
}

/// Whether a type's arguments pass a whole object (`_root`, `_parent`, `_io`): such instances are only read
/// lazily by Kaitai, so binspec keeps them read-only for now.
fn passes_object(ty: &FieldTy) -> bool {
    let bare = |a: &Ex| matches!(&a.expr.kind, ExprKind::Name(n) if n.starts_with('_'));
    match ty {
        FieldTy::User { args, .. } => args.iter().any(bare),
        FieldTy::Switch { cases, .. } => cases.iter().any(|c| c.args.iter().any(bare)),
        _ => false,
    }
}

/// For each type, the user types its fields and instances read (with `inline_only`, not those in a `Vec`).
pub fn types_graph(types: &[TypeDef], inline_only: bool) -> Vec<Vec<usize>> {
    types
        .iter()
        .map(|t| {
            let mut out = Vec::new();
            for f in t.seq.iter().chain(t.instances.iter()) {
                if inline_only && f.repeat != Repeat::None {
                    continue;
                }
                match &f.ty {
                    FieldTy::User { ty, .. } => out.push(*ty),
                    FieldTy::Switch { cases, .. } => {
                        out.extend(cases.iter().filter_map(|c| c.user()))
                    }
                    _ => {}
                }
            }
            out
        })
        .collect()
}

/// Whether a field of type `ty` can lead back to type `to`.
pub fn reaches_type(graph: &[Vec<usize>], ty: &FieldTy, to: usize) -> bool {
    let mut stack: Vec<usize> = match ty {
        FieldTy::User { ty, .. } => vec![*ty],
        FieldTy::Switch { cases, .. } => cases.iter().filter_map(|c| c.user()).collect(),
        _ => return false,
    };
    let mut seen = vec![false; graph.len()];
    while let Some(t) = stack.pop() {
        if t == to {
            return true;
        }
        if t < seen.len() && !std::mem::replace(&mut seen[t], true) {
            stack.extend(graph[t].iter().copied());
        }
    }
    false
}
