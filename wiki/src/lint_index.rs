//! Indexes that let `wiki lint` compare a row with the rows before it without reading them again: the first earlier
//! row with the same key, and the first earlier range that overlaps a range; and what a page's tables say that
//! checks of each table look up (field names, widths of bit fields). Each check is then linear (or n log n) in a
//! table's rows, and reads the page's other tables once for the page, instead of once per row or table.

use std::collections::HashMap;
use std::hash::Hash;

use crate::layout::{self, Kind};
use crate::Table;

/// For each of `n` items, the index of the first earlier item with the same key (items without a key have none and
/// match none). `key` is called once per item.
pub(crate) fn first_earlier<K: Hash + Eq>(
    n: usize,
    mut key: impl FnMut(usize) -> Option<K>,
) -> Vec<Option<usize>> {
    let mut first: HashMap<K, usize> = HashMap::new();
    (0..n)
        .map(|i| {
            let k = key(i)?;
            let at = *first.entry(k).or_insert(i);
            (at != i).then_some(at)
        })
        .collect()
}

/// Items seen so far grouped by a key, each group keeping its first item and the first item that differs from it:
/// enough to give, for a new item, the first earlier item with its key that differs from it.
pub(crate) struct FirstOther<K, V> {
    /// Per key: the first item (value, row), and the first item whose value differs from it.
    groups: HashMap<K, Group<V>>,
}

type Group<V> = (V, usize, Option<(V, usize)>);

impl<K: Hash + Eq, V: PartialEq + Clone> Default for FirstOther<K, V> {
    fn default() -> Self {
        Self {
            groups: HashMap::new(),
        }
    }
}

impl<K: Hash + Eq, V: PartialEq + Clone> FirstOther<K, V> {
    /// The first earlier item with the key `k` whose value is not `v`, as (value, row); then adds this item.
    pub(crate) fn check_and_add(&mut self, k: K, v: V, row: usize) -> Option<(V, usize)> {
        match self.groups.get_mut(&k) {
            None => {
                self.groups.insert(k, (v, row, None));
                None
            }
            Some((first, first_row, other)) => {
                let found = if *first != v {
                    Some((first.clone(), *first_row))
                } else {
                    other.clone()
                };
                if other.is_none() && *first != v {
                    *other = Some((v, row));
                }
                found
            }
        }
    }
}

/// Ranges added one by one, each with a growing index (a row): for a new range, the smallest index of the ranges
/// added before it that overlap it. Built over all the ranges' ends at once (a segment tree over the elementary
/// pieces between them), so each query and each addition takes O(log n).
pub(crate) struct FirstCover {
    /// The sorted distinct starts and ends (exclusive) of the ranges: piece `j` is `xs[j]..xs[j + 1]`.
    xs: Vec<u128>,
    /// Per node: the smallest index added over the whole node, and the smallest added anywhere inside it.
    tag: Vec<usize>,
    sub: Vec<usize>,
}

impl FirstCover {
    /// An index for inclusive ranges among `ranges`.
    pub(crate) fn new(ranges: &[(u64, u64)]) -> Self {
        let mut xs: Vec<u128> = ranges
            .iter()
            .flat_map(|&(lo, hi)| [u128::from(lo), u128::from(hi) + 1])
            .collect();
        xs.sort_unstable();
        xs.dedup();
        let pieces = xs.len().saturating_sub(1).max(1);
        Self {
            xs,
            tag: vec![usize::MAX; 4 * pieces],
            sub: vec![usize::MAX; 4 * pieces],
        }
    }

    fn pieces(&self, lo: u64, hi: u64) -> Option<(usize, usize)> {
        let a = self.xs.binary_search(&u128::from(lo)).ok()?;
        let b = self.xs.binary_search(&(u128::from(hi) + 1)).ok()?;
        (a < b).then(|| (a, b - 1))
    }

    fn last_piece(&self) -> usize {
        self.xs.len().saturating_sub(2)
    }

    /// The smallest index of a range added so far that overlaps `lo..=hi` (a range given to [`FirstCover::new`]).
    pub(crate) fn first_overlap(&self, lo: u64, hi: u64) -> Option<usize> {
        let (a, b) = self.pieces(lo, hi)?;
        let m = self.query(1, 0, self.last_piece(), a, b);
        (m != usize::MAX).then_some(m)
    }

    /// Adds `lo..=hi` (a range given to [`FirstCover::new`]) with the index `i`.
    pub(crate) fn add(&mut self, lo: u64, hi: u64, i: usize) {
        if let Some((a, b)) = self.pieces(lo, hi) {
            self.update(1, 0, self.last_piece(), a, b, i);
        }
    }

    fn query(&self, node: usize, nl: usize, nr: usize, l: usize, r: usize) -> usize {
        if r < nl || nr < l {
            return usize::MAX;
        }
        if l <= nl && nr <= r {
            return self.sub[node];
        }
        let mid = (nl + nr) / 2;
        self.tag[node]
            .min(self.query(2 * node, nl, mid, l, r))
            .min(self.query(2 * node + 1, mid + 1, nr, l, r))
    }

    fn update(&mut self, node: usize, nl: usize, nr: usize, l: usize, r: usize, i: usize) {
        if r < nl || nr < l {
            return;
        }
        self.sub[node] = self.sub[node].min(i);
        if l <= nl && nr <= r {
            self.tag[node] = self.tag[node].min(i);
            return;
        }
        let mid = (nl + nr) / 2;
        self.update(2 * node, nl, mid, l, r, i);
        self.update(2 * node + 1, mid + 1, nr, l, r, i);
    }
}

/// Every field name and type on a page (lower case), each name also with its table's name before it
/// (`ByamlContainer count`), sorted: the names a size expression may use, or the first words of.
pub(crate) struct Known(Vec<String>);

impl Known {
    /// Whether `name` is a known name or its first words.
    pub(crate) fn has(&self, name: &str) -> bool {
        let words = format!("{name} ");
        // The names that start with `name `, if any, come first among those not before it in the sorted order.
        self.0.binary_search_by(|k| k.as_str().cmp(name)).is_ok()
            || self
                .0
                .get(self.0.partition_point(|k| k.as_str() < words.as_str()))
                .is_some_and(|k| k.starts_with(&words))
    }
}

pub(crate) fn known_names(all: &[Table]) -> Known {
    let mut known: Vec<String> = Vec::new();
    for other in all.iter().filter(|o| layout::kind(o) == Kind::Struct) {
        let owner = if other.caption.trim().is_empty() {
            other.sections.last().cloned().unwrap_or_default()
        } else {
            other.caption.clone()
        };
        for f in layout::fields(other) {
            known.push(layout::strip_markup(&f.ty).to_lowercase());
            let n = layout::strip_markup(&f.name).to_lowercase();
            for w in [&owner, other.sections.last().unwrap_or(&owner)] {
                known.push(format!("{} {n}", w.replace(' ', "").to_lowercase()));
            }
            known.push(n);
        }
    }
    known.sort_unstable();
    Known(known)
}

/// The struct rows of a page's tables that may give a bits table its width, by their type and by their name (lower
/// case, without markup): for each, the first such row (its place in the page's order, its size in bytes, and where
/// it is).
pub(crate) type Widths = HashMap<String, (usize, u64, String)>;

pub(crate) fn struct_widths(all: &[Table]) -> Widths {
    let mut out = Widths::new();
    let mut order = 0usize;
    for other in all
        .iter()
        .filter(|o| !o.code && layout::kind(o) == Kind::Struct)
    {
        for f in layout::fields(other) {
            let Some(s) = f.size.filter(|&s| s > 0 && s <= 8) else {
                continue;
            };
            let from = format!("size {s:#x} of row {} of {}", f.row, other.place());
            for key in [&f.ty, &f.name] {
                out.entry(layout::strip_markup(key).to_lowercase())
                    .or_insert_with(|| (order, s, from.clone()));
            }
            order += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_earlier_reads_each_key_once() {
        let names = ["a", "b", "", "a", "c", "b", "a"];
        let mut calls = 0;
        let got = first_earlier(names.len(), |i| {
            calls += 1;
            Some(names[i]).filter(|n| !n.is_empty())
        });
        assert_eq!(got, [None, None, None, Some(0), None, Some(1), Some(0)]);
        assert_eq!(calls, names.len());
        // 100,000 items, each key computed once: no item is looked at again for a later one.
        let n = 100_000;
        let mut calls = 0;
        let got = first_earlier(n, |i| {
            calls += 1;
            Some(i % 50_000)
        });
        assert_eq!(calls, n);
        assert_eq!(got[49_999], None);
        assert_eq!(got[50_000], Some(0));
        assert_eq!(got[99_999], Some(49_999));
    }

    #[test]
    fn first_other_is_the_first_that_differs() {
        let mut seen: FirstOther<u64, &str> = FirstOther::default();
        assert_eq!(seen.check_and_add(1, "A", 1), None);
        assert_eq!(seen.check_and_add(1, "A", 2), None);
        assert_eq!(seen.check_and_add(1, "B", 3), Some(("A", 1)));
        // Same name as the first: the first that differs is row 3.
        assert_eq!(seen.check_and_add(1, "A", 4), Some(("B", 3)));
        assert_eq!(seen.check_and_add(1, "C", 5), Some(("A", 1)));
        assert_eq!(seen.check_and_add(2, "A", 6), None);
    }

    /// The index against a plain scan of every earlier range, over ranges that nest, touch and repeat.
    #[test]
    fn first_cover_agrees_with_a_scan() {
        let mut ranges = Vec::new();
        let mut x = 7u64;
        for _ in 0..400 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let lo = (x >> 33) % 64;
            let len = (x >> 20) % 9;
            ranges.push((lo, lo + len));
        }
        ranges.push((0, u64::MAX));
        ranges.push((u64::MAX, u64::MAX));
        let mut index = FirstCover::new(&ranges);
        for (i, &(lo, hi)) in ranges.iter().enumerate() {
            let scan = ranges[..i].iter().position(|&(a, b)| lo <= b && a <= hi);
            assert_eq!(index.first_overlap(lo, hi), scan, "range {i}: {lo}..{hi}");
            index.add(lo, hi, i);
        }
    }
}
