//! A type's write function: derived values computed before writing (counts, lengths, offsets, `-derive`s, solved
//! for where needed), each field written in order, and placed instances and pool items laid out.

use super::*;
use crate::ir::EndianSpec;
use write_field::args_name_index;
use write_solve::{count_chain, offsets_in_order};

impl<'m> Gen<'m> {
    pub(super) fn emit_write(&self, ti: usize) -> R<TokenStream> {
        let t = &self.m.types[ti];
        let (_, params) = self.fn_params(ti);
        let bind = self.args_bind(ti);
        let keyed = self.keyed_field(ti);
        let mut body = Vec::new();
        // A type's own byte order wins over the one it is written with.
        if let EndianSpec::Fixed(e) = &t.endian {
            let e = endian_tokens(Some(*e));
            body.push(quote!(let endian = #e;));
        } else if let EndianSpec::Switch { .. } = &t.endian {
            body.push(quote!(let endian = self.endian;));
        }
        // A dictionary node takes its derived values from the dictionary being written.
        if !self.dic_fields(ti).is_empty() {
            body.push(quote!(let dic__ = ctx.dic_next();));
        }
        body.extend(self.chain_member_write(ti));
        // Keys for recorded positions, in a fixed order.
        if let Some(names) = self.pos_refs.get(&ti) {
            for n in names {
                let k = local("k", n);
                let s = self.slot(ti, n);
                body.push(quote!(let #k = ctx.key(#s);));
            }
        }
        // Values derived from the type's params alone (an importer's region for `nn_util`'s relocation
        // sections): known before anything else, so the relocation entries may count from them.
        for f in t
            .seq
            .iter()
            .filter(|f| crate::ir::derived_from_params(t, f))
        {
            self.derived_value(ti, f, keyed, &mut body)?;
        }
        // Relocation entries, derived from the pointers before anything counts them.
        body.extend(self.relocation_binds(ti)?);
        // Derived values: offsets (one whose item's position names another after it: AINB's string offsets
        // count from the string pool's offset), lengths, then `-derive` expressions.
        let mut order: Vec<&Field> = offsets_in_order(t);
        order.extend(
            t.seq
                .iter()
                .filter(|f| matches!(f.role, Role::Length { .. })),
        );
        order.extend(t.seq.iter().filter(|f| {
            matches!(f.role, Role::Derive(_)) && !crate::ir::derived_from_params(t, f)
        }));
        for f in order {
            self.derived_value(ti, f, keyed, &mut body)?;
        }
        // Values derived for records inside this type.
        body.extend(self.given_values(ti)?);
        let scanned = t.seq.iter().any(|f| f.scan.is_some());
        if scanned {
            body.push(quote!(
                let mut scans__: ::std::vec::Vec<::binspec_runtime::ScanCheck<'_>> = ::std::vec::Vec::new();
            ));
        }
        // Value instances that capture the stream's position, bound before the first field that needs them (see
        // `pinned`).
        let mut pinned_bound = BTreeSet::new();
        for f in &t.seq {
            let xs = super::pinned::before_exprs(f);
            self.bind_pinned_needed(ti, &xs, &mut pinned_bound, &mut body)?;
            let id = ident(&f.name);
            let recorded = self.pos_refs.get(&ti).is_some_and(|s| s.contains(&f.name));
            if recorded && !matches!(f.role, Role::Pool(_)) {
                let k = local("k", &f.name);
                body.push(quote!(ctx.record(#k, w.pos() as u64);));
            }
            body.extend(self.data_pointer(f));
            let fname = f.name.as_str();
            let code = match &f.role {
                // A BINA offset table, derived above.
                Role::Data if f.relocations.is_some() => {
                    let rel = local("rel", &f.name);
                    quote!(w.bytes(&#rel);)
                }
                Role::Const(ConstVal::Bytes(b)) => {
                    let b = b.clone();
                    quote!(w.bytes(&[#(#b),*]);)
                }
                Role::Const(ConstVal::Int(c)) => self.write_prim(f, int_lit(*c))?,
                Role::Count { of, .. } if self.count_expr(ti, f, *of).is_some() => {
                    let Some(x) = self.count_expr(ti, f, *of) else {
                        return Err(internal(&f.path));
                    };
                    let (v, _) = self.cx(ti, Scope::Write).tr(&x, &f.path)?;
                    self.write_prim(f, v.full())?
                }
                Role::Count { of, alt } => {
                    let target = t.field(*of);
                    let opt = target.cond.is_some();
                    let rel_id = local("rel", &target.name);
                    let of = ident(&target.name);
                    let code = if target.relocations.is_some() {
                        self.write_prim(f, quote!(#rel_id.len() as i128))?
                    } else if opt {
                        // (Where every one may be absent, the model's override where it has one.)
                        let kept = crate::ir::count_kept_where_absent(t, f).map(|_| ident(&f.name));
                        let chain = count_chain(t, quote!(self), kept, &of, alt);
                        self.write_prim(f, quote!(#chain as i128))?
                    } else if let Some(pool) = self.dedup_records_region(target) {
                        // A region of records, with those the model refers to that it does not list.
                        self.write_prim(f, quote!(ctx.dedup_count(#pool, self.#of.len()) as i128))?
                    } else {
                        self.write_prim(f, quote!(self.#of.len() as i128))?
                    };
                    // An optional count has its repetition's condition.
                    self.where_cond(ti, f, code)?
                }
                Role::Derive(_) if f.ty == FieldTy::Bytes => {
                    // Derived bytes go into their slot like data: padded or checked against the size.
                    let d = local("d", &f.name);
                    let size = match &f.size {
                        Some(sz) => {
                            let s = self.cx(ti, Scope::Write).tr(&sz.expr, &sz.path)?.0.full();
                            quote!(Some(#s))
                        }
                        None => quote!(None),
                    };
                    quote!(::binspec_runtime::write_slot(w, &#d, #size, &[], 0, ctx.first_pass())?;)
                }
                // The type holding this record derives it and patches it in; the override, or 0, until then.
                Role::Given => {
                    let id = ident(&f.name);
                    self.write_derived(f, quote!(self.#id.map_or(0, |v| v as i128)))?
                }
                Role::Length { .. } | Role::Offset { .. } | Role::Derive(_) => {
                    let d = local("d", &f.name);
                    let code = self.write_derived(f, quote!(#d))?;
                    let code = self.offset_pointer(t, f, code)?;
                    // An optional derived field is written where its condition holds for the values written
                    // (an optional offset has its item's condition; `classify` gives no length one).
                    self.where_cond(ti, f, code)?
                }
                Role::Pool(u) => {
                    let pool = u.pool;
                    let (align, check) = match &u.align_field {
                        Some(a) => {
                            let name = a.as_str();
                            let a = ident(a);
                            (
                                quote!(self.#a),
                                quote!(::binspec_runtime::layout::check_align(self.#a).at(#name)?;),
                            )
                        }
                        None => (quote!(1), quote!()),
                    };
                    // The region starts after its alignment padding.
                    let rec = if recorded {
                        let k = local("k", &f.name);
                        quote!(ctx.record(#k, w.pos() as u64);)
                    } else {
                        quote!()
                    };
                    let tail = match self.tail_region(ti) {
                        Some(t) if t.name == f.name => {
                            let id = format_ident!("{}_trailing", f.name);
                            quote!(if let Some(t) = &self.#id { w.bytes(t); })
                        }
                        _ => quote!(),
                    };
                    // Items of this type (sections), in their order, then the queued ones.
                    let mut locals = Vec::new();
                    for li in self.local_items(ti, pool) {
                        // In a pool that keeps its items' order, one more item: queued with the others (before
                        // they are written, here), where the block chain ends at where it was in the previous pass.
                        if self.m.pools[pool].keep_order {
                            if self.asks_before(ti, &li.name) {
                                return err(
                                    &li.path,
                                    format!(
                                        "'{}._before' is not known for an item of a pool that keeps its items' order",
                                        li.name
                                    ),
                                );
                            }
                            let k = local("k", &li.name);
                            let chain_end =
                                self.chain_end_section(li, quote!((ctx.prev_pos(#k) as i128)));
                            let push = self.item_push(ti, li, pool)?;
                            locals.push((li.name.as_str(), quote!(), quote!(#chain_end #(#push)*)));
                            continue;
                        }
                        let lid = ident(&li.name);
                        let k = local("k", &li.name);
                        let aid = format_ident!("{}_align", li.name);
                        let (aname, lname) = (aid.to_string(), li.name.as_str());
                        let align = self.item_align_expr(li, pool, &aid);
                        // (A section where the block chain ends: where the writer puts it.)
                        let chain_end = self.chain_end_section(li, quote!(start));
                        // (`li._before`: where the content before it ends, before its padding and before the bytes
                        // nothing describes that the model keeps in front of it, its gap: the reader's end of the
                        // last item read.)
                        let before = match (self.asks_before(ti, &li.name), &li.cond) {
                            (false, _) => quote!(),
                            (true, c) => {
                                let kb = local("k", &super::passes::before_slot(&li.name));
                                let rec = quote!(ctx.record(#kb, w.pos() as u64););
                                // (Where the section is present.)
                                match c {
                                    Some(_) => quote!(if self.#lid.is_some() { #rec }),
                                    None => rec,
                                }
                            }
                        };
                        let one = self.write_one(ti, li, quote!(x))?;
                        let check = self.count_check(ti, li)?;
                        let each = match li.repeat {
                            Repeat::None => quote!({ let x = val; #one }),
                            _ if args_name_index(li) => {
                                quote!(#check for (i, x) in val.iter().enumerate() { #one })
                            }
                            _ => quote!(#check for x in val.iter() { #one }),
                        };
                        let place = quote!({
                            if let Some(a) = self.#aid {
                                ::binspec_runtime::layout::check_align(a).at(#aname)?;
                            }
                            w.align(#align);
                            let start = w.pos();
                            ctx.record(#k, start as u64);
                            #chain_end
                            #each
                            ctx.record_len(#k, (w.pos() - start) as u64);
                        });
                        let presence = self.presence_check(ti, li)?;
                        let write = match &li.cond {
                            Some(_) => quote!(if let Some(val) = &self.#lid #place),
                            None => quote!({ let val = &self.#lid; #place }),
                        };
                        locals.push((
                            lname,
                            before,
                            quote!(::binspec_runtime::attempt(|| { #presence #write Ok(()) }).at(#lname)?;),
                        ));
                    }
                    let flush = if self.m.dedup_records(pool).is_some() {
                        self.dedup_records_flush(ti, f, pool)?
                    } else if self.m.pools[pool].dedup {
                        let term = self.dedup_term(pool, &f.path)?;
                        quote!(ctx.flush_dedup(#pool, w, 1, &self.#id, &[#(#term),*])?;)
                    } else if self.m.pools[pool].keep_order {
                        let oid = format_ident!("{}_item_order", f.name);
                        let aid = format_ident!("{}_item_align", f.name);
                        let oname = oid.to_string();
                        // (A new file's order: the pool's `order`, by the items' position slots.)
                        let ranks: Vec<TokenStream> = crate::ir::keep_order_ranks(self.m, pool)
                            .into_iter()
                            .map(|(t, i, r)| {
                                let slot = self.slot(t, &self.m.types[t].instances[i].name);
                                quote!((#slot, #r))
                            })
                            .collect();
                        quote!(ctx.flush_ordered(#pool, w, 1, self.#oid.as_deref(), self.#aid.as_deref(), &[#(#ranks),*]).at(#oname)?;)
                    } else {
                        quote!(ctx.flush(#pool, w, 1);)
                    };
                    let rec_end = if self
                        .pos_refs
                        .get(&ti)
                        .is_some_and(|s| s.contains(&region_end(&f.name)))
                    {
                        let k = local("k", &region_end(&f.name));
                        quote!(ctx.record(#k, w.pos() as u64);)
                    } else {
                        quote!()
                    };
                    // Where their order is a layout choice, in the model's order, with the items of other types'
                    // instances (groups) where it puts them.
                    let locals = match self.ordered_members(ti, pool) {
                        Some(members) => {
                            let names: Vec<String> =
                                members.iter().map(|x| x.name(self.m)).collect();
                            let oid = format_ident!("{}_order", f.name);
                            let oname = oid.to_string();
                            let mut arms = Vec::new();
                            for (i, mb) in members.iter().enumerate() {
                                let gap = mb.gap_field(&f.name, self.m);
                                let (before, arm) = match mb {
                                    super::layout::Member::Local(x) => {
                                        let l = locals.iter().find(|(n, ..)| *n == x.name);
                                        let (b, l) = (l.map(|(_, b, _)| b), l.map(|(.., l)| l));
                                        (quote!(#b), quote!(#l))
                                    }
                                    super::layout::Member::Group(tj, x) => {
                                        let slot = self.slot(*tj, &x.name);
                                        let gid = mb
                                            .group_align(&f.name, self.m)
                                            .ok_or_else(|| internal(&f.path))?;
                                        let gname = gid.to_string();
                                        let align = self.item_align_expr(x, pool, &gid);
                                        let arm = quote! {
                                            if let Some(a) = self.#gid {
                                                ::binspec_runtime::layout::check_align(a).at(#gname)?;
                                            }
                                            ctx.flush_slot(#pool, #slot, w, #align);
                                        };
                                        (quote!(), arm)
                                    }
                                };
                                // The bytes before it that nothing describes, then the member.
                                arms.push(quote!(#i => {
                                    #before
                                    if let Some(g) = &self.#gap { w.bytes(g); }
                                    #arm
                                }));
                            }
                            quote! {
                                let order = ::binspec_runtime::layout::write_order(self.#oid.as_deref(), &[#(#names),*]).at(#oname)?;
                                for i in order {
                                    match i {
                                        #(#arms)*
                                        _ => {}
                                    }
                                }
                            }
                        }
                        None => {
                            let locals = locals.iter().map(|(_, b, l)| quote!(#b #l));
                            quote!(#(#locals)*)
                        }
                    };
                    quote!(#check w.align(#align); #rec #locals #flush #rec_end #tail)
                }
                Role::Data => {
                    let one_ref = quote!(x);
                    // (The calls noted before the element's writer: where the repetition does not use it, what it
                    // noted is taken back.)
                    let before_one = self.calls.borrow().clone();
                    let (one, own_decl) =
                        self.with_own_elements(ti, f, || self.write_one(ti, f, one_ref));
                    let one = one?;
                    // `val` is the model value (inside an `if`, the value that is present).
                    let inner = match &f.repeat {
                        // A record whose slot size is derived: how long it is, for the next pass.
                        Repeat::None if f.size_derived => {
                            let k = local("k", &f.name);
                            quote!({ let x = val; let s__ = w.pos(); #one ctx.record_len(#k, (w.pos() - s__) as u64); })
                        }
                        Repeat::None => quote!({ let x = val; #one }),
                        _ => {
                            let order = match &f.sort_by {
                                Some(_) => {
                                    let FieldTy::User { ty, args } = &f.ty else {
                                        return err(&f.path, "-sort-by needs a repeated user type");
                                    };
                                    let a = self.args_for(ti, *ty, args, Scope::Write, f)?;
                                    let slot = self.order_slot(ti, &f.name);
                                    // The order is kept from pass to pass where the keys cannot depend on
                                    // positions: the key reads no position, and the arguments it uses are the
                                    // model's own values.
                                    let fixed = self.sort_key_is_fixed(ti, f);
                                    // Where the keys go with the order, to the elements' writers, they are kept
                                    // and taken with it.
                                    let keyed = self.sort_key(f).is_some();
                                    // Checked in one pass where the elements are in order (a model read
                                    // from a file is), sorted only otherwise (`Order`).
                                    let (bind, take, found, compute, keep) = if keyed {
                                        (
                                            quote!((order, keys__)),
                                            quote!(ctx.take_keyed(ko__)),
                                            quote!(Some((o, k)) if o.len() == val.len() && k.len() == o.len() => (o, k)),
                                            quote!(::binspec_runtime::layout::Order::keyed(val, |x| x.sort_key(ctx, endian, #a))?),
                                            quote!(ctx.keep_keyed(ko__, order, keys__);),
                                        )
                                    } else {
                                        (
                                            quote!(order),
                                            quote!(ctx.take_order(ko__)),
                                            quote!(Some(o) if o.len() == val.len() => o),
                                            quote!(::binspec_runtime::layout::Order::of(val, |x| x.sort_key(ctx, endian, #a))?),
                                            quote!(ctx.keep_order(ko__, order);),
                                        )
                                    };
                                    (
                                        quote! {
                                            let ko__ = ctx.order_key(#slot);
                                            let #bind = match #take {
                                                #found,
                                                _ => #compute,
                                            };
                                        },
                                        if fixed { keep } else { quote!() },
                                        // The elements' arguments, for `write_keyed`.
                                        keyed.then_some(a),
                                        true,
                                    )
                                }
                                None => (quote!(), quote!(), None, false),
                            };
                            let (order, keep_order, keyed_args, sorted) = order;
                            let count_check = self.count_check(ti, f)?;
                            // Elements in order (`Order::InPlace`, or no `-sort-by`) are written where they are; the
                            // loop is the same for both orders but for where `i` (and the key) comes from.
                            let body = |key: TokenStream| match &keyed_args {
                                Some(a) => {
                                    quote!(::binspec_runtime::attempt(|| { x.write_keyed(w, ctx, io, endian, #a, Some(#key))?; Ok(()) }).at_index(i)?;)
                                }
                                None => {
                                    quote!(::binspec_runtime::attempt(|| { #one Ok(()) }).at_index(i)?;)
                                }
                            };
                            let in_place = body(quote!(keys__[i]));
                            let each = if sorted {
                                let through = body(quote!(keys__[j]));
                                let idx = if keyed_args.is_some() {
                                    quote!((j, &i) in o.iter().enumerate())
                                } else {
                                    quote!(&i in o)
                                };
                                quote! {
                                    match &order {
                                        ::binspec_runtime::layout::Order::InPlace(_) => {
                                            for (i, x) in val.iter().enumerate() { #in_place }
                                        }
                                        ::binspec_runtime::layout::Order::Sorted(o) => {
                                            for #idx { let x = &val[i]; #through }
                                        }
                                    }
                                }
                            } else {
                                quote!(for (i, x) in val.iter().enumerate() { #in_place })
                            };
                            // Records of numbers: each element made as one array, all written at once (see
                            // `records`; a sizing writer only counts them).
                            let records = self.record_encoder(f).map(|enc| {
                                if sorted {
                                    quote! {
                                        match &order {
                                            ::binspec_runtime::layout::Order::InPlace(_) => w.records(val.iter(), endian, #enc),
                                            ::binspec_runtime::layout::Order::Sorted(o) => w.records(o.iter().map(|&i| &val[i]), endian, #enc),
                                        }
                                    }
                                } else {
                                    quote!(w.records(val.iter(), endian, #enc);)
                                }
                            });
                            // Written by `write_keyed` or as whole records, the element's own writer is not called.
                            let records = records.filter(|_| keyed_args.is_none());
                            if keyed_args.is_some() || records.is_some() {
                                *self.calls.borrow_mut() = before_one;
                                if let (Some(_), FieldTy::User { ty, .. }) = (&keyed_args, &f.ty) {
                                    self.note_call(*ty, Fun::WriteKeyed);
                                }
                            }
                            if let (Some(_), FieldTy::User { ty, .. }) = (&records, &f.ty) {
                                self.note_call(*ty, Fun::ToRecord);
                            }
                            // A sizing pass only needs the elements' bytes: where each is a few numbers, count them.
                            let each = match (records, self.plain_element_size(f)) {
                                (Some(records), _) => records,
                                (_, None) => each,
                                (_, Some(n)) => {
                                    let len = if n == 1 {
                                        quote!(val.len())
                                    } else {
                                        let n = Literal::usize_suffixed(n as usize);
                                        quote!(val.len() * #n)
                                    };
                                    quote!(if w.is_sizing() { w.fill(#len, 0); } else { #each })
                                }
                            };
                            quote!({
                                #count_check
                                #order
                                #own_decl
                                #each
                                #keep_order
                            })
                        }
                    };
                    let inner = match &f.scan {
                        Some(sc) => {
                            let (tags, step, or_eos) = scan_tokens(sc);
                            quote!({
                                let start__ = w.pos();
                                #inner
                                scans__.push((start__, w.pos(), #tags, #step, #or_eos, #fname));
                            })
                        }
                        None => inner,
                    };
                    match &f.cond {
                        Some(_) => quote!(if let Some(val) = &self.#id { #inner }),
                        None => quote!({ let val = &self.#id; #inner }),
                    }
                }
                _ => quote!(),
            };
            if matches!(f.role, Role::Data) {
                body.push(self.presence_check(ti, f)?);
                body.push(self.valid_write_check(ti, f)?);
            }
            // The nodes of a dictionary: their derived values, from the keys in their order.
            let code = if f.resdic.is_some() {
                let (_, key) = self.dic_keys(f)?;
                let id = ident(&f.name);
                let nodes = match &f.cond {
                    Some(_) => quote!(self.#id.iter().flatten()),
                    None => quote!(self.#id.iter()),
                };
                // Keys that make no dictionary are written with the values every node keeps (a file read so);
                // a node without one has nothing to be derived from.
                let FieldTy::User { ty, .. } = &f.ty else {
                    return Err(internal(&f.path));
                };
                let kept: Vec<TokenStream> = self
                    .dic_fields(*ty)
                    .into_iter()
                    .map(|(df, _)| {
                        let id = ident(&df.name);
                        quote!(n.#id.is_some())
                    })
                    .collect();
                let kept = if kept.is_empty() {
                    vec![quote!(true)]
                } else {
                    kept
                };
                quote! {
                    let keys: Option<::std::vec::Vec<&[u8]>> = #nodes.skip(1).map(|n| #key).collect();
                    match keys.map(|k| ::binspec_runtime::layout::resdic::build(&k)) {
                        Some(Ok(built)) => ctx.dic_begin(built),
                        _ if #nodes.all(|n| #(#kept)&&*) => ctx.dic_begin(::std::vec::Vec::new()),
                        Some(Err(e)) => return Err(e),
                        None => return Err(::binspec_runtime::Error::write(
                            "a dictionary node has no key, so its reference bit and indices cannot be derived: give it one, or give each node its values",
                        )),
                    }
                    #code
                }
            } else {
                code
            };
            // Values this type derives for the record: put in place once it is written.
            let code = self.given_patches(ti, f, code)?;
            body.push(quote!(::binspec_runtime::attempt(|| { #code Ok(()) }).at(#fname)?;));
        }
        // `-scan` fields: now that what follows them is written, check that each reads back with its length.
        if scanned {
            // (A sizing pass keeps no bytes to look at; the pass that writes them checks.)
            body.push(quote!(let sizing__ = w.is_sizing();
            for (start, end, tags, step, or_eos, name) in
                scans__.into_iter().filter(|_| !sizing__)
            {
                let pos = w.pos();
                let buf = w.contents();
                let base = pos - buf.len();
                ::binspec_runtime::check_scan(buf, start - base, end - base, tags, step, or_eos).at(name)?;
            }));
        }
        // Instances written back where their `pos` says (relative to their stream): written by a writer whose
        // positions are those of the output, and laid over the output when the pass ends (so that an instance
        // inside an instance lands at its own position). They come after this type's pool items are queued, since
        // one may hold the region those items are written in (AINB's string pool).
        // (Those that instances written after the `seq` need: where the `seq` ends.)
        for f in t
            .instances
            .iter()
            .filter(|f| matches!(f.role, Role::Placed | Role::Data))
        {
            let mut xs = super::pinned::before_exprs(f);
            xs.extend(f.pos_expr().map(|p| &p.expr));
            self.bind_pinned_needed(ti, &xs, &mut pinned_bound, &mut body)?;
        }
        let mut placed = Vec::new();
        for f in t.instances.iter().filter(|f| f.role == Role::Placed) {
            let id = ident(&f.name);
            let fname = f.name.as_str();
            let Some(pos) = f.pos_expr() else { continue };
            let p = self.cx(ti, Scope::Write).tr(&pos.expr, &pos.path)?.0.full();
            // Positions in `_root._io` are the output's; in the type's own stream, they start where it does.
            // (A stream that may have a size, a record's slot, holds what is placed in it.)
            let (rebase, place) = match f.io() {
                // (In an imported schema's types, `_root` is its top-level record, written into its own stream.)
                Some(x) if x.text == "_root._io" && own_root_io(self.m, self.m.root_of(ti)) => (
                    quote!(let io = ctx.root_io(); let at = io.start + at;),
                    quote!(ctx.place_in(io, at, w.into_inner())?;),
                ),
                Some(x) if x.text == "_root._io" => (
                    quote!(let io = ::binspec_runtime::layout::Io::ROOT;),
                    quote!(ctx.place(at, w.into_inner())?;),
                ),
                Some(x) => return err(&x.path, "only 'io: _root._io' is supported yet"),
                None => (
                    quote!(let at = io.start + at;),
                    quote!(ctx.place_in(io, at, w.into_inner())?;),
                ),
            };
            let one = self.write_one(ti, f, quote!(x))?;
            // An instance whose length is asked (`x._len`): how long it is, for the next pass.
            let one = if self.len_refs.get(&ti).is_some_and(|s| s.contains(&f.name)) {
                let k = local("k", &f.name);
                quote!(let s__ = w.pos(); #one ctx.record_len(#k, (w.pos() - s__) as u64);)
            } else {
                one
            };
            let each = match f.repeat {
                Repeat::None => quote!({ let x = val; #one }),
                // (An element's arguments may name its index, `_index`.)
                _ if args_name_index(f) => quote!(for (i, x) in val.iter().enumerate() { #one }),
                _ => quote!(for x in val.iter() { #one }),
            };
            // (`place` refuses bytes that overlap others and differ from them, once the layout is final.)
            // (The first pass knows no positions: there, bytes whose position is out of range go at 0, so that the
            // output's size, which a position may count from, counts them.)
            let chain_end = self.chain_end_write(f);
            let place = quote!({
                let at: i128 = #p;
                let at = match usize::try_from(at) {
                    Ok(at) if at <= 1 << 32 => at,
                    _ if ctx.first_pass() => 0,
                    _ => return Err(::binspec_runtime::Error::write(format!("position {at} is out of range"))),
                };
                #rebase
                #chain_end
                let mut w = ::binspec_runtime::Writer::at_origin(at);
                {
                    let w = &mut w;
                    #each
                }
                #place
            });
            placed.push(self.presence_check(ti, f)?);
            let write = match &f.cond {
                Some(_) => quote!(if let Some(val) = &self.#id #place),
                None => quote!({ let val = &self.#id; #place }),
            };
            placed.push(quote!(::binspec_runtime::attempt(|| { #write Ok(()) }).at(#fname)?;));
        }
        // Pool items (those of a region in this type are written there).
        for f in &t.instances {
            if self.is_local_item(ti, f) {
                continue;
            }
            if f.item_of.is_some() && self.asks_before(ti, &f.name) {
                return err(
                    &f.path,
                    format!(
                        "'{}._before' is known for an item of its own type's region (a section), which the writer \
                         places where it writes its type",
                        f.name
                    ),
                );
            }
            if f.chain_end && f.item_of.is_some() {
                return err(
                    &f.path,
                    "'-chain-end' on a pool item is supported for an item of its own type's region (a section), \
                     which the writer places where it writes its type",
                );
            }
            if let Some(pool) = f.item_of.filter(|&p| self.m.dedup_records(p).is_some()) {
                body.push(self.presence_check(ti, f)?);
                body.push(self.dedup_record_push(ti, f, pool)?);
                continue;
            }
            if let Some(pool) = f.item_of.filter(|&p| self.m.pools[p].dedup) {
                let id = ident(&f.name);
                let k = local("k", &f.name);
                let d = self.m.pools[pool].item_align;
                let term = self.dedup_term(pool, &f.path)?;
                let fname = f.name.as_str();
                let push =
                    quote!(ctx.push_utf8_dedup(#pool, #k, x, &[#(#term),*], #d).at(#fname)?;);
                body.push(self.presence_check(ti, f)?);
                body.push(match &f.cond {
                    Some(_) => quote!(if let Some(x) = &self.#id { #push }),
                    None => quote!({ let x = &self.#id; #push }),
                });
                continue;
            }
            if let Some(pool) = f.item_of {
                body.extend(self.item_push(ti, f, pool)?);
            }
        }
        body.extend(placed);
        let endian_param = quote!(endian: ::binspec_runtime::Endian,);
        // Where a sorted repetition hands its elements their keys, the body is `write_keyed`, taking the key, and
        // `write` passes none.
        let (body_fn, key_param, wrapper) = if keyed.is_some() {
            let fwd = self.args_fwd(ti);
            // (Only where something writes it outside a sorted repetition.)
            let wrapper = self.called(ti, Fun::Write).then(|| {
                quote! {
                        #[allow(non_snake_case)]
                        pub(crate) fn write<'m>(
                            &'m self,
                            w: &mut ::binspec_runtime::Writer,
                            ctx: &mut ::binspec_runtime::layout::WriteCtx<'m>,
                            io: ::binspec_runtime::layout::Io,
                            #endian_param
                            #(#params),*
                        ) -> ::binspec_runtime::Result<()> {
                            self.write_keyed(w, ctx, io, endian, #fwd None)
                        }
                }
            });
            (
                quote!(write_keyed),
                quote!(key__: ::std::option::Option<i128>,),
                quote! {
                    #wrapper
                    /// `write`, given the sort key that the repetition holding this element computed for it.
                },
            )
        } else {
            // Nothing to emit where nothing writes the type (every repetition of it is written as whole records,
            // or the root does not reach it).
            if !self.called(ti, Fun::Write) {
                return Ok(quote!());
            }
            (quote!(write), quote!(), quote!())
        };
        let inline = self.inline_attr(ti);
        // An imported schema's top-level record is `_root` in its types: `_root._io` is the stream it is written
        // into.
        // (A type that writes nothing names no field in an error.)
        let result_ext = (!body.is_empty()).then(|| {
            quote!(
                use ::binspec_runtime::ResultExt as _;
            )
        });
        let body = if own_root_io(self.m, ti) {
            quote!(ctx.in_root(io, |ctx| { #(#body)* Ok(()) }))
        } else {
            quote!(#(#body)* Ok(()))
        };
        Ok(quote! {
            #wrapper
            #[allow(non_snake_case)]
            #inline
            pub(crate) fn #body_fn<'m>(
                &'m self,
                w: &mut ::binspec_runtime::Writer,
                ctx: &mut ::binspec_runtime::layout::WriteCtx<'m>,
                io: ::binspec_runtime::layout::Io,
                #endian_param
                #(#params,)*
                #key_param
            ) -> ::binspec_runtime::Result<()> {
                #result_ext
                #bind
                #body
            }
        })
    }

    /// Queues pool item `f` (an instance of `ti` in `pool`, neither deduplicated nor a record of a deduplicating
    /// pool): the checks of its alignment and presence, then the push of its bytes, or of what its writer writes
    /// out of line where the item was in the previous pass.
    fn item_push(&self, ti: usize, f: &Field, pool: usize) -> R<Vec<TokenStream>> {
        let mut out = Vec::new();
        let id = ident(&f.name);
        let k = local("k", &f.name);
        let aid = format_ident!("{}_align", f.name);
        let align = self.item_align_expr(f, pool, &aid);
        let fname = f.name.as_str();
        let push = match &f.ty {
            FieldTy::Str { encoding, .. } => {
                let term = match f.terminator {
                    Some(t) if !f.include => quote!(&[#t]),
                    _ => quote!(&[]),
                };
                if is_utf8(encoding) {
                    quote!(ctx.push_utf8(#pool, #k, x, #term, #align).at(#fname)?;)
                } else {
                    quote!(ctx.push_str(#pool, #k, x, #encoding, #term, #align).at(#fname)?;)
                }
            }
            FieldTy::Bytes => {
                quote!(ctx.push_shared(#pool, #k, x, #align);)
            }
            // A record or an array (of records, numbers, or a switch's cases: BFRES's render info
            // values): written out of line, where the item was in the previous pass.
            FieldTy::User { .. }
            | FieldTy::Int { .. }
            | FieldTy::Float { .. }
            | FieldTy::Switch { .. } => {
                let one = if f.relocations.is_some() {
                    self.relocation_write_one(f)?
                } else {
                    self.write_one(ti, f, quote!(x))?
                };
                let check = self.count_check(ti, f)?;
                let check = if check.is_empty() {
                    check
                } else {
                    quote!({ let val = x; #check })
                };
                let each = match f.repeat {
                    Repeat::None => quote!(#one),
                    _ => {
                        quote!(#check for (i, x) in x.iter().enumerate() { ::binspec_runtime::attempt(|| { #one Ok(()) }).at_index(i)?; })
                    }
                };
                let written = quote!({
                    let (origin, mut item) = ctx.item_writer(#k, w);
                    {
                        let w = &mut item;
                        ::binspec_runtime::attempt(|| { #each Ok(()) }).at(#fname)?;
                    }
                    ctx.push_written(#pool, #k, item, origin, #align);
                });
                // An empty array (most of AINB's property and input/output ranges) is an item with no
                // bytes: queued as such, without a writer of its own.
                match f.repeat {
                    Repeat::None => written,
                    _ if !check.is_empty() => written,
                    _ => {
                        quote!(if x.is_empty() { ctx.push_empty(#pool, #k, #align); } else #written)
                    }
                }
            }
            _ => {
                return err(
                    &f.path,
                    "pool items must be bytes, strings, records or arrays yet",
                )
            }
        };
        let aname = aid.to_string();
        out.push(quote! {
            if let Some(a) = self.#aid {
                ::binspec_runtime::layout::check_align(a).at(#aname)?;
            }
        });
        out.push(self.presence_check(ti, f)?);
        // An item of a group: the bytes before it that nothing describes go with it.
        let push = if let Some((_, _, false)) = self.member_index(ti, f) {
            let gid = format_ident!("{}_gap", f.name);
            quote!(if let Some(g) = &self.#gid { ctx.gap_before(#k, g); } #push)
        } else {
            push
        };
        let rel = local("rel", &f.name);
        out.push(match &f.cond {
            Some(_) => quote!(if let Some(x) = &self.#id { #push }),
            None if f.relocations.is_some() => quote!({ let x = &#rel[..]; #push }),
            None => quote!({ let x = &self.#id; #push }),
        });
        Ok(out)
    }
}
