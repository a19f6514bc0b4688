//! BYML: binspec-formats (ours) and roead side by side, then a summary table of the medians and ours/roead.
//!
//! `cargo bench -p binspec-benches` (add `-- --quick` for a smoke run). See ../README.md.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, SystemTime};

use binspec_benches::{
    check_agreement, criterion_dir, median_ns, paired, read_real_file, summary, walk_ours,
    walk_roead, Fixture, Pair, Paired, REAL_FILE, TARGET_NODES,
};
use binspec_formats::byml::Document;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput};
use roead::byml::Byml as RByml;
use std::collections::BTreeMap;

const PAIRS: &[Pair] = &[
    Pair {
        group: "byml_parse_walk",
        title: "parse + walk (generated, binary -> tree -> visit)",
    },
    Pair {
        group: "byml_write",
        title: "write (tree -> binary)",
    },
    Pair {
        group: "byml_yaml_import",
        title: "YAML import (text -> tree -> binary)",
    },
    Pair {
        group: "byml_yaml_export",
        title: "YAML export (binary -> tree -> text)",
    },
    Pair {
        group: "byml_parse_walk_real",
        title: "parse + walk (real v7 file)",
    },
];

fn group<'a>(
    c: &'a mut Criterion,
    name: &str,
    throughput: u64,
) -> BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    // Every operation here takes milliseconds: flat sampling keeps the run short.
    g.sampling_mode(SamplingMode::Flat);
    g.throughput(Throughput::Bytes(throughput));
    g
}

/// Benchmarks `ours` unless one try of it fails, which is then reported instead.
fn bench_ours<T, E: std::fmt::Display>(
    g: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>,
    group: &str,
    notes: &mut Vec<String>,
    f: impl Fn() -> Result<T, E>,
) {
    match f() {
        Ok(_) => {
            g.bench_function("ours", |b| b.iter(|| f().ok()));
        }
        Err(e) => {
            let msg = format!("{group}: ours skipped: {e}");
            eprintln!("{msg}");
            notes.push(msg);
        }
    }
}

/// Rounds of the paired measurement after each group (see [`paired`]).
const ROUNDS: usize = 11;

/// The paired measurement of a group, if criterion measured both sides of it in this run (not with `--test` or a
/// filter that leaves the group out).
fn pair(
    out: &mut BTreeMap<&'static str, Paired>,
    dir: &Path,
    since: SystemTime,
    group: &'static str,
    ours: impl FnMut(),
    roead: impl FnMut(),
) {
    if median_ns(dir, group, "ours", since).is_some()
        && median_ns(dir, group, "roead", since).is_some()
    {
        out.insert(group, paired(ours, roead, ROUNDS));
    }
}

fn main() {
    let since = SystemTime::now();
    let dir = criterion_dir();
    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(5))
        .output_directory(&dir)
        .configure_from_args();
    let mut notes = Vec::new();
    let mut pairs = BTreeMap::new();

    let f = Fixture::new(TARGET_NODES);
    notes.push(format!(
        "generated document: {} nodes, version 2 little endian; roead's binary {} bytes, roead's YAML {} bytes",
        f.nodes,
        f.roead_bin.len(),
        f.roead_text.len()
    ));
    match check_agreement(&f) {
        Ok(findings) => {
            for l in findings {
                println!("check: {l}");
            }
            notes.push("check: ours and roead agree on the document, and each reads the other's binary and YAML".into());
        }
        Err(e) => {
            println!("check FAILED: {e}");
            notes.push(format!("check FAILED: {e}"));
        }
    }

    // Inputs shared by both sides: roead's binary and roead's YAML (oead's dialect, the reference).
    let bin = f.roead_bin.as_slice();
    let text = f.roead_text.as_str();

    {
        let mut g = group(&mut c, "byml_parse_walk", bin.len() as u64);
        bench_ours(&mut g, "byml_parse_walk", &mut notes, || {
            Document::from_binary(bin).map(|d| walk_ours(&d.root))
        });
        g.bench_function("roead", |b| {
            b.iter(|| {
                RByml::from_binary(black_box(bin))
                    .map(|t| walk_roead(&t))
                    .ok()
            })
        });
        g.finish();
        pair(
            &mut pairs,
            &dir,
            since,
            "byml_parse_walk",
            || {
                black_box(
                    Document::from_binary(black_box(bin))
                        .map(|d| walk_ours(&d.root))
                        .ok(),
                );
            },
            || {
                black_box(
                    RByml::from_binary(black_box(bin))
                        .map(|t| walk_roead(&t))
                        .ok(),
                );
            },
        );
    }
    {
        let mut g = group(&mut c, "byml_write", bin.len() as u64);
        bench_ours(&mut g, "byml_write", &mut notes, || {
            black_box(&f.ours).to_binary()
        });
        g.bench_function("roead", |b| {
            b.iter(|| black_box(&f.roead).to_binary(roead::Endian::Little))
        });
        g.finish();
        pair(
            &mut pairs,
            &dir,
            since,
            "byml_write",
            || {
                black_box(black_box(&f.ours).to_binary().ok());
            },
            || {
                black_box(black_box(&f.roead).to_binary(roead::Endian::Little));
            },
        );
    }
    {
        let mut g = group(&mut c, "byml_yaml_import", text.len() as u64);
        bench_ours(&mut g, "byml_yaml_import", &mut notes, || {
            Document::from_text(black_box(text)).and_then(|d| d.to_binary())
        });
        g.bench_function("roead", |b| {
            b.iter(|| {
                RByml::from_text(black_box(text))
                    .map(|t| t.to_binary(roead::Endian::Little))
                    .ok()
            })
        });
        g.finish();
        pair(
            &mut pairs,
            &dir,
            since,
            "byml_yaml_import",
            || {
                black_box(
                    Document::from_text(black_box(text))
                        .and_then(|d| d.to_binary())
                        .ok(),
                );
            },
            || {
                black_box(
                    RByml::from_text(black_box(text))
                        .map(|t| t.to_binary(roead::Endian::Little))
                        .ok(),
                );
            },
        );
    }
    {
        let mut g = group(&mut c, "byml_yaml_export", bin.len() as u64);
        bench_ours(&mut g, "byml_yaml_export", &mut notes, || {
            Document::from_binary(black_box(bin)).and_then(|d| d.to_text())
        });
        g.bench_function("roead", |b| {
            b.iter(|| RByml::from_binary(black_box(bin)).map(|t| t.to_text()).ok())
        });
        g.finish();
        pair(
            &mut pairs,
            &dir,
            since,
            "byml_yaml_export",
            || {
                black_box(
                    Document::from_binary(black_box(bin))
                        .and_then(|d| d.to_text())
                        .ok(),
                );
            },
            || {
                black_box(RByml::from_binary(black_box(bin)).map(|t| t.to_text()).ok());
            },
        );
    }

    match read_real_file(Path::new(REAL_FILE)) {
        Err(e) => {
            let msg = format!("real file skipped: {e}");
            println!("{msg}");
            notes.push(msg);
        }
        Ok(real) => {
            let bytes = real.bytes.as_slice();
            let mut note = format!(
                "real file: {} ({} bytes, version {}, {} nodes as ours reads it)",
                Path::new(REAL_FILE)
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy(),
                bytes.len(),
                u16::from_le_bytes([bytes[2], bytes[3]]),
                real.ours_walk.nodes
            );
            let mut g = group(&mut c, "byml_parse_walk_real", bytes.len() as u64);
            bench_ours(&mut g, "byml_parse_walk_real", &mut notes, || {
                Document::from_binary(bytes).map(|d| walk_ours(&d.root))
            });
            match &real.roead_walk {
                Ok(w) => {
                    note += &format!(
                        "; roead reads it: {} nodes, {}",
                        w.nodes,
                        if *w == real.ours_walk {
                            "same walk as ours"
                        } else {
                            "walk differs from ours"
                        }
                    );
                    g.bench_function("roead", |b| {
                        b.iter(|| {
                            RByml::from_binary(black_box(bytes))
                                .map(|t| walk_roead(&t))
                                .ok()
                        })
                    });
                }
                Err(e) => note += &format!("; roead cannot read it ({e}), so only ours runs"),
            }
            g.finish();
            if real.roead_walk.is_ok() {
                pair(
                    &mut pairs,
                    &dir,
                    since,
                    "byml_parse_walk_real",
                    || {
                        black_box(
                            Document::from_binary(black_box(bytes))
                                .map(|d| walk_ours(&d.root))
                                .ok(),
                        );
                    },
                    || {
                        black_box(
                            RByml::from_binary(black_box(bytes))
                                .map(|t| walk_roead(&t))
                                .ok(),
                        );
                    },
                );
            }
            println!("{note}");
            notes.push(note);
        }
    }

    c.final_summary();
    println!();
    println!("{}", summary(PAIRS, &pairs, &notes, &dir, since));
}
