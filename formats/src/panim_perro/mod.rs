//! Perro's text keyframe clips (`.panim`) and retarget bakes (`.pretarget`).
//!
//! A clip is read into [`Clip`]: its top-level items in file order (the `[Animation]` settings, the `[Objects]`
//! declarations, `@variables` and `[FrameN]` / `[FrameN?]` blocks with their object blocks, keys, track controls
//! and events). Entry order is data: a track control affects only the keys written after it. A frame index may have
//! more than one block: the seed marks a whole block open, so a clip that keys one object open and another closed
//! at frame N writes both `[FrameN?]` and `[FrameN]`, and both are kept as written. Only a track keyed twice at one
//! frame is an error, reported at its second key. Every item also keeps its layout (the comment and blank lines
//! before it and its text as written), so that `Clip::from_binary(text)?.to_binary()?` gives the text back byte
//! for byte; an item whose data was changed, or a clip built in code (empty layout), is printed in the canonical
//! form, and [`Clip::normalize`] prints the whole clip canonically.
//!
//! The node types, their animatable fields, the interpolation and ease names and their aliases come from
//! `schemas/panim_perro.ksy` ([`schema::tables`]). [`Clip::tracks`] gives each track's keys with their effective
//! interpolation and ease, and [`Track::sample`] evaluates a track at any frame.
//!
//! ```
//! use binspec_formats::panim_perro::Clip;
//! use binspec_formats::Format;
//! let text = "[Objects]\nHero = Node3D\n[/Objects]\n\n[Frame0]\n@Hero {\n    position = (0, 0, 0)\n}\n[/Frame0]\n\n\
//!             [Frame10]\n@Hero {\n    position = (10, 0, 0)\n}\n[/Frame10]\n";
//! let clip = Clip::from_binary(text.as_bytes()).unwrap();
//! assert_eq!(clip.to_binary().unwrap(), text.as_bytes());
//! let x = clip.sample("@Hero.position", 5.0).unwrap();
//! assert_eq!(x.unwrap().to_string(), "(5, 0, 0)");
//! ```

use serde::{Deserialize, Serialize};

use binspec_runtime::{Error, Format, Info, Result};

pub mod docs;
mod entries;
pub mod eval;
pub mod pretarget;
mod read;
pub mod schema;
pub mod syntax;
mod write;

#[cfg(test)]
mod tests;

pub use eval::{KeyMode, Track, TrackId, TrackKey};
pub use pretarget::Retarget;
pub use syntax::{Bone, FieldPath, Reference, Value};

/// The layout of one line (or one multi-line entry): what was written before it and how it was written. The
/// default (both `None`) prints canonically.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lay {
    /// The blank and comment lines before the item, verbatim with their line ends (`None`: the canonical
    /// spacing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    /// The item's text as written, without its line end; printed as it is while it still reads as the item's
    /// data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<String>,
}

impl Lay {
    /// Whether this is the default (canonical) layout.
    pub fn is_default(&self) -> bool {
        self.before.is_none() && self.raw.is_none()
    }
}

/// The layout of a block: its opening and closing lines.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockLayout {
    /// The opening line (`[Frame0]`, `@Hero {`).
    #[serde(default, skip_serializing_if = "Lay::is_default")]
    pub open: Lay,
    /// The closing line (`[/Frame0]`, `}`); `before` holds the comment lines at the end of the block.
    #[serde(default, skip_serializing_if = "Lay::is_default")]
    pub close: Lay,
}

impl BlockLayout {
    /// Whether this is the default layout.
    pub fn is_default(&self) -> bool {
        self.open.is_default() && self.close.is_default()
    }
}

/// The layout of the whole file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClipLayout {
    /// The blank and comment lines after the last item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// `false` when the file does not end with a line end (`None`: it does).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_newline: Option<bool>,
    /// Whether the file starts with a UTF-8 byte order mark.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bom: bool,
}

impl ClipLayout {
    /// Whether this is the default layout.
    pub fn is_default(&self) -> bool {
        self == &ClipLayout::default()
    }
}

/// How a track's keys are blended ([`schema::Tables::interp`] gives the names and aliases).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Interp {
    /// Hold the previous key's value until the next key.
    Step,
    /// Blend across the key interval.
    #[default]
    Interpolate,
}

/// How time is shaped within a segment ([`schema::Tables::ease`] gives the names and aliases).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ease {
    /// Constant rate.
    #[default]
    Linear,
    /// Slow start.
    EaseIn,
    /// Slow end.
    EaseOut,
    /// Slow start and slow end.
    EaseInOut,
}

impl Interp {
    /// Every variant, in schema order.
    pub const ALL: [Interp; 2] = [Interp::Step, Interp::Interpolate];
    /// The canonical name (the schema's enum id).
    pub fn id(self) -> &'static str {
        match self {
            Interp::Step => "step",
            Interp::Interpolate => "interpolate",
        }
    }
    /// The variant a name or alias (from the schema) stands for.
    pub fn from_name(name: &str) -> Option<Interp> {
        let e = schema::tables()
            .interp
            .iter()
            .find(|e| e.id == name || e.aliases.iter().any(|a| a == name))?;
        Interp::ALL.into_iter().find(|v| v.id() == e.id)
    }
}

impl Ease {
    /// Every variant, in schema order.
    pub const ALL: [Ease; 4] = [Ease::Linear, Ease::EaseIn, Ease::EaseOut, Ease::EaseInOut];
    /// The canonical name (the schema's enum id).
    pub fn id(self) -> &'static str {
        match self {
            Ease::Linear => "linear",
            Ease::EaseIn => "ease_in",
            Ease::EaseOut => "ease_out",
            Ease::EaseInOut => "ease_in_out",
        }
    }
    /// The variant a name or alias (from the schema) stands for.
    pub fn from_name(name: &str) -> Option<Ease> {
        let e = schema::tables()
            .ease
            .iter()
            .find(|e| e.id == name || e.aliases.iter().any(|a| a == name))?;
        Ease::ALL.into_iter().find(|v| v.id() == e.id)
    }
    /// Shapes time `t` in 0..=1 (quadratic curves).
    pub fn apply(self, t: f64) -> f64 {
        let t = t.clamp(0.0, 1.0);
        match self {
            Ease::Linear => t,
            Ease::EaseIn => t * t,
            Ease::EaseOut => 1.0 - (1.0 - t) * (1.0 - t),
            Ease::EaseInOut => {
                if t < 0.5 {
                    2.0 * t * t
                } else {
                    1.0 - (2.0 - 2.0 * t).powi(2) / 2.0
                }
            }
        }
    }
}

/// A whole clip: its top-level items in file order, and the file's layout.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(from = "ClipDoc")]
pub struct Clip {
    /// `[Animation]`, `[Objects]`, `@variables` and frames, in file order.
    pub items: Vec<Item>,
    /// The end of the file.
    pub layout: ClipLayout,
}

/// A top-level item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Item {
    /// `[Animation] ... [/Animation]`.
    Animation(Animation),
    /// `[Objects] ... [/Objects]`.
    Objects(Objects),
    /// `@name = value`.
    Variable(Variable),
    /// `[FrameN] ... [/FrameN]` or `[FrameN?] ... [/FrameN]`.
    Frame(Frame),
}

/// The `[Animation]` block: its settings in written order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Animation {
    /// The settings.
    #[serde(default)]
    pub settings: Vec<Setting>,
    /// Layout.
    #[serde(default, skip_serializing_if = "BlockLayout::is_default")]
    pub layout: BlockLayout,
}

/// One `[Animation]` key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Setting {
    /// The key and its value.
    #[serde(flatten)]
    pub value: SettingValue,
    /// Layout (which alias of the key or of the value was written).
    #[serde(default, skip_serializing_if = "Lay::is_default")]
    pub layout: Lay,
}

/// The value of an `[Animation]` key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SettingValue {
    /// `name`.
    Name(String),
    /// `fps`.
    Fps(f64),
    /// `default_interp` / `default_interpolation`.
    DefaultInterp(Interp),
    /// `default_ease` / `default_easing`.
    DefaultEase(Ease),
}

/// The effective `[Animation]` settings (defaults filled in) and the derived frame count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settings {
    /// `name` (default `Animation`).
    pub name: String,
    /// `fps` (default 60).
    pub fps: f64,
    /// `default_interp` (default `interpolate`).
    pub default_interp: Interp,
    /// `default_ease` (default `linear`).
    pub default_ease: Ease,
    /// The largest frame index + 1 (0 without frames).
    pub total_frames: u64,
}

/// The `[Objects]` block.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Objects {
    /// The declarations, in written order.
    #[serde(default)]
    pub objects: Vec<ObjectDecl>,
    /// Layout.
    #[serde(default, skip_serializing_if = "BlockLayout::is_default")]
    pub layout: BlockLayout,
}

/// `Name = NodeType`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectDecl {
    /// The object's name (the track key used for bindings).
    pub name: String,
    /// Its node type (`Node3D`).
    pub node_type: String,
    /// Layout.
    #[serde(default, skip_serializing_if = "Lay::is_default")]
    pub layout: Lay,
}

/// `@name = value` at the top level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variable {
    /// The name, without `@`.
    pub name: String,
    /// The value.
    pub value: Value,
    /// Layout.
    #[serde(default, skip_serializing_if = "Lay::is_default")]
    pub layout: Lay,
}

/// A `[FrameN]` block, or an open `[FrameN?]` one. Several blocks may have one index (an open and a closed one
/// key different tracks at that frame); a track is keyed at most once per frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Frame {
    /// N.
    pub index: u32,
    /// `[FrameN?]`: every key in it is open (its segment starts from the runtime value).
    #[serde(default)]
    pub open: bool,
    /// Object blocks and frame-level events, in written order.
    #[serde(default)]
    pub entries: Vec<FrameEntry>,
    /// Layout.
    #[serde(default, skip_serializing_if = "BlockLayout::is_default")]
    pub layout: BlockLayout,
}

/// An entry of a frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FrameEntry {
    /// `@Object { ... }`.
    Object(ObjectBlock),
    /// A frame-level event (`emit_signal = { ... }`).
    Event(Event),
}

/// `@Object { ... }` in a frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectBlock {
    /// The declared object's name, without `@`.
    pub object: String,
    /// Keys, controls and events, in written order.
    #[serde(default)]
    pub entries: Vec<ObjectEntry>,
    /// Layout.
    #[serde(default, skip_serializing_if = "BlockLayout::is_default")]
    pub layout: BlockLayout,
}

/// An entry of an object block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectEntry {
    /// `field = value`.
    Key(Key),
    /// `field.interp = "..."` or `field.ease = "..."`.
    Control(Control),
    /// `emit_signal`, `call_method`, `set_var`.
    Event(Event),
}

/// A field keyframe.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Key {
    /// The field.
    pub field: FieldPath,
    /// Its value at this frame.
    pub value: Value,
    /// Layout.
    #[serde(default, skip_serializing_if = "Lay::is_default")]
    pub layout: Lay,
}

/// A track control line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Control {
    /// The field whose track it controls.
    pub field: FieldPath,
    /// What it sets.
    #[serde(flatten)]
    pub set: ControlValue,
    /// Layout (which alias was written).
    #[serde(default, skip_serializing_if = "Lay::is_default")]
    pub layout: Lay,
}

/// What a control line sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ControlValue {
    /// `field.interp`.
    Interp(Interp),
    /// `field.ease`.
    Ease(Ease),
}

/// An event kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// `emit_signal`.
    EmitSignal,
    /// `call_method`.
    CallMethod,
    /// `set_var`.
    SetVar,
}

impl EventKind {
    /// Every kind.
    pub const ALL: [EventKind; 3] = [
        EventKind::EmitSignal,
        EventKind::CallMethod,
        EventKind::SetVar,
    ];
    /// The key that writes it (the schema's `-events` name).
    pub fn id(self) -> &'static str {
        match self {
            EventKind::EmitSignal => "emit_signal",
            EventKind::CallMethod => "call_method",
            EventKind::SetVar => "set_var",
        }
    }
    /// The kind a key names.
    pub fn from_name(name: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| k.id() == name)
    }
}

/// An event: `kind = { name = "...", params = [...] }` (or `value = ...` for `set_var`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Event {
    /// Which event.
    pub kind: EventKind,
    /// Its object value.
    pub value: Value,
    /// Layout.
    #[serde(default, skip_serializing_if = "Lay::is_default")]
    pub layout: Lay,
}

impl Event {
    /// The `name` of the event, if it is a string.
    pub fn name(&self) -> Option<&str> {
        match self.value.get("name") {
            Some(Value::String(s)) => Some(s),
            _ => None,
        }
    }
}

/// What `binspec decode` prints: the items (what `encode` reads back) and, computed and ignored on the way back,
/// the effective settings, every track with its keys' mode, interpolation and ease, and the events by frame.
#[derive(Serialize)]
struct ClipView<'a> {
    settings: Settings,
    items: &'a [Item],
    #[serde(skip_serializing_if = "ClipLayout::is_default")]
    layout: &'a ClipLayout,
    tracks: Vec<Track>,
    events: Vec<FrameEvent<'a>>,
}

/// What `binspec encode` reads: [`ClipView`], whose computed parts are ignored, and nothing else (a field no
/// clip has, such as a document of another format, is an error rather than an empty clip).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClipDoc {
    #[serde(default)]
    items: Vec<Item>,
    #[serde(default)]
    layout: ClipLayout,
    #[serde(default, rename = "settings")]
    _settings: serde::de::IgnoredAny,
    #[serde(default, rename = "tracks")]
    _tracks: serde::de::IgnoredAny,
    #[serde(default, rename = "events")]
    _events: serde::de::IgnoredAny,
}

impl From<ClipDoc> for Clip {
    fn from(doc: ClipDoc) -> Clip {
        let ClipDoc { items, layout, .. } = doc;
        Clip { items, layout }
    }
}

/// One event with its frame, for the decoded document.
#[derive(Serialize)]
struct FrameEvent<'a> {
    frame: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    object: Option<&'a str>,
    kind: EventKind,
    value: &'a Value,
}

impl Serialize for Clip {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        ClipView {
            settings: self.settings(),
            items: &self.items,
            layout: &self.layout,
            tracks: self.tracks(),
            events: self
                .events()
                .into_iter()
                .map(|(frame, object, e)| FrameEvent {
                    frame,
                    object,
                    kind: e.kind,
                    value: &e.value,
                })
                .collect(),
        }
        .serialize(s)
    }
}

impl Clip {
    /// Reads a clip from its text; errors are `LINE:COLUMN: what`.
    pub fn parse(text: &str) -> Result<Clip> {
        read::parse(text)
    }

    /// The clip as text: items whose layout still matches are printed as written, the rest canonically.
    pub fn print(&self) -> String {
        write::print(self, false)
    }

    /// The clip in canonical text (comments dropped, canonical spacing, names and aliases).
    pub fn normalize(&self) -> String {
        write::print(self, true)
    }

    /// The `[Animation]` block, if there is one.
    pub fn animation(&self) -> Option<&Animation> {
        self.items.iter().find_map(|i| match i {
            Item::Animation(a) => Some(a),
            _ => None,
        })
    }

    /// Every declared object.
    pub fn objects(&self) -> impl Iterator<Item = &ObjectDecl> {
        self.items
            .iter()
            .filter_map(|i| match i {
                Item::Objects(o) => Some(o.objects.iter()),
                _ => None,
            })
            .flatten()
    }

    /// Every frame, in file order.
    pub fn frames(&self) -> impl Iterator<Item = &Frame> {
        self.items.iter().filter_map(|i| match i {
            Item::Frame(f) => Some(f),
            _ => None,
        })
    }

    /// Every top-level variable.
    pub fn variables(&self) -> impl Iterator<Item = &Variable> {
        self.items.iter().filter_map(|i| match i {
            Item::Variable(v) => Some(v),
            _ => None,
        })
    }

    /// The effective settings.
    pub fn settings(&self) -> Settings {
        let mut s = Settings {
            name: "Animation".into(),
            fps: 60.0,
            default_interp: Interp::Interpolate,
            default_ease: Ease::Linear,
            total_frames: self.frames().map(|f| f.index as u64 + 1).max().unwrap_or(0),
        };
        for set in self.animation().into_iter().flat_map(|a| &a.settings) {
            match &set.value {
                SettingValue::Name(n) => s.name = n.clone(),
                SettingValue::Fps(f) => s.fps = *f,
                SettingValue::DefaultInterp(i) => s.default_interp = *i,
                SettingValue::DefaultEase(e) => s.default_ease = *e,
            }
        }
        s
    }

    /// Events per frame: (frame index, object if object-scoped, event), in file order.
    pub fn events(&self) -> Vec<(u32, Option<&str>, &Event)> {
        let mut out = Vec::new();
        for f in self.frames() {
            for e in &f.entries {
                match e {
                    FrameEntry::Event(ev) => out.push((f.index, None, ev)),
                    FrameEntry::Object(o) => {
                        for oe in &o.entries {
                            if let ObjectEntry::Event(ev) = oe {
                                out.push((f.index, Some(o.object.as_str()), ev));
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

impl Format for Clip {
    const ID: &'static str = "panim-perro";
    const TITLE: &'static str = "Perro animation clip (.panim, text)";
    const EXTENSIONS: &'static [&'static str] = &["panim"];

    /// The first line that is neither blank nor a comment is `[Animation]`, `[Objects]`, `[Frame…` or
    /// `@name =`, and the start of the file is text (no NUL bytes, valid UTF-8).
    fn sniff(data: &[u8]) -> bool {
        let Some(line) = read::first_line(data) else {
            return false;
        };
        read::looks_like_clip_line(line)
    }

    fn from_binary(data: &[u8]) -> Result<Self> {
        let text = std::str::from_utf8(data).map_err(|e| {
            let (line, col) = read::line_col(
                &String::from_utf8_lossy(&data[..e.valid_up_to()]),
                e.valid_up_to(),
            );
            Error::new(
                binspec_runtime::error::ErrorKind::Invalid {
                    message: format!("{line}:{col}: the clip is not valid UTF-8 text"),
                },
                None,
            )
        })?;
        Clip::parse(text)
    }

    fn to_binary(&self) -> Result<Vec<u8>> {
        let text = self.print();
        // What is written must read back: a model edited into something invalid is refused here.
        Clip::parse(&text).map_err(|e| {
            Error::write(format!(
                "the clip as written does not read back: {}",
                e.message()
            ))
        })?;
        Ok(text.into_bytes())
    }

    fn info(&self) -> Info {
        let s = self.settings();
        let tracks = self.tracks();
        Info {
            format: Self::ID,
            version: None,
            endian: None,
            summary: vec![
                ("name".into(), s.name.clone()),
                ("fps".into(), syntax::fmt_number(s.fps)),
                ("objects".into(), self.objects().count().to_string()),
                ("frames".into(), self.frames().count().to_string()),
                ("total frames".into(), s.total_frames.to_string()),
                ("tracks".into(), tracks.len().to_string()),
                (
                    "keys".into(),
                    tracks
                        .iter()
                        .map(|t| t.keys.len())
                        .sum::<usize>()
                        .to_string(),
                ),
                ("events".into(), self.events().len().to_string()),
                ("variables".into(), self.variables().count().to_string()),
            ],
        }
    }
}

impl binspec_runtime::format::MaybeArchive for Clip {}
