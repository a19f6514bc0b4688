//! BYML bytes to a [`Document`].
//!
//! Every read is bounds-checked; a count is checked against the bytes that remain before anything is allocated for
//! it; nesting is limited to [`MAX_DEPTH`], a container that contains itself is an error, and shared containers may
//! expand to at most one node per [`BYTES_PER_NODE`] input bytes (a string or binary data counts a node per
//! [`BYTES_PER_UNIT`] bytes of it each time it is used). Errors carry the node path (`byml.root["Actors"][12]`) and
//! the byte offset.
//!
//! Besides the tree, reading infers the layout choices ([`Layout`]): whether equal values are shared, where 64-bit
//! values and binary data are placed, and the order in which each dictionary's out-of-line values were placed
//! (kept as the order of the dictionary's entries).

use super::node_type as nt;
use super::{Byml, Document, HashArray, Layout, Map, ValuePlacement};
use binspec_runtime::{Endian, Error, Result};

/// Deepest nesting of containers that a file may have. Game files nest a few levels; the limit keeps the recursive
/// reader well inside a 2 MiB thread stack even in debug builds.
pub const MAX_DEPTH: usize = 64;
/// The tree of a file may hold one node per this many bytes of the file (shared containers count each time they
/// are used), plus [`BASE_NODES`]. Unshared files take at least 4 bytes per node, and real files about 9 (the
/// densest in the corpus, a Splatoon 3 v7 file with shared containers, 8.9), so only trees that reuse the same
/// containers or values over and over reach it (issue 19: a 734-byte zstd file expanded to 3.7 GB).
pub const BYTES_PER_NODE: usize = 2;
/// What every file may hold, however small.
pub const BASE_NODES: usize = 4096;
/// A string (of more than 24 bytes, which are kept inline) or binary data counts one node per this many bytes each
/// time it is used, as each use is a copy.
pub const BYTES_PER_UNIT: usize = 16;

/// The recursive reader returns boxed errors: a small `Result` is cheaper to pass up through every level.
type BoxResult<T> = std::result::Result<T, Box<Error>>;

pub(crate) fn read_document(data: &[u8]) -> Result<Document> {
    if data.len() < 4 {
        return Err(Error::invalid(
            0,
            format!(
                "a BYML file starts with a 16-byte header; this one has {} bytes",
                data.len()
            ),
        )
        .at("header"));
    }
    let endian = match &data[..2] {
        b"YB" => Endian::Little,
        b"BY" => Endian::Big,
        m => {
            return Err(Error::invalid(
                0,
                format!(
                    "expected the magic \"YB\" (little endian) or \"BY\" (big endian), found {}",
                    binspec_runtime::error::describe_bytes(m)
                ),
            )
            .at("magic"))
        }
    };
    let mut r = Ctx {
        data,
        be: endian == Endian::Big,
        keys: Vec::new(),
        strings: Vec::new(),
        stack: Vec::new(),
        budget: data.len() / BYTES_PER_NODE + BASE_NODES,
        refs: Vec::new(),
        values_before: false,
        values_in_block: false,
        root_ofs: 0,
        scratch: Vec::new(),
        slots: (Vec::new(), Vec::new()),
        keys_unique: true,
        map_seq: 0,
        alt_orders: Vec::new(),
    };
    let version = r.u16(2).map_err(|e| e.at("version"))?;
    if !(1..=10).contains(&version) {
        return Err(
            Error::invalid(2, format!("version {version} is not one of 1 to 10")).at("version"),
        );
    }
    let key_ofs = r.u32(4).map_err(|e| e.at("key_table_offset"))?;
    let str_ofs = r.u32(8).map_err(|e| e.at("string_table_offset"))?;
    let root_ofs = r.u32(12).map_err(|e| e.at("root_offset"))?;
    r.root_ofs = root_ofs;
    let mut tables_end = 16usize;
    if key_ofs != 0 {
        let (t, end) = r.table(key_ofs as usize).map_err(|e| e.at("key_table"))?;
        // Sorted without repeats, as every writer makes it: then distinct key indices are distinct keys.
        r.keys_unique = t.windows(2).all(|w| w[0] < w[1]);
        r.keys = t;
        tables_end = tables_end.max(end);
    }
    if str_ofs != 0 {
        let (t, end) = r
            .table(str_ofs as usize)
            .map_err(|e| e.at("string_table"))?;
        r.strings = t;
        tables_end = tables_end.max(end);
    }
    // Nintendo's version 7 files put 64-bit values between the string table and the root.
    r.values_before = root_ofs as usize > (tables_end + 3) & !3;
    r.values_in_block = r.values_before;
    let mut root = r.root(version)?;
    let layout = r.infer_layout(version);
    if layout.values == ValuePlacement::AfterContainers && !r.values_in_block {
        // The values are in a block after the containers: the dictionaries whose order that changes take the
        // order found for it. (Inferring the layout again would give the same: it does not depend on the order.)
        let alt = std::mem::take(&mut r.alt_orders);
        reorder_maps(&mut root, &mut 0, &mut alt.iter().peekable());
    }
    Ok(Document {
        version,
        endian,
        root,
        layout: (layout != Layout::for_version(version)).then_some(layout),
    })
}

impl Ctx<'_> {
    fn root(&mut self, version: u16) -> Result<Byml> {
        let root_ofs = self.root_ofs;
        let r = self;
        Ok(if root_ofs == 0 {
            Byml::Null
        } else {
            let o = root_ofs as usize;
            let t = r.u8(o).map_err(|e| e.at("root"))?;
            if nt::is_container(t) {
                r.container(o, t, 0).map_err(|e| e.at("root"))?
            } else if version >= 10 {
                r.value(t, o + 4, 0).map_err(|e| e.at("root"))?
            } else {
                return Err(Error::invalid(
                o as u64,
                format!("the root of a version {version} file must be a container, not type {t:#04x} (only version 10 allows other roots)"),
            )
            .at("root"));
            }
        })
    }
}

/// A dictionary pair as read.
#[derive(Clone, Copy)]
struct Pair {
    key: u32,
    /// Node type.
    t: u8,
    /// Position of the value word.
    slot: usize,
    /// The value word: the value, or for values out of line their offset.
    word: u32,
}

/// Out-of-line slots of a dictionary: (pair, target offset).
type Slots = Vec<(usize, u32)>;

struct Ctx<'a> {
    data: &'a [u8],
    be: bool,
    keys: Vec<&'a str>,
    strings: Vec<&'a str>,
    /// Offsets of the containers being read, outermost first (cycle check).
    stack: Vec<u32>,
    /// Nodes that may still be made.
    budget: usize,
    /// Every out-of-line value: (offset, node type, is a leaf). Used to infer the layout.
    refs: Vec<(u32, u8, bool)>,
    values_before: bool,
    /// Whether 64-bit values and binary data are in a block of their own (see [`Ctx::placement_order`]).
    values_in_block: bool,
    root_ofs: u32,
    /// Dictionary pairs being read: (key index, type, value slot).
    scratch: Vec<Pair>,
    /// [`Ctx::placement_order`]'s working space: (pair, target offset), in key order and sorted by target.
    slots: (Slots, Slots),
    /// Whether the key table is sorted without repeats.
    keys_unique: bool,
    /// Plain dictionaries read so far (their number in reading order).
    map_seq: usize,
    /// While `values_in_block` is false: the dictionaries (by number) whose entries a block of values after the
    /// containers would order otherwise, with the permutation of their entries that gives that order.
    alt_orders: Vec<(usize, Vec<usize>)>,
}

impl<'a> Ctx<'a> {
    fn eof(&self, at: usize, need: usize) -> Error {
        Error::new(
            binspec_runtime::ErrorKind::Eof {
                at: at as u64,
                need: need as u64,
                size: self.data.len() as u64,
                root: true,
            },
            Some(at as u64),
        )
    }
    #[inline]
    fn bytes(&self, at: usize, n: usize) -> Result<&'a [u8]> {
        at.checked_add(n)
            .and_then(|end| self.data.get(at..end))
            .ok_or_else(|| self.eof(at, n))
    }
    #[inline]
    fn u8(&self, at: usize) -> Result<u8> {
        self.data.get(at).copied().ok_or_else(|| self.eof(at, 1))
    }
    #[inline]
    fn u16(&self, at: usize) -> Result<u16> {
        let b: [u8; 2] = self.bytes(at, 2)?.try_into().unwrap();
        Ok(if self.be {
            u16::from_be_bytes(b)
        } else {
            u16::from_le_bytes(b)
        })
    }
    #[inline]
    fn u32(&self, at: usize) -> Result<u32> {
        let b: [u8; 4] = self.bytes(at, 4)?.try_into().unwrap();
        Ok(if self.be {
            u32::from_be_bytes(b)
        } else {
            u32::from_le_bytes(b)
        })
    }
    #[inline]
    fn u64(&self, at: usize) -> Result<u64> {
        let b: [u8; 8] = self.bytes(at, 8)?.try_into().unwrap();
        Ok(if self.be {
            u64::from_be_bytes(b)
        } else {
            u64::from_le_bytes(b)
        })
    }
    /// A container header: (type, count).
    #[inline]
    fn header(&self, at: usize) -> Result<(u8, usize)> {
        let w = self.u32(at)?;
        Ok(if self.be {
            ((w >> 24) as u8, (w & 0xff_ffff) as usize)
        } else {
            (w as u8, (w >> 8) as usize)
        })
    }
    /// Checks that `count` items of `size` bytes starting at `at` lie inside the file, before anything is allocated.
    fn check_count(&self, at: usize, count: usize, size: usize, what: &str) -> Result<()> {
        let need = count.saturating_mul(size);
        if at.saturating_add(need) > self.data.len() {
            return Err(Error::limit(
                at as u64,
                format!(
                    "{count} {what} need {need:#x} bytes from offset {at:#x}, past the end of the file ({:#x} bytes)",
                    self.data.len()
                ),
            ));
        }
        Ok(())
    }

    /// A key or string table; returns the strings and the end of the table.
    fn table(&self, at: usize) -> Result<(Vec<&'a str>, usize)> {
        let (t, n) = self.header(at)?;
        if t == nt::RELOCATED_STRING_TABLE {
            return Err(Error::invalid(
                at as u64,
                "relocated string tables (0xc5) are read by the schema's reader (byml::raw) but not yet by the tree reader",
            ));
        }
        if t != nt::STRING_TABLE {
            return Err(Error::invalid(
                at as u64,
                format!("expected a string table (type 0xc2), found type {t:#04x}"),
            ));
        }
        self.check_count(at + 4, n + 1, 4, "string offsets")?;
        let mut out = Vec::with_capacity(n);
        let mut end = at + 4 + 4 * (n + 1);
        for i in 0..n {
            let rel = self.u32(at + 4 + 4 * i)? as usize;
            let s = at
                .checked_add(rel)
                .filter(|&s| s <= self.data.len())
                .ok_or_else(|| {
                    Error::new(
                        binspec_runtime::ErrorKind::PastEnd {
                            at: (at as u64).saturating_add(rel as u64),
                            size: self.data.len() as u64,
                            root: true,
                        },
                        Some((at + 4 + 4 * i) as u64),
                    )
                    .at_index(i)
                })?;
            let len = self.data[s..].iter().position(|&b| b == 0).ok_or_else(|| {
                Error::invalid(
                    s as u64,
                    "the string has no terminating NUL before the end of the file",
                )
                .at_index(i)
            })?;
            let text = std::str::from_utf8(&self.data[s..s + len]).map_err(|e| {
                Error::invalid(s as u64, format!("the string is not UTF-8 ({e})")).at_index(i)
            })?;
            out.push(text);
            end = end.max(s + len + 1);
        }
        let last = self.u32(at + 4 + 4 * n)? as usize;
        end = end.max(at.saturating_add(last));
        Ok((out, end))
    }

    fn take_budget(&mut self, n: usize, at: usize) -> Result<()> {
        if n > self.budget {
            return Err(Error::limit(
                at as u64,
                format!(
                    "the tree expands to more than {} nodes (one per {BYTES_PER_NODE} bytes of the file, and a string \
                     or binary data one per {BYTES_PER_UNIT} bytes each time it is used): shared containers or values \
                     used too often",
                    self.data.len() / BYTES_PER_NODE + BASE_NODES
                ),
            ));
        }
        self.budget -= n;
        Ok(())
    }

    /// The value of a pair or element whose 4-byte value slot is at `slot`.
    fn value(&mut self, t: u8, slot: usize, depth: usize) -> BoxResult<Byml> {
        let w = self.u32(slot)?;
        Ok(match t {
            nt::STRING => match self.strings.get(w as usize).map(|s| s.len()) {
                Some(len) => {
                    if len > 24 {
                        self.take_budget(len / BYTES_PER_UNIT, slot)?;
                    }
                    Byml::String(super::Str::new(self.strings[w as usize]))
                }
                None => {
                    return Err(Box::new(Error::invalid(
                        slot as u64,
                        format!(
                            "string index {w} is past the end of the string table ({} strings)",
                            self.strings.len()
                        ),
                    )))
                }
            },
            nt::BOOL => match w {
                0 => Byml::Bool(false),
                1 => Byml::Bool(true),
                _ => {
                    return Err(Box::new(Error::invalid(
                        slot as u64,
                        format!("a bool must be 0 or 1, found {w:#x}"),
                    )))
                }
            },
            nt::I32 => Byml::I32(w as i32),
            nt::U32 => Byml::U32(w),
            nt::F32 => Byml::F32(f32::from_bits(w)),
            nt::NULL => {
                if w != 0 {
                    return Err(Box::new(Error::invalid(
                        slot as u64,
                        format!("a null's value must be 0, found {w:#x}"),
                    )));
                }
                Byml::Null
            }
            nt::I64 | nt::U64 | nt::F64 => {
                self.refs.push((w, t, true));
                let v = self.u64(w as usize)?;
                match t {
                    nt::I64 => Byml::I64(v as i64),
                    nt::U64 => Byml::U64(v),
                    _ => Byml::F64(f64::from_bits(v)),
                }
            }
            nt::BINARY => {
                self.refs.push((w, t, true));
                let o = w as usize;
                let n = self.u32(o)? as usize;
                let data = self.bytes(o + 4, n)?;
                self.take_budget(n / BYTES_PER_UNIT, o)?;
                Byml::Binary(data.to_vec())
            }
            nt::ALIGNED_BINARY => {
                self.refs.push((w, t, true));
                let o = w as usize;
                let n = self.u32(o)? as usize;
                let align = self.u32(o + 4)?;
                let data = self.bytes(o + 8, n)?;
                self.take_budget(n / BYTES_PER_UNIT, o)?;
                Byml::AlignedBinary(data.to_vec(), align)
            }
            t if nt::is_container(t) => {
                let o = w as usize;
                let found = self.u8(o)?;
                if found != t {
                    return Err(Box::new(Error::invalid(
                        o as u64,
                        format!("the value's type is {t:#04x} but the container there has type {found:#04x}"),
                    )));
                }
                self.container(o, t, depth + 1)?
            }
            _ => {
                return Err(Box::new(Error::invalid(
                    slot as u64,
                    format!("unknown node type {t:#04x}"),
                )))
            }
        })
    }

    fn container(&mut self, o: usize, t: u8, depth: usize) -> BoxResult<Byml> {
        if depth >= MAX_DEPTH {
            return Err(Box::new(Error::limit(
                o as u64,
                format!("containers nest deeper than {MAX_DEPTH}"),
            )));
        }
        if self.stack.contains(&(o as u32)) {
            return Err(Box::new(Error::invalid(
                o as u64,
                format!("offset cycle: the container at {o:#x} contains itself"),
            )));
        }
        let (_, n) = self.header(o)?;
        if o as u32 != self.root_ofs {
            self.refs.push((o as u32, t, false));
        }
        self.stack.push(o as u32);
        let r = self.container_body(o, t, n, depth);
        self.stack.pop();
        r
    }

    fn container_body(&mut self, o: usize, t: u8, n: usize, depth: usize) -> BoxResult<Byml> {
        match t {
            nt::ARRAY => {
                self.check_count(o + 4, n, 5, "array elements")?;
                self.take_budget(n + 1, o)?;
                let types = self.bytes(o + 4, n)?;
                // Values start at the next multiple of 4 counted from the container (as Nintendo's and oead's
                // readers count it; the writer aligns arrays so that this is also a multiple of 4 in the file).
                let values = o + ((4 + n + 3) & !3);
                let mut v = Vec::with_capacity(n);
                for (i, &et) in types.iter().enumerate() {
                    v.push(
                        self.value(et, values + 4 * i, depth)
                            .map_err(|e| Box::new(e.at_index(i)))?,
                    );
                }
                Ok(Byml::Array(v))
            }
            nt::MONO_ARRAY => {
                self.check_count(o + 8, n, 4, "array elements")?;
                self.take_budget(n + 1, o)?;
                let et = self.u8(o + 4)?;
                let mut v = Vec::with_capacity(n);
                for i in 0..n {
                    v.push(
                        self.value(et, o + 8 + 4 * i, depth)
                            .map_err(|e| Box::new(e.at_index(i)))?,
                    );
                }
                Ok(Byml::MonoArray(v))
            }
            nt::MAP | nt::REMAP_MAP => {
                self.check_count(o + 4, n, 8, "dictionary pairs")?;
                self.take_budget(n + 1, o)?;
                // The pairs in the file's order (by key index), on a scratch stack shared by all levels (this
                // level's entries are `scratch[base..]`).
                let base = self.scratch.len();
                // Pairs sorted by key index, as writers sort them: then no key can repeat.
                let mut ascending = self.keys_unique;
                let mut prev = None;
                let (mut containers, mut values) = (false, false);
                for i in 0..n {
                    let p = o + 4 + 8 * i;
                    let w = self.u32(p)?;
                    let (key, pt) = if self.be {
                        (w >> 8, w as u8)
                    } else {
                        (w & 0xff_ffff, (w >> 24) as u8)
                    };
                    ascending &= prev < Some(key);
                    prev = Some(key);
                    if nt::is_out_of_line(pt) {
                        let c = nt::is_container(pt);
                        containers |= c;
                        values |= !c;
                    }
                    let word = self.u32(p + 4)?;
                    self.scratch.push(Pair {
                        key,
                        t: pt,
                        slot: p + 4,
                        word,
                    });
                }
                let order: Option<Vec<usize>> = if t == nt::REMAP_MAP {
                    Some(self.remap(o + 4 + 8 * n, n)?)
                } else {
                    let seq = self.map_seq;
                    self.map_seq += 1;
                    if containers || values {
                        self.placement_order(o, base, seq, containers && values)
                    } else {
                        None
                    }
                };
                let mut m = Map::with_capacity(n);
                for idx in 0..n {
                    let i = order.as_ref().map_or(idx, |v| v[idx]);
                    let Pair {
                        key: k,
                        t: pt,
                        slot,
                        ..
                    } = self.scratch[base + i];
                    let key = *self.keys.get(k as usize).ok_or_else(|| {
                        Error::invalid(
                            (slot - 4) as u64,
                            format!(
                                "key index {k} is past the end of the key table ({} keys)",
                                self.keys.len()
                            ),
                        )
                        .at_index(i)
                    })?;
                    let v = self
                        .value(pt, slot, depth)
                        .map_err(|e| Box::new(e.at_key(key)))?;
                    if ascending {
                        m.push_new(super::Str::new(key), v);
                    } else if m.insert(super::Str::new(key), v).is_some() {
                        return Err(Box::new(Error::invalid(
                            (slot - 4) as u64,
                            format!("the key {key:?} appears twice"),
                        )));
                    }
                }
                self.scratch.truncate(base);
                Ok(if t == nt::REMAP_MAP {
                    Byml::RemapMap(m)
                } else {
                    Byml::Map(m)
                })
            }
            _ => {
                // Hash arrays, 0x20-0x3f.
                let width = (t & 0xf) as usize;
                let pair = 4 * width + 4;
                self.check_count(o + 4, n, pair + 1, "hash array entries")?;
                self.take_budget(n + 1, o)?;
                let types = o + 4 + pair * n;
                let order: Vec<usize> = if t >= nt::HASH_ARRAY_REMAP {
                    self.remap(types + n, n)?
                } else {
                    (0..n).collect()
                };
                let mut entries = Vec::with_capacity(n);
                for (i, j) in order.into_iter().enumerate() {
                    let p = o + 4 + pair * j;
                    let mut hash = Vec::with_capacity(width);
                    for w in 0..width {
                        hash.push(self.u32(p + 4 * w)?);
                    }
                    let et = self.u8(types + j)?;
                    let v = self
                        .value(et, p + 4 * width, depth)
                        .map_err(|e| Box::new(e.at_index(i)))?;
                    entries.push((hash, v));
                }
                // Without a remap table the entries are in hash order, the order the writer puts them in (a stable
                // sort): a file out of that order is read in it, as the writer will write it.
                if t < nt::HASH_ARRAY_REMAP && !entries.is_sorted_by(|a, b| a.0 <= b.0) {
                    entries.sort_by(|a, b| a.0.cmp(&b.0));
                }
                Ok(Byml::HashArray(HashArray {
                    width: width as u8,
                    remap: t >= nt::HASH_ARRAY_REMAP,
                    entries,
                }))
            }
        }
    }

    /// An index remap table: for each index, the position of its pair. It must be a permutation.
    fn remap(&self, at: usize, n: usize) -> Result<Vec<usize>> {
        let w = remap_width(n);
        self.check_count(at, n, w, "remap entries")?;
        let mut seen = vec![false; n];
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let p = at + w * i;
            let j = match w {
                1 => self.u8(p)? as usize,
                2 => self.u16(p)? as usize,
                _ => self.u32(p)? as usize,
            };
            if j >= n || std::mem::replace(&mut seen[j], true) {
                return Err(Error::invalid(
                    p as u64,
                    format!(
                        "the index remap table is not a permutation of 0..{n} (entry {i} is {j})"
                    ),
                ));
            }
            out.push(j);
        }
        Ok(out)
    }

    /// The order of a plain dictionary's entries: by key (the file's order), except for the out-of-line values
    /// that the container placed after itself, which come in the order in which they were placed. With
    /// `values_in_block` (64-bit values and binary data in a block of their own), containers and values are
    /// ordered each among their own slots; otherwise together.
    ///
    /// While it is not yet known whether the values are in a block, the order that such a block would give is
    /// found too when it can differ (the dictionary has both containers and values out of line), and kept in
    /// `alt_orders` when it does.
    ///
    /// `mixed`: the dictionary has both containers and values out of line.
    fn placement_order(
        &mut self,
        o: usize,
        base: usize,
        seq: usize,
        mixed: bool,
    ) -> Option<Vec<usize>> {
        let mut slots = std::mem::take(&mut self.slots);
        let order = self.placement_order_in(o, base, self.values_in_block, &mut slots);
        if !self.values_in_block && mixed {
            let alt = self.placement_order_in(o, base, true, &mut slots);
            if alt != order {
                let n = self.scratch.len() - base;
                self.alt_orders
                    .push((seq, relative_order(order.as_deref(), alt.as_deref(), n)));
            }
        }
        self.slots = slots;
        order
    }

    fn placement_order_in(
        &self,
        o: usize,
        base: usize,
        in_block: bool,
        (slots, sorted): &mut (Slots, Slots),
    ) -> Option<Vec<usize>> {
        let pairs = &self.scratch[base..];
        let mut order: Option<Vec<usize>> = None;
        // `Some(is_container)`: one class of slots at a time; `None`: all out-of-line slots together.
        let classes: &[Option<bool>] = if in_block {
            &[Some(true), Some(false)]
        } else {
            &[None]
        };
        for &class in classes {
            slots.clear();
            for (
                i,
                &Pair {
                    t, word: target, ..
                },
            ) in pairs.iter().enumerate()
            {
                let container = nt::is_container(t);
                if !nt::is_out_of_line(t) || class.is_some_and(|c| c != container) {
                    continue;
                }
                // Placed before this container: shared with something placed earlier, which says nothing about
                // this order (a block of values before the root is in order all the same).
                if (target as usize) < o && (container || !in_block) {
                    continue;
                }
                slots.push((i, target));
            }
            if slots.windows(2).all(|w| w[0].1 <= w[1].1) {
                continue;
            }
            sorted.clear();
            sorted.extend_from_slice(slots);
            sorted.sort_unstable_by_key(|&(i, target)| (target, i));
            let order = order.get_or_insert_with(|| (0..pairs.len()).collect());
            for (k, &(slot_i, _)) in slots.iter().enumerate() {
                order[slot_i] = sorted[k].0;
            }
        }
        order
    }

    fn infer_layout(&mut self, version: u16) -> Layout {
        let default = Layout::for_version(version);
        let refs = std::mem::take(&mut self.refs);
        if refs.is_empty() {
            return default;
        }
        // Inline placement (oead) writes each node when the walk first reaches it: the first visits, in the order
        // this reader walked (the writer's order), then have increasing offsets. A node visited twice is shared.
        let mut seen = vec![0u64; self.data.len() / 64 + 1];
        let mut last = self.root_ofs;
        let mut inline_ok = true;
        let mut repeats = Vec::new();
        for &(o, t, leaf) in &refs {
            let (word, bit) = ((o / 64) as usize, 1u64 << (o % 64));
            // Offsets were read from the file, so they lie inside it.
            if seen[word] & bit != 0 {
                repeats.push((o, t, leaf));
            } else {
                seen[word] |= bit;
                if o <= last {
                    inline_ok = false;
                }
                last = o;
            }
        }
        // A node reached twice as the same type is shared; bytes read as two types are no sharing the writer
        // could make, and neither is a NaN, which the writer never shares.
        let shared = !repeats.is_empty() && {
            let mut first: rustc_hash::FxHashMap<u32, u8> = Default::default();
            for &(o, t, _) in &refs {
                first.entry(o).or_insert(t);
            }
            repeats.iter().any(|&(o, t, leaf)| {
                first.get(&o) == Some(&t) && !self.holds_nan(o as usize, t, leaf)
            })
        };
        let share = if shared {
            true
        } else {
            // Equal leaves (values, containers of inline values) at different offsets: nothing is shared.
            let mut leaves: rustc_hash::FxHashSet<(u8, &[u8])> = Default::default();
            let dup = refs
                .iter()
                .filter_map(|&(o, t, leaf)| Some((t, self.leaf_bytes(o as usize, t, leaf)?)))
                .any(|l| !leaves.insert(l));
            if dup {
                false
            } else {
                default.share
            }
        };
        let last_container = refs
            .iter()
            .filter(|r| nt::is_container(r.1))
            .map(|r| r.0)
            .max();
        let values: Vec<u32> = refs
            .iter()
            .filter(|r| !nt::is_container(r.1))
            .map(|r| r.0)
            .collect();
        let placement = if values.is_empty() {
            default.values
        } else if self.values_before && values.iter().all(|&v| v < self.root_ofs) {
            ValuePlacement::BeforeRoot
        } else if inline_ok && !self.values_in_block {
            ValuePlacement::Inline
        } else if last_container.is_none() && values.iter().all(|&v| v > self.root_ofs) {
            // Only the root holds values, and they come after it: "after the containers" is right after the root,
            // where inline puts them too. The two write the same bytes; inline is the one that reads back as itself.
            ValuePlacement::Inline
        } else if values
            .iter()
            .all(|&v| Some(v) > last_container.max(Some(self.root_ofs)))
        {
            ValuePlacement::AfterContainers
        } else {
            // Neither: no layout that binspec knows reproduces this file; inline is the closest.
            ValuePlacement::Inline
        };
        Layout {
            share,
            values: placement,
        }
    }

    /// Whether the node at `o` is a NaN or a container whose inline values include one (which the writer never
    /// shares).
    fn holds_nan(&self, o: usize, t: u8, leaf: bool) -> bool {
        if leaf {
            return t == nt::F64 && self.u64(o).is_ok_and(|b| f64::from_bits(b).is_nan());
        }
        let Ok((_, n)) = self.header(o) else {
            return false;
        };
        let nan32 = |at: usize| self.u32(at).is_ok_and(|b| f32::from_bits(b).is_nan());
        match t {
            nt::ARRAY => {
                let values = o + ((4 + n + 3) & !3);
                (0..n).any(|i| self.u8(o + 4 + i).ok() == Some(nt::F32) && nan32(values + 4 * i))
            }
            nt::MAP => (0..n).any(|i| {
                let w = self.u32(o + 4 + 8 * i).unwrap_or(0);
                let pt = if self.be { w as u8 } else { (w >> 24) as u8 };
                pt == nt::F32 && nan32(o + 4 + 8 * i + 4)
            }),
            _ => false,
        }
    }

    /// The bytes of a leaf node (a 64-bit value, binary data, or a container whose values are all inline), with
    /// its type, to find equal leaves. A leaf that holds a NaN has none: the writer never shares it (as oead does
    /// not), so two equal ones say nothing about sharing.
    fn leaf_bytes(&self, o: usize, t: u8, leaf: bool) -> Option<&'a [u8]> {
        let nan32 = |at: usize| self.u32(at).is_ok_and(|b| f32::from_bits(b).is_nan());
        let len = if leaf {
            if t == nt::F64 && self.u64(o).is_ok_and(|b| f64::from_bits(b).is_nan()) {
                return None;
            }
            match t {
                nt::BINARY => 4 + self.u32(o).ok()? as usize,
                nt::ALIGNED_BINARY => 8 + self.u32(o).ok()? as usize,
                _ => 8,
            }
        } else {
            let (_, n) = self.header(o).ok()?;
            match t {
                nt::ARRAY => {
                    let types = self.bytes(o + 4, n).ok()?;
                    if types.iter().any(|&x| nt::is_out_of_line(x)) {
                        return None;
                    }
                    let values = o + ((4 + n + 3) & !3);
                    if (0..n).any(|i| types[i] == nt::F32 && nan32(values + 4 * i)) {
                        return None;
                    }
                    ((4 + n + 3) & !3) + 4 * n
                }
                nt::MAP => {
                    for i in 0..n {
                        let w = self.u32(o + 4 + 8 * i).ok()?;
                        let pt = if self.be { w as u8 } else { (w >> 24) as u8 };
                        if nt::is_out_of_line(pt) || (pt == nt::F32 && nan32(o + 4 + 8 * i + 4)) {
                            return None;
                        }
                    }
                    4 + 8 * n
                }
                _ => return None,
            }
        };
        self.bytes(o, len).ok()
    }
}

/// For two orders of `n` pairs (position to pair; `None` is the identity), the permutation that takes entries in
/// order `from` to order `to`: entry `i` of the result is entry `perm[i]` of the first.
fn relative_order(from: Option<&[usize]>, to: Option<&[usize]>, n: usize) -> Vec<usize> {
    let mut pos = vec![0; n];
    for i in 0..n {
        pos[from.map_or(i, |f| f[i])] = i;
    }
    (0..n).map(|i| pos[to.map_or(i, |t| t[i])]).collect()
}

/// Applies `alt_orders` to the dictionaries of a tree that was read, numbering them in the order of the reading
/// (depth first, each container's entries in order; a dictionary is numbered before its children, and reordered
/// after them, so that the children are numbered in the order they were read).
fn reorder_maps(
    v: &mut Byml,
    seq: &mut usize,
    alt: &mut std::iter::Peekable<std::slice::Iter<'_, (usize, Vec<usize>)>>,
) {
    if alt.peek().is_none() {
        return;
    }
    // Only containers are walked into (and scalars skipped here), as most nodes are scalars.
    let walk = |c: &mut Byml, seq: &mut usize, alt: &mut _| {
        if c.is_container() {
            reorder_maps(c, seq, alt);
        }
    };
    match v {
        Byml::Map(m) => {
            let mine = *seq;
            *seq += 1;
            let perm = alt.next_if(|(s, _)| *s == mine).map(|(_, p)| p);
            for c in m.values_mut() {
                walk(c, seq, alt);
            }
            if let Some(p) = perm {
                m.permute(p);
            }
        }
        Byml::RemapMap(m) => {
            for c in m.values_mut() {
                walk(c, seq, alt);
            }
        }
        Byml::Array(a) | Byml::MonoArray(a) => {
            for c in a {
                walk(c, seq, alt);
            }
        }
        Byml::HashArray(h) => {
            for (_, c) in &mut h.entries {
                walk(c, seq, alt);
            }
        }
        _ => {}
    }
}

/// The width of an index remap table's entries for `n` elements.
pub(crate) fn remap_width(n: usize) -> usize {
    if n < 0x100 {
        1
    } else if n < 0x10000 {
        2
    } else {
        4
    }
}
