//! Stage 3a: Rust. One module per schema: a model struct per type (data and layout fields only), a reader that
//! checks every constant and records layout choices, and a writer that computes every derived value.
//!
//! Expressions are translated for two scopes. In the read scope a name is the local holding what was read. In the
//! write scope a name is the model field (data), the value computed before writing (derived), or a literal
//! (constants). Values from outer types (`_parent.x`, `_root.x`) travel as extra function arguments, found by
//! the `implicit_params` pass.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

use crate::expr::{BinOp, Expr, ExprKind, UnOp};
use crate::ir::{
    solvable_for, ConstVal, Endian, EndianSpec, Field, FieldTy, Module, Process, Repeat, Role,
    TypeDef, Valid,
};

/// Why code could not be generated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmitError {
    pub path: String,
    pub message: String,
}

type R<T> = Result<T, EmitError>;

/// An inconsistency between IR passes (a bug in binspec, not in the schema).
fn internal(path: &str) -> EmitError {
    EmitError {
        path: path.to_string(),
        message: "internal: the IR is inconsistent here".into(),
    }
}

fn err<T>(path: &str, message: impl Into<String>) -> R<T> {
    Err(EmitError {
        path: path.to_string(),
        message: message.into(),
    })
}

const RUST_KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// An identifier for a schema name, escaping Rust keywords (`type` becomes `r#type`).
pub fn ident(name: &str) -> Ident {
    if matches!(name, "self" | "Self" | "super" | "crate") {
        format_ident!("{}_", name)
    } else if RUST_KEYWORDS.contains(&name) {
        Ident::new_raw(name, Span::call_site())
    } else {
        Ident::new(name, Span::call_site())
    }
}

/// A `-scan`'s tags, step and or-eos as tokens.
fn scan_tokens(sc: &crate::ir::Scan) -> (TokenStream, usize, bool) {
    let tags = sc.tags.iter().map(|t| {
        let b = proc_macro2::Literal::byte_string(t);
        quote!(#b as &[u8])
    });
    (quote!(&[#(#tags),*]), sc.step as usize, sc.or_eos)
}

fn local(prefix: &str, name: &str) -> Ident {
    format_ident!("{}_{}", prefix, name)
}

fn ty_ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// The type of a translated expression.
#[derive(Debug, Clone, PartialEq)]
enum T {
    Int,
    Float,
    Bool,
    Bytes,
    Str,
    /// A user type's model (write scope) or nothing usable (read scope).
    User(usize),
    /// A switch field's enum: (the type that holds the field, the field).
    Switch(usize, String),
    Array(Box<T>),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Scope {
    Read,
    Write,
    /// The finished model (`info`, sort keys that only use data).
    Model,
}

struct Cx<'m> {
    m: &'m Module,
    /// The type of `_` (the element just read, in `repeat-until`).
    last_t: Option<T>,
    /// The value whose model fields names refer to, when not `self`.
    base: Option<TokenStream>,
    ty: usize,
    scope: Scope,
    depth: usize,
}

fn int_lit(v: i128) -> TokenStream {
    let l = Literal::i128_suffixed(v);
    quote!(#l)
}

fn rust_int(bytes: u8, signed: bool) -> TokenStream {
    match (bytes, signed) {
        (1, false) => quote!(u8),
        (2, false) => quote!(u16),
        (4, false) => quote!(u32),
        (8, false) => quote!(u64),
        (1, true) => quote!(i8),
        (2, true) => quote!(i16),
        (4, true) => quote!(i32),
        _ => quote!(i64),
    }
}

fn endian_tokens(e: Option<Endian>) -> TokenStream {
    match e {
        Some(Endian::Le) => quote!(::binspec_runtime::Endian::Little),
        Some(Endian::Be) => quote!(::binspec_runtime::Endian::Big),
        None => quote!(endian),
    }
}

/// Finds a field or instance by name in a type.
fn find<'a>(t: &'a TypeDef, name: &str) -> Option<&'a Field> {
    t.seq
        .iter()
        .chain(t.instances.iter())
        .find(|f| f.name == name)
}

/// The key under which an outer value is passed: `_root.a.b` or `_parent.x`.
fn chain_of(e: &Expr) -> Option<Vec<String>> {
    match &e.kind {
        ExprKind::Name(n) if n == "_root" || n == "_parent" => Some(vec![n.clone()]),
        ExprKind::Attr { base, name, .. } => {
            let mut c = chain_of(base)?;
            c.push(name.clone());
            Some(c)
        }
        _ => None,
    }
}

fn param_ident(key: &[String]) -> Ident {
    let s: Vec<String> = key
        .iter()
        .map(|k| k.trim_start_matches('_').to_string())
        .collect();
    format_ident!("x_{}", s.join("__"))
}

impl<'m> Cx<'m> {
    fn t(&self) -> &'m TypeDef {
        &self.m.types[self.ty]
    }

    fn field_t(&self, f: &Field) -> T {
        let base = match &f.ty {
            FieldTy::Bits { n: 1, .. } if f.enum_.is_none() => T::Bool,
            FieldTy::Int { .. } | FieldTy::Bits { .. } => T::Int,
            FieldTy::Float { .. } => T::Float,
            FieldTy::Bytes => T::Bytes,
            FieldTy::Str { .. } => T::Str,
            FieldTy::User { ty, .. } => T::User(*ty),
            FieldTy::Switch { .. } if int_switch(f) => T::Int,
            FieldTy::Switch { .. } => T::Switch(self.ty, f.name.clone()),
            FieldTy::Value => self.value_t(f),
        };
        if f.repeat != Repeat::None {
            T::Array(Box::new(base))
        } else {
            base
        }
    }

    /// The type of a value instance's expression, translated where the instance is defined (an integer when it
    /// cannot be told).
    fn value_t(&self, f: &Field) -> T {
        let owner = self
            .m
            .types
            .iter()
            .position(|t| t.instances.iter().any(|x| std::ptr::eq(x, f)));
        let (Some(owner), Some(v)) = (owner, &f.value) else {
            return T::Int;
        };
        if self.depth > 32 {
            return T::Int;
        }
        let mut cx = Cx {
            m: self.m,
            last_t: None,
            base: None,
            ty: owner,
            scope: Scope::Read,
            depth: self.depth + 1,
        };
        match cx.tr(&v.expr, &v.path) {
            Ok((_, t @ (T::Bool | T::Float | T::Str | T::Bytes))) => t,
            _ => T::Int,
        }
    }

    /// Translates an expression; integers come out as `i128`.
    fn tr(&mut self, e: &Expr, path: &str) -> R<(TokenStream, T)> {
        self.depth += 1;
        if self.depth > 64 {
            return err(
                path,
                "expression nests too deeply (value instances referring to each other?)",
            );
        }
        let r = self.tr_inner(e, path);
        self.depth -= 1;
        r
    }

    fn tr_inner(&mut self, e: &Expr, path: &str) -> R<(TokenStream, T)> {
        Ok(match &e.kind {
            ExprKind::Int(v) => (int_lit(*v as i128), T::Int),
            ExprKind::Float(f) => (quote!(#f), T::Float),
            ExprKind::Bool(b) => (quote!(#b), T::Bool),
            ExprKind::Str(s) => (quote!(#s), T::Str),
            ExprKind::Array(items) => {
                let bytes: Option<Vec<u8>> = items
                    .iter()
                    .map(|i| match &i.kind {
                        ExprKind::Int(v) if *v <= 255 => Some(*v as u8),
                        _ => None,
                    })
                    .collect();
                match bytes {
                    Some(bytes) if !items.is_empty() => (quote!((&[#(#bytes),*][..])), T::Bytes),
                    _ => {
                        let mut toks = Vec::new();
                        let mut et = T::Int;
                        for i in items {
                            let (t, ty) = self.tr(i, path)?;
                            et = ty;
                            toks.push(t);
                        }
                        (quote!(vec![#(#toks),*]), T::Array(Box::new(et)))
                    }
                }
            }
            ExprKind::Name(n) => self.name(n, path)?,
            ExprKind::Attr { base, name, .. } => self.attr(base, name, path)?,
            ExprKind::Call {
                base, method, args, ..
            } if method == "bitmask" => {
                // `xs.bitmask(PRED)`: one bit per element, set where PRED (with `_` the element) holds; bit `i % 8`
                // of byte `i / 8`, as many bytes as eight elements need.
                let (b, bt) = self.tr(base, path)?;
                let T::Array(et) = bt else {
                    return err(path, "'bitmask' needs an array");
                };
                let [pred] = &args[..] else {
                    return err(
                        path,
                        "'bitmask' takes one argument: a condition on '_', the element",
                    );
                };
                let saved = self.last_t.replace((*et).clone());
                let r = self.tr(pred, path);
                self.last_t = saved;
                let (p, pt) = r?;
                if pt != T::Bool {
                    return err(path, "the condition of 'bitmask' must be a boolean");
                }
                (
                    quote!({
                        let xs__ = &#b;
                        let mut m__ = ::std::vec![0u8; xs__.len().div_ceil(8)];
                        for (j__, v__) in xs__.iter().enumerate() {
                            if #p { m__[j__ / 8] |= 1u8 << (j__ % 8); }
                        }
                        m__
                    }),
                    T::Bytes,
                )
            }
            ExprKind::Call {
                base, method, args, ..
            } => {
                let (b, bt) = self.tr(base, path)?;
                let mut a = Vec::new();
                for x in args {
                    a.push(self.tr(x, path)?);
                }
                match (method.as_str(), bt) {
                    ("sarc_hash", T::Str) if a.len() == 1 => {
                        let m = &a[0].0;
                        (
                            quote!((::binspec_runtime::hash::sarc_name_hash(#b.as_bytes(), (#m) as u32) as i128)),
                            T::Int,
                        )
                    }
                    ("sarc_hash", T::Bytes) if a.len() == 1 => {
                        let m = &a[0].0;
                        (
                            quote!((::binspec_runtime::hash::sarc_name_hash(#b, (#m) as u32) as i128)),
                            T::Int,
                        )
                    }
                    ("crc32", T::Str) => (
                        quote!((::binspec_runtime::hash::crc32(#b.as_bytes()) as i128)),
                        T::Int,
                    ),
                    ("to_i", T::Bool) => (quote!((#b as i128)), T::Int),
                    ("to_s", T::Bytes) if a.len() == 1 => {
                        let e = &a[0].0;
                        (
                            quote!(::binspec_runtime::text::decode_lossy(#b, #e)),
                            T::Str,
                        )
                    }
                    ("to_i", T::Str) if a.len() == 1 => {
                        let radix = &a[0].0;
                        (
                            quote!(i128::from_str_radix(#b, (#radix) as u32).unwrap_or(0)),
                            T::Int,
                        )
                    }
                    ("substring", T::Str) if a.len() == 2 => {
                        let (from, to) = (&a[0].0, &a[1].0);
                        (
                            quote!(#b.chars().skip((#from).max(0) as usize).take(((#to) - (#from)).max(0) as usize).collect::<::std::string::String>()),
                            T::Str,
                        )
                    }
                    ("to_s", T::Int) if a.is_empty() => (quote!((#b).to_string()), T::Str),
                    (m, t) => {
                        return err(path, format!("method '{m}' on {t:?} is not supported yet"))
                    }
                }
            }
            ExprKind::Index { base, index } => {
                let (b, bt) = self.tr(base, path)?;
                let (i, _) = self.tr(index, path)?;
                match bt {
                    T::Bytes => (
                        quote!((#b.get((#i) as usize).copied().unwrap_or(0) as i128)),
                        T::Int,
                    ),
                    T::Array(et) => match *et {
                        T::Int => (
                            quote!(#b.get((#i) as usize).map_or(0, |x| *x as i128)),
                            T::Int,
                        ),
                        T::Float => (
                            quote!(#b.get((#i) as usize).map_or(0.0, |x| *x as f64)),
                            T::Float,
                        ),
                        other => (
                            quote!(#b.get((#i) as usize).cloned().unwrap_or_default()),
                            other,
                        ),
                    },
                    _ => return err(path, "indexing needs bytes or an array"),
                }
            }
            ExprKind::Unary { op, expr } => {
                let (x, t) = self.tr(expr, path)?;
                match op {
                    UnOp::Neg => (quote!((-(#x))), t),
                    UnOp::Not => (quote!((!(#x))), T::Bool),
                    UnOp::BitNot => (quote!((!(#x))), t),
                }
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let (l, lt) = self.tr(lhs, path)?;
                let (r, rt) = self.tr(rhs, path)?;
                let o = match op {
                    BinOp::Add => quote!(+),
                    BinOp::Sub => quote!(-),
                    BinOp::Mul => quote!(*),
                    BinOp::Div => quote!(/),
                    BinOp::Mod => quote!(%),
                    BinOp::Shl => quote!(<<),
                    BinOp::Shr => quote!(>>),
                    BinOp::BitAnd => quote!(&),
                    BinOp::BitOr => quote!(|),
                    BinOp::BitXor => quote!(^),
                    BinOp::Eq => quote!(==),
                    BinOp::Ne => quote!(!=),
                    BinOp::Lt => quote!(<),
                    BinOp::Le => quote!(<=),
                    BinOp::Gt => quote!(>),
                    BinOp::Ge => quote!(>=),
                    BinOp::And => quote!(&&),
                    BinOp::Or => quote!(||),
                };
                if lt == T::Str && rt == T::Str && *op == BinOp::Add {
                    return Ok((quote!(format!("{}{}", #l, #r)), T::Str));
                }
                let float = lt == T::Float || rt == T::Float;
                let (l, r) = if float {
                    let l = if lt == T::Float {
                        l
                    } else {
                        quote!((#l as f64))
                    };
                    let r = if rt == T::Float {
                        r
                    } else {
                        quote!((#r as f64))
                    };
                    (l, r)
                } else {
                    (l, r)
                };
                let num = if float { T::Float } else { T::Int };
                // Integer arithmetic is on i128 and never panics: sums of values read from files cannot overflow
                // it, products wrap, and division by zero gives 0 (Kaitai's division and modulo round towards
                // negative infinity).
                match op {
                    BinOp::Div if float => (quote!((#l / #r)), T::Float),
                    BinOp::Mod if float => (quote!((#l).rem_euclid(#r)), T::Float),
                    BinOp::Div => (quote!(::binspec_runtime::expr::div(#l, #r)), T::Int),
                    BinOp::Mod => (quote!(::binspec_runtime::expr::modulo(#l, #r)), T::Int),
                    BinOp::Mul if !float => (quote!((#l).wrapping_mul(#r)), T::Int),
                    BinOp::Shl => (quote!(::binspec_runtime::expr::shl(#l, #r)), T::Int),
                    BinOp::Shr => (quote!(::binspec_runtime::expr::shr(#l, #r)), T::Int),
                    _ if op.is_comparison() || matches!(op, BinOp::And | BinOp::Or) => {
                        (quote!((#l #o #r)), T::Bool)
                    }
                    _ if matches!(lt, T::Bool) => (quote!((#l #o #r)), T::Bool),
                    _ => (quote!((#l #o #r)), num),
                }
            }
            ExprKind::Ternary { cond, then, else_ } => {
                let (c, _) = self.tr(cond, path)?;
                let (a, at) = self.tr(then, path)?;
                let (b, bt) = self.tr(else_, path)?;
                match (&at, &bt) {
                    // Branches may be borrowed or owned: both become owned.
                    (T::Str, T::Str) => (
                        quote!((if #c { (#a).to_string() } else { (#b).to_string() })),
                        T::Str,
                    ),
                    (T::Bytes, T::Bytes) => (
                        quote!((if #c { (#a).to_vec() } else { (#b).to_vec() })),
                        T::Bytes,
                    ),
                    (T::Int, T::Float) => (quote!((if #c { (#a) as f64 } else { #b })), T::Float),
                    (T::Float, T::Int) => (quote!((if #c { #a } else { (#b) as f64 })), T::Float),
                    (T::Bool, T::Int) => (quote!((if #c { (#a) as i128 } else { #b })), T::Int),
                    (T::Int, T::Bool) => (quote!((if #c { #a } else { (#b) as i128 })), T::Int),
                    _ => (quote!((if #c { #a } else { #b })), at),
                }
            }
            ExprKind::EnumValue {
                path: epath, value, ..
            } => {
                let ename = epath.last().cloned().unwrap_or_default();
                let en = self.find_enum(&ename).ok_or_else(|| EmitError {
                    path: path.into(),
                    message: format!("unknown enum '{ename}'"),
                })?;
                let v = self.m.enums[en]
                    .values
                    .iter()
                    .find(|(_, id, _)| id == value)
                    .map(|(v, _, _)| *v)
                    .ok_or_else(|| EmitError {
                        path: path.into(),
                        message: format!("enum '{ename}' has no value '{value}'"),
                    })?;
                (int_lit(v), T::Int)
            }
            ExprKind::Cast { base, ty } => {
                let (b, bt) = self.tr(base, path)?;
                let name = ty.path.join("::");
                match name.as_str() {
                    n if crate::ir::is_int_type_name(n) => (b, T::Int),
                    "f4" | "f8" | "f4le" | "f4be" | "f8le" | "f8be" => (b, T::Float),
                    "bytes" => (b, T::Bytes),
                    "str" => (b, T::Str),
                    _ => {
                        // The type named by the path (its last names must match the type's own path).
                        let want: Vec<&String> = ty.path.iter().filter(|p| !p.is_empty()).collect();
                        let target = self.m.types.iter().position(|t| {
                            t.path.len() >= want.len()
                                && t.path[t.path.len() - want.len()..]
                                    .iter()
                                    .zip(want.iter())
                                    .all(|(a, b)| a == *b)
                        });
                        match (target, bt) {
                            (Some(t), T::Switch(owner, field)) if !ty.array => {
                                // A downcast of a switch: the case that holds that type.
                                let (sw, cases, en) = self.switch_field(owner, &field, path)?;
                                let Some(c) = cases.iter().find(|c| c.user() == Some(t)) else {
                                    return err(
                                        path,
                                        format!("'{}' cannot hold a '{name}'", sw.name),
                                    );
                                };
                                let v = ty_ident(&c.variant);
                                (
                                    quote!((match &(#b) { #en::#v(x) => (*x).clone(), _ => ::std::default::Default::default() })),
                                    T::User(t),
                                )
                            }
                            (Some(t), _) if !ty.array => (b, T::User(t)),
                            _ => return err(path, format!("cannot cast to '{name}'")),
                        }
                    }
                }
            }
            ExprKind::SizeOf { .. } => {
                return err(
                    path,
                    format!("'{e}' is not supported by the Rust emitter yet"),
                )
            }
        })
    }

    fn name(&mut self, n: &str, path: &str) -> R<(TokenStream, T)> {
        let me = self.me();
        let t = self.t();
        match n {
            "_index" => return Ok((quote!((i as i128)), T::Int)),
            "_" => {
                let t = self.last_t.clone().unwrap_or(T::Int);
                return Ok(match t {
                    T::Int => (quote!((v__ as i128)), T::Int),
                    T::Str => (quote!((&v__[..])), T::Str),
                    T::Bytes => (quote!((&v__[..])), T::Bytes),
                    t => (quote!(v__), t),
                });
            }
            _ => {}
        }
        if let Some(p) = t.params.iter().find(|p| p.name == n) {
            if self.scope == Scope::Model {
                return err(path, format!("parameter '{n}' is not kept in the model"));
            }
            let id = local("p", n);
            return Ok(match &p.ty {
                FieldTy::Float { .. } => (quote!(#id), T::Float),
                FieldTy::Bits { n: 1, .. } => (quote!(#id), T::Bool),
                FieldTy::Str { .. } => (quote!(#id), T::Str),
                FieldTy::Bytes => (quote!(#id), T::Bytes),
                FieldTy::User { ty, .. } => (quote!(#id), T::User(*ty)),
                _ => (quote!(#id), T::Int),
            });
        }
        if let Some(l) = t.layout.iter().find(|l| l.name == n) {
            let id = ident(&l.name);
            return match self.scope {
                Scope::Read => err(
                    path,
                    format!("layout field '{}' is not known while reading", l.name),
                ),
                _ => Ok((quote!((#me.#id as i128)), T::Int)),
            };
        }
        let Some(f) = find(t, n) else {
            return err(
                path,
                format!("no field, instance or parameter '{n}' in type '{}'", t.name),
            );
        };
        let ft = self.field_t(f);
        let id = ident(n);
        match self.scope {
            Scope::Read => {
                let v = local("v", n);
                if let Some(val) = &f.value {
                    if f.is_instance {
                        // Value instances are computed where they are used.
                        let val = val.clone();
                        let (v, ty) = self.tr(&val.expr, &val.path)?;
                        if let Some(h) = &f.hook {
                            // `-hook`: the hand-written function of the stream's bytes, of the expression's type.
                            let module = format_ident!("{}", self.m.id.replace('-', "_"));
                            let h = format_ident!("{h}");
                            return Ok((quote!(crate::hooks::#module::#h(r.buf())), ty));
                        }
                        return Ok((v, ty));
                    }
                }
                Ok(match ft {
                    T::Int if valued(f) => {
                        if f.cond.is_some() {
                            (quote!(#v.map_or(0, |e| e.value())), T::Int)
                        } else {
                            (quote!(#v.value()), T::Int)
                        }
                    }
                    T::Int => {
                        if f.cond.is_some() {
                            (quote!((#v.unwrap_or_default() as i128)), T::Int)
                        } else {
                            (quote!((#v as i128)), T::Int)
                        }
                    }
                    T::Str if f.cond.is_some() => (quote!(#v.as_deref().unwrap_or("")), T::Str),
                    T::Str => (quote!((&#v[..])), T::Str),
                    T::Bytes if f.cond.is_some() => {
                        (quote!(#v.as_deref().unwrap_or(&[][..])), T::Bytes)
                    }
                    T::Bytes => (quote!((&#v[..])), T::Bytes),
                    T::Float if f.cond.is_some() => {
                        (quote!((#v.unwrap_or_default() as f64)), T::Float)
                    }
                    T::Float => (quote!((#v as f64)), T::Float),
                    other if f.cond.is_some() => (quote!(#v.clone().unwrap_or_default()), other),
                    other => (quote!(#v), other),
                })
            }
            Scope::Write | Scope::Model => {
                if f.role == Role::Kept {
                    // The model's value, not the expression (which names what is derived from it).
                    return Ok((quote!((#me.#id as i128)), T::Int));
                }
                if let Some(val) = &f.value {
                    if f.hook.is_some() {
                        return err(
                            &val.path,
                            "a '-hook' value instance is computed from the stream's bytes, so only while reading",
                        );
                    }
                    let val = val.clone();
                    return self.tr(&val.expr, &val.path);
                }
                match &f.role {
                    Role::Const(ConstVal::Int(v)) => Ok((int_lit(*v), T::Int)),
                    Role::Const(ConstVal::Bytes(b)) => {
                        let b = b.clone();
                        Ok((quote!((&[#(#b),*][..])), T::Bytes))
                    }
                    Role::Count { of } => {
                        let opt = find(t, of).is_some_and(|x| x.cond.is_some());
                        let of = ident(of);
                        Ok(if opt {
                            (
                                quote!((#me.#of.as_ref().map_or(0, |v| v.len()) as i128)),
                                T::Int,
                            )
                        } else {
                            (quote!((#me.#of.len() as i128)), T::Int)
                        })
                    }
                    // In a finished model, a size that is just this field is the length of what it sizes.
                    Role::Length { of }
                        if self.scope == Scope::Model
                            && find(t, of)
                                .and_then(|x| x.size.as_ref())
                                .and_then(|s| crate::ir::bare_name(&s.expr))
                                == Some(n) =>
                    {
                        let target = find(t, of).ok_or_else(|| EmitError {
                            path: path.into(),
                            message: "internal".into(),
                        })?;
                        let of = ident(of);
                        Ok(match (&target.ty, target.cond.is_some()) {
                            (_, true) => (
                                quote!((#me.#of.as_ref().map_or(0, |x| x.len()) as i128)),
                                T::Int,
                            ),
                            _ => (quote!((#me.#of.len() as i128)), T::Int),
                        })
                    }
                    Role::Derive(_) if self.scope == Scope::Write && ft == T::Bytes => {
                        let d = local("d", n);
                        Ok((quote!((&#d[..])), T::Bytes))
                    }
                    Role::Length { .. } | Role::Offset { .. } | Role::Derive(_)
                        if self.scope == Scope::Write =>
                    {
                        let d = local("d", n);
                        Ok((quote!(#d), T::Int))
                    }
                    Role::Data | Role::Placed => Ok(match ft {
                        T::Int if valued(f) && f.cond.is_some() => {
                            (quote!(#me.#id.map_or(0, |e| e.value())), T::Int)
                        }
                        T::Int if valued(f) => (quote!(#me.#id.value()), T::Int),
                        T::Int if f.cond.is_some() => {
                            (quote!((#me.#id.unwrap_or_default() as i128)), T::Int)
                        }
                        T::Int => (quote!((#me.#id as i128)), T::Int),
                        T::Str if f.cond.is_some() => {
                            (quote!(#me.#id.as_deref().unwrap_or("")), T::Str)
                        }
                        T::Str => (quote!((&#me.#id[..])), T::Str),
                        T::Bytes if f.cond.is_some() => {
                            (quote!(#me.#id.as_deref().unwrap_or(&[][..])), T::Bytes)
                        }
                        T::Bytes => (quote!((&#me.#id[..])), T::Bytes),
                        T::Float if f.cond.is_some() => {
                            (quote!((#me.#id.unwrap_or_default() as f64)), T::Float)
                        }
                        T::Float => (quote!((#me.#id as f64)), T::Float),
                        other if f.cond.is_some() => {
                            (quote!(#me.#id.clone().unwrap_or_default()), other)
                        }
                        other => (quote!(#me.#id), other),
                    }),
                    Role::View if f.is_instance => match self.endian_view(n)? {
                        Some(tok) => Ok((tok, T::Int)),
                        None => err(
                            path,
                            format!(
                                "'{n}' is only read, never written: it is not known in the model"
                            ),
                        ),
                    },
                    _ => err(
                        path,
                        format!("'{n}' is not known in the model (it is derived when writing)"),
                    ),
                }
            }
        }
    }

    /// A view that the type's byte order switches on (`meta: endian: switch-on: NAME`) is known from the model's
    /// byte order: the case value that gives it.
    fn endian_view(&mut self, n: &str) -> R<Option<TokenStream>> {
        let EndianSpec::Switch { on, cases } = &self.t().endian else {
            return Ok(None);
        };
        if crate::ir::bare_name(&on.expr) != Some(n) {
            return Ok(None);
        }
        let key = |e: Endian| cases.iter().find(|(k, c)| *c == e && k.text != "_");
        let (Some((le, _)), Some((be, _))) = (key(Endian::Le), key(Endian::Be)) else {
            return Ok(None);
        };
        let (le, _) = self.tr(&le.expr.clone(), &le.path.clone())?;
        let (be, _) = self.tr(&be.expr.clone(), &be.path.clone())?;
        let endian = match self.scope {
            Scope::Model => {
                let me = self.me();
                quote!(#me.endian)
            }
            _ => quote!(endian),
        };
        Ok(Some(quote!((match #endian {
            ::binspec_runtime::Endian::Little => #le,
            ::binspec_runtime::Endian::Big => #be,
        }))))
    }

    fn attr(&mut self, base: &Expr, name: &str, path: &str) -> R<(TokenStream, T)> {
        let me = self.me();
        // Outer values.
        if let Some(chain) = chain_of(&Expr {
            kind: ExprKind::Attr {
                base: Box::new(base.clone()),
                name: name.to_string(),
                name_span: Default::default(),
            },
            span: Default::default(),
        }) {
            if chain[0] == "_root" && self.ty == 0 {
                let inner = rebase(&chain[1..]);
                return self.tr(&inner, path);
            }
            // A constant of an outer type folds to a literal.
            if let Some(f) = self.resolve_chain(&chain) {
                if let Role::Const(ConstVal::Int(v)) = f.role {
                    return Ok((int_lit(v), T::Int));
                }
            }
            if chain.len() >= 2 {
                let id = param_ident(&chain);
                let t = match chain.last().map(|s| s.as_str()) {
                    Some("_pos") => T::Int,
                    _ => match self.resolve_chain(&chain) {
                        Some(f) => self.field_t(f),
                        None => return err(path, format!("cannot resolve '{}'", chain.join("."))),
                    },
                };
                return Ok((quote!(#id), t));
            }
        }
        if let ExprKind::Name(b) = &base.kind {
            if b == "_io" {
                return Ok(match (name, self.scope) {
                    ("size", Scope::Read) => (quote!((r.size() as i128)), T::Int),
                    ("pos", Scope::Read) => (quote!((r.pos() as i128)), T::Int),
                    ("eof", Scope::Read) => (quote!(r.is_eof()), T::Bool),
                    ("size", Scope::Write) => (quote!((io.size(ctx) as i128)), T::Int),
                    ("pos", Scope::Write) => (quote!((io.pos(w) as i128)), T::Int),
                    _ => return err(path, format!("'_io.{name}' is not supported here")),
                });
            }
            if name == "_pos" || name == "_present" {
                let f = find(self.t(), b).ok_or_else(|| EmitError {
                    path: path.into(),
                    message: format!("no field '{b}'"),
                })?;
                let p = local("pos", b);
                let k = local("k", b);
                return Ok(match (name, self.scope) {
                    ("_pos", Scope::Read) => (quote!(#p), T::Int),
                    ("_pos", _) => (quote!((ctx.prev_pos(#k) as i128)), T::Int),
                    ("_present", Scope::Read) => {
                        let v = local("v", b);
                        (quote!(#v.is_some()), T::Bool)
                    }
                    _ => {
                        let id = ident(b);
                        if f.cond.is_some() {
                            (quote!(#me.#id.is_some()), T::Bool)
                        } else {
                            (quote!(true), T::Bool)
                        }
                    }
                });
            }
        }
        // `x.field._present` on an element or another value of a user type: whether its optional field is there.
        if let ExprKind::Attr {
            base: inner,
            name: fname,
            ..
        } = &base.kind
        {
            if name == "_present" {
                let (ib, it) = self.tr(inner, path)?;
                let T::User(uti) = it else {
                    return err(path, "'_present' needs a field of a user type");
                };
                let f = find(&self.m.types[uti], fname).ok_or_else(|| EmitError {
                    path: path.into(),
                    message: format!("no field '{fname}'"),
                })?;
                let id = ident(fname);
                return Ok(if f.cond.is_some() {
                    (quote!(#ib.#id.is_some()), T::Bool)
                } else {
                    (quote!(true), T::Bool)
                });
            }
        }
        let (b, bt) = self.tr(base, path)?;
        match (name, &bt) {
            ("size" | "length", T::Bytes) => Ok((quote!((#b.len() as i128)), T::Int)),
            ("length", T::Str) => Ok((quote!((#b.chars().count() as i128)), T::Int)),
            ("reverse", T::Str) => Ok((
                quote!(#b.chars().rev().collect::<::std::string::String>()),
                T::Str,
            )),
            ("to_i", T::Str) => Ok((quote!(#b.parse::<i128>().unwrap_or(0)), T::Int)),
            ("to_i", T::Float) => Ok((quote!((#b as i128)), T::Int)),
            ("to_s", T::Int) => Ok((quote!((#b).to_string()), T::Str)),
            ("first" | "last" | "min" | "max", T::Bytes) => {
                let m = format_ident!("{}", name);
                let it = match name {
                    "first" | "last" => quote!(#b.#m().copied()),
                    _ => quote!(#b.iter().copied().#m()),
                };
                Ok((quote!(#it.map_or(0, |x| x as i128)), T::Int))
            }
            ("first" | "last" | "min" | "max", T::Array(et)) if **et == T::Int => {
                let m = format_ident!("{}", name);
                let it = match name {
                    "first" | "last" => quote!(#b.#m().map(|x| *x as i128)),
                    _ => quote!(#b.iter().map(|x| *x as i128).#m()),
                };
                Ok((quote!(#it.unwrap_or(0)), T::Int))
            }
            ("first" | "last", T::Array(et)) => {
                let m = format_ident!("{}", name);
                Ok((quote!(#b.#m().cloned().unwrap_or_default()), (**et).clone()))
            }
            ("size" | "length", T::Array(_)) => Ok((quote!((#b.len() as i128)), T::Int)),
            ("to_i", T::Bool) => Ok((quote!((#b as i128)), T::Int)),
            ("to_i", T::Int) => Ok((b, T::Int)),
            (_, T::User(ty)) if *ty != usize::MAX => {
                let f = find(&self.m.types[*ty], name).ok_or_else(|| EmitError {
                    path: path.into(),
                    message: format!("no field '{name}' in '{}'", self.m.types[*ty].name),
                })?;
                // Translate the field in the model scope of that type, reached through `#b`.
                let saved = (self.ty, self.scope, self.base.replace(b));
                self.ty = *ty;
                self.scope = Scope::Model;
                let inner = self.name(&f.name.clone(), path);
                self.ty = saved.0;
                self.scope = saved.1;
                self.base = saved.2;
                inner
            }
            (_, T::Switch(owner, field)) => {
                // The field of whichever type the switch holds: every case type must have it.
                let (_, cases, en) = self.switch_field(*owner, field, path)?;
                let mut arms = Vec::new();
                let mut out_t = None;
                let mut seen = BTreeSet::new();
                for c in cases.iter().filter(|c| seen.insert(c.variant.clone())) {
                    let Some(ct) = c.user() else {
                        return err(
                            path,
                            format!(
                                "'.{name}' on a switch that can hold a {}",
                                c.variant.to_lowercase()
                            ),
                        );
                    };
                    if find(&self.m.types[ct], name).is_none() {
                        return err(
                            path,
                            format!("'{}' has no field '{name}'", self.m.types[ct].name),
                        );
                    }
                    let saved = (self.ty, self.scope, self.base.replace(quote!(x)));
                    self.ty = ct;
                    self.scope = Scope::Model;
                    let inner = self.name(name, path);
                    self.ty = saved.0;
                    self.scope = saved.1;
                    self.base = saved.2;
                    let (tok, t) = inner?;
                    let v = ty_ident(&c.variant);
                    // Values that borrow from `x` are turned into owned ones.
                    let tok = match t {
                        T::Str => quote!(#tok.to_string()),
                        T::Bytes => quote!(#tok.to_vec()),
                        _ => tok,
                    };
                    arms.push(quote!(#en::#v(x) => #tok,));
                    out_t.get_or_insert(t);
                }
                let t = out_t.unwrap_or(T::Int);
                Ok((quote!((match &(#b) { #(#arms)* })), t))
            }
            _ => err(path, format!("'.{name}' on {bt:?} is not supported yet")),
        }
    }

    /// A switch field, its cases and the name of its enum.
    fn switch_field(
        &self,
        owner: usize,
        field: &str,
        path: &str,
    ) -> R<(&'m Field, &'m [crate::ir::SwitchCase], Ident)> {
        let sw = find(&self.m.types[owner], field).ok_or_else(|| EmitError {
            path: path.into(),
            message: format!("internal: no switch '{field}'"),
        })?;
        let FieldTy::Switch { cases, .. } = &sw.ty else {
            return err(path, "internal: not a switch");
        };
        Ok((sw, cases, switch_enum_name(self.m, sw)))
    }

    /// What model fields are reached through: `self`, or another value's model.
    fn me(&self) -> TokenStream {
        match &self.base {
            Some(b) => quote!((#b)),
            None => quote!(self),
        }
    }

    /// An enum by name, looking from this type outwards, then anywhere.
    fn find_enum(&self, name: &str) -> Option<usize> {
        let mut scope = Some(self.ty);
        while let Some(s) = scope {
            if let Some(i) = self
                .m
                .enums
                .iter()
                .position(|e| e.owner == s && e.name == name)
            {
                return Some(i);
            }
            scope = self.m.types[s].parent;
        }
        self.m.enums.iter().position(|e| e.name == name)
    }

    /// The field that a `_root.a.b` or `_parent.x` chain names.
    fn resolve_chain(&self, chain: &[String]) -> Option<&'m Field> {
        let mut ty = match chain[0].as_str() {
            "_root" => 0,
            "_parent" => self.m.owners[self.ty]?,
            _ => return None,
        };
        let mut field = None;
        for (i, part) in chain[1..].iter().enumerate() {
            if part.starts_with('_') {
                return if i == chain.len() - 2 { field } else { None };
            }
            let f = find(&self.m.types[ty], part)?;
            field = Some(f);
            if let FieldTy::User { ty: t, .. } = f.ty {
                ty = t;
            }
        }
        field
    }
}

fn rebase(chain: &[String]) -> Expr {
    let mut e = Expr {
        kind: ExprKind::Name(chain[0].clone()),
        span: Default::default(),
    };
    for c in &chain[1..] {
        e = Expr {
            kind: ExprKind::Attr {
                base: Box::new(e),
                name: c.clone(),
                name_span: Default::default(),
            },
            span: Default::default(),
        };
    }
    e
}

/// Every expression of a type, with its YAML path.
fn exprs_of(t: &TypeDef) -> Vec<&Expr> {
    let mut out = Vec::new();
    if let EndianSpec::Switch { on, .. } = &t.endian {
        out.push(&on.expr);
    }
    for f in t.seq.iter().chain(t.instances.iter()) {
        for x in [&f.size, &f.cond, &f.pos_expr, &f.value, &f.sort_by]
            .into_iter()
            .flatten()
        {
            out.push(&x.expr);
        }
        match &f.repeat {
            Repeat::Expr(x) | Repeat::Until(x) => out.push(&x.expr),
            _ => {}
        }
        if let Role::Derive(x) = &f.role {
            out.push(&x.expr);
        }
        match &f.ty {
            FieldTy::User { args, .. } => out.extend(args.iter().map(|a| &a.expr)),
            FieldTy::Switch { on, .. } => out.push(&on.expr),
            _ => {}
        }
    }
    out
}

fn collect_chains(e: &Expr, out: &mut BTreeSet<Vec<String>>) {
    if let Some(c) = chain_of(e) {
        if c.len() >= 2 {
            out.insert(c);
            return;
        }
    }
    for c in crate::ir::children(e) {
        collect_chains(c, out);
    }
}

fn collect_pos_refs(e: &Expr, ty: usize, out: &mut BTreeMap<usize, BTreeSet<String>>) {
    if let ExprKind::Attr { base, name, .. } = &e.kind {
        if let (ExprKind::Name(b), "_pos") = (&base.kind, name.as_str()) {
            out.entry(ty).or_default().insert(b.clone());
        }
    }
    for c in crate::ir::children(e) {
        collect_pos_refs(c, ty, out);
    }
}

/// Types that a type reads directly.
fn children(t: &TypeDef) -> Vec<usize> {
    let mut out = Vec::new();
    for f in t.seq.iter().chain(t.instances.iter()) {
        match &f.ty {
            FieldTy::User { ty, .. } => out.push(*ty),
            FieldTy::Switch { cases, .. } => out.extend(cases.iter().filter_map(|c| c.user())),
            _ => {}
        }
    }
    out
}

/// Pass `implicit_params`: the outer values each type needs, as `_root...`/`_parent...` chains.
fn implicit_params(m: &Module) -> Vec<BTreeSet<Vec<String>>> {
    let mut direct: Vec<BTreeSet<Vec<String>>> = m
        .types
        .iter()
        .map(|t| {
            let mut s = BTreeSet::new();
            for e in exprs_of(t) {
                collect_chains(e, &mut s);
            }
            s
        })
        .collect();
    // The root resolves `_root` chains itself; constants fold.
    for (i, s) in direct.iter_mut().enumerate() {
        s.retain(|c| !(i == 0 && c[0] == "_root"));
    }
    loop {
        let mut changed = false;
        for ti in 0..m.types.len() {
            for c in children(&m.types[ti]) {
                let needs: Vec<Vec<String>> = direct[c]
                    .iter()
                    .filter(|k| k[0] == "_root" && ti != 0)
                    .cloned()
                    .collect();
                for k in needs {
                    changed |= direct[ti].insert(k);
                }
            }
        }
        if !changed {
            break;
        }
    }
    direct
}

/// The way from the root to an archive's entries (each step's type and field name), and the entry type.
type ViewPlan = (Vec<(usize, String)>, usize);

struct Gen<'m> {
    m: &'m Module,
    /// Fields (by YAML path) that hold a type containing their own type: boxed, so the model has a finite size.
    boxed: BTreeSet<String>,
    params: Vec<BTreeSet<Vec<String>>>,
    pos_refs: BTreeMap<usize, BTreeSet<String>>,
    slots: BTreeMap<(usize, String), u32>,
    /// Set while the archive entry's `view_file` is generated: kept bytes and strings borrow the input, and no
    /// layout choice is inferred.
    view: std::cell::Cell<bool>,
    /// [`Gen::view_plan`], worked out once.
    view_plan: std::cell::OnceCell<Option<ViewPlan>>,
}

impl<'m> Gen<'m> {
    fn cx(&self, ty: usize, scope: Scope) -> Cx<'_> {
        Cx {
            m: self.m,
            last_t: None,
            base: None,
            ty,
            scope,
            depth: 0,
        }
    }

    fn slot(&self, ty: usize, name: &str) -> u32 {
        self.slots[&(ty, name.to_string())]
    }

    /// The implicit params of a type, with the Rust types used to pass them.
    fn param_list(&self, ty: usize) -> Vec<(Vec<String>, Ident, TokenStream)> {
        self.params[ty]
            .iter()
            .filter(|k| {
                // Constants fold and need no argument.
                let cx = self.cx(ty, Scope::Read);
                !matches!(
                    cx.resolve_chain(k).map(|f| &f.role),
                    Some(Role::Const(ConstVal::Int(_)))
                )
            })
            .map(|k| {
                let cx = self.cx(ty, Scope::Read);
                let rt = match k.last().map(|s| s.as_str()) {
                    Some("_pos") => quote!(i128),
                    _ => match cx.resolve_chain(k).map(|f| cx.field_t(f)) {
                        Some(T::Bool) => quote!(bool),
                        Some(T::Float) => quote!(f64),
                        Some(T::Bytes) => quote!(&[u8]),
                        Some(T::Str) => quote!(&str),
                        Some(T::User(t)) if t != usize::MAX => {
                            let n = ty_ident(&self.m.types[t].rust);
                            quote!(&#n)
                        }
                        Some(T::Array(_)) => {
                            // An array is passed as a slice of its model elements.
                            let f = cx.resolve_chain(k).cloned().map(|mut f| {
                                f.repeat = Repeat::None;
                                f.cond = None;
                                f
                            });
                            match f {
                                Some(f) => {
                                    let et = self.model_ty(&f);
                                    quote!(&[#et])
                                }
                                None => quote!(i128),
                            }
                        }
                        _ => quote!(i128),
                    },
                };
                (k.clone(), param_ident(k), rt)
            })
            .collect()
    }

    /// Arguments that type `caller` passes to child type `child` (user params first, then implicit ones).
    fn args_for(
        &self,
        caller: usize,
        child: usize,
        user_args: &[crate::ir::Ex],
        scope: Scope,
        path: &str,
    ) -> R<TokenStream> {
        let mut out = Vec::new();
        let params = &self.m.types[child].params;
        if user_args.len() != params.len() {
            return err(
                path,
                format!(
                    "type '{}' takes {} argument(s), {} given",
                    self.m.types[child].name,
                    params.len(),
                    user_args.len()
                ),
            );
        }
        for (a, p) in user_args.iter().zip(params) {
            let (t, at) = self.cx(caller, scope).tr(&a.expr, &a.path)?;
            out.push(match (&p.ty, at) {
                (FieldTy::Str { .. } | FieldTy::Bytes | FieldTy::User { .. }, _) => quote!(&(#t)),
                (FieldTy::Float { .. }, T::Int) => quote!((#t) as f64),
                (FieldTy::Bits { n: 1, .. }, _) => quote!(#t),
                (_, T::Bool) => quote!((#t) as i128),
                _ => t,
            });
        }
        for (k, _, rt) in self.param_list(child) {
            // `_parent.x` is `x` in the caller; the root resolves `_root.x` itself; other types pass it along.
            let t = if k[0] == "_parent" || caller == 0 {
                let t = self.cx(caller, scope).tr(&rebase(&k[1..]), path)?.0;
                if rt.to_string().starts_with('&') {
                    quote!(&(#t))
                } else {
                    t
                }
            } else {
                let id = param_ident(&k);
                quote!(#id)
            };
            out.push(t);
        }
        Ok(quote!(#(#out),*))
    }

    fn model_ty(&self, f: &Field) -> TokenStream {
        let base = match &f.ty {
            FieldTy::Int { .. } | FieldTy::Bits { .. } if f.enum_.is_some() => {
                let n = ty_ident(&self.m.enums[f.enum_.unwrap_or(0)].rust);
                quote!(#n)
            }
            FieldTy::Int { bytes, signed, .. } => rust_int(*bytes, *signed),
            FieldTy::Float { bytes: 4, .. } => quote!(f32),
            FieldTy::Float { .. } => quote!(f64),
            FieldTy::Bits { n: 1, .. } => quote!(bool),
            FieldTy::Bits { .. } => quote!(u64),
            FieldTy::Bytes => quote!(::binspec_runtime::Bytes),
            FieldTy::Str { .. } => quote!(::binspec_runtime::Str),
            FieldTy::User { ty, .. } => {
                let n = ty_ident(&self.m.types[*ty].rust);
                if f.repeat == Repeat::None && self.boxed.contains(&f.path) {
                    quote!(::std::boxed::Box<#n>)
                } else {
                    quote!(#n)
                }
            }
            FieldTy::Switch { .. } => {
                let n = switch_enum_name(self.m, f);
                quote!(#n)
            }
            FieldTy::Value => quote!(i128),
        };
        let base = if f.repeat != Repeat::None {
            quote!(::std::vec::Vec<#base>)
        } else {
            base
        };
        if f.cond.is_some() {
            quote!(::std::option::Option<#base>)
        } else {
            base
        }
    }
}

fn switch_enum_name(m: &Module, f: &Field) -> Ident {
    // Owner type name + field name, e.g. `RsizetableTable`.
    let owner = m.types.iter().find(|t| {
        t.seq
            .iter()
            .chain(t.instances.iter())
            .any(|x| std::ptr::eq(x, f))
    });
    let o = owner.map(|t| t.rust.clone()).unwrap_or_default();
    format_ident!("{}{}", o, crate::ir::camel(&f.name))
}

fn doc_attr(doc: &Option<String>) -> TokenStream {
    match doc {
        Some(d) => {
            let lines: Vec<String> = d.trim_end().lines().map(|l| format!(" {l}")).collect();
            quote!(#(#[doc = #lines])*)
        }
        None => quote!(),
    }
}

/// Generates the Rust module for one schema.
pub fn emit(m: &Module) -> R<TokenStream> {
    let params = implicit_params(m);
    let mut pos_refs = BTreeMap::new();
    for (ti, t) in m.types.iter().enumerate() {
        for e in exprs_of(t) {
            collect_pos_refs(e, ti, &mut pos_refs);
        }
        // Pool items always get a slot.
        for f in &t.instances {
            if f.item_of.is_some() {
                pos_refs.entry(ti).or_default().insert(f.name.clone());
            }
        }
    }
    // `_root.x._pos` style references name a field of another type.
    for (ti, t) in m.types.iter().enumerate() {
        let mut chains = BTreeSet::new();
        for e in exprs_of(t) {
            collect_chains(e, &mut chains);
        }
        let _ = ti;
        for c in chains {
            if c.last().map(|s| s.as_str()) == Some("_pos") && c[0] == "_root" && c.len() == 3 {
                pos_refs.entry(0).or_default().insert(c[1].clone());
            }
        }
    }
    let mut slots = BTreeMap::new();
    for (ti, names) in &pos_refs {
        for n in names {
            let s = slots.len() as u32;
            slots.insert((*ti, n.clone()), s);
        }
    }
    let g = Gen {
        m,
        boxed: recursive_fields(m),
        params,
        pos_refs,
        slots,
        view: std::cell::Cell::new(false),
        view_plan: std::cell::OnceCell::new(),
    };
    let mut items = Vec::new();
    for ti in 0..m.types.len() {
        items.push(g.emit_type(ti)?);
    }
    for e in &m.enums {
        items.push(emit_enum(e));
    }
    items.push(g.emit_root_impl()?);
    let doc = doc_attr(&m.doc);
    let _ = doc;
    Ok(quote!(#(#items)*))
}

impl<'m> Gen<'m> {
    /// Whether some type's model keeps raw bytes read from the file (which then share the file's buffer when it is
    /// read with `from_bytes`). Strings do not count: sharing them costs more than copying them (the TotK resource
    /// size table's names: 12.8 ms to read shared, 7.3 ms copied).
    fn model_shares_input(&self) -> bool {
        let shares = |ty: &FieldTy| matches!(ty, FieldTy::Bytes);
        self.m.types.iter().enumerate().any(|(ti, t)| {
            self.tail_region(ti).is_some()
                || t.seq.iter().chain(t.instances.iter()).any(|f| {
                    matches!(f.role, Role::Data | Role::Placed)
                        && (shares(&f.ty)
                            || matches!(&f.ty, FieldTy::Switch { cases, .. }
                                if cases.iter().any(|c| c.prim.as_ref().is_some_and(shares))))
                })
        })
    }

    /// The value a new model gives field `f` of type `ti`: its `-default` expression, or the type's default.
    fn model_default(&self, ti: usize, f: &Field) -> R<TokenStream> {
        Ok(match &f.default {
            Some(d) => {
                let (tok, _) = self.cx(ti, Scope::Model).tr(&d.expr, &d.path)?;
                quote!((#tok) as _)
            }
            None => quote!(::std::default::Default::default()),
        })
    }

    fn emit_type(&self, ti: usize) -> R<TokenStream> {
        let t = &self.m.types[ti];
        let name = ty_ident(&t.rust);
        let mut fields = Vec::new();
        let mut defaults = Vec::new();
        let mut extra = Vec::new();
        if matches!(t.endian, EndianSpec::Switch { .. }) {
            fields.push(quote! {
                /// Byte order of the file.
                pub endian: ::binspec_runtime::Endian,
            });
            defaults.push(quote!(endian: ::binspec_runtime::Endian::Little,));
        }
        for f in t.seq.iter().chain(t.instances.iter()) {
            let id = ident(&f.name);
            let doc = doc_attr(&f.doc);
            match &f.role {
                Role::Data | Role::Placed => {
                    let ty = self.model_ty(f);
                    let serde = match (&f.ty, f.cond.is_some(), f.repeat != Repeat::None) {
                        (FieldTy::Bytes, false, false) => {
                            quote!(#[serde(with = "::binspec_runtime::bytes")])
                        }
                        (FieldTy::Bytes, true, false) => {
                            quote!(#[serde(default, with = "::binspec_runtime::bytes::option", skip_serializing_if = "Option::is_none")])
                        }
                        (_, true, _) => {
                            quote!(#[serde(default, skip_serializing_if = "Option::is_none")])
                        }
                        _ => quote!(),
                    };
                    fields.push(quote!(#doc #serde pub #id: #ty,));
                    let dv = self.model_default(ti, f)?;
                    defaults.push(quote!(#id: #dv,));
                    if let Some(pool) = f.item_of {
                        let aid = format_ident!("{}_align", f.name);
                        let d = format!(" Alignment of `{}` where the default ({:#x}) does not reproduce the file.", f.name, self.m.pools[pool].item_align);
                        fields.push(quote!(#[doc = #d] #[serde(default, skip_serializing_if = "Option::is_none")] pub #aid: ::std::option::Option<u64>,));
                        defaults.push(quote!(#aid: None,));
                    }
                }
                Role::Kept => {
                    let ty = self.model_ty(f);
                    let d = format!(
                        " Kept in the model: read as `{}`; when writing, this value is used where `{}` is named.",
                        f.value.as_ref().map_or("", |v| v.text.as_str()),
                        f.name
                    );
                    let dv = self.model_default(ti, f)?;
                    // Left out of the text where it has its default (the usual case), and that default where the
                    // text leaves it out.
                    let dfn = format_ident!("default_{}_{}", t.name, f.name);
                    let sfn = format_ident!("is_default_{}_{}", t.name, f.name);
                    let (dfn_s, sfn_s) = (dfn.to_string(), sfn.to_string());
                    fields.push(quote!(#doc #[doc = ""] #[doc = #d] #[serde(default = #dfn_s, skip_serializing_if = #sfn_s)] pub #id: #ty,));
                    extra.push(quote! {
                        fn #dfn() -> #ty { #dv }
                        fn #sfn(v: &#ty) -> bool { *v == #dfn() }
                    });
                    defaults.push(quote!(#id: #dv,));
                }
                Role::Derive(x) => {
                    let ty = self.model_ty(f);
                    let d = format!(
                        " Set only where the file disagrees with the derived value (`{}`).",
                        x.text
                    );
                    fields.push(quote!(#doc #[doc = ""] #[doc = #d] #[serde(default, skip_serializing_if = "Option::is_none")] pub #id: ::std::option::Option<#ty>,));
                    defaults.push(quote!(#id: None,));
                }
                _ => {}
            }
            if let FieldTy::Switch { cases, .. } = &f.ty {
                if matches!(f.role, Role::Data | Role::Placed) {
                    let en = switch_enum_name(self.m, f);
                    let mut seen = BTreeSet::new();
                    let vars: Vec<TokenStream> = cases
                        .iter()
                        .filter(|c| seen.insert(c.variant.clone()))
                        .map(|c| {
                            let v = ty_ident(&c.variant);
                            let ct = self.model_ty(&case_field(f, c));
                            quote!(#v(#ct),)
                        })
                        .collect();
                    let first = &cases[0];
                    let fv = ty_ident(&first.variant);
                    let doc = format!(" The types `{}` can hold.", f.name);
                    if int_switch(f) {
                        let mut seen = BTreeSet::new();
                        let arms: Vec<TokenStream> = cases
                            .iter()
                            .filter(|c| seen.insert(c.variant.clone()))
                            .map(|c| {
                                let v = ty_ident(&c.variant);
                                quote!(#en::#v(x) => *x as i128,)
                            })
                            .collect();
                        extra.push(quote! {
                            impl #en {
                                /// The integer, whichever size it was read as.
                                pub fn value(&self) -> i128 {
                                    match self { #(#arms)* }
                                }
                            }
                        });
                    }
                    extra.push(quote! {
                        #[doc = #doc]
                        #[derive(Debug, Clone, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
                        #[serde(rename_all = "snake_case")]
                        pub enum #en { #(#vars)* }
                        impl ::std::default::Default for #en {
                            fn default() -> Self { #en::#fv(::std::default::Default::default()) }
                        }
                    });
                }
            }
        }
        if let Some(f) = self.tail_region(ti) {
            let id = format_ident!("{}_trailing", f.name);
            let d = format!(
                " Bytes at the end of `{}` after the last item in it, which nothing in the file refers to (kept so that the file reads back the same; usually absent).",
                f.name
            );
            fields.push(quote!(#[doc = #d] #[serde(default, with = "::binspec_runtime::bytes::option", skip_serializing_if = "Option::is_none")] pub #id: ::std::option::Option<::binspec_runtime::Bytes>,));
            defaults.push(quote!(#id: None,));
        }
        for l in &t.layout {
            let id = ident(&l.name);
            let doc = doc_attr(&l.doc);
            let dfn = format_ident!("default_{}_{}", t.name, l.name);
            let dv = Literal::u64_unsuffixed(l.default as u64);
            let dfn_s = dfn.to_string();
            fields.push(quote!(#doc #[doc = ""] #[doc = " A layout choice: not stored in the file, inferred when reading."] #[serde(default = #dfn_s)] pub #id: u64,));
            defaults.push(quote!(#id: #dv,));
            extra.push(quote!(fn #dfn() -> u64 { #dv }));
        }
        let doc = doc_attr(&t.doc);
        let mut read = self.emit_read(ti)?;
        if self.view_plan().is_some_and(|(_, entry)| *entry == ti) {
            self.view.set(true);
            let view = self.emit_read(ti);
            self.view.set(false);
            read.extend(view?);
        }
        let write = self.emit_write(ti)?;
        let sort_keys = self.emit_sort_keys(ti)?;
        Ok(quote! {
            #doc
            #[derive(Debug, Clone, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
            #[serde(deny_unknown_fields)]
            pub struct #name { #(#fields)* }
            impl ::std::default::Default for #name {
                fn default() -> Self { #name { #(#defaults)* } }
            }
            #(#extra)*
            impl #name {
                #read
                #write
                #sort_keys
            }
        })
    }

    fn fn_params(&self, ti: usize) -> (Vec<TokenStream>, Vec<TokenStream>) {
        let read_params: Vec<TokenStream> = self
            .param_pairs(ti)
            .into_iter()
            .map(|(id, ty)| quote!(#id: #ty))
            .collect();
        (read_params.clone(), read_params)
    }

    /// The params a type's read function takes after the reader, byte order, pools and root stream: each name and
    /// Rust type (explicit params first, then the implicit ones).
    fn param_pairs(&self, ti: usize) -> Vec<(Ident, TokenStream)> {
        let t = &self.m.types[ti];
        let mut read_params = Vec::new();
        for p in &t.params {
            let id = local("p", &p.name);
            let ty = match &p.ty {
                FieldTy::Float { .. } => quote!(f64),
                FieldTy::Bits { n: 1, .. } => quote!(bool),
                FieldTy::Str { .. } => quote!(&str),
                FieldTy::Bytes => quote!(&[u8]),
                FieldTy::User { ty, .. } => {
                    let n = ty_ident(&self.m.types[*ty].rust);
                    quote!(&#n)
                }
                _ => quote!(i128),
            };
            read_params.push((id, ty));
        }
        for (_, id, rt) in self.param_list(ti) {
            read_params.push((id, rt));
        }
        read_params
    }

    /// For an archive whose files a view can list without building the model (`view_files`): the fields that
    /// lead from the root to the entries (type and field name each), and the entry type. Each step must be a plain
    /// field of a user type (no size, condition or processing), the last one repeated a counted number of times by
    /// entries of a known minimum size; the entry's name a UTF-8 string and its data bytes, none of its fields
    /// processed; and every param a number or a flag, so that the entries' arguments can be kept.
    fn view_plan(&self) -> Option<&ViewPlan> {
        self.view_plan
            .get_or_init(|| self.find_view_plan())
            .as_ref()
    }

    fn find_view_plan(&self) -> Option<ViewPlan> {
        let a = self.m.archive.as_ref()?;
        let mut ty = 0usize;
        let mut steps = Vec::new();
        let copy_params = |ti: usize| {
            self.param_pairs(ti).iter().all(|(_, t)| {
                let t = t.to_string();
                t == "i128" || t == "bool" || t == "f64"
            })
        };
        for (i, p) in a.entries.iter().enumerate() {
            let t = &self.m.types[ty];
            let f = t.seq.iter().find(|f| &f.name == p)?;
            let FieldTy::User { ty: next, .. } = &f.ty else {
                return None;
            };
            let plain = f.role == Role::Data
                && f.cond.is_none()
                && f.size.is_none()
                && !f.size_eos
                && !is_blob(f)
                && f.process.is_none()
                && !self.boxed.contains(&f.path);
            let last = i + 1 == a.entries.len();
            let shape = match &f.repeat {
                Repeat::None => !last,
                Repeat::Expr(_) => last && min_size(self.m, f) > 0,
                _ => false,
            };
            if !plain || !shape || !copy_params(ty) {
                return None;
            }
            steps.push((ty, f.name.clone()));
            ty = *next;
        }
        let et = &self.m.types[ty];
        let all = || et.seq.iter().chain(et.instances.iter());
        if all().any(|f| f.process.is_some()) || !copy_params(ty) {
            return None;
        }
        let utf8 = |e: &str| {
            let n: String = e
                .chars()
                .filter(|c| !matches!(c, '-' | '_'))
                .collect::<String>()
                .to_ascii_uppercase();
            n == "UTF8"
        };
        let nm = all().find(|f| f.name == a.name)?;
        let dt = all().find(|f| f.name == a.data)?;
        let name_ok = matches!(&nm.ty, FieldTy::Str { encoding, .. } if utf8(encoding))
            && nm.repeat == Repeat::None
            && matches!(nm.role, Role::Data | Role::Placed);
        let data_ok = matches!(dt.ty, FieldTy::Bytes)
            && dt.repeat == Repeat::None
            && matches!(dt.role, Role::Data | Role::Placed);
        (name_ok && data_ok).then_some((steps, ty))
    }

    /// The type of the arguments an entry's `view_file` takes, as one tuple.
    fn view_args_ty(&self, ti: usize) -> TokenStream {
        let tys: Vec<TokenStream> = self.param_pairs(ti).into_iter().map(|(_, t)| t).collect();
        quote!((#(#tys,)*))
    }

    /// `view_files_in` of a type on the way to an archive's entries: the statements of its read function up to
    /// the field that leads on (`pre`), then that field's view.
    fn emit_view_files_in(
        &self,
        ti: usize,
        pre: &[TokenStream],
        f: &Field,
        entry: usize,
    ) -> R<TokenStream> {
        let (params, _) = self.fn_params(ti);
        let FieldTy::User { ty: next, args } = &f.ty else {
            return err(&f.path, "internal: a view step is not a user type");
        };
        let a = self.args_for(ti, *next, args, Scope::Read, &f.path)?;
        let nt = ty_ident(&self.m.types[*next].rust);
        let fname = f.name.as_str();
        let args_ty = self.view_args_ty(entry);
        let tail = match &f.repeat {
            Repeat::Expr(x) => {
                let (cnt, _) = self.cx(ti, Scope::Read).tr(&x.expr, &x.path)?;
                let min = min_size(self.m, f);
                let id = self.m.id.as_str();
                let path: Vec<&str> = self
                    .m
                    .archive
                    .as_ref()
                    .map(|a| a.entries.iter().map(String::as_str).collect())
                    .unwrap_or_default();
                let tuple = if a.is_empty() {
                    quote!(())
                } else {
                    quote!((#a,))
                };
                quote! {
                    let n = #cnt;
                    if n < 0 {
                        return Err(::binspec_runtime::Error::invalid(r.abs_pos(), format!("negative count {n}"))).at(#fname);
                    }
                    r.check_count(n as u64, #min).at(#fname)?;
                    Ok(::binspec_runtime::ViewFiles::new(r.clone(), root_io.clone(), endian, n as usize, #tuple, #nt::view_file, &[#(#path),*], #id))
                }
            }
            _ => quote!(#nt::view_files_in(r, endian, pools, root_io, #a).at(#fname)),
        };
        Ok(quote! {
            #[allow(clippy::too_many_arguments, unused_variables, unused_parens, clippy::double_parens, clippy::identity_op, non_snake_case, unused_mut)]
            pub(crate) fn view_files_in<'a>(
                r: &mut ::binspec_runtime::Reader<'a>,
                endian: ::binspec_runtime::Endian,
                pools: &mut ::binspec_runtime::layout::ReadPools,
                root_io: &::binspec_runtime::Reader<'a>,
                #(#params),*
            ) -> ::binspec_runtime::Result<::binspec_runtime::ViewFiles<'a, #args_ty>> {
                use ::binspec_runtime::ResultExt as _;
                #(#pre)*
                #tail
            }
        })
    }

    fn read_prim(&self, f: &Field, ti: usize) -> R<TokenStream> {
        let _ = ti;
        Ok(match &f.ty {
            FieldTy::Int {
                bytes: 1,
                signed: false,
                ..
            } => quote!(r.u8()?),
            FieldTy::Int {
                bytes: 1,
                signed: true,
                ..
            } => quote!(r.i8()?),
            FieldTy::Int {
                bytes,
                signed,
                endian,
            } => {
                let e = endian_tokens(*endian);
                let m = format_ident!("{}{}", if *signed { "i" } else { "u" }, *bytes as u32 * 8);
                quote!(r.#m(#e)?)
            }
            FieldTy::Float { bytes, endian } => {
                let e = endian_tokens(*endian);
                let m = format_ident!("f{}", *bytes as u32 * 8);
                quote!(r.#m(#e)?)
            }
            FieldTy::Bits { n: 1, le: false } => quote!((r.bits_be(1)? != 0)),
            FieldTy::Bits { n: 1, le: true } => quote!((r.bits_le(1)? != 0)),
            FieldTy::Bits { n, le: true } => {
                let n = *n as u32;
                quote!(r.bits_le(#n)?)
            }
            FieldTy::Bits { n, le: false } => {
                let n = *n as u32;
                quote!(r.bits_be(#n)?)
            }
            _ => return err(&f.path, "internal: not a primitive"),
        })
    }

    /// Code that reads one value of a field (not its repetition) into an expression.
    fn read_one(&self, ti: usize, f: &Field) -> R<TokenStream> {
        let cx = || self.cx(ti, Scope::Read);
        let sized = |inner: TokenStream| -> R<TokenStream> {
            if let Some(sz) = &f.size {
                let (s, _) = cx().tr(&sz.expr, &sz.path)?;
                Ok(
                    quote!({ let n = #s; if n < 0 { return Err(::binspec_runtime::Error::invalid(r.abs_pos(), format!("negative size {n}"))); } let mut r = r.substream(n as u64)?; let r = &mut r; #inner }),
                )
            } else if f.size_eos {
                Ok(quote!({ let mut r = r.substream_eos()?; let r = &mut r; #inner }))
            } else {
                Ok(inner)
            }
        };
        match &f.ty {
            FieldTy::Int { .. } | FieldTy::Bits { .. } if f.enum_.is_some() => {
                let n = ty_ident(&self.m.enums[f.enum_.unwrap_or(0)].rust);
                let p = self.read_prim(f, ti)?;
                Ok(quote!(#n::from_value(#p as i128)))
            }
            FieldTy::Int { .. } | FieldTy::Float { .. } | FieldTy::Bits { .. } => {
                self.read_prim(f, ti)
            }
            FieldTy::Bytes | FieldTy::Str { .. } => self.read_blob(ti, f),
            FieldTy::User { .. } if is_blob(f) => self.read_blob(ti, f),
            FieldTy::User { ty, args } => {
                let n = ty_ident(&self.m.types[*ty].rust);
                let a = self.args_for(ti, *ty, args, Scope::Read, &f.path)?;
                let call = if self.boxed.contains(&f.path) {
                    quote!(::std::boxed::Box::new(#n::read(r, endian, pools, root_io, #a)?))
                } else {
                    quote!(#n::read(r, endian, pools, root_io, #a)?)
                };
                sized(call)
            }
            FieldTy::Switch { on, cases } => {
                let (o, _) = cx().tr(&on.expr, &on.path)?;
                let en = switch_enum_name(self.m, f);
                let mut arms = Vec::new();
                let mut has_default = false;
                for c in cases {
                    let v = ty_ident(&c.variant);
                    let body = self.read_one(ti, &case_field(f, c))?;
                    match &c.key {
                        Some(k) => {
                            let (kt, _) = cx().tr(&k.expr, &k.path)?;
                            arms.push(quote!(x if x == #kt => #en::#v(#body),));
                        }
                        None => {
                            has_default = true;
                            arms.push(quote!(_ => #en::#v(#body),));
                        }
                    }
                }
                if !has_default {
                    arms.push(quote!(other => return Err(::binspec_runtime::Error::invalid(r.abs_pos(), format!("no case for {:?}", other))),));
                }
                Ok(quote!(match #o { #(#arms)* }))
            }
            FieldTy::Value => err(&f.path, "internal: value instance read"),
        }
    }

    /// `process:` applied to bytes `data` (a `&[u8]` expression), or undone (`inverse`) for writing; gives a
    /// `Vec<u8>`.
    fn process(
        &self,
        ti: usize,
        f: &Field,
        data: TokenStream,
        scope: Scope,
        inverse: bool,
    ) -> R<TokenStream> {
        let rt = quote!(::binspec_runtime::process);
        let arg = |x: &crate::ir::Ex| self.cx(ti, scope).tr(&x.expr, &x.path);
        Ok(match &f.process {
            None => quote!(#data.to_vec()),
            Some(Process::Xor(k)) => match arg(k)? {
                (t, T::Int) => quote!(#rt::xor(#data, &[(#t) as u8])),
                (t, _) => quote!(#rt::xor(#data, #t)),
            },
            Some(Process::Rol(n)) | Some(Process::Ror(n)) => {
                let (t, _) = arg(n)?;
                let left = matches!(f.process, Some(Process::Rol(_))) != inverse;
                if left {
                    quote!(#rt::rol(#data, #t))
                } else {
                    quote!(#rt::rol(#data, -(#t)))
                }
            }
            Some(Process::Zlib) if inverse => quote!(#rt::zlib(#data)),
            Some(Process::Zlib) => {
                quote!(#rt::unzlib(#data, start, ((#data).len() as u64).saturating_mul(1032).max(1 << 20))?)
            }
        })
    }

    /// Reads a field whose bytes are cut out first (by size, to the end, or at a terminator), then stripped of
    /// padding, cut at the terminator and processed, as Kaitai does; then kept as bytes, decoded as a string or
    /// parsed as a type.
    fn read_blob(&self, ti: usize, f: &Field) -> R<TokenStream> {
        let cx = || self.cx(ti, Scope::Read);
        let term = term_bytes(f);
        let sized = f.size.is_some() || f.size_eos;
        let get = if let Some(sz) = &f.size {
            let (s, _) = cx().tr(&sz.expr, &sz.path)?;
            quote!({ let n = #s; if n < 0 { return Err(::binspec_runtime::Error::invalid(r.abs_pos(), format!("negative size {n}"))); } r.bytes(n as u64)? })
        } else if f.size_eos {
            quote!(r.bytes_eos()?)
        } else if let Some(t) = &term {
            let (inc, con, eos) = (f.include, f.consume, f.eos_error);
            quote!(r.bytes_term_multi(&[#(#t),*], #inc, #con, #eos)?)
        } else if let Some(c) = &f.contents {
            let c = c.clone();
            quote!({ r.expect(&[#(#c),*])?; &[#(#c),*][..] })
        } else {
            return err(
                &f.path,
                "bytes need 'size', 'size-eos', 'terminator' or 'contents'",
            );
        };
        let mut steps = Vec::new();
        if sized && (f.pad_right.is_some() || term.is_some()) {
            let pad = match f.pad_right {
                Some(p) => quote!(Some(#p)),
                None => quote!(None),
            };
            let t = match &term {
                Some(t) => quote!(Some(&[#(#t),*][..])),
                None => quote!(None),
            };
            let inc = f.include;
            steps.push(
                quote!(let raw = ::binspec_runtime::read::slot_content(raw, #pad, #t, #inc);),
            );
        }
        if f.process.is_some() {
            let p = self.process(ti, f, quote!(raw), Scope::Read, false)?;
            steps.push(quote!(let owned: ::std::vec::Vec<u8> = #p; let raw: &[u8] = &owned;));
        }
        let kept = matches!(f.role, Role::Data | Role::Placed | Role::Derive(_));
        let fin = match &f.ty {
            // A string the model keeps shares the input's buffer where it can.
            FieldTy::Str { encoding, .. } if kept && self.view.get() => {
                if is_utf8(encoding) {
                    quote!(::binspec_runtime::Reader::view_utf8(raw, start)?)
                } else {
                    quote!(r.view_str(raw, #encoding, start)?)
                }
            }
            FieldTy::Str { encoding, .. } if kept => {
                if is_utf8(encoding) {
                    quote!(r.share_utf8(raw, start)?)
                } else {
                    quote!(r.share_str(raw, #encoding, start)?)
                }
            }
            FieldTy::Str { encoding, .. } => {
                quote!(::binspec_runtime::text::decode_as(raw, #encoding, start)?)
            }
            FieldTy::User { ty, args } => {
                let n = ty_ident(&self.m.types[*ty].rust);
                let a = self.args_for(ti, *ty, args, Scope::Read, &f.path)?;
                let call = quote!(#n::read(r, endian, pools, root_io, #a)?);
                let call = if self.boxed.contains(&f.path) {
                    quote!(::std::boxed::Box::new(#call))
                } else {
                    call
                };
                quote!({ let mut r = r.over(raw, start); let r = &mut r; #call })
            }
            // Bytes the model keeps share the input's buffer where they can; bytes it does not keep (fixed
            // contents, a pool's region) stay a borrowed slice, so that reading them copies nothing.
            _ if kept && self.view.get() => quote!(raw),
            _ if kept => quote!(r.share(raw)),
            _ if f.process.is_some() => quote!(owned),
            _ => quote!(raw),
        };
        Ok(quote!({
            let start = r.abs_pos();
            let raw: &[u8] = #get;
            #(#steps)*
            #fin
        }))
    }

    /// The bytes of a value as they go into its slot (an expression that dereferences to `[u8]`: a `Vec<u8>`, or
    /// the model's bytes borrowed): encoded, serialised (for a type) and processed.
    fn content(&self, ti: usize, f: &Field, v: TokenStream, scope: Scope) -> R<TokenStream> {
        let plain = match &f.ty {
            FieldTy::Str { encoding, .. } => {
                quote!(::binspec_runtime::text::encode(#v, #encoding)?)
            }
            FieldTy::User { ty, args } => {
                let a = self.args_for(ti, *ty, args, scope, &f.path)?;
                quote!({ let mut sub = ::binspec_runtime::Writer::new(); #v.write(&mut sub, ctx, ::binspec_runtime::layout::Io::ROOT, endian, #a)?; sub.into_inner() })
            }
            _ => quote!((&#v[..])),
        };
        if f.process.is_some() {
            let p = self.process(ti, f, quote!(&plain[..]), scope, true)?;
            Ok(quote!({ let plain: &[u8] = &#plain; #p }))
        } else {
            Ok(plain)
        }
    }

    /// Writes a field's bytes into its slot: content, terminator, padding up to the size.
    fn write_blob(&self, ti: usize, f: &Field, v: TokenStream) -> R<TokenStream> {
        let content = self.content(ti, f, v, Scope::Write)?;
        let term = term_bytes(f);
        let append: Vec<u8> = match &term {
            Some(t) if f.consume && !f.include => t.clone(),
            _ => Vec::new(),
        };
        let size = match &f.size {
            Some(sz) => {
                let (s, _) = self.cx(ti, Scope::Write).tr(&sz.expr, &sz.path)?;
                quote!(Some(#s))
            }
            None => quote!(None),
        };
        let pad = f.pad_right.or(f.terminator).unwrap_or(0);
        Ok(quote!({
            let content: &[u8] = &#content;
            ::binspec_runtime::write_slot(w, content, #size, &[#(#append),*], #pad, ctx.first_pass())?;
        }))
    }

    /// Reads a field with its repetition (a `Vec` for `repeat`). A repetition the writer sorts (`-sort-by`) is put
    /// in that order as it is read: the order is derived, so a file whose entries are out of order decodes to the
    /// same value as the file the writer makes of it.
    fn read_repeated(&self, ti: usize, f: &Field) -> R<TokenStream> {
        let read = self.read_repeated_as_stored(ti, f)?;
        let (Some(_), FieldTy::User { ty, args }, false) =
            (&f.sort_by, &f.ty, matches!(f.repeat, Repeat::None))
        else {
            return Ok(read);
        };
        let a = self.args_for(ti, *ty, args, Scope::Read, &f.path)?;
        let n = ty_ident(&self.m.types[*ty].rust);
        let read_keyed = match &f.repeat {
            Repeat::Expr(x)
                if f.size.is_none()
                    && !f.size_eos
                    && !is_blob(f)
                    && !self.boxed.contains(&f.path) =>
            {
                let (cnt, _) = self.cx(ti, Scope::Read).tr(&x.expr, &x.path)?;
                let min = min_size(self.m, f);
                // Keys are compared as they come; only an archive out of order needs them all (computed again).
                quote! {
                    let n = #cnt;
                    if n < 0 { return Err(::binspec_runtime::Error::invalid(r.abs_pos(), format!("negative count {n}"))); }
                    let cap = r.check_count(n as u64, #min)?;
                    let mut out = ::std::vec::Vec::with_capacity(cap);
                    let mut last__ = None;
                    let mut in_order = true;
                    for i in 0..n as usize {
                        let (x, k) = (|| -> ::binspec_runtime::Result<_> { Ok(#n::read_keyed(r, endian, pools, root_io, #a)?) })().at_index(i)?;
                        if in_order {
                            in_order = last__.as_ref().is_none_or(|l| *l <= k);
                            last__ = Some(k);
                        }
                        out.push(x);
                    }
                }
            }
            _ => quote! {
                let mut out = #read;
                let ctx__ = ::binspec_runtime::layout::WriteCtx::reading();
                let mut in_order = true;
                let mut last__ = None;
                for (i, x) in out.iter().enumerate() {
                    let k = x.sort_key(ctx__, endian, #a).at_index(i)?;
                    in_order &= last__.as_ref().is_none_or(|l| *l <= k);
                    last__ = Some(k);
                }
            },
        };
        Ok(quote!({
            #read_keyed
            if !in_order {
                // The writer puts the elements in order, so what they point at moves.
                pools.set_relaid();
                let ctx__ = ::binspec_runtime::layout::WriteCtx::reading();
                let mut keyed = ::std::vec::Vec::with_capacity(out.len());
                for (i, x) in out.iter().enumerate() { keyed.push((x.sort_key(ctx__, endian, #a).at_index(i)?, i)); }
                keyed.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
                let mut slots: ::std::vec::Vec<::std::option::Option<_>> = out.into_iter().map(Some).collect();
                out = keyed.into_iter().filter_map(|(_, i)| slots[i].take()).collect();
            }
            out
        }))
    }

    /// Reads a field with its repetition, in the order of the file.
    fn read_repeated_as_stored(&self, ti: usize, f: &Field) -> R<TokenStream> {
        let one = self.read_one(ti, f)?;
        Ok(match &f.repeat {
            Repeat::None => quote!(#one),
            Repeat::Expr(x) => {
                let (n, _) = self.cx(ti, Scope::Read).tr(&x.expr, &x.path)?;
                let min = min_size(self.m, f);
                quote!({
                    let n = #n;
                    if n < 0 { return Err(::binspec_runtime::Error::invalid(r.abs_pos(), format!("negative count {n}"))); }
                    let cap = r.check_count(n as u64, #min)?;
                    let mut out = ::std::vec::Vec::with_capacity(cap);
                    for i in 0..n as usize { out.push((|| -> ::binspec_runtime::Result<_> { Ok(#one) })().at_index(i)?); }
                    out
                })
            }
            Repeat::Eos => {
                // `-scan`: the elements end where a tag is found; read them from a substream of that length.
                let sub = match &f.scan {
                    Some(sc) => {
                        let (tags, step, or_eos) = scan_tokens(sc);
                        quote!(let n__ = r.scan(#tags, #step, #or_eos)?; let mut r = r.substream(n__)?; let r = &mut r;)
                    }
                    None => quote!(),
                };
                quote!({
                    #sub
                    let mut out = ::std::vec::Vec::new();
                    let mut i = 0usize;
                    while !r.is_eof() { out.push((|| -> ::binspec_runtime::Result<_> { Ok(#one) })().at_index(i)?); i += 1; }
                    out
                })
            }
            Repeat::Until(x) => {
                let mut cx = self.cx(ti, Scope::Read);
                cx.last_t = Some(match cx.field_t(f) {
                    T::Array(t) => *t,
                    t => t,
                });
                if valued(f) {
                    cx.last_t = Some(T::User(usize::MAX));
                }
                let (c, _) = cx.tr(&x.expr, &x.path)?;
                quote!({
                    let mut out = ::std::vec::Vec::new();
                    let mut i = 0usize;
                    loop {
                        let v__ = (|| -> ::binspec_runtime::Result<_> { Ok(#one) })().at_index(i)?;
                        let stop = #c;
                        out.push(v__);
                        i += 1;
                        if stop { break; }
                    }
                    out
                })
            }
        })
    }

    /// An archive entry's `view_file`: the statements of its read function (`body`, with kept bytes and strings
    /// borrowed), then its name and data.
    fn emit_view_file(&self, ti: usize, body: &[TokenStream]) -> R<TokenStream> {
        let t = &self.m.types[ti];
        let Some(a) = &self.m.archive else {
            return err(
                "/meta/-binspec/archive",
                "internal: a view without an archive",
            );
        };
        let args_ty = self.view_args_ty(ti);
        let names: Vec<Ident> = self.param_pairs(ti).into_iter().map(|(id, _)| id).collect();
        let get = |n: &str| -> R<TokenStream> {
            let Some(f) = t.seq.iter().chain(t.instances.iter()).find(|f| f.name == n) else {
                return err(
                    "/meta/-binspec/archive",
                    "internal: the archive's field is missing",
                );
            };
            let v = local("v", n);
            Ok(if f.cond.is_some() {
                quote!(#v.unwrap_or_default())
            } else {
                quote!(#v)
            })
        };
        let (nm, dt) = (get(&a.name)?, get(&a.data)?);
        // The entry's own pools, made only where its statements use them (this runs once per file).
        let pools = if body.iter().any(|b| mentions(b, "pools")) {
            quote! {
                let mut pools = ::binspec_runtime::layout::ReadPools::new();
                let pools = &mut pools;
            }
        } else {
            quote!()
        };
        Ok(quote! {
            #[allow(clippy::too_many_arguments, unused_variables, unused_parens, clippy::double_parens, clippy::identity_op, non_snake_case, unused_mut)]
            pub(crate) fn view_file<'a>(
                r: &mut ::binspec_runtime::Reader<'a>,
                endian: ::binspec_runtime::Endian,
                root_io: &::binspec_runtime::Reader<'a>,
                args: #args_ty,
            ) -> ::binspec_runtime::Result<(&'a str, &'a [u8])> {
                use ::binspec_runtime::ResultExt as _;
                let (#(#names,)*) = args;
                #pools
                #(#body)*
                Ok((#nm, #dt))
            }
        })
    }

    fn emit_read(&self, ti: usize) -> R<TokenStream> {
        let t = &self.m.types[ti];
        let (params, _) = self.fn_params(ti);
        let mut body = Vec::new();
        let mut done: BTreeSet<String> = BTreeSet::new();
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
        for f in &t.seq {
            // Instances this field's expressions need.
            let mut needed = BTreeSet::new();
            for x in [&f.size, &f.cond].into_iter().flatten() {
                crate::ir::names_used(&x.expr, &mut needed);
            }
            if let Repeat::Expr(x) | Repeat::Until(x) = &f.repeat {
                crate::ir::names_used(&x.expr, &mut needed);
            }
            match &f.ty {
                FieldTy::Switch { on, cases } => {
                    crate::ir::names_used(&on.expr, &mut needed);
                    for a in cases.iter().flat_map(|c| c.args.iter()) {
                        crate::ir::names_used(&a.expr, &mut needed);
                    }
                }
                FieldTy::User { args, .. } => {
                    for a in args {
                        crate::ir::names_used(&a.expr, &mut needed);
                    }
                }
                _ => {}
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
                if let Some(a) = &u.align_field {
                    let la = local("layout", a);
                    body.push(quote!(let #la = pools.region_align(#start, #start, #pool);));
                }
                body.push(quote!(pools.enter_region(#pool, #start);));
                if self.tail_region(ti).is_some() {
                    body.push(quote!(let region_at__ = r.abs_pos();));
                }
            }
            if let Some((n, entry)) = &step {
                if *n == f.name {
                    cut = Some((body.len(), f, *entry));
                }
            }
            let read = self.read_repeated(ti, f)?;
            let read = if let Some(c) = &f.cond {
                let (ct, _) = self.cx(ti, Scope::Read).tr(&c.expr, &c.path)?;
                quote!(if #ct { Some(#read) } else { None })
            } else {
                read
            };
            let at = local("at", &f.name);
            let checked = matches!(f.role, Role::Const(ConstVal::Int(_))) || f.valid.is_some();
            if checked {
                body.push(quote!(let #at = r.abs_pos();));
            }
            // A single number is read directly; anything else in a closure, so that its errors get the field's name.
            let simple = f.repeat == Repeat::None
                && f.cond.is_none()
                && f.enum_.is_none()
                && matches!(
                    f.ty,
                    FieldTy::Int { .. } | FieldTy::Float { .. } | FieldTy::Bits { .. }
                );
            let direct = if simple {
                read.to_string().strip_suffix(" ?").map(str::to_string)
            } else {
                None
            };
            match direct.and_then(|d| d.parse::<TokenStream>().ok()) {
                Some(call) => body.push(quote!(let #v = #call.at(#fname)?;)),
                None => body.push(
                    quote!(let #v = (|| -> ::binspec_runtime::Result<_> { Ok(#read) })().at(#fname)?;),
                ),
            }
            if let (Some(tail), Role::Pool(u)) = (self.tail_region(ti), &f.role) {
                if tail.name == f.name {
                    let pool = u.pool;
                    let tv = local("v", &format!("{}_trailing", f.name));
                    body.push(quote! {
                        let #tv = {
                            let region: &[u8] = &#v[..];
                            let cut = pools.pool_end(#pool).filter(|&e| e > region_at__).unwrap_or(region_at__);
                            let skip = ((cut - region_at__) as usize).min(region.len());
                            if skip < region.len() { Some(r.share(&region[skip..])) } else { None }
                        };
                    });
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
        }
        // Data instances (pool items) are read eagerly.
        for f in &t.instances {
            if matches!(f.role, Role::Data | Role::Placed) {
                self.ensure_instance(ti, &f.name, &mut done, &mut body)?;
            }
        }
        if self.view.get() {
            return self.emit_view_file(ti, &body);
        }
        let view_fn = match cut {
            Some((at, f, entry)) => self.emit_view_files_in(ti, &body[..at], f, entry)?,
            None => quote!(),
        };
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
                Role::Data | Role::Placed => {
                    inits.push(quote!(#id: #v,));
                    if f.item_of.is_some() {
                        let aid = format_ident!("{}_align", f.name);
                        let la = local("align", &f.name);
                        inits.push(quote!(#aid: #la,));
                    }
                }
                Role::Derive(x) => {
                    let (dt, dtt) = self.cx(ti, Scope::Read).tr(&x.expr, &x.path)?;
                    let mt = self.model_ty(f);
                    body.push(if dtt == T::Bytes {
                        quote! {
                            let #v: ::std::option::Option<#mt> = if #v[..] == (#dt)[..] { None } else { Some(#v) };
                        }
                    } else {
                        quote! {
                            let #v: ::std::option::Option<#mt> = if (#v as i128) == (#dt) { None } else { Some(#v) };
                        }
                    });
                    let _ = fname;
                    inits.push(quote!(#id: #v,));
                }
                Role::Kept => {
                    let Some(x) = &f.value else {
                        return err(&f.path, "internal: a kept value instance without a value");
                    };
                    let (vt, _) = self.cx(ti, Scope::Read).tr(&x.expr, &x.path)?;
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
        // the order without computing keys again: a key that is a derived number is the number read (the file's
        // value is the derived one, or it is kept), anything else is computed from the value.
        if let Some(key) = self.sort_key_of(ti) {
            let raw = crate::ir::bare_name(&key.expr)
                .and_then(|n| t.seq.iter().find(|f| f.name == n))
                .filter(|f| {
                    matches!(f.role, Role::Derive(_))
                        && matches!(f.ty, FieldTy::Int { .. })
                        && f.repeat == Repeat::None
                        && f.cond.is_none()
                        && f.enum_.is_none()
                });
            let pnames: Vec<Ident> = self
                .param_list(ti)
                .into_iter()
                .map(|(_, id, _)| id)
                .collect();
            let pre: Vec<TokenStream> = t
                .params
                .iter()
                .map(|p| {
                    let id = local("p", &p.name);
                    quote!(#id)
                })
                .collect();
            let (key_stmt, key_ret) = match raw {
                Some(f) => {
                    let v = local("v", &f.name);
                    // Taken before the derived value is turned into an `Option`.
                    (quote!(let key__: i128 = #v as i128;), quote!(key__))
                }
                None => (
                    quote!(),
                    quote!(out__.sort_key(::binspec_runtime::layout::WriteCtx::reading(), endian, #(#pre,)* #(#pnames),*)?),
                ),
            };
            let key_ty = match self.cx(ti, Scope::Write).tr(&key.expr, &key.path)?.1 {
                T::Str | T::Bytes => quote!(::std::vec::Vec<u8>),
                _ => quote!(i128),
            };
            // The key statement goes before the model is built (where derived values become `Option`s).
            let split = body.len() - derive_stmts;
            let (before, after) = body.split_at(split);
            let read_sig = sig("read", quote!(Self));
            let keyed_sig = sig("read_keyed", quote!((Self, #key_ty)));
            return Ok(quote! {
                #endian_of
                #view_fn
                #[allow(clippy::too_many_arguments, unused_variables, unused_parens, clippy::double_parens, clippy::identity_op, non_snake_case, dead_code)]
                #read_sig {
                    Ok(Self::read_keyed(r, endian, pools, root_io, #(#pre,)* #(#pnames),*)?.0)
                }
                #[allow(clippy::too_many_arguments, unused_variables, unused_parens, clippy::double_parens, clippy::identity_op, non_snake_case)]
                #keyed_sig {
                    use ::binspec_runtime::ResultExt as _;
                    r.enter()?;
                    #(#before)*
                    #key_stmt
                    #(#after)*
                    r.leave();
                    let out__ = #name { #(#inits)* };
                    let k__ = #key_ret;
                    Ok((out__, k__))
                }
            });
        }

        let read_sig = sig("read", quote!(Self));
        Ok(quote! {
            #endian_of
            #view_fn
            #[allow(clippy::too_many_arguments, unused_variables, unused_parens, clippy::double_parens, clippy::identity_op, non_snake_case)]
            #read_sig {
                use ::binspec_runtime::ResultExt as _;
                r.enter()?;
                #(#body)*
                r.leave();
                Ok(#name { #(#inits)* })
            }
        })
    }

    /// The check a `valid` key puts on a value that was read into `v` (each element, for a repeat); `at` is where
    /// it was read, for the error.
    fn valid_stmt(
        &self,
        ti: usize,
        f: &Field,
        v: &Ident,
        at: TokenStream,
    ) -> R<Option<TokenStream>> {
        let fname = f.name.as_str();
        let (Some(valid), false) = (&f.valid, matches!(f.role, Role::Const(_))) else {
            return Ok(None);
        };
        let elem_check = match valid {
            Valid::InEnum => {
                let Some(e) = f.enum_ else {
                    return err(&f.path, "'valid: in-enum' needs 'enum'");
                };
                let en = ty_ident(&self.m.enums[e].rust);
                Some(quote!(!matches!(v__, #en::Unknown(_))))
            }
            _ => self.valid_check(ti, f, valid)?.map(|check| {
                if valued(f) {
                    quote!({ let v__ = v__.value(); #check })
                } else {
                    check
                }
            }),
        };
        if let Some(check) = elem_check {
            let msg = format!("value {{:?}} is not valid ({})", valid_text(valid));
            // The check sees each value as `_` (bound to `v__`).
            let test = match (f.cond.is_some(), f.repeat != Repeat::None) {
                // Numbers (and enums, which are `Copy`) are copied; anything else is cloned.
                (false, false)
                    if matches!(
                        f.ty,
                        FieldTy::Int { .. } | FieldTy::Float { .. } | FieldTy::Bits { .. }
                    ) =>
                {
                    quote!({ let v__ = #v; #check })
                }
                (false, false) => quote!({ let v__ = #v.clone(); #check }),
                (true, false) => {
                    quote!(match #v.clone() { Some(v__) => #check, None => true })
                }
                (false, true) => quote!(#v.iter().cloned().all(|v__| #check)),
                (true, true) => {
                    quote!(#v.as_ref().is_none_or(|xs| xs.iter().cloned().all(|v__| #check)))
                }
            };
            return Ok(Some(
                quote!(if !#test { return Err(::binspec_runtime::Error::invalid(#at, format!(#msg, #v)).at(#fname)); }),
            ));
        }
        Ok(None)
    }

    /// The condition a `valid` key puts on a field's value (bound to `v__`), or `None` for none.
    fn valid_check(&self, ti: usize, f: &Field, valid: &Valid) -> R<Option<TokenStream>> {
        let mut cx = self.cx(ti, Scope::Read);
        let t = if valued(f) {
            T::Int
        } else {
            match cx.field_t(f) {
                T::Array(t) => *t,
                t => t,
            }
        };
        let val = match t {
            T::Int => quote!((v__ as i128)),
            T::Float => quote!((v__ as f64)),
            T::Str => quote!((&v__[..])),
            T::Bytes => quote!((&v__[..])),
            _ => quote!(v__),
        };
        cx.last_t = Some(t);
        let mut tr = |x: &crate::ir::Ex| -> R<TokenStream> { Ok(cx.tr(&x.expr, &x.path)?.0) };
        Ok(Some(match valid {
            Valid::Eq(x) => {
                let x = tr(x)?;
                quote!((#val == #x))
            }
            Valid::Min(x) => {
                let x = tr(x)?;
                quote!((#val >= #x))
            }
            Valid::Max(x) => {
                let x = tr(x)?;
                quote!((#val <= #x))
            }
            Valid::Range(a, b) => {
                let a = match a {
                    Some(a) => {
                        let a = tr(a)?;
                        quote!((#val >= #a))
                    }
                    None => quote!(true),
                };
                let b = match b {
                    Some(b) => {
                        let b = tr(b)?;
                        quote!((#val <= #b))
                    }
                    None => quote!(true),
                };
                quote!((#a && #b))
            }
            Valid::AnyOf(xs) => {
                let mut alts = Vec::new();
                for x in xs {
                    let x = tr(x)?;
                    alts.push(quote!((#val == #x)));
                }
                quote!((#(#alts)||*))
            }
            Valid::Expr(x) => tr(x)?,
            Valid::InEnum => return Ok(None),
        }))
    }

    /// Emits the code that computes an instance (and what it needs) the first time it is needed.
    fn ensure_instance(
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
        if done.contains(name) || f.value.is_some() {
            // Value instances are inlined where used; make sure what they use exists (a `-hook` reads the stream
            // itself: what its expression names for Kaitai's tools is not read).
            if let Some(v) = f.value.as_ref().filter(|_| f.hook.is_none()) {
                if done.insert(name.to_string()) {
                    let mut needed = BTreeSet::new();
                    crate::ir::names_used(&v.expr, &mut needed);
                    for n in needed {
                        self.ensure_instance(ti, &n, done, body)?;
                    }
                }
            }
            return Ok(());
        }
        done.insert(name.to_string());
        let mut needed = BTreeSet::new();
        for x in [&f.pos_expr, &f.size, &f.cond].into_iter().flatten() {
            crate::ir::names_used(&x.expr, &mut needed);
        }
        for n in needed {
            self.ensure_instance(ti, &n, done, body)?;
        }
        let v = local("v", name);
        let p = local("pos", name);
        let fname = f.name.as_str();
        let Some(pos) = &f.pos_expr else {
            return err(&f.path, "an instance needs 'pos' or 'value'");
        };
        let (pt, _) = self.cx(ti, Scope::Read).tr(&pos.expr, &pos.path)?;
        let io = match &f.io {
            Some(x) if x.text == "_root._io" => quote!(root_io.clone()),
            Some(x) => return err(&x.path, "only 'io: _root._io' is supported yet"),
            None => quote!(r.clone()),
        };
        // An eager instance can lead to its own type again: it counts against the budget of followed references,
        // and nesting goes on counting from here.
        let io = if f.eager {
            quote!({ pools.follow(r.abs_pos(), root_io.size() as u64).at(#fname)?; #io.nested(r.depth()) })
        } else {
            io
        };
        let one = self.read_repeated(ti, f)?;
        // A pool item also gives its alignment (a layout choice).
        let la = local("align", name);
        let (align, names, none) = match f.item_of {
            Some(_) if self.view.get() => (
                quote!(::std::option::Option::<u64>::None),
                quote!((#v, #p, #la)),
                quote!((None, 0i128, None)),
            ),
            Some(pool) => {
                let d = self.m.pools[pool].item_align;
                (
                    quote!(pools.item(#pool, (#p) as u64, (r.abs_pos() as i128 - #p) as u64, #d)),
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
        let read = quote!({
            let mut r = #io;
            let at = #pt;
            if at < 0 { return Err(::binspec_runtime::Error::invalid(r.abs_pos(), format!("negative position {at}"))).at(#fname); }
            r.seek(at as u64).at(#fname)?;
            let #p = r.abs_pos() as i128;
            let r = &mut r;
            let value = (|| -> ::binspec_runtime::Result<_> { Ok(#one) })().at(#fname)?;
            #tuple
        });
        body.push(match &f.cond {
            Some(c) => {
                let (ct, _) = self.cx(ti, Scope::Read).tr(&c.expr, &c.path)?;
                quote!(let #names = if #ct { let read = #read; #some } else { #none };)
            }
            None => quote!(let #names = #read;),
        });
        let at = quote!((#p as u64));
        if let Some(check) = self.valid_stmt(ti, f, &v, at)? {
            body.push(check);
        }
        Ok(())
    }

    fn write_prim(&self, f: &Field, val: TokenStream) -> R<TokenStream> {
        let fname = f.name.as_str();
        Ok(match &f.ty {
            FieldTy::Int {
                bytes: 1, signed, ..
            } => {
                let rt = rust_int(1, *signed);
                let m = if *signed { quote!(i8) } else { quote!(u8) };
                quote!(w.#m(::binspec_runtime::fit::<#rt>((#val) as i128, #fname)?);)
            }
            FieldTy::Int {
                bytes,
                signed,
                endian,
            } => {
                let rt = rust_int(*bytes, *signed);
                let e = endian_tokens(*endian);
                let m = format_ident!("{}{}", if *signed { "i" } else { "u" }, *bytes as u32 * 8);
                quote!(w.#m(::binspec_runtime::fit::<#rt>((#val) as i128, #fname)?, #e);)
            }
            FieldTy::Float { bytes, endian } => {
                let e = endian_tokens(*endian);
                let m = format_ident!("f{}", *bytes as u32 * 8);
                quote!(w.#m(#val, #e);)
            }
            FieldTy::Bits { n: 1, le: false } => quote!(w.bits_be((#val) as u64, 1);),
            FieldTy::Bits { n: 1, le: true } => quote!(w.bits_le((#val) as u64, 1);),
            FieldTy::Bits { n, le: true } => {
                let n = *n as u32;
                quote!(w.bits_le((#val) as u64, #n);)
            }
            FieldTy::Bits { n, le: false } => {
                let n = *n as u32;
                quote!(w.bits_be((#val) as u64, #n);)
            }
            _ => return err(&f.path, "internal: not a primitive"),
        })
    }

    /// Code that writes one value (`v`, a reference to the model value) of a data field.
    fn write_one(&self, ti: usize, f: &Field, v: TokenStream) -> R<TokenStream> {
        let cx = || self.cx(ti, Scope::Write);
        let fname = f.name.as_str();
        match &f.ty {
            FieldTy::Int { .. } | FieldTy::Bits { .. } if f.enum_.is_some() => {
                self.write_prim(f, quote!(#v.value()))
            }
            FieldTy::Int { .. } | FieldTy::Float { .. } | FieldTy::Bits { .. } => {
                self.write_prim(f, quote!(*#v))
            }
            FieldTy::Bytes | FieldTy::Str { .. } => self.write_blob(ti, f, v),
            FieldTy::User { .. } if f.process.is_some() || f.terminator.is_some() => {
                self.write_blob(ti, f, v)
            }
            FieldTy::User { ty, args } => {
                let a = self.args_for(ti, *ty, args, Scope::Write, &f.path)?;
                match &f.size {
                    // A substream of a given size: the type's bytes, then padding up to the size.
                    Some(sz) => {
                        let (s, _) = cx().tr(&sz.expr, &sz.path)?;
                        Ok(quote!({
                            let start = w.pos();
                            let size: i128 = #s;
                            let size = match u64::try_from(size) {
                                Ok(s) if s <= 1 << 32 => Some(s),
                                _ if ctx.first_pass() => None,
                                _ => return Err(::binspec_runtime::Error::write(format!("size {size} is out of range")).at(#fname)),
                            };
                            let sub = ::binspec_runtime::layout::Io { start, size };
                            #v.write(w, ctx, sub, endian, #a)?;
                            let used = w.pos() - start;
                            if let Some(size) = size.map(|s| s as usize) {
                                if used > size && !ctx.first_pass() {
                                    return Err(::binspec_runtime::Error::write(format!("{used:#x} bytes do not fit in its size ({size:#x})")).at(#fname));
                                }
                                w.fill(size.saturating_sub(used), 0);
                            }
                        }))
                    }
                    None => Ok(quote!(#v.write(w, ctx, io, endian, #a)?;)),
                }
            }
            FieldTy::Switch { cases, .. } => {
                let en = switch_enum_name(self.m, f);
                let mut arms = Vec::new();
                let mut seen = BTreeSet::new();
                for c in cases.iter().filter(|c| seen.insert(c.variant.clone())) {
                    let var = ty_ident(&c.variant);
                    let one = self.write_one(ti, &case_field(f, c), quote!(x))?;
                    arms.push(quote!(#en::#var(x) => { #one }));
                }
                Ok(quote!(match #v { #(#arms)* }))
            }
            FieldTy::Value => err(&f.path, "internal"),
        }
    }

    /// For a field that the model's presence decides (`if:` on data, a placed instance or a pool item): a check
    /// that its condition, computed from the values written, agrees, since the file would otherwise read back
    /// without it (or with one where the model has none). Skipped in the first pass, where positions are not known
    /// yet, and where the condition cannot be computed from the model (it reads something only the reader sees, or
    /// a parameter).
    fn presence_check(&self, ti: usize, f: &Field) -> R<TokenStream> {
        let Some(c) = &f.cond else {
            return Ok(quote!());
        };
        // A parameter's value when writing is the one of the first switch case that reads this type, which need
        // not be the one the file was read with: not a value to check against.
        let mut used = BTreeSet::new();
        crate::ir::names_used(&c.expr, &mut used);
        if self.m.types[ti]
            .params
            .iter()
            .any(|p| used.contains(&p.name))
        {
            return Ok(quote!());
        }
        let Ok((ct, T::Bool)) = self.cx(ti, Scope::Write).tr(&c.expr, &c.path) else {
            return Ok(quote!());
        };
        let id = ident(&f.name);
        let fname = f.name.as_str();
        let present = format!(
            "present in the model, but its condition `{}` is false for the values written: the file would not have it",
            c.text
        );
        let absent = format!(
            "absent in the model, but its condition `{}` is true for the values written: the file would have one",
            c.text
        );
        Ok(quote! {
            if !ctx.first_pass() {
                match (#ct, self.#id.is_some()) {
                    (false, true) => return Err(::binspec_runtime::Error::write(#present).at(#fname)),
                    (true, false) => return Err(::binspec_runtime::Error::write(#absent).at(#fname)),
                    _ => {}
                }
            }
        })
    }

    /// The derived number of type `ti` that a sorted repetition of it sorts by (`-sort-by: NAME`, NAME a `-derive`
    /// of the element): the sort computes it once, and the element's writer takes it from there (`write_keyed`)
    /// instead of computing it again in every pass. `None` where no repetition sorts `ti` so, or two sort it by
    /// different fields.
    fn keyed_field(&self, ti: usize) -> Option<&'m Field> {
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
    fn sort_key(&self, f: &Field) -> Option<&'m Field> {
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

    fn emit_write(&self, ti: usize) -> R<TokenStream> {
        let t = &self.m.types[ti];
        let (_, params) = self.fn_params(ti);
        let keyed = self.keyed_field(ti);
        let mut body = Vec::new();
        // A type's own byte order wins over the one it is written with.
        if let EndianSpec::Fixed(e) = &t.endian {
            let e = endian_tokens(Some(*e));
            body.push(quote!(let endian = #e;));
        } else if let EndianSpec::Switch { .. } = &t.endian {
            body.push(quote!(let endian = self.endian;));
        }
        // Keys for recorded positions, in a fixed order.
        if let Some(names) = self.pos_refs.get(&ti) {
            for n in names {
                let k = local("k", n);
                let s = self.slot(ti, n);
                body.push(quote!(let #k = ctx.key(#s);));
            }
        }
        // Derived values: offsets, lengths, then `-derive` expressions.
        let mut order: Vec<&Field> = t
            .seq
            .iter()
            .filter(|f| matches!(f.role, Role::Offset { .. }))
            .collect();
        order.extend(
            t.seq
                .iter()
                .filter(|f| matches!(f.role, Role::Length { .. })),
        );
        order.extend(t.seq.iter().filter(|f| matches!(f.role, Role::Derive(_))));
        for f in order {
            let d = local("d", &f.name);
            let fname = f.name.as_str();
            let val = match &f.role {
                Role::Offset { of } => {
                    let inst = find(t, of).ok_or_else(|| internal(&f.path))?;
                    let pos = inst.pos_expr.as_ref().ok_or_else(|| internal(&f.path))?;
                    let k = local("k", of);
                    let rhs = quote!((ctx.prev_pos(#k) as i128));
                    self.solve(ti, &pos.expr, &f.name, rhs, &pos.path)?
                }
                Role::Length { of } => {
                    let target = find(t, of).ok_or_else(|| internal(&f.path))?;
                    let sz = target.size.as_ref().ok_or_else(|| internal(&f.path))?;
                    let tid = ident(of);
                    let content = self.content(ti, target, quote!(x), Scope::Write)?;
                    let len = if target.cond.is_some() {
                        quote!(match &self.#tid { Some(x) => (#content).len() as i128, None => 0 })
                    } else {
                        quote!({ let x = &self.#tid; (#content).len() as i128 })
                    };
                    self.solve(ti, &sz.expr, &f.name, len, &sz.path)?
                }
                Role::Derive(x) => {
                    let (dt, dtt) = self.cx(ti, Scope::Write).tr(&x.expr, &x.path)?;
                    let id = ident(&f.name);
                    if dtt == T::Bytes {
                        body.push(quote!(let #d: ::std::vec::Vec<u8> = match &self.#id { Some(v) => v.to_vec(), None => (#dt)[..].to_vec() };));
                        continue;
                    }
                    if keyed.is_some_and(|k| k.name == f.name) {
                        // Computed by the sort that ordered this element, where one did.
                        quote!(match self.#id { Some(v) => v as i128, None => match key__ { Some(k) => k, None => #dt } })
                    } else {
                        quote!(match self.#id { Some(v) => v as i128, None => #dt })
                    }
                }
                _ => continue,
            };
            let _ = fname;
            body.push(quote!(let #d: i128 = #val;));
        }
        let scanned = t.seq.iter().any(|f| f.scan.is_some());
        if scanned {
            body.push(quote!(
                #[allow(clippy::type_complexity)]
                let mut scans__: ::std::vec::Vec<(usize, usize, &[&[u8]], usize, bool, &'static str)> = ::std::vec::Vec::new();
            ));
        }
        for f in &t.seq {
            let id = ident(&f.name);
            let recorded = self.pos_refs.get(&ti).is_some_and(|s| s.contains(&f.name));
            if recorded && !matches!(f.role, Role::Pool(_)) {
                let k = local("k", &f.name);
                body.push(quote!(ctx.record(#k, w.pos() as u64);));
            }
            let fname = f.name.as_str();
            let code = match &f.role {
                Role::Const(ConstVal::Bytes(b)) => {
                    let b = b.clone();
                    quote!(w.bytes(&[#(#b),*]);)
                }
                Role::Const(ConstVal::Int(c)) => self.write_prim(f, int_lit(*c))?,
                Role::Count { of } => {
                    let opt = find(t, of).is_some_and(|x| x.cond.is_some());
                    let of = ident(of);
                    if opt {
                        self.write_prim(
                            f,
                            quote!((self.#of.as_ref().map_or(0, |v| v.len()) as i128)),
                        )?
                    } else {
                        self.write_prim(f, quote!((self.#of.len() as i128)))?
                    }
                }
                Role::Derive(_) if f.ty == FieldTy::Bytes => {
                    // Derived bytes go into their slot like data: padded or checked against the size.
                    let d = local("d", &f.name);
                    let size = match &f.size {
                        Some(sz) => {
                            let (s, _) = self.cx(ti, Scope::Write).tr(&sz.expr, &sz.path)?;
                            quote!(Some(#s))
                        }
                        None => quote!(None),
                    };
                    quote!(::binspec_runtime::write_slot(w, &#d, #size, &[], 0, ctx.first_pass())?;)
                }
                Role::Length { .. } | Role::Offset { .. } | Role::Derive(_) => {
                    let d = local("d", &f.name);
                    self.write_prim(f, quote!(#d))?
                        .to_string()
                        .replace(":: binspec_runtime :: fit", "ctx . fit")
                        .parse()
                        .map_err(|_| EmitError {
                            path: f.path.clone(),
                            message: "internal: tokens".into(),
                        })?
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
                    quote!(#check w.align(#align); #rec ctx.flush(#pool, w, 1); #tail)
                }
                Role::Data => {
                    let one_ref = quote!(x);
                    let one = self.write_one(ti, f, one_ref)?;
                    // `val` is the model value (inside an `if`, the value that is present).
                    let inner = match &f.repeat {
                        Repeat::None => quote!({ let x = val; #one }),
                        _ => {
                            let order = match &f.sort_by {
                                Some(_) => {
                                    let FieldTy::User { ty, args } = &f.ty else {
                                        return err(&f.path, "-sort-by needs a repeated user type");
                                    };
                                    let a = self.args_for(ti, *ty, args, Scope::Write, &f.path)?;
                                    let slot = self.order_slot(ti, &f.name);
                                    // The order is kept from pass to pass where the keys cannot depend on
                                    // positions: the key reads no position, and the arguments it uses are the
                                    // model's own values.
                                    let fixed = self.sort_key_is_fixed(*ty, &a)?;
                                    // Where the keys go with the order, to the elements' writers, they are kept
                                    // and taken with it.
                                    let keyed = self.sort_key(f).is_some();
                                    let (bind, take, found, collect, keep) = if keyed {
                                        (
                                            quote!((order, keys__): (::std::vec::Vec<usize>, ::std::vec::Vec<i128>)),
                                            quote!(ctx.take_keyed(ko__)),
                                            quote!(Some((o, k)) if o.len() == val.len() && k.len() == o.len() => (o, k)),
                                            quote!(keyed.into_iter().map(|(k, i)| (i, k)).unzip()),
                                            quote!(ctx.keep_keyed(ko__, order, keys__);),
                                        )
                                    } else {
                                        (
                                            quote!(order: ::std::vec::Vec<usize>),
                                            quote!(ctx.take_order(ko__)),
                                            quote!(Some(o) if o.len() == val.len() => o),
                                            quote!(keyed.into_iter().map(|(_, i)| i).collect()),
                                            quote!(ctx.keep_order(ko__, order);),
                                        )
                                    };
                                    (
                                        quote! {
                                            let ko__ = ctx.order_key(#slot);
                                            let #bind = match #take {
                                                #found,
                                                _ => {
                                                    let mut keyed = ::std::vec::Vec::with_capacity(val.len());
                                                    for (i, x) in val.iter().enumerate() { keyed.push((x.sort_key(ctx, endian, #a).at_index(i)?, i)); }
                                                    keyed.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
                                                    #collect
                                                }
                                            };
                                        },
                                        if fixed { keep } else { quote!() },
                                        // The elements' arguments, for `write_keyed`.
                                        keyed.then_some(a),
                                    )
                                }
                                None => (
                                    quote!(let order: ::std::vec::Vec<usize> = (0..val.len()).collect();),
                                    quote!(),
                                    None,
                                ),
                            };
                            let (order, keep_order, keyed_args) = order;
                            // A count that the model does not derive (a parameter, another field's value): the
                            // elements must be as many, or the file would read back otherwise. Checked once
                            // positions have settled (derived values are 0 in the first pass).
                            let derived_count = |x: &crate::ir::Ex| {
                                crate::ir::bare_name(&x.expr)
                                    .and_then(|n| find(t, n))
                                    .is_some_and(
                                        |c| matches!(&c.role, Role::Count { of } if *of == f.name),
                                    )
                            };
                            let count_check = match &f.repeat {
                                Repeat::Expr(x) if derived_count(x) => quote!(),
                                Repeat::Expr(x) => {
                                    match self.cx(ti, Scope::Write).tr(&x.expr, &x.path) {
                                        Ok((n, T::Int)) => {
                                            let text = x.text.as_str();
                                            quote! {
                                                if !ctx.first_pass() {
                                                    let n__: i128 = #n;
                                                    if val.len() as i128 != n__ {
                                                        return Err(::binspec_runtime::Error::write(format!(
                                                            "{} elements, but the count `{}` is {}: the file would read back otherwise",
                                                            val.len(), #text, n__
                                                        )));
                                                    }
                                                }
                                            }
                                        }
                                        _ => quote!(),
                                    }
                                }
                                _ => quote!(),
                            };
                            let each = if let Some(a) = keyed_args {
                                quote!(for (j, &i) in order.iter().enumerate() { let x = &val[i]; (|| -> ::binspec_runtime::Result<()> { x.write_keyed(w, ctx, io, endian, #a, Some(keys__[j]))?; Ok(()) })().at_index(i)?; })
                            } else {
                                quote!(for &i in &order { let x = &val[i]; (|| -> ::binspec_runtime::Result<()> { #one Ok(()) })().at_index(i)?; })
                            };
                            quote!({
                                #count_check
                                #order
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
            }
            body.push(
                quote!((|| -> ::binspec_runtime::Result<()> { #code Ok(()) })().at(#fname)?;),
            );
        }
        // `-scan` fields: now that what follows them is written, check that each reads back with its length.
        if scanned {
            // (A sizing pass keeps no bytes to look at; the pass that writes them checks.)
            body.push(quote!(for (start, end, tags, step, or_eos, name) in
                scans__.into_iter().filter(|_| !w.is_sizing())
            {
                ::binspec_runtime::check_scan(
                    w.as_slice(),
                    start - (w.pos() - w.as_slice().len()),
                    end - (w.pos() - w.as_slice().len()),
                    tags,
                    step,
                    or_eos,
                )
                .at(name)?;
            }));
        }
        // Instances written back where their `pos` says (relative to their stream): written by a writer whose
        // positions are those of the output, and laid over the output when the pass ends (so that an instance
        // inside an instance lands at its own position).
        for f in t.instances.iter().filter(|f| f.role == Role::Placed) {
            let id = ident(&f.name);
            let fname = f.name.as_str();
            let Some(pos) = &f.pos_expr else { continue };
            let (p, _) = self.cx(ti, Scope::Write).tr(&pos.expr, &pos.path)?;
            // Positions in `_root._io` are the output's; in the type's own stream, they start where it does.
            let rebase = match &f.io {
                Some(x) if x.text == "_root._io" => {
                    quote!(let io = ::binspec_runtime::layout::Io::ROOT;)
                }
                Some(x) => return err(&x.path, "only 'io: _root._io' is supported yet"),
                None => quote!(let at = io.start + at;),
            };
            let one = self.write_one(ti, f, quote!(x))?;
            let each = match f.repeat {
                Repeat::None => quote!({ let x = val; #one }),
                _ => quote!(for x in val.iter() { #one }),
            };
            let place = quote!({
                let at: i128 = #p;
                match usize::try_from(at) {
                    Ok(at) if at <= 1 << 32 => {
                        #rebase
                        let mut w = ::binspec_runtime::Writer::at_origin(at);
                        {
                            let w = &mut w;
                            #each
                        }
                        ctx.place(at, w.into_inner());
                    }
                    _ if ctx.first_pass() => {}
                    _ => return Err(::binspec_runtime::Error::write(format!("position {at} is out of range")).at(#fname)),
                }
            });
            body.push(self.presence_check(ti, f)?);
            body.push(match &f.cond {
                Some(_) => quote!(if let Some(val) = &self.#id { #place }),
                None => quote!({ let val = &self.#id; #place }),
            });
        }
        // Pool items.
        for f in &t.instances {
            if let Some(pool) = f.item_of {
                let id = ident(&f.name);
                let k = local("k", &f.name);
                let aid = format_ident!("{}_align", f.name);
                let d = self.m.pools[pool].item_align;
                let fname = f.name.as_str();
                let push = match &f.ty {
                    FieldTy::Str { encoding, .. } => {
                        let term = match f.terminator {
                            Some(t) if !f.include => quote!(&[#t]),
                            _ => quote!(&[]),
                        };
                        if is_utf8(encoding) {
                            quote!(ctx.push_utf8(#pool, #k, x, #term, self.#aid.unwrap_or(#d));)
                        } else {
                            quote!(ctx.push_str(#pool, #k, x, #encoding, #term, self.#aid.unwrap_or(#d)).at(#fname)?;)
                        }
                    }
                    FieldTy::Bytes => {
                        quote!(ctx.push_shared(#pool, #k, x, self.#aid.unwrap_or(#d));)
                    }
                    _ => return err(&f.path, "pool items must be bytes or strings yet"),
                };
                let aname = aid.to_string();
                body.push(quote! {
                    if let Some(a) = self.#aid {
                        ::binspec_runtime::layout::check_align(a).at(#aname)?;
                    }
                });
                body.push(self.presence_check(ti, f)?);
                body.push(match &f.cond {
                    Some(_) => quote!(if let Some(x) = &self.#id { #push }),
                    None => quote!({ let x = &self.#id; #push }),
                });
            }
        }
        let endian_param = quote!(endian: ::binspec_runtime::Endian,);
        // Where a sorted repetition hands its elements their keys, the body is `write_keyed`, taking the key, and
        // `write` passes none.
        let (body_fn, key_param, wrapper) = if keyed.is_some() {
            let names: Vec<Ident> = self.param_pairs(ti).into_iter().map(|(id, _)| id).collect();
            (
                quote!(write_keyed),
                quote!(key__: ::std::option::Option<i128>,),
                quote! {
                    // Unused where every element of this type is written by a sorted repetition.
                    #[allow(clippy::too_many_arguments, unused_variables, dead_code, non_snake_case)]
                    pub(crate) fn write(
                        &self,
                        w: &mut ::binspec_runtime::Writer,
                        ctx: &mut ::binspec_runtime::layout::WriteCtx,
                        io: ::binspec_runtime::layout::Io,
                        #endian_param
                        #(#params),*
                    ) -> ::binspec_runtime::Result<()> {
                        self.write_keyed(w, ctx, io, endian, #(#names,)* None)
                    }
                    /// `write`, given the sort key that the repetition holding this element computed for it.
                },
            )
        } else {
            (quote!(write), quote!(), quote!())
        };
        Ok(quote! {
            #wrapper
            #[allow(clippy::too_many_arguments, unused_variables, unused_parens, clippy::double_parens, clippy::identity_op, non_snake_case, clippy::redundant_closure_call)]
            pub(crate) fn #body_fn(
                &self,
                w: &mut ::binspec_runtime::Writer,
                ctx: &mut ::binspec_runtime::layout::WriteCtx,
                io: ::binspec_runtime::layout::Io,
                #endian_param
                #(#params,)*
                #key_param
            ) -> ::binspec_runtime::Result<()> {
                use ::binspec_runtime::ResultExt as _;
                #(#body)*
                Ok(())
            }
        })
    }

    /// Solves `e == rhs` for `unknown` (a linear expression).
    fn solve(
        &self,
        ti: usize,
        e: &Expr,
        unknown: &str,
        rhs: TokenStream,
        path: &str,
    ) -> R<TokenStream> {
        if !solvable_for(e, unknown) {
            return err(
                path,
                format!(
                    "cannot solve '{e}' for '{unknown}'; give '{unknown}' a '-derive' expression"
                ),
            );
        }
        let mut cur = e;
        let mut rhs = rhs;
        loop {
            match &cur.kind {
                ExprKind::Name(n) if n == unknown => return Ok(rhs),
                ExprKind::Binary { op, lhs, rhs: r } => {
                    let mut l = BTreeSet::new();
                    crate::ir::names_used(lhs, &mut l);
                    let in_left = l.contains(unknown);
                    let (other, side) = if in_left { (r, lhs) } else { (lhs, r) };
                    let (o, _) = self.cx(ti, Scope::Write).tr(other, path)?;
                    rhs = match (op, in_left) {
                        (BinOp::Add, _) => quote!((#rhs - #o)),
                        (BinOp::Sub, true) => quote!((#rhs + #o)),
                        (BinOp::Sub, false) => quote!((#o - #rhs)),
                        (BinOp::Mul, _) => quote!((#rhs / #o)),
                        _ => return err(path, "internal: not solvable"),
                    };
                    cur = side;
                }
                _ => return err(path, "internal: not solvable"),
            }
        }
    }

    /// For a root whose bytes decide its byte order: `endian_of(data)`, the byte order a reader finds in `data`.
    fn emit_endian_of(&self, ti: usize) -> R<TokenStream> {
        let t = &self.m.types[ti];
        let EndianSpec::Switch { on, cases } = &t.endian else {
            return Ok(quote!());
        };
        if ti != 0 {
            return Ok(quote!());
        }
        let mut body = Vec::new();
        let mut done: BTreeSet<String> = BTreeSet::new();
        let e = self.endian_switch(ti, on, cases, &mut done, &mut body)?;
        let probe = probe_prelude();
        Ok(quote! {
            #[allow(unused_variables, unused_parens, clippy::double_parens, clippy::identity_op, non_snake_case, unused_mut)]
            pub(crate) fn endian_of(data: &[u8]) -> ::binspec_runtime::Result<::binspec_runtime::Endian> {
                #probe
                let endian = ::binspec_runtime::Endian::Little;
                #(#body)*
                Ok(#e)
            }
        })
    }

    /// The root's switch fields that only the file's instances choose (not fields before them): those whose choice
    /// the written bytes must make again, or the file reads back as another type.
    fn root_switches(&self) -> Vec<&Field> {
        let t = &self.m.types[0];
        // Whether every name `e` uses, through the instances it reads, is an instance (or `_io`/`_root`).
        fn only_instances(
            t: &crate::ir::TypeDef,
            e: &crate::expr::Expr,
            seen: &mut BTreeSet<String>,
        ) -> bool {
            let mut names = BTreeSet::new();
            crate::ir::names_used(e, &mut names);
            names.into_iter().all(|n| {
                if n.starts_with('_') || !seen.insert(n.clone()) {
                    return true;
                }
                if t.seq.iter().any(|f| f.name == n) || t.params.iter().any(|p| p.name == n) {
                    return false;
                }
                match t.instances.iter().find(|f| f.name == n) {
                    Some(f) => [&f.pos_expr, &f.size, &f.cond, &f.value]
                        .into_iter()
                        .flatten()
                        .all(|x| only_instances(t, &x.expr, seen)),
                    None => true,
                }
            })
        }
        t.seq
            .iter()
            .filter(|f| f.repeat == Repeat::None && f.cond.is_none() && f.role == Role::Data)
            .filter(|f| match &f.ty {
                FieldTy::Switch { on, .. } => only_instances(t, &on.expr, &mut BTreeSet::new()),
                _ => false,
            })
            .collect()
    }

    /// For each of [`Self::root_switches`]: `<field>_variant_of(data, endian)`, the name of the type a reader
    /// chooses for it in `data`.
    fn emit_variant_of(&self, ti: usize) -> R<TokenStream> {
        if ti != 0 {
            return Ok(quote!());
        }
        let mut out = TokenStream::new();
        for f in self.root_switches() {
            let FieldTy::Switch { on, cases } = &f.ty else {
                continue;
            };
            let mut body = Vec::new();
            let mut done: BTreeSet<String> = BTreeSet::new();
            let mut needed = BTreeSet::new();
            crate::ir::names_used(&on.expr, &mut needed);
            for n in needed {
                self.ensure_instance(ti, &n, &mut done, &mut body)?;
            }
            let cx = || self.cx(ti, Scope::Read);
            let (o, _) = cx().tr(&on.expr, &on.path)?;
            let mut arms = Vec::new();
            let mut has_default = false;
            for c in cases {
                let n = c
                    .user()
                    .map_or(c.variant.as_str(), |t| self.m.types[t].name.as_str());
                match &c.key {
                    Some(k) => {
                        let (kt, _) = cx().tr(&k.expr, &k.path)?;
                        arms.push(quote!(x if x == #kt => #n,));
                    }
                    None => {
                        has_default = true;
                        arms.push(quote!(_ => #n,));
                    }
                }
            }
            if !has_default {
                arms.push(quote!(other => return Err(::binspec_runtime::Error::invalid(r.abs_pos(), format!("no case for {:?}", other))),));
            }
            let fname = format_ident!("{}_variant_of", f.name);
            let probe = probe_prelude();
            out.extend(quote! {
                #[allow(unused_variables, unused_parens, clippy::double_parens, clippy::identity_op, non_snake_case, unused_mut)]
                pub(crate) fn #fname(data: &[u8], endian: ::binspec_runtime::Endian) -> ::binspec_runtime::Result<&'static str> {
                    #probe
                    #(#body)*
                    Ok(match #o { #(#arms)* })
                }
            });
        }
        Ok(out)
    }

    /// The byte order that `endian: switch-on` gives: the reads of the instances it needs go into `body`, and the
    /// `match` that picks the order is returned.
    fn endian_switch(
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
        let (o, _) = self.cx(ti, Scope::Read).tr(&on.expr, &on.path)?;
        let mut arms = Vec::new();
        let msg = format!("no byte order is given for {} = {{:?}}", on.text);
        let mut default = quote!(other => return Err(::binspec_runtime::Error::invalid(r.abs_pos(), format!(#msg, other))));
        for (k, e) in cases {
            let e = endian_tokens(Some(*e));
            if k.text == "_" {
                default = quote!(_ => #e);
                continue;
            }
            let (kt, _) = self.cx(ti, Scope::Read).tr(&k.expr, &k.path)?;
            arms.push(quote!(x if x == #kt => #e,));
        }
        Ok(quote!(match #o { #(#arms)* #default }))
    }

    /// The pool region whose trailing bytes the model keeps: the root's last field, a pool region to the end of
    /// the file, when the root has no instances that are read after it (so every item of the pool has been read
    /// when the region is). Bytes after the pool's last item are then data that no item covers.
    fn tail_region(&self, ti: usize) -> Option<&Field> {
        if ti != 0 {
            return None;
        }
        let t = &self.m.types[ti];
        let last = t.seq.last()?;
        let ok = matches!(last.role, Role::Pool(_))
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
    fn order_slot(&self, ti: usize, name: &str) -> u32 {
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
    fn sort_key_is_fixed(&self, ti: usize, args: &TokenStream) -> R<bool> {
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
            .chain(
                self.param_list(ti)
                    .into_iter()
                    .map(|(_, id, _)| id.to_string()),
            )
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
    fn sort_key_of(&self, ti: usize) -> Option<&crate::ir::Ex> {
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

    /// `sort_key` for types that a parent sorts by (`-sort-by`).
    fn emit_sort_keys(&self, ti: usize) -> R<TokenStream> {
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
                    let (dt, _) = self.cx(ti, Scope::Write).tr(&x.expr, &x.path)?;
                    pre.push(quote!(let #d: i128 = match self.#id { Some(v) => v as i128, None => #dt };));
                }
            }
        }
        let (kt, kty) = self.cx(ti, Scope::Write).tr(&key.expr, &key.path)?;
        let (ret, conv) = match kty {
            T::Str => (quote!(::std::vec::Vec<u8>), quote!(#kt.as_bytes().to_vec())),
            T::Bytes => (quote!(::std::vec::Vec<u8>), quote!(#kt.to_vec())),
            _ => (quote!(i128), quote!(#kt)),
        };
        Ok(quote! {
            #[allow(clippy::too_many_arguments, unused_variables, unused_parens, clippy::double_parens, non_snake_case)]
            pub(crate) fn sort_key(&self, ctx: &::binspec_runtime::layout::WriteCtx, endian: ::binspec_runtime::Endian, #(#params),*) -> ::binspec_runtime::Result<#ret> {
                #(#pre)*
                Ok(#conv)
            }
        })
    }

    fn emit_root_impl(&self) -> R<TokenStream> {
        let m = self.m;
        let root = m.root();
        let name = ty_ident(&root.rust);
        let id = m.format_id.as_str();
        let title = m.title.clone().unwrap_or_else(|| m.id.clone());
        let exts = &m.extensions;
        let magics: Vec<&Vec<u8>> = m.magic.iter().chain(m.magics.iter()).collect();
        let sniff = if magics.is_empty() {
            quote!({
                let _ = data;
                false
            })
        } else {
            let at = m.magic_at as usize;
            let checks = magics.iter().map(|mg| {
                if at == 0 {
                    quote!(data.starts_with(&[#(#mg),*]))
                } else {
                    quote!(data.get(#at..).is_some_and(|d| d.starts_with(&[#(#mg),*])))
                }
            });
            quote!(#(#checks)||*)
        };
        let mut summary = Vec::new();
        for (label, e) in &m.info.summary {
            if let Ok((t, _)) = self.cx(0, Scope::Model).tr(&e.expr, &e.path) {
                summary.push(quote!((#label.to_string(), format!("{}", #t)),));
            }
        }
        for f in root
            .seq
            .iter()
            .filter(|f| f.repeat == Repeat::None && f.cond.is_none() && f.role == Role::Data)
        {
            if let FieldTy::Switch { cases, .. } = &f.ty {
                let fid = ident(&f.name);
                let label = f.name.as_str();
                let arms = variant_name_arms(m, f, cases);
                summary.push(
                    quote!((#label.to_string(), match &self.#fid { #(#arms)* }.to_string()),),
                );
            }
        }
        let version = match &m.info.version {
            Some(v) => match self.cx(0, Scope::Model).tr(&v.expr, &v.path) {
                Ok((t, T::Int)) => quote!(Some(format!("{:#x}", #t))),
                Ok((t, _)) => quote!(Some(format!("{}", #t))),
                Err(_) => quote!(None),
            },
            None => quote!(None),
        };
        let endian = if matches!(root.endian, EndianSpec::Switch { .. }) {
            quote!(Some(self.endian))
        } else if let EndianSpec::Fixed(e) = root.endian {
            let e = endian_tokens(Some(e));
            quote!(Some(#e))
        } else {
            quote!(None)
        };
        let archive = match &m.archive {
            Some(a) => {
                let path: Vec<Ident> = a.entries.iter().map(|p| ident(p)).collect();
                let nm = ident(&a.name);
                let dt = ident(&a.data);
                let entry_ty = self
                    .entry_type(&a.entries)
                    .map(|t| ty_ident(&m.types[t].rust));
                let Some(entry_ty) = entry_ty else {
                    return err(
                        "/meta/-binspec/archive",
                        "entries must name a repeated user type",
                    );
                };
                let entry_ti = self.entry_type(&a.entries).unwrap_or_default();
                // The hash that stands for the name of an entry stored without one. A derived hash that the model
                // leaves out equals its derive for no name: `sarc_hash` (the only hash expressions know) of no
                // bytes, 0.
                let hash = match &a.hash {
                    None => quote!(None),
                    Some(h) => {
                        let hid = ident(h);
                        match find(&m.types[entry_ti], h).map(|f| &f.role) {
                            Some(Role::Data) => quote!(Some(e.#hid as u64)),
                            Some(Role::Derive(x)) if x.text.contains(".sarc_hash(") => {
                                quote!(Some(e.#hid.map_or(0u64, |v| v as u64)))
                            }
                            _ => {
                                return err(
                                    "/meta/-binspec/archive/hash",
                                    "the hash must name a field of the entry type that is data or derived with sarc_hash",
                                )
                            }
                        }
                    }
                };
                quote! {
                    impl ::binspec_runtime::Archive for #name {
                        fn files(&self) -> ::std::vec::Vec<(&str, &[u8])> {
                            self.#(#path).*.iter().map(|e| (e.#nm.as_deref().unwrap_or_default(), &e.#dt[..])).collect()
                        }
                        fn set_files(&mut self, files: ::std::vec::Vec<(::std::string::String, ::std::vec::Vec<u8>)>) -> ::binspec_runtime::Result<()> {
                            self.set_entries(files.into_iter().map(|(n, d)| (::binspec_runtime::EntryKey::Name(n), d)).collect())
                        }
                        fn keys(&self) -> ::std::vec::Vec<::binspec_runtime::EntryKey> {
                            self.#(#path).*.iter().map(|e| {
                                let hash: ::std::option::Option<u64> = #hash;
                                match (&e.#nm, hash) {
                                    (None, Some(h)) => ::binspec_runtime::EntryKey::Hash(h),
                                    (n, _) => ::binspec_runtime::EntryKey::Name(n.as_deref().unwrap_or_default().to_string()),
                                }
                            }).collect()
                        }
                        fn set_entries(&mut self, files: ::std::vec::Vec<(::binspec_runtime::EntryKey, ::std::vec::Vec<u8>)>) -> ::binspec_runtime::Result<()> {
                            // Entries that keep their key keep their layout choices.
                            let keys = ::binspec_runtime::Archive::keys(self);
                            let mut old: ::std::collections::HashMap<::binspec_runtime::EntryKey, ::std::vec::Vec<#entry_ty>> = ::std::collections::HashMap::new();
                            for (k, e) in keys.into_iter().zip(::std::mem::take(&mut self.#(#path).*)) {
                                old.entry(k).or_default().push(e);
                            }
                            let mut entries = ::std::vec::Vec::with_capacity(files.len());
                            for (k, d) in files {
                                let kept = old.get_mut(&k).and_then(|v| (!v.is_empty()).then(|| v.remove(0)));
                                entries.push(match (kept, k) {
                                    (Some(mut e), _) => {
                                        e.#dt = d.into();
                                        e
                                    }
                                    (None, ::binspec_runtime::EntryKey::Name(n)) => #entry_ty { #nm: Some(n.into()), #dt: d.into(), ..::std::default::Default::default() },
                                    (None, ::binspec_runtime::EntryKey::Hash(h)) => {
                                        return Err(::binspec_runtime::Error::other(format!(
                                            "the archive has no entry stored without a name whose hash is {h:#010x}"
                                        )));
                                    }
                                });
                            }
                            self.#(#path).* = entries;
                            Ok(())
                        }
                    }
                    ::binspec_runtime::impl_archive_dyn!(#name);
                }
            }
            None => quote!(impl ::binspec_runtime::MaybeArchive for #name {}),
        };
        // A byte order that the file's own bytes decide (`endian: switch-on`) must be the one they decide in what
        // the writer made, or the file reads back otherwise: then writing fails instead.
        let endian_check = if matches!(root.endian, EndianSpec::Switch { .. }) {
            quote! {
                if found_endian != self.endian {
                    return Err(::binspec_runtime::Error::write(format!(
                        "the file would read back as {found_endian}-endian, not {}-endian: what decides the byte order (see the schema's meta/endian) comes out otherwise in the written data",
                        self.endian
                    )).at("endian").in_format(#id));
                }
            }
        } else {
            quote!()
        };
        let view_files = match self.view_plan() {
            Some(&(_, entry)) => {
                let args_ty = self.view_args_ty(entry);
                quote! {
                    /// The archive's files, read one entry at a time from `data` without building the model: each
                    /// name and data borrow `data`, in the order of the file. Only what reading needs is checked
                    /// (not the derived values, such as name hashes, nor the order); to edit or write the archive,
                    /// read it with `from_binary` or `from_bytes`.
                    pub fn view_files(data: &[u8]) -> ::binspec_runtime::Result<::binspec_runtime::ViewFiles<'_, #args_ty>> {
                        let root_io = ::binspec_runtime::Reader::new(data);
                        let mut r = root_io.clone();
                        let mut pools = ::binspec_runtime::layout::ReadPools::new();
                        #name::view_files_in(&mut r, ::binspec_runtime::Endian::Little, &mut pools, &root_io).map_err(|e| e.in_format(#id))
                    }
                }
            }
            None => quote!(),
        };
        let found_endian = if matches!(root.endian, EndianSpec::Switch { .. }) {
            quote!(let found_endian = #name::endian_of(&out).map_err(|e| e.in_format(#id))?;)
        } else {
            quote!()
        };
        // Likewise a type that the file's own bytes choose for a root field (`switch-on` over instances only).
        let mut switch_checks = Vec::new();
        for f in self.root_switches() {
            let FieldTy::Switch { on, cases } = &f.ty else {
                continue;
            };
            let fid = ident(&f.name);
            let fname = format_ident!("{}_variant_of", f.name);
            let label = f.name.as_str();
            let arms = variant_name_arms(m, f, cases);
            let endian = match &root.endian {
                EndianSpec::Switch { .. } => quote!(found_endian),
                EndianSpec::Fixed(e) => endian_tokens(Some(*e)),
                EndianSpec::Inherit => quote!(::binspec_runtime::Endian::Little),
            };
            let msg = format!(
                "the file would read back as `{{found}}`, not `{{want}}`: what chooses the type ({}) comes out otherwise in the written data",
                on.text
            );
            switch_checks.push(quote! {
                let found = #name::#fname(&out, #endian).map_err(|e| e.in_format(#id))?;
                let want = match &self.#fid { #(#arms)* };
                if found != want {
                    return Err(::binspec_runtime::Error::write(format!(#msg)).at(#label).in_format(#id));
                }
            });
        }
        // Where the model keeps raw bytes of the file (`model_shares_input`; strings alone do not count), they
        // share one copy of it: one allocation and one large copy instead of one of each (for SARC, reading 3,000 files took 2.0 ms copying each and 1.3 ms
        // copying the file, and writing the model read took 2.0 and 1.4 ms, its data now in one place).
        let from_binary = if self.model_shares_input() {
            quote!(<Self as ::binspec_runtime::Format>::from_bytes(
                ::binspec_runtime::Bytes::copy_from_slice(data)
            ))
        } else {
            quote! {
                let (m, relaid) = #name::read_root(::binspec_runtime::Reader::new(data))?;
                Ok(if relaid { #name::relay(m) } else { m })
            }
        };
        // Pooled items that share bytes are copied once each by whatever is made from the model.
        let check_expansion = if m.pools.is_empty() {
            quote!()
        } else {
            let names = m.pools.iter().map(|p| format!("`{}`", p.id));
            quote!(pools.check_expansion(root_io.size() as u64, &[#(#names),*]).map_err(|e| e.in_format(#id))?;)
        };
        Ok(quote! {
            impl #name {
                #view_files
                /// Reads the file, and says whether its layout is one the writer does not reproduce (see
                /// `ReadPools::relaid`).
                fn read_root(root_io: ::binspec_runtime::Reader<'_>) -> ::binspec_runtime::Result<(Self, bool)> {
                    let mut r = root_io.clone();
                    let mut pools = ::binspec_runtime::layout::ReadPools::new();
                    let m = #name::read(&mut r, ::binspec_runtime::Endian::Little, &mut pools, &root_io).map_err(|e| e.in_format(#id))?;
                    #check_expansion
                    Ok((m, pools.relaid()))
                }
                /// A file that shares bytes between items, or has them out of order or after gaps, is read as the
                /// file the writer makes of it: its layout choices (alignments read off positions) describe
                /// positions that writing moves, so they are read again from the written file, until reading what
                /// is written gives the same model (a few rounds at most). If a file cannot be written or read, the
                /// last model read stays.
                fn relay(mut m: Self) -> Self {
                    for _ in 0..4 {
                        let Ok(out) = ::binspec_runtime::Format::to_binary(&m) else {
                            return m;
                        };
                        let out = ::binspec_runtime::Bytes::from(out);
                        match #name::read_root(::binspec_runtime::Reader::shared(&out)) {
                            Ok((again, _)) if again == m => return again,
                            Ok((again, _)) => m = again,
                            Err(_) => return m,
                        }
                    }
                    m
                }
            }
            impl ::binspec_runtime::Format for #name {
                const ID: &'static str = #id;
                const TITLE: &'static str = #title;
                const EXTENSIONS: &'static [&'static str] = &[#(#exts),*];
                fn sniff(data: &[u8]) -> bool { #sniff }
                fn from_binary(data: &[u8]) -> ::binspec_runtime::Result<Self> {
                    #from_binary
                }
                fn from_bytes(data: ::binspec_runtime::Bytes) -> ::binspec_runtime::Result<Self> {
                    let (m, relaid) = #name::read_root(::binspec_runtime::Reader::shared(&data))?;
                    Ok(if relaid { #name::relay(m) } else { m })
                }
                fn to_binary(&self) -> ::binspec_runtime::Result<::std::vec::Vec<u8>> {
                    let out = ::binspec_runtime::layout::write_passes(|w, ctx| self.write(w, ctx, ::binspec_runtime::layout::Io::ROOT, ::binspec_runtime::Endian::Little)).map_err(|e| e.in_format(#id))?;
                    #found_endian
                    #(#switch_checks)*
                    #endian_check
                    Ok(out)
                }
                fn info(&self) -> ::binspec_runtime::Info {
                    ::binspec_runtime::Info {
                        format: #id,
                        version: #version,
                        endian: #endian,
                        summary: vec![#(#summary)*],
                    }
                }
            }
            #archive
            ::binspec_runtime::impl_binrw!(#name);
        })
    }

    fn entry_type(&self, path: &[String]) -> Option<usize> {
        let mut ty = 0;
        for p in path {
            let f = find(&self.m.types[ty], p)?;
            match f.ty {
                FieldTy::User { ty: t, .. } => ty = t,
                _ => return None,
            }
        }
        Some(ty)
    }
}

/// The start of a function that reads a few of the root's instances from `data` (`endian_of`, `<field>_variant_of`):
/// the reader, the root stream and pools that the instances' read statements use.
fn probe_prelude() -> TokenStream {
    quote! {
        use ::binspec_runtime::ResultExt as _;
        let root_io = ::binspec_runtime::Reader::new(data);
        let mut r = root_io.clone();
        let r = &mut r;
        let root_io = &root_io;
        let mut pools = ::binspec_runtime::layout::ReadPools::new();
        let pools = &mut pools;
    }
}

/// `match` arms from each variant of switch field `f`'s enum to the name of its type (`Enum::Variant(_) => "name",`).
fn variant_name_arms(m: &Module, f: &Field, cases: &[crate::ir::SwitchCase]) -> Vec<TokenStream> {
    let en = switch_enum_name(m, f);
    let mut seen = BTreeSet::new();
    cases
        .iter()
        .filter(|c| seen.insert(c.variant.clone()))
        .map(|c| {
            let v = ty_ident(&c.variant);
            let n = c
                .user()
                .map_or(c.variant.as_str(), |t| m.types[t].name.as_str());
            quote!(#en::#v(_) => #n,)
        })
        .collect()
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

/// The smallest number of bytes one element can take (for allocation bounds).
fn min_size(m: &Module, f: &Field) -> u64 {
    match &f.ty {
        FieldTy::Int { bytes, .. } | FieldTy::Float { bytes, .. } => *bytes as u64,
        FieldTy::User { ty, .. } => m.types[*ty]
            .seq
            .iter()
            .map(|s| match (&s.ty, &s.repeat, &s.cond) {
                (FieldTy::Int { bytes, .. }, Repeat::None, None) => *bytes as u64,
                _ => 0,
            })
            .sum(),
        _ => 0,
    }
}

/// Formats generated tokens as a file, with the `@generated` header.
pub fn format_file(tokens: TokenStream, source: &str) -> Result<String, String> {
    let file: syn::File =
        syn::parse2(tokens).map_err(|e| format!("generated code does not parse: {e}"))?;
    let body = prettyplease::unparse(&file);
    Ok(format!("// @generated by binspec-codegen from {source}. Do not edit: edit the schema and rebuild.\n\n{body}"))
}

/// A Rust enum for a schema enum, with a variant for values the schema does not name (so every file round-trips).
fn emit_enum(e: &crate::ir::EnumDef) -> TokenStream {
    let name = ty_ident(&e.rust);
    let mut vars = Vec::new();
    let mut from = Vec::new();
    let mut to = Vec::new();
    for (v, id, doc) in &e.values {
        let var = ty_ident(&crate::ir::camel(id));
        let lit = int_lit(*v);
        let d = doc_attr(doc);
        vars.push(quote!(#d #[serde(rename = #id)] #var,));
        from.push(quote!(#lit => #name::#var,));
        to.push(quote!(#name::#var => #lit,));
    }
    let doc = format!(" The `{}` enum.", e.name);
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub enum #name {
            #(#vars)*
            /// A value the schema does not name.
            #[serde(untagged)]
            Unknown(i64),
        }
        impl #name {
            /// The enum for a value read from a file.
            pub fn from_value(v: i128) -> Self {
                #[allow(unreachable_patterns)]
                match v {
                    #(#from)*
                    other => #name::Unknown(other as i64),
                }
            }
            /// The value written to a file.
            pub fn value(self) -> i128 {
                match self {
                    #(#to)*
                    #name::Unknown(v) => v as i128,
                }
            }
        }
        impl ::std::default::Default for #name {
            fn default() -> Self {
                #name::from_value(0)
            }
        }
    }
}

/// Translates an expression over a decoded model (the root type's fields, value instances, enum literals) into
/// Rust that reads the model through `base` (a variable holding the root model). Returns the code and the kind of
/// value (`Int`, `Float`, `Bool`, `Str`, `Bytes`, `Array(..)`, `User(..)`). Used by tools that check decoded
/// files against expectations, such as Kaitai's conformance suite.
pub fn translate_model_expr(m: &Module, base: &str, src: &str) -> Result<(String, String), String> {
    let e = crate::expr::parse(src).map_err(|e| e.message)?;
    let b: TokenStream = base.parse().map_err(|_| format!("bad base '{base}'"))?;
    let mut cx = Cx {
        m,
        last_t: None,
        base: Some(b),
        ty: 0,
        scope: Scope::Model,
        depth: 0,
    };
    let (t, ty) = cx.tr(&e, "/").map_err(|e| e.message)?;
    Ok((t.to_string(), format!("{ty:?}")))
}

fn valid_text(v: &Valid) -> String {
    match v {
        Valid::InEnum => "must be a value of its enum".into(),
        Valid::Eq(x) => format!("must be {}", x.text),
        Valid::Min(x) => format!("must be at least {}", x.text),
        Valid::Max(x) => format!("must be at most {}", x.text),
        Valid::Range(a, b) => format!(
            "must be in {}..={}",
            a.as_ref().map_or("", |x| x.text.as_str()),
            b.as_ref().map_or("", |x| x.text.as_str())
        ),
        Valid::AnyOf(xs) => format!(
            "must be one of {}",
            xs.iter()
                .map(|x| x.text.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Valid::Expr(x) => format!("must satisfy {}", x.text),
    }
}

/// Fields (by YAML path) whose unrepeated user type, or one of whose switch cases, can contain the field's own
/// type again: these are boxed.
fn recursive_fields(m: &Module) -> BTreeSet<String> {
    let graph = crate::ir::types_graph(&m.types, true);
    let mut out = BTreeSet::new();
    for (ti, t) in m.types.iter().enumerate() {
        for f in t.seq.iter().chain(t.instances.iter()) {
            if f.repeat == Repeat::None && crate::ir::reaches_type(&graph, &f.ty, ti) {
                out.insert(f.path.clone());
            }
        }
    }
    out
}

/// The field as one switch case reads it: the case's type in place of the switch.
fn case_field(f: &Field, c: &crate::ir::SwitchCase) -> Field {
    let mut cf = f.clone();
    cf.ty = match (&c.prim, c.user()) {
        (Some(p), _) => p.clone(),
        (None, Some(ty)) => FieldTy::User {
            ty,
            args: c.args.clone(),
        },
        (None, None) => FieldTy::Bytes,
    };
    cf.repeat = Repeat::None;
    cf.cond = None;
    cf
}

/// The terminator of a field as bytes: two zero bytes for a UTF-16 `strz`.
fn term_bytes(f: &Field) -> Option<Vec<u8>> {
    let t = f.terminator?;
    if let FieldTy::Str {
        encoding,
        zero_terminated: true,
    } = &f.ty
    {
        let e: String = encoding
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_uppercase();
        if e.starts_with("UTF16") {
            return Some(vec![t, t]);
        }
    }
    Some(vec![t])
}

/// Whether a user-type field is read from bytes cut out first (a substream).
fn is_blob(f: &Field) -> bool {
    f.size.is_some() || f.size_eos || f.terminator.is_some() || f.process.is_some()
}

/// A switch whose every case is an integer: it reads as an integer in expressions (`.value()`).
fn int_switch(f: &Field) -> bool {
    matches!(&f.ty, FieldTy::Switch { cases, .. } if cases.iter().all(|c| matches!(c.prim, Some(FieldTy::Int { .. }))))
}

/// A field whose model value is an enum-like wrapper of an integer (an enum, or an integer switch).
fn valued(f: &Field) -> bool {
    f.enum_.is_some() || int_switch(f)
}

/// Whether a schema's `encoding` names UTF-8 (as the runtime reads the name: any case, `-` and `_` ignored), so
/// that generated code can call the UTF-8 functions without looking the name up for each string.
fn is_utf8(encoding: &str) -> bool {
    let bare: String = encoding
        .chars()
        .filter(|c| !matches!(c, '-' | '_'))
        .collect();
    bare.eq_ignore_ascii_case("UTF8")
}

/// Whether `tokens` use the identifier `name` anywhere, groups included.
fn mentions(tokens: &TokenStream, name: &str) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i == name,
        proc_macro2::TokenTree::Group(g) => mentions(&g.stream(), name),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_encoding_names() {
        for (name, utf8) in [
            ("UTF-8", true),
            ("utf8", true),
            ("Utf_8", true),
            ("ASCII", false),
            ("UTF-16LE", false),
            ("SJIS", false),
            ("", false),
        ] {
            assert_eq!(is_utf8(name), utf8, "{name:?}");
        }
    }

    #[test]
    fn identifiers_mentioned() {
        for (src, found) in [
            ("let x = pools.item(1);", true),
            ("f(a, { g(&mut pools) })", true),
            ("let pools_of = 1; \"pools\"", false),
            ("r.u32(endian)?", false),
        ] {
            let t: TokenStream = src.parse().unwrap();
            assert_eq!(mentions(&t, "pools"), found, "{src}");
        }
    }

    const SCHEMA: &str = "
meta:
  id: t
  endian: le
seq:
  - id: count
    type: u2
  - id: flags
    type: b1
  - id: kind
    type: u1
    enum: kind
  - id: name
    type: strz
    encoding: UTF-8
  - id: data
    size: count
  - id: opt
    type: u4
    if: count > 2
  - id: items
    type: item
    repeat: expr
    repeat-expr: 2
instances:
  twice:
    value: count * 2
types:
  item:
    seq:
      - id: v
        type: s4
enums:
  kind:
    1: one
    2: two
";

    /// Expressions over a decoded model and the Rust they become (integers are computed in `i128`).
    #[test]
    fn translates_model_expressions() {
        let c = crate::compile_str("t.ksy", SCHEMA).unwrap();
        let rows: &[(&str, &str, &str)] = &[
            ("1 + 2", "(1i128 + 2i128)", "Int"),
            ("7 / 2", ":: binspec_runtime :: expr :: div (7i128 , 2i128)", "Int"),
            ("-7 % 3", ":: binspec_runtime :: expr :: modulo ((- (7i128)) , 3i128)", "Int"),
            ("count", "((m) . data . len () as i128)", "Int"),
            ("count * 2", "(((m) . data . len () as i128)) . wrapping_mul (2i128)", "Int"),
            ("twice", "(((m) . data . len () as i128)) . wrapping_mul (2i128)", "Int"),
            ("flags", "(m) . flags", "Bool"),
            ("kind == kind::two", "((m) . kind . value () == 2i128)", "Bool"),
            ("kind.to_i", "(m) . kind . value ()", "Int"),
            ("name.length", "((& (m) . name [..]) . chars () . count () as i128)", "Int"),
            ("name.reverse", "(& (m) . name [..]) . chars () . rev () . collect :: < :: std :: string :: String > ()", "Str"),
            ("data.size", "((& (m) . data [..]) . len () as i128)", "Int"),
            ("data[0]", "((& (m) . data [..]) . get ((0i128) as usize) . copied () . unwrap_or (0) as i128)", "Int"),
            ("opt", "((m) . opt . unwrap_or_default () as i128)", "Int"),
            ("items.size", "((m) . items . len () as i128)", "Int"),
            ("items[1].v", "(((m) . items . get ((1i128) as usize) . cloned () . unwrap_or_default ()) . v as i128)", "Int"),
            ("count > 2 ? 1 : 2.5", "(if (((m) . data . len () as i128) > 2i128) { (1i128) as f64 } else { 2.5f64 })", "Float"),
            ("[1, 2] == data", "((& [1u8 , 2u8] [..]) == (& (m) . data [..]))", "Bool"),
            ("name + \"x\"", "format ! (\"{}{}\" , (& (m) . name [..]) , \"x\")", "Str"),
        ];
        let mut failures = Vec::new();
        for (src, want, want_t) in rows {
            match translate_model_expr(&c.module, "m", src) {
                Ok((got, t)) if got == *want && t == *want_t => {}
                other => failures.push(format!("{src}: got {other:?}, want ({want:?}, {want_t})")),
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// A tree linked by offsets, in either byte order: `node` reaches itself through `child.target`.
    const TREE: &str = "
meta:
  id: tree
  endian:
    switch-on: magic_be
    cases:
      0x4c45: le
      0x4245: be
seq:
  - id: magic
    type: u2
  - id: root_ofs
    type: u4
instances:
  magic_be:
    pos: 0
    type: u2be
  is_le:
    value: magic_be == 0x4c45
  root:
    pos: root_ofs
    type: node
types:
  node:
    seq:
      - id: header
        type: u4
      - id: kids
        type: child(kind)
        repeat: expr
        repeat-expr: count
    instances:
      kind:
        value: '_root.is_le ? header & 0xff : header >> 24'
      count:
        value: '_root.is_le ? header >> 8 : header & 0xffffff'
  child:
    params:
      - id: kind
        type: u1
    seq:
      - id: ofs
        type: u4
      - id: payload
        type: u1
        repeat: expr
        repeat-expr: width
    instances:
      width:
        pos: ofs
        type: u1
        io: _root._io
      target:
        pos: ofs + 1
        type: node
        io: _root._io
        -eager: true
";

    fn tree(eager: bool) -> crate::Compiled {
        let text = if eager {
            TREE.to_string()
        } else {
            TREE.replace("        -eager: true\n", "")
        };
        crate::compile_str("tree.ksy", &text).unwrap_or_else(|d| panic!("{d:?}"))
    }

    /// The text between `start` and the next line that begins a function, for checks inside one function.
    fn function<'a>(rust: &'a str, ty: &str, start: &str) -> &'a str {
        let from = rust.find(&format!("impl {ty} {{")).expect("type");
        let at = from + rust[from..].find(start).expect("function");
        let end = rust[at + start.len()..]
            .find("    pub(crate) fn ")
            .map_or(rust.len(), |e| at + start.len() + e);
        &rust[at..end]
    }

    /// An `-eager` instance that leads to its own type again is read with its parent and kept in the model,
    /// counting against the budget of followed references and carrying the nesting depth; without the key it is a
    /// view, left out of the model.
    #[test]
    fn eager_instances_are_read_and_kept() {
        let c = tree(true);
        let child = c.module.types.iter().find(|t| t.name == "child").unwrap();
        let target = child.instances.iter().find(|f| f.name == "target").unwrap();
        assert_eq!(target.role, Role::Placed);
        // `Node` holds `Child` in a `Vec`, so the model has a finite size without a box.
        assert!(c.rust.contains("pub target: Node,"), "{}", c.rust);
        let read = function(&c.rust, "Child", "pub(crate) fn read");
        assert!(
            read.contains("pools.follow(r.abs_pos(), root_io.size() as u64).at(\"target\")?;"),
            "{read}"
        );
        assert!(read.contains("root_io.clone().nested(r.depth())"), "{read}");

        let c = tree(false);
        let child = c.module.types.iter().find(|t| t.name == "child").unwrap();
        let target = child.instances.iter().find(|f| f.name == "target").unwrap();
        assert_eq!(target.role, Role::View);
        assert!(!c.rust.contains("pub target:"), "{}", c.rust);
    }

    /// A field whose presence the model decides is checked against its condition when writing, unless the
    /// condition names a parameter (whose value when writing is not the one it was read with).
    #[test]
    fn presence_is_checked_against_the_condition() {
        let text = "meta:\n  id: cond\n  endian: le\nseq:\n  - id: version\n    type: u1\n  - id: extra\n    type: u1\n    if: version >= 2\n  - id: b\n    type: sub(version == 3)\ntypes:\n  sub:\n    params:\n      - id: flag\n        type: bool\n    seq:\n      - id: more\n        type: u1\n        if: flag\n";
        let c = crate::compile_str("cond.ksy", text).unwrap_or_else(|d| panic!("{d:?}"));
        let write = function(&c.rust, "Cond", "pub(crate) fn write");
        assert!(
            write.contains("match (((self.version as i128) >= 2i128), self.extra.is_some())"),
            "{write}"
        );
        assert!(
            write.contains("its condition `version >= 2` is false"),
            "{write}"
        );
        let sub = function(&c.rust, "Sub", "pub(crate) fn write");
        assert!(!sub.contains("is_some())"), "{sub}");
    }

    /// A value instance with `-data: u1` is kept in the model as a `u8`: read from the expression, and named by
    /// its model value (not its expression) in the writer's derived values, so a field can be derived from it.
    #[test]
    fn data_value_instances_are_kept_and_used_when_writing() {
        let text = "meta:\n  id: kept\n  endian: le\nseq:\n  - id: attrs\n    type: u4\n    -derive: tag << 24 | 7\ninstances:\n  tag:\n    value: attrs >> 24\n    -data: u1\n    -default: 1\n";
        let c = crate::compile_str("kept.ksy", text).unwrap_or_else(|d| panic!("{d:?}"));
        let tag = c.module.types[0]
            .instances
            .iter()
            .find(|f| f.name == "tag")
            .unwrap();
        assert_eq!(tag.role, Role::Kept);
        assert!(c.rust.contains("pub tag: u8,"), "{}", c.rust);
        assert!(
            c.rust
                .contains("skip_serializing_if = \"is_default_kept_tag\""),
            "{}",
            c.rust
        );
        let read = function(&c.rust, "Kept", "pub(crate) fn read");
        // Read from the field as read, before the field becomes an `Option` (set only where it disagrees).
        let kept_at = read.find("let v_tag: u8").expect("tag read");
        let opt_at = read
            .find("let v_attrs: ::std::option::Option<u32>")
            .expect("attrs override");
        assert!(kept_at < opt_at, "{read}");
        let write = function(&c.rust, "Kept", "pub(crate) fn write");
        assert!(write.contains("(self.tag as i128)"), "{write}");
        assert!(!write.contains("shr"), "{write}");
    }

    /// Placed instances are written by a writer whose positions are the output's, and laid over the output at the
    /// end of the pass, so that one nested in another lands at its own position.
    #[test]
    fn placed_instances_are_laid_over_the_output() {
        let c = tree(true);
        let write = function(&c.rust, "Child", "pub(crate) fn write");
        for want in [
            "let io = ::binspec_runtime::layout::Io::ROOT;",
            "let mut w = ::binspec_runtime::Writer::at_origin(at);",
            "ctx.place(at, w.into_inner());",
        ] {
            assert!(write.contains(want), "{want}:\n{write}");
        }
        assert!(!write.contains("write_at"), "{write}");
    }

    /// A view that decides the byte order is known when writing, from the model's byte order; a value instance
    /// that is a boolean is passed on as one.
    #[test]
    fn byte_order_views_and_boolean_values_when_writing() {
        let c = tree(true);
        let write = function(&c.rust, "Tree", "pub(crate) fn write");
        assert!(
            write.contains("::binspec_runtime::Endian::Little => 19525i128,")
                && write.contains("::binspec_runtime::Endian::Big => 16965i128,"),
            "{write}"
        );
        let read = function(&c.rust, "Node", "pub(crate) fn read");
        assert!(read.contains("x_root__is_le: bool,"), "{read}");
    }

    /// An instance that a field's arguments use is read before the field.
    #[test]
    fn instances_used_by_arguments_are_read_first() {
        let c = crate::compile_str(
            "args.ksy",
            "
meta:
  id: args
  endian: le
seq:
  - id: item
    type: item(tag)
instances:
  tag:
    pos: 4
    type: u1
types:
  item:
    params:
      - id: t
        type: u1
    seq:
      - id: v
        type: u1
",
        )
        .unwrap();
        let read = function(&c.rust, "Args", "pub(crate) fn read");
        let tag = read.find("let (v_tag, pos_tag)").expect("tag is read");
        let item = read.find("let v_item").expect("item is read");
        assert!(tag < item, "{read}");
    }

    /// `-eager` belongs on an instance read from a position.
    #[test]
    fn eager_needs_a_placed_instance() {
        let bad = TREE.replace(
            "    value: magic_be == 0x4c45\n",
            "    value: magic_be == 0x4c45\n    -eager: true\n",
        );
        assert_ne!(bad, TREE);
        let d = crate::compile_str("tree.ksy", &bad).unwrap_err();
        assert!(
            d.iter().any(|d| d
                .to_string()
                .contains("/instances/is_le: '-eager' needs an instance with 'pos'")),
            "{d:?}"
        );
        let bad = TREE.replace(
            "        type: u4\n      - id: payload",
            "        type: u4\n        -eager: true\n      - id: payload",
        );
        assert_ne!(bad, TREE);
        let d = crate::compile_str("tree.ksy", &bad).unwrap_err();
        assert!(
            d.iter()
                .any(|d| d.to_string().contains("'-eager' applies to instances only")),
            "{d:?}"
        );
    }

    /// Expressions the translator refuses, with why.
    #[test]
    fn refuses_what_it_cannot_translate() {
        let c = crate::compile_str("t.ksy", SCHEMA).unwrap();
        for (src, msg) in [
            ("nope", "no field, instance or parameter 'nope'"),
            ("kind::three", "enum 'kind' has no value 'three'"),
            ("data.frobnicate(1)", "method 'frobnicate'"),
            ("items.first.w", "no field 'w'"),
        ] {
            let e = translate_model_expr(&c.module, "m", src).unwrap_err();
            assert!(e.contains(msg), "{src}: {e}");
        }
    }
}
