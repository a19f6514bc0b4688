//! Kaitai's format gallery (`kaitai-io/kaitai_struct_formats`, 186 specs; not in the repository) as a real-world
//! test of the generator: every spec is compiled (`binspec_codegen::compile_file`, imports resolved as for any
//! schema, absolute ones under the gallery's root), and the specs that generate Rust are counted.
//!
//! A ratchet: every spec listed in `tests/kaitai_gallery_baseline.txt` must still generate. Point the test at a
//! checkout of the gallery with `BINSPEC_KAITAI_FORMATS=DIR` (or put it at `../shared/kaitai_struct_formats`);
//! without one it says so and passes. After implementing something, add the specs that now generate with
//! `BINSPEC_UPDATE_KAITAI_GALLERY=1 cargo test -p binspec-tests --test kaitai_gallery -- --nocapture`.
//!
//! With `BINSPEC_KAITAI_COMPILE=1`, the generated code is built (without a warning: a tool's crate may deny them),
//! and where the gallery's sample files are present
//! (`BINSPEC_KAITAI_SAMPLES`, see `interp_samples.rs`), run on them beside the interpreter: both must read the same
//! document and write the same bytes.

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
             serde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\nbinrw = \"0.15\"\n",
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
    let mut warnings: Vec<String> = Vec::new();
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
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.success() {
            // What a crate that denies warnings would refuse.
            for (i, msg) in module_lines(&stderr) {
                if let (Some((at, m)), Some((spec, _))) =
                    (msg.split_once(": warning:"), modules.get(i))
                {
                    warnings.push(format!("{spec}:{at}:{m}"));
                }
            }
            break;
        }
        let mut found = false;
        for (i, msg) in module_lines(&stderr) {
            if !msg.contains(": error") {
                continue;
            }
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
    // The generated code compiles without warnings (the line of the generated module, then the warning).
    assert!(
        warnings.is_empty(),
        "the gallery's generated code has {} warnings:\n{}",
        warnings.len(),
        warnings.join("\n")
    );
    let alive_modules: Vec<(usize, &str, &str)> = (0..modules.len())
        .filter(|&i| alive[i])
        .map(|i| (i, modules[i].0.as_str(), modules[i].1.as_str()))
        .collect();
    generated_code_on_samples(&dir, &work, &alive_modules);
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

/// The lines of cargo's short messages that name a module of the scratch crate (`src/m12.rs:34:5: error[E0308]:
/// ...`): the module's number and the rest of the line (`34:5: error[E0308]: ...`).
fn module_lines(stderr: &str) -> impl Iterator<Item = (usize, &str)> {
    stderr.lines().filter_map(|line| {
        let (n, msg) = line.strip_prefix("src/m")?.split_once(".rs:")?;
        Some((n.parse().ok()?, msg))
    })
}

/// The generated code, compiled in the scratch crate at `work` (`modules`: its module number, spec and code),
/// against the interpreter on the gallery's sample files (when `kaitai-io/kaitai_struct_samples` is at
/// `BINSPEC_KAITAI_SAMPLES` or `../shared/kaitai_struct_samples`): each file is read by both, and must give the
/// same document, and written by both, the same bytes (or both refuse). The interpreter is checked against the
/// files themselves in `interp_samples.rs`.
fn generated_code_on_samples(formats: &Path, work: &Path, modules: &[(usize, &str, &str)]) {
    let Some(samples) =
        binspec_tests::dir_of("BINSPEC_KAITAI_SAMPLES", "../shared/kaitai_struct_samples")
    else {
        println!("skipped: the gallery's sample files are not here (see interp_samples.rs)");
        return;
    };
    // Each module's root type: the one that implements `Format`.
    let root_of = |code: &str| {
        let rest = code.split("impl ::binspec_runtime::Format for ").nth(1)?;
        Some(
            rest.split(|c: char| !c.is_alphanumeric() && c != '_')
                .next()?
                .to_string(),
        )
    };
    let mut arms = Vec::new();
    let mut jobs = Vec::new();
    let out_dir = work.join("samples_out");
    let _ = std::fs::remove_dir_all(&out_dir);
    std::fs::create_dir_all(&out_dir).expect("output folder");
    for (rel, spec, file) in binspec_tests::kaitai_samples(formats, &samples) {
        let spec_rel = spec
            .strip_prefix(formats)
            .unwrap_or(&spec)
            .to_string_lossy()
            .replace('\\', "/");
        let Some((i, _, code)) = modules.iter().find(|(_, name, _)| *name == spec_rel) else {
            continue;
        };
        let Some(root) = root_of(code) else {
            continue;
        };
        arms.push(format!(
            "\"m{i}\" => run::<gallery_compile::m{i}::{root}>(input, out),"
        ));
        let out = out_dir.join(format!("{}", jobs.len()));
        jobs.push((rel, spec, file, out));
    }
    arms.sort();
    arms.dedup();
    let bin = format!(
        "use binspec_runtime::Format;\nuse std::io::BufRead;\n\n\
         fn run<T: Format + serde::Serialize>(input: &str, out: &str) {{\n\
         let data = std::fs::read(input).unwrap();\n\
         match T::from_binary(&data) {{\n\
         Ok(m) => {{\n\
         std::fs::write(format!(\"{{out}}.json\"), serde_json::to_string(&m).unwrap()).unwrap();\n\
         match m.to_binary() {{\n\
         Ok(b) => std::fs::write(format!(\"{{out}}.bin\"), b).unwrap(),\n\
         Err(e) => std::fs::write(format!(\"{{out}}.werr\"), e.to_string()).unwrap(),\n\
         }}\n}}\n\
         Err(e) => std::fs::write(format!(\"{{out}}.rerr\"), e.to_string()).unwrap(),\n\
         }}\n}}\n\n\
         fn main() {{\n\
         for line in std::io::stdin().lock().lines() {{\n\
         let line = line.unwrap();\n\
         let mut p = line.split('\\t');\n\
         let (m, input, out) = (p.next().unwrap(), p.next().unwrap(), p.next().unwrap());\n\
         let r = std::panic::catch_unwind(|| match m {{\n{}\n_ => {{}}\n}});\n\
         if r.is_err() {{ std::fs::write(format!(\"{{out}}.panic\"), \"\").unwrap(); }}\n\
         }}\n}}\n",
        arms.join("\n")
    );
    let bin_dir = work.join("src/bin");
    std::fs::create_dir_all(&bin_dir).expect("bin folder");
    std::fs::write(bin_dir.join("run.rs"), bin).expect("run.rs");
    let built = std::process::Command::new(env!("CARGO"))
        .args([
            "build",
            "--offline",
            "--message-format=short",
            "--bin",
            "run",
        ])
        .current_dir(work)
        .env("CARGO_TARGET_DIR", work.join("target"))
        .output()
        .expect("cargo build");
    assert!(
        built.status.success(),
        "the sample runner does not build:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let mut input = String::new();
    for (rel, spec, file, out) in &jobs {
        let spec_rel = spec
            .strip_prefix(formats)
            .unwrap_or(spec)
            .to_string_lossy()
            .replace('\\', "/");
        let i = modules
            .iter()
            .find(|(_, n, _)| *n == spec_rel)
            .map_or(0, |m| m.0);
        let _ = rel;
        input.push_str(&format!("m{i}\t{}\t{}\n", file.display(), out.display()));
    }
    let mut child = std::process::Command::new(work.join("target/debug/run"))
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("run the sample runner");
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(input.as_bytes()).expect("write the jobs");
    }
    assert!(
        child.wait().expect("wait").success(),
        "the sample runner failed"
    );
    let mut agree = 0;
    let mut differ = Vec::new();
    for (rel, spec, file, out) in &jobs {
        let read = |ext: &str| std::fs::read(out.with_extension(ext)).ok();
        let data = std::fs::read(file).expect("sample");
        let schema = binspec_interp::Schema::load(spec).expect("the spec loads");
        let got = match (read("panic"), read("rerr"), read("json")) {
            (Some(_), _, _) => Err("PANIC".to_string()),
            (_, Some(e), _) => Err(format!("read: {}", String::from_utf8_lossy(&e))),
            (_, _, Some(j)) => Ok(serde_json::from_slice::<serde_json::Value>(&j).expect("json")),
            _ => Err("no output".to_string()),
        };
        let verdict = match (schema.decode(&data), got) {
            (Err(_), Err(_)) => None,
            (Ok(_), Err(e)) => Some(format!(
                "the generated code refuses it ({e}), the interpreter reads it"
            )),
            (Err(e), Ok(_)) => Some(format!(
                "the interpreter refuses it ({}), the generated code reads it",
                e.message
            )),
            (Ok(doc), Ok(j)) if doc.to_json() != j => Some("the documents differ".to_string()),
            (Ok(doc), Ok(_)) => match (schema.encode(&doc), read("bin")) {
                (Ok(a), Some(b)) if a == b => None,
                (Err(_), None) if read("werr").is_some() => None,
                (a, b) => Some(format!(
                    "writing differs: interpreter {:?}, generated {:?}",
                    a.map(|x| x.len()).map_err(|e| e.message),
                    b.map(|x| x.len())
                )),
            },
        };
        match verdict {
            None => agree += 1,
            Some(v) => differ.push(format!("{rel}: {v}")),
        }
    }
    println!(
        "the gallery's sample files: the generated code and the interpreter agree on {agree} of {}",
        jobs.len()
    );
    assert!(differ.is_empty(), "they disagree:\n{}", differ.join("\n"));
}
