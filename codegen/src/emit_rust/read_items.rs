//! How a reader notes the pool items it reads: where each ends, with the other items of its pool (its alignment
//! choice, or its place in a keep-order pool's order, and its rank there), and, for an item an expression names
//! from outside its type (`holder.item._pos`), by its position slot.

use super::*;

impl Gen<'_> {
    /// Where a pool item read by `f` ends: where its reader stopped, or, for a record whose type holds regions of
    /// its own (AINB's element parameter, whose plug data follows its pointer array), past their items too, since
    /// the writer writes those items inside the record.
    pub(super) fn item_end(&self, f: &Field) -> TokenStream {
        let FieldTy::User { ty, .. } = &f.ty else {
            return quote!(r.abs_pos());
        };
        let pools: Vec<usize> = self.m.types[*ty]
            .seq
            .iter()
            .filter_map(|x| match &x.role {
                Role::Pool(u) => Some(u.pool),
                _ => None,
            })
            .collect();
        if pools.is_empty() {
            quote!(r.abs_pos())
        } else {
            quote!(pools.extent(r.abs_pos(), &[#(#pools),*]))
        }
    }

    /// Notes a pool item read at `p`, `len` bytes long: with the other items of a keep-order pool, whose order is
    /// judged once all are read; else after the pool's previous item, giving its alignment choice.
    /// An item named from outside its type (`ti`'s `f`, in [`Gen::named_items`]) is noted by its slot too.
    pub(super) fn note_item(
        &self,
        (ti, f): (usize, &Field),
        pool: usize,
        d: u64,
        p: &Ident,
        len: TokenStream,
    ) -> TokenStream {
        let named = self.named_note((ti, f), p, &quote!(len__));
        let keep_order = self.m.pools[pool].keep_order;
        let note = |len: &TokenStream| {
            if keep_order {
                quote!(pools.ordered_item(#pool, (#p) as u64, #len, #d))
            } else {
                quote!(pools.item(#pool, (#p) as u64, #len, #d))
            }
        };
        // (An item the pool's `order` ranks: its rank, for the order a new file has.)
        let rank = crate::ir::keep_order_ranks(self.m, pool)
            .into_iter()
            .find(|&(t, i, _)| t == ti && self.m.types[t].instances[i].name == f.name)
            .map(|x| x.2)
            .filter(|_| keep_order);
        let n = note(&quote!(len__));
        match rank {
            None if named.is_empty() => note(&len),
            None => quote!({ let len__: u64 = #len; #named #n }),
            Some(r) => quote!({
                let len__: u64 = #len;
                #named
                let a__ = #n;
                pools.rank_last(#pool, #r);
                a__
            }),
        }
    }

    /// Where `ti`'s item `f` is named from outside its type ([`Gen::named_items`]): the statement noting where it
    /// is read (`p`) and how long it is (`len`), for that expression's reader; else nothing.
    pub(super) fn named_note(
        &self,
        (ti, f): (usize, &Field),
        p: &Ident,
        len: &TokenStream,
    ) -> TokenStream {
        if self.named_items.contains(&(ti, f.name.clone())) {
            let slot = self.slot(ti, &f.name);
            quote!(pools.note_named(#slot, (#p) as u64, #len);)
        } else {
            quote!()
        }
    }
}
