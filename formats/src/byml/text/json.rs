//! serde for [`Document`]: the JSON form described in the module documentation of `text`. The impls are generic
//! (any serde format), but the form is designed for JSON.

use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::{self, SerializeMap, SerializeSeq};

use super::super::{Byml, Document, Endian, HashArray, Layout, Map, DEFAULT_VERSION};
use super::scalar::{
    aligned_binary_tag, canonical_f64, decode_base64, f32_from_f64, f32_roundtrips_via_f64,
    hash_tag, non_finite_word, parse_float, parse_hash_key, parse_hex, push_base64, push_hash_key,
    push_hex_u32, push_hex_u64, Tag, F32_NAN_BITS, F64_NAN_BITS, MAX_DEPTH,
};

pub(crate) fn serialize_document<S: serde::Serializer>(
    doc: &Document,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    let mut m = s.serialize_map(Some(if doc.layout.is_some() { 4 } else { 3 }))?;
    m.serialize_entry("version", &doc.version)?;
    m.serialize_entry("endian", &doc.endian)?;
    if let Some(l) = &doc.layout {
        m.serialize_entry("layout", l)?;
    }
    m.serialize_entry("root", &Node(&doc.root, 0))?;
    m.end()
}

pub(crate) fn deserialize_document<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Document, D::Error> {
    d.deserialize_map(DocumentVisitor)
}

// -------------------------------------------------------------------------------------------------------------------
// Serialization.

/// A node and its depth (the root's container is at depth 1).
struct Node<'a>(&'a Byml, usize);

/// A one-key object `{tag: value}`.
fn tagged<S: ser::Serializer, V: ser::Serialize + ?Sized>(
    s: S,
    tag: &str,
    value: &V,
) -> std::result::Result<S::Ok, S::Error> {
    let mut m = s.serialize_map(Some(1))?;
    m.serialize_entry(tag, value)?;
    m.end()
}

/// The entries of a dictionary, as an object.
struct Entries<'a>(&'a Map, usize);

impl ser::Serialize for Entries<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, &Node(v, self.1))?;
        }
        m.end()
    }
}

/// The elements of an array.
struct Elements<'a>(&'a [Byml], usize);

impl ser::Serialize for Elements<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut q = s.serialize_seq(Some(self.0.len()))?;
        for v in self.0 {
            q.serialize_element(&Node(v, self.1))?;
        }
        q.end()
    }
}

/// The entries of a hash array, as an object keyed by hex hashes.
struct HashEntries<'a>(&'a HashArray, usize);

impl ser::Serialize for HashEntries<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.entries.len()))?;
        let mut key = String::new();
        for (words, v) in &self.0.entries {
            key.clear();
            push_hash_key(&mut key, words);
            m.serialize_entry(&key, &Node(v, self.1))?;
        }
        m.end()
    }
}

impl ser::Serialize for Node<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let Node(v, depth) = *self;
        if v.is_container() && depth >= MAX_DEPTH {
            return Err(ser::Error::custom(format!(
                "the tree is nested deeper than {MAX_DEPTH} levels"
            )));
        }
        let d = depth + 1;
        let mut text = String::new();
        match v {
            Byml::Null => s.serialize_unit(),
            Byml::Bool(b) => s.serialize_bool(*b),
            Byml::I32(x) => s.serialize_i32(*x),
            Byml::U32(x) => tagged(s, "!u", x),
            Byml::I64(x) => tagged(s, "!l", x),
            Byml::U64(x) => tagged(s, "!ul", x),
            Byml::F32(x) => {
                if x.is_finite() {
                    // An f32 is read back through an f64: the rare values whose shortest digits would round to a
                    // neighbour that way are written as their exact f64 value.
                    let mut buf = zmij::Buffer::new();
                    if f32_roundtrips_via_f64(buf.format_finite(*x), *x) {
                        s.serialize_f32(*x)
                    } else {
                        s.serialize_f64(*x as f64)
                    }
                } else {
                    match non_finite_word(
                        x.is_nan(),
                        x.is_sign_negative(),
                        x.to_bits() == F32_NAN_BITS,
                    ) {
                        Some(w) => tagged(s, "!f32", w),
                        None => {
                            push_hex_u32(&mut text, x.to_bits());
                            tagged(s, "!f32bits", &text)
                        }
                    }
                }
            }
            Byml::F64(x) => {
                if x.is_finite() {
                    tagged(s, "!f64", x)
                } else {
                    match non_finite_word(
                        x.is_nan(),
                        x.is_sign_negative(),
                        x.to_bits() == F64_NAN_BITS,
                    ) {
                        Some(w) => tagged(s, "!f64", w),
                        None => {
                            push_hex_u64(&mut text, x.to_bits());
                            tagged(s, "!f64bits", &text)
                        }
                    }
                }
            }
            Byml::String(x) => s.serialize_str(x),
            Byml::Binary(b) => {
                push_base64(&mut text, b);
                tagged(s, "!!binary", &text)
            }
            Byml::AlignedBinary(b, align) => {
                let mut tag = String::new();
                aligned_binary_tag(*align, &mut tag);
                push_base64(&mut text, b);
                tagged(s, &tag, &text)
            }
            Byml::Array(a) => Elements(a, d).serialize(s),
            Byml::MonoArray(a) => tagged(s, "!mono", &Elements(a, d)),
            Byml::Map(m) => {
                if m.keys().next().is_some_and(|k| k.starts_with('!')) {
                    tagged(s, "!!map", &Entries(m, d))
                } else {
                    Entries(m, d).serialize(s)
                }
            }
            Byml::RemapMap(m) => tagged(s, "!remap", &Entries(m, d)),
            Byml::HashArray(h) => {
                let mut tag = String::new();
                hash_tag(h.width, h.remap, &mut tag);
                tagged(s, &tag, &HashEntries(h, d))
            }
        }
    }
}

// -------------------------------------------------------------------------------------------------------------------
// Deserialization.

struct DocumentVisitor;

impl<'de> Visitor<'de> for DocumentVisitor {
    type Value = Document;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a BYML document: an object with version, endian, layout and root")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Document, A::Error> {
        let mut version = None;
        let mut endian = None;
        let mut layout: Option<Option<Layout>> = None;
        let mut root = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "version" if version.is_none() => version = Some(map.next_value::<u16>()?),
                "endian" if endian.is_none() => endian = Some(map.next_value::<Endian>()?),
                "layout" if layout.is_none() => layout = Some(map.next_value::<Option<Layout>>()?),
                "root" if root.is_none() => root = Some(map.next_value_seed(NodeSeed(0))?),
                "version" | "endian" | "layout" | "root" => {
                    return Err(de::Error::custom(format!("duplicate field `{key}`")));
                }
                _ => {
                    return Err(de::Error::unknown_field(
                        &key,
                        &["version", "endian", "layout", "root"],
                    ));
                }
            }
        }
        Ok(Document {
            version: version.unwrap_or(DEFAULT_VERSION),
            endian: endian.unwrap_or(Endian::Little),
            root: root.ok_or_else(|| de::Error::missing_field("root"))?,
            layout: layout.flatten(),
        })
    }
}

/// Reads a node at a depth (that of its parent container).
#[derive(Clone, Copy)]
struct NodeSeed(usize);

impl NodeSeed {
    /// The seed for the children of a container read with this one.
    fn child<E: de::Error>(self) -> std::result::Result<NodeSeed, E> {
        if self.0 >= MAX_DEPTH {
            return Err(E::custom(format!(
                "containers are nested deeper than {MAX_DEPTH} levels"
            )));
        }
        Ok(NodeSeed(self.0 + 1))
    }
}

impl<'de> DeserializeSeed<'de> for NodeSeed {
    type Value = Byml;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Byml, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for NodeSeed {
    type Value = Byml;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a BYML node")
    }

    fn visit_unit<E: de::Error>(self) -> std::result::Result<Byml, E> {
        Ok(Byml::Null)
    }

    fn visit_none<E: de::Error>(self) -> std::result::Result<Byml, E> {
        Ok(Byml::Null)
    }

    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Byml, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> std::result::Result<Byml, E> {
        Ok(Byml::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Byml, E> {
        i32::try_from(v).map(Byml::I32).map_err(|_| {
            E::custom(format!(
                "{v} is out of the range of s32: tag it ({{\"!u\": ...}}, {{\"!l\": ...}}, {{\"!ul\": ...}})"
            ))
        })
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Byml, E> {
        i32::try_from(v).map(Byml::I32).map_err(|_| {
            E::custom(format!(
                "{v} is out of the range of s32: tag it ({{\"!u\": ...}}, {{\"!l\": ...}}, {{\"!ul\": ...}})"
            ))
        })
    }

    fn visit_f32<E: de::Error>(self, v: f32) -> std::result::Result<Byml, E> {
        Ok(Byml::F32(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<Byml, E> {
        Ok(Byml::F32(f32_from_f64(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Byml, E> {
        Ok(Byml::String(v.into()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> std::result::Result<Byml, E> {
        Ok(Byml::String(v.into()))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> std::result::Result<Byml, E> {
        Ok(Byml::Binary(v.to_vec()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<Byml, A::Error> {
        Ok(Byml::Array(read_elements(self.child()?, seq)?))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Byml, A::Error> {
        let Some(first) = map.next_key::<String>()? else {
            return Ok(Byml::Map(Map::default()));
        };
        if !first.starts_with('!') {
            let child = self.child()?;
            let first_value = map.next_value_seed(child)?;
            return Ok(Byml::Map(read_entries(
                child,
                map,
                Some((first, first_value)),
            )?));
        }
        let Some(tag) = Tag::from_name(&first) else {
            return Err(de::Error::custom(format!(
                "unknown tag {first:?} (an object whose first key starts with '!' is a tagged value)"
            )));
        };
        let value = match tag {
            Tag::U32 => Byml::U32(map.next_value()?),
            Tag::I64 => Byml::I64(map.next_value()?),
            Tag::U64 => Byml::U64(map.next_value()?),
            Tag::Int => Byml::I32(map.next_value()?),
            Tag::F32 | Tag::Float => Byml::F32(f32_from_f64(map.next_value::<FloatValue>()?.0)),
            Tag::F64 => Byml::F64(canonical_f64(map.next_value::<FloatValue>()?.0)),
            Tag::F32Bits => {
                let s: String = map.next_value()?;
                match parse_hex(&s, 8) {
                    Some(b) => Byml::F32(f32::from_bits(b as u32)),
                    None => {
                        return Err(de::Error::custom(format!(
                            "!f32bits needs hex bits, not {s:?}"
                        )))
                    }
                }
            }
            Tag::F64Bits => {
                let s: String = map.next_value()?;
                match parse_hex(&s, 16) {
                    Some(b) => Byml::F64(f64::from_bits(b)),
                    None => {
                        return Err(de::Error::custom(format!(
                            "!f64bits needs hex bits, not {s:?}"
                        )))
                    }
                }
            }
            Tag::Binary | Tag::AlignedBinary(_) => {
                let s: String = map.next_value()?;
                let Some(data) = decode_base64(&s) else {
                    return Err(de::Error::custom(format!("{first} needs base64 data")));
                };
                match tag {
                    Tag::AlignedBinary(align) => Byml::AlignedBinary(data, align),
                    _ => Byml::Binary(data),
                }
            }
            Tag::Str | Tag::NonSpecific => Byml::String(map.next_value()?),
            Tag::Bool => Byml::Bool(map.next_value()?),
            Tag::Null => {
                map.next_value::<IgnoredAny>()?;
                Byml::Null
            }
            Tag::Seq | Tag::Mono => {
                let items = map.next_value_seed(ElementsSeed(self.child()?))?;
                if tag == Tag::Mono {
                    Byml::MonoArray(items)
                } else {
                    Byml::Array(items)
                }
            }
            Tag::Map | Tag::Remap => {
                let m = map.next_value_seed(EntriesSeed(self.child()?))?;
                if tag == Tag::Remap {
                    Byml::RemapMap(m)
                } else {
                    Byml::Map(m)
                }
            }
            Tag::Hash { width, remap } => Byml::HashArray(HashArray {
                width,
                remap,
                entries: map.next_value_seed(HashEntriesSeed(self.child()?))?,
            }),
        };
        if map.next_key::<IgnoredAny>()?.is_some() {
            return Err(de::Error::custom(format!(
                "a tagged value ({first}) is an object with one key; a dictionary whose first key starts with '!' \
                 is written {{\"!!map\": {{...}}}}"
            )));
        }
        Ok(value)
    }
}

fn read_elements<'de, A: SeqAccess<'de>>(
    seed: NodeSeed,
    mut seq: A,
) -> std::result::Result<Vec<Byml>, A::Error> {
    let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
    while let Some(v) = seq.next_element_seed(seed)? {
        items.push(v);
    }
    Ok(items)
}

fn read_entries<'de, A: MapAccess<'de>>(
    seed: NodeSeed,
    mut map: A,
    first: Option<(String, Byml)>,
) -> std::result::Result<Map, A::Error> {
    let mut m = Map::default();
    if let Some((k, v)) = first {
        m.insert(k, v);
    }
    while let Some(k) = map.next_key::<String>()? {
        let v = map.next_value_seed(seed)?;
        let (i, old) = m.insert_full(k, v);
        if old.is_some() {
            let k = m.get_index(i).map_or("", |(k, _)| k.as_str());
            return Err(de::Error::custom(format!("duplicate key {k:?}")));
        }
    }
    Ok(m)
}

/// The elements of a tagged array: the seed is the array's children's.
struct ElementsSeed(NodeSeed);

impl<'de> DeserializeSeed<'de> for ElementsSeed {
    type Value = Vec<Byml>;
    fn deserialize<D: de::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<Vec<Byml>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ElementsSeed {
    type Value = Vec<Byml>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<Vec<Byml>, A::Error> {
        read_elements(self.0, seq)
    }
}

/// The entries of a tagged dictionary.
struct EntriesSeed(NodeSeed);

impl<'de> DeserializeSeed<'de> for EntriesSeed {
    type Value = Map;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Map, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for EntriesSeed {
    type Value = Map;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> std::result::Result<Map, A::Error> {
        read_entries(self.0, map, None)
    }
}

/// The entries of a hash array: hex keys.
struct HashEntriesSeed(NodeSeed);

impl<'de> DeserializeSeed<'de> for HashEntriesSeed {
    type Value = Vec<(Vec<u32>, Byml)>;
    fn deserialize<D: de::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for HashEntriesSeed {
    type Value = Vec<(Vec<u32>, Byml)>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object keyed by hex hashes")
    }
    fn visit_map<A: MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<Self::Value, A::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(4096));
        while let Some(k) = map.next_key::<String>()? {
            let Some(words) = parse_hash_key(&k) else {
                return Err(de::Error::custom(format!(
                    "a hash array key is a hex hash like \"0x0000abcd\" (words joined with '_'), not {k:?}"
                )));
            };
            entries.push((words, map.next_value_seed(self.0)?));
        }
        Ok(entries)
    }
}

/// A float: a number, or `.inf`, `-.inf`, `.nan` (and what [`parse_float`] reads) as a string.
struct FloatValue(f64);

impl<'de> de::Deserialize<'de> for FloatValue {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = FloatValue;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number, or \".inf\", \"-.inf\", \".nan\"")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<FloatValue, E> {
                Ok(FloatValue(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<FloatValue, E> {
                Ok(FloatValue(v as f64))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<FloatValue, E> {
                Ok(FloatValue(v as f64))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<FloatValue, E> {
                parse_float(v)
                    .map(FloatValue)
                    .ok_or_else(|| E::custom(format!("not a float: {v:?}")))
            }
        }
        d.deserialize_any(V)
    }
}
