//! The checks of `valid` keys: on a value read, and the test both the reader and the writer put on a value.

use super::*;
use crate::ir::Valid;

impl<'m> Gen<'m> {
    /// The check a `valid` key puts on a value that was read into `v` (each element, for a repeat); `at` is where
    /// it was read, for the error.
    pub(super) fn valid_stmt(
        &self,
        ti: usize,
        f: &Field,
        v: &Ident,
        at: TokenStream,
    ) -> R<Option<TokenStream>> {
        let fname = f.name.as_str();
        let Some((test, msg)) = self.valid_test(ti, f, quote!(#v), Scope::Read)? else {
            return Ok(None);
        };
        Ok(Some(
            quote!(if !#test { return Err(::binspec_runtime::Error::invalid(#at, format!(#msg, #v)).at(#fname)); }),
        ))
    }

    /// The test a `valid` key puts on the value `v` of field `f` (each element, for a repeat; an optional one
    /// where it is there), translated in `scope`, and the message of its error (with a `{:?}` for the value).
    pub(super) fn valid_test(
        &self,
        ti: usize,
        f: &Field,
        v: TokenStream,
        scope: Scope,
    ) -> R<Option<(TokenStream, String)>> {
        let (Some(valid), false) = (&f.valid, matches!(f.role, Role::Const(_))) else {
            return Ok(None);
        };
        let elem_check = match valid {
            Valid::InEnum => {
                let Some(e) = f.enum_ else {
                    return err(&f.path, "'valid: in-enum' needs 'enum'");
                };
                let en = ty_ident(&self.m.enums[e].rust);
                let other = super::models::catch_all(&self.m.enums[e]);
                Some(quote!(!matches!(v__, #en::#other(_))))
            }
            _ => self.valid_check(ti, f, valid, scope)?.map(|check| {
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
                // (Loops, not closures: the check may pass an error up with `?`.)
                (false, true) => quote!({
                    let mut ok__ = true;
                    for v__ in #v.iter().cloned() {
                        ok__ = #check;
                        if !ok__ { break; }
                    }
                    ok__
                }),
                (true, true) => quote!(match #v.as_ref() {
                    Some(xs__) => {
                        let mut ok__ = true;
                        for v__ in xs__.iter().cloned() {
                            ok__ = #check;
                            if !ok__ { break; }
                        }
                        ok__
                    }
                    None => true,
                }),
            };
            return Ok(Some((test, msg)));
        }
        Ok(None)
    }

    /// The condition a `valid` key puts on a field's value (bound to `v__`), or `None` for none.
    pub(super) fn valid_check(
        &self,
        ti: usize,
        f: &Field,
        valid: &Valid,
        scope: Scope,
    ) -> R<Option<TokenStream>> {
        let mut cx = self.cx(ti, scope);
        let t = if valued(f) {
            T::Int
        } else {
            match cx.field_t(f) {
                T::Array(t) => *t,
                t => t,
            }
        };
        let val = match t {
            T::Int => Rx::cast(quote!(v__ as i128)),
            T::Float => Rx::cast(quote!(v__ as f64)),
            T::Str | T::Bytes => Rx::borrow(quote!(v__[..])),
            _ => Rx::atom(quote!(v__)),
        };
        cx.last_t = Some(t);
        let mut tr = |x: &crate::ir::Ex| -> R<Rx> { Ok(cx.tr(&x.expr, &x.path)?.0) };
        let cmp = |op: TokenStream, x: &Rx| Rx::binary(&val, op, Prec::Cmp, x);
        let check = match valid {
            Valid::Eq(x) => cmp(quote!(==), &tr(x)?),
            Valid::Min(x) => cmp(quote!(>=), &tr(x)?),
            Valid::Max(x) => cmp(quote!(<=), &tr(x)?),
            Valid::Range(a, b) => {
                let a = match a {
                    Some(a) => cmp(quote!(>=), &tr(a)?),
                    None => Rx::atom(quote!(true)),
                };
                let b = match b {
                    Some(b) => cmp(quote!(<=), &tr(b)?),
                    None => Rx::atom(quote!(true)),
                };
                Rx::binary(&a, quote!(&&), Prec::And, &b)
            }
            Valid::AnyOf(xs) => {
                let mut alts: Option<Rx> = None;
                for x in xs {
                    let eq = cmp(quote!(==), &tr(x)?);
                    alts = Some(match alts {
                        Some(a) => Rx::binary(&a, quote!(||), Prec::Or, &eq),
                        None => eq,
                    });
                }
                alts.unwrap_or_else(|| Rx::atom(quote!(false)))
            }
            Valid::Expr(x) => tr(x)?,
            Valid::InEnum => return Ok(None),
        };
        Ok(Some(check.full()))
    }
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
