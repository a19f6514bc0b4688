//! The interpreter (`binspec --schema`, `binspec-interp`) against the code generated from the same schema, on the
//! same files in the same run: decode to the model and write it back. The generated code is the reference here
//! (no other tool interprets these schemas), and the ratio says what the instant loop costs per file.
//!
//! `cargo bench -p binspec-benches --bench interp`.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use binspec_benches::{criterion_dir, format_ns, machine, median_ns};
use binspec_formats::Format;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn load(schema: &str) -> binspec_interp::Schema {
    binspec_interp::Schema::load(&repo().join("schemas").join(schema)).expect("schema")
}

fn main() {
    let since = SystemTime::now();
    let dir = criterion_dir();
    let mut c = binspec_benches::criterion(&dir, 1, 3);
    let sarc_file = repo().join("tests/fixtures/sarc/oead_le_nested_legacy.sarc");
    let byml_file = repo().join("tests/fixtures/byml/oead_types_v4_le.byml");
    let sarc = std::fs::read(&sarc_file).expect("sarc fixture");
    let byml = std::fs::read(&byml_file).expect("byml fixture");
    let sarc_schema = load("sarc.ksy");
    let byml_schema = load("byml.ksy");

    let mut g = c.benchmark_group("interp_sarc");
    g.bench_function("generated", |b| {
        b.iter(|| {
            let m = binspec_formats::sarc::Sarc::from_binary(black_box(&sarc)).unwrap();
            m.to_binary().unwrap()
        })
    });
    g.bench_function("interpreted", |b| {
        b.iter(|| {
            let d = sarc_schema.decode(black_box(&sarc)).unwrap();
            sarc_schema.encode(&d).unwrap()
        })
    });
    g.finish();
    let mut g = c.benchmark_group("interp_byml");
    g.bench_function("generated", |b| {
        b.iter(|| {
            let m = binspec_formats::byml::raw::Byml::from_binary(black_box(&byml)).unwrap();
            m.to_binary().unwrap()
        })
    });
    g.bench_function("interpreted", |b| {
        b.iter(|| {
            let d = byml_schema.decode(black_box(&byml)).unwrap();
            byml_schema.encode(&d).unwrap()
        })
    });
    g.finish();
    c.final_summary();

    println!();
    println!("### The interpreter against generated code");
    println!();
    println!("- machine: {}", machine());
    println!("- command: `cargo bench -p binspec-benches --bench interp`");
    println!();
    println!(
        "| decode and write back | file | generated (median) | interpreted (median) | ratio |"
    );
    println!("|---|---|---:|---:|---:|");
    for (group, file, len) in [
        ("interp_sarc", &sarc_file, sarc.len()),
        ("interp_byml", &byml_file, byml.len()),
    ] {
        let g = median_ns(&dir, group, "generated", since);
        let i = median_ns(&dir, group, "interpreted", since);
        if let (Some(g), Some(i)) = (g, i) {
            println!(
                "| {} | `{}` ({len} bytes) | {} | {} | {:.1} |",
                group.trim_start_matches("interp_").to_uppercase(),
                file.strip_prefix(repo()).unwrap_or(file).display(),
                format_ns(g),
                format_ns(i),
                i / g
            );
        }
    }
}
