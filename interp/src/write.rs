//! Writing: an object's `seq` in order, then its placed instances at their positions, with every count, length
//! and `-derive`d value computed (`write_value_of`). Positions and sizes a derived value names come from the pass
//! before: the writer repeats passes until the bytes settle (derived integers have fixed widths, so they do after
//! the second pass unless a value moves what follows it).

use std::collections::HashMap;
use std::rc::Rc;

use binspec_codegen::expr::Expr;
use binspec_codegen::ir::{ConstVal, Field, FieldTy, Process, Repeat, Role};
use binspec_runtime::{Endian, Writer};

use crate::error::{Error, Result};
use crate::eval::Env;
use crate::run::Run;
use crate::value::{Obj, Stream, V};

/// A stream being written: its bytes, and the placed instances to put at their positions once its sequence is
/// written. Placements and scans are tagged with the stream they belong to: those of another stream (an instance
/// with `io: _root._io` inside a substream) go up to it.
pub struct SW {
    pub id: u64,
    pub w: Writer,
    pub deferred: Vec<(u64, u64, Vec<u8>)>,
    /// `-scan` fields written (stream, start, end, their scan): checked once the stream is whole.
    pub scans: Vec<(u64, usize, usize, binspec_codegen::ir::Scan)>,
    /// Where the bytes written give way to placed ones (a record's kept bytes after it, where its slot's size is
    /// derived: edited data placed over them wins).
    pub yields_from: usize,
}

/// What finishing a stream leaves for the streams around it.
pub type Foreign = (
    Vec<(u64, u64, Vec<u8>)>,
    Vec<(u64, usize, usize, binspec_codegen::ir::Scan)>,
);

impl SW {
    /// A writer for stream `id`.
    pub fn new(id: u64) -> SW {
        SW::at(id, 0)
    }
    /// A writer for bytes placed at `origin` of stream `id`.
    pub fn at(id: u64, origin: usize) -> SW {
        SW {
            id,
            w: Writer::at_origin(origin),
            deferred: Vec::new(),
            scans: Vec::new(),
            yields_from: usize::MAX,
        }
    }
    /// Takes over what a writer of part of this stream, or of a stream inside it, leaves.
    pub fn adopt(&mut self, (deferred, scans): Foreign) {
        self.deferred.extend(deferred);
        self.scans.extend(scans);
    }
    /// The stream's bytes, with its placed instances put in, and what belongs to other streams. Unless
    /// `lenient`, an instance whose bytes overlap bytes written already and differ from them is an error: the
    /// file would read back otherwise.
    pub fn finish(mut self, lenient: bool) -> Result<(Vec<u8>, Foreign)> {
        self.w.flush_bits();
        let mut out = self.w.into_inner();
        // Which bytes are written (the sequence, then each placement): a placement may cover written bytes only
        // with the same bytes (shared data), and may not start far past them.
        let mut covered: Vec<bool> = (0..out.len()).map(|k| k < self.yields_from).collect();
        let (mine, foreign): (Vec<_>, Vec<_>) =
            self.deferred.into_iter().partition(|d| d.0 == self.id);
        let mut spans = Vec::with_capacity(mine.len());
        for (_, pos, b) in &mine {
            let pos = usize::try_from(*pos)
                .ok()
                .filter(|p| *p <= 1 << 32)
                .ok_or_else(|| {
                    Error::new(format!("an instance placed at {pos:#x}, beyond 4 GiB"))
                })?;
            spans.push((pos, pos + b.len()));
        }
        // (A position far past what is written would make a file of zeros out of proportion to the document.)
        let far = binspec_runtime::write::far_placements(out.len(), &spans);
        for (((_, _, b), (pos, end)), far) in mine.into_iter().zip(spans).zip(far) {
            if far {
                if lenient {
                    continue;
                }
                return Err(Error::new(format!(
                    "an instance placed at {pos:#x}, more than {:#x} bytes past what is written before it (is its \
                     position right?)",
                    binspec_runtime::write::MAX_PAD
                )));
            }
            if out.len() < end {
                out.resize(end, 0);
                covered.resize(end, false);
            }
            if !lenient {
                let clash = (pos..end).find(|&k| covered[k] && out[k] != b[k - pos]);
                if clash.is_some() {
                    return Err(Error::new(format!(
                        "an instance's bytes at {pos:#x}..{end:#x} overlap bytes written before and differ from \
                         them: the file would keep only one of them, and read back otherwise"
                    )));
                }
            }
            out[pos..end].copy_from_slice(&b);
            covered[pos..end].iter_mut().for_each(|c| *c = true);
        }
        let (my_scans, foreign_scans): (Vec<_>, Vec<_>) =
            self.scans.into_iter().partition(|s| s.0 == self.id);
        if !lenient {
            for (_, start, end, sc) in &my_scans {
                let tags: Vec<&[u8]> = sc.tags.iter().map(Vec::as_slice).collect();
                binspec_runtime::write::check_scan(
                    &out,
                    *start,
                    *end,
                    &tags,
                    sc.step as usize,
                    sc.or_eos,
                )?;
            }
        }
        Ok((out, (foreign, foreign_scans)))
    }
}

/// A pool item waiting for its region: its record, field, bytes and alignment.
#[derive(Clone)]
pub struct Queued {
    pub obj: Rc<Obj>,
    pub field: usize,
    pub bytes: Vec<u8>,
    pub align: u64,
    /// The stream the item is read from (its holder's, or the one its `io` names): its span counts in it.
    pub stream: u64,
}

/// Streams written by the last pass, by id (what `_io` is when writing).
pub type Written = HashMap<u64, Rc<Stream>>;

impl Run<'_> {
    /// What `_io` of an object is while writing: its stream as the last pass wrote it.
    pub fn written_io(&self, obj: &Obj) -> Rc<Stream> {
        let io = obj.io.borrow().clone();
        self.written.borrow().get(&io.id).cloned().unwrap_or(io)
    }

    pub fn write_type(&self, obj: &Rc<Obj>, sw: &mut SW) -> Result<()> {
        // The values this type gives records inside it, where their writers and its items' counts take them
        // (derived from the previous pass's positions, as the generated writer derives them first).
        let given = self.give(obj)?;
        let tables = self.derive_tables(obj)?;
        let r = self.write_type_here(obj, sw);
        for (o, fid) in given {
            o.set(fid, None);
        }
        for i in tables {
            obj.set(i, None);
        }
        r
    }

    fn write_type_here(&self, obj: &Rc<Obj>, sw: &mut SW) -> Result<()> {
        let t = &self.m.types[obj.ty];
        self.nested(|| -> Result<()> {
            obj.start.set(sw.w.pos() as u64);
            self.chain_note(obj);
            // Values that capture where the stream is are computed again in each pass, where first named.
            for &i in &self.captures[obj.ty] {
                obj.set(i, None);
            }
            for i in 0..t.seq.len() {
                let f = &t.seq[i];
                obj.cur_pos.set(sw.w.pos() as u64);
                self.write_attr(obj, i, f, sw)
                    .map_err(|e| e.in_schema(&t.file, f.pos, &f.path).in_field(&f.name))?;
            }
            sw.w.flush_bits();
            obj.end.set(sw.w.pos() as u64);
            obj.cur_pos.set(sw.w.pos() as u64);
            for i in t.seq.len()..self.n_fields(obj.ty) {
                let f = self.def(obj.ty, i);
                let r = match (&f.role, f.item_of) {
                    (Role::Placed, _) => self.place(obj, i, f, sw),
                    // (A section is written at its region.)
                    (Role::Data, Some(p)) if !self.is_section(obj.ty, f) => {
                        self.queue(obj, i, f, p, sw)
                    }
                    _ => continue,
                };
                r.map_err(|e| e.in_schema(&t.file, f.pos, &f.path).in_field(&f.name))?;
            }
            Ok(())
        })
    }

    /// A pool item: written apart, queued for its region. It is written at the position it had in the previous
    /// pass, so that positions inside it (and what it places or queues in turn) are the final ones once passes
    /// settle, as the generated writer writes such an item (`WriteCtx::item_writer`).
    pub(crate) fn queue(
        &self,
        obj: &Rc<Obj>,
        i: usize,
        f: &Field,
        pool: usize,
        sw: &mut SW,
    ) -> Result<()> {
        self.check_presence(obj, f, obj.get(i).is_some())?;
        let Some(v) = obj.get(i) else {
            return Ok(());
        };
        let stream = self.item_stream(obj, f)?;
        let origin = obj
            .derive_span(i, self.pass.get())
            .map_or(0, |(at, _)| at as usize);
        let mut sub = SW::at(stream, origin);
        self.write_repeated(obj, i, f, &v, &mut sub)?;
        sub.w.flush_bits();
        // (What it places goes up with absolute positions, as a placed instance's does.)
        sw.deferred.append(&mut sub.deferred);
        sw.scans.append(&mut sub.scans);
        let bytes = sub.w.into_inner();
        if self.flushed.borrow().contains(&pool) && self.m.pools[pool].dedup {
            self.dedup_late(obj, i, pool, stream, bytes);
            return Ok(());
        }
        let align = self.m.item_align_with(f, pool, obj.aligns.borrow()[i]);
        let mut queues = self.queues.borrow_mut();
        let Some(q) = queues.get_mut(pool) else {
            return Err(Error::new("internal: no such pool"));
        };
        q.push(Queued {
            obj: obj.clone(),
            field: i,
            bytes,
            align,
            stream,
        });
        Ok(())
    }

    /// A pool's region: its items, in the order they were queued, each at its alignment (the region itself at its
    /// layout choice's), then the bytes the file had after the last one.
    fn write_region(
        &self,
        obj: &Rc<Obj>,
        i: usize,
        f: &Field,
        u: &binspec_codegen::ir::PoolUse,
        sw: &mut SW,
    ) -> Result<()> {
        sw.w.flush_bits();
        if let Some(name) = &u.align_field {
            let a = obj
                .layout
                .borrow()
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| *v)
                .or_else(|| {
                    self.m.types[obj.ty]
                        .layout
                        .iter()
                        .find(|l| l.name == *name)
                        .map(|l| l.default)
                })
                .unwrap_or(1);
            let a = u64::try_from(a)
                .ok()
                .filter(|a| a.is_power_of_two())
                .ok_or_else(|| {
                    Error::new(format!("'{name}' = {a} is not a power of two")).in_field(name)
                })?;
            sw.w.align(a);
        }
        // (The region starts after its alignment: what precedes it, a region sized up to it, takes the padding.)
        let start = sw.w.pos() as u64;
        // The type's own sections (and the groups where their order is kept), then the queued items.
        self.write_members(obj, f, u.pool, sw)?;
        let items = std::mem::take(&mut self.queues.borrow_mut()[u.pool]);
        self.flushed.borrow_mut().push(u.pool);
        if self.m.pools[u.pool].dedup {
            self.write_dedup_region(obj, i, u.pool, items, sw)?;
        } else {
            self.write_ordered_items(obj, f, items, sw)?;
        }
        if self.is_tail_region(obj.ty, i) {
            if let Some(b) = obj.trailing.borrow().as_ref() {
                sw.w.bytes(b);
            }
        }
        obj.set_span(i, Some((start, sw.w.pos() as u64)), self.pass.get());
        Ok(())
    }

    /// A placed instance's bytes and position.
    fn place(&self, obj: &Rc<Obj>, i: usize, f: &Field, sw: &mut SW) -> Result<()> {
        let Some(v) = obj.get(i) else {
            return Ok(());
        };
        let Some(p) = f.pos_expr() else {
            return Ok(());
        };
        let pos = self.eval_int(&p.expr, &Env::of(obj))?;
        let pos = match u64::try_from(pos) {
            Ok(p) => p,
            Err(_) if self.lenient.get() => 0,
            Err(_) => return Err(Error::new(format!("negative position {pos}"))),
        };
        // Written apart, then put at its place in its stream (the type's own, or the root's for
        // `io: _root._io`), with what it places in turn.
        let origin = usize::try_from(pos)
            .ok()
            .filter(|p| *p <= 1 << 32)
            .ok_or_else(|| Error::new(format!("position {pos:#x} is beyond 4 GiB")))?;
        let target = self.item_stream(obj, f)?;
        self.chain_end_at(f, self.base_of(target) + pos);
        let mut sub = SW::at(target, origin);
        self.write_repeated(obj, i, f, &v, &mut sub)?;
        sub.w.flush_bits();
        sw.deferred.append(&mut sub.deferred);
        sw.scans.append(&mut sub.scans);
        let b = sub.w.into_inner();
        obj.set_span(i, Some((pos, pos + b.len() as u64)), self.pass.get());
        sw.deferred.push((target, pos, b));
        Ok(())
    }

    fn present(&self, obj: &Rc<Obj>, i: usize, f: &Field) -> Result<bool> {
        Ok(match &f.role {
            Role::Data | Role::Placed => obj.get(i).is_some(),
            _ => match &f.cond {
                Some(c) => self.eval_bool(&c.expr, &Env::of(obj))?,
                None => true,
            },
        })
    }

    fn write_attr(&self, obj: &Rc<Obj>, i: usize, f: &Field, sw: &mut SW) -> Result<()> {
        if let Role::Pool(u) = &f.role {
            return self.write_region(obj, i, f, u, sw);
        }
        // (A condition on a view, which the model does not hold, is not checked: the model decides, as in the
        // generated writer.)
        let on_view = f
            .cond
            .as_ref()
            .is_some_and(|c| self.m.names_a_view(obj.ty, &c.expr));
        if let (Some(c), Role::Data, false, false) = (&f.cond, &f.role, self.lenient.get(), on_view)
        {
            let holds = self.eval_bool(
                &c.expr,
                &Env {
                    io_pos: Some(sw.w.pos() as u64),
                    ..Env::of(obj)
                },
            )?;
            crate::sections::presence_agrees(holds, obj.get(i).is_some(), &c.text)?;
        }
        if !self.present(obj, i, f)? {
            obj.set_span(i, None, self.pass.get());
            return Ok(());
        }
        let v = match self.write_value_of(obj, i)? {
            Some(v) => v,
            None => return Ok(()),
        };
        if f.resdic.is_some() {
            self.write_dic(f, &v)?;
        }
        if !matches!(f.ty, FieldTy::Bits { .. }) {
            sw.w.flush_bits();
        }
        let start = sw.w.pos() as u64;
        self.note_pointer(obj, f, self.base_of(sw.id) + start, &v)?;
        self.write_repeated(obj, i, f, &v, sw)?;
        if let Some(sc) = &f.scan {
            sw.scans
                .push((sw.id, start as usize, sw.w.pos(), sc.clone()));
        }
        obj.set_span(i, Some((start, sw.w.pos() as u64)), self.pass.get());
        Ok(())
    }

    pub fn write_repeated(
        &self,
        obj: &Rc<Obj>,
        i: usize,
        f: &Field,
        v: &V,
        sw: &mut SW,
    ) -> Result<()> {
        if f.repeat == Repeat::None {
            return self.write_one(obj, i, f, v, sw, None);
        }
        let V::Arr(xs) = v else {
            return Err(Error::new(format!("expected an array, found {}", v.kind())));
        };
        // A count the writer does not derive (a constant, or one the holder's values give): it must hold, or the
        // file reads back with other elements. (Where it names a view, which the model does not hold, the model
        // decides, as in the generated writer.)
        // (A count the type gives a record inside it is derived from the elements, or the user's as it is.)
        let given = self.m.types[obj.ty]
            .given
            .iter()
            .any(|g| g.of.0 == i && g.kind == binspec_codegen::ir::GivenKind::Count);
        if let (Repeat::Expr(x), false, false) = (&f.repeat, self.lenient.get(), given) {
            if !self.m.names_a_view(obj.ty, &x.expr) {
                let n = self.eval_int(&x.expr, &Env::of(obj))?;
                if n != xs.len() as i128 {
                    return Err(Error::new(format!(
                        "{} elements, but the count `{}` is {n}: the file would read back otherwise",
                        xs.len(),
                        x.text
                    )));
                }
            }
        }
        let size = self.written_io(obj).size();
        let order: Vec<usize> = match &f.sort_by {
            Some(key) => self.sort_order(xs, key)?,
            None => (0..xs.len()).collect(),
        };
        if let (Repeat::Until(x), true, false) = (&f.repeat, xs.is_empty(), self.lenient.get()) {
            return Err(Error::new(format!(
                "no elements, but `repeat-until` reads at least one (up to where `{}` holds)",
                x.text
            )));
        }
        for (j, &k) in order.iter().enumerate() {
            let e = &xs[k];
            self.write_one(obj, i, f, e, sw, Some(k))
                .map_err(|er| er.in_index(k))?;
            let k = j;
            // The condition as a reader meets it, right after the element.
            if let (Repeat::Until(x), false) = (&f.repeat, self.lenient.get()) {
                let pos = sw.w.pos() as u64;
                let env = Env {
                    this: Some(e),
                    index: Some(k),
                    io_pos: Some(pos),
                    eof: Some(pos >= size),
                    ..Env::of(obj)
                };
                let stop = self.eval_bool(&x.expr, &env)?;
                if stop != (k + 1 == xs.len()) {
                    return Err(Error::new(format!(
                        "'repeat-until: {}' must hold for the last element only (element {k})",
                        x.text
                    )));
                }
            }
        }
        Ok(())
    }

    pub fn write_one(
        &self,
        obj: &Rc<Obj>,
        i: usize,
        f: &Field,
        v: &V,
        sw: &mut SW,
        idx: Option<usize>,
    ) -> Result<()> {
        if let Some(valid) = &f.valid {
            if !self.lenient.get() && matches!(f.role, Role::Data | Role::Placed) {
                self.check_valid(obj, f, valid, v, sw.w.pos() as u64)
                    .map_err(|e| Error { offset: None, ..e })?;
            }
        }
        if let Some(c) = &f.contents {
            sw.w.bytes(c);
            return Ok(());
        }
        let e = obj.endian.get();
        match (&f.ty, v) {
            (FieldTy::Switch { on, cases }, v) => {
                let given = obj
                    .cases
                    .borrow()
                    .get(&(i, idx.unwrap_or(usize::MAX)))
                    .copied();
                let env = Env {
                    index: idx,
                    ..Env::of(obj)
                };
                // A switch on what the model does not hold (a view, such as BYML's magic read big-endian) takes
                // the document's case, as the generated writer does.
                let key = match (self.eval(&on.expr, &env), given) {
                    (Ok(k), _) => Some(k),
                    (Err(_), Some(_)) => None,
                    (Err(e), None) => return Err(e),
                };
                let mut chosen = None;
                if let Some(key) = &key {
                    for (ci, c) in cases.iter().enumerate() {
                        let hit = match &c.key {
                            Some(k) => self.eval(&k.expr, &env)?.same(key),
                            None => true,
                        };
                        if hit {
                            chosen = Some(ci);
                            break;
                        }
                    }
                }
                let key = key.unwrap_or(V::Int(0));
                let same_variant = |a: usize, b: usize| cases[a].variant == cases[b].variant;
                let ci = match (chosen, given) {
                    (Some(c), Some(g)) if !same_variant(c, g) && !self.lenient.get() => {
                        return Err(Error::new(format!(
                            "'{}' = {} chooses case '{}', but the document holds case '{}'",
                            on.text,
                            crate::read::show(&key),
                            crate::doc::snake_case(&cases[c].variant),
                            crate::doc::snake_case(&cases[g].variant)
                        )))
                    }
                    // Cases of the same type share a variant: the one the key chooses gives the arguments.
                    (Some(c), Some(g)) if same_variant(c, g) => c,
                    (_, Some(g)) => g,
                    (Some(c), None) => c,
                    (None, None) => {
                        return Err(Error::new(format!(
                            "no case of the switch on '{}' matches {}",
                            on.text,
                            crate::read::show(&key)
                        )))
                    }
                };
                match v {
                    V::Obj(o) => {
                        self.set_args(obj, o, &cases[ci].args, sw, idx)?;
                        self.write_user(obj, i, f, o, sw, idx)
                    }
                    v => {
                        let prim = cases[ci].prim.clone().unwrap_or(FieldTy::Bytes);
                        let pf = Field {
                            ty: prim,
                            ..f.clone()
                        };
                        self.write_plain(obj, i, &pf, v, sw, e, idx)
                    }
                }
            }
            (FieldTy::User { args, .. }, V::Obj(o)) => {
                self.set_args(obj, o, args, sw, idx)?;
                self.write_user(obj, i, f, o, sw, idx)
            }
            (_, v) => self.write_plain(obj, i, f, v, sw, e, idx),
        }
    }

    /// A record's arguments as its holder gives them where the record is written (`_io.pos` is where it starts).
    fn set_args(
        &self,
        obj: &Rc<Obj>,
        child: &Rc<Obj>,
        args: &[binspec_codegen::ir::Ex],
        sw: &SW,
        idx: Option<usize>,
    ) -> Result<()> {
        if args.is_empty() {
            return Ok(());
        }
        let env = Env {
            index: idx,
            io_pos: Some(sw.w.pos() as u64),
            ..Env::of(obj)
        };
        // (A parameter that only guards where an item's offset points is not needed when writing: its argument
        // may name a value the writer derives.)
        let unneeded = &self.guard_params[child.ty];
        let vals = args
            .iter()
            .enumerate()
            .map(|(k, a)| match unneeded.get(k) {
                Some(true) => Ok(V::Null),
                _ => self.eval(&a.expr, &env),
            })
            .collect::<Result<Vec<_>>>()?;
        *child.params.borrow_mut() = vals;
        Ok(())
    }

    fn write_user(
        &self,
        obj: &Rc<Obj>,
        i: usize,
        f: &Field,
        child: &Rc<Obj>,
        sw: &mut SW,
        idx: Option<usize>,
    ) -> Result<()> {
        if !f.is_blob() {
            return self.write_type(child, sw);
        }
        let id = child.io.borrow().id;
        let base = self.base_of(sw.id) + sw.w.pos() as u64;
        self.bases.borrow_mut().insert(id, base);
        let mut sub = SW::new(id);
        self.write_type(child, &mut sub)?;
        if f.size_derived {
            // The slot is what the record's stream holds: what it writes, the bytes the file had after that, and
            // what it places past them (`WriteCtx::finish_slot`).
            let filler = obj.fillers.borrow()[i].clone();
            sub.w.flush_bits();
            sub.yields_from = sub.w.pos();
            sub.w.bytes(filler.as_deref().unwrap_or(&[]));
        }
        let (bytes, foreign) = sub.finish(self.lenient.get())?;
        sw.adopt(foreign);
        self.written
            .borrow_mut()
            .insert(id, Stream::whole_as(id, Rc::new(bytes.clone())));
        self.write_blob(obj, i, f, bytes, sw, idx)
    }

    /// Content bytes into the field's slot: processed, then the terminator and padding (or the filler).
    fn write_blob(
        &self,
        obj: &Rc<Obj>,
        i: usize,
        f: &Field,
        content: Vec<u8>,
        sw: &mut SW,
        idx: Option<usize>,
    ) -> Result<()> {
        let content = match &f.process {
            None => content,
            Some(p) => self.process(obj, p, &content)?,
        };
        let size = match &f.size {
            // A record whose slot size is derived: as long as it is written (with the bytes kept after it).
            Some(_) if f.size_derived => None,
            Some(s) => Some(self.eval_int(
                &s.expr,
                &Env {
                    index: idx,
                    ..Env::of(obj)
                },
            )?),
            None => None,
        };
        if f.slot_exact() {
            // Content that nothing ends fills its slot (no terminator, no padding, no filler).
            binspec_runtime::write_slot_exact(&mut sw.w, &content, size, self.lenient.get())?;
            return Ok(());
        }
        let (append, pad) = f.slot_writing();
        // (A record whose slot's size is derived has its kept bytes in its stream already.)
        let filler = if idx.is_none() && !f.size_derived {
            obj.fillers.borrow()[i].clone()
        } else {
            None
        };
        binspec_runtime::write::write_slot_filled(
            &mut sw.w,
            &content,
            size,
            &append,
            pad,
            self.lenient.get(),
            filler.as_deref(),
        )?;
        Ok(())
    }

    fn process(&self, obj: &Rc<Obj>, p: &Process, b: &[u8]) -> Result<Vec<u8>> {
        let env = Env::of(obj);
        Ok(match p {
            Process::Xor(k) => match self.eval(&k.expr, &env)? {
                V::Bytes(key) => binspec_runtime::process::xor(b, &key),
                v => binspec_runtime::process::xor(b, &[v.int().unwrap_or(0) as u8]),
            },
            Process::Rol(n) => binspec_runtime::process::rol(b, -self.eval_int(&n.expr, &env)?),
            Process::Ror(n) => binspec_runtime::process::rol(b, self.eval_int(&n.expr, &env)?),
            Process::Zlib => binspec_runtime::process::zlib(b),
            Process::Custom { path, .. } => {
                return Err(Error::new(format!(
                    "the custom process '{}' is a hand-written hook: generate the crate for it",
                    path.join(".")
                )))
            }
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn write_plain(
        &self,
        obj: &Rc<Obj>,
        i: usize,
        f: &Field,
        v: &V,
        sw: &mut SW,
        e: Endian,
        idx: Option<usize>,
    ) -> Result<()> {
        let endian_of = |x: &Option<binspec_codegen::ir::Endian>| match x {
            Some(binspec_codegen::ir::Endian::Le) => Endian::Little,
            Some(binspec_codegen::ir::Endian::Be) => Endian::Big,
            None => e,
        };
        match &f.ty {
            FieldTy::Int {
                bytes,
                signed,
                endian,
            } => {
                let x = self.int_of(v)?;
                let n = u32::from(*bytes);
                let fits = if *signed {
                    n >= 16 || (x >= -(1i128 << (8 * n - 1)) && x < (1i128 << (8 * n - 1)))
                } else {
                    x >= 0 && (n >= 16 || x < (1i128 << (8 * n)))
                };
                if !fits && !self.lenient.get() {
                    return Err(Error::new(format!(
                        "value {x} does not fit in {} {n}-byte integer",
                        if *signed { "a signed" } else { "an unsigned" }
                    )));
                }
                sw.w.uint_n(x as u64 & mask(8 * n), n as usize, endian_of(endian))?;
            }
            FieldTy::Float { bytes, endian } => {
                let x = match v {
                    V::Float(x) => *x,
                    v => self.int_of(v)? as f64,
                };
                let (u, n) = if *bytes == 4 {
                    (u64::from((x as f32).to_bits()), 4)
                } else {
                    (x.to_bits(), 8)
                };
                sw.w.uint_n(u, n, endian_of(endian))?;
            }
            FieldTy::Bits { n, le } => {
                let x = self.int_of(v)?;
                let n = u32::from(*n);
                if (x < 0 || (n < 64 && x >= 1i128 << n)) && !self.lenient.get() {
                    return Err(Error::new(format!("value {x} does not fit in {n} bits")));
                }
                let u = x as u64 & mask(n);
                if *le {
                    sw.w.bits_le(u, n)
                } else {
                    sw.w.bits_be(u, n)
                }
            }
            FieldTy::Bytes | FieldTy::Str { .. } => {
                let content = match (v, &f.ty) {
                    (V::Bytes(b), _) => b.to_vec(),
                    (V::Str(s), FieldTy::Str { encoding, .. }) => {
                        binspec_runtime::text::encode(s, encoding)?
                    }
                    (V::Str(s), _) => s.as_bytes().to_vec(),
                    (o, _) => {
                        return Err(Error::new(format!(
                            "expected bytes or a string, found {}",
                            o.kind()
                        )))
                    }
                };
                if !f.is_blob() {
                    sw.w.bytes(&content);
                } else {
                    self.write_blob(obj, i, f, content, sw, idx)?;
                }
            }
            _ => return Err(Error::new(format!("cannot write {} here", v.kind()))),
        }
        Ok(())
    }

    fn int_of(&self, v: &V) -> Result<i128> {
        v.int()
            .ok_or_else(|| Error::new(format!("expected an integer, found {}", v.kind())))
    }

    /// Field `i` of `obj` while writing: the model's value, or the derived one.
    pub fn write_value_of(&self, obj: &Rc<Obj>, i: usize) -> Result<Option<V>> {
        let f = self.def(obj.ty, i);
        if let Some(v) = obj.get(i) {
            return Ok(Some(v));
        }
        let t = &self.m.types[obj.ty];
        match &f.role {
            Role::Data | Role::Placed | Role::Kept => Ok(None),
            // Given by the holder (set while it writes the record): else the override, or 0.
            Role::Given => Ok(Some(obj.overrides.borrow()[i].clone().unwrap_or(V::Int(0)))),
            Role::Const(ConstVal::Int(x)) => Ok(Some(V::Int(*x))),
            Role::Const(ConstVal::Bytes(b)) => Ok(Some(V::Bytes(Rc::from(b.as_slice())))),
            Role::Derive(x) => {
                if let Some(o) = obj.overrides.borrow()[i].clone() {
                    return Ok(Some(o));
                }
                let v = self
                    .guarded(obj, i, || self.eval(&x.expr, &Env::of(obj)))
                    .map_err(|e| e.in_schema(&t.file, x.pos, &x.path))?;
                Ok(Some(v))
            }
            Role::Count { of, alt } => {
                let of_f = t.field(*of);
                // (Where every repetition may be absent, the model's override where it has one.)
                if let Some(o) = obj.overrides.borrow()[i].clone() {
                    return Ok(Some(o));
                }
                // The first present of the repetitions that name the count.
                let mut n = 0;
                for a in std::iter::once(of).chain(alt) {
                    if let Some(V::Arr(xs)) = self.field(obj, a.0)? {
                        n = xs.len() as i128;
                        break;
                    }
                }
                // A deduplicating pool's region of records: with those the model refers to that it does not list.
                if let Role::Pool(u) = &of_f.role {
                    if self.m.dedup_records(u.pool).is_some() {
                        n = i128::from(self.dedup_count(u.pool, n as usize));
                    }
                }
                let Repeat::Expr(x) = &of_f.repeat else {
                    return Err(Error::new(
                        "internal: a count of a field that is not 'repeat: expr'",
                    ));
                };
                self.solve(obj, i, &x.expr, n).map(|v| Some(V::Int(v)))
            }
            Role::Length { of } => {
                let of_f = t.field(*of);
                // A record or a pool's region: its length in the previous pass (0 in the first; the passes settle
                // it).
                let placed = matches!(of_f.role, Role::Pool(_))
                    || (matches!(of_f.ty, FieldTy::User { .. } | FieldTy::Switch { .. })
                        && matches!(obj.get(of.0), Some(V::Obj(_))));
                let n = if of_f.size_derived || placed {
                    obj.derive_span(of.0, self.pass.get())
                        .map_or(0, |(start, end)| i128::from(end.saturating_sub(start)))
                } else {
                    match self.field(obj, of.0)? {
                        // Processed bytes: the length of what is stored.
                        Some(V::Bytes(b)) if let Some(p) = &of_f.process => {
                            self.process(obj, p, &b)?.len() as i128
                        }
                        Some(V::Bytes(b)) => b.len() as i128,
                        Some(V::Str(s)) => match &of_f.ty {
                            FieldTy::Str { encoding, .. } => {
                                binspec_runtime::text::encode(&s, encoding)?.len() as i128
                            }
                            _ => s.len() as i128,
                        },
                        _ => 0,
                    }
                };
                let Some(sz) = &of_f.size else {
                    return Err(Error::new("internal: a length of a field without 'size'"));
                };
                self.solve(obj, i, &sz.expr, n).map(|v| Some(V::Int(v)))
            }
            Role::Offset { of } => {
                // A kept offset holds while its item is empty (an empty item can point anywhere).
                let empty = obj.get(of.0).is_none_or(|v| v.elements() == Some(0));
                if let (Some(o), true) = (obj.overrides.borrow()[i].clone(), empty) {
                    return Ok(Some(o));
                }
                let item = t.field(*of);
                let Some(p) = item.pos_expr() else {
                    return Err(Error::new("internal: an offset of an item without 'pos'"));
                };
                let span = obj.derive_span(of.0, self.pass.get());
                let Some((at, _)) = span else {
                    // (Not placed yet: the next pass knows.)
                    return Ok(Some(V::Int(0)));
                };
                self.solve(obj, i, &p.expr, i128::from(at))
                    .map(|v| Some(V::Int(v)))
            }
            Role::Computed => {
                let Some(x) = f.value() else { return Ok(None) };
                if let Some(c) = &f.cond {
                    if !self.eval_bool(&c.expr, &Env::of(obj))? {
                        return Ok(None);
                    }
                }
                let v = self.guarded(obj, i, || self.eval(&x.expr, &Env::of(obj)))?;
                let v = match (f.enum_, v) {
                    (Some(e), V::Int(x)) => V::Enum(e, x),
                    (_, v) => v,
                };
                // One that captures where the stream is keeps the position where it was first named.
                if self.captures[obj.ty].contains(&i) {
                    obj.set(i, Some(v.clone()));
                }
                Ok(Some(v))
            }
            // The instance the byte order is switched on: the case key of the model's byte order.
            Role::View if self.endian_key(obj, f).is_some() => Ok(self.endian_key(obj, f)),
            // Read from the bytes of a parameter: read again from them.
            Role::View
                if self.m.param_stream(obj.ty, f).is_some()
                    || self.m.slot_stream(obj.ty, f).is_some() =>
            {
                self.guarded(obj, i, || self.read_instance(obj, i, f))
            }
            Role::View => Err(Error::new(format!(
                "'{}' is only read (the model does not hold it), so the writer cannot use it",
                f.name
            ))),
            _ => Err(Error::new(format!(
                "the interpreter cannot derive '{}' yet",
                f.name
            ))),
        }
    }

    /// Where `f` is the bare name a type's byte order is switched on: the key of the case of `obj`'s byte order.
    fn endian_key(&self, obj: &Rc<Obj>, f: &Field) -> Option<V> {
        let binspec_codegen::ir::EndianSpec::Switch { on, cases } = &self.m.types[obj.ty].endian
        else {
            return None;
        };
        if binspec_codegen::ir::bare_name(&on.expr) != Some(f.name.as_str()) {
            return None;
        }
        let want = match obj.endian.get() {
            Endian::Little => binspec_codegen::ir::Endian::Le,
            Endian::Big => binspec_codegen::ir::Endian::Be,
        };
        let (k, _) = cases.iter().find(|(k, e)| *e == want && k.text != "_")?;
        self.eval(&k.expr, &Env::of(obj)).ok()
    }

    /// The value of field `i` for which `e` (linear in it) is `target`.
    fn solve(&self, obj: &Rc<Obj>, i: usize, e: &Expr, target: i128) -> Result<i128> {
        match self.linear_solution(obj, obj, i, e, target)? {
            Some(x) => Ok(x),
            None if self.lenient.get() => Ok(0),
            None => Err(Error::new(format!(
                "no value of '{}' gives {target}",
                self.def(obj.ty, i).name
            ))),
        }
    }

    /// The value of field `i` of `o` for which `e` (linear in it, evaluated in `env`'s scope) is `target`, where
    /// one exists.
    pub fn linear_solution(
        &self,
        env: &Rc<Obj>,
        o: &Rc<Obj>,
        i: usize,
        e: &Expr,
        target: i128,
    ) -> Result<Option<i128>> {
        let at = |x: i128| -> Result<i128> {
            o.set(i, Some(V::Int(x)));
            let r = self.eval_int(e, &Env::of(env));
            o.set(i, None);
            r
        };
        let a = at(0)?;
        let slope = at(1)? - a;
        Ok((slope != 0 && (target - a) % slope == 0).then(|| (target - a) / slope))
    }

    /// The stream pool item or placed instance `f` of `obj` is read from: the one its `io` names, or its holder's.
    pub fn item_stream(&self, obj: &Rc<Obj>, f: &Field) -> Result<u64> {
        Ok(match f.io().map(|x| self.eval(&x.expr, &Env::of(obj))) {
            Some(Ok(V::Io(s))) => s.id,
            Some(Ok(o)) => return Err(Error::new(format!("'io' is {}, not a stream", o.kind()))),
            Some(Err(e)) => return Err(e),
            None => obj.io.borrow().id,
        })
    }
}

fn mask(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}
