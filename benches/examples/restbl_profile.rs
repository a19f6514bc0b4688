//! Reads or writes the Tears of the Kingdom resource size table in a loop, for a profiler (`perf record -g`):
//! `cargo run --release -p binspec-benches --features peers --example restbl_profile -- parse|write ours|tomolib
//! [iterations] [file]`. With `pair` instead of `ours|tomolib`, it alternates rounds of ours and tomolib and prints
//! the median ratio ours/tomolib, and the median time of each.

#[path = "common/pair.rs"]
mod pair;

use std::hint::black_box;

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
    pair::run(&op, which.as_str(), n, &run_ours, &run_theirs);
}
