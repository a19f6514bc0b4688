//! Writes the SARC benchmark's generated archive (3,000 files, 12 MB, built by roead) in a loop, for a profiler
//! (`perf record -g`): `cargo run --release -p binspec-benches --features peers --example sarc_profile --
//! [open] ours|tomolib [iterations]`. With `pair` instead, it alternates rounds of ours (`Sarc::to_binary`) and
//! tomolib (`sarc::write` into `io::sink()`, as in the tomolib bench) and prints the median ratio ours/tomolib, and
//! the median time of each. With `open` first, it reads the archive and visits every file instead, as the tomolib
//! bench's `tomolib_sarc_open_iterate` does (ours `Sarc::from_binary`, tomolib `Sarc::parse` of a copy). With
//! `stream` first, ours writes with `Format::write_to` into `io::sink()` instead, as tomolib does.

#[path = "common/pair.rs"]
mod pair;
#[path = "common/sarc.rs"]
mod sarc;

use std::hint::black_box;

use binspec_benches::FileVisit;
use binspec_formats::sarc::Sarc;
use binspec_formats::Format;
use tomolib::formats::sarc as tomo;

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let open = args.next_if(|a| a == "open").is_some();
    let stream = args.next_if(|a| a == "stream").is_some();
    let which = args.next().unwrap_or_else(|| "ours".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let (bin, ours, theirs, align) = sarc::archive();
    let pack = sarc::pack(&theirs);
    if open {
        let run_ours = || {
            let s = Sarc::from_binary(black_box(&bin)).expect("ours reads");
            let mut v = FileVisit::default();
            for e in &s.sfat.entries {
                v.add(e.name.as_deref().unwrap_or_default(), &e.data);
            }
            black_box(v.sum);
        };
        let run_theirs = || {
            let s = tomo::Sarc::parse(black_box(&bin).to_vec()).expect("tomolib reads");
            let mut v = FileVisit::default();
            for e in s.entries() {
                v.add(e.name.as_deref().unwrap_or_default(), s.data(e));
            }
            black_box(v.sum);
        };
        pair::run("open", which.as_str(), n, &run_ours, &run_theirs);
        return;
    }
    let run_ours = || {
        if stream {
            black_box(&ours)
                .write_to(&mut std::io::sink())
                .expect("ours writes");
        } else {
            black_box(black_box(&ours).to_binary().expect("ours writes"));
        }
    };
    let run_theirs = || sarc::write_theirs(&pack, align);
    pair::run("write", which.as_str(), n, &run_ours, &run_theirs);
}
