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

use binspec_conformance::{Check, ROUNDTRIP, SKIPPED, SUITE_DIR, TESTS};

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
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.trim().strip_prefix("passed=")?.trim().parse().ok())
        .unwrap_or(0)
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
    eprintln!("{r}");

    let path = baseline_path();
    let base = read_baseline(&path);
    if std::env::var_os("BINSPEC_UPDATE_CONFORMANCE").is_some_and(|v| v == "1") {
        std::fs::write(&path, format!("passed={}\n", passed.len())).unwrap();
        eprintln!("baseline.txt updated: passed={} (was {base})", passed.len());
        return;
    }
    assert!(
        passed.len() >= base,
        "Kaitai conformance fell: passed {} < baseline {base} (conformance/baseline.txt); see the summary above",
        passed.len()
    );
}
