//! Parses a BYML document in a loop, for a profiler (`valgrind --tool=callgrind`):
//! `cargo run --release -p binspec-benches --example byml_profile -- ours|roead [iterations] [file]`. Without a
//! file, the document is the benchmark's generated one (as roead writes it).

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
