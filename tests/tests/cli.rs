//! The CLI's commands with the real formats (`binspec_formats::registry()`), run in-process through
//! `binspec_cli::run_from`. Tests of the built binary itself live in `cli/tests/binary.rs`, where cargo provides
//! its path.

use std::path::{Path, PathBuf};

use binspec_tests::run;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

fn has_format(id: &str) -> bool {
    binspec_formats::registry().iter().any(|f| f.id() == id)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn usage_error_exits_2() {
    let r = run(&["no-such-command"]);
    assert_eq!(r.code, 2);
    assert!(r.err.starts_with("error: "), "{}", r.err);
    assert_eq!(run(&["check"]).code, 2);
    assert_eq!(run(&["info", "--format", "no-such-format", "x"]).code, 2);
}

#[test]
fn unknown_file_exits_1() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("junk.bin");
    std::fs::write(&f, b"\0\0\0\0 not a game file").unwrap();
    for cmd in ["info", "decode", "check"] {
        let r = run(&[cmd, s(&f)]);
        assert_eq!(r.code, 1, "{cmd}");
        assert!(r.err.starts_with("error: "), "{cmd}: {}", r.err);
    }
    let r = run(&["info", s(&d.path().join("missing"))]);
    assert_eq!(r.code, 1);
    assert!(r.err.starts_with("error: "), "{}", r.err);
}

#[test]
fn check_on_an_empty_folder_exits_0() {
    let d = tempfile::tempdir().unwrap();
    let r = run(&["check", s(d.path())]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.lines().any(|l| l.starts_with("total")), "{}", r.out);
}

/// `info` on a Yaz0-compressed fixture, and `extract` + `pack` + `extract` giving back the same files.
#[test]
fn sarc_info_extract_and_pack() {
    let ssarc = fixtures().join("sarc/oead_le_new_min4.ssarc");
    let sarc = fixtures().join("sarc/oead_le_new_min4.sarc");
    if !has_format("sarc") || !ssarc.exists() || !sarc.exists() {
        return;
    }
    let r = run(&["info", s(&ssarc)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.starts_with("sarc: "), "{}", r.out);
    assert!(r.out.contains("compression: yaz0"), "{}", r.out);

    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("x");
    let r = run(&["extract", s(&ssarc), "-o", s(&dir)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let settings = std::fs::read_to_string(dir.join(".binspec-archive.yaml")).unwrap();
    assert!(settings.starts_with("# binspec: sarc\n"), "{settings}");
    let out = d.path().join("out.sarc");
    let r = run(&["pack", s(&dir), "-o", s(&out), "--compress", "yaz0"]);
    assert_eq!(r.code, 0, "{}", r.err);
    let dir2 = d.path().join("y");
    let r = run(&["extract", s(&out), "-o", s(&dir2)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let files = |dir: &Path| -> Vec<(String, Vec<u8>)> {
        let mut v = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(p) = stack.pop() {
            for e in std::fs::read_dir(&p).unwrap() {
                let e = e.unwrap().path();
                if e.is_dir() {
                    stack.push(e);
                } else if !e.ends_with(".binspec-archive.yaml") {
                    let name = e
                        .strip_prefix(dir)
                        .unwrap()
                        .to_str()
                        .unwrap()
                        .replace('\\', "/");
                    v.push((name, std::fs::read(&e).unwrap()));
                }
            }
        }
        v.sort();
        v
    };
    let (a, b) = (files(&dir), files(&dir2));
    assert!(
        a.len() == 12 && a.iter().map(|f| &f.0).eq(b.iter().map(|f| &f.0)),
        "{a:?}\n{b:?}"
    );
    assert!(a == b, "the files differ after extract, pack, extract");
    let _ = sarc;
}

/// `extract` keeps each file's layout choices in the settings document, so `pack` of an unchanged folder gives
/// the original bytes back, for every uncompressed SARC fixture.
#[test]
fn extract_then_pack_is_byte_identical() {
    let mut n = 0;
    for e in std::fs::read_dir(fixtures().join("sarc"))
        .unwrap()
        .flatten()
    {
        let p = e.path();
        if p.extension().and_then(|x| x.to_str()) != Some("sarc") {
            continue;
        }
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("x");
        let r = run(&["extract", s(&p), "-o", s(&dir)]);
        assert_eq!(r.code, 0, "{}: {}", p.display(), r.err);
        let out = d.path().join("out.sarc");
        let r = run(&["pack", s(&dir), "-o", s(&out)]);
        assert_eq!(r.code, 0, "{}: {}", p.display(), r.err);
        assert!(
            std::fs::read(&out).unwrap() == std::fs::read(&p).unwrap(),
            "{}: pack gave other bytes",
            p.display()
        );
        n += 1;
    }
    assert!(n >= 20, "only {n} fixtures");
}

/// `pack` and `encode` write the archive as it is made (its files streamed from the model): to standard output
/// the same bytes as to a file, and a model that cannot be written (an alignment over the 1 MiB limit) leaves the
/// existing output as it was, with no temporary file beside it.
#[test]
fn pack_and_encode_stream_and_leave_nothing_half_written() {
    let p = fixtures().join("sarc/oead_be_legacy_min80.sarc");
    let original = std::fs::read(&p).unwrap();
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("x");
    assert_eq!(run(&["extract", s(&p), "-o", s(&dir)]).code, 0);
    let r = run(&["pack", s(&dir), "-o", "-"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out_bytes == original,
        "pack to standard output gave other bytes"
    );

    let out = d.path().join("out.sarc");
    std::fs::write(&out, b"keep").unwrap();
    let settings = dir.join(".binspec-archive.yaml");
    let text = std::fs::read_to_string(&settings).unwrap();
    assert!(text.contains("data_align: 2048"), "{text}");
    std::fs::write(
        &settings,
        text.replace("data_align: 2048", "data_align: 4194304"),
    )
    .unwrap();
    let r = run(&["pack", s(&dir), "-o", s(&out)]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(r.err.contains("data_align"), "{}", r.err);
    assert_eq!(std::fs::read(&out).unwrap(), b"keep");
    let left: Vec<_> = std::fs::read_dir(d.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");

    // `encode` streams too: the same bytes as the original, and nothing written when the model fails.
    let doc = d.path().join("doc.yaml");
    assert_eq!(run(&["decode", s(&p), "-o", s(&doc)]).code, 0);
    let back = d.path().join("back.sarc");
    let r = run(&["encode", s(&doc), "-o", s(&back)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        std::fs::read(&back).unwrap() == original,
        "encode gave other bytes"
    );
    let text = std::fs::read_to_string(&doc).unwrap();
    std::fs::write(
        &doc,
        text.replace("data_align: 2048", "data_align: 4194304"),
    )
    .unwrap();
    let r = run(&["encode", s(&doc), "-o", s(&back)]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        std::fs::read(&back).unwrap() == original,
        "a failed encode changed the output"
    );
}

/// `binspec check` over the bundled fixtures and, when present, the shared corpus: every file identical.
#[test]
fn check_reports_identical_bytes() {
    let r = run(&["check", s(&fixtures())]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    if !corpus.exists() {
        eprintln!("skipped: ../shared/corpus is not present");
        return;
    }
    for sub in ["oracle/sarc", "oracle/restbl", "real/sarc", "real/restbl"] {
        let r = run(&["check", s(&corpus.join(sub))]);
        assert_eq!(r.code, 0, "{sub}: {}{}", r.out, r.err);
        assert!(
            !r.out.contains("DIFF") && !r.out.contains("FAIL"),
            "{sub}: {}",
            r.out
        );
    }
}

/// Truncated and corrupted files: exit status 1 and one `error:` line naming the field and offset, for every
/// command that reads them, never a panic.
#[test]
fn truncated_and_corrupted_files_exit_1() {
    let d = tempfile::tempdir().unwrap();
    let good = std::fs::read(fixtures().join("sarc/oead_le_new_min4.sarc")).unwrap();
    let mut cases = Vec::new();
    for cut in [7usize, 0x14, 0x30, good.len() / 2, good.len() - 1] {
        cases.push((format!("cut{cut}.sarc"), good[..cut].to_vec()));
    }
    let mut bad_end = good.clone();
    // Entry 3's data_end, far past the end of the file.
    let at = 0x14 + 0xc + 3 * 0x10 + 0xc;
    bad_end[at..at + 4].copy_from_slice(&0x1f40u32.to_le_bytes());
    cases.push(("bad_end.sarc".into(), bad_end));
    for (name, bytes) in cases {
        let f = d.path().join(&name);
        std::fs::write(&f, &bytes).unwrap();
        for cmd in ["info", "decode", "check"] {
            let r = run(&[cmd, s(&f)]);
            assert_eq!(r.code, 1, "{cmd} {name}: {}{}", r.out, r.err);
            assert!(
                r.err.lines().any(|l| l.starts_with("error: ")),
                "{cmd} {name}: {}",
                r.err
            );
            // `check` reports each file on a FAIL line; the others say it in the error line.
            let line = if cmd == "check" {
                r.out
                    .lines()
                    .find(|l| l.starts_with("FAIL "))
                    .unwrap_or_default()
            } else {
                r.err
                    .lines()
                    .find(|l| l.starts_with("error: "))
                    .unwrap_or_default()
            };
            assert!(
                line.contains("sarc") && line.contains("offset 0x"),
                "{cmd} {name}: {}{}",
                r.out,
                r.err
            );
        }
    }
    let r = run(&["info", s(&d.path().join("bad_end.sarc"))]);
    assert!(r.err.contains("sarc.sfat.entries[3].data"), "{}", r.err);
}

/// `binspec gen` prints what `formats/build.rs` compiles (the codegen's output, `@generated` header first), writes
/// it with `-o`, and refuses a bad schema with its file:line:column message and exit status 1.
#[test]
fn gen_prints_the_generated_rust() {
    let repo = binspec_tests::repo();
    let schema = repo.join("schemas/sarc.ksy");
    let expected = binspec_codegen::compile_file(&schema).unwrap().rust;
    let r = run(&["gen", s(&schema)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.out, expected);
    assert!(r.out.contains("@generated"), "{}", &r.out[..200]);

    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("sarc.rs");
    let r = run(&["gen", s(&schema), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.out, "");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), expected);

    // An imported schema is found beside the importing one.
    let r = run(&["gen", s(&repo.join("schemas/ainb.ksy"))]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.contains("CommandInfoEntry"),
        "EXB types are generated into AINB's module"
    );

    let r = run(&["gen", s(&repo.join("tests/bad_schemas/bad_name.ksy"))]);
    assert_eq!(r.code, 1);
    assert!(
        r.err
            .contains("bad_name.ksy:5:9: error: /seq/0/id: invalid name 'FileCount'"),
        "{}",
        r.err
    );
}
