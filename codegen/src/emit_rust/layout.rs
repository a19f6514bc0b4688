//! Layout that spans fields: the pool region whose trailing bytes the model keeps, the items written at their own
//! type's region (sections), deduplicating pools' terminators, and sorted repetitions (`-sort-by`): their order
//! slots and the sort keys their elements compute.

use super::*;

impl<'m> Gen<'m> {
    /// The derived number of type `ti` that a sorted repetition of it sorts by (`-sort-by: NAME`, NAME a `-derive`
    /// of the element): the sort computes it once, and the element's writer takes it from there (`write_keyed`)
    /// instead of computing it again in every pass. `None` where no repetition sorts `ti` so, or two sort it by
    /// different fields.
    pub(super) fn keyed_field(&self, ti: usize) -> Option<&'m Field> {
        let mut found: Option<&'m Field> = None;
        for t in &self.m.types {
            for f in &t.seq {
                if !matches!(&f.ty, FieldTy::User { ty, .. } if *ty == ti) {
                    continue;
                }
                let Some(k) = self.sort_key(f) else {
                    continue;
                };
                match found {
                    Some(prev) if prev.name != k.name => return None,
                    _ => found = Some(k),
                }
            }
        }
        found
    }

    /// The field whose values the sorted repetition `f` hands to its elements' writers, if it does: its elements
    /// are written as themselves (no size, process or terminator around them) and it sorts by a derived number of
    /// theirs, named bare.
    pub(super) fn sort_key(&self, f: &Field) -> Option<&'m Field> {
        let (Some(sb), FieldTy::User { ty, .. }) = (&f.sort_by, &f.ty) else {
            return None;
        };
        if f.size.is_some() || f.process.is_some() || f.terminator.is_some() {
            return None;
        }
        crate::ir::bare_name(&sb.expr)
            .and_then(|n| find(&self.m.types[*ty], n))
            .filter(|k| {
                matches!(k.role, Role::Derive(_))
                    && matches!(k.ty, FieldTy::Int { .. })
                    && k.enum_.is_none()
                    && k.repeat == Repeat::None
            })
    }

    /// The pool region whose trailing bytes the model keeps: the root's last field, a pool region to the end of
    /// the file, when the root has no instances that are read after it (so every item of the pool has been read
    /// when the region is). Bytes after the pool's last item are then data that no item covers.
    pub(super) fn tail_region(&self, ti: usize) -> Option<&Field> {
        if ti != 0 {
            return None;
        }
        let t = &self.m.types[ti];
        let last = t.seq.last()?;
        let ok = matches!(&last.role, Role::Pool(u) if !self.m.pools[u.pool].dedup)
            && last.size_eos
            && last.repeat == Repeat::None
            && last.cond.is_none()
            && !t
                .instances
                .iter()
                .any(|f| matches!(f.role, Role::Data | Role::Placed));
        ok.then_some(last)
    }

    /// The number of the sorted repetition `name` of type `ti` among all sorted repetitions (its order slot).
    pub(super) fn order_slot(&self, ti: usize, name: &str) -> u32 {
        self.m
            .types
            .iter()
            .enumerate()
            .flat_map(|(i, t)| t.seq.iter().map(move |f| (i, f)))
            .filter(|(_, f)| f.sort_by.is_some())
            .position(|(i, f)| i == ti && f.name == name)
            .unwrap_or(0) as u32
    }

    /// Whether the sort key of type `ti`, called with the arguments `args`, is the same in every pass: its code
    /// reads no position (nothing from `ctx`), and every parameter it uses is passed a value that reads none either
    /// (no position, no derived value, no parameter from further up, whose source is not seen here).
    pub(super) fn sort_key_is_fixed(&self, ti: usize, args: &TokenStream) -> R<bool> {
        let body = self.emit_sort_keys(ti)?.to_string();
        let body = body.split_once("Result <").map_or("", |(_, b)| b);
        if body.contains("ctx .") || body.contains("io .") {
            return Ok(false);
        }
        let t = &self.m.types[ti];
        let names: Vec<String> = t
            .params
            .iter()
            .map(|p| local("p", &p.name).to_string())
            .chain(self.param_list(ti).into_iter().map(|p| p.id.to_string()))
            .collect();
        let args: Vec<String> = split_args(args);
        if args.len() != names.len() {
            return Ok(false);
        }
        let uses = |n: &str| {
            body.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| w == n)
        };
        Ok(names.iter().zip(&args).all(|(n, a)| {
            !uses(n)
                || !["ctx", "io", "w", "x_", "d_", "p_"].iter().any(|bad| {
                    a.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .any(|w| w == *bad || (bad.ends_with('_') && w.starts_with(bad)))
                })
        }))
    }

    /// The key a parent sorts elements of type `ti` by (`-sort-by`), if one does.
    pub(super) fn sort_key_of(&self, ti: usize) -> Option<&crate::ir::Ex> {
        let mut key: Option<&crate::ir::Ex> = None;
        for t in &self.m.types {
            for f in &t.seq {
                if let (Some(s), FieldTy::User { ty, .. }) = (&f.sort_by, &f.ty) {
                    if *ty == ti {
                        key = Some(s);
                    }
                }
            }
        }
        key
    }

    /// The integer field of `ti` that a parent sorts it by (`-sort-by: NAME`), where NAME is one that is read as
    /// itself (no condition, enum or repetition), with its Rust type: its keys are compared in that type, not as
    /// `i128` (a comparison per element when reading and writing).
    pub(super) fn int_sort_field(&self, ti: usize) -> Option<(&'m Field, TokenStream)> {
        let key = self.sort_key_of(ti)?;
        let f = crate::ir::bare_name(&key.expr)
            .and_then(|n| self.m.types[ti].seq.iter().find(|f| f.name == n))?;
        let FieldTy::Int { bytes, signed, .. } = f.ty else {
            return None;
        };
        let plain = matches!(f.role, Role::Data | Role::Derive(_))
            && f.repeat == Repeat::None
            && f.cond.is_none()
            && f.enum_.is_none();
        plain.then(|| (f, rust_int(bytes, signed)))
    }

    /// `sort_key` for types that a parent sorts by (`-sort-by`).
    pub(super) fn emit_sort_keys(&self, ti: usize) -> R<TokenStream> {
        let Some(key) = self.sort_key_of(ti) else {
            return Ok(quote!());
        };
        let t = &self.m.types[ti];
        let (_, params) = self.fn_params(ti);
        // The key may use derived values: compute the ones it names.
        let mut used = BTreeSet::new();
        crate::ir::names_used(&key.expr, &mut used);
        let mut pre = Vec::new();
        for n in &used {
            if let Some(f) = t.seq.iter().find(|f| &f.name == n) {
                if let Role::Derive(x) = &f.role {
                    let d = local("d", n);
                    let id = ident(n);
                    let dt = self.cx(ti, Scope::Write).tr(&x.expr, &x.path)?.0.full();
                    pre.push(quote!(let #d: i128 = match self.#id { Some(v) => v as i128, None => #dt };));
                }
            }
        }
        let (kt, kty) = self.cx(ti, Scope::Write).tr(&key.expr, &key.path)?;
        let (ret, conv) = match (kty, self.int_sort_field(ti)) {
            // A field of the model, in its own type (a derived one is an `Option`, and its key goes to the
            // element's writer as an `i128`: `write_keyed`).
            (_, Some((f, rt))) if matches!(f.role, Role::Data) => {
                let id = ident(&f.name);
                (rt, quote!(self.#id))
            }
            (T::Str, _) => (quote!(::std::vec::Vec<u8>), {
                let kt = recv(&kt);
                quote!(#kt.as_bytes().to_vec())
            }),
            (T::Bytes, _) => (quote!(::std::vec::Vec<u8>), quote!(#kt.to_vec())),
            _ => (quote!(i128), kt.full()),
        };
        Ok(quote! {
            #[allow(clippy::too_many_arguments, unused_variables, non_snake_case)]
            #[inline]
            pub(crate) fn sort_key(&self, ctx: &::binspec_runtime::layout::WriteCtx, endian: ::binspec_runtime::Endian, #(#params),*) -> ::binspec_runtime::Result<#ret> {
                #(#pre)*
                Ok(#conv)
            }
        })
    }
}

/// The arguments of a call, as the text of each (split at the commas between them, not inside brackets).
fn split_args(args: &TokenStream) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = TokenStream::new();
    for tt in args.clone() {
        match &tt {
            proc_macro2::TokenTree::Punct(p) if p.as_char() == ',' => {
                out.push(std::mem::take(&mut cur).to_string());
            }
            _ => cur.extend([tt]),
        }
    }
    if !cur.is_empty() {
        out.push(cur.to_string());
    }
    out
}

impl Gen<'_> {
    /// The items of `pool` that are instances of `ti` when the pool's region is a seq attribute of `ti` too: they
    /// are written at the region, in the order they are declared (the sections a header points to), instead of
    /// being queued, since the type's instances are written after its seq.
    pub(super) fn local_items(&self, ti: usize, pool: usize) -> Vec<&Field> {
        let t = &self.m.types[ti];
        if !t
            .seq
            .iter()
            .any(|f| matches!(&f.role, Role::Pool(u) if u.pool == pool))
        {
            return Vec::new();
        }
        t.instances
            .iter()
            .filter(|f| f.item_of == Some(pool))
            .collect()
    }

    /// Whether `ti` is a small leaf record: numbers only (no repetitions, user types or instances of its own).
    /// Reading one cannot nest further, so it does not count nesting depth (`Reader::enter`).
    pub(super) fn is_leaf(&self, ti: usize) -> bool {
        let t = &self.m.types[ti];
        t.instances.is_empty()
            && t.seq.len() <= 16
            && t.seq.iter().all(|f| {
                f.repeat == Repeat::None
                    && matches!(
                        f.ty,
                        FieldTy::Int { .. } | FieldTy::Float { .. } | FieldTy::Bits { .. }
                    )
            })
    }

    /// The size of one element of the repetition `f` where writing an element only writes numbers of the model as
    /// they are (plain integers and floats, or a record of them that records no position and derives nothing):
    /// a sizing pass then counts the elements' bytes instead of writing each element.
    pub(super) fn plain_element_size(&self, f: &Field) -> Option<u64> {
        let plain = |f: &Field| -> Option<u64> {
            let ok = matches!(f.role, Role::Data)
                && f.repeat == Repeat::None
                && f.cond.is_none()
                && f.enum_.is_none()
                && f.valid.is_none()
                && f.contents.is_none()
                && !is_blob(f)
                && f.value.is_none()
                && f.hook.is_none()
                && f.scan.is_none()
                && f.pad_right.is_none()
                && !f.is_instance;
            match f.ty {
                FieldTy::Int { bytes, .. } | FieldTy::Float { bytes, .. } if ok => {
                    Some(u64::from(bytes))
                }
                _ => None,
            }
        };
        if f.enum_.is_some() || f.valid.is_some() || f.contents.is_some() || is_blob(f) {
            return None;
        }
        match &f.ty {
            FieldTy::Int { .. } | FieldTy::Float { .. } => {
                let mut one = f.clone();
                one.repeat = Repeat::None;
                plain(&one)
            }
            FieldTy::User { ty, .. } => {
                let t = &self.m.types[*ty];
                let quiet = t.instances.is_empty()
                    && t.layout.is_empty()
                    && self.pos_refs.get(ty).is_none_or(|s| s.is_empty())
                    && self.keyed_field(*ty).is_none()
                    && !self.boxed.contains(&f.path);
                if !quiet || t.seq.is_empty() {
                    return None;
                }
                t.seq.iter().map(plain).sum()
            }
            _ => None,
        }
    }

    /// The attribute that asks the compiler to inline a type's read and write functions: on small leaf records
    /// that a repetition reads and writes element by element (no repetitions, user types or instances of their
    /// own). Called out of line for each of hundreds of thousands of elements, their results came back through
    /// memory; inlined, the generated resource size table reader took half the time (BENCHMARKS.md).
    pub(super) fn inline_attr(&self, ti: usize) -> TokenStream {
        let repeated = self.m.types.iter().any(|o| {
            o.seq.iter().chain(o.instances.iter()).any(|f| {
                f.repeat != Repeat::None && matches!(&f.ty, FieldTy::User { ty, .. } if *ty == ti)
            })
        });
        if repeated && self.is_leaf(ti) {
            quote!(#[inline(always)])
        } else {
            quote!()
        }
    }

    /// For an offset field of `ti` whose pool item can be empty (an array, or bytes of a given size): the item.
    /// An empty item has no bytes, so its offset can point anywhere (AINB's elements with no queries have 0, the
    /// start of nothing): where a file's is not where the writer would put the item, the model keeps it.
    pub(super) fn empty_item_of<'a>(&'a self, ti: usize, f: &Field) -> Option<&'a Field> {
        let Role::Offset { of } = &f.role else {
            return None;
        };
        let item = find(&self.m.types[ti], of)?;
        let pool = item.item_of?;
        let can_be_empty = item.repeat != Repeat::None || item.size.is_some();
        (can_be_empty && !self.m.pools[pool].dedup && !self.is_local_item(ti, item)).then_some(item)
    }

    /// Whether some offset field of `ti` is kept where `item` is empty ([`Gen::empty_item_of`]).
    pub(super) fn kept_offsets(&self, ti: usize, item: &Field) -> bool {
        self.m.types[ti].seq.iter().any(|f| {
            self.empty_item_of(ti, f)
                .is_some_and(|i| i.name == item.name)
        })
    }

    /// Whether `f`, an instance of `ti`, is one of [`Gen::local_items`].
    pub(super) fn is_local_item(&self, ti: usize, f: &Field) -> bool {
        f.item_of
            .is_some_and(|p| self.local_items(ti, p).iter().any(|x| x.name == f.name))
    }

    /// The terminator of a deduplicating pool's strings (its items', which must agree).
    pub(super) fn dedup_term(&self, pool: usize, path: &str) -> R<Vec<u8>> {
        let mut terms = self
            .m
            .types
            .iter()
            .flat_map(|t| t.instances.iter())
            .filter(|f| f.item_of == Some(pool))
            .map(|f| f.terminator.unwrap_or(0));
        let first = terms.next().unwrap_or(0);
        if terms.any(|t| t != first) {
            return err(
                path,
                format!(
                    "the strings of the deduplicating pool '{}' end in different terminators",
                    self.m.pools[pool].id
                ),
            );
        }
        Ok(vec![first])
    }
}
