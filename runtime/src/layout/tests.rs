//! Tests of the pass machinery and the read-side bookkeeping of pools.

use super::*;

#[test]
fn align_inference() {
    assert_eq!(infer_align(0x301, 0x304, 4), None);
    assert_eq!(infer_align(0x301, 0x380, 4), Some(0x80));
    assert_eq!(infer_align(0x300, 0x300, 4), None);
    // Inside the previous item (sharing its terminator), or after a gap no alignment explains.
    assert_eq!(infer_align(0x99, 0x98, 4), None);
    assert_eq!(infer_align(0x99, 0xa1, 4), None);
    assert_eq!(infer_align(0x99, 0xa0, 4), Some(0x20));
}

#[test]
fn first_item_after_a_gap_in_its_region_is_relaid() {
    // Items read before their region: the first at the region's start (aligned to its default) is kept.
    let mut p = ReadPools::new();
    assert_eq!(p.item(1, 0x104, 6, 4), None);
    assert_eq!(p.item(1, 0x10c, 3, 4), None);
    p.enter_region(1, 0x101);
    assert!(!p.relaid());
    // One whose region starts earlier, with bytes before it that nothing refers to, is where the writer does not
    // put it.
    let mut p = ReadPools::new();
    p.item(1, 0x110, 6, 4);
    p.enter_region(1, 0x100);
    assert!(p.relaid());
    // A region entered before its items: the first item's alignment is read off the region's start.
    let mut p = ReadPools::new();
    p.enter_region(0, 0xf9);
    assert_eq!(p.item(0, 0x100, 8, 1), Some(0x100));
    assert!(!p.relaid());
    let mut p = ReadPools::new();
    p.enter_region(0, 0x100);
    assert_eq!(p.item(0, 0x140, 8, 1), None);
    assert!(p.relaid());
}

#[test]
fn region_alignment_is_read_off_its_first_item() {
    // The first item, read before its region, is at 0x14; the region's field starts at 0x11, where the header
    // ends: the three bytes between are the padding of a region aligned to 4.
    let mut p = ReadPools::new();
    p.item(0, 0x14, 5, 1);
    let a = p.region_align(0x11, 0x11, 0);
    assert_eq!(a, 4);
    p.enter_region(0, align_up(0x11, a));
    assert!(!p.relaid());
    // An item that no alignment of the region reaches from 0x11 (a gap larger than one) keeps the old rule:
    // the region's field start, and the file relaid.
    let mut p = ReadPools::new();
    p.item(0, 0x15, 5, 1);
    let a = p.region_align(0x11, 0x11, 0);
    assert_eq!(a, 1);
    p.enter_region(0, align_up(0x11, a));
    assert!(p.relaid());
    // Without items read before it, the region's alignment is its field's start's.
    let mut p = ReadPools::new();
    assert_eq!(p.region_align(0x20, 0x20, 0), 0x20);
}

#[test]
fn placed_bytes_go_over_the_output() {
    // Laid over the output when the pass ends: over bytes written in sequence after they were placed (which
    // they agree with), and past the end with zeros in between.
    let out = write_passes(|w, ctx| {
        w.bytes(&[1, 2, 3]);
        ctx.place(3, vec![4, 7])?;
        ctx.place(6, vec![9])?;
        w.bytes(&[4]);
        Ok(())
    })
    .unwrap();
    assert_eq!(out, vec![1, 2, 3, 4, 7, 0, 9]);
}

#[test]
fn placed_bytes_that_differ_from_others_are_refused() {
    // Over bytes written in sequence: the error comes back through the writer that placed them, with its path.
    let e = write_passes(|w, ctx| {
        w.bytes(&[1, 2, 3, 4]);
        ctx.place(1, vec![2, 8]).map_err(|e| e.at("inst"))?;
        Ok(())
    })
    .unwrap_err();
    assert_eq!(e.path(), "inst");
    assert!(e.to_string().contains("differ from it at 0x2"), "{e}");
    // Over another placement: the later one is reported. Equal bytes (a node two references share, placed
    // twice) are not an overlap.
    let e = write_passes(|w, ctx| {
        w.bytes(&[0; 4]);
        ctx.place(4, vec![1, 2, 3, 4]).map_err(|e| e.at("a"))?;
        ctx.place(4, vec![1, 2, 3, 4]).map_err(|e| e.at("shared"))?;
        ctx.place(6, vec![3, 5]).map_err(|e| e.at("b"))?;
        Ok(())
    })
    .unwrap_err();
    assert_eq!(e.path(), "b");
    assert!(e.to_string().contains("placed at 0x4..0x8"), "{e}");
    assert!(e.to_string().contains("differ from them at 0x7"), "{e}");
}

#[test]
fn following_is_bounded() {
    let mut p = ReadPools::new();
    for _ in 0..FOLLOW_BASE + 40 {
        p.follow(0, 10).unwrap();
    }
    assert!(p
        .follow(0, 10)
        .unwrap_err()
        .to_string()
        .contains("references followed"));
}

#[test]
fn sizing_passes_then_one_that_writes() {
    // Pass 0 finds positions, pass 1 writes the bytes; a kept order is offered to the passes after the first.
    let mut passes = Vec::new();
    // The model's bytes, borrowed for the whole write.
    let s = crate::Bytes::from_static(b"zz");
    let out = write_passes(|w, ctx| {
        passes.push(w.is_sizing());
        let ko = ctx.order_key(3);
        let order = ctx
            .take_order(ko)
            .unwrap_or_else(|| Order::Sorted(vec![2, 0, 1]));
        let Order::Sorted(o) = &order else {
            unreachable!("kept as sorted")
        };
        let k = WriteCtx::first(0);
        w.u32(ctx.prev_pos(k) as u32, crate::Endian::Little);
        for &i in o {
            let ki = ctx.key(1);
            ctx.push(0, ki, vec![i as u8], 1);
        }
        ctx.push_shared(0, k, &s, 4);
        let ks = ctx.key(2);
        ctx.push_str(0, ks, "é", "UTF-8", &[0], 1)?;
        ctx.flush(0, w, 1);
        ctx.keep_order(ko, order);
        Ok(())
    })
    .unwrap();
    assert_eq!(passes, vec![true, false]);
    assert_eq!(out, vec![8, 0, 0, 0, 2, 0, 1, 0, b'z', b'z', 0xc3, 0xa9, 0]);
}

#[test]
fn passes_settle() {
    // A header whose first u32 is the offset of a trailing item.
    let out = write_passes(|w, ctx| {
        let k = WriteCtx::first(0);
        w.u32(ctx.prev_pos(k) as u32, crate::Endian::Little);
        ctx.push(0, k, vec![9, 9], 8);
        ctx.flush(0, w, 1);
        Ok(())
    })
    .unwrap();
    assert_eq!(out, vec![8, 0, 0, 0, 0, 0, 0, 0, 9, 9]);
}

/// An item written out of line that records a position inside it (a record holding a pointer to its own field,
/// as AINB's element parameters hold their plugs' offsets) does not know in the first pass where it goes: the
/// position recorded inside it moves when it is placed, so the second pass writes the bytes. Before, the second
/// pass wrote bytes with the first pass's wrong inner position, and two more passes followed.
#[test]
fn an_item_that_records_inside_it_is_written_in_the_second_pass() {
    let mut passes = Vec::new();
    let out = write_passes(|w, ctx| {
        passes.push(w.is_sizing());
        // A 4-byte header, then the region with one item: a u8 that is the offset of its own second byte.
        w.u32(0xaaaa_aaaa, crate::Endian::Little);
        let (item_key, inner) = (WriteCtx::first(0), WriteCtx::first(1));
        let origin = ctx.item_origin(item_key);
        let mut item = w.for_item(origin);
        item.u8(ctx.prev_pos(inner) as u8);
        ctx.record(inner, item.pos() as u64);
        item.u8(7);
        ctx.push_written(0, item_key, item, origin, 1);
        ctx.flush(0, w, 1);
        Ok(())
    })
    .unwrap();
    assert_eq!(passes, vec![true, false]);
    assert_eq!(out, vec![0xaa, 0xaa, 0xaa, 0xaa, 5, 7]);
}

/// Items inside an item: one it flushes inside itself (its positions move with it) and one it queues for a region
/// written later elsewhere (whose positions must not move with it, only with itself). Both are right after the
/// first pass, so the second writes the bytes.
#[test]
fn nested_items_move_with_the_item_they_are_placed_in() {
    let mut passes = Vec::new();
    let out = write_passes(|w, ctx| {
        passes.push(w.is_sizing());
        // Header: the offsets of the inner item's second byte and of the far item's second byte.
        w.u8(ctx.prev_pos(WriteCtx::first(11)) as u8);
        w.u8(ctx.prev_pos(WriteCtx::first(21)) as u8);
        // Pool 0 (the outer items' region) holds one item, which holds the region of pool 1 (its inner item) and
        // queues an item for pool 2 (written after pool 0's region).
        let (outer, inner, far) = (WriteCtx::first(0), WriteCtx::first(10), WriteCtx::first(20));
        let o = ctx.item_origin(outer);
        let mut item = w.for_item(o);
        item.u8(0xee);
        {
            let i = ctx.item_origin(inner);
            let mut b = item.for_item(i);
            b.u8(1);
            ctx.record(WriteCtx::first(11), b.pos() as u64);
            b.u8(2);
            ctx.push_written(1, inner, b, i, 1);
        }
        {
            let f = ctx.item_origin(far);
            let mut b = item.for_item(f);
            b.u8(3);
            ctx.record(WriteCtx::first(21), b.pos() as u64);
            b.u8(4);
            ctx.push_written(2, far, b, f, 1);
        }
        ctx.flush(1, &mut item, 1);
        ctx.push_written(0, outer, item, o, 1);
        w.u8(0xff);
        ctx.flush(0, w, 1);
        w.u8(0xdd);
        ctx.flush(2, w, 1);
        Ok(())
    })
    .unwrap();
    assert_eq!(passes, vec![true, false]);
    // 0: header (5, 8); 2: 0xff; 3: outer item 0xee, then its inner item 1, 2 at 4; 6: 0xdd; 7: far item 3, 4.
    assert_eq!(out, vec![5, 8, 0xff, 0xee, 1, 2, 0xdd, 3, 4]);
}

/// An item queued elsewhere by an item that is itself queued elsewhere by the outer one: none of their positions
/// moves with an item they are not placed in.
#[test]
fn items_queued_elsewhere_at_two_depths_keep_their_own_positions() {
    let mut passes = Vec::new();
    let out = write_passes(|w, ctx| {
        passes.push(w.is_sizing());
        let (r1, r2, r3) = (
            WriteCtx::first(11),
            WriteCtx::first(21),
            WriteCtx::first(31),
        );
        w.u8(ctx.prev_pos(r1) as u8);
        w.u8(ctx.prev_pos(r2) as u8);
        w.u8(ctx.prev_pos(r3) as u8);
        let (x, z, y) = (
            WriteCtx::first(10),
            WriteCtx::first(20),
            WriteCtx::first(30),
        );
        let ox = ctx.item_origin(x);
        let mut bx = w.for_item(ox);
        bx.u8(1);
        ctx.record(r1, bx.pos() as u64);
        bx.u8(2);
        {
            let oz = ctx.item_origin(z);
            let mut bz = bx.for_item(oz);
            bz.u8(3);
            {
                let oy = ctx.item_origin(y);
                let mut by = bz.for_item(oy);
                ctx.record(r3, by.pos() as u64);
                by.u8(5);
                ctx.push_written(3, y, by, oy, 1);
            }
            ctx.record(r2, bz.pos() as u64);
            bz.u8(4);
            ctx.push_written(2, z, bz, oz, 1);
        }
        ctx.push_written(0, x, bx, ox, 1);
        w.u8(0xa0);
        ctx.flush(0, w, 1);
        w.u8(0xb0);
        ctx.flush(2, w, 1);
        w.u8(0xc0);
        ctx.flush(3, w, 1);
        Ok(())
    })
    .unwrap();
    assert_eq!(passes, vec![true, false]);
    // 3: 0xa0; 4: x (1, 2); 6: 0xb0; 7: z (3, 4); 9: 0xc0; 10: y (5).
    assert_eq!(out, vec![5, 8, 10, 0xa0, 1, 2, 0xb0, 3, 4, 0xc0, 5]);
}

/// A pool whose region is written more than once in a pass (one region per record of a repeated type: AINB's
/// plug data, after each element parameter's pointers) writes at each region the items queued since the last.
#[test]
fn a_pool_with_a_region_per_record_writes_each_records_items_at_its_region() {
    let out = write_passes(|w, ctx| {
        for v in [1u8, 2] {
            let k = ctx.key(1);
            w.u8(ctx.prev_pos(k) as u8);
            ctx.push(0, k, vec![v, v], 1);
            ctx.flush(0, w, 1);
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(out, vec![1, 1, 1, 4, 2, 2]);
}

/// A derived value that does not fit its field until positions settle is written as 0 meanwhile; the final pass
/// writes the settled value. Here a u8 holds "the target's position minus 4", and the padding before the target
/// depends on where the previous pass ended (as an item inside an item knows its holder's position a pass late):
/// the value is -4 in the first pass and -3 in the second, and fits from the third. A value that still does not fit
/// in the final pass is an error that names the field.
#[test]
fn unfit_values_wait_for_the_final_pass() {
    use crate::ResultExt as _;
    let write = |w: &mut crate::Writer, ctx: &mut WriteCtx, most: u64| -> Result<()> {
        let (k, ke) = (ctx.key(0), ctx.key(1));
        let v = ctx.prev_pos(k) as i128 - 4;
        w.u8(ctx.fit::<u8>(v, "rel").at("rel")?);
        w.fill((ctx.prev_pos(ke) * 4).min(most) as usize, 0);
        ctx.record(k, w.pos() as u64);
        w.u8(0xaa);
        ctx.record(ke, w.pos() as u64);
        Ok(())
    };
    let out = write_passes(|w, ctx| write(w, ctx, 8)).unwrap();
    assert_eq!(out, [5, 0, 0, 0, 0, 0, 0, 0, 0, 0xaa]);
    // The target at 3 once settled: 3 - 4 never fits.
    let e = write_passes(|w, ctx| write(w, ctx, 2)).unwrap_err();
    assert!(e.to_string().contains("rel"), "{e}");
}

/// A queued item is at most 40 bytes (it was 56): tens of thousands are queued per pass in AINB, where queueing
/// was 7 to 14% of the write in perf profiles.
#[test]
fn queued_items_stay_small() {
    assert!(std::mem::size_of::<super::Item<'static>>() <= 40);
}

/// A pointer recorded inside an item written where the pass did not know its place moves with the item, so the
/// relocation table lists where it ends up from the next pass on; a table after everything (as `nn::util`'s is)
/// settles in the passes.
#[test]
fn relocated_pointers_inside_items_move_with_them() {
    let (item_key, target, ptr) = (WriteCtx::first(0), WriteCtx::first(1), WriteCtx::first(2));
    let pass = |w: &mut crate::Writer, ctx: &mut WriteCtx<'_>| -> crate::Result<()> {
        // 8 bytes, then the item (pool 0), the target (pool 1) and, last, the relocation entries.
        w.u64(0, crate::Endian::Little);
        let origin = ctx.item_origin(item_key);
        let mut item = w.for_item(origin);
        // The item: 8 bytes, then a pointer to the target.
        item.u64(0x1111_1111_1111_1111, crate::Endian::Little);
        ctx.pointer(ptr, item.pos() as u64, target);
        item.u64(ctx.prev_pos(target), crate::Endian::Little);
        ctx.push_written(0, item_key, item, origin, 1);
        ctx.flush(0, w, 1);
        ctx.push(1, target, vec![0xaa; 4], 1);
        ctx.flush(1, w, 1);
        for e in ctx.relocations(&[2], 0, None)? {
            w.u32(e.position, crate::Endian::Little);
            w.u32(u32::from(e.offset_count), crate::Endian::Little);
        }
        Ok(())
    };
    // One pass by hand: the item was written at 0 (its place unknown) and placed at 8, so its pointer, written at
    // 8 inside it, is at 0x10.
    let mut ctx = WriteCtx::new();
    let mut w = crate::Writer::sizing();
    pass(&mut w, &mut ctx).unwrap();
    ctx.end_pass(w.pos() as u64);
    let listed: Vec<u32> = ctx
        .relocations(&[2], 0, None)
        .unwrap()
        .iter()
        .map(|e| e.position)
        .collect();
    assert_eq!(listed, [0x10]);
    // The whole write: the pointer holds 0x18, where the target went, and the table lists it.
    let out = write_passes(pass).unwrap();
    assert_eq!(&out[0x10..0x18], &0x18u64.to_le_bytes());
    assert_eq!(&out[0x1c..], &[0x10, 0, 0, 0, 1, 0, 0, 0]);
}

/// An item's writer takes the buffer an earlier item gave back: it starts empty, so a shorter item written after a
/// longer one holds only its own bytes.
#[test]
fn an_item_writer_reusing_a_buffer_starts_empty() {
    let out = write_passes(|w, ctx| {
        for (i, len) in [(0u32, 3usize), (1, 1)] {
            let key = WriteCtx::first(i);
            let (origin, mut item) = ctx.item_writer(key, w);
            for _ in 0..len {
                item.u8(0x10 + i as u8);
            }
            ctx.push_written(0, key, item, origin, 1);
        }
        ctx.flush(0, w, 1);
        Ok(())
    })
    .unwrap();
    assert_eq!(out, vec![0x10, 0x10, 0x10, 0x11]);
}

#[test]
fn empty_items_take_their_place_among_the_others() {
    // Empty items are kept apart from the others (they take no room); each is placed where it was queued:
    // before, between and after the non-empty ones, aligned to its own alignment, in a plain flush and in a
    // flush in a kept order (each non-empty item with the empty ones queued after it).
    for ordered in [false, true] {
        let out = write_passes(|w, ctx| {
            let keys: Vec<Key> = (0..6).map(|_| ctx.key(1)).collect();
            for k in &keys {
                w.u8(ctx.prev_pos(*k) as u8);
            }
            ctx.push_empty(0, keys[0], 1);
            ctx.push(0, keys[1], vec![0xaa], 1);
            ctx.push_empty(0, keys[2], 4);
            ctx.push_empty(0, keys[3], 1);
            ctx.push(0, keys[4], vec![0xbb, 0xbb], 1);
            ctx.push_empty(0, keys[5], 2);
            if ordered {
                ctx.flush_ordered(0, w, 1, Some(&[1, 0]), None, &[])?;
            } else {
                ctx.flush(0, w, 1);
            }
            Ok(())
        })
        .unwrap();
        if ordered {
            // 0xbb 0xbb at 6, the empty one after it at 8; 0xaa at 8, the two after it at 12.
            assert_eq!(
                out,
                vec![6, 8, 12, 12, 6, 8, 0xbb, 0xbb, 0xaa, 0, 0, 0],
                "ordered"
            );
        } else {
            assert_eq!(out, vec![6, 6, 8, 8, 8, 10, 0xaa, 0, 0xbb, 0xbb], "plain");
        }
    }
}

/// Two pointers recorded at one position in a pass (records placed where positions not known yet put them, before
/// they settle: BFRES's string render info values, one record per material, all at their offset from 0 in the
/// first pass) are one pointer: the relocation table lists the position once, where it would refuse a list with a
/// repeat.
#[test]
fn a_pointer_position_recorded_twice_is_listed_once() {
    let (a, b, target) = (WriteCtx::first(0), WriteCtx::first(1), WriteCtx::first(2));
    let mut ctx = WriteCtx::new();
    let mut w = crate::Writer::sizing();
    ctx.pointer(a, 0x10, target);
    ctx.pointer(b, 0x10, target);
    ctx.pointer(WriteCtx::first(3), 0x18, target);
    ctx.push(0, target, vec![0xaa; 4], 1);
    ctx.flush(0, &mut w, 1);
    ctx.end_pass(w.pos() as u64);
    let entries = ctx.relocations(&[0, 1, 3], 0, None).unwrap();
    // 0x10 and 0x18: one run of two pointers.
    let listed: Vec<(u32, u16, u8)> = (entries.iter())
        .map(|e| (e.position, e.struct_count, e.offset_count))
        .collect();
    assert_eq!(listed, [(0x10, 1, 2)]);
}

#[test]
fn a_pool_listing_one_record_twice_is_relaid() {
    // "ab" at 0, "xy" at 4, "ab" again at 8 (each 4 bytes).
    let file = b"ab\0\0xy\0\0ab\0\0";
    let mut p = ReadPools::new();
    p.listed_records(file, &[(0, 4), (4, 8)]);
    assert!(!p.relaid());
    // A span past the end says nothing (the reader has failed on it already).
    p.listed_records(file, &[(0, 4), (8, 40)]);
    assert!(!p.relaid());
    p.listed_records(file, &[(0, 4), (4, 8), (8, 12)]);
    assert!(p.relaid());
}
