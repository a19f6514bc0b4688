//! Floats a text document cannot give back: JSON has no NaN or infinity (`serde_json` writes `null` for them,
//! which reads back as no number at all), and YAML's one `.nan` reads back as the quiet NaN with no payload and no
//! sign. [`Format::to_json`](crate::Format::to_json) and [`Format::to_text`](crate::Format::to_text) ask
//! [`inexact_float`] first and refuse such a model, naming the field, rather than write a document that encodes
//! to another file.

use serde::ser::{self, Serialize};

/// Which text format the document is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Text {
    /// JSON: every float must be finite.
    Json,
    /// YAML: infinities are `.inf` and `-.inf`; a NaN must be the one `.nan` reads back as.
    Yaml,
}

/// The path (`elements[3].properties.f32[0].value`) and text of the first float of `model` that `text` cannot
/// give back exactly, if any.
pub fn inexact_float<T: Serialize + ?Sized>(model: &T, text: Text) -> Option<(String, String)> {
    let mut path = Vec::new();
    match model.serialize(Finder {
        text,
        path: &mut path,
    }) {
        Err(Found(Some(value))) => Some((join(&path), value)),
        _ => None,
    }
}

/// [`inexact_float`] as an error ([`ErrorKind::Text`](crate::ErrorKind::Text)) naming the field, the value and
/// what to do instead.
pub fn refuse_inexact<T: Serialize + ?Sized>(model: &T, text: Text) -> crate::Result<()> {
    let Some((path, value)) = inexact_float(model, text) else {
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

fn join(path: &[String]) -> String {
    let mut out = String::new();
    for p in path {
        if !p.starts_with('[') && !out.is_empty() {
            out.push('.');
        }
        out.push_str(p);
    }
    out
}

/// Stops the walk: `Some(text of the float)` where one was found, `None` for an error of the model's own
/// serializer (left to the real one to report).
#[derive(Debug)]
struct Found(Option<String>);

impl std::fmt::Display for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

impl std::error::Error for Found {}

impl ser::Error for Found {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        Found(None)
    }
}

struct Finder<'p> {
    text: Text,
    path: &'p mut Vec<String>,
}

impl Finder<'_> {
    /// `finite`: the float is a number; `plain`: it is not a NaN, or the NaN `.nan` reads back as.
    fn check(&self, finite: bool, plain: bool, text: impl FnOnce() -> String) -> Result<(), Found> {
        let fine = match self.text {
            Text::Json => finite,
            Text::Yaml => plain,
        };
        if fine {
            Ok(())
        } else {
            Err(Found(Some(text())))
        }
    }
    fn child(&mut self) -> Finder<'_> {
        Finder {
            text: self.text,
            path: self.path,
        }
    }
}

/// A value below a path segment: pushed, walked, popped (left in place when a float was found, for the path).
fn below<T: Serialize + ?Sized>(f: &mut Finder<'_>, segment: String, v: &T) -> Result<(), Found> {
    f.path.push(segment);
    v.serialize(f.child())?;
    f.path.pop();
    Ok(())
}

/// Compound values: sequences, tuples, structs and maps, each element below its index, field or key.
struct Compound<'p> {
    f: Finder<'p>,
    index: usize,
    key: String,
    /// An enum variant's: its name is on the path until it ends.
    variant: bool,
}

impl<'p> Compound<'p> {
    fn new(f: Finder<'p>) -> Self {
        Compound {
            f,
            index: 0,
            key: String::new(),
            variant: false,
        }
    }
    fn variant(f: Finder<'p>, name: &'static str) -> Self {
        f.path.push(name.to_string());
        Compound {
            variant: true,
            ..Compound::new(f)
        }
    }
    fn finish(self) -> Result<(), Found> {
        if self.variant {
            self.f.path.pop();
        }
        Ok(())
    }
    fn element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Found> {
        let i = self.index;
        self.index += 1;
        below(&mut self.f, format!("[{i}]"), v)
    }
}

macro_rules! compound {
    ($($tr:ident { $m:ident($($arg:ident: $t:ty),*) => |$s:ident, $v:ident| $body:expr })*) => {$(
        impl ser::$tr for Compound<'_> {
            type Ok = ();
            type Error = Found;
            fn $m<T: Serialize + ?Sized>(&mut self, $($arg: $t,)* value: &T) -> Result<(), Found> {
                let ($s, $v) = (self, value);
                $(let _ = &$arg;)*
                $body
            }
            fn end(self) -> Result<(), Found> {
                self.finish()
            }
        }
    )*};
}

compound! {
    SerializeSeq { serialize_element() => |s, v| s.element(v) }
    SerializeTuple { serialize_element() => |s, v| s.element(v) }
    SerializeTupleStruct { serialize_field() => |s, v| s.element(v) }
    SerializeTupleVariant { serialize_field() => |s, v| s.element(v) }
    SerializeStruct { serialize_field(key: &'static str) => |s, v| below(&mut s.f, key.to_string(), v) }
    SerializeStructVariant { serialize_field(key: &'static str) => |s, v| below(&mut s.f, key.to_string(), v) }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Found;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Found> {
        // A key is named by its JSON text (a string key without its quotes).
        self.key = match serde_json::to_value(key) {
            Ok(serde_json::Value::String(s)) => s,
            Ok(v) => v.to_string(),
            Err(_) => "?".into(),
        };
        key.serialize(self.f.child())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Found> {
        let key = std::mem::take(&mut self.key);
        below(&mut self.f, format!("[{key:?}]"), value)
    }
    fn end(self) -> Result<(), Found> {
        self.finish()
    }
}

macro_rules! nothing {
    ($($m:ident: $t:ty),*) => {$(
        fn $m(self, _: $t) -> Result<(), Found> {
            Ok(())
        }
    )*};
}

impl<'p> ser::Serializer for Finder<'p> {
    type Ok = ();
    type Error = Found;
    type SerializeSeq = Compound<'p>;
    type SerializeTuple = Compound<'p>;
    type SerializeTupleStruct = Compound<'p>;
    type SerializeTupleVariant = Compound<'p>;
    type SerializeMap = Compound<'p>;
    type SerializeStruct = Compound<'p>;
    type SerializeStructVariant = Compound<'p>;

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
        mut self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<(), Found> {
        below(&mut self, variant.to_string(), v)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'p>, Found> {
        Ok(Compound::new(self))
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'p>, Found> {
        Ok(Compound::new(self))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'p>, Found> {
        Ok(Compound::new(self))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'p>, Found> {
        Ok(Compound::variant(self, variant))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'p>, Found> {
        Ok(Compound::new(self))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'p>, Found> {
        Ok(Compound::new(self))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'p>, Found> {
        Ok(Compound::variant(self, variant))
    }
}

#[cfg(test)]
mod tests {
    use super::{inexact_float, Text};
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
