//! Alignments of pool items: where the writer places an item ([`place_after`], with an offset into the item:
//! [`align_at`]), and what alignment choice reproduces where a file has it ([`infer_align`]).

use crate::error::{Error, Result};
use crate::write::align_up;

/// The largest power of two that divides `v` (capped at 2^31; 2^31 for 0).
pub fn low_bit(v: u64) -> u64 {
    if v == 0 {
        MAX_ALIGN
    } else {
        (1u64 << v.trailing_zeros()).min(MAX_ALIGN)
    }
}

/// The largest alignment a layout choice may ask for (1 MiB). Files align to small powers of two; reading never
/// infers more, and a document that asks for more (`data_alignment: 4294967295`) would make the writer pad by
/// gigabytes.
pub const MAX_ALIGN: u64 = 1 << 20;

/// Checks an alignment a model gives before the writer pads to it: from 1 to [`MAX_ALIGN`] (0 counts as 1).
pub fn check_align(align: u64) -> Result<()> {
    if align <= MAX_ALIGN {
        Ok(())
    } else {
        Err(Error::write(format!(
            "an alignment of {align} ({align:#x}) is more than the largest the writer pads to, {MAX_ALIGN:#x} (files \
             align to small powers of two)"
        )))
    }
}

/// The layout choice that reproduces an item placed at `start` after content that ended at `prev_end`: `None`
/// when `default` alignment does, else the largest power of two that does (which keeps the item aligned even if
/// what comes before it changes size).
///
/// An item that no alignment places where it is (it starts inside or before the content before it, as a string
/// that shares another's bytes does, or after a gap larger than its alignment) gets `None`: the writer gives it a
/// place of its own after that content, at the default, and an alignment read off a position the writer does not
/// reproduce would come out otherwise when the file is read again.
pub fn infer_align(prev_end: u64, start: u64, default: u64) -> Option<u64> {
    align_choice(prev_end, start, default).flatten()
}

/// An alignment that applies `at` bytes into an item rather than at its start: the item is placed where its start
/// plus `at` is a multiple of `align` (BNTX's GPU region: its block header 0x10 bytes before an address aligned to
/// the file's alignment, where the textures' data starts). Passed wherever an item's alignment is (the offset in
/// the high 32 bits; [`crate::Writer::align`] and the readers' inference take it apart); `at` is below 65536.
#[inline]
pub const fn align_at(align: u64, at: u64) -> u64 {
    (align & 0xffff_ffff) | (at << 32)
}

/// An alignment and the offset into the item where it applies ([`align_at`]).
#[inline]
pub(crate) const fn split_align(align: u64) -> (u64, u64) {
    (align & 0xffff_ffff, align >> 32)
}

/// Where an item with alignment `align` ([`align_at`]) goes after content that ended at `prev_end`.
#[inline]
pub fn place_after(prev_end: u64, align: u64) -> u64 {
    let (a, at) = split_align(align);
    if at == 0 {
        align_up(prev_end, a)
    } else {
        align_up(prev_end + at, a) - at
    }
}

/// [`infer_align`], telling apart the item the default places (`Some(None)`) from one that no alignment places
/// where it is (`None`). Inlined: readers call it for every item, nearly always with a constant `default` that
/// places the item (the rest is out of line). A default with an offset ([`align_at`]) judges where the item's
/// start plus the offset is, and the alignment it gives applies there too.
#[inline]
pub(super) fn align_choice(prev_end: u64, start: u64, default: u64) -> Option<Option<u64>> {
    let (d, at) = split_align(default);
    if at != 0 {
        return align_choice(prev_end + at, start + at, d);
    }
    if align_up(prev_end, default) == start {
        return Some(None);
    }
    align_choice_other(prev_end, start)
}

/// [`align_choice`] for an item that its default alignment does not place.
#[inline(never)]
fn align_choice_other(prev_end: u64, start: u64) -> Option<Option<u64>> {
    let a = low_bit(start);
    (prev_end <= start && align_up(prev_end, a) == start).then_some(Some(a))
}
