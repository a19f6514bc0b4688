//! The document: what `decode --schema` prints and `encode --schema` reads. Its shape is the shape of the model the
//! generated code serializes (the same field names, in the same order, the same optional fields left out), so that
//! a document from the interpreter and one from the generated crate are the same text.

use std::fmt;

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A document value. Maps keep their order.
#[derive(Debug, Clone, PartialEq)]
pub enum Doc {
    Null,
    Bool(bool),
    Int(i128),
    /// An `f4` field: printed as the shortest text that reads back as the same `f32`.
    F32(f32),
    F64(f64),
    Str(String),
    List(Vec<Doc>),
    Map(Vec<(String, Doc)>),
}

impl Doc {
    /// The value at `key` of a map.
    pub fn get(&self, key: &str) -> Option<&Doc> {
        match self {
            Doc::Map(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// What kind of value this is, for errors.
    pub fn kind(&self) -> &'static str {
        match self {
            Doc::Null => "null",
            Doc::Bool(_) => "a boolean",
            Doc::Int(_) => "an integer",
            Doc::F32(_) | Doc::F64(_) => "a number",
            Doc::Str(_) => "a string",
            Doc::List(_) => "a list",
            Doc::Map(_) => "a map",
        }
    }

    /// The document as a JSON value as serde_json makes it of the generated model (what the differential tests
    /// compare): a float that is not finite becomes `null` there.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }

    /// The document as JSON text for a user: JSON has no infinite or NaN numbers, so such a float is written as
    /// the string `.inf`, `-.inf` or `.nan` (YAML's words), which [`Doc::from_json`] reads back as the float.
    ///
    /// # Errors
    /// A NaN that `.nan` would not give back (one with a sign or payload bits), naming its field: the document
    /// would encode to another file.
    pub fn to_json_text(&self) -> std::result::Result<String, String> {
        Self::refuse_inexact(self)?;
        fn conv(d: &Doc) -> serde_json::Value {
            use serde_json::Value as J;
            let word = |f: f64| {
                J::String(
                    if f.is_nan() {
                        ".nan"
                    } else if f > 0.0 {
                        ".inf"
                    } else {
                        "-.inf"
                    }
                    .into(),
                )
            };
            match d {
                Doc::F32(f) if !f.is_finite() => word(f64::from(*f)),
                Doc::F64(f) if !f.is_finite() => word(*f),
                Doc::List(l) => J::Array(l.iter().map(conv).collect()),
                Doc::Map(m) => J::Object(m.iter().map(|(k, v)| (k.clone(), conv(v))).collect()),
                d => serde_json::to_value(d).unwrap_or(J::Null),
            }
        }
        serde_json::to_string_pretty(&conv(self)).map_err(|e| e.to_string())
    }
}

impl Serialize for Doc {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Doc::Null => s.serialize_unit(),
            Doc::Bool(b) => s.serialize_bool(*b),
            Doc::Int(i) => match (u64::try_from(*i), i64::try_from(*i)) {
                (Ok(u), _) => s.serialize_u64(u),
                (_, Ok(i)) => s.serialize_i64(i),
                _ => s.serialize_i128(*i),
            },
            Doc::F32(f) => s.serialize_f32(*f),
            Doc::F64(f) => s.serialize_f64(*f),
            Doc::Str(t) => s.serialize_str(t),
            Doc::List(l) => {
                let mut q = s.serialize_seq(Some(l.len()))?;
                for v in l {
                    q.serialize_element(v)?;
                }
                q.end()
            }
            Doc::Map(m) => {
                let mut q = s.serialize_map(Some(m.len()))?;
                for (k, v) in m {
                    q.serialize_entry(k, v)?;
                }
                q.end()
            }
        }
    }
}

struct DocVisitor;

impl<'de> Visitor<'de> for DocVisitor {
    type Value = Doc;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a document value")
    }
    fn visit_unit<E>(self) -> Result<Doc, E> {
        Ok(Doc::Null)
    }
    fn visit_none<E>(self) -> Result<Doc, E> {
        Ok(Doc::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Doc, D::Error> {
        Doc::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Doc, E> {
        Ok(Doc::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Doc, E> {
        Ok(Doc::Int(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Doc, E> {
        Ok(Doc::Int(v.into()))
    }
    fn visit_i128<E>(self, v: i128) -> Result<Doc, E> {
        Ok(Doc::Int(v))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Doc, E> {
        i128::try_from(v)
            .map(Doc::Int)
            .map_err(|_| E::custom(format!("{v} is too large")))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Doc, E> {
        Ok(Doc::F64(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Doc, E> {
        Ok(Doc::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Doc, E> {
        Ok(Doc::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Doc, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = a.next_element()? {
            out.push(v);
        }
        Ok(Doc::List(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Doc, A::Error> {
        let mut out: Vec<(String, Doc)> = Vec::new();
        while let Some((k, v)) = a.next_entry::<String, Doc>()? {
            if out.iter().any(|(x, _)| *x == k) {
                return Err(de::Error::custom(format!("duplicate key '{k}'")));
            }
            out.push((k, v));
        }
        Ok(Doc::Map(out))
    }
}

impl<'de> Deserialize<'de> for Doc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Doc, D::Error> {
        d.deserialize_any(DocVisitor)
    }
}

/// serde's `rename_all = "snake_case"` of a variant name (how the generated switch enums name their variants in a
/// document).
pub fn snake_case(variant: &str) -> String {
    let mut out = String::new();
    for (i, c) in variant.char_indices() {
        if i > 0 && c.is_uppercase() {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

impl Doc {
    /// The document as YAML, as the generated formats print theirs.
    ///
    /// # Errors
    /// A NaN that `.nan` would not give back (one with a sign or payload bits), naming its field, as the generated
    /// formats refuse it: the document would encode to another file.
    pub fn to_yaml(&self) -> std::result::Result<String, String> {
        Self::refuse_inexact(self)?;
        serde_saphyr::to_string(self).map_err(|e| e.to_string())
    }
    /// Refuses a float that the text's `.nan`, `.inf` and `-.inf` would not give back, naming its field as the
    /// interpreter's other errors do (`a.b[3]`: a document's maps are records).
    fn refuse_inexact(&self) -> std::result::Result<(), String> {
        use binspec_runtime::text_floats::{refuse_inexact_with, Keys, Text};
        refuse_inexact_with(self, Text::Yaml, Keys::NamesAsFields).map_err(|e| e.to_string())
    }
    /// A document from YAML (with the limits of `binspec_runtime::doc::yaml_options`).
    pub fn from_yaml(text: &str) -> std::result::Result<Doc, String> {
        binspec_runtime::doc::from_yaml(text).map_err(|e| e.to_string())
    }
    /// A document from JSON.
    pub fn from_json(text: &str) -> std::result::Result<Doc, String> {
        binspec_runtime::doc::from_json(text).map_err(|e| e.to_string())
    }
}
