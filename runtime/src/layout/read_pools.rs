//! Read-side bookkeeping of pools ([`ReadPools`]): where each pool's items lie, the alignment each item's place
//! asks for, how many offsets a reader has followed, and what the region-ordered and relocated parts of a format
//! have read.

use super::*;

/// Read-side bookkeeping of pools: where each pool's previous item ended; and how many `-eager` instances
/// (offsets that lead to a type that can contain itself) have been followed.
#[derive(Debug, Default, Clone)]
pub struct ReadPools {
    /// Each pool's state, by pool number.
    pub(super) pools: Vec<PoolRead>,
    /// The bytes of all items read, added up (shared bytes once per item).
    pub(super) item_bytes: u64,
    pub(super) max_end: u64,
    pub(super) followed: u64,
    pub(super) relaid: bool,
    /// The pools whose regions have been reached, in the order of the file.
    pub(super) entered: Vec<usize>,
    /// Sections read whose alignment waits for their region's other sections ([`ReadPools::sections`]).
    pub(super) pending: Vec<sections::Pending>,
    /// Items of other types in a region whose sections are ordered, by member ([`ReadPools::member_item`]).
    pub(super) groups: Vec<sections::Group>,
    /// The bytes before the last item read of each such member that nothing describes ([`ReadPools::take_gap`]).
    pub(super) group_gaps: Vec<((usize, usize), std::ops::Range<usize>)>,
    /// A buffer [`ReadPools::sections`] keeps from call to call.
    pub(super) scratch: Vec<sections::Pending>,
    /// The items of keep-order pools, by pool, in the order they were read ([`ReadPools::ordered_item`]).
    pub(super) ordered: Vec<(usize, Vec<super::item_order::Met>)>,
    /// The alignment choices of keep-order pools' items, by pool ([`ReadPools::item_align`]).
    pub(super) ordered_aligns: Vec<(usize, Vec<u32>)>,
    /// Where the items named from outside their type are, by position slot: (slot, position, length), the first
    /// read of each ([`ReadPools::note_named`]).
    pub(super) named: Vec<(u32, u64, u64)>,
    /// How many first readings are in progress ([`ReadPools::defer_begin`]).
    pub(super) defer: u32,
    /// The relocated pointers read: their table, where each is in the file, and its value
    /// ([`ReadPools::pointer`]).
    pub(super) pointers: Vec<(&'static str, u64, u64)>,
    /// The block chain's values read ([`ReadPools::chain_read`]).
    pub(super) chain: chain::ChainRead,
    /// Where every item read ends, where a schema asks where the content before an item ends
    /// ([`ReadPools::track_ends`], [`ReadPools::end_before`]).
    pub(super) ends: Option<Vec<u64>>,
}

/// What reading has seen of one pool.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct PoolRead {
    /// Where the pool has got to: the end of its previous item (or its region's start).
    pub(super) prev_end: Option<u64>,
    /// Where its items end, the furthest.
    pub(super) end: Option<u64>,
    /// Where its first item read starts, and that item's default alignment.
    pub(super) first: Option<(u64, u64)>,
}

impl ReadPools {
    /// Bookkeeping for a new read.
    pub fn new() -> Self {
        Self::default()
    }
    /// A pointer that relocation table `table` may list, read at `at` (from the file's start) with `value`: noted
    /// where the writer would list it ([`reloc::lists_value`]; `null`: `-relocate: {id, list-null: true}`), so
    /// that the table read can be compared with what the writer would derive ([`ReadPools::pointers_in`]).
    #[inline]
    pub fn pointer(&mut self, table: &'static str, at: u64, value: u64, null: bool) {
        if reloc::lists_value(value, null) {
            self.pointers.push((table, at, value));
        }
    }
    /// The positions, from `base` (where the stream of the table's type starts), in increasing order and each
    /// once, of the pointers of `table` read so far whose values lie in `region` (`[from, from + size)` from
    /// `base`; every one where `None`), as the writer lists them. Positions that are not within 4 GiB after
    /// `base` are left out (the table then reads as kept).
    pub fn pointers_in(&self, table: &str, base: u64, region: Option<(i128, i128)>) -> Vec<u32> {
        let of_table = self.pointers.iter().filter(|(t, _, _)| *t == table);
        reloc::listed_in(of_table.map(|&(_, at, v)| (at, v)), base, region)
    }
    /// A first reading of a field begins: values that the field's records take from their holder are not read yet
    /// (an element's instance that looks at the next element, a field that a later one follows), so instances
    /// that use values from outside their record are left at their defaults until the holder reads the field
    /// again with those values ([`ReadPools::deferring`]).
    #[inline]
    pub fn defer_begin(&mut self) {
        self.defer += 1;
    }
    /// The first reading that [`ReadPools::defer_begin`] began has ended.
    #[inline]
    pub fn defer_end(&mut self) {
        self.defer = self.defer.saturating_sub(1);
    }
    /// Whether a first reading is in progress: instances that use values from outside their record are left at
    /// their defaults, and a holder does not read a field again yet (the outermost one reads all again).
    #[inline]
    pub fn deferring(&self) -> bool {
        self.defer > 0
    }
    /// The state of `pool`, made on first use.
    #[inline]
    pub(super) fn pool(&mut self, pool: usize) -> &mut PoolRead {
        if self.pools.len() <= pool {
            self.add_pools(pool + 1);
        }
        &mut self.pools[pool]
    }
    /// Makes the state of pools up to `n` (once per pool and read, so out of the way of the items).
    #[cold]
    #[inline(never)]
    fn add_pools(&mut self, n: usize) {
        self.pools.resize_with(n, PoolRead::default);
    }
    /// Keeps where every item read from now on ends, for [`ReadPools::end_before`] (a schema that names
    /// `x._before`).
    pub fn track_ends(&mut self) {
        self.ends.get_or_insert_with(Vec::new);
    }
    /// Notes where an item ends, where ends are kept.
    #[inline]
    pub(super) fn note_end(&mut self, end: u64) {
        if let Some(e) = &mut self.ends {
            e.push(end);
        }
    }
    /// Notes where the item of position slot `slot` (an item an expression names from outside its type) is and
    /// how long it is, the first time one is read.
    pub fn note_named(&mut self, slot: u32, pos: u64, len: u64) {
        if !self.named.iter().any(|x| x.0 == slot) {
            self.named.push((slot, pos, len));
        }
    }
    /// Where the item of position slot `slot` is, as read (0 where none was noted).
    pub fn named_pos(&self, slot: u32) -> u64 {
        self.named.iter().find(|x| x.0 == slot).map_or(0, |x| x.1)
    }
    /// How long the item of position slot `slot` is, as read (0 where none was noted).
    pub fn named_len(&self, slot: u32) -> u64 {
        self.named.iter().find(|x| x.0 == slot).map_or(0, |x| x.2)
    }
    /// Where the content before position `at` ends: the furthest end, at or before `at`, of the items read so far
    /// (`x._before`: the start of the padding before `x`); 0 where none ends there, or ends are not kept.
    pub fn end_before(&self, at: u64) -> u64 {
        self.ends
            .iter()
            .flatten()
            .copied()
            .filter(|&e| e <= at)
            .max()
            .unwrap_or(0)
    }
    /// Records an item of `pool` at `start..start+len` and returns its alignment choice.
    #[inline]
    pub fn item(&mut self, pool: usize, start: u64, len: u64, default: u64) -> Option<u64> {
        let prev = self.note_item(pool, start, len, default);
        let a = align_choice(prev, start, default);
        self.relaid |= a.is_none();
        a.flatten()
    }
    /// Counts an item of `pool` at `start..start+len` (whose default alignment is `default`) and moves where the
    /// pool has got to past it; returns where the pool had got to before it.
    #[inline]
    pub(super) fn note_item(&mut self, pool: usize, start: u64, len: u64, default: u64) -> u64 {
        let end = start + len;
        self.item_bytes = self.item_bytes.saturating_add(len);
        self.max_end = self.max_end.max(end);
        self.note_end(end);
        let p = self.pool(pool);
        if p.prev_end.is_none() {
            p.first = Some((start, default));
        }
        let prev = p.prev_end.unwrap_or(start);
        // An item inside or before earlier ones (shared bytes) does not move where the pool has got to.
        p.prev_end = Some(prev.max(end));
        p.end = Some(p.end.unwrap_or(0).max(end));
        prev
    }
    /// Whether an empty item of `pool` at `start` is elsewhere than the writer would put it (where the pool has got
    /// to, aligned to `default`). Its offset is then kept in the model, and the pool's bookkeeping is left as it
    /// was: an empty item takes no room. Not known for a pool's first item (false).
    pub fn empty_elsewhere(&self, pool: usize, start: u64, default: u64) -> bool {
        match self.pools.get(pool).and_then(|p| p.prev_end) {
            Some(prev) => place_after(prev, default) != start,
            None => false,
        }
    }
    /// Refuses a model whose pooled items add up to more than [`ITEMS_PER_BYTE`] per byte of the `size`-byte input
    /// plus [`ITEMS_BASE`]: items that share bytes would be copied once per item by every document and file made
    /// from it. `pools` names the pools (by number) for the message.
    pub fn check_expansion(&self, size: u64, pools: &[&str]) -> Result<()> {
        let budget = size
            .saturating_mul(ITEMS_PER_BYTE)
            .saturating_add(ITEMS_BASE);
        if self.item_bytes <= budget {
            return Ok(());
        }
        Err(Error::new(
            crate::ErrorKind::Limit { message: format!(
                "the {} items add up to {} bytes, more than {ITEMS_PER_BYTE} times the {size}-byte file plus \
                 {ITEMS_BASE} bytes: items share their bytes, and every document or file written from this one \
                 would hold a copy for each",
                pools.join(" and "),
                self.item_bytes
            ) },
            None,
        ))
    }
    /// Whether some item or region is where no alignment puts it (it shares bytes with another, comes before the
    /// items read before it, or follows a gap): the writer then lays the file out anew, and positions after that
    /// point move.
    pub fn relaid(&self) -> bool {
        self.relaid
    }
    /// Notes that the writer will not put things where they are (elements read out of the order it writes them).
    pub fn set_relaid(&mut self) {
        self.relaid = true;
    }
    /// The records a deduplicating pool's region lists, at `spans` (absolute positions in `file`): where two are
    /// the same bytes, the writer points every reference to either at the first, so a reference to another one
    /// moves, and the file is relaid (found by fuzzing BFRES: a string pool with its strings zeroed).
    pub fn listed_records(&mut self, file: &[u8], spans: &[(u64, u64)]) {
        let mut seen = std::collections::HashSet::with_capacity(spans.len());
        for &(s, e) in spans {
            let b = usize::try_from(s)
                .ok()
                .zip(usize::try_from(e).ok())
                .and_then(|(s, e)| file.get(s..e));
            if b.is_some_and(|b| !seen.insert(b)) {
                self.relaid = true;
                return;
            }
        }
    }
    /// Where a record read up to `pos` ends, where it holds the regions of `pools`: past their items read since
    /// the regions began (the writer writes a record's own regions' items inside it).
    #[inline]
    pub fn extent(&self, pos: u64, pools: &[usize]) -> u64 {
        pools
            .iter()
            .filter_map(|&p| self.pool_end(p))
            .fold(pos, u64::max)
    }
    /// Where the items of `pool` read so far end (the furthest), if there are any.
    pub fn pool_end(&self, pool: usize) -> Option<u64> {
        self.pools.get(pool).and_then(|p| p.end)
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
    /// Notes that the reader has reached the region of `pool`, which starts at `start`. Where items were read
    /// before (their region comes after what points at them), the first of them must be where the writer puts the
    /// first item, at the region's start (aligned to the item's default): after a gap (bytes nothing refers to,
    /// which the writer does not keep), or before the region, the file is relaid. Where none were, the region's
    /// start is where the items' content begins.
    ///
    /// A keep-order pool's items are judged where the region's order is (`item_order`), not here.
    ///
    /// A pool whose region is in a type that is read more than once (AINB's plug pointer array, one per element
    /// parameter) starts anew at each region: what the previous one held says nothing about this one.
    pub fn enter_region(&mut self, pool: usize, start: u64) {
        if self.entered.contains(&pool) {
            *self.pool(pool) = PoolRead {
                prev_end: Some(start),
                ..PoolRead::default()
            };
            return;
        }
        self.entered.push(pool);
        // (A keep-order pool's first item met need not be its first in the file: `item_order` judges where its
        // items are, from the region's start.)
        let ordered = self.ordered.iter().any(|(q, _)| *q == pool);
        match self.pools.get(pool).and_then(|p| p.first) {
            Some(_) if ordered => {}
            Some((first, default)) => {
                if align_up(start, default) != first {
                    self.relaid = true;
                }
            }
            None => {
                self.pool(pool).prev_end.get_or_insert(start);
            }
        }
    }
    /// The alignment of the region of `pool`, whose field starts at `start`, from where the content before it
    /// ended: the end of the last item of another pool at or before `start` (the bytes between are padding), or
    /// without one `before`. An item of a region that comes earlier and reaches past `start` overlaps this region:
    /// the writer keeps them apart, so the file is relaid.
    ///
    /// Where the pool's items were read before the region (a table that points into it comes first), the region
    /// starts where its first item is, and the bytes between the field's start and there are the padding the
    /// writer puts before the region: the alignment is read off the first item's position, so that the file is
    /// written back with that padding. The region then starts at `align_up(start, alignment)`, which is what
    /// [`ReadPools::enter_region`] is to be given.
    pub fn region_align(&mut self, start: u64, before: u64, pool: usize) -> u64 {
        if self
            .entered
            .iter()
            .filter(|&&p| p != pool)
            .any(|&p| self.pool_end(p).is_some_and(|e| e > start))
        {
            self.relaid = true;
        }
        // Items of this pool read before (empty ones end where the region starts) are inside it, not before it.
        let prev = self
            .pools
            .iter()
            .enumerate()
            .filter(|&(p, _)| p != pool)
            .filter_map(|(_, p)| p.prev_end)
            .filter(|&e| e <= start)
            .max()
            .unwrap_or(before.min(start));
        if let Some((first, _)) = self.pools.get(pool).and_then(|p| p.first) {
            let a = low_bit(first);
            if first >= start && align_up(prev, a) == first {
                return a;
            }
        }
        let a = low_bit(start);
        if align_up(prev, a) == start {
            a
        } else {
            self.relaid = true;
            1
        }
    }
}
