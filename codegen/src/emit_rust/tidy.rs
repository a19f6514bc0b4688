//! Helpers that keep the generated code free of style lints without changing what it does: a read given its error
//! context without a closure around a single call (`clippy::needless_question_mark`, still decided from the read's
//! tokens), a switch case on a literal matched by the literal (`clippy::redundant_guards`), and the place a
//! borrowed slice borrows, for a method or comparison that borrows it itself (both from what the translator
//! records in [`Rx`]). Parentheses are not tidied here: the translator decides them from the expression (`rx`).

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::quote;

use super::rx::{Prec, Rx};

/// A fallible read as an expression of type `Result<_>`, for the caller to give context (`.at(..)?`,
/// `.at_index(i)?`). `read` is an expression that may use `?`. A single call chain ending in `?` (`r.u32(e)?`,
/// `T::read(r, ..)?`) is the call itself when nothing in it returns early, and otherwise the body of the closure
/// that catches its errors; anything else is wrapped in `Ok(..)` in that closure.
pub(super) fn fallible(read: &TokenStream) -> TokenStream {
    match strip_try(read) {
        Some(call) if !exits(&call) => call,
        Some(call) => quote!((|| -> ::binspec_runtime::Result<_> { #call })()),
        None => quote!((|| -> ::binspec_runtime::Result<_> { Ok(#read) })()),
    }
}

/// `x` for a `read` that is `x?` with `x` a path or call chain (names, literals, groups, `.`, `::` and `?`).
fn strip_try(read: &TokenStream) -> Option<TokenStream> {
    let toks: Vec<TokenTree> = read.clone().into_iter().collect();
    let (last, rest) = toks.split_last()?;
    if !matches!(last, TokenTree::Punct(p) if p.as_char() == '?') || rest.is_empty() {
        return None;
    }
    const KEYWORDS: &[&str] = &[
        "as", "match", "if", "else", "loop", "while", "for", "return", "let", "move", "unsafe",
        "break", "continue", "async", "await",
    ];
    let chain = rest.iter().all(|t| match t {
        TokenTree::Ident(i) => !KEYWORDS.iter().any(|k| i == k),
        TokenTree::Literal(_) => true,
        TokenTree::Group(g) => g.delimiter() != Delimiter::None,
        TokenTree::Punct(p) => matches!(p.as_char(), '.' | ':' | '?'),
    });
    // A chain starts with a name, a path (`::`) or a group, never with `.` or `?`.
    let starts = !matches!(&rest[0], TokenTree::Punct(p) if p.as_char() != ':');
    (chain && starts).then(|| rest.iter().cloned().collect())
}

/// Whether `tokens` may leave the enclosing function early (`?` or `return`), groups included.
fn exits(tokens: &TokenStream) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        TokenTree::Punct(p) => p.as_char() == '?',
        TokenTree::Ident(i) => i == "return",
        TokenTree::Group(g) => exits(&g.stream()),
        TokenTree::Literal(_) => false,
    })
}

/// The pattern of a switch arm for the case key `kt` (a translated expression), matched against `x` (or `*x`
/// when `deref`, `x` then a reference): the key itself where it is a literal (an integer, which translates to an
/// `i128` literal, or a boolean), else a guard comparing with it.
pub(super) fn case_pattern(kt: &Rx, deref: bool) -> TokenStream {
    // The key is the right operand of `==`.
    let k = kt.at(Prec::BitOr);
    match (kt.is_literal(), deref) {
        (true, _) => kt.full(),
        (false, false) => quote!(x if x == #k),
        (false, true) => quote!(x if *x == #k),
    }
}

/// The place `X[..]` that a borrowed slice or string `(&X[..])` borrows, for a method call or a comparison, which
/// borrow it themselves (`clippy::needless_borrow`, `clippy::op_ref`); `None` for any other expression.
pub(super) fn place(b: &Rx) -> Option<TokenStream> {
    b.place().cloned()
}

/// A method call's receiver: the place of a borrowed slice or string, else the expression itself.
pub(super) fn recv(b: &Rx) -> TokenStream {
    place(b).unwrap_or_else(|| b.recv())
}
