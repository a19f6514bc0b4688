//! Relocation tables (`-relocate`, `-relocations`, see [`crate::ir::Relocations`]): the writer records where it
//! writes each pointer and the item it points to, and derives the tables that list them from the previous pass's
//! record; the reader keeps a file's table only where it is not what the writer would derive.

use super::*;
use crate::ir::RelocEncoding;

/// The name of the slot that records where pointer `name` is written, where it is not null (a slot of its own,
/// apart from the one `name._pos` may have, which records it null or not).
pub(super) fn pointer_slot(name: &str) -> String {
    format!("{name}__ptr")
}

impl<'m> Gen<'m> {
    /// The slots of the pointers that table `id` lists.
    fn pointer_slots(&self, id: &str) -> Vec<u32> {
        let mut out = Vec::new();
        for (ti, t) in self.m.types.iter().enumerate() {
            for f in &t.seq {
                if f.relocate.as_ref().is_some_and(|r| r.id == id) {
                    out.push(self.slot(ti, &pointer_slot(&f.name)));
                }
            }
        }
        out
    }

    /// Writing data field `f`: where it is a relocated pointer the model holds, where it is and what it points to,
    /// for the table that lists it.
    pub(super) fn data_pointer(&self, f: &Field) -> Option<TokenStream> {
        let r = f.relocate.as_ref()?;
        let k = local("k", &pointer_slot(&f.name));
        let id = ident(&f.name);
        let v = match (&f.role, &f.ty) {
            // A pointer derived from an expression (`-derive`): by the value written.
            (Role::Derive(_), _) => {
                let d = local("d", &f.name);
                quote!(#d as u64)
            }
            (Role::Data, FieldTy::Int { signed: true, .. }) => quote!(self.#id as u64),
            (Role::Data, _) => quote!(self.#id),
            _ => return None,
        };
        let null = r.null;
        Some(quote!(ctx.pointer_to(#k, w.pos() as u64, #v, #null);))
    }

    /// Writing derived offset `f` of type `t` (`code`): where it is a relocated pointer, where it is and the item
    /// it points to, for the table that lists it, first.
    pub(super) fn offset_pointer(
        &self,
        t: &crate::ir::TypeDef,
        f: &Field,
        code: TokenStream,
    ) -> R<TokenStream> {
        let Some(r) = &f.relocate else {
            return Ok(code);
        };
        let k = local("k", &pointer_slot(&f.name));
        let of = match &f.role {
            Role::Offset { of } => of,
            // (A `-derive`d pointer is listed by its value, as a data one: `data_pointer`.)
            Role::Derive(_) => return Ok(code),
            _ => return Err(internal(&f.path)),
        };
        let item = t.field(*of);
        let iid = ident(&item.name);
        let ki = local("k", &item.name);
        Ok(match item.cond {
            // Absent, the pointer is null: listed only where the table lists null ones.
            Some(_) if r.null => quote! {
                if self.#iid.is_some() { ctx.pointer(#k, w.pos() as u64, #ki); }
                else { ctx.pointer_to(#k, w.pos() as u64, 0, true); }
                #code
            },
            Some(_) => {
                quote!(if self.#iid.is_some() { ctx.pointer(#k, w.pos() as u64, #ki); } #code)
            }
            None => quote!(ctx.pointer(#k, w.pos() as u64, #ki); #code),
        })
    }

    /// Whether a reader compares table `id` with the pointers it lists (an `nn::util` table: `ReadPools::pointer`
    /// notes them), rather than judging it by its own bytes (BINA).
    pub(super) fn compares_pointers(&self, id: &str) -> bool {
        self.m.types.iter().any(|t| {
            t.seq.iter().chain(&t.instances).any(|f| {
                f.relocations
                    .as_ref()
                    .is_some_and(|r| r.id == id && r.encoding == RelocEncoding::NnUtil)
            })
        })
    }

    /// The region of table `r` of `ti`, as an `Option<(i128, i128)>` expression (`from` and `size`; `None`, every
    /// pointer of the table, where it has none), reading or writing.
    fn table_region(&self, ti: usize, r: &crate::ir::Relocations, scope: Scope) -> R<TokenStream> {
        Ok(match (&r.from, &r.size) {
            (Some(from), Some(size)) => {
                let from = self.cx(ti, scope).tr(&from.expr, &from.path)?.0.full();
                let size = self.cx(ti, scope).tr(&size.expr, &size.path)?.0.full();
                quote!(Some((#from, #size)))
            }
            _ => quote!(None),
        })
    }

    /// The element type of a `-relocations` item and its four fields' names (checked by the `classify` pass).
    fn entry_fields(&self, f: &Field) -> R<(Ident, [Ident; 4])> {
        let FieldTy::User { ty, .. } = &f.ty else {
            return Err(internal(&f.path));
        };
        let et = &self.m.types[*ty];
        let names: Vec<Ident> = et.seq.iter().map(|x| ident(&x.name)).collect();
        let names: [Ident; 4] = names.try_into().map_err(|_| internal(&f.path))?;
        Ok((ty_ident(&et.rust), names))
    }

    /// Writing `ti`: binds `rel_NAME` for each `-relocations` item of `ti` to its entries, the model's where it
    /// keeps a file's, else those derived from the pointers of the previous pass.
    pub(super) fn relocation_binds(&self, ti: usize) -> R<Vec<TokenStream>> {
        let mut out = Vec::new();
        let t = &self.m.types[ti];
        for f in t.seq.iter().chain(&t.instances) {
            let Some(r) = &f.relocations else { continue };
            let id = ident(&f.name);
            let rel = local("rel", &f.name);
            let slots = self.pointer_slots(&r.id);
            let region = self.table_region(ti, r, Scope::Write)?;
            let fname = f.name.as_str();
            if r.encoding == RelocEncoding::Bina {
                out.push(quote! {
                    let #rel: ::std::borrow::Cow<'_, [u8]> = match &self.#id {
                        Some(v) => ::std::borrow::Cow::Borrowed(&v[..]),
                        None => ::std::borrow::Cow::Owned(
                            ctx.bina_offsets(&[#(#slots),*], io.start, #region).at(#fname)?,
                        ),
                    };
                });
                continue;
            }
            let (et, [p, s, o, pad]) = self.entry_fields(f)?;
            out.push(quote! {
                let #rel: ::std::borrow::Cow<'_, [#et]> = match &self.#id {
                    Some(v) => ::std::borrow::Cow::Borrowed(&v[..]),
                    None => ::std::borrow::Cow::Owned(
                        ctx.relocations(&[#(#slots),*], io.start, #region)
                            .at(#fname)?
                            .into_iter()
                            .map(|e| #et { #p: e.position, #s: e.struct_count, #o: e.offset_count, #pad: e.padding_count })
                            .collect(),
                    ),
                };
            });
        }
        Ok(out)
    }

    /// Writing one entry `x` of the `-relocations` item `f`: its four integers, in place (not through the entry
    /// type's writer, which would borrow entries the writer derived for as long as the model).
    pub(super) fn relocation_write_one(&self, f: &Field) -> R<TokenStream> {
        let FieldTy::User { ty, .. } = &f.ty else {
            return Err(internal(&f.path));
        };
        let mut out = Vec::new();
        for ef in &self.m.types[*ty].seq {
            let id = ident(&ef.name);
            out.push(self.write_prim(ef, quote!(x.#id as i128))?);
        }
        Ok(quote!(#(#out)*))
    }

    /// Reading the `-relocations` item `f` of type `ti`: its table's region as the file has it, bound where the
    /// item is read (`relocation_keep` compares the entries with the pointers in it).
    pub(super) fn relocation_region_read(&self, ti: usize, f: &Field) -> R<Option<TokenStream>> {
        match &f.relocations {
            Some(r) if r.encoding != RelocEncoding::Bina => {
                let region = self.table_region(ti, r, Scope::Read)?;
                let rv = local("region", &f.name);
                Ok(Some(quote!(let #rv = #region;)))
            }
            _ => Ok(None),
        }
    }

    /// Reading: what the model keeps of the entries `v` of the `-relocations` item `f` (see the module's doc): none
    /// where they are what the writer would derive from the pointers read (those of the table whose values lie in
    /// its region), the file's otherwise (a table that lists pointers the schema does not mark, or groups them
    /// otherwise).
    pub(super) fn relocation_keep(&self, f: &Field, v: &Ident) -> R<TokenStream> {
        let Some(r) = &f.relocations else {
            return Err(internal(&f.path));
        };
        if r.encoding == RelocEncoding::Bina {
            return Ok(quote! {
                if ::binspec_runtime::layout::reloc::bina_kept(&#v[..]) { Some(#v) } else { None }
            });
        }
        // (The region as read, bound where the entries are read: before derived fields become overrides.)
        let region = local("region", &f.name);
        let id = r.id.as_str();
        let (_, [p, s, o, pad]) = self.entry_fields(f)?;
        Ok(quote! {
            ::binspec_runtime::layout::reloc::kept_for(
                #v,
                &pools.pointers_in(#id, r.abs_pos() - r.pos() as u64, #region),
                |e| ::binspec_runtime::layout::reloc::Entry {
                    position: e.#p,
                    struct_count: e.#s,
                    offset_count: e.#o,
                    padding_count: e.#pad,
                },
            )
        })
    }
}
