//! The Kaitai Struct expression language.
//!
//! Expressions appear in `.ksy` schemas wherever a value is computed: `size`,
//! `if`, `repeat-expr`, `repeat-until`, `switch-on`, `value` instances, `pos`,
//! parameters and so on. This module turns such a string into an [`Expr`]
//! tree ([`parse`]), prints a tree back in canonical form (`Display for
//! Expr`) and infers the type of a tree against a schema-provided
//! environment ([`types::type_of`]).
//!
//! # Grammar
//!
//! From loosest to tightest binding (this is the precedence of the reference
//! Kaitai Struct compiler, which follows Python rather than C: bitwise
//! operators bind *tighter* than comparisons, so `flags & 0x80 != 0` means
//! `(flags & 0x80) != 0`):
//!
//! | level | syntax                                   | associativity   |
//! |-------|------------------------------------------|-----------------|
//! | 0     | `cond ? a : b`                           | right           |
//! | 1     | `a or b`                                 | left            |
//! | 2     | `a and b`                                | left            |
//! | 3     | `not a`                                  | prefix          |
//! | 4     | `==` `!=` `<` `<=` `>` `>=`              | non-associative |
//! | 5     | `\|`                                     | left            |
//! | 6     | `^`                                      | left            |
//! | 7     | `&`                                      | left            |
//! | 8     | `<<` `>>`                                | left            |
//! | 9     | `+` `-`                                  | left            |
//! | 10    | `*` `/` `%`                              | left            |
//! | 11    | `-a` `~a` (and a no-op `+a`)             | prefix          |
//! | 12    | `a.b` `a.b(x, y)` `a[i]` `a.as<type>`    | postfix         |
//!
//! Primaries are integer literals (`42`, `0x1F`, `0o17`, `0b1010`, with `_`
//! separators), float literals (`1.5`, `1e3`, `1.5e-3`), strings (`'raw'`
//! and `"escaped\n"`; adjacent strings are concatenated), `true`/`false`,
//! array literals (`[0x49, 0x49]`, `[]`), names (including the specials
//! `_root`, `_parent`, `_io`, `_index`, `_`, `_on`, `_sizeof`, `_buf`), enum
//! values (`enum_name::value`, `type::sub::enum_name::value`, absolute
//! `::type::enum_name::value`), `sizeof<type>`, `bitsizeof<type>` (also
//! spelled `bsizeof<type>`) and parenthesised expressions.
//!
//! # Limits
//!
//! Nesting is capped at [`MAX_DEPTH`] levels, both for the parser's recursion
//! and for the height of the produced tree, so every recursive walk over a
//! parsed [`Expr`] (printing, comparing, type checking) is bounded.

mod ast;
mod lexer;
mod parser;
pub mod types;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod type_tests;

use std::fmt;

pub use ast::{children, children_mut, BinOp, Expr, ExprKind, Span, TypeRef, UnOp};
pub use types::{type_of, Env, Ty, TypeError};

/// Maximum nesting depth accepted by [`parse`] (and by [`types::type_of`]).
pub const MAX_DEPTH: usize = 256;

/// The names with special meaning in Kaitai expressions. They parse as
/// ordinary [`ExprKind::Name`]s; this list is for consumers that need to
/// treat them differently.
pub const SPECIAL_NAMES: &[&str] = &[
    "_root", "_parent", "_io", "_index", "_", "_on", "_sizeof", "_buf",
];

/// Parses a Kaitai Struct expression.
///
/// Surrounding whitespace is ignored. On failure the error's span points at
/// the offending bytes of `src`.
///
/// ```
/// use binspec_codegen::expr::{parse, ExprKind, BinOp};
/// let e = parse("len_body - 4").unwrap();
/// assert!(matches!(e.kind, ExprKind::Binary { op: BinOp::Sub, .. }));
/// assert_eq!(e.to_string(), "len_body - 4");
/// ```
pub fn parse(src: &str) -> Result<Expr, ParseError> {
    let tokens = lexer::lex(src)?;
    parser::parse_tokens(tokens)
}

/// A syntax error in an expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Bytes of the source the error refers to.
    pub span: Span,
    /// Human-readable description, without position information.
    pub message: String,
}

impl ParseError {
    pub(crate) fn new(span: Span, message: impl Into<String>) -> Self {
        ParseError {
            span,
            message: message.into(),
        }
    }

    /// Renders the error against its source with a caret line underneath,
    /// e.g.
    ///
    /// ```text
    /// a && b
    ///   ^^ '&&' is not an operator; Kaitai uses 'and'
    /// ```
    pub fn render(&self, src: &str) -> String {
        render_span(src, self.span, &self.message)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (at {}..{})",
            self.message, self.span.start, self.span.end
        )
    }
}

impl std::error::Error for ParseError {}

/// Renders `message` under the part of `src` covered by `span`.
///
/// Multi-line sources are flattened (newlines shown as spaces) so that the
/// caret line stays aligned; out-of-range spans are clamped.
pub fn render_span(src: &str, span: Span, message: &str) -> String {
    let line: String = src
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    let start = floor_char_boundary(src, span.start.min(src.len()));
    let end = floor_char_boundary(src, span.end.clamp(start, src.len()));
    let pad = src[..start].chars().count();
    let width = src[start..end].chars().count().max(1);
    format!("{line}\n{}{} {message}", " ".repeat(pad), "^".repeat(width))
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}
