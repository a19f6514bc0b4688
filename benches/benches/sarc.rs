//! SARC: binspec-formats (ours) and roead side by side: open an archive and go through every file (name and data),
//! and write an archive; then a summary table of the medians and ours/roead.
//!
//! `cargo bench -p binspec-benches --features peers --bench sarc`. The archive is generated (deterministically):
//! 3,000 files of 16 bytes to 8 KiB under game-like paths, written by roead's `SarcWriter`, so both read the same
//! bytes. Before the groups, each reads the other's output and gets the same files.

use std::hint::black_box;
use std::time::SystemTime;

use binspec_benches::{criterion_dir, sarc_files, FileVisit, Pair, Run, SARC_FILES as FILES};
use binspec_formats::sarc::Sarc;
use binspec_formats::{Archive, Format};

use roead::sarc::{Sarc as RSarc, SarcWriter};

const PAIRS: &[Pair] = &[
    Pair {
        group: "sarc_view_iterate",
        title: "open + iterate (every name and data; ours `view_files`, borrowing the input as roead's `Sarc` does)",
    },
    Pair {
        group: "sarc_open_iterate",
        title: "open + iterate into the editable model (ours `from_bytes`, sharing the buffer)",
    },
    Pair {
        group: "sarc_open_iterate_copy",
        title: "open + iterate (ours `from_binary` of a borrowed slice: one copy of it, which the files share)",
    },
    Pair {
        group: "sarc_write",
        title: "write (archive -> binary)",
    },
];

fn main() {
    let since = SystemTime::now();
    let dir = criterion_dir();
    let c = binspec_benches::criterion(&dir, 2, 5);
    let mut run = Run::new(c, dir, since, "roead");

    let files = sarc_files(FILES);
    let mut w = SarcWriter::new(roead::Endian::Little);
    for (n, d) in &files {
        w.add_file(n.as_str(), d.clone());
    }
    let bin = w.to_binary();
    let total: usize = files.iter().map(|(_, d)| d.len()).sum();
    run.notes.push(format!(
        "generated archive: {FILES} files, {total} bytes of data, {} bytes written by roead (little endian)",
        bin.len()
    ));

    // Agreement: each reads the other's output and finds the same files.
    let ours = Sarc::from_binary(&bin).expect("ours reads roead's archive");
    let theirs = RSarc::new(bin.as_slice()).expect("roead reads its own archive");
    let ours_bin = ours.to_binary().expect("ours writes");
    let back = RSarc::new(ours_bin.as_slice()).expect("roead reads our archive");
    let mut a: Vec<(String, Vec<u8>)> = ours
        .files()
        .into_iter()
        .map(|(n, d)| (n.to_string(), d.to_vec()))
        .collect();
    let mut b: Vec<(String, Vec<u8>)> = back
        .files()
        .map(|f| (f.name().unwrap_or_default().to_string(), f.data().to_vec()))
        .collect();
    let mut c: Vec<(String, Vec<u8>)> = theirs
        .files()
        .map(|f| (f.name().unwrap_or_default().to_string(), f.data().to_vec()))
        .collect();
    a.sort();
    b.sort();
    c.sort();
    let agree = a == b && a == c && a.len() == FILES;
    let note = format!(
        "check: ours reads roead's archive and roead reads ours, with the same {} files: {}; our rewrite is {}",
        a.len(),
        if agree { "yes" } else { "NO" },
        if ours_bin == bin { "byte-identical to roead's" } else { "not byte-identical to roead's" }
    );
    println!("{note}");
    run.notes.push(note);

    let bytes = bin.as_slice();
    // What a tool holds after reading a file: its bytes in a buffer. Ours shares it (cloning a `Bytes` counts a
    // reference), roead borrows it.
    let shared = binspec_formats::Bytes::from(bin.clone());
    let roead_iterate = || {
        RSarc::new(black_box(bytes)).ok().map(|s| {
            let mut v = FileVisit::default();
            for f in s.files() {
                v.add(f.name().unwrap_or_default(), f.data());
            }
            (v.files, v.sum)
        })
    };
    let ours_iterate = |s: Sarc| {
        let mut v = FileVisit::default();
        for e in &s.sfat.entries {
            v.add(e.name.as_deref().unwrap_or_default(), &e.data);
        }
        (v.files, v.sum)
    };
    run.group(
        "sarc_view_iterate",
        bytes.len() as u64,
        || {
            Sarc::view_files(black_box(bytes)).and_then(|files| {
                let mut v = FileVisit::default();
                for f in files {
                    let (name, data) = f?;
                    v.add(name, data);
                }
                Ok((v.files, v.sum))
            })
        },
        Some(roead_iterate),
    );
    run.group(
        "sarc_open_iterate",
        bytes.len() as u64,
        || Sarc::from_bytes(black_box(&shared).clone()).map(ours_iterate),
        Some(roead_iterate),
    );
    run.group(
        "sarc_open_iterate_copy",
        bytes.len() as u64,
        || Sarc::from_binary(black_box(bytes)).map(ours_iterate),
        Some(roead_iterate),
    );
    let mut writer = SarcWriter::from_sarc(&theirs);
    let writer = std::cell::RefCell::new(&mut writer);
    run.group(
        "sarc_write",
        bytes.len() as u64,
        || black_box(&ours).to_binary(),
        Some(|| black_box(writer.borrow_mut().to_binary())),
    );

    run.c.final_summary();
    println!();
    println!("{}", run.summary("SARC", "sarc", PAIRS));
}
