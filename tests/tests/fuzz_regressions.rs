//! Every input in `tests/fuzz_regressions/TARGET/` goes through the check of its fuzz target (see
//! `tests/fuzz_regressions/README.md`): `decode_*` must not panic, `round_trip_*` must keep the value and the bytes
//! through decode, encode, decode (`binspec_runtime::format::check_value_round_trip`).

use std::path::Path;

use binspec_formats::{
    ainb, bfres, bntx, byml, panim_perro, panim_pluto, rsizetable, sarc, Format,
};
use binspec_runtime::format::check_value_round_trip;
use binspec_tests::{files_under, repo};

/// What the fuzz targets do (`fuzz/` is not a member of the workspace; its checks need only the formats). Its
/// `round_trip` panics, so the round trips here use the runtime's check, which returns the difference.
#[path = "../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod fuzz_checks;

fn check(target: &str, data: &[u8]) -> Result<(), String> {
    fn rt<F: Format + PartialEq + std::fmt::Debug>(data: &[u8]) -> Result<(), String> {
        check_value_round_trip::<F>(data).map(|_| ())
    }
    fn dec<F: Format>(data: &[u8]) -> Result<(), String> {
        fuzz_checks::decode::<F>(data);
        Ok(())
    }
    match target {
        "round_trip_sarc" => rt::<sarc::Sarc>(data),
        "round_trip_rsizetable" => rt::<rsizetable::Rsizetable>(data),
        "round_trip_byml" => rt::<byml::Document>(data),
        "round_trip_panim_pluto" => rt::<panim_pluto::PanimPluto>(data),
        "round_trip_panim_perro" => rt::<panim_perro::Clip>(data),
        "round_trip_panim_pretarget" => rt::<panim_perro::Retarget>(data),
        "round_trip_ainb" => rt::<ainb::Document>(data),
        "round_trip_bntx" => rt::<bntx::Bntx>(data),
        "round_trip_bfres" => rt::<bfres::Bfres>(data),
        "decode_sarc" => {
            if let Ok(v) = sarc::Sarc::view_files(data) {
                let _ = v.count();
            }
            dec::<sarc::Sarc>(data)
        }
        "decode_rsizetable" => dec::<rsizetable::Rsizetable>(data),
        "decode_byml" => dec::<byml::Document>(data),
        "decode_panim_pluto" => dec::<panim_pluto::PanimPluto>(data),
        "decode_panim_perro" => dec::<panim_perro::Clip>(data),
        "decode_panim_pretarget" => dec::<panim_perro::Retarget>(data),
        "decode_ainb" => dec::<ainb::Document>(data),
        // (The fuzz targets' own checks: the model, then what a user reads of it next.)
        "decode_bntx" => {
            fuzz_checks::decode_bntx(data);
            Ok(())
        }
        "decode_bfres" => {
            fuzz_checks::decode_bfres(data);
            Ok(())
        }
        other => Err(format!("unknown fuzz target {other}")),
    }
}

#[test]
fn every_fuzz_regression_passes_its_target() {
    let dir = repo().join("tests/fuzz_regressions");
    let mut n = 0;
    let mut failures = Vec::new();
    for f in files_under(&dir) {
        let Some(target) = f
            .parent()
            .and_then(Path::file_name)
            .and_then(|t| t.to_str())
        else {
            continue;
        };
        if f.file_name().is_some_and(|n| n == "README.md") || f.starts_with(dir.join("open")) {
            continue;
        }
        let data = std::fs::read(&f).unwrap();
        if let Err(e) = check(target, &data) {
            failures.push(format!("{}: {e}", f.display()));
        }
        n += 1;
    }
    assert!(n >= 3, "only {n} regression inputs in {}", dir.display());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Inputs a target still fails on (`tests/fuzz_regressions/open/`, each explained in the README): each must still
/// fail, so that a fix is noticed and the input moves to the passing set.
#[test]
fn open_fuzz_findings_still_fail() {
    let dir = repo().join("tests/fuzz_regressions/open");
    for f in files_under(&dir) {
        let target = f
            .parent()
            .and_then(Path::file_name)
            .and_then(|t| t.to_str())
            .unwrap();
        let data = std::fs::read(&f).unwrap();
        assert!(
            check(target, &data).is_err(),
            "{} passes its target now: move it out of open/ and update the README",
            f.display()
        );
    }
}
