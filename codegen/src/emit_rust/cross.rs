//! A derived field of a section that a type points to, named from that type (`property_table.s32_ofs`, which
//! AINB's element parameters reach as `_root.property_table.s32_ofs` to count their ranges of the s32 property
//! array from). The model does not hold it, and Kaitai reads the section lazily, when it is first named. So a
//! reader takes it from the file, where the section is (its `pos`), whether the section was read yet or not; a
//! writer takes it from where it put the item the field points to in the previous pass, as the section's own
//! writer does (the section's type must then be written once per file).

use super::*;

impl<'m> Cx<'m> {
    /// `inst.name`, where `inst` is an instance of this type (a record at a `pos`) and `name` a field of its type
    /// that the model does not hold. `None` where that is not the case (the usual translation applies).
    pub(super) fn section_value(
        &mut self,
        inst: &str,
        name: &str,
        path: &str,
    ) -> R<Option<(Rx, T)>> {
        let t = self.t();
        let Some(a) = t.instances.iter().find(|f| f.name == inst) else {
            return Ok(None);
        };
        let (Some(pos), FieldTy::User { ty, .. }, Repeat::None, None) =
            (a.pos_expr(), &a.ty, &a.repeat, a.value())
        else {
            return Ok(None);
        };
        let ty = *ty;
        let u = &self.m.types[ty];
        let Some(i) = u.seq.iter().position(|f| f.name == name) else {
            return Ok(None);
        };
        let f = &u.seq[i];
        if !matches!(
            f.role,
            Role::Offset { .. } | Role::Count { .. } | Role::Length { .. } | Role::Derive(_)
        ) {
            return Ok(None);
        }
        let what = format!("'{inst}.{name}'");
        match self.scope {
            Scope::Read => {
                let FieldTy::Int {
                    bytes,
                    signed: false,
                    endian,
                } = &f.ty
                else {
                    return err(
                        path,
                        format!("{what}: only an unsigned integer of a section can be named from outside it"),
                    );
                };
                if a.size.is_some() || f.cond.is_some() {
                    return err(
                        path,
                        format!("{what}: a field of a sized or optional record cannot be read from outside it yet"),
                    );
                }
                let off = self.m.static_offset(ty, i).map_err(|before| EmitError {
                    path: path.into(),
                    message: format!(
                        "{what}: '{}' before it has no size known without reading, so it cannot be read from \
                         outside '{}'",
                        before.name, u.name
                    ),
                })?;
                let e = endian_tokens(endian.or(u.fixed_endian()));
                let n = *bytes as usize;
                let at = self.tr(&pos.expr, &pos.path)?.0;
                let io = match a.io() {
                    Some(x) if x.text == "_root._io" => quote!(root_io),
                    Some(x) => return err(&x.path, "only 'io: _root._io' is supported yet"),
                    None => quote!(r),
                };
                let at = if off == 0 {
                    at.full()
                } else {
                    Rx::binary(&at, quote!(+), Prec::Add, &Rx::int(off as i128)).full()
                };
                let peek = quote!(#io.peek_uint(#at, #n, #e)? as i128);
                self.exits = true;
                let v = match &a.cond {
                    Some(c) => {
                        let c = self.tr(&c.expr, &c.path)?.0.full();
                        quote!(if #c { #peek } else { 0 })
                    }
                    None => peek,
                };
                Ok(Some((Rx::new(v, Prec::Block), T::Int)))
            }
            Scope::Write => {
                let Role::Offset { of } = &f.role else {
                    return err(
                        path,
                        format!("{what} is derived in '{}': only an offset of it can be named from outside while writing", u.name),
                    );
                };
                let item = u.field(*of);
                let bare =
                    item.pos_expr().and_then(|p| crate::ir::bare_name(&p.expr)) == Some(name);
                let in_root_stream = self.ty == 0 || a.io().is_some_and(|x| x.text == "_root._io");
                if !bare || item.item_of.is_none() || a.size.is_some() || !in_root_stream {
                    return err(
                        path,
                        format!(
                            "{what} can be named from outside '{}' while writing only where it is the whole `pos` of a \
                             pool item of it, in the file's own stream",
                            u.name
                        ),
                    );
                }
                if !self.singular(ty) {
                    return err(
                        path,
                        format!(
                            "{what}: '{}' is held in more than one place, or repeated, so the writer cannot tell which \
                             one's offset this is",
                            u.name
                        ),
                    );
                }
                let slot = self
                    .slots
                    .and_then(|s| s.get(&(ty, item.name.clone())))
                    .ok_or_else(|| internal(path))?;
                Ok(Some((
                    Rx::cast(
                        quote!(ctx.prev_pos(::binspec_runtime::layout::Key { slot: #slot, n: 0 }) as i128),
                    ),
                    T::Int,
                )))
            }
            Scope::Model => Ok(None),
        }
    }

    /// Whether type `ty` is written at most once per file: held by one field of one type, not repeated, and that
    /// type too, up to the root.
    fn singular(&self, ty: usize) -> bool {
        let mut cur = ty;
        for _ in 0..self.m.types.len() {
            if cur == 0 {
                return true;
            }
            let mut holders = Vec::new();
            for (ti, t) in self.m.types.iter().enumerate() {
                for f in t.seq.iter().chain(t.instances.iter()) {
                    let holds = match &f.ty {
                        FieldTy::User { ty, .. } => *ty == cur,
                        FieldTy::Switch { cases, .. } => {
                            cases.iter().any(|c| c.user() == Some(cur))
                        }
                        _ => false,
                    };
                    if holds {
                        holders.push((ti, f.repeat == Repeat::None));
                    }
                }
            }
            match holders[..] {
                [(ti, true)] => cur = ti,
                _ => return false,
            }
        }
        false
    }
}

impl<'m> Cx<'m> {
    /// `holder.inst._pos` or `holder.inst._len`, where `holder` is an instance or field of this type of a user type
    /// (or its element 0: `files[0]`, or `_root`) and `inst` a pool item of that type: where the writer put the
    /// item in the previous pass, and how long it was (BFRES's relocation table sections: the GPU region inside
    /// the memory pool info, the first embedded file's bytes). The item is found by its position slot's first
    /// key, so both types must be written once per file (alternatives of one switch count once). A reader takes
    /// the item's `pos` (or `size`) from the holder as read. `None` where the expression is not of this form.
    pub(super) fn nested_item_place(
        &mut self,
        base: &Expr,
        name: &str,
        path: &str,
    ) -> R<Option<(Rx, T)>> {
        let ExprKind::Attr {
            base: holder,
            name: inst,
            ..
        } = &base.kind
        else {
            return Ok(None);
        };
        // (The holder's type, from its translation; an element 0 of a repetition is the first of its type met.)
        let first_of_many = matches!(&holder.kind, ExprKind::Index { index, .. } if matches!(index.kind, ExprKind::Int(0)));
        let owner = match &holder.kind {
            ExprKind::Name(x) if x == "_root" => self.m.root_of(self.ty),
            ExprKind::Index { .. } if !first_of_many => return Ok(None),
            _ => match self.tr(holder, path) {
                Ok((_, T::User(ty))) => ty,
                _ => return Ok(None),
            },
        };
        let u = &self.m.types[owner];
        let Some(item) = u.instances.iter().find(|f| f.name == *inst) else {
            return Ok(None);
        };
        if item.item_of.is_none() {
            return Ok(None);
        }
        let what = format!("'{}.{name}'", inst);
        match self.scope {
            Scope::Read => {
                let slot = self
                    .slots
                    .and_then(|s| s.get(&(owner, item.name.clone())))
                    .ok_or_else(|| internal(path))?;
                Ok(Some(match name {
                    "_pos" => (
                        Rx::new(
                            quote!(pools.named_pos(#slot) as i128 - (r.abs_pos() - r.pos() as u64) as i128),
                            Prec::Add,
                        ),
                        T::Int,
                    ),
                    _ => (Rx::cast(quote!(pools.named_len(#slot) as i128)), T::Int),
                }))
            }
            _ => {
                if !self.once_per_file(self.ty, false) || !self.once_per_file(owner, first_of_many)
                {
                    return err(
                        path,
                        format!(
                            "{what}: '{}' or this type is written more than once per file, so the writer cannot \
                             tell which one's item this is",
                            u.name
                        ),
                    );
                }
                let slot = self
                    .slots
                    .and_then(|s| s.get(&(owner, item.name.clone())))
                    .ok_or_else(|| internal(path))?;
                let key = quote!(::binspec_runtime::layout::WriteCtx::first(#slot));
                Ok(Some(match name {
                    "_pos" => (
                        Rx::new(
                            quote!(ctx.prev_pos(#key) as i128 - io.start as i128),
                            Prec::Add,
                        ),
                        T::Int,
                    ),
                    _ => (Rx::cast(quote!(ctx.prev_len(#key) as i128)), T::Int),
                }))
            }
        }
    }

    /// Whether type `ty` is written at most once per file: the root; or held by fields that are not repeated
    /// (`repeated_first`: the first element of one that is) in types written once per file, where several such
    /// fields are each in a type of its own and those types, in turn, alternatives up to one switch field (BFRES's
    /// version 8 and 10 bodies, each holding the memory pool info).
    fn once_per_file(&self, ty: usize, repeated_first: bool) -> bool {
        let root = self.m.root_of(self.ty);
        let mut cur = vec![ty];
        for _ in 0..self.m.types.len() {
            if cur == [root] {
                return true;
            }
            // (The root beside another type: the other is written along another way too.)
            if cur.contains(&root) {
                return false;
            }
            let mut holders: Vec<(usize, &Field)> = Vec::new();
            for (ti, t) in self.m.types.iter().enumerate() {
                for f in t.seq.iter().chain(t.instances.iter()) {
                    let holds = match &f.ty {
                        FieldTy::User { ty, .. } => cur.contains(ty),
                        FieldTy::Switch { cases, .. } => cases
                            .iter()
                            .any(|c| c.user().is_some_and(|u| cur.contains(&u))),
                        _ => false,
                    };
                    if holds {
                        holders.push((ti, f));
                    }
                }
            }
            let repeat_ok = |f: &Field| f.repeat == Repeat::None || (repeated_first && cur == [ty]);
            if holders.is_empty() || !holders.iter().all(|(_, f)| repeat_ok(f)) {
                return false;
            }
            // One field holds them all (a switch whose cases they are), or each holder is in a type of its own.
            let one_field = holders
                .windows(2)
                .all(|w| w[0].0 == w[1].0 && std::ptr::eq(w[0].1, w[1].1));
            let mut types: Vec<usize> = holders.iter().map(|(ti, _)| *ti).collect();
            types.sort_unstable();
            types.dedup();
            if !one_field && types.len() != holders.len() {
                return false;
            }
            cur = types;
        }
        false
    }
}
