//! Regions whose members' order is a layout choice (`binspec_codegen::ir::region_members`): the sections a type
//! declares for a region of its own, written at the region rather than queued, and the groups (the items of one
//! instance of another type), written where the order puts them. The reader takes the order, the alignments and
//! the bytes nothing describes from the runtime's bookkeeping (`ReadPools::section`, `member_item`, `sections`),
//! as the generated reader does; the model keeps them under the generated model's names (`<region>_order`,
//! `<member>_gap`, `<region>_<type>_<instance>_align`, `<item>_gap`).

use std::rc::Rc;

use binspec_codegen::ir::{Field, MemberRef, Role};

use crate::error::{Error, Result};
use crate::eval::Env;
use crate::run::Run;
use crate::value::Obj;
use crate::write::SW;

/// A layout choice of a region's members that the model keeps beside its fields.
#[derive(Debug, Clone, PartialEq)]
pub enum Extra {
    /// Bytes nothing in the file describes (a member's or an item's gap).
    Bytes(Rc<[u8]>),
    /// An order, by member names.
    Names(Vec<String>),
    /// An alignment.
    Align(u64),
    /// The order of a keep-order pool's non-empty items, as indices into the order the writer meets them.
    Indices(Vec<u32>),
}

/// What kind of value a kept layout choice is (for reading it from a document).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtraKind {
    Bytes,
    Names,
    Align,
    Indices,
}

impl Obj {
    /// The layout choice `name` that the model keeps, if any.
    pub fn extra(&self, name: &str) -> Option<Extra> {
        self.extras
            .borrow()
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, x)| x.clone())
    }
}

impl Run<'_> {
    /// The type and seq attribute of `pool`'s region.
    fn region_of(&self, pool: usize) -> Option<(usize, usize)> {
        self.m.types.iter().enumerate().find_map(|(ti, t)| {
            t.seq
                .iter()
                .position(|f| matches!(&f.role, Role::Pool(u) if u.pool == pool))
                .map(|i| (ti, i))
        })
    }

    /// Where `f`, an instance of `ty` that is a pool item, is a member of an ordered region: the region's type, its
    /// number among the members, and whether it is a section (`emit_rust::layout::member_index`).
    pub fn member_of(&self, ty: usize, f: &Field) -> Option<(usize, usize, bool)> {
        // (Asked for every item read and written: kept by the field, which the module holds for the run.)
        let key = (ty, f as *const Field as usize);
        if let Some(m) = self.members.borrow().get(&key) {
            return *m;
        }
        let m = self.member_of_here(ty, f);
        self.members.borrow_mut().insert(key, m);
        m
    }

    fn member_of_here(&self, ty: usize, f: &Field) -> Option<(usize, usize, bool)> {
        let pool = f.item_of?;
        let (rt, _) = self.region_of(pool)?;
        let members = binspec_codegen::ir::region_members(self.m, rt, pool)?;
        members.iter().enumerate().find_map(|(i, x)| match *x {
            MemberRef::Section(j) if rt == ty && self.m.types[rt].instances[j].name == f.name => {
                Some((rt, i, true))
            }
            MemberRef::Group(tj, j) if tj == ty && self.m.types[tj].instances[j].name == f.name => {
                Some((rt, i, false))
            }
            _ => None,
        })
    }

    /// Whether offset `f` of `obj` is kept in the model because its item (`of`) is absent and the file's offset
    /// is not the 0 the writer writes there (`binspec_codegen::ir::keeps_absent_offset`).
    pub fn absent_offset_kept(
        &self,
        obj: &Obj,
        i: usize,
        f: &Field,
        of: binspec_codegen::ir::FieldId,
    ) -> bool {
        let t = &self.m.types[obj.ty];
        binspec_codegen::ir::keeps_absent_offset(t, f, t.field(of))
            && obj
                .get(of.0)
                .is_none_or(|v| matches!(v, crate::value::V::Null))
            && obj
                .get(i)
                .is_some_and(|v| !matches!(v, crate::value::V::Int(0)))
    }

    /// Whether `f`, an instance of `ty`, is a section: an item of a pool whose region is a seq attribute of `ty`
    /// too. It is written at the region (in declared order, or the region's kept one), not queued.
    pub fn is_section(&self, ty: usize, f: &Field) -> bool {
        f.item_of.is_some_and(|p| {
            self.m.types[ty]
                .seq
                .iter()
                .any(|r| matches!(&r.role, Role::Pool(u) if u.pool == p))
        })
    }

    /// The input's bytes (the root stream's), which the runtime judges gaps in.
    pub(crate) fn root_bytes(&self) -> Rc<crate::value::Stream> {
        self.root
            .borrow()
            .clone()
            .unwrap_or_else(|| crate::value::Stream::whole(Rc::new(Vec::new())))
    }

    /// Notes pool item `f` (field `i` of `obj`), read at `start..start+len` of the file, in the pools' bookkeeping
    /// as the generated reader does: a section is judged with its region's other members, any other item gets its
    /// alignment choice (after its group's previous item, in the order met for a keep-order pool, or after the
    /// pool's previous item), unless it is empty and elsewhere than the writer would put it (its offset is kept).
    pub fn note_item(
        &self,
        obj: &Rc<Obj>,
        i: usize,
        f: &Field,
        pool: usize,
        (start, len): (u64, u64),
    ) {
        let default = self.m.item_default(f, pool);
        let member = self.member_of(obj.ty, f);
        let mut pools = self.pools.borrow_mut();
        if let Some((_, idx, true)) = member {
            pools.section(pool, idx, start, len);
            return;
        }
        let elsewhere = len == 0
            && self.keeps_empty_position(obj.ty, f)
            && match member {
                Some((_, idx, _)) => pools.member_empty_elsewhere(pool, idx, start, default),
                None => pools.empty_elsewhere(pool, start, default),
            };
        if elsewhere {
            obj.keep.borrow_mut()[i] = true;
            return;
        }
        obj.aligns.borrow_mut()[i] = match member {
            Some((_, idx, _)) => {
                let root = self.root_bytes();
                pools.member_item(pool, idx, start, len, default, root.bytes())
            }
            None if self.m.pools[pool].keep_order => {
                let a = pools.ordered_item(pool, start, len, default);
                let r = self.item_rank(pool, obj.ty, i);
                if r != 0 {
                    pools.rank_last(pool, r);
                }
                a
            }
            None => pools.item(pool, start, len, default),
        };
    }

    /// Once a type's pool items are read: the order, alignments and gaps of its ordered regions' members, and the
    /// gaps before its group items (as the generated reader takes them, in that order).
    pub fn judge_members(&self, obj: &Rc<Obj>) {
        let (m, ti) = (self.m, obj.ty);
        let t = &m.types[ti];
        let root = self.root_bytes();
        let data = root.bytes();
        for f in &t.seq {
            let Role::Pool(u) = &f.role else { continue };
            let Some(members) = binspec_codegen::ir::region_members(m, ti, u.pool) else {
                continue;
            };
            let defaults: Vec<u64> = members
                .iter()
                .map(|mb| m.item_default(mb.field(m, ti), u.pool))
                .collect();
            let s = self.pools.borrow_mut().sections(u.pool, &defaults, data);
            let names: Vec<String> = members.iter().map(|x| x.name(m, ti)).collect();
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            let mut extras = obj.extras.borrow_mut();
            if let Some(o) = binspec_runtime::layout::order_names(s.order.clone(), &refs) {
                extras.push((format!("{}_order", f.name), Extra::Names(o)));
            }
            for (k, mb) in members.iter().enumerate() {
                if let Some(g) = s.gap(k, data) {
                    extras.push((self.gap_name(ti, &f.name, *mb), Extra::Bytes(Rc::from(g))));
                }
                match *mb {
                    MemberRef::Section(j) => obj.aligns.borrow_mut()[t.seq.len() + j] = s.align(k),
                    MemberRef::Group(tj, j) => {
                        if let Some(a) = s.align(k) {
                            extras.push((self.group_align_name(&f.name, tj, j), Extra::Align(a)));
                        }
                    }
                }
            }
        }
        // The order of a keep-order pool's items, now that they are read.
        for (k, f) in t.seq.iter().enumerate() {
            let Role::Pool(u) = &f.role else { continue };
            let start = obj
                .region_starts
                .borrow()
                .iter()
                .find(|(j, _)| *j == k)
                .map(|x| x.1);
            if let (true, Some(rs)) = (m.pools[u.pool].keep_order, start) {
                let mut pools = self.pools.borrow_mut();
                if let Some(o) = pools.item_order(u.pool, rs) {
                    obj.extras
                        .borrow_mut()
                        .push((format!("{}_item_order", f.name), Extra::Indices(o)));
                }
                if let Some(a) = pools.item_align(u.pool) {
                    obj.extras
                        .borrow_mut()
                        .push((format!("{}_item_align", f.name), Extra::Indices(a)));
                }
            }
        }
        for f in &t.instances {
            let (Some(pool), Some((_, idx, false))) = (f.item_of, self.member_of(ti, f)) else {
                continue;
            };
            let gap = self.pools.borrow_mut().take_gap(pool, idx);
            if let Some(g) = gap.and_then(|r| data.get(r)) {
                obj.extras
                    .borrow_mut()
                    .push((format!("{}_gap", f.name), Extra::Bytes(Rc::from(g))));
            }
        }
    }

    /// The model's field for the bytes before member `mb` of region `region` of type `ti`.
    fn gap_name(&self, ti: usize, region: &str, mb: MemberRef) -> String {
        match mb {
            MemberRef::Section(j) => format!("{}_gap", self.m.types[ti].instances[j].name),
            MemberRef::Group(tj, j) => format!(
                "{region}_{}_{}_gap",
                self.m.types[tj].name, self.m.types[tj].instances[j].name
            ),
        }
    }

    /// The model's field for the alignment of the first item of the group of instance `j` of type `tj` (a
    /// section's is its own `_align`).
    fn group_align_name(&self, region: &str, tj: usize, j: usize) -> String {
        let t = &self.m.types[tj];
        format!("{region}_{}_{}_align", t.name, t.instances[j].name)
    }

    /// The layout choices of members that the model of type `ti` keeps beside its fields, by name.
    pub fn extra_keys(&self, ti: usize) -> Vec<(String, ExtraKind)> {
        let t = &self.m.types[ti];
        let mut out = Vec::new();
        for f in &t.seq {
            let Role::Pool(u) = &f.role else { continue };
            if self.m.pools[u.pool].keep_order {
                out.push((format!("{}_item_order", f.name), ExtraKind::Indices));
                out.push((format!("{}_item_align", f.name), ExtraKind::Indices));
            }
            let Some(members) = binspec_codegen::ir::region_members(self.m, ti, u.pool) else {
                continue;
            };
            out.push((format!("{}_order", f.name), ExtraKind::Names));
            for mb in members {
                out.push((self.gap_name(ti, &f.name, mb), ExtraKind::Bytes));
                if let MemberRef::Group(tj, j) = mb {
                    out.push((self.group_align_name(&f.name, tj, j), ExtraKind::Align));
                }
            }
        }
        for f in &t.instances {
            if let Some((_, _, false)) = self.member_of(ti, f) {
                out.push((format!("{}_gap", f.name), ExtraKind::Bytes));
            }
        }
        out
    }

    /// Writes the sections of region `region` (seq attribute of `obj`) for `pool`, and where their order is a
    /// layout choice, the groups where it puts them (the rest of the queue follows them).
    pub fn write_members(
        &self,
        obj: &Rc<Obj>,
        region: &Field,
        pool: usize,
        sw: &mut SW,
    ) -> Result<()> {
        let (m, ti) = (self.m, obj.ty);
        let t = &m.types[ti];
        let n_seq = t.seq.len();
        let Some(members) = binspec_codegen::ir::region_members(m, ti, pool) else {
            for (j, f) in t.instances.iter().enumerate() {
                if f.item_of == Some(pool) {
                    let r = if m.pools[pool].keep_order {
                        // (In a pool that keeps its items' order, one more item, queued with the others before
                        // they are written; the block chain ends where it was in the previous pass.)
                        if let Some((at, _)) = obj.derive_span(n_seq + j, self.pass.get()) {
                            let base = self.base_of(obj.io.borrow().id);
                            self.chain_end_at(f, base + at);
                        }
                        self.queue(obj, n_seq + j, f, pool, sw)
                    } else {
                        sw.w.flush_bits();
                        let before = sw.w.pos() as u64;
                        self.write_section(obj, n_seq + j, f, pool, before, sw)
                    };
                    r.map_err(|e| e.in_schema(&t.file, f.pos, &f.path).in_field(&f.name))?;
                }
            }
            return Ok(());
        };
        let names: Vec<String> = members.iter().map(|x| x.name(m, ti)).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let oname = format!("{}_order", region.name);
        let kept = match obj.extra(&oname) {
            Some(Extra::Names(o)) => Some(o),
            _ => None,
        };
        let order = binspec_runtime::layout::write_order(kept.as_deref(), &refs)
            .map_err(|e| Error::from(e).in_field(&oname))?;
        for k in order {
            let mb = members[k];
            // (Where the content before a section ends, for `x._before`: before the bytes in front of it that
            // nothing describes, as the reader finds it, at the end of the last item read.)
            sw.w.flush_bits();
            let before = sw.w.pos() as u64;
            if let Some(Extra::Bytes(g)) = obj.extra(&self.gap_name(ti, &region.name, mb)) {
                sw.w.bytes(&g);
            }
            match mb {
                MemberRef::Section(j) => {
                    let f = &t.instances[j];
                    self.write_section(obj, n_seq + j, f, pool, before, sw)
                        .map_err(|e| e.in_schema(&t.file, f.pos, &f.path).in_field(&f.name))?;
                }
                MemberRef::Group(tj, j) => {
                    let gname = self.group_align_name(&region.name, tj, j);
                    let gf = &m.types[tj].instances[j];
                    let align = match obj.extra(&gname) {
                        Some(Extra::Align(a)) => {
                            check_align(a).map_err(|e| e.in_field(&gname))?;
                            m.item_align_with(gf, pool, Some(a))
                        }
                        _ => m.item_default(gf, pool),
                    };
                    let field = m.types[tj].seq.len() + j;
                    let mine: Vec<_> = {
                        let mut queues = self.queues.borrow_mut();
                        let q = std::mem::take(&mut queues[pool]);
                        let (mine, rest) = q
                            .into_iter()
                            .partition(|x| x.obj.ty == tj && x.field == field);
                        queues[pool] = rest;
                        mine
                    };
                    if mine.is_empty() {
                        continue;
                    }
                    sw.w.align(align);
                    for (k, mut q) in mine.into_iter().enumerate() {
                        if k == 0 {
                            // (The group's alignment places its first item, as the runtime's `flush_slot`.)
                            q.align = 1;
                        }
                        self.write_queued(q, sw);
                    }
                }
            }
        }
        Ok(())
    }

    /// The items queued for a keep-order pool's region `region` of `obj`, the non-empty ones in the model's order
    /// (`<region>_item_order`: indices into the order they were queued), each followed by the empty ones queued
    /// just after it, those queued before the first non-empty one first (the runtime's `flush_ordered`).
    pub fn write_ordered_items(
        &self,
        obj: &Rc<Obj>,
        region: &Field,
        mut items: Vec<crate::write::Queued>,
        sw: &mut SW,
    ) -> Result<()> {
        let aname = format!("{}_item_align", region.name);
        if let Some(Extra::Indices(a)) = obj.extra(&aname) {
            binspec_runtime::layout::with_item_aligns(
                &mut items,
                |q| q.bytes.is_empty(),
                &a,
                |q, a| q.align = u64::from(a),
            )
            .map_err(|e| Error::from(e).in_field(&aname))?;
        }
        let oname = format!("{}_item_order", region.name);
        let order = match obj.extra(&oname) {
            Some(Extra::Indices(order)) => Some(order),
            _ => {
                // (A new file's order: the pool's `order`.)
                let pool = match &region.role {
                    Role::Pool(u) => u.pool,
                    _ => return Err(Error::new("internal: a region without a pool")),
                };
                let rank = |q: &crate::write::Queued| self.item_rank(pool, q.obj.ty, q.field);
                binspec_runtime::layout::rank_order(&items, |q| q.bytes.is_empty(), rank)
            }
        };
        let Some(order) = order else {
            for q in items {
                self.write_queued(q, sw);
            }
            return Ok(());
        };
        let items = binspec_runtime::layout::in_kept_order(items, |q| q.bytes.is_empty(), &order)
            .map_err(|e| Error::from(e).in_field(&oname))?;
        for q in items {
            self.write_queued(q, sw);
        }
        Ok(())
    }

    /// A section: at its alignment, where its condition holds (the values written decide, as for an optional
    /// field). `before`: where the content before it ends (`x._before`), before its gap.
    fn write_section(
        &self,
        obj: &Rc<Obj>,
        i: usize,
        f: &Field,
        pool: usize,
        before: u64,
        sw: &mut SW,
    ) -> Result<()> {
        let v = obj.get(i);
        self.check_presence(obj, f, v.is_some())?;
        let Some(v) = v else {
            obj.set_span(i, None, self.pass.get());
            return Ok(());
        };
        let a = obj.aligns.borrow()[i];
        if let Some(a) = a {
            check_align(a).map_err(|e| e.in_field(&format!("{}_align", f.name)))?;
        }
        sw.w.flush_bits();
        obj.set_before(i, before, self.pass.get());
        sw.w.align(self.m.item_align_with(f, pool, a));
        let start = sw.w.pos() as u64;
        // (A section where the block chain ends: where it is written.)
        let base = self.base_of(obj.io.borrow().id);
        self.chain_end_at(f, base + start);
        self.write_repeated(obj, i, f, &v, sw)?;
        sw.w.flush_bits();
        obj.set_span(i, Some((start, sw.w.pos() as u64)), self.pass.get());
        Ok(())
    }

    /// A pool item's presence against its condition, for the values written (once positions are known): the file
    /// would read back otherwise.
    pub fn check_presence(&self, obj: &Rc<Obj>, f: &Field, present: bool) -> Result<()> {
        // (A guard on where the item's own offset points, against a value the writer does not have.)
        if f.cond.is_some() && self.unchecked_guards[obj.ty].contains(&f.name) {
            return Ok(());
        }
        // (A condition on an instance only reading sees, which the model does not hold: the model's presence
        // decides, as in the generated writer.)
        if f.cond
            .as_ref()
            .is_some_and(|c| self.m.names_a_view(obj.ty, &c.expr))
        {
            return Ok(());
        }
        match (&f.cond, self.lenient.get()) {
            (Some(c), false) => {
                presence_agrees(self.eval_bool(&c.expr, &Env::of(obj))?, present, &c.text)
            }
            _ => Ok(()),
        }
    }

    /// Where stream `id` starts in the output in this pass (0 where not known: an item written apart).
    pub fn base_of(&self, id: u64) -> u64 {
        self.bases.borrow().get(&id).copied().unwrap_or(0)
    }

    /// A queued item at the writer's position: the bytes before it that nothing describes (a group item's gap),
    /// then at its alignment.
    pub fn write_queued(&self, q: crate::write::Queued, sw: &mut SW) {
        // (Most records keep no layout choice of the kind: no name to make for them.)
        if !q.obj.extras.borrow().is_empty() {
            let name = &self.def(q.obj.ty, q.field).name;
            if let Some(Extra::Bytes(g)) = q.obj.extra(&format!("{name}_gap")) {
                sw.w.bytes(&g);
            }
        }
        sw.w.align(q.align);
        // (Where the item is in the stream it is read from.)
        let held_in = q.stream;
        let at = match held_in == sw.id {
            true => sw.w.pos() as u64,
            false => {
                (self.base_of(sw.id) + sw.w.pos() as u64).saturating_sub(self.base_of(held_in))
            }
        };
        q.obj.set_span(
            q.field,
            Some((at, at + q.bytes.len() as u64)),
            self.pass.get(),
        );
        sw.w.bytes(&q.bytes);
    }
}

/// That a field is present exactly where its condition (`cond`) holds for the values written: else the file would
/// read back otherwise.
pub fn presence_agrees(holds: bool, present: bool, cond: &str) -> Result<()> {
    match (holds, present) {
        (false, true) => Err(Error::new(format!(
            "present in the model, but its condition `{cond}` is false for the values written: the file would not \
             have it"
        ))),
        (true, false) => Err(Error::new(format!(
            "absent in the model, but its condition `{cond}` is true for the values written: the file would have \
             one"
        ))),
        _ => Ok(()),
    }
}

/// An alignment a model gives: a power of two.
fn check_align(a: u64) -> Result<()> {
    binspec_runtime::layout::check_align(a).map_err(Error::from)
}
