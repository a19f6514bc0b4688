//! What in a format depends on a version: the expressions of a field that name one (`version`, `revision`,
//! `_root.version`, ...), the note in its row, each type's list of version differences, and the sentences of
//! descriptions that name a version.

use std::fmt::Write;

use crate::expr::{Expr, ExprKind};
use crate::ir::{children, EndianSpec, Ex, Field, FieldTy, Module, Repeat};

use super::cells::{cases_text, esc, key_text, type_link};

/// What in a field depends on a version: (what, the expression).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dep {
    Presence,
    Type,
    Size,
    Count,
    Position,
}

/// The expressions of a field that name a version, in a fixed order.
fn version_deps(f: &Field) -> Vec<(Dep, &Ex)> {
    let mut v: Vec<(Dep, &Ex)> = Vec::new();
    if let Some(c) = &f.cond {
        v.push((Dep::Presence, c));
    }
    if let FieldTy::Switch { on, .. } = &f.ty {
        v.push((Dep::Type, on));
    }
    if let Some(s) = &f.size {
        v.push((Dep::Size, s));
    }
    match &f.repeat {
        Repeat::Expr(x) | Repeat::Until(x) => v.push((Dep::Count, x)),
        _ => {}
    }
    if let Some(p) = f.pos_expr() {
        v.push((Dep::Position, p));
    }
    v.retain(|(_, x)| !version_names(&x.expr).is_empty());
    v
}

/// The sentence a field's row gets for what a version decides in it.
pub(super) fn version_row_note(f: &Field) -> Option<String> {
    let parts: Vec<String> = version_deps(f)
        .into_iter()
        .map(|(d, x)| {
            let x = esc(&x.text);
            match d {
                Dep::Presence => format!("Only when `{x}`."),
                Dep::Type => format!("Its type depends on `{x}`."),
                Dep::Size => format!("Its size depends on `{x}`."),
                Dep::Count => format!("Its count depends on `{x}`."),
                Dep::Position => format!("Its position depends on `{x}`."),
            }
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// The items of a type's "Version differences" list.
pub(super) fn version_notes(m: &Module, ti: usize, skip_type_doc: bool) -> Vec<String> {
    let t = &m.types[ti];
    let mut notes = Vec::new();
    // The versions the readers of this type choose it for.
    for (oi, o) in m.types.iter().enumerate() {
        for f in o.seq.iter().chain(o.instances.iter()) {
            let FieldTy::Switch { on, cases } = &f.ty else {
                continue;
            };
            if version_names(&on.expr).is_empty() {
                continue;
            }
            let keys: Vec<String> = cases
                .iter()
                .filter(|c| c.user() == Some(ti))
                .map(|c| {
                    c.key
                        .as_ref()
                        .map(|k| format!("`{}`", key_text(k)))
                        .unwrap_or_else(|| "anything else".into())
                })
                .collect();
            if !keys.is_empty() {
                notes.push(format!(
                    "Read as the `{}` of {} when `{}` is {}.",
                    f.name,
                    type_link(m, oi),
                    esc(&on.text),
                    keys.join(" or ")
                ));
            }
        }
    }
    if let EndianSpec::Switch { on, .. } = &t.endian {
        if !version_names(&on.expr).is_empty() {
            notes.push(format!("The byte order depends on `{}`.", esc(&on.text)));
        }
    }
    for f in t.seq.iter().chain(t.instances.iter()) {
        for (d, x) in version_deps(f) {
            let xt = esc(&x.text);
            let what = match d {
                Dep::Presence => format!("only when `{xt}`"),
                Dep::Type => {
                    let FieldTy::Switch { cases, .. } = &f.ty else {
                        continue;
                    };
                    format!("by `{xt}`: {}", cases_text(m, t, cases))
                }
                Dep::Size => format!("size `{xt}`"),
                Dep::Count => format!("count `{xt}`"),
                Dep::Position => format!("at `{xt}`"),
            };
            notes.push(format!("`{}`: {what}.", f.name));
        }
    }
    if !skip_type_doc {
        for s in version_sentences(t.doc.as_deref().unwrap_or_default()) {
            notes.push(format!("From the description: {s}"));
        }
    }
    for f in t.seq.iter().chain(t.instances.iter()) {
        for s in version_sentences(f.doc.as_deref().unwrap_or_default()) {
            notes.push(format!("`{}` (from its description): {s}", f.name));
        }
    }
    notes
}

/// Writes a "Version differences" list, if there is anything in it.
pub(super) fn version_list(notes: &[String], out: &mut String) {
    if notes.is_empty() {
        return;
    }
    out.push_str("**Version differences:**\n\n");
    for n in notes {
        let _ = writeln!(out, "- {n}");
    }
    out.push('\n');
}

/// Whether a name (the last part of a dotted path) names a version: `version`, `revision`, `ver`, `rev`, or one of
/// these as a part of a snake_case name (`version_major`, `file_revision`).
pub(crate) fn is_version_name(name: &str) -> bool {
    let last = name.rsplit('.').next().unwrap_or(name);
    last.split('_').any(|w| {
        matches!(
            w.to_ascii_lowercase().as_str(),
            "version" | "revision" | "ver" | "rev" | "vers"
        )
    })
}

/// A name or a chain of attributes (`_root.header.version`) as dotted text.
fn dotted(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Name(n) => Some(n.clone()),
        ExprKind::Attr { base, name, .. } => dotted(base).map(|b| format!("{b}.{name}")),
        _ => None,
    }
}

/// The version-like names an expression uses, in order of first use.
pub(crate) fn version_names(e: &Expr) -> Vec<String> {
    fn walk(e: &Expr, out: &mut Vec<String>) {
        if let Some(d) = dotted(e) {
            if is_version_name(&d) {
                if !out.contains(&d) {
                    out.push(d);
                }
                return;
            }
        }
        for c in children(e) {
            walk(c, out);
        }
    }
    let mut out = Vec::new();
    walk(e, &mut out);
    out
}

/// The sentences of a doc that name a version number ("version 7", "versions 1 to 4", "since version 10"), each
/// on one line.
pub(super) fn version_sentences(doc: &str) -> Vec<String> {
    let text = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out: Vec<String> = Vec::new();
    for s in sentences(&text) {
        if names_version_number(&s) && !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// Splits text at a `.`, `!` or `?` followed by a space and a capital letter, a digit, a quote or a backtick
/// (not after `e.g.` or `i.e.`).
pub(super) fn sentences(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..chars.len() {
        let end_mark = matches!(chars[i], '.' | '!' | '?');
        let next_starts = chars.get(i + 1) == Some(&' ')
            && chars.get(i + 2).is_some_and(|c| {
                c.is_uppercase() || c.is_ascii_digit() || matches!(c, '"' | '`' | '*')
            });
        let before: String = chars[start..=i].iter().collect();
        let abbreviation = before.ends_with("e.g.") || before.ends_with("i.e.");
        if end_mark && next_starts && !abbreviation {
            out.push(before.trim().to_string());
            start = i + 2;
        }
    }
    if start < chars.len() {
        let rest: String = chars[start..].iter().collect();
        if !rest.trim().is_empty() {
            out.push(rest.trim().to_string());
        }
    }
    out
}

/// Whether text names a version number: "version" or "versions" (any case) then a number.
fn names_version_number(s: &str) -> bool {
    let low = s.to_ascii_lowercase();
    low.match_indices("version").any(|(i, _)| {
        // A whole word: not the end of "subversion".
        let word_start = low[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_ascii_alphanumeric());
        let rest = &low[i + "version".len()..];
        let rest = rest.strip_prefix('s').unwrap_or(rest);
        word_start
            && rest
                .strip_prefix(' ')
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
    })
}
