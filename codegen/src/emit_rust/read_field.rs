//! Reading one field: a primitive, one value of any type, a blob cut out by size or terminator (stripped,
//! processed, then kept, decoded or parsed), `process:` (applied, or undone for writing), and repetitions.

use super::*;
use crate::ir::Process;

impl<'m> Gen<'m> {
    /// The call that reads primitive `f` (a `Result` of its value), for all but a one-bit boolean.
    fn prim_call(&self, f: &Field) -> R<Option<TokenStream>> {
        Ok(Some(match &f.ty {
            FieldTy::Int {
                bytes: 1,
                signed: false,
                ..
            } => quote!(r.u8()),
            FieldTy::Int {
                bytes: 1,
                signed: true,
                ..
            } => quote!(r.i8()),
            FieldTy::Int {
                bytes,
                signed,
                endian,
            } => {
                let e = endian_tokens(*endian);
                let m = format_ident!("{}{}", if *signed { "i" } else { "u" }, *bytes as u32 * 8);
                quote!(r.#m(#e))
            }
            FieldTy::Float { bytes, endian } => {
                let e = endian_tokens(*endian);
                let m = format_ident!("f{}", *bytes as u32 * 8);
                quote!(r.#m(#e))
            }
            FieldTy::Bits { n: 1, .. } => return Ok(None),
            FieldTy::Bits { n, le: true } => {
                let n = *n as u32;
                quote!(r.bits_le(#n))
            }
            FieldTy::Bits { n, le: false } => {
                let n = *n as u32;
                quote!(r.bits_be(#n))
            }
            _ => return err(&f.path, "internal: not a primitive"),
        }))
    }

    /// Reading primitive `f`, as an expression of its value.
    fn read_prim(&self, f: &Field) -> R<Rx> {
        if let FieldTy::Bits { n: 1, le } = &f.ty {
            let m = if *le {
                quote!(bits_le)
            } else {
                quote!(bits_be)
            };
            return Ok(Rx::new(quote!(r.#m(1)? != 0), Prec::Cmp));
        }
        let call = self.prim_call(f)?.ok_or_else(|| internal(&f.path))?;
        Ok(Rx::atom(quote!(#call?)))
    }

    /// Code that reads one value of a field (not its repetition).
    fn read_one(&self, ti: usize, f: &Field) -> R<Read> {
        let cx = || self.cx(ti, Scope::Read);
        let sized = |inner: TokenStream| -> R<TokenStream> {
            if let Some(sz) = &f.size {
                let s = cx().tr(&sz.expr, &sz.path)?.0.full();
                Ok(quote!({ let mut r = r.substream_sized(#s)?; let r = &mut r; #inner }))
            } else if f.size_eos {
                Ok(quote!({ let mut r = r.substream_eos()?; let r = &mut r; #inner }))
            } else {
                Ok(inner)
            }
        };
        match &f.ty {
            FieldTy::Int { .. } | FieldTy::Bits { .. } if f.enum_.is_some() => {
                let n = ty_ident(&self.m.enums[f.enum_.unwrap_or(0)].rust);
                let p = self.read_prim(f)?.as_(quote!(i128)).full();
                Ok(Read::Expr(quote!(#n::from_value(#p))))
            }
            FieldTy::Int { .. } | FieldTy::Float { .. } | FieldTy::Bits { .. } => {
                Ok(match self.prim_call(f)? {
                    Some(call) => Read::Call { call, exits: false },
                    None => Read::Expr(self.read_prim(f)?.full()),
                })
            }
            FieldTy::Bytes | FieldTy::Str { .. } => Ok(Read::Expr(self.read_blob(ti, f)?)),
            FieldTy::User { .. } if f.is_blob() => Ok(Read::Expr(self.read_blob(ti, f)?)),
            FieldTy::User { ty, args } => {
                let n = ty_ident(&self.m.types[*ty].rust);
                let (a, exits) = self.args_exits(ti, *ty, args, Scope::Read, f)?;
                self.note_call(*ty, Fun::Read);
                let call = quote!(#n::read(r, endian, pools, root_io, #a));
                if self.is_boxed(f) {
                    Ok(Read::Expr(sized(quote!(::std::boxed::Box::new(#call?)))?))
                } else if f.size.is_some() || f.size_eos {
                    Ok(Read::Expr(sized(quote!(#call?))?))
                } else {
                    Ok(Read::Call { call, exits })
                }
            }
            FieldTy::Switch { on, cases } => {
                let o = cx().tr(&on.expr, &on.path)?.0.full();
                let en = switch_enum_name(self.m, f);
                let arms = tag_arms(
                    cases,
                    false,
                    |k| Ok(cx().tr(&k.expr, &k.path)?.0),
                    |c| {
                        let v = ty_ident(&c.variant);
                        let body = self.read_one(ti, &case_field(f, c))?;
                        Ok(quote!(#en::#v(#body)))
                    },
                    || {
                        Ok(
                            quote!(other => return Err(::binspec_runtime::Error::invalid(r.abs_pos(), format!("no case for {:?}", other))),),
                        )
                    },
                )?;
                Ok(Read::Expr(quote!(match #o { #(#arms)* })))
            }
            FieldTy::Value => err(&f.path, "internal: value instance read"),
        }
    }

    /// `process:` applied to bytes `data` (a `&[u8]` expression), or undone (`inverse`) for writing; gives a
    /// `Vec<u8>`.
    pub(super) fn process(
        &self,
        ti: usize,
        f: &Field,
        data: TokenStream,
        scope: Scope,
        inverse: bool,
    ) -> R<TokenStream> {
        let rt = quote!(::binspec_runtime::process);
        let arg = |x: &crate::ir::Ex| self.cx(ti, scope).tr(&x.expr, &x.path);
        Ok(match &f.process {
            None => quote!(#data.to_vec()),
            Some(Process::Xor(k)) => match arg(k)? {
                (t, T::Int) => {
                    let t = t.as_(quote!(u8)).full();
                    quote!(#rt::xor(#data, &[#t]))
                }
                (t, _) => {
                    let t = t.full();
                    quote!(#rt::xor(#data, #t))
                }
            },
            Some(Process::Rol(n)) | Some(Process::Ror(n)) => {
                let (t, _) = arg(n)?;
                let left = matches!(f.process, Some(Process::Rol(_))) != inverse;
                let t = if left { t } else { t.prefix(quote!(-)) }.full();
                quote!(#rt::rol(#data, #t))
            }
            Some(Process::Custom { path, args }) => {
                // `crate::hooks::<schema id>::<path>::decode(data, args...)`, or `encode` to write.
                let module = format_ident!("{}", self.m.id.replace('-', "_"));
                let path: Vec<Ident> = path.iter().map(|p| format_ident!("{}", p)).collect();
                let fun = if inverse {
                    quote!(encode)
                } else {
                    quote!(decode)
                };
                let mut a = Vec::new();
                for x in args {
                    a.push(match arg(x)? {
                        (t, T::Bytes) => quote!(::binspec_runtime::expr::bytes(&#t)),
                        (t, T::Str) => {
                            let t = t.recv();
                            quote!(&#t[..])
                        }
                        (t, _) => t.full(),
                    });
                }
                quote!(crate::hooks::#module::#(#path)::*::#fun(#data #(, #a)*)?)
            }
            Some(Process::Zlib) if inverse => quote!(#rt::zlib(#data)),
            Some(Process::Zlib) => {
                quote!(#rt::unzlib(#data, start, ((#data).len() as u64).saturating_mul(1032).max(1 << 20))?)
            }
        })
    }

    /// Reads a field whose bytes are cut out first (by size, to the end, or at a terminator), then stripped of
    /// padding, cut at the terminator and processed, as Kaitai does; then kept as bytes, decoded as a string or
    /// parsed as a type.
    fn read_blob(&self, ti: usize, f: &Field) -> R<TokenStream> {
        let cx = || self.cx(ti, Scope::Read);
        let term = f.term_bytes();
        let sized = f.size.is_some() || f.size_eos;
        let get = if let Some(sz) = &f.size {
            let s = cx().tr(&sz.expr, &sz.path)?.0.full();
            quote!(r.bytes_sized(#s)?)
        } else if f.size_eos {
            quote!(r.bytes_eos()?)
        } else if let Some(t) = &term {
            let (inc, con, eos) = (f.include, f.consume, f.eos_error);
            quote!(r.bytes_term_multi(&[#(#t),*], #inc, #con, #eos)?)
        } else if let Some(c) = &f.contents {
            let c = c.clone();
            quote!({ r.expect(&[#(#c),*])?; &[#(#c),*][..] })
        } else {
            return err(
                &f.path,
                "bytes need 'size', 'size-eos', 'terminator' or 'contents'",
            );
        };
        let mut steps = Vec::new();
        if sized && (f.pad_right.is_some() || term.is_some()) {
            let pad = match f.pad_right {
                Some(p) => quote!(Some(#p)),
                None => quote!(None),
            };
            let t = match &term {
                Some(t) => quote!(Some(&[#(#t),*][..])),
                None => quote!(None),
            };
            let inc = f.include;
            steps.push(
                quote!(let raw = ::binspec_runtime::read::slot_content(raw, #pad, #t, #inc);),
            );
        }
        if f.process.is_some() {
            let p = self.process(ti, f, quote!(raw), Scope::Read, false)?;
            steps.push(quote!(let owned: ::std::vec::Vec<u8> = #p; let raw: &[u8] = &owned;));
        }
        let kept = matches!(f.role, Role::Data | Role::Placed | Role::Derive(_));
        let fin = match &f.ty {
            // A string the model keeps shares the input's buffer where it can.
            FieldTy::Str { encoding, .. } if kept && self.view.get() => {
                if is_utf8(encoding) {
                    quote!(::binspec_runtime::Reader::view_utf8(raw, start)?)
                } else {
                    quote!(r.view_str(raw, #encoding, start)?)
                }
            }
            FieldTy::Str { encoding, .. } if kept => {
                if is_utf8(encoding) {
                    quote!(r.read_utf8(raw, start)?)
                } else {
                    quote!(r.read_str(raw, #encoding, start)?)
                }
            }
            FieldTy::Str { encoding, .. } => {
                quote!(::binspec_runtime::text::decode_as(raw, #encoding, start)?)
            }
            FieldTy::User { ty, args } => {
                let n = ty_ident(&self.m.types[*ty].rust);
                let a = self.args_for(ti, *ty, args, Scope::Read, f)?;
                self.note_call(*ty, Fun::Read);
                let call = quote!(#n::read(r, endian, pools, root_io, #a)?);
                let call = if self.is_boxed(f) {
                    quote!(::std::boxed::Box::new(#call))
                } else {
                    call
                };
                // (`f` may be a switch's case: the field as declared says.)
                if self.declared(ti, f).is_some_and(Field::keeps_unread) {
                    // A record that keeps the bytes of its slot it does not read: how much of it it read.
                    let used = local("used", &f.name);
                    quote!({ let mut r = r.over(raw, start); let r = &mut r; let x__ = #call; #used = r.pos(); x__ })
                } else {
                    quote!({ let mut r = r.over(raw, start); let r = &mut r; #call })
                }
            }
            // Bytes the model keeps share the input's buffer where they can; bytes it does not keep (fixed
            // contents, a pool's region) stay a borrowed slice, so that reading them copies nothing.
            _ if kept && self.view.get() => quote!(raw),
            _ if kept => quote!(r.share(raw)),
            _ if f.process.is_some() => quote!(owned),
            _ => quote!(raw),
        };
        Ok(quote!({
            let start = r.abs_pos();
            let raw: &[u8] = #get;
            #(#steps)*
            #fin
        }))
    }

    /// Reads a field with its repetition (a `Vec` for `repeat`). A repetition the writer sorts (`-sort-by`) is put
    /// in that order as it is read: the order is derived, so a file whose entries are out of order decodes to the
    /// same value as the file the writer makes of it.
    pub(super) fn read_repeated(&self, ti: usize, f: &Field) -> R<Read> {
        let (Some(_), FieldTy::User { ty, args }, false) =
            (&f.sort_by, &f.ty, matches!(f.repeat, Repeat::None))
        else {
            return self.read_repeated_as_stored(ti, f);
        };
        let (a, exits) = self.args_exits(ti, *ty, args, Scope::Read, f)?;
        let n = ty_ident(&self.m.types[*ty].rust);
        let keyed = fallible(&Read::Call {
            call: quote!(#n::read_keyed(r, endian, pools, root_io, #a)),
            exits,
        });
        // Elements read as whole records: their keys are compared once they are all read, in the key field's own
        // type where it is one.
        let records_key = self
            .record_size(f)
            .and_then(|_| self.int_sort_field(*ty))
            .filter(|(k, _)| matches!(k.role, Role::Data));
        let read_keyed = match &f.repeat {
            _ if records_key.is_some() => {
                let id = ident(records_key.map_or("", |(k, _)| k.name.as_str()));
                let read = self.read_repeated_as_stored(ti, f)?;
                quote! {
                    let mut out = #read;
                    let in_order = out.is_sorted_by(|a, b| a.#id <= b.#id);
                }
            }
            Repeat::Expr(x)
                if f.size.is_none()
                    && !f.size_eos
                    && !f.is_blob()
                    && !self.boxed.contains(&f.path) =>
            {
                let cnt = self.cx(ti, Scope::Read).tr(&x.expr, &x.path)?.0.full();
                let min = min_size(self.m, f);
                self.note_call(*ty, Fun::ReadKeyed);
                // Keys are compared as they come; only an archive out of order needs them all (computed again).
                quote! {
                    let n = #cnt;
                    if n < 0 { return Err(::binspec_runtime::Error::invalid(r.abs_pos(), format!("negative count {n}"))); }
                    let cap = r.check_count(n as u64, #min)?;
                    let mut out = ::std::vec::Vec::with_capacity(cap);
                    let mut last__ = None;
                    let mut in_order = true;
                    for i in 0..n as usize {
                        let (x, k) = #keyed.at_index(i)?;
                        if in_order {
                            in_order = last__.as_ref().is_none_or(|l| *l <= k);
                            last__ = Some(k);
                        }
                        out.push(x);
                    }
                }
            }
            _ => {
                let read = self.read_repeated_as_stored(ti, f)?;
                quote! {
                let mut out = #read;
                let ctx__ = ::binspec_runtime::layout::WriteCtx::reading();
                let mut in_order = true;
                let mut last__ = None;
                for (i, x) in out.iter().enumerate() {
                    let k = x.sort_key(ctx__, endian, #a).at_index(i)?;
                    in_order &= last__.as_ref().is_none_or(|l| *l <= k);
                    last__ = Some(k);
                }
                }
            }
        };
        Ok(Read::Expr(quote!({
            #read_keyed
            if !in_order {
                // The writer puts the elements in order, so what they point at moves.
                pools.set_relaid();
                let ctx__ = ::binspec_runtime::layout::WriteCtx::reading();
                let mut keyed = ::std::vec::Vec::with_capacity(out.len());
                for (i, x) in out.iter().enumerate() { keyed.push((x.sort_key(ctx__, endian, #a).at_index(i)?, i)); }
                keyed.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
                let mut slots: ::std::vec::Vec<::std::option::Option<_>> = out.into_iter().map(Some).collect();
                out = keyed.into_iter().filter_map(|(_, i)| slots[i].take()).collect();
            }
            out
        })))
    }

    /// Reads a field with its repetition, in the order of the file.
    fn read_repeated_as_stored(&self, ti: usize, f: &Field) -> R<Read> {
        let (one, decl) = self.with_own_elements(ti, f, || self.read_one(ti, f));
        let one = one?;
        // Elements named before they are pushed (their arguments read the ones before them): their type.
        let decl = match (&f.ty, self.own_elements(ti, f)) {
            (FieldTy::User { ty, .. }, Some(_)) => {
                let n = ty_ident(&self.m.types[*ty].rust);
                quote!(let _: &::std::vec::Vec<#n> = &out; #decl)
            }
            _ => decl,
        };
        let one_r = fallible(&one);
        Ok(match &f.repeat {
            Repeat::None => one,
            Repeat::Expr(x) => {
                let n = self.cx(ti, Scope::Read).tr(&x.expr, &x.path)?.0.full();
                let min = min_size(self.m, f);
                let each = quote!(for i in 0..n as usize { out.push(#one_r.at_index(i)?); });
                // Records of numbers: all at once where the input holds them all (see `records`).
                let each = match (self.record_size(f), self.record_decoder(f)) {
                    // The records a deduplicating pool lists: where two are the same, the writer points at the
                    // first (`ReadPools::listed_records`).
                    _ if self.dedup_records_region(f).is_some() => quote! {
                        let mut spans__ = ::std::vec::Vec::with_capacity(cap);
                        for i in 0..n as usize {
                            let s__ = r.abs_pos();
                            out.push(#one_r.at_index(i)?);
                            spans__.push((s__, r.abs_pos()));
                        }
                        pools.listed_records(root_io.buf(), &spans__);
                    },
                    (Some(size), Some(dec)) => {
                        let size = Literal::usize_unsuffixed(size);
                        quote! {
                            match r.records::<#size>(n as u64) {
                                Some(recs) => ::binspec_runtime::records::decode(recs, endian, &mut out, #dec),
                                None => { #each }
                            }
                        }
                    }
                    _ => each,
                };
                Read::Expr(quote!({
                    let n = #n;
                    if n < 0 { return Err(::binspec_runtime::Error::invalid(r.abs_pos(), format!("negative count {n}"))); }
                    let cap = r.check_count(n as u64, #min)?;
                    let mut out = ::std::vec::Vec::with_capacity(cap);
                    #decl
                    #each
                    out
                }))
            }
            Repeat::Eos => {
                // `-scan`: the elements end where a tag is found; read them from a substream of that length.
                let sub = match &f.scan {
                    Some(sc) => {
                        let (tags, step, or_eos) = scan_tokens(sc);
                        quote!(let n__ = r.scan(#tags, #step, #or_eos)?; let mut r = r.substream(n__)?; let r = &mut r;)
                    }
                    None => quote!(),
                };
                let each = quote! {
                    let mut i = 0usize;
                    while !r.is_eof() { out.push(#one_r.at_index(i)?); i += 1; }
                };
                let each = match (self.record_size(f), self.record_decoder(f)) {
                    (Some(size), Some(dec)) => {
                        let size = Literal::usize_unsuffixed(size);
                        quote! {
                            match r.records_eos::<#size>() {
                                Some(recs) => ::binspec_runtime::records::decode(recs, endian, &mut out, #dec),
                                None => { #each }
                            }
                        }
                    }
                    _ => each,
                };
                Read::Expr(quote!({
                    #sub
                    let mut out = ::std::vec::Vec::new();
                    #decl
                    #each
                    out
                }))
            }
            Repeat::Until(x) => {
                let mut cx = self.cx(ti, Scope::Read);
                cx.last_t = Some(match cx.field_t(f) {
                    T::Array(t) => *t,
                    t => t,
                });
                if valued(f) {
                    cx.last_t = Some(T::Opaque);
                }
                let c = cx.tr(&x.expr, &x.path)?.0.full();
                Read::Expr(quote!({
                    let mut out = ::std::vec::Vec::new();
                    #decl
                    let mut i = 0usize;
                    loop {
                        let v__ = #one_r.at_index(i)?;
                        let stop = #c;
                        out.push(v__);
                        i += 1;
                        if stop { break; }
                    }
                    out
                }))
            }
        })
    }
}
