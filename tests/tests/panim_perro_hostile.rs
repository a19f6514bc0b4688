//! Perro clips against a hostile user: `binspec track` ranges that print nothing, overflow or do not advance, and
//! input that would cost time or memory out of proportion to its size (values over many lines, long names, the
//! largest frame index, documents nested too deep, `track` over a large clip).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use binspec_formats::panim_perro::{Clip, Value};
use binspec_runtime::Format;
use binspec_tests::repo;

/// Generous: the linear versions take well under a second, the quadratic ones minutes.
const LIMIT: Duration = Duration::from_secs(20);

fn dir() -> PathBuf {
    repo().join("tests/fixtures/panim_perro")
}

/// `track` with a range that prints nothing, overflows or does not advance is refused (exit 2, one `error:` line
/// naming the option); every range it accepts prints at least one line, frames strictly increasing within it.
#[test]
fn track_refuses_ranges_it_cannot_step_through() {
    let p = dir().join("seed_door_open.panim");
    let p = p.to_str().unwrap();
    let track = |opts: &[&str]| {
        let mut args = vec!["track", p, "@Door.rotation_deg"];
        args.extend_from_slice(opts);
        binspec_tests::run(&args)
    };
    for (opts, names) in [
        (&["--step", "1e-300"][..], "--step"),
        (&["--to", "1e300"], "--to"),
        (&["--from", "-1e300"], "--from"),
        (&["--from", "-1e308", "--to", "1e308"], "--from"),
        (
            &["--from", "0", "--to", "1e308", "--step", "1e-308"],
            "--step",
        ),
        (&["--from", "1e17", "--to", "100000000000000016"], "--step"),
        (&["--from", "NaN"], "--from"),
        (&["--to", "inf"], "--to"),
        (&["--from", "-inf"], "--from"),
        (&["--step", "inf"], "--step"),
        (&["--step=-1"], "--step"),
        (&["--from", "5", "--to", "4"], "--to"),
    ] {
        let r = track(opts);
        assert_eq!(r.code, 2, "{opts:?}: {}{}", r.out, r.err);
        assert_eq!(r.out, "", "{opts:?}");
        assert!(
            r.err.starts_with("error: ") && r.err.lines().count() == 1,
            "{opts:?}: {}",
            r.err
        );
        assert!(r.err.contains(names), "{opts:?} names {names}: {}", r.err);
    }
    // Every other combination prints frames in order, from --from, none past --to.
    let values = [
        "-1e9",
        "-7",
        "0",
        "0.1",
        "0.3",
        "3",
        "20",
        "1e5",
        "4294967295",
        "1e15",
    ];
    let steps = ["1e-9", "0.1", "0.7", "1", "3", "1e6", "1e300"];
    let mut printed = 0;
    for from in values {
        for to in values {
            for step in steps {
                let r = track(&["--from", from, "--to", to, "--step", step]);
                if r.code == 2 {
                    assert!(
                        r.out.is_empty() && r.err.starts_with("error: "),
                        "{}",
                        r.err
                    );
                    continue;
                }
                assert_eq!(r.code, 0, "{from} {to} {step}: {}", r.err);
                let frames: Vec<f64> = r
                    .out
                    .lines()
                    .map(|l| l.split('\t').next().unwrap().parse().unwrap())
                    .collect();
                let (f, t): (f64, f64) = (from.parse().unwrap(), to.parse().unwrap());
                assert!(!frames.is_empty(), "{from} {to} {step}: nothing printed");
                assert_eq!(frames[0], f, "{from} {to} {step}");
                assert!(frames.windows(2).all(|w| w[0] < w[1]), "{from} {to} {step}");
                assert!(*frames.last().unwrap() <= t, "{from} {to} {step}");
                printed += 1;
            }
        }
    }
    assert!(printed > 50, "{printed}");
}

/// A value spread over 100,000 lines: each line used to rescan the whole value so far (quadratic time).
#[test]
fn a_value_over_many_lines_is_read_in_linear_time() {
    let n = 100_000;
    let long = format!(
        "[Frame0]\nemit_signal = {{ name = \"x\", params = [\n{}] }}\n[/Frame0]\n",
        "1,\n".repeat(n)
    );
    let t = Instant::now();
    let c = Clip::parse(&long).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.print(), long);
    let Some(Value::Array(params)) = c.events()[0].2.value.get("params") else {
        panic!()
    };
    assert_eq!(params.len(), n);
    assert!(t.elapsed() < LIMIT, "{:?}", t.elapsed());
    // Unclosed: the value runs to the end of the file, and the error says where it stopped.
    let t = Instant::now();
    let cut = &long[..long.len() - 30];
    let e = Clip::parse(cut).unwrap_err().to_string();
    assert!(e.starts_with(&format!("{}:", cut.lines().count())), "{e}");
    assert!(t.elapsed() < LIMIT, "{:?}", t.elapsed());
}

/// Long names that nearly match: the "did you mean" distance used a table of len(a) × len(b) cells (40,000² here,
/// 12 GB).
#[test]
fn long_names_get_no_costly_suggestion() {
    let name = "a".repeat(40_000);
    let text = format!(
        "[Objects]\n{name}b = Node3D\n[/Objects]\n\n[Frame0]\n@{name}c {{\n    visible = true\n}}\n[/Frame0]\n"
    );
    let t = Instant::now();
    let e = Clip::parse(&text).unwrap_err().to_string();
    assert!(
        e.starts_with("6:1: undeclared object `aaaa") && e.ends_with("ac = NodeType`"),
        "{}",
        &e[..200]
    );
    assert!(t.elapsed() < LIMIT, "{:?}", t.elapsed());
    // Short names still get their suggestion.
    let e = Clip::parse("[Objects]\nHero = Node3D\n[/Objects]\n[Frame0]\n@Heor {\n}\n[/Frame0]\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("(did you mean @Hero?)"), "{e}");
}

/// The largest frame index is a frame; `track` over the whole clip is refused (too many frames), not looped over.
#[test]
fn the_largest_frame_index_is_a_frame() {
    let big = "[Objects]\nA = Node2D\n[/Objects]\n[Frame0]\n@A {\n    z_index = 0\n}\n[/Frame0]\n\
               [Frame4294967295]\n@A {\n    z_index = 1\n}\n[/Frame4294967295]\n";
    let c = Clip::parse(big).unwrap();
    assert_eq!(c.settings().total_frames, 1 << 32);
    assert_eq!(
        c.sample("@A.z_index", 4294967295.0).unwrap(),
        Some(Value::Number(1.0))
    );
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("big.panim");
    std::fs::write(&p, big).unwrap();
    let r = binspec_tests::run(&["track", p.to_str().unwrap(), "@A.z_index"]);
    assert_eq!(r.code, 2, "{}", r.err);
    assert!(r.err.contains("4294967296 frames"), "{}", r.err);
}

/// A document nested deeper than the text allows is refused when it is written, with the text's error.
#[test]
fn a_document_nested_too_deep_is_refused_when_written() {
    let mut deep = "1".to_string();
    for _ in 0..100 {
        deep = format!("[{deep}]");
    }
    let json = format!(
        "{{\"items\": [{{\"frame\": {{\"index\": 0, \"entries\": [{{\"event\": {{\"kind\": \"emit_signal\", \
         \"value\": {{\"object\": {{\"name\": \"x\", \"params\": {deep}}}}}}}}}]}}}}]}}"
    );
    let c = Clip::from_json(&json).unwrap_or_else(|e| panic!("{e}"));
    let e = c.to_binary().unwrap_err().to_string();
    assert!(e.contains("nested more than 64"), "{e}");
}

/// `track` samples one track per frame, not every track of the clip per frame.
#[test]
fn track_over_a_large_clip_takes_time_in_proportion() {
    use std::fmt::Write as _;
    let mut text = String::from("[Objects]\nA = Node2D\n[/Objects]\n");
    for f in 0..20_000 {
        let _ = write!(
            text,
            "[Frame{f}]\n@A {{\n    z_index = {f}\n}}\n[/Frame{f}]\n"
        );
    }
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("large.panim");
    std::fs::write(&p, &text).unwrap();
    let t = Instant::now();
    let r = binspec_tests::run(&["track", p.to_str().unwrap(), "@A.z_index", "--to", "4000"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.out.lines().count(), 4001);
    assert!(r.out.ends_with("4000\t4000\n"));
    assert!(t.elapsed() < LIMIT, "{:?}", t.elapsed());
}
