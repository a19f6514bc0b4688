//! [`Map`]: a BYML dictionary, keys in order of insertion.
//!
//! The entries live in one `Vec<(Str, Byml)>`. Dictionaries of game files mostly hold a handful of keys, and for up
//! to [`LINEAR_MAX`] keys a lookup compares the keys one by one, which for short keys is as fast as hashing them:
//! such a map costs one allocation, and a node of the tree stays 40 bytes. A larger map also keeps a hash table of
//! entry indices (keys hashed with FxHash), built when it grows past [`LINEAR_MAX`] and kept up to date by every
//! change. The method names follow `indexmap`'s, which this type replaced.

use super::{Byml, Str};
use std::hash::BuildHasher;

/// Maps with at most this many entries are searched one key after another; larger ones keep a hash index.
pub const LINEAR_MAX: usize = 16;

/// A dictionary: keys in their order of insertion. Reading a plain dictionary (0xc1), whose pairs the file sorts by
/// key, gives the order in which the file placed the values that live out of line (containers, 64-bit numbers,
/// binary data), which is the order in which Nintendo's tools wrote them; writing follows this order.
///
/// Two maps are equal when they hold the same keys with equal values, whatever their order.
///
/// ```
/// use binspec_formats::byml::{Byml, Map};
/// let mut m = Map::new();
/// m.insert("Hp", Byml::I32(20));
/// m.insert("Name", Byml::from("Bokoblin"));
/// *m.entry("Hp").or_default() = Byml::I32(30);
/// assert_eq!(m.get("Hp"), Some(&Byml::I32(30)));
/// assert_eq!(m.keys().map(|k| k.as_str()).collect::<Vec<_>>(), ["Hp", "Name"]);
/// assert_eq!(m.shift_remove("Hp"), Some(Byml::I32(30)));
/// ```
#[derive(Clone, Default)]
pub struct Map {
    entries: Vec<(Str, Byml)>,
    /// Entry indices by key hash; present exactly when `entries.len() > LINEAR_MAX`.
    index: Option<Box<hashbrown::HashTable<usize>>>,
}

#[inline]
fn hash(key: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(key)
}

impl Map {
    /// An empty map (no allocation).
    pub const fn new() -> Self {
        Map {
            entries: Vec::new(),
            index: None,
        }
    }

    /// An empty map with room for `n` entries.
    pub fn with_capacity(n: usize) -> Self {
        Map {
            entries: Vec::with_capacity(n),
            index: None,
        }
    }

    /// The number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map has no entries.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.index = None;
    }

    /// Makes room for `n` more entries.
    pub fn reserve(&mut self, n: usize) {
        self.entries.reserve(n);
    }

    /// The entries in order, as a slice.
    pub fn as_slice(&self) -> &[(Str, Byml)] {
        &self.entries
    }

    /// The position of `key`, if the map has it.
    pub fn get_index_of(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(t) => {
                let e = &self.entries;
                t.find(hash(key), |&i| e[i].0 == key).copied()
            }
            None => self.entries.iter().position(|(k, _)| k == key),
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Byml> {
        self.get_index_of(key).map(|i| &self.entries[i].1)
    }

    /// The value of `key`, to change it.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Byml> {
        self.get_index_of(key).map(|i| &mut self.entries[i].1)
    }

    /// The stored key and the value of `key`.
    pub fn get_key_value(&self, key: &str) -> Option<(&Str, &Byml)> {
        self.get_index_of(key).map(|i| {
            let (k, v) = &self.entries[i];
            (k, v)
        })
    }

    /// Whether the map has `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get_index_of(key).is_some()
    }

    /// The entry at position `i`.
    pub fn get_index(&self, i: usize) -> Option<(&Str, &Byml)> {
        self.entries.get(i).map(|(k, v)| (k, v))
    }

    /// The entry at position `i`, its value to change.
    pub fn get_index_mut(&mut self, i: usize) -> Option<(&Str, &mut Byml)> {
        self.entries.get_mut(i).map(|(k, v)| (&*k, v))
    }

    /// The first entry.
    pub fn first(&self) -> Option<(&Str, &Byml)> {
        self.get_index(0)
    }

    /// The last entry.
    pub fn last(&self) -> Option<(&Str, &Byml)> {
        self.entries.last().map(|(k, v)| (k, v))
    }

    /// Sets `key` to `value`. A key that is already there keeps its position, and its old value is returned; a new
    /// key goes at the end.
    pub fn insert(&mut self, key: impl Into<Str>, value: Byml) -> Option<Byml> {
        self.insert_full(key, value).1
    }

    /// As [`Map::insert`], also returning the position of the entry.
    pub fn insert_full(&mut self, key: impl Into<Str>, value: Byml) -> (usize, Option<Byml>) {
        let key = key.into();
        match self.get_index_of(&key) {
            Some(i) => (i, Some(std::mem::replace(&mut self.entries[i].1, value))),
            None => (self.push_new(key, value), None),
        }
    }

    /// Appends an entry whose key the map does not have (the caller checked), keeping the index.
    pub(crate) fn push_new(&mut self, key: Str, value: Byml) -> usize {
        let i = self.entries.len();
        match &mut self.index {
            Some(t) => {
                let e = &self.entries;
                t.insert_unique(hash(&key), i, |&j| hash(&e[j].0));
            }
            None if i == LINEAR_MAX => {
                self.entries.push((key, value));
                self.rebuild_index();
                return i;
            }
            None => {}
        }
        self.entries.push((key, value));
        i
    }

    /// Puts the entries in a new order: entry `i` becomes the entry that was at `perm[i]`. `perm` must be a
    /// permutation of `0..len` (anything else leaves the map as it was).
    pub(crate) fn permute(&mut self, perm: &[usize]) {
        let n = self.entries.len();
        let mut seen = 0usize;
        if perm.len() != n || perm.iter().any(|&p| p >= n) {
            return;
        }
        if n <= usize::BITS as usize {
            for &p in perm {
                seen |= 1 << p;
            }
            if seen.count_ones() as usize != n {
                return;
            }
        } else {
            let mut check = vec![false; n];
            if perm.iter().any(|&p| std::mem::replace(&mut check[p], true)) {
                return;
            }
        }
        // In place: position i takes the entry now at perm[i], which an earlier swap may have moved; follow the
        // swaps (positions below i hold their final entries) to where it is now.
        for i in 0..n {
            let mut j = perm[i];
            while j < i {
                j = perm[j];
            }
            self.entries.swap(i, j);
        }
        self.rebuild_index();
    }

    /// Builds the hash index again from the entries (or drops it for a small map).
    fn rebuild_index(&mut self) {
        if self.entries.len() <= LINEAR_MAX {
            self.index = None;
            return;
        }
        let mut t = match self.index.take() {
            Some(mut t) => {
                t.clear();
                t
            }
            None => Box::new(hashbrown::HashTable::with_capacity(self.entries.len())),
        };
        let e = &self.entries;
        for (i, (k, _)) in e.iter().enumerate() {
            t.insert_unique(hash(k), i, |&j| hash(&e[j].0));
        }
        self.index = Some(t);
    }

    /// Removes `key`, moving the entries after it one place up (O(n)), and returns its value.
    pub fn shift_remove(&mut self, key: &str) -> Option<Byml> {
        self.shift_remove_entry(key).map(|(_, v)| v)
    }

    /// As [`Map::shift_remove`], returning the key too.
    pub fn shift_remove_entry(&mut self, key: &str) -> Option<(Str, Byml)> {
        let i = self.get_index_of(key)?;
        self.shift_remove_index(i)
    }

    /// Removes the entry at position `i`, moving the entries after it one place up (O(n)).
    pub fn shift_remove_index(&mut self, i: usize) -> Option<(Str, Byml)> {
        if i >= self.entries.len() {
            return None;
        }
        let removed = self.entries.remove(i);
        if let Some(t) = self.unindex(&removed.0, i) {
            for j in t.iter_mut() {
                if *j > i {
                    *j -= 1;
                }
            }
        }
        Some(removed)
    }

    /// After entry `i` (with `key`) left the entries: drops the index if the map is now small, else removes the
    /// entry's slot from it and returns it for the caller's further fixing.
    fn unindex(&mut self, key: &str, i: usize) -> Option<&mut hashbrown::HashTable<usize>> {
        if self.entries.len() <= LINEAR_MAX {
            self.index = None;
            return None;
        }
        let t = self.index.as_mut()?;
        if let Ok(slot) = t.find_entry(hash(key), |&j| j == i) {
            slot.remove();
        }
        Some(t)
    }

    /// Removes `key` and puts the last entry in its place (O(1), but changes the order).
    pub fn swap_remove(&mut self, key: &str) -> Option<Byml> {
        let i = self.get_index_of(key)?;
        self.swap_remove_index(i).map(|(_, v)| v)
    }

    /// Removes the entry at position `i` and puts the last entry in its place.
    pub fn swap_remove_index(&mut self, i: usize) -> Option<(Str, Byml)> {
        if i >= self.entries.len() {
            return None;
        }
        let last = self.entries.len() - 1;
        let removed = self.entries.swap_remove(i);
        let moved = (i != last).then(|| hash(&self.entries[i].0));
        if let (Some(t), Some(h)) = (self.unindex(&removed.0, i), moved) {
            if let Some(j) = t.find_mut(h, |&j| j == last) {
                *j = i;
            }
        }
        Some(removed)
    }

    /// Keeps the entries for which `keep` returns true, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Str, &mut Byml) -> bool) {
        let before = self.entries.len();
        self.entries.retain_mut(|(k, v)| keep(k, v));
        if self.entries.len() != before {
            self.rebuild_index();
        }
    }

    /// Sorts the entries by key.
    pub fn sort_keys(&mut self) {
        self.entries.sort_by(|a, b| a.0.cmp(&b.0));
        self.rebuild_index();
    }

    /// Sorts the entries with a comparison of (key, value) pairs.
    pub fn sort_by(&mut self, mut cmp: impl FnMut(&Str, &Byml, &Str, &Byml) -> std::cmp::Ordering) {
        self.entries.sort_by(|a, b| cmp(&a.0, &a.1, &b.0, &b.1));
        self.rebuild_index();
    }

    /// The entry of `key`, to read, change or fill it.
    pub fn entry(&mut self, key: impl Into<Str>) -> Entry<'_> {
        let key = key.into();
        match self.get_index_of(&key) {
            Some(index) => Entry::Occupied(OccupiedEntry { map: self, index }),
            None => Entry::Vacant(VacantEntry { map: self, key }),
        }
    }

    /// The entries in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(self.entries.iter())
    }

    /// The entries in order, values to change.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        IterMut(self.entries.iter_mut())
    }

    /// The keys in order.
    pub fn keys(&self) -> Keys<'_> {
        Keys(self.entries.iter())
    }

    /// The values in order.
    pub fn values(&self) -> Values<'_> {
        Values(self.entries.iter())
    }

    /// The values in order, to change.
    pub fn values_mut(&mut self) -> ValuesMut<'_> {
        ValuesMut(self.entries.iter_mut())
    }

    /// The keys, taken out of the map.
    pub fn into_keys(self) -> impl DoubleEndedIterator<Item = Str> + ExactSizeIterator {
        self.entries.into_iter().map(|(k, _)| k)
    }

    /// The values, taken out of the map.
    pub fn into_values(self) -> impl DoubleEndedIterator<Item = Byml> + ExactSizeIterator {
        self.entries.into_iter().map(|(_, v)| v)
    }
}

/// One key of a [`Map`], found or not (from [`Map::entry`]).
pub enum Entry<'a> {
    /// The map has the key.
    Occupied(OccupiedEntry<'a>),
    /// The map does not have the key.
    Vacant(VacantEntry<'a>),
}

/// A key that a [`Map`] has.
pub struct OccupiedEntry<'a> {
    map: &'a mut Map,
    index: usize,
}

/// A key that a [`Map`] does not have.
pub struct VacantEntry<'a> {
    map: &'a mut Map,
    key: Str,
}

impl<'a> Entry<'a> {
    /// The key.
    pub fn key(&self) -> &Str {
        match self {
            Entry::Occupied(e) => e.key(),
            Entry::Vacant(e) => e.key(),
        }
    }
    /// The value, inserting `default` first if the key is not there.
    pub fn or_insert(self, default: Byml) -> &'a mut Byml {
        match self {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(default),
        }
    }
    /// The value, inserting `f()` first if the key is not there.
    pub fn or_insert_with(self, f: impl FnOnce() -> Byml) -> &'a mut Byml {
        match self {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(f()),
        }
    }
    /// The value, inserting [`Byml::Null`] first if the key is not there.
    pub fn or_default(self) -> &'a mut Byml {
        self.or_insert_with(Byml::default)
    }
    /// Calls `f` on the value if the key is there.
    pub fn and_modify(mut self, f: impl FnOnce(&mut Byml)) -> Self {
        if let Entry::Occupied(e) = &mut self {
            f(e.get_mut());
        }
        self
    }
    /// The position of the entry: where it is, or where it would be inserted.
    pub fn index(&self) -> usize {
        match self {
            Entry::Occupied(e) => e.index,
            Entry::Vacant(e) => e.map.len(),
        }
    }
}

impl<'a> OccupiedEntry<'a> {
    /// The key.
    pub fn key(&self) -> &Str {
        &self.map.entries[self.index].0
    }
    /// The position of the entry.
    pub fn index(&self) -> usize {
        self.index
    }
    /// The value.
    pub fn get(&self) -> &Byml {
        &self.map.entries[self.index].1
    }
    /// The value, to change.
    pub fn get_mut(&mut self) -> &mut Byml {
        &mut self.map.entries[self.index].1
    }
    /// The value, for as long as the map is borrowed.
    pub fn into_mut(self) -> &'a mut Byml {
        &mut self.map.entries[self.index].1
    }
    /// Replaces the value, returning the old one.
    pub fn insert(&mut self, value: Byml) -> Byml {
        std::mem::replace(self.get_mut(), value)
    }
    /// Removes the entry as [`Map::shift_remove`] does, returning its value.
    pub fn shift_remove(self) -> Byml {
        let i = self.index;
        self.map
            .shift_remove_index(i)
            .map(|(_, v)| v)
            .unwrap_or_default()
    }
}

impl<'a> VacantEntry<'a> {
    /// The key.
    pub fn key(&self) -> &Str {
        &self.key
    }
    /// The key, given back.
    pub fn into_key(self) -> Str {
        self.key
    }
    /// Inserts the value at the end of the map.
    pub fn insert(self, value: Byml) -> &'a mut Byml {
        let i = self.map.push_new(self.key, value);
        &mut self.map.entries[i].1
    }
}

macro_rules! iterator {
    ($(#[$doc:meta])* $name:ident, $inner:ty, $item:ty, |$e:ident| $map:expr) => {
        $(#[$doc])*
        pub struct $name<'a>($inner);
        impl<'a> Iterator for $name<'a> {
            type Item = $item;
            #[inline]
            fn next(&mut self) -> Option<$item> {
                self.0.next().map(|$e| $map)
            }
            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                self.0.size_hint()
            }
        }
        impl DoubleEndedIterator for $name<'_> {
            #[inline]
            fn next_back(&mut self) -> Option<Self::Item> {
                self.0.next_back().map(|$e| $map)
            }
        }
        impl ExactSizeIterator for $name<'_> {}
        impl std::iter::FusedIterator for $name<'_> {}
    };
}

iterator!(
    /// The entries of a [`Map`] in order ([`Map::iter`]).
    Iter, std::slice::Iter<'a, (Str, Byml)>, (&'a Str, &'a Byml), |e| (&e.0, &e.1)
);
iterator!(
    /// The entries of a [`Map`] in order, values to change ([`Map::iter_mut`]).
    IterMut, std::slice::IterMut<'a, (Str, Byml)>, (&'a Str, &'a mut Byml), |e| (&e.0, &mut e.1)
);
iterator!(
    /// The keys of a [`Map`] in order ([`Map::keys`]).
    Keys, std::slice::Iter<'a, (Str, Byml)>, &'a Str, |e| &e.0
);
iterator!(
    /// The values of a [`Map`] in order ([`Map::values`]).
    Values, std::slice::Iter<'a, (Str, Byml)>, &'a Byml, |e| &e.1
);
iterator!(
    /// The values of a [`Map`] in order, to change ([`Map::values_mut`]).
    ValuesMut, std::slice::IterMut<'a, (Str, Byml)>, &'a mut Byml, |e| &mut e.1
);

impl Clone for Iter<'_> {
    fn clone(&self) -> Self {
        Iter(self.0.clone())
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a Str, &'a Byml);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Map {
    type Item = (&'a Str, &'a mut Byml);
    type IntoIter = IterMut<'a>;
    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

impl IntoIterator for Map {
    type Item = (Str, Byml);
    type IntoIter = std::vec::IntoIter<(Str, Byml)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<K: Into<Str>> FromIterator<(K, Byml)> for Map {
    /// Later entries with a key that came before replace its value, in its first position.
    fn from_iter<I: IntoIterator<Item = (K, Byml)>>(iter: I) -> Self {
        let iter = iter.into_iter();
        let mut m = Map::with_capacity(iter.size_hint().0);
        m.extend(iter);
        m
    }
}

impl<K: Into<Str>> Extend<(K, Byml)> for Map {
    fn extend<I: IntoIterator<Item = (K, Byml)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl<K: Into<Str>, const N: usize> From<[(K, Byml); N]> for Map {
    fn from(entries: [(K, Byml); N]) -> Self {
        entries.into_iter().collect()
    }
}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl PartialEq for Map {
    /// The same keys with equal values, in any order.
    fn eq(&self, other: &Map) -> bool {
        self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl std::ops::Index<&str> for Map {
    type Output = Byml;
    /// The value of `key`; panics if the map does not have it.
    fn index(&self, key: &str) -> &Byml {
        self.get(key)
            .unwrap_or_else(|| panic!("the map has no key {key:?}"))
    }
}

impl std::ops::IndexMut<&str> for Map {
    /// The value of `key`; panics if the map does not have it.
    fn index_mut(&mut self, key: &str) -> &mut Byml {
        match self.get_index_of(key) {
            Some(i) => &mut self.entries[i].1,
            None => panic!("the map has no key {key:?}"),
        }
    }
}

impl std::ops::Index<usize> for Map {
    type Output = Byml;
    /// The value at position `i`; panics past the end.
    fn index(&self, i: usize) -> &Byml {
        &self.entries[i].1
    }
}

impl std::ops::IndexMut<usize> for Map {
    /// The value at position `i`; panics past the end.
    fn index_mut(&mut self, i: usize) -> &mut Byml {
        &mut self.entries[i].1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index, when present, finds every key at its position, and is present exactly for large maps.
    fn check(m: &Map) {
        assert_eq!(m.index.is_some(), m.len() > LINEAR_MAX, "index presence");
        if let Some(t) = &m.index {
            assert_eq!(t.len(), m.len());
        }
        for (i, (k, _)) in m.iter().enumerate() {
            assert_eq!(m.get_index_of(k), Some(i), "{k}");
        }
    }

    /// A model: a vector of (key, value) with linear search, and the same operations.
    #[derive(Default)]
    struct Model(Vec<(String, i32)>);

    impl Model {
        fn pos(&self, k: &str) -> Option<usize> {
            self.0.iter().position(|(x, _)| x == k)
        }
    }

    fn same(m: &Map, model: &Model) {
        check(m);
        let got: Vec<(String, i32)> = m
            .iter()
            .map(|(k, v)| (k.to_string(), v.as_i32().unwrap()))
            .collect();
        assert_eq!(got, model.0);
    }

    /// A deterministic stream of operations over keys k0..k39 (SplitMix64), compared with the model after each.
    #[test]
    fn operations_agree_with_a_vector_model() {
        let mut s = 0x1234_5678_u64;
        let mut next = move || {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut m = Map::new();
        let mut model = Model::default();
        for step in 0..20_000i32 {
            let key = format!("k{}", next() % 40);
            let val = step;
            match next() % 10 {
                0..=3 => {
                    let old = m.insert(key.as_str(), Byml::I32(val));
                    let want = match model.pos(&key) {
                        Some(i) => Some(std::mem::replace(&mut model.0[i].1, val)),
                        None => {
                            model.0.push((key.clone(), val));
                            None
                        }
                    };
                    assert_eq!(old.map(|v| v.as_i32().unwrap()), want);
                }
                4 => {
                    let got = m.shift_remove(&key);
                    let want = model.pos(&key).map(|i| model.0.remove(i).1);
                    assert_eq!(got.map(|v| v.as_i32().unwrap()), want);
                }
                5 => {
                    let got = m.swap_remove(&key);
                    let want = model.pos(&key).map(|i| model.0.swap_remove(i).1);
                    assert_eq!(got.map(|v| v.as_i32().unwrap()), want);
                }
                6 => {
                    let e = m.entry(key.as_str());
                    let idx = e.index();
                    *e.or_insert(Byml::I32(val)) = Byml::I32(val + 1);
                    let i = match model.pos(&key) {
                        Some(i) => i,
                        None => {
                            model.0.push((key.clone(), 0));
                            model.0.len() - 1
                        }
                    };
                    model.0[i].1 = val + 1;
                    assert_eq!(idx, i);
                }
                7 => {
                    let keep = next() % 3;
                    m.retain(|k, _| k.len() as u64 % 3 != keep);
                    model.0.retain(|(k, _)| k.len() as u64 % 3 != keep);
                }
                8 => {
                    if next() % 50 == 0 {
                        m.sort_keys();
                        model.0.sort();
                    }
                    assert_eq!(
                        m.get(&key).map(|v| v.as_i32().unwrap()),
                        model.pos(&key).map(|i| model.0[i].1)
                    );
                }
                _ => {
                    if let Some(i) = model.pos(&key) {
                        let (k, _) = m.shift_remove_index(i).unwrap();
                        assert_eq!(k, key);
                        model.0.remove(i);
                    } else {
                        assert!(!m.contains_key(&key));
                    }
                }
            }
            same(&m, &model);
        }
    }

    #[test]
    fn order_and_equality() {
        let a: Map = (0..40).map(|i| (format!("k{i}"), Byml::I32(i))).collect();
        let b: Map = (0..40)
            .rev()
            .map(|i| (format!("k{i}"), Byml::I32(i)))
            .collect();
        check(&a);
        assert_eq!(a, b, "order does not matter for equality");
        assert_eq!(a.get_index(0).unwrap().0, "k0");
        assert_eq!(b.get_index(0).unwrap().0, "k39");
        let mut c = a.clone();
        c["k3"] = Byml::I32(-1);
        assert_ne!(a, c);
        assert_eq!(c[3], Byml::I32(-1));
        let dup: Map = [
            ("x", Byml::I32(1)),
            ("y", Byml::I32(2)),
            ("x", Byml::I32(3)),
        ]
        .into();
        assert_eq!(dup.len(), 2);
        assert_eq!(dup.first(), Some((&Str::from("x"), &Byml::I32(3))));
        assert_eq!(format!("{dup:?}"), r#"{"x": I32(3), "y": I32(2)}"#);
    }

    #[test]
    fn permute_moves_entries() {
        for n in [0usize, 1, 2, 5, 17, 70] {
            let m: Map = (0..n)
                .map(|i| (format!("k{i}"), Byml::I32(i as i32)))
                .collect();
            // A few permutations: reversal, rotation, and a stride through the entries.
            let mut perms: Vec<Vec<usize>> = vec![
                (0..n).rev().collect(),
                (0..n).map(|i| (i + 1) % n).collect(),
            ];
            if n % 3 != 0 {
                perms.push((0..n).map(|i| (3 * i) % n).collect());
            }
            for perm in perms {
                let mut p = m.clone();
                p.permute(&perm);
                check(&p);
                let got: Vec<i32> = p.values().map(|v| v.as_i32().unwrap()).collect();
                let want: Vec<i32> = perm.iter().map(|&i| i as i32).collect();
                assert_eq!(got, want, "{perm:?}");
            }
            // Not a permutation: nothing moves.
            if n >= 2 {
                let mut p = m.clone();
                p.permute(&vec![0; n]);
                assert!(p.iter().eq(m.iter()));
            }
        }
    }

    #[test]
    fn node_stays_small() {
        assert_eq!(std::mem::size_of::<Map>(), 32);
        assert_eq!(std::mem::size_of::<Byml>(), 40);
    }
}
