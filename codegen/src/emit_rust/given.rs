//! The writer's side of fields that a type derives for records inside it ([`crate::ir::Given`], `Role::Given`):
//! the values, computed with the type's other derived values, and the patch that puts them in place once the
//! record holding them is written (the record itself writes its override, or 0).

use super::*;
use crate::ir::{Given, GivenKind};

impl<'m> Gen<'m> {
    /// The local holding the value derived for `g`.
    fn given_local(g: &Given) -> Ident {
        format_ident!("g_{}", g.chain.join("__"))
    }

    /// Where the model holds the override of `g`, from `self`.
    fn given_place(g: &Given) -> TokenStream {
        let parts: Vec<Ident> = g.chain.iter().map(|c| ident(c)).collect();
        quote!(self #(.#parts)*)
    }

    /// The statements that compute the values type `ti` derives for records inside it.
    pub(super) fn given_values(&self, ti: usize) -> R<Vec<TokenStream>> {
        let t = &self.m.types[ti];
        let mut out = Vec::new();
        for g in &t.given {
            let item = t.field(g.of);
            let place = Self::given_place(g);
            let name = g.chain.join(".");
            let val = match g.kind {
                GivenKind::Count => {
                    let iid = ident(&item.name);
                    let len = match item.cond {
                        Some(_) => quote!(self.#iid.as_ref().map_or(0, |v| v.len())),
                        None => quote!(self.#iid.len()),
                    };
                    quote!(match #place { Some(v) => v as i128, None => #len as i128 })
                }
                GivenKind::Offset => {
                    let pos = item.pos_expr().ok_or_else(|| internal(&item.path))?;
                    let rhs = Self::item_prev_pos(item);
                    let e = crate::ir::replace_chain(&pos.expr, &g.chain, &name);
                    let solved = self.solve(ti, &e, &name, rhs, &pos.path)?.full();
                    if self.given_kept(ti, g) {
                        // The kept position of an empty item, while it is empty.
                        let empty = Self::item_is_empty(item);
                        quote!(match #place { Some(v) if #empty => v as i128, _ => #solved })
                    } else {
                        solved
                    }
                }
            };
            let d = Self::given_local(g);
            out.push(quote!(let #d: i128 = #val;));
        }
        Ok(out)
    }

    /// `code`, which writes field `f` of type `ti`, followed by the patches that put the values `ti` derives for
    /// records inside `f` in place.
    pub(super) fn given_patches(&self, ti: usize, f: &Field, code: TokenStream) -> R<TokenStream> {
        let t = &self.m.types[ti];
        let mut patches = Vec::new();
        for g in t.given.iter().filter(|g| g.chain[0] == f.name) {
            let (off, bytes, signed, endian) = self.given_at(ti, g, &f.path)?;
            let d = Self::given_local(g);
            let rt = rust_int(bytes, signed);
            let n = bytes as usize;
            let leaf = g.chain.last().map_or("", |s| s.as_str());
            let at = if off == 0 {
                quote!(at__)
            } else {
                quote!(at__ + #off)
            };
            // (As the u64 `patch_uint_n` takes: a u64 is one already.)
            let wide = if bytes == 8 && !signed {
                quote!(v__)
            } else {
                quote!(v__ as u64)
            };
            patches.push(quote! {
                let v__: #rt = ctx.fit::<#rt>(#d, #leaf)?;
                w.patch_uint_n(#at, #wide, #n, #endian);
            });
            // A relocated pointer (`-relocate`): where it is, and the item it points to, for the table that
            // lists it (a key of its own for each record that holds it: an element of a repetition each, BFRES's
            // user data entries).
            if let (GivenKind::Offset, Some((lt, lf))) = (&g.kind, self.given_leaf_field(ti, g)) {
                if lf.relocate.is_some() {
                    let slot = self.slot(lt, &super::relocations::pointer_slot(&lf.name));
                    let ki = local("k", &t.field(g.of).name);
                    patches.push(quote! {
                        let kp__ = ctx.key(#slot);
                        ctx.pointer(kp__, (#at) as u64, #ki);
                    });
                }
            }
        }
        if patches.is_empty() {
            return Ok(code);
        }
        // (The record starts on a byte: bits before it are completed first, as writing it would.)
        Ok(quote!({
            w.flush_bits();
            let at__ = w.pos();
            #code
            #(#patches)*
        }))
    }

    /// The type that holds the field `g` derives, and the field.
    fn given_leaf_field(&self, ti: usize, g: &Given) -> Option<(usize, &'m Field)> {
        let mut cur = ti;
        for (k, step) in g.chain.iter().enumerate() {
            let f = self.m.types[cur].seq.iter().find(|x| x.name == *step)?;
            if k + 1 == g.chain.len() {
                return Some((cur, f));
            }
            match &f.ty {
                FieldTy::User { ty, .. } => cur = *ty,
                _ => return None,
            }
        }
        None
    }

    /// Where the field of `g` is within the record at its chain's head (which must have a size known without
    /// reading up to it), its width, signedness and byte order.
    fn given_at(&self, ti: usize, g: &Given, path: &str) -> R<(usize, u8, bool, TokenStream)> {
        let mut cur = ti;
        let mut off = 0u64;
        let mut endian = None;
        for (k, step) in g.chain.iter().enumerate() {
            let t = &self.m.types[cur];
            endian = t.fixed_endian().or(endian);
            let i = t
                .seq
                .iter()
                .position(|x| x.name == *step)
                .ok_or_else(|| internal(path))?;
            if k > 0 {
                off += self.m.static_offset(cur, i).map_err(|before| EmitError {
                    path: path.into(),
                    message: format!(
                        "'{}' is derived here, but '{}' before it in '{}' has no size known without reading: the \
                         writer cannot tell where to put it",
                        g.chain.join("."),
                        before.name,
                        t.name
                    ),
                })?;
            }
            match &t.seq[i].ty {
                FieldTy::User { ty, .. } => cur = *ty,
                FieldTy::Int {
                    bytes,
                    signed,
                    endian: e,
                } => {
                    let e = e.or(endian);
                    return Ok((off as usize, *bytes, *signed, endian_tokens(e)));
                }
                _ => return Err(internal(path)),
            }
        }
        Err(internal(path))
    }
}
