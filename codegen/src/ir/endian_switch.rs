//! A type's byte order chosen by an expression (`meta: endian: switch-on:`) cannot depend on a field of that same
//! type read in the byte order being chosen: the expression is evaluated before the byte order is known. Fields
//! it names (directly or through value instances) must read the same in either byte order: bytes, strings, bit
//! fields, single-byte integers, or numbers with their own byte order (`u2le`). Values of outer types
//! (`_parent.x`, `_root.x`) are read in their own type's byte order and are not checked here.

use std::collections::BTreeSet;

use crate::diag::Diags;
use crate::ir::{names_used, EndianSpec, Field, FieldTy, Module};

/// Refuses an `endian: switch-on` that reads a field of its own type in the undecided byte order.
pub(super) fn check(m: &Module, diags: &mut Diags) {
    for (ti, t) in m.types.iter().enumerate() {
        let EndianSpec::Switch { on, .. } = &t.endian else {
            continue;
        };
        let mut seen = BTreeSet::new();
        let mut todo = BTreeSet::new();
        names_used(&on.expr, &mut todo);
        while let Some(n) = todo.pop_first() {
            if !seen.insert(n.clone()) {
                continue;
            }
            let Some(f) = t.seq.iter().chain(&t.instances).find(|f| f.name == n) else {
                continue;
            };
            if let Some(v) = f.value() {
                names_used(&v.expr, &mut todo);
                continue;
            }
            let Some((what, fix)) = undecided(m, ti, f) else {
                continue;
            };
            let message = format!(
                "the byte order of type '{}' is chosen by '{}', which needs '{}' ({what}, {}:{}:{}, {}), read in the byte order being chosen",
                t.name, on.text, f.name, t.file, f.pos.line, f.pos.col, f.path
            );
            let help = Some(format!("{fix}, or decide from a single byte"));
            diags.in_file(&t.file, |d| d.error(on.pos, &on.path, message, help));
        }
    }
}

/// What in field `f` of type `ti` reads in the type's own byte order, if anything (a number of several bytes
/// without a byte order of its own, or a user type that inherits the byte order and reads one), and how to fix it.
fn undecided(m: &Module, ti: usize, f: &Field) -> Option<(String, String)> {
    let number = |kind: String| {
        (
            format!("a '{kind}' without 'le' or 'be'"),
            format!(
                "give '{}' its own byte order ('{kind}le' or '{kind}be')",
                f.name
            ),
        )
    };
    match &f.ty {
        FieldTy::Int {
            bytes,
            signed,
            endian: None,
        } if *bytes > 1 => Some(number(format!(
            "{}{bytes}",
            if *signed { "s" } else { "u" }
        ))),
        FieldTy::Float {
            bytes,
            endian: None,
        } => Some(number(format!("f{bytes}"))),
        FieldTy::User { ty, .. }
            if *ty != ti && inherits_multibyte(m, *ty, &mut BTreeSet::new()) =>
        {
            let name = &m.types[*ty].name;
            Some((
                format!("type '{name}', which reads numbers in the byte order it inherits"),
                format!("give type '{name}' its own 'meta: endian'"),
            ))
        }
        _ => None,
    }
}

/// Whether type `ty` inherits its byte order and reads a number of several bytes in it (itself or through the
/// types it reads that inherit it too).
fn inherits_multibyte(m: &Module, ty: usize, seen: &mut BTreeSet<usize>) -> bool {
    let t = &m.types[ty];
    if !matches!(t.endian, EndianSpec::Inherit) || !seen.insert(ty) {
        return false;
    }
    t.seq.iter().any(|f| match &f.ty {
        FieldTy::Int {
            bytes,
            endian: None,
            ..
        } => *bytes > 1,
        FieldTy::Float { endian: None, .. } => true,
        FieldTy::User { ty, .. } => inherits_multibyte(m, *ty, seen),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    /// Single bytes, numbers with their own byte order and value instances over them decide a byte order;
    /// the bad schemas `endian_switch_self*.ksy` (in `tests/bad_schemas`) are the refused cases.
    #[test]
    fn fields_that_read_the_same_in_either_order_decide_it() {
        let text = "meta:\n  id: ok\n  endian:\n    switch-on: kind\n    cases:\n      1: be\n      2: le\nseq:\n  - id: bom\n    type: u1\n  - id: explicit\n    type: u2le\n  - id: value\n    type: u4\ninstances:\n  kind:\n    value: 'bom == 1 ? 1 : (explicit == 2 ? 2 : 1)'\n";
        if let Err(d) = crate::compile_str("ok.ksy", text) {
            panic!("{d:?}");
        }
        let bad = text.replace("type: u2le", "type: u2");
        let Err(d) = crate::compile_str("bad.ksy", &bad) else {
            panic!("a byte order chosen from a 'u2' read in it was accepted");
        };
        assert!(
            d.iter()
                .any(|d| d.to_string().contains("which needs 'explicit'")),
            "{d:?}"
        );
    }
}
