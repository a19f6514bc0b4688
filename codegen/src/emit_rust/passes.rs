//! The emitter's own passes over the IR, run once before anything is generated: `implicit_params` (the outer
//! values each type needs), the expressions that name a field's `_pos`, and `recursive_fields` (the fields that
//! are boxed).

use super::*;
use crate::ir::EndianSpec;

/// Every expression of a type, with its YAML path.
pub(super) fn exprs_of(t: &TypeDef) -> Vec<&Expr> {
    exprs_where(t, |_| true)
}

/// The expressions of a type, of the value instances `value` keeps (and every other).
fn exprs_where(t: &TypeDef, value: impl Fn(&Field) -> bool) -> Vec<&Expr> {
    let mut out = Vec::new();
    if let EndianSpec::Switch { on, .. } = &t.endian {
        out.push(&on.expr);
    }
    for f in t.seq.iter().chain(t.instances.iter()) {
        // (A value instance's expressions, its condition too, only where `value` takes it.)
        if f.value().is_some() && !value(f) {
            continue;
        }
        for x in [
            f.size.as_ref(),
            f.cond.as_ref(),
            f.pos_expr(),
            f.value(),
            f.sort_by.as_ref(),
        ]
        .into_iter()
        .flatten()
        {
            out.push(&x.expr);
        }
        match &f.repeat {
            Repeat::Expr(x) | Repeat::Until(x) => out.push(&x.expr),
            _ => {}
        }
        if let Role::Derive(x) = &f.role {
            out.push(&x.expr);
        }
        // `valid` checks may name outer values too (`max: _root.header.len_file`).
        out.extend(valid_exprs(f));
        match &f.ty {
            FieldTy::User { args, .. } => out.extend(args.iter().map(|a| &a.expr)),
            FieldTy::Switch { on, .. } => out.push(&on.expr),
            _ => {}
        }
    }
    out
}

/// The expressions of a field's `valid` check.
pub(super) fn valid_exprs(f: &Field) -> Vec<&Expr> {
    match &f.valid {
        Some(crate::ir::Valid::Eq(x) | crate::ir::Valid::Min(x) | crate::ir::Valid::Max(x))
        | Some(crate::ir::Valid::Expr(x)) => vec![&x.expr],
        Some(crate::ir::Valid::Range(lo, hi)) => {
            lo.iter().chain(hi.iter()).map(|x| &x.expr).collect()
        }
        Some(crate::ir::Valid::AnyOf(xs)) => xs.iter().map(|x| &x.expr).collect(),
        Some(crate::ir::Valid::InEnum) | None => Vec::new(),
    }
}

pub(super) fn collect_chains(e: &Expr, out: &mut BTreeSet<Vec<String>>) {
    if let Some(c) = chain_of(e) {
        // (`_root.header._sizeof` is a number known without reading: nothing is passed down for it.)
        if c.last().is_some_and(|l| l == "_sizeof") {
            return;
        }
        if c.len() >= 2 {
            out.insert(c);
            return;
        }
    }
    for c in crate::ir::children(e) {
        collect_chains(c, out);
    }
}

impl super::Gen<'_> {
    /// Whether some expression asks where the content before an item ends (`x._before`): reading then keeps the
    /// end of every item (`ReadPools::track_ends`), which the statement this gives asks for where it is needed.
    pub(super) fn track_ends(&self) -> proc_macro2::TokenStream {
        let asked = self.pos_refs.iter().any(|(&ti, s)| {
            let t = &self.m.types[ti];
            (t.seq.iter().chain(&t.instances)).any(|f| s.contains(&before_slot(&f.name)))
        });
        if asked {
            quote::quote!(pools.track_ends();)
        } else {
            quote::quote!()
        }
    }

    /// Whether an expression of type `ti` asks where the content before its item `name` ends (`name._before`).
    pub(super) fn asks_before(&self, ti: usize, name: &str) -> bool {
        self.pos_refs
            .get(&ti)
            .is_some_and(|s| s.contains(&before_slot(name)))
    }
}

/// The slot that records where the content before item `name` ends (`name._before`).
pub(super) fn before_slot(name: &str) -> String {
    format!("{name}__before")
}

pub(super) fn collect_pos_refs(
    e: &Expr,
    ty: usize,
    out: &mut BTreeMap<usize, BTreeSet<String>>,
    lens: &mut BTreeMap<usize, BTreeSet<String>>,
) {
    if let ExprKind::Attr { base, name, .. } = &e.kind {
        if let (ExprKind::Name(b), "_pos" | "_len") = (&base.kind, name.as_str()) {
            out.entry(ty).or_default().insert(b.clone());
        }
        // (`x._len`: the instances whose length is asked, besides their slot.)
        if let (ExprKind::Name(b), "_len") = (&base.kind, name.as_str()) {
            lens.entry(ty).or_default().insert(b.clone());
        }
        // (`x._before`: where the content before `x` ends, a slot of its own.)
        if let (ExprKind::Name(b), "_before") = (&base.kind, name.as_str()) {
            let refs = out.entry(ty).or_default();
            refs.insert(b.clone());
            refs.insert(before_slot(b));
        }
    }
    for c in crate::ir::children(e) {
        collect_pos_refs(c, ty, out, lens);
    }
}

/// Types that a type reads directly, with what each has as its `_parent` (`parent:`).
fn children(t: &TypeDef) -> Vec<(usize, crate::ir::ParentRef)> {
    let mut out = Vec::new();
    for f in t.seq.iter().chain(t.instances.iter()) {
        match &f.ty {
            FieldTy::User { ty, .. } => out.push((*ty, f.parent)),
            FieldTy::Switch { cases, .. } => {
                out.extend(cases.iter().filter_map(|c| c.user()).map(|c| (c, f.parent)))
            }
            _ => {}
        }
    }
    out
}

/// The part of an outer chain that names a field: the chain itself, or without a last step that is a member of
/// the field before it (`Module::member_of_outer_field`).
pub(super) fn field_of_chain(m: &Module, ti: usize, c: Vec<String>) -> Vec<String> {
    if m.member_of_outer_field(ti, &c) {
        c[..c.len() - 1].to_vec()
    } else {
        c
    }
}

/// Whether type `ti` resolves the outer chain `c` itself (it is the root, or the type the root reads as the
/// chain's field).
pub(super) fn resolves(m: &Module, ti: usize, c: &[String]) -> bool {
    (c[0] == "_root" && m.root_of(ti) == ti) || m.is_own_root_chain(ti, c)
}

/// A chain of a type read with `parent`, as its reader `caller` needs it passed: `None` where the caller resolves
/// it itself (or nothing of the parent is passed).
pub(super) fn to_caller(
    m: &Module,
    caller: usize,
    parent: crate::ir::ParentRef,
    k: &[String],
) -> Option<Vec<String>> {
    match k[0].as_str() {
        "_root" if !resolves(m, caller, k) => Some(k.to_vec()),
        "_parent" => match parent {
            crate::ir::ParentRef::Nothing => None,
            crate::ir::ParentRef::ReadersParent => Some(k.to_vec()),
            crate::ir::ParentRef::Reader => {
                (k.get(1).is_some_and(|p| p == "_parent")).then(|| k[1..].to_vec())
            }
        },
        _ => None,
    }
}

/// Pass `implicit_params`: the outer values each type needs, as `_root...`/`_parent...` chains.
pub(super) fn implicit_params(m: &Module) -> Vec<BTreeSet<Vec<String>>> {
    outer_values(m, false)
}

/// The outer values each type's writer needs ([`implicit_params`] without those that only a `-data` instance's
/// `value` names, which only reading computes: the writer keeps the model's value). Where the writer passes a
/// record a value that is not among them, it passes the value's default: the value may be one only reading knows
/// (a pointer read through a `-view` instance, from which a kept offset is counted).
pub(super) fn write_params(m: &Module) -> Vec<BTreeSet<Vec<String>>> {
    outer_values(m, true)
}

/// [`implicit_params`], or with `writing` [`write_params`].
fn outer_values(m: &Module, writing: bool) -> Vec<BTreeSet<Vec<String>>> {
    let needed = needed_values(m);
    let mut direct: Vec<BTreeSet<Vec<String>>> = m
        .types
        .iter()
        .enumerate()
        .map(|(ti, t)| {
            let mut s = BTreeSet::new();
            // (A value instance that nothing read or written names, for the model's users alone, needs nothing
            // passed down: an expression over the whole tree reaches `_root` itself.)
            for e in exprs_where(t, |f| {
                is_needed(&needed, ti, &f.name) && !(writing && f.data)
            }) {
                collect_chains(e, &mut s);
            }
            // `_parent.items.size`: the outer value is the field, `.size` is taken of it here.
            s.into_iter().map(|c| field_of_chain(m, ti, c)).collect()
        })
        .collect();
    // The root resolves `_root` chains itself, and so does a type the root reads as its field `a` for
    // `_root.a.x` (its own `x`, see `Module::root_alias`); constants fold.
    for (i, s) in direct.iter_mut().enumerate() {
        s.retain(|c| !resolves(m, i, c));
    }
    loop {
        let mut changed = false;
        for ti in 0..m.types.len() {
            for (c, parent) in children(&m.types[ti]) {
                // `_root.x` is passed down from the root; `_parent._parent.x` is `_parent.x` in the parent. A
                // record read with `parent: false` gets nothing of its parent (its values are defaults); one read
                // with `parent: _parent` has the reader's parent as its own: `_parent.x` is `_parent.x` here.
                let needs: Vec<Vec<String>> = direct[c]
                    .iter()
                    .filter_map(|k| to_caller(m, ti, parent, k))
                    .collect();
                for k in needs {
                    changed |= direct[ti].insert(k);
                }
            }
        }
        if !changed {
            break;
        }
    }
    direct
}

/// Fields (by YAML path) whose unrepeated user type, or one of whose switch cases, can contain the field's own
/// type again: these are boxed.
pub(super) fn recursive_fields(m: &Module) -> BTreeSet<String> {
    let graph = crate::ir::types_graph(&m.types, true);
    let mut out = BTreeSet::new();
    for (ti, t) in m.types.iter().enumerate() {
        for f in t.seq.iter().chain(t.instances.iter()) {
            if f.repeat == Repeat::None && crate::ir::reaches_type(&graph, &f.ty, ti) {
                out.insert(f.path.clone());
            }
        }
    }
    out
}

/// The value instances that reading or writing may compute, as (type, name): named by an expression that is not
/// a value instance's, or by one of those instances, and so on. A member of a value whose type the checker did not
/// tell is taken in every type (`usize::MAX`).
fn needed_values(m: &Module) -> BTreeSet<(usize, String)> {
    fn names(m: &Module, ti: usize, e: &Expr, out: &mut BTreeSet<(usize, String)>) {
        match &e.kind {
            ExprKind::Name(n) => {
                out.insert((ti, n.clone()));
            }
            ExprKind::Attr { base, name, .. } => {
                let owner = match base.ty.as_deref() {
                    Some(crate::expr::Ty::User(path)) => m.type_by_path(path),
                    _ => None,
                };
                out.insert((owner.unwrap_or(usize::MAX), name.clone()));
            }
            _ => {}
        }
        for c in crate::ir::children(e) {
            names(m, ti, c, out);
        }
    }
    let mut needed = BTreeSet::new();
    for (ti, t) in m.types.iter().enumerate() {
        for e in exprs_where(t, |_| false) {
            names(m, ti, e, &mut needed);
        }
    }
    for (_, x) in &m.info.summary {
        names(m, 0, &x.expr, &mut needed);
    }
    if let Some(x) = &m.info.version {
        names(m, 0, &x.expr, &mut needed);
    }
    loop {
        let mut more = BTreeSet::new();
        for (ti, t) in m.types.iter().enumerate() {
            for f in &t.instances {
                if !is_needed(&needed, ti, &f.name) {
                    continue;
                }
                if let Some(v) = f.value() {
                    names(m, ti, &v.expr, &mut more);
                    if let Some(c) = &f.cond {
                        names(m, ti, &c.expr, &mut more);
                    }
                }
            }
        }
        let before = needed.len();
        needed.extend(more);
        if needed.len() == before {
            return needed;
        }
    }
}

/// Whether [`needed_values`] holds the value instance `name` of type `ti`.
fn is_needed(needed: &BTreeSet<(usize, String)>, ti: usize, name: &str) -> bool {
    needed.contains(&(ti, name.to_string())) || needed.contains(&(usize::MAX, name.to_string()))
}

/// Whether `ti` is the top-level type of an imported schema whose types use `_root._io`: in them, `_root` is that
/// type's record, so `_root._io` is its stream (where it was read from, or written into), not the file's.
pub(super) fn own_root_io(m: &Module, ti: usize) -> bool {
    ti != 0
        && m.root_of(ti) == ti
        && m.types.iter().enumerate().any(|(j, t)| {
            m.root_of(j) == ti
                && exprs_of(t)
                    .into_iter()
                    .chain(t.instances.iter().filter_map(|f| f.io()).map(|x| &x.expr))
                    .any(|e| {
                        let mut chains = BTreeSet::new();
                        collect_chains(e, &mut chains);
                        chains
                            .iter()
                            .any(|c| c.len() >= 2 && c[0] == "_root" && c[1] == "_io")
                    })
        })
}

/// The pool items that an expression names from outside their type (`holder.item._pos`, `._len`: BFRES's
/// relocation table's sections, from the root), by their type and name: their reader notes where they are
/// (`ReadPools::note_named`), for the reader of that expression. The holder's type is the one the `typecheck`
/// pass stored (`_root`: the root).
pub(super) fn collect_named_items(
    m: &Module,
    e: &Expr,
    ti: usize,
    out: &mut BTreeSet<(usize, String)>,
) {
    if let ExprKind::Attr { base, name, .. } = &e.kind {
        if let (
            ExprKind::Attr {
                base: holder,
                name: inst,
                ..
            },
            "_pos" | "_len",
        ) = (&base.kind, name.as_str())
        {
            let owner = holder_type(m, ti, holder);
            if let Some(o) = owner {
                if m.types[o]
                    .instances
                    .iter()
                    .any(|f| f.name == *inst && f.item_of.is_some())
                {
                    out.insert((o, inst.clone()));
                }
            }
        }
    }
    for c in crate::ir::children(e) {
        collect_named_items(m, c, ti, out);
    }
}

/// The user type of `e`, an expression of type `ti` made of names, attributes, subscripts and casts
/// (`body.as<res_file_v8>.embed_files[0]`), where it has one.
fn holder_type(m: &Module, ti: usize, e: &Expr) -> Option<usize> {
    let field_type = |t: usize, name: &str| -> Option<usize> {
        let f = m.types[t]
            .seq
            .iter()
            .chain(m.types[t].instances.iter())
            .find(|f| f.name == name)?;
        match &f.ty {
            FieldTy::User { ty, .. } => Some(*ty),
            _ => None,
        }
    };
    match &e.kind {
        ExprKind::Name(x) if x == "_root" => Some(m.root_of(ti)),
        ExprKind::Name(x) => field_type(ti, x),
        ExprKind::Attr { base, name, .. } => field_type(holder_type(m, ti, base)?, name),
        ExprKind::Index { base, .. } => holder_type(m, ti, base),
        ExprKind::Cast { ty, .. } if !ty.array => m.find_type(ti, &ty.path.join("::")),
        _ => None,
    }
}
