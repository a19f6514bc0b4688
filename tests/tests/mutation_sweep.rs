//! The mutation sweep: every fixture of every format, cut at every length (a seeded sample of lengths for files
//! over 4 KiB) and mutated in seeded ways (flipped bits, random bytes, planted huge or file-sized counts, sizes
//! and offsets in both byte orders, swapped byte-order marks). Each input goes through the format's decoder and,
//! when it decodes, its writer (`DynFormat::roundtrip`); a SARC also through `Sarc::view_files`. It must return a
//! value or an error: no panic, no result after more than a second, and no more memory than a bound proportional
//! to the input (counted by the global allocator of this test binary).
//!
//! `cargo test -p binspec-tests --test mutation_sweep` runs the CI sweep (a few minutes at most);
//! `BINSPEC_SWEEP=long` runs 25 times as many mutations per file. `BINSPEC_SWEEP_SEED=N` changes the seed.
//! A failure prints the file, the mutation and the command that reproduces it. A quarter of each file's mutations
//! also go through the interpreter with the format's schema (`binspec --schema`, the formats it supports), with a
//! larger time and memory bound (counted as `interp`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use binspec_runtime::DynFormat;
use binspec_tests::Rng;

/// Counts live heap bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            let now = LIVE.fetch_add(l.size(), Relaxed) + l.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        LIVE.fetch_sub(l.size(), Relaxed);
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(l) };
        if !p.is_null() {
            let now = LIVE.fetch_add(l.size(), Relaxed) + l.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, l, new) };
        if !q.is_null() {
            if new >= l.size() {
                let now = LIVE.fetch_add(new - l.size(), Relaxed) + (new - l.size());
                PEAK.fetch_max(now, Relaxed);
            } else {
                LIVE.fetch_sub(l.size() - new, Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The memory a decode and write of `n` input bytes may take at its peak: the decoded model and the written copy
/// are each a small multiple of the input, plus a fixed allowance for tables and buffers.
fn memory_bound(n: usize) -> usize {
    128 * n + (1 << 20)
}

const TIMEOUT: Duration = Duration::from_secs(1);

/// The interpreter (`binspec --schema`) holds a record per record read and runs unoptimized in a debug build: a
/// larger bound, still proportional to the input.
fn interp_memory_bound(n: usize) -> usize {
    512 * n + (8 << 20)
}

const INTERP_TIMEOUT: Duration = Duration::from_secs(10);

/// The interpreter with the schema of a built-in format it supports (with the CLI's hooks).
fn interp_schema(id: &str) -> Option<std::sync::Arc<binspec_interp::Schema>> {
    let file = match id {
        "sarc" | "byml" | "rsizetable" => format!("{id}.ksy"),
        "panim-pluto" => "panim_pluto.ksy".into(),
        _ => return None,
    };
    let s = binspec_interp::Schema::load(&binspec_tests::repo().join("schemas").join(file)).ok()?;
    Some(std::sync::Arc::new(binspec_cli::schema_cmd::with_hooks(s)))
}

#[derive(Debug, Clone)]
enum Mutation {
    Truncate(usize),
    FlipBit(usize, u8),
    Byte(usize, u8),
    Word(usize, u32, bool),
    Half(usize, u16, bool),
    SwapBom(usize),
}

fn apply(data: &[u8], m: &Mutation) -> Vec<u8> {
    let mut d = data.to_vec();
    match *m {
        Mutation::Truncate(n) => d.truncate(n),
        Mutation::FlipBit(at, bit) => d[at] ^= 1 << bit,
        Mutation::Byte(at, b) => d[at] = b,
        Mutation::Word(at, v, be) => {
            let b = if be { v.to_be_bytes() } else { v.to_le_bytes() };
            let end = (at + 4).min(d.len());
            d[at..end].copy_from_slice(&b[..end - at]);
        }
        Mutation::Half(at, v, be) => {
            let b = if be { v.to_be_bytes() } else { v.to_le_bytes() };
            let end = (at + 2).min(d.len());
            d[at..end].copy_from_slice(&b[..end - at]);
        }
        Mutation::SwapBom(at) => d.swap(at, at + 1),
    }
    d
}

/// Where a byte-order mark or a two-byte magic that encodes the byte order sits in the first 16 bytes.
fn boms(data: &[u8]) -> Vec<usize> {
    let head = &data[..data.len().min(16)];
    head.windows(2)
        .enumerate()
        .filter(|(_, w)| matches!(w, [0xfe, 0xff] | [0xff, 0xfe] | [b'Y', b'B'] | [b'B', b'Y']))
        .map(|(i, _)| i)
        .collect()
}

fn mutations(data: &[u8], rng: &mut Rng, per_file: usize) -> Vec<Mutation> {
    let n = data.len();
    let mut v = Vec::new();
    if n <= 4096 {
        v.extend((0..n).map(Mutation::Truncate));
    } else {
        v.extend((0..512).map(|_| Mutation::Truncate(rng.below(n))));
    }
    if n == 0 {
        return v;
    }
    let big32 = [
        0xffff_ffff,
        0x7fff_ffff,
        0x8000_0000,
        0x0100_0000,
        0xffff,
        n as u32,
        n as u32 + 1,
        (n as u32).wrapping_sub(1),
    ];
    let big16 = [0xffffu16, 0x7fff, 0x8000, n as u16];
    for at in boms(data) {
        v.push(Mutation::SwapBom(at));
    }
    for _ in 0..per_file {
        let at = rng.below(n);
        v.push(match rng.below(5) {
            0 => Mutation::FlipBit(at, rng.below(8) as u8),
            1 => Mutation::Byte(at, rng.next_u64() as u8),
            2 | 3 => Mutation::Word(at & !3, big32[rng.below(big32.len())], rng.below(2) == 1),
            _ => Mutation::Half(at & !1, big16[rng.below(big16.len())], rng.below(2) == 1),
        });
    }
    v
}

fn fixtures(root: &Path) -> Vec<PathBuf> {
    binspec_tests::files_under(root)
}

fn format_of(path: &Path, data: &[u8]) -> Option<&'static dyn DynFormat> {
    let registry = binspec_formats::registry();
    binspec_cli::formats::sniff(&registry, data)
        .or_else(|| binspec_cli::formats::by_extension(&registry, path))
}

struct Job {
    run: Box<dyn FnOnce() -> bool + Send>,
}

struct Outcome {
    ok: bool,
    panicked: bool,
    peak: usize,
    elapsed: Duration,
}

fn main() {
    let long = std::env::var("BINSPEC_SWEEP").is_ok_and(|v| v == "long");
    let seed: u64 = std::env::var("BINSPEC_SWEEP_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_5eed);
    let per_file = if long { 5000 } else { 200 };
    let root = binspec_tests::repo().join("tests/fixtures");

    // One worker decodes; this thread watches the clock.
    let (job_tx, job_rx) = mpsc::channel::<Job>();
    let (out_tx, out_rx) = mpsc::channel::<Outcome>();
    std::thread::spawn(move || {
        for job in job_rx {
            let base = LIVE.load(Relaxed);
            PEAK.store(base, Relaxed);
            let t = Instant::now();
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job.run));
            let (ok, panicked) = match r {
                Ok(ok) => (ok, false),
                Err(_) => (false, true),
            };
            let elapsed = t.elapsed();
            let peak = PEAK.load(Relaxed).saturating_sub(base);

            if out_tx
                .send(Outcome {
                    ok,
                    panicked,
                    peak,
                    elapsed,
                })
                .is_err()
            {
                return;
            }
        }
    });

    let started = Instant::now();
    let mut total = 0usize;
    let mut per_format: std::collections::BTreeMap<&str, (usize, usize, usize, f64)> =
        Default::default();
    let mut failures = Vec::new();
    for path in fixtures(&root) {
        let Ok(raw) = std::fs::read(&path) else {
            continue;
        };
        // Compressed fixtures: sweep the decompressed bytes (the decompressors are swept by their own tests).
        let data = match binspec_runtime::compress::decompress(&raw) {
            Ok((d, _)) => d,
            Err(_) => continue,
        };
        let Some(format) = format_of(&path, &data) else {
            continue;
        };
        let mut rng =
            Rng(seed ^ (path.to_string_lossy().len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        // The same bytes through the interpreter, with the format's schema (`binspec --schema`).
        let schema = interp_schema(format.id());
        let interp_per_file = if long { per_file / 5 } else { per_file / 4 };
        for (k, m) in mutations(&data, &mut rng, per_file).into_iter().enumerate() {
            let input = apply(&data, &m);
            let n = input.len();
            let (run, id, timeout, bound): (
                Box<dyn FnOnce() -> bool + Send>,
                &str,
                Duration,
                usize,
            ) = match (&schema, k % 4) {
                // (A share of the inputs: the interpreter is slower than generated code.)
                (Some(sc), 0) if k / 4 < interp_per_file => {
                    let sc = sc.clone();
                    (
                        Box::new(move || sc.decode(&input).and_then(|d| sc.encode(&d)).is_ok()),
                        "interp",
                        INTERP_TIMEOUT,
                        interp_memory_bound(n),
                    )
                }
                _ => (
                    Box::new(move || {
                        // An archive's view (files listed without the model) reads the same untrusted bytes.
                        if format.id() == "sarc" {
                            if let Ok(v) = binspec_formats::sarc::Sarc::view_files(&input) {
                                let _ = v.count();
                            }
                        }
                        format.roundtrip(&input).is_ok()
                    }),
                    format.id(),
                    TIMEOUT,
                    memory_bound(n),
                ),
            };
            let format_id = if id == "interp" {
                "interp"
            } else {
                format.id()
            };
            job_tx.send(Job { run }).unwrap();
            let out = match out_rx.recv_timeout(timeout) {
                Ok(o) => o,
                Err(_) => {
                    eprintln!(
                        "FAILED: {} ({format_id}) with {m:?}: no result after {timeout:?}\n  reproduce: \
                         BINSPEC_SWEEP_SEED={seed} cargo test -p binspec-tests --test mutation_sweep",
                        path.display(),
                    );
                    std::process::exit(1);
                }
            };
            total += 1;
            if out.panicked {
                failures.push(format!(
                    "{} ({format_id}) with {m:?}: panicked",
                    path.display(),
                ));
            }
            let e = per_format.entry(format_id).or_default();
            e.0 += 1;
            e.1 += out.ok as usize;
            let ratio = out.peak as f64 / n.max(1) as f64;
            if out.peak > e.2 {
                e.2 = out.peak;
            }
            if ratio > e.3 && n >= 64 {
                e.3 = ratio;
            }
            if out.peak > bound {
                failures.push(format!(
                    "{} ({format_id}) with {m:?}: {} bytes at the peak for {n} input bytes (bound {bound})",
                    path.display(),
                    out.peak,
                ));
            }
            if out.elapsed > timeout {
                failures.push(format!(
                    "{} ({format_id}) with {m:?}: took {:?}",
                    path.display(),
                    out.elapsed
                ));
            }
        }
    }
    println!(
        "mutation sweep: {total} inputs in {:.1} s (seed {seed}, {} mutations per file)",
        started.elapsed().as_secs_f64(),
        per_file
    );
    println!("format            inputs  decoded   peak memory  peak/input (inputs >= 64 B)");
    for (id, (n, ok, peak, ratio)) in &per_format {
        println!("{id:<16} {n:>7} {ok:>8} {peak:>13} {ratio:>12.1}");
    }
    if total == 0 {
        eprintln!(
            "FAILED: no fixture was swept (looked in {})",
            root.display()
        );
        std::process::exit(1);
    }
    if !failures.is_empty() {
        for f in &failures {
            eprintln!("FAILED: {f}");
        }
        std::process::exit(1);
    }
}
