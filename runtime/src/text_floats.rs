//! Floats a text document cannot give back: JSON has no NaN or infinity (`serde_json` writes `null` for them,
//! which reads back as no number at all), and YAML's one `.nan` reads back as the quiet NaN with no payload and no
//! sign. [`Format::to_json`](crate::Format::to_json) and [`Format::to_text`](crate::Format::to_text) ask
//! [`inexact_float`] first and refuse such a model, naming the field, rather than write a document that encodes
//! to another file.
//!
//! The walk is a serde serializer that looks only at floats. It keeps no path while it walks (every model written
//! as text is walked, and nearly none holds such a float): where it finds one, the path is put together as the walk
//! returns through the fields, elements and keys above it.

use serde::ser::{self, Serialize};

/// Which text format the document is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Text {
    /// JSON: every float must be finite.
    Json,
    /// YAML: infinities are `.inf` and `-.inf`; a NaN must be the one `.nan` reads back as.
    Yaml,
}

/// How a path names a map's keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keys {
    /// In brackets, quoted (`map["k"]`): the generated models, whose maps are maps.
    Quoted,
    /// A key that is a name (letters, digits and `_`, not starting with a digit) as a field (`a.b[3]`), any other
    /// one quoted in brackets: a document whose maps are its records (the interpreter's).
    NamesAsFields,
}

/// The path (`elements[3].properties.f32[0].value`) and text of the first float of `model` that `text` cannot
/// give back exactly, if any.
pub fn inexact_float<T: Serialize + ?Sized>(model: &T, text: Text) -> Option<(String, String)> {
    inexact_float_with(model, text, Keys::Quoted)
}

/// [`inexact_float`], naming map keys as `keys` says.
pub fn inexact_float_with<T: Serialize + ?Sized>(
    model: &T,
    text: Text,
    keys: Keys,
) -> Option<(String, String)> {
    match model.serialize(Finder { text }) {
        Err(Found {
            value: Some(value),
            path,
        }) => Some((join(&path, keys), value)),
        _ => None,
    }
}

/// [`inexact_float`] as an error ([`ErrorKind::Text`](crate::ErrorKind::Text)) naming the field, the value and
/// what to do instead.
pub fn refuse_inexact<T: Serialize + ?Sized>(model: &T, text: Text) -> crate::Result<()> {
    refuse_inexact_with(model, text, Keys::Quoted)
}

/// [`refuse_inexact`], naming map keys as `keys` says.
pub fn refuse_inexact_with<T: Serialize + ?Sized>(
    model: &T,
    text: Text,
    keys: Keys,
) -> crate::Result<()> {
    let Some((path, value)) = inexact_float_with(model, text, keys) else {
        return Ok(());
    };
    let why = match text {
        Text::Json => "JSON has no NaN or infinity (it would write null); decode to YAML, which has .nan and .inf",
        Text::Yaml => {
            "YAML's .nan reads back as the plain quiet NaN, without this one's sign or payload bits; the binary \
             file keeps it"
        }
    };
    Err(crate::Error::text(format!(
        "{path}: {value} has no exact text form: {why}"
    )))
}

/// One step of a path: a field (or an enum variant), an element, a map's key (its JSON text).
#[derive(Debug)]
enum Seg {
    Field(&'static str),
    Index(usize),
    Key(String),
}

/// A path from the innermost step out, as [`Found`] collects it.
fn join(path: &[Seg], keys: Keys) -> String {
    let is_name = |k: &str| {
        k.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let mut out = String::new();
    for s in path.iter().rev() {
        match s {
            Seg::Field(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            Seg::Key(k) if keys == Keys::NamesAsFields && is_name(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
            Seg::Key(k) => out.push_str(&format!("[{k:?}]")),
        }
    }
    out
}

/// A map key's name in a path: its JSON text, a string without its quotes.
fn key_text<T: Serialize + ?Sized>(key: &T) -> String {
    match serde_json::to_value(key) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(v) => v.to_string(),
        Err(_) => "?".into(),
    }
}

/// Stops the walk: `value` is the text of the float found, with the steps to it (innermost first); `None` for an
/// error of the model's own serializer (left to the real one to report).
#[derive(Debug)]
struct Found {
    value: Option<String>,
    path: Vec<Seg>,
}

impl Found {
    /// The error, coming out of a step: the step joins the path of a float found below it.
    fn through(mut self, step: impl FnOnce() -> Seg) -> Self {
        if self.value.is_some() {
            self.path.push(step());
        }
        self
    }
}

impl std::fmt::Display for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.value)
    }
}

impl std::error::Error for Found {}

impl ser::Error for Found {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        Found {
            value: None,
            path: Vec::new(),
        }
    }
}

#[derive(Clone, Copy)]
struct Finder {
    text: Text,
}

impl Finder {
    /// `finite`: the float is a number; `plain`: it is not a NaN, or the NaN `.nan` reads back as.
    fn check(self, finite: bool, plain: bool, text: impl FnOnce() -> String) -> Result<(), Found> {
        let fine = match self.text {
            Text::Json => finite,
            Text::Yaml => plain,
        };
        if fine {
            Ok(())
        } else {
            Err(Found {
                value: Some(text()),
                path: Vec::new(),
            })
        }
    }
    /// `v`, one `step` below.
    fn below<T: Serialize + ?Sized>(self, step: impl FnOnce() -> Seg, v: &T) -> Result<(), Found> {
        v.serialize(self).map_err(|e| e.through(step))
    }
}

/// Compound values: sequences, tuples, structs and maps, each element below its index, field or key; those of an
/// enum variant below its name too.
struct Compound {
    f: Finder,
    index: usize,
    variant: Option<&'static str>,
    /// A key given on its own (`serialize_key`), named for the value that follows it.
    key: Option<String>,
}

impl Compound {
    fn new(f: Finder, variant: Option<&'static str>) -> Self {
        Compound {
            f,
            index: 0,
            variant,
            key: None,
        }
    }
    fn in_variant(&self, r: Result<(), Found>) -> Result<(), Found> {
        match self.variant {
            Some(name) => r.map_err(|e| e.through(|| Seg::Field(name))),
            None => r,
        }
    }
    fn element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Found> {
        let i = self.index;
        self.index += 1;
        self.in_variant(self.f.below(|| Seg::Index(i), v))
    }
    fn field<T: Serialize + ?Sized>(&mut self, name: &'static str, v: &T) -> Result<(), Found> {
        self.in_variant(self.f.below(|| Seg::Field(name), v))
    }
}

macro_rules! compound {
    ($($tr:ident { $m:ident($($arg:ident: $t:ty),*) => |$s:ident, $v:ident| $body:expr })*) => {$(
        impl ser::$tr for Compound {
            type Ok = ();
            type Error = Found;
            fn $m<T: Serialize + ?Sized>(&mut self, $($arg: $t,)* value: &T) -> Result<(), Found> {
                let ($s, $v) = (self, value);
                $(let _ = &$arg;)*
                $body
            }
            fn end(self) -> Result<(), Found> {
                Ok(())
            }
        }
    )*};
}

compound! {
    SerializeSeq { serialize_element() => |s, v| s.element(v) }
    SerializeTuple { serialize_element() => |s, v| s.element(v) }
    SerializeTupleStruct { serialize_field() => |s, v| s.element(v) }
    SerializeTupleVariant { serialize_field() => |s, v| s.element(v) }
    SerializeStruct { serialize_field(key: &'static str) => |s, v| s.field(key, v) }
    SerializeStructVariant { serialize_field(key: &'static str) => |s, v| s.field(key, v) }
}

impl ser::SerializeMap for Compound {
    type Ok = ();
    type Error = Found;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Found> {
        key.serialize(self.f)?;
        self.key = Some(key_text(key));
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Found> {
        let key = self.key.take().unwrap_or_default();
        self.f.below(|| Seg::Key(key), value)
    }
    /// Both at once (as serde's maps give them): the key is named only where a float is found below it.
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), Found> {
        key.serialize(self.f)?;
        self.f.below(|| Seg::Key(key_text(key)), value)
    }
    fn end(self) -> Result<(), Found> {
        Ok(())
    }
}

macro_rules! nothing {
    ($($m:ident: $t:ty),*) => {$(
        fn $m(self, _: $t) -> Result<(), Found> {
            Ok(())
        }
    )*};
}

impl ser::Serializer for Finder {
    type Ok = ();
    type Error = Found;
    type SerializeSeq = Compound;
    type SerializeTuple = Compound;
    type SerializeTupleStruct = Compound;
    type SerializeTupleVariant = Compound;
    type SerializeMap = Compound;
    type SerializeStruct = Compound;
    type SerializeStructVariant = Compound;

    nothing!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_i128: i128, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64,
        serialize_u128: u128, serialize_char: char, serialize_str: &str, serialize_bytes: &[u8],
        serialize_unit_struct: &'static str);

    fn serialize_f32(self, v: f32) -> Result<(), Found> {
        let plain = !v.is_nan() || v.to_bits() == f32::NAN.to_bits();
        self.check(v.is_finite(), plain, || {
            format!("{v} (bits {:#010x})", v.to_bits())
        })
    }
    fn serialize_f64(self, v: f64) -> Result<(), Found> {
        let plain = !v.is_nan() || v.to_bits() == f64::NAN.to_bits();
        self.check(v.is_finite(), plain, || {
            format!("{v} (bits {:#018x})", v.to_bits())
        })
    }
    fn serialize_none(self) -> Result<(), Found> {
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Found> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Found> {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), Found> {
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<(), Found> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<(), Found> {
        self.below(|| Seg::Field(variant), v)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound, Found> {
        Ok(Compound::new(self, None))
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound, Found> {
        Ok(Compound::new(self, None))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound, Found> {
        Ok(Compound::new(self, None))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound, Found> {
        Ok(Compound::new(self, Some(variant)))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound, Found> {
        Ok(Compound::new(self, None))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound, Found> {
        Ok(Compound::new(self, None))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound, Found> {
        Ok(Compound::new(self, Some(variant)))
    }
}

#[cfg(test)]
mod tests {
    use super::{inexact_float, inexact_float_with, Keys, Text};
    use std::collections::BTreeMap;

    #[derive(serde::Serialize)]
    struct Inner {
        value: f32,
        wide: Option<f64>,
    }

    #[derive(serde::Serialize)]
    enum Extra {
        Pair(u8, f32),
        Field { x: f32 },
    }

    #[derive(serde::Serialize)]
    struct Model {
        name: String,
        items: Vec<Inner>,
        map: BTreeMap<String, f32>,
        extra: Vec<Extra>,
    }

    fn model() -> Model {
        Model {
            name: "m".into(),
            items: vec![
                Inner {
                    value: 1.5,
                    wide: None,
                },
                Inner {
                    value: 2.0,
                    wide: Some(0.25),
                },
            ],
            map: BTreeMap::from([("k".to_string(), 3.0)]),
            extra: vec![Extra::Pair(1, 0.5), Extra::Field { x: -1.0 }],
        }
    }

    #[test]
    fn finite_floats_are_exact_in_both() {
        assert_eq!(inexact_float(&model(), Text::Json), None);
        assert_eq!(inexact_float(&model(), Text::Yaml), None);
    }

    #[test]
    fn each_place_is_named() {
        type Edit = fn(&mut Model);
        let cases: [(&str, Edit); 5] = [
            ("items[1].value", |m| m.items[1].value = f32::NAN),
            ("items[0].wide", |m| m.items[0].wide = Some(f64::INFINITY)),
            ("map[\"k\"]", |m| {
                *m.map.get_mut("k").unwrap() = f32::NEG_INFINITY
            }),
            ("extra[0].Pair[1]", |m| {
                m.extra[0] = Extra::Pair(1, f32::NAN)
            }),
            ("extra[1].Field.x", |m| {
                m.extra[1] = Extra::Field { x: f32::NAN }
            }),
        ];
        for (path, edit) in cases {
            let mut m = model();
            edit(&mut m);
            let (p, text) = inexact_float(&m, Text::Json).unwrap();
            assert_eq!(p, path);
            assert!(text.contains("bits"), "{text}");
        }
    }

    /// A map whose serializer gives each key and value apart (`serialize_key`, `serialize_value`).
    struct KeysApart(Vec<(u8, f32)>);

    impl serde::Serialize for KeysApart {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut m = s.serialize_map(Some(self.0.len()))?;
            for (k, v) in &self.0 {
                m.serialize_key(k)?;
                m.serialize_value(v)?;
            }
            m.end()
        }
    }

    #[test]
    fn keys_given_apart_are_named() {
        let m = KeysApart(vec![(1, 0.5), (7, f32::INFINITY)]);
        assert_eq!(inexact_float(&m, Text::Yaml), None);
        assert_eq!(inexact_float(&m, Text::Json).unwrap().0, "[\"7\"]");
    }

    /// A document whose maps are its records (the interpreter's): keys that are names read as fields.
    #[test]
    fn keys_that_are_names_as_fields() {
        type Doc = BTreeMap<String, Vec<BTreeMap<String, f32>>>;
        for (outer, inner, want) in [
            ("a", "b_2", "a[0].b_2"),
            ("list", "x", "list[0].x"),
            ("a b", "c", "[\"a b\"][0].c"),
            ("a", "7", "a[0][\"7\"]"),
            ("a[\"]", "_b", "[\"a[\\\"]\"][0]._b"),
        ] {
            let doc: Doc = BTreeMap::from([(
                outer.to_string(),
                vec![BTreeMap::from([(inner.to_string(), f32::NAN)])],
            )]);
            let (path, _) = inexact_float_with(&doc, Text::Json, Keys::NamesAsFields).unwrap();
            assert_eq!(path, want, "{outer} {inner}");
        }
        // Quoted, as for the generated models.
        let doc: Doc =
            BTreeMap::from([("a".into(), vec![BTreeMap::from([("b".into(), f32::NAN)])])]);
        assert_eq!(
            inexact_float(&doc, Text::Json).unwrap().0,
            "[\"a\"][0][\"b\"]"
        );
    }

    #[test]
    fn yaml_takes_infinities_and_the_plain_nan_only() {
        let mut m = model();
        m.items[0].value = f32::INFINITY;
        m.items[1].wide = Some(f64::NAN);
        assert_eq!(inexact_float(&m, Text::Yaml), None);
        m.items[1].value = f32::from_bits(0x7fc0_1234);
        let (p, text) = inexact_float(&m, Text::Yaml).unwrap();
        assert_eq!(p, "items[1].value");
        assert!(text.contains("0x7fc01234"), "{text}");
        m.items[1].value = -f32::NAN;
        assert_eq!(inexact_float(&m, Text::Yaml).unwrap().0, "items[1].value");
    }
}
