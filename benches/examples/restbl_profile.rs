//! Reads or writes the Tears of the Kingdom resource size table in a loop, for a profiler (`perf record -g`):
//! `cargo run --release -p binspec-benches --features peers --example restbl_profile -- parse|write ours|tomolib
//! [iterations] [file]`. With `pair` instead of `ours|tomolib`, it alternates rounds of ours and tomolib and prints
//! the median ratio ours/tomolib, and the median time of each.

use std::hint::black_box;
use std::time::Instant;

use binspec_formats::rsizetable::Rsizetable;
use binspec_formats::Format;
use tomolib::formats::rstbl::Rstbl;

const FILE: &str = "../shared/corpus/real/restbl/ResourceSizeTable.Product.110.rsizetable";

fn main() {
    let mut args = std::env::args().skip(1);
    let op = args.next().unwrap_or_else(|| "parse".into());
    let which = args.next().unwrap_or_else(|| "ours".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let path = args
        .next()
        .unwrap_or_else(|| format!("{}/../{FILE}", env!("CARGO_MANIFEST_DIR")));
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            println!("skipped: {path}: {e}");
            return;
        }
    };
    let ours = Rsizetable::from_binary(&bytes).expect("ours reads the table");
    let theirs = Rstbl::parse(&bytes).expect("tomolib reads the table");
    let run_ours = || match op.as_str() {
        "write" => {
            black_box(black_box(&ours).to_binary().expect("ours writes"));
        }
        _ => {
            black_box(Rsizetable::from_binary(black_box(&bytes)).expect("ours reads"));
        }
    };
    let run_theirs = || match op.as_str() {
        "write" => {
            black_box(&theirs)
                .write(&mut std::io::sink())
                .expect("tomolib writes");
        }
        _ => {
            black_box(Rstbl::parse(black_box(&bytes)).expect("tomolib reads"));
        }
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
                "{op}: ours/tomolib per round: median {:.2} (min {:.2}, max {:.2}); ours {ours_ms:.3} ms, tomolib \
                 {theirs_ms:.3} ms (medians of 15 rounds of {n})",
                ratios[7], ratios[0], ratios[14]
            );
        }
        "tomolib" => println!("{op}: tomolib {:.3} ms", time(&run_theirs) * 1e3),
        _ => println!("{op}: ours {:.3} ms", time(&run_ours) * 1e3),
    }
}
