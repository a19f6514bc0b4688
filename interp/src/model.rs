//! The model, as the generated code's serde derives print it: an object read from a file as a document
//! ([`Run::export`]), and a document as an object to write ([`Run::import`]). Which fields a document holds follows
//! `binspec_codegen::emit_rust::models`: data and placed instances; `-derive`d values only where the file disagrees;
//! `-data` value instances where they are not their default; a sized slot's filler; the byte order where a type
//! reads it; layout choices.

use std::rc::Rc;

use base64::Engine;
use binspec_codegen::ir::{EndianSpec, Field, FieldTy, Repeat, Role};
use binspec_runtime::Endian;

use crate::doc::{snake_case, Doc};
use crate::error::{Error, Result};
use crate::eval::Env;
use crate::run::Run;
use crate::sections::{Extra, ExtraKind};
use crate::value::{Obj, Stream, V};

fn b64(b: &[u8]) -> Doc {
    Doc::Str(base64::engine::general_purpose::STANDARD.encode(b))
}

fn unb64(d: &Doc) -> Result<Vec<u8>> {
    match d {
        Doc::Str(s) => {
            let s: String = s.split_whitespace().collect();
            base64::engine::general_purpose::STANDARD
                .decode(s.as_bytes())
                .map_err(|e| Error::new(format!("invalid base64: {e}")))
        }
        o => Err(Error::new(format!(
            "expected base64 bytes, found {}",
            o.kind()
        ))),
    }
}

/// An alignment a document gives (`key`): a power of two.
fn doc_align(d: &Doc, key: &str) -> Result<u64> {
    match d {
        Doc::Int(a) => u64::try_from(*a).ok().filter(|a| a.is_power_of_two()),
        _ => None,
    }
    .ok_or_else(|| Error::new(format!("expected a power of two, found {d:?}")).in_field(key))
}

/// A list of strings a document gives (`key`).
fn doc_strings(d: &Doc, key: &str) -> Result<Vec<String>> {
    let Doc::List(xs) = d else {
        return Err(
            Error::new(format!("expected a list of strings, found {}", d.kind())).in_field(key),
        );
    };
    xs.iter()
        .enumerate()
        .map(|(k, x)| match x {
            Doc::Str(s) => Ok(s.clone()),
            o => Err(Error::new(format!("expected a string, found {}", o.kind()))
                .in_index(k)
                .in_field(key)),
        })
        .collect()
}

/// What the generated model keeps of a field (see `emit_rust::models`).
pub fn in_model(f: &Field) -> bool {
    matches!(
        f.role,
        Role::Data | Role::Placed | Role::Derive(_) | Role::Kept
    )
}

impl Run<'_> {
    pub fn export(&self, obj: &Rc<Obj>) -> Result<Doc> {
        self.nested(|| self.export_inner(obj))
    }

    fn export_inner(&self, obj: &Rc<Obj>) -> Result<Doc> {
        let t = &self.m.types[obj.ty];
        let mut out = Vec::new();
        if matches!(t.endian, EndianSpec::Switch { .. }) {
            let e = match obj.endian.get() {
                Endian::Little => "little",
                Endian::Big => "big",
            };
            out.push(("endian".to_string(), Doc::Str(e.into())));
        }
        for i in 0..self.n_fields(obj.ty) {
            let f = self.def(obj.ty, i);
            let ctx = |e: Error| e.in_schema(&t.file, f.pos, &f.path).in_field(&f.name);
            match &f.role {
                Role::Data | Role::Placed => {
                    // (An instance read now names itself already.)
                    let read_here = i >= t.seq.len() && self.mode == crate::Mode::Read;
                    let v = self
                        .field(obj, i)
                        .map_err(|e| if read_here { e } else { ctx(e) })?;
                    match v {
                        // A relocation table the writer derives as the file has it.
                        Some(_) if obj.omitted.borrow()[i] => {}
                        Some(v) => {
                            out.push((f.name.clone(), self.value_doc(obj, f, &v).map_err(ctx)?))
                        }
                        None if f.cond.is_some() => {}
                        None => return Err(ctx(Error::new("a field of the model is absent"))),
                    }
                    if f.has_filler() {
                        if let Some(fl) = obj.fillers.borrow()[i].clone() {
                            out.push((format!("{}_filler", f.name), b64(&fl)));
                        }
                    }
                    if f.item_of.is_some_and(|p| !self.m.pools[p].dedup) {
                        if let Some(a) = obj.aligns.borrow()[i] {
                            out.push((format!("{}_align", f.name), Doc::Int(i128::from(a))));
                        }
                    }
                }
                Role::Offset { of }
                    if (self.keeps_empty_position(obj.ty, t.field(*of))
                        && obj.keep.borrow()[of.0])
                        || self.absent_offset_kept(obj, i, f, *of) =>
                {
                    if let Some(v) = obj.get(i) {
                        out.push((f.name.clone(), self.prim_doc(f, &f.ty, &v)?));
                    }
                }
                // A count of repetitions that may all be absent: where they are, its nonzero value.
                Role::Count { .. }
                    if binspec_codegen::ir::count_kept_where_absent(t, f).is_some() =>
                {
                    if let Some(v) = obj.overrides.borrow()[i].clone() {
                        out.push((f.name.clone(), self.prim_doc(f, &f.ty, &v)?));
                    }
                }
                Role::Derive(x) => {
                    let Some(v) = self.field(obj, i).map_err(ctx)? else {
                        continue;
                    };
                    let d = self
                        .eval(&x.expr, &Env::of(obj))
                        .map_err(|e| ctx(e.in_schema(&t.file, x.pos, &x.path)))?;
                    if !d.same(&v) {
                        out.push((f.name.clone(), self.value_doc(obj, f, &v).map_err(ctx)?));
                    }
                }
                // A pool of records: the records the file held, where there are any.
                Role::Pool(u) if self.m.dedup_records(u.pool).is_some() => {
                    if let Some(v) = obj.get(i) {
                        if matches!(&v, V::Arr(xs) if !xs.is_empty()) {
                            out.push((f.name.clone(), self.value_doc(obj, f, &v).map_err(ctx)?));
                        }
                    }
                }
                // A string pool: the strings the file held, where there are any.
                Role::Pool(u) if self.m.pools[u.pool].dedup => {
                    if let Some(V::Arr(xs)) = obj.get(i) {
                        if !xs.is_empty() {
                            let names = xs
                                .iter()
                                .map(|x| match x {
                                    V::Str(s) => Doc::Str(s.to_string()),
                                    _ => Doc::Null,
                                })
                                .collect();
                            out.push((f.name.clone(), Doc::List(names)));
                        }
                    }
                }
                // Given by the holder: only an override.
                Role::Given => {
                    if let Some(v) = obj.overrides.borrow()[i].clone() {
                        out.push((f.name.clone(), self.prim_doc(f, &f.ty, &v)?));
                    }
                }
                Role::Kept => {
                    let Some(v) = self.field(obj, i).map_err(ctx)? else {
                        continue;
                    };
                    let dv = match &f.default {
                        Some(d) => self.eval(&d.expr, &Env::of(obj)).map_err(ctx)?,
                        None => V::Int(0),
                    };
                    if !v.same(&dv) {
                        out.push((f.name.clone(), self.prim_doc(f, &f.ty, &v)?));
                    }
                }
                _ => {}
            }
        }
        if let Some(tail) = (0..t.seq.len()).find(|&i| self.is_tail_region(obj.ty, i)) {
            if let Some(b) = obj.trailing.borrow().as_ref() {
                out.push((format!("{}_trailing", t.seq[tail].name), b64(b)));
            }
        }
        for l in &t.layout {
            let v = obj
                .layout
                .borrow()
                .iter()
                .find(|(n, _)| *n == l.name)
                .map_or(l.default, |(_, v)| *v);
            out.push((l.name.clone(), Doc::Int(v)));
        }
        for (name, x) in obj.extras.borrow().iter() {
            out.push((
                name.clone(),
                match x {
                    Extra::Bytes(b) => b64(b),
                    Extra::Names(n) => Doc::List(n.iter().map(|s| Doc::Str(s.clone())).collect()),
                    Extra::Align(a) => Doc::Int(i128::from(*a)),
                    Extra::Indices(o) => {
                        Doc::List(o.iter().map(|k| Doc::Int(i128::from(*k))).collect())
                    }
                },
            ));
        }
        Ok(Doc::Map(out))
    }

    fn value_doc(&self, obj: &Rc<Obj>, f: &Field, v: &V) -> Result<Doc> {
        if f.repeat != Repeat::None {
            let V::Arr(xs) = v else {
                return Err(Error::new(format!("expected an array, found {}", v.kind())));
            };
            return xs
                .iter()
                .enumerate()
                .map(|(k, x)| self.elem_doc(obj, f, x, Some(k)).map_err(|e| e.in_index(k)))
                .collect::<Result<Vec<_>>>()
                .map(Doc::List);
        }
        self.elem_doc(obj, f, v, None)
    }

    fn elem_doc(&self, obj: &Rc<Obj>, f: &Field, v: &V, index: Option<usize>) -> Result<Doc> {
        match &f.ty {
            FieldTy::Switch { on, cases } => {
                let env = Env {
                    index,
                    ..Env::of(obj)
                };
                let key = self.eval(&on.expr, &env)?;
                let mut chosen = None;
                for c in cases {
                    let hit = match &c.key {
                        Some(k) => self.eval(&k.expr, &env)?.same(&key),
                        None => true,
                    };
                    if hit {
                        chosen = Some(c);
                        break;
                    }
                }
                let c = chosen.ok_or_else(|| Error::new("no case of the switch matches"))?;
                let inner = match (&c.prim, v) {
                    (_, V::Obj(o)) => self.export(o)?,
                    (Some(p), v) => self.prim_doc(f, p, v)?,
                    (None, v) => self.prim_doc(f, &FieldTy::Bytes, v)?,
                };
                Ok(Doc::Map(vec![(snake_case(&c.variant), inner)]))
            }
            _ => match v {
                V::Obj(o) => self.export(o),
                v => self.prim_doc(f, &f.ty, v),
            },
        }
    }

    fn prim_doc(&self, f: &Field, ty: &FieldTy, v: &V) -> Result<Doc> {
        Ok(match (ty, v) {
            (_, V::Enum(e, x)) => match self.m.enums[*e].values.iter().find(|(n, _, _)| n == x) {
                Some((_, name, _)) => Doc::Str(name.clone()),
                None => Doc::Int(*x),
            },
            (FieldTy::Float { bytes: 4, .. }, V::Float(x)) => Doc::F32(*x as f32),
            (_, V::Float(x)) => Doc::F64(*x),
            (_, V::Int(x)) => Doc::Int(*x),
            (_, V::Bool(b)) => Doc::Bool(*b),
            (_, V::Str(s)) => Doc::Str(s.to_string()),
            (FieldTy::Bytes, V::Bytes(b)) if f.repeat != Repeat::None && f.ty == FieldTy::Bytes => {
                // (A list of byte strings has no serde attribute: each is a list of integers.)
                Doc::List(b.iter().map(|x| Doc::Int(i128::from(*x))).collect())
            }
            (_, V::Bytes(b)) => b64(b),
            (_, o) => {
                return Err(Error::new(format!(
                    "'{}' holds {}, which a document cannot",
                    f.name,
                    o.kind()
                )))
            }
        })
    }

    /// A document as an object of type `ti` to write (the stream is a placeholder until the writer places it).
    #[allow(clippy::too_many_arguments)]
    pub fn import(
        &self,
        ti: usize,
        d: &Doc,
        params: Vec<V>,
        parent: Option<&Rc<Obj>>,
        reader: Option<&Rc<Obj>>,
        io: &Rc<Stream>,
        endian: Endian,
    ) -> Result<Rc<Obj>> {
        self.nested(|| self.import_inner(ti, d, params, parent, reader, io, endian))
    }

    #[allow(clippy::too_many_arguments)]
    fn import_inner(
        &self,
        ti: usize,
        d: &Doc,
        params: Vec<V>,
        parent: Option<&Rc<Obj>>,
        reader: Option<&Rc<Obj>>,
        io: &Rc<Stream>,
        endian: Endian,
    ) -> Result<Rc<Obj>> {
        let t = &self.m.types[ti];
        let Doc::Map(map) = d else {
            return Err(Error::new(format!(
                "expected a map for type '{}', found {}",
                t.name,
                d.kind()
            )));
        };
        let obj = Obj::new(
            ti,
            self.n_fields(ti),
            params,
            parent,
            reader,
            io.clone(),
            endian,
        );
        let mut known: Vec<String> = Vec::new();
        match &t.endian {
            EndianSpec::Switch { .. } => {
                known.push("endian".into());
                let e = match d.get("endian") {
                    Some(Doc::Str(s)) if s == "little" => Endian::Little,
                    Some(Doc::Str(s)) if s == "big" => Endian::Big,
                    Some(o) => {
                        return Err(Error::new(format!(
                            "'endian' must be little or big, not {o:?}"
                        ))
                        .in_field("endian"))
                    }
                    None => return Err(Error::new("missing field 'endian'")),
                };
                obj.endian.set(e);
            }
            EndianSpec::Fixed(e) => obj.endian.set(match e {
                binspec_codegen::ir::Endian::Le => Endian::Little,
                binspec_codegen::ir::Endian::Be => Endian::Big,
            }),
            EndianSpec::Inherit => {}
        }
        for i in 0..self.n_fields(ti) {
            let f = self.def(ti, i);
            if let Role::Pool(u) = &f.role {
                if self.m.dedup_records(u.pool).is_some() {
                    known.push(f.name.clone());
                    let x = match d.get(&f.name) {
                        None => V::Arr(Rc::new(Vec::new())),
                        Some(v) => self
                            .doc_value(&obj, f, v, io)
                            .map_err(|e| e.in_schema(&t.file, f.pos, &f.path).in_field(&f.name))?,
                    };
                    obj.set(i, Some(x));
                } else if self.m.pools[u.pool].dedup {
                    known.push(f.name.clone());
                    let strings = match d.get(&f.name) {
                        None => Vec::new(),
                        Some(v) => doc_strings(v, &f.name)?
                            .into_iter()
                            .map(|s| V::Str(Rc::from(s)))
                            .collect(),
                    };
                    obj.set(i, Some(V::Arr(Rc::new(strings))));
                }
                continue;
            }
            // Overrides only: a value a holder gives, and an empty item's offset where the file had it elsewhere.
            let kept = match &f.role {
                Role::Given => Some(true),
                Role::Count { .. } => {
                    binspec_codegen::ir::count_kept_where_absent(t, f).map(|_| true)
                }
                Role::Offset { of } => Some(
                    self.keeps_empty_position(ti, t.field(*of))
                        || binspec_codegen::ir::keeps_absent_offset(t, f, t.field(*of)),
                ),
                _ => None,
            };
            if let Some(kept) = kept {
                if kept {
                    known.push(f.name.clone());
                    if let Some(v) = d.get(&f.name) {
                        let x = self
                            .doc_prim(f, &f.ty, v)
                            .map_err(|e| e.in_field(&f.name))?;
                        obj.overrides.borrow_mut()[i] = Some(x);
                    }
                }
                continue;
            }
            if !in_model(f) {
                continue;
            }
            known.push(f.name.clone());
            let ctx = |e: Error| e.in_schema(&t.file, f.pos, &f.path).in_field(&f.name);
            let v = d.get(&f.name);
            match (&f.role, v) {
                (Role::Data | Role::Placed, Some(v)) => {
                    // (An instance in another stream, `io: _root._io`: its records are in that stream.)
                    let fio = match f.io().map(|x| self.eval(&x.expr, &Env::of(&obj))) {
                        Some(Ok(V::Io(s))) => s,
                        _ => io.clone(),
                    };
                    let x = self.doc_value(&obj, f, v, &fio).map_err(ctx)?;
                    obj.set(i, Some(x));
                }
                (Role::Data | Role::Placed, None)
                    if f.cond.is_some() || f.relocations.is_some() => {}
                (Role::Data | Role::Placed, None) => {
                    return Err(Error::new(format!("missing field '{}'", f.name))
                        .in_schema(&t.file, f.pos, &f.path))
                }
                (Role::Derive(_), Some(v)) => {
                    let x = self.doc_value(&obj, f, v, io).map_err(ctx)?;
                    obj.overrides.borrow_mut()[i] = Some(x);
                }
                (Role::Kept, v) => {
                    let x = match v {
                        Some(v) => self.doc_prim(f, &f.ty, v).map_err(ctx)?,
                        None => match &f.default {
                            Some(dx) => self.eval(&dx.expr, &Env::of(&obj)).map_err(ctx)?,
                            None => V::Int(0),
                        },
                    };
                    obj.set(i, Some(x));
                }
                _ => {}
            }
            if f.item_of.is_some_and(|p| !self.m.pools[p].dedup) {
                let key = format!("{}_align", f.name);
                if let Some(a) = d.get(&key) {
                    obj.aligns.borrow_mut()[i] = Some(doc_align(a, &key)?);
                }
                known.push(key);
            }
            if f.has_filler() {
                let key = format!("{}_filler", f.name);
                if let Some(fl) = d.get(&key) {
                    obj.fillers.borrow_mut()[i] =
                        Some(Rc::from(unb64(fl).map_err(|e| e.in_field(&key))?));
                }
                known.push(key);
            }
        }
        for l in &t.layout {
            known.push(l.name.clone());
            match d.get(&l.name) {
                Some(Doc::Int(v)) => obj.layout.borrow_mut().push((l.name.clone(), *v)),
                Some(o) => {
                    return Err(
                        Error::new(format!("expected an integer, found {o:?}")).in_field(&l.name)
                    )
                }
                None => {}
            }
        }
        for (key, kind) in self.extra_keys(ti) {
            if let Some(v) = d.get(&key) {
                let x = match (kind, v) {
                    (ExtraKind::Bytes, v) => {
                        Extra::Bytes(Rc::from(unb64(v).map_err(|e| e.in_field(&key))?))
                    }
                    (ExtraKind::Names, v) => Extra::Names(doc_strings(v, &key)?),
                    (ExtraKind::Align, v) => Extra::Align(doc_align(v, &key)?),
                    (ExtraKind::Indices, Doc::List(xs)) => Extra::Indices(
                        xs.iter()
                            .map(|x| match x {
                                Doc::Int(k) => u32::try_from(*k).map_err(|_| {
                                    Error::new(format!("index {k} is out of range")).in_field(&key)
                                }),
                                o => Err(Error::new(format!(
                                    "expected an index, found {}",
                                    o.kind()
                                ))
                                .in_field(&key)),
                            })
                            .collect::<Result<Vec<_>>>()?,
                    ),
                    (ExtraKind::Indices, o) => {
                        return Err(Error::new(format!("expected a list, found {}", o.kind()))
                            .in_field(&key))
                    }
                };
                obj.extras.borrow_mut().push((key.clone(), x));
            }
            known.push(key);
        }
        if let Some(tail) = (0..t.seq.len()).find(|&i| self.is_tail_region(ti, i)) {
            let key = format!("{}_trailing", t.seq[tail].name);
            if let Some(b) = d.get(&key) {
                *obj.trailing.borrow_mut() =
                    Some(Rc::from(unb64(b).map_err(|e| e.in_field(&key))?));
            }
            known.push(key);
        }
        if let Some((k, _)) = map.iter().find(|(k, _)| !known.contains(k)) {
            return Err(Error::new(format!(
                "unknown field '{k}' (type '{}' has: {})",
                t.name,
                known.join(", ")
            )));
        }
        Ok(obj)
    }

    fn doc_value(&self, obj: &Rc<Obj>, f: &Field, d: &Doc, io: &Rc<Stream>) -> Result<V> {
        if f.repeat != Repeat::None {
            let Doc::List(xs) = d else {
                return Err(Error::new(format!("expected a list, found {}", d.kind())));
            };
            return xs
                .iter()
                .enumerate()
                .map(|(k, x)| self.doc_elem(obj, f, x, io, k).map_err(|e| e.in_index(k)))
                .collect::<Result<Vec<_>>>()
                .map(|v| V::Arr(Rc::new(v)));
        }
        self.doc_elem(obj, f, d, io, usize::MAX)
    }

    fn doc_elem(&self, obj: &Rc<Obj>, f: &Field, d: &Doc, io: &Rc<Stream>, k: usize) -> Result<V> {
        // A record in a substream of its own gets a stream of its own.
        let child_io = |blob: bool| {
            if blob {
                Stream::whole(Rc::new(Vec::new()))
            } else {
                io.clone()
            }
        };
        let blob = f.is_blob();
        match &f.ty {
            FieldTy::User { ty, args } => {
                let env = Env {
                    index: (k != usize::MAX).then_some(k),
                    ..Env::of(obj)
                };
                let args = self.import_args(args, &env);
                Ok(V::Obj(self.import(
                    *ty,
                    d,
                    args,
                    self.parent_for(obj, f).as_ref(),
                    Some(obj),
                    &child_io(blob),
                    obj.endian.get(),
                )?))
            }
            FieldTy::Switch { cases, .. } => {
                let Doc::Map(m) = d else {
                    return Err(Error::new(format!(
                        "expected a map with one case, found {}",
                        d.kind()
                    )));
                };
                let [(variant, inner)] = &m[..] else {
                    return Err(Error::new("expected a map with exactly one case"));
                };
                let ci = cases
                    .iter()
                    .position(|c| snake_case(&c.variant) == *variant)
                    .ok_or_else(|| {
                        let names: Vec<String> =
                            cases.iter().map(|c| snake_case(&c.variant)).collect();
                        Error::new(format!(
                            "unknown case '{variant}' (the cases are: {})",
                            names.join(", ")
                        ))
                    })?;
                let c = &cases[ci];
                let fid = self.m.types[obj.ty]
                    .field_id(&f.name)
                    .map_or(usize::MAX, |x| x.0);
                obj.cases.borrow_mut().insert((fid, k), ci);
                match (c.ty, &c.prim) {
                    (Some(ty), _) => {
                        let env = Env {
                            index: (k != usize::MAX).then_some(k),
                            ..Env::of(obj)
                        };
                        let args = self.import_args(&c.args, &env);
                        Ok(V::Obj(self.import(
                            ty,
                            inner,
                            args,
                            self.parent_for(obj, f).as_ref(),
                            Some(obj),
                            &child_io(blob),
                            obj.endian.get(),
                        )?))
                    }
                    (None, Some(p)) => self.doc_prim(f, p, inner),
                    (None, None) => self.doc_prim(f, &FieldTy::Bytes, inner),
                }
            }
            ty => self.doc_prim(f, ty, d),
        }
    }

    /// A record's arguments while the document is read: what they are where they can be worked out already
    /// (the writer evaluates them again where it writes the record; an argument that needs a value derived
    /// from the records themselves, such as Pluto's bone mask, is known only then).
    fn import_args(&self, args: &[binspec_codegen::ir::Ex], env: &Env) -> Vec<V> {
        args.iter()
            .map(|a| self.eval(&a.expr, env).unwrap_or(V::Int(0)))
            .collect()
    }

    fn doc_prim(&self, f: &Field, ty: &FieldTy, d: &Doc) -> Result<V> {
        if let (Some(e), FieldTy::Int { .. } | FieldTy::Bits { .. }) = (f.enum_, ty) {
            return match d {
                Doc::Str(s) => self.m.enums[e]
                    .values
                    .iter()
                    .find(|(_, n, _)| n == s)
                    .map(|(v, _, _)| V::Enum(e, *v))
                    .ok_or_else(|| {
                        Error::new(format!(
                            "'{s}' is not a value of enum '{}'",
                            self.m.enums[e].name
                        ))
                    }),
                Doc::Int(v) => Ok(V::Enum(e, *v)),
                o => Err(Error::new(format!(
                    "expected an enum value, found {}",
                    o.kind()
                ))),
            };
        }
        let wrong = || Error::new(format!("expected {}, found {}", expected(ty), d.kind()));
        Ok(match (ty, d) {
            (FieldTy::Bits { n: 1, .. }, Doc::Bool(b)) => V::Bool(*b),
            (FieldTy::Int { .. } | FieldTy::Bits { .. }, Doc::Int(i)) => V::Int(*i),
            (FieldTy::Float { .. }, Doc::F64(x)) => V::Float(*x),
            (FieldTy::Float { .. }, Doc::F32(x)) => V::Float(f64::from(*x)),
            (FieldTy::Float { .. }, Doc::Int(i)) => V::Float(*i as f64),
            // (JSON's spelling of what it has no number for; YAML reads `.inf` as a float.)
            (FieldTy::Float { .. }, Doc::Str(w))
                if matches!(w.as_str(), ".inf" | "-.inf" | ".nan") =>
            {
                V::Float(match w.as_str() {
                    ".inf" => f64::INFINITY,
                    "-.inf" => f64::NEG_INFINITY,
                    _ => f64::NAN,
                })
            }
            (FieldTy::Str { .. }, Doc::Str(s)) => V::Str(Rc::from(s.as_str())),
            (FieldTy::Bytes, Doc::List(xs))
                if f.repeat != Repeat::None && f.ty == FieldTy::Bytes =>
            {
                let mut out = Vec::with_capacity(xs.len());
                for x in xs {
                    match x {
                        Doc::Int(i) if (0..=255).contains(i) => out.push(*i as u8),
                        o => {
                            return Err(Error::new(format!(
                                "expected a byte (0 to 255), found {o:?}"
                            )))
                        }
                    }
                }
                V::Bytes(Rc::from(out))
            }
            (FieldTy::Bytes, d) => V::Bytes(Rc::from(unb64(d)?)),
            (FieldTy::Value, Doc::Int(i)) => V::Int(*i),
            _ => return Err(wrong()),
        })
    }
}

fn expected(ty: &FieldTy) -> &'static str {
    match ty {
        FieldTy::Bits { n: 1, .. } => "a boolean",
        FieldTy::Int { .. } | FieldTy::Bits { .. } | FieldTy::Value => "an integer",
        FieldTy::Float { .. } => "a number",
        FieldTy::Str { .. } => "a string",
        FieldTy::Bytes => "base64 bytes",
        _ => "a record",
    }
}
