//! Decoding from a shared buffer (`Format::from_bytes`): the model's bytes share the input instead of copying it,
//! its strings are their own (inline up to 24 bytes: sharing them cost more than copying), and the model is the
//! one `from_binary` gives.

use binspec_formats::rsizetable::Rsizetable;
use binspec_formats::sarc::Sarc;
use binspec_formats::{Bytes, Format};
use binspec_tests::{files_under, repo};

/// Whether `part` lies in `whole`'s memory.
fn inside(whole: &[u8], part: &[u8]) -> bool {
    let (w, p) = (whole.as_ptr() as usize, part.as_ptr() as usize);
    p >= w && p + part.len() <= w + whole.len()
}

#[test]
fn sarc_from_bytes_shares_the_input() {
    let files: Vec<_> = files_under(&repo().join("tests/fixtures/sarc"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "sarc"))
        .collect();
    assert!(files.len() >= 10, "{files:?}");
    let mut shared_files = 0;
    for path in files {
        let data = std::fs::read(&path).unwrap();
        let buf = Bytes::from(data.clone());
        let shared = Sarc::from_bytes(buf.clone()).unwrap();
        let copied = Sarc::from_binary(&data).unwrap();
        assert_eq!(shared, copied, "{}", path.display());
        for e in &shared.sfat.entries {
            // (An empty slice is the empty `Bytes`, which points nowhere in particular.)
            if !e.data.is_empty() {
                assert!(inside(&buf, &e.data), "{}: data not shared", path.display());
                shared_files += 1;
            }
            if let Some(n) = &e.name {
                assert!(!inside(&buf, n.as_bytes()), "{}", path.display());
                assert_eq!(
                    n.is_heap_allocated(),
                    n.len() > 24,
                    "{}: {n}",
                    path.display()
                );
            }
        }
        for e in &copied.sfat.entries {
            assert!(
                !inside(&data, &e.data) || e.data.is_empty(),
                "{}",
                path.display()
            );
        }
        // The shared model writes the file again.
        assert_eq!(shared.to_binary().unwrap(), data, "{}", path.display());
    }
    assert!(shared_files > 0);
}

#[test]
fn strings_in_a_slot_lose_their_padding() {
    // RSTB names sit in fixed-size slots: the padding is cut off, and what is left is the string.
    let path = repo().join("tests/fixtures/rsizetable/rstb_le.rsizetable");
    let data = std::fs::read(&path).unwrap();
    let buf = Bytes::from(data.clone());
    let t = Rsizetable::from_bytes(buf.clone()).unwrap();
    assert_eq!(t, Rsizetable::from_binary(&data).unwrap());
    let binspec_formats::rsizetable::RsizetableTable::Rstb(r) = &t.table else {
        panic!("not an RSTB fixture")
    };
    assert!(!r.name_entries.is_empty());
    for n in &r.name_entries {
        assert!(!n.name.is_empty() && !n.name.contains('\0'), "{:?}", n.name);
        assert!(!inside(&buf, n.name.as_bytes()), "{:?}", n.name);
    }
}
