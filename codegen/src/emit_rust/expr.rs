//! The expression translator: Kaitai expressions to Rust, typed as they go (integers are computed in `i128`):
//! literals, operators, comparisons, methods and casts. How names, attributes and `_root`/`_parent` chains resolve
//! is in `resolve`.

use super::*;
use crate::expr::{BinOp, UnOp};

impl<'m> Cx<'m> {
    pub(super) fn t(&self) -> &'m TypeDef {
        &self.m.types[self.ty]
    }

    pub(super) fn field_t(&self, f: &Field) -> T {
        let base = match &f.ty {
            FieldTy::Bits { n: 1, .. } if f.enum_.is_none() => T::Bool,
            FieldTy::Int { .. } | FieldTy::Bits { .. } => T::Int,
            FieldTy::Float { .. } => T::Float,
            FieldTy::Bytes => T::Bytes,
            FieldTy::Str { .. } => T::Str,
            FieldTy::User { ty, .. } => T::User(*ty),
            FieldTy::Switch { .. } if int_switch(f) => T::Int,
            FieldTy::Switch { .. } => T::Switch(self.ty, f.name.clone()),
            FieldTy::Value => self.value_t(f),
        };
        if f.repeat != Repeat::None {
            T::Array(Box::new(base))
        } else {
            base
        }
    }

    /// The type of a value instance's expression, as the `typecheck` pass found it (an integer where it could not
    /// tell: an enum's value, or nothing the checker knows).
    fn value_t(&self, f: &Field) -> T {
        use crate::expr::Ty;
        let ty = f.value().and_then(|v| v.ty.as_ref());
        match ty {
            Some(Ty::Bool) => T::Bool,
            Some(Ty::Float) => T::Float,
            Some(Ty::Str) => T::Str,
            Some(Ty::Bytes) => T::Bytes,
            // An array of numbers, booleans, strings or bytes, or of such arrays (`[8.18, 8.66]`), as its expression
            // makes it.
            Some(t @ Ty::Array(_)) if plain_array(t) => self.checked_t(t).unwrap_or(T::Int),
            // A record (`items[idx]`), so that its fields can be named through it from another type
            // (`_parent.chosen.x`).
            Some(Ty::User(path)) => self.m.type_by_path(path).map_or(T::Int, T::User),
            _ => T::Int,
        }
    }

    /// `x.as<t>.a.b` (`x` a switch) or `xs[i].a.b` (`xs` an array of records), where `a.b` reaches a number or a
    /// boolean: `a.b` translated in the model of the case or the element, borrowed, without the copy of its whole
    /// record that `x.as<t>` or `xs[i]` alone makes (BFRES's `body.as<res_file_v8>.string_pool` and
    /// `models[0].vertices[0].base_offset`, read a dozen times per file). `None` for any other expression, which
    /// is translated as a cast or an element, and its members.
    pub(super) fn member_chain(
        &mut self,
        base: &Expr,
        name: &str,
        path: &str,
    ) -> R<Option<(Rx, T)>> {
        let mut names = vec![name.to_string()];
        let mut e = base;
        let start = loop {
            match &e.kind {
                ExprKind::Attr { base, name, .. } => {
                    names.push(name.clone());
                    e = base;
                }
                ExprKind::Cast { ty, .. } if !ty.array => break e,
                ExprKind::Index { .. } => break e,
                _ => return Ok(None),
            }
        };
        names.reverse();
        // (Positions and lengths, `_pos` and `_len`, are the writer's and reader's, not the case's model's.)
        if names.iter().any(|n| n.starts_with('_')) {
            return Ok(None);
        }
        let rest = resolve_util::rebase(&names);
        match &start.kind {
            ExprKind::Cast { base: inner, .. } => {
                let Some(T::User(t)) = start.ty.as_deref().and_then(|t| self.checked_t(t)) else {
                    return Ok(None);
                };
                let (bx, bt) = self.tr(inner, path)?;
                let T::Switch(owner, field) = bt else {
                    return Ok(None);
                };
                let (_, cases, en) = self.switch_field(owner, &field, path)?;
                let Some(c) = cases.iter().find(|c| c.user() == Some(t)) else {
                    return Ok(None);
                };
                let Some((tok, rt)) = self.copy_member(t, &rest, path) else {
                    return Ok(None);
                };
                let v = ty_ident(&c.variant);
                // (A switch of one case has no other variant: no default arm, which would be unreachable.)
                let other =
                    (cases.len() > 1).then(|| quote!(_ => ::std::default::Default::default(),));
                let b = bx.by_ref();
                Ok(Some((
                    Rx::new(quote!(match #b { #en::#v(x) => #tok, #other }), Prec::Block),
                    rt,
                )))
            }
            ExprKind::Index { base: arr, index } => {
                let (bx, bt) = self.tr(arr, path)?;
                let T::Array(et) = bt else {
                    return Ok(None);
                };
                let T::User(t) = *et else {
                    return Ok(None);
                };
                let Some((tok, rt)) = self.copy_member(t, &rest, path) else {
                    return Ok(None);
                };
                let i = self.tr(index, path)?.0.full();
                let pe = self.pass_error();
                let b = bx.by_ref();
                Ok(Some((
                    Rx::new(
                        quote!({ let x = ::binspec_runtime::expr::at(#b, #i)#pe; #tok }),
                        Prec::Block,
                    ),
                    rt,
                )))
            }
            _ => Ok(None),
        }
    }

    /// Whether `names`, a chain of fields from a record of type `t`, names fields of the records it goes through
    /// only: no value instance on the way reaches outside them (`_parent`, `_root`, `_io`, a parameter), which
    /// the record's model alone, reached without its holders, does not know. (Its type is checked when
    /// translated.)
    fn names_own_fields(&self, t: usize, names: &[String], depth: u32) -> bool {
        let mut ty = t;
        for n in names {
            let Some(f) = find(&self.m.types[ty], n) else {
                return false;
            };
            if let Some(v) = f.value() {
                let mut used = BTreeSet::new();
                crate::ir::names_used(&v.expr, &mut used);
                let own = depth < 8
                    && used.iter().all(|u| {
                        !u.starts_with('_')
                            && self.names_own_fields(ty, std::slice::from_ref(u), depth + 1)
                    });
                if !own {
                    return false;
                }
            }
            if let FieldTy::User { ty: next, .. } = &f.ty {
                ty = *next;
            }
        }
        true
    }

    /// `rest` translated in the model of a record of type `t` reached as `x`, where it is a number or a boolean
    /// (a copy, which borrows nothing from `x`).
    fn copy_member(&mut self, t: usize, rest: &Expr, path: &str) -> Option<(TokenStream, T)> {
        let names = crate::ir::attr_chain(rest)?;
        if !self.names_own_fields(t, &names, 0) {
            return None;
        }
        let depth = self.depth;
        let r = self.in_model_of(t, Rx::atom(quote!(x)), |cx| cx.tr(rest, path));
        self.depth = depth;
        let (tok, rt) = r.ok()?;
        matches!(rt, T::Int | T::Float | T::Bool).then(|| (tok.full(), rt))
    }

    /// Translates an expression; integers come out as `i128`.
    pub(super) fn tr(&mut self, e: &Expr, path: &str) -> R<(Rx, T)> {
        self.depth += 1;
        if self.depth > 64 {
            return err(
                path,
                "expression nests too deeply (value instances referring to each other?)",
            );
        }
        let r = self.tr_inner(e, path);
        self.depth -= 1;
        r
    }

    /// The translator's type for a type the checker found (`None` for a stream or a type it could not tell).
    pub(super) fn checked_t(&self, ty: &crate::expr::Ty) -> Option<T> {
        use crate::expr::Ty;
        Some(match ty {
            Ty::Int { .. } | Ty::Enum(_) => T::Int,
            Ty::Float => T::Float,
            Ty::Bool => T::Bool,
            Ty::Str => T::Str,
            Ty::Bytes => T::Bytes,
            Ty::Array(inner) => T::Array(Box::new(self.checked_t(inner)?)),
            Ty::User(path) => T::User(self.m.type_by_path(path)?),
            Ty::Io | Ty::Any => return None,
        })
    }

    /// Translates one node. A name or an attribute has the type of what it resolves to (which also decides how
    /// the value is reached); every other node has the type the `typecheck` pass stored in it (or, where that is
    /// `any`, the type of the operand whose value it is).
    fn tr_inner(&mut self, e: &Expr, path: &str) -> R<(Rx, T)> {
        let (rx, operand_t) = match &e.kind {
            ExprKind::Name(n) => return self.name(n, path),
            ExprKind::Attr { base, name, .. } => return self.attr(base, name, path),
            _ => self.tr_op(e, path)?,
        };
        // (Where the checker could not tell, as for two branches of different user types, an element of a
        // switch's repetition or an empty array, the value is that of an operand: its type is the operand's.)
        let t =
            e.ty.as_deref()
                .and_then(|ty| self.checked_t(ty))
                .or(operand_t)
                .ok_or_else(|| EmitError {
                    path: path.into(),
                    message: format!(
                        "the type of '{e}' is not known (the checker found {})",
                        e.ty.as_ref().map_or("none".into(), |t| t.to_string())
                    ),
                })?;
        Ok((rx, t))
    }

    /// Translates a node that is not a name or an attribute.
    fn tr_op(&mut self, e: &Expr, path: &str) -> R<(Rx, Option<T>)> {
        // Where the value is one of an operand's (a branch, an element), that operand's type, for a node whose
        // type the checker could not tell.
        let mut operand_t = None;
        let rx = match &e.kind {
            ExprKind::Int(v) => Rx::int(*v as i128),
            ExprKind::Float(f) => Rx::float(*f),
            ExprKind::Bool(b) => Rx::bool(*b),
            ExprKind::Str(s) => Rx::atom(quote!(#s)),
            ExprKind::Array(items) => {
                let bytes: Option<Vec<u8>> = items
                    .iter()
                    .map(|i| match &i.kind {
                        ExprKind::Int(v) if *v <= 255 => Some(*v as u8),
                        _ => None,
                    })
                    .collect();
                match bytes {
                    Some(bytes) if !items.is_empty() => Rx::borrow(quote!([#(#bytes),*][..])),
                    _ => {
                        let mut toks = Vec::new();
                        let mut et = T::Int;
                        for i in items {
                            let (x, t) = self.tr(i, path)?;
                            toks.push(x.full());
                            et = t;
                        }
                        operand_t = Some(T::Array(Box::new(et)));
                        if items.is_empty() {
                            // (An empty array: bytes, which also pass for numbers, `expr::ints`.)
                            Rx::atom(quote!(::std::vec::Vec::<u8>::new()))
                        } else {
                            Rx::atom(quote!(::std::vec::Vec::from([#(#toks),*])))
                        }
                    }
                }
            }
            ExprKind::Name(_) | ExprKind::Attr { .. } => {
                return err(path, "internal: a name in tr_op")
            }
            ExprKind::Call {
                base, method, args, ..
            } if method == "bitmask" || method == "count" => {
                // `xs.bitmask(PRED)`: one bit per element, set where PRED (with `_` the element) holds; bit `i % 8`
                // of byte `i / 8`, as many bytes as eight elements need. `xs.count(PRED)`: how many hold it.
                let (b, bt) = self.tr(base, path)?;
                let T::Array(et) = bt else {
                    return err(path, format!("'{method}' needs an array"));
                };
                let [pred] = &args[..] else {
                    return err(
                        path,
                        format!("'{method}' takes one argument: a condition on '_', the element"),
                    );
                };
                let saved = self.last_t.replace((*et).clone());
                let r = self.tr(pred, path);
                self.last_t = saved;
                let (b, p) = (b.unary(), r?.0.full());
                if method == "count" {
                    return Ok((
                        // (A loop, not a closure: the condition may pass an error up with `?`.)
                        Rx::new(
                            quote!({
                                let mut n__ = 0i128;
                                for v__ in #b.iter() {
                                    if #p { n__ += 1; }
                                }
                                n__
                            }),
                            Prec::Block,
                        ),
                        None,
                    ));
                }
                Rx::new(
                    quote!({
                        let xs__ = &#b;
                        let mut m__ = ::std::vec![0u8; xs__.len().div_ceil(8)];
                        for (j__, v__) in xs__.iter().enumerate() {
                            if #p { m__[j__ / 8] |= 1u8 << (j__ % 8); }
                        }
                        m__
                    }),
                    Prec::Block,
                )
            }
            ExprKind::Call {
                base, method, args, ..
            } => {
                let (bx, bt) = self.tr(base, path)?;
                let rb = recv(&bx);
                let b = bx.full();
                let mut a = Vec::new();
                for x in args {
                    a.push(self.tr(x, path)?.0);
                }
                let hash = |f: TokenStream| Rx::atom(quote!(::binspec_runtime::hash::#f));
                match (method.as_str(), bt) {
                    ("sarc_hash", T::Str) if a.len() == 1 => {
                        let m = a[0].as_(quote!(u32)).full();
                        hash(quote!(sarc_name_hash(#rb.as_bytes(), #m))).as_(quote!(i128))
                    }
                    ("sarc_hash", T::Bytes) if a.len() == 1 => {
                        let m = a[0].as_(quote!(u32)).full();
                        hash(quote!(sarc_name_hash(#b, #m))).as_(quote!(i128))
                    }
                    ("crc32", T::Str) => hash(quote!(crc32(#rb.as_bytes()))).as_(quote!(i128)),
                    ("crc32", T::Bytes) => hash(quote!(crc32(#b))).as_(quote!(i128)),
                    ("murmur3", T::Str) if a.len() == 1 => {
                        let seed = a[0].as_(quote!(u32)).full();
                        hash(quote!(murmur3_32(#rb.as_bytes(), #seed))).as_(quote!(i128))
                    }
                    ("murmur3", T::Bytes) if a.len() == 1 => {
                        let seed = a[0].as_(quote!(u32)).full();
                        hash(quote!(murmur3_32(#b, #seed))).as_(quote!(i128))
                    }
                    ("path_stem", T::Str) if a.is_empty() => {
                        Rx::atom(quote!(::binspec_runtime::text::path_split(&#rb).0.to_owned()))
                    }
                    ("path_extension", T::Str) if a.is_empty() => {
                        Rx::atom(quote!(::binspec_runtime::text::path_split(&#rb).1.to_owned()))
                    }
                    ("to_i", T::Bool) => bx.as_(quote!(i128)),
                    ("to_s", T::Bytes) if a.len() == 1 => {
                        let e = a[0].full();
                        Rx::atom(quote!(::binspec_runtime::text::decode_lossy(#b, #e)))
                    }
                    // (Fallible: where an expression is evaluated, `?` passes the error up.)
                    ("to_i", T::Str) if a.len() == 1 => {
                        let radix = a[0].full();
                        let pass = self.pass_error();
                        Rx::atom(quote!(::binspec_runtime::expr::to_i(&#rb, #radix)#pass))
                    }
                    ("substring", T::Str) if a.len() == 2 => {
                        let (from, to) = (&a[0], &a[1]);
                        let len = Rx::binary(to, quote!(-), Prec::Add, from);
                        let (from, len) = (from.recv(), len.recv());
                        Rx::atom(
                            quote!(#rb.chars().skip(#from.max(0) as usize).take(#len.max(0) as usize).collect::<::std::string::String>()),
                        )
                    }
                    ("to_s", T::Int) if a.is_empty() => {
                        let b = bx.recv();
                        Rx::atom(quote!(#b.to_string()))
                    }
                    (m, t) => {
                        return err(path, format!("method '{m}' on {t:?} is not supported yet"))
                    }
                }
            }
            ExprKind::Index { base, index } => {
                let (b, bt) = self.tr(base, path)?;
                let b = b.by_ref();
                let i = self.tr(index, path)?.0.full();
                // (An index out of range is an error.)
                let at = |cx: &mut Self| {
                    let pe = cx.pass_error();
                    quote!(::binspec_runtime::expr::at(#b, #i)#pe)
                };
                match bt {
                    T::Bytes => {
                        let x = at(self);
                        Rx::atom(x).prefix(quote!(*)).as_(quote!(i128))
                    }
                    T::Array(et) => {
                        // (Enum values are read through `value()`: every enum has a variant for unnamed values.)
                        let enums = matches!(
                            base.ty.as_deref(),
                            Some(crate::expr::Ty::Array(inner)) if matches!(**inner, crate::expr::Ty::Enum(_))
                        );
                        let int_param = self.int_array_param(base);
                        let x = at(self);
                        let x = match *et {
                            T::Int if enums => Rx::atom(quote!(#x.value())),
                            // A param's array of integers holds `i128`s already.
                            T::Int if int_param => Rx::atom(x).prefix(quote!(*)),
                            T::Int => Rx::atom(x).prefix(quote!(*)).as_(quote!(i128)),
                            T::Float => Rx::atom(x).prefix(quote!(*)).as_(quote!(f64)),
                            // (A record borrowed where it is, a reference: its members are read through it.)
                            T::User(_) => Rx::reference(x),
                            _ => Rx::atom(quote!(#x.clone())),
                        };
                        operand_t = Some(*et);
                        x
                    }
                    _ => return err(path, "indexing needs bytes or an array"),
                }
            }
            ExprKind::Unary { op, expr } => {
                let x = self.tr(expr, path)?.0;
                match op {
                    UnOp::Neg => x.prefix(quote!(-)),
                    UnOp::Not | UnOp::BitNot => x.prefix(quote!(!)),
                }
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let (l, lt) = self.tr(lhs, path)?;
                let (r, rt) = self.tr(rhs, path)?;
                let (o, p) = match op {
                    BinOp::Add => (quote!(+), Prec::Add),
                    BinOp::Sub => (quote!(-), Prec::Add),
                    BinOp::Mul => (quote!(*), Prec::Mul),
                    BinOp::Div => (quote!(/), Prec::Mul),
                    BinOp::Mod => (quote!(%), Prec::Mul),
                    BinOp::Shl => (quote!(<<), Prec::Shift),
                    BinOp::Shr => (quote!(>>), Prec::Shift),
                    BinOp::BitAnd => (quote!(&), Prec::BitAnd),
                    BinOp::BitOr => (quote!(|), Prec::BitOr),
                    BinOp::BitXor => (quote!(^), Prec::BitXor),
                    BinOp::Eq => (quote!(==), Prec::Cmp),
                    BinOp::Ne => (quote!(!=), Prec::Cmp),
                    BinOp::Lt => (quote!(<), Prec::Cmp),
                    BinOp::Le => (quote!(<=), Prec::Cmp),
                    BinOp::Gt => (quote!(>), Prec::Cmp),
                    BinOp::Ge => (quote!(>=), Prec::Cmp),
                    BinOp::And => (quote!(&&), Prec::And),
                    BinOp::Or => (quote!(||), Prec::Or),
                };
                if lt == T::Str && rt == T::Str && *op == BinOp::Add {
                    let (l, r) = (l.full(), r.full());
                    return Ok((Rx::atom(quote!(format!("{}{}", #l, #r))), None));
                }
                // Slices and strings compare as places, which the operator borrows (`clippy::op_ref`).
                if op.is_comparison() && matches!(lt, T::Str | T::Bytes) && lt == rt {
                    if let (Some(pl), Some(pr)) = (place(&l), place(&r)) {
                        let (pl, pr) = (Rx::atom(pl), Rx::atom(pr));
                        return Ok((Rx::binary(&pl, o, p, &pr), None));
                    }
                }
                // Otherwise (one owned, as a concatenation or a decoded string is), both as `&str`.
                let borrowed = |x: &Rx| place(x).is_some() || is_str_literal(x);
                if op.is_comparison()
                    && lt == T::Str
                    && rt == T::Str
                    && !(borrowed(&l) && borrowed(&r))
                {
                    let ty = quote!(str);
                    let (l, r) = (l.full(), r.full());
                    let as_ref = |x: TokenStream| {
                        Rx::atom(quote!(::std::convert::AsRef::<#ty>::as_ref(&#x)))
                    };
                    return Ok((Rx::binary(&as_ref(l), o, p, &as_ref(r)), None));
                }
                // `lo <= x && x <= hi` (or `< hi`) as a range's `contains` (`clippy::manual_range_contains`).
                if let Some(c) = self.range_contains(*op, lhs, rhs, path)? {
                    return Ok((c, None));
                }
                let float = lt == T::Float || rt == T::Float;
                let (l, r) = if float {
                    let l = if lt == T::Float {
                        l
                    } else {
                        l.as_(quote!(f64))
                    };
                    let r = if rt == T::Float {
                        r
                    } else {
                        r.as_(quote!(f64))
                    };
                    (l, r)
                } else {
                    (l, r)
                };
                // Integer arithmetic is on i128 and never panics: sums of values read from files cannot overflow
                // it, products wrap, and division by zero is an error passed up with `?` (Kaitai's division and
                // modulo round towards negative infinity).
                match op {
                    BinOp::Mod if float => {
                        let (l, r) = (l.recv(), r.full());
                        Rx::atom(quote!(#l.rem_euclid(#r)))
                    }
                    BinOp::Div | BinOp::Mod | BinOp::Shl | BinOp::Shr if !float => {
                        let (f, fallible) = match op {
                            BinOp::Div => (quote!(div), self.pass_error()),
                            BinOp::Mod => (quote!(modulo), self.pass_error()),
                            BinOp::Shl => (quote!(shl), quote!()),
                            _ => (quote!(shr), quote!()),
                        };
                        let (l, r) = (l.full(), r.full());
                        Rx::atom(quote!(::binspec_runtime::expr::#f(#l, #r)#fallible))
                    }
                    BinOp::Mul if !float => {
                        let (l, r) = (l.recv(), r.full());
                        Rx::atom(quote!(#l.wrapping_mul(#r)))
                    }
                    _ => Rx::binary(&l, o, p, &r),
                }
            }
            ExprKind::Ternary { cond, then, else_ } => {
                let c = self.tr(cond, path)?.0.full();
                let (a, at) = self.tr(then, path)?;
                let (b, bt) = self.tr(else_, path)?;
                operand_t = Some(at.clone());
                let block = |t: TokenStream| Rx::new(t, Prec::Block);
                match (&at, &bt) {
                    // Branches may be borrowed or owned: both become owned.
                    (T::Str, T::Str) => {
                        let (a, b) = (recv(&a), recv(&b));
                        block(quote!(if #c { #a.to_string() } else { #b.to_string() }))
                    }
                    (T::Bytes, T::Bytes) => {
                        let (a, b) = (recv(&a), recv(&b));
                        block(quote!(if #c { #a.to_vec() } else { #b.to_vec() }))
                    }
                    (T::Int, T::Float) => {
                        let (a, b) = (a.as_(quote!(f64)).full(), b.full());
                        block(quote!(if #c { #a } else { #b }))
                    }
                    (T::Float, T::Int) => {
                        let (a, b) = (a.full(), b.as_(quote!(f64)).full());
                        block(quote!(if #c { #a } else { #b }))
                    }
                    // Records of two different types (or switches of two different fields): a record of any
                    // type, which only a cast (`.as<T>`) takes apart again.
                    (T::Switch(..) | T::User(_), T::Switch(..) | T::User(_)) if at != bt => {
                        operand_t = Some(T::AnyStruct);
                        let (a, b) = (
                            self.boxed_any(&a, &at, path)?,
                            self.boxed_any(&b, &bt, path)?,
                        );
                        // (Borrowed, as a record of any type is everywhere else: a `&dyn Any`.)
                        Rx::new(quote!(&*if #c { #a } else { #b }), Prec::Unary)
                    }
                    _ => {
                        let (a, b) = (a.owned(), b.owned());
                        block(quote!(if #c { #a } else { #b }))
                    }
                }
            }
            ExprKind::EnumValue {
                path: epath, value, ..
            } => {
                let ename = epath.last().cloned().unwrap_or_default();
                let en = self.find_enum_path(epath).ok_or_else(|| EmitError {
                    path: path.into(),
                    message: format!("unknown enum '{ename}'"),
                })?;
                let v = self.m.enums[en]
                    .values
                    .iter()
                    .find(|(_, id, _)| id == value)
                    .map(|(v, _, _)| *v)
                    .ok_or_else(|| EmitError {
                        path: path.into(),
                        message: format!("enum '{ename}' has no value '{value}'"),
                    })?;
                Rx::int(v)
            }
            ExprKind::Cast { base, ty } => {
                let (b, bt) = self.tr(base, path)?;
                // The type cast to, as the checker resolved it: a user type's case of a switch is taken out of
                // it; anything else is already a value of that type.
                let target = e.ty.as_deref().and_then(|t| self.checked_t(t));
                match (target, bt) {
                    (Some(T::User(t)), T::Switch(owner, field)) if !ty.array => {
                        let (sw, cases, en) = self.switch_field(owner, &field, path)?;
                        let Some(c) = cases.iter().find(|c| c.user() == Some(t)) else {
                            return err(
                                path,
                                format!("'{}' cannot hold a '{}'", sw.name, ty.path.join("::")),
                            );
                        };
                        let v = ty_ident(&c.variant);
                        let b = b.by_ref();
                        // (A switch of one case has no other variant: no default arm, which would be unreachable.)
                        let other = (cases.len() > 1)
                            .then(|| quote!(_ => ::std::default::Default::default(),));
                        Rx::new(
                            quote!(match #b { #en::#v(x) => (*x).clone(), #other }),
                            Prec::Block,
                        )
                    }
                    // The bytes a sized switch held where no case matched (its raw case), or none.
                    (Some(T::Bytes), T::Switch(owner, field)) if !ty.array => {
                        let (_, cases, en) = self.switch_field(owner, &field, path)?;
                        let Some(c) = cases.iter().find(|c| c.prim == Some(FieldTy::Bytes)) else {
                            return err(path, format!("'{field}' holds no bytes"));
                        };
                        let v = ty_ident(&c.variant);
                        let b = b.by_ref();
                        Rx::new(
                            quote!(match #b { #en::#v(x) => &x[..], _ => &[][..] }),
                            Prec::Block,
                        )
                    }
                    // A record of any type, as the type it is cast to (its default where it is another).
                    (Some(T::User(t)), T::AnyStruct) if !ty.array => {
                        let n = ty_ident(&self.m.types[t].rust);
                        let b = b.recv();
                        Rx::new(
                            quote!(#b.downcast_ref::<#n>().cloned().unwrap_or_default()),
                            Prec::Block,
                        )
                    }
                    (Some(T::Array(t)), _) if matches!(*t, T::User(_)) => {
                        return err(path, format!("cannot cast to '{}[]'", ty.path.join("::")))
                    }
                    _ => b,
                }
            }
            ExprKind::SizeOf { .. } => match self.size_asked(e, path) {
                Some(r) => r?.0,
                None => return err(path, format!("internal error: '{e}' asks for no size")),
            },
        };
        Ok((rx, operand_t))
    }
}

impl Cx<'_> {
    /// What follows a fallible evaluation (`to_i`, a division): `?`, and while reading, the offset reading has
    /// reached given to the error. The translation may then leave the function early ([`Cx::exits`]).
    pub(super) fn pass_error(&mut self) -> TokenStream {
        self.exits = true;
        match self.scope {
            Scope::Read if !self.gen.is_some_and(|g| g.no_reader.get()) => {
                quote!(.map_err(|e| e.or_offset(r.abs_pos()))?)
            }
            _ => quote!(?),
        }
    }
    /// A record (or what a switch holds) as a record of any type, owned (`Box<dyn Any>`): the branches of a ternary
    /// may borrow from temporaries.
    fn boxed_any(&self, x: &Rx, t: &T, path: &str) -> R<TokenStream> {
        let any = quote!(::std::boxed::Box<dyn ::std::any::Any>);
        Ok(match t {
            T::Switch(owner, field) => {
                let (_, cases, en) = self.switch_field(*owner, field, path)?;
                let arms = cases.iter().map(|c| {
                    let v = ty_ident(&c.variant);
                    quote!(#en::#v(x) => ::std::boxed::Box::new((*x).clone()) as #any,)
                });
                let x = x.by_ref();
                quote!(match #x { #(#arms)* })
            }
            _ => {
                let x = x.recv();
                quote!(::std::boxed::Box::new(#x.clone()) as #any)
            }
        })
    }
    /// Whether `e` names a param of the current type that is an array of integers (held as `i128`s), where the
    /// translation reads params as they are passed (not in the model scope, where a param is its argument).
    fn int_array_param(&self, e: &Expr) -> bool {
        let ExprKind::Name(n) = &e.kind else {
            return false;
        };
        self.scope != Scope::Model
            && self
                .t()
                .params
                .iter()
                .any(|p| p.name == *n && p.array && p.enum_.is_none() && param_elem_t(p) == T::Int)
    }

    /// `(lo..=hi).contains(&x)` for `x >= lo and x <= hi` (`lo..hi` for `x < hi`), `lo` and `hi` integer
    /// literals; `None` for any other operation.
    fn range_contains(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr, path: &str) -> R<Option<Rx>> {
        let (
            BinOp::And,
            ExprKind::Binary {
                op: BinOp::Ge,
                lhs: x,
                rhs: lo,
            },
            ExprKind::Binary {
                op: upper @ (BinOp::Le | BinOp::Lt),
                lhs: y,
                rhs: hi,
            },
        ) = (op, &lhs.kind, &rhs.kind)
        else {
            return Ok(None);
        };
        let (ExprKind::Int(lo), ExprKind::Int(hi)) = (&lo.kind, &hi.kind) else {
            return Ok(None);
        };
        // The same operand on both sides, as written (compared as expressions, not as the tokens they become).
        if !x.eq_ignoring_spans(y) {
            return Ok(None);
        }
        let (a, at) = self.tr(x, path)?;
        if at != T::Int {
            return Ok(None);
        }
        let (lo, hi, a) = (int_lit(*lo as i128), int_lit(*hi as i128), a.unary());
        Ok(Some(Rx::atom(match upper {
            BinOp::Le => quote!((#lo..=#hi).contains(&#a)),
            _ => quote!((#lo..#hi).contains(&#a)),
        })))
    }
}

/// Translates an expression over a decoded model (the root type's fields, value instances, enum literals) into
/// Rust that reads the model through `base` (a variable holding the root model). Returns the code and the kind of
/// value (`Int`, `Float`, `Bool`, `Str`, `Bytes`, `Array(..)`, `User(..)`). Used by tools that check decoded
/// files against expectations, such as Kaitai's conformance suite.
pub fn translate_model_expr(m: &Module, base: &str, src: &str) -> Result<(String, String), String> {
    let mut e = crate::expr::parse(src).map_err(|e| e.message)?;
    crate::check::annotate(m, 0, &mut e, true)?;
    let b: TokenStream = base.parse().map_err(|_| format!("bad base '{base}'"))?;
    let mut cx = Cx {
        m,
        last_t: None,
        base: Some(Rx::atom(b.clone())),
        ty: 0,
        scope: Scope::Model,
        depth: 0,
        reading: false,
        slots: None,
        exits: false,
        args_of: None,
        index: None,
        root: Some(Rx::atom(b)),
        outer: Vec::new(),
        own: None,
        gen: None,
    };
    let (t, ty) = cx.tr(&e, "/").map_err(|e| e.message)?;
    Ok((t.full().to_string(), format!("{ty:?}")))
}

/// Whether `x` is a string literal (a `&'static str`).
fn is_str_literal(x: &Rx) -> bool {
    let mut it = x.full().into_iter();
    matches!(
        (it.next(), it.next()),
        (Some(proc_macro2::TokenTree::Literal(l)), None) if l.to_string().starts_with('"')
    )
}

/// Whether a type is an array of numbers, booleans, strings or bytes, or of such arrays.
fn plain_array(t: &crate::expr::Ty) -> bool {
    use crate::expr::Ty;
    match t {
        Ty::Array(inner) => match &**inner {
            Ty::Int { .. } | Ty::Float | Ty::Bool | Ty::Str | Ty::Bytes => true,
            a @ Ty::Array(_) => plain_array(a),
            _ => false,
        },
        _ => false,
    }
}
