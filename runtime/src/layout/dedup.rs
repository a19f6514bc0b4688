//! Deduplicating string pools (`-pool: {id, dedup: true}`): a string equal to one already queued for the pool is
//! not queued again, and its key gets the first one's position. When the region is written, the strings the file
//! held (the model's list, in file order) come first, so that their order and the strings nothing refers to are
//! kept (a layout choice); a queued string equal to one of them takes its position.

use std::hash::Hasher as _;

use hashbrown::HashTable;
use rustc_hash::FxHashMap as HashMap;

use super::{Body, Item, Key, WriteCtx};
use crate::write::Writer;
use crate::ResultExt as _;

/// Strings by their bytes, each held as a range of the pass's arena (`WriteCtx::arena`) with a value: looking one up
/// or adding one allocates nothing per string (a map keyed by owned bytes allocated once per string and pass, a
/// fifth of the time of writing a small AINB file went to the allocator).
#[derive(Debug)]
struct Strings<V>(HashTable<(usize, usize, V)>);

impl<V> Default for Strings<V> {
    fn default() -> Self {
        Strings(HashTable::new())
    }
}

fn hash(bytes: &[u8]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    h.write(bytes);
    h.finish()
}

impl<V: Copy> Strings<V> {
    fn get(&self, arena: &[u8], bytes: &[u8]) -> Option<V> {
        self.0
            .find(hash(bytes), |&(s, e, _)| &arena[s..e] == bytes)
            .map(|&(_, _, v)| v)
    }
    /// Adds `arena[start..end]`, which [`Strings::get`] did not find.
    fn insert(&mut self, arena: &[u8], start: usize, end: usize, v: V) {
        self.0
            .insert_unique(hash(&arena[start..end]), (start, end, v), |&(s, e, _)| {
                hash(&arena[s..e])
            });
    }
    fn clear(&mut self) {
        self.0.clear();
    }
}

/// The strings queued so far for each deduplicating pool, and the keys that share another key's position.
#[derive(Debug, Default)]
pub(super) struct Dedup {
    /// By pool: encoded bytes with terminator -> the key of the first string queued with them.
    first: Vec<Strings<Key>>,
    /// A string's bytes and terminator, to look it up without allocating.
    scratch: Vec<u8>,
    /// (a later key, the first key): set to the first key's position when the pass ends.
    aliases: Vec<(Key, Key)>,
    /// pool -> (encoded bytes -> position), for the pools whose region this pass has written: a string queued
    /// after its region (by something written after it, as AINB's attachments after its string pool) takes its
    /// position from here.
    written: HashMap<usize, Strings<u64>>,
    /// Strings queued after their region that it did not hold: written in the region from the next pass on (they
    /// stay for the rest of the write, so that passes settle).
    late: Vec<(usize, Vec<u8>)>,
    /// Where each written region ends in this pass.
    end: HashMap<usize, u64>,
    /// How many strings each region written in this pass holds, and in the pass before ([`WriteCtx::dedup_count`]).
    counts: HashMap<usize, u64>,
    prev_counts: HashMap<usize, u64>,
}

impl Dedup {
    /// Ends a pass; whether each region holds as many strings as in the pass before.
    pub(super) fn clear(&mut self) -> bool {
        self.first.iter_mut().for_each(Strings::clear);
        self.aliases.clear();
        self.written.clear();
        self.end.clear();
        let same = self.counts == self.prev_counts;
        std::mem::swap(&mut self.counts, &mut self.prev_counts);
        self.counts.clear();
        same
    }
    pub(super) fn aliases(&self) -> &[(Key, Key)] {
        &self.aliases
    }
}

impl<'m> WriteCtx<'m> {
    /// Queues a UTF-8 string (then `term`) for a deduplicating pool: when equal bytes were queued for the pool
    /// before, nothing is queued and `key` takes the earlier string's position. The bytes are kept even in a
    /// sizing pass, since the region compares them with the strings the file held.
    ///
    /// # Errors
    /// A string that holds `term` (it would read back cut short).
    pub fn push_utf8_dedup(
        &mut self,
        pool: usize,
        key: Key,
        s: &str,
        term: &[u8],
        align: u64,
    ) -> crate::Result<()> {
        crate::write::check_term(s.as_bytes(), term)?;
        let mut bytes = std::mem::take(&mut self.dedup.scratch);
        bytes.clear();
        bytes.extend_from_slice(s.as_bytes());
        bytes.extend_from_slice(term);
        let r = self.push_encoded_dedup(pool, key, &bytes, align);
        self.dedup.scratch = bytes;
        r
    }

    /// How many strings the region of pool `pool` held in the previous pass (where the model's list and the
    /// strings it refers to that the list does not hold were written), or `listed` (the model's list) in the
    /// first: the count a region's count field gives.
    pub fn dedup_count(&self, pool: usize, listed: usize) -> u64 {
        self.dedup
            .prev_counts
            .get(&pool)
            .copied()
            .unwrap_or(listed as u64)
    }

    /// A writer for a record encoded apart, for [`WriteCtx::push_record_dedup`]: in a buffer an earlier one gave
    /// back (a file's strings are encoded once per pass each).
    #[doc(hidden)]
    pub fn record_writer(&mut self) -> Writer {
        let buf = self.spare.pop().unwrap_or_default();
        Writer::new().for_item_in(0, buf)
    }

    /// [`WriteCtx::push_encoded_dedup`] of what `item` ([`WriteCtx::record_writer`]) holds, its buffer kept for the
    /// next record.
    #[doc(hidden)]
    pub fn push_record_dedup(
        &mut self,
        pool: usize,
        key: Key,
        item: Writer,
        align: u64,
    ) -> crate::Result<()> {
        let buf = item.into_inner();
        let out = self.push_encoded_dedup(pool, key, &buf, align);
        self.spare.push(buf);
        out
    }

    /// Queues encoded bytes for a deduplicating pool: a string's with its terminator ([`WriteCtx::push_utf8_dedup`]),
    /// or a record's (NW strings: a length, the characters, a zero byte, padding); equal bytes share one position.
    pub fn push_encoded_dedup(
        &mut self,
        pool: usize,
        key: Key,
        bytes: &[u8],
        align: u64,
    ) -> crate::Result<()> {
        if self.is_flushed(pool) {
            let found = self
                .dedup
                .written
                .get(&pool)
                .and_then(|w| w.get(&self.arena, bytes));
            let pos = match found {
                Some(pos) => pos,
                None => {
                    // Not in the region: from the next pass on it is written at the region's end, where this
                    // pass would have put it, so that the offsets written meanwhile are already the right ones.
                    let end = self.dedup.end.entry(pool).or_insert(0);
                    let pos = *end;
                    *end += bytes.len() as u64;
                    // (Once per string: later passes write it in the region, so `written` has it.)
                    let (s, e) = self.copy_to_arena(bytes, &[]);
                    self.dedup
                        .written
                        .entry(pool)
                        .or_default()
                        .insert(&self.arena, s, e, pos);
                    self.dedup.late.push((pool, bytes.to_vec()));
                    pos
                }
            };
            self.cur.set(key, pos);
            return Ok(());
        }
        if self.dedup.first.len() <= pool {
            self.dedup.first.resize_with(pool + 1, Strings::default);
        }
        if let Some(first) = self.dedup.first[pool].get(&self.arena, bytes) {
            self.dedup.aliases.push((key, first));
            return Ok(());
        }
        let (start, end) = self.copy_to_arena(bytes, &[]);
        let body = Body::Arena(start, end);
        self.queue(pool, Item::new(key, body, align));
        self.dedup.first[pool].insert(&self.arena, start, end, key);
        Ok(())
    }

    /// Writes a deduplicating pool's region: aligned to `start_align`, then `recorded` (the strings the file held,
    /// in its order, each followed by `term`), then the queued strings that are not among them, then the strings
    /// queued after the region in an earlier pass that are not among them either. A queued string equal to a
    /// recorded one takes the recorded one's position.
    ///
    /// # Errors
    /// A recorded string that holds `term` (it would read back cut short), with its index.
    pub fn flush_dedup(
        &mut self,
        pool: usize,
        w: &mut Writer,
        start_align: u64,
        recorded: &[String],
        term: &[u8],
    ) -> crate::Result<()> {
        for (i, s) in recorded.iter().enumerate() {
            crate::write::check_term(s.as_bytes(), term).at_index(i)?;
        }
        self.flush_dedup_with(pool, w, start_align, recorded.len(), |ctx, i| {
            ctx.copy_to_arena(recorded[i].as_bytes(), term)
        })
    }

    /// [`WriteCtx::flush_dedup`] for a pool of records, the recorded ones encoded (`recorded`, the file's in its
    /// order): each is written as it is, then the queued records ([`WriteCtx::push_encoded_dedup`]) that are
    /// not among them, then those queued after the region in an earlier pass.
    pub fn flush_dedup_encoded(
        &mut self,
        pool: usize,
        w: &mut Writer,
        start_align: u64,
        recorded: &[Vec<u8>],
    ) -> crate::Result<()> {
        self.flush_dedup_with(pool, w, start_align, recorded.len(), |ctx, i| {
            ctx.copy_to_arena(&recorded[i], &[])
        })
    }

    /// The region of a deduplicating pool, its `n` recorded strings copied to the arena by `recorded`.
    fn flush_dedup_with(
        &mut self,
        pool: usize,
        w: &mut Writer,
        start_align: u64,
        n: usize,
        mut recorded: impl FnMut(&mut Self, usize) -> (usize, usize),
    ) -> crate::Result<()> {
        w.align(start_align);
        self.set_flushed(pool);
        // Every string of the region is looked up by its bytes in the arena (the recorded ones are copied there).
        let mut at = self.dedup.written.remove(&pool).unwrap_or_default();
        at.clear();
        let mut count = n as u64;
        for i in 0..n {
            let pos = w.pos() as u64;
            let (start, end) = recorded(self, i);
            w.bytes(&self.arena[start..end]);
            if at.get(&self.arena, &self.arena[start..end]).is_none() {
                at.insert(&self.arena, start, end, pos);
            }
        }
        let items = self.take_queue(pool);
        for it in &items {
            let Body::Arena(start, end) = it.body else {
                continue;
            };
            match at.get(&self.arena, &self.arena[start..end]) {
                Some(pos) => self.cur.set(it.key, pos),
                None => {
                    w.align(it.align());
                    let pos = w.pos() as u64;
                    self.cur.set(it.key, pos);
                    w.bytes(&self.arena[start..end]);
                    at.insert(&self.arena, start, end, pos);
                    count += 1;
                }
            }
        }
        // Strings queued after the region in an earlier pass, at its end (where that pass expected them).
        let late = std::mem::take(&mut self.dedup.late);
        for (p, bytes) in &late {
            if *p == pool && at.get(&self.arena, bytes).is_none() {
                let pos = w.pos() as u64;
                w.bytes(bytes);
                let (s, e) = self.copy_to_arena(bytes, &[]);
                at.insert(&self.arena, s, e, pos);
                count += 1;
            }
        }
        self.dedup.late = late;
        self.dedup.end.insert(pool, w.pos() as u64);
        self.dedup.written.insert(pool, at);
        self.dedup.counts.insert(pool, count);
        if let Some(q) = self.pools.get_mut(pool) {
            let mut items = items;
            items.clear();
            q.items = items;
        }
        Ok(())
    }
}

/// The strings of a deduplicating pool's region (at absolute offset `at`), for the model: each must be UTF-8 and
/// end in `term`.
///
/// # Errors
/// A string that is not UTF-8, or bytes after the last terminator, with their offset: the model could not write
/// them back.
pub fn pool_strings(region: &[u8], term: &[u8], at: u64) -> crate::Result<Vec<String>> {
    let (strings, rest) = split_pool(region, term);
    let mut out = Vec::with_capacity(strings.len());
    let mut pos = at;
    for s in strings {
        match std::str::from_utf8(s) {
            Ok(t) => out.push(t.to_string()),
            Err(e) => {
                return Err(crate::Error::invalid(
                    pos + e.valid_up_to() as u64,
                    "a string of the pool is not UTF-8",
                ))
            }
        }
        pos += (s.len() + term.len()) as u64;
    }
    if !rest.is_empty() {
        return Err(crate::Error::invalid(
            pos,
            format!(
                "the string pool ends in {} bytes that are not a terminated string",
                rest.len()
            ),
        ));
    }
    Ok(out)
}

/// The strings of a pool region, in order: the region split after each terminator (`term`, one or more bytes).
/// Bytes after the last terminator (padding that is not a string) are returned apart, as the second value.
pub fn split_pool<'a>(region: &'a [u8], term: &[u8]) -> (Vec<&'a [u8]>, &'a [u8]) {
    let mut out = Vec::new();
    let mut rest = region;
    if term.is_empty() {
        return (out, rest);
    }
    loop {
        let found = rest
            .windows(term.len())
            .enumerate()
            .step_by(term.len())
            .find(|(_, w)| *w == term)
            .map(|(i, _)| i);
        match found {
            Some(i) => {
                out.push(&rest[..i]);
                rest = &rest[i + term.len()..];
            }
            None => return (out, rest),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::write_passes;

    #[test]
    fn equal_strings_share_a_position_and_recorded_strings_come_first() {
        let out = write_passes(|w, ctx| {
            let recorded = ["z".to_string(), "unused".to_string()];
            let (a, b, c) = (ctx.key(1), ctx.key(1), ctx.key(1));
            ctx.push_utf8_dedup(0, a, "abc", &[0], 1)?;
            ctx.push_utf8_dedup(0, b, "z", &[0], 1)?;
            ctx.push_utf8_dedup(0, c, "abc", &[0], 1)?;
            // The offsets of the three references, as a header before the pool.
            for k in [a, b, c] {
                w.u8(ctx.prev_pos(k) as u8);
            }
            ctx.flush_dedup(0, w, 1, &recorded, &[0])?;
            Ok(())
        })
        .unwrap();
        assert_eq!(out, b"\x0c\x03\x0cz\0unused\0abc\0");
        // Without recorded strings, in the order they were queued.
        let out = write_passes(|w, ctx| {
            let (a, b) = (ctx.key(1), ctx.key(1));
            ctx.push_utf8_dedup(0, a, "b", &[0], 1)?;
            ctx.push_utf8_dedup(0, b, "b", &[0], 1)?;
            w.u8(ctx.prev_pos(a) as u8);
            w.u8(ctx.prev_pos(b) as u8);
            ctx.flush_dedup(0, w, 1, &[], &[0])?;
            Ok(())
        })
        .unwrap();
        assert_eq!(out, b"\x02\x02b\0");
    }

    /// Encoded records (a length byte, then the characters): recorded ones first, equal ones shared, and the count
    /// the region held in the pass before, which a count before the region gives.
    #[test]
    fn encoded_records_share_positions_and_give_their_count() {
        let out = write_passes(|w, ctx| {
            let recorded = [b"\x01z".to_vec(), b"\x02ab".to_vec()];
            let (a, b, c) = (ctx.key(1), ctx.key(1), ctx.key(1));
            ctx.push_encoded_dedup(0, a, b"\x03new", 1)?;
            ctx.push_encoded_dedup(0, b, b"\x02ab", 1)?;
            ctx.push_encoded_dedup(0, c, b"\x03new", 1)?;
            w.u8(ctx.dedup_count(0, recorded.len()) as u8);
            for k in [a, b, c] {
                w.u8(ctx.prev_pos(k) as u8);
            }
            ctx.flush_dedup_encoded(0, w, 1, &recorded)?;
            Ok(())
        })
        .unwrap();
        assert_eq!(out, b"\x03\x09\x06\x09\x01z\x02ab\x03new");
    }

    /// A string queued after its region was written (by something written after the region, with its offset
    /// placed back before it) takes the position of an equal string the region holds; one the region did not
    /// hold is written in it from the next pass on.
    #[test]
    fn strings_queued_after_their_region_find_their_place() {
        let out = write_passes(|w, ctx| {
            let recorded = ["a".to_string(), "b".to_string()];
            let (x, y) = (ctx.key(1), ctx.key(1));
            // Two offset bytes, then the pool; the strings come after the region, as placed instances would.
            w.u8(ctx.prev_pos(x) as u8);
            w.u8(ctx.prev_pos(y) as u8);
            ctx.flush_dedup(0, w, 1, &recorded, &[0])?;
            ctx.push_utf8_dedup(0, x, "b", &[0], 1)?;
            ctx.push_utf8_dedup(0, y, "new", &[0], 1)?;
            Ok(())
        })
        .unwrap();
        assert_eq!(out, b"\x04\x06a\0b\0new\0");
    }

    /// Any other item queued after its pool's region would be lost: the write fails instead.
    #[test]
    fn items_queued_after_their_region_are_refused() {
        let e = write_passes(|w, ctx| {
            ctx.flush(0, w, 1);
            let k = ctx.key(1);
            ctx.push(0, k, vec![1u8, 2], 1);
            Ok(())
        })
        .unwrap_err();
        assert!(
            e.to_string().contains("queued after the pool's region"),
            "{e}"
        );
    }

    #[test]
    fn regions_split_at_terminators() {
        assert_eq!(
            split_pool(b"ab\0\0cd\0xy", &[0]),
            (vec![&b"ab"[..], b"", b"cd"], &b"xy"[..])
        );
        // A two-byte terminator is looked for at even offsets of each string.
        assert_eq!(
            split_pool(b"a\0\0\0b\0\0\0", &[0, 0]),
            (vec![&b"a\0"[..], b"b\0"], &b""[..])
        );
    }
}
