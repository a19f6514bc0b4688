//! Block chains (`-derive: _chain.next`, `_chain.size`, `-chain-end`; `binspec_runtime::layout::chain`): where a
//! record of the chain notes its start (reading) or records it (writing), how its values are read (noted, taken as
//! derived) and derived, where the chain's end is noted, and the top-level reader's second read of a file whose
//! values are not all what the writer derives.

use super::*;

impl<'m> Gen<'m> {
    /// Whether `ti` is a record of the block chain (a field that derives from `_chain`).
    pub(super) fn chain_fields(&self, ti: usize) -> bool {
        crate::ir::chain_record(&self.m.types[ti])
    }

    /// The position slot of the block chain's records (one for all of them, after the `_pos` slots); the chain's
    /// end has the next one.
    pub(super) fn chain_slot(&self) -> u32 {
        self.slots.len() as u32
    }

    /// The start of a chain record's writer: it records where the record starts.
    pub(super) fn chain_member_write(&self, ti: usize) -> Option<TokenStream> {
        let slot = self.chain_slot();
        self.chain_fields(ti).then(
            || quote!(let k_chain__ = ctx.key(#slot); ctx.chain_member(k_chain__, w.pos() as u64);),
        )
    }

    /// The start of a chain record's reader: where it starts, which its values are noted with.
    pub(super) fn chain_member_read(&self, ti: usize) -> Option<TokenStream> {
        self.chain_fields(ti)
            .then(|| quote!(let chain_at__ = r.abs_pos();))
    }

    /// A chain value `v` as read, of field `f` deriving `x`: taken as derived, and noted; once the file is read, the
    /// values that are not what the writer derives are read again as overrides.
    pub(super) fn chain_value_read(&self, f: &Field, x: &crate::ir::Ex, v: &Ident) -> TokenStream {
        let fname = f.name.as_str();
        let to_end = crate::ir::chain_part(&x.expr) == Some(crate::ir::ChainPart::Size);
        quote! {
            let #v = if pools.chain_read(chain_at__, #fname, #v as u64, #to_end) { Some(#v) } else { None };
        }
    }

    /// `_chain.NAME` in an expression: when writing, from the positions of the previous pass; when reading, the
    /// field's reader notes the value instead (`chain_value_read`: no value equals `i128::MIN`).
    pub(super) fn chain_translation(&self, name: &str, write: bool, path: &str) -> R<Rx> {
        let derived = match name {
            "next" => quote!(ctx.chain_next(k_chain__)),
            "size" => {
                let end = self.chain_slot() + 1;
                quote!(ctx.chain_size_to(k_chain__, ::binspec_runtime::layout::WriteCtx::first(#end)))
            }
            _ => {
                return err(
                    path,
                    format!("'_chain.{name}': a chain has 'next' and 'size'"),
                )
            }
        };
        Ok(if write {
            Rx::cast(quote!(#derived as i128))
        } else {
            Rx::atom(quote!(i128::MIN))
        })
    }

    /// Where a placed instance marked `-chain-end` is written (`at`), the chain ends.
    pub(super) fn chain_end_write(&self, f: &Field) -> TokenStream {
        let slot = self.chain_slot() + 1;
        if f.chain_end {
            quote!(ctx.chain_end(::binspec_runtime::layout::WriteCtx::first(#slot), at as u64);)
        } else {
            quote!()
        }
    }

    /// Where a section (an item written at its own type's region) marked `-chain-end` is written (`at`), the chain
    /// ends.
    pub(super) fn chain_end_section(&self, f: &Field, at: TokenStream) -> TokenStream {
        let slot = self.chain_slot() + 1;
        if f.chain_end {
            quote!(ctx.chain_end(::binspec_runtime::layout::WriteCtx::first(#slot), #at as u64);)
        } else {
            quote!()
        }
    }

    /// Where an instance marked `-chain-end` is read (`p`, its position), the chain ends.
    pub(super) fn chain_end_read(&self, f: &Field, p: &Ident) -> TokenStream {
        if f.chain_end {
            quote!(pools.chain_end(#p as u64);)
        } else {
            quote!()
        }
    }

    /// In the top-level reader (`name`, format `id`), after the read: a file whose chain values are not all what
    /// the writer derives is read again, keeping those. Nothing where the top-level type reaches no record of a
    /// chain (nn_util's own module, whose block header no field reads).
    pub(super) fn chain_read_again(&self, name: &Ident, id: &str) -> TokenStream {
        let graph = crate::ir::types_graph(&self.m.types, false);
        if !crate::ir::types_reached_from(&graph, vec![0])
            .into_iter()
            .any(|t| self.chain_fields(t))
        {
            return quote!();
        }
        let track_ends = self.track_ends();
        quote! {
            if let Some(keep) = pools.chain_kept() {
                r = root_io.clone();
                pools = ::binspec_runtime::layout::ReadPools::new();
                #track_ends
                pools.keep_chain(keep);
                m = #name::read(&mut r, ::binspec_runtime::Endian::Little, &mut pools, &root_io).map_err(|e| e.in_format(#id))?;
            }
        }
    }
}

impl Cx<'_> {
    /// `_chain.NAME` ([`Gen::chain_translation`]).
    pub(super) fn chain_value(&self, name: &str, path: &str) -> R<(Rx, T)> {
        let Some(g) = self.gen else {
            return err(path, "internal: '_chain' outside a generator");
        };
        Ok((
            g.chain_translation(name, self.scope == Scope::Write, path)?,
            T::Int,
        ))
    }
}
