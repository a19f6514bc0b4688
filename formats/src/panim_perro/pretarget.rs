//! Retarget bakes (`.pretarget`, beside a clip): `key = value` settings, `bone source => target` alias rows and
//! `source_rest` / `target_rest` rows (`position | rotation quaternion | scale`, scale optional). A second format,
//! `panim-pretarget`, with the same layout-keeping round trip as clips.

use serde::{Deserialize, Serialize};
use winnow::prelude::*;
use winnow::token::take_while;

use binspec_runtime::{Error, Format, Info, Result};

use super::read::{error_at, line_col, trailing_ok, trivia_ok};
use super::schema::did_you_mean;
use super::syntax::{self, SynErr, Value};
use super::{ClipLayout, Lay};

/// A retarget bake file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Retarget {
    /// The rows, in file order.
    #[serde(default)]
    pub rows: Vec<Row>,
    /// The end of the file.
    #[serde(default, skip_serializing_if = "ClipLayout::is_default")]
    pub layout: ClipLayout,
}

/// One row and its layout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// What it says.
    #[serde(flatten)]
    pub entry: Entry,
    /// Layout.
    #[serde(default, skip_serializing_if = "Lay::is_default")]
    pub layout: Lay,
}

/// `translation = ...`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Translation {
    /// Keeps every bone position channel (the old map behaviour).
    All,
    /// Keeps the root bone's position channels only (needs `root_bone`).
    RootOnly,
    /// Removes every bone position channel.
    None,
}

impl Translation {
    const ALL: [(&'static str, Translation); 3] = [
        ("all", Translation::All),
        ("root_only", Translation::RootOnly),
        ("none", Translation::None),
    ];
    fn id(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("all", |(n, _)| n)
    }
}

/// A rest transform: local position, rotation quaternion, and scale (`None`: omitted, `(1, 1, 1)`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rest {
    /// Local position.
    pub position: [f64; 3],
    /// Rotation quaternion `(x, y, z, w)`.
    pub rotation: [f64; 4],
    /// Scale; `None` when omitted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<[f64; 3]>,
}

impl Rest {
    /// The scale, `(1, 1, 1)` when omitted.
    pub fn scale(&self) -> [f64; 3] {
        self.scale.unwrap_or([1.0; 3])
    }
}

/// What a row says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Entry {
    /// `source = Rig`.
    Source(String),
    /// `target = HeroRig`.
    Target(String),
    /// `keep_unmapped = true|false`: exact names need no bone row when true.
    KeepUnmapped(bool),
    /// `translation = all|root_only|none`.
    Translation(Translation),
    /// `root_bone = hips`.
    RootBone(String),
    /// `bone source => target`.
    Bone {
        /// The source rig's bone.
        source: String,
        /// The target rig's bone.
        target: String,
    },
    /// `source_rest bone = position | rotation | scale`.
    SourceRest {
        /// The bone.
        bone: String,
        /// Its rest transform.
        rest: Rest,
    },
    /// `target_rest bone = position | rotation | scale`.
    TargetRest {
        /// The bone.
        bone: String,
        /// Its rest transform.
        rest: Rest,
    },
}

const KEYS: [&str; 8] = [
    "source",
    "target",
    "keep_unmapped",
    "translation",
    "root_bone",
    "bone",
    "source_rest",
    "target_rest",
];

fn name<'a>(i: &mut &'a str) -> ModalResult<&'a str> {
    take_while(1.., |c: char| {
        !c.is_whitespace() && c != '=' && c != '|' && c != '/'
    })
    .parse_next(i)
}

fn sp(i: &mut &str) -> ModalResult<()> {
    take_while(0.., [' ', '\t']).void().parse_next(i)
}

fn err(at: usize, msg: impl Into<String>) -> SynErr {
    SynErr {
        at,
        msg: msg.into(),
    }
}

fn numbers<const N: usize>(
    v: &Value,
    at: usize,
    what: &str,
) -> std::result::Result<[f64; N], SynErr> {
    v.as_numbers()
        .and_then(|n| <[f64; N]>::try_from(n).ok())
        .ok_or_else(|| err(at, format!("{what} is a tuple of {N} numbers")))
}

/// Parses one row.
pub(crate) fn row(text: &str) -> std::result::Result<Entry, SynErr> {
    let total = text.len();
    let off = |i: &&str| total - i.len();
    let mut i = text;
    let _ = sp(&mut i);
    let key_at = off(&i);
    let key = syntax::ident(&mut i).map_err(|_| err(key_at, "expected a key (source, target, keep_unmapped, translation, root_bone, bone, source_rest or target_rest)"))?;
    let _ = sp(&mut i);
    let entry = match key {
        "bone" => {
            let at = off(&i);
            let source = name(&mut i)
                .map_err(|_| err(at, "expected `bone source => target`"))?
                .to_string();
            let _ = sp(&mut i);
            let at = off(&i);
            "=>".parse_next(&mut i).map_err(
                |_: winnow::error::ErrMode<winnow::error::ContextError>| {
                    err(at, "expected `=>` (bone source => target)")
                },
            )?;
            let _ = sp(&mut i);
            let at = off(&i);
            let target = name(&mut i)
                .map_err(|_| err(at, "expected the target bone after `=>`"))?
                .to_string();
            Entry::Bone { source, target }
        }
        "source_rest" | "target_rest" => {
            let at = off(&i);
            let bone = name(&mut i)
                .map_err(|_| {
                    err(
                        at,
                        format!("expected `{key} bone = position | rotation | scale`"),
                    )
                })?
                .to_string();
            let _ = sp(&mut i);
            let at = off(&i);
            '='.parse_next(&mut i).map_err(
                |_: winnow::error::ErrMode<winnow::error::ContextError>| err(at, "expected `=`"),
            )?;
            let mut parts = Vec::new();
            loop {
                let _ = sp(&mut i);
                let at = off(&i);
                let v = syntax::value(&mut i, 0).map_err(|_| err(at, "expected a tuple"))?;
                parts.push((v, at));
                let _ = sp(&mut i);
                match i.strip_prefix('|') {
                    Some(rest) => i = rest,
                    None => break,
                }
            }
            if parts.len() < 2 || parts.len() > 3 {
                return Err(err(
                    key_at,
                    "a rest row is `position | rotation quaternion | scale` (scale may be omitted)",
                ));
            }
            let rest = Rest {
                position: numbers::<3>(&parts[0].0, parts[0].1, "the position")?,
                rotation: numbers::<4>(&parts[1].0, parts[1].1, "the rotation quaternion")?,
                scale: match parts.get(2) {
                    Some((v, at)) => Some(numbers::<3>(v, *at, "the scale")?),
                    None => None,
                },
            };
            if key == "source_rest" {
                Entry::SourceRest { bone, rest }
            } else {
                Entry::TargetRest { bone, rest }
            }
        }
        "source" | "target" | "keep_unmapped" | "translation" | "root_bone" => {
            let at = off(&i);
            '='.parse_next(&mut i).map_err(
                |_: winnow::error::ErrMode<winnow::error::ContextError>| err(at, "expected `=`"),
            )?;
            let _ = sp(&mut i);
            let at = off(&i);
            let v = name(&mut i)
                .map_err(|_| err(at, format!("expected a value for {key}")))?
                .to_string();
            match key {
                "source" => Entry::Source(v),
                "target" => Entry::Target(v),
                "root_bone" => Entry::RootBone(v),
                "keep_unmapped" => match v.as_str() {
                    "true" => Entry::KeepUnmapped(true),
                    "false" => Entry::KeepUnmapped(false),
                    _ => return Err(err(at, "keep_unmapped is true or false")),
                },
                _ => match Translation::ALL.iter().find(|(n, _)| *n == v) {
                    Some((_, t)) => Entry::Translation(*t),
                    None => {
                        return Err(err(
                            at,
                            format!(
                                "unknown translation `{v}`{} (all, root_only or none)",
                                did_you_mean(&v, Translation::ALL.iter().map(|(n, _)| *n))
                                    .map(|m| format!(" (did you mean {m}?)"))
                                    .unwrap_or_default()
                            ),
                        ))
                    }
                },
            }
        }
        other => {
            return Err(err(
                key_at,
                format!(
                    "unknown key `{other}`{} (keys: {})",
                    did_you_mean(other, KEYS)
                        .map(|m| format!(" (did you mean {m}?)"))
                        .unwrap_or_default(),
                    KEYS.join(", ")
                ),
            ))
        }
    };
    let at = off(&i);
    syntax::end(&mut i).map_err(|_| err(at, "unexpected text after the row"))?;
    Ok(entry)
}

fn fmt3(v: &[f64]) -> String {
    format!(
        "({})",
        v.iter()
            .map(|x| syntax::fmt_number(*x))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn canon(e: &Entry) -> String {
    match e {
        Entry::Source(s) => format!("source = {s}"),
        Entry::Target(s) => format!("target = {s}"),
        Entry::KeepUnmapped(b) => format!("keep_unmapped = {b}"),
        Entry::Translation(t) => format!("translation = {}", t.id()),
        Entry::RootBone(s) => format!("root_bone = {s}"),
        Entry::Bone { source, target } => format!("bone {source} => {target}"),
        Entry::SourceRest { bone, rest } | Entry::TargetRest { bone, rest } => {
            let k = if matches!(e, Entry::SourceRest { .. }) {
                "source_rest"
            } else {
                "target_rest"
            };
            let mut s = format!(
                "{k} {bone} = {} | {}",
                fmt3(&rest.position),
                fmt3(&rest.rotation)
            );
            if let Some(sc) = rest.scale {
                s.push_str(&format!(" | {}", fmt3(&sc)));
            }
            s
        }
    }
}

fn is_trivia(l: &str) -> bool {
    let t = l.trim();
    t.is_empty() || t.starts_with("//")
}

impl Retarget {
    /// Reads a retarget file; errors are `LINE:COLUMN: what`.
    pub fn parse(text: &str) -> Result<Retarget> {
        let (bom, body) = match text.strip_prefix('\u{feff}') {
            Some(b) => (true, b),
            None => (false, text),
        };
        let mut r = Retarget::default();
        let mut before = String::new();
        let mut off = 0;
        let mut translation_at: Option<usize> = None;
        for l in body.split_inclusive('\n') {
            let start = off;
            off += l.len();
            let text = l.strip_suffix('\n').unwrap_or(l);
            if is_trivia(text) {
                before.push_str(l);
                continue;
            }
            let entry = row(text).map_err(|e| {
                let (ln, c) = line_col(body, start + e.at);
                error_at(ln, c, e.msg)
            })?;
            if entry == Entry::Translation(Translation::RootOnly) {
                translation_at = Some(start);
            }
            let raw = (canon(&entry) != text).then(|| text.to_string());
            r.rows.push(Row {
                entry,
                layout: Lay {
                    before: Some(std::mem::take(&mut before)).filter(|b| !b.is_empty()),
                    raw,
                },
            });
        }
        if let Some(at) = translation_at {
            if !r.rows.iter().any(|x| matches!(x.entry, Entry::RootBone(_))) {
                let (ln, c) = line_col(body, at);
                return Err(error_at(
                    ln,
                    c,
                    "translation = root_only needs a root_bone = NAME row",
                ));
            }
        }
        r.layout = ClipLayout {
            after: (!before.is_empty()).then_some(before),
            final_newline: (!(body.is_empty() || body.ends_with('\n'))).then_some(false),
            bom,
        };
        Ok(r)
    }

    /// The file as text: rows as written while they still read as their data, the rest canonically.
    pub fn print(&self) -> String {
        let mut out = String::new();
        if self.layout.bom {
            out.push('\u{feff}');
        }
        for r in &self.rows {
            if let Some(b) = r.layout.before.as_deref().filter(|b| trivia_ok(b)) {
                out.push_str(b);
            }
            match &r.layout.raw {
                Some(raw) if row(raw).is_ok_and(|e| e == r.entry) => out.push_str(raw),
                _ => out.push_str(&canon(&r.entry)),
            }
            out.push('\n');
        }
        if let Some(a) = self.layout.after.as_deref().filter(|a| trailing_ok(a)) {
            out.push_str(a);
        }
        if self.layout.final_newline == Some(false) && out.ends_with('\n') {
            out.pop();
        }
        out
    }
}

impl Format for Retarget {
    const ID: &'static str = "panim-pretarget";
    const TITLE: &'static str = "Perro retarget bake (.pretarget)";
    const EXTENSIONS: &'static [&'static str] = &["pretarget"];

    /// The first line that is not blank or a comment is a retarget row (`source = `, `bone a => b`, ...).
    fn sniff(data: &[u8]) -> bool {
        let Some(line) = super::read::first_line(data) else {
            return false;
        };
        let word = line
            .split(|c: char| c.is_whitespace() || c == '=')
            .next()
            .unwrap_or("");
        KEYS.contains(&word) && row(line).is_ok()
    }

    fn from_binary(data: &[u8]) -> Result<Self> {
        let text = std::str::from_utf8(data)
            .map_err(|_| Error::other("the retarget file is not valid UTF-8 text"))?;
        Retarget::parse(text)
    }

    fn to_binary(&self) -> Result<Vec<u8>> {
        let text = self.print();
        Retarget::parse(&text).map_err(|e| {
            Error::write(format!(
                "the retarget file as written does not read back: {}",
                e.message()
            ))
        })?;
        Ok(text.into_bytes())
    }

    fn info(&self) -> Info {
        let count =
            |f: fn(&Entry) -> bool| self.rows.iter().filter(|r| f(&r.entry)).count().to_string();
        let mut summary = Vec::new();
        for r in &self.rows {
            match &r.entry {
                Entry::Source(s) => summary.push(("source".into(), s.clone())),
                Entry::Target(s) => summary.push(("target".into(), s.clone())),
                Entry::Translation(t) => summary.push(("translation".into(), t.id().into())),
                _ => {}
            }
        }
        summary.push((
            "bone rows".into(),
            count(|e| matches!(e, Entry::Bone { .. })),
        ));
        summary.push((
            "rest rows".into(),
            count(|e| matches!(e, Entry::SourceRest { .. } | Entry::TargetRest { .. })),
        ));
        Info {
            format: Self::ID,
            version: None,
            endian: None,
            summary,
        }
    }
}

impl binspec_runtime::format::MaybeArchive for Retarget {}
