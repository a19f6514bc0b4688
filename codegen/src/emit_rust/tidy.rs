//! Token-level helpers that keep the generated code free of style lints without changing what it does: a read
//! given its error context without a closure around a single call (`clippy::needless_question_mark`).

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::quote;

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
