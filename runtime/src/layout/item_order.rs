//! Pools whose items' order in the file is a layout choice (`-pool: {id: ..., keep-order: true}`): AINB's query
//! element id array, whose ranges (one per element) are not in element order in Nintendo's files.
//!
//! The reader notes each item where it is, in the order it meets them, and once the region is reached gives the
//! order of the non-empty items in the file, as indices into the order it met them, where it is not that order.
//! The writer writes the non-empty items in that order, each followed by the empty items it met just after it (an
//! empty item is where the non-empty one before it ends, as the reader judges it: elsewhere, its offset is kept),
//! and the empty items met before the first non-empty one at the region's start.

use super::{Item, ReadPools, WriteCtx};
use crate::error::{Error, Result};
use crate::write::Writer;

/// An item of a keep-order pool as the reader met it: where it starts, how long it is, its alignment, and its rank
/// in the pool's `order` (0 for an item it does not name).
pub(super) type Met = (u64, u64, u64, u32);

impl ReadPools {
    /// Records an item of the keep-order pool `pool` at `start..start+len`, in the order the reader meets them,
    /// with its alignment `align` (as [`super::WriteCtx::push`] takes it). Its alignment is not judged as a
    /// choice (the items of such a pool are one after another, each at its alignment, in some order; see
    /// [`ReadPools::item_order`]), and an item before the ones read earlier does not relay the file.
    pub fn ordered_item(&mut self, pool: usize, start: u64, len: u64, align: u64) -> Option<u64> {
        self.note_item(pool, start, len, 1);
        match self.ordered.iter_mut().find(|(q, _)| *q == pool) {
            Some((_, v)) => v.push((start, len, align, 0)),
            None => self.ordered.push((pool, vec![(start, len, align, 0)])),
        }
        None
    }

    /// Gives the item of the keep-order pool `pool` met last its rank in the pool's `order` (from 1), which places
    /// it in a new file's order ([`super::WriteCtx::flush_ordered`]).
    pub fn rank_last(&mut self, pool: usize, rank: u32) {
        if let Some(m) = self
            .ordered
            .iter_mut()
            .find(|(q, _)| *q == pool)
            .and_then(|(_, v)| v.last_mut())
        {
            m.3 = rank;
        }
    }

    /// The order of the non-empty items of the keep-order pool `pool` in the file, whose region starts at
    /// `region_start`, as indices into the order they were met (counting non-empty items only): `None` where it is
    /// that order. Items that are not one after another from the region's start, each where the one before it
    /// ends aligned to its alignment or to another ([`ReadPools::item_align`]: a gap that the item's position, a
    /// multiple of a power of two, explains), cannot be kept so (a gap, an overlap): the file is then laid out
    /// anew, in the order the items were met.
    pub fn item_order(&mut self, pool: usize, region_start: u64) -> Option<Vec<u32>> {
        let i = self.ordered.iter().position(|(q, _)| *q == pool)?;
        let (_, items) = self.ordered.swap_remove(i);
        let mut full: Vec<(u64, u64, u64, u32)> = items
            .iter()
            .filter(|m| m.1 > 0)
            .enumerate()
            .map(|(k, &(start, len, align, _))| (start, len, align, k as u32))
            .collect();
        // (The order a new file has: by rank, each rank's as met.)
        let by_rank = rank_order(&items, |m| m.1 == 0, |m| m.3);
        let in_order = full.windows(2).all(|w| w[0].0 < w[1].0);
        if !in_order {
            full.sort_unstable_by_key(|&(start, _, _, k)| (start, k));
        }
        let mut at = region_start;
        let mut aligns = Vec::new();
        for &(start, len, align, k) in &full {
            if start != super::align::place_after(at, align) {
                // Elsewhere than its alignment puts it, but where another would (a layout choice, as for the
                // items of other pools): kept, with the item's index.
                let a = super::align::low_bit(start);
                let (_, align_at) = super::align::split_align(align);
                if align_at != 0 || at > start || crate::write::align_up(at, a) != start {
                    self.relaid = true;
                    return None;
                }
                aligns.extend([k, a as u32]);
            }
            at = start + len;
        }
        if !aligns.is_empty() {
            self.ordered_aligns.push((pool, aligns));
        }
        let order: Vec<u32> = full.into_iter().map(|(_, _, _, k)| k).collect();
        match by_rank {
            // (Kept where it is not the order a new file has.)
            Some(r) => (order != r).then_some(order),
            None => (!in_order).then_some(order),
        }
    }

    /// The alignment choices [`ReadPools::item_order`] found for the items of the keep-order pool `pool`: pairs of
    /// an item's index (as in the order) and its alignment, for the items whose alignment in the file is not the
    /// one the schema gives (BFRES's relocation table, after embedded files padded to 0x1000); `None` where there
    /// are none. Asked for after `item_order`.
    pub fn item_align(&mut self, pool: usize) -> Option<Vec<u32>> {
        let i = self.ordered_aligns.iter().position(|(q, _)| *q == pool)?;
        Some(self.ordered_aligns.swap_remove(i).1)
    }
}

impl<'m> WriteCtx<'m> {
    /// Writes the items queued for the keep-order pool `pool` ([`WriteCtx::flush`]), the non-empty ones in
    /// `order` (indices into the order they were queued, counting non-empty items only; `None` for that order),
    /// each followed by the empty items queued just after it (those queued before the first non-empty one go
    /// first). `order` must name each non-empty item once. `aligns` gives some of the non-empty items another
    /// alignment than they were queued with: pairs of an index (as in `order`) and an alignment. Without `order`,
    /// `ranks` (pairs of an item's position slot and its rank, the pool's `order`) puts the items it ranks after
    /// the others, by rank, each rank's in the order met.
    pub fn flush_ordered(
        &mut self,
        pool: usize,
        w: &mut Writer,
        start_align: u64,
        order: Option<&[u32]>,
        aligns: Option<&[u32]>,
        ranks: &[(u32, u32)],
    ) -> Result<()> {
        if order.is_none() && aligns.is_none() && ranks.is_empty() {
            self.flush(pool, w, start_align);
            return Ok(());
        }
        let mut queued = self.take_queue(pool);
        // (Without a kept order, the pool's: the items its `order` names after the others, in its order.)
        let by_rank;
        let order = match order {
            Some(o) => Some(o),
            None if !ranks.is_empty() => {
                let rank = |it: &Item<'_>| {
                    ranks
                        .iter()
                        .find(|(slot, _)| *slot == it.key.slot)
                        .map_or(0, |r| r.1)
                };
                by_rank = rank_order(&queued, |it| it.body.is_empty(), rank);
                by_rank.as_deref()
            }
            None => None,
        };
        if let Some(a) = aligns {
            with_item_aligns(
                &mut queued,
                |it| it.body.is_empty(),
                a,
                |it, a| {
                    it.align = a;
                    it.at = 0;
                },
            )?;
        }
        let items: Vec<Item<'m>> = match order {
            Some(order) => in_kept_order(queued, |it| it.body.is_empty(), order)?,
            None => queued,
        };
        w.align(start_align);
        self.set_flushed(pool);
        for it in items {
            self.write_item(it, w);
        }
        Ok(())
    }
}

/// Gives the non-empty `items` (in the order the writer met them) that `aligns` names (pairs of an index among
/// them and an alignment, [`ReadPools::item_align`]) that alignment, through `set`.
///
/// # Errors
/// A list of odd length, an index past the items, or an alignment the writer does not pad to.
pub fn with_item_aligns<T>(
    items: &mut [T],
    is_empty: impl Fn(&T) -> bool,
    aligns: &[u32],
    mut set: impl FnMut(&mut T, u32),
) -> Result<()> {
    let (pairs, rest) = aligns.as_chunks::<2>();
    if !rest.is_empty() {
        return Err(Error::write(format!(
            "the item alignments ({} numbers) are not pairs of an item's index and its alignment",
            aligns.len()
        )));
    }
    let mut full: Vec<&mut T> = items.iter_mut().filter(|it| !is_empty(it)).collect();
    let n = full.len();
    for &[k, a] in pairs {
        super::align::check_align(u64::from(a))?;
        let Some(it) = full.get_mut(k as usize) else {
            return Err(Error::write(format!(
                "the item alignments name item {k}, of {n} non-empty items (indices in the order the writer meets \
                 them): where items were added or removed since the file was read, remove the alignments"
            )));
        };
        set(it, a.max(1));
    }
    Ok(())
}

/// The order of the non-empty `items` (in the order met) sorted by `rank`, stably (an order as
/// [`in_kept_order`] takes it); `None` where that is the order met.
pub fn rank_order<T>(
    items: &[T],
    is_empty: impl Fn(&T) -> bool,
    rank: impl Fn(&T) -> u32,
) -> Option<Vec<u32>> {
    // (Most pools rank nothing: nothing is collected where the ranks already rise.)
    let mut ranks = items.iter().filter(|it| !is_empty(it)).map(&rank);
    let mut prev = ranks.next()?;
    if ranks.all(|r| std::mem::replace(&mut prev, r) <= r) {
        return None;
    }
    let mut full: Vec<(u32, u32)> = items
        .iter()
        .filter(|it| !is_empty(it))
        .enumerate()
        .map(|(k, it)| (rank(it), k as u32))
        .collect();
    full.sort_by_key(|&(r, _)| r);
    Some(full.into_iter().map(|(_, k)| k).collect())
}

/// `items` (in the order the writer met them) in the order a keep-order pool writes them: the empty ones met before
/// the first non-empty one, then each non-empty one in `order` (indices among the non-empty items) followed by the
/// empty ones met right after it. `order` must name each non-empty item once.
///
/// # Errors
/// An order that does not.
pub fn in_kept_order<T>(
    items: Vec<T>,
    is_empty: impl Fn(&T) -> bool,
    order: &[u32],
) -> Result<Vec<T>> {
    let n = items.len();
    let mut leading: Vec<T> = Vec::new();
    let mut runs: Vec<Vec<T>> = Vec::new();
    for it in items {
        let empty = is_empty(&it);
        match runs.last_mut() {
            Some(run) if empty => run.push(it),
            None if empty => leading.push(it),
            _ => runs.push(vec![it]),
        }
    }
    let mut seen = vec![false; runs.len()];
    let valid = order.len() == runs.len()
        && order.iter().all(|&k| {
            seen.get_mut(k as usize)
                .is_some_and(|s| !std::mem::replace(s, true))
        });
    if !valid {
        return Err(Error::write(format!(
            "the item order ({} indices) does not name each of the {} non-empty items once (indices in the order \
             the writer meets them): where items were added or removed since the file was read, remove the order, \
             and they are written in the order the writer meets them",
            order.len(),
            runs.len()
        )));
    }
    let mut out = Vec::with_capacity(n);
    out.append(&mut leading);
    let mut runs: Vec<Option<Vec<T>>> = runs.into_iter().map(Some).collect();
    for &k in order {
        out.extend(runs[k as usize].take().unwrap_or_default());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{write_passes, Key};

    #[test]
    fn the_order_of_items_met_out_of_order_is_kept() {
        let mut p = ReadPools::new();
        // Met: 0x10..0x14, an empty one, 0x08..0x10; the region starts at 0x08.
        p.ordered_item(0, 0x10, 4, 1);
        p.ordered_item(0, 0x08, 0, 1);
        p.ordered_item(0, 0x08, 8, 1);
        assert_eq!(p.item_order(0, 0x08), Some(vec![1, 0]));
        assert!(!p.relaid());
        // In the order met: nothing kept.
        let mut p = ReadPools::new();
        p.ordered_item(0, 0x08, 8, 1);
        p.ordered_item(0, 0x10, 4, 1);
        assert_eq!(p.item_order(0, 0x08), None);
        assert!(!p.relaid());
        // A gap (0x0c to 0x12, which no alignment explains): laid out anew.
        let mut p = ReadPools::new();
        p.ordered_item(0, 0x12, 4, 1);
        p.ordered_item(0, 0x08, 4, 1);
        assert_eq!(p.item_order(0, 0x08), None);
        assert!(p.relaid());
    }

    /// The region reached after its items (BFRES's, after the structures that point into it): the first item met
    /// is not the first in the file, which is no reason to lay the file out anew.
    #[test]
    fn a_region_reached_after_items_met_out_of_order() {
        let mut p = ReadPools::new();
        p.ordered_item(0, 0x10, 4, 8);
        p.ordered_item(0, 0x08, 8, 8);
        p.enter_region(0, 0x08);
        assert_eq!(p.item_order(0, 0x08), Some(vec![1, 0]));
        assert!(!p.relaid());
    }

    #[test]
    fn padding_to_an_items_alignment_is_not_a_gap() {
        // Met: 0x10..0x18 (aligned to 8), then 0x08..0x0c; 4 bytes of padding between them.
        let mut p = ReadPools::new();
        p.ordered_item(0, 0x10, 8, 8);
        p.ordered_item(0, 0x08, 4, 8);
        assert_eq!(p.item_order(0, 0x08), Some(vec![1, 0]));
        assert!(!p.relaid());
        assert_eq!(p.item_align(0), None);
        // The same padding before an item aligned to 4: its alignment in the file is 0x10, a layout choice.
        let mut p = ReadPools::new();
        p.ordered_item(0, 0x10, 8, 4);
        p.ordered_item(0, 0x08, 4, 8);
        assert_eq!(p.item_order(0, 0x08), Some(vec![1, 0]));
        assert_eq!(p.item_align(0), Some(vec![0, 0x10]));
        assert!(!p.relaid());
        // So is an item short of its alignment: 4 where the schema says 8.
        let mut p = ReadPools::new();
        p.ordered_item(0, 0x08, 4, 8);
        p.ordered_item(0, 0x0c, 4, 8);
        assert_eq!(p.item_order(0, 0x08), None);
        assert_eq!(p.item_align(0), Some(vec![1, 4]));
        assert!(!p.relaid());
        // A gap no alignment explains (0x0c to 0x14, where 0x14 is a multiple of 4 only): laid out anew.
        let mut p = ReadPools::new();
        p.ordered_item(0, 0x08, 4, 4);
        p.ordered_item(0, 0x14, 4, 4);
        assert_eq!(p.item_order(0, 0x08), None);
        assert_eq!(p.item_align(0), None);
        assert!(p.relaid());
    }

    fn write(order: Option<&[u32]>) -> Result<(Vec<u8>, Vec<u64>)> {
        write_aligned(order, None)
    }

    fn write_aligned(order: Option<&[u32]>, aligns: Option<&[u32]>) -> Result<(Vec<u8>, Vec<u64>)> {
        let mut positions = Vec::new();
        let out = write_passes(|w, ctx| {
            // Items a (2 bytes), an empty one, b (1 byte), then an empty one.
            let items: [&[u8]; 4] = [b"aa", b"", b"b", b""];
            for (n, b) in items.iter().enumerate() {
                ctx.push(
                    0,
                    Key {
                        slot: 0,
                        n: n as u32,
                    },
                    b.to_vec(),
                    1,
                );
            }
            ctx.flush_ordered(0, w, 1, order, aligns, &[])?;
            positions = (0..4).map(|n| ctx.prev_pos(Key { slot: 0, n })).collect();
            Ok(())
        })?;
        Ok((out, positions))
    }

    #[test]
    fn items_are_written_in_the_kept_order() {
        assert_eq!(write(None).unwrap().0, b"aab");
        let (out, positions) = write(Some(&[1, 0])).unwrap();
        assert_eq!(out, b"baa");
        // Each empty item is where the non-empty one met before it ends.
        assert_eq!(positions, [1, 3, 0, 1]);
        assert!(write(Some(&[1, 1])).is_err());
        assert!(write(Some(&[0])).is_err());
        assert!(write(Some(&[0, 2])).is_err());
    }

    #[test]
    fn items_are_written_at_their_kept_alignments() {
        // b (item 1) aligned to 4, in the order met and in the kept order.
        let (out, positions) = write_aligned(None, Some(&[1, 4])).unwrap();
        assert_eq!(out, b"aa\0\0b");
        assert_eq!(positions, [0, 2, 4, 5]);
        let (out, _) = write_aligned(Some(&[1, 0]), Some(&[0, 4])).unwrap();
        assert_eq!(out, b"b\0\0\0aa");
        // Not pairs, an item that is not there, an alignment the writer does not pad to.
        assert!(write_aligned(None, Some(&[1])).is_err());
        assert!(write_aligned(None, Some(&[2, 4])).is_err());
        assert!(write_aligned(None, Some(&[0, 1 << 30])).is_err());
    }
}
