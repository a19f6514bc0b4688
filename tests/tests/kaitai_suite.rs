//! How much of the .ksy language binspec implements, measured on Kaitai Struct's own conformance suite
//! (`../shared/kaitai_struct_tests`, outside the repository; see its README.md).
//!
//! - `formats/*.ksy` are valid schemas: each is compiled and counted as accepted or rejected; rejections are
//!   grouped by their first error message with names, numbers and positions stripped.
//! - `formats_err/*.ksy` must be rejected: the expected error is in each file's leading comments. Files that
//!   only expect warnings, and helpers that other files import, are reported apart.
//!
//! A ratchet, not a fixed result: the counts must not fall below `tests/kaitai_suite_baseline.txt`. After
//! implementing something, raise the baseline with `BINSPEC_UPDATE_KAITAI_BASELINE=1 cargo test -p
//! binspec-tests --test kaitai_suite -- --nocapture`. A panic in the code generator is counted as `PANIC` and
//! listed: it is a bug.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use binspec_codegen::diag::Diagnostic;

const PANIC: &str = "PANIC";

use binspec_tests::repo;

/// What compiling one schema gave.
enum Outcome {
    Accepted {
        warnings: Vec<Diagnostic>,
    },
    /// The errors, sorted as `compile_file` sorts them (by position; some have none, 0:0, and come first).
    Rejected(Vec<Diagnostic>),
    Panicked(String),
}

struct Case {
    name: String,
    text: String,
    outcome: Outcome,
}

thread_local! {
    /// Where and why the code generator last panicked on this thread.
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

/// Compiles one schema through `compile_file`, which is `compile_str(file_name, text)` plus `meta: imports:`
/// resolved next to the file, so that implementing imports shows up here without changing this test.
fn compile(path: &Path) -> Outcome {
    let r = std::panic::catch_unwind(|| binspec_codegen::compile_file(path));
    match r {
        Ok(Ok(c)) => Outcome::Accepted {
            warnings: c.warnings,
        },
        Ok(Err(mut d)) => {
            d.retain(|d| d.is_error());
            d.sort();
            Outcome::Rejected(d)
        }
        Err(payload) => Outcome::Panicked(
            LAST_PANIC
                .with(|p| p.borrow_mut().take())
                .unwrap_or_else(|| panic_text(&*payload)),
        ),
    }
}

/// Compiles every `.ksy` in `dir`, in parallel, sorted by name.
fn compile_dir(dir: &Path) -> Vec<Case> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ksy"))
        .collect();
    files.sort();
    let threads = std::thread::available_parallelism()
        .map_or(4, |n| n.get())
        .min(16);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut cases: Vec<(usize, Case)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                // A roomy stack: the generator recurses over nested types and expressions.
                std::thread::Builder::new()
                    .stack_size(32 << 20)
                    .spawn_scoped(s, || {
                        let mut out = Vec::new();
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(p) = files.get(i) else { break };
                            let name = p.file_name().unwrap().to_string_lossy().into_owned();
                            let text = std::fs::read_to_string(p).unwrap();
                            let outcome = compile(p);
                            out.push((
                                i,
                                Case {
                                    name,
                                    text,
                                    outcome,
                                },
                            ));
                        }
                        out
                    })
                    .unwrap()
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    cases.sort_by_key(|(i, _)| *i);
    cases.into_iter().map(|(_, c)| c).collect()
}

/// A message with its particulars (quoted names and expressions, numbers) replaced, so that messages about the
/// same missing feature fall in one category. Positions and YAML paths are not part of `message`.
fn normalise(message: &str) -> String {
    let mut out = String::new();
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '`' | '"' => {
                // A quoted span: keep its shape (see `shape`). An apostrophe inside a word ("don't") is not a
                // quote.
                let prev_alnum = out.chars().last().is_some_and(|p| p.is_alphanumeric());
                if c == '\'' && prev_alnum {
                    out.push(c);
                    continue;
                }
                let rest: String = chars.clone().collect();
                if let Some(end) = rest.find(c) {
                    out.push(c);
                    out.push_str(&shape(&rest[..end]));
                    out.push(c);
                    for _ in 0..rest[..end].chars().count() + 1 {
                        chars.next();
                    }
                } else {
                    out.push(c);
                }
            }
            '0'..='9' => {
                while chars.peek().is_some_and(|d| d.is_ascii_alphanumeric()) {
                    chars.next();
                }
                if !out.ends_with('N') {
                    out.push('N');
                }
            }
            _ => out.push(c),
        }
    }
    // Collapse spaces.
    let out = out.split_whitespace().collect::<Vec<_>>().join(" ");
    out.trim_end_matches(['.', ' ']).to_string()
}

/// The shape of a quoted name or expression: names and numbers become `…`, except Kaitai's built-in type
/// words, which name a feature (`'bool'`, `'struct'`, `'…[]'`, `'.…'`).
fn shape(quoted: &str) -> String {
    const KEEP: &[&str] = &["bool", "struct", "io", "any", "bytes", "str", "strz"];
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if !word.is_empty() {
            if KEEP.contains(&word.as_str()) {
                out.push_str(word);
            } else if !out.ends_with('…') {
                out.push('…');
            }
            word.clear();
        }
    };
    for c in quoted.chars() {
        if c.is_alphanumeric() || c == '_' || c == '-' && !word.is_empty() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            if !c.is_whitespace() {
                out.push(c);
            }
        }
    }
    flush(&mut word, &mut out);
    // A dotted path is one name: `_parent.foo.size` → `…`.
    while out.contains("….…") {
        out = out.replace("….…", "…");
    }
    out
}

fn category(o: &Outcome) -> Option<String> {
    match o {
        Outcome::Accepted { .. } => None,
        Outcome::Rejected(d) => Some(d.first().map_or("(rejected without an error)".into(), |d| {
            normalise(&d.message)
        })),
        Outcome::Panicked(_) => Some(PANIC.to_string()),
    }
}

/// All distinct categories of a rejected schema's errors (to tell which missing feature is its only blocker).
fn all_categories(o: &Outcome) -> BTreeSet<String> {
    match o {
        Outcome::Accepted { .. } => BTreeSet::new(),
        Outcome::Rejected(d) => d.iter().map(|d| normalise(&d.message)).collect(),
        Outcome::Panicked(_) => [PANIC.to_string()].into(),
    }
}

/// The expectation in a `formats_err` file's leading comments: where (`/yaml/path` or `line:col`), whether an
/// error (rather than only warnings) is expected, and the first expected message.
struct Expected {
    place: Option<String>,
    error: bool,
    message: Option<String>,
}

fn expected(text: &str) -> Option<Expected> {
    let comments: Vec<&str> = text
        .lines()
        .take_while(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim())
        .collect();
    if comments.is_empty() {
        return None;
    }
    let mut e = Expected {
        place: None,
        error: false,
        message: None,
    };
    let mut warns = false;
    for (i, l) in comments.iter().enumerate() {
        if let Some(m) = l.strip_prefix("error:") {
            if !e.error {
                e.error = true;
                e.message = Some(m.trim().to_string());
                // The place is on the line above: `file.ksy: /seq/0/id:` or `file.ksy:6:8:`.
                e.place = i
                    .checked_sub(1)
                    .and_then(|j| comments[j].split_once(".ksy").map(|(_, p)| p))
                    .map(|p| {
                        p.trim_start_matches(':')
                            .trim()
                            .trim_end_matches(':')
                            .to_string()
                    });
            }
        } else if l.starts_with("warning:") {
            warns = true;
        }
    }
    if !e.error && !warns {
        return None;
    }
    Some(e)
}

/// Words of a message worth comparing: lowercase, at least 4 letters, not filler.
fn key_words(s: &str) -> BTreeSet<String> {
    const FILLER: &[&str] = &[
        "expected", "expect", "invalid", "error", "found", "with", "that", "this", "than", "from",
        "type", "have", "must", "should", "only", "used", "instead", "got",
    ];
    s.split(|c: char| !c.is_alphanumeric() && c != '_' && c != '-')
        .map(|w| w.to_lowercase())
        .filter(|w| w.len() >= 4 && !FILLER.contains(&w.as_str()))
        .collect()
}

/// Whether our diagnostic says loosely the same as Kaitai's: the same place (YAML path or line), and at least
/// one shared key word.
fn similar(e: &Expected, ours: &[Diagnostic]) -> (bool, bool) {
    let same_place = e.place.as_ref().is_some_and(|place| {
        ours.iter().any(|d| {
            if place.starts_with('/') {
                let p = place.trim_end_matches('/');
                d.yaml_path == p
                    || d.yaml_path.starts_with(&format!("{p}/"))
                    || p.starts_with(&d.yaml_path) && d.yaml_path != "/"
            } else {
                place.split(':').next().and_then(|l| l.parse().ok()) == Some(d.pos.line)
            }
        })
    });
    let same_words = e.message.as_ref().is_some_and(|m| {
        let want = key_words(m);
        ours.iter().any(|d| {
            let got = key_words(&format!(
                "{} {}",
                d.message,
                d.help.as_deref().unwrap_or("")
            ));
            !want.is_disjoint(&got)
        })
    });
    (same_place, same_words)
}

fn percent(n: usize, total: usize) -> f64 {
    if total == 0 {
        0.0
    } else {
        100.0 * n as f64 / total as f64
    }
}

fn one_line(s: &str, max: usize) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > max {
        format!("{}…", s.chars().take(max).collect::<String>())
    } else {
        s
    }
}

struct Baseline {
    accepted: usize,
    err_rejected: usize,
}

fn read_baseline(path: &Path) -> Baseline {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (create it with BINSPEC_UPDATE_KAITAI_BASELINE=1)",
            path.display()
        )
    });
    let get = |key: &str| -> usize {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(key)?.strip_prefix('='))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("{}: no `{key}=N` line", path.display()))
    };
    Baseline {
        accepted: get("accepted"),
        err_rejected: get("err_rejected"),
    }
}

#[test]
fn kaitai_conformance_suite_coverage() {
    let suite = repo().join("../shared/kaitai_struct_tests");
    let suite = suite.canonicalize().unwrap_or(suite);
    if !suite.join("formats").is_dir() {
        eprintln!(
            "skipped: Kaitai's conformance suite is not at {}",
            suite.display()
        );
        return;
    }
    let started = Instant::now();

    // Capture where each panic happened instead of printing it; restored before any assertion.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        let msg = panic_text(info.payload());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("{msg}{at}")));
    }));
    let formats = compile_dir(&suite.join("formats"));
    let errs = compile_dir(&suite.join("formats_err"));
    drop(std::panic::take_hook());
    std::panic::set_hook(default_hook);
    let compile_time = started.elapsed();

    let mut report = String::new();
    let r = &mut report;

    // 1. Valid schemas.
    let total = formats.len();
    let accepted = formats
        .iter()
        .filter(|c| matches!(c.outcome, Outcome::Accepted { .. }))
        .count();
    let mut cats: BTreeMap<String, Vec<&Case>> = BTreeMap::new();
    let mut sole: BTreeMap<String, usize> = BTreeMap::new();
    for c in &formats {
        if let Some(cat) = category(&c.outcome) {
            cats.entry(cat).or_default().push(c);
            let all = all_categories(&c.outcome);
            if all.len() == 1 {
                *sole.entry(all.into_iter().next().unwrap()).or_default() += 1;
            }
        }
    }
    let mut ranked: Vec<(&String, &Vec<&Case>)> = cats.iter().collect();
    ranked.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
    writeln!(r, "\n== Kaitai conformance suite: {} ==", suite.display()).unwrap();
    writeln!(
        r,
        "formats/: accepted {accepted}/{total} ({:.1}%), rejected {}, {} rejection categories",
        percent(accepted, total),
        total - accepted,
        cats.len()
    )
    .unwrap();
    writeln!(
        r,
        "{:>5} {:>5}  {:<70}  example",
        "first", "only", "category (first error, normalised)"
    )
    .unwrap();
    for (cat, cases) in ranked.iter().take(25) {
        writeln!(
            r,
            "{:>5} {:>5}  {:<70}  {}",
            cases.len(),
            sole.get(*cat).copied().unwrap_or(0),
            one_line(cat, 70),
            cases[0].name
        )
        .unwrap();
    }
    if ranked.len() > 25 {
        let rest: usize = ranked[25..].iter().map(|(_, c)| c.len()).sum();
        writeln!(
            r,
            "{rest:>5}        ({} more categories)",
            ranked.len() - 25
        )
        .unwrap();
    }
    writeln!(
        r,
        "(first: schemas whose first error is in the category; only: schemas whose every error is in it)"
    )
    .unwrap();
    let verbose = std::env::var_os("BINSPEC_KAITAI_VERBOSE").is_some();
    let mut err_details = String::new();
    if verbose {
        writeln!(r, "\n-- every rejected schema --").unwrap();
        for c in &formats {
            match &c.outcome {
                Outcome::Accepted { .. } => {}
                Outcome::Rejected(d) => {
                    writeln!(
                        r,
                        "{}: {}",
                        c.name,
                        d.first().map(|d| d.to_string()).unwrap_or_default()
                    )
                    .unwrap();
                    for d in d.iter().skip(1) {
                        writeln!(r, "    also: {d}").unwrap();
                    }
                }
                Outcome::Panicked(m) => writeln!(r, "{}: PANIC {m}", c.name).unwrap(),
            }
        }
    }

    // 2. Schemas that must be rejected.
    let imported: BTreeSet<String> = errs
        .iter()
        .flat_map(|c| {
            c.text
                .lines()
                .skip_while(|l| l.trim() != "imports:")
                .skip(1)
                .take_while(|l| l.trim_start().starts_with("- "))
                .map(|l| format!("{}.ksy", l.trim_start().trim_start_matches("- ").trim()))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut err_total = 0;
    let mut err_rejected = 0;
    let mut same_place = 0;
    let mut same_words = 0;
    let mut accepted_errs = Vec::new();
    let mut warn_total = 0;
    let mut warn_warned = 0;
    let mut warn_rejected = 0;
    let mut helpers = Vec::new();
    for c in &errs {
        let Some(e) = expected(&c.text) else {
            if imported.contains(&c.name) {
                helpers.push(c.name.as_str());
            } else {
                // No stated expectation and not a helper: still must be rejected.
                err_total += 1;
                match c.outcome {
                    Outcome::Rejected(_) => err_rejected += 1,
                    Outcome::Accepted { .. } => {
                        accepted_errs.push((c.name.as_str(), "(no expectation stated)".to_string()))
                    }
                    Outcome::Panicked(_) => {}
                }
            }
            continue;
        };
        if !e.error {
            warn_total += 1;
            match &c.outcome {
                Outcome::Accepted { warnings } if !warnings.is_empty() => warn_warned += 1,
                Outcome::Accepted { .. } => {}
                _ => warn_rejected += 1,
            }
            continue;
        }
        err_total += 1;
        match &c.outcome {
            Outcome::Accepted { .. } => {
                accepted_errs.push((c.name.as_str(), e.message.clone().unwrap_or_default()))
            }
            Outcome::Rejected(d) => {
                err_rejected += 1;
                let (p, w) = similar(&e, d);
                same_place += p as usize;
                same_words += w as usize;
                if verbose {
                    let _ = write!(
                        err_details,
                        "{} [place {} words {}]\n    kaitai: {} {}\n    ours:   {}\n",
                        c.name,
                        if p { "=" } else { "≠" },
                        if w { "=" } else { "≠" },
                        e.place.as_deref().unwrap_or("?"),
                        one_line(e.message.as_deref().unwrap_or(""), 120),
                        d.first()
                            .map(|d| one_line(&d.to_string(), 160))
                            .unwrap_or_default()
                    );
                }
            }
            // A panic is a bug, not a rejection.
            Outcome::Panicked(_) => {}
        }
    }
    writeln!(
        r,
        "\nformats_err/: rejected {err_rejected}/{err_total} ({:.1}%); of the rejections, {same_place} at the same \
         place (YAML path or line) and {same_words} sharing a key word with Kaitai's message",
        percent(err_rejected, err_total)
    )
    .unwrap();
    writeln!(
        r,
        "  warning-only expectations: {warn_total} ({warn_warned} accepted with a warning, {warn_rejected} rejected); \
         import helpers not counted: {}",
        helpers.join(", ")
    )
    .unwrap();
    if verbose {
        writeln!(
            r,
            "\n-- every rejected bad schema, Kaitai's message and ours --\n{err_details}"
        )
        .unwrap();
    }
    if !accepted_errs.is_empty() {
        writeln!(
            r,
            "  accepted though they must be rejected ({}){}",
            accepted_errs.len(),
            if verbose {
                ":"
            } else {
                " (BINSPEC_KAITAI_VERBOSE=1 for Kaitai's messages):"
            }
        )
        .unwrap();
        if verbose {
            for (name, want) in &accepted_errs {
                writeln!(r, "    {name}: expected {}", one_line(want, 100)).unwrap();
            }
        } else {
            let names: Vec<&str> = accepted_errs
                .iter()
                .map(|(n, _)| n.trim_end_matches(".ksy"))
                .collect();
            let mut line = String::from("   ");
            for n in names {
                if line.len() + n.len() > 110 {
                    writeln!(r, "{line}").unwrap();
                    line = String::from("   ");
                }
                line.push(' ');
                line.push_str(n);
            }
            writeln!(r, "{line}").unwrap();
        }
    }

    // Panics: bugs in the code generator.
    let panics: Vec<(&str, &str)> = formats
        .iter()
        .chain(&errs)
        .filter_map(|c| match &c.outcome {
            Outcome::Panicked(m) => Some((c.name.as_str(), m.as_str())),
            _ => None,
        })
        .collect();
    writeln!(r, "\nPANIC in the code generator: {}", panics.len()).unwrap();
    for (name, msg) in &panics {
        writeln!(r, "  {name}: {}", one_line(msg, 300)).unwrap();
    }
    writeln!(
        r,
        "\n{} schemas compiled in {:.2?}",
        formats.len() + errs.len(),
        compile_time
    )
    .unwrap();
    eprintln!("{report}");

    // 4. The ratchet.
    let baseline_path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("kaitai_suite_baseline.txt");
    if std::env::var("BINSPEC_UPDATE_KAITAI_BASELINE").as_deref() == Ok("1") {
        std::fs::write(
            &baseline_path,
            format!("accepted={accepted}\nerr_rejected={err_rejected}\n"),
        )
        .unwrap();
        eprintln!("wrote {}", baseline_path.display());
        return;
    }
    let base = read_baseline(&baseline_path);
    assert!(
        accepted >= base.accepted,
        "formats/: {accepted} schemas accepted, fewer than the baseline {} in {}",
        base.accepted,
        baseline_path.display()
    );
    assert!(
        err_rejected >= base.err_rejected,
        "formats_err/: {err_rejected} bad schemas rejected, fewer than the baseline {} in {}: a bad schema is now \
         accepted (or makes the generator panic); see the list above. A newly supported feature needs its checks \
         too (types of `if`, `size`, `repeat-until`, ...)",
        base.err_rejected,
        baseline_path.display()
    );
    if accepted > base.accepted || err_rejected > base.err_rejected {
        eprintln!(
            "coverage went up (baseline accepted={} err_rejected={}): raise it with \
             BINSPEC_UPDATE_KAITAI_BASELINE=1",
            base.accepted, base.err_rejected
        );
    }
}
