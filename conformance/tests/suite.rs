//! Runs Kaitai Struct's conformance suite against binspec's generated readers (see the crate docs).
//!
//! Each built test decodes its input and evaluates the test's asserts; a panic is counted apart (it is a bug).
//! Tests that expect a successful parse are also written back (`to_binary`) and compared with the input:
//! counted as `roundtrip_ok`, informative only (many inputs have unread trailing bytes).
//!
//! A ratchet: `passed` must not fall below `baseline.txt`. After improving the emitter, raise it with
//! `BINSPEC_UPDATE_CONFORMANCE=1 cargo test -p binspec-conformance -- --nocapture`.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::Instant;

use binspec_conformance::{Check, MODELS, ROUNDTRIP, SKIPPED, SUITE_DIR, TESTS};

thread_local! {
    /// Where and why generated code last panicked on this thread.
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-string panic payload)".to_string()
    }
}

enum Run {
    Ok,
    Failed(String),
    Panicked(String),
}

fn run(f: Check, data: &[u8]) -> Run {
    match catch_unwind(AssertUnwindSafe(|| f(data))) {
        Ok(Ok(())) => Run::Ok,
        Ok(Err(e)) => Run::Failed(e),
        Err(p) => Run::Panicked(
            LAST_PANIC
                .with(|l| l.borrow_mut().take())
                .unwrap_or_else(|| panic_text(&*p)),
        ),
    }
}

/// What kind of failure a check's message shows.
fn failure_kind(msg: &str) -> &'static str {
    if msg.starts_with("assert ") {
        "wrong value"
    } else if msg.starts_with("expected error ") {
        "expected error not raised"
    } else if msg.starts_with("cannot read src/") {
        "input missing"
    } else {
        "decode error"
    }
}

/// The reason's category: the text before the first `:`.
fn category(reason: &str) -> &str {
    reason.split(':').next().unwrap_or(reason)
}

fn baseline_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("baseline.txt")
}

fn read_baseline(path: &Path) -> usize {
    read_count(path, "passed=")
}

fn read_count(path: &Path, key: &str) -> usize {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.trim().strip_prefix(key)?.trim().parse().ok())
        .unwrap_or(0)
}

/// The first place two JSON documents differ, as a path (`/records/1/value`) and the two values there.
fn first_json_difference(a: &serde_json::Value, b: &serde_json::Value, at: &str) -> Option<String> {
    use serde_json::Value as J;
    match (a, b) {
        (J::Object(x), J::Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    Some(w) => {
                        if let Some(d) = first_json_difference(v, w, &format!("{at}/{k}")) {
                            return Some(d);
                        }
                    }
                    None => {
                        return Some(format!("{at}/{k}: only the interpreter's document has it"))
                    }
                }
            }
            y.keys()
                .find(|k| !x.contains_key(*k))
                .map(|k| format!("{at}/{k}: only the generated model has it"))
        }
        (J::Array(x), J::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| first_json_difference(v, w, &format!("{at}/{i}"))),
        _ if a == b => None,
        _ => Some(format!("{at}: interpreter {a}, generated {b}")),
    }
}

/// The interpreter's differential test: on every test whose generated reader passes, the interpreter must give
/// the same document, and writing it the same bytes (or both refuse to write). Returns the tests that agree, the
/// ones whose schema uses what the interpreter does not support yet, and the disagreements.
fn differential<'a>(
    dir: &Path,
    passed: &[&'a str],
) -> (Vec<&'a str>, Vec<&'a str>, Vec<(&'a str, String)>) {
    let data_of: BTreeMap<&str, &str> = TESTS.iter().map(|&(id, d, _)| (id, d)).collect();
    let (mut agree, mut unsupported, mut differ) = (Vec::new(), Vec::new(), Vec::new());
    let roots = vec![dir.join("formats").join("ks_path")];
    for &(id, ksy, model) in MODELS {
        let Some(&id) = passed.iter().find(|p| **p == id) else {
            continue;
        };
        let Ok(data) = std::fs::read(dir.join("src").join(data_of[id])) else {
            continue;
        };
        let Ok(Ok((gen_doc, gen_bytes))) = catch_unwind(AssertUnwindSafe(|| model(&data))) else {
            continue;
        };
        let schema = match binspec_interp::Schema::load_in(&dir.join("formats").join(ksy), &roots) {
            Ok(s) => s,
            Err(e) => {
                differ.push((id, format!("schema: {e}")));
                continue;
            }
        };
        if schema.unsupported().is_some() {
            unsupported.push(id);
            continue;
        }
        let run = catch_unwind(AssertUnwindSafe(|| {
            let doc = schema.decode(&data).map_err(|e| format!("decode: {e}"))?;
            if let Some(d) = first_json_difference(&doc.to_json(), &gen_doc, "") {
                return Err(format!("documents differ at {d}"));
            }
            match (schema.encode(&doc), gen_bytes) {
                (Ok(a), Ok(b)) if a == b => Ok(()),
                (Ok(a), Ok(b)) => {
                    let at = a
                        .iter()
                        .zip(&b)
                        .position(|(x, y)| x != y)
                        .unwrap_or(a.len().min(b.len()));
                    let near =
                        |x: &[u8]| format!("{:02x?}", &x[at.min(x.len())..(at + 4).min(x.len())]);
                    Err(format!(
                        "bytes differ: interpreter wrote {} bytes, generated {}; first difference at {at:#x} \
                         (interpreter {}, generated {})",
                        a.len(),
                        b.len(),
                        near(&a),
                        near(&b)
                    ))
                }
                (Err(_), Err(_)) => Ok(()),
                (Err(e), Ok(_)) => Err(format!("encode: {e} (the generated writer writes it)")),
                (Ok(_), Err(e)) => Err(format!(
                    "encode: the generated writer refuses ({e}), the interpreter writes"
                )),
            }
        }));
        match run {
            Ok(Ok(())) => agree.push(id),
            Ok(Err(e)) => differ.push((id, e)),
            Err(p) => differ.push((id, format!("PANIC {}", panic_text(&*p)))),
        }
    }
    (agree, unsupported, differ)
}

#[test]
fn kaitai_conformance() {
    let Some(dir) = SUITE_DIR else {
        eprintln!("skipped: Kaitai Struct's test suite (../shared/kaitai_struct_tests) was absent at build time");
        return;
    };
    let src = Path::new(dir).join("src");
    let start = Instant::now();

    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        let loc = info
            .location()
            .map(|l| {
                format!(
                    " at {}:{}",
                    l.file().rsplit('/').next().unwrap_or(""),
                    l.line()
                )
            })
            .unwrap_or_default();
        let msg = panic_text(info.payload());
        LAST_PANIC.with(|l| *l.borrow_mut() = Some(format!("{msg}{loc}")));
    }));

    // A watchdog: a reader that loops forever would hang the test; name it and fail instead.
    static CURRENT: std::sync::Mutex<&str> = std::sync::Mutex::new("");
    std::thread::spawn(|| {
        std::thread::sleep(std::time::Duration::from_secs(120));
        let id = *CURRENT.lock().unwrap_or_else(|e| e.into_inner());
        eprintln!("Kaitai conformance: test '{id}' still running after 120 s (an endless loop?)");
        std::process::exit(101);
    });

    let mut passed = Vec::new();
    let mut failed: Vec<(&str, String)> = Vec::new();
    let mut panicked: Vec<(&str, String)> = Vec::new();
    let mut rt_ok = 0usize;
    let mut rt_failed: Vec<(&str, String)> = Vec::new();
    let mut rt_panicked: Vec<(&str, String)> = Vec::new();
    let roundtrips: BTreeMap<&str, Check> = ROUNDTRIP.iter().copied().collect();
    for &(id, data_file, check) in TESTS {
        *CURRENT.lock().unwrap_or_else(|e| e.into_inner()) = id;
        let data = match std::fs::read(src.join(data_file)) {
            Ok(d) => d,
            Err(e) => {
                failed.push((id, format!("cannot read src/{data_file}: {e}")));
                continue;
            }
        };
        match run(check, &data) {
            Run::Ok => passed.push(id),
            Run::Failed(e) => {
                failed.push((id, e));
                continue;
            }
            Run::Panicked(e) => {
                panicked.push((id, e));
                continue;
            }
        }
        if let Some(&rt) = roundtrips.get(id) {
            match run(rt, &data) {
                Run::Ok => rt_ok += 1,
                Run::Failed(e) => rt_failed.push((id, e)),
                Run::Panicked(e) => rt_panicked.push((id, e)),
            }
        }
    }
    std::panic::set_hook(prev);

    let mut skip_by: BTreeMap<&str, Vec<(&str, &str)>> = BTreeMap::new();
    for &(id, why) in SKIPPED {
        skip_by.entry(category(why)).or_default().push((id, why));
    }

    let mut r = String::new();
    let total = TESTS.len() + SKIPPED.len();
    writeln!(
        r,
        "Kaitai conformance: {total} tests; compiled {}, passed {}, failed {}, panicked {}, skipped {}; \
         roundtrip_ok {} of {} passing ({:.1}s)",
        TESTS.len(),
        passed.len(),
        failed.len(),
        panicked.len(),
        SKIPPED.len(),
        rt_ok,
        passed.iter().filter(|id| roundtrips.contains_key(*id)).count(),
        start.elapsed().as_secs_f64()
    )
    .unwrap();
    writeln!(r, "\nSkipped by reason:").unwrap();
    let mut cats: Vec<_> = skip_by.iter().collect();
    cats.sort_by_key(|(c, v)| (std::cmp::Reverse(v.len()), *c));
    for (cat, list) in cats {
        writeln!(r, "  {:4}  {cat}", list.len()).unwrap();
        for (id, why) in list {
            writeln!(r, "          {id}: {why}").unwrap();
        }
    }
    if !panicked.is_empty() {
        writeln!(r, "\nPanicked (bugs):").unwrap();
        for (id, e) in &panicked {
            writeln!(r, "  {id}: {e}").unwrap();
        }
    }
    if !failed.is_empty() {
        writeln!(r, "\nFailed (first message), by kind:").unwrap();
        let mut by: BTreeMap<&str, Vec<(&str, &str)>> = BTreeMap::new();
        for (id, e) in &failed {
            by.entry(failure_kind(e)).or_default().push((id, e));
        }
        for (kind, list) in by {
            writeln!(r, "  {:4}  {kind}", list.len()).unwrap();
            for (id, e) in list {
                writeln!(r, "          {id}: {e}").unwrap();
            }
        }
    }
    if !rt_failed.is_empty() || !rt_panicked.is_empty() {
        let prefix = rt_failed
            .iter()
            .filter(|(_, e)| e.starts_with("prefix:"))
            .count();
        writeln!(
            r,
            "\nRound trip not identical (informative): {} panicked, {} wrote only a prefix (unread input), {} other:",
            rt_panicked.len(),
            prefix,
            rt_failed.len() - prefix
        )
        .unwrap();
        for (id, e) in &rt_panicked {
            writeln!(r, "  {id}: PANIC {e}").unwrap();
        }
        for (id, e) in rt_failed.iter().filter(|(_, e)| !e.starts_with("prefix:")) {
            writeln!(r, "  {id}: {e}").unwrap();
        }
        for (id, e) in rt_failed.iter().filter(|(_, e)| e.starts_with("prefix:")) {
            writeln!(r, "  {id}: {e}").unwrap();
        }
    }
    let (agree, unsupported, differ) = differential(Path::new(dir), &passed);
    writeln!(
        r,
        "\nInterpreter differential (binspec-interp against the generated code, on the {} passing tests that \
         expect a parse): {} agree (same document, same bytes), {} use what the interpreter cannot do ({}), {} \
         differ:",
        agree.len() + unsupported.len() + differ.len(),
        agree.len(),
        unsupported.len(),
        unsupported.join(", "),
        differ.len()
    )
    .unwrap();
    for (id, e) in &differ {
        writeln!(r, "  {id}: {e}").unwrap();
    }
    eprintln!("{r}");

    let path = baseline_path();
    let base = read_baseline(&path);
    let interp_base = read_count(&path, "interp=");
    if std::env::var_os("BINSPEC_UPDATE_CONFORMANCE").is_some_and(|v| v == "1") {
        std::fs::write(
            &path,
            format!("passed={}\ninterp={}\n", passed.len(), agree.len()),
        )
        .unwrap();
        eprintln!(
            "baseline.txt updated: passed={} (was {base}), interp={} (was {interp_base})",
            passed.len(),
            agree.len()
        );
        return;
    }
    assert!(
        agree.len() >= interp_base,
        "the interpreter agrees with the generated code on {} tests < baseline {interp_base} \
         (conformance/baseline.txt); see the summary above",
        agree.len()
    );
    assert!(
        passed.len() >= base,
        "Kaitai conformance fell: passed {} < baseline {base} (conformance/baseline.txt); see the summary above",
        passed.len()
    );
}
