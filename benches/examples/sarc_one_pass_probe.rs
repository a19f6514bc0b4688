//! A design probe for issue 20's writer redesign, not a writer of the product: how fast a SARC write can be when it
//! is made of the pieces a generated single-pass writer would use, measured against tomolib on the SARC benchmark's
//! archive (3,000 files, 12 MB, built by roead). `cargo run --release -p binspec-benches --features peers --example
//! sarc_one_pass_probe -- [pair|probe|tomolib|pair-ours] [iterations]`: `pair` alternates rounds of the probe and
//! tomolib and prints the median ratio, `pair-ours` the same for the generated `Sarc::to_binary`.
//!
//! The pieces, each generic (nothing here knows SARC but the order of its fields and which pool each item goes to):
//! - a pool of bytes made for it (a string pool) is its own buffer, so an item's position relative to its region is
//!   known when it is queued (the SARC name offset; AINB's base indices would be the same): nothing to fix later,
//!   where the region starts on a multiple of its items' alignment;
//! - model bytes queued for a pool (the files) are borrowed, laid out once the output's other parts are written,
//!   each aligned to its absolute position, and copied once, into the output;
//! - a value derived from positions known only then (SARC's data offset and file size, each file's data start and
//!   end) is written as zero and fixed when the pass ends, from a list of fixups, each linear in those positions
//!   (one small record, no expression tree: a node per operation made the one-pass writer tried on 2026-12-05 slower
//!   than the two passes).
//!
//! It writes the model of the generated `Sarc` with every layout field at its default (derived), and checks that its
//! output is the generated writer's, byte for byte.

#[path = "common/pair.rs"]
mod pair;
#[path = "common/sarc.rs"]
mod sarc;

use std::hint::black_box;

use binspec_formats::sarc::Sarc;
use binspec_formats::Format;

/// A region of bytes made for it (a string pool): each item at its position relative to the region, aligned
/// relative to it (which is where it goes when the region starts on a multiple of every item's alignment).
#[derive(Default)]
struct Own {
    bytes: Vec<u8>,
    max_align: usize,
}

impl Own {
    /// Queues `bytes` then `term` at the next multiple of `align`: its position relative to the region.
    fn push(&mut self, bytes: &[u8], term: &[u8], align: usize) -> usize {
        let at = self.bytes.len().next_multiple_of(align);
        self.bytes.resize(at, 0);
        self.bytes.extend_from_slice(bytes);
        self.bytes.extend_from_slice(term);
        self.max_align = self.max_align.max(align);
        at
    }
}

/// A region of bytes borrowed from the model (an archive's files): laid out when the output is put together, each
/// aligned to its absolute position, and copied once, there.
#[derive(Default)]
struct Borrowed<'m> {
    items: Vec<(&'m [u8], usize)>,
    /// Each item's absolute position, once laid out.
    at: Vec<usize>,
}

impl<'m> Borrowed<'m> {
    /// Queues borrowed bytes aligned to `align`: the item's number, for fixups.
    fn push(&mut self, bytes: &'m [u8], align: usize) -> usize {
        self.items.push((bytes, align));
        self.items.len() - 1
    }
    /// The region's length if it starts at `start`, each item's position noted.
    fn lay_out(&mut self, start: usize) -> usize {
        let mut p = start;
        self.at.clear();
        for (b, a) in &self.items {
            p = p.next_multiple_of(*a);
            self.at.push(p);
            p += b.len();
        }
        p - start
    }
    fn write(&self, out: &mut Vec<u8>) {
        for ((b, _), &at) in self.items.iter().zip(&self.at) {
            out.resize(at, 0);
            out.extend_from_slice(b);
        }
    }
}

/// A u32 written as zero and fixed when the pass ends (at `at`): linear in positions known then.
enum Fixup {
    /// Where region `region` starts.
    RegionStart { at: usize, region: usize },
    /// How long the output is.
    Len { at: usize },
    /// Where borrowed item `item` starts, less where region `region` starts, plus `len` (a data start or end).
    Item {
        at: usize,
        item: usize,
        region: usize,
        len: usize,
    },
}

fn probe(s: &Sarc) -> Vec<u8> {
    let e = &s.sfat.entries;
    let mult = s.sfat.hash_multiplier;
    // The entries' order: by name hash (kept as is where it is already sorted, as the generated writer does).
    let hashes: Vec<u32> = e
        .iter()
        .map(|x| {
            binspec_runtime::hash::sarc_name_hash(x.name.as_deref().unwrap_or("").as_bytes(), mult)
        })
        .collect();
    let sorted = hashes.windows(2).all(|w| w[0] <= w[1]);
    let order: Vec<usize> = if sorted {
        (0..e.len()).collect()
    } else {
        let mut o: Vec<usize> = (0..e.len()).collect();
        o.sort_by_key(|&i| (hashes[i], i));
        o
    };
    let mut names = Own::default();
    let mut data = Borrowed::default();
    let mut fixups = Vec::new();
    let header_len = 0x14 + 0xc + 16 * e.len() + 8;
    let mut out = Vec::with_capacity(header_len);
    out.extend_from_slice(b"SARC");
    out.extend_from_slice(&0x14u16.to_le_bytes());
    out.extend_from_slice(&0xfeffu16.to_le_bytes());
    fixups.push(Fixup::Len { at: out.len() });
    out.extend_from_slice(&0u32.to_le_bytes());
    fixups.push(Fixup::RegionStart {
        at: out.len(),
        region: 1,
    });
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&0x100u16.to_le_bytes());
    out.extend_from_slice(&s.reserved.to_le_bytes());
    out.extend_from_slice(b"SFAT");
    out.extend_from_slice(&0xcu16.to_le_bytes());
    out.extend_from_slice(&(e.len() as u16).to_le_bytes());
    out.extend_from_slice(&mult.to_le_bytes());
    for &i in &order {
        let x = &e[i];
        let name_at = names.push(
            x.name.as_deref().unwrap_or("").as_bytes(),
            &[0],
            x.name_align.unwrap_or(4) as usize,
        );
        let item = data.push(&x.data, x.data_align.unwrap_or(1) as usize);
        let attrs = (u32::from(x.collision_count) << 24) | (name_at / 4) as u32;
        out.extend_from_slice(&hashes[i].to_le_bytes());
        out.extend_from_slice(&attrs.to_le_bytes());
        for len in [0, x.data.len()] {
            fixups.push(Fixup::Item {
                at: out.len(),
                item,
                region: 1,
                len,
            });
            out.extend_from_slice(&0u32.to_le_bytes());
        }
    }
    out.extend_from_slice(b"SFNT");
    out.extend_from_slice(&8u16.to_le_bytes());
    out.extend_from_slice(&s.sfnt.reserved.to_le_bytes());
    // The regions: the output grows once, to its final length.
    let names_start = out.len();
    assert!(
        names_start.is_multiple_of(names.max_align.max(1)),
        "the names region starts aligned for its items"
    );
    let data_start = (names_start + names.bytes.len()).next_multiple_of(s.data_alignment as usize);
    let data_len = data.lay_out(data_start);
    out.reserve_exact(data_start + data_len - out.len());
    out.extend_from_slice(&names.bytes);
    out.resize(data_start, 0);
    data.write(&mut out);
    out.resize(data_start + data_len, 0);
    let starts = [names_start, data_start];
    let len = out.len();
    for f in fixups {
        let (at, v) = match f {
            Fixup::RegionStart { at, region } => (at, starts[region]),
            Fixup::Len { at } => (at, len),
            Fixup::Item {
                at,
                item,
                region,
                len,
            } => (at, data.at[item] - starts[region] + len),
        };
        out[at..at + 4].copy_from_slice(&(v as u32).to_le_bytes());
    }
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "pair".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let (_, ours, theirs, align) = sarc::archive();
    assert!(
        ours.file_size.is_none() && ours.data_offset.is_none() && ours.file_data_trailing.is_none(),
        "the probe writes derived header fields only"
    );
    assert!(
        ours.sfat
            .entries
            .iter()
            .all(|x| x.name_hash.is_none() && x.name_attrs.is_none() && x.data_start.is_none()),
        "the probe writes derived entry fields only"
    );
    let (mine, generated) = (probe(&ours), ours.to_binary().expect("ours writes"));
    if let Some(at) =
        (0..mine.len().max(generated.len())).find(|&i| mine.get(i) != generated.get(i))
    {
        panic!(
            "the probe's output ({} bytes, data at {:#x}) differs from the generated writer's ({} bytes, data at \
             {:#x}) at {at:#x}",
            mine.len(),
            u32::from_le_bytes(mine[12..16].try_into().unwrap()),
            generated.len(),
            u32::from_le_bytes(generated[12..16].try_into().unwrap()),
        );
    }
    let pack = sarc::pack(&theirs);
    let run_probe = || {
        black_box(probe(black_box(&ours)));
    };
    let run_ours = || {
        black_box(black_box(&ours).to_binary().expect("ours writes"));
    };
    let run_theirs = || sarc::write_theirs(&pack, align);
    match which.as_str() {
        "probe" => pair::run("probe", "ours", n, &run_probe, &run_theirs),
        "ours" => pair::run("write", "ours", n, &run_ours, &run_theirs),
        "pair-ours" => pair::run("write", "pair", n, &run_ours, &run_theirs),
        _ => pair::run("probe", "pair", n, &run_probe, &run_theirs),
    }
}
