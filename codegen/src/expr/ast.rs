//! Expression tree and its canonical printer.

use std::fmt::{self, Write as _};

/// A byte range `start..end` within the expression source string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// Creates the span `start..end`.
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// Number of bytes covered.
    pub fn len(self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// Whether the span covers no bytes.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
}

/// An expression node: what it is, and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// The node itself.
    pub kind: ExprKind,
    /// Source bytes of the whole node (for a parenthesised expression this
    /// includes the parentheses).
    pub span: Span,
    /// The node's type, once the `typecheck` pass has checked the expression it is part of (`None` before, and
    /// for a node no check reached). Emitters read it instead of typing the node again.
    pub ty: Option<Box<super::types::Ty>>,
}

/// A reference to a type, as written in `.as<...>`, `sizeof<...>` and
/// `bitsizeof<...>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeRef {
    /// Written with a leading `::` (resolved from the top-level type).
    pub absolute: bool,
    /// The `::`-separated names, e.g. `["u4"]`, `["header", "entry"]`.
    pub path: Vec<String>,
    /// Written with a `[]` suffix (an array of that type).
    pub array: bool,
    /// Source bytes of the type name (without the angle brackets).
    pub span: Span,
}

impl TypeRef {
    /// The path in the form [`crate::expr::Env`] methods take it: an absolute
    /// reference gets a leading empty segment (`::a::b` → `["", "a", "b"]`).
    pub fn env_path(&self) -> Vec<String> {
        env_path(self.absolute, &self.path)
    }
}

pub(crate) fn env_path(absolute: bool, path: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(path.len() + usize::from(absolute));
    if absolute {
        out.push(String::new());
    }
    out.extend(path.iter().cloned());
    out
}

impl fmt::Display for TypeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.absolute {
            f.write_str("::")?;
        }
        f.write_str(&self.path.join("::"))?;
        if self.array {
            f.write_str("[]")?;
        }
        Ok(())
    }
}

/// The different kinds of expression.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// Integer literal. Literals are never negative: `-5` is
    /// `Unary { op: Neg, expr: Int(5) }`. Holds up to `0xFFFF_FFFF_FFFF_FFFF`.
    Int(u64),
    /// Float literal (always finite).
    Float(f64),
    /// String literal, escapes already decoded; adjacent literals are joined.
    Str(String),
    /// `true` / `false`.
    Bool(bool),
    /// A bare name: a field, instance or parameter of the current type, or
    /// one of [`crate::expr::SPECIAL_NAMES`].
    Name(String),
    /// `enum_name::value`, `type::enum_name::value`, `::type::enum_name::value`.
    EnumValue {
        /// Written with a leading `::`.
        absolute: bool,
        /// Type path followed by the enum name (at least one element); for
        /// `a::b::c::v` this is `["a", "b", "c"]`.
        path: Vec<String>,
        /// The enum label (`v` above).
        value: String,
    },
    /// Attribute access `base.name`.
    Attr {
        /// The receiver.
        base: Box<Expr>,
        /// The attribute name.
        name: String,
        /// Source bytes of `name`.
        name_span: Span,
    },
    /// Method call `base.method(args)`.
    Call {
        /// The receiver.
        base: Box<Expr>,
        /// The method name.
        method: String,
        /// Source bytes of `method`.
        method_span: Span,
        /// The arguments, in order.
        args: Vec<Expr>,
    },
    /// Subscript `base[index]`.
    Index {
        /// The indexed value.
        base: Box<Expr>,
        /// The index.
        index: Box<Expr>,
    },
    /// Type cast `base.as<ty>`.
    Cast {
        /// The value being cast.
        base: Box<Expr>,
        /// The target type.
        ty: TypeRef,
    },
    /// `sizeof<ty>` (`bits == false`) or `bitsizeof<ty>` (`bits == true`).
    SizeOf {
        /// The measured type.
        ty: TypeRef,
        /// Size in bits rather than bytes.
        bits: bool,
    },
    /// Prefix operator.
    Unary {
        /// The operator.
        op: UnOp,
        /// The operand.
        expr: Box<Expr>,
    },
    /// Infix operator.
    Binary {
        /// The operator.
        op: BinOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// `cond ? then : else_`.
    Ternary {
        /// The condition.
        cond: Box<Expr>,
        /// Value when the condition holds.
        then: Box<Expr>,
        /// Value otherwise.
        else_: Box<Expr>,
    },
    /// Array literal `[a, b, ...]` (a byte array when every element is an
    /// integer literal in `0..=255`).
    Array(Vec<Expr>),
}

/// Prefix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Arithmetic negation `-x`.
    Neg,
    /// Boolean negation `not x`.
    Not,
    /// Bitwise complement `~x`.
    BitNot,
}

impl UnOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            UnOp::Neg => "-",
            UnOp::Not => "not",
            UnOp::BitNot => "~",
        }
    }

    /// Binding power (see the table in [`crate::expr`]).
    pub fn precedence(self) -> u8 {
        match self {
            UnOp::Not => prec::NOT,
            UnOp::Neg | UnOp::BitNot => prec::UNARY,
        }
    }
}

/// Infix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+` (numbers, or string concatenation).
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Mod,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `&`
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `and`
    And,
    /// `or`
    Or,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "and",
            BinOp::Or => "or",
        }
    }

    /// Binding power (see the table in [`crate::expr`]); higher binds tighter.
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Or => prec::OR,
            BinOp::And => prec::AND,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => prec::CMP,
            BinOp::BitOr => prec::BIT_OR,
            BinOp::BitXor => prec::BIT_XOR,
            BinOp::BitAnd => prec::BIT_AND,
            BinOp::Shl | BinOp::Shr => prec::SHIFT,
            BinOp::Add | BinOp::Sub => prec::ADD,
            BinOp::Mul | BinOp::Div | BinOp::Mod => prec::MUL,
        }
    }

    /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
    pub fn is_comparison(self) -> bool {
        self.precedence() == prec::CMP
    }

    /// `<`, `<=`, `>`, `>=`.
    pub fn is_ordering(self) -> bool {
        matches!(self, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
    }
}

/// Binding powers shared by the parser and the printer.
pub(crate) mod prec {
    pub const TERNARY: u8 = 0;
    pub const OR: u8 = 1;
    pub const AND: u8 = 2;
    pub const NOT: u8 = 3;
    pub const CMP: u8 = 4;
    pub const BIT_OR: u8 = 5;
    pub const BIT_XOR: u8 = 6;
    pub const BIT_AND: u8 = 7;
    pub const SHIFT: u8 = 8;
    pub const ADD: u8 = 9;
    pub const MUL: u8 = 10;
    pub const UNARY: u8 = 11;
    pub const POSTFIX: u8 = 12;
    pub const PRIMARY: u8 = 13;
}

impl Expr {
    /// Creates a node.
    pub fn new(kind: ExprKind, span: Span) -> Self {
        Expr {
            kind,
            span,
            ty: None,
        }
    }

    /// Binding power of this node's outermost construct.
    pub fn precedence(&self) -> u8 {
        match &self.kind {
            ExprKind::Ternary { .. } => prec::TERNARY,
            ExprKind::Binary { op, .. } => op.precedence(),
            ExprKind::Unary { op, .. } => op.precedence(),
            ExprKind::Attr { .. }
            | ExprKind::Call { .. }
            | ExprKind::Index { .. }
            | ExprKind::Cast { .. } => prec::POSTFIX,
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Str(_)
            | ExprKind::Bool(_)
            | ExprKind::Name(_)
            | ExprKind::EnumValue { .. }
            | ExprKind::SizeOf { .. }
            | ExprKind::Array(_) => prec::PRIMARY,
        }
    }

    /// Structural equality that ignores every span (including `name_span`,
    /// `method_span` and type-reference spans).
    ///
    /// Recursion depth equals the tree height, which [`crate::expr::parse`]
    /// bounds by [`crate::expr::MAX_DEPTH`].
    pub fn eq_ignoring_spans(&self, other: &Expr) -> bool {
        use ExprKind as K;
        let same_ty = |a: &TypeRef, b: &TypeRef| {
            a.absolute == b.absolute && a.path == b.path && a.array == b.array
        };
        let same_list = |a: &[Expr], b: &[Expr]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.eq_ignoring_spans(y))
        };
        match (&self.kind, &other.kind) {
            (K::Int(a), K::Int(b)) => a == b,
            (K::Float(a), K::Float(b)) => a.to_bits() == b.to_bits(),
            (K::Str(a), K::Str(b)) => a == b,
            (K::Bool(a), K::Bool(b)) => a == b,
            (K::Name(a), K::Name(b)) => a == b,
            (
                K::EnumValue {
                    absolute: a1,
                    path: p1,
                    value: v1,
                },
                K::EnumValue {
                    absolute: a2,
                    path: p2,
                    value: v2,
                },
            ) => a1 == a2 && p1 == p2 && v1 == v2,
            (
                K::Attr {
                    base: b1, name: n1, ..
                },
                K::Attr {
                    base: b2, name: n2, ..
                },
            ) => n1 == n2 && b1.eq_ignoring_spans(b2),
            (
                K::Call {
                    base: b1,
                    method: m1,
                    args: a1,
                    ..
                },
                K::Call {
                    base: b2,
                    method: m2,
                    args: a2,
                    ..
                },
            ) => m1 == m2 && b1.eq_ignoring_spans(b2) && same_list(a1, a2),
            (
                K::Index {
                    base: b1,
                    index: i1,
                },
                K::Index {
                    base: b2,
                    index: i2,
                },
            ) => b1.eq_ignoring_spans(b2) && i1.eq_ignoring_spans(i2),
            (K::Cast { base: b1, ty: t1 }, K::Cast { base: b2, ty: t2 }) => {
                same_ty(t1, t2) && b1.eq_ignoring_spans(b2)
            }
            (K::SizeOf { ty: t1, bits: x1 }, K::SizeOf { ty: t2, bits: x2 }) => {
                x1 == x2 && same_ty(t1, t2)
            }
            (K::Unary { op: o1, expr: e1 }, K::Unary { op: o2, expr: e2 }) => {
                o1 == o2 && e1.eq_ignoring_spans(e2)
            }
            (
                K::Binary {
                    op: o1,
                    lhs: l1,
                    rhs: r1,
                },
                K::Binary {
                    op: o2,
                    lhs: l2,
                    rhs: r2,
                },
            ) => o1 == o2 && l1.eq_ignoring_spans(l2) && r1.eq_ignoring_spans(r2),
            (
                K::Ternary {
                    cond: c1,
                    then: t1,
                    else_: e1,
                },
                K::Ternary {
                    cond: c2,
                    then: t2,
                    else_: e2,
                },
            ) => c1.eq_ignoring_spans(c2) && t1.eq_ignoring_spans(t2) && e1.eq_ignoring_spans(e2),
            (K::Array(a), K::Array(b)) => same_list(a, b),
            _ => false,
        }
    }

    /// Writes `self`, parenthesised if it binds looser than `min`.
    fn fmt_at(&self, f: &mut fmt::Formatter<'_>, min: u8) -> fmt::Result {
        if self.precedence() < min {
            f.write_char('(')?;
            self.fmt_bare(f)?;
            f.write_char(')')
        } else {
            self.fmt_bare(f)
        }
    }

    /// Writes `self` without outer parentheses.
    fn fmt_bare(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Int(v) => write!(f, "{v}"),
            ExprKind::Float(v) => write_float(f, *v),
            ExprKind::Str(s) => write_str_literal(f, s),
            ExprKind::Bool(b) => write!(f, "{b}"),
            ExprKind::Name(n) => f.write_str(n),
            ExprKind::EnumValue {
                absolute,
                path,
                value,
            } => {
                if *absolute {
                    f.write_str("::")?;
                }
                for seg in path {
                    write!(f, "{seg}::")?;
                }
                f.write_str(value)
            }
            ExprKind::Attr { base, name, .. } => {
                base.fmt_at(f, prec::POSTFIX)?;
                write!(f, ".{name}")
            }
            ExprKind::Call {
                base, method, args, ..
            } => {
                base.fmt_at(f, prec::POSTFIX)?;
                write!(f, ".{method}(")?;
                write_list(f, args)?;
                f.write_char(')')
            }
            ExprKind::Index { base, index } => {
                base.fmt_at(f, prec::POSTFIX)?;
                f.write_char('[')?;
                index.fmt_at(f, prec::TERNARY)?;
                f.write_char(']')
            }
            ExprKind::Cast { base, ty } => {
                base.fmt_at(f, prec::POSTFIX)?;
                write!(f, ".as<{ty}>")
            }
            ExprKind::SizeOf { ty, bits } => {
                let kw = if *bits { "bitsizeof" } else { "sizeof" };
                write!(f, "{kw}<{ty}>")
            }
            ExprKind::Unary { op, expr } => {
                match op {
                    UnOp::Not => f.write_str("not ")?,
                    UnOp::Neg | UnOp::BitNot => f.write_str(op.symbol())?,
                }
                expr.fmt_at(f, op.precedence())
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let p = op.precedence();
                // Left-associative: the left operand may sit at the same
                // level, the right one must bind tighter. Comparisons do not
                // chain, so both of their operands must bind tighter.
                let lhs_min = if op.is_comparison() { p + 1 } else { p };
                lhs.fmt_at(f, lhs_min)?;
                write!(f, " {} ", op.symbol())?;
                rhs.fmt_at(f, p + 1)
            }
            ExprKind::Ternary { cond, then, else_ } => {
                cond.fmt_at(f, prec::OR)?;
                f.write_str(" ? ")?;
                then.fmt_at(f, prec::TERNARY)?;
                f.write_str(" : ")?;
                else_.fmt_at(f, prec::TERNARY)
            }
            ExprKind::Array(items) => {
                f.write_char('[')?;
                write_list(f, items)?;
                f.write_char(']')
            }
        }
    }
}

/// Canonical, minimally parenthesised form: re-parsing the output yields a
/// tree equal to `self` under [`Expr::eq_ignoring_spans`]. Integers are
/// printed in decimal, strings double-quoted.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_at(f, prec::TERNARY)
    }
}

fn write_list(f: &mut fmt::Formatter<'_>, items: &[Expr]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        item.fmt_at(f, prec::TERNARY)?;
    }
    Ok(())
}

fn write_float(f: &mut fmt::Formatter<'_>, v: f64) -> fmt::Result {
    // `Debug` for f64 is the shortest representation that round-trips and
    // always contains a '.' or an exponent (`1.0`, `1e300`, `1.5e-7`), so it
    // re-lexes as a float.
    write!(f, "{v:?}")
}

fn write_str_literal(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\t' => f.write_str("\\t")?,
            '\r' => f.write_str("\\r")?,
            // Every control character (Unicode category Cc) is below U+00A0.
            c if c.is_control() => write!(f, "\\u{:04x}", u32::from(c))?,
            c => f.write_char(c)?,
        }
    }
    f.write_char('"')
}

/// The direct sub-expressions of an expression.
pub fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Attr { base, .. } | ExprKind::Cast { base, .. } => vec![base],
        ExprKind::Call { base, args, .. } => std::iter::once(&**base).chain(args.iter()).collect(),
        ExprKind::Index { base, index } => vec![base, index],
        ExprKind::Unary { expr, .. } => vec![expr],
        ExprKind::Binary { lhs, rhs, .. } => vec![lhs, rhs],
        ExprKind::Ternary { cond, then, else_ } => vec![cond, then, else_],
        ExprKind::Array(items) => items.iter().collect(),
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Str(_)
        | ExprKind::Bool(_)
        | ExprKind::Name(_)
        | ExprKind::EnumValue { .. }
        | ExprKind::SizeOf { .. } => Vec::new(),
    }
}

/// [`children`], mutably (leaves have none, as there).
pub fn children_mut(e: &mut Expr) -> Vec<&mut Expr> {
    match &mut e.kind {
        ExprKind::Attr { base, .. } | ExprKind::Cast { base, .. } => vec![base],
        ExprKind::Call { base, args, .. } => std::iter::once(&mut **base)
            .chain(args.iter_mut())
            .collect(),
        ExprKind::Index { base, index } => vec![base, index],
        ExprKind::Unary { expr, .. } => vec![expr],
        ExprKind::Binary { lhs, rhs, .. } => vec![lhs, rhs],
        ExprKind::Ternary { cond, then, else_ } => vec![cond, then, else_],
        ExprKind::Array(items) => items.iter_mut().collect(),
        _ => Vec::new(),
    }
}
