//! Writes the SARC benchmark's generated archive (3,000 files, 12 MB, built by roead) in a loop, for a profiler
//! (`perf record -g`): `cargo run --release -p binspec-benches --features peers --example sarc_profile --
//! ours|tomolib [iterations]`. With `pair` instead, it alternates rounds of ours (`Sarc::to_binary`) and tomolib
//! (`sarc::write` into `io::sink()`, as in the tomolib bench) and prints the median ratio ours/tomolib, and the
//! median time of each.

use std::hint::black_box;
use std::time::Instant;

use binspec_benches::{sarc_files, SARC_FILES};
use binspec_formats::sarc::Sarc;
use binspec_formats::Format;
use tomolib::formats::sarc as tomo;

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "ours".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let mut w = roead::sarc::SarcWriter::new(roead::Endian::Little);
    for (name, d) in &sarc_files(SARC_FILES) {
        w.add_file(name.as_str(), d.clone());
    }
    let bin = w.to_binary();
    let ours = Sarc::from_binary(&bin).expect("ours reads roead's archive");
    assert_eq!(ours.to_binary().expect("ours writes"), bin);
    let theirs = tomo::Sarc::parse(bin.clone()).expect("tomolib reads roead's archive");
    // The alignment the tomolib bench gives tomolib's writer (every file's data offset divides by it).
    let mut align = 0x1000u32;
    for e in theirs.entries() {
        while align > 1 && !(theirs.data_offset() + e.data_start).is_multiple_of(align) {
            align /= 2;
        }
    }
    let pack: Vec<tomo::PackEntry> = theirs
        .entries()
        .iter()
        .map(|e| tomo::PackEntry {
            name: e.name.as_deref().unwrap_or_default(),
            data: theirs.data(e),
        })
        .collect();
    let run_ours = || {
        black_box(black_box(&ours).to_binary().expect("ours writes"));
    };
    let run_theirs = || {
        tomo::write(
            &mut std::io::sink(),
            black_box(&pack),
            tomo::ByteOrder::Little,
            align,
        )
        .expect("tomolib writes");
    };
    let time = |f: &dyn Fn()| {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        t.elapsed().as_secs_f64() / n as f64
    };
    match which.as_str() {
        "pair" => {
            let mut rounds: Vec<(f64, f64)> = (0..15)
                .map(|r| {
                    if r % 2 == 0 {
                        let o = time(&run_ours);
                        (o, time(&run_theirs))
                    } else {
                        let t = time(&run_theirs);
                        (time(&run_ours), t)
                    }
                })
                .collect();
            let mut ratios: Vec<f64> = rounds.iter().map(|(o, t)| o / t).collect();
            ratios.sort_by(f64::total_cmp);
            rounds.sort_by(|a, b| a.0.total_cmp(&b.0));
            let ours_ms = rounds[7].0 * 1e3;
            rounds.sort_by(|a, b| a.1.total_cmp(&b.1));
            let theirs_ms = rounds[7].1 * 1e3;
            println!(
                "write: ours/tomolib per round: median {:.2} (min {:.2}, max {:.2}); ours {ours_ms:.3} ms, tomolib \
                 {theirs_ms:.3} ms (medians of 15 rounds of {n})",
                ratios[7], ratios[0], ratios[14]
            );
        }
        "tomolib" => println!("write: tomolib {:.3} ms", time(&run_theirs) * 1e3),
        _ => println!("write: ours {:.3} ms", time(&run_ours) * 1e3),
    }
}
