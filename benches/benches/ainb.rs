//! AINB: decoding and writing the 583 KB Tears of the Kingdom file with binspec (ours) and with the `ainb` Python
//! package in the same run, then the ratios.
//!
//! `cargo bench -p binspec-benches --bench ainb`. Needs ../shared/corpus (the file) and the oracle venv
//! (`scripts/oracle/setup-venv.sh`, for the `ainb` package); without either it says why and measures what it can.
//!
//! Ours: the decoded document (`binspec_formats::ainb::Document`: names resolved, ranges turned into lists, the
//! EXB decoded), its writer (every offset, count and hash recomputed), and the raw view generated from
//! `schemas/ainb.ksy`. The package: `AINB.from_binary` (its object tree, names resolved) and `to_binary`.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use binspec_benches::{criterion_dir, format_ns, median_ns};
use binspec_formats::ainb::raw::Ainb;
use binspec_formats::ainb::Document;
use binspec_formats::Format;
use criterion::{SamplingMode, Throughput};

const FILE: &str = "Npc_Gerudo_Queen_Young.event.root.ainb";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `ainb` package's time per decode and per write (ms), from `scripts/oracle/time_ainb.py`.
fn ainb_package_ms(file: &Path) -> Result<(f64, f64, String), String> {
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
    let write_ms = v["per_write_ms"]
        .as_f64()
        .ok_or("time_ainb.py gave no per_write_ms")?;
    let what = format!(
        "ainb {} ({} decodes in {:.1} s, {} writes in {:.1} s)",
        v["ainb"].as_str().unwrap_or("?"),
        v["runs"],
        v["seconds"].as_f64().unwrap_or(0.0),
        v["write_runs"],
        v["write_seconds"].as_f64().unwrap_or(0.0)
    );
    Ok((ms, write_ms, what))
}

fn main() {
    let since = SystemTime::now();
    let dir = criterion_dir();
    let mut c = binspec_benches::criterion(&dir, 1, 4);
    let path = repo().join("../shared/corpus/real/ainb").join(FILE);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            println!("skipped: {} ({e})", path.display());
            return;
        }
    };
    let doc = match Document::from_binary(&bytes) {
        Ok(d) => d,
        Err(e) => {
            println!("skipped: ours cannot decode {FILE}: {e}");
            return;
        }
    };
    let mut g = c.benchmark_group("ainb_real");
    g.sampling_mode(SamplingMode::Flat);
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("decode", |b| {
        b.iter(|| Document::from_binary(black_box(&bytes)).ok())
    });
    g.bench_function("encode", |b| b.iter(|| black_box(&doc).to_binary().ok()));
    g.bench_function("raw", |b| {
        b.iter(|| Ainb::from_binary(black_box(&bytes)).ok())
    });
    g.finish();
    c.final_summary();

    // Ours again, outside criterion, when criterion did not run (`--test`): a short loop each.
    let time = |f: &dyn Fn()| {
        let t = Instant::now();
        let mut n = 0u32;
        while t.elapsed() < Duration::from_millis(300) {
            f();
            n += 1;
        }
        t.elapsed().as_nanos() as f64 / f64::from(n.max(1))
    };
    let measured =
        |id: &str, f: &dyn Fn()| median_ns(&dir, "ainb_real", id, since).unwrap_or_else(|| time(f));
    let decode_ns = measured("decode", &|| {
        black_box(Document::from_binary(black_box(&bytes)).ok());
    });
    let encode_ns = measured("encode", &|| {
        black_box(black_box(&doc).to_binary().ok());
    });
    let raw_ns = measured("raw", &|| {
        black_box(Ainb::from_binary(black_box(&bytes)).ok());
    });
    println!();
    println!("### AINB: binspec-formats vs the ainb Python package");
    println!();
    println!("- machine: {}", binspec_benches::machine());
    println!("- command: `cargo bench -p binspec-benches --bench ainb`");
    println!(
        "- file: {FILE} ({} bytes, Tears of the Kingdom, version 0x407)",
        bytes.len()
    );
    println!();
    println!("| | ours | ainb package | ours/ainb |");
    println!("|---|---:|---:|---:|");
    let package = ainb_package_ms(&path);
    let row = |what: &str, ours: f64, theirs: Option<f64>| match theirs {
        Some(t) => println!(
            "| {what} | {} | {} | **{:.4}** ({:.0}x faster) |",
            format_ns(ours),
            format_ns(t),
            ours / t,
            t / ours
        ),
        None => println!("| {what} | {} | - | - |", format_ns(ours)),
    };
    let (dec, enc) = match &package {
        Ok((d, e, _)) => (Some(d * 1e6), Some(e * 1e6)),
        Err(_) => (None, None),
    };
    row("decode (ours: `ainb::Document`)", decode_ns, dec);
    row("write (ours: `Document::to_binary`)", encode_ns, enc);
    row("raw view only (`ainb::raw`)", raw_ns, dec);
    match package {
        Ok((_, _, what)) => println!("\nThe ainb package's figures: {what}."),
        Err(e) => println!("\nThe ainb package: skipped: {e}."),
    }
}
