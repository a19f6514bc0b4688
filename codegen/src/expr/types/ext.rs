//! binspec's additions to the type checker, for the expressions of its own `-` keys ([`super::type_of_ext`]):
//! `xs.bitmask(PRED)` and `xs.count(PRED)` with `_` bound to an element, the hashes of strings and bytes, and the stem and extension of
//! a path.

use super::{Checker, Env, Expr, Span, Ty, TypeError};

/// An environment in which `_` is an element of an array (in the predicate of `bitmask` and `count`).
struct Elem<'a> {
    inner: &'a dyn Env,
    elem: Ty,
}

impl Env for Elem<'_> {
    fn name(&self, name: &str) -> Option<Ty> {
        if name == "_" {
            Some(self.elem.clone())
        } else {
            self.inner.name(name)
        }
    }
    fn special(&self, name: &str) -> Option<Ty> {
        self.inner.special(name)
    }
    fn field_of(&self, user_type: &str, field: &str) -> Option<Ty> {
        self.inner.field_of(user_type, field)
    }
    fn enum_value(&self, path: &[String], value: &str) -> Option<String> {
        self.inner.enum_value(path, value)
    }
    fn type_named(&self, path: &[String]) -> Option<Ty> {
        self.inner.type_named(path)
    }
    fn field_names(&self, user_type: &str) -> Vec<String> {
        self.inner.field_names(user_type)
    }
    fn names(&self) -> Vec<String> {
        self.inner.names()
    }
}

impl Checker<'_> {
    /// `xs.bitmask(PRED)`: bytes, one bit per element of the array `xs` where `PRED` (a boolean, `_` the element)
    /// holds; `xs.count(PRED)`: how many elements it holds for (an integer).
    #[inline(never)]
    pub(super) fn bitmask(
        &self,
        e: &Expr,
        base: &Ty,
        method: &str,
        method_span: Span,
        args: &[Expr],
        d: usize,
    ) -> Result<Ty, TypeError> {
        let elem = match base {
            Ty::Array(t) => (**t).clone(),
            Ty::Any => Ty::Any,
            other => {
                return Err(TypeError::new(
                    method_span,
                    format!("'{method}' is a method of arrays, not of {other}"),
                ))
            }
        };
        let [pred] = args else {
            return Err(TypeError::new(
                e.span,
                format!(
                    "'{method}' takes 1 argument (a condition on '_'), got {}",
                    args.len()
                ),
            ));
        };
        let env = Elem {
            inner: self.env,
            elem,
        };
        let t = Checker {
            env: &env,
            ext: true,
            record: self.record,
        }
        .check(pred, d)?;
        if !matches!(t, Ty::Bool | Ty::Any) {
            return Err(TypeError::new(
                pred.span,
                format!("the condition passed to '{method}' must be a boolean, found {t}"),
            ));
        }
        Ok(if method == "count" {
            Ty::CALC_INT
        } else {
            Ty::Bytes
        })
    }

    /// binspec's hashes of strings and bytes: `murmur3(seed)`, `crc32()`, `sarc_hash(multiplier)` (integers); and
    /// a path's `path_stem()` and `path_extension()` (strings: its file name split at its last dot, as
    /// `binspec_runtime::text::path_split` says); `None` for other methods.
    pub(super) fn hash_call(
        &self,
        base: &Ty,
        method: &str,
        args: &[Expr],
        arg_tys: &[Ty],
        span: Span,
    ) -> Result<Option<Ty>, TypeError> {
        let arity = match method {
            "murmur3" | "sarc_hash" => 1,
            "crc32" => 0,
            "path_stem" | "path_extension" => {
                if !matches!(base, Ty::Str | Ty::Any) {
                    return Err(TypeError::new(
                        span,
                        format!("'{method}' is a method of strings (a path), not of {base}"),
                    ));
                }
                if !args.is_empty() {
                    return Err(TypeError::new(
                        span,
                        format!("'{method}' takes no argument, got {}", args.len()),
                    ));
                }
                return Ok(Some(Ty::Str));
            }
            _ => return Ok(None),
        };
        if !matches!(base, Ty::Str | Ty::Bytes | Ty::Any) {
            return Err(TypeError::new(
                span,
                format!("'{method}' hashes a string or bytes, not {base}"),
            ));
        }
        if args.len() != arity {
            return Err(TypeError::new(
                span,
                format!("'{method}' takes {arity} argument(s), got {}", args.len()),
            ));
        }
        if let Some((a, t)) = args
            .iter()
            .zip(arg_tys)
            .find(|(_, t)| !matches!(t, Ty::Int { .. } | Ty::Any))
        {
            return Err(TypeError::new(
                a.span,
                format!("the argument of '{method}' must be an integer, found {t}"),
            ));
        }
        Ok(Some(Ty::CALC_INT))
    }
}
