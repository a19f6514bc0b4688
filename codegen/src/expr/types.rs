//! Types of expressions and the type checker.
//!
//! # Typing rules
//!
//! *Literals.* An integer literal is `s8` ([`Ty::CALC_INT`]) when it fits in
//! an `i64` and `u8` otherwise; floats are [`Ty::Float`], strings
//! [`Ty::Str`], `true`/`false` [`Ty::Bool`]. An array literal whose elements
//! are all integer literals in `0..=255` is [`Ty::Bytes`] (so
//! `magic == [0x50, 0x4b]` compares bytes); `[]` is `Array(Any)`, which is
//! also accepted wherever bytes are; otherwise the element types are
//! combined as for `?:` below.
//!
//! *Integer arithmetic* (`+ - * / % & | ^`): the result is `u8` when both
//! operands are `u8`, or when one is `u8` and the other is a (non-negative)
//! integer literal; in every other case it is `s8`. Shifts (`<< >>`) take
//! the left operand's side of that rule: `u8 << n` is `u8`, anything else
//! `s8`. `~x` is `u8` for a `u8` operand, else `s8`; `-x` on any integer is
//! `s8`. Any arithmetic involving a float (and integers) is `Float`;
//! `%` is allowed on floats, bitwise operators and shifts are not.
//!
//! *Strings.* `str + str` is `str`; nothing else concatenates (in
//! particular not bytes).
//!
//! *Comparisons* give `Bool`. `==`/`!=` accept two numbers, two bools, two
//! strings, two byte arrays, two arrays with comparable elements, bytes and
//! an integer array (so an `[1, 2]` literal compares with a `u4[]` field),
//! or two values of the same enum. `< <= > >=` accept two numbers, two
//! strings or two byte arrays. `and`/`or`/`not` need `Bool`.
//!
//! *Conditional* `c ? a : b`: `c` must be `Bool`; the branch types are
//! combined: equal types stay; integers of the same signedness give that
//! signedness at the wider width (unknown width 0 wins); integers of mixed
//! signedness give `s8`; an integer and a float give `Float`; two different
//! user types give `Any`; bytes and `Array(Any)` give bytes; arrays combine
//! element-wise. Anything else is an error.
//!
//! *Members* by receiver type (properties unless marked as methods):
//! integers: `to_s` → str; floats, bools, enums: `to_i` → `s8`;
//! strings: `length` → `s8`, `reverse` → str, `to_i` → `s8`,
//! methods `to_i(radix)` → `s8` and `substring(from, to)` → str;
//! bytes: `length`, `size` → `s8`, `first`, `last`, `min`, `max` → `u1`,
//! method `to_s(encoding)` → str (the encoding must be a string literal);
//! arrays: `size` → `s8`, `first`, `last`, `min`, `max` → element type;
//! `_io`: `size`, `pos` → `s8`, `eof` → bool;
//! user types: their fields (via [`Env::field_of`]) plus `_io` → io,
//! `_root` → [`Env::special`]`("_root")`, `_parent` → [`Env::parent_of`] (unknown → `Any`), `_sizeof` → `s8`.
//! Indexing: `Array(T)[int]` → `T`, `bytes[int]` → `u1`.
//!
//! *Names.* `_root`/`_parent` come from [`Env::special`] (unknown → `Any`);
//! every other name, including `_io`, `_index`, `_`, `_on`, `_buf` and
//! `_sizeof`, from [`Env::name`]; `_io` defaults to [`Ty::Io`] if the
//! environment does not know it.
//!
//! *Casts* `x.as<T>` have type `T` (built-in names `u1`…`s8` with optional
//! `le`/`be`, `f4`/`f8`, `b1` (bool), `b2`…`b64` (unsigned, in the smallest
//! of 1/2/4/8 bytes that holds them), `str`, `strz`, `bytes`;
//! anything else via [`Env::type_named`]); `sizeof<T>`/`bitsizeof<T>` are `s8`
//! and reject types without a fixed size (str, bytes, arrays).
//!
//! `Any` is the unknown type: it is accepted everywhere and operations on it
//! yield `Any`, except that comparisons and `and`/`or` still yield `Bool`.
//!
//! Integer widths are in bytes; Kaitai's "CalcIntType" is modelled as `s8`.

use std::fmt;

use super::ast::{env_path, BinOp, Expr, ExprKind, Span, TypeRef, UnOp};
use super::MAX_DEPTH;

/// The type of an expression.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Ty {
    /// An integer of `width` bytes (0 = unknown / any width).
    Int {
        /// Two's-complement signed.
        signed: bool,
        /// Width in bytes: 1, 2, 4, 8, or 0 when unknown.
        width: u8,
    },
    /// A floating-point number.
    Float,
    /// A boolean.
    Bool,
    /// A (decoded) string.
    Str,
    /// A byte array.
    Bytes,
    /// An array of the given element type.
    Array(Box<Ty>),
    /// A user-defined type, by resolved type path (e.g. `"png::chunk"`).
    User(String),
    /// A value of an enum, by resolved enum name.
    Enum(String),
    /// A stream (`_io`).
    Io,
    /// Unknown; accepted everywhere.
    Any,
}

impl Ty {
    /// The type of integer literals and integer arithmetic: signed 64-bit.
    pub const CALC_INT: Ty = Ty::Int {
        signed: true,
        width: 8,
    };
    /// Unsigned 64-bit.
    pub const U8: Ty = Ty::Int {
        signed: false,
        width: 8,
    };
    /// Unsigned 8-bit (a byte).
    pub const U1: Ty = Ty::Int {
        signed: false,
        width: 1,
    };

    /// Integer or float.
    pub fn is_numeric(&self) -> bool {
        matches!(self, Ty::Int { .. } | Ty::Float)
    }

    fn is_int(&self) -> bool {
        matches!(self, Ty::Int { .. })
    }

    fn is_u8(&self) -> bool {
        *self == Ty::U8
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Int {
                signed: true,
                width: 0,
            } => f.write_str("int"),
            Ty::Int {
                signed: false,
                width: 0,
            } => f.write_str("uint"),
            Ty::Int { signed, width } => {
                write!(f, "{}{width}", if *signed { 's' } else { 'u' })
            }
            Ty::Float => f.write_str("float"),
            Ty::Bool => f.write_str("bool"),
            Ty::Str => f.write_str("str"),
            Ty::Bytes => f.write_str("bytes"),
            Ty::Array(inner) => write!(f, "{inner}[]"),
            Ty::User(name) => write!(f, "{name}"),
            Ty::Enum(name) => write!(f, "enum {name}"),
            Ty::Io => f.write_str("io stream"),
            Ty::Any => f.write_str("any"),
        }
    }
}

mod ext;
mod names;
mod nodes;
use names::hint;
pub use names::{builtin_type, did_you_mean};
pub use nodes::{annotate, types_of, Recorded};

/// What the type checker needs to know about the schema around an
/// expression.
///
/// Paths passed to [`Env::enum_value`] and [`Env::type_named`] are the names
/// as written, split at `::`; an absolute reference (written with a leading
/// `::`) has an empty first segment: `::a::b` → `["", "a", "b"]`.
pub trait Env {
    /// Type of a bare name in the current type's scope (seq fields,
    /// instances, params, `_index`, `_`, `_io`, ...); `None` if unknown.
    fn name(&self, name: &str) -> Option<Ty>;
    /// Type of `_root` or `_parent`, or `None` if not known (treated as
    /// [`Ty::Any`]).
    fn special(&self, name: &str) -> Option<Ty>;
    /// Type of attribute `field` on user type `user_type` (`None` = no such
    /// field).
    fn field_of(&self, user_type: &str, field: &str) -> Option<Ty>;
    /// Type of `_parent` on a value of user type `user_type`: the one type that holds it, where there is one
    /// (`None` = not known, treated as [`Ty::Any`]).
    fn parent_of(&self, user_type: &str) -> Option<Ty> {
        let _ = user_type;
        None
    }
    /// If an enum with this (possibly qualified, as written) name exists and
    /// has the label `value`, returns the resolved enum name.
    fn enum_value(&self, path: &[String], value: &str) -> Option<String>;
    /// Resolves a user type name used in `.as<>` / `sizeof<>` (built-in
    /// names such as `u4` or `str` are handled by the checker).
    fn type_named(&self, path: &[String]) -> Option<Ty>;
    /// Names of the fields of `user_type`, for "did you mean" suggestions.
    fn field_names(&self, user_type: &str) -> Vec<String> {
        let _ = user_type;
        Vec::new()
    }
    /// Names visible in the current scope, for "did you mean" suggestions.
    fn names(&self) -> Vec<String> {
        Vec::new()
    }
}

/// A type error in an expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeError {
    /// Bytes of the expression source the error refers to.
    pub span: Span,
    /// Human-readable description, without position information.
    pub message: String,
}

impl TypeError {
    fn new(span: Span, message: impl Into<String>) -> Self {
        TypeError {
            span,
            message: message.into(),
        }
    }

    /// Renders the error against its source with a caret line underneath.
    pub fn render(&self, src: &str) -> String {
        super::render_span(src, self.span, &self.message)
    }
}

impl fmt::Display for TypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (at {}..{})",
            self.message, self.span.start, self.span.end
        )
    }
}

impl std::error::Error for TypeError {}

/// Infers the type of `expr` in `env`, or reports the first type error.
///
/// See the [module documentation](self) for the rules.
pub fn type_of(expr: &Expr, env: &dyn Env) -> Result<Ty, TypeError> {
    Checker {
        env,
        ext: false,
        record: None,
    }
    .check(expr, 0)
}

/// [`type_of`] for binspec's own expressions (the `-` keys), which may also use what binspec adds to Kaitai's
/// language: `x._pos` (an integer), `x._present` (a boolean), `s.murmur3(seed)`, `s.crc32()` and
/// `s.sarc_hash(multiplier)` on strings and bytes (integers), `s.path_stem()` and `s.path_extension()` on strings
/// (strings), `xs.bitmask(PRED)` (bytes; `_` in `PRED` is an element), `xs.count(PRED)` (an integer: the
/// elements where `PRED` holds) and `_dic` (a dictionary node's values, under `-resdic`).
pub fn type_of_ext(expr: &Expr, env: &dyn Env) -> Result<Ty, TypeError> {
    Checker {
        env,
        ext: true,
        record: None,
    }
    .check(expr, 0)
}

/// Whether a member is read as a property, called as a method, or both.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Member {
    Prop,
    Method,
    Both,
}

/// Built-in members of non-user types.
fn members(ty: &Ty) -> &'static [(&'static str, Member)] {
    use Member::*;
    match ty {
        Ty::Int { .. } => &[("to_s", Prop)],
        Ty::Float | Ty::Bool | Ty::Enum(_) => &[("to_i", Prop)],
        Ty::Str => &[
            ("to_s", Prop),
            ("length", Prop),
            ("reverse", Prop),
            ("to_i", Both),
            ("substring", Method),
        ],
        Ty::Bytes => &[
            ("length", Prop),
            ("size", Prop),
            ("first", Prop),
            ("last", Prop),
            ("min", Prop),
            ("max", Prop),
            ("to_s", Method),
        ],
        Ty::Array(_) => &[
            ("size", Prop),
            ("first", Prop),
            ("last", Prop),
            ("min", Prop),
            ("max", Prop),
        ],
        Ty::Io => &[("size", Prop), ("pos", Prop), ("eof", Prop)],
        Ty::User(_) | Ty::Any => &[],
    }
}

fn member_names(ty: &Ty) -> Vec<String> {
    members(ty).iter().map(|(n, _)| (*n).to_owned()).collect()
}

/// Example call shown when a method is used as a property.
fn method_example(method: &str) -> &'static str {
    match method {
        "substring" => "substring(0, 3)",
        "to_s" => "to_s(\"UTF-8\")",
        "to_i" => "to_i(16)",
        _ => "...",
    }
}

fn is_int_literal(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Int(_))
}

/// Combines two integer types for `?:` and array literals.
fn combine_ints(a: &Ty, b: &Ty) -> Ty {
    match (a, b) {
        (
            Ty::Int {
                signed: s1,
                width: w1,
            },
            Ty::Int {
                signed: s2,
                width: w2,
            },
        ) if s1 == s2 => Ty::Int {
            signed: *s1,
            width: if *w1 == 0 || *w2 == 0 {
                0
            } else {
                (*w1).max(*w2)
            },
        },
        _ => Ty::CALC_INT,
    }
}

/// The common type of two values (see the module docs), or `None`.
fn combine(a: &Ty, b: &Ty) -> Option<Ty> {
    if a == b {
        return Some(a.clone());
    }
    Some(match (a, b) {
        (Ty::Any, _) | (_, Ty::Any) => Ty::Any,
        (Ty::Int { .. }, Ty::Int { .. }) => combine_ints(a, b),
        (x, y) if x.is_numeric() && y.is_numeric() => Ty::Float,
        (Ty::User(_), Ty::User(_)) => Ty::Any,
        (Ty::Bytes, Ty::Array(e)) | (Ty::Array(e), Ty::Bytes) if **e == Ty::Any => Ty::Bytes,
        (Ty::Array(x), Ty::Array(y)) => Ty::Array(Box::new(combine(x, y)?)),
        _ => return None,
    })
}

/// Whether `==`/`!=` may compare these types.
fn eq_comparable(a: &Ty, b: &Ty) -> bool {
    match (a, b) {
        (Ty::Any, _) | (_, Ty::Any) => true,
        (x, y) if x.is_numeric() && y.is_numeric() => true,
        (Ty::Bool, Ty::Bool) | (Ty::Str, Ty::Str) | (Ty::Bytes, Ty::Bytes) => true,
        (Ty::Enum(x), Ty::Enum(y)) => x == y,
        (Ty::Bytes, Ty::Array(e)) | (Ty::Array(e), Ty::Bytes) => **e == Ty::Any || e.is_int(),
        (Ty::Array(x), Ty::Array(y)) => eq_comparable(x, y),
        _ => false,
    }
}

/// Whether `< <= > >=` may compare these types.
fn ord_comparable(a: &Ty, b: &Ty) -> bool {
    match (a, b) {
        (Ty::Any, _) | (_, Ty::Any) => true,
        (x, y) if x.is_numeric() && y.is_numeric() => true,
        (Ty::Str, Ty::Str) | (Ty::Bytes, Ty::Bytes) => true,
        _ => false,
    }
}

#[cold]
#[inline(never)]
fn too_deep(span: Span) -> TypeError {
    TypeError::new(
        span,
        format!("expression is nested too deeply (the limit is {MAX_DEPTH} levels)"),
    )
}

struct Checker<'e> {
    env: &'e dyn Env,
    /// Whether binspec's additions are allowed ([`type_of_ext`]).
    ext: bool,
    /// Where the type of every node checked goes, by the node's address ([`types_of`]).
    record: Option<&'e Recorded>,
}

impl Checker<'_> {
    /// Dispatches on the node kind. This function and the `check_*`
    /// functions that recurse are kept small (one recursive call each, the
    /// real work in separate functions) so that deep trees need little stack.
    fn check(&self, e: &Expr, depth: usize) -> Result<Ty, TypeError> {
        if depth >= MAX_DEPTH {
            return Err(too_deep(e.span));
        }
        let d = depth + 1;
        let t = match &e.kind {
            ExprKind::Attr {
                base,
                name,
                name_span,
            } => self.check_attr(base, name, *name_span, d),
            ExprKind::Call {
                base,
                method,
                method_span,
                args,
            } => self.check_call(e, base, method, *method_span, args, d),
            ExprKind::Index { base, index } => self.check_index(e, base, index, d),
            ExprKind::Cast { base, ty } => self.check_cast(base, ty, d),
            ExprKind::Unary { op, expr } => self.check_unary(e, *op, expr, d),
            ExprKind::Binary { op, lhs, rhs } => self.check_binary(e, *op, lhs, rhs, d),
            ExprKind::Ternary { cond, then, else_ } => self.check_ternary(e, cond, then, else_, d),
            ExprKind::Array(items) => self.array(items, d),
            _ => self.leaf(e),
        }?;
        if let Some(r) = self.record {
            r.borrow_mut().push((e as *const Expr as usize, t.clone()));
        }
        Ok(t)
    }

    #[inline(never)]
    fn check_attr(
        &self,
        base: &Expr,
        name: &str,
        name_span: Span,
        d: usize,
    ) -> Result<Ty, TypeError> {
        let bt = self.check(base, d)?;
        match name {
            // The size of the field `base` names (the translator checks that it names one).
            "_sizeof" => Ok(Ty::CALC_INT),
            "_pos" | "_before" | "_len" if self.ext => Ok(Ty::CALC_INT),
            "_present" if self.ext => Ok(Ty::Bool),
            _ => self.attr(&bt, name, name_span),
        }
    }

    #[inline(never)]
    fn check_cast(&self, base: &Expr, ty: &TypeRef, d: usize) -> Result<Ty, TypeError> {
        self.check(base, d)?;
        self.resolve_type(ty)
    }

    #[inline(never)]
    fn check_unary(&self, e: &Expr, op: UnOp, operand: &Expr, d: usize) -> Result<Ty, TypeError> {
        let t = self.check(operand, d)?;
        self.unary(op, t, e.span)
    }

    #[inline(never)]
    fn check_call(
        &self,
        e: &Expr,
        base: &Expr,
        method: &str,
        method_span: Span,
        args: &[Expr],
        d: usize,
    ) -> Result<Ty, TypeError> {
        let bt = self.check(base, d)?;
        if self.ext && (method == "bitmask" || method == "count") {
            return self.bitmask(e, &bt, method, method_span, args, d);
        }
        let mut arg_tys = Vec::with_capacity(args.len());
        for a in args {
            arg_tys.push(self.check(a, d)?);
        }
        if self.ext {
            if let Some(t) = self.hash_call(&bt, method, args, &arg_tys, e.span)? {
                return Ok(t);
            }
        }
        self.call(&bt, method, method_span, args, &arg_tys, e.span)
    }

    #[inline(never)]
    fn check_index(&self, e: &Expr, base: &Expr, index: &Expr, d: usize) -> Result<Ty, TypeError> {
        let bt = self.check(base, d)?;
        let it = self.check(index, d)?;
        self.index(e, base, index, bt, it)
    }

    #[inline(never)]
    fn check_binary(
        &self,
        e: &Expr,
        op: BinOp,
        lhs: &Expr,
        rhs: &Expr,
        d: usize,
    ) -> Result<Ty, TypeError> {
        let lt = self.check(lhs, d)?;
        let rt = self.check(rhs, d)?;
        self.binary(op, lhs, rhs, lt, rt, e.span)
    }

    #[inline(never)]
    fn check_ternary(
        &self,
        e: &Expr,
        cond: &Expr,
        then: &Expr,
        else_: &Expr,
        d: usize,
    ) -> Result<Ty, TypeError> {
        let ct = self.check(cond, d)?;
        let tt = self.check(then, d)?;
        let et = self.check(else_, d)?;
        self.ternary(e, cond, ct, tt, et)
    }

    /// Nodes without sub-expressions.
    #[inline(never)]
    fn leaf(&self, e: &Expr) -> Result<Ty, TypeError> {
        match &e.kind {
            ExprKind::Int(v) => Ok(if i64::try_from(*v).is_ok() {
                Ty::CALC_INT
            } else {
                Ty::U8
            }),
            ExprKind::Float(_) => Ok(Ty::Float),
            ExprKind::Str(_) => Ok(Ty::Str),
            ExprKind::Bool(_) => Ok(Ty::Bool),
            ExprKind::Name(n) => self.name(n, e.span),
            ExprKind::EnumValue {
                absolute,
                path,
                value,
            } => {
                let full = env_path(*absolute, path);
                self.env
                    .enum_value(&full, value)
                    .map(Ty::Enum)
                    .ok_or_else(|| {
                        TypeError::new(
                            e.span,
                            format!("unknown enum value '{}::{value}'", full.join("::")),
                        )
                    })
            }
            ExprKind::SizeOf { ty, bits } => {
                let resolved = self.resolve_type(ty)?;
                match resolved {
                    Ty::Str | Ty::Bytes | Ty::Array(_) => Err(TypeError::new(
                        ty.span,
                        format!(
                            "{}<{ty}> is undefined: {resolved} has no fixed size",
                            if *bits { "bitsizeof" } else { "sizeof" }
                        ),
                    )),
                    _ => Ok(Ty::CALC_INT),
                }
            }
            _ => Err(TypeError::new(
                e.span,
                "internal error: unexpected compound expression",
            )),
        }
    }

    #[inline(never)]
    fn index(&self, e: &Expr, base: &Expr, index: &Expr, bt: Ty, it: Ty) -> Result<Ty, TypeError> {
        if !(it.is_int() || it == Ty::Any) {
            return Err(TypeError::new(
                index.span,
                format!("an index must be an integer, found {it}"),
            ));
        }
        match bt {
            Ty::Array(inner) => Ok(*inner),
            Ty::Bytes => Ok(Ty::U1),
            Ty::Any => Ok(Ty::Any),
            Ty::Str => Err(TypeError::new(
                e.span,
                "strings cannot be indexed; use 'substring(i, i + 1)'",
            )),
            other => Err(TypeError::new(
                base.span,
                format!("cannot index into {other}; only arrays and bytes can be indexed"),
            )),
        }
    }

    #[inline(never)]
    fn ternary(&self, e: &Expr, cond: &Expr, ct: Ty, tt: Ty, et: Ty) -> Result<Ty, TypeError> {
        if !matches!(ct, Ty::Bool | Ty::Any) {
            return Err(TypeError::new(
                cond.span,
                format!("the condition of '? :' must be a bool, found {ct}"),
            ));
        }
        combine(&tt, &et).ok_or_else(|| {
            TypeError::new(
                e.span,
                format!("the branches of '? :' have incompatible types {tt} and {et}"),
            )
        })
    }

    #[inline(never)]
    fn name(&self, n: &str, span: Span) -> Result<Ty, TypeError> {
        if n == "_root" || n == "_parent" {
            return Ok(self.env.special(n).unwrap_or(Ty::Any));
        }
        if let Some(t) = self.env.name(n) {
            return Ok(t);
        }
        if self.ext && (n == "_dic" || n == "_chain") {
            return Ok(Ty::Any);
        }
        let msg = match n {
            "_io" => return Ok(Ty::Io),
            "_index" => "'_index' is only available in attributes with 'repeat'".to_owned(),
            "_" => "'_' (the element just read) is only available in 'repeat-until'".to_owned(),
            "_on" | "_buf" | "_sizeof" => format!("'{n}' is not available here"),
            _ => format!("unknown name '{n}'{}", hint(n, &self.env.names())),
        };
        Err(TypeError::new(span, msg))
    }

    #[inline(never)]
    fn attr(&self, base: &Ty, name: &str, span: Span) -> Result<Ty, TypeError> {
        match base {
            Ty::Any => Ok(Ty::Any),
            Ty::User(t) => match name {
                "_io" => Ok(Ty::Io),
                "_root" => Ok(self.env.special("_root").unwrap_or(Ty::Any)),
                "_parent" => Ok(self.env.parent_of(t).unwrap_or(Ty::Any)),
                "_sizeof" => Ok(Ty::CALC_INT),
                _ => self.env.field_of(t, name).ok_or_else(|| {
                    TypeError::new(
                        span,
                        format!(
                            "no field '{name}' in type '{t}'{}",
                            hint(name, &self.env.field_names(t))
                        ),
                    )
                }),
            },
            _ => {
                let Some(&(_, kind)) = members(base).iter().find(|(n, _)| *n == name) else {
                    return Err(self.no_member(base, name, span));
                };
                if kind == Member::Method {
                    return Err(TypeError::new(
                        span,
                        format!(
                            "'{name}' is a method of {base}; call it with arguments, e.g. '{}'",
                            method_example(name)
                        ),
                    ));
                }
                Ok(match (base, name) {
                    (Ty::Int { .. } | Ty::Str, "to_s") => Ty::Str,
                    (Ty::Str, "reverse") => Ty::Str,
                    (Ty::Io, "eof") => Ty::Bool,
                    (Ty::Bytes, "first" | "last" | "min" | "max") => Ty::U1,
                    (Ty::Array(inner), "first" | "last" | "min" | "max") => (**inner).clone(),
                    // length, size, pos, to_i
                    _ => Ty::CALC_INT,
                })
            }
        }
    }

    fn no_member(&self, base: &Ty, name: &str, span: Span) -> TypeError {
        let names = member_names(base);
        let listing = if names.is_empty() {
            String::new()
        } else {
            format!(" (it has: {})", names.join(", "))
        };
        let hint = hint(name, &names);
        TypeError::new(
            span,
            format!("{base} has no member '{name}'{hint}{listing}"),
        )
    }

    #[inline(never)]
    fn call(
        &self,
        base: &Ty,
        method: &str,
        method_span: Span,
        args: &[Expr],
        arg_tys: &[Ty],
        span: Span,
    ) -> Result<Ty, TypeError> {
        let user_type = match base {
            Ty::Any => return Ok(Ty::Any),
            Ty::User(t) => Some(t),
            _ => None,
        };
        if let Some(t) = user_type {
            let msg = if self.env.field_of(t, method).is_some() {
                format!("'{method}' is a field of '{t}', not a method; remove the parentheses")
            } else {
                format!("user type '{t}' has no methods; cannot call '{method}'")
            };
            return Err(TypeError::new(method_span, msg));
        }
        let Some(&(_, kind)) = members(base).iter().find(|(n, _)| *n == method) else {
            return Err(self.no_member(base, method, method_span));
        };
        if kind == Member::Prop {
            return Err(TypeError::new(
                method_span,
                format!("'{method}' is a property of {base}, not a method; remove the parentheses"),
            ));
        }
        let arity = |n: usize, usage: &str| -> Result<(), TypeError> {
            if args.len() == n {
                Ok(())
            } else {
                Err(TypeError::new(
                    span,
                    format!(
                        "'{method}' takes {n} argument{} ({usage}), got {}",
                        if n == 1 { "" } else { "s" },
                        args.len()
                    ),
                ))
            }
        };
        let want_int = |i: usize, what: &str| -> Result<(), TypeError> {
            match &arg_tys[i] {
                Ty::Int { .. } | Ty::Any => Ok(()),
                other => Err(TypeError::new(
                    args[i].span,
                    format!("the {what} passed to '{method}' must be an integer, found {other}"),
                )),
            }
        };
        match (base, method) {
            (Ty::Str, "substring") => {
                arity(2, "start, end")?;
                want_int(0, "start")?;
                want_int(1, "end")?;
                Ok(Ty::Str)
            }
            (Ty::Str, "to_i") => {
                arity(1, "radix")?;
                want_int(0, "radix")?;
                Ok(Ty::CALC_INT)
            }
            (Ty::Bytes, "to_s") => {
                arity(1, "encoding")?;
                if matches!(args[0].kind, ExprKind::Str(_)) {
                    Ok(Ty::Str)
                } else {
                    Err(TypeError::new(
                        args[0].span,
                        "the encoding passed to 'to_s' must be a string literal, e.g. to_s(\"UTF-8\")",
                    ))
                }
            }
            _ => Err(self.no_member(base, method, method_span)),
        }
    }

    #[inline(never)]
    fn resolve_type(&self, tr: &TypeRef) -> Result<Ty, TypeError> {
        let builtin = match tr.path.as_slice() {
            [single] if !tr.absolute => builtin_type(single),
            _ => None,
        };
        let elem = match builtin {
            Some(t) => t,
            None => self
                .env
                .type_named(&tr.env_path())
                .ok_or_else(|| TypeError::new(tr.span, format!("unknown type '{tr}'")))?,
        };
        Ok(if tr.array {
            Ty::Array(Box::new(elem))
        } else {
            elem
        })
    }

    #[inline(never)]
    fn unary(&self, op: UnOp, t: Ty, span: Span) -> Result<Ty, TypeError> {
        match (op, &t) {
            (_, Ty::Any) => Ok(Ty::Any),
            (UnOp::Neg, Ty::Int { .. }) => Ok(Ty::CALC_INT),
            (UnOp::Neg, Ty::Float) => Ok(Ty::Float),
            (UnOp::BitNot, Ty::Int { .. }) => Ok(if t.is_u8() { Ty::U8 } else { Ty::CALC_INT }),
            (UnOp::Not, Ty::Bool) => Ok(Ty::Bool),
            (UnOp::Neg, _) => Err(TypeError::new(span, format!("cannot negate {t}"))),
            (UnOp::BitNot, Ty::Bool) => Err(TypeError::new(
                span,
                "'~' needs an integer, found bool; use 'not' for booleans",
            )),
            (UnOp::BitNot, _) => Err(TypeError::new(
                span,
                format!("'~' needs an integer, found {t}"),
            )),
            (UnOp::Not, Ty::Int { .. }) => Err(TypeError::new(
                span,
                format!("'not' needs a bool, found {t}; use '~' for bitwise complement or compare with 0"),
            )),
            (UnOp::Not, _) => Err(TypeError::new(
                span,
                format!("'not' needs a bool, found {t}"),
            )),
        }
    }

    #[inline(never)]
    fn binary(
        &self,
        op: BinOp,
        lhs: &Expr,
        rhs: &Expr,
        lt: Ty,
        rt: Ty,
        span: Span,
    ) -> Result<Ty, TypeError> {
        let sym = op.symbol();
        if op.is_comparison() {
            let ok = if op.is_ordering() {
                ord_comparable(&lt, &rt)
            } else {
                eq_comparable(&lt, &rt)
            };
            if ok {
                return Ok(Ty::Bool);
            }
            let extra = match (&lt, &rt) {
                (Ty::Enum(_), Ty::Int { .. }) | (Ty::Int { .. }, Ty::Enum(_)) => {
                    "; use '.to_i' to compare an enum's integer value"
                }
                (Ty::Enum(a), Ty::Enum(b)) if a == b => "; enums only support '==' and '!='",
                _ => "",
            };
            return Err(TypeError::new(
                span,
                format!("cannot compare {lt} and {rt} with '{sym}'{extra}"),
            ));
        }
        if matches!(op, BinOp::And | BinOp::Or) {
            for (t, e) in [(&lt, lhs), (&rt, rhs)] {
                if !matches!(t, Ty::Bool | Ty::Any) {
                    let extra = if t.is_int() {
                        " (use '&' / '|' for bitwise operations, or compare with 0)"
                    } else {
                        ""
                    };
                    return Err(TypeError::new(
                        e.span,
                        format!("'{sym}' needs bool operands, found {t}{extra}"),
                    ));
                }
            }
            return Ok(Ty::Bool);
        }
        if lt == Ty::Any || rt == Ty::Any {
            return Ok(Ty::Any);
        }
        let int_result = || {
            if (lt.is_u8() && (rt.is_u8() || is_int_literal(rhs)))
                || (rt.is_u8() && is_int_literal(lhs))
            {
                Ty::U8
            } else {
                Ty::CALC_INT
            }
        };
        let bitwise = matches!(
            op,
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr
        );
        match (&lt, &rt) {
            (Ty::Int { .. }, Ty::Int { .. }) if matches!(op, BinOp::Shl | BinOp::Shr) => {
                Ok(if lt.is_u8() { Ty::U8 } else { Ty::CALC_INT })
            }
            (Ty::Int { .. }, Ty::Int { .. }) => Ok(int_result()),
            (a, b) if a.is_numeric() && b.is_numeric() && !bitwise => Ok(Ty::Float),
            (Ty::Str, Ty::Str) if op == BinOp::Add => Ok(Ty::Str),
            _ => {
                let extra = match (op, &lt, &rt) {
                    (BinOp::Add, Ty::Str, Ty::Int { .. })
                    | (BinOp::Add, Ty::Int { .. }, Ty::Str) => {
                        "; convert the number with '.to_s' first"
                    }
                    (BinOp::Add, Ty::Bytes, Ty::Bytes) => {
                        "; byte arrays cannot be concatenated in expressions"
                    }
                    (BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor, Ty::Bool, Ty::Bool) => {
                        "; use 'and' / 'or' for booleans"
                    }
                    (_, Ty::Float, _) | (_, _, Ty::Float) if bitwise => {
                        "; bitwise operators need integers (convert with '.to_i')"
                    }
                    _ => "",
                };
                let verb = match op {
                    BinOp::Add => format!("cannot add {lt} and {rt}"),
                    _ => format!("cannot apply '{sym}' to {lt} and {rt}"),
                };
                Err(TypeError::new(span, format!("{verb}{extra}")))
            }
        }
    }

    #[inline(never)]
    fn array(&self, items: &[Expr], d: usize) -> Result<Ty, TypeError> {
        let mut tys = Vec::with_capacity(items.len());
        for item in items {
            tys.push(self.check(item, d)?);
        }
        array_type(items, tys)
    }
}

/// Type of an array literal whose elements have types `tys`.
fn array_type(items: &[Expr], tys: Vec<Ty>) -> Result<Ty, TypeError> {
    let mut acc: Option<Ty> = None;
    for (item, t) in items.iter().zip(tys) {
        acc = Some(match acc {
            None => t,
            Some(prev) => combine(&prev, &t).ok_or_else(|| {
                TypeError::new(
                    item.span,
                    format!("array literal mixes {prev} and {t}; all elements need one type"),
                )
            })?,
        });
    }
    let is_bytes = !items.is_empty()
        && items
            .iter()
            .all(|i| matches!(i.kind, ExprKind::Int(v) if v <= 255));
    if is_bytes {
        return Ok(Ty::Bytes);
    }
    Ok(Ty::Array(Box::new(acc.unwrap_or(Ty::Any))))
}
