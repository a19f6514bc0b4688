//! Helpers that keep the generated code free of style lints without changing what it does: a read given its error
//! context without a closure around a single call (`clippy::needless_question_mark`, from the [`Read`] the emitter
//! builds), a switch case on a literal matched by the literal (`clippy::redundant_guards`), and the place a
//! borrowed slice borrows, for a method or comparison that borrows it itself (both from what the translator
//! records in [`Rx`]). Parentheses are not tidied here: the translator decides them from the expression (`rx`).

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};

use super::rx::{Prec, Rx};
use super::R;
use crate::expr::ExprKind;
use crate::ir::{Ex, SwitchCase};

/// A read as the emitter builds it: a call that returns `Result` (`r.u32(e)`, `T::read(r, ..)`), with whether
/// computing its arguments may leave the function early ([`super::Cx::exits`]), or any other expression of the
/// value, which may use `?`. Embedded in code, it is the value (`call?` for a call).
pub(super) enum Read {
    Call { call: TokenStream, exits: bool },
    Expr(TokenStream),
}

impl ToTokens for Read {
    fn to_tokens(&self, out: &mut TokenStream) {
        match self {
            Read::Call { call, .. } => out.extend(quote!(#call?)),
            Read::Expr(e) => e.to_tokens(out),
        }
    }
}

/// A read as an expression of type `Result<_>`, for the caller to give context (`.at(..)?`, `.at_index(i)?`):
/// a call itself where nothing in it returns early, and otherwise the body of the closure that catches its
/// errors; any other read is wrapped in `Ok(..)` in that closure.
pub(super) fn fallible(read: &Read) -> TokenStream {
    match read {
        Read::Call { call, exits: false } => call.clone(),
        Read::Call { call, exits: true } => {
            quote!((|| -> ::binspec_runtime::Result<_> { #call })())
        }
        Read::Expr(e) => quote!((|| -> ::binspec_runtime::Result<_> { Ok(#e) })()),
    }
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

/// The arms of a `match` on a switch's tag: for each case, `value` of it under the pattern of its key (`key`
/// translates it; `deref`: the tag is a reference, see [`case_pattern`]), or under `_` for the default case; then
/// `other`, a whole arm, where no case is the default and the keys do not cover both `true` and `false` (the arm
/// would be unreachable).
pub(super) fn tag_arms<'c>(
    cases: impl IntoIterator<Item = &'c SwitchCase>,
    deref: bool,
    mut key: impl FnMut(&Ex) -> R<Rx>,
    mut value: impl FnMut(&'c SwitchCase) -> R<TokenStream>,
    other: impl FnOnce() -> R<TokenStream>,
) -> R<Vec<TokenStream>> {
    let mut arms = Vec::new();
    let mut has_default = false;
    let mut bools = [false; 2];
    for c in cases {
        let v = value(c)?;
        match &c.key {
            Some(k) => {
                if let ExprKind::Bool(b) = k.expr.kind {
                    bools[b as usize] = true;
                }
                let pat = case_pattern(&key(k)?, deref);
                arms.push(quote!(#pat => #v,));
            }
            None => {
                has_default = true;
                arms.push(quote!(_ => #v,));
            }
        }
    }
    if !has_default && bools != [true, true] {
        arms.push(other()?);
    }
    Ok(arms)
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
