//! Fields read twice. Kaitai reads instances lazily, so a record's instance may use a value of its holder that
//! is not read yet when the record itself is: an element's instance that looks at the next element
//! (`_parent.resources[idx + 1].ofs_body`), a record's instance that uses a field read after the record
//! (`_root.pe.sections`). binspec reads in order and passes values down, so the holder reads such a field twice:
//! first with those values not given (`ReadPools::defer_begin`: instances that use values from outside their
//! record are left at their defaults), then, once it has the values, again from the same position. A value the
//! record's own fields need in order to be read (its sizes, counts, conditions) cannot wait: such a schema is
//! refused, naming the value.

use super::passes::{field_of_chain, resolves, to_caller, valid_exprs};
use super::*;
use crate::ir::ParentRef;

/// What the pass [`late_pass`] works out once.
#[derive(Debug, Default)]
pub(super) struct Late {
    /// For each type, the outer values (as the chains of its implicit params) that reading its `seq` needs: its
    /// fields' expressions, the instances those need, and what the types its fields read need in their `seq`.
    seq_keys: Vec<BTreeSet<Vec<String>>>,
    /// The instances, as (type, name), that a first reading leaves at their defaults: not needed to read the
    /// type's `seq`, and using a value from outside the record (directly, through other instances, or through the
    /// params of the types they read).
    deferrable: BTreeSet<(usize, String)>,
}

/// A field's own expressions (not those of the type it reads).
fn field_exprs(f: &Field) -> Vec<&Expr> {
    let mut out = super::pinned::before_exprs(f);
    out.extend(
        [f.pos_expr(), f.io(), f.value()]
            .into_iter()
            .flatten()
            .map(|x| &x.expr),
    );
    if let Role::Derive(x) = &f.role {
        out.push(&x.expr);
    }
    out.extend(valid_exprs(f));
    out
}

/// The types a field reads.
fn field_types(f: &Field) -> Vec<usize> {
    match &f.ty {
        FieldTy::User { ty, .. } => vec![*ty],
        FieldTy::Switch { cases, .. } => cases.iter().filter_map(|c| c.user()).collect(),
        _ => Vec::new(),
    }
}

/// The outer chains (in `ti`'s own space) of expressions `xs` of type `ti`, and the instances they name, followed
/// through those instances: (chains, instance names reached). `types` gets the types those instances read.
fn reach(
    m: &Module,
    ti: usize,
    xs: Vec<&Expr>,
    types: &mut Vec<(usize, ParentRef)>,
) -> (BTreeSet<Vec<String>>, BTreeSet<String>) {
    let t = &m.types[ti];
    let mut chains = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let mut todo = xs;
    while let Some(e) = todo.pop() {
        collect_chains(e, &mut chains);
        let mut names = BTreeSet::new();
        crate::ir::names_used(e, &mut names);
        for n in names {
            let Some(f) = t.instances.iter().find(|f| f.name == n) else {
                continue;
            };
            if seen.insert(n) {
                todo.extend(field_exprs(f));
                types.extend(field_types(f).into_iter().map(|c| (c, f.parent)));
            }
        }
    }
    let chains = chains
        .into_iter()
        .filter(|c| c[0] == "_root" || c[0] == "_parent")
        .map(|c| field_of_chain(m, ti, c))
        .filter(|c| !resolves(m, ti, c))
        .collect();
    (chains, seen)
}

/// The field of caller `ti` that an outer value `k` of a type it reads (with `parent` as its `_parent`) names,
/// where the caller does not resolve it for the type (see [`to_caller`]): `_parent.x...` or `_root.x...` from the
/// root (`_root.a.x...` where `ti` is the root's `a`).
fn own_field<'k>(m: &Module, ti: usize, parent: ParentRef, k: &'k [String]) -> Option<&'k String> {
    if to_caller(m, ti, parent, k).is_some() {
        return None;
    }
    match k[0].as_str() {
        "_parent" if parent == ParentRef::Reader => k.get(1),
        "_root" if m.is_own_root_chain(ti, k) => k.get(2),
        "_root" if m.root_of(ti) == ti => k.get(1),
        _ => None,
    }
}

/// Pass `late`: which outer values each type's `seq` needs, and which instances a first reading leaves at their
/// defaults (see the module's doc).
pub(super) fn late_pass(m: &Module, params: &[BTreeSet<Vec<String>>]) -> Late {
    let n = m.types.len();
    let mut seq_keys: Vec<BTreeSet<Vec<String>>> = vec![BTreeSet::new(); n];
    let mut seq_needed: Vec<BTreeSet<String>> = vec![BTreeSet::new(); n];
    loop {
        let mut changed = false;
        for ti in 0..n {
            let t = &m.types[ti];
            let mut xs: Vec<&Expr> = t.seq.iter().flat_map(field_exprs).collect();
            if let crate::ir::EndianSpec::Switch { on, .. } = &t.endian {
                xs.push(&on.expr);
            }
            // (A kept value is computed as the model is built.)
            for f in t.instances.iter().filter(|f| f.role == Role::Kept) {
                xs.extend(field_exprs(f));
            }
            let mut inst_types = Vec::new();
            let (mut keys, needed) = reach(m, ti, xs, &mut inst_types);
            // An instance the `seq` needs is read whole: all its types need.
            for (c, parent) in inst_types {
                keys.extend(params[c].iter().filter_map(|k| to_caller(m, ti, parent, k)));
            }
            for f in &t.seq {
                for c in field_types(f) {
                    keys.extend(
                        seq_keys[c]
                            .iter()
                            .filter_map(|k| to_caller(m, ti, f.parent, k)),
                    );
                }
            }
            if keys != seq_keys[ti] {
                seq_keys[ti] = keys;
                changed = true;
            }
            seq_needed[ti] = needed;
        }
        if !changed {
            break;
        }
    }
    // The types a first reading may read: those a `seq` field reads with an outer value that its reader has not
    // read yet, and what they read.
    let mut first: BTreeSet<usize> = BTreeSet::new();
    let mut todo = Vec::new();
    for (ti, t) in m.types.iter().enumerate() {
        for (fi, f) in t.seq.iter().enumerate() {
            for c in field_types(f) {
                let late = params[c].iter().any(|k| {
                    own_field(m, ti, f.parent, k)
                        .and_then(|n| t.seq.iter().position(|g| &g.name == n))
                        .is_some_and(|u| u >= fi)
                });
                if late {
                    todo.push(c);
                }
            }
        }
        // An instance whose records use the instance itself.
        for f in &t.instances {
            for c in field_types(f) {
                if params[c]
                    .iter()
                    .any(|k| own_field(m, ti, f.parent, k) == Some(&f.name))
                {
                    todo.push(c);
                }
            }
        }
    }
    while let Some(c) = todo.pop() {
        if first.insert(c) {
            let t = &m.types[c];
            todo.extend(t.seq.iter().chain(t.instances.iter()).flat_map(field_types));
        }
    }
    let mut deferrable = BTreeSet::new();
    for (ti, t) in m.types.iter().enumerate() {
        if !first.contains(&ti) {
            continue;
        }
        for f in &t.instances {
            if f.value().is_some() || seq_needed[ti].contains(&f.name) {
                continue;
            }
            let mut types: Vec<(usize, ParentRef)> =
                field_types(f).into_iter().map(|c| (c, f.parent)).collect();
            let (chains, _) = reach(m, ti, field_exprs(f), &mut types);
            let outer = !chains.is_empty()
                || types.iter().any(|(c, parent)| {
                    params[*c]
                        .iter()
                        .any(|k| to_caller(m, ti, *parent, k).is_some())
                });
            if outer {
                deferrable.insert((ti, f.name.clone()));
            }
        }
    }
    Late {
        seq_keys,
        deferrable,
    }
}

impl Gen<'_> {
    /// How field `f` of `ti` is read (`read` generates it): once, or where its records use a value of `ti` not
    /// read yet (see [`Gen::read_before`]), a first reading and the second one, with the index in `seq` of the
    /// last field that value needs, after which the second reading goes (for a placed instance whose elements use
    /// the instance itself, the second reading follows the first).
    pub(super) fn late_reads(
        &self,
        f: &Field,
        read: impl Fn() -> R<Read>,
    ) -> R<(Read, Option<(usize, Read)>)> {
        *self.late_field.borrow_mut() = Some(f.name.clone());
        let one = read();
        *self.late_field.borrow_mut() = None;
        let late_after = self.late_after.borrow_mut().take();
        let one = one?;
        let Some(u) = late_after else {
            return Ok((one, None));
        };
        self.full_keys.set(true);
        let again = read();
        self.full_keys.set(false);
        Ok((one, Some((u, again?))))
    }

    /// Whether a first reading leaves instance `name` of type `ti` at its default ([`Late::deferrable`]).
    pub(super) fn deferrable(&self, ti: usize, name: &str) -> bool {
        self.late.deferrable.contains(&(ti, name.to_string()))
    }

    /// Checks an outer value (`_parent.x`, or `_root.x` from the root) that the caller resolves for the field at
    /// `path`, which reads type `child`: `k` is the value's chain as the child has it, `own` its part that names
    /// a field of the caller (`x...` after the step naming the caller). Where `x` is that field or one after it,
    /// the caller has not read it yet: Kaitai reads such a value lazily, when the child first asks for it; binspec
    /// reads the field twice (see the module's doc) where the child's own fields do not need the value, and
    /// otherwise refuses the schema rather than give code that does not compile. `Ok(true)`: the value is not
    /// read yet, and this reading of the field is the first.
    pub(super) fn read_before(
        &self,
        caller: usize,
        k: &[String],
        own: &[String],
        child: usize,
        path: &str,
    ) -> R<bool> {
        let t = &self.m.types[caller];
        let at = |f: &&Field| {
            path == f.path
                || path
                    .strip_prefix(f.path.as_str())
                    .is_some_and(|rest| rest.starts_with('/') || rest.starts_with('['))
        };
        let seq_index = |name: &str| t.seq.iter().position(|f| f.name == name);
        let Some(reading) = t.seq.iter().chain(t.instances.iter()).find(at) else {
            return Ok(false);
        };
        // The `seq` fields the value comes from: the field it names, or those a value instance it names uses
        // (`_root.limit`, whose expression is `body.as<body_a>.lim`).
        let value_of = |n: &str| {
            t.instances
                .iter()
                .find(|f| f.name == n)
                .and_then(|f| f.value())
        };
        let mut from = vec![own[1].clone()];
        let mut seen = BTreeSet::new();
        while let Some(i) = from
            .iter()
            .position(|n| value_of(n).is_some() && !seen.contains(n))
        {
            let n = from.swap_remove(i);
            if let Some(v) = value_of(&n) {
                let mut used = BTreeSet::new();
                crate::ir::names_used(&v.expr, &mut used);
                from.extend(used);
            }
            seen.insert(n);
        }
        let hit = from.iter().find_map(|n| {
            if *n == reading.name {
                Some((n.clone(), "holds the one being read"))
            } else {
                match (seq_index(&reading.name), seq_index(n)) {
                    (Some(r), Some(u)) if u > r => Some((n.clone(), "comes after it")),
                    _ => None,
                }
            }
        });
        let Some((source, why)) = hit else {
            return Ok(false);
        };
        // Read twice: a field of the caller's `seq` (not a pooled format's), whose records need the value only
        // in instances.
        let first = self.late_field.borrow().as_deref() == Some(reading.name.as_str());
        let wait = if !first {
            "binspec reads a field again once it has the value, but not a field of an instance yet"
        } else if !self.m.pools.is_empty() {
            "binspec reads a field again once it has the value, but not in a format with pools yet"
        } else if self.late.seq_keys[child].contains(k) {
            "the record's own fields need the value to be read, so it cannot wait"
        } else {
            let u = seq_index(&source).unwrap_or(0);
            let mut after = self.late_after.borrow_mut();
            *after = Some(after.map_or(u, |a: usize| a.max(u)));
            return Ok(true);
        };
        err(
            path,
            format!(
                "'{}' is not read yet when '{}' needs it: '{}' of '{}' {why}, and binspec reads fields in order and \
                 passes their values down (Kaitai reads such a value lazily, as far as it has got); {wait}",
                own.join("."),
                self.m.types[child].name,
                source,
                t.name,
            ),
        )
    }
}
