//! The frames the expression translator looks names up in: the records an expression goes down through (a
//! tree's root, a record's holders), and the arguments a field passes to the type it reads, with the context
//! they are written in.

use super::resolve_util::depends_on_reading;
use super::*;

/// The arguments a field of type `child` passes, and the translation context they are written in (the field's
/// own type, reached through `base`), with that context's own frame.
pub(super) struct ArgFrame {
    pub(super) child: usize,
    pub(super) args: Vec<crate::ir::Ex>,
    pub(super) ty: usize,
    pub(super) base: Option<Rx>,
    pub(super) scope: Scope,
    pub(super) outer: Option<std::rc::Rc<ArgFrame>>,
    /// How many of [`Cx::outer`] lead to the field's type (its parents).
    pub(super) parents: usize,
    /// For an element of the loop at hand, where the arguments it was passed are kept (an `Option` of the
    /// tuple): its params are read there, not translated again.
    pub(super) kept: Option<TokenStream>,
    /// For an element of a repeated field (`x[i].param`): its index, translated where the expression is, which
    /// is what `_index` is in the arguments.
    pub(super) index: Option<Rx>,
}

impl<'m> Cx<'m> {
    /// The records an expression reaching a record goes down through, outermost first, up to the one that holds
    /// it: `a.b.as<t>.c` goes through `a` and `a.b` (a cast holds the same record, an element's holder is its
    /// array's). Empty where the record is a field of the current one.
    pub(super) fn holder_frames(
        &mut self,
        e: &Expr,
        path: &str,
    ) -> Vec<(usize, Option<Rx>, Scope)> {
        match &e.kind {
            ExprKind::Cast { base, .. } | ExprKind::Index { base, .. } => {
                self.holder_frames(base, path)
            }
            ExprKind::Attr { base, .. } => {
                let mut out = self.holder_frames(base, path);
                match self.tr(base, path) {
                    Ok((rx, T::User(t))) => out.push((t, Some(rx), Scope::Model)),
                    _ => return Vec::new(),
                }
                out
            }
            _ => Vec::new(),
        }
    }

    /// `e`, or where it names a value instance of the current type (not kept in the model), its expression: what
    /// holds the record it is (`signature_size_tag`, `signature.index_records[i]`, is held by `signature`).
    pub(super) fn expand_value(&self, e: &Expr) -> Expr {
        let ExprKind::Name(n) = &e.kind else {
            return e.clone();
        };
        match find(self.t(), n) {
            Some(f) if f.role == Role::Computed => {
                f.value().map_or_else(|| e.clone(), |v| v.expr.clone())
            }
            _ => e.clone(),
        }
    }

    /// `f` translating in the model scope of type `ty`, its fields reached through `base` (a field of a record
    /// the expression holds, `x.field`).
    pub(super) fn in_model_of<V>(
        &mut self,
        ty: usize,
        base: Rx,
        f: impl FnOnce(&mut Self) -> V,
    ) -> V {
        self.outer.push((self.ty, self.base.clone(), self.scope));
        let n = self.outer.len();
        let r = self.within((ty, Some(base), Scope::Model), None, n, f);
        self.outer.pop();
        r
    }

    /// What `_root` is in the model of a whole tree, from the current type: the tree's root, or for a type of an
    /// imported schema, the nearest value of that schema's top-level type the translation went down through.
    /// With how many of [`Cx::outer`] are its own outer values.
    pub(super) fn tree_root(&self) -> Option<(usize, Option<Rx>, Scope, usize)> {
        let root = self.m.root_of(self.ty);
        if root == 0 {
            return self.root.clone().map(|r| (0, Some(r), Scope::Model, 0));
        }
        if root == self.ty {
            return Some((self.ty, self.base.clone(), self.scope, self.outer.len()));
        }
        let i = self.outer.iter().rposition(|(t, _, _)| *t == root)?;
        let (_, base, scope) = self.outer[i].clone();
        Some((root, base, scope, i))
    }

    /// `f` translating where an outer value (`_root`, `_parent`) is: type `ty` reached through `base`, in the
    /// scope it was reached from (the model, or the reader of the value being read), the first `parents` of
    /// [`Cx::outer`] its own outer values.
    pub(super) fn at_outer<V>(
        &mut self,
        to: (usize, Option<Rx>, Scope),
        parents: usize,
        f: impl FnOnce(&mut Self) -> V,
    ) -> V {
        self.within(to, None, parents, f)
    }

    /// `f` translating where the field of `fr` is (its arguments' context).
    pub(super) fn in_frame<V>(&mut self, fr: &ArgFrame, f: impl FnOnce(&mut Self) -> V) -> V {
        let to = (fr.ty, fr.base.clone(), fr.scope);
        let index = std::mem::replace(&mut self.index, fr.index.clone());
        let r = self.within(to, fr.outer.clone(), fr.parents, f);
        self.index = index;
        r
    }

    /// `f` translating in type `ty`, reached through `base`, in `scope`, with `args_of` as its arguments' frame
    /// and the first `parents` of [`Cx::outer`] as its outer values; everything as it was afterwards.
    pub(super) fn within<V>(
        &mut self,
        (ty, base, scope): (usize, Option<Rx>, Scope),
        args_of: Option<std::rc::Rc<ArgFrame>>,
        parents: usize,
        f: impl FnOnce(&mut Self) -> V,
    ) -> V {
        let rest = self.outer.split_off(parents.min(self.outer.len()));
        let saved = (
            std::mem::replace(&mut self.ty, ty),
            std::mem::replace(&mut self.scope, scope),
            std::mem::replace(&mut self.base, base),
            std::mem::replace(&mut self.args_of, args_of),
        );
        let r = f(self);
        (self.ty, self.scope, self.base, self.args_of) = saved;
        self.outer.extend(rest);
        r
    }

    /// The arguments `base` passes to its type `child`, where `base` names a field that passes some (`x`, or
    /// `y.x` on a value of a user type), with the context to translate them in.
    pub(super) fn arg_frame(
        &mut self,
        base: &Expr,
        child: usize,
        path: &str,
    ) -> Option<std::rc::Rc<ArgFrame>> {
        // An earlier element of the loop at hand, whose arguments are kept.
        let kept = match &base.kind {
            ExprKind::Index { base: arr, index } => match &arr.kind {
                ExprKind::Name(n) => self.kept_args_of(n, index, path),
                _ => None,
            },
            _ => None,
        };
        // Or one outside the loop, whose arguments are computed from the elements.
        let kept = kept.or_else(|| self.element_args_of(base, path));
        if let Some(kept) = kept {
            return Some(std::rc::Rc::new(ArgFrame {
                child,
                args: Vec::new(),
                ty: self.ty,
                base: None,
                scope: self.scope,
                outer: None,
                parents: self.outer.len(),
                kept: Some(kept),
                index: None,
            }));
        }
        // An element (`x[i]`): the field is `x`, and `_index` in its arguments is `i`.
        let (base, index) = match &base.kind {
            ExprKind::Index { base: arr, index } => {
                let (ix, it) = self.tr(index, path).ok()?;
                if it != T::Int {
                    return None;
                }
                (arr.as_ref(), Some(ix))
            }
            _ => (base, None),
        };
        let (owner, owner_base, scope, outer, fname, parents) = match &base.kind {
            ExprKind::Name(n) => (
                self.ty,
                self.base.clone(),
                self.scope,
                self.args_of.clone(),
                n,
                self.outer.len(),
            ),
            ExprKind::Attr {
                base: inner,
                name: n,
                ..
            } => {
                let (ib, T::User(it)) = self.tr(inner, path).ok()? else {
                    return None;
                };
                let outer = self.arg_frame(inner, it, path);
                // Reached from here: its parent is where the translation is now.
                (it, Some(ib), Scope::Model, outer, n, self.outer.len() + 1)
            }
            _ => return None,
        };
        let f = find(&self.m.types[owner], fname)?;
        let FieldTy::User { ty, args } = &f.ty else {
            return None;
        };
        // Each element of a repeated field may be passed other arguments (`_index`): none of them is `x`, and
        // `x[i]` is the element `i`.
        let by_element = args.iter().any(|a| depends_on_reading(&a.expr));
        if *ty != child
            || args.is_empty()
            || (f.repeat != Repeat::None && by_element && index.is_none())
            || (f.repeat == Repeat::None && index.is_some())
        {
            return None;
        }
        Some(std::rc::Rc::new(ArgFrame {
            child,
            args: args.clone(),
            ty: owner,
            base: owner_base,
            scope,
            outer,
            parents,
            kept: None,
            index,
        }))
    }
}

impl Gen<'_> {
    /// The tokens that pass argument `a` for param `p`, translated where the caller is, converted to the Rust
    /// type the param takes; `exits` is set where computing it may leave the function early.
    pub(super) fn arg_tokens(
        &self,
        caller: usize,
        a: &crate::ir::Ex,
        p: &crate::ir::Param,
        scope: Scope,
        exits: &mut bool,
    ) -> R<TokenStream> {
        let mut cx = self.cx(caller, scope);
        let (t, at) = cx.tr(&a.expr, &a.path)?;
        *exits |= cx.exits;
        Ok(match (&p.ty, at) {
            // A record of any type: one passed on is a reference already.
            (_, T::AnyStruct) if p.any_struct => t.full(),
            (_, _) if p.any_struct => t.prefix(quote!(&)).full(),
            // An array: records as they are; numbers and texts as the param's one element type.
            _ if p.array => {
                let conv = match param_elem_t(p) {
                    T::User(_) => None,
                    T::Float => Some(quote!(floats)),
                    T::Str => Some(quote!(strs)),
                    T::Bytes => Some(quote!(byte_arrays)),
                    T::Bool => Some(quote!(bools)),
                    _ => Some(quote!(ints)),
                };
                match conv {
                    None => t.prefix(quote!(&)).full(),
                    Some(conv) => {
                        let t = t.full();
                        quote!(&::binspec_runtime::expr::#conv(&#t))
                    }
                }
            }
            (FieldTy::Str { .. } | FieldTy::Bytes | FieldTy::User { .. }, _) => {
                t.prefix(quote!(&)).full()
            }
            (FieldTy::Float { .. }, T::Int) => t.as_(quote!(f64)).full(),
            (_, T::Bool) if !matches!(p.ty, FieldTy::Bits { n: 1, .. }) => {
                t.as_(quote!(i128)).full()
            }
            _ => t.full(),
        })
    }
}
