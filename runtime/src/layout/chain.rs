//! Block chains: records that each hold the distance to the next one in the file (`nn::util`'s block headers, whose
//! next block offset and size say where the next block starts). A field `-derive: _chain.next` is such a distance:
//! from the start of its record to the start of the next record of the chain, 0 for the last. The chain's records
//! are every record of a type with such a field, in the order of their positions (as Nintendo's BNTX and BFRES
//! files have them).
//!
//! The writer records where each record of the chain starts ([`WriteCtx::chain_member`]) and derives the distances
//! from the positions of the previous pass. The reader cannot know the next record when it reads one, so it notes
//! each value with the record's position ([`ReadPools::chain_read`]) and takes them as derived; once the file is
//! read, [`ReadPools::chain_kept`] says which values are not what the writer would derive (a block the schema does
//! not read, a chain out of order), and the file is read again keeping those as overrides.

use std::collections::BTreeSet;

use super::{Key, ReadPools, WriteCtx};

/// The distance from `own` to the next of `starts` (sorted, each once) after it; where there is none, to `end`
/// (`_chain.size`: where what follows the chain starts, `-chain-end`) if it lies after `own`, else 0; 0 where `own`
/// is not one of them.
pub fn next_distance(starts: &[u64], own: u64, end: Option<u64>) -> u64 {
    match starts.binary_search(&own) {
        Ok(i) => match starts.get(i + 1) {
            Some(n) => n - own,
            None => end.and_then(|e| e.checked_sub(own)).unwrap_or(0),
        },
        Err(_) => 0,
    }
}

/// What a read notes of one chain value, and what a second read keeps.
#[derive(Debug, Default, Clone)]
pub(super) struct ChainRead {
    /// The values read: the record's start, the field, the value, and whether the last record's reaches the end.
    notes: Vec<(u64, &'static str, u64, bool)>,
    /// Where the chain ends (`-chain-end`), where read.
    end: Option<u64>,
    /// For a second read: the values to keep as the file has them, by record start and field.
    keep: Option<BTreeSet<(u64, &'static str)>>,
}

impl ReadPools {
    /// A chain value (`-derive: _chain.next`, or `_chain.size` with `to_end`), `value` as read in `field` of the
    /// record that starts at `start` (from the file's start): whether the model keeps it (a second read, where it
    /// is not what the writer derives); otherwise it is noted, and taken as derived.
    pub fn chain_read(
        &mut self,
        start: u64,
        field: &'static str,
        value: u64,
        to_end: bool,
    ) -> bool {
        match &self.chain.keep {
            Some(keep) => keep.contains(&(start, field)),
            None => {
                self.chain.notes.push((start, field, value, to_end));
                false
            }
        }
    }
    /// Where the chain ends (the position of the record marked `-chain-end`), as read.
    pub fn chain_end(&mut self, at: u64) {
        self.chain.end = Some(at);
    }
    /// After a read: the chain values that are not what the writer would derive from the records' positions, where
    /// there are any (the file must be read again keeping them, [`ReadPools::keep_chain`]).
    pub fn chain_kept(&self) -> Option<BTreeSet<(u64, &'static str)>> {
        if self.chain.keep.is_some() {
            return None;
        }
        let starts: Vec<u64> = self
            .chain
            .notes
            .iter()
            .map(|n| n.0)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let kept: BTreeSet<(u64, &'static str)> = self
            .chain
            .notes
            .iter()
            .filter(|(s, _, v, to_end)| {
                next_distance(&starts, *s, self.chain.end.filter(|_| *to_end)) != *v
            })
            .map(|&(s, f, _, _)| (s, f))
            .collect();
        (!kept.is_empty()).then_some(kept)
    }
    /// Bookkeeping for reading a file again, keeping the chain values `keep` ([`ReadPools::chain_kept`]).
    pub fn keep_chain(&mut self, keep: BTreeSet<(u64, &'static str)>) {
        self.chain.keep = Some(keep);
    }
}

impl WriteCtx<'_> {
    /// Records where a record of the chain starts in this pass (`key`: the next occurrence of the chain's slot).
    #[inline]
    pub fn chain_member(&mut self, key: Key, pos: u64) {
        self.record(key, pos);
    }
    /// The distance from the record `key` of the chain to the next one, as the previous pass placed them (0 for the
    /// last, and in the first pass).
    pub fn chain_next(&self, key: Key) -> u64 {
        self.chain_size(key, None)
    }
    /// Records where the chain ends in this pass (`key`: the first occurrence of the end's slot).
    #[inline]
    pub fn chain_end(&mut self, key: Key, pos: u64) {
        self.record(key, pos);
    }
    /// [`WriteCtx::chain_next`], and for the last record the distance to where the chain ended in the previous pass
    /// (`_chain.size`; `end`: the first occurrence of the end's slot).
    pub fn chain_size_to(&self, key: Key, end: Key) -> u64 {
        self.chain_size(key, self.prev.get(end))
    }
    fn chain_size(&self, key: Key, end: Option<u64>) -> u64 {
        let Some(own) = self.prev.get(key) else {
            return 0;
        };
        let mut starts: Vec<u64> = self
            .prev
            .0
            .get(key.slot as usize)
            .map_or(&[][..], |v| &v[..])
            .iter()
            .copied()
            .filter(|&p| p != super::Positions::NONE)
            .collect();
        starts.sort_unstable();
        starts.dedup();
        next_distance(&starts, own, end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_to_the_next_start() {
        let s = [0x1b8, 0x270, 0x560, 0xff0];
        assert_eq!(next_distance(&s, 0x1b8, None), 0xb8);
        assert_eq!(next_distance(&s, 0x560, Some(0x99000)), 0xa90);
        assert_eq!(next_distance(&s, 0xff0, None), 0);
        assert_eq!(next_distance(&s, 0xff0, Some(0x99000)), 0x98010);
        assert_eq!(next_distance(&s, 0xff0, Some(0x10)), 0);
        assert_eq!(next_distance(&s, 0x300, Some(0x99000)), 0);
    }

    #[test]
    fn a_read_keeps_only_what_differs() {
        let mut p = ReadPools::new();
        assert!(!p.chain_read(0x10, "next", 0x20, false));
        assert!(!p.chain_read(0x10, "size", 0x20, true));
        assert!(!p.chain_read(0x30, "next", 0x7, false));
        assert!(!p.chain_read(0x30, "size", 0x10, true));
        p.chain_end(0x40);
        let kept = p.chain_kept().unwrap();
        assert_eq!(kept.into_iter().collect::<Vec<_>>(), [(0x30, "next")]);
        let mut again = ReadPools::new();
        again.keep_chain([(0x30, "next")].into_iter().collect());
        assert!(!again.chain_read(0x10, "next", 0x20, false));
        assert!(again.chain_read(0x30, "next", 0x7, false));
        assert!(again.chain_kept().is_none());
    }

    #[test]
    fn a_chain_as_derived_keeps_nothing() {
        let mut p = ReadPools::new();
        p.chain_read(0x100, "next", 0, false);
        p.chain_read(0x0, "next", 0x100, false);
        p.chain_read(0x100, "size", 0x20, true);
        p.chain_end(0x120);
        assert!(p.chain_kept().is_none());
    }
}
