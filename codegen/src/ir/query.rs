//! Questions that passes and emitters ask of IR expressions (the names they use, whether they are constants or
//! can be solved for a name) and of the graph of which type reads which.

use std::collections::BTreeSet;

use crate::expr::{self, BinOp, Expr, ExprKind};

use super::{FieldTy, Repeat, TypeDef};

/// The repetitions a derived count is the length of (its own, then the alternatives), where every one of them has
/// a condition and the count has none: where all are absent, the count's value is in no repetition, so the model
/// keeps a file's nonzero value as an override (`Option`) instead of losing it (BFRES's shader option count, whose
/// index array may be null). `None` for every other field.
pub fn count_kept_where_absent<'a>(
    t: &'a TypeDef,
    f: &super::Field,
) -> Option<Vec<&'a super::Field>> {
    let super::Role::Count { of, alt } = &f.role else {
        return None;
    };
    let reps: Vec<&super::Field> = std::iter::once(of)
        .chain(alt)
        .map(|x| t.field(*x))
        .collect();
    (f.cond.is_none() && reps.iter().all(|r| r.cond.is_some())).then_some(reps)
}

/// Whether offset `offset` of type `t`, whose item is `item`, is kept in the model where the item is absent (its
/// condition does not hold) and the file's offset is not the 0 the writer writes there: an unconditional offset of
/// a conditional pool item (BFRES files rewritten by another tool keep dictionary keys that point into the file
/// header, where the key is not read). Not a section of a region of `t`'s own: one that is absent gets offset 0,
/// which is what its condition reads as absent.
pub fn keeps_absent_offset(t: &TypeDef, offset: &super::Field, item: &super::Field) -> bool {
    let section = item.item_of.is_some_and(|p| {
        t.seq
            .iter()
            .any(|r| matches!(&r.role, super::Role::Pool(u) if u.pool == p))
    });
    offset.cond.is_none() && item.item_of.is_some() && item.cond.is_some() && !section
}

/// Whether pool item `item` of type `t` has a condition that names its own offset: a guard on where the offset
/// points (nn::util's dictionary keys, read only where the pointer is past the string pool's start). The writer
/// derives the offset from the item's presence, so the condition says nothing of a model: it is not checked when
/// writing.
pub fn guards_own_offset(t: &TypeDef, item: &super::Field) -> bool {
    let Some(c) = &item.cond else {
        return false;
    };
    let mut used = BTreeSet::new();
    names_used(&c.expr, &mut used);
    t.seq.iter().any(|f| {
        matches!(&f.role, super::Role::Offset { of } if t.field(*of).name == item.name)
            && used.contains(&f.name)
    })
}

/// Whether type `t`'s parameter `p` is named in the conditions of [`guards_own_offset`] items and nowhere else: the
/// writer needs no value for it (a dictionary node's first key, which the dictionary passes from a derived pointer).
pub fn param_only_in_guards(t: &TypeDef, p: &str) -> bool {
    let mut rest = t.clone();
    let mut in_guard = false;
    for (f, g) in rest.instances.iter_mut().zip(&t.instances) {
        if let Some(c) = f.cond.take_if(|_| guards_own_offset(t, g)) {
            let mut used = BTreeSet::new();
            names_used(&c.expr, &mut used);
            in_guard |= used.contains(p);
        }
    }
    if !in_guard {
        return false;
    }
    let mut used = BTreeSet::new();
    for x in exprs_of_type_mut(&mut rest) {
        names_used(&x.expr, &mut used);
    }
    !used.contains(p)
}

/// Whether the writer leaves item `item`'s condition unchecked: a guard on where its own offset points
/// ([`guards_own_offset`]) that names a parameter the writer has no value for ([`param_only_in_guards`]: nn::util's
/// dictionary keys, read only from the root's key on). A condition that names an instance only read is not
/// checked either ([`super::Module::names_a_view`]). Other conditions are checked against the values written.
pub fn unchecked_guard(t: &TypeDef, item: &super::Field) -> bool {
    let Some(c) = &item.cond else {
        return false;
    };
    let mut used = BTreeSet::new();
    names_used(&c.expr, &mut used);
    guards_own_offset(t, item)
        && t.params
            .iter()
            .any(|p| used.contains(&p.name) && param_only_in_guards(t, &p.name))
}

/// If the expression is a bare name, that name.
pub fn bare_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Name(n) => Some(n),
        _ => None,
    }
}

pub use crate::expr::children;

/// Every bare name the expression uses at its top level (not attributes of other values).
pub fn names_used(e: &Expr, out: &mut BTreeSet<String>) {
    if let ExprKind::Name(n) = &e.kind {
        out.insert(n.clone());
    }
    for c in children(e) {
        names_used(c, out);
    }
}

/// Whether `e` is linear in `name` (appears once, under + - and multiplication by a constant), so that it can
/// be solved for it.
pub fn solvable_for(e: &Expr, name: &str) -> bool {
    fn count(e: &Expr, name: &str) -> usize {
        let mut s = BTreeSet::new();
        names_used(e, &mut s);
        match &e.kind {
            ExprKind::Name(n) if n == name => 1,
            ExprKind::Binary { lhs, rhs, .. } => count(lhs, name) + count(rhs, name),
            _ => usize::from(s.contains(name)) * 2,
        }
    }
    fn ok(e: &Expr, name: &str) -> bool {
        match &e.kind {
            ExprKind::Name(n) => n == name,
            ExprKind::Binary {
                op: BinOp::Add | BinOp::Sub,
                lhs,
                rhs,
            } => {
                let mut l = BTreeSet::new();
                names_used(lhs, &mut l);
                if l.contains(name) {
                    ok(lhs, name)
                } else {
                    ok(rhs, name)
                }
            }
            ExprKind::Binary {
                op: BinOp::Mul,
                lhs,
                rhs,
            } => {
                let mut l = BTreeSet::new();
                names_used(lhs, &mut l);
                if l.contains(name) {
                    matches!(rhs.kind, ExprKind::Int(_)) && ok(lhs, name)
                } else {
                    matches!(lhs.kind, ExprKind::Int(_)) && ok(rhs, name)
                }
            }
            _ => false,
        }
    }
    count(e, name) == 1 && ok(e, name)
}

/// `e` solved for `unknown` where `e` equals `rhs`, for sums and differences (`count + 1 = n` gives `n - 1`).
/// `None` where `e` is not of that form.
pub fn invert(e: &Expr, unknown: &str, rhs: Expr) -> Option<Expr> {
    // (A sum or difference of integers: `e` is a count's expression, which the checker requires to be one.)
    let bin = |op, lhs: Expr, rhs: Expr| Expr {
        kind: ExprKind::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        span: Default::default(),
        ty: Some(Box::new(crate::expr::Ty::CALC_INT)),
    };
    match &e.kind {
        ExprKind::Name(n) if n == unknown => Some(rhs),
        ExprKind::Binary { op, lhs, rhs: r } => {
            let mut l = BTreeSet::new();
            names_used(lhs, &mut l);
            let (inner, other) = if l.contains(unknown) {
                (lhs, r)
            } else {
                (r, lhs)
            };
            let left = l.contains(unknown);
            let other = (**other).clone();
            let rhs = match (op, left) {
                (BinOp::Add, _) => bin(BinOp::Sub, rhs, other),
                (BinOp::Sub, true) => bin(BinOp::Add, rhs, other),
                (BinOp::Sub, false) => bin(BinOp::Sub, other, rhs),
                // (Not `*`: a length that is no multiple would be rounded, and read back otherwise.)
                _ => return None,
            };
            invert(inner, unknown, rhs)
        }
        _ => None,
    }
}

/// The expression that gives the count field `count` from the length of the repetition `of` whose `repeat-expr`
/// is `x` (linear in `count`, as `count + 1`): `of.size - 1`.
pub fn count_from_len(x: &Expr, count: &str, of: &str) -> Option<Expr> {
    let size = Expr {
        kind: ExprKind::Attr {
            base: Box::new(Expr {
                kind: ExprKind::Name(of.to_string()),
                span: Default::default(),
                ty: None,
            }),
            name: "size".into(),
            name_span: Default::default(),
        },
        span: Default::default(),
        ty: Some(Box::new(crate::expr::Ty::CALC_INT)),
    };
    invert(x, count, size)
}

/// The part of a dictionary node that `e` is, where `e` is `_dic.ref_bit`, `_dic.left` or `_dic.right` (the
/// `-derive` of a `-resdic` node's field).
pub fn dic_part(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Attr { base, name, .. }
            if matches!(&base.kind, ExprKind::Name(b) if b == "_dic")
                && matches!(name.as_str(), "ref_bit" | "left" | "right") =>
        {
            Some(name)
        }
        _ => None,
    }
}

/// What a block chain's field derives from (see `binspec_runtime::layout::chain`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainPart {
    /// `_chain.next`: the distance from the record's start to the next record of the chain's, 0 for the last.
    Next,
    /// `_chain.size`: the same, and for the last record the distance to where the chain ends (the position of the
    /// instance marked `-chain-end`).
    Size,
}

/// The part of a block chain that `e` is, where `e` is `_chain.next` or `_chain.size` (the whole `-derive` of a
/// chain's field).
pub fn chain_part(e: &Expr) -> Option<ChainPart> {
    match &e.kind {
        ExprKind::Attr { base, name, .. } if matches!(&base.kind, ExprKind::Name(n) if n == "_chain") => {
            match name.as_str() {
                "next" => Some(ChainPart::Next),
                "size" => Some(ChainPart::Size),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether records of `t` are of the block chain: a field of it derives from `_chain` ([`chain_part`]).
pub fn chain_record(t: &super::TypeDef) -> bool {
    t.seq
        .iter()
        .any(|f| matches!(&f.role, super::Role::Derive(x) if chain_part(&x.expr).is_some()))
}

/// An integer constant, if the expression is one.
pub fn const_int(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::Int(i) => Some(*i as i128),
        ExprKind::Unary {
            op: expr::UnOp::Neg,
            expr,
        } => const_int(expr).map(|v| -v),
        _ => None,
    }
}

/// For each type, the user types its fields and instances read (with `inline_only`, not those in a `Vec`).
pub fn types_graph(types: &[TypeDef], inline_only: bool) -> Vec<Vec<usize>> {
    types
        .iter()
        .map(|t| {
            let mut out = Vec::new();
            for f in t.seq.iter().chain(t.instances.iter()) {
                if inline_only && f.repeat != Repeat::None {
                    continue;
                }
                match &f.ty {
                    FieldTy::User { ty, .. } => out.push(*ty),
                    FieldTy::Switch { cases, .. } => {
                        out.extend(cases.iter().filter_map(|c| c.user()))
                    }
                    _ => {}
                }
            }
            out
        })
        .collect()
}

/// Whether a field of type `ty` can lead back to type `to`.
pub fn reaches_type(graph: &[Vec<usize>], ty: &FieldTy, to: usize) -> bool {
    types_reached(graph, ty).contains(&to)
}

/// The types a field of type `ty` holds records of, directly or through records inside them (`graph`:
/// [`types_graph`]), each once.
pub fn types_reached(graph: &[Vec<usize>], ty: &FieldTy) -> Vec<usize> {
    let starts: Vec<usize> = match ty {
        FieldTy::User { ty, .. } => vec![*ty],
        FieldTy::Switch { cases, .. } => cases.iter().filter_map(|c| c.user()).collect(),
        _ => return Vec::new(),
    };
    types_reached_from(graph, starts)
}

/// The types `starts` are and hold records of, directly or through records inside them (`graph`:
/// [`types_graph`]), each once.
pub fn types_reached_from(graph: &[Vec<usize>], mut stack: Vec<usize>) -> Vec<usize> {
    let mut seen = vec![false; graph.len()];
    let mut out = Vec::new();
    while let Some(t) = stack.pop() {
        if t < seen.len() && !std::mem::replace(&mut seen[t], true) {
            out.push(t);
            stack.extend(graph[t].iter().copied());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A count solved from its repetition's length: sums and differences only.
    #[test]
    fn counts_from_lengths() {
        let cases = [
            ("count + 1", Some("xs.size - 1")),
            ("count - 2", Some("xs.size + 2")),
            ("3 + count", Some("xs.size - 3")),
            ("10 - count", Some("10 - xs.size")),
            ("count + 1 + 1", Some("xs.size - 1 - 1")),
            ("count * 2", None),
            ("count / 2", None),
        ];
        for (src, want) in cases {
            let e = crate::expr::parse(src).unwrap();
            let got = count_from_len(&e, "count", "xs").map(|x| x.to_string());
            assert_eq!(got.as_deref(), want, "{src}");
        }
    }
}

/// A member of a pool region whose order is a layout choice ([`region_members`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberRef {
    /// A section: the region type's instance with this index, an item of the pool.
    Section(usize),
    /// A group: the items of instance `.1` of type `.0` (another type).
    Group(usize, usize),
}

impl MemberRef {
    /// The instance it is (of the region type `region_type` for a section).
    pub fn field(self, m: &super::Module, region_type: usize) -> &super::Field {
        match self {
            MemberRef::Section(i) => &m.types[region_type].instances[i],
            MemberRef::Group(t, i) => &m.types[t].instances[i],
        }
    }
    /// Its name in `<region>_order` and in the pool's `order`: a section's, or `type.instance` for a group.
    pub fn name(self, m: &super::Module, region_type: usize) -> String {
        match self {
            MemberRef::Section(i) => m.types[region_type].instances[i].name.clone(),
            MemberRef::Group(t, i) => {
                format!("{}.{}", m.types[t].name, m.types[t].instances[i].name)
            }
        }
    }
}

/// The members of the region of type `ti` for `pool` whose order is a layout choice, in their default order: the
/// pool's `order` names first, then the sections (the items `ti` declares) and the groups (the items of each
/// instance of another type in the pool) it does not name, as declared. `None` where the order is no layout
/// choice: a deduplicating pool, a pool that keeps its items' order (where every item is one), a type that is not the pool's region or declares no section, or fewer than two
/// members. Names of `order` that are no member are left out here (the `classify` pass reports them).
pub fn region_members(m: &super::Module, ti: usize, pool: usize) -> Option<Vec<MemberRef>> {
    let t = &m.types[ti];
    if m.pools[pool].dedup
        || m.pools[pool].keep_order
        || !t
            .seq
            .iter()
            .any(|f| matches!(&f.role, super::Role::Pool(u) if u.pool == pool))
    {
        return None;
    }
    let mut declared: Vec<MemberRef> = t
        .instances
        .iter()
        .enumerate()
        .filter(|(_, f)| f.item_of == Some(pool))
        .map(|(i, _)| MemberRef::Section(i))
        .collect();
    if declared.is_empty() {
        return None;
    }
    for (tj, u) in m.types.iter().enumerate() {
        if tj != ti {
            declared.extend(
                u.instances
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| f.item_of == Some(pool))
                    .map(|(i, _)| MemberRef::Group(tj, i)),
            );
        }
    }
    if declared.len() < 2 {
        return None;
    }
    let mut out = Vec::with_capacity(declared.len());
    for name in &m.pools[pool].order {
        if let Some(k) = declared.iter().position(|x| x.name(m, ti) == *name) {
            out.push(declared.remove(k));
        }
    }
    out.extend(declared);
    Some(out)
}

/// The ranks a keep-order pool's `order` gives its items, by the instances that declare them: (type, instance
/// index, rank from 1), the items of the instances it names (an instance of the region's type by its name, any
/// other as `type.instance`), which a new file has after the others, in that order. Empty for another pool, or
/// one without `order`. The names that are no such instance are left out (`check_pool_order` reports them).
pub fn keep_order_ranks(m: &super::Module, pool: usize) -> Vec<(usize, usize, u32)> {
    let p = &m.pools[pool];
    if !p.keep_order || p.order.is_empty() {
        return Vec::new();
    }
    let candidates = keep_order_items(m, pool);
    let mut out = Vec::new();
    for (r, name) in p.order.iter().enumerate() {
        if let Some(&(t, i, _)) = candidates.iter().find(|c| c.2 == *name) {
            out.push((t, i, r as u32 + 1));
        }
    }
    out
}

/// The instances whose items a keep-order pool holds, with their names as its `order` names them: (type,
/// instance index, name).
pub fn keep_order_items(m: &super::Module, pool: usize) -> Vec<(usize, usize, String)> {
    let region = m.types.iter().position(|t| {
        t.seq
            .iter()
            .any(|f| matches!(&f.role, super::Role::Pool(u) if u.pool == pool))
    });
    let mut out = Vec::new();
    for (ti, t) in m.types.iter().enumerate() {
        for (i, f) in t.instances.iter().enumerate() {
            if f.item_of == Some(pool) {
                let name = if Some(ti) == region {
                    f.name.clone()
                } else {
                    format!("{}.{}", t.name, f.name)
                };
                out.push((ti, i, name));
            }
        }
    }
    out
}

/// Every expression of the module that the `typecheck` pass checks, mutably (for it to store their types): each
/// type's byte-order switch, and each field's condition, size, position, stream, value, `-derive`, `-default`,
/// `-sort-by`, `-relocations` region, repetition, arguments, switch (its subject, cases' keys and arguments),
/// `valid` and `process` key.
pub fn exprs_mut(m: &mut super::Module) -> Vec<&mut super::Ex> {
    m.types.iter_mut().flat_map(exprs_of_type_mut).collect()
}

/// [`exprs_mut`] of one type.
pub fn exprs_of_type_mut(t: &mut super::TypeDef) -> Vec<&mut super::Ex> {
    use super::{FieldKind, Process, Role, Valid};
    let mut out = Vec::new();
    {
        if let super::EndianSpec::Switch { on, cases } = &mut t.endian {
            out.push(&mut **on);
            out.extend(cases.iter_mut().map(|(k, _)| k));
        }
        for f in t.seq.iter_mut().chain(t.instances.iter_mut()) {
            out.extend(f.cond.as_mut());
            out.extend(f.size.as_mut());
            match &mut f.kind {
                FieldKind::Attr => {}
                FieldKind::Parse { pos, io } => {
                    out.extend(pos.as_mut().into_iter().chain(io.as_mut()))
                }
                FieldKind::Value(v) => out.push(v),
            }
            if let Role::Derive(x) = &mut f.role {
                out.push(x);
            }
            out.extend(f.default.as_mut());
            out.extend(f.sort_by.as_mut());
            if let Some(r) = &mut f.relocations {
                out.extend(r.from.as_mut().into_iter().chain(r.size.as_mut()));
            }
            match &mut f.repeat {
                Repeat::Expr(x) | Repeat::Until(x) => out.push(x),
                Repeat::None | Repeat::Eos => {}
            }
            match &mut f.ty {
                FieldTy::User { args, .. } => out.extend(args.iter_mut()),
                FieldTy::Switch { on, cases } => {
                    out.push(on);
                    for c in cases {
                        out.extend(c.key.as_mut());
                        out.extend(c.args.iter_mut());
                    }
                }
                _ => {}
            }
            match &mut f.valid {
                Some(Valid::Eq(x) | Valid::Min(x) | Valid::Max(x) | Valid::Expr(x)) => out.push(x),
                Some(Valid::Range(a, b)) => out.extend(a.as_mut().into_iter().chain(b.as_mut())),
                Some(Valid::AnyOf(xs)) => out.extend(xs.iter_mut()),
                Some(Valid::InEnum) | None => {}
            }
            match &mut f.process {
                Some(Process::Xor(x) | Process::Rol(x) | Process::Ror(x)) => out.push(x),
                Some(Process::Custom { args, .. }) => out.extend(args.iter_mut()),
                Some(Process::Zlib) | None => {}
            }
        }
    }
    out
}

/// Whether `e` looks at the stream's position (`_io.pos`). (`_io.eof` too depends on it, but a writer does not
/// know it, what follows being still to write: a value instance of it is left to be computed where it is named,
/// and the model decides what it decides.)
pub fn reads_position(e: &Expr) -> bool {
    if let ExprKind::Attr { base, name, .. } = &e.kind {
        if matches!(&base.kind, ExprKind::Name(b) if b == "_io") && name == "pos" {
            return true;
        }
    }
    expr::children(e).into_iter().any(reads_position)
}

impl super::Module {
    /// The record type of a deduplicating pool of records: its region is a repetition of that type (nn::util's
    /// string pool, a count of NW strings), and its items are records of it, each encoded by the type's writer and
    /// stored once. `None` for a pool of strings (`strz`) and a pool that does not deduplicate.
    pub fn dedup_records(&self, pool: usize) -> Option<usize> {
        if !self.pools.get(pool)?.dedup {
            return None;
        }
        let region = self
            .types
            .iter()
            .flat_map(|t| t.seq.iter())
            .find(|f| matches!(&f.role, super::Role::Pool(u) if u.pool == pool))?;
        match (&region.ty, &region.repeat) {
            (FieldTy::User { ty, .. }, Repeat::Expr(_) | Repeat::Eos | Repeat::Until(_)) => {
                Some(*ty)
            }
            _ => None,
        }
    }

    /// Whether value instance `name` of type `ti` captures where the stream is (`ofs_header: value: _io.pos`):
    /// its expression looks at the position, or names another value instance of the type that does. Kaitai
    /// computes a value instance once, when first named, so such an instance holds the position where that
    /// happens (the gallery's `size: 0` / `if: ofs_header < 0` idiom saves one in the middle of a `seq`).
    pub fn captures_position(&self, ti: usize, name: &str) -> bool {
        fn go(m: &super::Module, ti: usize, name: &str, seen: &mut BTreeSet<String>) -> bool {
            if !seen.insert(name.to_string()) {
                return false;
            }
            let Some(f) = m.types[ti].instances.iter().find(|f| f.name == name) else {
                return false;
            };
            let (Some(v), None, super::Role::Computed) = (f.value(), &f.hook, &f.role) else {
                return false;
            };
            if reads_position(&v.expr) {
                return true;
            }
            let mut used = BTreeSet::new();
            names_used(&v.expr, &mut used);
            used.iter().any(|n| go(m, ti, n, seen))
        }
        go(self, ti, name, &mut BTreeSet::new())
    }

    /// The field `a` of the root through which type `ti` is read, where that is the only way it is read (its one
    /// owner is the root, and no other field of the root has its type): then `_root.a.x` inside it is its own `x`,
    /// which it has read itself where the field that needs it comes after `x` (`_root.header.len` in a child of
    /// `header` that `header` reads after `len`).
    pub fn root_alias(&self, ti: usize) -> Option<&str> {
        if ti == 0 || self.owners.get(ti).copied().flatten() != Some(0) {
            return None;
        }
        let root = &self.types[0];
        let mut fields = root
            .seq
            .iter()
            .chain(root.instances.iter())
            .filter(|f| matches!(f.ty, FieldTy::User { ty, .. } if ty == ti));
        match (fields.next(), fields.next()) {
            (Some(f), None) => Some(f.name.as_str()),
            _ => None,
        }
    }

    /// Whether the outer chain is `_root.a.x...` where `ti` is the type read as the root's field `a`
    /// ([`Self::root_alias`]): `ti` then resolves it as its own `x...`.
    pub fn is_own_root_chain(&self, ti: usize, chain: &[String]) -> bool {
        chain.len() > 2 && chain[0] == "_root" && self.root_alias(ti) == Some(chain[1].as_str())
    }

    /// The field a `_root.a.b` or `_parent(._parent)*.a.b` chain names from type `ti`, following fields of user
    /// types; `None` where a step is not a field (a member such as `.size`, `_io`, `_pos`).
    pub fn chain_field(&self, ti: usize, chain: &[String]) -> Option<&super::Field> {
        let (head, rest) = chain.split_first()?;
        let ty = match head.as_str() {
            "_root" => self.root_of(ti),
            "_parent" => self.owners[ti]?,
            _ => return None,
        };
        self.walk_fields(ty, rest.iter().map(|s| (s.as_str(), false)))
            .map(|(f, _)| f)
    }

    /// Whether the outer chain names a member of a field (`_parent.items.size`, `_root.header.name.length`): the
    /// chain itself names no field, the chain without its last step does. The field is what is passed down, and
    /// the member is taken of it where the chain is used (the `implicit_params` pass and the translator agree on
    /// this here).
    pub fn member_of_outer_field(&self, ti: usize, chain: &[String]) -> bool {
        let n = chain.len();
        n > 2
            && !chain[n - 1].starts_with('_')
            && self.chain_field(ti, chain).is_none()
            && self.chain_field(ti, &chain[..n - 1]).is_some()
    }

    /// Follows `steps` from type `ty`: each a field name (into the field's user type) or `_parent` (to the type
    /// that reads the current one), and whether one element of a repetition is taken (`a[i]`). Gives the last
    /// field and whether it is one element; `None` where a step names no field, or indexes one that is not
    /// repeated.
    pub(super) fn walk_fields<'s>(
        &self,
        mut ty: usize,
        steps: impl IntoIterator<Item = (&'s str, bool)>,
    ) -> Option<(&super::Field, bool)> {
        let mut field = None;
        for (n, indexed) in steps {
            if n == "_parent" && !indexed {
                ty = self.owners[ty]?;
                field = None;
                continue;
            }
            let t = &self.types[ty];
            let f = t
                .seq
                .iter()
                .chain(t.instances.iter())
                .find(|f| f.name == n)?;
            if indexed && f.repeat == Repeat::None {
                return None;
            }
            field = Some((f, indexed));
            if let FieldTy::User { ty: u, .. } = f.ty {
                ty = u;
            }
        }
        field
    }
}
