//! Checks relocation tables: the pointers marked `-relocate: ID` and the entry arrays marked `-relocations` that
//! list them (see [`super::Relocations`]).

use std::collections::BTreeSet;

use crate::diag::{did_you_mean, Diags};

use super::{bare_name, names_used, FieldTy, Module, RelocEncoding, Repeat, Role};

/// The entry record's fields, as `nn::util` lays them out: (bytes, what the field holds).
const ENTRY: [(u8, &str); 4] = [
    (4, "position"),
    (2, "struct count"),
    (1, "offset count"),
    (1, "padding count"),
];

/// Checks that each `-relocate` field is an 8-byte offset the writer derives, that each table id has both
/// pointers and a table, that a `-relocations` item is a repeated record of the four entry fields, and that its
/// region names no value the writer derives (the writer computes the entries before those).
pub(super) fn check_relocations(m: &Module, diags: &mut Diags) {
    // The ids tables list, and the ids pointers name.
    let mut tables: BTreeSet<&str> = BTreeSet::new();
    let mut pointers: BTreeSet<&str> = BTreeSet::new();
    for t in &m.types {
        for f in t.seq.iter().chain(&t.instances) {
            if let Some(r) = &f.relocations {
                tables.insert(r.id.as_str());
            }
            if let Some(r) = &f.relocate {
                pointers.insert(r.id.as_str());
            }
        }
    }
    for t in &m.types {
        for f in &t.seq {
            let Some(super::Relocate { id, pos, null: _ }) = &f.relocate else {
                continue;
            };
            // An offset the writer derives (the pointer lists its item), or one the model holds (the pointer
            // lists its value), not under a condition.
            let pointer = (matches!(f.role, Role::Offset { .. })
                || (matches!(f.role, Role::Data | Role::Derive(_))
                    && f.cond.is_none()
                    && f.enum_.is_none()))
                && matches!(f.ty, FieldTy::Int { bytes: 8, .. })
                && f.repeat == Repeat::None;
            if !pointer {
                diags.in_file(&t.file, |diags| {
                    diags.error(
                        *pos,
                        &format!("{}/-relocate", f.path),
                        format!(
                            "'-relocate: {id}' marks a pointer: an 8-byte offset, derived by the writer (named by the 'pos' of a pool item, or '-derive'd) or data, not repeated and without a condition"
                        ),
                        None,
                    )
                });
            }
            if !tables.contains(id.as_str()) {
                diags.in_file(&t.file, |diags| {
                    diags.error(
                        *pos,
                        &format!("{}/-relocate", f.path),
                        format!("'-relocate: {id}': no '-relocations' table has id '{id}'"),
                        did_you_mean(id, tables.iter().copied()).or_else(|| {
                            Some(format!(
                                "mark the relocation entries with '-relocations: {{id: {id}}}'"
                            ))
                        }),
                    )
                });
            }
        }
        for f in t.seq.iter().chain(&t.instances) {
            let Some(r) = &f.relocations else { continue };
            let at = format!("{}/-relocations", f.path);
            if !pointers.contains(r.id.as_str()) {
                diags.in_file(&t.file, |diags| {
                    diags.error(
                        r.pos,
                        &at,
                        format!(
                            "'-relocations: {{id: {}}}': no field is marked '-relocate: {}'",
                            r.id, r.id
                        ),
                        did_you_mean(&r.id, pointers.iter().copied()),
                    )
                });
            }
            if r.encoding == RelocEncoding::Bina {
                let sized = f
                    .size
                    .as_ref()
                    .and_then(|x| bare_name(&x.expr))
                    .is_some_and(|n| {
                        t.seq
                            .iter()
                            .any(|l| l.name == n && matches!(l.role, Role::Length { .. }))
                    });
                let ok = !f.is_instance()
                    && f.ty == FieldTy::Bytes
                    && sized
                    && f.role == Role::Data
                    && f.cond.is_none()
                    && f.repeat == Repeat::None;
                if !ok {
                    diags.in_file(&t.file, |diags| {
                        diags.error(
                            r.pos,
                            &at,
                            "'-relocations' with 'encoding: bina' goes on a seq attribute of bytes whose 'size' is a field (the table's length, derived), with no 'if' or 'repeat'",
                            None,
                        )
                    });
                }
            }
            let entry_fields = match &f.ty {
                _ if r.encoding == RelocEncoding::Bina => true,
                FieldTy::User { .. } if f.item_of.is_none() => false,
                FieldTy::User { ty, .. }
                    if matches!(f.repeat, Repeat::Expr(_)) && f.cond.is_none() =>
                {
                    let et = &m.types[*ty];
                    et.instances.is_empty()
                        && et.seq.len() == ENTRY.len()
                        && et.seq.iter().zip(ENTRY).all(|(x, (bytes, _))| {
                            matches!(x.ty, FieldTy::Int { bytes: b, signed: false, .. } if b == bytes)
                                && x.role == Role::Data
                                && x.cond.is_none()
                                && x.repeat == Repeat::None
                        })
                }
                _ => false,
            };
            if !entry_fields {
                let want: Vec<String> = ENTRY
                    .iter()
                    .map(|(b, what)| format!("u{b} {what}"))
                    .collect();
                diags.in_file(&t.file, |diags| {
                    diags.error(
                        r.pos,
                        &at,
                        format!(
                            "'-relocations' goes on a pool item repeated by 'repeat-expr', with no 'if', whose type has exactly these fields, plain data: {} (or, with 'encoding: bina', on bytes)",
                            want.join(", ")
                        ),
                        None,
                    )
                });
            }
            for x in r.from.iter().chain(&r.size) {
                let mut used = BTreeSet::new();
                names_used(&x.expr, &mut used);
                for n in used {
                    // (A field derived from the type's params alone is known before anything is written: the
                    // region an importer passes, `nn_util`'s relocation sections.)
                    let derived = t
                        .seq
                        .iter()
                        .find(|s| s.name == n)
                        .filter(|s| !matches!(s.role, Role::Data | Role::Placed))
                        .filter(|s| !derived_from_params(t, s));
                    if derived.is_some() {
                        diags.in_file(&t.file, |diags| {
                            diags.error(
                                x.pos,
                                &x.path,
                                format!(
                                    "'{}': '{n}' is derived by the writer, which computes the entries before it; the region must be data or positions ('_root.x._pos')",
                                    x.text
                                ),
                                None,
                            )
                        });
                    }
                }
            }
        }
    }
}

/// Whether field `f` of `t` is `-derive`d from the type's params alone (a number): known before anything of the
/// type is written.
pub fn derived_from_params(t: &super::TypeDef, f: &super::Field) -> bool {
    let Role::Derive(x) = &f.role else {
        return false;
    };
    if f.ty == FieldTy::Bytes || f.cond.is_some() {
        return false;
    }
    let mut used = BTreeSet::new();
    names_used(&x.expr, &mut used);
    !used.is_empty() && used.iter().all(|n| t.params.iter().any(|p| p.name == *n))
}
