//! IR facts as the text of a markdown table cell: section anchors and links, switch cases, sizes, types,
//! descriptions, and escaping.

use std::fmt::Write;

use crate::ir::{const_int, ConstVal, Endian, Ex, Field, FieldTy, Module, Repeat, Role, TypeDef};

use super::versions::version_row_note;

/// The section id of a type: its name, or its path when another type has the same name.
pub(super) fn type_anchor(m: &Module, ti: usize) -> String {
    let t = &m.types[ti];
    if m.types.iter().filter(|o| o.name == t.name).count() > 1 {
        format!("type-{}", t.path.join("-"))
    } else {
        format!("type-{}", t.name)
    }
}

/// The section id of an enum: its name, or its owner's path and its name when another enum has the same name.
pub(super) fn enum_anchor(m: &Module, ei: usize) -> String {
    let e = &m.enums[ei];
    if m.enums.iter().filter(|o| o.name == e.name).count() > 1 {
        format!("enum-{}-{}", m.types[e.owner].path.join("-"), e.name)
    } else {
        format!("enum-{}", e.name)
    }
}

/// `[name](#type-name)`.
pub(super) fn type_link(m: &Module, ti: usize) -> String {
    format!("[{}](#{})", m.types[ti].name, type_anchor(m, ti))
}

/// `[enum name](#enum-name)`.
pub(super) fn enum_link(m: &Module, ei: usize) -> String {
    format!("[enum {}](#{})", m.enums[ei].name, enum_anchor(m, ei))
}

/// A switch's cases: `` `k` → [type](#type-type) ``, joined by commas.
pub(super) fn cases_text(m: &Module, t: &TypeDef, cases: &[crate::ir::SwitchCase]) -> String {
    let cs: Vec<String> = cases
        .iter()
        .map(|c| {
            let k = c
                .key
                .as_ref()
                .map(|k| format!("`{}`", key_text(k)))
                .unwrap_or_else(|| "`_`".into());
            match (c.user(), &c.prim) {
                (Some(u), _) => format!("{k} → {}", type_link(m, u)),
                (None, Some(p)) => format!("{k} → {}", type_text(m, t, p)),
                (None, None) => format!("{k} → {}", c.variant.to_lowercase()),
            }
        })
        .collect();
    cs.join(", ")
}

pub(super) fn size_text(m: &Module, f: &Field) -> String {
    if let Some(n) = m.static_field_size(f) {
        return hex(n);
    }
    let each = m.static_elem_size(f);
    let one = if let Some(n) = each {
        hex(n)
    } else if let Some(s) = &f.size {
        format!("`{}`", esc(&s.text))
    } else if f.size_eos {
        "to end of stream".into()
    } else if let Some(t) = f.terminator {
        format!("until 0x{t:02x}")
    } else {
        "varies".into()
    };
    let scan_end = f.scan.as_ref().map(|sc| {
        let tags: Vec<String> = sc
            .tags
            .iter()
            .map(|t| format!("`{}`", esc(&String::from_utf8_lossy(t))))
            .collect();
        format!(
            "up to the tag {}{} (looked for at every {} bytes)",
            tags.join(" or "),
            if sc.or_eos {
                " or the end of the stream"
            } else {
                ""
            },
            if sc.step == 1 {
                "1".to_string()
            } else {
                sc.step.to_string()
            }
        )
    });
    match (&f.repeat, each) {
        (Repeat::None, _) => one,
        (Repeat::Expr(x), Some(_)) => format!("`{}` × {one}", esc(&x.text)),
        (Repeat::Eos, Some(_)) if scan_end.is_some() => {
            format!("{one} each, {}", scan_end.unwrap_or_default())
        }
        (Repeat::Eos, Some(_)) => format!("{one} each, to end of stream"),
        (Repeat::Eos, None) => "to end of stream".into(),
        _ => "varies".into(),
    }
}

pub(super) fn endian_name(e: Endian) -> &'static str {
    match e {
        Endian::Le => "little-endian",
        Endian::Be => "big-endian",
    }
}

pub(super) fn type_text(m: &Module, t: &TypeDef, ty: &FieldTy) -> String {
    let fixed = t.fixed_endian();
    let suffix = |e: &Option<Endian>, bytes: u8| match (e.or(fixed), bytes) {
        (_, 1) | (None, _) => "",
        (Some(Endian::Le), _) => "le",
        (Some(Endian::Be), _) => "be",
    };
    match ty {
        FieldTy::Int {
            bytes,
            signed,
            endian,
        } => {
            format!(
                "{}{}{}",
                if *signed { 's' } else { 'u' },
                bytes,
                suffix(endian, *bytes)
            )
        }
        FieldTy::Float { bytes, endian } => format!("f{bytes}{}", suffix(endian, *bytes)),
        FieldTy::Bits { n, .. } => format!("b{n}"),
        FieldTy::Bytes => "bytes".into(),
        FieldTy::Str {
            encoding,
            zero_terminated,
        } => {
            format!(
                "{} ({encoding})",
                if *zero_terminated { "strz" } else { "str" }
            )
        }
        FieldTy::User { ty, args } => {
            if args.is_empty() {
                type_link(m, *ty)
            } else {
                let a: Vec<String> = args.iter().map(|a| esc(&a.text)).collect();
                format!("{}(`{}`)", type_link(m, *ty), a.join(", "))
            }
        }
        FieldTy::Switch { on, cases } => {
            format!("switch on `{}`: {}", esc(&on.text), cases_text(m, t, cases))
        }
        FieldTy::Value => "value".into(),
    }
}

pub(super) fn field_type(m: &Module, t: &TypeDef, f: &Field) -> String {
    let mut s = type_text(m, t, &f.ty);
    if let Some(ei) = f.enum_ {
        let _ = write!(s, " → {}", enum_link(m, ei));
    }
    match &f.repeat {
        Repeat::None => {}
        Repeat::Expr(x) => {
            let _ = write!(s, " [`{}`]", esc(&x.text));
        }
        Repeat::Eos if f.scan.is_some() => s.push_str(" [until a tag]"),
        Repeat::Eos => s.push_str(" [until end]"),
        Repeat::Until(x) => {
            let _ = write!(s, " [until `{}`]", esc(&x.text));
        }
    }
    if let Some(c) = &f.cond {
        let _ = write!(s, " if `{}`", esc(&c.text));
    }
    s
}

pub(super) fn describe(m: &Module, f: &Field) -> String {
    let mut d = f.doc.as_deref().map(first_par).unwrap_or_default();
    let note = match &f.role {
        Role::Const(ConstVal::Int(v)) => Some(format!("Always `{}`.", hex_i(*v))),
        Role::Const(ConstVal::Bytes(b)) => Some(format!("Always `{}`.", bytes_text(b))),
        Role::Count { of, .. } | Role::Length { of } | Role::Offset { of } => {
            // The owner holds `of`; a count the length gives through an expression (`count + 1`) says so.
            let owner = m.types.iter().find(|t| t.seq.iter().any(|x| std::ptr::eq(x, f)));
            let target = owner.map(|t| t.field(*of));
            let name = target.map_or("", |x| x.name.as_str());
            Some(match (&f.role, target.map(|x| &x.repeat)) {
                (Role::Count { .. }, Some(crate::ir::Repeat::Expr(e)))
                    if crate::ir::bare_name(&e.expr).is_none() =>
                {
                    format!("Derived: `{name}` holds `{}` elements.", esc(&e.text))
                }
                (Role::Count { .. }, _) => format!("Derived: number of `{name}`."),
                (Role::Length { .. }, _) => format!("Derived: size of `{name}`."),
                _ => format!("Derived: position of `{name}`."),
            })
        }
        Role::Derive(x) => Some(format!("Derived: `{}`.", esc(&x.text))),
        Role::Given => {
            // Named by the items of the types that hold this record.
            let mut by = Vec::new();
            for (ti, t) in m.types.iter().enumerate() {
                for g in &t.given {
                    let hit = crate::ir::given_leaf(m, ti, &g.chain)
                        .is_some_and(|(lt, li)| std::ptr::eq(&m.types[lt].seq[li], f));
                    if hit {
                        let what = match g.kind {
                            crate::ir::GivenKind::Offset => "position",
                            crate::ir::GivenKind::Count => "number",
                        };
                        by.push(format!("{what} of `{}.{}`", t.name, t.field(g.of).name));
                    }
                }
            }
            Some(format!("Derived by the type that holds this record: {}.", by.join(", ")))
        }
        Role::Pool(p) => {
            let pool = &m.pools[p.pool];
            let mut s = format!("Region holding pool `{}`", pool.id);
            if pool.item_align > 1 {
                let _ = write!(s, " (items aligned to {})", pool.item_align);
            }
            if pool.dedup {
                s.push_str(
                    ", whose equal strings are stored once (the model lists the strings in the file's order, \
                     those nothing refers to included)",
                );
            }
            if let Some(a) = &p.align_field {
                let _ = write!(s, "; its start is aligned to layout choice `{a}`");
            }
            s.push('.');
            Some(s)
        }
        Role::Placed if f.eager => Some(
            "Read with its parent, however deep the offsets lead (`-eager`); written back at its position."
                .into(),
        ),
        Role::Placed => Some("Written back at its position.".into()),
        Role::View => Some("Read only: what it decides is kept in the document instead.".into()),
        Role::Kept => Some(
            "Kept in the model: computed when reading, and the model's value is used where it is named when writing."
                .into(),
        ),
        Role::Data | Role::Computed => None,
    };
    if let Some(n) = note {
        push_sentence(&mut d, &n);
    }
    if let Some(r) = &f.relocate {
        push_sentence(
            &mut d,
            &format!(
                "A pointer: relocation table `{}` lists it where it is not null.",
                r.id
            ),
        );
    }
    if let Some(r) = &f.relocations {
        let region = match (&r.from, &r.size) {
            (Some(a), Some(b)) => format!(
                " whose targets lie in `{}` .. `{}` + `{}`",
                esc(&a.text),
                esc(&a.text),
                esc(&b.text)
            ),
            _ => String::new(),
        };
        let what = match r.encoding {
            crate::ir::RelocEncoding::NnUtil => "`nn::util` relocation entries",
            crate::ir::RelocEncoding::Bina => "a BINA offset table",
        };
        push_sentence(
            &mut d,
            &format!(
                "Derived: {what} of the pointers of table `{}`{region} (a file's own kept only where they differ).",
                r.id
            ),
        );
    }
    if let Some(n) = version_row_note(f) {
        push_sentence(&mut d, &n);
    }
    d
}

pub(super) fn push_sentence(d: &mut String, s: &str) {
    if !d.is_empty() {
        d.push(' ');
    }
    d.push_str(s);
}

/// The first paragraph of a doc, on one line, safe in a table cell.
pub(super) fn first_par(doc: &str) -> String {
    let p = doc.trim().split("\n\n").next().unwrap_or("");
    esc(&crate::doc_text::escape_tags(
        &p.split_whitespace().collect::<Vec<_>>().join(" "),
    ))
}

/// Escapes `|` for a table cell.
pub(super) fn esc(s: &str) -> String {
    s.replace('|', "\\|")
}

pub(super) fn link(r: &str) -> String {
    if r.starts_with("http://") || r.starts_with("https://") {
        format!("<{r}>")
    } else {
        esc(r)
    }
}

/// A switch key: integers of two digits or more in hex (YAML keys such as `0xfeff` arrive as decimal).
pub(super) fn key_text(k: &Ex) -> String {
    match const_int(&k.expr) {
        Some(v) if !(-9..=9).contains(&v) => hex_i(v),
        _ => esc(&k.text),
    }
}

pub(crate) fn hex(n: u64) -> String {
    format!("0x{n:x}")
}

pub(crate) fn hex_i(v: i128) -> String {
    if v < 0 {
        format!("-0x{:x}", v.unsigned_abs())
    } else {
        format!("0x{v:x}")
    }
}

/// Printable ASCII as itself, anything else as hex bytes.
fn bytes_text(b: &[u8]) -> String {
    if b.iter().all(|c| c.is_ascii_graphic() || *c == b' ') && !b.contains(&b'`') {
        esc(&String::from_utf8_lossy(b))
    } else {
        b.iter()
            .map(|c| format!("{c:02x}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}
