//! A [`Document`] to BYML bytes.
//!
//! Everything but the tree and the layout choices is derived here: the key and string tables (sorted, without
//! duplicates), every offset, count and node type, the order of dictionary pairs (by key), of hash array pairs (by
//! hash) and the index remap tables.
//!
//! Placement follows Nintendo's writers: after the header come the key table and the string table; each container
//! is followed by the out-of-line values it refers to, in order, each one's own children right after it (depth
//! first). With [`Layout::share`], a value equal to one already written is not written again (oead, and
//! Nintendo's version 1-4 files). 64-bit numbers and binary data go where [`ValuePlacement`] says.

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHashSet};

use super::node_type as nt;
use super::{Byml, Document, Layout, ValuePlacement};
use binspec_runtime::{Endian, Error, Result};

/// The largest alignment of aligned binary data (0xa2) that the writer pads to. The reader takes any value a file
/// gives; padding to it could take gigabytes (a fuzzed file asked for 0xc2000013), so larger ones are refused. The
/// same bound as the generated writers' layout alignments ([`binspec_runtime::layout::MAX_ALIGN`]).
pub const MAX_ALIGN: u32 = binspec_runtime::layout::MAX_ALIGN as u32;

/// Deepest nesting that the writer accepts (the reader accepts files up to [`super::read::MAX_DEPTH`]).
pub const MAX_DEPTH: usize = super::read::MAX_DEPTH;

pub(crate) fn write_document(doc: &Document) -> Result<Vec<u8>> {
    let Document {
        version,
        endian,
        root,
        layout: _,
    } = doc;
    let version = *version;
    if !(1..=10).contains(&version) {
        return Err(Error::write(format!("version {version} is not one of 1 to 10")).at("version"));
    }
    let layout = doc.effective_layout();
    let mut w = Wr::new(*endian == Endian::Big, layout);
    w.u16(0x4259); // "YB" little endian, "BY" big endian
    w.u16(version);
    w.u32(0);
    w.u32(0);
    w.u32(0);
    if root.is_null() {
        return Ok(w.buf);
    }
    if !root.is_container() && version < 10 {
        return Err(Error::write(format!(
            "the root of a version {version} file must be an array, a dictionary or a hash array, not {} (version 10 allows any root)",
            root.type_name()
        ))
        .at("root"));
    }

    // Key and string tables: every key and string, sorted, once.
    let (keys, strings) = collect_strings(root, version).map_err(|e| e.at("root"))?;
    if !keys.is_empty() {
        let at = w.buf.len() as u32;
        w.patch(4, at);
        w.table(&keys).map_err(|e| e.at("key_table"))?;
    }
    if !strings.is_empty() {
        let at = w.buf.len() as u32;
        w.patch(8, at);
        w.table(&strings).map_err(|e| e.at("string_table"))?;
    }
    w.keys = keys
        .iter()
        .enumerate()
        .map(|(i, k)| (*k, i as u32))
        .collect();
    w.strings = strings
        .iter()
        .enumerate()
        .map(|(i, k)| (*k, i as u32))
        .collect();

    if layout.values == ValuePlacement::BeforeRoot {
        let mut occurrences = Vec::new();
        w.values_before(root, 0, &mut occurrences)
            .map_err(|e| e.at("root"))?;
        if !layout.share {
            w.before = w.grouped(&occurrences);
        }
        w.visited.clear();
        w.align(4);
    }
    let root_at = w.buf.len() as u32;
    w.patch(12, root_at);
    if root.is_container() {
        w.container(root, 0).map_err(|e| e.at("root"))?;
    } else {
        // Version 10: a container header with only the type, then the value.
        w.header(root.node_type(), 0).map_err(|e| e.at("root"))?;
        let slot = w.buf.len();
        w.u32(0);
        w.slot(slot, root).map_err(|e| e.at("root"))?;
        if nt::is_out_of_line(root.node_type()) {
            w.children(vec![(slot, root, Seg::None)], 0)
                .map_err(|e| e.at("root"))?;
        }
    }
    if layout.values == ValuePlacement::AfterContainers {
        let pending = std::mem::take(&mut w.pending);
        if layout.share {
            for (slot, v) in pending {
                w.place_value(slot, v);
            }
        } else {
            let values: Vec<&Byml> = pending.iter().map(|p| p.1).collect();
            let at = w.grouped(&values);
            for ((slot, _), at) in pending.iter().zip(at) {
                w.patch(*slot, at);
            }
        }
    }
    // No padding at the end: oead and the byml package end the file after its last node.
    Ok(w.buf)
}

/// The sorted, deduplicated keys and strings of a tree (with the version checks that need a full walk).
fn collect_strings(root: &Byml, version: u16) -> Result<(Vec<&str>, Vec<&str>)> {
    // Sets first: a tree repeats its keys far more often than it has distinct ones.
    let mut keys: FxHashSet<&str> = FxHashSet::default();
    let mut strings: FxHashSet<&str> = FxHashSet::default();
    let mut stack = vec![(root, 0usize)];
    while let Some((v, depth)) = stack.pop() {
        if depth > MAX_DEPTH {
            return Err(Error::write(format!(
                "containers nest deeper than {MAX_DEPTH}"
            )));
        }
        match v {
            Byml::String(s) => {
                strings.insert(s.as_str());
            }
            Byml::Array(a) => stack.extend(a.iter().map(|c| (c, depth + 1))),
            Byml::Map(m) => {
                keys.extend(m.keys().map(|k| k.as_str()));
                stack.extend(m.values().map(|c| (c, depth + 1)));
            }
            Byml::MonoArray(_) | Byml::RemapMap(_) | Byml::HashArray(_) if version < 7 => {
                return Err(Error::write(format!(
                    "a {} needs version 7 or later; this document is version {version}",
                    v.type_name()
                )))
            }
            Byml::MonoArray(a) => stack.extend(a.iter().map(|c| (c, depth + 1))),
            Byml::RemapMap(m) => {
                keys.extend(m.keys().map(|k| k.as_str()));
                stack.extend(m.values().map(|c| (c, depth + 1)));
            }
            Byml::HashArray(h) => stack.extend(h.entries.iter().map(|(_, c)| (c, depth + 1))),
            Byml::AlignedBinary(_, a) if *a > MAX_ALIGN => {
                return Err(Error::write(format!(
                    "aligned binary data with an alignment of {a:#x}: the writer pads to at most {MAX_ALIGN:#x} \
                     (files use small powers of two)"
                )))
            }
            _ => {}
        }
    }
    if keys.iter().chain(&strings).any(|s| s.contains('\0')) {
        if let Some(e) = nul_error(root, 0) {
            return Err(e);
        }
    }
    let mut keys: Vec<&str> = keys.into_iter().collect();
    keys.sort_unstable();
    let mut strings: Vec<&str> = strings.into_iter().collect();
    strings.sort_unstable();
    Ok((keys, strings))
}

/// The error for the first key or string, in tree order, that holds a NUL character, with its path: the file ends
/// each string at its first NUL, so what follows would be lost (and two keys that differ only after it would
/// collide).
fn nul_error(v: &Byml, depth: usize) -> Option<Error> {
    let nul = |what: &str, s: &str| {
        Error::write(format!(
            "the {what} {s:?} holds a NUL character, which BYML cannot store (its strings end at the first NUL)"
        ))
    };
    if depth > MAX_DEPTH {
        return None;
    }
    let child = |seg: Seg, c: &Byml| nul_error(c, depth + 1).map(|e| seg.add(e));
    match v {
        Byml::String(s) if s.contains('\0') => Some(nul("string", s)),
        Byml::Array(a) | Byml::MonoArray(a) => a
            .iter()
            .enumerate()
            .find_map(|(i, c)| child(Seg::Index(i), c)),
        Byml::Map(m) | Byml::RemapMap(m) => m.iter().find_map(|(k, c)| {
            if k.contains('\0') {
                Some(nul("key", k).at_key(k.as_str()))
            } else {
                child(Seg::Key(k), c)
            }
        }),
        Byml::HashArray(h) => h
            .entries
            .iter()
            .enumerate()
            .find_map(|(i, (_, c))| child(Seg::Index(i), c)),
        _ => None,
    }
}

/// A node compared by value, with its hash computed once ([`Wr::key`]), for sharing equal values. Floats compare
/// by their bits, except that a node holding a NaN anywhere (the third field) equals nothing, not even itself: oead
/// compares floats with `==`, so it never shares a NaN or a container that holds one. (It does share 0.0 with
/// -0.0, which loses the sign; binspec does not.)
#[derive(Clone, Copy)]
struct ByValue<'a>(&'a Byml, u64, bool);

impl PartialEq for ByValue<'_> {
    fn eq(&self, other: &Self) -> bool {
        !self.2
            && !other.2
            && self.1 == other.1
            && (std::ptr::eq(self.0, other.0) || self.0 == other.0)
    }
}
impl Eq for ByValue<'_> {}
impl Hash for ByValue<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u64(self.1)
    }
}

/// The hash of a node from its own content and its children's hashes (memoised by the writer).
fn hash_shallow(v: &Byml, child: &mut dyn FnMut(&Byml) -> u64) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    h.write_u8(v.node_type());
    match v {
        Byml::Null => {}
        Byml::Bool(b) => b.hash(&mut h),
        Byml::I32(x) => x.hash(&mut h),
        Byml::U32(x) => x.hash(&mut h),
        Byml::F32(x) => x.to_bits().hash(&mut h),
        Byml::I64(x) => x.hash(&mut h),
        Byml::U64(x) => x.hash(&mut h),
        Byml::F64(x) => x.to_bits().hash(&mut h),
        Byml::String(s) => s.hash(&mut h),
        Byml::Binary(b) => b.hash(&mut h),
        Byml::AlignedBinary(b, a) => {
            b.hash(&mut h);
            a.hash(&mut h)
        }
        Byml::Array(a) | Byml::MonoArray(a) => {
            h.write_usize(a.len());
            for c in a {
                h.write_u64(child(c))
            }
        }
        Byml::Map(m) => {
            // Order-independent, as dictionaries compare.
            h.write_usize(m.len());
            let mut sum = 0u64;
            for (k, c) in m {
                let mut e = rustc_hash::FxHasher::default();
                k.hash(&mut e);
                e.write_u64(child(c));
                sum = sum.wrapping_add(e.finish());
            }
            h.write_u64(sum)
        }
        Byml::RemapMap(m) => {
            h.write_usize(m.len());
            for (k, c) in m {
                k.hash(&mut h);
                h.write_u64(child(c))
            }
        }
        Byml::HashArray(x) => {
            h.write_usize(x.entries.len());
            for (k, c) in &x.entries {
                k.hash(&mut h);
                h.write_u64(child(c))
            }
        }
    }
    h.finish()
}

struct Wr<'a> {
    buf: Vec<u8>,
    be: bool,
    keys: FxHashMap<&'a str, u32>,
    strings: FxHashMap<&'a str, u32>,
    layout: Layout,
    /// Offsets of written out-of-line values, when they are shared.
    written: FxHashMap<ByValue<'a>, u32>,
    /// Hashes of containers, and whether they hold a NaN, computed once each (when shared).
    hashes: FxHashMap<*const Byml, (u64, bool)>,
    /// Containers already walked by [`Wr::values_before`] (when shared).
    visited: FxHashSet<ByValue<'a>>,
    /// Offsets of the values block, in the order the containers use them (unshared `BeforeRoot`).
    before: Vec<u32>,
    before_cursor: usize,
    /// Value slots to fill after the containers (`AfterContainers`).
    pending: Vec<(usize, &'a Byml)>,
}

/// Whether writing `root` with its values after the containers ([`ValuePlacement::AfterContainers`]) may give
/// bytes that read back as inline placement: every container the file will hold comes, in the reader's walk, before
/// the first value, so the values that follow the containers are also where inline placement puts them.
///
/// The reader walks depth first and, in a file with the values after the containers, a dictionary's containers come
/// before its values. This walk takes every container's containers first (for arrays too, where the reader keeps
/// the array's order), which can only move a value later, and skips containers the writer shares with an earlier
/// equal one. It answers `false` only when some container that the file will hold comes after a value, which
/// proves that the bytes read back as values after the containers; `true` may be wrong the other way, and is
/// settled by writing and reading the document (see `Document::from_binary`). It stops at the first such
/// container, which in a file of any size comes early.
pub(crate) fn after_containers_may_read_as_inline(root: &Byml, share: bool) -> bool {
    fn walk<'a>(
        w: &mut Wr<'a>,
        c: &'a Byml,
        seen: &mut FxHashSet<ByValue<'a>>,
        value_seen: &mut bool,
    ) -> bool {
        for (_, child) in c.children() {
            if !child.is_container() {
                continue;
            }
            if w.layout.share && !seen.insert(w.key(child)) {
                continue;
            }
            if *value_seen || !walk(w, child, seen, value_seen) {
                return false;
            }
        }
        *value_seen |= c
            .children()
            .any(|(_, v)| !v.is_container() && nt::is_out_of_line(v.node_type()));
        true
    }
    if !root.is_container() {
        return true;
    }
    let mut w = Wr::new(
        false,
        Layout {
            share,
            values: ValuePlacement::AfterContainers,
        },
    );
    // Depth is bounded: the document was read, and the reader limits nesting to `read::MAX_DEPTH`.
    walk(&mut w, root, &mut FxHashSet::default(), &mut false)
}

impl<'a> Wr<'a> {
    fn new(be: bool, layout: Layout) -> Self {
        Wr {
            buf: Vec::with_capacity(4096),
            be,
            keys: FxHashMap::default(),
            strings: FxHashMap::default(),
            layout,
            written: FxHashMap::default(),
            hashes: FxHashMap::default(),
            visited: FxHashSet::default(),
            before: Vec::new(),
            before_cursor: 0,
            pending: Vec::new(),
        }
    }
    /// The sharing key of a node: its hash is computed once per container, from its children's.
    fn key(&mut self, v: &'a Byml) -> ByValue<'a> {
        let (h, nan) = self.hash_of(v);
        ByValue(v, h, nan)
    }
    /// The hash of a node, and whether it holds a NaN.
    fn hash_of(&mut self, v: &Byml) -> (u64, bool) {
        if !v.is_container() {
            let nan = match v {
                Byml::F32(x) => x.is_nan(),
                Byml::F64(x) => x.is_nan(),
                _ => false,
            };
            return (hash_shallow(v, &mut |_| 0), nan);
        }
        if let Some(&h) = self.hashes.get(&(v as *const Byml)) {
            return h;
        }
        // Depth is bounded: `collect_strings` has checked it.
        let mut nan = false;
        let h = hash_shallow(v, &mut |c| {
            let (h, n) = self.hash_of(c);
            nan |= n;
            h
        });
        self.hashes.insert(v as *const Byml, (h, nan));
        (h, nan)
    }

    #[inline]
    fn u16(&mut self, v: u16) {
        let b = if self.be {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.buf.extend_from_slice(&b);
    }
    #[inline]
    fn u32(&mut self, v: u32) {
        let b = if self.be {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.buf.extend_from_slice(&b);
    }
    #[inline]
    fn u64(&mut self, v: u64) {
        let b = if self.be {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.buf.extend_from_slice(&b);
    }
    #[inline]
    fn patch(&mut self, at: usize, v: u32) {
        let b = if self.be {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.buf[at..at + 4].copy_from_slice(&b);
    }
    fn align(&mut self, a: usize) {
        let n = self.buf.len().next_multiple_of(a);
        self.buf.resize(n, 0);
    }
    fn pos(&self) -> Result<u32> {
        u32::try_from(self.buf.len())
            .map_err(|_| Error::write("the file would be larger than 4 GiB"))
    }
    fn header(&mut self, t: u8, n: usize) -> Result<()> {
        if n > 0xff_ffff {
            return Err(Error::write(format!(
                "a container holds at most 16777215 elements; this one has {n}"
            )));
        }
        let n = n as u32;
        self.u32(if self.be {
            (t as u32) << 24 | n
        } else {
            t as u32 | n << 8
        });
        Ok(())
    }

    fn table(&mut self, strings: &[&str]) -> Result<()> {
        let base = self.buf.len();
        self.header(nt::STRING_TABLE, strings.len())?;
        let offsets = self.buf.len();
        self.buf.resize(offsets + 4 * (strings.len() + 1), 0);
        for (i, s) in strings.iter().enumerate() {
            let rel = (self.buf.len() - base) as u32;
            self.patch(offsets + 4 * i, rel);
            self.buf.extend_from_slice(s.as_bytes());
            self.buf.push(0);
        }
        let rel = (self.buf.len() - base) as u32;
        self.patch(offsets + 4 * strings.len(), rel);
        self.align(4);
        self.pos()?;
        Ok(())
    }

    /// The 4-byte value word of a node: inline values directly; out-of-line ones get 0 and are placed later.
    fn slot(&mut self, at: usize, v: &Byml) -> Result<()> {
        let word = match v {
            Byml::Null => 0,
            Byml::Bool(b) => *b as u32,
            Byml::I32(x) => *x as u32,
            Byml::U32(x) => *x,
            Byml::F32(x) => x.to_bits(),
            Byml::String(s) => self.strings[s.as_str()],
            _ => 0,
        };
        self.patch(at, word);
        Ok(())
    }

    /// Writes a container, then the out-of-line values it refers to.
    fn container(&mut self, v: &'a Byml, depth: usize) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(Error::write(format!(
                "containers nest deeper than {MAX_DEPTH}"
            )));
        }
        let mut children: Vec<(usize, &'a Byml, Seg<'a>)> = Vec::new();
        match v {
            Byml::Array(a) => {
                self.header(nt::ARRAY, a.len())?;
                self.buf.extend(a.iter().map(|c| c.node_type()));
                self.align(4);
                let values = self.buf.len();
                self.buf.resize(values + 4 * a.len(), 0);
                for (i, c) in a.iter().enumerate() {
                    let at = values + 4 * i;
                    self.slot(at, c)?;
                    if nt::is_out_of_line(c.node_type()) {
                        children.push((at, c, Seg::Index(i)));
                    }
                }
            }
            Byml::MonoArray(a) => {
                let t = a.first().map_or(nt::NULL, |c| c.node_type());
                if let Some((i, c)) = a.iter().enumerate().find(|(_, c)| c.node_type() != t) {
                    return Err(Error::write(format!(
                        "the elements of a mono-typed array must all have one type: element 0 is {}, element {i} is {}",
                        a[0].type_name(),
                        c.type_name()
                    )));
                }
                self.header(nt::MONO_ARRAY, a.len())?;
                self.buf.push(t);
                self.align(4);
                let values = self.buf.len();
                self.buf.resize(values + 4 * a.len(), 0);
                for (i, c) in a.iter().enumerate() {
                    let at = values + 4 * i;
                    self.slot(at, c)?;
                    if nt::is_out_of_line(t) {
                        children.push((at, c, Seg::Index(i)));
                    }
                }
            }
            Byml::Map(m) | Byml::RemapMap(m) => {
                let remap = matches!(v, Byml::RemapMap(_));
                self.header(v.node_type(), m.len())?;
                // Pairs by key index; `sorted[j]` = (key index, entry index).
                let mut sorted: Vec<(u32, usize)> = m
                    .keys()
                    .enumerate()
                    .map(|(i, k)| (self.keys[k.as_str()], i))
                    .collect();
                sorted.sort_unstable();
                let pairs = self.buf.len();
                self.buf.resize(pairs + 8 * m.len(), 0);
                let mut slot_of = vec![0usize; m.len()];
                for (j, &(k, i)) in sorted.iter().enumerate() {
                    let (_, c) = m.get_index(i).unwrap();
                    let t = c.node_type() as u32;
                    let at = pairs + 8 * j;
                    self.patch(at, if self.be { k << 8 | t } else { t << 24 | k });
                    self.slot(at + 4, c)?;
                    slot_of[i] = at + 4;
                }
                if remap {
                    let mut table = vec![0u32; m.len()];
                    for (j, &(_, i)) in sorted.iter().enumerate() {
                        table[i] = j as u32;
                    }
                    self.remap_table(&table);
                }
                for (i, (k, c)) in m.iter().enumerate() {
                    if nt::is_out_of_line(c.node_type()) {
                        children.push((slot_of[i], c, Seg::Key(k)));
                    }
                }
            }
            Byml::HashArray(h) => {
                let width = (h.width & 0xf) as usize;
                if let Some((i, _)) = h
                    .entries
                    .iter()
                    .enumerate()
                    .find(|(_, (k, _))| k.len() != width)
                {
                    return Err(Error::write(format!(
                        "every hash of this hash array has {width} words (the type's low nibble); entry {i} has {}",
                        h.entries[i].0.len()
                    )));
                }
                self.header(v.node_type(), h.entries.len())?;
                let mut sorted: Vec<usize> = (0..h.entries.len()).collect();
                sorted.sort_by(|&a, &b| h.entries[a].0.cmp(&h.entries[b].0));
                let pairs = self.buf.len();
                let pair = 4 * width + 4;
                self.buf.resize(pairs + pair * h.entries.len(), 0);
                let mut slot_of = vec![0usize; h.entries.len()];
                for (j, &i) in sorted.iter().enumerate() {
                    let (hash, c) = &h.entries[i];
                    let at = pairs + pair * j;
                    for (k, word) in hash.iter().enumerate() {
                        self.patch(at + 4 * k, *word);
                    }
                    self.slot(at + 4 * width, c)?;
                    slot_of[i] = at + 4 * width;
                }
                for &i in &sorted {
                    self.buf.push(h.entries[i].1.node_type());
                }
                if h.remap {
                    let mut table = vec![0u32; h.entries.len()];
                    for (j, &i) in sorted.iter().enumerate() {
                        table[i] = j as u32;
                    }
                    self.remap_table(&table);
                }
                self.align(4);
                for (i, (_, c)) in h.entries.iter().enumerate() {
                    if nt::is_out_of_line(c.node_type()) {
                        children.push((slot_of[i], c, Seg::Index(i)));
                    }
                }
            }
            _ => {
                return Err(Error::write(format!(
                    "{} is not a container",
                    v.type_name()
                )))
            }
        }
        self.children(children, depth)
    }

    fn remap_table(&mut self, table: &[u32]) {
        match super::read::remap_width(table.len()) {
            1 => self.buf.extend(table.iter().map(|&x| x as u8)),
            2 => {
                for &x in table {
                    self.u16(x as u16)
                }
            }
            _ => {
                for &x in table {
                    self.u32(x)
                }
            }
        }
        self.align(4);
    }

    /// Places the out-of-line values of a container, in order, each container's own values right after it. When
    /// 64-bit values and binary data go in a block of their own, a container's values are taken before its child
    /// containers (so that the block's order follows from the order of containers and of values alone).
    fn children(
        &mut self,
        mut children: Vec<(usize, &'a Byml, Seg<'a>)>,
        depth: usize,
    ) -> Result<()> {
        if self.layout.values != ValuePlacement::Inline {
            children.sort_by_key(|c| c.1.is_container());
        }
        for (slot, c, seg) in children {
            if c.is_container() {
                if self.layout.share {
                    let k = self.key(c);
                    if let Some(&at) = self.written.get(&k) {
                        self.patch(slot, at);
                        continue;
                    }
                }
                // oead starts containers right after the previous node, even after binary data of odd size. An
                // array's values are aligned counting from the array, so an array with elements (and the version 7
                // containers) is aligned to 4 here, where oead's own reader would misread its output; dictionaries
                // and empty arrays are placed as oead places them.
                let align = match c {
                    Byml::Map(_) | Byml::RemapMap(_) => false,
                    Byml::Array(a) => !a.is_empty(),
                    _ => true,
                };
                if align {
                    self.align(4);
                }
                let at = self.pos()?;
                if self.layout.share {
                    {
                        let k = self.key(c);
                        self.written.insert(k, at);
                    }
                }
                self.patch(slot, at);
                self.container(c, depth + 1).map_err(|e| seg.add(e))?;
            } else {
                match self.layout.values {
                    ValuePlacement::Inline => self.place_value(slot, c),
                    ValuePlacement::BeforeRoot => {
                        let k = self.share_key(c);
                        let at = if let Some(k) = k {
                            // Every value was written by `values_before`.
                            self.written.get(&k).copied().ok_or_else(|| {
                                Error::write("internal: a value before the root was not written")
                            })?
                        } else {
                            let at = self.before[self.before_cursor];
                            self.before_cursor += 1;
                            at
                        };
                        self.patch(slot, at);
                    }
                    ValuePlacement::AfterContainers => self.pending.push((slot, c)),
                }
            }
        }
        self.pos()?;
        Ok(())
    }

    /// Writes a 64-bit number or binary data here (or reuses an equal one) and points `slot` at it.
    fn place_value(&mut self, slot: usize, v: &'a Byml) {
        if self.layout.share {
            let k = self.key(v);
            if let Some(&at) = self.written.get(&k) {
                self.patch(slot, at);
                return;
            }
        }
        let at = self.value_data(v);
        if self.layout.share {
            {
                let k = self.key(v);
                self.written.insert(k, at);
            }
        }
        self.patch(slot, at);
    }

    /// The bytes of an out-of-line value; returns where they start.
    fn value_data(&mut self, v: &Byml) -> u32 {
        match v {
            Byml::I64(x) => {
                let at = self.buf.len() as u32;
                self.u64(*x as u64);
                at
            }
            Byml::U64(x) => {
                let at = self.buf.len() as u32;
                self.u64(*x);
                at
            }
            Byml::F64(x) => {
                let at = self.buf.len() as u32;
                self.u64(x.to_bits());
                at
            }
            Byml::Binary(b) => {
                let at = self.buf.len() as u32;
                self.u32(b.len() as u32);
                self.buf.extend_from_slice(b);
                at
            }
            Byml::AlignedBinary(b, align) => {
                // The data (after the 8-byte size and alignment) starts at a multiple of the alignment.
                if *align > 1 {
                    let a = *align as usize;
                    let data = (self.buf.len() + 8).next_multiple_of(a);
                    self.buf.resize(data - 8, 0);
                }
                let at = self.buf.len() as u32;
                self.u32(b.len() as u32);
                self.u32(*align);
                self.buf.extend_from_slice(b);
                at
            }
            _ => unreachable!("value_data is called for out-of-line values only"),
        }
    }

    /// The values block of [`ValuePlacement::BeforeRoot`]: with sharing, each distinct value once, in the order
    /// the containers will use them; without, `occurrences` gets every value in that order (see [`Wr::grouped`]).
    fn values_before(
        &mut self,
        v: &'a Byml,
        depth: usize,
        occurrences: &mut Vec<&'a Byml>,
    ) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(Error::write(format!(
                "containers nest deeper than {MAX_DEPTH}"
            )));
        }
        if !v.is_container() {
            if nt::is_out_of_line(v.node_type()) {
                self.value_before(v, occurrences);
            }
            return Ok(());
        }
        let children = placement_children(v);
        for &c in &children {
            if !c.is_container() {
                self.value_before(c, occurrences);
            }
        }
        for &c in &children {
            if c.is_container() {
                if self.layout.share && {
                    let k = self.key(c);
                    !self.visited.insert(k)
                } {
                    continue;
                }
                self.values_before(c, depth + 1, occurrences)?;
            }
        }
        Ok(())
    }

    fn value_before(&mut self, v: &'a Byml, occurrences: &mut Vec<&'a Byml>) {
        match self.share_key(v) {
            Some(k) => {
                if !self.written.contains_key(&k) {
                    let at = self.value_data(v);
                    self.written.insert(k, at);
                }
            }
            // A NaN is never shared: with sharing on, each one is written where it comes, and the containers
            // take them in the same order (`before`).
            None if self.layout.share => {
                let at = self.value_data(v);
                self.before.push(at);
            }
            None => occurrences.push(v),
        }
    }

    /// The key a value is shared by, when sharing is on and the value can be shared (it holds no NaN).
    fn share_key(&mut self, v: &'a Byml) -> Option<ByValue<'a>> {
        if !self.layout.share {
            return None;
        }
        let k = self.key(v);
        (!k.2).then_some(k)
    }

    /// Writes a block of unshared values as Nintendo's version 7 files have it: grouped by value, the groups in the
    /// order of their first occurrence, each occurrence its own copy. Returns the offset of each occurrence.
    fn grouped(&mut self, values: &[&'a Byml]) -> Vec<u32> {
        let mut group_of: FxHashMap<ByValue<'a>, usize> = FxHashMap::default();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (i, v) in values.iter().enumerate() {
            // Grouped by bits, NaNs included (nothing is shared here).
            let k = ByValue(v, self.key(v).1, false);
            let g = *group_of.entry(k).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(i);
        }
        let mut at = vec![0u32; values.len()];
        for g in groups {
            for i in g {
                at[i] = self.value_data(values[i]);
            }
        }
        at
    }
}

/// The out-of-line children of a container in the order the writer places them.
fn placement_children(v: &Byml) -> Vec<&Byml> {
    let ool = |c: &&Byml| nt::is_out_of_line(c.node_type());
    match v {
        Byml::Array(a) | Byml::MonoArray(a) => a.iter().filter(ool).collect(),
        Byml::Map(m) | Byml::RemapMap(m) => m.values().filter(ool).collect(),
        Byml::HashArray(h) => h.entries.iter().map(|(_, c)| c).filter(ool).collect(),
        _ => Vec::new(),
    }
}

/// Where a child sits in its container, for error paths.
#[derive(Clone, Copy)]
enum Seg<'a> {
    Key(&'a str),
    Index(usize),
    None,
}

impl Seg<'_> {
    fn add(self, e: Error) -> Error {
        match self {
            Seg::Key(k) => e.at_key(k),
            Seg::Index(i) => e.at_index(i),
            Seg::None => e,
        }
    }
}
