//! Reads or writes `Npc_Gerudo_Queen_Young.event.root.ainb` in a loop, for a profiler (`perf record -g`):
//! `cargo run --release -p binspec-benches --features peers --example ainb_profile -- parse|raw|write
//! ours|tomolib|pair [iterations]`. `parse` reads the document (`ainb::Document`), `raw` only the generated model
//! (`ainb::raw::Ainb`, tomolib parsing the file as for `parse`), `write` writes the document, `raw-write` only the
//! generated model (tomolib writing as for `write`). With `pair`, it
//! alternates rounds of ours and tomolib and prints the median ratio ours/tomolib, and the median time of each.

#[path = "common/pair.rs"]
mod pair;

use std::hint::black_box;

use binspec_formats::{ainb, Format};
use tomolib::formats::ainb::Ainb as Theirs;

const FILE: &str = "../shared/corpus/real/ainb/Npc_Gerudo_Queen_Young.event.root.ainb";

fn file() -> String {
    std::env::var("AINB_FILE").unwrap_or_else(|_| FILE.into())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let op = args.next().unwrap_or_else(|| "parse".into());
    let which = args.next().unwrap_or_else(|| "ours".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let path = format!("{}/../{}", env!("CARGO_MANIFEST_DIR"), file());
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            println!("skipped: {path}: {e}");
            return;
        }
    };
    let ours = ainb::Document::from_binary(&bytes).expect("ours reads the file");
    let ours_raw = ainb::raw::Ainb::from_binary(&bytes).expect("ours reads the file");
    let theirs = Theirs::parse(&bytes).expect("tomolib reads the file");
    let run_ours = || match op.as_str() {
        "write" => {
            black_box(black_box(&ours).to_binary().expect("ours writes"));
        }
        "raw" => {
            black_box(ainb::raw::Ainb::from_binary(black_box(&bytes)).expect("ours reads"));
        }
        "raw-write" => {
            black_box(black_box(&ours_raw).to_binary().expect("ours writes"));
        }
        _ => {
            black_box(ainb::Document::from_binary(black_box(&bytes)).expect("ours reads"));
        }
    };
    let run_theirs = || match op.as_str() {
        "write" | "raw-write" => {
            black_box(black_box(&theirs).to_binary());
        }
        _ => {
            black_box(Theirs::parse(black_box(&bytes)).expect("tomolib reads"));
        }
    };
    pair::run(&op, which.as_str(), n, &run_ours, &run_theirs);
}
