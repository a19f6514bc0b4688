//! A design probe for issue 20's writer redesign, not a writer of the product: a SARC write made of the pieces a
//! generated single-pass writer would use (`binspec_benches::one_pass`, docs/design.md §9), in the order
//! and with the values a generated writer would emit, measured against tomolib on the SARC benchmark's archive
//! (3,000 files, 12 MB, built by roead). `cargo run --release -p binspec-benches --features peers --example
//! sarc_one_pass_probe -- [pair|probe|tomolib|pair-ours] [iterations]`: `pair` alternates rounds of the probe and
//! tomolib and prints the median ratio, `pair-ours` the same for the generated `Sarc::to_binary`.
//!
//! The names are a pool of their own bytes (each name's offset known when it is queued), the files are borrowed
//! and laid out when their region is written, and the values that need positions known only then (the data
//! offset, the file size, each name's offset / 4 with its collision count, each file's start and end) are fixups
//! applied when the pass ends.
//!
//! It writes the model of the generated `Sarc` with every layout field at its default (derived), and checks that its
//! output is the generated writer's, byte for byte.

#[path = "common/pair.rs"]
mod pair;
#[path = "common/sarc.rs"]
mod sarc;

use std::hint::black_box;

use binspec_benches::one_pass::{Expect, Fixup, Lin, OnePass};
use binspec_runtime::write::Writer;
use binspec_runtime::Endian;

use binspec_formats::sarc::Sarc;
use binspec_formats::Format;

/// What a generated one-pass writer of SARC would do, through `binspec_benches::one_pass`.
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
    const NAMES: usize = 0;
    const DATA: usize = 1;
    let u32_at = |value: Lin| Fixup::unsigned(4, Endian::Little, value);
    let mut w = Writer::with_capacity(0x14 + 0xc + 16 * e.len() + 8);
    let mut p = OnePass::with_capacity(3 * e.len() + 2);
    w.bytes(b"SARC");
    w.u16(0x14, Endian::Little);
    w.u16(0xfeff, Endian::Little);
    let data_region = p.region(DATA);
    p.write(&mut w, u32_at(p.end()));
    p.write(&mut w, u32_at(data_region));
    w.u16(0x100, Endian::Little);
    w.u16(s.reserved, Endian::Little);
    w.bytes(b"SFAT");
    w.u16(0xc, Endian::Little);
    w.u16(e.len() as u16, Endian::Little);
    w.u32(mult, Endian::Little);
    let names_start = 0x14 + 0xc + 16 * e.len() as i128 + 8;
    for &i in &order {
        let x = &e[i];
        let name = p.push_own(
            NAMES,
            x.name.as_deref().unwrap_or("").as_bytes(),
            &[0],
            x.name_align.unwrap_or(4),
        );
        let data = p.push_borrowed(DATA, &x.data, x.data_align.unwrap_or(1));
        w.u32(hashes[i], Endian::Little);
        p.write(
            &mut w,
            Fixup {
                div: 4,
                or: u64::from(x.collision_count) << 24,
                // (The entry has a name where `name_attrs != 0`.)
                expect: Expect::NonZero,
                ..u32_at(name.plus(-names_start))
            },
        );
        let start = data.checked_sub(data_region).expect("two positions");
        p.write(&mut w, u32_at(start));
        p.write(&mut w, u32_at(start.plus(x.data.len() as i128)));
    }
    w.bytes(b"SFNT");
    w.u16(8, Endian::Little);
    w.u16(s.sfnt.reserved, Endian::Little);
    p.flush(NAMES, &mut w, 4);
    p.flush(DATA, &mut w, s.data_alignment);
    assert!(p.finish(&mut w), "one pass: {:?}", p.fallback());
    w.into_inner()
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
