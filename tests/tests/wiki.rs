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
    let revs = wiki::revisions(text, "page");
    wiki::chosen(&revs, 0)
        .into_iter()
        .flat_map(wiki::lint)
        .map(|f| f.to_string())
        .collect()
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
    // Every finding names a page, a table and a row.
    for f in lint_all(&text) {
        assert_eq!(f.split(" | ").count(), 3, "{f}");
    }
}
