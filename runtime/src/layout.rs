//! Layout: where out-of-line data (pool items) goes when writing, and which layout choices (alignments) a file
//! used when reading.
//!
//! Writing runs in passes. Each pass writes the whole model; every position that a derived value depends on
//! (a pool item's offset, a region's start, the total size) is recorded under a key, and the next pass reads the
//! previous pass's positions. Offsets are fixed-size fields, so positions settle after the second pass. The first
//! pass only finds positions (a sizing [`Writer`], which keeps no bytes); the second writes the bytes into a buffer
//! of the size it now knows, and is the output when it reproduces the first (see [`write_passes`]).

use crate::error::{Error, Result};
use crate::write::{align_up, Writer, MAX_PAD};

mod align;
pub mod chain;
mod dedup;
mod item_order;
mod order;
mod passes;
mod pointers;
mod read_pools;
mod sections;
use align::align_choice;
pub(crate) use align::split_align;
pub use align::{align_at, check_align, infer_align, low_bit, place_after, MAX_ALIGN};
pub use dedup::{pool_strings, split_pool};
pub use item_order::{in_kept_order, rank_order, with_item_aligns};
pub use order::Order;
use passes::{first_overlap, lay_over, overlay};
pub use passes::{write_passes, write_passes_writer, write_sized, written_len};
pub use read_pools::ReadPools;
pub use sections::{order_names, write_order, Sections};
#[doc(hidden)]
pub mod reloc;
#[doc(hidden)]
pub mod resdic;

/// The stream a type is written into: where it starts in the output and, for a substream, its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Io {
    /// Where the stream starts in the output.
    pub start: usize,
    /// The substream's size; `None` for the whole output.
    pub size: Option<u64>,
}

impl Io {
    /// The whole output.
    pub const ROOT: Io = Io {
        start: 0,
        size: None,
    };
    /// `_io.size` while writing: the substream's size, or the size of the whole output from the previous pass.
    pub fn size(&self, ctx: &WriteCtx<'_>) -> u64 {
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
    /// The schema place.
    pub slot: u32,
    /// Which occurrence of it.
    pub n: u32,
}

#[derive(Debug, Clone)]
struct Item<'m> {
    key: Key,
    body: Body<'m>,
    /// The item's alignment (at most [`MAX_ALIGN`], which generated writers check before queueing; a u32, so
    /// that an item stays small).
    align: u32,
    /// The offset into the item where the alignment applies ([`align_at`]; 0 for nearly every item).
    at: u16,
    /// Whether the item was written where the pass did not know its place ([`Blind`]): positions recorded in it
    /// move once it is placed.
    blind: bool,
}

impl<'m> Item<'m> {
    fn new(key: Key, body: Body<'m>, align: u64) -> Self {
        let (a, at) = split_align(align);
        Item {
            key,
            body,
            align: u32::try_from(a).unwrap_or(u32::MAX),
            at: u16::try_from(at).unwrap_or(u16::MAX),
            blind: false,
        }
    }
    /// The alignment as [`Writer::align`] takes it ([`align_at`]).
    fn align(&self) -> u64 {
        align_at(u64::from(self.align), u64::from(self.at))
    }
}

/// A queued pool item's bytes.
#[derive(Debug, Clone)]
enum Body<'m> {
    /// Bytes made for the item, shared (rare: boxed, so that every queued item is smaller).
    Shared(Box<crate::Bytes>),
    /// Bytes of the model being written, borrowed for the write (no reference count to touch per item and pass:
    /// a SARC of many files spent a quarter of its write time counting references).
    Borrowed(&'m crate::Bytes),
    /// `arena[start..end]`: bytes encoded for the item (a string and its terminator).
    Arena(usize, usize),
    /// Only the length, in a sizing pass.
    Len(usize),
}

impl Body<'_> {
    /// Whether the item has no bytes.
    fn is_empty(&self) -> bool {
        match self {
            Body::Shared(b) => b.is_empty(),
            Body::Borrowed(b) => b.is_empty(),
            Body::Arena(start, end) => start == end,
            Body::Len(n) => *n == 0,
        }
    }
}

/// A pool's queued items. Empty items (AINB queues about 34,000 per pass: the empty property, input and plug ranges
/// of element parameters, queued only for the position their base index is derived from) are kept apart, as the
/// number of items queued before each: they take no room, and most pools write them where they were queued.
#[derive(Debug, Default)]
struct Queue<'m> {
    items: Vec<Item<'m>>,
    empties: Vec<Empty>,
}

/// An empty item: its key, its alignment, and how many items of its pool were queued before it.
#[derive(Debug, Clone, Copy)]
struct Empty {
    at: u32,
    key: Key,
    align: u32,
    /// The offset into the item where the alignment applies ([`align_at`]).
    align_at: u16,
}

impl<'m> Queue<'m> {
    fn is_empty(&self) -> bool {
        self.items.is_empty() && self.empties.is_empty()
    }
    fn clear(&mut self) {
        self.items.clear();
        self.empties.clear();
    }
    /// The items in the order they were queued, the empty ones among them; the queue keeps its allocations.
    fn take_all(&mut self) -> Vec<Item<'m>> {
        if self.empties.is_empty() {
            return std::mem::take(&mut self.items);
        }
        let mut out = Vec::with_capacity(self.items.len() + self.empties.len());
        let mut empties = self.empties.drain(..).peekable();
        for (i, it) in self.items.drain(..).enumerate() {
            while let Some(e) = empties.next_if(|e| e.at as usize <= i) {
                out.push(e.item());
            }
            out.push(it);
        }
        out.extend(empties.map(|e| e.item()));
        out
    }
}

impl Empty {
    fn item<'m>(self) -> Item<'m> {
        Item {
            key: self.key,
            body: Body::Len(0),
            align: self.align,
            at: self.align_at,
            blind: false,
        }
    }
}

/// Positions recorded in one pass, by slot and occurrence.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Positions(Vec<Vec<u64>>);

impl Positions {
    /// Marks an occurrence that was not recorded (occurrences are recorded in any order).
    const NONE: u64 = u64::MAX;
    fn get(&self, k: Key) -> Option<u64> {
        match self.0.get(k.slot as usize)?.get(k.n as usize) {
            Some(&p) if p != Self::NONE => Some(p),
            _ => None,
        }
    }
    #[inline]
    fn set(&mut self, k: Key, pos: u64) {
        // (Occurrences are mostly recorded in order: the next one is pushed, with no resizing to work out.)
        if let Some(v) = self.0.get_mut(k.slot as usize) {
            let n = k.n as usize;
            if n < v.len() {
                v[n] = pos;
                return;
            }
            if n == v.len() {
                v.push(pos);
                return;
            }
        }
        self.set_grown(k, pos);
    }
    /// [`Positions::set`] where the table must grow first (out of line, so that the common case inlines).
    #[cold]
    #[inline(never)]
    fn set_grown(&mut self, k: Key, pos: u64) {
        *entry(&mut self.0, k, Self::NONE) = pos;
    }
    /// Empties the table and keeps its allocations (a pass records about as many positions as the last).
    fn clear(&mut self) {
        for v in &mut self.0 {
            v.clear();
        }
    }
    /// Makes room for as many positions per slot as `like` holds, so that a pass that records about as many as
    /// the last one does not grow its tables again.
    fn reserve_like(&mut self, like: &Positions) {
        if self.0.len() < like.0.len() {
            self.0.resize_with(like.0.len(), Vec::new);
        }
        for (v, l) in self.0.iter_mut().zip(&like.0) {
            v.reserve(l.len());
        }
    }
    /// The same positions, however the tables' allocations differ.
    fn same(&self, other: &Positions) -> bool {
        let n = self.0.len().max(other.0.len());
        (0..n).all(|i| {
            let a = self.0.get(i).map_or(&[][..], |v| &v[..]);
            let b = other.0.get(i).map_or(&[][..], |v| &v[..]);
            // (Element by element: most slots hold a few positions, where a call to `memcmp` per slot cost a
            // fifth of writing HomeBed.bntx.)
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
        })
    }
}

/// A sorted repetition's order, and its keys in that order (empty where they are not kept).
type KeptOrder = (Order, Vec<i128>);

/// State shared by one write across passes.
#[derive(Debug, Default)]
pub struct WriteCtx<'m> {
    prev: Positions,
    cur: Positions,
    /// The lengths of items, where something derives a size from them, by the item's key.
    prev_lens: Positions,
    cur_lens: Positions,
    counters: Vec<u32>,
    pools: Vec<Queue<'m>>,
    /// Bytes written at a position the model gives (placed instances), laid over the output when the pass ends.
    placed: Vec<(usize, Vec<u8>)>,
    /// For each of `placed`, where the stream it was placed in starts (`None` for the output's own positions,
    /// [`WriteCtx::place`]): [`WriteCtx::finish_slot`] counts those placed in a record's stream.
    placed_in: Vec<Option<usize>>,
    /// The placement (by its number in the pass) that [`WriteCtx::place`] refuses, with the message: set when a
    /// final pass is written again to find the path of a placement that overlaps others.
    refuse_place: Option<(usize, String)>,
    /// Whether a derived value that does not fit its field is an error now ([`WriteCtx::fit`]): set when a final
    /// pass is written again to find the path of such a value. Before that, it is written as 0 and noted in
    /// `unfit`, since positions may still move (an item inside an item settles a pass after its holder).
    strict: bool,
    /// Whether this pass wrote a derived value that did not fit its field (as 0). Atomic, not a `Cell`, because
    /// [`WriteCtx::reading`] shares one context between threads and `fit` takes `&self`.
    unfit: std::sync::atomic::AtomicBool,
    /// The bytes of queued strings, one after another (one buffer per pass, not one per string).
    arena: Vec<u8>,
    /// How many bytes the pass queued into (or, sizing, would have queued into) `arena`: the next pass reserves
    /// that much.
    arena_len: usize,
    /// Whether this pass only finds positions (its writer is [`Writer::sizing`]): queued items keep only their
    /// length.
    sizing: bool,
    /// Orders of sorted repetitions whose keys do not depend on positions, kept from pass to pass, by slot and
    /// occurrence; and the occurrence counters of this pass.
    orders: Vec<Vec<Option<KeptOrder>>>,
    order_counters: Vec<u32>,
    prev_size: u64,
    pass: usize,
    /// Deduplicating pools: what each has queued in this pass.
    dedup: dedup::Dedup,
    /// The pools whose region this pass has written.
    flushed: Vec<bool>,
    /// The nodes of the dictionary being written, and the next one's number ([`WriteCtx::dic_next`]).
    dic: (Vec<resdic::Node>, usize),
    /// Bytes to write before a queued item, by its key ([`WriteCtx::gap_before`]): few, so a list.
    item_gaps: Vec<(Key, crate::Bytes)>,
    /// Items written out of line whose origin the pass does not know (the first pass knows none): positions
    /// recorded inside one are off by where it goes, and are moved when it is placed ([`Blind`]).
    blind: Blind,
    /// The targets of the pointers a relocation table lists ([`WriteCtx::pointer`]: each target's key, packed in a
    /// u64), by the key that holds the pointer's position, in the previous pass and this one.
    prev_pointers: Positions,
    cur_pointers: Positions,
    /// Whether this pass derived a relocation table from the previous pass's pointers
    /// ([`WriteCtx::relocations`]): where the first pass did, it had none, so the second moves what follows the
    /// table, and is written as a sizing pass too.
    derived_tables: std::sync::atomic::AtomicBool,
    /// Buffers of items written out of line, given back once their bytes are queued ([`WriteCtx::item_writer`]):
    /// an item's writer takes one instead of allocating its own (AINB writes about 10,000 such items per pass).
    spare: Vec<Vec<u8>>,
    /// The streams of imported schemas' top-level records being written, innermost last ([`WriteCtx::root_io`]).
    roots: Vec<Io>,
}

/// The bookkeeping that moves the positions recorded inside an item written out of line, where the pass did not
/// know where it would go (its position in the previous pass): once the item is placed, everything recorded while
/// it was written moves by the difference, except what belongs to items it queued that are placed elsewhere. So
/// the first pass's positions are the final ones where sizes do not change, and the second pass can write the
/// bytes.
#[derive(Debug, Default)]
struct Blind {
    /// The keys recorded while such an item was being written, in order.
    log: Vec<Key>,
    /// For each item being written out of line ([`WriteCtx::item_origin`]): where its records start in `log`,
    /// where its origin is not known.
    open: Vec<Option<usize>>,
    /// How many of `open` are such items (records are logged only while one is).
    depth: usize,
    /// Such items, in the order they were queued (each after the ones it holds): (key, their records in `log`).
    pending: Vec<(Key, usize, usize)>,
    /// For each of `pending` not placed yet: the origin it was written at, and the parts of `log` that move with it.
    moves: rustc_hash::FxHashMap<Key, (u64, Vec<(usize, usize)>)>,
}

impl Blind {
    fn clear(&mut self) {
        self.log.clear();
        self.open.clear();
        self.depth = 0;
        self.pending.clear();
        self.moves.clear();
    }
}

/// The place of `k` in a table by slot and occurrence, grown with `fill` to reach it.
fn entry<T: Clone>(table: &mut Vec<Vec<T>>, k: Key, fill: T) -> &mut T {
    let (s, n) = (k.slot as usize, k.n as usize);
    if table.len() <= s {
        table.resize_with(s + 1, Vec::new);
    }
    let v = &mut table[s];
    if v.len() <= n {
        v.resize(n + 1, fill);
    }
    &mut v[n]
}

/// The next occurrence of `slot`, counted in `counters`.
#[inline]
fn next_key(counters: &mut Vec<u32>, slot: u32) -> Key {
    let s = slot as usize;
    if counters.len() <= s {
        counters.resize(s + 1, 0);
    }
    let n = counters[s];
    counters[s] += 1;
    Key { slot, n }
}

/// The most passes a write may take before positions must have settled.
pub const MAX_PASSES: usize = 4;

impl<'m> WriteCtx<'m> {
    /// The context of a write's first pass.
    pub fn new() -> Self {
        Self::default()
    }
    /// The context that sort keys computed while reading see: a new one (no positions yet, as in a first pass),
    /// made once and shared, since computing a key changes nothing in it. (Making one per element cost a fifth of
    /// the time of reading the TotK resource size table.)
    #[inline]
    pub fn reading() -> &'static WriteCtx<'static> {
        static READING: std::sync::OnceLock<WriteCtx<'static>> = std::sync::OnceLock::new();
        READING.get_or_init(WriteCtx::new)
    }
    /// `_root._io` while writing: the stream of the innermost top-level record of an imported schema being
    /// written ([`WriteCtx::in_root`]; `_root` in an imported schema's types is that schema's own top-level
    /// record), or the whole output.
    #[inline]
    pub fn root_io(&self) -> Io {
        self.roots.last().copied().unwrap_or(Io::ROOT)
    }
    /// Writes an imported schema's top-level record, written into `io`: `write` sees `io` as `_root._io`.
    pub fn in_root<T>(&mut self, io: Io, write: impl FnOnce(&mut Self) -> T) -> T {
        self.roots.push(io);
        let out = write(self);
        self.roots.pop();
        out
    }
    /// The next key for `slot` in this pass.
    #[inline]
    pub fn key(&mut self, slot: u32) -> Key {
        next_key(&mut self.counters, slot)
    }
    /// The next key for the sorted repetition `slot` in this pass (a key space of its own).
    #[inline]
    pub fn order_key(&mut self, slot: u32) -> Key {
        next_key(&mut self.order_counters, slot)
    }
    /// The order an earlier pass kept for `key` ([`WriteCtx::keep_order`]), taken out.
    pub fn take_order(&mut self, key: Key) -> Option<Order> {
        self.take_keyed(key).map(|(order, _)| order)
    }
    /// Keeps the order of a sorted repetition for the next pass: for keys that do not depend on positions, which
    /// then need not be computed again.
    pub fn keep_order(&mut self, key: Key, order: Order) {
        self.keep_keyed(key, order, Vec::new());
    }
    /// The order and the sort keys (in that order) an earlier pass kept for `key` ([`WriteCtx::keep_keyed`]).
    pub fn take_keyed(&mut self, key: Key) -> Option<(Order, Vec<i128>)> {
        self.orders
            .get_mut(key.slot as usize)?
            .get_mut(key.n as usize)?
            .take()
    }
    /// Keeps the order of a sorted repetition and its keys, one per element in that order, for the next pass (the
    /// elements' writers take their keys from there instead of computing them again).
    pub fn keep_keyed(&mut self, key: Key, order: Order, keys: Vec<i128>) {
        *entry(&mut self.orders, key, None) = Some((order, keys));
    }
    /// The key of the first occurrence of `slot` (for places that occur once).
    pub fn first(slot: u32) -> Key {
        Key { slot, n: 0 }
    }
    /// Where `key` was placed in the previous pass (0 in the first).
    #[inline]
    pub fn prev_pos(&self, key: Key) -> u64 {
        self.prev.get(key).unwrap_or(0)
    }
    /// How long the item `key` was in the previous pass (0 in the first).
    #[inline]
    pub fn prev_len(&self, key: Key) -> u64 {
        self.prev_lens.get(key).unwrap_or(0)
    }
    /// Records how long the item `key` is in this pass.
    #[inline]
    pub fn record_len(&mut self, key: Key, len: u64) {
        self.cur_lens.set(key, len);
    }
    /// Records where `key` is placed in this pass.
    #[inline]
    pub fn record(&mut self, key: Key, pos: u64) {
        self.cur.set(key, pos);
        if self.blind.depth > 0 {
            self.blind.log.push(key);
        }
    }
    /// Where an item written out of line is written ([`Writer::for_item`]): its position in the previous pass (0 in
    /// the first, where the positions recorded inside it move once it is placed). [`WriteCtx::push_written`] ends
    /// it.
    #[inline]
    pub fn item_origin(&mut self, key: Key) -> usize {
        let prev = self.prev.get(key);
        let b = &mut self.blind;
        if prev.is_none() {
            b.open.push(Some(b.log.len()));
            b.depth += 1;
        } else {
            b.open.push(None);
        }
        prev.unwrap_or(0) as usize
    }
    /// Begins an item written out of line ([`WriteCtx::item_origin`]): its origin, and a writer for it
    /// ([`Writer::for_item`]) whose buffer an earlier item gave back. [`WriteCtx::push_written`] ends it.
    #[inline]
    pub fn item_writer(&mut self, key: Key, w: &Writer) -> (usize, Writer) {
        let origin = self.item_origin(key);
        let buf = if w.is_sizing() {
            Vec::new()
        } else {
            self.spare.pop().unwrap_or_default()
        };
        (origin, w.for_item_in(origin, buf))
    }
    /// Ends an item [`WriteCtx::item_origin`] began: where its origin was not known, notes which of the positions
    /// recorded meanwhile move with it (not those of the items it queued that are not placed yet).
    fn close_item(&mut self, key: Key, origin: usize) -> bool {
        let b = &mut self.blind;
        let Some(Some(start)) = b.open.pop() else {
            return false;
        };
        b.depth -= 1;
        let end = b.log.len();
        if end == start {
            return false;
        }
        // The items closed since this one began are the last of `pending` (items close in order, each after the
        // ones it holds); those not placed yet keep their records.
        let first = b.pending.partition_point(|&(_, _, e)| e <= start);
        let mut kept: Vec<(usize, usize)> = b.pending[first..]
            .iter()
            .filter(|(k, _, _)| b.moves.contains_key(k))
            .map(|&(_, s, e)| (s, e))
            .collect();
        // (By start: an item closes after the items it holds, so the order queued is not.)
        kept.sort_unstable();
        let mut parts = Vec::new();
        let mut at = start;
        for (s, e) in kept {
            if s > at {
                parts.push((at, s));
            }
            at = at.max(e);
        }
        if at < end {
            parts.push((at, end));
        }
        b.pending.push((key, start, end));
        b.moves.insert(key, (origin as u64, parts));
        true
    }
    /// Moves the positions recorded inside the item `key`, placed at `pos`, by where it went ([`Blind`]).
    fn placed_blind(&mut self, key: Key, pos: u64) {
        let Some((origin, parts)) = self.blind.moves.remove(&key) else {
            return;
        };
        let delta = pos.wrapping_sub(origin);
        if delta == 0 {
            return;
        }
        for (s, e) in parts {
            for i in s..e {
                let k = self.blind.log[i];
                if let Some(p) = self.cur.get(k) {
                    self.cur.set(k, p.wrapping_add(delta));
                }
            }
        }
    }
    /// Whether this is the first pass (positions from earlier passes are not known yet).
    pub fn first_pass(&self) -> bool {
        self.pass == 0
    }
    /// The total size the previous pass wrote (0 in the first).
    pub fn prev_size(&self) -> u64 {
        self.prev_size
    }
    /// A derived value that does not fit its field, before positions have settled: written as 0, noted, and
    /// reported if the final pass has one ([`write_passes`] writes it again, strictly, to find its path).
    #[inline]
    fn unfit<T: Default>(&self, err: impl FnOnce() -> Result<T>) -> Result<T> {
        if self.strict {
            return err();
        }
        self.unfit.store(true, std::sync::atomic::Ordering::Relaxed);
        Ok(T::default())
    }
    /// Checks that a derived value fits its field. Until positions settle (the first pass knows none; an item
    /// inside an item knows its holder's a pass later), a value that does not fit is written as 0; the final
    /// pass reports it.
    #[inline]
    pub fn fit<T: TryFrom<i128> + Default>(&self, v: i128, field: &'static str) -> Result<T> {
        match T::try_from(v) {
            Ok(x) => Ok(x),
            Err(_) => self.unfit(|| crate::fit::<T>(v, field)),
        }
    }
    /// `a / b` for a value solved from a position (`pos: base + index * 8`): the position must be a multiple, or
    /// the file would read back with another index. In the first pass positions are not known yet (0).
    #[inline]
    pub fn exact_div(&self, a: i128, b: i128, field: &'static str) -> Result<i128> {
        // (Positions and sizes fit in 64 bits: dividing those is much cheaper than 128-bit division.)
        if let (Ok(x), Ok(y)) = (i64::try_from(a), i64::try_from(b)) {
            if let (Some(0), Some(q)) = (x.checked_rem(y), x.checked_div(y)) {
                return Ok(q.into());
            }
        }
        self.exact_div_wide(a, b, field)
    }
    /// [`WriteCtx::exact_div`] past 64 bits, or for a position that is not a multiple (rare: kept out of line).
    #[cold]
    fn exact_div_wide(&self, a: i128, b: i128, field: &'static str) -> Result<i128> {
        match (a.checked_rem(b), a.checked_div(b)) {
            (Some(0), Some(q)) => Ok(q),
            _ => self.unfit(|| {
                Err(Error::write(format!(
                    "{a} is not a multiple of {b}: no value of this field gives the position the writer chose"
                ))
                .at(field))
            }),
        }
    }
    /// [`crate::fit_bits`] for a derived value, lenient in the first pass as [`WriteCtx::fit`] is.
    #[inline]
    pub fn fit_bits(&self, v: i128, bits: u32, field: &'static str) -> Result<u64> {
        match crate::fit_bits(v, bits, field) {
            Err(_) => self.unfit(|| crate::fit_bits(v, bits, field)),
            r => r,
        }
    }
    /// A pool whose region was written in this pass and that still has items queued: they were queued after its
    /// last region, and would be lost. (A pool whose region is in a type written more than once, AINB's plug data
    /// in each element parameter, is written at each; items wait for the next.)
    fn late_pool(&self) -> Option<usize> {
        (0..self.pools.len()).find(|&p| self.is_flushed(p) && !self.pools[p].is_empty())
    }
    #[inline]
    fn is_flushed(&self, pool: usize) -> bool {
        self.flushed.get(pool).copied().unwrap_or(false)
    }
    fn set_flushed(&mut self, pool: usize) {
        if self.flushed.len() <= pool {
            self.flushed.resize(pool + 1, false);
        }
        self.flushed[pool] = true;
    }
    #[inline]
    fn pool_queue(&mut self, pool: usize) -> &mut Queue<'m> {
        if self.pools.len() <= pool {
            self.pools.resize_with(pool + 1, Queue::default);
        }
        &mut self.pools[pool]
    }
    #[inline]
    fn queue(&mut self, pool: usize, item: Item<'m>) {
        self.pool_queue(pool).items.push(item);
    }
    /// The items queued for `pool`, in order, the empty ones among them (the queue keeps its allocations).
    fn take_queue(&mut self, pool: usize) -> Vec<Item<'m>> {
        match self.pools.get_mut(pool) {
            Some(q) => q.take_all(),
            None => Vec::new(),
        }
    }
    /// Queues an item for a pool.
    pub fn push(&mut self, pool: usize, key: Key, bytes: impl Into<crate::Bytes>, align: u64) {
        let body = Body::Shared(Box::new(bytes.into()));
        self.queue(pool, Item::new(key, body, align));
    }
    /// Queues an item with no bytes (an empty array), for its position.
    #[inline]
    pub fn push_empty(&mut self, pool: usize, key: Key, align: u64) {
        let q = self.pool_queue(pool);
        let at = u32::try_from(q.items.len()).unwrap_or(u32::MAX);
        let (a, align_at) = split_align(align);
        q.empties.push(Empty {
            at,
            key,
            align: u32::try_from(a).unwrap_or(u32::MAX),
            align_at: u16::try_from(align_at).unwrap_or(u16::MAX),
        });
    }
    /// Queues bytes of the model for a pool: shared, so queueing them copies nothing (and a sizing pass keeps only
    /// their length).
    #[inline]
    pub fn push_shared(&mut self, pool: usize, key: Key, bytes: &'m crate::Bytes, align: u64) {
        let body = if self.sizing {
            Body::Len(bytes.len())
        } else {
            Body::Borrowed(bytes)
        };
        self.queue(pool, Item::new(key, body, align));
    }
    /// Queues an item that was written out of line ([`Writer::for_item`]): its bytes, or in a sizing pass its
    /// length. A record or an array of records is written so, at the position it had in the previous pass, so
    /// that positions and alignments inside it are the final ones once passes settle.
    pub fn push_written(&mut self, pool: usize, key: Key, item: Writer, origin: usize, align: u64) {
        let blind = self.close_item(key, origin);
        let len = item.pos() - origin;
        let body = if self.sizing {
            Body::Len(len)
        } else {
            let start = self.arena.len();
            let buf = item.into_inner();
            self.arena.extend_from_slice(&buf);
            self.spare.push(buf);
            Body::Arena(start, self.arena.len())
        };
        self.arena_len += len;
        self.queue(
            pool,
            Item {
                blind,
                ..Item::new(key, body, align)
            },
        );
    }
    /// Queues a string for a pool: encoded in `encoding`, then `term`.
    pub fn push_str(
        &mut self,
        pool: usize,
        key: Key,
        s: &str,
        encoding: &str,
        term: &[u8],
        align: u64,
    ) -> Result<()> {
        if crate::text::is_utf8(encoding) {
            return self.push_utf8(pool, key, s, term, align);
        }
        let mut b = crate::text::encode(s, encoding)?;
        crate::write::check_term(&b, term)?;
        b.extend_from_slice(term);
        let body = Body::Shared(Box::new(b.into()));
        self.queue(pool, Item::new(key, body, align));
        Ok(())
    }
    /// [`WriteCtx::push_str`] for a schema whose encoding is UTF-8 (a string's own bytes: no encoding to fail).
    ///
    /// # Errors
    /// A string that holds `term` (it would read back cut short).
    #[inline]
    pub fn push_utf8(
        &mut self,
        pool: usize,
        key: Key,
        s: &str,
        term: &[u8],
        align: u64,
    ) -> Result<()> {
        crate::write::check_term(s.as_bytes(), term)?;
        let body = if self.sizing {
            let len = s.len() + term.len();
            self.arena_len += len;
            Body::Len(len)
        } else {
            let (start, end) = self.copy_to_arena(s.as_bytes(), term);
            Body::Arena(start, end)
        };
        self.queue(pool, Item::new(key, body, align));
        Ok(())
    }
    /// Copies `bytes` and then `term` to the end of the arena (counted for the next pass's reservation), and gives
    /// their range there.
    fn copy_to_arena(&mut self, bytes: &[u8], term: &[u8]) -> (usize, usize) {
        let start = self.arena.len();
        self.arena.extend_from_slice(bytes);
        self.arena.extend_from_slice(term);
        self.arena_len += bytes.len() + term.len();
        (start, self.arena.len())
    }
    /// Writes a pool's queued items at the writer's position: the region first aligned to `start_align`, then
    /// each item aligned to its own alignment. Records each item's position.
    pub fn flush(&mut self, pool: usize, w: &mut Writer, start_align: u64) {
        w.align(start_align);
        self.set_flushed(pool);
        let Some(q) = self.pools.get_mut(pool) else {
            return;
        };
        let mut items = std::mem::take(&mut q.items);
        let mut empties = std::mem::take(&mut q.empties);
        let mut next = 0;
        for (i, it) in items.drain(..).enumerate() {
            while let Some(&e) = empties.get(next).filter(|e| e.at as usize <= i) {
                self.write_empty(e, w);
                next += 1;
            }
            self.write_item(it, w);
        }
        for &e in &empties[next..] {
            self.write_empty(e, w);
        }
        empties.clear();
        // The emptied queue keeps its allocations for the next pass.
        let q = &mut self.pools[pool];
        q.items = items;
        q.empties = empties;
    }
    /// [`WriteCtx::write_item`] for an empty item: its position only.
    #[inline]
    fn write_empty(&mut self, e: Empty, w: &mut Writer) {
        // (Only an item with a gap before it needs the full path: AINB has a few gaps, and writes about 30,000
        // empty items per pass.)
        if !self.item_gaps.is_empty() && self.item_gaps.iter().any(|(k, _)| *k == e.key) {
            self.write_item(e.item(), w);
            return;
        }
        w.align(align_at(u64::from(e.align), u64::from(e.align_at)));
        self.record(e.key, w.pos() as u64);
    }
    /// Writes a queued item at the writer's position, aligned, and records where it is and how long.
    #[inline]
    fn write_item(&mut self, it: Item<'m>, w: &mut Writer) {
        if !self.item_gaps.is_empty() {
            if let Some((_, g)) = self.item_gaps.iter().find(|(k, _)| *k == it.key) {
                w.bytes(g);
            }
        }
        w.align(it.align());
        let pos = w.pos() as u64;
        self.record(it.key, pos);
        if it.blind {
            self.placed_blind(it.key, pos);
        }
        let start = w.pos();
        match it.body {
            Body::Shared(b) => w.shared(&b),
            Body::Borrowed(b) => w.shared(b),
            Body::Arena(start, end) => w.bytes(&self.arena[start..end]),
            Body::Len(n) => w.fill(n, 0),
        }
        // An empty item (most of AINB's ranges) records no length: `prev_len` gives 0 for a length not recorded.
        // (Whether a pass sizes or writes, so that passes compare equal.)
        let len = w.pos() - start;
        if len != 0 {
            self.cur_lens.set(it.key, len as u64);
        }
    }
    /// Queues bytes to be written at absolute position `at` of the output once the pass has written everything
    /// else (over what is there, and past the end with zeros in between). Placing them at the end keeps what the
    /// pass writes in sequence at its own positions, however deep the placed data is nested.
    ///
    /// Fails only for the placement that [`write_passes`] found to overlap other bytes, when it writes the pass
    /// again so that the error names the path of the instance (see [`WriteCtx::apply_placed`]).
    pub fn place(&mut self, at: usize, bytes: Vec<u8>) -> Result<()> {
        if let Some((n, message)) = &self.refuse_place {
            if *n == self.placed.len() {
                return Err(Error::write(message.clone()));
            }
        }
        self.placed.push((at, bytes));
        self.placed_in.push(None);
        Ok(())
    }
    /// Queues bytes placed at `at` (a position in the output) in the stream `io`: where that stream has a size (a
    /// record read from a slot of its own), bytes that end past it are an error once positions settle, since the
    /// file would not read back.
    pub fn place_in(&mut self, io: Io, at: usize, bytes: Vec<u8>) -> Result<()> {
        if let Some(size) = io.size {
            let end = (at + bytes.len()).saturating_sub(io.start) as u64;
            if end > size && !self.first_pass() {
                return Err(Error::write(format!(
                    "its bytes end at {end:#x} in a stream of {size:#x} bytes: the file would not read back"
                )));
            }
        }
        self.place(at, bytes)?;
        if let Some(s) = self.placed_in.last_mut() {
            *s = Some(io.start);
        }
        Ok(())
    }
    /// How many placements this pass has queued ([`WriteCtx::pad_slot`] takes the bytes of those queued after).
    #[inline]
    pub fn placed_mark(&self) -> usize {
        self.placed.len()
    }
    /// Pads a record's slot with `n` bytes of `fill` from `w`'s position, except where a placement queued since
    /// `mark` (while the record was written) lies in the padding: there, the placed bytes, so that the slot holds
    /// what was placed in the record's stream and the two agree when laid over each other (an instance of an
    /// imported schema's record read from `_root._io`, which is that record's stream, past its fields).
    pub fn pad_slot(&self, w: &mut Writer, mark: usize, n: usize, fill: u8) {
        let inside = self.placed.get(mark..).unwrap_or(&[]);
        if w.is_sizing() || n == 0 || inside.is_empty() {
            w.fill(n, fill);
            return;
        }
        w.flush_bits();
        let start = w.pos();
        let mut pad = vec![fill; n];
        overlay(inside, start, &mut pad);
        w.bytes(&pad);
    }
    /// Lays the placements queued since `mark` in a record's own stream over `sub`, the writer of its own the
    /// record was written into (before it is processed, as `process: zlib`): their positions are that writer's,
    /// not the output's. They leave the pass's queue; those placed at the output's own positions
    /// ([`WriteCtx::place`]) stay. Placed bytes that differ from others at the same position are an error once
    /// positions settle, as in [`WriteCtx::apply_placed`].
    pub fn apply_placed_in(&mut self, sub: &mut Writer, mark: usize) -> Result<()> {
        if mark >= self.placed.len() {
            return Ok(());
        }
        let placed = self.placed.split_off(mark);
        let streams = self.placed_in.split_off(mark);
        let mut mine = Vec::new();
        for (p, s) in placed.into_iter().zip(streams) {
            if s.is_some() {
                mine.push(p);
            } else {
                self.placed.push(p);
                self.placed_in.push(s);
            }
        }
        let overlap = (!sub.is_sizing())
            .then(|| first_overlap(&mine, sub.contents()))
            .flatten();
        match lay_over(sub, mine, overlap) {
            Some((_, message)) if !self.first_pass() => Err(Error::write(message)),
            _ => Ok(()),
        }
    }
    /// Ends the slot of a record whose slot's size is derived, written from `start` with placements queued since
    /// `mark`: the bytes the file had after the record (`filler`), then, where the record placed bytes in its own
    /// stream past them, zeros up to their end, so that the slot holds everything the record's stream holds (an
    /// Exif block's directories, after its header). Where a placement lies over those bytes, the slot holds the
    /// placed bytes, so that the two agree when laid over each other: kept bytes give way to edited data.
    pub fn finish_slot(
        &self,
        w: &mut Writer,
        mark: usize,
        start: usize,
        filler: Option<&[u8]>,
    ) -> Result<()> {
        w.flush_bits();
        let pos = w.pos();
        let filler = filler.unwrap_or(&[]);
        let inside = self.placed.get(mark..).unwrap_or(&[]);
        let streams = self.placed_in.get(mark..).unwrap_or(&[]);
        // (Only placements in a stream that starts inside the slot: the record's own, or one of its records'.)
        let mine: Vec<(usize, usize)> = inside
            .iter()
            .zip(streams)
            .filter(|(_, s)| s.is_some_and(|s| s >= start))
            .map(|((at, b), _)| (*at, at + b.len()))
            .collect();
        // The slot's end; no more zeros made up between what is there than padding may add (a position far past
        // the record would make a slot out of proportion to the document).
        let far = crate::write::far_placements(pos + filler.len(), &mine);
        if let (Some(i), false) = (far.iter().position(|&f| f), self.first_pass()) {
            return Err(Error::write(format!(
                "it places bytes at {:#x} of its stream, more than {MAX_PAD:#x} bytes past what comes before \
                 them (is a position right?)",
                mine[i].0 - start
            )));
        }
        let end = mine
            .iter()
            .zip(&far)
            .filter(|(_, f)| !**f)
            .map(|(s, _)| s.1)
            .fold(pos + filler.len(), usize::max);
        let n = end - pos;
        if w.is_sizing() || n == 0 {
            w.fill(n, 0);
            return Ok(());
        }
        let mut tail = filler.to_vec();
        tail.resize(n, 0);
        overlay(inside, pos, &mut tail);
        w.bytes(&tail);
        Ok(())
    }
    /// Lays the queued placed bytes over a pass's output, in the order they were queued. Returns the first
    /// placement (by its number in the pass) whose bytes differ from other bytes at the same positions, placed or
    /// written in sequence, with a message: the file keeps only one of them, so it would not read back as the
    /// model. Bytes that agree may overlap (a node that two references share is placed twice). A writer that
    /// keeps no bytes is not checked against.
    pub fn apply_placed(&mut self, w: &mut Writer) -> Option<(usize, String)> {
        let overlap = if w.is_sizing() || self.placed.is_empty() {
            None
        } else {
            first_overlap(&self.placed, w.contents())
        };
        self.placed_in.clear();
        lay_over(w, std::mem::take(&mut self.placed), overlap)
    }
    /// Ends a pass. Returns whether it reproduced the previous one (then the output is final).
    pub fn end_pass(&mut self, size: u64) -> bool {
        for &(later, first) in self.dedup.aliases() {
            if let Some(p) = self.cur.get(first) {
                self.cur.set(later, p);
            }
        }
        let same_counts = self.dedup.clear();
        let same = same_counts
            && self.cur.same(&self.prev)
            && self.cur_lens.same(&self.prev_lens)
            && self.cur_pointers.same(&self.prev_pointers)
            && size == self.prev_size;
        std::mem::swap(&mut self.prev, &mut self.cur);
        std::mem::swap(&mut self.prev_lens, &mut self.cur_lens);
        std::mem::swap(&mut self.prev_pointers, &mut self.cur_pointers);
        self.cur_pointers.clear();
        self.cur_lens.clear();
        self.cur.clear();
        self.cur.reserve_like(&self.prev);
        self.prev_size = size;
        self.counters.clear();
        self.order_counters.clear();
        self.pools.iter_mut().for_each(Queue::clear);
        self.placed.clear();
        self.placed_in.clear();
        self.item_gaps.clear();
        self.flushed.iter_mut().for_each(|f| *f = false);
        self.arena.clear();
        self.arena.reserve(std::mem::take(&mut self.arena_len));
        self.blind.clear();
        self.roots.clear();
        self.pass += 1;
        same
    }
}

/// How many `-eager` instances a reader may follow per byte of input (plus [`FOLLOW_BASE`]). Without sharing,
/// every followed instance has an offset of its own in the file (at least four bytes), so a quarter per byte
/// suffices; the rest allows for containers that are stored once and referenced many times. A file whose
/// references fan out exponentially (each level shared twice by the one above) stops here.
pub const FOLLOW_PER_BYTE: u64 = 4;
/// The part of the budget of followed instances that does not depend on the input size.
pub const FOLLOW_BASE: u64 = 1 << 16;

/// How many bytes of pooled items a model may hold per byte of its input, and ...
pub const ITEMS_PER_BYTE: u64 = 4;
/// ... the part of that budget that does not depend on the input size. Items that share bytes (entries pointing
/// at one blob) are one copy in the input but one each in every document and file made from the model, so a file
/// whose items add up to more is refused when read.
pub const ITEMS_BASE: u64 = 16 << 20;

#[cfg(test)]
mod tests;
