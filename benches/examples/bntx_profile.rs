//! Parses or writes Super Mario Odyssey's `HomeBed.bntx` in a loop, for a profiler (`perf record -g`):
//! `cargo run --release -p binspec-benches --features peers --example bntx_profile -- parse|write
//! ours|tomolib|pair [iterations]`. With `pair`, it alternates rounds of ours (`Bntx::from_binary`,
//! `Bntx::to_binary`) and tomolib (`Bntx::parse`, `Bntx::write`), as the nintendoware bench does, and prints the
//! median ratio ours/tomolib and the median time of each.

#[path = "common/pair.rs"]
mod pair;

use std::hint::black_box;

use binspec_formats::bntx::Bntx;
use binspec_formats::Format;
use tomolib::formats::bntx::Bntx as Theirs;

const FILE: &str = "../shared/corpus/real/bntx/HomeBed.bntx";

fn main() {
    let mut args = std::env::args().skip(1);
    let op = args.next().unwrap_or_else(|| "write".into());
    let which = args.next().unwrap_or_else(|| "ours".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let path = format!("{}/../{FILE}", env!("CARGO_MANIFEST_DIR"));
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            println!("skipped: {path}: {e}");
            return;
        }
    };
    let ours = Bntx::from_binary(&bytes).expect("ours reads the file");
    let theirs = Theirs::parse(&bytes).expect("tomolib reads the file");
    let run_ours = || match op.as_str() {
        "parse" => {
            black_box(Bntx::from_binary(black_box(&bytes)).expect("ours reads"));
        }
        _ => {
            black_box(black_box(&ours).to_binary().expect("ours writes"));
        }
    };
    let run_theirs = || match op.as_str() {
        "parse" => {
            black_box(Theirs::parse(black_box(&bytes)).expect("tomolib reads"));
        }
        _ => {
            black_box(black_box(&theirs).write().expect("tomolib writes"));
        }
    };
    pair::run(&op, which.as_str(), n, &run_ours, &run_theirs);
}
