//! `Format::write_to` writes what `to_binary` makes, for every fixture and corpus file of each generated model: a
//! streaming writer leaves large shared bytes (an archive's files) out of its buffer and writes them from the
//! model, and patches, placed instances and checks after them must still see the whole output.

use std::path::Path;

use binspec_formats::Format;
use binspec_runtime::compress;
use binspec_tests::{difference, files_under, repo};

/// An output whose disk is full (and that seeks nowhere, for binrw's `BinWrite`).
struct Full;

impl std::io::Write for Full {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::new(
            std::io::ErrorKind::StorageFull,
            "disk full",
        ))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl std::io::Seek for Full {
    fn seek(&mut self, _: std::io::SeekFrom) -> std::io::Result<u64> {
        Ok(0)
    }
}

/// For a file of format `F`: reads it, writes it both ways, and compares. `None` when it is not `F` (or not read).
fn check<F: Format>(data: &[u8]) -> Option<Result<(), String>> {
    if !F::sniff(data) {
        return None;
    }
    let m = F::from_binary(data).ok()?;
    let whole = match m.to_binary() {
        Ok(b) => b,
        Err(e) => return Some(Err(format!("to_binary: {e}"))),
    };
    let mut streamed = Vec::new();
    if let Err(e) = m.write_to(&mut streamed) {
        return Some(Err(format!("write_to: {e}")));
    }
    Some(match difference(&streamed, &whole) {
        Some(d) => Err(d),
        None => Ok(()),
    })
}

/// Checks every file under `dir`; returns (checked, failures).
fn check_dir(dir: &Path) -> (usize, Vec<String>) {
    let (mut n, mut failures) = (0, Vec::new());
    for p in files_under(dir) {
        let raw = std::fs::read(&p).unwrap();
        let Ok((data, _)) = compress::decompress(&raw) else {
            continue;
        };
        let results = [
            check::<binspec_formats::sarc::Sarc>(&data),
            check::<binspec_formats::byml::raw::Byml>(&data),
            check::<binspec_formats::rsizetable::Rsizetable>(&data),
            check::<binspec_formats::ainb::raw::Ainb>(&data),
            check::<binspec_formats::panim_pluto::PanimPluto>(&data),
        ];
        for r in results.into_iter().flatten() {
            n += 1;
            if let Err(e) = r {
                failures.push(format!("{}: {e}", p.display()));
            }
        }
    }
    (n, failures)
}

#[test]
fn fixtures_write_to_a_writer_as_to_binary() {
    let (n, failures) = check_dir(&repo().join("tests/fixtures"));
    assert!(
        failures.is_empty(),
        "{} of {n} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(n >= 30, "only {n} fixtures were checked");
}

#[test]
fn corpus_writes_to_a_writer_as_to_binary() {
    let corpus = repo().join("../shared/corpus");
    if !corpus.exists() {
        eprintln!("skipped: ../shared/corpus is not present");
        return;
    }
    let (n, failures) = check_dir(&corpus);
    assert!(
        failures.is_empty(),
        "{} of {n} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(n > 100, "only {n} corpus files were checked");
}

/// A writer whose output fails is an `Io` error, not a panic or a silent stop.
#[test]
fn a_failing_output_is_an_io_error() {
    let path = files_under(&repo().join("tests/fixtures"))
        .into_iter()
        .find(|p| {
            std::fs::read(p)
                .map(|b| binspec_formats::sarc::Sarc::sniff(&b))
                .unwrap_or(false)
        })
        .expect("a SARC fixture");
    let m = binspec_formats::sarc::Sarc::from_binary(&std::fs::read(path).unwrap()).unwrap();
    let e = m.write_to(&mut Full).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            binspec_runtime::ErrorKind::Io {
                kind: std::io::ErrorKind::StorageFull,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("disk full"), "{e}");
}

/// The binrw traits every generated format implements: `BinRead` reads what `from_binary` does, `BinWrite` writes
/// what `to_binary` makes (streamed, as `write_to`), and an output that fails is binrw's I/O error.
#[test]
fn binrw_reads_and_writes_as_the_format_does() {
    use binrw::{BinRead, BinWrite};
    let mut n = 0;
    for p in files_under(&repo().join("tests/fixtures/sarc")) {
        let data = std::fs::read(&p).unwrap();
        if !binspec_formats::sarc::Sarc::sniff(&data) {
            continue;
        }
        let m = binspec_formats::sarc::Sarc::read_le(&mut std::io::Cursor::new(&data)).unwrap();
        assert!(
            m == binspec_formats::sarc::Sarc::from_binary(&data).unwrap(),
            "{}",
            p.display()
        );
        let mut out = std::io::Cursor::new(Vec::new());
        m.write_le(&mut out).unwrap();
        assert!(
            out.into_inner() == data,
            "{}: BinWrite gave other bytes",
            p.display()
        );
        n += 1;
    }
    assert!(n >= 20, "only {n} fixtures");

    let data = std::fs::read(repo().join("tests/fixtures/sarc/oead_be_legacy_min80.sarc")).unwrap();
    let m = binspec_formats::sarc::Sarc::from_binary(&data).unwrap();
    match m.write_le(&mut Full) {
        Err(binrw::Error::Io(e)) => assert_eq!(e.kind(), std::io::ErrorKind::StorageFull),
        other => panic!("{other:?}"),
    }
}
