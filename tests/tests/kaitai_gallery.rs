//! Kaitai's format gallery (`kaitai-io/kaitai_struct_formats`, 186 specs; not in the repository) as a real-world
//! test of the generator: every spec is compiled (`binspec_codegen::compile_file`, imports resolved as for any
//! schema, absolute ones under the gallery's root), and the specs that generate Rust are counted.
//!
//! A ratchet: every spec listed in `tests/kaitai_gallery_baseline.txt` must still generate. Point the test at a
//! checkout of the gallery with `BINSPEC_KAITAI_FORMATS=DIR` (or put it at `../shared/kaitai_struct_formats`);
//! without one it says so and passes. After implementing something, add the specs that now generate with
//! `BINSPEC_UPDATE_KAITAI_GALLERY=1 cargo test -p binspec-tests --test kaitai_gallery -- --nocapture`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use binspec_tests::{files_under, repo};

const BASELINE: &str = "tests/kaitai_gallery_baseline.txt";

fn gallery() -> Option<PathBuf> {
    let dir = std::env::var_os("BINSPEC_KAITAI_FORMATS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("../shared/kaitai_struct_formats"));
    dir.is_dir().then_some(dir)
}

/// The first error of one spec, or `None` where it generates Rust (a panic in the generator is an error too).
fn compile(path: &Path) -> Option<String> {
    match std::panic::catch_unwind(|| binspec_codegen::compile_file(path)) {
        Ok(Ok(_)) => None,
        Ok(Err(d)) => Some(
            d.iter()
                .find(|d| d.is_error())
                .map_or_else(|| "rejected".into(), |d| d.to_string()),
        ),
        Err(_) => Some("PANIC in the code generator".into()),
    }
}

#[test]
fn gallery_specs_generate() {
    let Some(dir) = gallery() else {
        println!(
            "skipped: Kaitai's format gallery is not here; clone https://github.com/kaitai-io/kaitai_struct_formats \
             and set BINSPEC_KAITAI_FORMATS to it"
        );
        return;
    };
    let specs: Vec<PathBuf> = files_under(&dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "ksy"))
        .collect();
    assert!(!specs.is_empty(), "no .ksy under {}", dir.display());
    let mut failed: BTreeMap<String, String> = BTreeMap::new();
    let mut generated: Vec<String> = Vec::new();
    for p in &specs {
        let name = p
            .strip_prefix(&dir)
            .unwrap_or(p)
            .to_string_lossy()
            .replace('\\', "/");
        match compile(p) {
            None => generated.push(name),
            Some(e) => {
                failed.insert(name, e);
            }
        }
    }
    println!(
        "Kaitai's format gallery ({}): {} of {} specs generate Rust",
        dir.display(),
        generated.len(),
        specs.len()
    );
    for (name, e) in &failed {
        println!("  {name}: {}", e.lines().next().unwrap_or(""));
    }
    let path = repo().join(BASELINE);
    if std::env::var("BINSPEC_UPDATE_KAITAI_GALLERY").is_ok_and(|v| v == "1") {
        let mut text = String::from(
            "# Specs of Kaitai's format gallery that generate Rust (tests/tests/kaitai_gallery.rs), one per line.\n",
        );
        for g in &generated {
            text.push_str(g);
            text.push('\n');
        }
        std::fs::write(&path, text).expect("write the baseline");
        return;
    }
    let baseline = std::fs::read_to_string(&path).expect("the baseline");
    let lost: Vec<String> = baseline
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter(|l| !generated.iter().any(|g| g == l))
        .map(|l| format!("{l}: {}", failed.get(l).map_or("not found", |e| e.as_str())))
        .collect();
    assert!(
        lost.is_empty(),
        "specs that generated Rust no longer do:\n{}",
        lost.join("\n")
    );
}
