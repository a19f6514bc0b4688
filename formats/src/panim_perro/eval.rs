//! Tracks and their evaluation.
//!
//! A track is one animated channel of one object: a field (`position`), or a bone channel (`bones[0].rotation`).
//! `rotation` and `rotation_deg` key the same track, and so do `bones[i]` and `bone[i]`. Track controls apply in
//! file order to the keys after them; the segment between two keys is shaped by the interpolation and ease of the
//! key it starts from. Open keys (from `[FrameN?]`) start from the runtime value, so a segment that starts or ends
//! at one has no deterministic value ([`Track::sample`] gives `None` there, except while a step key holds).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use binspec_runtime::{Error, Result};

use super::schema::tables;
use super::syntax::{self, Bone, FieldPath, Value};
use super::{Clip, Ease, FrameEntry, Interp, ObjectEntry};

/// Closed (authored, authoritative) or open (the runtime value at playback).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KeyMode {
    /// From `[FrameN]`.
    Closed,
    /// From `[FrameN?]`.
    Open,
}

/// Which track: an object and a field or bone channel (`rotation_deg` is the `rotation` track).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TrackId {
    /// The object.
    pub object: String,
    /// The field or bone channel (`position`, `bones[0].rotation`).
    pub field: FieldPath,
}

impl TrackId {
    /// The track a written field keys.
    pub fn of(object: &str, field: &FieldPath) -> TrackId {
        TrackId {
            object: object.to_string(),
            field: FieldPath {
                bone: field.bone.clone(),
                field: tables().base_field(&field.field).to_string(),
            },
        }
    }
}

impl std::fmt::Display for TrackId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "@{}.{}", self.object, self.field)
    }
}

/// One key of a track, with its effective interpolation and ease.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrackKey {
    /// The frame.
    pub frame: u32,
    /// Open or closed.
    pub mode: KeyMode,
    /// The value as written (a `@variable` stays a reference).
    pub value: Value,
    /// Whether the value was written as `rotation_deg` (degrees).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub degrees: bool,
    /// The effective interpolation (controls before it in file order, else the clip's default).
    pub interp: Interp,
    /// The effective ease.
    pub ease: Ease,
}

/// A track: its keys sorted by frame. A clip read from text keys a track at most once per frame (a second key is
/// an error, even in another block of that frame); in a model built in code, a later key at the same frame
/// replaces an earlier one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Track {
    /// Which track.
    #[serde(flatten)]
    pub id: TrackId,
    /// Its keys, by frame.
    pub keys: Vec<TrackKey>,
    /// Whether it is a step track by the kind of its values (bools, assets and strings never blend).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub step_only: bool,
}

impl Clip {
    /// Every track, in the order of its first key in the file, with effective controls.
    pub fn tracks(&self) -> Vec<Track> {
        let s = self.settings();
        let t = tables();
        let node_of: BTreeMap<&str, &str> = self
            .objects()
            .map(|o| (o.name.as_str(), o.node_type.as_str()))
            .collect();
        let mut state: BTreeMap<TrackId, (Interp, Ease)> = BTreeMap::new();
        let mut order: Vec<TrackId> = Vec::new();
        let mut keys: BTreeMap<TrackId, Vec<TrackKey>> = BTreeMap::new();
        for f in self.frames() {
            for e in &f.entries {
                let FrameEntry::Object(b) = e else { continue };
                for oe in &b.entries {
                    match oe {
                        ObjectEntry::Control(c) => {
                            let id = TrackId::of(&b.object, &c.field);
                            let st = state
                                .entry(id)
                                .or_insert((s.default_interp, s.default_ease));
                            match c.set {
                                super::ControlValue::Interp(i) => st.0 = i,
                                super::ControlValue::Ease(e) => st.1 = e,
                            }
                        }
                        ObjectEntry::Key(k) => {
                            let id = TrackId::of(&b.object, &k.field);
                            let (interp, ease) = *state
                                .entry(id.clone())
                                .or_insert((s.default_interp, s.default_ease));
                            if !keys.contains_key(&id) {
                                order.push(id.clone());
                            }
                            keys.entry(id).or_default().push(TrackKey {
                                frame: f.index,
                                mode: if f.open {
                                    KeyMode::Open
                                } else {
                                    KeyMode::Closed
                                },
                                value: k.value.clone(),
                                degrees: k.field.field == t.rotation_deg.alias,
                                interp,
                                ease,
                            });
                        }
                        ObjectEntry::Event(_) => {}
                    }
                }
            }
        }
        order
            .into_iter()
            .map(|id| {
                let mut ks = keys.remove(&id).unwrap_or_default();
                // Stable: the last key written at a frame wins (only a model built in code has two; the reader
                // refuses them).
                ks.sort_by_key(|k| k.frame);
                let mut dedup: Vec<TrackKey> = Vec::with_capacity(ks.len());
                for k in ks {
                    match dedup.last_mut() {
                        Some(l) if l.frame == k.frame => *l = k,
                        _ => dedup.push(k),
                    }
                }
                let step_only = node_of
                    .get(id.object.as_str())
                    .map(|n| field_is_step(n, &id.field))
                    .unwrap_or(false);
                Track {
                    id,
                    keys: dedup,
                    step_only,
                }
            })
            .collect()
    }

    /// The track a path names: `@Hero.position`, `Hero.rotation_deg`, `@Rig.bones[0].rotation`.
    pub fn track(&self, path: &str) -> Result<(Track, bool)> {
        let p = path.strip_prefix('@').unwrap_or(path);
        let (obj, field) = p.split_once('.').ok_or_else(|| {
            Error::other(format!(
                "`{path}` is not a track: write @Object.field (@Hero.position)"
            ))
        })?;
        let field = syntax::run(field, |i| {
            let k = syntax::key_path(i)?;
            syntax::end(i)?;
            Ok(k)
        })
        .map_err(|e| Error::other(format!("`{path}`: {}", e.msg)))
        .and_then(|k| {
            syntax::interpret_key(&k).map_err(|e| Error::other(format!("`{path}`: {}", e.msg)))
        })?;
        let (field, None) = field else {
            return Err(Error::other(format!(
                "`{path}` is a track control, not a track"
            )));
        };
        let id = TrackId::of(obj, &field);
        let degrees = field.field == tables().rotation_deg.alias;
        let tracks = self.tracks();
        match tracks.iter().find(|t| t.id == id) {
            Some(t) => Ok((t.clone(), degrees)),
            None => Err(Error::other(format!(
                "the clip has no keys for {id}; its tracks: {}",
                if tracks.is_empty() {
                    "(none)".to_string()
                } else {
                    tracks
                        .iter()
                        .map(|t| t.id.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ))),
        }
    }

    /// The value of a track (named as in [`Clip::track`]) at a frame; `Ok(None)` where it depends on the runtime
    /// (open keys, `@Object.field` references). Asking for `rotation_deg` gives degrees, `rotation` radians.
    pub fn sample(&self, path: &str, frame: f64) -> Result<Option<Value>> {
        Ok(self.sampler(path)?(frame))
    }

    /// [`Clip::sample`] for one track at many frames: the track is found (and the clip's tracks gathered) once,
    /// not at every frame.
    pub fn sampler(&self, path: &str) -> Result<impl Fn(f64) -> Option<Value> + '_> {
        let (t, degrees) = self.track(path)?;
        let vars: BTreeMap<&str, &Value> = self
            .variables()
            .map(|v| (v.name.as_str(), &v.value))
            .collect();
        Ok(move |frame: f64| {
            let v = t.sample(frame, &|name| vars.get(name).map(|v| (*v).clone()));
            v.map(|v| if degrees { to_degrees(&v) } else { v })
        })
    }
}

fn field_is_step(node: &str, field: &FieldPath) -> bool {
    let t = tables();
    let base = t.base_field(&field.field);
    let fields = if field.bone.is_some() {
        t.bone_fields_of(node)
    } else {
        t.fields_of(node)
    };
    fields
        .iter()
        .find(|(n, _)| n == base)
        .is_some_and(|(_, info)| {
            info.kinds
                .iter()
                .all(|k| t.kind(k).is_some_and(|k| !k.interpolates))
        })
}

/// Resolves `@variable` references (a few levels deep); `None` for a reference to an object or its field (a
/// runtime value).
fn resolve(v: &Value, vars: &dyn Fn(&str) -> Option<Value>) -> Option<Value> {
    let mut cur = v.clone();
    for _ in 0..8 {
        match &cur {
            Value::Ref(r) if r.field.is_none() => cur = vars(&r.name)?,
            Value::Ref(_) => return None,
            _ => return Some(cur),
        }
    }
    None
}

fn to_radians(v: &Value) -> Value {
    map_numbers(v, f64::to_radians)
}

fn to_degrees(v: &Value) -> Value {
    map_numbers(v, f64::to_degrees)
}

/// Applies `f` to a number or to each number of a tuple of up to 3 (a quaternion is no angle).
fn map_numbers(v: &Value, f: fn(f64) -> f64) -> Value {
    match v {
        Value::Number(n) => Value::Number(f(*n)),
        Value::Tuple(xs) if xs.len() <= 3 => Value::Tuple(
            xs.iter()
                .map(|x| match x {
                    Value::Number(n) => Value::Number(f(*n)),
                    o => o.clone(),
                })
                .collect(),
        ),
        o => o.clone(),
    }
}

impl Track {
    /// Whether this is a rotation channel (where 4-tuples are quaternions).
    fn is_rotation(&self) -> bool {
        self.id.field.field == tables().rotation_deg.field
    }

    /// The value at `frame` (fractional frames allowed): before the first key its value, after the last key its
    /// value, between keys per the starting key's interpolation and ease. `None` where the value comes from the
    /// runtime: at or from an open key, towards an open key (unless the starting key steps), and for values that
    /// reference an object. `vars` resolves `@variable` references.
    pub fn sample(&self, frame: f64, vars: &dyn Fn(&str) -> Option<Value>) -> Option<Value> {
        if frame.is_nan() {
            return None;
        }
        let keys = &self.keys;
        let value_of = |k: &super::TrackKey| -> Option<Value> {
            if k.mode == KeyMode::Open {
                return None;
            }
            let v = resolve(&k.value, vars)?;
            Some(if k.degrees && self.is_rotation() {
                to_radians(&v)
            } else {
                v
            })
        };
        let first = keys.first()?;
        if frame <= first.frame as f64 {
            return value_of(first);
        }
        let last = keys.last()?;
        if frame >= last.frame as f64 {
            return value_of(last);
        }
        let i = keys.partition_point(|k| (k.frame as f64) <= frame) - 1;
        let (a, b) = (&keys[i], &keys[i + 1]);
        if frame == a.frame as f64 {
            return value_of(a);
        }
        let va = value_of(a)?;
        if a.interp == Interp::Step || self.step_only {
            return Some(va);
        }
        let vb = value_of(b)?;
        let t = (frame - a.frame as f64) / (b.frame as f64 - a.frame as f64);
        let t = a.ease.apply(t);
        Some(blend(&va, &vb, t, self.is_rotation()))
    }
}

/// Blends two values: numbers and tuples of numbers linearly, 4-tuples of a rotation by slerp; anything else
/// (bools, strings, assets, arrays, objects, mismatched shapes) steps.
pub fn blend(a: &Value, b: &Value, t: f64, rotation: bool) -> Value {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => Value::Number(x + (y - x) * t),
        (Value::Tuple(_), Value::Tuple(_)) => match (a.as_numbers(), b.as_numbers()) {
            (Some(x), Some(y)) if x.len() == y.len() => {
                if rotation && x.len() == 4 {
                    let q = slerp([x[0], x[1], x[2], x[3]], [y[0], y[1], y[2], y[3]], t);
                    Value::Tuple(q.iter().map(|c| Value::Number(*c)).collect())
                } else {
                    Value::Tuple(
                        x.iter()
                            .zip(&y)
                            .map(|(p, q)| Value::Number(p + (q - p) * t))
                            .collect(),
                    )
                }
            }
            _ => a.clone(),
        },
        _ => a.clone(),
    }
}

/// Spherical interpolation of two quaternions `(x, y, z, w)`, along the shorter arc, normalised.
pub fn slerp(a: [f64; 4], b: [f64; 4], t: f64) -> [f64; 4] {
    let norm = |q: [f64; 4]| {
        let n = q.iter().map(|c| c * c).sum::<f64>().sqrt();
        if n == 0.0 {
            q
        } else {
            q.map(|c| c / n)
        }
    };
    let a = norm(a);
    let mut b = norm(b);
    let mut dot: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
    if dot < 0.0 {
        b = b.map(|c| -c);
        dot = -dot;
    }
    if dot > 0.9995 {
        let mut r = [0.0; 4];
        for i in 0..4 {
            r[i] = a[i] + (b[i] - a[i]) * t;
        }
        return norm(r);
    }
    let theta = dot.clamp(-1.0, 1.0).acos();
    let s = theta.sin();
    let wa = ((1.0 - t) * theta).sin() / s;
    let wb = (t * theta).sin() / s;
    let mut r = [0.0; 4];
    for i in 0..4 {
        r[i] = a[i] * wa + b[i] * wb;
    }
    r
}

/// A bone selector as text (`[0]`, `["Spine"]`).
pub fn bone_text(b: &Bone) -> String {
    match b {
        Bone::Index(i) => format!("[{i}]"),
        Bone::Name(n) => format!("[{}]", syntax::quote(n)),
    }
}
