//! Ours and roead, two independent implementations, agree: on the generated document (node count, checksum of
//! every value, a few values read through each API), and each reads the other's binary and YAML output.

use std::path::Path;

use binspec_benches::{check_agreement, generate, read_real_file, walk_ours, Fixture, REAL_FILE};

#[test]
fn generated_document_is_deterministic_and_large_enough() {
    let a = generate(5_000);
    assert_eq!(a, generate(5_000));
    assert!(walk_ours(&a).nodes >= 5_000);
}

#[test]
fn ours_and_roead_agree() {
    // Smaller than the benchmarks' 100,000 nodes (this runs unoptimized), with every kind of node they have.
    let f = Fixture::new(20_000);
    match check_agreement(&f) {
        Ok(findings) => findings.iter().for_each(|l| println!("{l}")),
        Err(e) => panic!("{e}"),
    }
}

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
