//! Parses or writes Super Mario Odyssey's `AirCurrent.bfres` in a loop, for a profiler (`perf record -g`):
//! `cargo run --release -p binspec-benches --features peers --example bfres_profile -- parse|write
//! ours|tomolib|pair [iterations]`. tomolib parses only the file's header (its `Bfres::parse`), so `pair` compares
//! different work; it is there to time ours beside the same peer as the nintendoware bench. `write` times ours
//! alone (tomolib does not write BFRES).

#[path = "common/pair.rs"]
mod pair;

use std::hint::black_box;

use binspec_formats::bfres::Bfres;
use binspec_formats::Format;

const FILE: &str = "../shared/corpus/real/bfres/AirCurrent.bfres";

fn main() {
    let mut args = std::env::args().skip(1);
    let op = args.next().unwrap_or_else(|| "parse".into());
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
    let ours = Bfres::from_binary(&bytes).expect("ours reads the file");
    let run_ours = || match op.as_str() {
        "write" => {
            black_box(black_box(&ours).to_binary().expect("ours writes"));
        }
        _ => {
            black_box(Bfres::from_binary(black_box(&bytes)).expect("ours reads"));
        }
    };
    let run_theirs = || {
        black_box(tomolib::formats::bfres::Bfres::parse(black_box(&bytes)).ok());
    };
    let which = if op == "write" {
        "ours"
    } else {
        which.as_str()
    };
    pair::run(&op, which, n, &run_ours, &run_theirs);
}
