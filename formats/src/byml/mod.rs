//! BYML (BYAML): Nintendo EPD's binary YAML, versions 1 to 10, either byte order.
//!
//! [`Byml`] is the tree a tool edits: keys and typed values, never offsets. [`Document`] adds what the file's header
//! holds (version, byte order) and the layout choices that cannot be derived from the tree ([`Layout`]), so that a
//! file read with [`Document::from_binary`] is written back byte for byte by [`Document::to_binary`].
//!
//! ```
//! use binspec_formats::byml::{Byml, Document};
//! let mut doc = Document::from_text("{Actors: [{Name: Enemy, Hp: !u 0x20}]}").unwrap();
//! assert_eq!(doc.root["Actors"][0]["Hp"].as_u32(), Some(0x20));
//! doc.root["Actors"][0]["Hp"] = Byml::U32(40);
//! let bytes = doc.to_binary().unwrap();
//! assert_eq!(Document::from_binary(&bytes).unwrap().root, doc.root);
//! ```
//!
//! The schema in `schemas/byml.ksy` transcribes the wiki page table by table.

format_module!(
    /// The reader generated from `schemas/byml.ksy`, the transcription of the wiki page: a raw view of a BYML
    /// file's bytes (every offset, count and index as read, every container followed through its offset). It writes
    /// a model back byte for byte at the positions it holds, but derives nothing: the BYML format of this crate is
    /// [`Document`].
    "byml",
    raw
);
pub mod map;
mod read;
#[cfg(test)]
mod tests;
mod text;
mod write;

pub use binspec_runtime::Endian;
use binspec_runtime::{Error, Format, Info, Result};

pub use map::Map;

/// The string type of keys and string values: the one every model of the crate uses ([`crate::Str`]), which keeps
/// up to 24 bytes inline, without an allocation (the keys and names of game files mostly are that short). It derefs
/// to `str` and converts from `&str` and `String`.
pub type Str = binspec_runtime::Str;

/// One BYML node.
///
/// Floats compare by their bits (so `NaN == NaN` and `0.0 != -0.0`), and dictionaries ([`Byml::Map`]) compare
/// as maps, whatever their order: a tree equals another exactly when both hold the same values. (The order of a
/// [`Byml::RemapMap`] is its index order, and counts.)
#[derive(Debug, Clone, Default)]
pub enum Byml {
    /// 0xff.
    #[default]
    Null,
    /// 0xd0.
    Bool(bool),
    /// 0xd1, signed 32-bit.
    I32(i32),
    /// 0xd3, unsigned 32-bit.
    U32(u32),
    /// 0xd2.
    F32(f32),
    /// 0xd4, signed 64-bit (stored out of line).
    I64(i64),
    /// 0xd5, unsigned 64-bit (stored out of line).
    U64(u64),
    /// 0xd6 (stored out of line).
    F64(f64),
    /// 0xa0, an index into the string table.
    String(Str),
    /// 0xa1: a u32 size, then the bytes.
    Binary(Vec<u8>),
    /// 0xa2: a u32 size, a u32 alignment, then the bytes, which the writer places at a multiple of the alignment.
    AlignedBinary(Vec<u8>, u32),
    /// 0xc0.
    Array(Vec<Byml>),
    /// 0xc8 (version 7 and later): an array whose elements all have the same type.
    MonoArray(Vec<Byml>),
    /// 0xc1.
    Map(Map),
    /// 0xc4 (version 7 and later): a dictionary with an index remap table, which keeps the order of insertion; the
    /// map's order is that order.
    RemapMap(Map),
    /// 0x20-0x3f (version 7 and later): values found by hash.
    HashArray(HashArray),
}

/// A hash array (0x20-0x2f), or with `remap`, a hash array with an index remap table (0x30-0x3f).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HashArray {
    /// The low nibble of the type: each hash has `width` u32 words.
    pub width: u8,
    /// Whether the container has an index remap table (0x30-0x3f). The entries are then in index order, which the
    /// table records; without one they are in hash order.
    pub remap: bool,
    /// Hash words and value, in index order.
    pub entries: Vec<(Vec<u32>, Byml)>,
}

/// The node type byte.
pub mod node_type {
    pub const HASH_ARRAY: u8 = 0x20;
    pub const HASH_ARRAY_REMAP: u8 = 0x30;
    pub const STRING: u8 = 0xa0;
    pub const BINARY: u8 = 0xa1;
    pub const ALIGNED_BINARY: u8 = 0xa2;
    pub const ARRAY: u8 = 0xc0;
    pub const MAP: u8 = 0xc1;
    pub const STRING_TABLE: u8 = 0xc2;
    pub const REMAP_MAP: u8 = 0xc4;
    pub const RELOCATED_STRING_TABLE: u8 = 0xc5;
    pub const MONO_ARRAY: u8 = 0xc8;
    pub const BOOL: u8 = 0xd0;
    pub const I32: u8 = 0xd1;
    pub const F32: u8 = 0xd2;
    pub const U32: u8 = 0xd3;
    pub const I64: u8 = 0xd4;
    pub const U64: u8 = 0xd5;
    pub const F64: u8 = 0xd6;
    pub const NULL: u8 = 0xff;

    /// Containers: values that are offsets to a container header.
    pub fn is_container(t: u8) -> bool {
        matches!(t, ARRAY | MAP | REMAP_MAP | MONO_ARRAY) || (0x20..0x40).contains(&t)
    }
    /// Values stored out of line (containers, 64-bit numbers, binary data): the pair's value is an offset.
    pub fn is_out_of_line(t: u8) -> bool {
        is_container(t) || matches!(t, BINARY | ALIGNED_BINARY | I64 | U64 | F64)
    }
}

impl Byml {
    /// The node type byte this value is written with.
    pub fn node_type(&self) -> u8 {
        use node_type::*;
        match self {
            Byml::Null => NULL,
            Byml::Bool(_) => BOOL,
            Byml::I32(_) => I32,
            Byml::U32(_) => U32,
            Byml::F32(_) => F32,
            Byml::I64(_) => I64,
            Byml::U64(_) => U64,
            Byml::F64(_) => F64,
            Byml::String(_) => STRING,
            Byml::Binary(_) => BINARY,
            Byml::AlignedBinary(..) => ALIGNED_BINARY,
            Byml::Array(_) => ARRAY,
            Byml::MonoArray(_) => MONO_ARRAY,
            Byml::Map(_) => MAP,
            Byml::RemapMap(_) => REMAP_MAP,
            Byml::HashArray(h) => {
                (if h.remap {
                    HASH_ARRAY_REMAP
                } else {
                    HASH_ARRAY
                }) | (h.width & 0xf)
            }
        }
    }
    /// A short name of the type, as errors and `info` print it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Byml::Null => "null",
            Byml::Bool(_) => "bool",
            Byml::I32(_) => "s32",
            Byml::U32(_) => "u32",
            Byml::F32(_) => "f32",
            Byml::I64(_) => "s64",
            Byml::U64(_) => "u64",
            Byml::F64(_) => "f64",
            Byml::String(_) => "string",
            Byml::Binary(_) => "binary",
            Byml::AlignedBinary(..) => "aligned binary",
            Byml::Array(_) => "array",
            Byml::MonoArray(_) => "mono-typed array",
            Byml::Map(_) => "dictionary",
            Byml::RemapMap(_) => "dictionary with remap",
            Byml::HashArray(_) => "hash array",
        }
    }
    /// Whether this is a container (array, dictionary, hash array).
    pub fn is_container(&self) -> bool {
        node_type::is_container(self.node_type())
    }
    pub fn is_null(&self) -> bool {
        matches!(self, Byml::Null)
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Byml::Bool(v) => Some(*v),
            _ => None,
        }
    }
    /// An s32 value.
    pub fn as_i32(&self) -> Option<i32> {
        match self {
            Byml::I32(v) => Some(*v),
            _ => None,
        }
    }
    /// A u32 value.
    pub fn as_u32(&self) -> Option<u32> {
        match self {
            Byml::U32(v) => Some(*v),
            _ => None,
        }
    }
    /// An s64 value.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Byml::I64(v) => Some(*v),
            _ => None,
        }
    }
    /// A u64 value.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Byml::U64(v) => Some(*v),
            _ => None,
        }
    }
    /// Any integer type, widened, if it fits an i128 (always).
    pub fn as_int(&self) -> Option<i128> {
        match self {
            Byml::I32(v) => Some(*v as i128),
            Byml::U32(v) => Some(*v as i128),
            Byml::I64(v) => Some(*v as i128),
            Byml::U64(v) => Some(*v as i128),
            _ => None,
        }
    }
    pub fn as_f32(&self) -> Option<f32> {
        match self {
            Byml::F32(v) => Some(*v),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Byml::F64(v) => Some(*v),
            _ => None,
        }
    }
    /// Either float type, widened.
    pub fn as_float(&self) -> Option<f64> {
        match self {
            Byml::F32(v) => Some(*v as f64),
            Byml::F64(v) => Some(*v),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Byml::String(s) => Some(s),
            _ => None,
        }
    }
    /// The bytes of either binary type.
    pub fn as_binary(&self) -> Option<&[u8]> {
        match self {
            Byml::Binary(b) | Byml::AlignedBinary(b, _) => Some(b),
            _ => None,
        }
    }
    /// The elements of either array type.
    pub fn as_array(&self) -> Option<&[Byml]> {
        match self {
            Byml::Array(a) | Byml::MonoArray(a) => Some(a),
            _ => None,
        }
    }
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Byml>> {
        match self {
            Byml::Array(a) | Byml::MonoArray(a) => Some(a),
            _ => None,
        }
    }
    /// Either dictionary type.
    pub fn as_map(&self) -> Option<&Map> {
        match self {
            Byml::Map(m) | Byml::RemapMap(m) => Some(m),
            _ => None,
        }
    }
    pub fn as_map_mut(&mut self) -> Option<&mut Map> {
        match self {
            Byml::Map(m) | Byml::RemapMap(m) => Some(m),
            _ => None,
        }
    }
    pub fn as_hash_array(&self) -> Option<&HashArray> {
        match self {
            Byml::HashArray(h) => Some(h),
            _ => None,
        }
    }
    /// A dictionary value by key, or `None` (also when this is not a dictionary).
    pub fn get(&self, key: &str) -> Option<&Byml> {
        self.as_map()?.get(key)
    }
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Byml> {
        self.as_map_mut()?.get_mut(key)
    }
    /// An element by index of an array, or of a hash array (in index order).
    pub fn at(&self, index: usize) -> Option<&Byml> {
        match self {
            Byml::Array(a) | Byml::MonoArray(a) => a.get(index),
            Byml::HashArray(h) => h.entries.get(index).map(|(_, v)| v),
            _ => None,
        }
    }
    pub fn at_mut(&mut self, index: usize) -> Option<&mut Byml> {
        match self {
            Byml::Array(a) | Byml::MonoArray(a) => a.get_mut(index),
            Byml::HashArray(h) => h.entries.get_mut(index).map(|(_, v)| v),
            _ => None,
        }
    }
    /// Number of elements of a container (0 for scalars).
    pub fn len(&self) -> usize {
        match self {
            Byml::Array(a) | Byml::MonoArray(a) => a.len(),
            Byml::Map(m) | Byml::RemapMap(m) => m.len(),
            Byml::HashArray(h) => h.entries.len(),
            _ => 0,
        }
    }
    /// Whether a container has no elements (true for scalars).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The children of a container, in order, with their keys for dictionaries.
    pub fn children(&self) -> Box<dyn Iterator<Item = (Option<&str>, &Byml)> + '_> {
        match self {
            Byml::Array(a) | Byml::MonoArray(a) => Box::new(a.iter().map(|v| (None, v))),
            Byml::Map(m) | Byml::RemapMap(m) => {
                Box::new(m.iter().map(|(k, v)| (Some(k.as_str()), v)))
            }
            Byml::HashArray(h) => Box::new(h.entries.iter().map(|(_, v)| (None, v))),
            _ => Box::new(std::iter::empty()),
        }
    }
    /// Number of nodes in the tree, this one included.
    pub fn count_nodes(&self) -> usize {
        // An explicit stack: trees read from files are bounded in depth, but trees built in code need not be.
        let mut n = 0;
        let mut stack = vec![self];
        while let Some(v) = stack.pop() {
            n += 1;
            stack.extend(v.children().map(|(_, c)| c));
        }
        n
    }
}

impl PartialEq for Byml {
    fn eq(&self, other: &Self) -> bool {
        use Byml::*;
        match (self, other) {
            (Null, Null) => true,
            (Bool(a), Bool(b)) => a == b,
            (I32(a), I32(b)) => a == b,
            (U32(a), U32(b)) => a == b,
            (F32(a), F32(b)) => a.to_bits() == b.to_bits(),
            (I64(a), I64(b)) => a == b,
            (U64(a), U64(b)) => a == b,
            (F64(a), F64(b)) => a.to_bits() == b.to_bits(),
            (String(a), String(b)) => a == b,
            (Binary(a), Binary(b)) => a == b,
            (AlignedBinary(a, x), AlignedBinary(b, y)) => a == b && x == y,
            (Array(a), Array(b)) | (MonoArray(a), MonoArray(b)) => a == b,
            // A dictionary's order is a layout choice (where the writer puts things), not its value.
            (Map(a), Map(b)) => a.len() == b.len() && a.iter().all(|(k, x)| b.get(k) == Some(x)),
            // A remap dictionary's order is data: its index order.
            (RemapMap(a), RemapMap(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x == y)
            }
            (HashArray(a), HashArray(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Byml {}

static NULL: Byml = Byml::Null;

impl std::ops::Index<&str> for Byml {
    type Output = Byml;
    /// The value under `key`, or [`Byml::Null`] when there is none (or this is not a dictionary).
    fn index(&self, key: &str) -> &Byml {
        self.get(key).unwrap_or(&NULL)
    }
}

impl std::ops::Index<usize> for Byml {
    type Output = Byml;
    /// The element at `index`, or [`Byml::Null`] when there is none (or this is not an array).
    fn index(&self, index: usize) -> &Byml {
        self.at(index).unwrap_or(&NULL)
    }
}

impl std::ops::IndexMut<&str> for Byml {
    /// The value under `key`, inserted as null if missing (as `serde_json::Value` does): a misspelt key adds a
    /// key. [`Byml::get_mut`] only finds an existing one. Panics if this is not a dictionary.
    fn index_mut(&mut self, key: &str) -> &mut Byml {
        match self {
            Byml::Map(m) | Byml::RemapMap(m) => m.entry(key).or_default(),
            other => panic!("cannot index a BYML {} by key {key:?}", other.type_name()),
        }
    }
}

impl std::ops::IndexMut<usize> for Byml {
    /// The element at `index`. Panics if out of range or if this is not an array.
    fn index_mut(&mut self, index: usize) -> &mut Byml {
        let t = self.type_name();
        match self.at_mut(index) {
            Some(v) => v,
            None => panic!("BYML {t} has no element {index}"),
        }
    }
}

macro_rules! from_scalar {
    ($($t:ty => $v:ident),*) => {$(
        impl From<$t> for Byml {
            fn from(v: $t) -> Self { Byml::$v(v.into()) }
        }
    )*};
}
from_scalar!(bool => Bool, i32 => I32, u32 => U32, f32 => F32, i64 => I64, u64 => U64, f64 => F64,
    String => String, &str => String, Str => String, Vec<Byml> => Array, Map => Map);

impl FromIterator<Byml> for Byml {
    fn from_iter<I: IntoIterator<Item = Byml>>(iter: I) -> Self {
        Byml::Array(iter.into_iter().collect())
    }
}

impl<K: Into<Str>> FromIterator<(K, Byml)> for Byml {
    fn from_iter<I: IntoIterator<Item = (K, Byml)>>(iter: I) -> Self {
        Byml::Map(iter.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

/// Where 64-bit numbers and binary data go.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum ValuePlacement {
    /// Each right after the container that refers to it, among the containers (oead; Nintendo's version 1-4 files).
    #[default]
    Inline,
    /// All of them, in tree order, between the string table and the root (Nintendo's version 7 files).
    BeforeRoot,
    /// All of them, in tree order, after the last container. For some trees (every container the file holds comes
    /// before the first value) this writes the same bytes as `Inline`; such a file reads back as `Inline`.
    AfterContainers,
}

/// Layout choices: what a file's bytes say that its tree does not, each with a default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Layout {
    /// Whether equal out-of-line values (containers, 64-bit numbers, binary data) are written once and shared
    /// (oead, Nintendo's version 1-4 files), or written each time they occur (Nintendo's version 7 files).
    pub share: bool,
    /// Where 64-bit numbers and binary data go.
    pub values: ValuePlacement,
}

impl Layout {
    /// The layout of Nintendo's files of a version: the real version 3 and version 7 files in the test corpus, and
    /// what oead writes for versions 1 to 4.
    pub fn for_version(version: u16) -> Layout {
        if version >= 5 {
            Layout {
                share: false,
                values: ValuePlacement::BeforeRoot,
            }
        } else {
            Layout {
                share: true,
                values: ValuePlacement::Inline,
            }
        }
    }
}

/// A BYML file: the tree, the header's version and byte order, and the layout choices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// 1 to 10.
    pub version: u16,
    pub endian: Endian,
    /// The root. A version 1-9 root is an array, dictionary or hash array; version 10 allows any value.
    /// [`Byml::Null`] stands for a file with no root (root offset 0).
    pub root: Byml,
    /// `None` means the default for the version ([`Layout::for_version`]).
    pub layout: Option<Layout>,
}

impl Default for Document {
    fn default() -> Self {
        Document::new(Byml::Map(Map::default()))
    }
}

/// The version oead and roead write by default, and the one a YAML file without a header gets.
pub const DEFAULT_VERSION: u16 = 2;

impl Document {
    /// A version 2, little-endian document (what oead writes by default).
    pub fn new(root: Byml) -> Self {
        Document {
            version: DEFAULT_VERSION,
            endian: Endian::Little,
            root,
            layout: None,
        }
    }
    /// The layout that [`Document::to_binary`] uses.
    pub fn effective_layout(&self) -> Layout {
        self.layout
            .unwrap_or_else(|| Layout::for_version(self.version))
    }
    /// Reads a file. The layout is the one that writes its bytes; where two layouts write the same bytes for its
    /// tree, it is the one those bytes read back as.
    pub fn from_binary(data: &[u8]) -> Result<Self> {
        let doc = read::read_document(data).map_err(|e| e.in_format("byml"))?;
        let layout = doc.effective_layout();
        if layout.values == ValuePlacement::AfterContainers
            && write::after_containers_may_read_as_inline(&doc.root, layout.share)
        {
            return Ok(relay(doc));
        }
        Ok(doc)
    }
    /// Writes the file: key and string tables sorted and deduplicated, every offset, count and type computed.
    pub fn to_binary(&self) -> Result<Vec<u8>> {
        write::write_document(self).map_err(|e| e.in_format("byml"))
    }
    /// Reads oead/roead's YAML dialect; see [`Document::to_text`].
    pub fn from_text(text: &str) -> Result<Self> {
        text::from_text(text)
    }
    /// Writes the tree in oead/roead's YAML dialect (`!u`, `!l`, `!ul`, `!f64`, `!!binary` tags), after a comment
    /// line that records the version, byte order and layout (oead ignores it; without it, version 2, little endian
    /// and the version's default layout are assumed).
    pub fn to_text(&self) -> Result<String> {
        text::to_text(self)
    }
}

/// A file read with its values after the containers whose tree that layout may write as bytes that read back as
/// inline placement (see `write::after_containers_may_read_as_inline`). What the writer makes of the file is what
/// it reads as: the document is written and read again until its layout stays the same (at most a few rounds).
fn relay(mut doc: Document) -> Document {
    for _ in 0..4 {
        let Ok(bytes) = write::write_document(&doc) else {
            return doc;
        };
        let Ok(again) = read::read_document(&bytes) else {
            return doc;
        };
        if again.layout == doc.layout {
            return doc;
        }
        doc = again;
    }
    doc
}

impl serde::Serialize for Document {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        text::json::serialize_document(self, s)
    }
}

impl<'de> serde::Deserialize<'de> for Document {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        text::json::deserialize_document(d)
    }
}

impl Format for Document {
    const ID: &'static str = "byml";
    const TITLE: &'static str = "BYML (binary YAML), versions 1-10";
    const EXTENSIONS: &'static [&'static str] = &["byml", "byaml", "bgyml", "bcett", "mubin"];

    fn sniff(data: &[u8]) -> bool {
        data.len() >= 4 && {
            let v_le = u16::from_le_bytes([data[2], data[3]]);
            let v_be = u16::from_be_bytes([data[2], data[3]]);
            (&data[..2] == b"YB" && (1..=10).contains(&v_le))
                || (&data[..2] == b"BY" && (1..=10).contains(&v_be))
        }
    }
    fn from_binary(data: &[u8]) -> Result<Self> {
        Document::from_binary(data)
    }
    fn to_binary(&self) -> Result<Vec<u8>> {
        Document::to_binary(self)
    }
    fn info(&self) -> Info {
        let l = self.effective_layout();
        Info {
            format: "byml",
            version: Some(self.version.to_string()),
            endian: Some(self.endian),
            summary: vec![
                ("root".into(), self.root.type_name().into()),
                ("nodes".into(), self.root.count_nodes().to_string()),
                (
                    "layout".into(),
                    format!(
                        "{}share={} values={}",
                        if self.layout.is_some() {
                            ""
                        } else {
                            "default for the version: "
                        },
                        l.share,
                        match l.values {
                            ValuePlacement::Inline => "inline",
                            ValuePlacement::BeforeRoot => "before-root",
                            ValuePlacement::AfterContainers => "after-containers",
                        }
                    ),
                ),
            ],
        }
    }
    fn to_text(&self) -> Result<String> {
        Document::to_text(self)
    }
    fn from_text(text: &str) -> Result<Self> {
        Document::from_text(text)
    }
}

impl binspec_runtime::format::MaybeArchive for Document {}

/// Errors of the text forms.
pub(crate) fn text_error(line: usize, col: usize, msg: impl std::fmt::Display) -> Error {
    Error::text(format!("{line}:{col}: {msg}"))
}
