//! `binspec wiki lint` over the seed dumps in ../shared/seeds (skipped with a message when they are absent).

use binspec_cli::wiki;
use binspec_tests::repo;

fn seed(name: &str) -> Option<String> {
    let p = repo().join("../shared/seeds").join(name);
    match std::fs::read_to_string(&p) {
        Ok(t) => Some(t),
        Err(e) => {
            eprintln!("skipped: {} ({e})", p.display());
            None
        }
    }
}

fn lint_all(text: &str) -> Vec<String> {
    binspec_tests::lint_page(text, "page")
}

#[test]
fn epd_dump_contradictions() {
    let Some(text) = seed("002_611e4de14f4074d5.txt") else {
        return;
    };
    let revs = wiki::revisions(&text, "x");
    assert_eq!(revs.len(), 50, "revisions in the dump");
    assert_eq!(wiki::chosen(&revs, 0).len(), 21, "pages");
    let f = lint_all(&text);
    for want in [
        // The dictionary pair table that the Byaml page contradicts (schemas/byml.ksy's doc says so too).
        "Byaml | Dictionary (0xc1, 0xc4) > Byaml Dictionary Pair [Version 4-7] | row 2 (Node Data Type): offset 0x1 does not follow from row 1 (0x0 + 0x3 = 0x3)",
        // The six-byte RESTBL magic typed as a u32 (schemas/rsizetable.ksy's doc).
        "Rsizetable | File Structure > Header (revision 2) | row 1 (Magic): size 0x6 does not fit the type u32 (0x4 bytes)",
        // Two enumerators with one value.
        "Bphsh | Structures (Havok Physics) > hknpMeshShape > hknpShapeType::Enum | row 28 (USER_6): value 0x1b is also row 27 (USER_5)",
        // pan1: Rotation at 0x28 after Translation at 0x2c.
        "Bflyt | Pane (pan1) | row 9 (Rotation): offset 0x28 does not follow from row 8 (0x2c + 0xc = 0x38)",
        // Four u32s at 0x0, 0x4, 0x8 and then 0x10: nothing explains the four bytes at 0xc.
        "AINB | Structures > Input Output Table > Input Output Entries > Input Output Type Entry | row 4 (Output Count): offset 0x10 leaves a gap of 0x4 bytes after row 3 (0x8 + 0x4 = 0xc)",
        // `void*[4]` given 0x8 bytes: the next row starts 0x20 bytes on, as the type says.
        "Bfres | Header (nn::g3d2::ResFile) | row 5 (void*[4]): size 0x8 does not fit the type void*[4] (0x20 bytes)",
        // The SFAT header's "Size of header (0x14)" against rows that end at 0xc (schemas/sarc.ksy's doc).
        "Sarc | Sfat Section > Sfat Header | row 2 (Size of header): says the header is 0x14 bytes, but the table's rows end at 0xc",
        // The Size column says u64 and the Type column 0x8.
        "Bphsh | Structures (Havok Physics) > hknpMeshShape [hkBaseObject] | row 1 (_vft_reserve): the size u64 is a type and the type 0x8 a size: the two cells look swapped",
    ] {
        assert!(f.iter().any(|x| x == want), "missing: {want}\nall:\n{}", f.join("\n"));
    }
    assert!(f.len() > 12, "{} findings:\n{}", f.len(), f.join("\n"));
    // A GUID described over five rows (rowspan) is one 0x10-byte field, not a misfit u32.
    assert!(
        !f.iter()
            .any(|x| x.contains("GUID") || x.contains("cells for")),
        "{}",
        f.join("\n")
    );
    // Rows of bits (`0x6:a`, `6 bit`) are not byte sizes; the row after a row that went back follows from where
    // that row should have been (Scale after Rotation, Value after Node Data Type); the ASB and AINB arrays of
    // properties of different types share a description, not a name.
    for wrong in [
        "nn::gfx::SamplerInfo",
        "nn::gfx::TextureInfo",
        "Pane (pan1) | row 10",
        "Byaml Dictionary Pair [Version 4-7] | row 3",
        "Property Table",
    ] {
        assert!(
            !f.iter().any(|x| x.contains(wrong)),
            "{wrong}:\n{}",
            f.join("\n")
        );
    }
}

#[test]
fn hedgedocs_dump_reads() {
    let Some(text) = seed("004_40617077792eaab2.txt") else {
        return;
    };
    let revs = wiki::revisions(&text, "x");
    let pages = wiki::chosen(&revs, 0);
    assert!(
        pages.iter().any(|r| r.page == "PXD"),
        "pages: {:?}",
        pages.iter().map(|r| &r.page).collect::<Vec<_>>()
    );
    let tables: usize = pages.iter().map(|r| wiki::tables(&r.text).len()).sum();
    assert!(tables > 0);
    // Every finding names a page, a table and a row (unnamed padding by its comment, without the condition).
    let f = lint_all(&text);
    for x in &f {
        assert_eq!(x.split(" | ").count(), 3, "{x}");
    }
    // The header's last padding "aligns to 0x10" but ends at 0x3c (and skel_anim_offset's comment, "always 0x40
    // if compressed", agrees that four bytes are missing before it).
    let want = "PXD | .anm.pxd Structure > PXAN Header [Header] | row 12 (Null alignment to 0x10 bytes for ACL): padding ends at 0x3c (0x34 + 0x8), not on the multiple of 0x10 its comment aligns to";
    assert!(f.iter().any(|x| x == want), "{}", f.join("\n"));
    // Its first padding ends at 0x10, as its "alignment to 8 bytes" says.
    assert!(
        !f.iter().any(|x| x.contains("[Header] | row 5 ")),
        "{}",
        f.join("\n")
    );
}
