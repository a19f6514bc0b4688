//! Layout: where out-of-line data (pool items) goes when writing, and which layout choices (alignments) a file
//! used when reading.
//!
//! Writing runs in passes. Each pass writes the whole model; every position that a derived value depends on
//! (a pool item's offset, a region's start, the total size) is recorded under a key, and the next pass reads the
//! previous pass's positions. Offsets are fixed-size fields, so positions settle after the second pass; the writer
//! stops as soon as a pass reproduces the previous one.

use crate::error::{Error, Result};
use crate::write::{align_up, Writer};

/// The stream a type is written into: where it starts in the output and, for a substream, its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Io {
    pub start: usize,
    pub size: Option<u64>,
}

impl Io {
    /// The whole output.
    pub const ROOT: Io = Io {
        start: 0,
        size: None,
    };
    /// `_io.size` while writing: the substream's size, or the size of the whole output from the previous pass.
    pub fn size(&self, ctx: &WriteCtx) -> u64 {
        self.size
            .unwrap_or_else(|| ctx.prev_size().saturating_sub(self.start as u64))
    }
    /// `_io.pos` while writing.
    pub fn pos(&self, w: &crate::Writer) -> u64 {
        (w.pos() - self.start.min(w.pos())) as u64
    }
}

/// Identifies a recorded position: a slot (one per schema place) and an occurrence counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub slot: u32,
    pub n: u32,
}

#[derive(Debug, Clone)]
struct Item {
    key: Key,
    bytes: Vec<u8>,
    align: u64,
}

/// State shared by one write across passes.
#[derive(Debug, Default)]
pub struct WriteCtx {
    prev: std::collections::HashMap<Key, u64>,
    cur: std::collections::HashMap<Key, u64>,
    counters: Vec<u32>,
    pools: Vec<Vec<Item>>,
    /// Bytes written at a position the model gives (placed instances), laid over the output when the pass ends.
    placed: Vec<(usize, Vec<u8>)>,
    prev_size: u64,
    pass: usize,
}

/// The most passes a write may take before positions must have settled.
pub const MAX_PASSES: usize = 4;

impl WriteCtx {
    pub fn new() -> Self {
        Self::default()
    }
    /// The next key for `slot` in this pass.
    pub fn key(&mut self, slot: u32) -> Key {
        let s = slot as usize;
        if self.counters.len() <= s {
            self.counters.resize(s + 1, 0);
        }
        let n = self.counters[s];
        self.counters[s] += 1;
        Key { slot, n }
    }
    /// The key of the first occurrence of `slot` (for places that occur once).
    pub fn first(slot: u32) -> Key {
        Key { slot, n: 0 }
    }
    /// Where `key` was placed in the previous pass (0 in the first).
    pub fn prev_pos(&self, key: Key) -> u64 {
        self.prev.get(&key).copied().unwrap_or(0)
    }
    /// Records where `key` is placed in this pass.
    pub fn record(&mut self, key: Key, pos: u64) {
        self.cur.insert(key, pos);
    }
    /// Whether this is the first pass (positions from earlier passes are not known yet).
    pub fn first_pass(&self) -> bool {
        self.pass == 0
    }
    /// The total size the previous pass wrote (0 in the first).
    pub fn prev_size(&self) -> u64 {
        self.prev_size
    }
    /// Checks that a derived value fits its field. In the first pass positions are not known yet, so a value that
    /// does not fit is written as 0 there; later passes report it.
    pub fn fit<T: TryFrom<i128> + Default>(&self, v: i128, field: &'static str) -> Result<T> {
        match crate::fit::<T>(v, field) {
            Err(_) if self.pass == 0 => Ok(T::default()),
            r => r,
        }
    }
    /// Queues an item for a pool.
    pub fn push(&mut self, pool: usize, key: Key, bytes: Vec<u8>, align: u64) {
        if self.pools.len() <= pool {
            self.pools.resize_with(pool + 1, Vec::new);
        }
        self.pools[pool].push(Item { key, bytes, align });
    }
    /// Writes a pool's queued items at the writer's position: the region first aligned to `start_align`, then
    /// each item aligned to its own alignment. Records each item's position.
    pub fn flush(&mut self, pool: usize, w: &mut Writer, start_align: u64) {
        w.align(start_align);
        let items = if pool < self.pools.len() {
            std::mem::take(&mut self.pools[pool])
        } else {
            Vec::new()
        };
        for it in items {
            w.align(it.align);
            self.cur.insert(it.key, w.pos() as u64);
            w.bytes(&it.bytes);
        }
    }
    /// Queues bytes to be written at absolute position `at` of the output once the pass has written everything
    /// else (over what is there, and past the end with zeros in between). Placing them at the end keeps what the
    /// pass writes in sequence at its own positions, however deep the placed data is nested.
    pub fn place(&mut self, at: usize, bytes: Vec<u8>) {
        self.placed.push((at, bytes));
    }
    /// Lays the queued placed bytes over a pass's output, in the order they were queued.
    pub fn apply_placed(&mut self, w: &mut Writer) {
        for (at, b) in std::mem::take(&mut self.placed) {
            w.write_at(at, &b);
        }
    }
    /// Ends a pass. Returns whether it reproduced the previous one (then the output is final).
    pub fn end_pass(&mut self, size: u64) -> bool {
        let same = self.cur == self.prev && size == self.prev_size;
        self.prev = std::mem::take(&mut self.cur);
        self.prev_size = size;
        self.counters.clear();
        self.pools.clear();
        self.placed.clear();
        self.pass += 1;
        same
    }
}

/// Runs `write` until positions settle.
pub fn write_passes(
    mut write: impl FnMut(&mut Writer, &mut WriteCtx) -> Result<()>,
) -> Result<Vec<u8>> {
    let mut ctx = WriteCtx::new();
    for _ in 0..MAX_PASSES {
        let mut w = Writer::new();
        write(&mut w, &mut ctx)?;
        ctx.apply_placed(&mut w);
        let out = w.into_inner();
        if ctx.end_pass(out.len() as u64) {
            return Ok(out);
        }
    }
    Err(Error::write(format!(
        "the layout did not settle after {MAX_PASSES} passes"
    )))
}

/// The largest power of two that divides `v` (capped at 2^31; 2^31 for 0).
pub fn low_bit(v: u64) -> u64 {
    if v == 0 {
        1 << 31
    } else {
        (1u64 << v.trailing_zeros()).min(1 << 31)
    }
}

/// The layout choice that reproduces an item placed at `start` after content that ended at `prev_end`: `None`
/// when `default` alignment does, else the largest power of two that does (which keeps the item aligned even if
/// what comes before it changes size).
pub fn infer_align(prev_end: u64, start: u64, default: u64) -> Option<u64> {
    if align_up(prev_end, default) == start {
        return None;
    }
    Some(low_bit(start))
}

/// How many `-eager` instances a reader may follow per byte of input (plus [`FOLLOW_BASE`]). Without sharing,
/// every followed instance has an offset of its own in the file (at least four bytes), so a quarter per byte
/// suffices; the rest allows for containers that are stored once and referenced many times. A file whose
/// references fan out exponentially (each level shared twice by the one above) stops here.
pub const FOLLOW_PER_BYTE: u64 = 4;
/// The part of the budget of followed instances that does not depend on the input size.
pub const FOLLOW_BASE: u64 = 1 << 16;

/// Read-side bookkeeping of pools: where each pool's previous item ended; and how many `-eager` instances
/// (offsets that lead to a type that can contain itself) have been followed.
#[derive(Debug, Default, Clone)]
pub struct ReadPools {
    prev_end: Vec<Option<u64>>,
    max_end: u64,
    followed: u64,
}

impl ReadPools {
    pub fn new() -> Self {
        Self::default()
    }
    /// Records an item of `pool` at `start..start+len` and returns its alignment choice.
    pub fn item(&mut self, pool: usize, start: u64, len: u64, default: u64) -> Option<u64> {
        if self.prev_end.len() <= pool {
            self.prev_end.resize(pool + 1, None);
        }
        let prev = self.prev_end[pool].unwrap_or(start);
        self.prev_end[pool] = Some(start + len);
        self.max_end = self.max_end.max(start + len);
        infer_align(prev, start, default)
    }
    /// Counts one followed `-eager` instance (at `at`) of an input of `size` bytes; fails once more have been
    /// followed than [`FOLLOW_PER_BYTE`] per input byte plus [`FOLLOW_BASE`].
    pub fn follow(&mut self, at: u64, size: u64) -> Result<()> {
        self.followed += 1;
        let budget = size
            .saturating_mul(FOLLOW_PER_BYTE)
            .saturating_add(FOLLOW_BASE);
        if self.followed > budget {
            return Err(Error::limit(
                at,
                format!(
                    "more than {budget} references followed in a {size}-byte input (shared data referenced \
                     exponentially often?)"
                ),
            ));
        }
        Ok(())
    }
    /// The alignment of a pool region that starts at `start`, from where the items before it ended.
    pub fn region_align(&self, start: u64, before: u64) -> u64 {
        let prev = self
            .prev_end
            .iter()
            .flatten()
            .copied()
            .filter(|&e| e <= start)
            .max()
            .unwrap_or(before)
            .max(before.min(start));
        let a = low_bit(start);
        if align_up(prev, a) == start {
            a
        } else {
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn align_inference() {
        assert_eq!(infer_align(0x301, 0x304, 4), None);
        assert_eq!(infer_align(0x301, 0x380, 4), Some(0x80));
        assert_eq!(infer_align(0x300, 0x300, 4), None);
    }

    #[test]
    fn placed_bytes_go_over_the_output() {
        let out = write_passes(|w, ctx| {
            w.bytes(&[1, 2, 3]);
            ctx.place(1, vec![8]);
            ctx.place(5, vec![9]);
            w.bytes(&[4]);
            Ok(())
        })
        .unwrap();
        assert_eq!(out, vec![1, 8, 3, 4, 0, 9]);
    }

    #[test]
    fn following_is_bounded() {
        let mut p = ReadPools::new();
        for _ in 0..FOLLOW_BASE + 40 {
            p.follow(0, 10).unwrap();
        }
        assert!(p
            .follow(0, 10)
            .unwrap_err()
            .to_string()
            .contains("references followed"));
    }

    #[test]
    fn passes_settle() {
        // A header whose first u32 is the offset of a trailing item.
        let out = write_passes(|w, ctx| {
            let k = WriteCtx::first(0);
            w.u32(ctx.prev_pos(k) as u32, crate::Endian::Little);
            ctx.push(0, k, vec![9, 9], 8);
            ctx.flush(0, w, 1);
            Ok(())
        })
        .unwrap();
        assert_eq!(out, vec![8, 0, 0, 0, 0, 0, 0, 0, 9, 9]);
    }
}
