//! Small questions the expression translator's name resolution asks of fields and expressions: a param's type,
//! whether a field is in the model, an expression rebased onto a chain, an offset solved from a position,
//! presence conditions, and whether an expression depends on the stream or on what is being read.

use super::*;

/// The type of a parameter's value.
pub(super) fn param_t(p: &crate::ir::Param) -> T {
    if p.any_struct && !p.array {
        return T::AnyStruct;
    }
    if p.array {
        return T::Array(Box::new(param_elem_t(p)));
    }
    param_elem_t(p)
}

/// Whether the model holds no value for `f` (a value instance it computes, or a read-only view), so that
/// `f._present` cannot be asked of it.
pub(super) fn not_in_model(f: &Field) -> bool {
    matches!(f.role, Role::Computed | Role::View)
}

pub(super) fn rebase(chain: &[String]) -> Expr {
    let mut e = Expr {
        kind: ExprKind::Name(chain[0].clone()),
        span: Default::default(),
        ty: None,
    };
    for c in &chain[1..] {
        e = Expr {
            kind: ExprKind::Attr {
                base: Box::new(e),
                name: c.clone(),
                name_span: Default::default(),
            },
            span: Default::default(),
            ty: None,
        };
    }
    e
}

/// For a size `n + c` (or `n`, `n - c`, `c + n`, constants `c`): `c`, so that `n` is the size minus `c`.
pub(super) fn solve_offset(e: &Expr, n: &str) -> Option<i128> {
    match &e.kind {
        ExprKind::Name(x) if x == n => Some(0),
        ExprKind::Binary { op, lhs, rhs } => match (op, &lhs.kind, &rhs.kind) {
            (crate::expr::BinOp::Add, _, ExprKind::Int(c)) => {
                Some(solve_offset(lhs, n)? + i128::from(*c))
            }
            (crate::expr::BinOp::Add, ExprKind::Int(c), _) => {
                Some(solve_offset(rhs, n)? + i128::from(*c))
            }
            (crate::expr::BinOp::Sub, _, ExprKind::Int(c)) => {
                Some(solve_offset(lhs, n)? - i128::from(*c))
            }
            _ => None,
        },
        _ => None,
    }
}

/// For a value instance, the expression that says whether it is there: its condition, or where it has none,
/// whether its value is ([`presence_of`]).
pub(super) fn value_presence(f: &Field) -> Option<crate::ir::Ex> {
    let v = f.value()?;
    Some(match &f.cond {
        Some(c) => c.clone(),
        None => crate::ir::Ex {
            expr: presence_of(&v.expr),
            ..v.clone()
        },
    })
}

/// Whether the value of `e` is there (Kaitai's null): for a name, its `_present`; for `c ? a : b`, that of the
/// branch taken; anything else always is.
pub(super) fn presence_of(e: &Expr) -> Expr {
    let node = |kind| Expr {
        kind,
        span: e.span,
        ty: Some(Box::new(crate::expr::Ty::Bool)),
    };
    match &e.kind {
        ExprKind::Name(n) if !n.starts_with('_') => node(ExprKind::Attr {
            base: Box::new(e.clone()),
            name: "_present".into(),
            name_span: Default::default(),
        }),
        ExprKind::Ternary { cond, then, else_ } => node(ExprKind::Ternary {
            cond: cond.clone(),
            then: Box::new(presence_of(then)),
            else_: Box::new(presence_of(else_)),
        }),
        _ => node(ExprKind::Bool(true)),
    }
}

/// Whether an argument names what only the read at hand knows (the element's index, the stream, the element just
/// read): such an argument cannot be taken again from outside.
/// Whether an expression names the stream or the element just read (`_io`, `_`, `_sizeof`): [`depends_on_reading`]
/// without `_index`.
pub(super) fn depends_on_stream(e: &Expr) -> bool {
    let mut names = BTreeSet::new();
    crate::ir::names_used(e, &mut names);
    names
        .iter()
        .any(|n| matches!(n.as_str(), "_io" | "_" | "_sizeof"))
}

pub(super) fn depends_on_reading(e: &Expr) -> bool {
    let mut names = BTreeSet::new();
    crate::ir::names_used(e, &mut names);
    names
        .iter()
        .any(|n| matches!(n.as_str(), "_index" | "_io" | "_" | "_sizeof"))
}
