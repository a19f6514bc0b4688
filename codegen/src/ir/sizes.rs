//! Sizes known without reading, as expressions ask for them: `sizeof<T>` and `bitsizeof<T>` (a built-in or user
//! type), `x._sizeof` (a field: of the type, through fields of user types, one element `a[i]`, or a
//! `_root`/`_parent` chain) and `_sizeof` (the type itself). Kaitai's compiler computes these at compile time and
//! refuses a size that depends on the data; so does binspec: the `typecheck` pass reports it, and the translator
//! emits the number.

use crate::expr::{Expr, ExprKind, TypeRef};

use super::{FieldTy, Module, Repeat};

impl Module {
    /// The size `e` asks for, where `e` is such a node in an expression over type `ti` (bits for `bitsizeof`,
    /// else bytes), or why it is not known; `None` for any other node.
    pub fn size_asked(&self, ti: usize, e: &Expr) -> Option<Result<u64, String>> {
        match &e.kind {
            ExprKind::SizeOf { ty, bits } => Some(self.sizeof_type_ref(ti, ty, *bits)),
            ExprKind::Attr { base, name, .. } if name == "_sizeof" => {
                Some(self.sizeof_named(ti, base))
            }
            // `x._io.size`: the size of the substream a sized field `x` is read from (the field's slot); an
            // unsized field's `_io` is its holder's stream, which this does not answer.
            ExprKind::Attr { base, name, .. } if name == "size" => {
                let ExprKind::Attr { base: x, name: io, .. } = &base.kind else {
                    return None;
                };
                if io != "_io" {
                    return None;
                }
                let (f, element) = self.field_named(ti, x)?;
                if f.size.is_none() || f.size_eos {
                    return None;
                }
                let size = if element || f.repeat == Repeat::None {
                    self.static_elem_size(f)
                } else {
                    None
                };
                Some(size.ok_or_else(|| {
                    format!(
                        "'{x}._io.size': the size of '{x}' depends on the data; binspec computes a field's \
                         '_io.size' where it is known without reading"
                    )
                }))
            }
            ExprKind::Name(n) if n == "_sizeof" => Some(self.static_type_size(ti).ok_or_else(|| {
                format!(
                    "'_sizeof': the size of '{}' depends on the data; '_sizeof' is a size known without reading",
                    self.types[ti].name
                )
            })),
            _ => None,
        }
    }

    fn sizeof_named(&self, ti: usize, base: &Expr) -> Result<u64, String> {
        let Some((f, element)) = self.field_named(ti, base) else {
            return Err(format!(
                "'{base}._sizeof': '{base}' does not name a field (binspec computes '_sizeof' of fields)"
            ));
        };
        let size = if element {
            self.static_elem_size(f)
        } else {
            self.static_field_size(f)
        };
        size.ok_or_else(|| {
            format!("'{base}._sizeof': the size of '{base}' depends on the data; '_sizeof' is a size known without reading")
        })
    }

    /// The field an expression over type `ti` names, and whether it names one element of it (`a[i]`).
    fn field_named(&self, ti: usize, e: &Expr) -> Option<(&super::Field, bool)> {
        // (name, indexed), from the outermost step in.
        let mut steps = Vec::new();
        let mut at = e;
        let mut indexed = false;
        let ty = loop {
            match &at.kind {
                ExprKind::Index { base, .. } if !indexed => {
                    indexed = true;
                    at = base;
                }
                ExprKind::Attr { base, name, .. } => {
                    steps.push((name.as_str(), std::mem::take(&mut indexed)));
                    at = base;
                }
                ExprKind::Name(n) if n == "_root" && !indexed => break 0,
                ExprKind::Name(n) if n == "_parent" && !indexed => break self.owners[ti]?,
                ExprKind::Name(n) => {
                    steps.push((n.as_str(), indexed));
                    break ti;
                }
                _ => return None,
            }
        };
        self.walk_fields(ty, steps.into_iter().rev())
    }

    fn sizeof_type_ref(&self, ti: usize, r: &TypeRef, bits: bool) -> Result<u64, String> {
        let kw = if bits { "bitsizeof" } else { "sizeof" };
        let name = r.path.join("::");
        let size_bits = match builtin_bits(&r.path) {
            Some(b) => Some(b),
            None => {
                let Some(t) = self.type_named(ti, r) else {
                    return Err(format!("'{kw}<{name}>': unknown type '{name}'"));
                };
                self.static_type_size(t).map(|n| n * 8)
            }
        };
        match size_bits.filter(|_| !r.array) {
            Some(b) if bits => Ok(b),
            Some(b) => Ok(b.div_ceil(8)),
            None => Err(format!(
                "'{kw}<{name}>': the size of '{name}' depends on the data; '{kw}' is a size known without reading"
            )),
        }
    }

    /// The user type a type reference in type `ti` names: the nearest one, from `ti` outwards, whose path ends
    /// with it (from the top-level type, for an absolute reference).
    fn type_named(&self, ti: usize, r: &TypeRef) -> Option<usize> {
        let tail = &r.path;
        let ends_with = |t: usize| self.types[t].path.ends_with(tail);
        if !r.absolute {
            let mut scope = Some(ti);
            while let Some(s) = scope {
                let base = &self.types[s].path;
                let found = (0..self.types.len()).find(|&t| {
                    let p = &self.types[t].path;
                    ends_with(t) && p.len() == base.len() + tail.len() && p.starts_with(base)
                });
                if found.is_some() {
                    return found;
                }
                scope = self.types[s].parent;
            }
        }
        (0..self.types.len()).find(|&t| ends_with(t))
    }
}

/// The bits of a built-in type of fixed size (`u4`, `s2be`, `f8le`, `b12`), as the schema's types read them;
/// `None` for any other name.
fn builtin_bits(path: &[String]) -> Option<u64> {
    let [name] = path else { return None };
    match super::resolve::prim_type(name, None)? {
        FieldTy::Int { bytes, .. } | FieldTy::Float { bytes, .. } => Some(u64::from(bytes) * 8),
        FieldTy::Bits { n, .. } => Some(u64::from(n)),
        _ => None,
    }
}
