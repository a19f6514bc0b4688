//! The built `binspec` binary, run as a user runs it (with the formats compiled into `binspec_formats`).

use std::process::{Command, Output};

fn binspec(args: &[&str], cwd: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_binspec"))
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn usage_errors_exit_2() {
    let d = tempfile::tempdir().unwrap();
    for args in [
        &["frobnicate"][..],
        &["decode"],
        &["check"],
        &["encode", "x.yaml"],
        &["info", "--nope", "x"],
    ] {
        let o = binspec(args, d.path());
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            text(&o.stderr).starts_with("error: "),
            "{args:?}: {}",
            text(&o.stderr)
        );
        assert!(o.stdout.is_empty());
    }
    let o = binspec(&["info", "--format", "no-such-format", "x"], d.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).starts_with("error: unknown format `no-such-format`"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn help_and_version_exit_0() {
    let d = tempfile::tempdir().unwrap();
    let o = binspec(&["--help"], d.path());
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stdout).contains("check"));
    let o = binspec(&["--version"], d.path());
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stdout).starts_with("binspec "));
    assert_eq!(binspec(&["formats"], d.path()).status.code(), Some(0));
}

#[test]
fn unknown_files_exit_1() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("junk.bin"),
        b"\x00\x01 definitely not a game file",
    )
    .unwrap();
    for cmd in ["info", "decode", "check"] {
        let o = binspec(&[cmd, "junk.bin"], d.path());
        assert_eq!(o.status.code(), Some(1), "{cmd}");
        let err = text(&o.stderr);
        assert!(err.starts_with("error: "), "{cmd}: {err}");
        assert!(
            err.lines().all(|l| l.starts_with("error: ")),
            "{cmd}: {err}"
        );
    }
    let o = binspec(&["info", "missing.sarc"], d.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).starts_with("error: missing.sarc: "),
        "{}",
        text(&o.stderr)
    );
    // A failed encode leaves nothing behind.
    std::fs::write(
        d.path().join("doc.yaml"),
        "# binspec: no-such-format\nx: 1\n",
    )
    .unwrap();
    let o = binspec(&["encode", "doc.yaml", "-o", "out.bin"], d.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(!d.path().join("out.bin").exists());
}

#[test]
fn check_on_an_empty_folder_exits_0() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir(d.path().join("empty")).unwrap();
    let o = binspec(&["check", "empty"], d.path());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).lines().any(|l| l.starts_with("total")),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn no_arguments_checks_the_fixtures() {
    // From a folder with tests/fixtures, that folder is checked.
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join("tests/fixtures")).unwrap();
    let o = binspec(&[], d.path());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.starts_with("checking the bundled fixtures in tests/fixtures"),
        "{out}"
    );
}

/// The bundled SARC fixture, when this binspec has the format.
fn sarc_fixture() -> Option<std::path::PathBuf> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/sarc/oead_le_new_min4.sarc");
    let d = tempfile::tempdir().unwrap();
    let formats = binspec(&["formats"], d.path());
    (p.exists()
        && text(&formats.stdout)
            .lines()
            .any(|l| l.starts_with("sarc ")))
    .then_some(p)
}

/// `-o -` writes to standard output, for decode, encode and pack; no file named `-` is made.
#[test]
fn dash_output_is_standard_output() {
    let Some(sarc) = sarc_fixture() else { return };
    let d = tempfile::tempdir().unwrap();
    let sarc = sarc.to_str().unwrap();
    let o = binspec(&["decode", sarc, "-o", "doc.yaml"], d.path());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let doc = std::fs::read(d.path().join("doc.yaml")).unwrap();
    let o = binspec(&["decode", sarc, "-o", "-"], d.path());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(o.stdout == doc);
    let o = binspec(&["encode", "doc.yaml", "-o", "-"], d.path());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(o.stdout == std::fs::read(sarc).unwrap());
    let o = binspec(&["extract", sarc, "-o", "x"], d.path());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = binspec(&["pack", "x", "-o", "-"], d.path());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(o.stdout == std::fs::read(sarc).unwrap());
    assert!(!d.path().join("-").exists());
}

/// `-o /dev/stdout` writes into the pipe the binary's standard output is, and leaves the link alone.
#[cfg(target_os = "linux")]
#[test]
fn dev_stdout_is_written_in_place() {
    let Some(sarc) = sarc_fixture() else { return };
    let d = tempfile::tempdir().unwrap();
    let before = std::fs::read_link("/dev/stdout").ok();
    let o = binspec(
        &["decode", sarc.to_str().unwrap(), "-o", "/dev/stdout"],
        d.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).starts_with("# binspec: sarc\n"),
        "{}",
        text(&o.stdout)
    );
    assert_eq!(std::fs::read_link("/dev/stdout").ok(), before);
}
