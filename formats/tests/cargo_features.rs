//! The cargo features of `formats/Cargo.toml` match the schemas: every schema that `build.rs` found is built by a
//! feature that Cargo.toml declares and turns on by default, and every feature there builds a schema (or is one of
//! the runtime's, [`NOT_FORMATS`]). Cargo needs each feature declared by hand; these tests say which line to add
//! or remove when a schema is added or taken away.

use std::path::PathBuf;

/// Every schema `build.rs` found (file name, cargo feature), as it found them.
const SCHEMAS: &[(&str, &str)] =
    include!(concat!(env!("BINSPEC_GENERATED"), "/schema_features.rs"));

/// The features that are not formats: `default`, the runtime's, which this crate passes through, `codegen`
/// (the generator as a build dependency) and `textures` (BNTX's texture codecs, a layer over the `bntx` format).
const NOT_FORMATS: &[&str] = &[
    "default",
    "compress",
    "text",
    "encodings",
    "codegen",
    "textures",
];

/// The `[features]` table of `formats/Cargo.toml`: each feature with what it turns on, in file order.
fn features() -> Vec<(String, Vec<String>)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let mut in_features = false;
    // A value may run over several lines: (name, text so far).
    let mut open: Option<(String, String)> = None;
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if let Some((name, mut value)) = open.take() {
            value.push_str(line);
            if value.contains(']') {
                out.push((name, quoted(&value)));
            } else {
                open = Some((name, value));
            }
            continue;
        }
        if line.starts_with('[') {
            in_features = line == "[features]";
            continue;
        }
        if !in_features || line.is_empty() {
            continue;
        }
        let (name, value) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("formats/Cargo.toml: cannot read the feature line `{line}`"));
        let (name, value) = (name.trim().trim_matches('"').to_string(), value.trim());
        if value.contains(']') {
            out.push((name, quoted(value)));
        } else {
            open = Some((name, value.to_string()));
        }
    }
    assert!(
        out.iter().any(|(n, _)| n == "default"),
        "formats/Cargo.toml: no `default` in [features]"
    );
    out
}

/// The quoted strings of a TOML array.
fn quoted(s: &str) -> Vec<String> {
    s.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

#[test]
fn build_rs_found_the_schemas() {
    assert!(
        SCHEMAS.iter().any(|(f, _)| *f == "sarc.ksy"),
        "build.rs found {SCHEMAS:?}"
    );
}

/// Every schema's feature is declared and on by default.
#[test]
fn every_schema_has_its_feature() {
    let features = features();
    let default = &features.iter().find(|(n, _)| n == "default").unwrap().1;
    let mut problems = Vec::new();
    let mut reported = Vec::new();
    for (file, feature) in SCHEMAS {
        if reported.contains(feature) {
            continue;
        }
        reported.push(*feature);
        if !features.iter().any(|(n, _)| n == feature) {
            problems.push(format!(
                "schemas/{file} is built with the cargo feature `{feature}`, which formats/Cargo.toml does not \
                 declare: add the line\n    {feature} = []\nunder [features] in formats/Cargo.toml, and \
                 \"{feature}\" to its `default` list"
            ));
        } else if !default.iter().any(|d| d == feature) {
            let mut list = default.clone();
            list.push(feature.to_string());
            let list: Vec<String> = list.iter().map(|f| format!("{f:?}")).collect();
            problems.push(format!(
                "schemas/{file} is built with the cargo feature `{feature}`, which is not on by default: in \
                 formats/Cargo.toml, make the `default` line\n    default = [{}]",
                list.join(", ")
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// Every feature builds a schema (or is not a format).
#[test]
fn every_feature_has_a_schema() {
    let problems: Vec<String> = features()
        .into_iter()
        .filter(|(n, _)| !NOT_FORMATS.contains(&n.as_str()))
        .filter(|(n, _)| !SCHEMAS.iter().any(|(_, f)| f == n))
        .map(|(n, _)| {
            format!(
                "formats/Cargo.toml declares the feature `{n}`, but no schema is built with it (no schemas/*.ksy \
                 has the format id `{n}` or `-binspec: feature: {n}`): remove the line `{n} = ...` from \
                 [features] (and \"{n}\" from `default`), or add the schema; a feature that is not a format \
                 belongs in NOT_FORMATS in formats/tests/cargo_features.rs"
            )
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
