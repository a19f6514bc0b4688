//! Kaitai expressions, evaluated over objects: the same semantics as the generated code's translation
//! (`binspec_codegen::emit_rust::expr`): integers as i128 with floor division, Kaitai's methods, enum values.

use std::rc::Rc;

use binspec_codegen::expr::{BinOp, Expr, ExprKind, UnOp};
use binspec_runtime::expr as rx;

use crate::error::{Error, Result};
use crate::run::Run;
use crate::value::{Obj, V};

/// What an expression is evaluated in: the object, and the names a repetition or a switch binds.
#[derive(Clone)]
pub struct Env<'e> {
    pub obj: &'e Rc<Obj>,
    /// `_` (the element just read, in `repeat-until`; the value, in `valid: expr`).
    pub this: Option<&'e V>,
    pub index: Option<usize>,
    /// The stream position, where one is meaningful (`_io.pos`).
    pub io_pos: Option<u64>,
    /// Whether the stream is at its end (`_io.eof`; a partly read byte is not the end).
    pub eof: Option<bool>,
}

impl<'e> Env<'e> {
    pub fn of(obj: &'e Rc<Obj>) -> Env<'e> {
        Env {
            obj,
            this: None,
            index: None,
            io_pos: Some(obj.cur_pos.get()),
            eof: None,
        }
    }
}

fn bad(msg: impl Into<String>) -> Error {
    Error::new(msg)
}

fn to_int(v: &V, what: &str) -> Result<i128> {
    v.int()
        .ok_or_else(|| bad(format!("{what}: expected an integer, found {}", v.kind())))
}

fn to_bool(v: &V) -> Result<bool> {
    match v {
        V::Bool(b) => Ok(*b),
        V::Int(i) => Ok(*i != 0),
        o => Err(bad(format!("expected a boolean, found {}", o.kind()))),
    }
}

fn to_f64(v: &V) -> Option<f64> {
    match v {
        V::Float(f) => Some(*f),
        o => o.int().map(|i| i as f64),
    }
}

impl Run<'_> {
    pub fn eval_int(&self, e: &Expr, env: &Env) -> Result<i128> {
        let v = self.eval(e, env)?;
        match v {
            V::Float(f) => Ok(f as i128),
            v => to_int(&v, "expression"),
        }
    }
    pub fn eval_bool(&self, e: &Expr, env: &Env) -> Result<bool> {
        to_bool(&self.eval(e, env)?)
    }

    pub fn eval(&self, e: &Expr, env: &Env) -> Result<V> {
        self.tick()?;
        Ok(match &e.kind {
            ExprKind::Int(i) => V::Int(i128::from(*i)),
            ExprKind::Float(f) => V::Float(*f),
            ExprKind::Str(s) => V::Str(Rc::from(s.as_str())),
            ExprKind::Bool(b) => V::Bool(*b),
            ExprKind::Name(n) => self.name(n, env)?,
            ExprKind::EnumValue {
                absolute,
                path,
                value,
            } => {
                let ei = self
                    .find_enum(env.obj.ty, *absolute, path)
                    .ok_or_else(|| bad(format!("no enum '{}'", path.join("::"))))?;
                let v = self.m.enums[ei]
                    .values
                    .iter()
                    .find(|(_, n, _)| n == value)
                    .map(|(v, _, _)| *v)
                    .ok_or_else(|| {
                        bad(format!("enum '{}' has no value '{value}'", path.join("::")))
                    })?;
                V::Enum(ei, v)
            }
            ExprKind::Attr { base, name, .. } => {
                if let Some(part) = binspec_codegen::ir::dic_part(e) {
                    return Ok(self.dic_value(env.obj, part));
                }
                if let Some(part) = binspec_codegen::ir::chain_part(e) {
                    let to_end = part == binspec_codegen::ir::ChainPart::Size;
                    return Ok(self.chain_value(env.obj, to_end));
                }
                if let Some(v) = self.field_meta(base, name, env)? {
                    return Ok(v);
                }
                let b = self.eval(base, env)?;
                self.attr(&b, name, env)?
            }
            ExprKind::Call {
                base, method, args, ..
            } if (method == "bitmask" || method == "count") && args.len() == 1 => {
                // `xs.bitmask(PRED)`, `xs.count(PRED)`: the predicate of each element (`_`).
                let V::Arr(xs) = self.eval(base, env)? else {
                    return Err(bad(format!("'{method}' of something that is not an array")));
                };
                let mut bits = Vec::with_capacity(xs.len());
                for x in xs.iter() {
                    let e = Env {
                        this: Some(x),
                        ..env.clone()
                    };
                    bits.push(self.eval_bool(&args[0], &e)?);
                }
                if method == "count" {
                    V::Int(bits.iter().filter(|b| **b).count() as i128)
                } else {
                    let mut out = vec![0u8; bits.len().div_ceil(8)];
                    for (i, b) in bits.iter().enumerate() {
                        if *b {
                            out[i / 8] |= 1 << (i % 8);
                        }
                    }
                    V::Bytes(Rc::from(out))
                }
            }
            ExprKind::Call {
                base, method, args, ..
            } => {
                let b = self.eval(base, env)?;
                let a = args
                    .iter()
                    .map(|x| self.eval(x, env))
                    .collect::<Result<Vec<_>>>()?;
                self.call(&b, method, &a)?
            }
            ExprKind::Index { base, index } => {
                let b = self.eval(base, env)?;
                let i = self.eval_int(index, env)?;
                let iu = usize::try_from(i).ok();
                match &b {
                    V::Bytes(x) => V::Int(iu.and_then(|i| x.get(i)).map_or(0, |b| i128::from(*b))),
                    V::Arr(x) => iu.and_then(|i| x.get(i)).cloned().ok_or_else(|| {
                        bad(format!(
                            "index {i} is out of range (the array has {})",
                            x.len()
                        ))
                    })?,
                    o => return Err(bad(format!("cannot index {}", o.kind()))),
                }
            }
            ExprKind::Cast { base, ty } => {
                let b = self.eval(base, env)?;
                match (ty.path.last().map(String::as_str), &b) {
                    (Some(t), V::Float(f)) if binspec_codegen::ir::is_int_type_name(t) => {
                        V::Int(*f as i128)
                    }
                    (Some("f4" | "f8" | "f4le" | "f4be" | "f8le" | "f8be"), v) => {
                        to_f64(v).map(V::Float).unwrap_or(b)
                    }
                    _ => b,
                }
            }
            ExprKind::SizeOf { ty, bits } => {
                let name = ty.path.join("::");
                let size = match name.as_str() {
                    t if binspec_codegen::ir::is_int_type_name(t) => int_type_size(t),
                    _ => self
                        .m
                        .find_type(env.obj.ty, &name)
                        .and_then(|t| self.m.static_type_size(t)),
                }
                .ok_or_else(|| bad(format!("the size of '{name}' is not known without reading")))?;
                V::Int(i128::from(size) * if *bits { 8 } else { 1 })
            }
            ExprKind::Unary { op, expr } => {
                let v = self.eval(expr, env)?;
                match (op, &v) {
                    (UnOp::Not, v) => V::Bool(!to_bool(v)?),
                    (UnOp::Neg, V::Float(f)) => V::Float(-f),
                    (UnOp::Neg, v) => V::Int(to_int(v, "-")?.wrapping_neg()),
                    (UnOp::BitNot, v) => V::Int(!to_int(v, "~")?),
                }
            }
            ExprKind::Binary { op, lhs, rhs } => {
                if matches!(op, BinOp::And | BinOp::Or) {
                    let l = self.eval_bool(lhs, env)?;
                    return Ok(V::Bool(match op {
                        BinOp::And => l && self.eval_bool(rhs, env)?,
                        _ => l || self.eval_bool(rhs, env)?,
                    }));
                }
                let l = self.eval(lhs, env)?;
                let r = self.eval(rhs, env)?;
                binary(*op, &l, &r)?
            }
            ExprKind::Ternary { cond, then, else_ } => {
                if self.eval_bool(cond, env)? {
                    self.eval(then, env)?
                } else {
                    self.eval(else_, env)?
                }
            }
            ExprKind::Array(items) => {
                let vs = items
                    .iter()
                    .map(|x| self.eval(x, env))
                    .collect::<Result<Vec<_>>>()?;
                let small = |e: &Expr| matches!(e.kind, ExprKind::Int(i) if i <= 255);
                if !items.is_empty() && items.iter().all(small) {
                    V::Bytes(vs.iter().filter_map(V::int).map(|i| i as u8).collect())
                } else {
                    V::Arr(Rc::new(vs))
                }
            }
        })
    }

    /// `x._pos`, `x._sizeof`, `x._present` of a field `x` (they are about the field, not its value).
    fn field_meta(&self, base: &Expr, name: &str, env: &Env) -> Result<Option<V>> {
        if !matches!(name, "_pos" | "_sizeof" | "_present" | "_before" | "_len") {
            return Ok(None);
        }
        let (obj, fid) = match &base.kind {
            ExprKind::Name(n) => match self.m.types[env.obj.ty].field_id(n) {
                Some(f) => (env.obj.clone(), f.0),
                None => return Ok(None),
            },
            ExprKind::Attr {
                base: b2, name: n, ..
            } => match self.eval(b2, env)? {
                V::Obj(o) => match self.m.types[o.ty].field_id(n) {
                    Some(f) => (o, f.0),
                    None => return Ok(None),
                },
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        if name == "_present" {
            return Ok(Some(V::Bool(self.field(&obj, fid)?.is_some())));
        }
        // (Reading an instance places it; when writing, the spans are the writer's. An instance being read, whose
        // arguments name where it is, has its start.)
        let busy = obj.busy.borrow().get(fid).copied().unwrap_or(false);
        if self.mode == crate::run::Mode::Read && !busy {
            self.field(&obj, fid)?;
        }
        if name == "_before" {
            let start = obj.spans.borrow()[fid].map_or(0, |(s, _)| s);
            let v = match self.mode {
                crate::run::Mode::Read => {
                    let abs = obj.io.borrow().abs;
                    self.pools
                        .borrow()
                        .end_before(abs + start)
                        .saturating_sub(abs)
                }
                crate::run::Mode::Write => obj.derive_before(fid, self.pass.get()).unwrap_or(0),
            };
            return Ok(Some(V::Int(i128::from(v))));
        }
        let span = obj.spans.borrow()[fid];
        let (s, e) = span.unwrap_or((0, 0));
        Ok(Some(V::Int(i128::from(if name == "_pos" {
            s
        } else {
            e - s
        }))))
    }

    fn name(&self, n: &str, env: &Env) -> Result<V> {
        let obj = env.obj;
        Ok(match n {
            "_root" => V::Obj(self.root_of(obj)),
            "_parent" => V::Obj(self.parent_of(obj)?),
            "_io" => V::Io(self.io_of(obj)),
            "_index" => V::Int(
                env.index
                    .ok_or_else(|| bad("'_index' outside a repetition"))? as i128,
            ),
            "_" => env
                .this
                .cloned()
                .ok_or_else(|| bad("'_' outside 'repeat-until' or 'valid'"))?,
            "_sizeof" => V::Int(i128::from(obj.end.get().saturating_sub(obj.start.get()))),
            n => {
                let t = &self.m.types[obj.ty];
                if let Some(pi) = t.params.iter().position(|p| p.name == n) {
                    return obj
                        .params
                        .borrow()
                        .get(pi)
                        .cloned()
                        .ok_or_else(|| bad(format!("param '{n}' was not given")));
                }
                let fid = t
                    .field_id(n)
                    .ok_or_else(|| bad(format!("type '{}' has no field '{n}'", t.name)))?;
                if obj.defaults.get() {
                    return Ok(self.default_of(obj, self.def(obj.ty, fid.0)));
                }
                // An absent field reads as its type's default, as in the generated code (0, "", no bytes, false,
                // an empty array or record).
                match self.field(obj, fid.0)? {
                    Some(v) => v,
                    None => self.default_of(obj, self.def(obj.ty, fid.0)),
                }
            }
        })
    }

    /// The value an absent field reads as.
    pub fn default_of(&self, obj: &Rc<Obj>, f: &binspec_codegen::ir::Field) -> V {
        use binspec_codegen::expr::Ty;
        use binspec_codegen::ir::{FieldTy, Repeat};
        if f.repeat != Repeat::None {
            return V::Arr(Rc::new(Vec::new()));
        }
        match (&f.ty, f.enum_) {
            (FieldTy::Int { .. } | FieldTy::Bits { .. }, Some(e)) => V::Enum(e, 0),
            (FieldTy::Bits { n: 1, .. }, None) => V::Bool(false),
            (FieldTy::Int { .. } | FieldTy::Bits { .. }, None) => V::Int(0),
            (FieldTy::Float { .. }, _) => V::Float(0.0),
            (FieldTy::Str { .. }, _) => V::Str(Rc::from("")),
            (FieldTy::Bytes, _) => V::Bytes(Rc::from(Vec::new())),
            (FieldTy::User { ty, .. }, _) => {
                let io = obj.io.borrow().clone();
                V::Obj(Obj::new(
                    *ty,
                    self.n_fields(*ty),
                    Vec::new(),
                    Some(obj),
                    Some(obj),
                    io,
                    obj.endian.get(),
                ))
            }
            (FieldTy::Value, _) => match f.value().and_then(|x| x.ty.clone()) {
                Some(Ty::Bool) => V::Bool(false),
                Some(Ty::Float) => V::Float(0.0),
                Some(Ty::Str) => V::Str(Rc::from("")),
                Some(Ty::Bytes) => V::Bytes(Rc::from(Vec::new())),
                Some(Ty::Array(_)) => V::Arr(Rc::new(Vec::new())),
                Some(Ty::Int { .. }) => V::Int(0),
                _ => V::Null,
            },
            _ => V::Null,
        }
    }

    /// `_parent` of `obj`. A record read with `parent: false` has none: it sees a stand-in of its type's parent
    /// type whose fields have their types' defaults, as the generated code gives it.
    fn parent_of(&self, obj: &Rc<Obj>) -> Result<Rc<Obj>> {
        if let Some(p) = obj.parent() {
            return Ok(p);
        }
        match (self.m.types[obj.ty].parent, obj.reader()) {
            (Some(pt), Some(_)) => {
                let o = Obj::new(
                    pt,
                    self.n_fields(pt),
                    Vec::new(),
                    None,
                    Some(obj),
                    obj.io.borrow().clone(),
                    obj.endian.get(),
                );
                o.defaults.set(true);
                Ok(o)
            }
            _ => Err(bad("'_parent' of the top-level type")),
        }
    }

    fn root_of(&self, obj: &Rc<Obj>) -> Rc<Obj> {
        let want = self.m.root_of(obj.ty);
        // (Through the records that read each other: a record read with `parent: false` still has the root.)
        let mut o = obj.clone();
        while let Some(p) = o.reader() {
            if o.ty == want {
                break;
            }
            o = p;
        }
        o
    }

    fn attr(&self, b: &V, name: &str, env: &Env) -> Result<V> {
        Ok(match (b, name) {
            (V::Obj(o), "_parent") => V::Obj(self.parent_of(o)?),
            (V::Obj(o), "_io") => V::Io(self.io_of(o)),
            (V::Obj(o), "_root") => V::Obj(self.root_of(o)),
            (V::Obj(o), "_sizeof") => V::Int(i128::from(o.end.get().saturating_sub(o.start.get()))),
            (V::Obj(o), n) => {
                let env2 = Env::of(o);
                self.name(n, &env2)?
            }
            (V::Io(s), "size") => V::Int(i128::from(s.size())),
            (V::Io(s), "pos") => V::Int(i128::from(env.io_pos.unwrap_or(s.size()))),
            (V::Io(s), "eof") => V::Bool(
                env.eof
                    .unwrap_or(env.io_pos.unwrap_or(s.size()) >= s.size()),
            ),
            (v, m) => self.call(v, m, &[])?,
        })
    }

    fn call(&self, b: &V, m: &str, a: &[V]) -> Result<V> {
        let arg_int = |i: usize| -> Result<i128> {
            a.get(i)
                .map(|v| to_int(v, m))
                .unwrap_or_else(|| Err(bad(format!("'{m}' needs an argument"))))
        };
        Ok(match (m, b) {
            ("to_i", V::Float(f)) => V::Int(*f as i128),
            ("to_i", V::Str(s)) => {
                let radix = if a.is_empty() { 10 } else { arg_int(0)? };
                V::Int(rx::to_i(s, radix).map_err(|e| bad(e.to_string()))?)
            }
            ("to_i", v) => V::Int(to_int(v, m)?),
            ("to_s", V::Int(i)) => V::Str(Rc::from(i.to_string())),
            ("to_s", V::Str(s)) => V::Str(s.clone()),
            ("to_s", V::Bytes(x)) => {
                let enc = match a.first() {
                    Some(V::Str(e)) => e.to_string(),
                    _ => "UTF-8".to_string(),
                };
                V::Str(Rc::from(binspec_runtime::text::decode_lossy(x, &enc)))
            }
            ("length" | "size", V::Bytes(x)) => V::Int(x.len() as i128),
            ("length" | "size", V::Arr(x)) => V::Int(x.len() as i128),
            ("length", V::Str(s)) => V::Int(s.chars().count() as i128),
            ("reverse", V::Str(s)) => V::Str(Rc::from(s.chars().rev().collect::<String>())),
            ("substring", V::Str(s)) => {
                let (from, to) = (arg_int(0)?, arg_int(1)?);
                let from = from.max(0) as usize;
                let len = (to - from as i128).max(0) as usize;
                V::Str(Rc::from(s.chars().skip(from).take(len).collect::<String>()))
            }
            ("first" | "last" | "min" | "max", V::Bytes(x)) => {
                let v = match m {
                    "first" => x.first().copied(),
                    "last" => x.last().copied(),
                    "min" => x.iter().min().copied(),
                    _ => x.iter().max().copied(),
                };
                V::Int(i128::from(
                    v.ok_or_else(|| bad(format!("'{m}' of empty bytes")))?,
                ))
            }
            ("first" | "last", V::Arr(x)) => match m {
                "first" => x.first(),
                _ => x.last(),
            }
            .cloned()
            .ok_or_else(|| bad(format!("'{m}' of an empty array")))?,
            ("min" | "max", V::Arr(x)) => {
                let mut best: Option<&V> = None;
                for v in x.iter() {
                    best = match best {
                        None => Some(v),
                        Some(b) => {
                            let less = matches!(binary(BinOp::Lt, v, b)?, V::Bool(true));
                            if less == (m == "min") {
                                Some(v)
                            } else {
                                Some(b)
                            }
                        }
                    };
                }
                best.cloned()
                    .ok_or_else(|| bad(format!("'{m}' of an empty array")))?
            }
            ("sarc_hash", V::Str(s)) => V::Int(
                binspec_runtime::hash::sarc_name_hash(s.as_bytes(), arg_int(0)? as u32).into(),
            ),
            ("sarc_hash", V::Bytes(s)) => {
                V::Int(binspec_runtime::hash::sarc_name_hash(s, arg_int(0)? as u32).into())
            }
            ("crc32", V::Str(s)) => V::Int(binspec_runtime::hash::crc32(s.as_bytes()).into()),
            ("crc32", V::Bytes(s)) => V::Int(binspec_runtime::hash::crc32(s).into()),
            ("murmur3", V::Str(s)) => {
                V::Int(binspec_runtime::hash::murmur3_32(s.as_bytes(), arg_int(0)? as u32).into())
            }
            ("murmur3", V::Bytes(s)) => {
                V::Int(binspec_runtime::hash::murmur3_32(s, arg_int(0)? as u32).into())
            }
            ("path_stem", V::Str(s)) => V::Str(Rc::from(binspec_runtime::text::path_split(s).0)),
            ("path_extension", V::Str(s)) => {
                V::Str(Rc::from(binspec_runtime::text::path_split(s).1))
            }
            (m, v) => return Err(bad(format!("'{m}' of {} is not supported", v.kind()))),
        })
    }

    /// The enum an `EnumValue` names, as seen from type `from`.
    pub fn find_enum(&self, from: usize, absolute: bool, path: &[String]) -> Option<usize> {
        let (name, owner_path) = path.split_last()?;
        let enums = &self.m.enums;
        if !owner_path.is_empty() {
            let owner = self
                .m
                .find_type(if absolute { 0 } else { from }, &owner_path.join("::"))?;
            return enums
                .iter()
                .position(|e| e.owner == owner && &e.name == name);
        }
        let mut scope = Some(from);
        while let Some(s) = scope {
            if let Some(i) = enums.iter().position(|e| e.owner == s && &e.name == name) {
                return Some(i);
            }
            scope = self.m.types[s].parent;
        }
        enums.iter().position(|e| &e.name == name)
    }
}

fn int_type_size(t: &str) -> Option<u64> {
    let digits: String = t.chars().skip(1).take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// A binary operator (`and`/`or` are evaluated lazily by the caller).
pub fn binary(op: BinOp, l: &V, r: &V) -> Result<V> {
    use std::cmp::Ordering;
    let ord = |o: Ordering| -> V {
        V::Bool(match op {
            BinOp::Lt => o == Ordering::Less,
            BinOp::Le => o != Ordering::Greater,
            BinOp::Gt => o == Ordering::Greater,
            _ => o != Ordering::Less,
        })
    };
    match op {
        BinOp::Eq => return Ok(V::Bool(l.same(r))),
        BinOp::Ne => return Ok(V::Bool(!l.same(r))),
        _ => {}
    }
    Ok(match (l, r) {
        (V::Str(a), V::Str(b)) => match op {
            BinOp::Add => V::Str(Rc::from(format!("{a}{b}"))),
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => ord(a.cmp(b)),
            _ => return Err(bad(format!("'{op:?}' of strings"))),
        },
        (V::Bytes(a), V::Bytes(b)) => match op {
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => ord(a.cmp(b)),
            _ => return Err(bad(format!("'{op:?}' of bytes"))),
        },
        (V::Float(_), _) | (_, V::Float(_)) => {
            let (a, b) = match (to_f64(l), to_f64(r)) {
                (Some(a), Some(b)) => (a, b),
                _ => return Err(bad(format!("'{op:?}' of {} and {}", l.kind(), r.kind()))),
            };
            match op {
                BinOp::Add => V::Float(a + b),
                BinOp::Sub => V::Float(a - b),
                BinOp::Mul => V::Float(a * b),
                BinOp::Div => V::Float(a / b),
                BinOp::Mod => V::Float(a.rem_euclid(b)),
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                    ord(a.partial_cmp(&b).unwrap_or(Ordering::Equal))
                }
                _ => return Err(bad(format!("'{op:?}' of floats"))),
            }
        }
        _ => {
            let (a, b) = match (l.int(), r.int()) {
                (Some(a), Some(b)) => (a, b),
                _ => return Err(bad(format!("'{op:?}' of {} and {}", l.kind(), r.kind()))),
            };
            let bools = matches!((l, r), (V::Bool(_), V::Bool(_)));
            let v = match op {
                BinOp::Add => a.wrapping_add(b),
                BinOp::Sub => a.wrapping_sub(b),
                BinOp::Mul => a.wrapping_mul(b),
                BinOp::Div => rx::div(a, b).map_err(|e| bad(e.to_string()))?,
                BinOp::Mod => rx::modulo(a, b).map_err(|e| bad(e.to_string()))?,
                BinOp::Shl => rx::shl(a, b),
                BinOp::Shr => rx::shr(a, b),
                BinOp::BitAnd => a & b,
                BinOp::BitOr => a | b,
                BinOp::BitXor => a ^ b,
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => return Ok(ord(a.cmp(&b))),
                _ => return Err(bad(format!("'{op:?}' of integers"))),
            };
            if bools && matches!(op, BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor) {
                V::Bool(v != 0)
            } else {
                V::Int(v)
            }
        }
    })
}
