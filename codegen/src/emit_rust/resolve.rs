//! How the expression translator resolves what an expression names: a bare name (a field, instance, param or
//! derived value, by scope), an attribute of another value, an enum, and the `_root`/`_parent` chains that
//! travel as implicit params.

use super::resolve_util::{
    depends_on_reading, depends_on_stream, not_in_model, param_t, solve_offset, value_presence,
};
use super::*;

impl<'m> Cx<'m> {
    pub(super) fn name(&mut self, n: &str, path: &str) -> R<(Rx, T)> {
        let me = self.me();
        let t = self.t();
        match n {
            "_index" => {
                // (In the arguments of an element reached as `x[i]`: `i`.)
                return Ok(match &self.index {
                    Some(ix) => (ix.clone(), T::Int),
                    None => (Rx::cast(quote!(i as i128)), T::Int),
                });
            }
            "_sizeof" => {
                let e = Expr {
                    kind: ExprKind::Name(n.to_string()),
                    span: Default::default(),
                    ty: None,
                };
                if let Some(r) = self.size_asked(&e, path) {
                    return r;
                }
            }
            "_" => {
                let t = self.last_t.clone().unwrap_or(T::Int);
                return Ok(match t {
                    T::Int => (Rx::cast(quote!(v__ as i128)), T::Int),
                    T::Str => (Rx::borrow(quote!(v__[..])), T::Str),
                    T::Bytes => (Rx::borrow(quote!(v__[..])), T::Bytes),
                    t => (Rx::atom(quote!(v__)), t),
                });
            }
            // A whole outer value in the model of a whole tree (`_parent.as<t>`).
            "_root" | "_parent" if self.scope == Scope::Model => {
                let outer = match n {
                    "_root" => self
                        .tree_root()
                        .map(|(ty, base, scope, _)| (ty, base, scope)),
                    _ => self.outer.last().cloned(),
                };
                // (A value of the model: not the reader's locals.)
                if let Some((ty, base, Scope::Model)) = outer {
                    let b = base.unwrap_or_else(|| Rx::atom(quote!(self)));
                    return Ok((b, T::User(ty)));
                }
            }
            _ => {}
        }
        if let Some(p) = t.params.iter().find(|p| p.name == n) {
            if self.scope == Scope::Model {
                // Reached through the field that passes it (`x.param`): its argument, where the field is.
                let i = t.params.iter().position(|q| q.name == n).unwrap_or(0);
                if let Some(fr) = self.args_of.clone().filter(|fr| fr.child == self.ty) {
                    if let Some(kept) = &fr.kept {
                        let j = proc_macro2::Literal::usize_unsuffixed(i);
                        let (d, t) = match (&p.ty, p.enum_) {
                            (FieldTy::Float { .. }, _) => (quote!(0.0), T::Float),
                            (FieldTy::Bits { n: 1, .. }, None) => (quote!(false), T::Bool),
                            _ => (quote!(0i128), T::Int),
                        };
                        return Ok((Rx::atom(quote!(#kept.map_or(#d, |a| a.#j))), t));
                    }
                    let a = &fr.args[i];
                    if !depends_on_reading(&a.expr)
                        || (fr.index.is_some() && !depends_on_stream(&a.expr))
                    {
                        return self.in_frame(&fr, |cx| cx.tr(&a.expr, &a.path));
                    }
                }
                return err(path, format!("parameter '{n}' is not kept in the model"));
            }
            let id = local("p", n);
            return Ok((Rx::atom(quote!(#id)), param_t(p)));
        }
        if let Some(l) = t.layout.iter().find(|l| l.name == n) {
            let id = ident(&l.name);
            return match self.scope {
                Scope::Read => err(
                    path,
                    format!("layout field '{}' is not known while reading", l.name),
                ),
                _ => Ok((Rx::cast(quote!(#me.#id as i128)), T::Int)),
            };
        }
        let Some(f) = find(t, n) else {
            return err(
                path,
                format!("no field, instance or parameter '{n}' in type '{}'", t.name),
            );
        };
        let ft = self.field_t(f);
        let id = ident(n);
        // The elements read so far, in the loop that reads them.
        if self.scope == Scope::Read && self.is_own_elements(n) {
            return Ok((Rx::atom(quote!(out)), ft));
        }
        match self.scope {
            Scope::Read => {
                let v = local("v", n);
                if let Some(val) = f.value() {
                    if f.is_instance() {
                        if let Some(h) = &f.hook {
                            // `-hook`: the hand-written function of the stream's bytes, of the expression's type
                            // (the expression, for Kaitai's tools, may name what binspec's model derives).
                            let module = format_ident!("{}", self.m.id.replace('-', "_"));
                            let h = format_ident!("{h}");
                            return Ok((Rx::atom(quote!(crate::hooks::#module::#h(r.buf()))), ft));
                        }
                        // One that captures the stream's position is bound where it is first needed.
                        if self.base.is_none() && self.m.captures_position(self.ty, n) {
                            let v = super::pinned::pinned_local(n);
                            return Ok((Rx::atom(quote!(#v)), ft));
                        }
                        // Value instances are computed where they are used.
                        let val = val.clone();
                        return self.tr(&val.expr, &val.path);
                    }
                }
                Ok(match ft {
                    T::Int if valued(f) => {
                        if f.cond.is_some() {
                            (
                                Rx::atom(quote!(#v.as_ref().map_or(0, |e| e.value()))),
                                T::Int,
                            )
                        } else {
                            (Rx::atom(quote!(#v.value())), T::Int)
                        }
                    }
                    T::Int => {
                        if f.cond.is_some() {
                            (Rx::cast(quote!(#v.unwrap_or_default() as i128)), T::Int)
                        } else {
                            (Rx::cast(quote!(#v as i128)), T::Int)
                        }
                    }
                    T::Str if f.cond.is_some() => {
                        (Rx::atom(quote!(#v.as_deref().unwrap_or(""))), T::Str)
                    }
                    T::Str => (Rx::borrow(quote!(#v[..])), T::Str),
                    T::Bytes if f.cond.is_some() => {
                        (Rx::atom(quote!(#v.as_deref().unwrap_or(&[][..]))), T::Bytes)
                    }
                    // A borrowed slice, a `Vec<u8>` or `Bytes`, by how it was read.
                    T::Bytes => (
                        Rx::atom(quote!(::binspec_runtime::expr::bytes(&#v))),
                        T::Bytes,
                    ),
                    T::Float if f.cond.is_some() => {
                        (Rx::cast(quote!(#v.unwrap_or_default() as f64)), T::Float)
                    }
                    T::Float => (Rx::cast(quote!(#v as f64)), T::Float),
                    // (Borrowed, not copied: an array as a slice, a record through a `Cow`.)
                    T::Array(et) if f.cond.is_some() => (
                        Rx::reference(quote!(#v.as_deref().unwrap_or(&[]))),
                        T::Array(et),
                    ),
                    other if f.cond.is_some() => (
                        Rx::cow(quote!(::binspec_runtime::expr::or_default(&#v))),
                        other,
                    ),
                    other => (Rx::atom(quote!(#v)), other),
                })
            }
            Scope::Write | Scope::Model => {
                if f.role == Role::Kept {
                    // The model's value, not the expression (which names what is derived from it).
                    return Ok((Rx::cast(quote!(#me.#id as i128)), T::Int));
                }
                if f.value().is_some() && self.m.captures_position(self.ty, n) {
                    if self.scope == Scope::Write && self.base.is_none() {
                        let v = super::pinned::pinned_local(n);
                        return Ok((Rx::atom(quote!(#v)), ft));
                    }
                    return err(
                        path,
                        format!(
                            "'{n}' captures where the stream is when it is first named (`_io.pos`): only a \
                             reader and a writer know it, not the model"
                        ),
                    );
                }
                if let Some(val) = f.value() {
                    if f.hook.is_some() {
                        return err(
                            &val.path,
                            "a '-hook' value instance is computed from the stream's bytes, so only while reading",
                        );
                    }
                    let val = val.clone();
                    return self.tr(&val.expr, &val.path);
                }
                match &f.role {
                    Role::Const(ConstVal::Int(v)) => Ok((Rx::int(*v), T::Int)),
                    Role::Const(ConstVal::Bytes(b)) => {
                        let b = b.clone();
                        Ok((Rx::borrow(quote!([#(#b),*][..])), T::Bytes))
                    }
                    Role::Count { of, .. } if super::layout::count_expr_in(t, n, *of).is_some() => {
                        match super::layout::count_expr_in(t, n, *of) {
                            Some(x) => self.tr(&x, path),
                            None => err(path, "internal: no count expression"),
                        }
                    }
                    Role::Count { of, alt } => {
                        let of = t.field(*of).name.as_str();
                        let opt = find(t, of).is_some_and(|x| x.cond.is_some());
                        let of = ident(of);
                        let kept = find(t, n)
                            .and_then(|cf| crate::ir::count_kept_where_absent(t, cf))
                            .map(|_| ident(n));
                        let chain = super::write_solve::count_chain(t, quote!(m__), kept, &of, alt);
                        Ok(if opt {
                            (Rx::cast(quote!({ let m__ = &#me; #chain as i128 })), T::Int)
                        } else {
                            (Rx::cast(quote!(#me.#of.len() as i128)), T::Int)
                        })
                    }
                    // In a finished model, a record's slot size is solved from what writing the record gives.
                    Role::Length { of }
                        if self.scope == Scope::Model && t.field(*of).size_derived =>
                    {
                        let target = t.field(*of);
                        let size = target.size.as_ref().ok_or_else(|| internal(path))?;
                        let len = self.record_len(target, path)?.0;
                        match solve_offset(&size.expr, n) {
                            Some(0) => Ok((len, T::Int)),
                            Some(c) if c > 0 => {
                                Ok((Rx::binary(&len, quote!(-), Prec::Add, &Rx::int(c)), T::Int))
                            }
                            Some(c) => {
                                Ok((Rx::binary(&len, quote!(+), Prec::Add, &Rx::int(-c)), T::Int))
                            }
                            None => err(
                                path,
                                format!(
                                    "'{n}' is derived by the writer from the size '{}': not known in the model",
                                    size.text
                                ),
                            ),
                        }
                    }
                    // In a finished model, a size that is just this field is the length of what it sizes.
                    Role::Length { of }
                        if self.scope == Scope::Model
                            && Some(t.field(*of))
                                .and_then(|x| x.size.as_ref())
                                .and_then(|s| crate::ir::bare_name(&s.expr))
                                == Some(n) =>
                    {
                        let target = t.field(*of);
                        let of = ident(&target.name);
                        Ok(match (&target.ty, target.cond.is_some()) {
                            (_, true) => (
                                Rx::cast(quote!(#me.#of.as_ref().map_or(0, |x| x.len()) as i128)),
                                T::Int,
                            ),
                            _ => (Rx::cast(quote!(#me.#of.len() as i128)), T::Int),
                        })
                    }
                    Role::Derive(_) if self.scope == Scope::Write && ft == T::Bytes => {
                        let d = local("d", n);
                        Ok((Rx::borrow(quote!(#d[..])), T::Bytes))
                    }
                    Role::Length { .. } | Role::Offset { .. } | Role::Derive(_)
                        if self.scope == Scope::Write =>
                    {
                        let d = local("d", n);
                        Ok((Rx::atom(quote!(#d)), T::Int))
                    }
                    Role::Data | Role::Placed => Ok(match ft {
                        T::Int if valued(f) && f.cond.is_some() => {
                            (Rx::atom(quote!(#me.#id.as_ref().map_or(0, |e| e.value()))), T::Int)
                        }
                        T::Int if valued(f) => (Rx::atom(quote!(#me.#id.value())), T::Int),
                        T::Int if f.cond.is_some() => (
                            Rx::cast(quote!(#me.#id.unwrap_or_default() as i128)),
                            T::Int,
                        ),
                        T::Int => (Rx::cast(quote!(#me.#id as i128)), T::Int),
                        T::Str if f.cond.is_some() => {
                            (Rx::atom(quote!(#me.#id.as_deref().unwrap_or(""))), T::Str)
                        }
                        T::Str => (Rx::borrow(quote!(#me.#id[..])), T::Str),
                        T::Bytes if f.cond.is_some() => (
                            Rx::atom(quote!(#me.#id.as_deref().unwrap_or(&[][..]))),
                            T::Bytes,
                        ),
                        T::Bytes => (Rx::borrow(quote!(#me.#id[..])), T::Bytes),
                        T::Float if f.cond.is_some() => (
                            Rx::cast(quote!(#me.#id.unwrap_or_default() as f64)),
                            T::Float,
                        ),
                        T::Float => (Rx::cast(quote!(#me.#id as f64)), T::Float),
                        T::Array(et) if f.cond.is_some() => (
                            Rx::reference(quote!(#me.#id.as_deref().unwrap_or(&[]))),
                            T::Array(et),
                        ),
                        other if f.cond.is_some() => {
                            (Rx::cow(quote!(::binspec_runtime::expr::or_default(&#me.#id))), other)
                        }
                        other => (Rx::atom(quote!(#me.#id)), other),
                    }),
                    // A field the holder of this record derives: as the file holds it, while reading.
                    Role::Given if self.reading => Ok((
                        Rx::cast(quote!(#me.#id.unwrap_or_default() as i128)),
                        T::Int,
                    )),
                    Role::Given => err(
                        path,
                        format!(
                            "'{n}' is derived by the type that holds this record, for its item: it is known only \
                             to that type's writer"
                        ),
                    ),
                    Role::View
                        if self.scope == Scope::Model && self.m.slot_stream(self.ty, f).is_some() =>
                    {
                        let f = f.clone();
                        self.slot_view(&f, path)
                    }
                    Role::View if self.m.param_stream(self.ty, f).is_some() => {
                        let f = f.clone();
                        self.param_stream_value(&f, path)?.ok_or_else(|| internal(path))
                    }
                    Role::View if f.is_instance() => match self.endian_view(n)? {
                        Some(tok) => Ok((tok, T::Int)),
                        None => err(
                            path,
                            format!(
                                "'{n}' is only read, never written: it is not known in the model"
                            ),
                        ),
                    },
                    _ => err(
                        path,
                        format!("'{n}' is not known in the model (it is derived when writing)"),
                    ),
                }
            }
        }
    }

    pub(super) fn attr(&mut self, base: &Expr, name: &str, path: &str) -> R<(Rx, T)> {
        // The whole `base.name`, for what looks at it as one: a size asked for, a `_root`/`_parent` chain.
        let whole = Expr {
            kind: ExprKind::Attr {
                base: Box::new(base.clone()),
                name: name.to_string(),
                name_span: Default::default(),
            },
            span: Default::default(),
            ty: None,
        };
        if let Some(r) = self.size_asked(&whole, path) {
            return r;
        }
        if let Some(r) = self.member_chain(base, name, path)? {
            return Ok(r);
        }
        let me = self.me();
        // A dictionary node's derived values (`-resdic`): known when writing, from the node the writer is at;
        // when reading, the array's reader compares the nodes with them once it has all the keys, so a node reads
        // the file's value as it is (no value equals `i128::MIN`).
        if matches!(&base.kind, ExprKind::Name(b) if b == "_dic") {
            if !matches!(name, "ref_bit" | "left" | "right") {
                return err(
                    path,
                    format!("'_dic.{name}': a dictionary node has 'ref_bit', 'left' and 'right'"),
                );
            }
            let id = format_ident!("{}", name);
            return Ok(match self.scope {
                Scope::Write => (Rx::cast(quote!(dic__.#id as i128)), T::Int),
                _ => (Rx::atom(quote!(i128::MIN)), T::Int),
            });
        }
        // A block chain's value (`-derive: _chain.next`, `_chain.size`).
        if matches!(&base.kind, ExprKind::Name(b) if b == "_chain") {
            return self.chain_value(name, path);
        }
        // Where an item of a record this type holds is (`gpu_memory_pool.region._pos`).
        if matches!(name, "_pos" | "_len") {
            if let Some(r) = self.nested_item_place(base, name, path)? {
                return Ok(r);
            }
        }
        // Outer values.
        if let Some(chain) = chain_of(&whole) {
            // In the model of a whole tree, the root and the values the translation went down through.
            if self.scope == Scope::Model {
                let rest = rebase(&chain[1..]);
                if chain[0] == "_root" {
                    if let Some((ty, base, scope, parents)) = self.tree_root() {
                        return self.at_outer((ty, base, scope), parents, |cx| cx.tr(&rest, path));
                    }
                }
                if chain[0] == "_parent" {
                    if let Some(parent) = self.outer.last().cloned() {
                        let n = self.outer.len() - 1;
                        return self.at_outer(parent, n, |cx| cx.tr(&rest, path));
                    }
                }
            }
            if chain[0] == "_root" && self.m.root_of(self.ty) == self.ty {
                let inner = rebase(&chain[1..]);
                return self.tr(&inner, path);
            }
            // `_root.a.x` in the type the root reads as its field `a`: its own `x`.
            if self.m.is_own_root_chain(self.ty, &chain) {
                return self.tr(&rebase(&chain[2..]), path);
            }
            // The size of the whole input (or output) from inside another type.
            if chain == ["_root", "_io", "size"] {
                return match self.scope {
                    Scope::Read => Ok((Rx::cast(quote!(root_io.size() as i128)), T::Int)),
                    Scope::Write if own_root_io(self.m, self.m.root_of(self.ty)) => {
                        Ok((Rx::cast(quote!(ctx.root_io().size(ctx) as i128)), T::Int))
                    }
                    Scope::Write => Ok((
                        Rx::cast(quote!(::binspec_runtime::layout::Io::ROOT.size(ctx) as i128)),
                        T::Int,
                    )),
                    _ => err(
                        path,
                        "'_root._io.size' is not known in the model".to_string(),
                    ),
                };
            }
            // A constant of an outer type folds to a literal.
            if let Some(f) = self.resolve_chain(&chain) {
                if let Role::Const(ConstVal::Int(v)) = f.role {
                    return Ok((Rx::int(v), T::Int));
                }
            }
            // `_parent.items.size`: a member of an outer field, taken below of the field passed in.
            let member_of_outer = self.m.member_of_outer_field(self.ty, &chain);
            if chain.len() >= 2 && !member_of_outer {
                let id = param_ident(&chain);
                let t = match chain.last().map(|s| s.as_str()) {
                    Some("_pos") => T::Int,
                    _ => match self.chain_t(&chain) {
                        Some(t) => t,
                        None => return err(path, format!("cannot resolve '{}'", chain.join("."))),
                    },
                };
                return Ok((Rx::atom(quote!(#id)), t));
            }
        }
        if let ExprKind::Name(b) = &base.kind {
            if b == "_io" {
                return Ok(match (name, self.scope) {
                    ("size", Scope::Read) => (Rx::cast(quote!(r.size() as i128)), T::Int),
                    ("pos", Scope::Read) => (Rx::cast(quote!(r.pos() as i128)), T::Int),
                    ("eof", Scope::Read) => (Rx::atom(quote!(r.is_eof())), T::Bool),
                    ("size", Scope::Write) => (Rx::cast(quote!(io.size(ctx) as i128)), T::Int),
                    ("pos", Scope::Write) => (Rx::cast(quote!(io.pos(w) as i128)), T::Int),
                    _ => return err(path, format!("'_io.{name}' is not supported here")),
                });
            }
            if name == "_before" {
                if find(self.t(), b).is_none() {
                    return err(path, format!("no field '{b}'"));
                }
                let before = local("before", b);
                let k = local("k", &super::passes::before_slot(b));
                return Ok(match self.scope {
                    // Relative to the type's stream, as `_pos` is.
                    Scope::Read => (
                        Rx::new(
                            quote!(#before - (r.abs_pos() - r.pos() as u64) as i128),
                            Prec::Add,
                        ),
                        T::Int,
                    ),
                    _ => (
                        Rx::new(
                            quote!(ctx.prev_pos(#k) as i128 - io.start as i128),
                            Prec::Add,
                        ),
                        T::Int,
                    ),
                });
            }
            if name == "_len" {
                let f = find(self.t(), b).ok_or_else(|| EmitError {
                    path: path.into(),
                    message: format!("no field '{b}'"),
                })?;
                if !f.is_instance() || f.pos_expr().is_none() {
                    return err(
                        path,
                        format!("'{b}._len' is known for an instance with 'pos' (a record read where it says)"),
                    );
                }
                let (len, k) = (local("len", b), local("k", b));
                return Ok(match self.scope {
                    // How far reading it went from where it starts.
                    Scope::Read => (Rx::atom(quote!(#len.get())), T::Int),
                    // What the writer wrote of it in the previous pass (also for a `-value`, as `_pos`).
                    _ => (Rx::cast(quote!(ctx.prev_len(#k) as i128)), T::Int),
                });
            }
            if name == "_pos" || name == "_present" {
                let f = find(self.t(), b).ok_or_else(|| EmitError {
                    path: path.into(),
                    message: format!("no field '{b}'"),
                })?;
                let p = local("pos", b);
                let k = local("k", b);
                return Ok(match (name, self.scope) {
                    // Relative to the type's stream, as `pos:` is.
                    ("_pos", Scope::Read) => (
                        Rx::new(
                            quote!(#p - (r.abs_pos() - r.pos() as u64) as i128),
                            Prec::Add,
                        ),
                        T::Int,
                    ),
                    ("_pos", _) => (
                        Rx::new(
                            quote!(ctx.prev_pos(#k) as i128 - io.start as i128),
                            Prec::Add,
                        ),
                        T::Int,
                    ),
                    ("_present", Scope::Read) => {
                        let v = local("v", b);
                        (Rx::atom(quote!(#v.is_some())), T::Bool)
                    }
                    _ => {
                        // A value instance: whether its condition holds, or where it has none, whether its value
                        // is there (`t ? maybe : other`).
                        if let Some(e) = value_presence(f) {
                            return self.tr(&e.expr, &e.path);
                        }
                        if not_in_model(f) && f.value().is_none() {
                            return err(
                                path,
                                format!("'{b}._present': '{b}' is not kept in the model"),
                            );
                        }
                        let id = ident(b);
                        if f.cond.is_some() {
                            (Rx::atom(quote!(#me.#id.is_some())), T::Bool)
                        } else {
                            (Rx::atom(quote!(true)), T::Bool)
                        }
                    }
                });
            }
        }
        // `x.field._present` on an element or another value of a user type: whether its optional field is there.
        if let ExprKind::Attr {
            base: inner,
            name: fname,
            ..
        } = &base.kind
        {
            if name == "_present" && matches!(fname.as_str(), "_parent" | "_root") {
                return self.link_present(inner, fname, path);
            }
            if name == "_present" {
                let (ib, it) = self.tr(inner, path)?;
                let T::User(uti) = it else {
                    return err(path, "'_present' needs a field of a user type");
                };
                let f = find(&self.m.types[uti], fname).ok_or_else(|| EmitError {
                    path: path.into(),
                    message: format!("no field '{fname}'"),
                })?;
                // A value instance: as above, in its own type, reached through `ib`.
                if let Some(c) = value_presence(f) {
                    return self.in_model_of(uti, ib, |cx| cx.tr(&c.expr, &c.path));
                }
                if not_in_model(f) && f.value().is_none() {
                    return err(
                        path,
                        format!("'{fname}._present': '{fname}' is not kept in the model"),
                    );
                }
                let id = ident(fname);
                return Ok(if f.cond.is_some() && !not_in_model(f) {
                    (Rx::atom(quote!(#ib.#id.is_some())), T::Bool)
                } else {
                    (Rx::atom(quote!(true)), T::Bool)
                });
            }
        }
        // A derived field of a section this type points to (`table.x_ofs`): as the file holds it, or where the
        // writer put what it derives from.
        if let ExprKind::Name(b) = &base.kind {
            if let Some(v) = self.section_value(b, name, path)? {
                return Ok(v);
            }
        }
        // The size of a deduplicating pool's region of records, when writing: how many it held in the previous
        // pass (the listed ones and those added), which its count gives.
        if let (ExprKind::Name(b), "size", Scope::Write) = (&base.kind, name, self.scope) {
            let pool = find(self.t(), b).and_then(|f| match &f.role {
                Role::Pool(u) => self.m.dedup_records(u.pool).map(|_| u.pool),
                _ => None,
            });
            if let Some(pool) = pool {
                let id = ident(b);
                return Ok((
                    Rx::cast(quote!(ctx.dedup_count(#pool, self.#id.len()) as i128)),
                    T::Int,
                ));
            }
        }
        let (bx, bt) = self.tr(base, path)?;
        // Methods on slices and strings take the place, which the call borrows (`clippy::needless_borrow`).
        let b = recv(&bx);
        match (name, &bt) {
            ("size" | "length", T::Bytes) => Ok((Rx::cast(quote!(#b.len() as i128)), T::Int)),
            ("length", T::Str) => Ok((Rx::cast(quote!(#b.chars().count() as i128)), T::Int)),
            ("reverse", T::Str) => Ok((
                Rx::atom(quote!(#b.chars().rev().collect::<::std::string::String>())),
                T::Str,
            )),
            ("to_i", T::Str) => {
                let pass = self.pass_error();
                Ok((
                    Rx::atom(quote!(::binspec_runtime::expr::to_i(&#b, 10)#pass)),
                    T::Int,
                ))
            }
            ("to_i", T::Float) => Ok((bx.as_(quote!(i128)), T::Int)),
            ("to_s", T::Int) => Ok((Rx::atom(quote!(#b.to_string())), T::Str)),
            // (An f-string's `{s}` of a string.)
            ("to_s", T::Str) => Ok((Rx::atom(quote!(#b.to_string())), T::Str)),
            ("first" | "last" | "min" | "max", T::Bytes) => {
                let m = format_ident!("{}", name);
                let it = match name {
                    "first" | "last" => quote!(#b.#m().copied()),
                    _ => quote!(#b.iter().copied().#m()),
                };
                Ok((Rx::atom(quote!(#it.map_or(0, |x| x as i128))), T::Int))
            }
            ("first" | "last" | "min" | "max", T::Array(et)) if **et == T::Int => {
                let m = format_ident!("{}", name);
                let it = match name {
                    "first" | "last" => quote!(#b.#m().map(|x| *x as i128)),
                    _ => quote!(#b.iter().map(|x| *x as i128).#m()),
                };
                Ok((Rx::atom(quote!(#it.unwrap_or(0))), T::Int))
            }
            ("min" | "max", T::Array(et)) if **et == T::Float => {
                let m = format_ident!("{}", name);
                Ok((
                    Rx::atom(quote!(#b.iter().map(|x| *x as f64).reduce(f64::#m).unwrap_or(0.0))),
                    T::Float,
                ))
            }
            ("min" | "max", T::Array(et)) if matches!(**et, T::Str | T::Bytes) => {
                let m = format_ident!("{}", name);
                Ok((
                    Rx::atom(quote!(#b.iter().#m().cloned().unwrap_or_default())),
                    (**et).clone(),
                ))
            }
            ("first" | "last", T::Array(et)) => {
                let m = format_ident!("{}", name);
                Ok((
                    Rx::atom(quote!(#b.#m().cloned().unwrap_or_default())),
                    (**et).clone(),
                ))
            }
            ("size" | "length", T::Array(_)) => Ok((Rx::cast(quote!(#b.len() as i128)), T::Int)),
            ("to_i", T::Bool) => Ok((bx.as_(quote!(i128)), T::Int)),
            ("to_i", T::Int) => Ok((bx, T::Int)),
            (_, T::User(ty)) => {
                let ty = *ty;
                let known = find(&self.m.types[ty], name).is_some()
                    || self.m.types[ty].params.iter().any(|p| p.name == name);
                if !known {
                    return err(
                        path,
                        format!("no field '{name}' in '{}'", self.m.types[ty].name),
                    );
                }
                // Translate the field in the model scope of that type, reached through `#b` (its params through
                // the arguments `base` passes it, where `base` is a field that passes them).
                let frame = self.arg_frame(base, ty, path);
                // In the model, the records the chain goes down through before the one holding `base` are the
                // outer values of the field (`a.b.c`: `c`'s `_parent` is `a.b`, and its `_parent._parent` is `a`).
                // (So is a view read from its parent's slot, in any scope: see `slot_views`.)
                let slot_view = find(&self.m.types[ty], name)
                    .is_some_and(|f| f.role == Role::View && self.m.slot_stream(ty, f).is_some());
                let holders = if self.scope == Scope::Model || slot_view {
                    self.holder_frames(&self.expand_value(base), path)
                } else {
                    Vec::new()
                };
                let Some((last, above)) = holders.split_last() else {
                    return self.in_model_of(ty, bx, |cx| {
                        cx.args_of = frame;
                        cx.name(name, path)
                    });
                };
                let n = self.outer.len();
                self.outer.push((self.ty, self.base.clone(), self.scope));
                self.outer.extend(above.iter().cloned());
                let parents = self.outer.len();
                let r = self.within(last.clone(), None, parents, |cx| {
                    cx.in_model_of(ty, bx, |cx| {
                        cx.args_of = frame;
                        cx.name(name, path)
                    })
                });
                self.outer.truncate(n);
                r
            }
            (_, T::Switch(owner, field)) => {
                // The field of whichever type the switch holds: every case type must have it.
                let (_, cases, en) = self.switch_field(*owner, field, path)?;
                let mut arms = Vec::new();
                let mut out_t = None;
                let mut seen = BTreeSet::new();
                for c in cases.iter().filter(|c| seen.insert(c.variant.clone())) {
                    let Some(ct) = c.user() else {
                        return err(
                            path,
                            format!(
                                "'.{name}' on a switch that can hold a {}",
                                c.variant.to_lowercase()
                            ),
                        );
                    };
                    if find(&self.m.types[ct], name).is_none() {
                        return err(
                            path,
                            format!("'{}' has no field '{name}'", self.m.types[ct].name),
                        );
                    }
                    let (tok, t) =
                        self.in_model_of(ct, Rx::atom(quote!(x)), |cx| cx.name(name, path))?;
                    let v = ty_ident(&c.variant);
                    // Values that borrow from `x` are turned into owned ones.
                    let tok = match t {
                        T::Str => {
                            let tok = recv(&tok);
                            quote!(#tok.to_string())
                        }
                        T::Bytes => {
                            let tok = recv(&tok);
                            quote!(#tok.to_vec())
                        }
                        _ => tok.full(),
                    };
                    arms.push(quote!(#en::#v(x) => #tok,));
                    out_t.get_or_insert(t);
                }
                let t = out_t.unwrap_or(T::Int);
                let b = bx.by_ref();
                Ok((Rx::new(quote!(match #b { #(#arms)* }), Prec::Block), t))
            }
            _ => err(path, format!("'.{name}' on {bt:?} is not supported yet")),
        }
    }

    /// A switch field, its cases and the name of its enum.
    pub(super) fn switch_field(
        &self,
        owner: usize,
        field: &str,
        path: &str,
    ) -> R<(&'m Field, &'m [crate::ir::SwitchCase], Ident)> {
        let sw = find(&self.m.types[owner], field).ok_or_else(|| EmitError {
            path: path.into(),
            message: format!("internal: no switch '{field}'"),
        })?;
        let FieldTy::Switch { cases, .. } = &sw.ty else {
            return err(path, "internal: not a switch");
        };
        Ok((sw, cases, switch_enum_name(self.m, sw)))
    }

    /// In a finished model, the size of a record's slot that the writer derives (`Field::size_derived`): what
    /// writing the record gives, and the bytes kept after it. (A switch, or a record that takes arguments, is not
    /// measured here.)
    fn record_len(&mut self, target: &Field, path: &str) -> R<(Rx, T)> {
        let me = self.me();
        let (FieldTy::User { ty, .. }, None) = (&target.ty, &target.cond) else {
            return err(
                path,
                format!(
                    "the size of '{}' is derived by the writer from what it writes, and not kept in the model",
                    target.name
                ),
            );
        };
        if !self.m.types[*ty].params.is_empty() {
            return err(
                path,
                format!(
                    "the size of '{}' is derived by the writer, from a record that takes arguments: not known in \
                     the model",
                    target.name
                ),
            );
        }
        let (of, fid) = (ident(&target.name), format_ident!("{}_filler", target.name));
        // (Writing may fail: the translation passes the error up.)
        self.exits = true;
        Ok((
            Rx::cast(
                quote!(::binspec_runtime::layout::written_len(|w, ctx| { let mark__ = ctx.placed_mark(); #me.#of.write(w, ctx, ::binspec_runtime::layout::Io::ROOT, ::binspec_runtime::Endian::Little)?; ctx.finish_slot(w, mark__, 0, #me.#fid.as_deref())?; Ok(()) })? as i128),
            ),
            T::Int,
        ))
    }

    /// `x._parent._present` / `x._root._present`: whether record `x` has a parent (a root) in this file. As in
    /// Kaitai, links stop at the border of a schema: a record of an imported schema's type, read by a type of
    /// another schema, has neither (its own schema's root was never read); a record read with `parent: false` has
    /// no parent.
    fn link_present(&mut self, x: &Expr, link: &str, path: &str) -> R<(Rx, T)> {
        let (_, xt) = self.tr(x, path)?;
        let T::User(xt) = xt else {
            return err(path, format!("'{link}._present' needs a record"));
        };
        // The record that holds `x`, and the field that reads it (an element's is its array's).
        let mut at = x;
        while let ExprKind::Index { base, .. } | ExprKind::Cast { base, .. } = &at.kind {
            at = base;
        }
        let (holder, fname) = match &at.kind {
            ExprKind::Name(n) => (self.ty, n),
            ExprKind::Attr { base, name, .. } => match self.tr(base, path)?.1 {
                T::User(h) => (h, name),
                _ => return err(path, format!("'{link}._present' needs a record")),
            },
            _ => return err(path, format!("'{link}._present' needs a field's record")),
        };
        let same_schema = self.m.root_of(xt) == self.m.root_of(holder);
        let present = match link {
            "_root" => same_schema && self.m.root_of(xt) == 0,
            _ => {
                same_schema
                    && find(&self.m.types[holder], fname)
                        .is_none_or(|f| f.parent != crate::ir::ParentRef::Nothing)
            }
        };
        Ok((Rx::atom(quote!(#present)), T::Bool))
    }

    /// What model fields are reached through: `self`, or another value's model.
    pub(super) fn me(&self) -> TokenStream {
        match &self.base {
            Some(b) => b.recv(),
            None => quote!(self),
        }
    }

    /// The enum an `a::b::animal` path names (`animal` in type `b` of type `a`), its owner found as `enum:` finds
    /// it (`Module::find_type`: a path may start with the schema's own id).
    pub(super) fn find_enum_path(&self, epath: &[String]) -> Option<usize> {
        let (name, owner) = epath.split_last()?;
        if owner.is_empty() {
            return self.find_enum(name);
        }
        let owner = self.m.find_type(self.ty, &owner.join("::"))?;
        self.m
            .enums
            .iter()
            .position(|e| e.owner == owner && e.name == *name)
    }

    /// An enum by name, looking from this type outwards, then anywhere.
    pub(super) fn find_enum(&self, name: &str) -> Option<usize> {
        let mut scope = Some(self.ty);
        while let Some(s) = scope {
            if let Some(i) = self
                .m
                .enums
                .iter()
                .position(|e| e.owner == s && e.name == name)
            {
                return Some(i);
            }
            scope = self.m.types[s].parent;
        }
        self.m.enums.iter().position(|e| e.name == name)
    }

    /// The field that a `_root.a.b`, `_parent.x` or `_parent._parent.x` chain names.
    pub(super) fn resolve_chain(&self, chain: &[String]) -> Option<&'m Field> {
        self.resolve_chain_in(chain).map(|(_, f)| f)
    }

    /// The type of what a chain names: a field ([`Cx::resolve_chain`]), or a parameter of the type the chain ends
    /// in (`_parent.has_addend`).
    pub(super) fn chain_t(&self, chain: &[String]) -> Option<T> {
        if let Some(f) = self.resolve_chain(chain) {
            return Some(self.field_t(f));
        }
        let (last, holder) = chain.split_last()?;
        let ht = crate::ir::holder_type(self.m, self.ty, holder)?;
        let p = self.m.types[ht].params.iter().find(|p| &p.name == last)?;
        Some(param_t(p))
    }

    /// [`Cx::resolve_chain`], with the type that holds the field.
    pub(super) fn resolve_chain_in(&self, chain: &[String]) -> Option<(usize, &'m Field)> {
        let mut start = 1;
        let mut ty = match chain[0].as_str() {
            "_root" => self.m.root_of(self.ty),
            "_parent" => {
                let mut t = self.m.owners[self.ty]?;
                while chain.get(start).is_some_and(|p| p == "_parent") {
                    t = self.m.owners[t]?;
                    start += 1;
                }
                t
            }
            _ => return None,
        };
        let mut field = None;
        for (i, part) in chain[start..].iter().enumerate() {
            if part.starts_with('_') {
                return if start + i == chain.len() - 1 {
                    field
                } else {
                    None
                };
            }
            let f = find(&self.m.types[ty], part)?;
            field = Some((ty, f));
            if let FieldTy::User { ty: t, .. } = f.ty {
                ty = t;
            }
        }
        field
    }
}
