//! A repeated field whose elements' arguments name the elements read (or written) before them
//! (`group(_index != 0 ? groups[_index - 1].total : 0)`, as Kaitai's `vlq_base128_le` reads its groups): inside
//! the loop over its elements, the field is the vector built so far (`out` when reading), and where the element
//! type's params are numbers or booleans, each element's arguments are kept as they are passed (`a__<field>`), so
//! that an earlier element's params (`groups[_index - 1].prev`, or a value instance of it that names them) are
//! known.

use super::*;

/// The field of type `ty` whose elements (of type `elem`) are being read or written ([`Gen::own_elements`]), and
/// whether its elements' arguments are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct OwnElements {
    pub ty: usize,
    pub field: String,
    pub elem: usize,
    pub keeps_args: bool,
}

/// Every bare name the arguments use.
pub(super) fn names_in(args: &[crate::ir::Ex]) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for a in args {
        crate::ir::names_used(&a.expr, &mut used);
    }
    used
}

impl<'m> Gen<'m> {
    /// Where field `f` of type `ti` is a repeated user type whose arguments name the field itself: what its loop
    /// knows of its own elements.
    pub(super) fn own_elements(&self, ti: usize, f: &Field) -> Option<OwnElements> {
        let FieldTy::User { ty, args } = &f.ty else {
            return None;
        };
        if f.repeat == Repeat::None || !names_in(args).contains(&f.name) {
            return None;
        }
        Some(OwnElements {
            ty: ti,
            field: f.name.clone(),
            elem: *ty,
            keeps_args: self.by_value_params(*ty),
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
                let args_ty = self.own_args_ty(*ty);
                quote!(let mut #a: ::std::vec::Vec<#args_ty> = ::std::vec::Vec::new();)
            }
            _ => quote!(),
        };
        (self.in_own(own, body), decl)
    }

    /// `body` generated with `own` as the loop at hand.
    fn in_own<V>(&self, own: Option<OwnElements>, body: impl FnOnce() -> V) -> V {
        let saved = self.own.replace(own);
        let r = body();
        self.own.replace(saved);
        r
    }
}

impl Gen<'_> {
    /// Whether type `ty`'s own params are numbers or booleans (its arguments can be kept as they are passed).
    fn by_value_params(&self, ty: usize) -> bool {
        self.m.types[ty].params.iter().all(|p| {
            !p.array
                && !p.any_struct
                && matches!(
                    p.ty,
                    FieldTy::Int { .. } | FieldTy::Bits { .. } | FieldTy::Float { .. }
                )
        })
    }

    /// The tuple of type `ty`'s own params (numbers and flags, kept by value): without the outer values it is
    /// also passed.
    fn own_args_ty(&self, ty: usize) -> TokenStream {
        // (Where it is passed nothing else, the alias of its arguments.)
        if self.param_list(ty).is_empty() {
            return match self.args_alias_name(ty) {
                (n, true) => quote!(#n<'_>),
                (n, false) => quote!(#n),
            };
        }
        let n = self.m.types[ty].params.len();
        let own_tys = self.param_pairs(ty).into_iter().take(n).map(|(_, t, _)| t);
        quote!((#(#own_tys,)*))
    }

    /// Where the arguments of `f`'s elements name nothing but the elements before them and their index (and
    /// are numbers or booleans, with no outer values): its index among the type's fields and instances, for
    /// [`Fun::ElementArgs`].
    fn element_args_field(&self, ti: usize, f: &Field) -> Option<usize> {
        let FieldTy::User { ty, args } = &f.ty else {
            return None;
        };
        if f.repeat == Repeat::None || args.is_empty() || !self.by_value_params(*ty) {
            return None;
        }
        if !names_in(args).iter().all(|n| *n == f.name || n == "_index") {
            return None;
        }
        let t = &self.m.types[ti];
        t.seq
            .iter()
            .chain(&t.instances)
            .position(|x| x.name == f.name)
    }

    /// `args_<field>(out)`: the arguments each element of a field is passed, computed from the elements as the
    /// reader and the writer do, for the params of an element outside the loop (`groups.last.total`). Emitted
    /// where something calls it.
    pub(super) fn emit_element_args(&self, ti: usize) -> R<TokenStream> {
        let mut out = Vec::new();
        let t = &self.m.types[ti];
        for f in t.seq.iter().chain(&t.instances) {
            let (Some(at), FieldTy::User { ty, args }) = (self.element_args_field(ti, f), &f.ty)
            else {
                continue;
            };
            if !self.called(ti, Fun::ElementArgs(at)) {
                continue;
            }
            let own = OwnElements {
                ty: ti,
                field: f.name.clone(),
                elem: *ty,
                keeps_args: true,
            };
            // The element's own params alone (the outer values it is also passed are not known here).
            // (No reader here: an expression that fails, an index out of range, says so without an offset.)
            self.no_reader.set(true);
            let a = self.in_own(Some(own), || {
                self.args_tuple(ti, *ty, args, Scope::Read, f, false)
            });
            self.no_reader.set(false);
            let (a, _) = a?;
            let args_ty = self.own_args_ty(*ty);
            let elem = ty_ident(&self.m.types[*ty].rust);
            let name = format_ident!("args_{}", f.name);
            let kept = kept_args(&f.name);
            let doc = format!(
                " The arguments each element of `{}` is read and written with, computed from the elements.",
                f.name
            );
            out.push(quote! {
                #[doc = #doc]
                #[allow(non_snake_case)]
                pub(crate) fn #name(out: &[#elem]) -> ::binspec_runtime::Result<::std::vec::Vec<#args_ty>> {
                    let mut #kept: ::std::vec::Vec<#args_ty> = ::std::vec::Vec::with_capacity(out.len());
                    for i in 0..out.len() {
                        let _ = #a;
                    }
                    Ok(#kept)
                }
            });
        }
        Ok(quote!(#(#out)*))
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
    pub(super) fn keep_args(
        &self,
        args: TokenStream,
        child: usize,
        with_outer: bool,
    ) -> TokenStream {
        match &self.own {
            Some(o) if o.keeps_args && o.ty == self.ty && o.elem == child => {
                let a = kept_args(&o.field);
                // (Its own params: the outer values passed after them are not kept.)
                let n = self.m.types[child].params.len();
                let outer = with_outer && self.gen.is_some_and(|g| !g.param_list(child).is_empty());
                let own: Vec<TokenStream> = (0..n)
                    .map(|i| {
                        let i = proc_macro2::Literal::usize_unsuffixed(i);
                        quote!(a__.#i)
                    })
                    .collect();
                let (kept, ty) = match self.gen.filter(|_| outer) {
                    Some(g) => {
                        // (Typed as the alias, which takes a slice where an outer array is passed.)
                        let ty = match g.args_alias_name(child) {
                            (n, true) => quote!(: #n<'_>),
                            (n, false) => quote!(: #n),
                        };
                        (quote!((#(#own,)*)), ty)
                    }
                    None => (quote!(a__), quote!()),
                };
                quote!({ let a__ #ty = #args; #a.push(#kept); a__ })
            }
            _ => args,
        }
    }

    /// For an element of `field` outside its loop (`field[i]`, `field.first`, `field.last`), where its
    /// arguments are computed from the elements (`Owner::args_field(&field)`), where the field has such a
    /// function ([`Gen::emit_element_args`]).
    pub(super) fn element_args_of(&mut self, base: &Expr, path: &str) -> Option<TokenStream> {
        let (arr, pick) = match &base.kind {
            ExprKind::Index { base: arr, index } => (arr, Some(index)),
            ExprKind::Attr {
                base: arr, name, ..
            } if name == "first" || name == "last" => (arr, None),
            _ => return None,
        };
        let ExprKind::Name(n) = &arr.kind else {
            return None;
        };
        let g = self.gen?;
        let f = self
            .t()
            .seq
            .iter()
            .chain(&self.t().instances)
            .find(|f| f.name == *n)?;
        let at = g.element_args_field(self.ty, f)?;
        let (elems, _) = self.tr(arr, path).ok()?;
        let elems = elems.full();
        let pick = match (pick, &base.kind) {
            (Some(i), _) => {
                let i = self.tr(i, path).ok()?.0.as_(quote!(usize)).full();
                quote!(get(#i))
            }
            (None, ExprKind::Attr { name, .. }) if name == "first" => quote!(first()),
            _ => quote!(last()),
        };
        // An element type that is also passed outer values (rpm's `signature_tags_step`, whose `size_tag_idx`
        // looks at `_parent.signature.index_records`): its arguments are computed here, where those values are
        // known, in the type's own scope only.
        let FieldTy::User { ty: elem, args } = &f.ty else {
            return None;
        };
        if !g.param_list(*elem).is_empty() {
            if self.base.is_some() {
                return None;
            }
            let own = OwnElements {
                ty: self.ty,
                field: f.name.clone(),
                elem: *elem,
                keeps_args: true,
            };
            let (a, _) = g
                .in_own(Some(own), || {
                    g.args_tuple(self.ty, *elem, args, self.scope, f, false)
                })
                .ok()?;
            let kept = kept_args(n);
            let args_ty = g.own_args_ty(*elem);
            self.exits = true;
            return Some(quote!({
                let out = &#elems;
                let mut #kept: ::std::vec::Vec<#args_ty> = ::std::vec::Vec::with_capacity(out.len());
                for i in 0..out.len() {
                    let _ = #a;
                }
                #kept
            }.#pick.copied()));
        }
        g.note_call(self.ty, Fun::ElementArgs(at));
        let owner = ty_ident(&self.m.types[self.ty].rust);
        let name = format_ident!("args_{}", n);
        let pe = self.pass_error();
        Some(quote!(#owner::#name(&#elems)#pe.#pick.copied()))
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
