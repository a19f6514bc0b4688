//! Relocated pointers: where the writer wrote each pointer a relocation table lists, and the tables derived from
//! them ([`reloc`]'s `nn::util` entries, BINA offsets).

use super::{reloc, Key, Positions, WriteCtx};
use crate::error::{Error, Result};

impl WriteCtx<'_> {
    /// Records a pointer that a relocation table lists: where it is (moved with the item it is in, like any
    /// recorded position) and the item it points to (`target`). Only pointers to an item are recorded: a null
    /// pointer is not listed.
    #[inline]
    pub fn pointer(&mut self, key: Key, pos: u64, target: Key) {
        self.record(key, pos);
        self.cur_pointers.set(key, pack(target));
    }
    /// Records a pointer whose value the model holds (a `-relocate` field that is data, not an offset the writer
    /// derives), or a null one the table lists (`null`: `-relocate: {id, list-null: true}`): where it is and the
    /// position it points to, `value`, where [`reloc::lists_value`] lists it.
    #[inline]
    pub fn pointer_to(&mut self, key: Key, pos: u64, value: u64, null: bool) {
        if !reloc::lists_value(value, null) {
            return;
        }
        self.record(key, pos);
        self.cur_pointers.set(key, value | VALUE);
    }
    /// The relocation entries of the pointers recorded under `slots` in the previous pass ([`WriteCtx::pointer`])
    /// whose targets lie in `region` (`[from, from + size)` from `base`; every one where `None`), their positions
    /// counted from `base` (where the table's stream starts), grouped as [`reloc::group`] groups them. A pointer
    /// belongs to a region by where its target was in the previous pass, which is also what the pointer's value
    /// was computed from, so that the table settles with the values. Empty in the first pass.
    pub fn relocations(
        &self,
        slots: &[u32],
        base: usize,
        region: Option<(i128, i128)>,
    ) -> Result<Vec<reloc::Entry>> {
        reloc::group(&self.relocated(slots, base, region)?)
    }
    /// [`WriteCtx::relocations`] as a BINA offset table ([`reloc::bina_encode`]).
    pub fn bina_offsets(
        &self,
        slots: &[u32],
        base: usize,
        region: Option<(i128, i128)>,
    ) -> Result<Vec<u8>> {
        reloc::bina_encode(&self.relocated(slots, base, region)?)
    }
    /// The positions, from `base`, in increasing order, of the pointers [`WriteCtx::relocations`] lists.
    fn relocated(
        &self,
        slots: &[u32],
        base: usize,
        region: Option<(i128, i128)>,
    ) -> Result<Vec<u32>> {
        self.derived_tables
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let base64 = base as u64;
        let mut at = Vec::new();
        for &slot in slots {
            let (Some(ps), Some(ts)) = (
                self.prev.0.get(slot as usize),
                self.prev_pointers.0.get(slot as usize),
            ) else {
                continue;
            };
            for (&p, &t) in ps.iter().zip(ts) {
                if p == Positions::NONE || t == Positions::NONE {
                    continue;
                }
                let target = match t & VALUE {
                    0 => self.prev.get(unpack(t)),
                    _ => Some(t & !VALUE),
                };
                let Some(tp) = target else {
                    continue;
                };
                let inside = region.is_none_or(|(from, size)| {
                    let v = i128::from(tp) - i128::from(base64);
                    v >= from && v - from < size
                });
                if !inside {
                    continue;
                }
                match p.checked_sub(base64).and_then(|r| u32::try_from(r).ok()) {
                    Some(r) => at.push(r),
                    None => {
                        return Err(Error::write(format!(
                            "a relocated pointer at {p:#x} is not within 4 GiB after its table's stream starts at {base:#x}"
                        )))
                    }
                }
            }
        }
        // (A position recorded twice is one pointer written twice: records placed where a position not known yet
        // puts them, in a pass before positions settle, or two readings of the same bytes. The table lists it once.)
        at.sort_unstable();
        at.dedup();
        Ok(at)
    }
}

/// The tag of a pointer target that is a position ([`WriteCtx::pointer_to`]), not a key: a key's slot is a place of a
/// schema (a few thousand at most), so no packed key reaches this bit.
const VALUE: u64 = 1 << 62;

/// A key as one u64, for a [`Positions`] table of pointer targets.
fn pack(k: Key) -> u64 {
    (u64::from(k.slot) << 32) | u64::from(k.n)
}

/// The key [`pack`] made.
fn unpack(v: u64) -> Key {
    Key {
        slot: (v >> 32) as u32,
        n: v as u32,
    }
}
