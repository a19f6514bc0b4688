//! The order of a region's sections (the items a type declares for a region of its own: the tables a header points
//! to) as a layout choice: read off their positions, kept in the model by name, and followed by the writer.
//!
//! Files of one format differ in where some sections go (AINB's attachment id array before or after the attachment
//! array). A reader reads the sections in their declared order; their positions say the file's order, and their
//! alignments are judged in that order, once all of them are read ([`ReadPools::sections`]).
//!
//! Items that other types put in such a region (AINB's element parameters, which the elements point to) are its
//! members too, one per instance that declares them: a group, written where the order puts it
//! ([`WriteCtx::flush_slot`]). The items of a group are judged one after another as they are read; the group's
//! first item, like a section, once the order is known.

use super::{align_choice, Key, ReadPools, WriteCtx};
use crate::error::{Error, Result};
use crate::write::Writer;

/// A section read, waiting for its region's other sections: by pool, its number among the type's sections, where
/// it starts and how long it is.
#[derive(Debug, Clone, Copy)]
pub(super) struct Pending {
    pool: usize,
    idx: usize,
    start: u64,
    len: u64,
}

/// The items of one instance of another type in an ordered region, as read so far: by pool and member number,
/// where the first starts, where the last read ends (the next is judged from there) and where they end furthest.
#[derive(Debug, Clone, Copy)]
pub(super) struct Group {
    pool: usize,
    idx: usize,
    first: u64,
    prev_end: u64,
    end: u64,
}

/// What reading found of a region's members (see [`ReadPools::sections`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sections {
    /// Their order in the file, by member number; `None` where it is the declared one.
    pub order: Option<Vec<usize>>,
    /// The members with an alignment choice, by member number (most have none: a region read once per record
    /// of a repeated type allocates nothing for them).
    aligns: Vec<(usize, u64)>,
    /// The bytes before a member that nothing describes, by member number: where they are in the input.
    gaps: Vec<(usize, std::ops::Range<usize>)>,
}

impl Sections {
    /// Member `i`'s alignment choice.
    pub fn align(&self, i: usize) -> Option<u64> {
        self.aligns.iter().find(|(j, _)| *j == i).map(|(_, a)| *a)
    }
    /// The bytes before member `i` that nothing describes, from the input `data`.
    pub fn gap<'a>(&self, i: usize, data: &'a [u8]) -> Option<&'a [u8]> {
        let (_, r) = self.gaps.iter().find(|(j, _)| *j == i)?;
        data.get(r.clone())
    }
}

/// The bytes of the input `data` from `prev` (where the content before ended) to `start` (where a member or item
/// starts) that are not padding an alignment explains: bytes no alignment reaches over, or that are not zeros. Kept
/// as a gap, so that the file is written back as it was.
fn gap(data: &[u8], prev: u64, start: u64, default: u64) -> Option<std::ops::Range<usize>> {
    let r = usize::try_from(prev).ok()?..usize::try_from(start).ok()?;
    let bytes = data.get(r.clone()).filter(|b| !b.is_empty())?;
    let padding = bytes.iter().all(|&x| x == 0) && align_choice(prev, start, default).is_some();
    (!padding).then_some(r)
}

impl ReadPools {
    /// Where the state of the group of member `idx` of `pool` is, if an item of it was read.
    fn group(&self, pool: usize, idx: usize) -> Option<usize> {
        self.groups
            .iter()
            .rposition(|g| g.pool == pool && g.idx == idx)
    }

    /// Where everything of `pool` read so far ends (the furthest): its items, its sections (before they are
    /// judged) and its groups' items. What a root's tail region holds after that is its `<region>_trailing`.
    pub fn items_end(&self, pool: usize) -> Option<u64> {
        let sections = (self.pending.iter())
            .filter(|p| p.pool == pool)
            .map(|p| p.start + p.len);
        let groups = self.groups.iter().filter(|g| g.pool == pool).map(|g| g.end);
        self.pool_end(pool)
            .into_iter()
            .chain(sections)
            .chain(groups)
            .max()
    }

    /// The bytes of a root's tail region (`region`, from `region_at` in the file) after everything of `pool` read
    /// so far ([`ReadPools::items_end`]), where there are any: its `<region>_trailing`.
    pub fn trailing<'b>(&self, pool: usize, region_at: u64, region: &'b [u8]) -> Option<&'b [u8]> {
        let cut = (self.items_end(pool))
            .filter(|&e| e > region_at)
            .unwrap_or(region_at);
        let skip = usize::try_from(cut - region_at).map_or(region.len(), |s| s.min(region.len()));
        (skip < region.len()).then(|| &region[skip..])
    }

    /// Notes section `idx` of a region of `pool`, read at `start..start+len`. Its alignment is judged by
    /// [`ReadPools::sections`], once the position of every section is known.
    pub fn section(&mut self, pool: usize, idx: usize, start: u64, len: u64) {
        self.note_end(start + len);
        self.pending.push(Pending {
            pool,
            idx,
            start,
            len,
        });
    }

    /// Records an item of member `idx` (items of one instance of another type) of an ordered region of `pool`, at
    /// `start..start+len`, and returns its alignment choice after the group's previous item. The first item of a
    /// group gets `None`: where the group starts is judged with the region's sections ([`ReadPools::sections`]).
    /// Bytes of the input `data` between the previous item and this one that no alignment explains (or that are not
    /// zeros) are this item's gap ([`ReadPools::take_gap`]).
    pub fn member_item(
        &mut self,
        pool: usize,
        idx: usize,
        start: u64,
        len: u64,
        default: u64,
        data: &[u8],
    ) -> Option<u64> {
        let end = start + len;
        self.item_bytes = self.item_bytes.saturating_add(len);
        self.max_end = self.max_end.max(end);
        self.note_end(end);
        let Some(gi) = self.group(pool, idx) else {
            self.groups.push(Group {
                pool,
                idx,
                first: start,
                prev_end: end,
                end,
            });
            return None;
        };
        let prev = self.groups[gi].prev_end;
        // After bytes nothing describes, the item starts where they end.
        let a = match gap(data, prev, start, default) {
            Some(r) => {
                self.group_gaps.retain(|(k, _)| *k != (pool, idx));
                self.group_gaps.push(((pool, idx), r));
                align_choice(start, start, default)
            }
            None => align_choice(prev, start, default),
        };
        let g = &mut self.groups[gi];
        g.prev_end = g.prev_end.max(end);
        g.end = g.end.max(end);
        self.relaid |= a.is_none();
        a.flatten()
    }

    /// The bytes before the item of member `idx` of `pool` read last that nothing describes, where it had any
    /// ([`ReadPools::member_item`]), taken out.
    pub fn take_gap(&mut self, pool: usize, idx: usize) -> Option<std::ops::Range<usize>> {
        let i = self
            .group_gaps
            .iter()
            .position(|(k, _)| *k == (pool, idx))?;
        Some(self.group_gaps.swap_remove(i).1)
    }

    /// [`ReadPools::empty_elsewhere`] for an item of member `idx` (a group): whether an empty item at `start` is
    /// elsewhere than after the group's previous item. Not known for a group's first item (false).
    pub fn member_empty_elsewhere(
        &self,
        pool: usize,
        idx: usize,
        start: u64,
        default: u64,
    ) -> bool {
        self.group(pool, idx)
            .is_some_and(|gi| super::place_after(self.groups[gi].prev_end, default) != start)
    }

    /// The sections of `pool` noted since the region's type began to be read (`defaults` holds each one's default
    /// alignment, by number): their order in the file, `None` where it is the declared one, and each one's
    /// alignment choice in that order (as [`ReadPools::item`] gives it). Sections at one position are taken empty
    /// ones first, as the writer puts them; an absent section is in none of them.
    ///
    /// Bytes between a member and the one before it (in the input `data`) that no alignment explains, or that are
    /// not zeros, are that member's gap: kept, so that the file is written back as it was.
    pub fn sections(&mut self, pool: usize, defaults: &[u64], data: &[u8]) -> Sections {
        // (A buffer kept from call to call: a region read once per record of a repeated type is judged often.)
        let mut mine = std::mem::take(&mut self.scratch);
        mine.clear();
        self.pending.retain(|p| {
            let m = p.pool == pool;
            if m {
                mine.push(*p);
            }
            !m
        });
        let groups = mine.len();
        self.groups.retain(|g| {
            let m = g.pool == pool;
            if m {
                mine.push(Pending {
                    pool,
                    idx: g.idx,
                    start: g.first,
                    len: g.end - g.first,
                });
            }
            !m
        });
        // (A group's items were counted against the budget as they were read.)
        let counted: u64 = mine[groups..].iter().map(|p| p.len).sum();
        mine.sort_by_key(|p| (p.start, p.len > 0, p.idx));
        let mut aligns = Vec::new();
        let mut gaps = Vec::new();
        for p in &mine {
            let d = defaults.get(p.idx).copied().unwrap_or(1);
            // After bytes nothing describes, the member starts where they end.
            let prev = self.pools.get(pool).and_then(|x| x.prev_end);
            if let Some(r) = prev.and_then(|prev| gap(data, prev, p.start, d)) {
                if p.idx < defaults.len() {
                    gaps.push((p.idx, r));
                }
                self.pool(pool).prev_end = Some(p.start);
            }
            if let (Some(a), true) = (self.item(pool, p.start, p.len, d), p.idx < defaults.len()) {
                aligns.push((p.idx, a));
            }
        }
        self.item_bytes = self.item_bytes.saturating_sub(counted);
        let declared = mine.windows(2).all(|w| w[0].idx < w[1].idx);
        let order = (!declared).then(|| mine.iter().map(|p| p.idx).collect());
        self.scratch = mine;
        Sections {
            order,
            aligns,
            gaps,
        }
    }
}

impl<'m> WriteCtx<'m> {
    /// Bytes to write before the item `key` when its pool is written (the gap a reader found before it).
    pub fn gap_before(&mut self, key: Key, bytes: &crate::Bytes) {
        self.item_gaps.push((key, bytes.clone()));
    }
    /// Writes the items queued for `pool` by the place `slot` (one instance of another type: a member of an ordered
    /// region), in the order they were queued, the first aligned to `align`; the pool's other items stay queued.
    pub fn flush_slot(&mut self, pool: usize, slot: u32, w: &mut Writer, align: u64) {
        if pool >= self.pools.len() {
            return;
        }
        let (mine, rest): (Vec<_>, Vec<_>) = self
            .take_queue(pool)
            .into_iter()
            .partition(|it| it.key.slot == slot);
        self.pools[pool].items = rest;
        if mine.is_empty() {
            return;
        }
        w.align(align);
        for (i, mut it) in mine.into_iter().enumerate() {
            if i == 0 {
                // (The group's alignment places its first item, which the reader judged so: a layout choice
                // smaller than the item's default stays.)
                it.align = 1;
                it.at = 0;
            }
            self.write_item(it, w);
        }
    }
}

/// The model's kept order of sections, by name: `None` for the declared order.
pub fn order_names(order: Option<Vec<usize>>, names: &[&str]) -> Option<Vec<String>> {
    order.map(|o| {
        o.into_iter()
            .filter_map(|i| names.get(i).map(|n| (*n).to_string()))
            .collect()
    })
}

/// The order the writer puts a region's sections in: those `order` names, then the others in their declared order
/// (`names`). A name that is no section of the type, or one named twice, is an error.
pub fn write_order(order: Option<&[String]>, names: &[&str]) -> Result<Vec<usize>> {
    let Some(order) = order else {
        return Ok((0..names.len()).collect());
    };
    let mut out = Vec::with_capacity(names.len());
    let mut seen = vec![false; names.len()];
    for n in order {
        let Some(i) = names.iter().position(|x| x == n) else {
            return Err(Error::write(format!(
                "'{n}' is not a section of this type (they are: {})",
                names.join(", ")
            )));
        };
        if std::mem::replace(&mut seen[i], true) {
            return Err(Error::write(format!("section '{n}' is named twice")));
        }
        out.push(i);
    }
    out.extend((0..names.len()).filter(|&i| !seen[i]));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each of the first `n` members' alignment choice.
    fn aligns(s: &Sections, n: usize) -> Vec<Option<u64>> {
        (0..n).map(|i| s.align(i)).collect()
    }

    /// The bytes before each of the first `n` members that nothing describes.
    fn gaps<'a>(s: &Sections, n: usize, data: &'a [u8]) -> Vec<Option<&'a [u8]>> {
        (0..n).map(|i| s.gap(i, data)).collect()
    }

    #[test]
    fn sections_are_judged_in_file_order() {
        let mut p = ReadPools::new();
        p.enter_region(0, 0x10);
        // Declared first, but in the file after the second (which ends at 0x15); aligned to 4 there.
        p.section(0, 0, 0x18, 8);
        p.section(0, 1, 0x10, 5);
        let data = [0u8; 0x20];
        let s = p.sections(0, &[1, 1], &data);
        assert_eq!(s.order, Some(vec![1, 0]));
        assert_eq!(aligns(&s, 2), vec![Some(8), None]);
        assert_eq!(gaps(&s, 2, &data), vec![None, None]);
        assert!(!p.relaid());
    }

    #[test]
    fn empty_sections_at_one_position_come_first() {
        let mut p = ReadPools::new();
        p.enter_region(0, 0x10);
        p.section(0, 0, 0x10, 4);
        p.section(0, 1, 0x10, 0);
        p.section(0, 2, 0x14, 0);
        let order = p.sections(0, &[1, 1, 1], &[]).order;
        assert_eq!(order, Some(vec![1, 0, 2]));
        // In declared order: none kept.
        let mut p = ReadPools::new();
        p.enter_region(0, 0x10);
        p.section(0, 0, 0x10, 0);
        p.section(0, 1, 0x10, 4);
        assert_eq!(p.sections(0, &[1, 1], &[]).order, None);
    }

    #[test]
    fn other_pools_sections_wait() {
        let mut p = ReadPools::new();
        p.section(1, 0, 0x40, 4);
        p.section(0, 0, 0x10, 4);
        let _ = p.sections(0, &[1], &[]);
        assert_eq!(p.pending.len(), 1);
    }

    #[test]
    fn groups_are_ordered_with_the_sections() {
        let mut p = ReadPools::new();
        // Two items of member 1 read before the region, contiguous; then the sections.
        assert_eq!(p.member_item(0, 1, 0x14, 4, 1, &[]), None);
        assert_eq!(p.member_item(0, 1, 0x18, 2, 1, &[]), None);
        p.enter_region(0, 0x10);
        p.section(0, 0, 0x10, 4);
        p.section(0, 2, 0x1c, 4);
        let s = p.sections(0, &[1, 1, 1], &[0; 0x20]);
        assert_eq!(s.order, None);
        // The section after the group is aligned to 4 (the group ends at 0x1a).
        assert_eq!(aligns(&s, 3), vec![None, None, Some(4)]);
        assert!(!p.relaid());
        // Items counted once.
        assert_eq!(p.item_bytes, 14);
    }

    #[test]
    fn bytes_no_alignment_explains_are_kept_as_a_gap() {
        let mut data = [0u8; 0x20];
        data[0x14..0x17].copy_from_slice(b"xyz");
        let mut p = ReadPools::new();
        p.enter_region(0, 0x10);
        p.section(0, 0, 0x10, 4);
        p.section(0, 1, 0x17, 4);
        let s = p.sections(0, &[1, 1], &data);
        assert_eq!(gaps(&s, 2, &data), vec![None, Some(&b"xyz"[..])]);
        assert_eq!(aligns(&s, 2), vec![None, None]);
        assert!(!p.relaid());
        // Zeros that an alignment explains are padding, not a gap.
        let mut p = ReadPools::new();
        p.enter_region(0, 0x10);
        p.section(0, 0, 0x10, 4);
        p.section(0, 1, 0x18, 4);
        let s = p.sections(0, &[1, 1], &[0; 0x20]);
        assert_eq!(gaps(&s, 2, &[0; 0x20]), vec![None, None]);
        assert_eq!(aligns(&s, 2), vec![None, Some(8)]);
    }

    #[test]
    fn bytes_between_items_of_a_group_are_their_gap() {
        let mut data = [0u8; 0x20];
        data[0x14..0x16].copy_from_slice(b"zz");
        let mut p = ReadPools::new();
        assert_eq!(p.member_item(0, 1, 0x10, 4, 1, &data), None);
        // "zz" after the first item: kept before the second, which then needs no alignment.
        assert_eq!(p.member_item(0, 1, 0x16, 2, 1, &data), None);
        assert!(!p.relaid());
        assert_eq!(p.take_gap(0, 1), Some(0x14..0x16));
        assert_eq!(p.take_gap(0, 1), None);
        // Zeros an alignment explains are padding.
        assert_eq!(p.member_item(0, 1, 0x20, 2, 1, &data), Some(0x20));
        assert_eq!(p.take_gap(0, 1), None);
    }

    #[test]
    fn write_order_lists_the_rest_after_the_kept_order() {
        let names = ["a", "b", "c"];
        assert_eq!(write_order(None, &names).unwrap(), vec![0, 1, 2]);
        let o = vec!["c".to_string()];
        assert_eq!(write_order(Some(&o), &names).unwrap(), vec![2, 0, 1]);
        let bad = vec!["d".to_string()];
        assert!(write_order(Some(&bad), &names).is_err());
        let twice = vec!["a".to_string(), "a".to_string()];
        assert!(write_order(Some(&twice), &names).is_err());
    }
}
