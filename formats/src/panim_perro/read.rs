//! The clip reader: logical lines (a value may span lines) into blocks, entries and their layout, then the checks
//! that need the whole file (declared objects, animatable fields, references). Errors are `LINE:COLUMN: what`.

use std::collections::{BTreeMap, HashMap};

use binspec_runtime::error::ErrorKind;
use binspec_runtime::{Error, Result};

use super::entries::{
    check_field, decl, frame_event, header_text, object_entry, seg_text, setting, ObjectEntryData,
};
use super::schema::{did_you_mean, tables};
use super::syntax::{self, HeaderKind, Line, SynErr, Value};
use super::*;

/// An error at a position: `LINE:COLUMN: what`.
pub(crate) fn error_at(line: usize, col: usize, msg: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorKind::Invalid {
            message: format!("{line}:{col}: {msg}"),
        },
        None,
    )
}

/// The 1-based line and column (in characters) of a byte offset.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..floor_char(text, offset)];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |p| p + 1);
    (line, before[start..].chars().count() + 1)
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The first line that is not blank or a comment, if the start of the data is text.
pub(crate) fn first_line(data: &[u8]) -> Option<&str> {
    let head = &data[..data.len().min(4096)];
    if head.contains(&0) {
        return None;
    }
    let text = match std::str::from_utf8(head) {
        Ok(t) => t,
        // A character cut by the 4 KiB window is fine; anything else is not text.
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&head[..e.valid_up_to()]).ok()?,
        Err(_) => return None,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("//"))
}

/// Whether a line opens a clip: `[Animation]`, `[Objects]`, `[Frame…`, or `@name =`.
pub(crate) fn looks_like_clip_line(line: &str) -> bool {
    if line.starts_with("[Animation]") || line.starts_with("[Objects]") {
        return true;
    }
    if let Some(rest) = line.strip_prefix("[Frame") {
        return rest.starts_with(|c: char| c.is_ascii_digit());
    }
    if let Some(rest) = line.strip_prefix('@') {
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        return name_len > 0 && rest[name_len..].trim_start().starts_with('=');
    }
    false
}

fn is_trivia(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with("//")
}

/// Whether text is only blank and comment lines, each ending with a line end (a `before` that can be printed).
pub(crate) fn trivia_ok(s: &str) -> bool {
    s.is_empty() || (s.ends_with('\n') && s.split_inclusive('\n').all(is_trivia))
}

/// Whether text is only blank and comment lines (the last may lack its line end): the end of a file.
pub(crate) fn trailing_ok(s: &str) -> bool {
    s.split_inclusive('\n').all(is_trivia)
}

struct Logical {
    start: usize,
    raw: String,
    before: String,
}

/// A check that needs the whole file.
enum Pending {
    /// `@X {` in a frame.
    Object { name: String, at: usize },
    /// A key or control on a field of an object.
    Field {
        object: String,
        field: FieldPath,
        at: usize,
    },
    /// `@X` or `@X.field` in a value.
    Ref { r: Reference, at: usize },
    /// A key of a track that is already keyed at its frame.
    Duplicate {
        /// The second key.
        at: usize,
        /// Its field as written.
        field: String,
        /// The first key.
        first: FirstKey,
        /// The track.
        id: TrackId,
        /// The frame.
        frame: u32,
    },
}

/// Where a track was first keyed at a frame.
#[derive(Clone)]
struct FirstKey {
    at: usize,
    /// Whether its block is `[FrameN?]`.
    open: bool,
    /// Its field as written (`rotation` or `rotation_deg`).
    field: String,
}

struct Reader<'a> {
    src: &'a str,
    /// (start offset, text without the line end) of each physical line.
    lines: Vec<(usize, &'a str)>,
    pos: usize,
    pending: Vec<Pending>,
    /// The first key of each track at each frame (an open and a closed block of one frame may key different
    /// tracks; one track is keyed once per frame).
    keyed: HashMap<(TrackId, u32), FirstKey>,
}

/// Reads a clip.
pub(crate) fn parse(text: &str) -> Result<Clip> {
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(b) => (true, b),
        None => (false, text),
    };
    let mut lines = Vec::new();
    let mut off = 0;
    for l in body.split_inclusive('\n') {
        lines.push((off, l.strip_suffix('\n').unwrap_or(l)));
        off += l.len();
    }
    let mut r = Reader {
        src: body,
        lines,
        pos: 0,
        pending: Vec::new(),
        keyed: HashMap::new(),
    };
    let mut clip = r.top()?;
    quiet(&mut clip);
    drop_canonical_raw(&mut clip);
    clip.layout.bom = bom;
    clip.layout.final_newline = (!(body.is_empty() || body.ends_with('\n'))).then_some(false);
    r.check(&clip)?;
    Ok(clip)
}

/// Drops each `before` that equals what the canonical form puts there (nothing inside blocks, a blank line
/// between top-level items), so that decoded documents carry only the layout that differs.
fn quiet(clip: &mut Clip) {
    fn inner(l: &mut Lay) {
        if l.before.as_deref() == Some("") {
            l.before = None;
        }
    }
    fn block(b: &mut BlockLayout) {
        inner(&mut b.close);
    }
    let mut prev_var: Option<bool> = None;
    for item in &mut clip.items {
        let is_var = matches!(item, Item::Variable(_));
        let sep = match prev_var {
            None => "",
            Some(true) if is_var => "",
            _ => "\n",
        };
        prev_var = Some(is_var);
        let open = match item {
            Item::Animation(a) => {
                block(&mut a.layout);
                a.settings.iter_mut().for_each(|s| inner(&mut s.layout));
                &mut a.layout.open
            }
            Item::Objects(o) => {
                block(&mut o.layout);
                o.objects.iter_mut().for_each(|d| inner(&mut d.layout));
                &mut o.layout.open
            }
            Item::Variable(v) => &mut v.layout,
            Item::Frame(f) => {
                block(&mut f.layout);
                for e in &mut f.entries {
                    match e {
                        FrameEntry::Event(ev) => inner(&mut ev.layout),
                        FrameEntry::Object(b) => {
                            inner(&mut b.layout.open);
                            block(&mut b.layout);
                            for oe in &mut b.entries {
                                match oe {
                                    ObjectEntry::Key(k) => inner(&mut k.layout),
                                    ObjectEntry::Control(c) => inner(&mut c.layout),
                                    ObjectEntry::Event(ev) => inner(&mut ev.layout),
                                }
                            }
                        }
                    }
                }
                &mut f.layout.open
            }
        };
        if open.before.as_deref() == Some(sep) {
            open.before = None;
        }
    }
    if clip.layout.after.as_deref() == Some("") {
        clip.layout.after = None;
    }
}

/// Every line layout of a clip, in the order the writer prints the lines.
pub(crate) fn lays_mut(clip: &mut Clip) -> Vec<&mut Lay> {
    let mut out: Vec<&mut Lay> = Vec::new();
    for item in &mut clip.items {
        match item {
            Item::Animation(a) => {
                out.push(&mut a.layout.open);
                out.extend(a.settings.iter_mut().map(|s| &mut s.layout));
                out.push(&mut a.layout.close);
            }
            Item::Objects(o) => {
                out.push(&mut o.layout.open);
                out.extend(o.objects.iter_mut().map(|d| &mut d.layout));
                out.push(&mut o.layout.close);
            }
            Item::Variable(v) => out.push(&mut v.layout),
            Item::Frame(f) => {
                out.push(&mut f.layout.open);
                for e in &mut f.entries {
                    match e {
                        FrameEntry::Event(ev) => out.push(&mut ev.layout),
                        FrameEntry::Object(b) => {
                            out.push(&mut b.layout.open);
                            for oe in &mut b.entries {
                                out.push(match oe {
                                    ObjectEntry::Key(k) => &mut k.layout,
                                    ObjectEntry::Control(c) => &mut c.layout,
                                    ObjectEntry::Event(ev) => &mut ev.layout,
                                });
                            }
                            out.push(&mut b.layout.close);
                        }
                    }
                }
                out.push(&mut f.layout.close);
            }
        }
    }
    out
}

/// Drops each `raw` that is exactly the canonical text of its line, so that decoded documents carry only the
/// spellings that differ (and an edited value is not shadowed by a stale spelling).
fn drop_canonical_raw(clip: &mut Clip) {
    let canonical = super::write::print(clip, true);
    // In canonical text every line layout prints one non-empty line; the empty lines are separators.
    let lines: Vec<String> = canonical
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    let lays = lays_mut(clip);
    if lays.len() != lines.len() {
        return;
    }
    for (lay, line) in lays.into_iter().zip(lines) {
        if lay.raw.as_deref() == Some(line.as_str()) {
            lay.raw = None;
        }
    }
}

impl<'a> Reader<'a> {
    fn err(&self, offset: usize, msg: impl std::fmt::Display) -> Error {
        let (l, c) = line_col(self.src, offset);
        error_at(l, c, msg)
    }

    fn syn(&self, start: usize, e: SynErr) -> Error {
        self.err(start + e.at, e.msg)
    }

    fn pos_of(&self, offset: usize) -> String {
        let (l, c) = line_col(self.src, offset);
        format!("{l}:{c}")
    }

    /// The next logical line, with the blank and comment lines before it; `None` at the end (the trivia is left
    /// in `trailing`).
    fn next(&mut self, trailing: &mut String) -> Option<Logical> {
        let mut before = String::new();
        while self.pos < self.lines.len() {
            let (start, text) = self.lines[self.pos];
            if is_trivia(text) {
                before.push_str(self.line_with_end(self.pos));
                self.pos += 1;
                continue;
            }
            self.pos += 1;
            let mut raw = text.to_string();
            let mut scan = Opener::default();
            scan.feed(text);
            while scan.open() && self.pos < self.lines.len() {
                let more = self.lines[self.pos].1;
                raw.push('\n');
                raw.push_str(more);
                scan.feed("\n");
                scan.feed(more);
                self.pos += 1;
            }
            return Some(Logical { start, raw, before });
        }
        *trailing = before;
        None
    }

    fn line_with_end(&self, i: usize) -> &'a str {
        let (start, text) = self.lines[i];
        let end = (start + text.len() + 1).min(self.src.len());
        &self.src[start..end]
    }

    fn lay(l: &Logical) -> Lay {
        Lay {
            before: Some(l.before.clone()),
            raw: Some(l.raw.clone()),
        }
    }

    fn top(&mut self) -> Result<Clip> {
        let mut clip = Clip::default();
        let mut seen_animation: Option<usize> = None;
        let mut seen_objects: Option<usize> = None;
        let mut trailing = String::new();
        while let Some(l) = self.next(&mut trailing) {
            let line = syntax::line(&l.raw).map_err(|e| self.syn(l.start, e))?;
            let item = match line {
                Line::Header { close: false, kind } => match kind {
                    HeaderKind::Animation => {
                        if let Some(p) = seen_animation {
                            return Err(self.err(
                                l.start,
                                format!("a second [Animation] block (the first is at {})", self.pos_of(p)),
                            ));
                        }
                        seen_animation = Some(l.start);
                        Item::Animation(self.animation(l)?)
                    }
                    HeaderKind::Objects => {
                        if let Some(p) = seen_objects {
                            return Err(self.err(
                                l.start,
                                format!("a second [Objects] block (the first is at {})", self.pos_of(p)),
                            ));
                        }
                        seen_objects = Some(l.start);
                        Item::Objects(self.objects(l)?)
                    }
                    // A frame may have several blocks (an open one and a closed one key different tracks at
                    // one frame); a track keyed twice at one frame is refused at its second key.
                    HeaderKind::Frame { index, open } => Item::Frame(self.frame(l, index, open)?),
                },
                Line::Header { close: true, kind } => {
                    return Err(self.err(
                        l.start,
                        format!("{} closes no open block", header_text(kind, true)),
                    ))
                }
                Line::Variable {
                    name,
                    value,
                    value_at,
                } => {
                    self.refs(&value, l.start + value_at);
                    Item::Variable(Variable {
                        name,
                        value,
                        layout: Self::lay(&l),
                    })
                }
                Line::ObjectOpen { name, .. } => {
                    return Err(self.err(
                        l.start,
                        format!("@{name} {{ … }} belongs inside a [FrameN] block"),
                    ))
                }
                Line::ObjectClose => return Err(self.err(l.start, "`}` closes no object block")),
                Line::Assign { key, .. } => {
                    return Err(self.err(
                        l.start,
                        format!(
                            "`{} = …` outside a block: keys go in [Animation], [Objects] or a @Object {{ … }} block of a \
                             [FrameN], and top-level variables start with @",
                            seg_text(&key)
                        ),
                    ))
                }
            };
            clip.items.push(item);
        }
        clip.layout.after = Some(trailing);
        Ok(clip)
    }

    /// The logical line that must close a block opened at `open_at`, or the error for a file that ends first.
    fn inner(&mut self, open_at: usize, what: &str, close: &str) -> Result<Logical> {
        let mut t = String::new();
        match self.next(&mut t) {
            Some(l) => Ok(l),
            None => Err(self.err(
                open_at,
                format!("{what} is never closed (expected {close} before the end of the file)"),
            )),
        }
    }

    fn animation(&mut self, open: Logical) -> Result<Animation> {
        let mut a = Animation {
            settings: Vec::new(),
            layout: BlockLayout {
                open: Self::lay(&open),
                close: Lay::default(),
            },
        };
        loop {
            let l = self.inner(open.start, "[Animation]", "[/Animation]")?;
            match syntax::line(&l.raw).map_err(|e| self.syn(l.start, e))? {
                Line::Header {
                    close: true,
                    kind: HeaderKind::Animation,
                } => {
                    a.layout.close = Self::lay(&l);
                    return Ok(a);
                }
                Line::Assign {
                    key,
                    value,
                    value_at,
                } => {
                    let v = setting(&key, &value, value_at).map_err(|e| self.syn(l.start, e))?;
                    a.settings.push(Setting {
                        value: v,
                        layout: Self::lay(&l),
                    });
                }
                other => return Err(self.misplaced(&l, &other, "[Animation]", "[/Animation]")),
            }
        }
    }

    fn misplaced(&self, l: &Logical, line: &Line, inside: &str, close: &str) -> Error {
        let what = match line {
            Line::Header { close: true, kind } => {
                return self.err(
                    l.start,
                    format!(
                        "{} inside {inside}: expected {close} first",
                        header_text(*kind, true)
                    ),
                )
            }
            Line::Header { kind, .. } => header_text(*kind, false),
            Line::ObjectOpen { name, .. } => format!("@{name} {{"),
            Line::ObjectClose => "`}`".into(),
            Line::Variable { name, .. } => {
                format!("the variable @{name} (variables are top-level)")
            }
            Line::Assign { key, .. } => format!("`{}`", seg_text(key)),
        };
        self.err(
            l.start,
            format!("{what} does not belong inside {inside} (close it with {close} first)"),
        )
    }

    fn objects(&mut self, open: Logical) -> Result<Objects> {
        let mut o = Objects {
            objects: Vec::new(),
            layout: BlockLayout {
                open: Self::lay(&open),
                close: Lay::default(),
            },
        };
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        loop {
            let l = self.inner(open.start, "[Objects]", "[/Objects]")?;
            match syntax::line(&l.raw).map_err(|e| self.syn(l.start, e))? {
                Line::Header {
                    close: true,
                    kind: HeaderKind::Objects,
                } => {
                    o.layout.close = Self::lay(&l);
                    return Ok(o);
                }
                Line::Assign {
                    key,
                    value,
                    value_at,
                } => {
                    let (name, node_type) =
                        decl(&key, &value, value_at).map_err(|e| self.syn(l.start, e))?;
                    if let Some(p) = seen.get(&name) {
                        return Err(self.err(
                            l.start + key[0].at,
                            format!("object `{name}` is already declared at {}", self.pos_of(*p)),
                        ));
                    }
                    seen.insert(name.clone(), l.start + key[0].at);
                    o.objects.push(ObjectDecl {
                        name,
                        node_type,
                        layout: Self::lay(&l),
                    });
                }
                other => return Err(self.misplaced(&l, &other, "[Objects]", "[/Objects]")),
            }
        }
    }

    fn frame(&mut self, open: Logical, index: u32, is_open: bool) -> Result<Frame> {
        let tag = format!("[Frame{index}{}]", if is_open { "?" } else { "" });
        let close = format!("[/Frame{index}]");
        let mut f = Frame {
            index,
            open: is_open,
            entries: Vec::new(),
            layout: BlockLayout {
                open: Self::lay(&open),
                close: Lay::default(),
            },
        };
        loop {
            let l = self.inner(open.start, &tag, &close)?;
            match syntax::line(&l.raw).map_err(|e| self.syn(l.start, e))? {
                Line::Header {
                    close: true,
                    kind: HeaderKind::Frame { index: m, .. },
                } => {
                    if m != index {
                        return Err(self.err(
                            l.start,
                            format!(
                                "{tag} (at {}) is closed by [/Frame{m}]: expected {close}",
                                self.pos_of(open.start)
                            ),
                        ));
                    }
                    f.layout.close = Self::lay(&l);
                    return Ok(f);
                }
                Line::ObjectOpen { name, at } => {
                    let b = self.object_block(l, name, at, index, is_open)?;
                    f.entries.push(FrameEntry::Object(b));
                }
                Line::Assign {
                    key,
                    value,
                    value_at,
                } => {
                    let ev =
                        frame_event(&key, &value, value_at).map_err(|e| self.syn(l.start, e))?;
                    self.refs(&value, l.start + value_at);
                    f.entries.push(FrameEntry::Event(Event {
                        kind: ev,
                        value,
                        layout: Self::lay(&l),
                    }));
                }
                other => return Err(self.misplaced(&l, &other, &tag, &close)),
            }
        }
    }

    fn object_block(
        &mut self,
        open: Logical,
        name: String,
        at: usize,
        frame: u32,
        frame_open: bool,
    ) -> Result<ObjectBlock> {
        self.pending.push(Pending::Object {
            name: name.clone(),
            at: open.start + at - 1,
        });
        let what = format!("@{name} {{ … }}");
        let mut b = ObjectBlock {
            object: name.clone(),
            entries: Vec::new(),
            layout: BlockLayout {
                open: Self::lay(&open),
                close: Lay::default(),
            },
        };
        loop {
            let l = self.inner(open.start, &what, "`}`")?;
            match syntax::line(&l.raw).map_err(|e| self.syn(l.start, e))? {
                Line::ObjectClose => {
                    b.layout.close = Self::lay(&l);
                    return Ok(b);
                }
                Line::Assign {
                    key,
                    value,
                    value_at,
                } => {
                    let e =
                        object_entry(&key, value, value_at).map_err(|e| self.syn(l.start, e))?;
                    match &e {
                        ObjectEntryData::Key(field, value) => {
                            let at = l.start + key[0].at;
                            self.pending.push(Pending::Field {
                                object: name.clone(),
                                field: field.clone(),
                                at,
                            });
                            self.keyed_once(&name, field, frame, frame_open, at);
                            self.refs(value, l.start + value_at);
                        }
                        ObjectEntryData::Control(field, _) => self.pending.push(Pending::Field {
                            object: name.clone(),
                            field: field.clone(),
                            at: l.start + key[0].at,
                        }),
                        ObjectEntryData::Event(_, value) => self.refs(value, l.start + value_at),
                    }
                    b.entries.push(e.into_entry(Self::lay(&l)));
                }
                other => return Err(self.misplaced(&l, &other, &what, "`}`")),
            }
        }
    }

    /// Records the key of a track at a frame; a second key of it is an error (reported in file order with the
    /// other checks, after the field's own check).
    fn keyed_once(&mut self, object: &str, field: &FieldPath, frame: u32, open: bool, at: usize) {
        let id = TrackId::of(object, field);
        match self.keyed.entry((id, frame)) {
            std::collections::hash_map::Entry::Occupied(e) => {
                let ((id, frame), first) = (e.key().clone(), e.get().clone());
                self.pending.push(Pending::Duplicate {
                    at,
                    field: field.field.clone(),
                    first,
                    id,
                    frame,
                });
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(FirstKey {
                    at,
                    open,
                    field: field.field.clone(),
                });
            }
        }
    }

    fn refs(&mut self, v: &Value, at: usize) {
        for r in v.refs() {
            self.pending.push(Pending::Ref { r: r.clone(), at });
        }
    }

    /// The checks that need the whole file, in file order.
    fn check(&mut self, clip: &Clip) -> Result<()> {
        let t = tables();
        let objects: BTreeMap<&str, &str> = clip
            .objects()
            .map(|o| (o.name.as_str(), o.node_type.as_str()))
            .collect();
        let vars: Vec<&str> = clip.variables().map(|v| v.name.as_str()).collect();
        let mut pending = std::mem::take(&mut self.pending);
        pending.sort_by_key(|p| match p {
            Pending::Object { at, .. }
            | Pending::Field { at, .. }
            | Pending::Ref { at, .. }
            | Pending::Duplicate { at, .. } => *at,
        });
        let undeclared = |name: &str| {
            let hint = did_you_mean(name, objects.keys().copied())
                .map(|m| format!(" (did you mean @{m}?)"))
                .unwrap_or_default();
            format!(
                "undeclared object `{name}`{hint}: declare it in the [Objects] block as `{name} = NodeType`"
            )
        };
        for p in &pending {
            match p {
                Pending::Duplicate {
                    at,
                    field,
                    first,
                    id,
                    frame,
                } => {
                    let (l, c) = line_col(self.src, first.at);
                    let tag = header_text(
                        HeaderKind::Frame {
                            index: *frame,
                            open: first.open,
                        },
                        false,
                    );
                    let both = if *field == first.field {
                        String::new()
                    } else {
                        format!("; {} and {field} key one track", first.field)
                    };
                    return Err(self.err(
                        *at,
                        format!(
                            "duplicate key: {id} is already keyed at frame {frame} on line {l} ({l}:{c}, in \
                             {tag}{both}); a track has one key per frame"
                        ),
                    ));
                }
                Pending::Object { name, at } => {
                    if !objects.contains_key(name.as_str()) {
                        return Err(self.err(*at, undeclared(name)));
                    }
                }
                Pending::Field { object, field, at } => {
                    let Some(node) = objects.get(object.as_str()) else {
                        continue;
                    };
                    if let Err(m) = check_field(t, node, field) {
                        return Err(self.err(*at, m));
                    }
                }
                Pending::Ref { r, at } => {
                    let is_obj = objects.contains_key(r.name.as_str());
                    match &r.field {
                        None if is_obj || vars.contains(&r.name.as_str()) => {}
                        None => {
                            let hint = did_you_mean(
                                &r.name,
                                objects.keys().copied().chain(vars.iter().copied()),
                            )
                            .map(|m| format!(" (did you mean @{m}?)"))
                            .unwrap_or_default();
                            return Err(self.err(
                                *at,
                                format!("@{} names no declared object or variable{hint}", r.name),
                            ));
                        }
                        Some(f) => {
                            let Some(node) = objects.get(r.name.as_str()) else {
                                return Err(self.err(*at, undeclared(&r.name)));
                            };
                            if let Err(m) = check_field(t, node, f) {
                                return Err(self.err(*at, format!("in {r}: {m}")));
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// Whether a physical line starts an assignment whose value continues on the next lines (an unclosed `(`, `[`
/// or `{`). Strings and comments are skipped.
pub fn opens_more(line: &str) -> bool {
    let mut o = Opener::default();
    o.feed(line);
    o.open()
}

/// The state of [`opens_more`] over a logical line fed one physical line at a time, so that a value spread over
/// many lines is scanned once (not once per line it has so far).
#[derive(Debug, Clone)]
pub struct Opener {
    depth: i64,
    seen_eq: bool,
    in_str: bool,
    esc: bool,
    in_comment: bool,
    prev: char,
}

impl Default for Opener {
    fn default() -> Self {
        Opener {
            depth: 0,
            seen_eq: false,
            in_str: false,
            esc: false,
            in_comment: false,
            prev: '\0',
        }
    }
}

impl Opener {
    /// Scans more of the logical line (a line end between physical lines is fed as `"\n"`).
    pub fn feed(&mut self, text: &str) {
        for c in text.chars() {
            if self.in_comment {
                if c == '\n' {
                    self.in_comment = false;
                    self.prev = c;
                }
                continue;
            }
            if self.in_str {
                if self.esc {
                    self.esc = false;
                } else if c == '\\' {
                    self.esc = true;
                } else if c == '"' {
                    self.in_str = false;
                }
                continue;
            }
            match c {
                '"' => self.in_str = true,
                '/' if self.prev == '/' => self.in_comment = true,
                '=' if self.depth == 0 => self.seen_eq = true,
                '(' | '[' | '{' if self.seen_eq => self.depth += 1,
                ')' | ']' | '}' if self.seen_eq => self.depth -= 1,
                _ => {}
            }
            self.prev = c;
        }
    }

    /// Whether what was fed so far is an assignment with an unclosed bracket.
    pub fn open(&self) -> bool {
        self.seen_eq && self.depth > 0
    }
}
