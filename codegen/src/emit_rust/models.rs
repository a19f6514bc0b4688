//! The model: a struct per type (data and layout fields, with serde attributes and a `Default`) and a Rust enum
//! per schema enum, with their doc comments.

use super::*;
use crate::ir::EndianSpec;

pub(super) fn doc_attr(doc: &Option<String>) -> TokenStream {
    match doc {
        Some(d) => {
            let d = crate::doc_text::escape_tags(d.trim_end());
            let lines: Vec<String> = d.lines().map(|l| format!(" {l}")).collect();
            quote!(#(#[doc = #lines])*)
        }
        None => quote!(),
    }
}

impl<'m> Gen<'m> {
    /// Whether the model holds `f`'s value in a `Box` (a recursive field; a repetition's `Vec` already holds its
    /// elements apart).
    pub(super) fn is_boxed(&self, f: &Field) -> bool {
        f.repeat == Repeat::None && self.boxed.contains(&f.path)
    }

    /// The Rust type of a field in the model: its value's, in a `Vec` for a repetition, an `Option` where it has
    /// a condition.
    pub(super) fn model_ty(&self, f: &Field) -> TokenStream {
        let base = match &f.ty {
            FieldTy::Int { .. } | FieldTy::Bits { .. } if f.enum_.is_some() => {
                let n = ty_ident(&self.m.enums[f.enum_.unwrap_or(0)].rust);
                quote!(#n)
            }
            FieldTy::Int { bytes, signed, .. } => rust_int(*bytes, *signed),
            FieldTy::Float { bytes: 4, .. } => quote!(f32),
            FieldTy::Float { .. } => quote!(f64),
            FieldTy::Bits { n: 1, .. } => quote!(bool),
            FieldTy::Bits { .. } => quote!(u64),
            FieldTy::Bytes => quote!(::binspec_runtime::Bytes),
            FieldTy::Str { .. } => quote!(::binspec_runtime::Str),
            FieldTy::User { ty, .. } => {
                let n = ty_ident(&self.m.types[*ty].rust);
                if self.is_boxed(f) {
                    quote!(::std::boxed::Box<#n>)
                } else {
                    quote!(#n)
                }
            }
            FieldTy::Switch { .. } => {
                let n = switch_enum_name(self.m, f);
                quote!(#n)
            }
            FieldTy::Value => quote!(i128),
        };
        let base = if f.repeat != Repeat::None {
            quote!(::std::vec::Vec<#base>)
        } else {
            base
        };
        if f.cond.is_some() {
            quote!(::std::option::Option<#base>)
        } else {
            base
        }
    }

    /// Whether some type's model keeps raw bytes read from the file (which then share the file's buffer when it is
    /// read with `from_bytes`). Strings do not count: sharing them costs more than copying them (the TotK resource
    /// size table's names: 12.8 ms to read shared, 7.3 ms copied).
    pub(super) fn model_shares_input(&self) -> bool {
        let shares = |ty: &FieldTy| matches!(ty, FieldTy::Bytes);
        self.m.types.iter().enumerate().any(|(ti, t)| {
            self.tail_region(ti).is_some()
                || t.seq.iter().chain(t.instances.iter()).any(|f| {
                    matches!(f.role, Role::Data | Role::Placed)
                        && (shares(&f.ty)
                            || matches!(&f.ty, FieldTy::Switch { cases, .. }
                                if cases.iter().any(|c| c.prim.as_ref().is_some_and(shares))))
                })
        })
    }

    /// The value a new model gives field `f` of type `ti`: its `-default` expression, or the type's default. An
    /// enum field's default is the enum's value; an optional field's is present (`Some`).
    /// A field's value in a new model: `None` for its type's default (what a derived `Default` gives), or the
    /// schema's `-default`.
    fn model_default(&self, ti: usize, f: &Field) -> R<Option<TokenStream>> {
        let Some(d) = &f.default else {
            return Ok(None);
        };
        if f.repeat != Repeat::None {
            return err(
                &d.path,
                "'-default' on a repeated field is not supported yet",
            );
        }
        let (x, t) = self.cx(ti, Scope::Model).tr(&d.expr, &d.path)?;
        let tok = x.full();
        let v = match (&f.ty, t) {
            (FieldTy::Int { .. } | FieldTy::Bits { .. }, T::Int) if f.enum_.is_some() => {
                let n = ty_ident(&self.m.enums[f.enum_.unwrap_or(0)].rust);
                quote!(#n::from_value(#tok))
            }
            (FieldTy::Str { .. }, T::Str) => quote!(::binspec_runtime::Str::from(#tok)),
            (FieldTy::Bits { n: 1, .. }, T::Bool) => tok,
            (
                FieldTy::Int { .. } | FieldTy::Bits { .. } | FieldTy::Float { .. } | FieldTy::Value,
                T::Int | T::Float,
            ) => x.as_(quote!(_)).full(),
            (_, t) => {
                let what = match t {
                    T::Int => "an integer",
                    T::Float => "a float",
                    T::Bool => "a boolean",
                    T::Str => "a string",
                    T::Bytes => "bytes",
                    _ => "this value",
                };
                return err(
                    &d.path,
                    format!("'-default' of {what} for a field of this type is not supported yet"),
                );
            }
        };
        Ok(Some(if f.cond.is_some() {
            quote!(Some(#v))
        } else {
            v
        }))
    }

    pub(super) fn emit_type(&self, ti: usize) -> R<TokenStream> {
        let t = &self.m.types[ti];
        let name = ty_ident(&t.rust);
        let mut fields = Vec::new();
        let mut defaults = Vec::new();
        let mut extra = Vec::new();
        if matches!(t.endian, EndianSpec::Switch { .. }) {
            fields.push(quote! {
                /// Byte order of the file.
                pub endian: ::binspec_runtime::Endian,
            });
            defaults.push((
                quote!(endian),
                Some(quote!(::binspec_runtime::Endian::Little)),
            ));
        }
        for f in t.seq.iter().chain(t.instances.iter()) {
            let id = ident(&f.name);
            let doc = doc_attr(&f.doc);
            match &f.role {
                Role::Data | Role::Placed => {
                    let ty = self.model_ty(f);
                    let serde = match (&f.ty, f.cond.is_some(), f.repeat != Repeat::None) {
                        (FieldTy::Bytes, false, false) => {
                            quote!(#[serde(with = "::binspec_runtime::bytes")])
                        }
                        (FieldTy::Bytes, true, false) => {
                            quote!(#[serde(default, with = "::binspec_runtime::bytes::option", skip_serializing_if = "Option::is_none")])
                        }
                        (_, true, _) => {
                            quote!(#[serde(default, skip_serializing_if = "Option::is_none")])
                        }
                        _ => quote!(),
                    };
                    if let Some(r) = &f.relocations {
                        // Derived from the pointers: the file's entries only where they differ.
                        let d = format!(
                            " Derived by the writer from where it puts the pointers of table `{}`; set only where a file's entries are not grouped as the writer groups them (kept so that the file reads back the same).",
                            r.id
                        );
                        let serde = match f.ty {
                            FieldTy::Bytes => {
                                quote!(#[serde(default, with = "::binspec_runtime::bytes::option", skip_serializing_if = "Option::is_none")])
                            }
                            _ => quote!(#[serde(default, skip_serializing_if = "Option::is_none")]),
                        };
                        fields.push(quote!(#doc #[doc = ""] #[doc = #d] #serde pub #id: ::std::option::Option<#ty>,));
                        defaults.push((quote!(#id), None));
                    } else {
                        fields.push(quote!(#doc #serde pub #id: #ty,));
                        defaults.push((quote!(#id), self.model_default(ti, f)?));
                    }
                    if f.has_filler() {
                        let fid = format_ident!("{}_filler", f.name);
                        let d = if f.size_derived {
                            format!(" The bytes of `{}`'s slot after what its record reads (kept so that the file reads back the same; usually absent). Written after the record: the slot's size, which the writer derives, counts them.", f.name)
                        } else if f.keeps_unread() {
                            format!(" The bytes of `{}`'s slot after what its record reads, where they are not zeros (kept so that the file reads back the same; usually absent). Used while the record has the length it was read with.", f.name)
                        } else {
                            format!(" The bytes of `{}`'s slot after its content, where they are not the terminator and padding the writer puts there (kept so that the file reads back the same; usually absent). Used while the content has the length it was read with.", f.name)
                        };
                        fields.push(quote!(#[doc = #d] #[serde(default, with = "::binspec_runtime::bytes::option", skip_serializing_if = "Option::is_none")] pub #fid: ::std::option::Option<::binspec_runtime::Bytes>,));
                        defaults.push((quote!(#fid), None));
                    }
                    if let Some(pool) = f.item_of.filter(|&p| !self.m.pools[p].dedup) {
                        let aid = format_ident!("{}_align", f.name);
                        let d = format!(" Alignment of `{}` where the default ({}) does not reproduce the file.", f.name, align_text(self.m.item_default(f, pool)));
                        fields.push(quote!(#[doc = #d] #[serde(default, skip_serializing_if = "Option::is_none")] pub #aid: ::std::option::Option<u64>,));
                        defaults.push((quote!(#aid), None));
                        if let Some((_, _, false)) = self.member_index(ti, f) {
                            let gid = format_ident!("{}_gap", f.name);
                            let d = format!(" Bytes before `{}` that nothing in the file describes, after the item of the same kind before it (kept so that the file reads back the same; usually absent).", f.name);
                            fields.push(quote!(#[doc = #d] #[serde(default, with = "::binspec_runtime::bytes::option", skip_serializing_if = "Option::is_none")] pub #gid: ::std::option::Option<::binspec_runtime::Bytes>,));
                            defaults.push((quote!(#gid), None));
                        }
                    }
                }
                Role::Kept => {
                    let ty = self.model_ty(f);
                    let d = format!(
                        " Kept in the model: read as `{}`; when writing, this value is used where `{}` is named.",
                        f.value().map_or("", |v| v.text.as_str()),
                        f.name
                    );
                    let dv = self.model_default(ti, f)?;
                    let dv_tok = dv
                        .clone()
                        .unwrap_or_else(|| quote!(::std::default::Default::default()));
                    // Left out of the text where it has its default (the usual case), and that default where the
                    // text leaves it out.
                    let dfn = format_ident!("default_{}_{}", t.name, f.name);
                    let sfn = format_ident!("is_default_{}_{}", t.name, f.name);
                    let (dfn_s, sfn_s) = (dfn.to_string(), sfn.to_string());
                    fields.push(quote!(#doc #[doc = ""] #[doc = #d] #[serde(default = #dfn_s, skip_serializing_if = #sfn_s)] pub #id: #ty,));
                    extra.push(quote! {
                        fn #dfn() -> #ty { #dv_tok }
                        fn #sfn(v: &#ty) -> bool { *v == #dfn() }
                    });
                    defaults.push((quote!(#id), dv));
                }
                // A count of repetitions that may all be absent: the file's value, where they are.
                Role::Count { .. } => {
                    if let Some(reps) = crate::ir::count_kept_where_absent(t, f) {
                        let ty = self.model_ty(f);
                        let names: Vec<String> =
                            reps.iter().map(|r| format!("`{}`", r.name)).collect();
                        let d = format!(
                            " Derived from the length of the first present of {}; set only where none is present \
                             and the file's count is not 0.",
                            names.join(", ")
                        );
                        fields.push(quote!(#doc #[doc = ""] #[doc = #d] #[serde(default, skip_serializing_if = "Option::is_none")] pub #id: ::std::option::Option<#ty>,));
                        defaults.push((quote!(#id), None));
                    }
                }
                Role::Derive(x) => {
                    // An optional derived field (`if:`) is written where its condition holds; the override is the
                    // value alone.
                    let ty = self.model_ty(&Field {
                        cond: None,
                        ..f.clone()
                    });
                    let d = format!(
                        " Set only where the file disagrees with the derived value (`{}`).",
                        x.text
                    );
                    fields.push(quote!(#doc #[doc = ""] #[doc = #d] #[serde(default, skip_serializing_if = "Option::is_none")] pub #id: ::std::option::Option<#ty>,));
                    defaults.push((quote!(#id), None));
                }
                Role::Given => {
                    let ty = self.model_ty(f);
                    let d = " Derived by the type that holds this record, for its item (a position or a length). Set \
                             only where the file's value is not the one the writer would derive: a position where the \
                             item is empty (it can point anywhere)."
                        .to_string();
                    fields.push(quote!(#doc #[doc = ""] #[doc = #d] #[serde(default, skip_serializing_if = "Option::is_none")] pub #id: ::std::option::Option<#ty>,));
                    defaults.push((quote!(#id), None));
                }
                Role::Offset { of: of_id } if self.empty_item_of(ti, f).is_some() => {
                    let of = &t.field(*of_id).name;
                    let ty = self.model_ty(f);
                    let d = if self.keeps_empty_position(ti, t.field(*of_id)) {
                        format!(
                            " Set only where `{of}` is empty and the file's offset is not where the writer would put it \
                             (an empty item's offset can point anywhere)."
                        )
                    } else {
                        format!(
                            " Set only where `{of}` is absent and the file's offset is not the 0 the writer writes \
                             there."
                        )
                    };
                    fields.push(quote!(#doc #[doc = ""] #[doc = #d] #[serde(default, skip_serializing_if = "Option::is_none")] pub #id: ::std::option::Option<#ty>,));
                    defaults.push((quote!(#id), None));
                }
                Role::Pool(u) if self.m.dedup_records(u.pool).is_some() => {
                    let d = format!(
                        " The records of pool `{}` as the file holds them, in order (a layout choice): written first, so \
                         that their order and the records nothing refers to are kept; a record the model refers to that \
                         is not listed is added after them, and equal records are stored once. The count before them \
                         is derived from what is written. Empty for a new file.",
                        self.m.pools[u.pool].id
                    );
                    let ty = self.model_ty(f);
                    fields.push(quote!(#doc #[doc = ""] #[doc = #d] #[serde(default, skip_serializing_if = "Vec::is_empty")] pub #id: #ty,));
                    defaults.push((quote!(#id), None));
                }
                Role::Pool(u) if self.m.pools[u.pool].dedup => {
                    let d = format!(
                        " The strings of pool `{}` as the file holds them, in order (a layout choice): written first, so \
                         that their order and the strings nothing refers to are kept; a string the model refers to that \
                         is not listed is added after them, and equal strings are stored once. Empty for a new file.",
                        self.m.pools[u.pool].id
                    );
                    fields.push(quote!(#doc #[doc = ""] #[doc = #d] #[serde(default, skip_serializing_if = "Vec::is_empty")] pub #id: ::std::vec::Vec<::std::string::String>,));
                    defaults.push((quote!(#id), None));
                }
                Role::Pool(u) if self.m.pools[u.pool].keep_order => {
                    let oid = format_ident!("{}_item_order", f.name);
                    let d = format!(
                        " The order of the non-empty items of pool `{}` in `{}` where the file's is not the order the \
                         writer meets them: for each position, the index of the item there among the non-empty items \
                         in the writer's order (a layout choice). Each empty item is written where the non-empty one \
                         the writer meets before it ends.",
                        self.m.pools[u.pool].id, f.name
                    );
                    fields.push(quote!(#[doc = #d] #[serde(default, skip_serializing_if = "Option::is_none")] pub #oid: ::std::option::Option<::std::vec::Vec<u32>>,));
                    defaults.push((quote!(#oid), None));
                    let aid = format_ident!("{}_item_align", f.name);
                    let d = format!(
                        " The alignments of the items of pool `{}` in `{}` that the file has elsewhere than at their \
                         alignment in the schema, where another explains their padding (a layout choice): pairs of an \
                         item's index (as in `{}`) and its alignment.",
                        self.m.pools[u.pool].id, f.name, oid
                    );
                    fields.push(quote!(#[doc = #d] #[serde(default, skip_serializing_if = "Option::is_none")] pub #aid: ::std::option::Option<::std::vec::Vec<u32>>,));
                    defaults.push((quote!(#aid), None));
                }
                Role::Pool(u) if self.ordered_members(ti, u.pool).is_some() => {
                    let members = self.ordered_members(ti, u.pool).unwrap_or_default();
                    let names: Vec<String> = members
                        .iter()
                        .map(|x| format!("`{}`", x.name(self.m)))
                        .collect();
                    let oid = format_ident!("{}_order", f.name);
                    let d = format!(
                        " The order of the members of `{}` where the file's is not the default one ({}): their \
                         names, in the file's order (a layout choice). Members it does not name follow in the default \
                         order.",
                        f.name,
                        names.join(", ")
                    );
                    fields.push(quote!(#[doc = #d] #[serde(default, skip_serializing_if = "Option::is_none")] pub #oid: ::std::option::Option<::std::vec::Vec<::std::string::String>>,));
                    defaults.push((quote!(#oid), None));
                    for mb in &members {
                        let gap = mb.gap_field(&f.name, self.m);
                        let d = format!(
                            " Bytes before `{}` in `{}` that nothing in the file describes (kept so that the file reads \
                             back the same; usually absent).",
                            mb.name(self.m),
                            f.name
                        );
                        fields.push(quote!(#[doc = #d] #[serde(default, with = "::binspec_runtime::bytes::option", skip_serializing_if = "Option::is_none")] pub #gap: ::std::option::Option<::binspec_runtime::Bytes>,));
                        defaults.push((quote!(#gap), None));
                        if let Some(gid) = mb.group_align(&f.name, self.m) {
                            let d = format!(
                                " Alignment of the first of the items `{}` in `{}`, where the default ({}) does not \
                                 reproduce the file.",
                                mb.name(self.m),
                                f.name,
                                align_text(self.m.item_default(mb.field(), u.pool))
                            );
                            fields.push(quote!(#[doc = #d] #[serde(default, skip_serializing_if = "Option::is_none")] pub #gid: ::std::option::Option<u64>,));
                            defaults.push((quote!(#gid), None));
                        }
                    }
                }
                _ => {}
            }
            if let FieldTy::Switch { cases, .. } = &f.ty {
                // (A view read from a slot the model keeps is read where it is named: see `slot_views`.)
                let slot_view = f.role == Role::View && self.m.slot_stream(ti, f).is_some();
                if matches!(f.role, Role::Data | Role::Placed) || slot_view {
                    let en = switch_enum_name(self.m, f);
                    let mut seen = BTreeSet::new();
                    let vars: Vec<TokenStream> = cases
                        .iter()
                        .filter(|c| seen.insert(c.variant.clone()))
                        .map(|c| {
                            let v = ty_ident(&c.variant);
                            let cf = case_field(f, c);
                            let ct = self.model_ty(&cf);
                            // Bytes in the text form as every bytes field has them.
                            if cf.ty == FieldTy::Bytes
                                && cf.repeat == Repeat::None
                                && cf.cond.is_none()
                            {
                                quote!(#[serde(with = "::binspec_runtime::bytes")] #v(#ct),)
                            } else {
                                quote!(#v(#ct),)
                            }
                        })
                        .collect();
                    let first = &cases[0];
                    let fv = ty_ident(&first.variant);
                    let doc = format!(" The types `{}` can hold.", f.name);
                    if int_switch(f) {
                        let mut seen = BTreeSet::new();
                        let arms: Vec<TokenStream> = cases
                            .iter()
                            .filter(|c| seen.insert(c.variant.clone()))
                            .map(|c| {
                                let v = ty_ident(&c.variant);
                                quote!(#en::#v(x) => *x as i128,)
                            })
                            .collect();
                        extra.push(quote! {
                            impl #en {
                                /// The integer, whichever size it was read as.
                                pub fn value(&self) -> i128 {
                                    match self { #(#arms)* }
                                }
                            }
                        });
                    }
                    extra.push(quote! {
                        #[doc = #doc]
                        #[derive(Debug, Clone, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
                        #[serde(rename_all = "snake_case")]
                        pub enum #en { #(#vars)* }
                        impl ::std::default::Default for #en {
                            fn default() -> Self { #en::#fv(::std::default::Default::default()) }
                        }
                    });
                }
            }
        }
        if let Some(f) = self.tail_region(ti) {
            let id = format_ident!("{}_trailing", f.name);
            let d = format!(
                " Bytes at the end of `{}` after the last item in it, which nothing in the file refers to (kept so that the file reads back the same; usually absent).",
                f.name
            );
            fields.push(quote!(#[doc = #d] #[serde(default, with = "::binspec_runtime::bytes::option", skip_serializing_if = "Option::is_none")] pub #id: ::std::option::Option<::binspec_runtime::Bytes>,));
            defaults.push((quote!(#id), None));
        }
        for l in &t.layout {
            let id = ident(&l.name);
            let doc = doc_attr(&l.doc);
            let dfn = format_ident!("default_{}_{}", t.name, l.name);
            let dv = Literal::u64_unsuffixed(l.default as u64);
            let dfn_s = dfn.to_string();
            fields.push(quote!(#doc #[doc = ""] #[doc = " A layout choice: not stored in the file, inferred when reading."] #[serde(default = #dfn_s)] pub #id: u64,));
            defaults.push((quote!(#id), (l.default != 0).then(|| quote!(#dv))));
            extra.push(quote!(fn #dfn() -> u64 { #dv }));
        }
        // Derived where every field has its type's default (`clippy::derivable_impls`).
        let (derive_default, default_impl) = if defaults.iter().all(|(_, v)| v.is_none()) {
            (quote!(Default,), quote!())
        } else {
            let inits = defaults.iter().map(|(id, v)| {
                let v = v
                    .clone()
                    .unwrap_or_else(|| quote!(::std::default::Default::default()));
                quote!(#id: #v,)
            });
            (
                quote!(),
                quote! {
                    impl ::std::default::Default for #name {
                        fn default() -> Self { #name { #(#inits)* } }
                    }
                },
            )
        };
        let doc = doc_attr(&t.doc);
        // (The calls in a sorted repetition's element are made by its `read_keyed`/`write_keyed`, which its
        // `read`/`write` call.)
        let sorted = self.sort_key_of(ti).is_some();
        let read_fn = if sorted { Fun::ReadKeyed } else { Fun::Read };
        let mut read = self.in_fn(Some((ti, read_fn)), || self.emit_read(ti))?;
        if self.view_plan().is_some_and(|(_, entry)| *entry == ti) {
            self.view.set(true);
            let view = self.in_fn(None, || self.emit_read(ti));
            self.view.set(false);
            read.extend(view?);
        }
        let write_keyed = self.keyed_field(ti).is_some();
        let write = self.in_fn(
            Some((
                ti,
                if write_keyed {
                    Fun::WriteKeyed
                } else {
                    Fun::Write
                },
            )),
            || self.emit_write(ti),
        )?;
        if sorted {
            self.in_fn(Some((ti, Fun::Read)), || self.note_call(ti, Fun::ReadKeyed));
        }
        if write_keyed {
            self.in_fn(Some((ti, Fun::Write)), || {
                self.note_call(ti, Fun::WriteKeyed)
            });
        }
        let sort_keys = self.emit_sort_keys(ti)?;
        let records = self.emit_record_fns(ti);
        let element_args = self.emit_element_args(ti)?;
        let args = self.args_alias(ti)?;
        Ok(quote! {
            #doc
            #[derive(Debug, Clone, #derive_default PartialEq, ::serde::Serialize, ::serde::Deserialize)]
            #[serde(deny_unknown_fields)]
            pub struct #name { #(#fields)* }
            #args
            #default_impl
            #(#extra)*
            impl #name {
                #read
                #write
                #sort_keys
                #records
                #element_args
            }
        })
    }
}

/// The variant of an enum's Rust type for values the schema does not name: `Unknown`, or where the schema names a
/// value `unknown` (Kaitai's gallery does, as Windows' `cpu_archs`), the first of `UnknownValue`,
/// `UnknownValue2`, ... that no value takes.
pub(super) fn catch_all(e: &crate::ir::EnumDef) -> Ident {
    let names = variant_names(e);
    let taken = |n: &str| names.iter().any(|v| v == n);
    let name = std::iter::once("Unknown".to_string())
        .chain(std::iter::once("UnknownValue".to_string()))
        .chain((2..).map(|i| format!("UnknownValue{i}")))
        .find(|n| !taken(n))
        .unwrap_or_default();
    ty_ident(&name)
}

/// The Rust names of an enum's values, in order: each value's name in CamelCase, and where two names come out the
/// same (`gsm610` and `gsm_610` in Kaitai's `wav`), the later one with `Alt` (then `Alt2`, ...) after it. (The text
/// form keeps the schema's names.)
fn variant_names(e: &crate::ir::EnumDef) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, id, _) in &e.values {
        let base = crate::ir::camel(id);
        let name = std::iter::once(base.clone())
            .chain(std::iter::once(format!("{base}Alt")))
            .chain((2..).map(|i| format!("{base}Alt{i}")))
            .find(|n| !out.contains(n))
            .unwrap_or(base);
        out.push(name);
    }
    out
}

/// A Rust enum for a schema enum, with a variant for values the schema does not name (so every file round-trips).
pub(super) fn emit_enum(e: &crate::ir::EnumDef) -> TokenStream {
    let name = ty_ident(&e.rust);
    let catch = catch_all(e);
    let mut vars = Vec::new();
    let mut from = Vec::new();
    let mut to = Vec::new();
    let mut names = Vec::new();
    let mut seen = BTreeSet::new();
    for ((v, id, doc), var) in e.values.iter().zip(variant_names(e)) {
        let var = ty_ident(&var);
        let lit = int_lit(*v);
        let d = doc_attr(doc);
        vars.push(quote!(#d #[serde(rename = #id)] #var,));
        names.push(quote!(#name::#var => Some(#id),));
        // A value named twice reads as its first name.
        if seen.insert(*v) {
            from.push(quote!(#lit => #name::#var,));
        }
        to.push(quote!(#name::#var => #lit,));
    }
    let doc = format!(" The `{}` enum.", e.name);
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub enum #name {
            #(#vars)*
            /// A value the schema does not name.
            #[serde(untagged)]
            #catch(i64),
        }
        impl #name {
            /// The enum for a value read from a file.
            pub fn from_value(v: i128) -> Self {
                match v {
                    #(#from)*
                    other => #name::#catch(other as i64),
                }
            }
            /// The value written to a file.
            pub fn value(self) -> i128 {
                match self {
                    #(#to)*
                    #name::#catch(v) => v as i128,
                }
            }
            /// The schema's name of the value (as the text form writes it), or `None` for a value it does not name.
            pub fn name(self) -> ::std::option::Option<&'static str> {
                match self {
                    #(#names)*
                    #name::#catch(_) => None,
                }
            }
        }
        impl ::std::default::Default for #name {
            fn default() -> Self {
                #name::from_value(0)
            }
        }
    }
}

pub(super) fn switch_enum_name(m: &Module, f: &Field) -> Ident {
    // As the `names` pass named it; else owner type name + field name, e.g. `RsizetableTable`.
    let owner = m.types.iter().position(|t| {
        t.seq
            .iter()
            .chain(t.instances.iter())
            .any(|x| std::ptr::eq(x, f))
    });
    match owner {
        Some(o) => switch_enum_name_in(m, o, &f.name),
        None => format_ident!("{}", crate::ir::camel(&f.name)),
    }
}

/// [`switch_enum_name`] of switch field `name` of type `ti`.
pub(super) fn switch_enum_name_in(m: &Module, ti: usize, name: &str) -> Ident {
    if let Some(n) = m.switch_enums.get(&(ti, name.to_string())) {
        return format_ident!("{}", n);
    }
    format_ident!("{}{}", m.types[ti].rust, crate::ir::camel(name))
}

/// An item's default alignment for the docs: `0x10`, or `0x1000 at 0x10` for one that applies into the item
/// (`binspec_runtime::layout::align_at`).
fn align_text(d: u64) -> String {
    let (a, at) = (d & 0xffff_ffff, d >> 32);
    if at == 0 {
        format!("{a:#x}")
    } else {
        format!("{a:#x}, {at:#x} bytes into it")
    }
}
