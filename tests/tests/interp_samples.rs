//! `--schema` on real files of Kaitai's gallery: the sample files of `kaitai-io/kaitai_struct_samples` (kept as
//! `CATEGORY/SPEC/FILE`, the spec's place in the gallery), read and written back by binspec-interp with the
//! gallery's spec. Neither repository is in this one: point the test at them with `BINSPEC_KAITAI_FORMATS=DIR` and
//! `BINSPEC_KAITAI_SAMPLES=DIR` (or put them at `../shared/kaitai_struct_formats` and
//! `../shared/kaitai_struct_samples`); without them it says so and passes.
//!
//! A ratchet: `tests/interp_samples_baseline.txt` lists each file's outcome (`identical`, or why not), and a file
//! that was identical must stay so. `tests/interp_samples_explained.txt` says, per spec, why its other files are
//! not (bytes the spec does not describe, zlib data compressed otherwise, ...): a new one needs a line there. Every
//! file must at least write back as bytes that read back as the same document. Refresh the baseline with
//! `BINSPEC_UPDATE_INTERP_SAMPLES=1 cargo test -p binspec-tests --test interp_samples -- --nocapture`.

use std::collections::BTreeMap;
use std::path::Path;

use binspec_interp::Schema;
use binspec_tests::{dir_of, kaitai_samples, repo};

const BASELINE: &str = "tests/interp_samples_baseline.txt";
const EXPLAINED: &str = "tests/interp_samples_explained.txt";

/// What becomes of one file: `identical`, or the first thing that went wrong.
fn outcome(spec: &Path, data: &[u8]) -> String {
    let schema = match Schema::load(spec) {
        Ok(s) => s,
        Err(e) => return format!("schema: {}", e.lines().next().unwrap_or("")),
    };
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let doc = match schema.decode(data) {
            Ok(d) => d,
            Err(e) => return format!("decode: {}", e.message),
        };
        match schema.encode(&doc) {
            Err(e) => format!("encode: {}", e.message),
            Ok(out) if out == data => "identical".into(),
            Ok(out) => {
                let at = out
                    .iter()
                    .zip(data)
                    .position(|(a, b)| a != b)
                    .unwrap_or(out.len().min(data.len()));
                // Whether what was written reads back as the same document (then the file holds bytes the spec
                // does not describe, or zlib data compressed otherwise).
                let same = schema.decode(&out).is_ok_and(|d| d == doc);
                format!(
                    "differs at {at:#x} ({} bytes read, {} written; {})",
                    data.len(),
                    out.len(),
                    if same {
                        "reads back the same"
                    } else {
                        "does NOT read back the same"
                    }
                )
            }
        }
    }));
    run.unwrap_or_else(|_| "PANIC".into())
}

#[test]
fn gallery_samples_round_trip() {
    let (Some(formats), Some(samples)) = (
        dir_of("BINSPEC_KAITAI_FORMATS", "../shared/kaitai_struct_formats"),
        dir_of("BINSPEC_KAITAI_SAMPLES", "../shared/kaitai_struct_samples"),
    ) else {
        println!(
            "skipped: Kaitai's gallery and its samples are not here; clone kaitai-io/kaitai_struct_formats and \
             kaitai-io/kaitai_struct_samples and set BINSPEC_KAITAI_FORMATS and BINSPEC_KAITAI_SAMPLES to them"
        );
        return;
    };
    let mut got: BTreeMap<String, String> = BTreeMap::new();
    for (rel, spec, f) in kaitai_samples(&formats, &samples) {
        let data = std::fs::read(&f).unwrap();
        got.insert(rel, outcome(&spec, &data));
    }
    let identical = got.values().filter(|o| *o == "identical").count();
    let mut report = format!(
        "{identical} of {} sample files read and write back byte for byte:\n",
        got.len()
    );
    for (f, o) in &got {
        report.push_str(&format!("  {f}: {o}\n"));
    }
    println!("{report}");
    let path = repo().join(BASELINE);
    if std::env::var_os("BINSPEC_UPDATE_INTERP_SAMPLES").is_some_and(|v| v == "1") {
        let text: String = got.iter().map(|(f, o)| format!("{f}\t{o}\n")).collect();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let base = std::fs::read_to_string(&path).unwrap_or_default();
    let lost: Vec<&str> = base
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .filter(|(f, o)| *o == "identical" && got.get(*f).is_some_and(|g| g != "identical"))
        .map(|(f, _)| f)
        .collect();
    assert!(lost.is_empty(), "no longer identical: {lost:?}\n{report}");
    // Every file decodes and encodes, and what is written reads back as the same document (issue 22: `--schema`
    // works on every gallery spec with a file).
    let broken: Vec<(&String, &String)> = got
        .iter()
        .filter(|(_, o)| *o != "identical" && !o.ends_with("; reads back the same)"))
        .collect();
    assert!(
        broken.is_empty(),
        "not written back, or not read back the same: {broken:#?}"
    );
    // Every spec with a file that does not write back identical says why; none that has no such file.
    let explained: BTreeMap<String, String> = std::fs::read_to_string(repo().join(EXPLAINED))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_once('\t'))
        .map(|(s, w)| (s.to_string(), w.to_string()))
        .collect();
    let spec_of = |f: &str| {
        f.rsplit_once('/')
            .map_or(f.to_string(), |(s, _)| s.to_string())
    };
    let unexplained: Vec<&String> = got
        .iter()
        .filter(|(f, o)| *o != "identical" && !explained.contains_key(&spec_of(f)))
        .map(|(f, _)| f)
        .collect();
    assert!(
        unexplained.is_empty(),
        "not identical, and not explained in {EXPLAINED}: {unexplained:?}"
    );
    let stale: Vec<&String> = explained
        .keys()
        .filter(|s| {
            !got.iter()
                .any(|(f, o)| spec_of(f) == **s && o != "identical")
        })
        .collect();
    assert!(
        stale.is_empty(),
        "explained in {EXPLAINED}, but every file of them is identical: {stale:?}"
    );
}
