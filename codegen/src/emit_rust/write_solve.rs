//! What a type's write function computes its derived values with: a position or size expression solved for the
//! field it names, the checks of counts against their repetitions, writes under a condition on the values
//! written, and the order in which offsets are derived.

use super::*;
use crate::expr::BinOp;
use crate::ir::solvable_for;

impl<'m> Gen<'m> {
    /// The statement that computes derived field `f` of type `ti` for its writer (`d_<name>`), into `body`: an
    /// offset solved from where its item was, a length from its target's, a `-derive` expression (from the sort key
    /// that ordered an element `keyed` by it, where one did); nothing for other fields.
    pub(super) fn derived_value(
        &self,
        ti: usize,
        f: &Field,
        keyed: Option<&Field>,
        body: &mut Vec<TokenStream>,
    ) -> R<()> {
        let t = &self.m.types[ti];
        let d = local("d", &f.name);
        let val = match &f.role {
            Role::Offset { of } => {
                let inst = t.field(*of);
                let pos = inst.pos_expr().ok_or_else(|| internal(&f.path))?;
                let rhs = Self::item_prev_pos(inst);
                let solved = self.solve(ti, &pos.expr, &f.name, rhs, &pos.path)?.full();
                if let Some(item) = self.empty_item_of(ti, f) {
                    // The kept offset of an empty item, while it is empty.
                    let id = ident(&f.name);
                    let empty = Self::item_is_empty(item);
                    quote!(match self.#id { Some(v) if #empty => v as i128, _ => #solved })
                } else {
                    solved
                }
            }
            Role::Length { of } => {
                let of = t.field(*of).name.as_str();
                let target = find(t, of).ok_or_else(|| internal(&f.path))?;
                let sz = target.size.as_ref().ok_or_else(|| internal(&f.path))?;
                let len = if target.relocations.is_some() {
                    // Relocation bytes, derived above.
                    let rel = local("rel", of);
                    Rx::cast(quote!(#rel.len() as i128))
                } else if target.size_derived
                    || (target.item_of.is_some() && matches!(target.ty, FieldTy::User { .. }))
                {
                    // A record written as a pool item, or in a slot whose size is derived: its length in the
                    // previous pass.
                    let k = local("k", of);
                    Rx::cast(quote!(ctx.prev_len(#k) as i128))
                } else if matches!(target.role, Role::Pool(_)) {
                    // A pool region: its size where the previous pass put its start and end.
                    let (ks, ke) = (local("k", of), local("k", &region_end(of)));
                    Rx::new(
                        quote!(ctx.prev_pos(#ke) as i128 - ctx.prev_pos(#ks) as i128),
                        Prec::Add,
                    )
                } else {
                    let tid = ident(of);
                    let content = self.content(ti, target, quote!(x), Scope::Write)?;
                    Rx::new(
                        if target.cond.is_some() {
                            quote!(match &self.#tid { Some(x) => <[u8]>::len(#content) as i128, None => 0 })
                        } else {
                            quote!({ let x = &self.#tid; <[u8]>::len(#content) as i128 })
                        },
                        Prec::Block,
                    )
                };
                self.solve(ti, &sz.expr, &f.name, len, &sz.path)?.full()
            }
            Role::Derive(x) => {
                let (dt, dtt) = self.cx(ti, Scope::Write).tr(&x.expr, &x.path)?;
                let id = ident(&f.name);
                if dtt == T::Bytes {
                    let dt = dt.recv();
                    body.push(quote!(let #d: ::std::vec::Vec<u8> = match &self.#id { Some(v) => v.to_vec(), None => #dt[..].to_vec() };));
                    return Ok(());
                }
                let dt = dt.full();
                if keyed.is_some_and(|k| k.name == f.name) {
                    // Computed by the sort that ordered this element, where one did.
                    quote!(match self.#id { Some(v) => v as i128, None => match key__ { Some(k) => k, None => #dt } })
                } else {
                    quote!(match self.#id { Some(v) => v as i128, None => #dt })
                }
            }
            _ => return Ok(()),
        };
        body.push(quote!(let #d: i128 = #val;));
        Ok(())
    }

    /// `code`, which writes the derived field `f` of `ti`, under `f`'s condition where it has one: it is written
    /// where the condition holds for the values written.
    pub(super) fn where_cond(&self, ti: usize, f: &Field, code: TokenStream) -> R<TokenStream> {
        Ok(match &f.cond {
            Some(c) => {
                let ct = self.cx(ti, Scope::Write).tr(&c.expr, &c.path)?.0.full();
                quote!(if #ct { #code })
            }
            None => code,
        })
    }

    /// The check that a repetition `val` has as many elements as its `repeat-expr` says, where the model does not
    /// derive that count (a parameter, another field's value, where the next section starts): or the file would
    /// read back otherwise. Checked once positions have settled (derived values are 0 in the first pass). For
    /// `repeat-until`, the condition must hold for the last element and for no element before it.
    pub(super) fn count_check(&self, ti: usize, f: &Field) -> R<TokenStream> {
        let t = &self.m.types[ti];
        let derived_count = |x: &crate::ir::Ex| {
            let mut used = BTreeSet::new();
            crate::ir::names_used(&x.expr, &mut used);
            // (A parameter of the same name is no field: its count is checked.)
            used.len() == 1
                && used.iter().all(|n| {
                    // (A count the model may hold, where every repetition may be absent, is checked.)
                    find(t, n).is_some_and(|c| {
                        matches!(&c.role, Role::Count { of, .. } if t.field(*of).name == f.name)
                            && crate::ir::count_kept_where_absent(t, c).is_none()
                    })
                })
        };
        Ok(match &f.repeat {
            Repeat::Expr(x) if derived_count(x) => quote!(),
            Repeat::Expr(x) => match self.cx(ti, Scope::Write).tr(&x.expr, &x.path) {
                Ok((n, T::Int)) => {
                    let n = n.full();
                    let text = x.text.as_str();
                    quote! {
                        if !ctx.first_pass() {
                            let n__: i128 = #n;
                            if val.len() as i128 != n__ {
                                return Err(::binspec_runtime::Error::write(format!(
                                    "{} elements, but the count `{}` is {}: the file would read back otherwise",
                                    val.len(), #text, n__
                                )));
                            }
                        }
                    }
                }
                _ => quote!(),
            },
            Repeat::Until(x) => self.until_check(ti, f, x)?,
            _ => quote!(),
        })
    }

    /// Solves `e == rhs` for `unknown` (a linear expression).
    pub(super) fn solve(&self, ti: usize, e: &Expr, unknown: &str, rhs: Rx, path: &str) -> R<Rx> {
        if !solvable_for(e, unknown) {
            return err(
                path,
                format!(
                    "cannot solve '{e}' for '{unknown}'; give '{unknown}' a '-derive' expression"
                ),
            );
        }
        let mut cur = e;
        let mut rhs = rhs;
        loop {
            match &cur.kind {
                ExprKind::Name(n) if n == unknown => return Ok(rhs),
                ExprKind::Binary { op, lhs, rhs: r } => {
                    let mut l = BTreeSet::new();
                    crate::ir::names_used(lhs, &mut l);
                    let in_left = l.contains(unknown);
                    let (other, side) = if in_left { (r, lhs) } else { (lhs, r) };
                    let (o, _) = self.cx(ti, Scope::Write).tr(other, path)?;
                    rhs = match (op, in_left) {
                        (BinOp::Add, _) => Rx::binary(&rhs, quote!(-), Prec::Add, &o),
                        (BinOp::Sub, true) => Rx::binary(&rhs, quote!(+), Prec::Add, &o),
                        (BinOp::Sub, false) => Rx::binary(&o, quote!(-), Prec::Add, &rhs),
                        (BinOp::Mul, _) => {
                            let (rhs, o) = (rhs.full(), o.full());
                            Rx::atom(quote!(ctx.exact_div(#rhs, #o, #unknown)?))
                        }
                        _ => return err(path, "internal: not solvable"),
                    };
                    cur = side;
                }
                _ => return err(path, "internal: not solvable"),
            }
        }
    }
}

/// The offset fields of `t`, each after the offset fields its item's `pos` names (bare or through `_root`, as an
/// over-approximation: only the order changes), otherwise in declaration order.
pub(super) fn offsets_in_order(t: &TypeDef) -> Vec<&Field> {
    fn names(e: &crate::expr::Expr, out: &mut std::collections::BTreeSet<String>) {
        match &e.kind {
            crate::expr::ExprKind::Name(n) => {
                out.insert(n.clone());
            }
            crate::expr::ExprKind::Attr { name, .. } => {
                out.insert(name.clone());
            }
            _ => {}
        }
        for c in crate::ir::children(e) {
            names(c, out);
        }
    }
    let mut todo: Vec<(&Field, std::collections::BTreeSet<String>)> = t
        .seq
        .iter()
        .filter_map(|f| match f.role {
            Role::Offset { of } => {
                let mut used = std::collections::BTreeSet::new();
                if let Some(pos) = &t.field(of).pos_expr() {
                    names(&pos.expr, &mut used);
                }
                used.remove(&f.name);
                Some((f, used))
            }
            _ => None,
        })
        .collect();
    let mut out = Vec::with_capacity(todo.len());
    while !todo.is_empty() {
        let ready = todo
            .iter()
            .position(|(_, used)| !todo.iter().any(|(g, _)| used.contains(&g.name)))
            .unwrap_or(0);
        out.push(todo.remove(ready).0);
    }
    out
}

/// The length a count derives from the repetitions that name it (`of`, optional, then `alt`, in `me`): the first
/// present, or 0; where the model keeps the count where all are absent (`kept`, its field), that first. `me` is a
/// place (`self`, or a local bound to what may hold a `?`), so the closures here hold no `?`.
pub(super) fn count_chain(
    t: &crate::ir::TypeDef,
    me: TokenStream,
    kept: Option<proc_macro2::Ident>,
    of: &proc_macro2::Ident,
    alt: &[crate::ir::FieldId],
) -> TokenStream {
    let first = match kept {
        Some(id) => quote!(#me.#id.map(|v| v as usize).or(#me.#of.as_ref().map(|v| v.len()))),
        None => quote!(#me.#of.as_ref().map(|v| v.len())),
    };
    let alts = alt.iter().map(|a| {
        let a_f = t.field(*a);
        let a = ident(&a_f.name);
        if a_f.cond.is_some() {
            quote!(.or(#me.#a.as_ref().map(|v| v.len())))
        } else {
            quote!(.or(Some(#me.#a.len())))
        }
    });
    quote!(#first #(#alts)* .unwrap_or(0))
}
