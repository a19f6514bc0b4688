//! The type of every node of an expression: [`types_of`] checks an expression as [`type_of`](super::type_of)
//! does and records the type of each node it checks, by the node's address; [`annotate`] stores those in the
//! nodes (`Expr::ty`), where the emitters read them instead of typing the nodes again.

use super::{Checker, Env, Expr, Ty, TypeError};

/// The types [`types_of`] found, by the address of their node.
pub type Recorded = std::cell::RefCell<Vec<(usize, Ty)>>;

/// [`type_of`](super::type_of) (or [`type_of_ext`](super::type_of_ext), with `ext`) that also records the type
/// of every node it checks in `record`, by the node's address, for [`annotate`] to store in the nodes.
pub fn types_of(expr: &Expr, env: &dyn Env, ext: bool, record: &Recorded) -> Result<Ty, TypeError> {
    Checker {
        env,
        ext,
        record: Some(record),
    }
    .check(expr, 0)
}

/// Stores in each node of `expr` the type recorded for it by [`types_of`] (nodes with none keep theirs).
pub fn annotate(expr: &mut Expr, found: &std::collections::HashMap<usize, Ty>) {
    let mut stack = vec![expr];
    while let Some(e) = stack.pop() {
        if let Some(t) = found.get(&(&*e as *const Expr as usize)) {
            e.ty = Some(Box::new(t.clone()));
        }
        stack.extend(super::super::ast::children_mut(e));
    }
}
