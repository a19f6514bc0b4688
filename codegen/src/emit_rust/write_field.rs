//! Writing one field: a primitive, one value of a data field, a blob's bytes in their slot (encoded, serialised
//! and processed, then terminated and padded), and the check that a field's presence agrees with its condition.

use super::*;

impl<'m> Gen<'m> {
    /// The bytes of a value as they go into its slot, as a `&[u8]` (a UTF-8 string's own bytes, the model's bytes,
    /// or a borrowed `Vec<u8>`): encoded, serialised (for a type) and processed.
    pub(super) fn content(
        &self,
        ti: usize,
        f: &Field,
        v: TokenStream,
        scope: Scope,
    ) -> R<TokenStream> {
        let plain = match &f.ty {
            // (A UTF-8 string's bytes are its own: borrowed, not copied.)
            FieldTy::Str { encoding, .. } if is_utf8(encoding) => quote!((#v).as_bytes()),
            FieldTy::Str { encoding, .. } => {
                quote!(&::binspec_runtime::text::encode(#v, #encoding)?)
            }
            FieldTy::User { ty, args } => {
                let a = self.args_for(ti, *ty, args, scope, f)?;
                self.note_call(*ty, Fun::Write);
                // (What the record places in its own stream goes into its writer, not the output.)
                if self.places_inside(*ty) {
                    quote!(&{ let mut sub = ::binspec_runtime::Writer::new(); let mark__ = ctx.placed_mark(); #v.write(&mut sub, ctx, ::binspec_runtime::layout::Io::ROOT, endian, #a)?; ctx.apply_placed_in(&mut sub, mark__)?; sub.into_inner() })
                } else {
                    quote!(&{ let mut sub = ::binspec_runtime::Writer::new(); #v.write(&mut sub, ctx, ::binspec_runtime::layout::Io::ROOT, endian, #a)?; sub.into_inner() })
                }
            }
            _ => quote!(&#v[..]),
        };
        if f.process.is_some() {
            let p = self.process(ti, f, quote!(plain), scope, true)?;
            Ok(quote!(&{ let plain: &[u8] = #plain; #p }))
        } else {
            Ok(plain)
        }
    }

    /// Writes a field's bytes into its slot: content, terminator, padding up to the size.
    fn write_blob(&self, ti: usize, f: &Field, v: TokenStream) -> R<TokenStream> {
        let content = self.content(ti, f, v, Scope::Write)?;
        let term = f.term_bytes();
        let (append, pad) = f.slot_writing();
        let size = match &f.size {
            Some(sz) => {
                let s = self.cx(ti, Scope::Write).tr(&sz.expr, &sz.path)?.0.full();
                quote!(Some(#s))
            }
            None => quote!(None),
        };
        // Content that holds its terminator would read back cut short there.
        let check = match &term {
            Some(t) if !f.include => quote!(::binspec_runtime::check_term(content, &[#(#t),*])?;),
            _ => quote!(),
        };
        let write = if f.slot_exact() {
            // Content that nothing ends fills its slot (no terminator, no padding, no filler).
            quote!(::binspec_runtime::write_slot_exact(w, content, #size, ctx.first_pass())?;)
        } else if let Some(fid) = self.filler_of(ti, f) {
            // The bytes the file had after the content, where it had its own.
            quote!(::binspec_runtime::write_slot_filled(w, content, #size, &[#(#append),*], #pad, ctx.first_pass(), self.#fid.as_deref())?;)
        } else {
            quote!(::binspec_runtime::write_slot(w, content, #size, &[#(#append),*], #pad, ctx.first_pass())?;)
        };
        Ok(quote!({
            let content: &[u8] = #content;
            #check
            #write
        }))
    }

    /// Writes a primitive: `val` is an `i128` for an integer (a translated expression, or a model value cast to
    /// it), an `f64` or `f32` for a float.
    pub(super) fn write_prim(&self, f: &Field, val: TokenStream) -> R<TokenStream> {
        self.prim(f, val, false)
    }

    /// [`Gen::write_prim`] for a value the writer derives: its range is checked by the pass (`ctx.fit`), which
    /// lets a first pass, whose positions are not known yet, through.
    pub(super) fn write_derived(&self, f: &Field, val: TokenStream) -> R<TokenStream> {
        self.prim(f, val, true)
    }

    fn prim(&self, f: &Field, val: TokenStream, derived: bool) -> R<TokenStream> {
        let (fit, fit_bits) = if derived {
            (quote!(ctx.fit), quote!(ctx.fit_bits))
        } else {
            (
                quote!(::binspec_runtime::fit),
                quote!(::binspec_runtime::fit_bits),
            )
        };
        let fname = f.name.as_str();
        Ok(match &f.ty {
            FieldTy::Int {
                bytes: 1, signed, ..
            } => {
                let rt = rust_int(1, *signed);
                let m = if *signed { quote!(i8) } else { quote!(u8) };
                quote!(w.#m(#fit::<#rt>(#val, #fname)?);)
            }
            FieldTy::Int {
                bytes,
                signed,
                endian,
            } => {
                let rt = rust_int(*bytes, *signed);
                let e = endian_tokens(*endian);
                let m = format_ident!("{}{}", if *signed { "i" } else { "u" }, *bytes as u32 * 8);
                quote!(w.#m(#fit::<#rt>(#val, #fname)?, #e);)
            }
            FieldTy::Float { bytes, endian } => {
                let e = endian_tokens(*endian);
                let m = format_ident!("f{}", *bytes as u32 * 8);
                quote!(w.#m(#val, #e);)
            }
            // A value wider than its bits is refused (as `fit` refuses one too wide for its bytes): the writer
            // would keep only its low bits.
            FieldTy::Bits { n, le } => {
                let n = *n as u32;
                let m = if *le {
                    quote!(bits_le)
                } else {
                    quote!(bits_be)
                };
                quote!(w.#m(#fit_bits(#val, #n, #fname)?, #n);)
            }
            _ => return err(&f.path, "internal: not a primitive"),
        })
    }

    /// The model's field that holds the bytes after `f`'s content in its slot (see [`has_filler`]), where `f` is
    /// the field type `ti` declares, or one case of a switch that keeps what its record does not read
    /// ([`Field::keeps_unread`]); not one element of a repetition, written as a field.
    fn filler_of(&self, ti: usize, f: &Field) -> Option<Ident> {
        let declared = self.declared(ti, f)?;
        // (A switch keeps one filler, whichever case it holds.)
        (declared.has_filler()
            && (declared.ty == f.ty || declared.keeps_unread())
            && f.repeat == Repeat::None)
            .then(|| format_ident!("{}_filler", f.name))
    }

    /// The `seq` attribute of type `ti` that `f` is, or is a case or an element of (written or read as a field of
    /// its own).
    pub(super) fn declared(&self, ti: usize, f: &Field) -> Option<&'m Field> {
        self.m.types[ti].seq.iter().find(|s| s.name == f.name)
    }

    /// Code that writes one value (`v`, a reference to the model value) of a data field.
    pub(super) fn write_one(&self, ti: usize, f: &Field, v: TokenStream) -> R<TokenStream> {
        let cx = || self.cx(ti, Scope::Write);
        let fname = f.name.as_str();
        match &f.ty {
            FieldTy::Int { .. } | FieldTy::Bits { .. } if f.enum_.is_some() => {
                self.write_prim(f, quote!(#v.value()))
            }
            FieldTy::Float { .. } => self.write_prim(f, quote!(*#v)),
            FieldTy::Int { .. } | FieldTy::Bits { .. } => self.write_prim(f, quote!(*#v as i128)),
            FieldTy::Bytes | FieldTy::Str { .. } => self.write_blob(ti, f, v),
            FieldTy::User { .. } if f.process.is_some() || f.terminator.is_some() => {
                self.write_blob(ti, f, v)
            }
            FieldTy::User { ty, args } => {
                let a = self.args_for(ti, *ty, args, Scope::Write, f)?;
                self.note_call(*ty, Fun::Write);
                match &f.size {
                    // A substream of a given size: the type's bytes, then padding up to the size (`pad-right`, or
                    // the bytes the file had there).
                    Some(sz) => {
                        let s = cx().tr(&sz.expr, &sz.path)?.0.full();
                        let pad = f.pad_right.unwrap_or(0);
                        // A sized field starts and ends on a byte (as Kaitai reads it): bits written before
                        // it, or left over at the end of its type, complete their byte first.
                        let uses_bits =
                            self.m.types.iter().any(|t| {
                                t.seq.iter().any(|f| matches!(f.ty, FieldTy::Bits { .. }))
                            });
                        let align = if uses_bits {
                            quote!(w.flush_bits();)
                        } else {
                            quote!()
                        };
                        // (A record item whose length a field of its holder measures, placing bytes in its own
                        // stream, as BFRES's render info values: its size is where its placed bytes end too.)
                        let measured_item = f.item_of.is_some()
                            && self.places_inside(*ty)
                            && self.m.types[ti].measured(&f.name);
                        if f.size_derived || measured_item {
                            // The size is what is written here: the record, then the bytes the file had after it
                            // and what the record placed in its own stream past them; the substream's size is the
                            // record's length in the previous pass.
                            let filler = match self.filler_of(ti, f) {
                                Some(fid) => quote!(self.#fid.as_deref()),
                                None => quote!(None),
                            };
                            return Ok(quote!({
                                #align
                                let start = w.pos();
                                let size: i128 = #s;
                                let sub = ::binspec_runtime::layout::Io { start, size: u64::try_from(size).ok() };
                                let mark__ = ctx.placed_mark();
                                #v.write(w, ctx, sub, endian, #a)?;
                                ctx.finish_slot(w, mark__, start, #filler)?;
                            }));
                        }
                        // (Where the record places bytes in its own stream, those inside its padding are
                        // padded with.)
                        let places = self.places_inside(*ty);
                        let filler = match self.filler_of(ti, f) {
                            Some(fid) => quote!(self.#fid.as_deref()),
                            None => quote!(None),
                        };
                        Ok(quote!(
                            ::binspec_runtime::layout::write_sized(w, ctx, #fname, #s, #filler, #pad, #places, #uses_bits, |w, ctx, sub| #v.write(w, ctx, sub, endian, #a))?;
                        ))
                    }
                    // To the end of the stream: the bytes the file had after the content, where it had any.
                    None => Ok(match self.filler_of(ti, f) {
                        Some(fid) => quote! {
                            #v.write(w, ctx, io, endian, #a)?;
                            if let Some(b) = self.#fid.as_deref() {
                                w.bytes(b);
                            }
                        },
                        None => quote!(#v.write(w, ctx, io, endian, #a)?;),
                    }),
                }
            }
            FieldTy::Switch { on, cases } => {
                let en = switch_enum_name(self.m, f);
                let mut arms = Vec::new();
                let mut seen = BTreeSet::new();
                for c in cases.iter().filter(|c| seen.insert(c.variant.clone())) {
                    let var = ty_ident(&c.variant);
                    // The arguments the tag chooses, where the cases of this variant pass others.
                    let (pick, chosen) = match self.args_by_tag(ti, f, on, cases, c)? {
                        Some((pick, chosen)) => (pick, Some(chosen)),
                        None => (quote!(), None),
                    };
                    *self.args_override.borrow_mut() = chosen;
                    let one = self.write_one(ti, &case_field(f, c), quote!(x));
                    *self.args_override.borrow_mut() = None;
                    let one = one?;
                    arms.push(quote!(#en::#var(x) => { #pick #one }));
                }
                let check = self.switch_check(ti, f, on, cases, &v)?;
                let write = quote!(match #v { #(#arms)* });
                Ok(if check.is_empty() {
                    write
                } else {
                    quote!({ #check #write })
                })
            }
            FieldTy::Value => err(&f.path, "internal"),
        }
    }

    /// For a switch whose cases read one type with other arguments (`rel: section(false)`, `rela: section(true)`,
    /// one variant in the model): the statement that binds `sel__` to the arguments that differ between those
    /// cases, as the case the tag (computed from the values written) chooses passes them, and where each goes
    /// among the params, for the writing of case `c`'s record to pass (`Gen::args_override`; the arguments the
    /// cases agree on are translated there as usual). `None` where the cases' arguments agree or the tag cannot
    /// be computed from the model: case `c`'s own.
    fn args_by_tag(
        &self,
        ti: usize,
        f: &Field,
        on: &crate::ir::Ex,
        cases: &[crate::ir::SwitchCase],
        c: &crate::ir::SwitchCase,
    ) -> R<Option<(TokenStream, BTreeMap<usize, TokenStream>)>> {
        let same: Vec<_> = cases.iter().filter(|d| d.variant == c.variant).collect();
        let Some(ty) = c.user() else {
            return Ok(None);
        };
        let params = &self.m.types[ty].params;
        // The positions where the cases' arguments differ.
        let differ: Vec<usize> = (0..c.args.len().min(params.len()))
            .filter(|&i| {
                same.iter()
                    .any(|d| d.args.get(i).map(|a| &a.text) != Some(&c.args[i].text))
            })
            .collect();
        if differ.is_empty() {
            return Ok(None);
        }
        let cx = || self.cx(ti, Scope::Write);
        let Ok((tag, _)) = cx().tr(&on.expr, &on.path) else {
            return Ok(None);
        };
        let tag = tag.unary();
        let args = |d: &crate::ir::SwitchCase| -> R<TokenStream> {
            let mut exits = false;
            let mut out = Vec::new();
            for &i in &differ {
                let a = d.args.get(i).ok_or_else(|| internal(&f.path))?;
                out.push(self.arg_tokens(ti, a, &params[i], Scope::Write, &mut exits)?);
            }
            Ok(quote!((#(#out,)*)))
        };
        // (A tag that chooses no case of this variant is refused by the switch's check.)
        let arms = tag_arms(
            same,
            true,
            |k| Ok(cx().tr(&k.expr, &k.path)?.0),
            args,
            || {
                let a = args(c)?;
                Ok(quote!(_ => #a,))
            },
        )?;
        let chosen = differ
            .iter()
            .enumerate()
            .map(|(j, &i)| {
                let j = proc_macro2::Literal::usize_unsuffixed(j);
                (i, quote!(sel__.#j))
            })
            .collect();
        Ok(Some((
            quote!(let sel__ = match &#tag { #(#arms)* };),
            chosen,
        )))
    }

    /// For a switch: a check that its tag, computed from the values written, chooses the case the model holds
    /// (`v`), since the file would otherwise read back as another case (or not at all). Skipped in the first pass
    /// and where the tag cannot be computed from the model, as [`Self::presence_check`] is.
    fn switch_check(
        &self,
        ti: usize,
        f: &Field,
        on: &crate::ir::Ex,
        cases: &[crate::ir::SwitchCase],
        v: &TokenStream,
    ) -> R<TokenStream> {
        let mut used = BTreeSet::new();
        crate::ir::names_used(&on.expr, &mut used);
        if self.m.types[ti]
            .params
            .iter()
            .any(|p| used.contains(&p.name))
        {
            return Ok(quote!());
        }
        let cx = || self.cx(ti, Scope::Write);
        let Ok((tag, _)) = cx().tr(&on.expr, &on.path) else {
            return Ok(quote!());
        };
        let tag = tag.unary();
        let en = switch_enum_name(self.m, f);
        // The case a reader chooses for the tag, and the case the model holds, by the names the text forms use.
        let reads = tag_arms(
            cases,
            true,
            |k| Ok(cx().tr(&k.expr, &k.path)?.0),
            |c| {
                let name = snake_case(&c.variant);
                Ok(quote!(Some(#name)))
            },
            || Ok(quote!(_ => None,)),
        )?;
        let mut holds = Vec::new();
        let mut seen = BTreeSet::new();
        for c in cases.iter().filter(|c| seen.insert(c.variant.clone())) {
            let (var, name) = (ty_ident(&c.variant), snake_case(&c.variant));
            holds.push(quote!(#en::#var(_) => #name,));
        }
        let text = on.text.as_str();
        Ok(quote! {
            if !ctx.first_pass() {
                let tag__ = &#tag;
                ::binspec_runtime::check_case(tag__, #text, match tag__ { #(#reads)* }, match #v { #(#holds)* })?;
            }
        })
    }

    /// For a field that the model's presence decides (`if:` on data, a placed instance or a pool item): a check
    /// that its condition, computed from the values written, agrees, since the file would otherwise read back
    /// without it (or with one where the model has none). Skipped in the first pass, where positions are not known
    /// yet, and where the condition cannot be computed from the model (it reads something only the reader sees, or
    /// a parameter).
    /// The check that a field's value (each element, for a repeat) meets its `valid` key, before it is written:
    /// the reader would refuse the file otherwise. Nothing where the key cannot be computed from the model.
    pub(super) fn valid_write_check(&self, ti: usize, f: &Field) -> R<TokenStream> {
        let id = ident(&f.name);
        let Ok(Some((test, msg))) = self.valid_test(ti, f, quote!(self.#id), Scope::Write) else {
            return Ok(quote!());
        };
        let fname = f.name.as_str();
        Ok(quote! {
            if !#test {
                return Err(::binspec_runtime::Error::write(format!(#msg, self.#id)).at(#fname));
            }
        })
    }

    pub(super) fn presence_check(&self, ti: usize, f: &Field) -> R<TokenStream> {
        let Some(c) = &f.cond else {
            return Ok(quote!());
        };
        // A guard on where the item's own offset points, against a value the writer does not have.
        if crate::ir::unchecked_guard(&self.m.types[ti], f) {
            return Ok(quote!());
        }
        // A condition on an instance only reading sees, which the model does not hold: the model's presence
        // decides (as in the interpreter).
        if self.m.names_a_view(ti, &c.expr) {
            return Ok(quote!());
        }
        // A parameter's value when writing a type that a switch case reads with arguments is the one of the
        // first such case, which need not be the one the file was read with (nor are the arguments that type
        // passes on from it): not a value to check against.
        let mut used = BTreeSet::new();
        crate::ir::names_used(&c.expr, &mut used);
        if self.m.types[ti]
            .params
            .iter()
            .any(|p| used.contains(&p.name))
            && self
                .params_unsure
                .get_or_init(|| params_unsure(self.m))
                .contains(&ti)
        {
            return Ok(quote!());
        }
        let Ok((ct, T::Bool)) = self.cx(ti, Scope::Write).tr(&c.expr, &c.path) else {
            return Ok(quote!());
        };
        let ct = ct.full();
        let id = ident(&f.name);
        let fname = f.name.as_str();
        let present = format!(
            "present in the model, but its condition `{}` is false for the values written: the file would not have it",
            c.text
        );
        let absent = format!(
            "absent in the model, but its condition `{}` is true for the values written: the file would have one",
            c.text
        );
        Ok(quote! {
            if !ctx.first_pass() {
                match (#ct, self.#id.is_some()) {
                    (false, true) => return Err(::binspec_runtime::Error::write(#present).at(#fname)),
                    (true, false) => return Err(::binspec_runtime::Error::write(#absent).at(#fname)),
                    _ => {}
                }
            }
        })
    }
}

/// A variant's name as the text forms spell it (serde's `snake_case`): `HashArray` is `hash_array`, `U1` is `u1`.
fn snake_case(variant: &str) -> String {
    let mut out = String::new();
    for (i, c) in variant.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// The types whose params the writer may not know as the file was read: those a switch case reads with arguments
/// (the writer passes the first such case's), and those read with arguments that name their params.
fn params_unsure(m: &crate::ir::Module) -> BTreeSet<usize> {
    fn fields(t: &crate::ir::TypeDef) -> impl Iterator<Item = &Field> {
        t.seq.iter().chain(&t.instances)
    }
    let mut out: BTreeSet<usize> = m
        .types
        .iter()
        .flat_map(fields)
        .flat_map(|f| match &f.ty {
            FieldTy::Switch { cases, .. } => cases
                .iter()
                .filter(|c| !c.args.is_empty())
                .filter_map(|c| c.ty)
                .collect(),
            _ => Vec::new(),
        })
        .collect();
    loop {
        let before = out.len();
        for (ti, t) in m.types.iter().enumerate() {
            if !out.contains(&ti) {
                continue;
            }
            for f in fields(t) {
                let FieldTy::User { ty, args } = &f.ty else {
                    continue;
                };
                let used = super::own_elements::names_in(args);
                if t.params.iter().any(|p| used.contains(&p.name)) {
                    out.insert(*ty);
                }
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

impl Gen<'_> {
    /// Whether writing a record of type `ty` can place bytes (an instance with `pos`, in any type it reaches).
    fn places_inside(&self, ty: usize) -> bool {
        let graph = crate::ir::types_graph(&self.m.types, false);
        crate::ir::types_reached(
            &graph,
            &FieldTy::User {
                ty,
                args: Vec::new(),
            },
        )
        .into_iter()
        .chain(std::iter::once(ty))
        .any(|t| {
            self.m.types[t]
                .instances
                .iter()
                .any(|f| f.role == Role::Placed)
        })
    }
}

/// Whether the arguments a field passes its type name the element's index (`_index`).
pub(super) fn args_name_index(f: &Field) -> bool {
    let mut names = BTreeSet::new();
    match &f.ty {
        FieldTy::User { args, .. } => args
            .iter()
            .for_each(|a| crate::ir::names_used(&a.expr, &mut names)),
        FieldTy::Switch { cases, .. } => cases
            .iter()
            .flat_map(|c| c.args.iter())
            .for_each(|a| crate::ir::names_used(&a.expr, &mut names)),
        _ => {}
    }
    names.contains("_index")
}

impl Gen<'_> {
    /// For a `repeat-until` field (its elements in `val`): a check that the condition holds for the last element and
    /// for no earlier one, as the reader stops at the first element where it holds. Skipped in the first pass, and
    /// where the condition cannot be computed from the model.
    pub(super) fn until_check(&self, ti: usize, f: &Field, x: &crate::ir::Ex) -> R<TokenStream> {
        let mut cx = self.cx(ti, Scope::Write);
        // `_` is the element, as the reader sees it (see `read_repeated_as_stored`).
        let et = match cx.field_t(f) {
            T::Array(t) => *t,
            t => t,
        };
        let et = if valued(f) { T::Opaque } else { et };
        cx.last_t = Some(et.clone());
        let Ok((c, T::Bool)) = cx.tr(&x.expr, &x.path) else {
            return Ok(quote!());
        };
        let c = c.full();
        // Numbers, flags and enums are bound by value, as the reader binds them; anything else by reference.
        let copied = match et {
            T::Int | T::Float | T::Bool => true,
            T::Opaque => f.enum_.is_some(),
            _ => false,
        };
        let bind = if copied {
            quote!(let v__ = *v__;)
        } else {
            quote!()
        };
        let text = x.text.as_str();
        // The element's index, where the condition names it (`_index`).
        let mut names = BTreeSet::new();
        crate::ir::names_used(&x.expr, &mut names);
        let each = if cx.exits {
            // (A condition that can fail, an index out of range: computed in a loop, where it can leave.)
            let each = if names.contains("_index") {
                quote!((i, v__) in val.iter().enumerate())
            } else {
                quote!(v__ in val.iter())
            };
            quote!({
                let mut stops__ = ::std::vec::Vec::with_capacity(val.len());
                for #each {
                    #bind
                    stops__.push(#c);
                }
                stops__.into_iter()
            })
        } else if names.contains("_index") {
            quote!(val.iter().enumerate().map(|(i, v__)| { #bind #c }))
        } else {
            quote!(val.iter().map(|v__| { #bind #c }))
        };
        Ok(quote! {
            if !ctx.first_pass() {
                ::binspec_runtime::check_until(#each, #text)?;
            }
        })
    }
}
