//! The readers of single lines, shared by the clip reader and the writer (which prints a line as written only
//! while it still reads as the model's data): `[Animation]` settings, `[Objects]` declarations, events, object
//! block entries, and the check of a field against its node type.

use super::schema::{self, did_you_mean, tables};
use super::syntax::{self, ControlKind, HeaderKind, SynErr, Value};
use super::*;

/// Whether `field` is animatable on `node`; the message says what is, and what was probably meant.
pub(crate) fn check_field(
    t: &schema::Tables,
    node: &str,
    field: &FieldPath,
) -> std::result::Result<(), String> {
    let with_deg = |names: Vec<String>| {
        let mut out = Vec::new();
        for n in names {
            let deg = n == t.rotation_deg.field;
            out.push(n);
            if deg {
                out.push(t.rotation_deg.alias.clone());
            }
        }
        out
    };
    match &field.bone {
        None => {
            let names = with_deg(t.fields_of(node).into_iter().map(|(n, _)| n).collect());
            if names.contains(&field.field) {
                return Ok(());
            }
            let hint = did_you_mean(&field.field, names.iter().map(String::as_str))
                .map(|m| format!("did you mean `{m}`? "))
                .unwrap_or_default();
            Err(format!(
                "`{}` is not animatable on {node} ({hint}{node} animates: {})",
                field.field,
                names.join(", ")
            ))
        }
        Some(_) => {
            let names = with_deg(t.bone_fields_of(node).into_iter().map(|(n, _)| n).collect());
            if names.is_empty() {
                return Err(format!(
                    "{node} has no bones: bone tracks are for {}",
                    t.node_types
                        .iter()
                        .filter(|(_, n)| !n.bone_fields.is_empty())
                        .map(|(k, _)| k.as_str())
                        .collect::<Vec<_>>()
                        .join(" and ")
                ));
            }
            if names.contains(&field.field) {
                return Ok(());
            }
            let hint = did_you_mean(&field.field, names.iter().map(String::as_str))
                .map(|m| format!("did you mean `{m}`? "))
                .unwrap_or_default();
            Err(format!(
                "`{}` is not a bone channel of {node} ({hint}bone channels: {})",
                field.field,
                names.join(", ")
            ))
        }
    }
}

pub(crate) fn header_text(kind: HeaderKind, close: bool) -> String {
    let slash = if close { "/" } else { "" };
    match kind {
        HeaderKind::Animation => format!("[{slash}Animation]"),
        HeaderKind::Objects => format!("[{slash}Objects]"),
        HeaderKind::Frame { index, open } => {
            format!("[{slash}Frame{index}{}]", if open { "?" } else { "" })
        }
    }
}

pub(crate) fn seg_text(segs: &[syntax::Seg]) -> String {
    segs.iter()
        .map(|s| match &s.index {
            None => s.name.clone(),
            Some(Bone::Index(i)) => format!("{}[{i}]", s.name),
            Some(Bone::Name(n)) => format!("{}[{}]", s.name, syntax::quote(n)),
        })
        .collect::<Vec<_>>()
        .join(".")
}

fn word(v: &Value) -> Option<&str> {
    match v {
        Value::String(s) | Value::Ident(s) => Some(s),
        _ => None,
    }
}

fn names_of(list: &[schema::EnumName]) -> String {
    list.iter()
        .flat_map(|e| std::iter::once(e.id.as_str()).chain(e.aliases.iter().map(String::as_str)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn all_names(list: &[schema::EnumName]) -> Vec<&str> {
    list.iter()
        .flat_map(|e| std::iter::once(e.id.as_str()).chain(e.aliases.iter().map(String::as_str)))
        .collect()
}

pub(crate) fn interp_of(v: &Value, at: usize) -> std::result::Result<Interp, SynErr> {
    let t = tables();
    let w = word(v).ok_or_else(|| SynErr {
        at,
        msg: format!(
            "an interpolation is a name in quotes (one of {})",
            names_of(&t.interp)
        ),
    })?;
    Interp::from_name(w).ok_or_else(|| SynErr {
        at,
        msg: format!(
            "unknown interpolation `{w}`{} (known: {})",
            did_you_mean(w, all_names(&t.interp))
                .map(|m| format!(" (did you mean \"{m}\"?)"))
                .unwrap_or_default(),
            names_of(&t.interp)
        ),
    })
}

pub(crate) fn ease_of(v: &Value, at: usize) -> std::result::Result<Ease, SynErr> {
    let t = tables();
    let w = word(v).ok_or_else(|| SynErr {
        at,
        msg: format!("an ease is a name in quotes (one of {})", names_of(&t.ease)),
    })?;
    Ease::from_name(w).ok_or_else(|| SynErr {
        at,
        msg: format!(
            "unknown ease `{w}`{} (known: {})",
            did_you_mean(w, all_names(&t.ease))
                .map(|m| format!(" (did you mean \"{m}\"?)"))
                .unwrap_or_default(),
            names_of(&t.ease)
        ),
    })
}

/// An `[Animation]` line.
pub(crate) fn setting(
    key: &[syntax::Seg],
    value: &Value,
    at: usize,
) -> std::result::Result<SettingValue, SynErr> {
    let t = tables();
    let k = &key[0];
    let canon = (key.len() == 1 && k.index.is_none())
        .then(|| {
            t.animation_keys
                .iter()
                .find(|(n, a)| *n == k.name || a.aliases.contains(&k.name))
                .map(|(n, _)| n.as_str())
        })
        .flatten();
    let all: Vec<&str> = t
        .animation_keys
        .iter()
        .flat_map(|(n, a)| std::iter::once(n.as_str()).chain(a.aliases.iter().map(String::as_str)))
        .collect();
    let Some(canon) = canon else {
        let name = seg_text(key);
        return Err(SynErr {
            at: k.at,
            msg: format!(
                "unknown [Animation] key `{name}`{} (keys: {})",
                did_you_mean(&name, all.iter().copied())
                    .map(|m| format!(" (did you mean `{m}`?)"))
                    .unwrap_or_default(),
                all.join(", ")
            ),
        });
    };
    Ok(match canon {
        "name" => match value {
            Value::String(s) => SettingValue::Name(s.clone()),
            _ => {
                return Err(SynErr {
                    at,
                    msg: "name is text in quotes: name = \"Run\"".into(),
                })
            }
        },
        "fps" => match value {
            Value::Number(n) if *n > 0.0 => SettingValue::Fps(*n),
            _ => {
                return Err(SynErr {
                    at,
                    msg: "fps is a positive number: fps = 60".into(),
                })
            }
        },
        "default_interp" => SettingValue::DefaultInterp(interp_of(value, at)?),
        "default_ease" => SettingValue::DefaultEase(ease_of(value, at)?),
        other => {
            return Err(SynErr {
                at: k.at,
                msg: format!("the schema's [Animation] key `{other}` is not known to this reader"),
            })
        }
    })
}

/// An `[Objects]` line: (name, node type).
pub(crate) fn decl(
    key: &[syntax::Seg],
    value: &Value,
    at: usize,
) -> std::result::Result<(String, String), SynErr> {
    let t = tables();
    if key.len() != 1 || key[0].index.is_some() {
        return Err(SynErr {
            at: key[0].at,
            msg: "an object declaration is `Name = NodeType`".into(),
        });
    }
    let known = || {
        t.node_types
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Value::Ident(ty) = value else {
        return Err(SynErr {
            at,
            msg: format!("expected a node type ({})", known()),
        });
    };
    if t.node(ty).is_none() {
        return Err(SynErr {
            at,
            msg: format!(
                "unknown node type `{ty}`{} (node types: {})",
                did_you_mean(ty, t.node_types.iter().map(|(n, _)| n.as_str()))
                    .map(|m| format!(" (did you mean {m}?)"))
                    .unwrap_or_default(),
                known()
            ),
        });
    }
    Ok((key[0].name.clone(), ty.clone()))
}

/// The event a key names, with its value checked against the schema's `-events`.
fn event(
    key: &[syntax::Seg],
    value: &Value,
    at: usize,
    scope: &str,
) -> std::result::Result<Option<EventKind>, SynErr> {
    let t = tables();
    if key.len() != 1 || key[0].index.is_some() {
        return Ok(None);
    }
    let Some(kind) = EventKind::from_name(&key[0].name) else {
        return Ok(None);
    };
    let Some(spec) = t.event(kind.id()) else {
        return Ok(None);
    };
    if !spec.scopes.iter().any(|s| s == scope) {
        return Err(SynErr {
            at: key[0].at,
            msg: format!(
                "{} targets an object: write it inside an @Object {{ … }} block",
                kind.id()
            ),
        });
    }
    let Value::Object(kv) = value else {
        return Err(SynErr {
            at,
            msg: format!(
                "{} takes an object: {} = {{ name = \"…\" }}",
                kind.id(),
                kind.id()
            ),
        });
    };
    for (k, v) in kv {
        if !spec.keys.iter().any(|(n, _)| n == k) {
            return Err(SynErr {
                at,
                msg: format!(
                    "{} has no key `{k}`{} (keys: {})",
                    kind.id(),
                    did_you_mean(k, spec.keys.iter().map(|(n, _)| n.as_str()))
                        .map(|m| format!(" (did you mean `{m}`?)"))
                        .unwrap_or_default(),
                    spec.keys
                        .iter()
                        .map(|(n, _)| n.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            });
        }
        if k == "name" && !matches!(v, Value::String(_)) {
            return Err(SynErr {
                at,
                msg: format!("{}: name is text in quotes", kind.id()),
            });
        }
        if k == "params" && !matches!(v, Value::Array(_)) {
            return Err(SynErr {
                at,
                msg: format!("{}: params is an array: params = [ … ]", kind.id()),
            });
        }
    }
    for (k, req) in &spec.keys {
        if req == "required" && !kv.iter().any(|(n, _)| n == k) {
            return Err(SynErr {
                at,
                msg: format!("{} needs `{k}`", kind.id()),
            });
        }
    }
    Ok(Some(kind))
}

/// A frame-level line: an event.
pub(crate) fn frame_event(
    key: &[syntax::Seg],
    value: &Value,
    at: usize,
) -> std::result::Result<EventKind, SynErr> {
    match event(key, value, at, "frame")? {
        Some(k) => Ok(k),
        None => Err(SynErr {
            at: key[0].at,
            msg: format!(
                "`{}` outside an object block: keys go inside @Object {{ … }}; a frame itself holds only {} events",
                seg_text(key),
                tables()
                    .events
                    .iter()
                    .filter(|(_, e)| e.scopes.iter().any(|s| s == "frame"))
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
    }
}

/// An object-block line, before its layout is attached.
pub(crate) enum ObjectEntryData {
    Key(FieldPath, Value),
    Control(FieldPath, ControlValue),
    Event(EventKind, Value),
}

impl ObjectEntryData {
    pub(crate) fn into_entry(self, layout: Lay) -> ObjectEntry {
        match self {
            ObjectEntryData::Key(field, value) => ObjectEntry::Key(Key {
                field,
                value,
                layout,
            }),
            ObjectEntryData::Control(field, set) => {
                ObjectEntry::Control(Control { field, set, layout })
            }
            ObjectEntryData::Event(kind, value) => ObjectEntry::Event(Event {
                kind,
                value,
                layout,
            }),
        }
    }
}

/// An object-block line.
pub(crate) fn object_entry(
    key: &[syntax::Seg],
    value: Value,
    at: usize,
) -> std::result::Result<ObjectEntryData, SynErr> {
    if let Some(k) = event(key, &value, at, "object")? {
        return Ok(ObjectEntryData::Event(k, value));
    }
    let (field, control) = syntax::interpret_key(key)?;
    Ok(match control {
        None => ObjectEntryData::Key(field, value),
        Some(ControlKind::Interp) => {
            ObjectEntryData::Control(field, ControlValue::Interp(interp_of(&value, at)?))
        }
        Some(ControlKind::Ease) => {
            ObjectEntryData::Control(field, ControlValue::Ease(ease_of(&value, at)?))
        }
    })
}
