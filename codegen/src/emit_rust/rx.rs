//! Translated Rust expressions with how tightly they bind, so that the translator parenthesises an operand only
//! where Rust's precedence and associativity need it (and where clippy's `precedence` lint asks for clarity),
//! deciding from the expression it builds rather than from printed tokens.

use proc_macro2::{Literal, TokenStream};
use quote::{quote, ToTokens};

/// How tightly a Rust expression binds, loosest first (the Rust reference's operator precedence).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Prec {
    /// `if`/`else`, `match` and blocks: parenthesised in any operand position.
    Block,
    Or,
    And,
    /// `==`, `!=`, `<`, `>`, `<=`, `>=`: non-associative.
    Cmp,
    BitOr,
    BitXor,
    BitAnd,
    Shift,
    Add,
    Mul,
    /// `x as T`.
    Cast,
    /// `-x`, `!x`, `&x`, and negative literals (`-1i128.abs()` is `-(1i128.abs())`).
    Unary,
    /// Names, literals, paths, calls, method calls, field accesses, indexing and anything in brackets.
    Postfix,
}

impl Prec {
    /// The family an infix operator of this precedence belongs to, for clippy's `precedence` lint, which wants
    /// arithmetic mixed with bit operations, and shifts mixed with bit masks, parenthesised.
    fn family(self) -> Option<u8> {
        match self {
            Prec::Add | Prec::Mul => Some(0),
            Prec::Shift => Some(1),
            Prec::BitOr | Prec::BitXor | Prec::BitAnd => Some(2),
            _ => None,
        }
    }
}

/// A translated expression: its tokens, unparenthesised, how tightly they bind, and what the emitters ask of it
/// (whether it is a literal a pattern can match, and the place a borrowed slice borrows), set where the
/// translator builds it rather than read back from the tokens.
#[derive(Clone, Debug)]
pub(super) struct Rx {
    tok: TokenStream,
    prec: Prec,
    /// Whether the tokens may end in a cast (`a + b as i128`), which Rust cannot read left of `<` or `<<`.
    tail_cast: bool,
    /// A literal usable as a match pattern: a non-negative `i128` literal or a boolean.
    literal: bool,
    /// For `&X[..]` ([`Rx::borrow`]): the place `X[..]`.
    place: Option<TokenStream>,
    /// Whether the tokens are a reference already ([`Rx::reference`]).
    reference: bool,
    /// Whether the tokens are a `Cow` of the value ([`Rx::cow`]).
    cow: bool,
}

impl Rx {
    /// An expression of precedence `prec`; one of an infix operator or a cast may end in a cast.
    pub(super) fn new(tok: TokenStream, prec: Prec) -> Rx {
        let tail_cast = (Prec::Or..=Prec::Cast).contains(&prec);
        Rx {
            tok,
            prec,
            tail_cast,
            literal: false,
            place: None,
            reference: false,
            cow: false,
        }
    }

    /// A boolean literal.
    pub(super) fn bool(b: bool) -> Rx {
        Rx {
            literal: true,
            ..Rx::atom(quote!(#b))
        }
    }

    /// `&X[..]`, a borrowed slice or string of the place `X[..]` (`place`, a path or call chain with `[..]`).
    pub(super) fn borrow(place: TokenStream) -> Rx {
        Rx {
            place: Some(place.clone()),
            ..Rx::new(quote!(&#place), Prec::Unary)
        }
    }

    /// `r`, a reference (an element of an array of records, `at(..)?`), with the place `(*r)` it refers to.
    pub(super) fn reference(r: TokenStream) -> Rx {
        Rx {
            place: Some(quote!((*#r))),
            reference: true,
            ..Rx::new(r, Prec::Postfix)
        }
    }

    /// `c`, a `Cow` of the value (an optional record, or its default): its members are read through it, and
    /// a reference to it is `&*c`.
    pub(super) fn cow(c: TokenStream) -> Rx {
        Rx {
            cow: true,
            ..Rx::new(c, Prec::Postfix)
        }
    }

    /// The value owned: a `Cow`'s made owned, a reference's cloned, anything else as it is.
    pub(super) fn owned(&self) -> TokenStream {
        let t = &self.tok;
        if self.cow {
            quote!(#t.into_owned())
        } else if self.reference {
            quote!(#t.clone())
        } else {
            t.clone()
        }
    }

    /// A reference to the value: the tokens where they are one, else `&` and the value as a receiver (or its
    /// place).
    pub(super) fn by_ref(&self) -> TokenStream {
        if self.reference {
            return self.tok.clone();
        }
        if self.cow {
            let c = &self.tok;
            return quote!(&*#c);
        }
        let p = self.place.clone().unwrap_or_else(|| self.recv());
        quote!(&#p)
    }

    /// Whether it is a literal a match pattern can hold (a non-negative integer or a boolean).
    pub(super) fn is_literal(&self) -> bool {
        self.literal
    }

    /// The place a borrowed slice borrows ([`Rx::borrow`]), for a method or comparison that borrows it itself.
    pub(super) fn place(&self) -> Option<&TokenStream> {
        self.place.as_ref()
    }

    /// A name, literal, path, call or method call.
    pub(super) fn atom(tok: TokenStream) -> Rx {
        Rx::new(tok, Prec::Postfix)
    }

    /// `x as T`.
    pub(super) fn cast(tok: TokenStream) -> Rx {
        Rx::new(tok, Prec::Cast)
    }

    /// An `i128` literal (negative ones bind as a unary minus).
    pub(super) fn int(v: i128) -> Rx {
        let l = Literal::i128_suffixed(v);
        Rx {
            literal: v >= 0,
            ..Rx::new(quote!(#l), if v < 0 { Prec::Unary } else { Prec::Postfix })
        }
    }

    /// An `f64` literal (negative ones bind as a unary minus).
    pub(super) fn float(v: f64) -> Rx {
        Rx::new(
            quote!(#v),
            if v.is_sign_negative() {
                Prec::Unary
            } else {
                Prec::Postfix
            },
        )
    }

    /// The expression where a whole expression stands (a `let`'s value, an argument, a condition, a match's
    /// scrutinee, an arm's body): never parenthesised.
    pub(super) fn full(&self) -> TokenStream {
        self.tok.clone()
    }

    /// The expression where an operand binding at least as tightly as `p` is needed: parenthesised if looser.
    pub(super) fn at(&self, p: Prec) -> TokenStream {
        let t = &self.tok;
        if self.prec < p {
            quote!((#t))
        } else {
            t.clone()
        }
    }

    /// The expression as a method call's receiver, a field's base or an index's base.
    pub(super) fn recv(&self) -> TokenStream {
        self.at(Prec::Postfix)
    }

    /// The expression as the operand of a prefix operator (`-`, `!`, `&`) or of `as`.
    pub(super) fn unary(&self) -> TokenStream {
        self.at(Prec::Unary)
    }

    /// `x as ty`.
    pub(super) fn as_(&self, ty: TokenStream) -> Rx {
        let x = self.at(Prec::Cast);
        Rx::cast(quote!(#x as #ty))
    }

    /// A prefix operator on the expression.
    pub(super) fn prefix(&self, op: TokenStream) -> Rx {
        let x = self.unary();
        Rx::new(quote!(#op #x), Prec::Unary)
    }

    /// `l op r`, `op` an infix operator of precedence `p` (left-associative, except comparisons, which are not
    /// associative). A cast left of `<` or `<<` is parenthesised (Rust would read generic arguments), and an
    /// operand of another family of arithmetic or bit operators is parenthesised for clippy's `precedence`.
    pub(super) fn binary(l: &Rx, op: TokenStream, p: Prec, r: &Rx) -> Rx {
        let angle = matches!(op.to_string().as_str(), "<" | "<<");
        // An operand and whether it stays bare.
        let operand = |x: &Rx, need: Prec| {
            let mixed = matches!((x.prec.family(), p.family()), (Some(a), Some(b)) if a != b);
            let need = if mixed { Prec::Cast } else { need };
            (x.at(need), x.prec >= need)
        };
        let tighter = next(p);
        let lneed = if p == Prec::Cmp { tighter } else { p };
        let (lt, _) = if angle && l.tail_cast {
            (l.at(Prec::Unary), false)
        } else {
            operand(l, lneed)
        };
        let (rt, bare) = operand(r, tighter);
        let tail_cast = r.tail_cast && bare;
        Rx {
            tail_cast,
            ..Rx::new(quote!(#lt #op #rt), p)
        }
    }
}

/// The precedence just above `p`.
fn next(p: Prec) -> Prec {
    match p {
        Prec::Block => Prec::Or,
        Prec::Or => Prec::And,
        Prec::And => Prec::Cmp,
        Prec::Cmp => Prec::BitOr,
        Prec::BitOr => Prec::BitXor,
        Prec::BitXor => Prec::BitAnd,
        Prec::BitAnd => Prec::Shift,
        Prec::Shift => Prec::Add,
        Prec::Add => Prec::Mul,
        Prec::Mul => Prec::Cast,
        Prec::Cast => Prec::Unary,
        Prec::Unary | Prec::Postfix => Prec::Postfix,
    }
}

/// Where code splices a translated expression without choosing a position, it stands as an operand of anything:
/// parenthesised unless it is a name, literal, path or call.
impl ToTokens for Rx {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.extend(self.recv());
    }
}
