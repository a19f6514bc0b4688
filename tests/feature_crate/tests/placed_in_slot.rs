//! `tests/feature_schemas/placed_in_slot.ksy`: a record in a slot sized by a field of its holder that places an
//! instance in its own stream, past what it reads in sequence. The writer derives the slot's size from what it
//! writes and what it places (a PNG zTXt chunk beside an `eXIf` case once kept its length as data, and a
//! recompressed text that did not fit could not be written).

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::placed_in_slot::{ChunkBody, PlacedInSlot};

#[rustfmt::skip]
const FILE: [u8; 31] = [
    1, 8, 2, 4, 0xaa, 0xbb, 0x10, 0, 0x20, 0, // a dir: 2 entries at 4, after 2 bytes it does not read
    2, 3, b'a', b'b', 0,                      // a name
    1, 6, 1, 2, 0x30, 0, 0xcc, 0xdd,          // a dir: 1 entry at 2, then 2 bytes nothing reads
    3, 6, 0xfe, 0xfb, 0xff, 0xff, 0xaf, 0xff, // xor 0xff of a dir: 1 entry (0x50) at 4
];

fn entries(m: &PlacedInSlot, i: usize) -> Vec<u16> {
    match &m.chunks[i].body {
        ChunkBody::Dir(d) => d.entries.clone(),
        ChunkBody::Xored(x) => x.inner.entries.clone(),
        other => panic!("{other:?}"),
    }
}

fn set_entries(m: &mut PlacedInSlot, i: usize, v: &[u16]) {
    match &mut m.chunks[i].body {
        ChunkBody::Dir(d) => d.entries = v.to_vec(),
        ChunkBody::Xored(x) => x.inner.entries = v.to_vec(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_slot_holds_what_its_record_places() {
    let m = agree::read::<PlacedInSlot>(&FILE).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!(entries(&m, 0), [0x10, 0x20]);
    assert_eq!(entries(&m, 2), [0x30]);
    assert_eq!(entries(&m, 3), [0x50]);
    // The slot's bytes after the sequence are kept, placed ones included: the size is derived.
    assert_eq!(
        m.chunks[0].body_filler.as_deref(),
        Some(&[0xaa, 0xbb, 0x10, 0, 0x20, 0][..])
    );
    assert_eq!(m.to_binary_agreed().unwrap(), FILE);

    // More entries than the slot held: the slot grows to what is placed, and the length follows.
    let mut grown = m.clone();
    set_entries(&mut grown, 0, &[0x10, 0x20, 0x40]);
    // An entry edited where the kept bytes were: the placed bytes win, the slot keeps its size.
    set_entries(&mut grown, 2, &[0x31]);
    // In a processed record, the entries are placed in what is processed.
    set_entries(&mut grown, 3, &[0x50, 0x60]);
    let out = grown.to_binary_agreed().unwrap();
    #[rustfmt::skip]
    let want: Vec<u8> = [
        &[1, 10, 3, 4, 0xaa, 0xbb, 0x10, 0, 0x20, 0, 0x40, 0][..],
        &[2, 3, b'a', b'b', 0],
        &[1, 6, 1, 2, 0x31, 0, 0xcc, 0xdd],
        &[3, 8, 0xfd, 0xfb, 0xff, 0xff, 0xaf, 0xff, 0x9f, 0xff],
    ]
    .concat();
    assert_eq!(out, want);
    let back = agree::read::<PlacedInSlot>(&out).unwrap();
    assert_eq!(
        (entries(&back, 0), entries(&back, 2), entries(&back, 3)),
        (vec![0x10, 0x20, 0x40], vec![0x31], vec![0x50, 0x60])
    );

    // Fewer entries: the kept bytes still fill the slot, and the file reads back with the entries written.
    let mut shrunk = m.clone();
    set_entries(&mut shrunk, 0, &[0x11]);
    let out = shrunk.to_binary_agreed().unwrap();
    assert_eq!(&out[..10], &[1, 8, 1, 4, 0xaa, 0xbb, 0x11, 0, 0x20, 0]);
    assert_eq!(
        entries(&agree::read::<PlacedInSlot>(&out).unwrap(), 0),
        [0x11]
    );

    // With no kept bytes (a model made in code), the slot is the header, the gap to the entries, and the entries.
    let mut fresh = m.clone();
    fresh.chunks[0].body_filler = None;
    let out = fresh.to_binary_agreed().unwrap();
    assert_eq!(&out[..10], &[1, 8, 2, 4, 0, 0, 0x10, 0, 0x20, 0]);
}

/// A position far past the record, in an edited document, is refused with an error by both writers, in a slot and
/// in a processed record, rather than filled with gigabytes of zeros; near positions are written.
#[test]
fn far_positions_are_refused() {
    use binspec_feature_schemas::placed_in_slot::{Chunk, Wide, XoredWide};
    for (ofs, ok) in [
        (5u32, true),
        (0xf0, true),
        (0x7fff_0000, false),
        (0xffff_ffff, false),
    ] {
        let wide = Wide {
            entries_ofs: ofs,
            entries: vec![7],
        };
        for body in [
            ChunkBody::Wide(wide.clone()),
            ChunkBody::XoredWide(XoredWide {
                inner: wide.clone(),
            }),
        ] {
            let m = PlacedInSlot {
                chunks: vec![Chunk {
                    tag: if matches!(body, ChunkBody::Wide(_)) {
                        4
                    } else {
                        5
                    },
                    body,
                    body_filler: None,
                }],
            };
            let r = m.to_binary_agreed();
            assert_eq!(r.is_ok(), ok, "{ofs:#x}: {r:?}");
            if let Err(e) = r {
                // (It names the record, and where its entries start or end.)
                let e = e.to_string();
                let (at, end) = (format!("{ofs:#x}"), format!("{:#x}", u64::from(ofs) + 2));
                assert!(
                    e.contains("chunks[0].body") && (e.contains(&at) || e.contains(&end)),
                    "{e}"
                );
            }
        }
    }
}

/// Every cut of the file and every byte set to each of a few values: decoding gives a model or an error, and a
/// model that writes gives bytes that read back as the same model, never a panic.
#[test]
fn cut_and_mutated_files_write_what_reads_back() {
    let (inputs, decoded, written) = binspec_feature_schemas::cut_and_mutate::<PlacedInSlot>(&FILE);
    assert!(
        decoded > inputs / 2 && written > decoded / 2,
        "{decoded} {written}"
    );
}
