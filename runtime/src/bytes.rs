//! Serde helpers for byte buffers: base64 text in human-readable formats (YAML, JSON), raw bytes elsewhere. They
//! serve `Vec<u8>` and [`crate::Bytes`] (the shared buffers of generated models) alike.

use base64::Engine;
use serde::{Deserialize, Deserializer, Serializer};

/// Serializes bytes: base64 text for YAML and JSON, raw bytes elsewhere.
pub fn serialize<S: Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
    if s.is_human_readable() {
        s.serialize_str(&base64::engine::general_purpose::STANDARD.encode(v))
    } else {
        s.serialize_bytes(v)
    }
}

/// Deserializes what [`serialize`] writes (base64 may be split by whitespace); fails on invalid base64.
pub fn deserialize<'de, D: Deserializer<'de>, T: From<Vec<u8>>>(d: D) -> Result<T, D::Error> {
    if d.is_human_readable() {
        let s = String::deserialize(d)?;
        let s: String = s.split_whitespace().collect();
        base64::engine::general_purpose::STANDARD
            .decode(s.as_bytes())
            .map(T::from)
            .map_err(serde::de::Error::custom)
    } else {
        serde_bytes_vec(d).map(T::from)
    }
}

fn serde_bytes_vec<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    struct V;
    impl<'de> serde::de::Visitor<'de> for V {
        type Value = Vec<u8>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("bytes")
        }
        fn visit_bytes<E>(self, v: &[u8]) -> Result<Vec<u8>, E> {
            Ok(v.to_vec())
        }
        fn visit_byte_buf<E>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
            Ok(v)
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Vec<u8>, A::Error> {
            let mut out = Vec::new();
            while let Some(b) = a.next_element::<u8>()? {
                out.push(b);
            }
            Ok(out)
        }
    }
    d.deserialize_byte_buf(V)
}

/// The same for `Option<Vec<u8>>` and `Option<Bytes>`.
pub mod option {
    use serde::{Deserialize, Deserializer, Serializer};

    /// [`super::serialize`] of the bytes, or none.
    pub fn serialize<S: Serializer, T: AsRef<[u8]>>(
        v: &Option<T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match v {
            Some(b) => super::serialize(b.as_ref(), s),
            None => s.serialize_none(),
        }
    }

    /// [`super::deserialize`] of the bytes, or none.
    pub fn deserialize<'de, D: Deserializer<'de>, T: From<Vec<u8>>>(
        d: D,
    ) -> Result<Option<T>, D::Error> {
        #[derive(Deserialize)]
        struct W(#[serde(with = "super")] Vec<u8>);
        Ok(Option::<W>::deserialize(d)?.map(|w| T::from(w.0)))
    }
}
