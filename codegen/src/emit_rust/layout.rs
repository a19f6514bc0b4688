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
        self.m.tail_region(ti)
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

    /// Whether the sort key of the elements of the repetition `f` of type `owner` is the same in every pass: it
    /// reads no position and nothing derived from one ([`Gen::reads_layout`]), and every parameter of the element
    /// type it reads is passed a value that reads none either (an outer value the owner receives is not seen here,
    /// so it counts as one that may). Decided from the IR, not from the generated code.
    pub(super) fn sort_key_is_fixed(&self, owner: usize, f: &Field) -> bool {
        let FieldTy::User { ty, args } = &f.ty else {
            return false;
        };
        let Some(key) = self.sort_key_of(*ty) else {
            return true;
        };
        let owner_t = &self.m.types[owner];
        let params = &self.m.types[*ty].params;
        // An argument is fixed where it reads nothing of the owner's that can change; the owner's own parameters
        // come from further up.
        let arg_fixed = |name: &str| {
            let Some(i) = params.iter().position(|p| p.name == name) else {
                return false;
            };
            args.get(i).is_some_and(|a| {
                !self.reads_layout(
                    owner,
                    &a.expr,
                    &|p| owner_t.params.iter().all(|x| x.name != p),
                    0,
                )
            })
        };
        !self.reads_layout(*ty, &key.expr, &arg_fixed, 0)
    }

    /// Whether the value of `e`, in the scope of type `ti`, may change from pass to pass while writing: it reads a
    /// position (`_pos`, `_io`), a field the writer derives from positions (an offset or a length, or a `-derive`
    /// or value instance that reads one), a view, or an outer value (`_root`, `_parent`) that does; a parameter is
    /// as `fixed_param` says. Counts, constants and the model's data are the same in every pass.
    pub(super) fn reads_layout(
        &self,
        ti: usize,
        e: &Expr,
        fixed_param: &dyn Fn(&str) -> bool,
        depth: usize,
    ) -> bool {
        // (Deep enough for any schema's expressions; deeper counts as reading positions.)
        if depth > 32 {
            return true;
        }
        let t = &self.m.types[ti];
        let field_reads = |f: &Field, ty: usize| match &f.role {
            Role::Data | Role::Placed | Role::Const(_) | Role::Count { .. } | Role::Kept => false,
            Role::Derive(x) => self.reads_layout(ty, &x.expr, &|_| false, depth + 1),
            Role::Computed => f
                .value()
                .is_none_or(|v| self.reads_layout(ty, &v.expr, &|_| false, depth + 1)),
            _ => true,
        };
        if let Some(chain) = chain_of(e) {
            if chain.last().is_some_and(|l| l.starts_with('_')) {
                return true;
            }
            return match self.cx(ti, Scope::Write).resolve_chain_in(&chain) {
                Some((ot, f)) => field_reads(f, ot),
                None => true,
            };
        }
        match &e.kind {
            ExprKind::Name(n) => match n.as_str() {
                "_io" => true,
                "_index" | "_" => false,
                _ if t.params.iter().any(|p| p.name == *n) => !fixed_param(n),
                _ => find(t, n).is_none_or(|f| field_reads(f, ti)),
            },
            ExprKind::Attr { base, name, .. } => {
                if name == "_pos" || name == "_before" || name == "_io" {
                    return true;
                }
                if self.reads_layout(ti, base, fixed_param, depth + 1) {
                    return true;
                }
                // A field of a record the expression reaches; anything else is a property (`size`, `length`).
                match self.user_type_of(ti, base) {
                    Some(bt) => find(&self.m.types[bt], name).is_none_or(|f| field_reads(f, bt)),
                    None => false,
                }
            }
            _ => crate::ir::children(e)
                .into_iter()
                .any(|c| self.reads_layout(ti, c, fixed_param, depth + 1)),
        }
    }

    /// The type of the record that `e` (a field, or a field of a field, in `ti`) names, if it names one.
    fn user_type_of(&self, ti: usize, e: &Expr) -> Option<usize> {
        let (scope, name) = match &e.kind {
            ExprKind::Name(n) => (ti, n.as_str()),
            ExprKind::Attr { base, name, .. } => (self.user_type_of(ti, base)?, name.as_str()),
            _ => return None,
        };
        // (An array of records is no record: `.size` of it is a property.)
        let f = find(&self.m.types[scope], name)?;
        match &f.ty {
            FieldTy::User { ty, .. } if f.repeat == Repeat::None => Some(*ty),
            _ => None,
        }
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
        let mut pre = vec![self.args_bind(ti)];
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
            #[allow(non_snake_case)]
            #[inline]
            pub(crate) fn sort_key(&self, ctx: &::binspec_runtime::layout::WriteCtx<'_>, endian: ::binspec_runtime::Endian, #(#params),*) -> ::binspec_runtime::Result<#ret> {
                #(#pre)*
                Ok(#conv)
            }
        })
    }
}

impl Gen<'_> {
    /// The alignment the writer gives item `f` of `pool`: the model's `aid` (a layout choice, which applies where
    /// the item's own alignment does), else the default (`Module::item_default`).
    pub(super) fn item_align_expr(&self, f: &Field, pool: usize, aid: &Ident) -> TokenStream {
        let (a, at) = f.item_align.unwrap_or((self.m.pools[pool].item_align, 0));
        if at == 0 {
            quote!(self.#aid.unwrap_or(#a))
        } else {
            quote!(::binspec_runtime::layout::align_at(self.#aid.unwrap_or(#a), #at))
        }
    }
}

/// A member of a region whose order is a layout choice ([`Gen::ordered_members`]).
pub(super) enum Member<'a> {
    /// A section: an item the region's type declares.
    Local(&'a Field),
    /// The items of an instance of another type (by type number).
    Group(usize, &'a Field),
}

impl<'a> Member<'a> {
    /// The instance it is: the section, or the instance whose items the group holds.
    pub(super) fn field(&self) -> &'a Field {
        match self {
            Member::Local(f) | Member::Group(_, f) => f,
        }
    }
    /// Its name in the model's order: a section's, or `type.instance` for a group.
    pub(super) fn name(&self, m: &crate::ir::Module) -> String {
        match self {
            Member::Local(f) => f.name.clone(),
            Member::Group(t, f) => format!("{}.{}", m.types[*t].name, f.name),
        }
    }
    /// The region type's layout field that holds the bytes before the member that nothing describes.
    pub(super) fn gap_field(&self, region: &str, m: &crate::ir::Module) -> Ident {
        match self {
            Member::Local(f) => format_ident!("{}_gap", f.name),
            Member::Group(t, f) => format_ident!("{}_{}_{}_gap", region, m.types[*t].name, f.name),
        }
    }
    /// The region type's layout field that holds a group's start alignment (a section's is its own `_align`).
    pub(super) fn group_align(&self, region: &str, m: &crate::ir::Module) -> Option<Ident> {
        match self {
            Member::Local(_) => None,
            Member::Group(t, f) => Some(format_ident!(
                "{}_{}_{}_align",
                region,
                m.types[*t].name,
                f.name
            )),
        }
    }
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

    /// The members of a region of `ti` for `pool` whose order is a layout choice (a `<region>_order` field in the
    /// model, read off their positions), in their default order ([`crate::ir::region_members`]): its sections
    /// (items `ti` declares) and the items of each instance of another type in the pool (a group each). Other
    /// regions write their sections in declared order, then the queued items.
    pub(super) fn ordered_members(&self, ti: usize, pool: usize) -> Option<Vec<Member<'_>>> {
        let m = self.m;
        Some(
            crate::ir::region_members(m, ti, pool)?
                .into_iter()
                .map(|x| match x {
                    crate::ir::MemberRef::Section(i) => Member::Local(&m.types[ti].instances[i]),
                    crate::ir::MemberRef::Group(t, i) => Member::Group(t, &m.types[t].instances[i]),
                })
                .collect(),
        )
    }

    /// Where `f`, an instance of `ti` that is a pool item, is a member of an ordered region
    /// ([`Gen::ordered_members`]): the region's type, its number among the members, and whether it is a section.
    pub(super) fn member_index(&self, ti: usize, f: &Field) -> Option<(usize, usize, bool)> {
        let pool = f.item_of?;
        let rt = self.m.types.iter().position(|t| {
            t.seq
                .iter()
                .any(|r| matches!(&r.role, Role::Pool(u) if u.pool == pool))
        })?;
        let members = self.ordered_members(rt, pool)?;
        members.iter().enumerate().find_map(|(i, m)| match m {
            Member::Local(x) if rt == ti && x.name == f.name => Some((rt, i, true)),
            Member::Group(tj, x) if *tj == ti && x.name == f.name => Some((rt, i, false)),
            _ => None,
        })
    }

    /// For a count field `f` of `ti` whose repetition `of` has a `repeat-expr` that is not just its name
    /// (`count + 1`): the expression that gives it from the repetition's length (`of.size - 1`).
    pub(super) fn count_expr(&self, ti: usize, f: &Field, of: crate::ir::FieldId) -> Option<Expr> {
        count_expr_in(&self.m.types[ti], &f.name, of)
    }

    /// The fields of `ti` derived from the dictionary node being written (`-derive: _dic.PART`, under `-resdic`),
    /// with the part each takes.
    pub(super) fn dic_fields(&self, ti: usize) -> Vec<(&Field, &str)> {
        self.m.types[ti]
            .seq
            .iter()
            .filter_map(|f| match &f.role {
                Role::Derive(x) => crate::ir::dic_part(&x.expr).map(|p| (f, p)),
                _ => None,
            })
            .collect()
    }

    /// For a `-resdic` array `f` of `ti`: its element type and the element's key as bytes, an `Option` (`n` is an
    /// element; `None` where the key is a field of a record the node does not have). The `classify` pass has
    /// checked the key (`check_resdic`).
    pub(super) fn dic_keys(&self, f: &Field) -> R<(usize, TokenStream)> {
        let (Some(crate::ir::ResdicKey { key, .. }), FieldTy::User { ty, .. }) = (&f.resdic, &f.ty)
        else {
            return Err(internal(&f.path));
        };
        let Some(Some((record, k))) = crate::ir::resdic_key(self.m, *ty, key) else {
            return Err(internal(&f.path));
        };
        let id = ident(&k.name);
        let bytes = |x: TokenStream| match &k.ty {
            FieldTy::Str { .. } => Ok(quote!(str::as_bytes(&#x.#id))),
            FieldTy::Bytes => Ok(quote!(&#x.#id[..])),
            _ => Err(internal(&f.path)),
        };
        let key = match record {
            None => {
                let b = bytes(quote!(n))?;
                quote!(Some(#b))
            }
            Some(r) => {
                let rid = ident(&r.name);
                let b = bytes(quote!(x))?;
                match r.cond {
                    Some(_) => quote!(n.#rid.as_ref().map(|x| #b)),
                    None => quote!({ let x = &n.#rid; Some(#b) }),
                }
            }
        };
        Ok((*ty, key))
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
                && !f.is_blob()
                && f.value().is_none()
                && f.hook.is_none()
                && f.scan.is_none()
                && f.pad_right.is_none()
                && !f.is_instance();
            match f.ty {
                FieldTy::Int { bytes, .. } | FieldTy::Float { bytes, .. } if ok => {
                    Some(u64::from(bytes))
                }
                _ => None,
            }
        };
        if f.enum_.is_some() || f.valid.is_some() || f.contents.is_some() || f.is_blob() {
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
        let item = self.m.types[ti].field(*of);
        let absent = crate::ir::keeps_absent_offset(&self.m.types[ti], f, item);
        (self.keeps_empty_position(ti, item) || absent).then_some(item)
    }

    /// Whether `item`, an instance of `ti`, is a pool item that can be empty (an array, or bytes or a string of a
    /// given size: `Field::can_be_empty`) outside a deduplicating pool and not a section of a region of `ti`'s own:
    /// then where a file puts it while it is empty is kept, as it can point anywhere.
    pub(super) fn keeps_empty_position(&self, ti: usize, item: &Field) -> bool {
        let can_be_empty = item.can_be_empty();
        item.item_of.is_some_and(|p| !self.m.pools[p].dedup)
            && can_be_empty
            && !self.is_local_item(ti, item)
    }

    /// Where the writer put pool item `item` in the previous pass, relative to the stream its `pos` counts in (the
    /// writing type's own, unless it reads from `_root._io`): the right side of its `pos`, to solve for an offset.
    pub(super) fn item_prev_pos(item: &Field) -> Rx {
        let k = local("k", &item.name);
        match item.io() {
            Some(_) => Rx::cast(quote!(ctx.prev_pos(#k) as i128)),
            None => Rx::new(
                quote!(ctx.prev_pos(#k) as i128 - io.start as i128),
                Prec::Add,
            ),
        }
    }

    /// Whether the model's `item` (an instance of the writing type, maybe optional) is empty.
    pub(super) fn item_is_empty(item: &Field) -> TokenStream {
        let iid = ident(&item.name);
        if item.relocations.is_some() {
            let rel = local("rel", &item.name);
            return quote!(#rel.is_empty());
        }
        match (&item.cond, item.can_be_empty()) {
            (Some(_), true) => quote!(self.#iid.as_ref().is_none_or(|v| v.is_empty())),
            // (Absent: `keeps_absent_offset`.)
            (Some(_), false) => quote!(self.#iid.is_none()),
            (None, _) => quote!(self.#iid.is_empty()),
        }
    }

    /// Whether some offset field of `ti` is kept where `item` is empty ([`Gen::empty_item_of`]), or some offset of
    /// a record that `ti` derives for it ([`Gen::given_kept`]).
    pub(super) fn kept_offsets(&self, ti: usize, item: &Field) -> bool {
        let t = &self.m.types[ti];
        t.seq.iter().any(|f| {
            self.empty_item_of(ti, f)
                .is_some_and(|i| i.name == item.name && self.keeps_empty_position(ti, i))
        }) || t
            .given
            .iter()
            .any(|g| self.given_kept(ti, g) && t.field(g.of).name == item.name)
    }

    /// Whether a position that `ti` derives for a record inside it ([`crate::ir::Given`]) is kept where its item is
    /// empty and elsewhere than the writer would put it (as [`Gen::empty_item_of`] for the type's own offsets).
    pub(super) fn given_kept(&self, ti: usize, g: &crate::ir::Given) -> bool {
        g.kind == crate::ir::GivenKind::Offset
            && self.keeps_empty_position(ti, self.m.types[ti].field(g.of))
    }

    /// The reader's statements that settle the fields of records a type derives (read as the file holds them):
    /// `None` where the writer derives the file's value, the file's value for a position of an empty item kept
    /// elsewhere.
    pub(super) fn given_reads(&self, ti: usize) -> Vec<TokenStream> {
        let t = &self.m.types[ti];
        let mut out = Vec::new();
        let mut heads = BTreeSet::new();
        for g in &t.given {
            let head = local("v", &g.chain[0]);
            if heads.insert(g.chain[0].clone()) {
                out.push(quote!(let mut #head = #head;));
            }
            let rest: Vec<Ident> = g.chain[1..].iter().map(|c| ident(c)).collect();
            let place = quote!(#head #(.#rest)*);
            out.push(if self.given_kept(ti, g) {
                let keep = local("keep", &t.field(g.of).name);
                quote!(if !#keep { #place = None; })
            } else {
                quote!(#place = None;)
            });
        }
        out
    }

    /// Whether `f`, an instance of `ti`, is one of [`Gen::local_items`].
    pub(super) fn is_local_item(&self, ti: usize, f: &Field) -> bool {
        f.item_of
            .is_some_and(|p| self.local_items(ti, p).iter().any(|x| x.name == f.name))
    }

    /// The pool whose region `f` is, where it is a deduplicating pool of records.
    pub(super) fn dedup_records_region(&self, f: &Field) -> Option<usize> {
        match &f.role {
            Role::Pool(u) => self.m.dedup_records(u.pool).map(|_| u.pool),
            _ => None,
        }
    }

    /// The region of a deduplicating pool of records (`f`, of type `ti`): each listed record encoded apart, as an
    /// item is, then the region written ([`WriteCtx::flush_dedup_encoded`]).
    pub(super) fn dedup_records_flush(&self, ti: usize, f: &Field, pool: usize) -> R<TokenStream> {
        let id = ident(&f.name);
        let one = self.write_one(ti, f, quote!(x))?;
        let fname = f.name.as_str();
        Ok(quote! {
            let mut enc__ = ::std::vec::Vec::with_capacity(self.#id.len());
            for (i, x) in self.#id.iter().enumerate() {
                let mut item = ::binspec_runtime::Writer::new();
                {
                    let w = &mut item;
                    ::binspec_runtime::attempt(|| { #one Ok(()) }).at_index(i).at(#fname)?;
                }
                enc__.push(item.into_inner());
            }
            ctx.flush_dedup_encoded(#pool, w, 1, &enc__)?;
        })
    }

    /// An item of a deduplicating pool of records (instance `f` of type `ti`): encoded apart and queued, stored
    /// once with the equal ones ([`WriteCtx::push_encoded_dedup`]).
    pub(super) fn dedup_record_push(&self, ti: usize, f: &Field, pool: usize) -> R<TokenStream> {
        let id = ident(&f.name);
        let k = local("k", &f.name);
        let d = self.m.pools[pool].item_align;
        let fname = f.name.as_str();
        let one = self.write_one(ti, f, quote!(x))?;
        let push = quote! {
            let mut item = ctx.record_writer();
            {
                let w = &mut item;
                ::binspec_runtime::attempt(|| { #one Ok(()) }).at(#fname)?;
            }
            ctx.push_record_dedup(#pool, #k, item, #d).at(#fname)?;
        };
        Ok(match &f.cond {
            Some(_) => quote!(if let Some(x) = &self.#id { #push }),
            None => quote!({ let x = &self.#id; #push }),
        })
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

/// [`Gen::count_expr`], for the type `t` holding the count `count` and the repetition `of`.
pub(super) fn count_expr_in(
    t: &crate::ir::TypeDef,
    count: &str,
    of: crate::ir::FieldId,
) -> Option<Expr> {
    let rep = t.field(of);
    let Repeat::Expr(x) = &rep.repeat else {
        return None;
    };
    if crate::ir::bare_name(&x.expr).is_some() {
        return None;
    }
    crate::ir::count_from_len(&x.expr, count, &rep.name)
}
