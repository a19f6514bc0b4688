//! The passes that run on the whole module once its fields are resolved: `owners` (the type that reads each
//! type, for `_parent`) and `classify` (each field's [`Role`]).

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::Diags;
use crate::expr::ExprKind;

use super::query::{bare_name, const_int, names_used, reaches_type, solvable_for, types_graph};
use super::ParentRef;
use super::{ConstVal, EndianSpec, Ex, FieldTy, Module, Repeat, Role, Valid};

/// Pass `classify`: decides each seq field's role.
pub(super) fn classify(m: &mut Module, diags: &mut Diags) {
    // (Which types hold records of which: classifying changes roles, not types.)
    let graph = types_graph(&m.types, false);
    for ti in 0..m.types.len() {
        let file = m.types[ti].file.clone();
        diags.in_file(&file, |diags| classify_type(m, ti, &graph, diags));
    }
    // Every pool needs exactly one region.
    for (pi, p) in m.pools.iter().enumerate() {
        let regions: Vec<_> = m
            .types
            .iter()
            .flat_map(|t| t.seq.iter().map(move |f| (t, f)))
            .filter(|(_, f)| matches!(&f.role, Role::Pool(u) if u.pool == pi))
            .collect();
        match regions.as_slice() {
            [_] => {}
            [] => diags.error(
                m.types[0].pos,
                "/",
                format!("pool '{}' needs exactly one seq attribute with '-pool: {}' to hold it, found 0", p.id, p.id),
                None,
            ),
            [(first, ff), (t, f), ..] => {
                let msg = format!(
                    "pool '{}' needs exactly one seq attribute with '-pool: {}' to hold it, found {} (the first is {} in {}); \
                     a schema and its imports share pool ids",
                    p.id,
                    p.id,
                    regions.len(),
                    ff.path,
                    first.file,
                );
                diags.in_file(&t.file, |diags| {
                    diags.error(f.pos, &f.path, msg, Some(format!("give one of them another id, e.g. '{}_{}'", t.name, p.id)))
                });
            }
        }
    }
    check_pool_order(m, diags);
    check_keep_order_declarations(m, diags);
    // `-resdic` arrays: their key is a string or bytes of the node type, always present; and a node type's
    // `_dic` values come from such an array.
    check_resdic(m, diags);
    check_chain(m, diags);
    // `-relocate` pointers and the `-relocations` entries that list them.
    super::relocations::check_relocations(m, diags);
    // A deduplicating pool holds strings (UTF-8, each ending in its terminator), or records of the type its region
    // repeats (NW strings).
    for t in &m.types {
        for f in &t.instances {
            let Some(pi) = f.item_of else { continue };
            if !m.pools[pi].dedup {
                continue;
            }
            let (ok, what) = match m.dedup_records(pi) {
                Some(rt) => (
                    matches!(&f.ty, FieldTy::User { ty, .. } if *ty == rt)
                        && f.repeat == Repeat::None,
                    format!(
                        "records of type '{}', the type its region repeats, one per item",
                        m.types[rt].name
                    ),
                ),
                None => (
                    matches!(&f.ty, FieldTy::Str { encoding, .. } if super::is_utf8(encoding))
                        && f.terminator.is_some()
                        && !f.include
                        && f.repeat == Repeat::None,
                    "UTF-8 strings with a terminator (`type: strz`, `encoding: UTF-8`), or records of the type \
                     its region repeats"
                        .to_string(),
                ),
            };
            if !ok {
                diags.in_file(&t.file, |diags| {
                    diags.error(
                        f.pos,
                        &f.path,
                        format!(
                            "items of the deduplicating pool '{}' must be {what}",
                            m.pools[pi].id
                        ),
                        None,
                    )
                });
            }
        }
    }
}

/// [`classify`] for one type.
fn classify_type(m: &mut Module, ti: usize, graph: &[Vec<usize>], diags: &mut Diags) {
    let t = m.types[ti].clone();
    let mut roles: BTreeMap<String, Role> = BTreeMap::new();
    // Counts and lengths referenced by siblings.
    for (fi, f) in t.seq.iter().chain(t.instances.iter()).enumerate() {
        // (Ids count `seq` and then `instances`, as here.)
        let here = super::FieldId(fi);
        if let Repeat::Expr(x) = &f.repeat {
            if let Some(n) = bare_name(&x.expr) {
                // The last repetition that names the count is its own; the earlier ones are alternatives.
                let mut alt = match roles.remove(n) {
                    Some(Role::Count { of, mut alt }) => {
                        alt.push(of);
                        alt
                    }
                    _ => Vec::new(),
                };
                alt.sort();
                roles.insert(n.to_string(), Role::Count { of: here, alt });
            } else if f.cond.is_none() {
                // A count the repetition's length gives through a linear expression that names nothing else
                // (`count + 1`, nn::util dictionaries' nodes).
                let mut used = BTreeSet::new();
                names_used(&x.expr, &mut used);
                if let [n] = &used.into_iter().collect::<Vec<_>>()[..] {
                    if t.seq.iter().any(|s| s.name == *n)
                        && solvable_for(&x.expr, n)
                        && super::query::count_from_len(&x.expr, n, &f.name).is_some()
                    {
                        roles.insert(
                            n.clone(),
                            Role::Count {
                                of: here,
                                alt: Vec::new(),
                            },
                        );
                    }
                }
            }
        }
        let content_sized = f.terminator.is_none()
            && f.pad_right.is_none()
            && matches!(
                f.ty,
                FieldTy::Bytes
                    | FieldTy::Str {
                        zero_terminated: false,
                        ..
                    }
            )
            && f.repeat == Repeat::None;
        // A sized record that is a pool item (a section that is a stream of its own): its length is where the
        // writer's item ends.
        let sized_item = f.item_of.is_some()
            && matches!(f.ty, FieldTy::User { .. })
            && f.repeat == Repeat::None
            && f.process.is_none();
        // A record (or a switch) in a slot of its own in sequence: its length is what the writer writes of it,
        // and the slot's bytes after what it reads are kept beside it (`Field::size_derived`).
        let record_sized = f.keeps_unread();
        if let (Some(sz), true) = (&f.size, content_sized || sized_item || record_sized) {
            if f.is_instance() && f.item_of.is_none() {
                continue;
            }
            let mut used = BTreeSet::new();
            names_used(&sz.expr, &mut used);
            // A record whose presence the size decides (`if: len > 0`, ISO 9660's directory entries): an absent
            // one does not say what the size was, so it stays data.
            let mut in_cond = BTreeSet::new();
            if let (Some(c), false) = (&f.cond, content_sized || sized_item) {
                names_used(&c.expr, &mut in_cond);
            }
            for n in used {
                if t.seq.iter().any(|s| s.name == n && s.role == Role::Data)
                    && solvable_for(&sz.expr, &n)
                    && !in_cond.contains(&n)
                {
                    roles.entry(n).or_insert(Role::Length { of: here });
                }
            }
        }
        if let (Some(p), Some(_)) = (f.pos_expr(), f.item_of) {
            let mut used = BTreeSet::new();
            names_used(&p.expr, &mut used);
            let offsets: Vec<String> = used
                .into_iter()
                .filter(|n| {
                    t.seq.iter().any(|s| s.name == *n && s.role == Role::Data)
                        && solvable_for(&p.expr, n)
                })
                .collect();
            // The writer solves the position for one field; with two, it could not tell which is the offset.
            if let [a, b, ..] = &offsets[..] {
                diags.error(
                    f.pos,
                    &f.path,
                    format!(
                        "'pos' of a pool item names two fields of this type that could be its offset, '{a}' and \
                         '{b}'; name the base through its owner ('_root.{b}' or '_parent.{b}', if '{b}' is the \
                         base) so that the other is the offset"
                    ),
                    None,
                );
            }
            for n in offsets {
                roles.insert(n, Role::Offset { of: here });
            }
        }
    }
    // Instances whose type contains their own type again are read lazily by Kaitai (or they would never end):
    // read-only views here.
    let tm = &mut m.types[ti];
    for f in tm.seq.iter_mut() {
        if let Some(c) = &f.contents {
            f.role = Role::Const(ConstVal::Bytes(c.clone()));
            continue;
        }
        if f.role != Role::Data {
            continue;
        }
        // Only a plain integer can be a constant, or derived as a count, size or offset; an optional one only
        // as the offset of an item, or the count of a repetition, with the same condition (AINB's plug names,
        // which jump plugs do not have; its 0x408 blackboard's u32 count): it is there exactly when they are.
        let plain_int = matches!(f.ty, FieldTy::Int { .. } | FieldTy::Bits { .. })
            && f.enum_.is_none()
            && f.repeat == Repeat::None;
        if let (Some(Valid::Eq(x)), true, None) = (&f.valid, plain_int, &f.cond) {
            if let Some(v) = const_int(&x.expr) {
                f.role = Role::Const(ConstVal::Int(v));
                continue;
            }
        }
        let cond_fits = |r: &Role| match (&f.cond, r) {
            (None, _) => true,
            (Some(c), Role::Offset { of } | Role::Count { of, .. }) => t
                .field(*of)
                .cond
                .as_ref()
                .is_some_and(|ic| ic.expr.eq_ignoring_spans(&c.expr)),
            _ => false,
        };
        if let (Some(r), true) = (roles.get(&f.name), plain_int) {
            if cond_fits(r) {
                f.role = r.clone();
            }
        }
    }
    let measured: Vec<usize> = tm
        .seq
        .iter()
        .filter_map(|f| match f.role {
            Role::Length { of } => Some(of.0),
            _ => None,
        })
        .collect();
    for i in measured {
        if let Some(f) = tm.seq.get_mut(i) {
            f.size_derived = f.keeps_unread();
        }
    }
    // Instances that decide the byte order or a switch's type are views: the model holds the byte order and
    // the switch's variant instead. Value instances pass this on to what they use. `-view: true` makes any
    // positioned instance one (for instance one that decides whether a field is there: the model's presence
    // decides that when writing).
    let mut views = BTreeSet::new();
    if let EndianSpec::Switch { on, .. } = &tm.endian {
        names_used(&on.expr, &mut views);
    }
    for f in tm.seq.iter() {
        if let FieldTy::Switch { on, .. } = &f.ty {
            names_used(&on.expr, &mut views);
        }
    }
    loop {
        let mut more = BTreeSet::new();
        for f in tm.instances.iter().filter(|f| views.contains(&f.name)) {
            if let Some(v) = f.value() {
                names_used(&v.expr, &mut more);
            }
        }
        let before = views.len();
        views.extend(more);
        if views.len() == before {
            break;
        }
    }
    for f in tm.instances.iter_mut() {
        f.role = if f.value().is_some() && f.data {
            Role::Kept
        } else if f.value().is_some() {
            Role::Computed
        } else if f.item_of.is_some() {
            Role::Data
        } else if views.contains(&f.name)
            || f.view
            || f.pos_expr().is_none()
            || f.io().is_some_and(|io| io.text != "_root._io")
            || passes_object(&f.ty)
            || (reaches_type(graph, &f.ty, ti) && !f.eager)
        {
            // Other streams (`_parent._io`, a field's `_io`) are not written back yet: read-only.
            Role::View
        } else {
            Role::Placed
        };
    }
    // A count, length or offset of an instance that is only read (a view: the model does not hold it) cannot be
    // derived from it: it stays data (ds_store's `num_directories`, the count of a view that reads the root's
    // stream where it is).
    let n_seq = tm.seq.len();
    let views_at: BTreeSet<usize> = tm
        .instances
        .iter()
        .enumerate()
        .filter(|(_, f)| f.role == Role::View)
        .map(|(i, _)| n_seq + i)
        .collect();
    for f in tm.seq.iter_mut() {
        if let Role::Count { of, .. } | Role::Length { of } | Role::Offset { of } = &f.role {
            if views_at.contains(&of.0) {
                f.role = Role::Data;
            }
        }
    }
    // Checks: a pool item needs a pos; a pool region needs a known pool; `-eager` needs a placed instance.
    for f in tm.instances.iter() {
        if f.eager && f.role != Role::Placed {
            diags.error(
                    f.pos,
                    &f.path,
                    "'-eager' needs an instance with 'pos' (in its own stream or '_root._io') that decides nothing \
                     else's type or byte order",
                    None,
                );
        }
        if f.item_of.is_some() && f.pos_expr().is_none() {
            diags.error(
                f.pos,
                &f.path,
                "an instance placed in a pool needs 'pos'",
                None,
            );
        }
    }
}

/// Pass `owners`: the type that reads each type, when exactly one does.
pub(super) fn owners(m: &Module) -> Vec<Option<usize>> {
    // First the readers (`parent: false` gives none), then a record whose `_parent` is its reader's own
    // (`parent: _parent`) gets that reader's owner.
    let mut users: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); m.types.len()];
    let mut grand: Vec<(usize, usize)> = Vec::new();
    for (ti, t) in m.types.iter().enumerate() {
        for f in t.seq.iter().chain(t.instances.iter()) {
            let read: Vec<usize> = match &f.ty {
                FieldTy::User { ty, .. } => vec![*ty],
                FieldTy::Switch { cases, .. } => cases.iter().filter_map(|c| c.user()).collect(),
                _ => Vec::new(),
            };
            for c in read {
                match f.parent {
                    ParentRef::Reader => {
                        users[c].insert(ti);
                    }
                    ParentRef::Nothing => {}
                    ParentRef::ReadersParent => grand.push((c, ti)),
                }
            }
        }
    }
    let single = |u: &BTreeSet<usize>| (u.len() == 1).then(|| u.iter().next().copied()).flatten();
    let first: Vec<Option<usize>> = users.iter().map(single).collect();
    // (A record whose reader has no single owner to stand for: its `_parent` is not one type.)
    let mut unowned = vec![false; m.types.len()];
    for (c, reader) in grand {
        match first[reader] {
            Some(o) => {
                users[c].insert(o);
            }
            None => unowned[c] = true,
        }
    }
    users
        .iter()
        .zip(unowned)
        .map(|(u, no)| single(u).filter(|_| !no))
        .collect()
}

/// Whether a type's arguments pass a whole object (`_root`, `_parent`, `_io`): such instances are only read
/// lazily by Kaitai, so binspec keeps them read-only for now.
fn passes_object(ty: &FieldTy) -> bool {
    // (`_index` is a number.)
    let bare =
        |a: &Ex| matches!(&a.expr.kind, ExprKind::Name(n) if n.starts_with('_') && n != "_index");
    match ty {
        FieldTy::User { args, .. } => args.iter().any(bare),
        FieldTy::Switch { cases, .. } => cases.iter().any(|c| c.args.iter().any(bare)),
        _ => false,
    }
}

/// The key of a `-resdic` array whose nodes are of type `ty`: `KEY`, a string or bytes field every node has, or
/// `RECORD.KEY`, such a field of a record of the node (unrepeated, maybe optional). `None` where the first name
/// is no field of the node type; `Some(None)` where the path names something else; else the record field (if
/// any) and the key field.
pub fn resdic_key<'m>(
    m: &'m Module,
    ty: usize,
    key: &str,
) -> Option<Option<(Option<&'m super::Field>, &'m super::Field)>> {
    let find = |t: usize, name: &str| {
        let t = &m.types[t];
        t.seq
            .iter()
            .chain(t.instances.iter())
            .find(|k| k.name == name)
    };
    let plain = |k: &super::Field| {
        matches!(k.ty, FieldTy::Str { .. } | FieldTy::Bytes)
            && k.cond.is_none()
            && k.repeat == Repeat::None
    };
    let (first, rest) = key
        .split_once('.')
        .map_or((key, None), |(a, b)| (a, Some(b)));
    let f = find(ty, first)?;
    Some(match rest {
        None => plain(f).then_some((None, f)),
        Some(inner) => match &f.ty {
            FieldTy::User { ty: rt, .. } if f.repeat == Repeat::None && !inner.contains('.') => {
                find(*rt, inner).filter(|k| plain(k)).map(|k| (Some(f), k))
            }
            _ => None,
        },
    })
}

/// Checks `-resdic` arrays and the `_dic.PART` derivations of their node types: the key names a string or bytes
/// field of the node type that is always present, and a type whose fields derive from `_dic` is the node type of
/// some `-resdic` array (elsewhere the writer would have no dictionary to take the values from).
fn check_resdic(m: &Module, diags: &mut Diags) {
    let mut node_types = BTreeSet::new();
    for t in &m.types {
        for f in t.seq.iter().filter(|f| f.resdic.is_some()) {
            let (Some(super::ResdicKey { key, pos }), FieldTy::User { ty, .. }) =
                (&f.resdic, &f.ty)
            else {
                continue;
            };
            node_types.insert(*ty);
            let nt = &m.types[*ty];
            let ok = resdic_key(m, *ty, key).map(|k| k.is_some());
            if ok != Some(true) {
                let names: Vec<String> = nt
                    .seq
                    .iter()
                    .chain(nt.instances.iter())
                    .map(|k| k.name.clone())
                    .collect();
                diags.in_file(&t.file, |diags| {
                    diags.error(
                        *pos,
                        &format!("{}/-resdic", f.path),
                        match ok {
                            None => format!("'-resdic: {key}': type '{}' has no field '{key}'", nt.name),
                            Some(_) => format!(
                                "'-resdic: {key}': the key must be a string or bytes that every node has (no 'if', no 'repeat'), \
                                 or such a field of a record of the node (`key.data`; the record may have an 'if': a node \
                                 without it has no key, and its dictionary derives nothing)"
                            ),
                        },
                        crate::diag::did_you_mean(key, names.iter().map(String::as_str)),
                    )
                });
            }
        }
    }
    for (ti, t) in m.types.iter().enumerate() {
        for f in &t.seq {
            let Role::Derive(x) = &f.role else { continue };
            let mut used = BTreeSet::new();
            names_used(&x.expr, &mut used);
            if !used.contains("_dic") {
                continue;
            }
            // The whole expression is the node's value: the reader compares the field with it once the dictionary
            // is built, not through arithmetic on it.
            if super::query::dic_part(&x.expr).is_none() {
                diags.in_file(&t.file, |diags| {
                    diags.error(
                        x.pos,
                        &x.path,
                        format!(
                            "'-derive: {}': a dictionary node's field derives from '_dic' alone",
                            x.text
                        ),
                        Some("write '_dic.ref_bit', '_dic.left' or '_dic.right'".into()),
                    )
                });
                continue;
            }
            if !node_types.contains(&ti) {
                diags.in_file(&t.file, |diags| {
                    diags.error(
                        f.pos,
                        &f.path,
                        format!(
                            "'-derive' uses '_dic', but no '-resdic' array has type '{}' as its nodes",
                            t.name
                        ),
                        Some("mark the array of nodes with '-resdic: KEY', KEY being the node's key field".into()),
                    )
                });
            }
        }
    }
}

/// `_chain` is used only as `_chain.next`, the whole `-derive` of an integer field that every record of its type has.
fn check_chain(m: &Module, diags: &mut Diags) {
    for t in &m.types {
        let mut t2 = t.clone();
        for x in super::query::exprs_of_type_mut(&mut t2) {
            let mut used = BTreeSet::new();
            names_used(&x.expr, &mut used);
            if !used.contains("_chain") {
                continue;
            }
            // The field whose `-derive` this is, if it is one.
            let owner = t
                .seq
                .iter()
                .find(|f| matches!(&f.role, Role::Derive(d) if d.pos == x.pos && d.path == x.path));
            let fits = owner.is_some_and(|f| {
                f.cond.is_none()
                    && matches!(f.repeat, Repeat::None)
                    && matches!(&f.ty, FieldTy::Int { .. })
            }) && super::query::chain_part(&x.expr).is_some();
            if !fits {
                diags.in_file(&t.file, |diags| {
                    diags.error(
                        x.pos,
                        &x.path,
                        format!("'{}': '_chain' is only the whole '-derive' of an integer field", x.text),
                        Some(
                            "write '-derive: _chain.next' (the distance to the next record of the chain) or \
                             '_chain.size' (the same, or to the instance marked '-chain-end' for the last record) \
                             on an integer field without 'if' or 'repeat'"
                                .into(),
                        ),
                    )
                });
            }
        }
    }
}

/// A pool's `order` names each member of its region at most once, and only where the region's order is a layout
/// choice.
fn check_pool_order(m: &Module, diags: &mut Diags) {
    for (pi, p) in m.pools.iter().enumerate() {
        let Some((file, pos, path)) = &p.order_at else {
            continue;
        };
        let region = m.types.iter().position(|t| {
            t.seq
                .iter()
                .any(|f| matches!(&f.role, Role::Pool(u) if u.pool == pi))
        });
        // (A pool that keeps its items' order names the instances whose items a new file has last.)
        let names: Option<Vec<String>> = if p.keep_order {
            Some(
                super::query::keep_order_items(m, pi)
                    .into_iter()
                    .map(|x| x.2)
                    .collect(),
            )
        } else {
            region.and_then(|ti| {
                let members = super::region_members(m, ti, pi)?;
                Some(members.iter().map(|x| x.name(m, ti)).collect())
            })
        };
        diags.in_file(file, |diags| {
            let Some(names) = names else {
                diags.error(
                    *pos,
                    path,
                    format!(
                        "'order' of pool '{}' has nothing to order: only a region of a pool that does not deduplicate, \
                         whose type declares a section (an item of its own) and that has two or more members, has an \
                         order of its members",
                        p.id
                    ),
                    None,
                );
                return;
            };
            let mut seen = BTreeSet::new();
            for n in &p.order {
                if !names.contains(n) {
                    diags.error(
                        *pos,
                        path,
                        format!(
                            "'order' of pool '{}' names '{n}', which is no member of its region (the members: {})",
                            p.id,
                            names.join(", ")
                        ),
                        crate::diag::did_you_mean(n, names.iter().map(String::as_str)),
                    );
                } else if !seen.insert(n.as_str()) {
                    diags.error(*pos, path, format!("'order' of pool '{}' names '{n}' twice", p.id), None);
                }
            }
        });
    }
}

/// In a keep-order pool, the writer meets the items of a type in the order the type declares them, and the order
/// the file had (`<region>_item_order`) counts them so; the reader meets them as it reads them, and reads an item
/// that another names (in its `pos`, count, condition, size or arguments) before that one. So an item that names
/// an item of the same pool declared after it would make the two orders differ, and a file would be written in
/// another order than it had, without an error: refused, with what to move (BFRES's material dictionary, which
/// counts the materials, is declared before them).
fn check_keep_order_declarations(m: &Module, diags: &mut Diags) {
    for t in &m.types {
        let items: Vec<(usize, &super::Field)> = (t.instances.iter().enumerate())
            .filter(|(_, f)| f.item_of.is_some_and(|p| m.pools[p].keep_order))
            .collect();
        for &(a, fa) in &items {
            let mut used = BTreeSet::new();
            let mut exprs: Vec<&Ex> = Vec::new();
            exprs.extend(fa.pos_expr());
            exprs.extend(fa.cond.as_ref());
            exprs.extend(fa.size.as_ref());
            if let Repeat::Expr(x) | Repeat::Until(x) = &fa.repeat {
                exprs.push(x);
            }
            if let FieldTy::User { args, .. } = &fa.ty {
                exprs.extend(args.iter());
            }
            for x in exprs {
                names_used(&x.expr, &mut used);
            }
            let later = (items.iter())
                .find(|&&(b, fb)| b > a && fb.item_of == fa.item_of && used.contains(&fb.name));
            if let Some((_, fb)) = later {
                let pool = fa
                    .item_of
                    .map(|p| m.pools[p].id.as_str())
                    .unwrap_or_default();
                let message = format!(
                    "'{}' names '{}', an item of the same keep-order pool '{pool}' declared after it: the reader \
                     reads '{}' first, but the writer meets the items in the order they are declared, and the \
                     file's order, which the model keeps, counts them as the writer meets them",
                    fa.name, fb.name, fb.name
                );
                let hint = format!("declare '{}' before '{}'", fb.name, fa.name);
                diags.in_file(&t.file, |d| d.error(fa.pos, &fa.path, message, Some(hint)));
            }
        }
    }
}
