//! The writer's side of fields that a type derives for records inside it ([`crate::ir::Given`], `Role::Given`):
//! the values, computed with the type's other derived values, and the patch that puts them in place once the
//! record holding them is written (the record itself writes its override, or 0).

use super::*;
use crate::ir::{EndianSpec, Given, GivenKind};

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
            let iid = ident(&item.name);
            let place = Self::given_place(g);
            let name = g.chain.join(".");
            let (len, empty) = match item.cond {
                Some(_) => (
                    quote!(self.#iid.as_ref().map_or(0, |v| v.len())),
                    quote!(self.#iid.as_ref().is_none_or(|v| v.is_empty())),
                ),
                None => (quote!(self.#iid.len()), quote!(self.#iid.is_empty())),
            };
            let val = match g.kind {
                GivenKind::Count => {
                    quote!(match #place { Some(v) => v as i128, None => #len as i128 })
                }
                GivenKind::Offset => {
                    let pos = item.pos_expr.as_ref().ok_or_else(|| internal(&item.path))?;
                    let k = local("k", &item.name);
                    // `pos` is relative to the item's stream: the type's own, unless it reads from `_root._io`.
                    let rhs = match &item.io {
                        Some(_) => Rx::cast(quote!(ctx.prev_pos(#k) as i128)),
                        None => Rx::new(
                            quote!(ctx.prev_pos(#k) as i128 - io.start as i128),
                            Prec::Add,
                        ),
                    };
                    let e = crate::ir::replace_chain(&pos.expr, &g.chain, &name);
                    let solved = self.solve(ti, &e, &name, rhs, &pos.path)?.full();
                    if self.given_kept(ti, g) {
                        // The kept position of an empty item, while it is empty.
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
            patches.push(quote! {
                let v__: #rt = ctx.fit::<#rt>(#d, #leaf)?;
                w.patch_uint_n(#at, v__ as u64, #n, #endian);
            });
        }
        if patches.is_empty() {
            return Ok(code);
        }
        Ok(quote!({
            let at__ = w.pos();
            #code
            #(#patches)*
        }))
    }

    /// Where the field of `g` is within the record at its chain's head (which must have a size known without
    /// reading up to it), its width, signedness and byte order.
    fn given_at(&self, ti: usize, g: &Given, path: &str) -> R<(usize, u8, bool, TokenStream)> {
        let mut cur = ti;
        let mut off = 0u64;
        let mut endian = None;
        for (k, step) in g.chain.iter().enumerate() {
            let t = &self.m.types[cur];
            if let EndianSpec::Fixed(e) = &t.endian {
                endian = Some(*e);
            }
            let i = t
                .seq
                .iter()
                .position(|x| x.name == *step)
                .ok_or_else(|| internal(path))?;
            if k > 0 {
                for before in &t.seq[..i] {
                    off += self.m.static_advance(before).ok_or_else(|| EmitError {
                        path: path.into(),
                        message: format!(
                            "'{}' is derived here, but '{}' before it in '{}' has no size known without reading: \
                             the writer cannot tell where to put it",
                            g.chain.join("."),
                            before.name,
                            t.name
                        ),
                    })?;
                }
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
