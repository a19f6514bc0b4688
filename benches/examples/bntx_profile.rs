//! Writes Super Mario Odyssey's HomeBed.bntx (from the shared corpus) from its model in a loop, for a profiler
//! (`perf record -g`): `cargo run --release -p binspec-benches --example bntx_profile -- [parse] [iterations]`.
//! With `parse` first, it reads the file instead.

use std::hint::black_box;

use binspec_formats::bntx::Bntx;
use binspec_formats::Format;

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let parse = args.next_if(|a| a == "parse").is_some();
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(2000);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/corpus/real/bntx/HomeBed.bntx"
    );
    let bytes = std::fs::read(path).expect("the shared corpus' HomeBed.bntx");
    let m = Bntx::from_binary(&bytes).expect("ours reads it");
    assert_eq!(m.to_binary().expect("ours writes it"), bytes);
    let start = std::time::Instant::now();
    for _ in 0..n {
        if parse {
            black_box(Bntx::from_binary(black_box(&bytes)).expect("reads"));
        } else {
            black_box(black_box(&m).to_binary().expect("writes"));
        }
    }
    eprintln!("{:?} per iteration", start.elapsed() / n as u32);
}
