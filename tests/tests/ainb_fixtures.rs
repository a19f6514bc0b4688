//! The AINB fixtures in `tests/fixtures/ainb` are what `scripts/oracle/make_ainb.py` writes with the `ainb`
//! package today (skipped with a message when the oracle venv cannot be set up).

use binspec_tests::{oracle_python, repo};

#[test]
fn the_ainb_fixtures_are_what_the_ainb_package_writes() {
    let py = match oracle_python() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let out = std::process::Command::new(py)
        .arg(repo().join("scripts/oracle/make_ainb.py"))
        .arg(repo().join("tests/fixtures/ainb"))
        .arg("--check")
        .output()
        .expect("run make_ainb.py");
    assert!(
        out.status.success(),
        "make_ainb.py --check failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("12 files match a fresh run"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
