//! AINB: decoding the 583 KB Tears of the Kingdom file with binspec (ours) and with the `ainb` Python package in
//! the same run, then the ratio.
//!
//! `cargo bench -p binspec-benches --bench ainb`. Needs ../shared/corpus (the file) and the oracle venv
//! (`scripts/oracle/setup-venv.sh`, for the `ainb` package); without either it says why and measures what it can.
//!
//! Ours is the reader generated from `schemas/ainb.ksy` (`binspec_formats::ainb::raw`): every section the header
//! points to is read. The `ainb` package builds its own object tree from the same bytes (`AINB.from_binary`).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use binspec_benches::{criterion_dir, format_ns, median_ns};
use binspec_formats::ainb::raw::Ainb;
use binspec_formats::Format;
use criterion::{Criterion, SamplingMode, Throughput};

const FILE: &str = "Npc_Gerudo_Queen_Young.event.root.ainb";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `ainb` package's time per decode, from `scripts/oracle/time_ainb.py` (seconds of repeated decoding).
fn ainb_package_ms(file: &Path) -> Result<(f64, String), String> {
    let setup = std::process::Command::new("bash")
        .arg(repo().join("scripts/oracle/setup-venv.sh"))
        .output()
        .map_err(|e| format!("cannot run setup-venv.sh: {e}"))?;
    if !setup.status.success() {
        return Err(format!(
            "no oracle venv: {}",
            String::from_utf8_lossy(&setup.stderr).trim()
        ));
    }
    let py = String::from_utf8_lossy(&setup.stdout).trim().to_string();
    let out = std::process::Command::new(py)
        .arg(repo().join("scripts/oracle/time_ainb.py"))
        .arg(file)
        .args(["--seconds", "5"])
        .output()
        .map_err(|e| format!("cannot run time_ainb.py: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "time_ainb.py failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("time_ainb.py printed no JSON: {e}"))?;
    let ms = v["per_parse_ms"]
        .as_f64()
        .ok_or("time_ainb.py gave no per_parse_ms")?;
    let what = format!(
        "ainb {} ({} decodes in {:.1} s)",
        v["ainb"].as_str().unwrap_or("?"),
        v["runs"],
        v["seconds"].as_f64().unwrap_or(0.0)
    );
    Ok((ms, what))
}

fn main() {
    let since = SystemTime::now();
    let dir = criterion_dir();
    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .output_directory(&dir)
        .configure_from_args();
    let path = repo().join("../shared/corpus/real/ainb").join(FILE);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            println!("skipped: {} ({e})", path.display());
            return;
        }
    };
    if let Err(e) = Ainb::from_binary(&bytes) {
        println!("skipped: ours cannot read {FILE}: {e}");
        return;
    }
    let mut g = c.benchmark_group("ainb_decode_real");
    g.sampling_mode(SamplingMode::Flat);
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("ours", |b| {
        b.iter(|| Ainb::from_binary(black_box(&bytes)).ok())
    });
    g.finish();
    c.final_summary();

    // Ours again, outside criterion, so the figure exists with `--test` too (a single short loop).
    let ours_ns = median_ns(&dir, "ainb_decode_real", "ours", since).unwrap_or_else(|| {
        let t = Instant::now();
        let mut n = 0u32;
        while t.elapsed() < Duration::from_millis(500) {
            black_box(Ainb::from_binary(black_box(&bytes)).ok());
            n += 1;
        }
        t.elapsed().as_nanos() as f64 / f64::from(n.max(1))
    });
    println!();
    println!("## AINB decode, {FILE} ({} bytes)", bytes.len());
    println!("| | time per decode | ours/ainb |");
    println!("|---|---:|---:|");
    println!(
        "| ours (binspec_formats::ainb::raw) | {} | |",
        format_ns(ours_ns)
    );
    match ainb_package_ms(&path) {
        Ok((ms, what)) => {
            let theirs_ns = ms * 1e6;
            println!(
                "| {what} | {} | **{:.4}** ({:.0}x faster) |",
                format_ns(theirs_ns),
                ours_ns / theirs_ns,
                theirs_ns / ours_ns
            );
        }
        Err(e) => println!("| ainb package | skipped: {e} | |"),
    }
}
