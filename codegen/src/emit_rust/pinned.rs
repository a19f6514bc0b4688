//! Value instances that capture where the stream is (`ofs_header: value: _io.pos`). Kaitai computes a value
//! instance once, when it is first named, so such an instance holds the position of the first field whose
//! expressions name it: the gallery's `size: 0` / `if: ofs_header < 0` idiom saves a position in the middle of a
//! `seq` (rpm's header and payload offsets, riff's chunk offsets). binspec inlines value instances where they are
//! used, which would take the position there instead; so these are bound once, as a local, before the first
//! field of the `seq` that needs them (or after the `seq`), by the reader and the writer alike. The model does not
//! know positions: such an instance cannot be named there.

use super::*;
use crate::expr::Expr;

/// The pinned instances ([`Module::captures_position`]) of type `ti` that expressions `xs` need, directly or through other value
/// instances, in the order they are to be bound (what one uses first).
fn pinned_needed(m: &Module, ti: usize, xs: &[&Expr]) -> Vec<String> {
    fn visit(m: &Module, ti: usize, e: &Expr, seen: &mut BTreeSet<String>, out: &mut Vec<String>) {
        let mut used = BTreeSet::new();
        crate::ir::names_used(e, &mut used);
        for n in used {
            if !seen.insert(n.clone()) {
                continue;
            }
            let Some(f) = m.types[ti].instances.iter().find(|f| f.name == n) else {
                continue;
            };
            if let Some(v) = f.value().filter(|_| f.hook.is_none()) {
                visit(m, ti, &v.expr, seen, out);
                if m.captures_position(ti, &n) {
                    out.push(n);
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for e in xs {
        visit(m, ti, e, &mut seen, &mut out);
    }
    out
}

/// A field's own expressions that are evaluated before it is read or written (its size, condition, count,
/// switch tag and arguments).
pub(super) fn before_exprs(f: &Field) -> Vec<&Expr> {
    let mut out: Vec<&Expr> = [&f.size, &f.cond]
        .into_iter()
        .flatten()
        .map(|x| &x.expr)
        .collect();
    if let Repeat::Expr(x) | Repeat::Until(x) = &f.repeat {
        out.push(&x.expr);
    }
    match &f.ty {
        FieldTy::Switch { on, cases } => {
            out.push(&on.expr);
            out.extend(cases.iter().flat_map(|c| c.args.iter()).map(|a| &a.expr));
        }
        FieldTy::User { args, .. } => out.extend(args.iter().map(|a| &a.expr)),
        _ => {}
    }
    out
}

impl<'m> Gen<'m> {
    /// A writer's bindings ([`Gen::bind_pinned`]) of the pinned instances expressions `xs` need that are not in
    /// `bound` yet, into `body`.
    pub(super) fn bind_pinned_needed(
        &self,
        ti: usize,
        xs: &[&Expr],
        bound: &mut BTreeSet<String>,
        body: &mut Vec<TokenStream>,
    ) -> R<()> {
        for n in pinned_needed(self.m, ti, xs) {
            if bound.insert(n.clone()) {
                body.push(self.bind_pinned(ti, &n, Scope::Write)?);
            }
        }
        Ok(())
    }

    /// `let v_<name> = <its value>;` for pinned instance `name` of type `ti`, where `scope` is (a reader's or a
    /// writer's): the position is where the statement is.
    pub(super) fn bind_pinned(&self, ti: usize, name: &str, scope: Scope) -> R<TokenStream> {
        let f = self.m.types[ti]
            .instances
            .iter()
            .find(|f| f.name == name)
            .ok_or_else(|| internal(name))?;
        let Some(v) = f.value() else {
            return Err(internal(&f.path));
        };
        // (What it names that is pinned too is bound before it.)
        let (x, t) = self.cx(ti, scope).tr(&v.expr, &v.path)?;
        let x = match &f.cond {
            Some(c) => {
                let c = self.cx(ti, scope).tr(&c.expr, &c.path)?.0.full();
                let x = x.full();
                quote!(if #c { #x } else { ::std::default::Default::default() })
            }
            None => x.full(),
        };
        let id = pinned_local(name);
        let ty = match t {
            T::Int => quote!(: i128),
            T::Bool => quote!(: bool),
            T::Float => quote!(: f64),
            _ => {
                return err(
                    &v.path,
                    format!("'{name}' captures where the stream is (`_io.pos`): only a number or a flag can, yet"),
                )
            }
        };
        Ok(quote!(let #id #ty = #x;))
    }
}

/// The local a pinned instance is bound to (`_pin_<name>`: a writer may bind one that only a check it skips would
/// use).
pub(super) fn pinned_local(name: &str) -> Ident {
    format_ident!("_pin_{}", name)
}
