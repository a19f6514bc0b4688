//! A repeated field whose elements' arguments name the elements read (or written) before them
//! (`group(_index != 0 ? groups[_index - 1].total : 0)`, as Kaitai's `vlq_base128_le` reads its groups): inside
//! the loop over its elements, the field is the vector built so far (`out` when reading), and where the element
//! type's params are numbers or booleans, each element's arguments are kept as they are passed (`a__<field>`), so
//! that an earlier element's params (`groups[_index - 1].prev`, or a value instance of it that names them) are
//! known.

use super::*;

/// The field of type `ty` whose elements are being read or written ([`Gen::own_elements`]), and whether its
/// elements' arguments are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct OwnElements {
    pub ty: usize,
    pub field: String,
    pub keeps_args: bool,
}

impl<'m> Gen<'m> {
    /// Where field `f` of type `ti` is a repeated user type whose arguments name the field itself: what its loop
    /// knows of its own elements.
    pub(super) fn own_elements(&self, ti: usize, f: &Field) -> Option<OwnElements> {
        let FieldTy::User { ty, args } = &f.ty else {
            return None;
        };
        if f.repeat == Repeat::None {
            return None;
        }
        let mut used = BTreeSet::new();
        for a in args {
            crate::ir::names_used(&a.expr, &mut used);
        }
        if !used.contains(&f.name) {
            return None;
        }
        let keeps_args = self.param_list(*ty).iter().all(|p| !p.by_ref)
            && self.m.types[*ty].params.iter().all(|p| {
                !p.array
                    && !p.any_struct
                    && matches!(
                        p.ty,
                        FieldTy::Int { .. } | FieldTy::Bits { .. } | FieldTy::Float { .. }
                    )
            });
        Some(OwnElements {
            ty: ti,
            field: f.name.clone(),
            keeps_args,
        })
    }

    /// `body` generated with the loop of `f`'s elements in view ([`Cx::own`]); the declaration of the kept
    /// arguments to put before the loop (nothing where none are kept).
    pub(super) fn with_own_elements<V>(
        &self,
        ti: usize,
        f: &Field,
        body: impl FnOnce() -> V,
    ) -> (V, TokenStream) {
        let own = self.own_elements(ti, f);
        let decl = match (&own, &f.ty) {
            (Some(o), FieldTy::User { ty, .. }) if o.keeps_args => {
                let a = kept_args(&o.field);
                // (Numbers and booleans only: the arguments' type takes no lifetime.)
                let (args_ty, _) = self.args_alias_name(*ty);
                quote!(let mut #a: ::std::vec::Vec<#args_ty> = ::std::vec::Vec::new();)
            }
            _ => quote!(),
        };
        let saved = self.own.replace(own);
        let r = body();
        self.own.replace(saved);
        (r, decl)
    }
}

/// The local that keeps the arguments each element of `field` was passed.
pub(super) fn kept_args(field: &str) -> Ident {
    format_ident!("a__{}", field)
}

impl Cx<'_> {
    /// Whether `name`, here, is the field whose elements are being read or written in the loop at hand.
    pub(super) fn is_own_elements(&self, name: &str) -> bool {
        self.base.is_none()
            && self
                .own
                .as_ref()
                .is_some_and(|o| o.ty == self.ty && o.field == name)
    }

    /// The arguments tuple `args` of an element of the field in the loop at hand, kept (pushed onto its
    /// [`kept_args`]) as it is passed, where that field keeps them.
    pub(super) fn keep_args(&self, args: TokenStream, child: usize) -> TokenStream {
        match &self.own {
            Some(o) if o.keeps_args && o.ty == self.ty && self.own_child(o) == Some(child) => {
                let a = kept_args(&o.field);
                quote!({ let a__ = #args; #a.push(a__); a__ })
            }
            _ => args,
        }
    }

    fn own_child(&self, o: &OwnElements) -> Option<usize> {
        match &self.m.types[o.ty]
            .seq
            .iter()
            .chain(&self.m.types[o.ty].instances)
            .find(|f| f.name == o.field)?
            .ty
        {
            FieldTy::User { ty, .. } => Some(*ty),
            _ => None,
        }
    }

    /// For `field[index]` of the loop at hand: where the element's kept arguments are (`a__field.get(i)`), for
    /// its params to be read from outside.
    pub(super) fn kept_args_of(
        &mut self,
        field: &str,
        index: &Expr,
        path: &str,
    ) -> Option<TokenStream> {
        let keeps = self
            .own
            .as_ref()
            .is_some_and(|o| o.keeps_args && o.ty == self.ty && o.field == field);
        if !keeps || self.base.is_some() {
            return None;
        }
        let i = self.tr(index, path).ok()?.0.as_(quote!(usize)).full();
        let a = kept_args(field);
        Some(quote!(#a.get(#i)))
    }
}
