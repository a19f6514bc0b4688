//! BYML: binspec-formats (ours) and roead side by side, then a summary table of the medians and ours/roead.
//!
//! `cargo bench -p binspec-benches --features peers --bench byml` (add `-- --quick` for a smoke run). See
//! ../README.md.

use std::hint::black_box;
use std::path::Path;
use std::time::SystemTime;

use binspec_benches::{
    check_agreement, criterion_dir, read_real_file, walk_ours, walk_roead, Fixture, Pair, Run,
    REAL_FILE, TARGET_NODES,
};
use binspec_formats::byml::Document;

use roead::byml::Byml as RByml;

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

fn main() {
    let since = SystemTime::now();
    let dir = criterion_dir();
    let c = binspec_benches::criterion(&dir, 2, 5);
    let mut run = Run::new(c, dir, since, "roead");

    let f = Fixture::new(TARGET_NODES);
    run.notes.push(format!(
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
            run.notes.push("check: ours and roead agree on the document, and each reads the other's binary and YAML".into());
        }
        Err(e) => {
            println!("check FAILED: {e}");
            run.notes.push(format!("check FAILED: {e}"));
        }
    }

    // Inputs shared by both sides: roead's binary and roead's YAML (oead's dialect, the reference).
    let bin = f.roead_bin.as_slice();
    let text = f.roead_text.as_str();

    run.group(
        "byml_parse_walk",
        bin.len() as u64,
        || Document::from_binary(black_box(bin)).map(|d| walk_ours(&d.root)),
        Some(|| {
            RByml::from_binary(black_box(bin))
                .map(|t| walk_roead(&t))
                .ok()
        }),
    );
    run.group(
        "byml_write",
        bin.len() as u64,
        || black_box(&f.ours).to_binary(),
        Some(|| black_box(&f.roead).to_binary(roead::Endian::Little)),
    );
    run.group(
        "byml_yaml_import",
        text.len() as u64,
        || Document::from_text(black_box(text)).and_then(|d| d.to_binary()),
        Some(|| {
            RByml::from_text(black_box(text))
                .map(|t| t.to_binary(roead::Endian::Little))
                .ok()
        }),
    );
    run.group(
        "byml_yaml_export",
        bin.len() as u64,
        || Document::from_binary(black_box(bin)).and_then(|d| d.to_text()),
        Some(|| RByml::from_binary(black_box(bin)).map(|t| t.to_text()).ok()),
    );

    match read_real_file(Path::new(REAL_FILE)) {
        Err(e) => {
            let msg = format!("real file skipped: {e}");
            println!("{msg}");
            run.notes.push(msg);
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
                    )
                }
                Err(e) => note += &format!("; roead cannot read it ({e}), so only ours runs"),
            }
            let roead = real.roead_walk.is_ok().then_some(|| {
                RByml::from_binary(black_box(bytes))
                    .map(|t| walk_roead(&t))
                    .ok()
            });
            run.group(
                "byml_parse_walk_real",
                bytes.len() as u64,
                || Document::from_binary(black_box(bytes)).map(|d| walk_ours(&d.root)),
                roead,
            );
            println!("{note}");
            run.notes.push(note);
        }
    }

    run.c.final_summary();
    println!();
    println!("{}", run.summary("BYML", "byml", PAIRS));
}
