//! A record's instance read from the slot of a record that reads nothing (rpm's `body: {io:
//! _parent.storage_section._io, pos: ofs_body}`, where `storage_section` is a sized `dummy: {}`), named from
//! outside the record (`signature_size_tag.body`). The model does not hold such an instance, but it keeps the
//! slot's bytes (`storage_section_filler`, or zeros of the slot's size): the instance is read from them where it
//! is named, in a reader, a writer or the model alike.

use super::tidy::tag_arms;
use super::*;

impl<'m> Cx<'m> {
    /// View instance `f` of the current type (reached through a value of it, in the model scope), read from the
    /// slot [`crate::ir::Module::slot_stream`] gives.
    pub(super) fn slot_view(&mut self, f: &Field, path: &str) -> R<(Rx, T)> {
        let (up, holder, sf) = self
            .m
            .slot_stream(self.ty, f)
            .ok_or_else(|| internal(path))?;
        let sf = sf.clone();
        let what = format!("'{}' (read from the slot of '{}')", f.name, sf.name);
        let bytes = if !up {
            self.slot_bytes(&sf)?
        } else {
            let Some(parent) = self.outer.last().cloned().filter(|p| p.0 == holder) else {
                return err(
                    path,
                    format!(
                        "{what}: the record's parent is not known here, so neither is the slot"
                    ),
                );
            };
            let n = self.outer.len() - 1;
            self.at_outer(parent, n, |cx| cx.slot_bytes(&sf))?
        };
        let Some(pos) = f.pos_expr() else {
            return err(&f.path, "an instance needs 'pos' or 'value'");
        };
        let at = self.tr(&pos.expr, &pos.path)?.0.full();
        if f.repeat != Repeat::None || f.size.is_some() {
            return err(
                path,
                format!("{what}: only one record, without a size, is read so yet"),
            );
        }
        let (read, t) = match &f.ty {
            FieldTy::User { ty, args } => {
                (self.slot_view_read(*ty, args, &what, path)?, T::User(*ty))
            }
            FieldTy::Switch { on, cases } => {
                let o = self.tr(&on.expr, &on.path)?.0.full();
                let en = super::models::switch_enum_name_in(self.m, self.ty, &f.name);
                // (Keys and reads translated first: `tag_arms` takes them by case.)
                let mut keys = Vec::new();
                let mut reads = Vec::new();
                for c in cases {
                    if let Some(k) = &c.key {
                        keys.push((k as *const crate::ir::Ex, self.tr(&k.expr, &k.path)?.0));
                    }
                    let Some(ct) = c.user() else {
                        return err(
                            path,
                            format!("{what}: a case that is not a record is not read so yet"),
                        );
                    };
                    let v = ty_ident(&c.variant);
                    let read = self.slot_view_read(ct, &c.args, &what, path)?;
                    reads.push((c as *const crate::ir::SwitchCase, quote!(#en::#v(#read))));
                }
                let arms = tag_arms(
                    cases,
                    false,
                    |k| {
                        keys.iter()
                            .find(|(p, _)| std::ptr::eq(*p, k))
                            .map(|(_, x)| x.clone())
                            .ok_or_else(|| internal(path))
                    },
                    |c| {
                        reads
                            .iter()
                            .find(|(p, _)| std::ptr::eq(*p, c))
                            .map(|(_, x)| x.clone())
                            .ok_or_else(|| internal(path))
                    },
                    || {
                        Ok(
                            quote!(other => return Err(::binspec_runtime::Error::invalid(
                            r.abs_pos(), format!("no case for {:?}", other))),),
                        )
                    },
                )?;
                (
                    quote!(match #o { #(#arms)* }),
                    T::Switch(self.ty, f.name.clone()),
                )
            }
            _ => return err(path, format!("{what}: only a record is read so yet")),
        };
        self.exits = true;
        let fname = f.name.as_str();
        let read = quote!(::binspec_runtime::read::read_from(&#bytes, #at, endian, |r, endian, pools, root_io| {
            Ok(#read)
        }).at(#fname)?);
        // (Absent, it has nothing to name: an error, as in Kaitai and the interpreter.)
        let read = match &f.cond {
            Some(c) => {
                let c = self.tr(&c.expr, &c.path)?.0.full();
                let msg = format!("'{}' is absent (`{}` does not hold)", f.name, c_text(f));
                quote!(if #c { #read } else {
                    return Err(::binspec_runtime::Error::other(#msg).at(#fname));
                })
            }
            None => read,
        };
        Ok((Rx::new(read, Prec::Block), t))
    }

    /// The bytes of slot `sf` of the current record: those the model keeps, or zeros of the slot's size.
    fn slot_bytes(&mut self, sf: &Field) -> R<TokenStream> {
        let me = self.me();
        let filler = format_ident!("{}_filler", sf.name);
        let Some(size) = &sf.size else {
            return err(&sf.path, "internal: a slot without a size");
        };
        let n = self.tr(&size.expr, &size.path)?.0.full();
        self.exits = true;
        Ok(quote!(::binspec_runtime::read::kept_slot(#me.#filler.as_deref(), #n)?))
    }

    /// `T::read(..)` of type `ty` with arguments `args` (numbers and flags), translated where the view is named.
    fn slot_view_read(
        &mut self,
        ty: usize,
        args: &[crate::ir::Ex],
        what: &str,
        path: &str,
    ) -> R<TokenStream> {
        let implicit = self.gen.is_none_or(|g| !g.param_list(ty).is_empty());
        if implicit {
            return err(
                path,
                format!(
                    "{what}: a type that uses values from outside its record is not read so yet"
                ),
            );
        }
        if let Some(g) = self.gen {
            g.note_call(ty, Fun::Read);
        }
        let n = ty_ident(&self.m.types[ty].rust);
        if self.m.types[ty].params.is_empty() {
            return Ok(quote!(#n::read(r, endian, pools, root_io)?));
        }
        let mut a = Vec::new();
        for x in args {
            match self.tr(&x.expr, &x.path)? {
                (v, T::Int | T::Bool) => a.push(v.full()),
                _ => {
                    return err(
                        path,
                        format!("{what}: only numbers and flags are passed so yet"),
                    )
                }
            }
        }
        Ok(quote!(#n::read(r, endian, pools, root_io, (#(#a,)*))?))
    }
}

/// The text of `f`'s condition.
fn c_text(f: &Field) -> &str {
    f.cond.as_ref().map_or("", |c| c.text.as_str())
}
