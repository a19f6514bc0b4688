use super::*;

fn fix(value: Lin) -> Fixup {
    Fixup::unsigned(4, Endian::Little, value)
}

fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn linear_values_cancel_and_keep_at_most_two_positions() {
    let mut p = OnePass::new();
    let item = p.push_borrowed(0, b"abc", 1);
    let region = p.region(0);
    // An item's offset in its region: the two positions, one less the other.
    let off = item.checked_sub(region).unwrap().plus(8);
    assert_eq!(off.value(), None);
    // Adding the region back leaves the item alone; taking the item away too leaves a number.
    let back = off.checked_add(region).unwrap();
    assert_eq!(back, item.plus(8));
    assert_eq!(back.checked_sub(item).unwrap().value(), Some(8));
    // A third position is refused, as is a position counted twice.
    assert_eq!(off.checked_add(p.end()), None);
    assert_eq!(item.checked_add(item), None);
    assert_eq!(
        Lin::known(5).checked_sub(Lin::known(7)).unwrap().value(),
        Some(-2)
    );
}

#[test]
fn fits_by_width_and_sign() {
    assert_eq!(fit(0xff, 1, false), Some(0xff));
    assert_eq!(fit(0x100, 1, false), None);
    assert_eq!(fit(-1, 1, false), None);
    assert_eq!(fit(-1, 2, true), Some(0xffff));
    assert_eq!(fit(-0x8000, 2, true), Some(0x8000));
    assert_eq!(fit(0x8000, 2, true), None);
    assert_eq!(fit(u64::MAX.into(), 8, false), Some(u64::MAX));
    assert_eq!(fit(0, 9, false), None);
}

/// A small archive in the shape of SARC's: a header with the data region's start and the output's length, an entry
/// per file with its name's offset / 4 (a string pool) and its data's start and end in the data region.
fn archive(files: &[(&str, &[u8], u64)], data_align: u64) -> (Vec<u8>, bool) {
    let mut w = Writer::new();
    let mut p = OnePass::new();
    let (end, data_region) = (p.end(), p.region(1));
    p.write(&mut w, fix(end));
    p.write(&mut w, fix(data_region));
    for (name, data, align) in files {
        let name_pos = p.push_own(0, name.as_bytes(), &[0], 4);
        let data_pos = p.push_borrowed(1, data, *align);
        let names_start = 8 + 12 * files.len() as i128;
        p.write(
            &mut w,
            Fixup {
                div: 4,
                or: 1 << 24,
                ..fix(name_pos.plus(-names_start))
            },
        );
        let start = data_pos.checked_sub(data_region).unwrap();
        p.write(&mut w, fix(start));
        p.write(&mut w, fix(start.plus(data.len() as i128)));
    }
    p.flush(0, &mut w, 4);
    p.flush(1, &mut w, data_align);
    let done = p.finish(&mut w);
    (w.into_inner(), done)
}

#[test]
fn an_archive_in_one_pass() {
    let (out, done) = archive(&[("ab", b"xyz", 1), ("cdefg", b"0123", 8)], 4);
    assert!(done);
    // Header and entries: 8 + 2 * 12 = 32 bytes; names "ab\0" at 32 (3 bytes, padded to 4), "cdefg\0" at 36
    // (to 42); the data region at 44 (aligned to 4): "xyz" at 44, "0123" at 48 (aligned to 8), ending at 52.
    assert_eq!(out.len(), 52);
    assert_eq!(
        u32s(&out[..32]),
        [52, 44, 1 << 24, 0, 3, (1 << 24) | 1, 4, 8]
    );
    assert_eq!(&out[32..42], b"ab\0\0cdefg\0");
    assert_eq!(&out[44..47], b"xyz");
    assert_eq!(&out[48..52], b"0123");
}

#[test]
fn what_one_pass_cannot_reproduce_falls_back() {
    // An own item aligned to 16 in a region that starts on a multiple of 4 only: its position is not the one the
    // passes (aligning each item to its absolute position) would give.
    let mut w = Writer::new();
    let mut p = OnePass::new();
    w.bytes(&[0; 4]);
    p.push_own(0, b"x", &[], 16);
    p.flush(0, &mut w, 4);
    assert!(!p.finish(&mut w));
    assert!(p.fallback().unwrap().contains("alignment"));

    // An item queued after its region was written.
    let mut p = OnePass::new();
    let mut w = Writer::new();
    p.flush(0, &mut w, 1);
    p.push_borrowed(0, b"late", 1);
    assert!(!p.finish(&mut w));

    // A value that does not fit its field once positions are known, and one that does not divide.
    for (width, div, data) in [(1u8, 1u32, vec![0u8; 300]), (4, 8, vec![0; 3])] {
        let mut p = OnePass::new();
        let mut w = Writer::new();
        let end = p.end();
        p.write(
            &mut w,
            Fixup {
                width,
                div,
                ..fix(end)
            },
        );
        let _ = p.push_borrowed(0, &data, 1);
        p.flush(0, &mut w, 1);
        assert!(!p.finish(&mut w), "width {width}, div {div}");
    }

    // A value known now that does not fit.
    let mut p = OnePass::new();
    let mut w = Writer::new();
    p.write(
        &mut w,
        Fixup {
            width: 1,
            ..fix(Lin::known(256))
        },
    );
    assert!(!p.finish(&mut w));
    assert_eq!(w.pos(), 1, "the field takes its room all the same");
}

#[test]
fn equal_values_whatever_the_order_of_their_positions() {
    let mut p = OnePass::new();
    let (a, b) = (p.region(2), p.push_borrowed(1, b"x", 1));
    assert_eq!(a.checked_add(b).unwrap(), b.checked_add(a).unwrap());
    assert_ne!(a.checked_add(b).unwrap(), b.checked_sub(a).unwrap());
    assert_ne!(a.plus(1), a);
}

#[test]
fn a_signed_field_and_a_big_endian_one() {
    // A signed 2-byte field holding a negative distance (from the end back to a region), and a big-endian one.
    let mut w = Writer::new();
    let mut p = OnePass::new();
    let back = p.region(0).checked_sub(p.end()).unwrap();
    p.write(
        &mut w,
        Fixup {
            signed: true,
            ..Fixup::unsigned(2, Endian::Little, back)
        },
    );
    let region = p.region(0);
    p.write(&mut w, Fixup::unsigned(4, Endian::Big, region));
    p.push_own(0, b"abcdef", &[], 1);
    p.flush(0, &mut w, 4);
    assert!(p.finish(&mut w));
    let out = w.into_inner();
    // The region at 8 (6 bytes written, aligned to 4), the end at 14.
    assert_eq!(out.len(), 14);
    assert_eq!(i16::from_le_bytes([out[0], out[1]]), -6);
    assert_eq!(&out[2..6], &8u32.to_be_bytes());
    assert_eq!(&out[8..], b"abcdef");
}

#[test]
fn a_region_written_twice_falls_back() {
    let mut w = Writer::new();
    let mut p = OnePass::new();
    p.push_own(0, b"a", &[], 1);
    p.flush(0, &mut w, 1);
    p.flush(0, &mut w, 1);
    assert!(!p.finish(&mut w));
    assert!(p.fallback().unwrap().contains("twice"));
}

/// A condition on a derived value: SARC's entry has a name where `name_attrs != 0`, and `name_attrs` is the name's
/// offset / 4 with the collision count above it. A first name at the table's start with a collision count of 0
/// would make it 0, and the file would read back without the name: refused (the passes say where).
#[test]
fn a_condition_on_a_derived_value() {
    for (collisions, name_follows, done) in [(1u64, true, true), (0, true, false), (0, false, true)]
    {
        let mut w = Writer::new();
        let mut p = OnePass::new();
        let name = p.push_own(0, b"a", &[0], 4);
        let attrs = if name_follows {
            Fixup {
                div: 4,
                or: collisions << 24,
                expect: Expect::NonZero,
                ..fix(name.checked_sub(p.region(0)).unwrap())
            }
        } else {
            Fixup {
                expect: Expect::Zero,
                ..fix(Lin::known(0))
            }
        };
        p.write(&mut w, attrs);
        p.flush(0, &mut w, 4);
        assert_eq!(
            p.finish(&mut w),
            done,
            "collisions {collisions}, name {name_follows}"
        );
        if !done {
            assert!(p.fallback().unwrap().contains("condition"));
        }
    }
    // A value known at once is checked at once.
    let mut p = OnePass::new();
    p.write(
        &mut Writer::new(),
        Fixup {
            expect: Expect::NonZero,
            ..fix(Lin::known(0))
        },
    );
    assert!(p.fallback().unwrap().contains("condition"));
}
