//! The entries of an `nn::util` relocation table (`_RLT`, in BNTX, BFRES and the other NintendoWare Switch formats).
//! The table lists every pointer of the file so that the loader can turn the offsets into addresses. It has a
//! header, sections and entries; each section lists the pointers whose targets lie in its region (in every file of
//! the shared corpus; the pointers themselves may lie anywhere), as a slice of the entry array. An entry is {u32
//! position, u16 struct count, u8 offset count, u8 padding count}: `struct count` repetitions of `offset count`
//! consecutive 8-byte pointers, each repetition starting `offset count + padding count` pointers after the last.
//! The position is an offset from the file's header (the section's base pointer is null in every corpus file; the
//! EPD wiki's "Common nn::util" page says it is relative to the section's region, which holds the targets instead).
//!
//! The entries are derived from where the pointers are, so a writer records the position of every pointer it writes
//! and computes a section's entries with [`group`]; [`positions`] is the inverse, for readers.

use std::collections::VecDeque;

// (FxHash: keys are small numbers, and `group` runs once per pass of every nn::util write and once per read.)
use rustc_hash::FxHashMap as HashMap;

use crate::error::{Error, ErrorKind, Result};

/// The size of a pointer in these files (the file header's address size, 64 bits on the Switch).
pub const POINTER_SIZE: u32 = 8;

/// One relocation entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Entry {
    /// Where the first pointer is, from the file's header.
    pub position: u32,
    /// How many repetitions of the pointer run there are.
    pub struct_count: u16,
    /// How many consecutive pointers each repetition holds.
    pub offset_count: u8,
    /// How many pointers' worth of bytes lie between the end of a repetition and the start of the next.
    pub padding_count: u8,
}

impl Entry {
    /// The distance from one repetition to the next, in bytes.
    pub fn stride(&self) -> u64 {
        (u64::from(self.offset_count) + u64::from(self.padding_count)) * u64::from(POINTER_SIZE)
    }

    /// How many pointers the entry covers.
    pub fn pointer_count(&self) -> u64 {
        u64::from(self.struct_count) * u64::from(self.offset_count)
    }
}

/// The entries that cover `positions` (every pointer of a section, in increasing order), grouped as Nintendo's
/// tools group them. The rule, read off the files of the shared corpus (BNTX 4.0 and BFRES 0.8, 1,400 runs of
/// pointers, all regrouped exactly):
///
/// 1. The positions are cut into runs of consecutive pointers (each [`POINTER_SIZE`] after the last), of at most
///    255 pointers, since an entry counts them in a u8.
/// 2. Each run, in order, joins an entry opened before it that holds runs of the same length, if one fits it: an
///    entry of one run fits any run that starts a whole number of pointers later with at most 255 pointers skipped
///    (and takes its stride from it); an entry of more runs fits the run that starts exactly one stride after its
///    last run (until 65,535 runs). A run that fits no entry opens a new one.
///
/// So runs that repeat at a fixed distance become one entry even when other pointers lie between them (the same
/// two pointers in each of a file's texture headers), and entries are in order of their first pointer, but their
/// pointers interleave. Where two entries fit a run the one opened first takes it; no file of the corpus has such
/// a run, so that choice, and the splitting of runs longer than 255 pointers (none in the corpus either), are this
/// implementation's, not confirmed by a file. A reader that finds a file grouped otherwise ([`group`] of its
/// [`positions`] differs from its entries) must keep the file's entries as a layout choice.
///
/// Fails when the positions are not in strictly increasing order.
///
/// ```
/// use binspec_runtime::layout::reloc::{group, Entry};
/// // A header pointer at 0x28 and one at 0x228 repeat 64 pointers apart; 0x38 and 0x40 are a run of two.
/// let e = |position, struct_count, offset_count, padding_count| Entry {
///     position,
///     struct_count,
///     offset_count,
///     padding_count,
/// };
/// assert_eq!(
///     group(&[0x28, 0x38, 0x40, 0x228]).unwrap(),
///     [e(0x28, 2, 1, 63), e(0x38, 1, 2, 0)]
/// );
/// ```
pub fn group(positions: &[u32]) -> Result<Vec<Entry>> {
    if let Some(w) = positions.windows(2).find(|w| w[1] <= w[0]) {
        return Err(Error::write(format!(
            "relocated pointers must be listed in increasing order without repeats: {:#x} comes after {:#x}",
            w[1], w[0]
        )));
    }
    let mut entries: Vec<Entry> = Vec::new();
    // Entries of one run, by (run length, position mod POINTER_SIZE), oldest first: a run can only join one that
    // starts a whole number of pointers before it. Entries too far back for any later run are dropped from the front.
    let mut waiting: HashMap<(u8, u32), VecDeque<usize>> = HashMap::default();
    // Entries of several runs, by (the position of their next run, run length).
    let mut expecting: HashMap<(u64, u8), Vec<usize>> = HashMap::default();
    for (start, len) in runs(positions) {
        let start64 = u64::from(start);
        let queue = waiting.entry((len, start % POINTER_SIZE)).or_default();
        let reach = (u64::from(len) + 255) * u64::from(POINTER_SIZE);
        while queue
            .front()
            .is_some_and(|&i| start64 - u64::from(entries[i].position) > reach)
        {
            queue.pop_front();
        }
        let first_waiting = queue.front().copied();
        let continuing = expecting
            .get(&(start64, len))
            .and_then(|v| v.iter().min().copied());
        let Some(i) = [first_waiting, continuing].into_iter().flatten().min() else {
            queue.push_back(entries.len());
            entries.push(Entry {
                position: start,
                struct_count: 1,
                offset_count: len,
                padding_count: 0,
            });
            continue;
        };
        if Some(i) == first_waiting {
            queue.pop_front();
            let gap = (start - entries[i].position) / POINTER_SIZE - u32::from(len);
            entries[i].padding_count = gap as u8; // at most 255: the entry is within reach
        } else {
            let v = expecting
                .get_mut(&(start64, len))
                .expect("the entry was found there");
            v.retain(|&j| j != i);
            if v.is_empty() {
                expecting.remove(&(start64, len));
            }
        }
        let e = &mut entries[i];
        e.struct_count += 1;
        if e.struct_count < u16::MAX {
            let next = u64::from(e.position) + e.stride() * u64::from(e.struct_count);
            expecting.entry((next, len)).or_default().push(i);
        }
    }
    Ok(entries)
}

/// The runs of consecutive pointers in `positions` (increasing): (start, length), at most 255 long.
fn runs(positions: &[u32]) -> Vec<(u32, u8)> {
    let mut out: Vec<(u32, u8)> = Vec::new();
    let mut prev: Option<u32> = None;
    for &p in positions {
        match out.last_mut() {
            Some((_, len))
                if prev.and_then(|q| q.checked_add(POINTER_SIZE)) == Some(p) && *len < u8::MAX =>
            {
                *len += 1;
            }
            _ => out.push((p, 1)),
        }
        prev = Some(p);
    }
    out
}

/// The positions of the pointers that `entries` cover, in increasing order: the inverse of [`group`], for readers.
/// `size` is the size of the file the positions are in (from its header): every pointer must lie inside it, which
/// also bounds the work a hostile table can ask for. Fails when a pointer does not fit, or when two entries cover
/// the same bytes.
pub fn positions(entries: &[Entry], size: u64) -> Result<Vec<u32>> {
    // Positions are u32, so no pointer lies past 4 GiB whatever the size says.
    let size = size.min(u64::from(u32::MAX));
    let total: u64 = entries.iter().map(Entry::pointer_count).sum();
    if total > size / u64::from(POINTER_SIZE) {
        return Err(Error::new(
            ErrorKind::Limit {
                message: format!(
                    "a relocation table covers {total} pointers, more than a file of {size} bytes holds"
                ),
            },
            None,
        ));
    }
    let mut out = Vec::with_capacity(total as usize);
    for e in entries {
        for s in 0..u64::from(e.struct_count) {
            let first = u64::from(e.position) + s * e.stride();
            for o in 0..u64::from(e.offset_count) {
                let p = first + o * u64::from(POINTER_SIZE);
                if p + u64::from(POINTER_SIZE) > size {
                    let at = e.position;
                    return Err(Error::invalid(
                        u64::from(at),
                        format!(
                            "relocation entry at {at:#x}: a pointer at {p:#x} is past the end of a file of \
                             {size:#x} bytes"
                        ),
                    ));
                }
                out.push(p as u32); // below `size`, so within u32
            }
        }
    }
    out.sort_unstable();
    if let Some(w) = out.windows(2).find(|w| w[1] < w[0] + POINTER_SIZE) {
        return Err(Error::invalid(
            u64::from(w[1]),
            format!(
                "relocation entries cover overlapping pointers at {:#x} and {:#x}",
                w[0], w[1]
            ),
        ));
    }
    Ok(out)
}

/// Whether a pointer with `value` is listed: where it is not null, or also where it is with `null`
/// (`-relocate: {id, list-null: true}`); never past 2^62, which no file reaches (a table kept from the file then
/// lists it if it does). The writer ([`crate::layout::WriteCtx::pointer_to`]) and the reader
/// ([`crate::layout::ReadPools::pointer`]) decide by it alike.
pub fn lists_value(value: u64, null: bool) -> bool {
    (value != 0 || null) && value < 1 << 62
}

/// The positions, from `base`, in increasing order and each once, of the pointers `(where, value)` (from the
/// file's start) whose values lie in `region` (`[from, from + size)` from `base`; every one where `None`): what a
/// table whose stream starts at `base` lists of them. Positions not within 4 GiB after `base` are left out.
pub fn listed_in(
    pointers: impl Iterator<Item = (u64, u64)>,
    base: u64,
    region: Option<(i128, i128)>,
) -> Vec<u32> {
    let mut out: Vec<u32> = pointers
        .filter(|&(_, value)| {
            region.is_none_or(|(from, size)| {
                let v = i128::from(value) - i128::from(base);
                v >= from && v - from < size
            })
        })
        .filter_map(|(at, _)| at.checked_sub(base).and_then(|p| u32::try_from(p).ok()))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// What a reader keeps of a relocation table's entries (`entries`, each seen as an [`Entry`] through `as_entry`):
/// nothing where they are the ones [`group`] makes of `pointers` (the positions of the pointers read that the
/// table would list: the writer derives those), or else the entries as the file has them (a table that lists
/// pointers the schema does not mark, or groups them otherwise).
pub fn kept_for<E>(
    entries: Vec<E>,
    pointers: &[u32],
    as_entry: impl Fn(&E) -> Entry,
) -> Option<Vec<E>> {
    let es: Vec<Entry> = entries.iter().map(as_entry).collect();
    match group(pointers) {
        Ok(d) if d == es => None,
        _ => Some(entries),
    }
}

/// A BINA (version 2) offset table: the positions of a file's pointers, from the start of its data, each as
/// the distance from the one before (from 0 for the first) in units of 4 bytes, in 1, 2 or 4 bytes whose top two
/// bits say which (`01`, `10`, `11`: 6, 14 or 30 bits, big-endian), then zeros up to a multiple of 4 bytes. The
/// PXD page of the HedgeDocs seed says the table follows the last ACL chunk; the encoding is read off the real
/// files of the shared corpus (every one decodes to pointers inside its data).
///
/// Fails when the positions are not increasing multiples of 4 (a distance always fits: positions are 32-bit).
///
/// ```
/// use binspec_runtime::layout::reloc::{bina_decode, bina_encode};
/// let t = bina_encode(&[0x10, 0x28, 0x30]).unwrap();
/// assert_eq!(t, [0x44, 0x46, 0x42, 0]);
/// assert_eq!(bina_decode(&t).unwrap(), [0x10, 0x28, 0x30]);
/// ```
pub fn bina_encode(positions: &[u32]) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(positions.len() + 3);
    let mut prev = 0u32;
    for (i, &p) in positions.iter().enumerate() {
        let d = p.wrapping_sub(prev);
        if (i > 0 && p <= prev) || p % 4 != 0 {
            return Err(Error::write(format!(
                "a BINA offset table lists pointers at increasing multiples of 4: {p:#x} comes after {prev:#x}"
            )));
        }
        let d = d / 4;
        match d {
            0..0x40 => out.push(0x40 | d as u8),
            0x40..0x4000 => out.extend_from_slice(&(0x8000 | d as u16).to_be_bytes()),
            _ => out.extend_from_slice(&(0xc000_0000 | d).to_be_bytes()),
        }
        prev = p;
    }
    while out.len() % 4 != 0 {
        out.push(0);
    }
    Ok(out)
}

/// The positions a BINA offset table lists ([`bina_encode`]), up to its first zero byte or its end. Fails when
/// a position does not fit in 32 bits.
pub fn bina_decode(table: &[u8]) -> Result<Vec<u32>> {
    let mut out = Vec::new();
    let (mut i, mut pos) = (0usize, 0u32);
    while let Some(&b) = table.get(i) {
        let (len, first) = match b >> 6 {
            0 => break,
            1 => (1, u32::from(b & 0x3f)),
            2 => (2, u32::from(b & 0x3f)),
            _ => (4, u32::from(b & 0x3f)),
        };
        let Some(rest) = table.get(i + 1..i + len) else {
            return Err(Error::invalid(
                i as u64,
                "a BINA offset table ends inside an entry",
            ));
        };
        let d = rest.iter().fold(first, |v, &x| (v << 8) | u32::from(x));
        pos = d
            .checked_mul(4)
            .and_then(|d| pos.checked_add(d))
            .ok_or_else(|| {
                Error::invalid(i as u64, "a BINA offset table lists a pointer past 4 GiB")
            })?;
        out.push(pos);
        i += len;
    }
    Ok(out)
}

/// What a reader keeps of a BINA offset table: nothing where [`bina_encode`] of what it lists gives it back,
/// else its bytes.
pub fn bina_kept(table: &[u8]) -> bool {
    !bina_decode(table)
        .and_then(|ps| bina_encode(&ps))
        .is_ok_and(|t| t == table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(position: u32, struct_count: u16, offset_count: u8, padding_count: u8) -> Entry {
        Entry {
            position,
            struct_count,
            offset_count,
            padding_count,
        }
    }

    /// Groups `ps`, checks the inverse gives them back, and returns the entries.
    fn round(ps: &[u32]) -> Vec<Entry> {
        let es = group(ps).unwrap();
        assert_eq!(positions(&es, 1 << 32).unwrap(), ps);
        es
    }

    #[test]
    fn nothing_to_relocate() {
        assert_eq!(round(&[]), []);
        assert_eq!(positions(&[], 0).unwrap(), Vec::<u32>::new());
    }

    #[test]
    fn consecutive_pointers_are_one_run() {
        assert_eq!(round(&[0x10, 0x18, 0x20]), [e(0x10, 1, 3, 0)]);
        // A gap of 4 bytes is not consecutive; 0x24 is not a whole number of pointers after 0x10.
        assert_eq!(
            round(&[0x10, 0x18, 0x24]),
            [e(0x10, 1, 2, 0), e(0x24, 1, 1, 0)]
        );
    }

    #[test]
    fn repeated_runs_become_one_entry() {
        // Single pointers every 16 bytes: one entry of three, each skipping one pointer.
        assert_eq!(round(&[0, 16, 32]), [e(0, 3, 1, 1)]);
        // Pairs 0x60 apart (12 pointers: 2 and 10 skipped), with a run of another length between them.
        assert_eq!(
            round(&[0x100, 0x108, 0x120, 0x128, 0x130, 0x160, 0x168]),
            [e(0x100, 2, 2, 10), e(0x120, 1, 3, 0)]
        );
    }

    #[test]
    fn the_stride_is_set_by_the_second_run() {
        // 0 and 16 set a stride of 2 pointers; 40 is not at 32, so it opens its own entry.
        assert_eq!(round(&[0, 16, 40]), [e(0, 2, 1, 1), e(40, 1, 1, 0)]);
        // Entries interleave: the header pointer at 0x28 pairs with 0x228, past the runs of 4 and 1s between.
        assert_eq!(
            round(&[
                0x28, 0x38, 0x40, 0x198, 0x1a0, 0x1a8, 0x1b0, 0x228, 0x238, 0x248, 0x258, 0x268
            ]),
            [
                e(0x28, 2, 1, 63),
                e(0x38, 1, 2, 0),
                e(0x198, 1, 4, 0),
                e(0x238, 4, 1, 1)
            ]
        );
    }

    #[test]
    fn at_most_255_pointers_skipped() {
        assert_eq!(round(&[0, 8 * 256]), [e(0, 2, 1, 255)]);
        assert_eq!(round(&[0, 8 * 257]), [e(0, 1, 1, 0), e(8 * 257, 1, 1, 0)]);
        // The entry out of reach is dropped; a later one of the same length still pairs.
        assert_eq!(
            round(&[0, 8 * 257, 8 * 259]),
            [e(0, 1, 1, 0), e(8 * 257, 2, 1, 1)]
        );
    }

    #[test]
    fn runs_longer_than_255_are_cut() {
        let ps: Vec<u32> = (0..300).map(|i| i * 8).collect();
        assert_eq!(round(&ps), [e(0, 1, 255, 0), e(255 * 8, 1, 45, 0)]);
        // Two cut runs of 255 repeat with no gap.
        let ps: Vec<u32> = (0..510).map(|i| i * 8).collect();
        assert_eq!(round(&ps), [e(0, 2, 255, 0)]);
    }

    #[test]
    fn at_most_65535_repetitions() {
        let ps: Vec<u32> = (0..65_537).map(|i| i * 16).collect();
        assert_eq!(round(&ps), [e(0, 65_535, 1, 1), e(65_535 * 16, 2, 1, 1)]);
    }

    #[test]
    fn the_entry_opened_first_takes_a_run_both_fit() {
        // 0 and 32 make an entry expecting 64; 48 does not fit it and opens its own; 64 fits both (the second
        // with a stride of 2 pointers) and goes to the older entry. No corpus file has such a run.
        assert_eq!(round(&[0, 32, 48, 64]), [e(0, 3, 1, 3), e(48, 1, 1, 0)]);
    }

    #[test]
    fn unsorted_positions_are_refused() {
        assert!(group(&[8, 0])
            .unwrap_err()
            .to_string()
            .contains("0x0 comes after 0x8"));
        assert!(group(&[8, 8]).is_err());
    }

    #[test]
    fn a_reader_keeps_only_entries_other_than_the_pointers_read_make() {
        let id = |e: &Entry| *e;
        assert_eq!(kept_for(vec![e(0, 2, 1, 1)], &[0, 16], id), None);
        // The same pointers as two entries: kept, as is.
        let split = vec![e(0, 1, 1, 0), e(16, 1, 1, 0)];
        assert_eq!(kept_for(split.clone(), &[0, 16], id), Some(split));
        // Entries grouped as the writer groups, of other pointers than those read: kept.
        assert_eq!(
            kept_for(vec![e(0, 2, 1, 1)], &[0, 24], id).map(|v| v.len()),
            Some(1)
        );
        // No pointers and no entries: nothing to keep.
        assert_eq!(kept_for(Vec::<Entry>::new(), &[], id), None);
    }

    #[test]
    fn bina_tables_round_trip() {
        let ps = [0x50, 0x68, 0x70, 0x70 + 0x100, 0x70 + 0x100 + 0x10_0000];
        let t = bina_encode(&ps).unwrap();
        // 1 + 1 + 1 + 2 + 4 bytes, padded to 12.
        assert_eq!(t.len(), 12);
        assert_eq!(&t[..5], &[0x54, 0x46, 0x42, 0x80, 0x40]);
        assert_eq!(&t[5..9], &0xc004_0000u32.to_be_bytes());
        assert_eq!(bina_decode(&t).unwrap(), ps);
        assert!(!bina_kept(&t));
        assert_eq!(bina_encode(&[]).unwrap(), Vec::<u8>::new());
        // Nonzero padding, or more padding than needed, is not what the writer makes: kept.
        assert!(bina_kept(&[0x54, 0x46, 0x0e, 0xf0]));
        assert!(bina_kept(&[0x54, 0, 0, 0, 0, 0, 0, 0]));
        // Refused: unsorted, repeated, unaligned; an entry cut short.
        assert!(bina_encode(&[8, 4]).is_err());
        assert!(bina_encode(&[8, 8]).is_err());
        assert!(bina_encode(&[6]).is_err());
        assert!(bina_decode(&[0xc0, 1]).is_err());
    }

    #[test]
    fn hostile_entries_are_refused() {
        // More pointers than the file holds, before anything is allocated.
        let huge = [e(0, u16::MAX, u8::MAX, u8::MAX); 4];
        assert!(positions(&huge, 0x1000)
            .unwrap_err()
            .to_string()
            .contains("more than a file"));
        // A pointer past the end.
        assert!(positions(&[e(0xff8, 2, 1, 0)], 0x1000)
            .unwrap_err()
            .to_string()
            .contains("past the end"));
        // Two entries over the same pointer, and one whose repetitions overlap.
        assert!(positions(&[e(0, 1, 2, 0), e(8, 1, 1, 0)], 0x1000)
            .unwrap_err()
            .to_string()
            .contains("overlapping"));
        assert!(positions(&[e(0, 1, 2, 0), e(4, 1, 1, 0)], 0x1000).is_err());
    }
}
