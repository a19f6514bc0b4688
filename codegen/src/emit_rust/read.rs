//! A type's read function: byte order, each `seq` field in order with the instances it needs read first,
//! layout choices recorded, and the instances read from their positions (`valid` checks: `valid.rs`).

use super::*;
use crate::ir::EndianSpec;

impl<'m> Gen<'m> {
    pub(super) fn emit_read(&self, ti: usize) -> R<TokenStream> {
        let t = &self.m.types[ti];
        let (params, _) = self.fn_params(ti);
        let bind = self.args_bind(ti);
        let mut body = Vec::new();
        let mut done: BTreeSet<String> = BTreeSet::new();
        // An imported schema's top-level record is `_root` in its types: `_root._io` is its stream.
        if own_root_io(self.m, ti) {
            body.push(quote!(let root_io__ = r.clone(); let root_io = &root_io__;));
        }
        body.extend(self.chain_member_read(ti));
        // Byte order.
        match &t.endian {
            EndianSpec::Inherit => {}
            EndianSpec::Fixed(e) => {
                let e = endian_tokens(Some(*e));
                body.push(quote!(let endian = #e;));
            }
            EndianSpec::Switch { on, cases } => {
                let e = self.endian_switch(ti, on, cases, &mut done, &mut body)?;
                body.push(quote!(let endian = #e;));
            }
        }
        let mut endian_of = self.emit_endian_of(ti)?;
        endian_of.extend(self.emit_variant_of(ti)?);
        // A type on the way to an archive's entries also gets `view_files_in`, from its statements up to that field.
        let plan = if self.view.get() {
            None
        } else {
            self.view_plan()
        };
        let step = plan.and_then(|(steps, entry)| {
            steps
                .iter()
                .find(|(t, _)| *t == ti)
                .map(|(_, n)| (n.clone(), *entry))
        });
        let mut cut: Option<(usize, &Field, usize)> = None;
        // Fields read a second time (see `late`): after the field at the index, the statement.
        let mut again: Vec<(usize, TokenStream)> = Vec::new();
        for (fi, f) in t.seq.iter().enumerate() {
            // Instances this field's expressions need.
            let mut needed = BTreeSet::new();
            for x in super::pinned::before_exprs(f) {
                crate::ir::names_used(x, &mut needed);
            }
            for n in needed {
                self.ensure_instance(ti, &n, &mut done, &mut body)?;
            }
            let v = local("v", &f.name);
            let fname = f.name.as_str();
            if self.pos_refs.get(&ti).is_some_and(|s| s.contains(&f.name)) {
                let p = local("pos", &f.name);
                body.push(quote!(let #p = r.abs_pos() as i128;));
            }
            if let Role::Pool(u) = &f.role {
                let start = quote!(r.abs_pos());
                let pool = u.pool;
                // A region aligned by a layout field starts after the padding that alignment puts before it
                // (which its field's bytes hold).
                let region_start = match &u.align_field {
                    Some(a) => {
                        let la = local("layout", a);
                        body.push(quote!(let #la = pools.region_align(#start, #start, #pool);));
                        quote!(::binspec_runtime::align_up(#start, #la))
                    }
                    None => start.clone(),
                };
                let rs = local("rs", &f.name);
                body.push(quote!(let #rs = #region_start;));
                body.push(quote!(pools.enter_region(#pool, #rs);));
                if self.tail_region(ti).is_some() {
                    body.push(quote!(let region_at__ = r.abs_pos();));
                }
            }
            if let Some((n, entry)) = &step {
                if *n == f.name {
                    cut = Some((body.len(), f, *entry));
                }
            }
            let (read, late) = self.late_reads(f, || self.read_field(ti, f))?;
            // A relocated pointer: where it is and its value, which an `nn::util` relocation table is compared
            // with (a BINA table is judged by its own bytes).
            let ptr_at = local("ptr_at", &f.name);
            let noted = f
                .relocate
                .as_ref()
                .filter(|r| self.compares_pointers(&r.id));
            if noted.is_some() {
                body.push(quote!(let #ptr_at = r.abs_pos();));
            }
            let at = local("at", &f.name);
            let checked = matches!(f.role, Role::Const(ConstVal::Int(_))) || f.valid.is_some();
            if checked {
                body.push(quote!(let #at = r.abs_pos();));
            }
            // A single call is made directly; anything else in a closure, so that its errors get the field's name.
            let call = fallible(&read);
            let filler = f.has_filler().then(|| local("filler", &f.name));
            if filler.is_some() {
                body.push(quote!(let slot_start__ = r.pos();));
            }
            let used = local("used", &f.name);
            if f.keeps_unread() {
                // (Set by the record's reader; a case that is no record reads its whole slot, and a switch of no
                // record has nothing to set it.)
                let set = match &f.ty {
                    FieldTy::Switch { cases, .. } => cases.iter().any(|c| c.user().is_some()),
                    _ => true,
                };
                let m = set.then(|| quote!(mut));
                body.push(quote!(let #m #used: usize = usize::MAX;));
            }
            if let Some((u, again_read)) = late {
                // A first reading, then a second once the values its records wait for are read (none while an
                // outer first reading is in progress: the outer second reading reads this one again).
                let start = local("late_start", &f.name);
                body.push(quote!(let #start = r.pos() as u64;));
                body.push(quote! {
                    pools.defer_begin();
                    let first__ = #call;
                    pools.defer_end();
                    let #v = first__.at(#fname)?;
                });
                let call = fallible(&again_read);
                again.push((
                    u,
                    quote! {
                        let #v = if pools.deferring() { #v } else {
                            let back__ = r.pos() as u64;
                            r.seek(#start).at(#fname)?;
                            let v__ = #call.at(#fname)?;
                            r.seek(back__).at(#fname)?;
                            v__
                        };
                    },
                ));
            } else {
                body.push(quote!(let #v = #call.at(#fname)?;));
            }
            if let (Some(fl), true) = (&filler, f.keeps_unread()) {
                // The slot's bytes after what the record read: the writer writes them after it (where the size is
                // derived), or where they are not the zeros it pads with.
                let derived = f.size_derived;
                body.push(quote! {
                    let #fl = ::binspec_runtime::read::unread_tail(&r.buf()[slot_start__..r.pos()], #used, #derived).map(|b| r.share(b));
                });
            } else if let Some(fl) = &filler {
                // The slot's bytes after the content, where the writer would not reproduce them.
                let pad = match f.pad_right {
                    Some(p) => quote!(Some(#p)),
                    None => quote!(None),
                };
                let term = match f.term_bytes() {
                    Some(t) => quote!(Some(&[#(#t),*][..])),
                    None => quote!(None),
                };
                let inc = f.include;
                let (append, fill) = f.slot_writing();
                // (The writer pads a slot of a given size; one to the end of the stream ends with the content.)
                let fill = if f.size.is_some() {
                    quote!(Some(#fill))
                } else {
                    quote!(None)
                };
                let filler = quote! {
                    ::binspec_runtime::read::slot_filler(&r.buf()[slot_start__..r.pos()], #pad, #term, #inc, &[#(#append),*], #fill).map(|b| r.share(b))
                };
                // (A field that is not there has no slot.)
                body.push(if f.cond.is_some() {
                    quote!(let #fl = if #v.is_some() { #filler } else { None };)
                } else {
                    quote!(let #fl = #filler;)
                });
            }
            if let Some(rl) = noted {
                let (id, null) = (rl.id.as_str(), rl.null);
                let x = match f.cond {
                    Some(_) => quote!(x),
                    None => quote!(#v),
                };
                let value = match f.ty {
                    FieldTy::Int { signed: true, .. } => quote!(#x as u64),
                    _ => x,
                };
                body.push(match f.cond {
                    Some(_) => {
                        quote!(if let Some(x) = #v { pools.pointer(#id, #ptr_at, #value, #null); })
                    }
                    None => quote!(pools.pointer(#id, #ptr_at, #value, #null);),
                });
            }
            if f.resdic.is_some() {
                body.push(self.dic_keep(f, &v)?);
            }
            if let Role::Pool(u) = &f.role {
                // (A pool of records reads its region as the records it repeats.)
                if self.m.pools[u.pool].dedup && self.m.dedup_records(u.pool).is_none() {
                    let term = self.dedup_term(u.pool, &f.path)?;
                    body.push(quote! {
                        let #v = ::binspec_runtime::layout::pool_strings(::binspec_runtime::expr::bytes(&#v), &[#(#term),*], r.abs_pos() - #v.len() as u64).at(#fname)?;
                    });
                }
            }
            // A region to the end of the stream is as long as its items reach, not as the stream: its bytes
            // are its items, read where they are. The reader goes back to its start, so that what holds it ends
            // where its own items do (`item_end`), not at the end of the file.
            if let Role::Pool(u) = &f.role {
                if f.size_eos && !self.m.pools[u.pool].dedup && f.repeat == Repeat::None {
                    let rs = local("rs", &f.name);
                    body.push(quote!(r.seek(#rs - (r.abs_pos() - r.pos() as u64)).at(#fname)?;));
                }
            }
            // Checks.
            if let Role::Const(ConstVal::Int(c)) = &f.role {
                let c = int_lit(*c);
                let msg = format!(
                    "expected {:#x}, found {{:#x}}",
                    match &f.role {
                        Role::Const(ConstVal::Int(c)) => *c,
                        _ => 0,
                    }
                );
                body.push(quote!(if (#v as i128) != #c { return Err(::binspec_runtime::Error::invalid(#at, format!(#msg, #v)).at(#fname)); }));
            }
            if let Some(check) = self.valid_stmt(ti, f, &v, quote!(#at))? {
                body.push(check);
            }
            done.insert(f.name.clone());
            body.extend(
                again
                    .iter()
                    .filter(|(u, _)| *u == fi)
                    .map(|(_, a)| a.clone()),
            );
        }
        // Data instances (pool items) are read eagerly.
        for f in &t.instances {
            if matches!(f.role, Role::Data | Role::Placed) {
                self.ensure_instance(ti, &f.name, &mut done, &mut body)?;
            }
        }
        // The root's tail region: its bytes after the last item of its pool, once every item is read (the root's
        // own items of the region are read after it).
        if let Some(tail) = self.tail_region(ti) {
            if let Role::Pool(u) = &tail.role {
                let pool = u.pool;
                let (v, tv) = (
                    local("v", &tail.name),
                    local("v", &format!("{}_trailing", tail.name)),
                );
                body.push(quote! {
                    let #tv = pools.trailing(#pool, region_at__, ::binspec_runtime::expr::bytes(&#v)).map(|t| r.share(t));
                });
            }
        }
        if self.view.get() {
            return self.emit_view_file(ti, &body);
        }
        let view_fn = match cut {
            Some((at, f, entry)) => self.emit_view_files_in(ti, &body[..at], f, entry)?,
            None => quote!(),
        };
        // Sections whose order is a layout choice: their order and alignments, now that all are read.
        for f in &t.seq {
            let Role::Pool(u) = &f.role else { continue };
            let Some(secs) = self.ordered_members(ti, u.pool) else {
                continue;
            };
            let pool = u.pool;
            let ds = secs.iter().map(|mb| {
                let d = self.m.item_default(mb.field(), pool);
                quote!(#d)
            });
            let sv = local("sections", &f.name);
            body.push(quote!(let #sv = pools.sections(#pool, &[#(#ds),*], root_io.buf());));
        }
        // Regions whose items' order is a layout choice: that order, now that the items are read.
        for f in &t.seq {
            let Role::Pool(u) = &f.role else { continue };
            if self.m.pools[u.pool].keep_order {
                let pool = u.pool;
                let (v, rs) = (
                    local("v", &format!("{}_item_order", f.name)),
                    local("rs", &f.name),
                );
                body.push(quote!(let #v = pools.item_order(#pool, #rs);));
                let va = local("v", &format!("{}_item_align", f.name));
                body.push(quote!(let #va = pools.item_align(#pool);));
            }
        }
        // Fields of records this type derives for its items: kept only as the writer would not derive them.
        body.extend(self.given_reads(ti));
        // Build the model.
        let mut inits = Vec::new();
        let body_before_model = body.len();
        if matches!(t.endian, EndianSpec::Switch { .. }) {
            inits.push(quote!(endian,));
        }
        for f in t.seq.iter().chain(t.instances.iter()) {
            let id = ident(&f.name);
            let v = local("v", &f.name);
            let fname = f.name.as_str();
            match &f.role {
                Role::Pool(u) if self.m.pools[u.pool].dedup => inits.push(quote!(#id: #v,)),
                Role::Pool(u) if self.m.pools[u.pool].keep_order => {
                    let oid = format_ident!("{}_item_order", f.name);
                    let v = local("v", &format!("{}_item_order", f.name));
                    inits.push(quote!(#oid: #v,));
                    let aid = format_ident!("{}_item_align", f.name);
                    let va = local("v", &format!("{}_item_align", f.name));
                    inits.push(quote!(#aid: #va,));
                }
                Role::Offset { of } if self.empty_item_of(ti, f).is_some() => {
                    let item = t.field(*of);
                    // Kept where its item is empty and elsewhere than the writer would put it, or absent and not
                    // the writer's 0.
                    let mut kept = Vec::new();
                    if self.keeps_empty_position(ti, item) {
                        let keep = local("keep", &item.name);
                        kept.push(quote!(#keep));
                    }
                    if crate::ir::keeps_absent_offset(t, f, item) {
                        let vi = local("v", &item.name);
                        kept.push(quote!(#vi.is_none() && #v != 0));
                    }
                    inits.push(quote!(#id: if #(#kept)||* { Some(#v) } else { None },));
                }
                Role::Pool(u) if self.ordered_members(ti, u.pool).is_some() => {
                    let members = self.ordered_members(ti, u.pool).unwrap_or_default();
                    let names: Vec<String> = members.iter().map(|x| x.name(self.m)).collect();
                    let oid = format_ident!("{}_order", f.name);
                    let sv = local("sections", &f.name);
                    inits.push(
                        quote!(#oid: ::binspec_runtime::layout::order_names(#sv.order.clone(), &[#(#names),*]),),
                    );
                    for (i, mb) in members.iter().enumerate() {
                        if let Some(gid) = mb.group_align(&f.name, self.m) {
                            inits.push(quote!(#gid: #sv.align(#i),));
                        }
                        let gap = mb.gap_field(&f.name, self.m);
                        inits.push(
                            quote!(#gap: #sv.gap(#i, root_io.buf()).map(|g| root_io.share(g)),),
                        );
                    }
                }
                // A count of repetitions that may all be absent: kept where they are and it is not 0.
                Role::Count { .. } => {
                    if let Some(reps) = crate::ir::count_kept_where_absent(t, f) {
                        let absent = reps.into_iter().map(|r| {
                            let rv = local("v", &r.name);
                            quote!(#rv.is_none())
                        });
                        inits.push(
                            quote!(#id: if #(#absent &&)* #v != 0 { Some(#v) } else { None },),
                        );
                    }
                }
                // The holder of this record decides whether the file's value is kept.
                Role::Given => inits.push(quote!(#id: Some(#v),)),
                Role::Data | Role::Placed => {
                    if f.relocations.is_some() {
                        let kept = self.relocation_keep(f, &v)?;
                        inits.push(quote!(#id: #kept,));
                    } else {
                        inits.push(quote!(#id: #v,));
                    }
                    if f.has_filler() {
                        let fid = format_ident!("{}_filler", f.name);
                        let fl = local("filler", &f.name);
                        inits.push(quote!(#fid: #fl,));
                    }
                    if f.item_of.is_some_and(|p| !self.m.pools[p].dedup) {
                        let aid = format_ident!("{}_align", f.name);
                        let la = match (self.member_index(ti, f), f.item_of) {
                            (Some((_, i, true)), Some(pool)) => {
                                let region = t
                                    .seq
                                    .iter()
                                    .find(|r| matches!(&r.role, Role::Pool(u) if u.pool == pool));
                                let sv = local("sections", region.map_or("", |r| r.name.as_str()));
                                quote!(#sv.align(#i))
                            }
                            _ => {
                                let la = local("align", &f.name);
                                quote!(#la)
                            }
                        };
                        inits.push(quote!(#aid: #la,));
                        // An item of a group: the bytes before it that nothing describes.
                        if let (Some((_, i, false)), Some(pool)) =
                            (self.member_index(ti, f), f.item_of)
                        {
                            let gid = format_ident!("{}_gap", f.name);
                            inits.push(quote!(#gid: pools.take_gap(#pool, #i).and_then(|r| root_io.buf().get(r)).map(|g| root_io.share(g)),));
                        }
                    }
                }
                Role::Derive(x) if crate::ir::chain_part(&x.expr).is_some() => {
                    body.push(self.chain_value_read(f, x, &v));
                    inits.push(quote!(#id: #v,));
                }
                Role::Derive(x) => {
                    let (dt, dtt) = self.cx(ti, Scope::Read).tr(&x.expr, &x.path)?;
                    let mt = self.model_ty(&Field {
                        cond: None,
                        ..f.clone()
                    });
                    let eq = |x: TokenStream| {
                        Rx::binary(&Rx::cast(quote!(#x as i128)), quote!(==), Prec::Cmp, &dt).full()
                    };
                    body.push(if f.cond.is_some() {
                        if dtt == T::Bytes {
                            return err(&x.path, "an optional field cannot derive bytes yet");
                        }
                        let eq = eq(quote!(x));
                        quote! {
                            let #v: ::std::option::Option<#mt> = match #v {
                                Some(x) if #eq => None,
                                x => x,
                            };
                        }
                    } else if dtt == T::Bytes {
                        let dt = dt.recv();
                        quote! {
                            let #v: ::std::option::Option<#mt> = if #v[..] == #dt[..] { None } else { Some(#v) };
                        }
                    } else {
                        let eq = eq(quote!(#v));
                        quote! {
                            let #v: ::std::option::Option<#mt> = if #eq { None } else { Some(#v) };
                        }
                    });
                    let _ = fname;
                    inits.push(quote!(#id: #v,));
                }
                Role::Kept => {
                    let Some(x) = f.value() else {
                        return err(&f.path, "internal: a kept value instance without a value");
                    };
                    let vt = self.cx(ti, Scope::Read).tr(&x.expr, &x.path)?.0.full();
                    let mt = self.model_ty(f);
                    // Before the derived values become `Option`s (the expression reads the fields as read).
                    body.insert(body_before_model, quote! {
                        let #v: #mt = {
                            let x__: i128 = #vt;
                            match <#mt as ::std::convert::TryFrom<i128>>::try_from(x__) {
                                Ok(x) => x,
                                Err(_) => return Err(::binspec_runtime::Error::invalid(r.abs_pos(), format!("value {x__} does not fit its type")).at(#fname)),
                            }
                        };
                    });
                    inits.push(quote!(#id: #v,));
                }
                _ => {}
            }
        }
        let derive_stmts = body.len() - body_before_model;
        if let Some(f) = self.tail_region(ti) {
            let id = format_ident!("{}_trailing", f.name);
            let tv = local("v", &format!("{}_trailing", f.name));
            inits.push(quote!(#id: #tv,));
        }
        for l in &t.layout {
            let id = ident(&l.name);
            let la = local("layout", &l.name);
            if t.seq.iter().any(|f| matches!(&f.role, Role::Pool(u) if u.align_field.as_deref() == Some(l.name.as_str()))) {
                inits.push(quote!(#id: #la,));
            } else {
                let dv = Literal::u64_unsuffixed(l.default as u64);
                inits.push(quote!(#id: #dv,));
            }
        }
        let name = ty_ident(&t.rust);
        let inline = self.inline_attr(ti);
        // A leaf record cannot nest further: it does not count nesting depth.
        let (enter, leave) = if self.is_leaf(ti) {
            (quote!(), quote!())
        } else {
            (quote!(r.enter()?;), quote!(r.leave();))
        };
        // The signature of a read function (`read`, `read_keyed`) returning `ret`.
        let sig = |f: &str, ret: TokenStream| {
            let f = format_ident!("{f}");
            quote! {
                pub(crate) fn #f<'a>(
                    r: &mut ::binspec_runtime::Reader<'a>,
                    endian: ::binspec_runtime::Endian,
                    pools: &mut ::binspec_runtime::layout::ReadPools,
                    root_io: &::binspec_runtime::Reader<'a>,
                    #(#params),*
                ) -> ::binspec_runtime::Result<#ret>
            }
        };

        // A type that a parent sorts is also read with its sort key (`read_keyed`), so that the parent can check
        // the order without computing keys again: a key that is an integer field is the number read, in its own
        // type (a derived one's value in the file is the derived one, or it is kept), anything else is computed
        // from the value.
        if let Some(key) = self.sort_key_of(ti) {
            // An integer field: its value as read, in its own type.
            let raw = self.int_sort_field(ti);
            let fwd = self.args_fwd(ti);
            let (key_stmt, key_ret) = match &raw {
                Some((f, rt)) => {
                    let v = local("v", &f.name);
                    // Taken before a derived value is turned into an `Option`.
                    (quote!(let key__: #rt = #v;), quote!(key__))
                }
                None => (
                    quote!(),
                    quote!(out__.sort_key(::binspec_runtime::layout::WriteCtx::reading(), endian, #fwd)?),
                ),
            };
            let key_ty = match (&raw, self.cx(ti, Scope::Write).tr(&key.expr, &key.path)?.1) {
                (Some((_, rt)), _) => rt.clone(),
                (None, T::Str | T::Bytes) => quote!(::std::vec::Vec<u8>),
                _ => quote!(i128),
            };
            // The key statement goes before the model is built (where derived values become `Option`s).
            let split = body.len() - derive_stmts;
            let (before, after) = body.split_at(split);
            let read_sig = sig("read", quote!(Self));
            let keyed_sig = sig("read_keyed", quote!((Self, #key_ty)));
            // (Only where something reads it outside a sorted repetition.)
            let read = self.called(ti, Fun::Read).then(|| {
                quote! {
                    #[allow(non_snake_case)]
                    #read_sig {
                        Ok(Self::read_keyed(r, endian, pools, root_io, #fwd)?.0)
                    }
                }
            });
            return Ok(quote! {
                #endian_of
                #view_fn
                #read
                #[allow(non_snake_case)]
                #inline
                #keyed_sig {
                    use ::binspec_runtime::ResultExt as _;
                    #bind
                    #enter
                    #(#before)*
                    #key_stmt
                    #(#after)*
                    #leave
                    let out__ = #name { #(#inits)* };
                    let k__ = #key_ret;
                    Ok((out__, k__))
                }
            });
        }

        let read_sig = sig("read", quote!(Self));
        if !self.called(ti, Fun::Read) {
            return Ok(quote!(#endian_of #view_fn));
        }
        // (A type that reads nothing names no field in an error.)
        let result_ext = (!body.is_empty()).then(|| {
            quote!(
                use ::binspec_runtime::ResultExt as _;
            )
        });
        Ok(quote! {
            #endian_of
            #view_fn
            #[allow(non_snake_case)]
            #inline
            #read_sig {
                #result_ext
                #bind
                #enter
                #(#body)*
                #leave
                Ok(#name { #(#inits)* })
            }
        })
    }

    /// How a `seq` field is read: its repetition, under its condition.
    fn read_field(&self, ti: usize, f: &Field) -> R<Read> {
        let read = self.read_repeated(ti, f)?;
        Ok(if let Some(c) = &f.cond {
            let ct = self.cx(ti, Scope::Read).tr(&c.expr, &c.path)?.0.full();
            Read::Expr(quote!(if #ct { Some(#read) } else { None }))
        } else {
            read
        })
    }

    /// After reading the nodes `v` of a dictionary (`-resdic`): the values they hold that the keys in their order
    /// give are derived (`None`), and the others are kept (a file from another tool, or whose nodes lose keys).
    /// Keys that make no dictionary (two equal) derive nothing.
    fn dic_keep(&self, f: &Field, v: &Ident) -> R<TokenStream> {
        let (ty, key) = self.dic_keys(f)?;
        let parts = self.dic_fields(ty);
        let clears = parts.iter().map(|(df, part)| {
            let id = ident(&df.name);
            let p = format_ident!("{}", part);
            quote!(if n.#id.is_some_and(|x| x as i128 == b.#p as i128) { n.#id = None; })
        });
        let nodes = match &f.cond {
            Some(_) => quote!(#v.iter_mut().flatten()),
            None => quote!(#v.iter_mut()),
        };
        let keys = match &f.cond {
            Some(_) => quote!(#v.iter().flatten()),
            None => quote!(#v.iter()),
        };
        Ok(quote! {
            let mut #v = #v;
            let built = {
                let keys: Option<::std::vec::Vec<&[u8]>> = #keys.skip(1).map(|n| #key).collect();
                keys.map(|k| ::binspec_runtime::layout::resdic::build(&k))
            };
            if let Some(Ok(built)) = built {
                for (n, b) in #nodes.zip(built.iter()) {
                    #(#clears)*
                }
            }
        })
    }

    /// The names of its holder that the type of `f` (each case of a switch) takes as `_parent.x` arguments.
    fn parent_names(&self, f: &Field) -> Vec<String> {
        let tys: Vec<usize> = match &f.ty {
            FieldTy::User { ty, .. } => vec![*ty],
            FieldTy::Switch { cases, .. } => cases.iter().filter_map(|c| c.ty).collect(),
            _ => Vec::new(),
        };
        tys.into_iter()
            .flat_map(|ty| self.param_list(ty))
            .filter(|p| p.key.len() >= 2 && p.key[0] == "_parent")
            .map(|p| p.key[1].clone())
            .collect()
    }

    /// Emits the code that computes an instance (and what it needs) the first time it is needed.
    pub(super) fn ensure_instance(
        &self,
        ti: usize,
        name: &str,
        done: &mut BTreeSet<String>,
        body: &mut Vec<TokenStream>,
    ) -> R<()> {
        let t = &self.m.types[ti];
        let Some(f) = t.instances.iter().find(|f| f.name == name) else {
            return Ok(());
        };
        if done.contains(name) || f.value().is_some() {
            // Value instances are inlined where used; make sure what they use exists (a `-hook` reads the stream
            // itself: what its expression names for Kaitai's tools is not read).
            if let Some(v) = f.value().filter(|_| f.hook.is_none()) {
                if done.insert(name.to_string()) {
                    let mut needed = BTreeSet::new();
                    crate::ir::names_used(&v.expr, &mut needed);
                    for n in needed {
                        self.ensure_instance(ti, &n, done, body)?;
                    }
                    // One that captures the stream's position is bound here, where it is first needed.
                    if self.m.captures_position(ti, name) {
                        body.push(self.bind_pinned(ti, name, Scope::Read)?);
                    }
                }
            }
            return Ok(());
        }
        done.insert(name.to_string());
        let mut needed = BTreeSet::new();
        for x in [f.pos_expr(), f.size.as_ref(), f.cond.as_ref()]
            .into_iter()
            .flatten()
        {
            crate::ir::names_used(&x.expr, &mut needed);
        }
        // What the instance's type names of its parent (`_parent.x`, passed down as an argument): an instance of
        // this type declared after it is read first, as Kaitai's lazy instances would be.
        needed.extend(self.parent_names(f));
        for n in needed {
            self.ensure_instance(ti, &n, done, body)?;
        }
        let v = local("v", name);
        let p = local("pos", name);
        let fname = f.name.as_str();
        let Some(pos) = f.pos_expr() else {
            return err(&f.path, "an instance needs 'pos' or 'value'");
        };
        let pt = self.cx(ti, Scope::Read).tr(&pos.expr, &pos.path)?.0.full();
        // (The bytes of a parameter are read with pools of their own: positions in them are not the file's.)
        let (io, own_pools) = match (f.io(), self.param_stream(ti, f)) {
            (_, Some(bytes)) => (
                quote!(r.over(#bytes, 0)),
                quote!(let mut pools = ::binspec_runtime::layout::ReadPools::new(); let pools = &mut pools;),
            ),
            (Some(x), _) if x.text == "_root._io" => (quote!(root_io.clone()), quote!()),
            (Some(x), _) => {
                return err(
                    &x.path,
                    "only 'io: _root._io', or the stream of a parameter that holds only bytes, is supported yet",
                )
            }
            (None, _) => (quote!(r.clone()), quote!()),
        };
        // An eager instance can lead to its own type again: it counts against the budget of followed references,
        // and nesting goes on counting from here.
        let io = if f.eager {
            quote!({ pools.follow(r.abs_pos(), root_io.size() as u64).at(#fname)?; #io.nested(r.depth()) })
        } else {
            io
        };
        let (one, again) = self.late_reads(f, || self.read_repeated(ti, f))?;
        let again = again.map(|(_, again)| again);
        let one_r = fallible(&one);
        // A pool item also gives its alignment (a layout choice).
        let la = local("align", name);
        let (align, names, none) = match f.item_of {
            Some(pool) if self.view.get() || self.m.pools[pool].dedup => (
                quote!(::std::option::Option::<u64>::None),
                quote!((#v, #p, #la)),
                quote!((None, 0i128, None)),
            ),
            // A member of a region whose order is a layout choice: a section is judged once the region's other
            // members are read; a group's items one after another, and its first with the sections.
            Some(pool) if self.member_index(ti, f).is_some() => {
                let (_, idx, section) = self.member_index(ti, f).unwrap_or((0, 0, true));
                let d = self.m.item_default(f, pool);
                let end = self.item_end(f);
                let len = quote!((#end as i128 - #p) as u64);
                // (Named from outside its type: noted first.)
                let named = self.named_note((ti, f), &p, &len);
                let judged = if section {
                    quote!({
                        pools.section(#pool, #idx, (#p) as u64, #len);
                        ::std::option::Option::<u64>::None
                    })
                } else if self.kept_offsets(ti, f) {
                    // An empty item elsewhere than the writer would put it keeps its offsets in the model.
                    let keep = local("keep", name);
                    body.push(quote!(let mut #keep = false;));
                    quote!({
                        let len = #len;
                        if len == 0 && pools.member_empty_elsewhere(#pool, #idx, (#p) as u64, #d) {
                            #keep = true;
                            None
                        } else {
                            pools.member_item(#pool, #idx, (#p) as u64, len, #d, root_io.buf())
                        }
                    })
                } else {
                    quote!(pools.member_item(#pool, #idx, (#p) as u64, #len, #d, root_io.buf()))
                };
                let judged = if named.is_empty() {
                    judged
                } else {
                    quote!({ #named #judged })
                };
                (judged, quote!((#v, #p, #la)), quote!((None, 0i128, None)))
            }
            Some(pool) if self.kept_offsets(ti, f) => {
                // An empty item elsewhere than the writer would put it keeps its offsets in the model.
                let d = self.m.item_default(f, pool);
                let keep = local("keep", name);
                body.push(quote!(let mut #keep = false;));
                let end = self.item_end(f);
                let record = self.note_item((ti, f), pool, d, &p, quote!(len));
                (
                    quote!({
                        let len = (#end as i128 - #p) as u64;
                        if len == 0 && pools.empty_elsewhere(#pool, (#p) as u64, #d) {
                            #keep = true;
                            None
                        } else {
                            #record
                        }
                    }),
                    quote!((#v, #p, #la)),
                    quote!((None, 0i128, None)),
                )
            }
            Some(pool) => {
                let end = self.item_end(f);
                (
                    self.note_item(
                        (ti, f),
                        pool,
                        self.m.item_default(f, pool),
                        &p,
                        quote!((#end as i128 - #p) as u64),
                    ),
                    quote!((#v, #p, #la)),
                    quote!((None, 0i128, None)),
                )
            }
            None => (quote!(), quote!((#v, #p)), quote!((None, 0i128))),
        };
        let (tuple, some) = match f.item_of {
            Some(_) => (
                quote!((value, #p, #align)),
                quote!(let (v, p, a) = read; (Some(v), p, a)),
            ),
            None => (quote!((value, #p)), quote!(let (v, p) = read; (Some(v), p))),
        };
        let chain_end = self.chain_end_read(f, &p);
        // (`name._len`: how far reading it went from where it starts; 0 where it is absent.)
        let len = local("len", name);
        let measure = if self.len_refs.get(&ti).is_some_and(|s| s.contains(name)) {
            // (A cell: the instance may be read twice, or not at all.)
            body.push(quote!(let #len = ::std::cell::Cell::new(0i128);));
            quote!(#len.set(r.abs_pos() as i128 - #p);)
        } else {
            quote!()
        };
        let placed = |one_r: &TokenStream| {
            quote!({
                let mut r = #io;
                #own_pools
                let at = #pt;
                if at < 0 { return Err(::binspec_runtime::Error::invalid(r.abs_pos(), format!("negative position {at}"))).at(#fname); }
                r.seek(at as u64).at(#fname)?;
                let #p = r.abs_pos() as i128;
                #chain_end
                let r = &mut r;
                let value = #one_r.at(#fname)?;
                #measure
                #tuple
            })
        };
        let ct = match &f.cond {
            Some(c) => Some(self.cx(ti, Scope::Read).tr(&c.expr, &c.path)?.0.full()),
            None => None,
        };
        let cond = |read: TokenStream| match &ct {
            Some(ct) => quote!(if #ct { let read = #read; #some } else { #none }),
            None => read,
        };
        let read = cond(placed(&one_r));
        let default = match &ct {
            Some(_) => none.clone(),
            None => quote!((::std::default::Default::default(), 0i128)),
        };
        let at = quote!(#p as u64);
        let check = self.valid_stmt(ti, f, &v, at)?;
        // A first reading (see `late`) leaves an instance that uses values from outside the record at its
        // default, unchecked.
        if let Some(again) = again {
            // Read twice (see `late`): its records use the instance itself.
            let first = match self.deferrable(ti, name) {
                true => default,
                false => read.clone(),
            };
            let full = cond(placed(&fallible(&again)));
            body.push(quote! {
                let #names = if pools.deferring() { #first } else {
                    pools.defer_begin();
                    let first__ = (|| -> ::binspec_runtime::Result<_> { Ok(#read) })();
                    pools.defer_end();
                    let #names = first__?;
                    #full
                };
            });
            body.extend(check.map(|c| quote!(if !pools.deferring() { #c })));
        } else if f.item_of.is_none() && self.deferrable(ti, name) {
            let check = check.map(|c| quote!(if !pools.deferring() { #c }));
            body.push(quote!(let #names = if pools.deferring() { #default } else { #read };));
            body.extend(check);
        } else {
            body.push(quote!(let #names = #read;));
            body.extend(check);
        }
        body.extend(self.relocation_region_read(ti, f)?);
        // `name._before`: where the content before it ends, from the items read so far.
        if self.asks_before(ti, name) {
            let before = local("before", name);
            body.push(quote!(let #before: i128 = pools.end_before(#p as u64) as i128;));
        }
        Ok(())
    }

    /// The byte order that `endian: switch-on` gives: the reads of the instances it needs go into `body`, and the
    /// `match` that picks the order is returned.
    pub(super) fn endian_switch(
        &self,
        ti: usize,
        on: &crate::ir::Ex,
        cases: &[(crate::ir::Ex, crate::ir::Endian)],
        done: &mut BTreeSet<String>,
        body: &mut Vec<TokenStream>,
    ) -> R<TokenStream> {
        let mut needed = BTreeSet::new();
        crate::ir::names_used(&on.expr, &mut needed);
        for n in needed {
            self.ensure_instance(ti, &n, done, body)?;
        }
        let o = self.cx(ti, Scope::Read).tr(&on.expr, &on.path)?.0.full();
        let mut arms = Vec::new();
        // The boolean literals among the keys, as written.
        let mut bools = BTreeSet::new();
        let msg = format!("no byte order is given for {} = {{:?}}", on.text);
        let mut default = quote!(other => return Err(::binspec_runtime::Error::invalid(r.abs_pos(), format!(#msg, other))));
        for (k, e) in cases {
            let e = endian_tokens(Some(*e));
            if k.text == "_" {
                default = quote!(_ => #e);
                continue;
            }
            if let crate::expr::ExprKind::Bool(b) = k.expr.kind {
                bools.insert(b);
            }
            let (kt, _) = self.cx(ti, Scope::Read).tr(&k.expr, &k.path)?;
            let pat = case_pattern(&kt, false);
            arms.push(quote!(#pat => #e,));
        }
        // A switch on a boolean with both cases has no other (`unreachable_patterns`).
        if bools.len() == 2 {
            default = quote!();
        }
        Ok(quote!(match #o { #(#arms)* #default }))
    }
}
