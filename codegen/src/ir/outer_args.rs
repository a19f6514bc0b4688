//! Pass `outer_args`: a parameter of a record reached through an outer value (`_parent.chunks[_index].chunk`,
//! `_root.header.body.len_param`) becomes the argument the record was passed, written from where the expression
//! is (`_parent.raw[_index]`), and a value instance of such a record its expression, written from here too. A
//! parameter is not kept in the model, and a reader is passed outer values, not the arguments its holder's fields
//! were read with; the argument names what the holder has, which is passed down like any other outer value.
//!
//! An argument that depends on the read at hand (`_io`, `_`, `_sizeof`) cannot be taken again and is left alone,
//! as is one that names a type or an enum (`.as<t>`, `sizeof<t>`, `e::v`), which would be looked up from the wrong
//! type; the expression then fails in the emitters, as before, naming the parameter.

use std::collections::BTreeSet;

use crate::diag::Diags;
use crate::expr::{Expr, ExprKind};

use super::query::{exprs_of_type_mut, names_used};
use super::{FieldTy, Module, ParentRef, Repeat};

/// How many arguments an expression may be replaced by, one inside another (`a` passed `_parent.b[i].p`, itself
/// passed ...): a bound, so that a schema passing a parameter to itself cannot loop.
const MAX_DEPTH: usize = 8;

pub(super) fn outer_args(m: &mut Module, _diags: &mut Diags) {
    for ti in 0..m.types.len() {
        let mut t = m.types[ti].clone();
        let mut changed = false;
        for ex in exprs_of_type_mut(&mut t) {
            if let Some(e) = inline(m, ti, &ex.expr, 0) {
                ex.expr = e;
                changed = true;
            }
        }
        if changed {
            m.types[ti] = t;
        }
    }
}

/// `e` with every parameter reached through an outer value replaced by its argument; `None` where nothing was.
fn inline(m: &Module, ti: usize, e: &Expr, depth: usize) -> Option<Expr> {
    if depth < MAX_DEPTH {
        if let Some(arg) = outer_param(m, ti, e) {
            return Some(inline(m, ti, &arg, depth + 1).unwrap_or(arg));
        }
    }
    let mut out: Option<Expr> = None;
    for (k, c) in crate::expr::children(e).into_iter().enumerate() {
        if let Some(new) = inline(m, ti, c, depth) {
            let o = out.get_or_insert_with(|| e.clone());
            *crate::expr::children_mut(o).swap_remove(k) = new;
        }
    }
    out
}

/// `CHAIN.f.x` or `CHAIN.f[i].x`, where `CHAIN` is an outer value (`_parent`, `_root`, and single records of them)
/// and `x` a parameter of `f`'s type or a value instance of it: written from here. A parameter is the argument `f`
/// passes for it, rebased onto `CHAIN` (and `_index` in it to `i`); a value instance its expression, its own names
/// on `CHAIN.f[i]`, its parameters their arguments and its `_parent` `CHAIN`.
fn outer_param(m: &Module, ti: usize, e: &Expr) -> Option<Expr> {
    let ExprKind::Attr { base, name: x, .. } = &e.kind else {
        return None;
    };
    let (field_e, index) = match &base.kind {
        ExprKind::Index { base, index } => (&**base, Some(&**index)),
        _ => (&**base, None),
    };
    let chain = attr_chain(field_e)?;
    let (f, holder) = chain.split_last()?;
    if !matches!(holder.first()?.as_str(), "_parent" | "_root") {
        return None;
    }
    let ht = holder_type(m, ti, holder)?;
    let field = m.field(ht, f)?;
    let FieldTy::User { ty, args } = &field.ty else {
        return None;
    };
    // An element is named by its index; a single record by itself.
    if (field.repeat == Repeat::None) != index.is_none() {
        return None;
    }
    let prefix = rebuild(holder, e);
    let arg_of = |j: usize| -> Option<Expr> {
        let arg = &args.get(j)?.expr;
        let names = names_of(arg);
        if names.iter().any(|n| stream_name(n)) || names_types(arg) {
            return None;
        }
        if index.is_none() && names.contains("_index") {
            return None;
        }
        Some(rebase_onto(arg, &prefix, index, e))
    };
    let c = &m.types[*ty];
    if let Some(j) = c.params.iter().position(|q| &q.name == x) {
        return arg_of(j);
    }
    let v = c.instances.iter().find(|v| &v.name == x)?;
    let val = &v.value()?.expr;
    // (A value that may be absent, or an enum, is not the bare expression.)
    if v.cond.is_some() || v.enum_.is_some() || field.parent != ParentRef::Reader {
        return None;
    }
    let names = names_of(val);
    if names.iter().any(|n| stream_name(n) || n == "_index") || names_types(val) {
        return None;
    }
    // Every name of the value, written from here.
    let mut out = val.clone();
    let mut ok = true;
    replace_names(&mut out, &mut |n, at| {
        if n == "_root" {
            return Some(node(ExprKind::Name(n.to_string()), at));
        }
        if n == "_parent" {
            return Some(prefix.clone());
        }
        if let Some(j) = c.params.iter().position(|q| q.name == n) {
            let a = arg_of(j);
            ok &= a.is_some();
            return a;
        }
        Some(node(
            ExprKind::Attr {
                base: base.clone(),
                name: n.to_string(),
                name_span: at.span,
            },
            at,
        ))
    });
    ok.then_some(out)
}

fn names_of(e: &Expr) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    names_used(e, &mut names);
    names
}

/// A name of the read at hand, which cannot be taken again from elsewhere.
fn stream_name(n: &str) -> bool {
    matches!(n, "_io" | "_" | "_sizeof")
}

/// Replaces every name of `e` by what `f` makes of it (left alone where it makes nothing).
fn replace_names(e: &mut Expr, f: &mut impl FnMut(&str, &Expr) -> Option<Expr>) {
    if let ExprKind::Name(n) = &e.kind {
        if let Some(new) = f(&n.clone(), e) {
            *e = new;
        }
        return;
    }
    e.ty = None;
    for c in crate::expr::children_mut(e) {
        replace_names(c, f);
    }
}

/// The names of a chain of attributes over a name (`_parent._parent.x` -> `["_parent", "_parent", "x"]`).
pub fn attr_chain(e: &Expr) -> Option<Vec<String>> {
    match &e.kind {
        ExprKind::Name(n) => Some(vec![n.clone()]),
        ExprKind::Attr { base, name, .. } => {
            let mut c = attr_chain(base)?;
            c.push(name.clone());
            Some(c)
        }
        _ => None,
    }
}

/// The type an outer chain names from type `ti`: `_parent`s up the owners, or the root, then single records.
pub fn holder_type(m: &Module, ti: usize, chain: &[String]) -> Option<usize> {
    let mut t = ti;
    let mut rest = chain;
    if chain.first()? == "_root" {
        t = m.root_of(ti);
        rest = &chain[1..];
    }
    for part in rest {
        t = match part.as_str() {
            "_parent" => m.owners.get(t).copied().flatten()?,
            _ => {
                let f = m.field(t, part)?;
                match (&f.ty, &f.repeat) {
                    (FieldTy::User { ty, .. }, Repeat::None) => *ty,
                    _ => return None,
                }
            }
        };
    }
    Some(t)
}

/// Whether an expression names a type or an enum, which is looked up from the type it is written in.
fn names_types(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Cast { .. } | ExprKind::SizeOf { .. } => true,
        ExprKind::EnumValue { absolute, .. } => !absolute,
        _ => crate::expr::children(e).into_iter().any(names_types),
    }
}

fn node(kind: ExprKind, at: &Expr) -> Expr {
    Expr {
        kind,
        span: at.span,
        ty: None,
    }
}

/// The chain `names` as an expression, placed where `at` is.
fn rebuild(names: &[String], at: &Expr) -> Expr {
    let mut e = node(ExprKind::Name(names[0].clone()), at);
    for n in &names[1..] {
        e = node(
            ExprKind::Attr {
                base: Box::new(e),
                name: n.clone(),
                name_span: at.span,
            },
            at,
        );
    }
    e
}

/// `arg`, written in the holder's type, written from where `prefix` names the holder: a name `x` becomes
/// `prefix.x` (`_parent` too), `_root` stays, and `_index` becomes `index` (stays, without one).
pub fn rebase_onto(arg: &Expr, prefix: &Expr, index: Option<&Expr>, at: &Expr) -> Expr {
    match &arg.kind {
        ExprKind::Name(n) if n == "_index" => index.cloned().unwrap_or_else(|| arg.clone()),
        ExprKind::Name(n) if n == "_root" => node(arg.kind.clone(), at),
        ExprKind::Name(n) => node(
            ExprKind::Attr {
                base: Box::new(prefix.clone()),
                name: n.clone(),
                name_span: at.span,
            },
            at,
        ),
        _ => {
            let mut out = arg.clone();
            out.span = at.span;
            out.ty = None;
            for c in crate::expr::children_mut(&mut out) {
                *c = rebase_onto(c, prefix, index, at);
            }
            out
        }
    }
}
