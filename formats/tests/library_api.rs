//! The library as a tool uses it, through `binspec_formats::prelude`: compressed files opened and written back the
//! same way ([`Packed`]), and archives used like a map of names to bytes ([`Archive`]), on fixtures from
//! independent writers (oead's SARC and Yaz0, the `restbl` package's zstd) and, where present, a real file.

use std::path::{Path, PathBuf};

use binspec_formats::compress;
use binspec_formats::prelude::*;
use binspec_formats::rsizetable::Rsizetable;
use binspec_formats::sarc::Sarc;
use binspec_formats::EntryKey;

fn fixture(rel: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A Yaz0 SARC (oead's `yaz0.compress`) opens as a SARC, remembers its compression, and writes back Yaz0 with the
/// same header alignment; the bytes inside read back as the same archive.
#[test]
fn a_yaz0_archive_opens_and_writes_back_compressed_the_same_way() {
    let bytes = fixture("sarc/oead_le_new_min4.ssarc");
    let arc: Packed<Sarc> = Packed::from_binary(&bytes).unwrap();
    assert_eq!(arc.packing, Packing::Yaz0 { alignment: 0 });
    assert_eq!(arc.len(), 12);
    let out = arc.to_binary().unwrap();
    assert_eq!(Packing::detect(&out), Packing::Yaz0 { alignment: 0 });
    let again: Packed<Sarc> = Packed::from_binary(&out).unwrap();
    assert_eq!(again, arc);
    // The same archive as the plain fixture oead wrote alongside it.
    let plain = Sarc::from_binary(&fixture("sarc/oead_le_new_min4.sarc")).unwrap();
    assert_eq!(again.value, plain);
    // A plain file opens as one, and stays one.
    let plain: Packed<Sarc> = Packed::from_binary(&fixture("sarc/oead_le_new_min4.sarc")).unwrap();
    assert_eq!(plain.packing, Packing::None);
    assert_eq!(
        plain.to_binary().unwrap(),
        fixture("sarc/oead_le_new_min4.sarc")
    );
}

/// A zstd file (the `restbl` package's table, compressed by the `zstandard` package) writes back as zstd.
#[test]
fn a_zstd_table_writes_back_as_zstd() {
    let bytes = fixture("rsizetable/restbl_crc.rsizetable.zs");
    let t: Packed<Rsizetable> = Packed::from_binary(&bytes).unwrap();
    assert_eq!(
        t.packing,
        Packing::Zstd {
            level: compress::ZSTD_LEVEL
        }
    );
    let out = t.to_binary().unwrap();
    assert!(out.starts_with(&compress::ZSTD_MAGIC));
    assert_eq!(Packed::<Rsizetable>::from_binary(&out).unwrap(), t);
    // Asked to, it writes plain bytes: those of the uncompressed fixture.
    let mut plain = t.clone();
    plain.packing = Packing::None;
    assert_eq!(
        plain.to_binary().unwrap(),
        fixture("rsizetable/restbl_crc.rsizetable")
    );
}

/// A real Yaz0 archive with a header alignment of 0x1000 keeps it (skipped without the corpus).
#[test]
fn a_real_archive_keeps_its_yaz0_alignment() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/real/sarc/HomeBed.szs");
    let Ok(bytes) = std::fs::read(&p) else {
        eprintln!("skipped: {} is not here", p.display());
        return;
    };
    let arc: Packed<Sarc> = Packed::from_binary(&bytes).unwrap();
    assert_eq!(arc.packing, Packing::Yaz0 { alignment: 0x1000 });
    let out = arc.to_binary().unwrap();
    assert_eq!(Packing::detect(&out), Packing::Yaz0 { alignment: 0x1000 });
    assert_eq!(Packed::<Sarc>::from_binary(&out).unwrap(), arc);
}

/// get, insert (replace and add), remove, rename, iter and contains on a SARC, and what the file says after a
/// write: a replaced file keeps its entry's alignment, a new one is found by its name, the order by hash is the
/// writer's.
#[test]
fn an_archive_is_used_like_a_map() {
    let bytes = fixture("sarc/oead_le_new_extalign.sarc");
    let mut arc = Sarc::from_binary(&bytes).unwrap();
    let names: Vec<String> = arc.iter().map(|f| f.name.to_string()).collect();
    assert_eq!(names.len(), arc.len());
    let first = names[0].clone();
    let old = arc.get(&first).unwrap().to_vec();
    assert!(arc.contains(&first));
    assert_eq!(arc.get("no/such/file"), None);

    // Replacing keeps the entry (and its layout choices); the old bytes come back.
    let align_before = arc.entries()[0].data_align;
    assert_eq!(
        arc.insert(&first, b"new bytes".to_vec()).as_deref(),
        Some(&old[..])
    );
    assert_eq!(arc.entries()[0].data_align, align_before);
    assert_eq!(arc.get(&first), Some(&b"new bytes"[..]));

    // A new file, a removal and a rename.
    assert_eq!(arc.insert("Added/File.bin", vec![1u8, 2, 3]), None);
    let second = names[1].clone();
    let second_data = arc.get(&second).unwrap().to_vec();
    assert_eq!(arc.remove(&second).as_deref(), Some(&second_data[..]));
    assert!(!arc.contains(&second));
    assert_eq!(arc.remove(&second), None);
    arc.rename(&first, "Renamed/First.bin").unwrap();
    assert!(arc.rename("no/such/file", "x").is_err());
    let third = names[2].clone();
    let e = arc.rename("Renamed/First.bin", &third).unwrap_err();
    assert!(e.to_string().contains("already"), "{e}");

    // Written and read back: the map as edited.
    let back = Sarc::from_binary(&arc.to_binary().unwrap()).unwrap();
    assert_eq!(back.get("Renamed/First.bin"), Some(&b"new bytes"[..]));
    assert_eq!(back.get("Added/File.bin"), Some(&[1u8, 2, 3][..]));
    assert_eq!(back.get(&first), None);
    assert_eq!(back.get(&second), None);
    assert_eq!(back.len(), names.len());
    // The writer sorts entries by name hash, as the format requires.
    let hash = |e: &binspec_formats::sarc::SfatEntry| {
        e.name_hash.unwrap_or_else(|| {
            binspec_runtime::hash::sarc_name_hash(
                e.name.as_deref().unwrap_or_default().as_bytes(),
                back.sfat.hash_multiplier,
            )
        })
    };
    let hashes: Vec<u32> = back.entries().iter().map(hash).collect();
    assert!(hashes.windows(2).any(|w| w[0] != w[1]), "{hashes:?}");
    let mut sorted = hashes.clone();
    sorted.sort_unstable();
    assert_eq!(hashes, sorted);
}

/// An entry stored without a name is found by its hash, and a list that names a hash the archive does not have
/// is refused without changing the archive.
#[test]
fn unnamed_entries_are_found_by_hash_and_a_bad_list_changes_nothing() {
    let mut arc = Sarc::from_binary(&fixture("sarc/oead_le_new_min4.sarc")).unwrap();
    // The hash the writer derives for the first name, kept in the model when the name goes.
    let hash = arc.entries()[0].name_hash.unwrap_or_else(|| {
        binspec_runtime::hash::sarc_name_hash(
            arc.entries()[0].name.as_deref().unwrap().as_bytes(),
            arc.sfat.hash_multiplier,
        )
    });
    let data = arc.entries()[0].data.clone();
    arc.entries_mut()[0].name_hash = Some(hash);
    arc.entries_mut()[0].name = None;
    assert_eq!(arc.get_by_hash(u64::from(hash)), Some(&data[..]));
    assert_eq!(arc.keys()[0], EntryKey::Hash(u64::from(hash)));

    let before = arc.clone();
    let e = arc
        .set_entries(vec![(EntryKey::Hash(0xdead_beef), vec![1])])
        .unwrap_err();
    assert!(e.to_string().contains("0xdeadbeef"), "{e}");
    assert_eq!(arc, before);
}

/// The resource size table by path, on the `restbl` package's table with names: a name entry is found by its
/// path, a CRC entry by the path's CRC-32; a new path gets a CRC entry, which the writer sorts in.
#[test]
fn a_resource_size_table_is_read_and_edited_by_path() {
    use binspec_formats::rsizetable_api::path_crc;
    let mut t = Rsizetable::from_binary(&fixture("rsizetable/restbl_names.rsizetable")).unwrap();
    let (crcs, names) = t.entries();
    assert!(!crcs.is_empty() && !names.is_empty());
    let named = names[0].name.to_string();
    let named_size = names[0].size;
    assert_eq!(t.size(&named), Some(named_size));
    assert_eq!(t.size("Actor/No/Such.bgyml"), None);

    assert_eq!(t.set_size(&named, named_size + 1), Some(named_size));
    assert_eq!(t.set_size("Actor/New.bgyml", 0x1234), None);
    assert_eq!(t.set_size("Actor/New.bgyml", 0x2345), Some(0x1234));
    let back = Rsizetable::from_binary(&t.to_binary().unwrap()).unwrap();
    assert_eq!(back.size(&named), Some(named_size + 1));
    assert_eq!(back.size("Actor/New.bgyml"), Some(0x2345));
    let crcs: Vec<u32> = back.entries().0.iter().map(|e| e.crc).collect();
    assert!(crcs.contains(&path_crc("Actor/New.bgyml")));
    assert!(crcs.windows(2).all(|w| w[0] <= w[1]), "{crcs:x?}");

    let mut back = back;
    assert_eq!(back.remove("Actor/New.bgyml"), Some(0x2345));
    assert_eq!(back.remove(&named), Some(named_size + 1));
    assert_eq!(back.size("Actor/New.bgyml"), None);
    assert_eq!(back.size(&named), None);
}

/// Hostile compressed input through `Packed`: a Yaz0 header that claims 1 GiB for a few bytes is refused by the
/// default limit before anything that size is allocated, a truncated zstd frame is an error, and neither panics.
#[test]
fn packed_refuses_what_would_exhaust_memory_or_is_cut_short() {
    let mut bomb = b"Yaz0".to_vec();
    bomb.extend_from_slice(&0x4000_0000u32.to_be_bytes());
    bomb.extend_from_slice(&[0; 8]);
    bomb.extend_from_slice(&[0xff; 64]);
    let e = Packed::<Sarc>::from_binary(&bomb).unwrap_err();
    assert!(
        matches!(e.kind(), binspec_formats::ErrorKind::Limit { .. }),
        "{e}"
    );
    let zs = fixture("rsizetable/restbl_crc.rsizetable.zs");
    for n in [5, zs.len() / 2, zs.len() - 1] {
        assert!(Packed::<Rsizetable>::from_binary(&zs[..n]).is_err(), "{n}");
    }
}
