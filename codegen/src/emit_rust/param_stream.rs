//! Instances read from the bytes of a parameter (`io: header_with_io._io`, where the parameter's type holds
//! nothing but its bytes, as Kaitai's `bytes_with_io` does). The model does not hold such an instance: it is
//! known from the parameter. The reader reads it from those bytes; so does the writer, where the type's counts,
//! conditions and switches name it (dcmp_2's `header_parameters.num_custom_lookup_table_entries`).

use super::*;

impl<'m> Gen<'m> {
    /// The bytes that instance `f` of type `ti` is read from, where they are a parameter's (see
    /// [`crate::ir::Module::param_stream`]).
    pub(super) fn param_stream(&self, ti: usize, f: &Field) -> Option<TokenStream> {
        let (p, data) = self.m.param_stream(ti, f)?;
        let pid = local("p", &p.name);
        let d = ident(&data.name);
        Some(quote!(::binspec_runtime::expr::bytes(&#pid.#d)))
    }
}

impl<'m> Cx<'m> {
    /// While writing, instance `f` read from the bytes of a parameter: read again from them where it is named
    /// (`binspec_runtime::read::read_from`). Its `pos` and condition are taken where the writer is; the type it
    /// reads must take no arguments.
    pub(super) fn param_stream_value(&mut self, f: &Field, path: &str) -> R<Option<(Rx, T)>> {
        let Some((p, data)) = self.m.param_stream(self.ty, f) else {
            return Ok(None);
        };
        let (FieldTy::User { ty, args }, Repeat::None) = (&f.ty, &f.repeat) else {
            return err(
                path,
                format!(
                    "'{}' is read from the bytes of parameter '{}': the writer reads it again only where it is one \
                     record",
                    f.name, p.name
                ),
            );
        };
        if !args.is_empty() || !self.m.types[*ty].params.is_empty() {
            return err(
                path,
                format!(
                    "'{}' is read from the bytes of parameter '{}': the writer reads it again only where its type \
                     takes no arguments",
                    f.name, p.name
                ),
            );
        }
        let Some(pos) = f.pos_expr() else {
            return err(&f.path, "an instance needs 'pos' or 'value'");
        };
        let at = self.tr(&pos.expr, &pos.path)?.0.full();
        let pid = local("p", &p.name);
        let d = ident(&data.name);
        let tn = ty_ident(&self.m.types[*ty].rust);
        let fname = f.name.as_str();
        let read = quote!(::binspec_runtime::read::read_from(
            ::binspec_runtime::expr::bytes(&#pid.#d), #at, endian, #tn::read
        ).at(#fname)?);
        self.exits = true;
        let v = match &f.cond {
            Some(c) => {
                let c = self.tr(&c.expr, &c.path)?.0.full();
                // (Absent, it is its default, as a reader gives it.)
                quote!(if #c { #read } else { ::std::default::Default::default() })
            }
            None => read,
        };
        Ok(Some((Rx::new(v, Prec::Block), T::User(*ty))))
    }
}
