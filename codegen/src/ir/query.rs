//! Questions that passes and emitters ask of IR expressions (the names they use, whether they are constants or
//! can be solved for a name) and of the graph of which type reads which.

use std::collections::BTreeSet;

use crate::expr::{self, BinOp, Expr, ExprKind};

use super::{FieldTy, Repeat, TypeDef};

/// If the expression is a bare name, that name.
pub fn bare_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Name(n) => Some(n),
        _ => None,
    }
}

/// The direct sub-expressions of an expression.
pub fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Attr { base, .. } | ExprKind::Cast { base, .. } => vec![base],
        ExprKind::Call { base, args, .. } => std::iter::once(&**base).chain(args.iter()).collect(),
        ExprKind::Index { base, index } => vec![base, index],
        ExprKind::Unary { expr, .. } => vec![expr],
        ExprKind::Binary { lhs, rhs, .. } => vec![lhs, rhs],
        ExprKind::Ternary { cond, then, else_ } => vec![cond, then, else_],
        ExprKind::Array(items) => items.iter().collect(),
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Str(_)
        | ExprKind::Bool(_)
        | ExprKind::Name(_)
        | ExprKind::EnumValue { .. }
        | ExprKind::SizeOf { .. } => Vec::new(),
    }
}

/// Every bare name the expression uses at its top level (not attributes of other values).
pub fn names_used(e: &Expr, out: &mut BTreeSet<String>) {
    if let ExprKind::Name(n) = &e.kind {
        out.insert(n.clone());
    }
    for c in children(e) {
        names_used(c, out);
    }
}

/// Whether `e` is linear in `name` (appears once, under + - and multiplication by a constant), so that it can
/// be solved for it.
pub fn solvable_for(e: &Expr, name: &str) -> bool {
    fn count(e: &Expr, name: &str) -> usize {
        let mut s = BTreeSet::new();
        names_used(e, &mut s);
        match &e.kind {
            ExprKind::Name(n) if n == name => 1,
            ExprKind::Binary { lhs, rhs, .. } => count(lhs, name) + count(rhs, name),
            _ => usize::from(s.contains(name)) * 2,
        }
    }
    fn ok(e: &Expr, name: &str) -> bool {
        match &e.kind {
            ExprKind::Name(n) => n == name,
            ExprKind::Binary {
                op: BinOp::Add | BinOp::Sub,
                lhs,
                rhs,
            } => {
                let mut l = BTreeSet::new();
                names_used(lhs, &mut l);
                if l.contains(name) {
                    ok(lhs, name)
                } else {
                    ok(rhs, name)
                }
            }
            ExprKind::Binary {
                op: BinOp::Mul,
                lhs,
                rhs,
            } => {
                let mut l = BTreeSet::new();
                names_used(lhs, &mut l);
                if l.contains(name) {
                    matches!(rhs.kind, ExprKind::Int(_)) && ok(lhs, name)
                } else {
                    matches!(lhs.kind, ExprKind::Int(_)) && ok(rhs, name)
                }
            }
            _ => false,
        }
    }
    count(e, name) == 1 && ok(e, name)
}

/// An integer constant, if the expression is one.
pub fn const_int(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::Int(i) => Some(*i as i128),
        ExprKind::Unary {
            op: expr::UnOp::Neg,
            expr,
        } => const_int(expr).map(|v| -v),
        _ => None,
    }
}

/// For each type, the user types its fields and instances read (with `inline_only`, not those in a `Vec`).
pub fn types_graph(types: &[TypeDef], inline_only: bool) -> Vec<Vec<usize>> {
    types
        .iter()
        .map(|t| {
            let mut out = Vec::new();
            for f in t.seq.iter().chain(t.instances.iter()) {
                if inline_only && f.repeat != Repeat::None {
                    continue;
                }
                match &f.ty {
                    FieldTy::User { ty, .. } => out.push(*ty),
                    FieldTy::Switch { cases, .. } => {
                        out.extend(cases.iter().filter_map(|c| c.user()))
                    }
                    _ => {}
                }
            }
            out
        })
        .collect()
}

/// Whether a field of type `ty` can lead back to type `to`.
pub fn reaches_type(graph: &[Vec<usize>], ty: &FieldTy, to: usize) -> bool {
    let mut stack: Vec<usize> = match ty {
        FieldTy::User { ty, .. } => vec![*ty],
        FieldTy::Switch { cases, .. } => cases.iter().filter_map(|c| c.user()).collect(),
        _ => return false,
    };
    let mut seen = vec![false; graph.len()];
    while let Some(t) = stack.pop() {
        if t == to {
            return true;
        }
        if t < seen.len() && !std::mem::replace(&mut seen[t], true) {
            stack.extend(graph[t].iter().copied());
        }
    }
    false
}
