//! Pass `given`: fields of records inside a type that the type derives for its pool items ([`Role::Given`]). An
//! item's `pos` or `repeat-expr` (or a byte array's `size`) that names `entries.ints.base` (a plain field of the type, of a user type, then
//! fields of that type, an integer at the end) makes `base` derived: by the type that names it, which knows where
//! the item went and how long it is (AINB's property entries, a base index and a count per property array, in a
//! record of the element's parameters). Every type that holds such a record must derive its fields.

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::Diags;
use crate::expr::{Expr, ExprKind};

use super::query::solvable_for;
use super::{FieldId, FieldTy, Given, GivenKind, Module, Repeat, Role};

/// Pass `given` (after `classify`).
pub(super) fn given(m: &mut Module, diags: &mut Diags) {
    let mut found: Vec<(usize, Given)> = Vec::new();
    for (ti, t) in m.types.iter().enumerate() {
        for (ii, f) in t.instances.iter().enumerate() {
            if f.item_of.is_none() {
                continue;
            }
            let of = FieldId(t.seq.len() + ii);
            if let Some(p) = f.pos_expr() {
                for chain in own_chains(&p.expr) {
                    if leaf(m, ti, &chain).is_none() {
                        continue;
                    }
                    // Solved for the chain, replaced by a name that no field has.
                    let name = chain.join(".");
                    let e = replace_chain(&p.expr, &chain, &name);
                    if !solvable_for(&e, &name) {
                        diags.in_file(&t.file, |d| {
                            d.error(
                                p.pos,
                                &p.path,
                                format!(
                                    "'pos' names '{}', a field of a record of this type, but cannot be solved for \
                                     it (it must appear once, under + - and multiplication by a constant)",
                                    chain.join(".")
                                ),
                                None,
                            )
                        });
                        continue;
                    }
                    found.push((
                        ti,
                        Given {
                            chain,
                            of,
                            kind: GivenKind::Offset,
                        },
                    ));
                }
            }
            // (A byte array's size is its count of bytes: BFRES's GPU region, `size: info.memory_size`.)
            let count = match (&f.repeat, &f.size, &f.ty) {
                (Repeat::Expr(x), _, _) => Some(x),
                (Repeat::None, Some(x), FieldTy::Bytes) => Some(x),
                _ => None,
            };
            if let Some(x) = count {
                if let Some(chain) = chain_of(&x.expr).filter(|c| c.len() >= 2) {
                    if leaf(m, ti, &chain).is_some() {
                        found.push((
                            ti,
                            Given {
                                chain,
                                of,
                                kind: GivenKind::Count,
                            },
                        ));
                    }
                }
            }
        }
    }
    // An error at the item that derives `g`.
    let report = |m: &Module, diags: &mut Diags, ti: usize, g: &Given, what: &str| {
        let t = &m.types[ti];
        let inst = t.field(g.of);
        let message = format!("'{}' is derived by {what}", g.chain.join("."));
        diags.in_file(&t.file, |d| d.error(inst.pos, &inst.path, message, None));
    };
    for (ti, g) in found {
        let Some((lt, li)) = leaf(m, ti, &g.chain) else {
            continue;
        };
        let f = &mut m.types[lt].seq[li];
        if !matches!(f.role, Role::Data | Role::Given) {
            report(
                m,
                diags,
                ti,
                &g,
                "this item, but its type already derives it otherwise",
            );
            continue;
        }
        f.role = Role::Given;
        if m.types[ti].given.iter().any(|x| x.chain == g.chain) {
            report(m, diags, ti, &g, "two items of this type");
            continue;
        }
        m.types[ti].given.push(g);
    }
    check_covered(m, diags);
}

/// The chains of plain names in `e` (`a.b.c`, not `_root.x` or `_parent.x`), with two names or more.
pub fn own_chains(e: &Expr) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    fn walk(e: &Expr, out: &mut Vec<Vec<String>>) {
        if let Some(c) = chain_of(e) {
            if c.len() >= 2 {
                out.push(c);
                return;
            }
        }
        for c in super::children(e) {
            walk(c, out);
        }
    }
    walk(e, &mut out);
    out
}

/// `a.b.c` as `[a, b, c]`, where `a` is a name that does not start with `_`.
fn chain_of(e: &Expr) -> Option<Vec<String>> {
    match &e.kind {
        ExprKind::Name(n) if !n.starts_with('_') => Some(vec![n.clone()]),
        ExprKind::Attr { base, name, .. } => {
            let mut c = chain_of(base)?;
            c.push(name.clone());
            Some(c)
        }
        _ => None,
    }
}

/// `e` with the chain replaced by the name `with`.
pub fn replace_chain(e: &Expr, chain: &[String], with: &str) -> Expr {
    if chain_of(e).as_deref() == Some(chain) {
        return Expr {
            kind: ExprKind::Name(with.to_string()),
            span: e.span,
            ty: e.ty.clone(),
        };
    }
    let r = |x: &Expr| Box::new(replace_chain(x, chain, with));
    let kind = match &e.kind {
        ExprKind::Binary { op, lhs, rhs } => ExprKind::Binary {
            op: *op,
            lhs: r(lhs),
            rhs: r(rhs),
        },
        ExprKind::Unary { op, expr } => ExprKind::Unary {
            op: *op,
            expr: r(expr),
        },
        ExprKind::Ternary { cond, then, else_ } => ExprKind::Ternary {
            cond: r(cond),
            then: r(then),
            else_: r(else_),
        },
        other => other.clone(),
    };
    // (The same value as `e`, of the same type.)
    Expr {
        kind,
        span: e.span,
        ty: e.ty.clone(),
    }
}

/// Where `chain` ends, from type `ti`: the type and seq index of an integer field reached through plain fields of
/// user types (present, not repeated), or `None`.
pub fn leaf(m: &Module, ti: usize, chain: &[String]) -> Option<(usize, usize)> {
    let (last, steps) = chain.split_last()?;
    let mut cur = ti;
    for s in steps {
        let f = m.types[cur].seq.iter().find(|f| f.name == *s)?;
        let FieldTy::User { ty, .. } = &f.ty else {
            return None;
        };
        if f.repeat != Repeat::None || f.cond.is_some() {
            return None;
        }
        cur = *ty;
    }
    let i = m.types[cur].seq.iter().position(|f| f.name == *last)?;
    let f = &m.types[cur].seq[i];
    let plain = matches!(f.ty, FieldTy::Int { .. })
        && f.repeat == Repeat::None
        && f.cond.is_none()
        && f.enum_.is_none()
        && f.valid.is_none();
    plain.then_some((cur, i))
}

/// Every type that holds a record with a [`Role::Given`] field derives it: the fields a type leaves to the type
/// holding it go up through plain fields, and an error names the place where nothing derives them (an instance,
/// a repetition, an optional field, the root).
fn check_covered(m: &Module, diags: &mut Diags) {
    // What each type leaves underived, as chains from it; types in an order where holders come after what they
    // hold (plain fields cannot cycle: the record would be infinite).
    let mut open: BTreeMap<usize, BTreeSet<Vec<String>>> = BTreeMap::new();
    fn left(
        m: &Module,
        ti: usize,
        open: &mut BTreeMap<usize, BTreeSet<Vec<String>>>,
        depth: usize,
    ) -> BTreeSet<Vec<String>> {
        if let Some(s) = open.get(&ti) {
            return s.clone();
        }
        let t = &m.types[ti];
        let mut out = BTreeSet::new();
        if depth < 64 {
            for f in &t.seq {
                if f.role == Role::Given {
                    out.insert(vec![f.name.clone()]);
                }
                if let (FieldTy::User { ty, .. }, Repeat::None, None) = (&f.ty, &f.repeat, &f.cond)
                {
                    for c in left(m, *ty, open, depth + 1) {
                        let mut p = vec![f.name.clone()];
                        p.extend(c);
                        out.insert(p);
                    }
                }
            }
        }
        out.retain(|c| !t.given.iter().any(|g| g.chain == *c));
        open.insert(ti, out.clone());
        out
    }
    for ti in 0..m.types.len() {
        left(m, ti, &mut open, 0);
    }
    let report = |diags: &mut Diags, ti: usize, f: &super::Field, held: usize| {
        let Some(c) = open.get(&held).and_then(|s| s.iter().next()) else {
            return;
        };
        let t = &m.types[ti];
        diags.in_file(&t.file, |d| {
            d.error(
                f.pos,
                &f.path,
                format!(
                    "'{}' holds '{}', whose '{}' is derived by the type that holds it (an item's `pos` or \
                     `repeat-expr` names it); here nothing does: hold it in a plain field of a type whose item \
                     names it",
                    f.name,
                    m.types[held].name,
                    c.join(".")
                ),
                None,
            )
        });
    };
    for (ti, t) in m.types.iter().enumerate() {
        for f in t.seq.iter().chain(t.instances.iter()) {
            let plain = !f.is_instance() && f.repeat == Repeat::None && f.cond.is_none();
            match &f.ty {
                FieldTy::User { ty, .. } if !plain => report(diags, ti, f, *ty),
                FieldTy::Switch { cases, .. } => {
                    for c in cases.iter().filter_map(|c| c.user()) {
                        report(diags, ti, f, c);
                    }
                }
                _ => {}
            }
        }
    }
    if let Some(c) = open.get(&0).and_then(|s| s.iter().next()) {
        let t = &m.types[0];
        diags.in_file(&t.file, |d| {
            d.error(
                t.pos,
                "/",
                format!(
                    "'{}' is derived by the type that holds it (an item's `pos` or `repeat-expr` names it), but the \
                     root holds it and no item of the root names it",
                    c.join(".")
                ),
                None,
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Expr {
        crate::expr::parse(s).unwrap()
    }

    #[test]
    fn chains_of_own_fields_and_their_replacement() {
        let table: &[(&str, &[&str], &str)] = &[
            // (expression, its own chains joined, the first chain replaced by `x`)
            (
                "_root.a + 1 + entries.ints.base * 4",
                &["entries.ints.base"],
                "_root.a + 1 + x * 4",
            ),
            ("e.c", &["e.c"], "x"),
            ("ofs + 0xa4 + 4 * p.q.r", &["p.q.r"], "ofs + 0xa4 + 4 * x"),
            ("_parent.x.y + n", &[], ""),
            ("a.b - (c.d + 1)", &["a.b", "c.d"], "x - (c.d + 1)"),
        ];
        for (src, want, replaced) in table {
            let e = parse(src);
            let got: Vec<String> = own_chains(&e).iter().map(|c| c.join(".")).collect();
            assert_eq!(got, *want, "{src}");
            if let Some(first) = own_chains(&e).first() {
                let r = replace_chain(&e, first, "x");
                assert_eq!(r.to_string(), parse(replaced).to_string(), "{src}");
            }
        }
    }
}
