//! The tables of `schemas/panim_perro.ksy` (node types and their fields, interpolation and ease names with their
//! aliases, `[Animation]` keys, events), read from the schema at first use: the schema is their single source.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

/// The schema's text, as compiled into the crate.
pub const SCHEMA_TEXT: &str = include_str!("../../schemas/panim_perro.ksy");

/// One name of an enum (`interp`, `ease`) with its aliases.
#[derive(Debug, Clone, Deserialize)]
pub struct EnumName {
    /// The canonical name.
    pub id: String,
    /// What it means.
    #[serde(default)]
    pub doc: String,
    /// Other spellings that mean the same.
    #[serde(default, rename = "-aliases")]
    pub aliases: Vec<String>,
}

/// A key of the `[Animation]` block.
#[derive(Debug, Clone, Deserialize)]
pub struct AnimationKey {
    /// What it means.
    pub doc: String,
    /// Its default, in clip syntax.
    pub default: String,
    /// Other spellings of the key.
    #[serde(default, rename = "-aliases")]
    pub aliases: Vec<String>,
}

/// A kind of value a field holds.
#[derive(Debug, Clone, Deserialize)]
pub struct ValueKind {
    /// What it is.
    pub doc: String,
    /// Whether keys of this kind blend (`false`: step values).
    pub interpolates: bool,
}

/// One kind or several (`rotation: [quat, vec3]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Kinds {
    /// One kind.
    One(String),
    /// Several kinds.
    Many(Vec<String>),
}

impl Kinds {
    /// The kinds, as a list.
    pub fn list(&self) -> Vec<&str> {
        match self {
            Kinds::One(k) => vec![k.as_str()],
            Kinds::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// A node type.
#[derive(Debug, Clone, Deserialize)]
pub struct NodeType {
    /// What it is.
    pub doc: String,
    /// The node type whose fields it also has.
    #[serde(default)]
    pub extends: Option<String>,
    /// Its own animatable fields, by name, in schema order.
    #[serde(default, deserialize_with = "ordered")]
    pub fields: Vec<(String, Kinds)>,
    /// For skeletons: the channels of a bone (`bones[i].position`).
    #[serde(default, rename = "bone-fields", deserialize_with = "ordered")]
    pub bone_fields: Vec<(String, Kinds)>,
}

/// An event kind.
#[derive(Debug, Clone, Deserialize)]
pub struct EventKind {
    /// What it does.
    pub doc: String,
    /// Where it may be written: `frame`, `object`.
    pub scopes: Vec<String>,
    /// Its keys, `required` or `optional`.
    #[serde(deserialize_with = "ordered")]
    pub keys: Vec<(String, String)>,
}

/// The `-rotation-deg` rule.
#[derive(Debug, Clone, Deserialize)]
pub struct RotationDeg {
    /// What it says.
    pub doc: String,
    /// The field (`rotation`).
    pub field: String,
    /// Its degrees spelling (`rotation_deg`).
    pub alias: String,
}

/// The `-bone-paths` rule.
#[derive(Debug, Clone, Deserialize)]
pub struct BonePaths {
    /// What it says.
    pub doc: String,
    /// How the bone collection may be spelled (`bones`, `bone`), canonical first.
    pub spellings: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct Meta {
    id: String,
    title: String,
    #[serde(rename = "-binspec")]
    binspec: Binspec,
}

/// `meta: -binspec:`: what Kaitai cannot say (Kaitai's compiler ignores keys that start with `-`).
#[derive(Debug, Deserialize)]
struct Binspec {
    #[serde(rename = "-animation-keys", deserialize_with = "ordered")]
    animation_keys: Vec<(String, AnimationKey)>,
    #[serde(rename = "-value-kinds", deserialize_with = "ordered")]
    value_kinds: Vec<(String, ValueKind)>,
    #[serde(rename = "-node-fields", deserialize_with = "ordered")]
    node_fields: Vec<(String, NodeType)>,
    #[serde(rename = "-rotation-deg")]
    rotation_deg: RotationDeg,
    #[serde(rename = "-bone-paths")]
    bone_paths: BonePaths,
    #[serde(rename = "-events", deserialize_with = "ordered")]
    events: Vec<(String, EventKind)>,
}

#[derive(Debug, Deserialize)]
struct Enums {
    interp: BTreeMap<u32, EnumName>,
    ease: BTreeMap<u32, EnumName>,
}

#[derive(Debug, Deserialize)]
struct Raw {
    meta: Meta,
    doc: String,
    enums: Enums,
}

/// A YAML map, in the order it is written.
fn ordered<'de, D, T>(d: D) -> Result<Vec<(String, T)>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct V<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for V<T> {
        type Value = Vec<(String, T)>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a map")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut m: A,
        ) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some((k, v)) = m.next_entry::<String, T>()? {
                out.push((k, v));
            }
            Ok(out)
        }
    }
    d.deserialize_map(V(std::marker::PhantomData))
}

/// Everything the reader, writer, evaluator and docs page take from the schema.
#[derive(Debug)]
pub struct Tables {
    /// `meta.id`.
    pub id: String,
    /// `meta.title`.
    pub title: String,
    /// The schema's `doc`.
    pub doc: String,
    /// Interpolation names, in schema order.
    pub interp: Vec<EnumName>,
    /// Ease names, in schema order.
    pub ease: Vec<EnumName>,
    /// `[Animation]` keys, in schema order.
    pub animation_keys: Vec<(String, AnimationKey)>,
    /// Value kinds.
    pub value_kinds: Vec<(String, ValueKind)>,
    /// Node types, in schema order.
    pub node_types: Vec<(String, NodeType)>,
    /// The `rotation_deg` rule.
    pub rotation_deg: RotationDeg,
    /// Bone path spellings.
    pub bone_paths: BonePaths,
    /// Event kinds, in schema order.
    pub events: Vec<(String, EventKind)>,
}

/// A field of a node type, with where it comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldInfo {
    /// The field's kinds (`vec3`, `quat`).
    pub kinds: Vec<String>,
    /// The node type that declares it (itself or one it extends).
    pub declared_by: String,
}

impl Tables {
    /// Parses the schema text.
    pub fn parse(text: &str) -> Result<Tables, String> {
        let raw: Raw = serde_saphyr::from_str(text).map_err(|e| e.to_string())?;
        let b = raw.meta.binspec;
        let t = Tables {
            id: raw.meta.id,
            title: raw.meta.title,
            doc: raw.doc,
            interp: raw.enums.interp.into_values().collect(),
            ease: raw.enums.ease.into_values().collect(),
            animation_keys: b.animation_keys,
            value_kinds: b.value_kinds,
            node_types: b.node_fields,
            rotation_deg: b.rotation_deg,
            bone_paths: b.bone_paths,
            events: b.events,
        };
        for (name, n) in &t.node_types {
            if let Some(base) = &n.extends {
                if t.node(base).is_none() {
                    return Err(format!("node type {name} extends unknown node type {base}"));
                }
            }
            for (f, k) in n.fields.iter().chain(&n.bone_fields) {
                for kind in k.list() {
                    if t.kind(kind).is_none() {
                        return Err(format!("{name}.{f}: unknown value kind {kind}"));
                    }
                }
            }
        }
        Ok(t)
    }

    /// A node type by name.
    pub fn node(&self, name: &str) -> Option<&NodeType> {
        self.node_types
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t)
    }

    /// A value kind by name.
    pub fn kind(&self, name: &str) -> Option<&ValueKind> {
        self.value_kinds
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, k)| k)
    }

    /// The chain of a node type and the types it extends (itself first); bounded against cycles.
    pub fn lineage(&self, name: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut cur = Some(name);
        while let Some(n) = cur {
            let Some((key, t)) = self.node_types.iter().find(|(k, _)| k == n) else {
                break;
            };
            if out.contains(&key.as_str()) || out.len() > self.node_types.len() {
                break;
            }
            out.push(key.as_str());
            cur = t.extends.as_deref();
        }
        out
    }

    /// Every animatable plain field of a node type (its own and inherited), without `rotation_deg`.
    pub fn fields_of(&self, node: &str) -> Vec<(String, FieldInfo)> {
        self.collect(node, |t| &t.fields)
    }

    /// Every bone channel of a node type (empty when it is no skeleton).
    pub fn bone_fields_of(&self, node: &str) -> Vec<(String, FieldInfo)> {
        self.collect(node, |t| &t.bone_fields)
    }

    fn collect(
        &self,
        node: &str,
        pick: impl Fn(&NodeType) -> &Vec<(String, Kinds)>,
    ) -> Vec<(String, FieldInfo)> {
        let mut out: Vec<(String, FieldInfo)> = Vec::new();
        for n in self.lineage(node) {
            let Some(t) = self.node(n) else { continue };
            for (f, k) in pick(t) {
                if !out.iter().any(|(x, _)| x == f) {
                    out.push((
                        f.clone(),
                        FieldInfo {
                            kinds: k.list().into_iter().map(str::to_string).collect(),
                            declared_by: n.to_string(),
                        },
                    ));
                }
            }
        }
        out
    }

    /// The field a written name keys (`rotation_deg` keys `rotation`), if `rotation_deg` applies.
    pub fn base_field<'a>(&'a self, written: &'a str) -> &'a str {
        if written == self.rotation_deg.alias {
            &self.rotation_deg.field
        } else {
            written
        }
    }

    /// An event kind by name.
    pub fn event(&self, name: &str) -> Option<&EventKind> {
        self.events.iter().find(|(n, _)| n == name).map(|(_, e)| e)
    }
}

/// The tables, parsed from the schema compiled into the crate at first use.
pub fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        // The schema is part of the crate; a test parses it, so this cannot fail in a released build.
        Tables::parse(SCHEMA_TEXT)
            .unwrap_or_else(|e| panic!("schemas/panim_perro.ksy is not a valid table: {e}"))
    })
}

/// The closest of `candidates` to a misspelt name, if close enough to be what was meant (the runtime's rule, also
/// used for misspelt fields of documents).
pub use binspec_runtime::doc::did_you_mean;
