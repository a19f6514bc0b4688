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

const COMPILE_BASELINE: &str = "tests/kaitai_gallery_compile_baseline.txt";

/// The specs whose generated Rust also compiles: every generated module is put in one scratch crate (with the
/// runtime, serde and binrw, as a tool's crate has them) and built; modules rustc reports errors in are taken out
/// and the crate built again, until it builds. Slow (minutes), so only with `BINSPEC_KAITAI_COMPILE=1` as well
/// as the gallery; a ratchet over `tests/kaitai_gallery_compile_baseline.txt`, updated as the other one is.
#[test]
fn gallery_specs_compile() {
    let Some(dir) = gallery() else {
        println!("skipped: Kaitai's format gallery is not here (see gallery_specs_generate)");
        return;
    };
    if !std::env::var("BINSPEC_KAITAI_COMPILE").is_ok_and(|v| v == "1") {
        println!(
            "skipped: set BINSPEC_KAITAI_COMPILE=1 to build the gallery's generated code (minutes)"
        );
        return;
    }
    let mut modules: Vec<(String, String)> = Vec::new();
    for p in files_under(&dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "ksy"))
    {
        let name = p
            .strip_prefix(&dir)
            .unwrap_or(&p)
            .to_string_lossy()
            .replace('\\', "/");
        if let Ok(Ok(c)) = std::panic::catch_unwind(|| binspec_codegen::compile_file(&p)) {
            modules.push((name, c.rust));
        }
    }
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gallery_compile");
    let src = work.join("src");
    let _ = std::fs::remove_dir_all(&src);
    std::fs::create_dir_all(&src).expect("scratch crate");
    let runtime = repo().join("runtime");
    std::fs::write(
        work.join("Cargo.toml"),
        format!(
            "[package]\nname = \"gallery-compile\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[workspace]\n\n\
             [dependencies]\nbinspec-runtime = {{ path = {:?}, features = [\"compress\", \"text\"] }}\n\
             serde = {{ version = \"1\", features = [\"derive\"] }}\nbinrw = \"0.15\"\n",
            runtime.to_string_lossy()
        ),
    )
    .expect("Cargo.toml");
    // The workspace's lock file: the same versions, offline.
    std::fs::copy(repo().join("Cargo.lock"), work.join("Cargo.lock")).expect("Cargo.lock");
    for (i, (_, rust)) in modules.iter().enumerate() {
        std::fs::write(src.join(format!("m{i}.rs")), rust).expect("module");
    }
    let mut alive: Vec<bool> = vec![true; modules.len()];
    let mut errors: BTreeMap<String, String> = BTreeMap::new();
    for _round in 0..12 {
        let lib: String = (0..modules.len())
            .filter(|&i| alive[i])
            .map(|i| format!("pub mod m{i};\n"))
            .collect();
        std::fs::write(src.join("lib.rs"), lib).expect("lib.rs");
        let out = std::process::Command::new(env!("CARGO"))
            .args(["build", "--offline", "--message-format=short"])
            .current_dir(&work)
            .env("CARGO_TARGET_DIR", work.join("target"))
            .output()
            .expect("cargo build");
        if out.status.success() {
            break;
        }
        let stderr = String::from_utf8_lossy(&out.stderr);
        let mut found = false;
        for line in stderr.lines() {
            // `src/m12.rs:34:5: error[E0308]: ...`
            let Some(rest) = line.strip_prefix("src/m") else {
                continue;
            };
            let Some((n, msg)) = rest.split_once(".rs:") else {
                continue;
            };
            let (Ok(i), true) = (n.parse::<usize>(), msg.contains(": error")) else {
                continue;
            };
            if i < alive.len() && alive[i] {
                alive[i] = false;
                found = true;
                let m = msg.split_once(": error").map_or(msg, |(_, m)| m);
                errors.insert(modules[i].0.clone(), format!("error{m}"));
            }
        }
        assert!(
            found,
            "the scratch crate does not build, and no error names a module:\n{stderr}"
        );
    }
    let compiled: Vec<&str> = (0..modules.len())
        .filter(|&i| alive[i])
        .map(|i| modules[i].0.as_str())
        .collect();
    println!(
        "Kaitai's format gallery: {} of {} generated specs compile ({} generate)",
        compiled.len(),
        modules.len(),
        modules.len()
    );
    for (name, e) in &errors {
        println!("  {name}: {e}");
    }
    let path = repo().join(COMPILE_BASELINE);
    if std::env::var("BINSPEC_UPDATE_KAITAI_GALLERY").is_ok_and(|v| v == "1") {
        let mut text = String::from(
            "# Specs of Kaitai's format gallery whose generated Rust compiles (tests/tests/kaitai_gallery.rs), one per line.\n",
        );
        for c in &compiled {
            text.push_str(c);
            text.push('\n');
        }
        std::fs::write(&path, text).expect("write the baseline");
        return;
    }
    let baseline = std::fs::read_to_string(&path).unwrap_or_default();
    let lost: Vec<String> = baseline
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter(|l| !compiled.contains(l))
        .map(|l| {
            format!(
                "{l}: {}",
                errors.get(l).map_or("not generated", |e| e.as_str())
            )
        })
        .collect();
    assert!(
        lost.is_empty(),
        "specs whose Rust compiled no longer do:\n{}",
        lost.join("\n")
    );
}
