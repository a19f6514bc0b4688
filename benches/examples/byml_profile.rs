//! Parses a BYML document in a loop, for a profiler (`valgrind --tool=callgrind`):
//! `cargo run --release -p binspec-benches --features peers --example byml_profile -- ours|roead [iterations]
//! [file]`. Without a file, the document is the benchmark's generated one (as roead writes it).

use binspec_benches::{walk_ours, walk_roead, Fixture, TARGET_NODES};
use binspec_formats::byml::Document;
use roead::byml::Byml as RByml;
use std::hint::black_box;

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "ours".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let bin = match args.next() {
        Some(path) => std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}")),
        None => Fixture::new(TARGET_NODES).roead_bin,
    };
    if which == "pair" {
        // Rounds of n parses each, ours and roead alternating: the median of the per-round ratios.
        let mut ratios = Vec::new();
        for _ in 0..15 {
            let t = std::time::Instant::now();
            for _ in 0..n {
                black_box(walk_ours(
                    &Document::from_binary(black_box(&bin)).unwrap().root,
                ));
            }
            let ours = t.elapsed().as_secs_f64();
            let t = std::time::Instant::now();
            for _ in 0..n {
                black_box(walk_roead(&RByml::from_binary(black_box(&bin)).unwrap()));
            }
            ratios.push(ours / t.elapsed().as_secs_f64());
        }
        ratios.sort_by(f64::total_cmp);
        println!(
            "ours/roead per round: median {:.3}, min {:.3}, max {:.3}",
            ratios[7], ratios[0], ratios[14]
        );
        return;
    }
    let mut nodes = 0;
    for _ in 0..n {
        nodes += match which.as_str() {
            "roead" => walk_roead(&RByml::from_binary(black_box(&bin)).expect("roead reads")).nodes,
            _ => {
                walk_ours(
                    &Document::from_binary(black_box(&bin))
                        .expect("ours reads")
                        .root,
                )
                .nodes
            }
        };
    }
    println!("{which}: {n} parses, {nodes} nodes walked");
}
