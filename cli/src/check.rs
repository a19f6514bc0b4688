//! `binspec check PATH...`: read every file, write it back, compare the bytes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use binspec_runtime::compress::{self, Compression};
use binspec_runtime::DynFormat;

use crate::{files, formats, CliError, Ctx};

/// What became of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Identical,
    /// The first offset where the bytes differ, and the sizes (original, written back).
    Differ {
        offset: u64,
        original: u64,
        written: u64,
    },
    Failed(String),
    Skipped,
}

/// One file's result.
#[derive(Debug, Clone)]
pub struct FileResult {
    pub path: PathBuf,
    pub format: Option<&'static str>,
    pub outcome: Outcome,
    /// Decompressed size.
    pub bytes: u64,
    pub time: Duration,
}

/// A file to check, and whether it was named on the command line.
struct Job {
    path: PathBuf,
    explicit: bool,
    /// A folder that could not be read.
    walk_error: Option<String>,
}

/// The first offset where two byte strings differ, if they do.
pub fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    if a == b {
        return None;
    }
    Some(
        a.iter()
            .zip(b)
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len())),
    )
}

/// How many bytes of a compressed file are decompressed to tell its format.
const SNIFF_BYTES: usize = 4096;

/// The most bytes of decompressed files that the threads of one `check` hold at once (a single larger file still
/// goes, alone).
pub const IN_FLIGHT: u64 = 512 << 20;

/// Bytes of decompressed files held by the threads of `check`, so that their total stays under [`IN_FLIGHT`].
struct InFlight {
    used: std::sync::Mutex<u64>,
    freed: std::sync::Condvar,
}

static HELD: InFlight = InFlight {
    used: std::sync::Mutex::new(0),
    freed: std::sync::Condvar::new(),
};

impl InFlight {
    /// Waits until `n` more bytes fit under [`IN_FLIGHT`] (or nothing else is held), then holds them.
    fn hold(&'static self, n: u64) -> Held {
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        while *used > 0 && used.saturating_add(n) > IN_FLIGHT {
            used = self.freed.wait(used).unwrap_or_else(|e| e.into_inner());
        }
        *used += n;
        Held(self, n)
    }
}

/// Bytes held until dropped.
struct Held(&'static InFlight, u64);

impl Drop for Held {
    fn drop(&mut self) {
        let mut used = self.0.used.lock().unwrap_or_else(|e| e.into_inner());
        *used -= self.1;
        self.0.freed.notify_all();
    }
}

/// Checks one file, with the default size limits.
pub fn check_file(
    registry: crate::Registry<'_>,
    forced: Option<&'static dyn DynFormat>,
    path: &Path,
    explicit: bool,
) -> FileResult {
    check_file_limited(registry, forced, path, explicit, files::Limits::default())
}

/// Checks one file. A compressed file's format is told from the first bytes it decompresses to, so that a folder's
/// compressed files of no known format are never decompressed whole.
pub fn check_file_limited(
    registry: crate::Registry<'_>,
    forced: Option<&'static dyn DynFormat>,
    path: &Path,
    explicit: bool,
    limits: files::Limits,
) -> FileResult {
    let start = Instant::now();
    let mut r = FileResult {
        path: path.to_path_buf(),
        format: None,
        outcome: Outcome::Skipped,
        bytes: 0,
        time: Duration::ZERO,
    };
    r.outcome = (|| {
        let raw = match files::read_limited(path, limits) {
            Ok(raw) => raw,
            Err(e) => return Outcome::Failed(strip_path(e, path)),
        };
        let head = match compress::decompress_prefix(&raw, SNIFF_BYTES) {
            Ok(head) => head,
            Err(e) => return Outcome::Failed(e.to_string()),
        };
        let f = match forced {
            Some(f) if explicit || f.sniff(&head) || has_extension_of(f, path) => f,
            Some(_) => return Outcome::Skipped,
            None => match formats::sniff(registry, &head) {
                Some(f) => f,
                None if explicit => {
                    return Outcome::Failed(format!(
                        "not a known format (starts with {}); pass --format ID to choose one",
                        formats::describe_magic(&head)
                    ))
                }
                None => return Outcome::Skipped,
            },
        };
        r.format = Some(f.id());
        let _held = HELD.hold(match compress::detect(&raw) {
            Compression::None => raw.len() as u64,
            _ => limits.decompressed_limit(raw.len()),
        });
        let input = match files::decompress_limited(path, raw, limits) {
            Ok(i) => i,
            Err(e) => return Outcome::Failed(strip_path(e, path)),
        };
        r.bytes = input.data.len() as u64;
        let written =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f.roundtrip(&input.data)));
        match written {
            Err(p) => {
                let msg = p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Outcome::Failed(format!(
                    "the {} reader or writer panicked (a bug in binspec): {msg}",
                    f.id()
                ))
            }
            Ok(Err(e)) => Outcome::Failed(e.to_string()),
            Ok(Ok(w)) => match first_difference(&input.data, &w) {
                None => Outcome::Identical,
                Some(o) => Outcome::Differ {
                    offset: o as u64,
                    original: input.data.len() as u64,
                    written: w.len() as u64,
                },
            },
        }
    })();
    r.time = start.elapsed();
    r
}

/// Whether the file's name ends in one of the format's extensions (past a compression extension: `x.rstb.zs`).
fn has_extension_of(f: &'static dyn DynFormat, path: &Path) -> bool {
    formats::by_extension(&[f], path).is_some()
}

/// `load` errors start with the path; the FAIL line already has it.
fn strip_path(e: CliError, path: &Path) -> String {
    let msg = e.to_string();
    let prefix = format!("{}: ", path.display());
    msg.strip_prefix(&prefix).map(str::to_string).unwrap_or(msg)
}

/// Totals for one row of the summary.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Tally {
    pub files: usize,
    pub identical: usize,
    pub differ: usize,
    pub failed: usize,
    pub skipped: usize,
    pub bytes: u64,
    pub time: Duration,
}

impl Tally {
    fn add(&mut self, r: &FileResult) {
        self.files += 1;
        match r.outcome {
            Outcome::Identical => self.identical += 1,
            Outcome::Differ { .. } => self.differ += 1,
            Outcome::Failed(_) => self.failed += 1,
            Outcome::Skipped => self.skipped += 1,
        }
        if r.outcome != Outcome::Skipped {
            self.bytes += r.bytes;
            self.time += r.time;
        }
    }
}

/// The summary: one row per format (`(unknown)` for files of no format), then the total.
pub fn summarize(results: &[FileResult]) -> (BTreeMap<String, Tally>, Tally) {
    let mut rows: BTreeMap<String, Tally> = BTreeMap::new();
    let mut total = Tally::default();
    for r in results {
        rows.entry(r.format.unwrap_or("(unknown)").to_string())
            .or_default()
            .add(r);
        total.add(r);
    }
    (rows, total)
}

fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

fn mb_per_s(bytes: u64, t: Duration) -> String {
    let s = t.as_secs_f64();
    if bytes == 0 || s <= 0.0 {
        "-".into()
    } else {
        format!("{:.1}", bytes as f64 / 1e6 / s)
    }
}

/// The lines printed for differing and failed files (sorted by path).
pub fn problem_lines(results: &[FileResult]) -> Vec<String> {
    let mut lines = Vec::new();
    for r in results {
        match &r.outcome {
            Outcome::Differ { offset, original, written } => lines.push(format!(
                "DIFF {}: first difference at offset {offset:#x} (sizes {original:#x} vs {written:#x})",
                r.path.display()
            )),
            Outcome::Failed(e) => {
                // A text format's `LINE:COLUMN: what` joins the path as `path:LINE:COLUMN: what`.
                let sep = if crate::error::starts_with_line_col(e) { ":" } else { ": " };
                lines.push(format!("FAIL {}{sep}{e}", r.path.display()))
            }
            _ => {}
        }
    }
    lines
}

/// The summary table.
pub fn table(results: &[FileResult], wall: Duration) -> String {
    let (rows, total) = summarize(results);
    let mut s = format!(
        "{:<14} {:>7} {:>9} {:>7} {:>7} {:>8} {:>11} {:>8}\n",
        "format", "files", "identical", "differ", "failed", "skipped", "bytes", "MB/s"
    );
    let row = |name: &str, t: &Tally, time: Duration| {
        format!(
            "{:<14} {:>7} {:>9} {:>7} {:>7} {:>8} {:>11} {:>8}\n",
            name,
            t.files,
            t.identical,
            t.differ,
            t.failed,
            t.skipped,
            human_bytes(t.bytes),
            mb_per_s(t.bytes, time)
        )
    };
    for (name, t) in &rows {
        s.push_str(&row(name, t, t.time));
    }
    s.push_str(&row("total", &total, wall));
    s.push_str(&format!(
        "(MB/s: per format, for one thread reading, writing back and comparing; total, over the {:.2} s the check \
         took on {} threads)\n",
        wall.as_secs_f64(),
        rayon::current_num_threads()
    ));
    s
}

/// `binspec check PATH...`.
pub fn check(ctx: &mut Ctx<'_>, paths: &[PathBuf]) -> Result<(), CliError> {
    let forced = ctx
        .format
        .as_deref()
        .map(|id| formats::by_id(ctx.registry, id))
        .transpose()?;
    let start = Instant::now();

    let mut jobs = Vec::new();
    for p in paths {
        if p.is_dir() {
            match files::walk(p) {
                Ok(list) => jobs.extend(list.into_iter().map(|path| Job {
                    path,
                    explicit: false,
                    walk_error: None,
                })),
                Err(e) => jobs.push(Job {
                    path: p.clone(),
                    explicit: true,
                    walk_error: Some(format!("cannot read the folder: {e}")),
                }),
            }
        } else {
            jobs.push(Job {
                path: p.clone(),
                explicit: true,
                walk_error: None,
            });
        }
    }

    let bar = if ctx.progress {
        let b = ProgressBar::new(jobs.len() as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} files, {elapsed} {msg}")
        {
            b.set_style(style);
        }
        b
    } else {
        ProgressBar::hidden()
    };
    let problems = AtomicUsize::new(0);
    let registry = ctx.registry;
    let limits = ctx.limits;
    let mut results: Vec<FileResult> = jobs
        .par_iter()
        .map(|job| {
            let r = match &job.walk_error {
                Some(e) => FileResult {
                    path: job.path.clone(),
                    format: None,
                    outcome: Outcome::Failed(e.clone()),
                    bytes: 0,
                    time: Duration::ZERO,
                },
                None => check_file_limited(registry, forced, &job.path, job.explicit, limits),
            };
            if matches!(r.outcome, Outcome::Differ { .. } | Outcome::Failed(_)) {
                let n = problems.fetch_add(1, Ordering::Relaxed) + 1;
                bar.set_message(format!("({n} differ or failed)"));
            }
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();
    results.sort_by(|a, b| a.path.cmp(&b.path));
    let wall = start.elapsed();

    let mut text = String::new();
    for l in problem_lines(&results) {
        text.push_str(&l);
        text.push('\n');
    }
    text.push_str(&table(&results, wall));
    ctx.out.write_all(text.as_bytes()).map_err(CliError::out)?;

    let (_, total) = summarize(&results);
    if total.differ + total.failed > 0 {
        return Err(CliError::Fail(format!(
            "{} of {} files differ and {} failed",
            total.differ,
            total.files - total.skipped,
            total.failed
        )));
    }
    Ok(())
}
