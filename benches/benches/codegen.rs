//! Code generation: the time to compile every schema in `schemas/` (parse, resolve, check, emit Rust and format it
//! with prettyplease), the work `formats/build.rs` does. There is no peer to compare with on this machine (Kaitai
//! Struct's compiler runs on the JVM and is not installed), so this prints the figure alone.
//!
//! `cargo bench -p binspec-benches --bench codegen`.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use binspec_benches::{criterion_dir, format_ns, machine, median_ns};
use criterion::SamplingMode;

fn schemas() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|e| e == "ksy"));
    v.sort();
    v
}

fn compile_all(paths: &[PathBuf]) -> usize {
    paths
        .iter()
        .map(|p| match binspec_codegen::compile_file(p) {
            Ok(c) => c.rust.len(),
            Err(_) => 0,
        })
        .sum()
}

fn main() {
    let since = SystemTime::now();
    let dir = criterion_dir();
    let mut c = binspec_benches::criterion(&dir, 1, 4);
    let paths = schemas();
    let bytes: u64 = paths
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    let rust = compile_all(&paths);
    let mut g = c.benchmark_group("codegen_all_schemas");
    g.sampling_mode(SamplingMode::Flat);
    g.bench_function("ours", |b| b.iter(|| compile_all(black_box(&paths))));
    g.finish();
    c.final_summary();
    let ns = median_ns(&dir, "codegen_all_schemas", "ours", since).unwrap_or_else(|| {
        let t = Instant::now();
        black_box(compile_all(&paths));
        t.elapsed().as_nanos() as f64
    });
    println!();
    println!("### Code generation");
    println!();
    println!("- machine: {}", machine());
    println!("- command: `cargo bench -p binspec-benches --bench codegen`");
    println!(
        "- input: {} schemas ({bytes} bytes of YAML) in `schemas/`; output: {rust} bytes of formatted Rust",
        paths.len()
    );
    println!();
    println!("| benchmark | ours (median) |");
    println!("|---|---:|");
    println!(
        "| compile every schema (YAML -> IR -> checks -> Rust -> prettyplease) | {} |",
        format_ns(ns)
    );
}
