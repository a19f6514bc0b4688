//! Reading: a type's `seq` in order, its instances when first named, each field's value by its type, and the
//! checks the generated reader makes (`contents`, `valid`, counts the input can hold).

use std::rc::Rc;

use binspec_codegen::ir::{EndianSpec, Field, FieldTy, Process, Repeat, Role, Valid};
use binspec_runtime::{Endian, Reader};

use crate::error::{Error, Result};
use crate::eval::Env;
use crate::run::Run;
use crate::value::{Obj, Stream, V};

/// A reader over a stream, whose offsets are the file's.
pub fn reader_of(s: &Stream) -> Reader<'_> {
    if s.abs == 0 && s.start == 0 && s.end == s.data.len() {
        Reader::new(s.bytes())
    } else {
        Reader::new(&[]).over(s.bytes(), s.abs)
    }
}

fn endian_of(e: binspec_codegen::ir::Endian) -> Endian {
    match e {
        binspec_codegen::ir::Endian::Le => Endian::Little,
        binspec_codegen::ir::Endian::Be => Endian::Big,
    }
}

impl Run<'_> {
    /// Reads type `ti` from `r` (whose stream is `io`), for `reader` (its `parent` unless `parent:` says otherwise).
    #[allow(clippy::too_many_arguments)]
    pub fn read_type(
        &self,
        ti: usize,
        params: Vec<V>,
        parent: Option<&Rc<Obj>>,
        reader: Option<&Rc<Obj>>,
        io: Rc<Stream>,
        r: &mut Reader<'_>,
        endian: Endian,
    ) -> Result<Rc<Obj>> {
        let t = &self.m.types[ti];
        self.count_value()?;
        let obj = Obj::new(
            ti,
            self.n_fields(ti),
            params,
            parent,
            reader,
            io.clone(),
            endian,
        );
        let start = r.pos() as u64;
        obj.start.set(start);
        self.chain_note(&obj);
        self.nested(|| -> Result<()> {
            let e = match &t.endian {
                EndianSpec::Inherit => endian,
                EndianSpec::Fixed(e) => endian_of(*e),
                EndianSpec::Switch { on, cases } => {
                    let env = Env::of(&obj);
                    let v = self
                        .eval(&on.expr, &env)
                        .map_err(|e| e.in_schema(&t.file, on.pos, &on.path))?;
                    let mut found = None;
                    for (k, e) in cases {
                        let default = matches!(&k.expr.kind, binspec_codegen::expr::ExprKind::Name(n) if n == "_");
                        if default || self.eval(&k.expr, &env)?.same(&v) {
                            found = Some(endian_of(*e));
                            break;
                        }
                    }
                    found.ok_or_else(|| {
                        Error::at(
                            io.abs + start,
                            format!("no byte order for '{}' = {v:?}", on.text),
                        )
                        .in_schema(&t.file, on.pos, &on.path)
                    })?
                }
            };
            obj.endian.set(e);
            let n_seq = t.seq.len();
            for i in 0..n_seq {
                let f = &t.seq[i];
                obj.cur_pos.set(r.pos() as u64);
                self.read_attr(&obj, i, r).map_err(|e| {
                    let e = if e.offset.is_none() {
                        Error {
                            offset: Some(r.abs_pos()),
                            ..e
                        }
                    } else {
                        e
                    };
                    e.in_schema(&t.file, f.pos, &f.path).in_field(&f.name)
                })?;
            }
            obj.end.set(r.pos() as u64);
            obj.cur_pos.set(r.pos() as u64);
            // Pool items are read with their record, in their order, as the generated reader reads them: the
            // pools' bookkeeping counts them in that order. (Other instances are read when first named, as
            // Kaitai reads them: one may name elements of a repetition read after it.)
            obj.eager.set(true);
            for i in n_seq..self.n_fields(ti) {
                let f = self.def(ti, i);
                if f.role == Role::Data && f.item_of.is_some() {
                    self.read_field_of(&obj, i)?;
                }
            }
            self.cut_tail(&obj, ti);
            self.judge_members(&obj);
            self.settle_given(&obj);
            self.keep_counts_of_absent(&obj)?;
            Ok(())
        })?;
        Ok(obj)
    }

    /// The bytes of the root's tail region after the last item of its pool (`<region>_trailing`), once every
    /// item is read: the root's own items of the region (BNTX's relocation table) are read after the region.
    fn cut_tail(&self, obj: &Rc<Obj>, ti: usize) {
        let (Some((region_at, region)), Some(f)) = (obj.tail.take(), self.m.tail_region(ti)) else {
            return;
        };
        let Role::Pool(u) = &f.role else { return };
        *obj.trailing.borrow_mut() = (self.pools.borrow())
            .trailing(u.pool, region_at, &region)
            .map(Rc::from);
    }

    /// A count whose repetitions may all be absent (`binspec_codegen::ir::count_kept_where_absent`): where all
    /// are (their conditions do not hold), a nonzero value is kept as the model's override, or it would be lost.
    fn keep_counts_of_absent(&self, obj: &Rc<Obj>) -> Result<()> {
        let t = &self.m.types[obj.ty];
        for (i, f) in t.seq.iter().enumerate() {
            let Some(reps) = binspec_codegen::ir::count_kept_where_absent(t, f) else {
                continue;
            };
            let mut all_absent = true;
            for r in reps {
                if let Some(c) = &r.cond {
                    if self.eval_bool(&c.expr, &Env::of(obj))? {
                        all_absent = false;
                    }
                }
            }
            if let (true, Some(V::Int(v))) = (all_absent, obj.get(i)) {
                if v != 0 {
                    obj.overrides.borrow_mut()[i] = Some(V::Int(v));
                }
            }
        }
        Ok(())
    }

    fn env_at<'e>(obj: &'e Rc<Obj>, r: &Reader<'_>, index: Option<usize>) -> Env<'e> {
        Env {
            obj,
            this: None,
            index,
            io_pos: Some(r.pos() as u64),
            eof: Some(r.is_eof()),
        }
    }

    /// Reads `seq` attribute `i` of `obj` where `r` is.
    fn read_attr(&self, obj: &Rc<Obj>, i: usize, r: &mut Reader<'_>) -> Result<()> {
        let f = self.def(obj.ty, i);
        if let Some(c) = &f.cond {
            if !self.eval_bool(&c.expr, &Self::env_at(obj, r, None))? {
                obj.set(i, None);
                return Ok(());
            }
        }
        let start = r.pos() as u64;
        let io = obj.io.borrow().clone();
        let region = self.enter_region(obj, f, r);
        if let Some(rs) = region {
            obj.region_starts.borrow_mut().push((i, rs));
        }
        let ptr_at = r.abs_pos();
        let mut v = self.read_repeated(obj, i, f, &io, r)?;
        if let Some(rs) = region {
            self.leave_region(obj, i, f, &mut v, start, rs, r)?;
        }
        self.note_pointer_read(f, ptr_at, &v);
        if f.resdic.is_some() {
            self.read_dic(f, &v)?;
        }
        self.note_table_read(obj, i, f, &v)?;
        if let (Some(key), V::Arr(xs)) = (&f.sort_by, &v) {
            // The model holds the elements in key order (the writer's), whatever order the file has them in.
            let order = self.sort_order(xs, key)?;
            if order.iter().enumerate().any(|(j, &k)| j != k) {
                v = V::Arr(Rc::new(order.iter().map(|&k| xs[k].clone()).collect()));
            }
        }
        obj.spans.borrow_mut()[i] = Some((start, r.pos() as u64));
        if f.role == Role::Given {
            // (The model keeps it only where the holder says so: `settle_given`.)
            obj.overrides.borrow_mut()[i] = Some(v.clone());
        }
        obj.set(i, Some(v));
        Ok(())
    }

    /// Where a pool's region starts (after the alignment read off where its items or the region lie), noted in
    /// the pools' bookkeeping; with its layout choice.
    fn enter_region(&self, obj: &Rc<Obj>, f: &Field, r: &Reader<'_>) -> Option<u64> {
        let Role::Pool(u) = &f.role else {
            return None;
        };
        let start = r.abs_pos();
        let mut pools = self.pools.borrow_mut();
        let rs = match &u.align_field {
            Some(name) => {
                let a = pools.region_align(start, start, u.pool);
                obj.layout.borrow_mut().push((name.clone(), i128::from(a)));
                binspec_runtime::align_up(start, a)
            }
            None => start,
        };
        pools.enter_region(u.pool, rs);
        Some(rs)
    }

    /// After a region: a region to the end of the stream ends where its items do (the reader goes back to its
    /// start), and the root's last one keeps the bytes after its last item.
    #[allow(clippy::too_many_arguments)]
    fn leave_region(
        &self,
        obj: &Rc<Obj>,
        i: usize,
        f: &Field,
        v: &mut V,
        start: u64,
        rs: u64,
        r: &mut Reader<'_>,
    ) -> Result<()> {
        let Role::Pool(u) = &f.role else {
            return Ok(());
        };
        if self.is_tail_region(obj.ty, i) {
            // (Cut once the root's own items are read: `cut_tail`.)
            if let V::Bytes(region) = v {
                let base = r.abs_pos() - r.pos() as u64;
                *obj.tail.borrow_mut() = Some((base + start, region.clone()));
            }
        }
        if self.m.dedup_records(u.pool).is_some() {
            // A pool of records: the model holds them as read.
        } else if self.m.pools[u.pool].dedup {
            // A string pool: the model holds its strings.
            if let V::Bytes(b) = v {
                let base = r.abs_pos() - r.pos() as u64;
                *v = self.read_pool_strings(u.pool, b, base + start)?;
            }
        } else if f.size_eos {
            let base = r.abs_pos() - r.pos() as u64;
            r.seek(rs - base)?;
        }
        Ok(())
    }

    /// Whether seq attribute `i` of type `ti` is a region to the end of the file whose bytes after its last item
    /// the model keeps (`emit_rust::layout::tail_region`).
    pub fn is_tail_region(&self, ti: usize, i: usize) -> bool {
        self.m.tail_region(ti).is_some() && i + 1 == self.m.types[ti].seq.len()
    }

    /// The elements' order by the key `-sort-by` gives each (stable: equal keys keep their order).
    pub fn sort_order(&self, xs: &[V], key: &binspec_codegen::ir::Ex) -> Result<Vec<usize>> {
        let mut keys = Vec::with_capacity(xs.len());
        for (k, x) in xs.iter().enumerate() {
            let V::Obj(o) = x else {
                return Err(Error::new("'-sort-by' on elements that are not records"));
            };
            keys.push(
                self.eval(&key.expr, &Env::of(o))
                    .map_err(|e| e.in_index(k))?,
            );
        }
        let mut order: Vec<usize> = (0..xs.len()).collect();
        let mut err = None;
        order.sort_by(|&a, &b| {
            let lt = |x: &V, y: &V| {
                matches!(
                    crate::eval::binary(binspec_codegen::expr::BinOp::Lt, x, y),
                    Ok(V::Bool(true))
                )
            };
            if err.is_none()
                && crate::eval::binary(binspec_codegen::expr::BinOp::Lt, &keys[a], &keys[b])
                    .is_err()
            {
                err = Some(Error::new(format!(
                    "sort keys {} and {} cannot be compared",
                    show(&keys[a]),
                    show(&keys[b])
                )));
            }
            if lt(&keys[a], &keys[b]) {
                std::cmp::Ordering::Less
            } else if lt(&keys[b], &keys[a]) {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        });
        match err {
            Some(e) => Err(e),
            None => Ok(order),
        }
    }

    fn read_repeated(
        &self,
        obj: &Rc<Obj>,
        i: usize,
        f: &Field,
        io: &Rc<Stream>,
        r: &mut Reader<'_>,
    ) -> Result<V> {
        let one = |r: &mut Reader<'_>, idx: Option<usize>| -> Result<V> {
            let v = self.read_one(obj, i, f, io, r, idx);
            match idx {
                Some(k) => v.map_err(|e| e.in_index(k)),
                None => v,
            }
        };
        Ok(match &f.repeat {
            Repeat::None => one(r, None)?,
            Repeat::Eos if f.scan.is_some() => {
                // `-scan`: the elements end where a tag is found; they are read from a substream of that length.
                let sc = f.scan.as_ref().expect("checked");
                let tags: Vec<&[u8]> = sc.tags.iter().map(Vec::as_slice).collect();
                let n = r.scan(&tags, sc.step as usize, sc.or_eos)?;
                let start = r.pos();
                let mut sub = r.substream(n)?;
                let sub_io = io.sub(start, start + n as usize);
                let scanned = Field {
                    scan: None,
                    ..f.clone()
                };
                return self.read_repeated(obj, i, &scanned, &sub_io, &mut sub);
            }
            Repeat::Eos => {
                arr_begin(obj, i, 0);
                while !r.is_eof() {
                    let before = r.pos();
                    let v = one(r, Some(arr_len(obj, i)))?;
                    self.count_value()?;
                    arr_push(obj, i, v);
                    if r.pos() == before && !matches!(f.ty, FieldTy::Bits { .. }) {
                        return Err(Error::at(
                            r.abs_pos(),
                            "'repeat: eos' read an element of no bytes",
                        ));
                    }
                    self.tick()?;
                }
                arr_take(obj, i)
            }
            Repeat::Expr(x) => {
                let n = self
                    .eval_int(&x.expr, &Self::env_at(obj, r, None))
                    .map_err(|e| e.in_schema(&self.m.types[obj.ty].file, x.pos, &x.path))?;
                if n < 0 {
                    return Err(Error::at(r.abs_pos(), format!("negative count {n}")));
                }
                let min = self.m.static_elem_size(f).unwrap_or(0).min(1);
                let cap = r.check_count(n as u64, min)?;
                arr_begin(obj, i, cap);
                // (The records a deduplicating pool lists: where two are the same, the writer points at the first.)
                let listed =
                    matches!(&f.role, Role::Pool(u) if self.m.dedup_records(u.pool).is_some());
                let mut spans = Vec::new();
                for k in 0..n as usize {
                    let s = r.abs_pos();
                    let v = one(r, Some(k))?;
                    if listed {
                        spans.push((s, r.abs_pos()));
                    }
                    self.count_value()?;
                    arr_push(obj, i, v);
                    if min == 0 {
                        self.tick()?;
                    }
                }
                if listed {
                    let root = self.root_bytes();
                    self.pools.borrow_mut().listed_records(root.bytes(), &spans);
                }
                arr_take(obj, i)
            }
            Repeat::Until(x) => {
                arr_begin(obj, i, 0);
                loop {
                    let k = arr_len(obj, i);
                    let v = one(r, Some(k))?;
                    let env = Env {
                        this: Some(&v),
                        index: Some(k),
                        ..Self::env_at(obj, r, None)
                    };
                    let stop = self.eval_bool(&x.expr, &env)?;
                    self.count_value()?;
                    arr_push(obj, i, v);
                    if stop {
                        break;
                    }
                    if r.is_eof() {
                        return Err(Error::at(
                            r.abs_pos(),
                            format!("the stream ended before 'repeat-until: {}' held", x.text),
                        ));
                    }
                }
                arr_take(obj, i)
            }
        })
    }

    /// One element of field `f` (field `i` of `obj`).
    fn read_one(
        &self,
        obj: &Rc<Obj>,
        i: usize,
        f: &Field,
        io: &Rc<Stream>,
        r: &mut Reader<'_>,
        idx: Option<usize>,
    ) -> Result<V> {
        if let Some(c) = &f.contents {
            r.expect(c)?;
            return Ok(V::Bytes(Rc::from(c.as_slice())));
        }
        let env = Self::env_at(obj, r, idx);
        let v = match &f.ty {
            FieldTy::Switch { on, cases } => {
                let key = self.eval(&on.expr, &env)?;
                let mut chosen = None;
                for c in cases {
                    match &c.key {
                        Some(k) => {
                            if self.eval(&k.expr, &env)?.same(&key) {
                                chosen = Some(c);
                                break;
                            }
                        }
                        None => {
                            chosen = Some(c);
                            break;
                        }
                    }
                }
                match chosen {
                    Some(c) => match (c.ty, &c.prim) {
                        (Some(ty), _) => {
                            let args = c
                                .args
                                .iter()
                                .map(|a| self.eval(&a.expr, &env))
                                .collect::<Result<Vec<_>>>()?;
                            self.read_user(obj, i, f, ty, args, io, r, idx)?
                        }
                        (None, Some(p)) => {
                            let pf = Field {
                                ty: p.clone(),
                                ..f.clone()
                            };
                            self.read_plain(obj, i, &pf, r, idx)?
                        }
                        (None, None) => self.read_raw(obj, i, f, r, idx)?,
                    },
                    None if f.size.is_some() || f.size_eos => self.read_raw(obj, i, f, r, idx)?,
                    None => {
                        return Err(Error::at(
                            r.abs_pos(),
                            format!("no case of the switch on '{}' matches {key:?}", on.text),
                        ))
                    }
                }
            }
            FieldTy::User { ty, args } => {
                let args = args
                    .iter()
                    .map(|a| self.eval(&a.expr, &env))
                    .collect::<Result<Vec<_>>>()?;
                self.read_user(obj, i, f, *ty, args, io, r, idx)?
            }
            _ => self.read_plain(obj, i, f, r, idx)?,
        };
        if let Some(valid) = &f.valid {
            // (The check may name the field itself: `valid: 'flag == 1 ? zlib : compression_method'`.)
            if idx.is_none() {
                obj.set(i, Some(v.clone()));
            }
            self.check_valid(obj, f, valid, &v, r.abs_pos())?;
        }
        Ok(v)
    }

    /// A switch's bytes as they are (its raw case).
    fn read_raw(
        &self,
        obj: &Rc<Obj>,
        i: usize,
        f: &Field,
        r: &mut Reader<'_>,
        idx: Option<usize>,
    ) -> Result<V> {
        let raw = Field {
            ty: FieldTy::Bytes,
            ..f.clone()
        };
        self.read_plain(obj, i, &raw, r, idx)
    }

    pub fn check_valid(
        &self,
        obj: &Rc<Obj>,
        f: &Field,
        valid: &Valid,
        v: &V,
        at: u64,
    ) -> Result<()> {
        let env = Env {
            this: Some(v),
            ..Env::of(obj)
        };
        let cmp = |x: &binspec_codegen::ir::Ex, op| -> Result<bool> {
            let w = self.eval(&x.expr, &env)?;
            Ok(matches!(crate::eval::binary(op, v, &w)?, V::Bool(true)))
        };
        use binspec_codegen::expr::BinOp;
        let ok = match valid {
            Valid::InEnum => match v {
                V::Enum(e, x) => self.m.enums[*e].values.iter().any(|(n, _, _)| n == x),
                _ => true,
            },
            Valid::Eq(x) => cmp(x, BinOp::Eq)?,
            Valid::Min(x) => cmp(x, BinOp::Ge)?,
            Valid::Max(x) => cmp(x, BinOp::Le)?,
            Valid::Range(a, b) => {
                a.as_ref().map_or(Ok(true), |a| cmp(a, BinOp::Ge))?
                    && b.as_ref().map_or(Ok(true), |b| cmp(b, BinOp::Le))?
            }
            Valid::AnyOf(xs) => {
                let mut any = false;
                for x in xs {
                    if cmp(x, BinOp::Eq)? {
                        any = true;
                        break;
                    }
                }
                any
            }
            Valid::Expr(x) => self.eval_bool(&x.expr, &env)?,
        };
        if ok {
            Ok(())
        } else {
            Err(Error::at(
                at,
                format!("value {} is not valid for '{}'", show(v), f.name),
            ))
        }
    }

    /// The bytes of a sized, terminated or processed field, cut to its content and processed; with the slot's
    /// filler (see `binspec_runtime::read::slot_filler`).
    fn read_blob(
        &self,
        obj: &Rc<Obj>,
        f: &Field,
        r: &mut Reader<'_>,
        idx: Option<usize>,
    ) -> Result<(Vec<u8>, Option<Vec<u8>>, u64)> {
        let env = Self::env_at(obj, r, idx);
        let at = r.abs_pos();
        let term = f.term_bytes();
        let (content, filler): (&[u8], Option<&[u8]>) = if let Some(sz) = &f.size {
            let n = self.eval_int(&sz.expr, &env)?;
            if n < 0 {
                return Err(Error::at(at, format!("negative size {n}")));
            }
            let slot = r.bytes(n as u64)?;
            self.cut_slot(f, slot, term.as_deref())
        } else if f.size_eos {
            let slot = r.bytes_eos()?;
            self.cut_slot(f, slot, term.as_deref())
        } else if let Some(t) = &term {
            let b = if t.len() == 1 {
                r.bytes_term(t[0], f.include, f.consume, f.eos_error)?
            } else {
                r.bytes_term_multi(t, f.include, f.consume, f.eos_error)?
            };
            (b, None)
        } else {
            return Err(Error::at(
                at,
                "a field of bytes needs 'size', 'size-eos' or a terminator",
            ));
        };
        let filler = filler.map(<[u8]>::to_vec);
        let data = match &f.process {
            None => content.to_vec(),
            Some(p) => self.unprocess(obj, p, content, at)?,
        };
        Ok((data, filler, at))
    }

    fn cut_slot<'b>(
        &self,
        f: &Field,
        slot: &'b [u8],
        term: Option<&[u8]>,
    ) -> (&'b [u8], Option<&'b [u8]>) {
        if f.pad_right.is_none() && term.is_none() {
            return (slot, None);
        }
        let content = binspec_runtime::read::slot_content(slot, f.pad_right, term, f.include);
        let (append, fill) = f.slot_writing();
        let fill = if f.size_eos && f.size.is_none() {
            None
        } else {
            Some(fill)
        };
        let filler =
            binspec_runtime::read::slot_filler(slot, f.pad_right, term, f.include, &append, fill);
        (content, filler)
    }

    fn unprocess(&self, obj: &Rc<Obj>, p: &Process, b: &[u8], at: u64) -> Result<Vec<u8>> {
        let env = Env::of(obj);
        Ok(match p {
            Process::Xor(k) => match self.eval(&k.expr, &env)? {
                V::Bytes(key) => binspec_runtime::process::xor(b, &key),
                v => binspec_runtime::process::xor(b, &[v.int().unwrap_or(0) as u8]),
            },
            Process::Rol(n) => binspec_runtime::process::rol(b, self.eval_int(&n.expr, &env)?),
            Process::Ror(n) => binspec_runtime::process::rol(b, -self.eval_int(&n.expr, &env)?),
            Process::Zlib => binspec_runtime::process::unzlib(b, at, 512 << 20)?,
            Process::Custom { path, .. } => {
                return Err(Error::at(
                    at,
                    format!(
                        "the custom process '{}' is a hand-written hook: generate the crate for it",
                        path.join(".")
                    ),
                ))
            }
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn read_user(
        &self,
        obj: &Rc<Obj>,
        i: usize,
        f: &Field,
        ty: usize,
        args: Vec<V>,
        io: &Rc<Stream>,
        r: &mut Reader<'_>,
        idx: Option<usize>,
    ) -> Result<V> {
        let e = obj.endian.get();
        if !f.is_blob() {
            return Ok(V::Obj(self.read_type(
                ty,
                args,
                self.parent_for(obj, f).as_ref(),
                Some(obj),
                io.clone(),
                r,
                e,
            )?));
        }
        let start = r.pos();
        let (data, filler, at) = self.read_blob(obj, f, r, idx)?;
        if idx.is_none() {
            obj.fillers.borrow_mut()[i] = filler.map(Rc::from);
        }
        let parent_io = io;
        let sub = if f.process.is_none()
            && parent_io.bytes().get(start..start + data.len()) == Some(&data[..])
        {
            parent_io.sub(start, start + data.len())
        } else {
            Rc::new(Stream {
                end: data.len(),
                data: Rc::new(data),
                start: 0,
                abs: at,
                id: crate::value::new_id(),
            })
        };
        let mut sr = reader_of(&sub);
        let v = self.read_type(
            ty,
            args,
            self.parent_for(obj, f).as_ref(),
            Some(obj),
            sub.clone(),
            &mut sr,
            e,
        )?;
        // A record in a slot of a given size keeps the slot's bytes after what it read (see `Field::keeps_unread`).
        if f.keeps_unread() && idx.is_none() {
            obj.fillers.borrow_mut()[i] =
                binspec_runtime::read::unread_tail(sub.bytes(), sr.pos(), f.size_derived)
                    .map(Rc::from);
        }
        Ok(V::Obj(v))
    }

    /// A value of a built-in type.
    fn read_plain(
        &self,
        obj: &Rc<Obj>,
        i: usize,
        f: &Field,
        r: &mut Reader<'_>,
        idx: Option<usize>,
    ) -> Result<V> {
        let e = obj.endian.get();
        let en = |v: i128| match f.enum_ {
            Some(x) => V::Enum(x, v),
            None => V::Int(v),
        };
        Ok(match &f.ty {
            FieldTy::Int {
                bytes,
                signed,
                endian,
            } => {
                let e = endian.map(endian_of).unwrap_or(e);
                let n = *bytes as usize;
                let u = r.uint_n(n, e)?;
                let v = if *signed && n < 16 {
                    let shift = 128 - 8 * n as u32;
                    ((u as i128) << shift) >> shift
                } else {
                    u as i128
                };
                en(v)
            }
            FieldTy::Float { bytes, endian } => {
                let e = endian.map(endian_of).unwrap_or(e);
                let u = r.uint_n(*bytes as usize, e)?;
                V::Float(if *bytes == 4 {
                    f32::from_bits(u as u32) as f64
                } else {
                    f64::from_bits(u)
                })
            }
            FieldTy::Bits { n, le } => {
                let v = if *le {
                    r.bits_le(u32::from(*n))?
                } else {
                    r.bits_be(u32::from(*n))?
                };
                if *n == 1 && f.enum_.is_none() {
                    V::Bool(v != 0)
                } else {
                    en(i128::from(v))
                }
            }
            FieldTy::Bytes | FieldTy::Str { .. } => {
                let (data, filler, at) = self.read_blob(obj, f, r, idx)?;
                if idx.is_none() {
                    obj.fillers.borrow_mut()[i] = filler.map(Rc::from);
                }
                match &f.ty {
                    FieldTy::Str { encoding, .. } => V::Str(Rc::from(
                        binspec_runtime::text::decode_as(&data, encoding, at)?,
                    )),
                    _ => V::Bytes(Rc::from(data)),
                }
            }
            FieldTy::User { .. } | FieldTy::Switch { .. } | FieldTy::Value => {
                return Err(Error::new("internal: not a built-in type"))
            }
        })
    }

    /// Field `i` of `obj` while reading: a seq attribute as read, an instance read or computed on first use.
    pub fn read_field_of(&self, obj: &Rc<Obj>, i: usize) -> Result<Option<V>> {
        let t = &self.m.types[obj.ty];
        if i < t.seq.len() {
            return Ok(obj.get(i));
        }
        if let Some(v) = obj.get(i) {
            return Ok(Some(v));
        }
        let f = self.def(obj.ty, i);
        // A pool item named before its record reads its items (a section's offsets, named from the records read
        // before it): read apart, noting nothing in the pools' bookkeeping, and read again in its turn, as the
        // generated reader reads such a field from the file where the item's `pos` says.
        let early = self.mode == crate::Mode::Read && f.item_of.is_some() && !obj.eager.get();
        if early {
            if let Some(v) = obj.early.borrow().get(&i) {
                return Ok(Some(v.clone()));
            }
        }
        let saved = early.then(|| self.pools.borrow().clone());
        let v = self
            .guarded(obj, i, || self.read_instance(obj, i, f))
            .map_err(|e| e.in_schema(&t.file, f.pos, &f.path).in_field(&f.name));
        if let Some(saved) = saved {
            *self.pools.borrow_mut() = saved;
            obj.aligns.borrow_mut()[i] = None;
            obj.keep.borrow_mut()[i] = false;
            // (Kept apart for the next early use: reading it again would give the same.)
            if let Ok(Some(x)) = &v {
                obj.early.borrow_mut().insert(i, x.clone());
            }
            return v;
        }
        let v = v?;
        obj.set(i, v.clone());
        Ok(v)
    }

    /// The stream of an instance read from the bytes of a parameter (`io: p._io`, see
    /// [`binspec_codegen::ir::Module::param_stream`]): those bytes, at offset 0, when reading and when writing
    /// (the model does not hold the instance; the writer reads it again from the parameter).
    fn param_stream(&self, obj: &Rc<Obj>, f: &Field) -> Result<Option<Rc<Stream>>> {
        let Some((p, _)) = self.m.param_stream(obj.ty, f) else {
            return Ok(None);
        };
        let t = &self.m.types[obj.ty];
        let k = t.params.iter().position(|q| q.name == p.name);
        let v = k.and_then(|k| obj.params.borrow().get(k).cloned());
        // (The bytes are the parameter's type's only field.)
        match v {
            Some(V::Obj(o)) => match o.get(0) {
                Some(V::Bytes(b)) => Ok(Some(Stream::whole(Rc::new(b.to_vec())))),
                _ => Err(Error::new(format!("parameter '{}' holds no bytes", p.name))),
            },
            _ => Err(Error::new(format!(
                "parameter '{}' is not a record",
                p.name
            ))),
        }
    }

    /// While writing, the stream of an instance read from the slot of a record that reads nothing (see
    /// [`binspec_codegen::ir::Module::slot_stream`]): the slot's bytes the model keeps (its filler), or zeros of
    /// its size. (While reading, the slot's own stream is at hand.)
    fn kept_slot(&self, obj: &Rc<Obj>, f: &Field) -> Result<Option<Rc<Stream>>> {
        let (Some((up, holder, sf)), crate::run::Mode::Write) =
            (self.m.slot_stream(obj.ty, f), self.mode)
        else {
            return Ok(None);
        };
        let h = if up { obj.parent() } else { Some(obj.clone()) };
        let Some(h) = h.filter(|h| h.ty == holder) else {
            return Err(Error::new(format!(
                "'{}' is read from the slot of '{}', whose record is not known here",
                f.name, sf.name
            )));
        };
        let k = self.m.types[holder]
            .seq
            .iter()
            .position(|x| x.name == sf.name)
            .ok_or_else(|| Error::new("internal: no slot field"))?;
        let kept = h.fillers.borrow()[k].clone();
        let bytes = match kept {
            Some(b) => b.to_vec(),
            None => {
                let size = sf
                    .size
                    .as_ref()
                    .ok_or_else(|| Error::new("internal: no slot size"))?;
                let n = self.eval_int(&size.expr, &Env::of(&h))?;
                binspec_runtime::read::kept_slot(None, n)
                    .map_err(|e| Error::new(e.to_string()))?
                    .into_owned()
            }
        };
        Ok(Some(Stream::whole(Rc::new(bytes))))
    }

    pub(crate) fn read_instance(&self, obj: &Rc<Obj>, i: usize, f: &Field) -> Result<Option<V>> {
        let env = Env::of(obj);
        if let Some(c) = &f.cond {
            if !self.eval_bool(&c.expr, &env)? {
                return Ok(None);
            }
        }
        if let Some(h) = &f.hook {
            let Some((_, hook)) = self.hooks.iter().find(|(n, _)| n == h) else {
                return Err(Error::new(format!(
                    "'-hook: {h}' is a hand-written function the interpreter was not given"
                )));
            };
            return Ok(Some(V::Int(hook(obj.io.borrow().bytes()))));
        }
        if let Some(x) = f.value() {
            let v = self.eval(&x.expr, &env)?;
            return Ok(Some(match (f.enum_, v) {
                (Some(e), V::Int(x)) => V::Enum(e, x),
                (_, v) => v,
            }));
        }
        let io = match f.io() {
            Some(_) if let Some(s) = self.param_stream(obj, f)? => s,
            Some(_) if let Some(s) = self.kept_slot(obj, f)? => s,
            Some(x) => match self.eval(&x.expr, &env)? {
                V::Io(s) => s,
                v => return Err(Error::new(format!("'io' is {}, not a stream", v.kind()))),
            },
            None => obj.io.borrow().clone(),
        };
        let mut r = reader_of(&io);
        let pos = match f.pos_expr() {
            Some(p) => self.eval_int(&p.expr, &env)?,
            None => i128::from(obj.cur_pos.get()),
        };
        let pos = u64::try_from(pos).map_err(|_| Error::new(format!("negative position {pos}")))?;
        r.seek(pos)?;
        // (Where it starts, for what its own arguments name of it: `x._pos`.)
        obj.spans.borrow_mut()[i] = Some((pos, pos));
        self.chain_end_at(f, io.abs + pos);
        let v = self.read_repeated(obj, i, f, &io, &mut r)?;
        obj.spans.borrow_mut()[i] = Some((pos, r.pos() as u64));
        self.note_table_read(obj, i, f, &v)?;
        if let Some(p) = f.item_of.filter(|&p| !self.m.pools[p].dedup) {
            // A record that holds regions of its own ends where their items end (the writer writes them inside
            // it), not where its fields do (`emit_rust::read::item_end`).
            let end = io.abs + r.pos() as u64;
            let end = match &f.ty {
                FieldTy::User { ty, .. } => {
                    let own: Vec<usize> = (self.m.types[*ty].seq.iter())
                        .filter_map(|x| match &x.role {
                            Role::Pool(u) => Some(u.pool),
                            _ => None,
                        })
                        .collect();
                    self.pools.borrow().extent(end, &own)
                }
                _ => end,
            };
            let (start, len) = (io.abs + pos, end - (io.abs + pos));
            self.note_item(obj, i, f, p, (start, len));
        }
        Ok(Some(v))
    }
}

impl Run<'_> {
    /// Whether pool item `f` can be empty, and its position is then kept where it points elsewhere
    /// (`emit_rust::layout::keeps_empty_position`): not a section, which is written where the region is.
    pub fn keeps_empty_position(&self, ty: usize, f: &Field) -> bool {
        f.item_of.is_some_and(|p| !self.m.pools[p].dedup)
            && (f.repeat != Repeat::None || f.size.is_some())
            && !self.is_section(ty, f)
    }
}

/// A repetition being read is visible to what its elements name (`constant_pool[_index - 1]`): it is built in
/// its field's slot.
fn arr_begin(obj: &Obj, i: usize, cap: usize) {
    obj.set(i, Some(V::Arr(Rc::new(Vec::with_capacity(cap)))));
}

fn arr_push(obj: &Obj, i: usize, v: V) {
    if let Some(Some(V::Arr(a))) = obj.vals.borrow_mut().get_mut(i) {
        Rc::make_mut(a).push(v);
    }
}

fn arr_len(obj: &Obj, i: usize) -> usize {
    match obj.vals.borrow().get(i) {
        Some(Some(V::Arr(a))) => a.len(),
        _ => 0,
    }
}

fn arr_take(obj: &Obj, i: usize) -> V {
    obj.vals
        .borrow_mut()
        .get_mut(i)
        .and_then(Option::take)
        .unwrap_or_else(|| V::Arr(Rc::new(Vec::new())))
}

/// A value for a message.
pub fn show(v: &V) -> String {
    match v {
        V::Int(i) | V::Enum(_, i) => i.to_string(),
        V::Float(f) => f.to_string(),
        V::Bool(b) => b.to_string(),
        V::Str(s) => format!("{s:?}"),
        V::Bytes(b) => format!("{b:02x?}"),
        o => o.kind().to_string(),
    }
}
