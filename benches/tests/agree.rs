//! Ours and roead, two independent implementations, agree: on the generated document (node count, checksum of
//! every value, a few values read through each API), and each reads the other's binary and YAML output.
//!
//! The checks against roead and tomolib need the peers: `cargo test -p binspec-benches --features peers`. Without
//! the feature (as `cargo test --workspace` runs) only the generator's own test runs.

#[cfg(feature = "peers")]
use std::path::Path;

#[cfg(feature = "peers")]
use binspec_benches::{check_agreement, read_real_file, Fixture, REAL_FILE};
use binspec_benches::{generate, walk_ours};

#[test]
fn generated_document_is_deterministic_and_large_enough() {
    let a = generate(5_000);
    assert_eq!(a, generate(5_000));
    assert!(walk_ours(&a).nodes >= 5_000);
}

#[cfg(feature = "peers")]
#[test]
fn ours_and_roead_agree() {
    // Smaller than the benchmarks' 100,000 nodes (this runs unoptimized), with every kind of node they have.
    let f = Fixture::new(20_000);
    match check_agreement(&f) {
        Ok(findings) => findings.iter().for_each(|l| println!("{l}")),
        Err(e) => panic!("{e}"),
    }
}

#[cfg(feature = "peers")]
#[test]
fn real_file_reads_alike() {
    let path = Path::new(REAL_FILE);
    if !path.exists() {
        eprintln!("skipped: {} is absent", path.display());
        return;
    }
    let real = read_real_file(path).unwrap_or_else(|e| panic!("{e}"));
    println!("ours: {:?}", real.ours_walk);
    // roead stops at version 7's new containers; when it does read the file, it must see what we see.
    match real.roead_walk {
        Ok(w) => assert_eq!(w, real.ours_walk),
        Err(e) => println!("roead cannot read it: {e}"),
    }
}

#[cfg(feature = "peers")]
#[test]
fn sarc_view_lists_what_roead_lists() {
    // An archive written by roead (an independent writer): our view and roead's reader list the same files in the
    // same order, in both byte orders.
    use binspec_formats::sarc::Sarc;
    for endian in [roead::Endian::Little, roead::Endian::Big] {
        let mut w = roead::sarc::SarcWriter::new(endian);
        for i in 0..300u32 {
            let data: Vec<u8> = (0..(i * 37 % 500)).map(|b| (b ^ i) as u8).collect();
            w.add_file(format!("Dir{}/file_{i:03}.bin", i % 7).as_str(), data);
        }
        let bin = w.to_binary();
        let theirs: Vec<(String, Vec<u8>)> = roead::sarc::Sarc::new(bin.as_slice())
            .unwrap()
            .files()
            .map(|f| (f.name().unwrap_or_default().to_string(), f.data().to_vec()))
            .collect();
        let ours: Vec<(String, Vec<u8>)> = Sarc::view_files(&bin)
            .unwrap()
            .map(|f| f.map(|(n, d)| (n.to_string(), d.to_vec())))
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(ours.len(), 300);
        assert_eq!(ours, theirs, "{endian:?}");
    }
}
