//! The root's glue to the runtime: the `Format` impl (sniffing by magic, reading, writing, `info`) and, for an
//! archive, the `Archive` impl over its entries and `view_files`.

use super::probe::variant_name_arms;
use super::*;
use crate::ir::EndianSpec;

impl<'m> Gen<'m> {
    pub(super) fn emit_root_impl(&self) -> R<TokenStream> {
        let m = self.m;
        let root = m.root();
        let name = ty_ident(&root.rust);
        let id = m.format_id.as_str();
        let title = m.title.clone().unwrap_or_else(|| m.id.clone());
        let exts = &m.extensions;
        let magics: Vec<&Vec<u8>> = m.magic.iter().chain(m.magics.iter()).collect();
        let sniff = if magics.is_empty() {
            quote!({
                let _ = data;
                false
            })
        } else {
            let at = m.magic_at as usize;
            let checks = magics.iter().map(|mg| {
                if at == 0 {
                    quote!(data.starts_with(&[#(#mg),*]))
                } else {
                    quote!(data.get(#at..).is_some_and(|d| d.starts_with(&[#(#mg),*])))
                }
            });
            quote!(#(#checks)||*)
        };
        let mut summary = Vec::new();
        for (label, e) in &m.info.summary {
            // (An expression the model cannot answer is a schema error, not a line left out.)
            let mut cx = self.cx(0, Scope::Model);
            let (t, ty) = cx.tr(&e.expr, &e.path)?;
            let text = display(&t, &ty, cx.exits);
            summary.push(quote!((#label.to_string(), #text),));
        }
        for f in root
            .seq
            .iter()
            .filter(|f| f.repeat == Repeat::None && f.cond.is_none() && f.role == Role::Data)
        {
            if let FieldTy::Switch { cases, .. } = &f.ty {
                let fid = ident(&f.name);
                let label = f.name.as_str();
                let arms = variant_name_arms(m, f, cases);
                summary.push(
                    quote!((#label.to_string(), match &self.#fid { #(#arms)* }.to_string()),),
                );
            }
        }
        let version = match &m.info.version {
            Some(v) => {
                let mut cx = self.cx(0, Scope::Model);
                match cx.tr(&v.expr, &v.path) {
                    Ok((t, T::Int)) => {
                        let t = t.full();
                        let text = shown(quote!(format!("{:#x}", #t)), cx.exits);
                        quote!(Some(#text))
                    }
                    Ok((t, ty)) => {
                        let text = display(&t, &ty, cx.exits);
                        quote!(Some(#text))
                    }
                    // (As for the summary: an error, not a version left out.)
                    Err(e) => return Err(e),
                }
            }
            None => quote!(None),
        };
        let endian = if matches!(root.endian, EndianSpec::Switch { .. }) {
            quote!(Some(self.endian))
        } else if let EndianSpec::Fixed(e) = root.endian {
            let e = endian_tokens(Some(e));
            quote!(Some(#e))
        } else {
            quote!(None)
        };
        let archive = match &m.archive {
            Some(a) => {
                let path: Vec<Ident> = a.entries.iter().map(|p| ident(p)).collect();
                let nm = ident(&a.name);
                let dt = ident(&a.data);
                let entry_ty = self
                    .entry_type(&a.entries)
                    .map(|t| ty_ident(&m.types[t].rust));
                let Some(entry_ty) = entry_ty else {
                    return err(
                        "/meta/-binspec/archive",
                        "entries must name a repeated user type",
                    );
                };
                let entry_ti = self.entry_type(&a.entries).unwrap_or_default();
                // The hash that stands for the name of an entry stored without one. A derived hash that the model
                // leaves out equals its derive for no name: `sarc_hash` (the only hash expressions know) of no
                // bytes, 0.
                let hash = match &a.hash {
                    None => quote!(None),
                    Some(h) => {
                        let hid = ident(h);
                        match find(&m.types[entry_ti], h).map(|f| &f.role) {
                            Some(Role::Data) => quote!(Some(e.#hid as u64)),
                            Some(Role::Derive(x)) if x.text.contains(".sarc_hash(") => {
                                quote!(Some(e.#hid.map_or(0u64, |v| v as u64)))
                            }
                            _ => {
                                return err(
                                    "/meta/-binspec/archive/hash",
                                    "the hash must name a field of the entry type that is data or derived with sarc_hash",
                                )
                            }
                        }
                    }
                };
                // A name the schema reads under a condition is optional in the model (SARC's, absent in archives
                // that store only hashes).
                let hash_fn = match &a.hash {
                    None => quote!(),
                    Some(_) => quote! {
                        fn hash(&self) -> ::std::option::Option<u64> {
                            let e = self;
                            #hash
                        }
                    },
                };
                let optional = find(&m.types[entry_ti], &a.name).is_some_and(|f| f.cond.is_some());
                let (get_name, set_name) = if optional {
                    (
                        quote!(self.#nm.as_deref()),
                        quote!(self.#nm = Some(name.into());),
                    )
                } else {
                    (quote!(Some(&self.#nm[..])), quote!(self.#nm = name.into();))
                };
                quote! {
                    impl ::binspec_runtime::ArchiveEntry for #entry_ty {
                        fn name(&self) -> ::std::option::Option<&str> {
                            #get_name
                        }
                        fn set_name(&mut self, name: &str) {
                            #set_name
                        }
                        fn data(&self) -> &[u8] {
                            &self.#dt[..]
                        }
                        fn set_data(&mut self, data: ::binspec_runtime::Bytes) -> ::binspec_runtime::Bytes {
                            ::std::mem::replace(&mut self.#dt, data)
                        }
                        #hash_fn
                    }
                    impl ::binspec_runtime::Archive for #name {
                        type Entry = #entry_ty;
                        fn entries(&self) -> &[#entry_ty] {
                            &self.#(#path).*
                        }
                        fn entries_mut(&mut self) -> &mut ::std::vec::Vec<#entry_ty> {
                            &mut self.#(#path).*
                        }
                    }
                    ::binspec_runtime::impl_archive_dyn!(#name);
                }
            }
            None => quote!(impl ::binspec_runtime::MaybeArchive for #name {}),
        };
        // A byte order that the file's own bytes decide (`endian: switch-on`) must be the one they decide in what
        // the writer made, or the file reads back otherwise: then writing fails instead.
        let endian_check = if matches!(root.endian, EndianSpec::Switch { .. }) {
            quote! {
                if found_endian != self.endian {
                    return Err(::binspec_runtime::Error::write(format!(
                        "the file would read back as {found_endian}-endian, not {}-endian: what decides the byte order (see the schema's meta/endian) comes out otherwise in the written data",
                        self.endian
                    )).at("endian").in_format(#id));
                }
            }
        } else {
            quote!()
        };
        let view_files = match self.view_plan() {
            Some(_) => {
                quote! {
                    /// The archive's files, read one entry at a time from `data` without building the model: each
                    /// name and data borrow `data`, in the order of the file. Only what reading needs is checked
                    /// (not the derived values, such as name hashes, nor the order); to edit or write the archive,
                    /// read it with `from_binary` or `from_bytes`.
                    pub fn view_files(data: &[u8]) -> ::binspec_runtime::Result<impl ::std::iter::ExactSizeIterator<Item = ::binspec_runtime::Result<(&str, &[u8])>> + '_> {
                        let root_io = ::binspec_runtime::Reader::new(data);
                        let mut r = root_io.clone();
                        let mut pools = ::binspec_runtime::layout::ReadPools::new();
                        #name::view_files_in(&mut r, ::binspec_runtime::Endian::Little, &mut pools, &root_io).map_err(|e| e.in_format(#id))
                    }
                }
            }
            None => quote!(),
        };
        let track_ends = self.track_ends();
        let found_endian = if matches!(root.endian, EndianSpec::Switch { .. }) {
            quote!(let found_endian = out.with_contents(#name::endian_of).map_err(|e| e.in_format(#id))?;)
        } else {
            quote!()
        };
        // Likewise a type that the file's own bytes choose for a root field (`switch-on` over instances only).
        let mut switch_checks = Vec::new();
        for f in self.root_switches() {
            let FieldTy::Switch { on, cases } = &f.ty else {
                continue;
            };
            let fid = ident(&f.name);
            let fname = format_ident!("{}_variant_of", f.name);
            let label = f.name.as_str();
            let arms = variant_name_arms(m, f, cases);
            let endian = match &root.endian {
                EndianSpec::Switch { .. } => quote!(found_endian),
                EndianSpec::Fixed(e) => endian_tokens(Some(*e)),
                EndianSpec::Inherit => quote!(::binspec_runtime::Endian::Little),
            };
            let msg = format!(
                "the file would read back as `{{found}}`, not `{{want}}`: what chooses the type ({}) comes out otherwise in the written data",
                on.text
            );
            switch_checks.push(quote! {
                let found = out.with_contents(|b| #name::#fname(b, #endian)).map_err(|e| e.in_format(#id))?;
                let want = match &self.#fid { #(#arms)* };
                if found != want {
                    return Err(::binspec_runtime::Error::write(format!(#msg)).at(#label).in_format(#id));
                }
            });
        }
        // The checks read what was written.
        let out = if found_endian.is_empty() && switch_checks.is_empty() {
            quote!(out)
        } else {
            quote!(mut out)
        };
        // Where the model keeps raw bytes of the file (`model_shares_input`; strings alone do not count), they
        // share one copy of it: one allocation and one large copy instead of one of each (for SARC, reading 3,000 files took 2.0 ms copying each and 1.3 ms
        // copying the file, and writing the model read took 2.0 and 1.4 ms, its data now in one place).
        let from_binary = if self.model_shares_input() {
            quote!(<Self as ::binspec_runtime::Format>::from_bytes(
                ::binspec_runtime::Bytes::copy_from_slice(data)
            ))
        } else {
            quote! {
                let (m, relaid) = #name::read_root(::binspec_runtime::Reader::new(data))?;
                Ok(if relaid { #name::relay(m) } else { m })
            }
        };
        // Pooled items that share bytes are copied once each by whatever is made from the model.
        let check_expansion = if m.pools.is_empty() {
            quote!()
        } else {
            let names = m.pools.iter().map(|p| format!("`{}`", p.id));
            quote!(pools.check_expansion(root_io.size() as u64, &[#(#names),*]).map_err(|e| e.in_format(#id))?;)
        };
        let chain_again = self.chain_read_again(&name, id);
        let m_bind = if chain_again.is_empty() {
            quote!(m)
        } else {
            quote!(mut m)
        };
        self.note_call(0, Fun::Read);
        self.note_call(0, Fun::Write);
        Ok(quote! {
            impl #name {
                #view_files
                /// Reads the file, and says whether its layout is one the writer does not reproduce (see
                /// `ReadPools::relaid`).
                fn read_root(root_io: ::binspec_runtime::Reader<'_>) -> ::binspec_runtime::Result<(Self, bool)> {
                    let mut r = root_io.clone();
                    let mut pools = ::binspec_runtime::layout::ReadPools::new();
                    #track_ends
                    let #m_bind = #name::read(&mut r, ::binspec_runtime::Endian::Little, &mut pools, &root_io).map_err(|e| e.in_format(#id))?;
                    #chain_again
                    #check_expansion
                    Ok((m, pools.relaid()))
                }
                /// Writes the model; `stream`: without copying large shared bytes into the output
                /// (`Writer::streaming`), for `Format::write_to`.
                fn write_root(&self, stream: bool) -> ::binspec_runtime::Result<::binspec_runtime::Writer> {
                    let #out = ::binspec_runtime::layout::write_passes_writer(|w, ctx| self.write(w, ctx, ::binspec_runtime::layout::Io::ROOT, ::binspec_runtime::Endian::Little), stream).map_err(|e| e.in_format(#id))?;
                    #found_endian
                    #(#switch_checks)*
                    #endian_check
                    Ok(out)
                }
                /// A file that shares bytes between items, or has them out of order or after gaps, is read as the
                /// file the writer makes of it: its layout choices (alignments read off positions) describe
                /// positions that writing moves, so they are read again from the written file, until reading what
                /// is written gives the same model (a few rounds at most). If a file cannot be written or read, the
                /// last model read stays.
                fn relay(mut m: Self) -> Self {
                    for _ in 0..4 {
                        let Ok(out) = ::binspec_runtime::Format::to_binary(&m) else {
                            return m;
                        };
                        let out = ::binspec_runtime::Bytes::from(out);
                        match #name::read_root(::binspec_runtime::Reader::shared(&out)) {
                            Ok((again, _)) if again == m => return again,
                            Ok((again, _)) => m = again,
                            Err(_) => return m,
                        }
                    }
                    m
                }
            }
            impl ::binspec_runtime::Format for #name {
                const ID: &'static str = #id;
                const TITLE: &'static str = #title;
                const EXTENSIONS: &'static [&'static str] = &[#(#exts),*];
                fn sniff(data: &[u8]) -> bool { #sniff }
                fn from_binary(data: &[u8]) -> ::binspec_runtime::Result<Self> {
                    #from_binary
                }
                fn from_bytes(data: ::binspec_runtime::Bytes) -> ::binspec_runtime::Result<Self> {
                    let (m, relaid) = #name::read_root(::binspec_runtime::Reader::shared(&data))?;
                    Ok(if relaid { #name::relay(m) } else { m })
                }
                fn to_binary(&self) -> ::binspec_runtime::Result<::std::vec::Vec<u8>> {
                    Ok(self.write_root(false)?.into_inner())
                }
                fn write_to(&self, out: &mut dyn ::std::io::Write) -> ::binspec_runtime::Result<()> {
                    self.write_root(true)?.write_to(out).map_err(|e| e.in_format(#id))
                }
                fn info(&self) -> ::binspec_runtime::Info {
                    ::binspec_runtime::Info {
                        format: #id,
                        version: #version,
                        endian: #endian,
                        summary: vec![#(#summary)*],
                    }
                }
            }
            #archive
            ::binspec_runtime::impl_binrw!(#name);
        })
    }

    fn entry_type(&self, path: &[String]) -> Option<usize> {
        let mut ty = 0;
        for p in path {
            let f = find(&self.m.types[ty], p)?;
            match f.ty {
                FieldTy::User { ty: t, .. } => ty = t,
                _ => return None,
            }
        }
        Some(ty)
    }
}

/// A translated value as a `String`: a string's `to_string()`, anything else `format!`ted; where evaluating it may
/// fail (`exits`: the translation holds a `?`), the error's text instead.
fn display(t: &Rx, ty: &T, exits: bool) -> TokenStream {
    let text = match ty {
        T::Str => {
            let t = recv(t);
            quote!(#t.to_string())
        }
        _ => {
            let t = t.full();
            quote!(format!("{}", #t))
        }
    };
    shown(text, exits)
}

/// `text`, a `String` expression, or where evaluating it may fail (`exits`), the error's text in its place.
fn shown(text: TokenStream, exits: bool) -> TokenStream {
    if exits {
        quote!(::binspec_runtime::Info::value(|| Ok(#text)))
    } else {
        text
    }
}
