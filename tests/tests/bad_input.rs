//! Hostile and broken input: truncated and corrupted fixtures, out-of-range offsets and huge planted counts. The
//! readers must return `Ok` or a clean `Err` naming the format and the offset — never panic, never allocate by a
//! count the file cannot hold.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use binspec_formats::rsizetable::Rsizetable;
use binspec_formats::sarc::Sarc;
use binspec_runtime::error::ErrorKind;
use binspec_runtime::{compress, Error, Format};

use binspec_tests::{repo, Rng};

/// (path, decompressed bytes) of every fixture under `tests/fixtures/<dir>`.
fn fixtures(dir: &str) -> Vec<(String, Vec<u8>)> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(repo().join("tests/fixtures").join(dir))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let raw = std::fs::read(&p).unwrap();
            let (data, _) = compress::decompress(&raw).unwrap();
            (p.file_name().unwrap().to_string_lossy().into_owned(), data)
        })
        .collect()
}

fn seed_for(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    }) | 1
}

/// Is this error clean: `<format id>...` and either an offset or a valid/contents/limit message?
fn clean_error(id: &str, e: &Error) -> Result<(), String> {
    let msg = e.to_string();
    if !msg.starts_with(id) {
        return Err(format!("message does not start with {id:?}: {msg}"));
    }
    let kind_ok = matches!(
        e.kind(),
        ErrorKind::Invalid { .. } | ErrorKind::Contents { .. } | ErrorKind::Limit { .. }
    );
    if !msg.contains("offset 0x") && !kind_ok {
        return Err(format!(
            "message names no offset and is not a valid/contents/limit error: {msg} ({:?})",
            e.kind()
        ));
    }
    Ok(())
}

#[derive(Default)]
struct Tally {
    ok: usize,
    err: usize,
    problems: Vec<String>,
    samples: Vec<String>,
}

fn try_one<F: Format>(id: &str, what: &str, data: &[u8], t: &mut Tally) {
    let r = catch_unwind(AssertUnwindSafe(|| F::from_binary(data).map(|_| ())));
    match r {
        Err(p) => {
            let m = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            t.problems.push(format!("{what}: PANIC: {m}"));
        }
        Ok(Ok(())) => t.ok += 1,
        Ok(Err(e)) => {
            t.err += 1;
            if let Err(p) = clean_error(id, &e) {
                t.problems.push(format!("{what}: {p}"));
            }
            if t.samples.len() < 6 && t.err % 97 == 1 {
                t.samples.push(format!("{what}: {e}"));
            }
        }
    }
}

fn damage<F: Format>(id: &str, dir: &str) {
    let mut t = Tally::default();
    let files = fixtures(dir);
    assert!(!files.is_empty());
    for (name, data) in &files {
        let mut rng = Rng(seed_for(name));
        // Every truncation of small files, a sample of 500 lengths of large ones.
        let lens: Vec<usize> = if data.len() < 4096 {
            (0..data.len()).collect()
        } else {
            (0..500).map(|_| rng.below(data.len())).collect()
        };
        for n in lens {
            try_one::<F>(
                id,
                &format!("{name} truncated to {n:#x}"),
                &data[..n],
                &mut t,
            );
        }
        // 300 single-byte corruptions (never a no-op xor).
        if !data.is_empty() {
            for _ in 0..300 {
                let at = rng.below(data.len());
                let x = (rng.below(255) + 1) as u8;
                let mut d = data.clone();
                d[at] ^= x;
                try_one::<F>(
                    id,
                    &format!("{name} with byte {at:#x} ^= {x:#04x}"),
                    &d,
                    &mut t,
                );
            }
        }
    }
    eprintln!(
        "{id}: {} inputs read ok, {} rejected; sample errors:",
        t.ok, t.err
    );
    for s in &t.samples {
        eprintln!("  {s}");
    }
    assert!(t.err > 0, "no damaged {id} input was rejected at all");
    assert!(
        t.problems.is_empty(),
        "{} of {} damaged {id} inputs misbehaved; first 20:\n{}",
        t.problems.len(),
        t.ok + t.err,
        t.problems
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn sarc_truncated_and_corrupted_never_panic() {
    damage::<Sarc>("sarc", "sarc");
}

#[test]
fn rsizetable_truncated_and_corrupted_never_panic() {
    damage::<Rsizetable>("rsizetable", "rsizetable");
}

fn put_u32(d: &mut [u8], at: usize, v: u32, big: bool) {
    d[at..at + 4].copy_from_slice(&if big {
        v.to_be_bytes()
    } else {
        v.to_le_bytes()
    });
}

fn data_end_past_eof(rel: &str, big: bool) {
    let mut d = std::fs::read(repo().join("tests/fixtures/sarc").join(rel)).unwrap();
    assert!(d.len() < 0x1f40, "{rel} must be small for this test");
    let s = Sarc::from_binary(&d).unwrap();
    assert!(s.sfat.entries.len() > 3);
    // Entry 3's data_end: SARC header 0x14, SFAT header 0xc, entries 0x10 each, data_end at +0xc.
    put_u32(&mut d, 0x14 + 0xc + 3 * 0x10 + 0xc, 0x1f40, big);
    let e = Sarc::from_binary(&d).expect_err("data_end past the end of the file was accepted");
    let msg = e.to_string();
    eprintln!("{rel}: {msg}");
    assert!(
        msg.starts_with("sarc.sfat.entries[3]."),
        "the path should be sarc.sfat.entries[3].<field>, each segment once: {msg}"
    );
    assert!(msg.contains("past the end of the file"), "{msg}");
    assert!(
        msg.contains(&format!("({:#x} bytes)", d.len())),
        "should give the file size {:#x}: {msg}",
        d.len()
    );
    assert!(msg.contains("offset 0x"), "{msg}");
}

#[test]
fn sarc_data_end_past_eof_names_entry_and_offset() {
    data_end_past_eof("oead_le_new_min4.sarc", false);
    data_end_past_eof("oead_be_new_min4.sarc", true);
}

/// Reads `d` and requires a clean error within a second (no allocation or loop driven by the planted count).
fn quick_clean_err<F: Format>(id: &str, what: &str, d: &[u8]) {
    let t0 = Instant::now();
    let r = catch_unwind(AssertUnwindSafe(|| F::from_binary(d).map(|_| ())));
    let took = t0.elapsed();
    let r = r.unwrap_or_else(|_| panic!("{what}: reader panicked"));
    let e = r.expect_err(&format!("{what}: accepted"));
    eprintln!("{what}: {e} ({took:?})");
    clean_error(id, &e).unwrap_or_else(|p| panic!("{what}: {p}"));
    assert!(took < Duration::from_secs(1), "{what}: took {took:?}");
}

#[test]
fn sarc_huge_file_count_is_a_clean_quick_error() {
    for (rel, big) in [("oead_le_empty.sarc", false), ("oead_be_empty.sarc", true)] {
        let mut d = std::fs::read(repo().join("tests/fixtures/sarc").join(rel)).unwrap();
        assert!(d.len() <= 0x40);
        let count = if big {
            0xffffu16.to_be_bytes()
        } else {
            0xffffu16.to_le_bytes()
        };
        d[0x1a..0x1c].copy_from_slice(&count);
        quick_clean_err::<Sarc>("sarc", &format!("{rel} with file_count 0xffff"), &d);
    }
}

#[test]
fn restbl_huge_crc_count_is_a_clean_quick_error() {
    let base =
        std::fs::read(repo().join("tests/fixtures/rsizetable/restbl_empty.rsizetable")).unwrap();
    assert_eq!(base.len(), 22);
    // RESTBL header: magic (6), version u32, path size u32, crc count u32 at 0xe, name count u32 at 0x12.
    let mut d = base.clone();
    put_u32(&mut d, 0xe, 0xffff_ffff, false);
    quick_clean_err::<Rsizetable>("rsizetable", "restbl_empty with crc_count 0xffffffff", &d);
    let mut d = base.clone();
    put_u32(&mut d, 0x12, 0xffff_ffff, false);
    quick_clean_err::<Rsizetable>("rsizetable", "restbl_empty with name_count 0xffffffff", &d);
    // A planted count with a few real bytes after it must still fail quickly.
    let mut d = base;
    put_u32(&mut d, 0xe, 0x7fff_ffff, false);
    d.extend_from_slice(&[0u8; 64]);
    quick_clean_err::<Rsizetable>(
        "rsizetable",
        "restbl with crc_count 0x7fffffff and 64 bytes",
        &d,
    );
}

#[test]
fn rstb_huge_counts_are_clean_quick_errors() {
    let base =
        std::fs::read(repo().join("tests/fixtures/rsizetable/rstb_empty.rsizetable")).unwrap();
    assert_eq!(base.len(), 12);
    for at in [4usize, 8] {
        let mut d = base.clone();
        put_u32(&mut d, at, 0xffff_ffff, false);
        quick_clean_err::<Rsizetable>(
            "rsizetable",
            &format!("rstb_empty with u32 {at:#x} = 0xffffffff"),
            &d,
        );
    }
}

/// A failed `valid` check names the offset where the checked field starts, not where the reader stopped after it.
#[test]
fn sarc_invalid_header_size_names_the_field_offset() {
    let mut d = std::fs::read(repo().join("tests/fixtures/sarc/oead_le_empty.sarc")).unwrap();
    // SFAT header size: u16 at 0x18 (SARC header 0x14 + SFAT magic 4), 0xc in a good file.
    assert_eq!(&d[0x18..0x1a], &[0x0c, 0x00]);
    d[0x18] = 0xef;
    let e = Sarc::from_binary(&d).expect_err("SFAT header size 0xef was accepted");
    let msg = e.to_string();
    eprintln!("{msg}");
    assert!(msg.starts_with("sarc.sfat.header_size"), "{msg}");
    assert_eq!(
        e.offset(),
        Some(0x18),
        "the error should point at the field (0x18): {msg}"
    );
}

/// A repetition of fixed-size records is read in one take where the input holds it all; cut short, it is read
/// element by element, so the error still names the element and the field where the input ends.
#[test]
fn cut_record_repetitions_name_the_element_and_field() {
    // A headerless table (its CRC entries to the end of the file): one entry whole, the second cut in its `size`.
    let mut d = vec![1, 0, 0, 0, 8, 0, 0, 0, 2, 0, 0, 0, 9, 0];
    let e = Rsizetable::from_binary(&d).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("crc_entries[1].size"), "{msg}");
    assert_eq!(e.offset(), Some(12), "{msg}");
    // Whole, the same bytes read as the records they are.
    d.extend_from_slice(&[0, 0]);
    let m = Rsizetable::from_binary(&d).unwrap();
    assert_eq!(m.to_binary().unwrap(), d);
    // A count the input cannot hold fails before any element is read (`check_count`), as before.
    let mut d =
        std::fs::read(repo().join("tests/fixtures/rsizetable/restbl_empty.rsizetable")).unwrap();
    put_u32(&mut d, 0xe, 2, false);
    d.extend_from_slice(&[1, 0, 0, 0, 8, 0, 0, 0, 2, 0, 0, 0, 9, 0]);
    let msg = Rsizetable::from_binary(&d).unwrap_err().to_string();
    assert!(msg.contains("crc_entries: count 2 needs"), "{msg}");
}
