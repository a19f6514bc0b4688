//! insta snapshots of the generated code and of decoded documents. Review a changed snapshot before accepting it
//! (`cargo insta review`, or `INSTA_UPDATE=always` then read the diff).

use binspec_runtime::Format;

use binspec_tests::{files_under, repo};

#[test]
fn generated_code() {
    for id in ["sarc", "rsizetable", "panim_pluto"] {
        let c = binspec_codegen::compile_file(&repo().join(format!("schemas/{id}.ksy")))
            .unwrap_or_else(|d| panic!("{id}: {d:?}"));
        insta::assert_snapshot!(format!("generated_{id}"), c.rust);
    }
}

#[test]
fn generation_is_deterministic() {
    for id in ["sarc", "rsizetable", "panim_pluto"] {
        let p = repo().join(format!("schemas/{id}.ksy"));
        let a = binspec_codegen::compile_file(&p).unwrap().rust;
        let b = binspec_codegen::compile_file(&p).unwrap().rust;
        assert_eq!(a, b, "{id}: two generations differ");
    }
}

#[test]
fn decoded_documents() {
    let cases = [
        ("sarc", "sarc/oead_be_utf8names.sarc"),
        ("sarc", "sarc/oead_le_nested_new.sarc"),
        ("rsizetable", "rsizetable/rstb_be.rsizetable"),
        ("rsizetable", "rsizetable/restbl_names.rsizetable"),
        ("rsizetable", "rsizetable/headerless_le.rsizetable"),
        ("panim_pluto", "panim_pluto/pluto_squash_scales_only.panim"),
    ];
    for (id, file) in cases {
        let data = std::fs::read(repo().join("tests/fixtures").join(file)).unwrap();
        let yaml = match id {
            "sarc" => binspec_formats::sarc::Sarc::from_binary(&data)
                .unwrap()
                .to_text()
                .unwrap(),
            "panim_pluto" => binspec_formats::panim_pluto::PanimPluto::from_binary(&data)
                .unwrap()
                .to_text()
                .unwrap(),
            _ => binspec_formats::rsizetable::Rsizetable::from_binary(&data)
                .unwrap()
                .to_text()
                .unwrap(),
        };
        let name = file.replace(['/', '.'], "_");
        insta::assert_snapshot!(format!("decoded_{name}"), yaml);
    }
}

/// The generated Rust of every schema allows no lint but the naming one (`non_snake_case`: names follow the
/// schemas): a function nothing calls is not emitted rather than allowed as dead code (issue 20, part 4).
#[test]
fn generated_code_allows_no_lint_but_naming() {
    let mut checked = 0;
    for dir in ["schemas", "tests/feature_schemas"] {
        for p in files_under(&repo().join(dir)) {
            if p.extension().is_none_or(|e| e != "ksy") {
                continue;
            }
            let c = binspec_codegen::compile_file(&p)
                .unwrap_or_else(|d| panic!("{}: {d:?}", p.display()));
            checked += 1;
            for (n, line) in c.rust.lines().enumerate() {
                let Some(at) = line.find("allow(") else {
                    continue;
                };
                let lints = &line[at + "allow(".len()..];
                let lints = &lints[..lints.find(')').unwrap_or(lints.len())];
                for lint in lints.split(',').map(str::trim) {
                    assert_eq!(lint, "non_snake_case", "{}:{}: {line}", p.display(), n + 1);
                }
            }
        }
    }
    assert!(checked > 30, "{checked} schemas");
}
