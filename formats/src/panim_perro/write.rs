//! The clip writer: each line as written while its text still reads as the model's data, else canonically.

use super::entries;
use super::read::{trailing_ok, trivia_ok};
use super::syntax::{self, HeaderKind, Line};
use super::*;

struct W {
    out: String,
    canonical: bool,
}

impl W {
    /// Writes one line: the layout's `before` (else `default_before`), then its raw text if `ok` accepts it (else
    /// `canon`), then a line end.
    fn line(&mut self, lay: &Lay, default_before: &str, canon: &str, ok: impl Fn(&str) -> bool) {
        let before = match &lay.before {
            Some(b) if !self.canonical && trivia_ok(b) => b.as_str(),
            _ => default_before,
        };
        self.out.push_str(before);
        match &lay.raw {
            Some(r) if !self.canonical && ok(r) => self.out.push_str(r),
            _ => self.out.push_str(canon),
        }
        self.out.push('\n');
    }
}

fn parsed(raw: &str) -> Option<Line> {
    syntax::line(raw).ok()
}

fn is_header(raw: &str, kind: HeaderKind, close: bool) -> bool {
    match parsed(raw) {
        Some(Line::Header { close: c, kind: k }) => {
            c == close
                && match (k, kind) {
                    // `[/FrameN?]` closes `[FrameN?]` as well as `[/FrameN]` does.
                    (
                        HeaderKind::Frame { index: a, open: ao },
                        HeaderKind::Frame { index: b, open: bo },
                    ) => a == b && (close || ao == bo),
                    (a, b) => a == b,
                }
        }
        _ => false,
    }
}

/// Prints a clip (`canonical`: ignoring every layout).
pub(crate) fn print(c: &Clip, canonical: bool) -> String {
    let mut w = W {
        out: String::new(),
        canonical,
    };
    if c.layout.bom && !canonical {
        w.out.push('\u{feff}');
    }
    let mut prev: Option<&Item> = None;
    for item in &c.items {
        let sep = match (prev, item) {
            (None, _) => "",
            (Some(Item::Variable(_)), Item::Variable(_)) => "",
            _ => "\n",
        };
        match item {
            Item::Animation(a) => animation(&mut w, a, sep),
            Item::Objects(o) => objects(&mut w, o, sep),
            Item::Variable(v) => {
                let canon = format!("@{} = {}", v.name, v.value);
                w.line(&v.layout, sep, &canon, |r| {
                    matches!(parsed(r), Some(Line::Variable { name, value, .. }) if name == v.name && value == v.value)
                });
            }
            Item::Frame(f) => frame(&mut w, f, sep),
        }
        prev = Some(item);
    }
    match &c.layout.after {
        Some(a) if !canonical && trailing_ok(a) => w.out.push_str(a),
        _ => {}
    }
    if !canonical && c.layout.final_newline == Some(false) && w.out.ends_with('\n') {
        w.out.pop();
    }
    w.out
}

fn animation(w: &mut W, a: &Animation, sep: &str) {
    w.line(&a.layout.open, sep, "[Animation]", |r| {
        is_header(r, HeaderKind::Animation, false)
    });
    for s in &a.settings {
        let canon = match &s.value {
            SettingValue::Name(n) => format!("name = {}", syntax::quote(n)),
            SettingValue::Fps(f) => format!("fps = {}", syntax::fmt_number(*f)),
            SettingValue::DefaultInterp(i) => format!("default_interp = \"{}\"", i.id()),
            SettingValue::DefaultEase(e) => format!("default_ease = \"{}\"", e.id()),
        };
        w.line(&s.layout, "", &canon, |r| match parsed(r) {
            Some(Line::Assign {
                key,
                value,
                value_at,
            }) => entries::setting(&key, &value, value_at).is_ok_and(|v| v == s.value),
            _ => false,
        });
    }
    w.line(&a.layout.close, "", "[/Animation]", |r| {
        is_header(r, HeaderKind::Animation, true)
    });
}

fn objects(w: &mut W, o: &Objects, sep: &str) {
    w.line(&o.layout.open, sep, "[Objects]", |r| {
        is_header(r, HeaderKind::Objects, false)
    });
    for d in &o.objects {
        let canon = format!("{} = {}", d.name, d.node_type);
        w.line(&d.layout, "", &canon, |r| match parsed(r) {
            Some(Line::Assign {
                key,
                value,
                value_at,
            }) => entries::decl(&key, &value, value_at)
                .is_ok_and(|(n, t)| n == d.name && t == d.node_type),
            _ => false,
        });
    }
    w.line(&o.layout.close, "", "[/Objects]", |r| {
        is_header(r, HeaderKind::Objects, true)
    });
}

fn frame(w: &mut W, f: &Frame, sep: &str) {
    let kind = HeaderKind::Frame {
        index: f.index,
        open: f.open,
    };
    let open = format!("[Frame{}{}]", f.index, if f.open { "?" } else { "" });
    w.line(&f.layout.open, sep, &open, |r| is_header(r, kind, false));
    for e in &f.entries {
        match e {
            FrameEntry::Event(ev) => event(w, ev, ""),
            FrameEntry::Object(b) => object_block(w, b),
        }
    }
    let close = format!("[/Frame{}]", f.index);
    w.line(&f.layout.close, "", &close, |r| is_header(r, kind, true));
}

fn event(w: &mut W, ev: &Event, indent: &str) {
    let canon = format!("{indent}{} = {}", ev.kind.id(), ev.value);
    w.line(&ev.layout, "", &canon, |r| {
        matches!(parsed(r), Some(Line::Assign { key, value, .. })
            if key.len() == 1 && key[0].index.is_none() && key[0].name == ev.kind.id() && value == ev.value)
    });
}

fn object_block(w: &mut W, b: &ObjectBlock) {
    let open = format!("@{} {{", b.object);
    w.line(
        &b.layout.open,
        "",
        &open,
        |r| matches!(parsed(r), Some(Line::ObjectOpen { name, .. }) if name == b.object),
    );
    for e in &b.entries {
        let (lay, canon) = match e {
            ObjectEntry::Event(ev) => {
                event(w, ev, "    ");
                continue;
            }
            ObjectEntry::Key(k) => (&k.layout, format!("    {} = {}", k.field, k.value)),
            ObjectEntry::Control(c) => (
                &c.layout,
                match c.set {
                    ControlValue::Interp(i) => format!("    {}.interp = \"{}\"", c.field, i.id()),
                    ControlValue::Ease(e) => format!("    {}.ease = \"{}\"", c.field, e.id()),
                },
            ),
        };
        w.line(lay, "", &canon, |r| match parsed(r) {
            Some(Line::Assign {
                key,
                value,
                value_at,
            }) => match entries::object_entry(&key, value, value_at) {
                Ok(entries::ObjectEntryData::Key(f, v)) => {
                    matches!(e, ObjectEntry::Key(k) if k.field == f && k.value == v)
                }
                Ok(entries::ObjectEntryData::Control(f, s)) => {
                    matches!(e, ObjectEntry::Control(c) if c.field == f && c.set == s)
                }
                _ => false,
            },
            _ => false,
        });
    }
    w.line(&b.layout.close, "", "}", |r| {
        matches!(parsed(r), Some(Line::ObjectClose))
    });
}
