//! Turns Kaitai Struct's conformance suite into Rust: for each `spec/ks/<id>.kst`, the schema
//! `formats/<id>.ksy` compiled by binspec-codegen and a `check` function that decodes the test's input and
//! evaluates its asserts. Writes `$OUT_DIR/suite.rs` (included by `src/lib.rs`); tests that cannot be built
//! go to `SKIPPED` with the reason. With no suite folder, the tables are empty.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use saphyr::{Yaml, YamlLoader};

/// One `.kst` file.
struct Kst {
    id: String,
    data: String,
    /// `(actual, expected)`: Kaitai expressions.
    asserts: Vec<(String, Expect)>,
    /// The expected error's name, when the test expects one.
    exception: Option<String>,
}

/// An exception's name as text inside the generated code's `format!` string: braces doubled, quotes as `'`.
fn in_format_string(s: &str) -> String {
    s.replace('{', "{{").replace('}', "}}").replace('"', "'")
}

/// What an assert expects of its `actual` expression.
enum Expect {
    /// The value of this expression.
    Value(String),
    /// An error (Kaitai's exception name) when it is evaluated.
    Error(String),
}

/// A test built, or skipped with `(id, reason)`.
type Outcome = Result<Built, (String, String)>;

/// A built test.
struct Built {
    id: String,
    data: String,
    roundtrip: bool,
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=known_bad.txt");
    println!("cargo:rerun-if-env-changed=BINSPEC_KAITAI_SUITE");
    println!("cargo:rerun-if-env-changed=BINSPEC_CONFORMANCE_IGNORE_KNOWN_BAD");
    let suite = std::env::var_os("BINSPEC_KAITAI_SUITE")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../../shared/kaitai_struct_tests"));
    let spec = suite.join("spec/ks");
    let mut rs = String::new();
    if !spec.is_dir() {
        rs.push_str("/// The suite's folder; `None` when it was absent at build time.\n");
        rs.push_str("pub const SUITE_DIR: Option<&str> = None;\n");
        write_tables(&mut rs, &[], &[]);
        std::fs::write(out.join("suite.rs"), rs).unwrap();
        return;
    }
    let suite = suite.canonicalize().unwrap_or(suite);
    println!("cargo:rerun-if-changed={}", spec.display());
    println!("cargo:rerun-if-changed={}", suite.join("formats").display());

    // `BINSPEC_CONFORMANCE_IGNORE_KNOWN_BAD=1` builds every test, to see which entries are still needed.
    let known_bad =
        if std::env::var_os("BINSPEC_CONFORMANCE_IGNORE_KNOWN_BAD").is_some_and(|v| v == "1") {
            BTreeMap::new()
        } else {
            read_known_bad(&manifest.join("known_bad.txt"))
        };

    let mut files: Vec<PathBuf> = std::fs::read_dir(&spec)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "kst"))
        .collect();
    files.sort();

    // Silence panic messages from the code generator; they are recorded as skip reasons.
    std::panic::set_hook(Box::new(|_| {}));

    let mut built: Vec<Built> = Vec::new();
    let mut skipped: Vec<(String, String)> = Vec::new();
    // Each test is independent: compile them on all cores.
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<(usize, Outcome)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(f) = files.get(i) else { break };
                        mine.push((i, build_one(f, &suite, &out, &known_bad)));
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let mut results = results;
    results.sort_by_key(|r| r.0);
    for (_, r) in results {
        match r {
            Ok(b) => built.push(b),
            Err(s) => skipped.push(s),
        }
    }

    writeln!(
        rs,
        "/// The suite's folder; `None` when it was absent at build time.\npub const SUITE_DIR: Option<&str> = Some({:?});",
        suite.display().to_string()
    )
    .unwrap();
    for b in &built {
        let id = &b.id;
        writeln!(
            rs,
            "#[allow(warnings, clippy::all)]\nmod t_{id} {{\n    mod s {{\n        include!(concat!(env!(\"OUT_DIR\"), \"/schema_{id}.rs\"));\n    }}\n    include!(concat!(env!(\"OUT_DIR\"), \"/check_{id}.rs\"));\n}}"
        )
        .unwrap();
    }
    write_tables(&mut rs, &built, &skipped);
    std::fs::write(out.join("suite.rs"), rs).unwrap();
}

fn write_tables(rs: &mut String, built: &[Built], skipped: &[(String, String)]) {
    rs.push_str(
        "/// The built tests: id, input file (in the suite's `src/`), and the check.\n\
         pub static TESTS: &[(&str, &str, Check)] = &[\n",
    );
    for b in built {
        writeln!(rs, "    ({:?}, {:?}, t_{}::check),", b.id, b.data, b.id).unwrap();
    }
    rs.push_str(
        "];\n/// For tests that expect a successful parse: id and a check that writing the model gives the input.\n\
         pub static ROUNDTRIP: &[(&str, Check)] = &[\n",
    );
    for b in built.iter().filter(|b| b.roundtrip) {
        writeln!(rs, "    ({:?}, t_{}::roundtrip),", b.id, b.id).unwrap();
    }
    rs.push_str(
        "];\n/// For tests that expect a successful parse: id, schema (in the suite's `formats/`) and the model's\n\
         /// document and bytes (the interpreter's differential test).\n\
         pub static MODELS: &[(&str, &str, ModelFn)] = &[\n",
    );
    for b in built.iter().filter(|b| b.roundtrip) {
        writeln!(
            rs,
            "    ({:?}, {:?}, t_{}::model),",
            b.id,
            format!("{}.ksy", b.id),
            b.id
        )
        .unwrap();
    }
    rs.push_str(
        "];\n/// Tests that could not be built: id and reason (`category: detail`).\n\
         pub static SKIPPED: &[(&str, &str)] = &[\n",
    );
    for (id, why) in skipped {
        writeln!(rs, "    ({id:?}, {why:?}),").unwrap();
    }
    rs.push_str("];\n");
}

/// `known_bad.txt`: one test id a line, then an optional `# reason`; `#` lines are comments.
fn read_known_bad(path: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let (id, why) = l.split_once('#').unwrap_or((l, ""));
            let id = id.trim();
            (!id.is_empty()).then(|| (id.to_string(), why.trim().to_string()))
        })
        .collect()
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

/// One line, at most 160 characters.
fn short(s: &str) -> String {
    let s = s.lines().next().unwrap_or("").trim();
    if s.chars().count() > 160 {
        format!("{}…", s.chars().take(160).collect::<String>())
    } else {
        s.to_string()
    }
}

fn build_one(
    kst: &Path,
    suite: &Path,
    out: &Path,
    known_bad: &BTreeMap<String, String>,
) -> Outcome {
    let stem = kst.file_stem().unwrap().to_string_lossy().into_owned();
    let t = read_kst(kst).map_err(|e| (stem.clone(), format!("kst unreadable: {}", short(&e))))?;
    let skip = |why: String| (t.id.clone(), why);
    if known_bad.contains_key(&t.id) {
        return Err(skip(
            "generated code does not compile (known_bad.txt)".into(),
        ));
    }
    if !suite.join("src").join(&t.data).is_file() {
        return Err(skip(format!("data file missing: {}", t.data)));
    }
    let ksy = suite.join("formats").join(format!("{}.ksy", t.id));
    if !ksy.is_file() {
        return Err(skip(format!("schema missing: formats/{}.ksy", t.id)));
    }
    // (Absolute imports are looked for under `formats/ks_path`, as Kaitai's runner passes it as the import path.)
    let ks_path = vec![suite.join("formats").join("ks_path")];
    let compiled = match catch_unwind(|| binspec_codegen::compile_file_in(&ksy, &ks_path)) {
        Ok(Ok(c)) => c,
        Ok(Err(diags)) => {
            let first = diags
                .iter()
                .find(|d| d.is_error())
                .map(|d| d.message.clone())
                .unwrap_or_else(|| "no message".into());
            return Err(skip(format!("schema rejected: {}", short(&first))));
        }
        Err(p) => {
            return Err(skip(format!(
                "codegen panicked: {}",
                short(&panic_text(&*p))
            )))
        }
    };
    let module = &compiled.module;
    let root = format!("s::{}", module.types[0].rust);

    let mut check = String::new();
    // `check_` returns a `Fail`, which both a failed assert's message and an error that evaluating an
    // expression passes up with `?` (a string's `to_i`) convert to.
    check.push_str(
        "pub fn check(data: &[u8]) -> ::core::result::Result<(), ::std::string::String> {\n    check_(data).map_err(|e| e.0)\n}\n\
         fn check_(data: &[u8]) -> ::core::result::Result<(), crate::cmp::Fail> {\n",
    );
    if let Some(exc) = &t.exception {
        writeln!(
            check,
            "    match <{root} as ::binspec_runtime::Format>::from_binary(data) {{\n\
             \x20       Ok(_) => Err(::std::format!(\"expected error {}, but parsing succeeded\").into()),\n\
             \x20       Err(_) => Ok(()),\n    }}\n}}",
            in_format_string(exc)
        )
        .unwrap();
    } else {
        check.push_str(
            "    #[allow(unused_imports)]\n    use crate::cmp::{Float as _, Flag as _, Int as _, Ints as _, Text as _, Texts as _};\n    #[allow(unused_imports)]\n    use s::*;\n",
        );
        writeln!(
            check,
            "    #[allow(unused_variables)]\n    let m = <{root} as ::binspec_runtime::Format>::from_binary(data).map_err(|e| e.to_string())?;"
        )
        .unwrap();
        for (i, (actual, expected)) in t.asserts.iter().enumerate() {
            let tr = |e: &str| {
                catch_unwind(AssertUnwindSafe(|| {
                    binspec_codegen::emit_rust::translate_model_expr(module, "m", e)
                }))
                .unwrap_or_else(|p| {
                    Err(format!(
                        "PANIC in translate_model_expr: {}",
                        panic_text(&*p)
                    ))
                })
            };
            let expected = match expected {
                Expect::Value(e) => e,
                Expect::Error(name) => {
                    // Evaluating the expression must fail (a translation that cannot fail never does).
                    let (a, _) = tr(actual).map_err(|e| {
                        skip(format!(
                            "assert untranslatable: `{}`: {}",
                            short(actual),
                            short(&e)
                        ))
                    })?;
                    writeln!(
                        check,
                        "    #[allow(clippy::redundant_closure_call)]\n    let r: ::binspec_runtime::Result<()> = (|| {{\n        let _ = {a};\n        Ok(())\n    }})();\n    \
                         if r.is_ok() {{\n        return Err(::std::format!(\"assert {i}: {{}}: evaluated, expected error {}\", {:?}).into());\n    }}",
                        in_format_string(name),
                        actual.trim()
                    )
                    .unwrap();
                    continue;
                }
            };
            if expected.trim() == "null" {
                // An absent optional value: binspec's `x._present` says whether the model holds it.
                let (p, kp) = tr(&format!("{}._present", actual.trim())).map_err(|e| {
                    skip(format!(
                        "expects null: `{}` (absent optional value): {}",
                        short(actual),
                        short(&e)
                    ))
                })?;
                if kp != "Bool" {
                    return Err(skip(format!(
                        "expects null: `{}`: `_present` is {kp}",
                        short(actual)
                    )));
                }
                writeln!(
                    check,
                    "    if ({p}) {{\n        return Err(::std::format!(\"assert {i}: {{}}: present, expected null\", {:?}).into());\n    }}",
                    actual.trim()
                )
                .unwrap();
                continue;
            }
            let (a, ka) = tr(actual).map_err(|e| {
                skip(format!(
                    "assert untranslatable: `{}`: {}",
                    short(actual),
                    short(&e)
                ))
            })?;
            let (b, kb) = tr(expected).map_err(|e| {
                skip(format!(
                    "expected value untranslatable: `{}`: {}",
                    short(expected),
                    short(&e)
                ))
            })?;
            let cmp = match (ka.as_str(), kb.as_str()) {
                ("Int", "Int") => "a.int() == b.int()",
                ("Float" | "Int", "Float" | "Int") => "crate::cmp::close(a.float(), b.float())",
                ("Bool", "Bool") => "a.flag() == b.flag()",
                // Kaitai reads `b1` as a boolean; binspec as an integer 0 or 1.
                ("Int", "Bool") => "a.int() == b.flag() as i128",
                ("Bool", "Int") => "a.flag() as i128 == b.int()",
                ("Str", "Str") => "a.text() == b.text()",
                ("Bytes" | "Array(Int)", "Bytes" | "Array(Int)") => "a.ints() == b.ints()",
                ("Array(Str)", "Array(Str)") => "a.texts() == b.texts()",
                _ => {
                    return Err(skip(format!(
                        "unsupported comparison: {ka} vs {kb} (`{}`)",
                        short(actual)
                    )))
                }
            };
            // Strings and byte arrays are viewed as `&str` / `&[u8]`, which also types empty literals. A `match`
            // keeps the scrutinee's temporaries alive while comparing (translations may borrow from them).
            let view = |k: &str, code: &str| match k {
                "Str" => format!("crate::cmp::str_view(&({code}))"),
                "Bytes" => format!("crate::cmp::bytes_view(&({code}))"),
                _ => format!("&({code})"),
            };
            let (va, vb) = (view(&ka, &a), view(&kb, &b));
            writeln!(
                check,
                "    match ({va}, {vb}) {{\n        (a, b) => {{\n            if !({cmp}) {{\n                \
                 return Err(::std::format!(\"assert {i}: {{}}: got {{:?}}, expected {{:?}}\", {:?}, a, b).into());\n            }}\n        }}\n    }}",
                actual.trim()
            )
            .unwrap();
        }
        check.push_str("    Ok(())\n}\n");
        writeln!(
            check,
            "pub fn roundtrip(data: &[u8]) -> ::core::result::Result<(), ::std::string::String> {{\n\
             \x20   let m = <{root} as ::binspec_runtime::Format>::from_binary(data).map_err(|e| e.to_string())?;\n\
             \x20   let out = ::binspec_runtime::Format::to_binary(&m).map_err(|e| ::std::format!(\"to_binary: {{e}}\"))?;\n\
             \x20   crate::cmp::same_bytes(&out, data)\n}}\n\
             /// The model as a JSON document, and what writing it gives (the interpreter's differential test).\n\
             pub fn model(data: &[u8]) -> crate::ModelOutcome {{\n\
             \x20   let m = <{root} as ::binspec_runtime::Format>::from_binary(data).map_err(|e| e.to_string())?;\n\
             \x20   let doc = ::serde_json::to_value(&m).map_err(|e| e.to_string())?;\n\
             \x20   Ok((doc, ::binspec_runtime::Format::to_binary(&m).map_err(|e| e.to_string())))\n}}"
        )
        .unwrap();
    }
    std::fs::write(out.join(format!("schema_{}.rs", t.id)), &compiled.rust).unwrap();
    std::fs::write(out.join(format!("check_{}.rs", t.id)), check).unwrap();
    Ok(Built {
        id: t.id.clone(),
        data: t.data.clone(),
        roundtrip: t.exception.is_none(),
    })
}

/// A scalar's text as written (quotes removed), without YAML's typing: `0xffff_ffff_ffff_ffff` stays so.
fn scalar(y: &Yaml) -> Option<String> {
    match y {
        Yaml::Representation(s, _, _) => Some(s.to_string()),
        _ => None,
    }
}

fn get<'a, 'i>(map: &'a Yaml<'i>, key: &str) -> Option<&'a Yaml<'i>> {
    match map {
        Yaml::Mapping(m) => m
            .iter()
            .find(|(k, _)| scalar(k).as_deref() == Some(key))
            .map(|(_, v)| v),
        _ => None,
    }
}

fn read_kst(path: &Path) -> Result<Kst, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut loader: YamlLoader<Yaml> = YamlLoader::default();
    loader.early_parse(false);
    let mut parser = saphyr_parser::Parser::new_from_str(&text);
    parser.load(&mut loader, true).map_err(|e| e.to_string())?;
    if let Some(e) = loader.error() {
        return Err(e.to_string());
    }
    let doc = loader
        .into_documents()
        .into_iter()
        .next()
        .ok_or("empty file")?;
    let id = get(&doc, "id").and_then(scalar).ok_or("no id")?;
    let data = get(&doc, "data").and_then(scalar).ok_or("no data")?;
    let mut asserts = Vec::new();
    if let Some(Yaml::Sequence(list)) = get(&doc, "asserts") {
        for a in list {
            let actual = get(a, "actual")
                .and_then(scalar)
                .ok_or("assert without actual")?;
            let expected = match (get(a, "expected").and_then(scalar), get(a, "exception")) {
                (Some(e), _) => Expect::Value(e),
                (None, Some(x)) => Expect::Error(scalar(x).unwrap_or_else(|| "an error".into())),
                (None, None) => {
                    return Err(format!(
                        "assert of `{actual}` without expected or exception"
                    ))
                }
            };
            asserts.push((actual, expected));
        }
    }
    let exception = get(&doc, "exception").map(|e| {
        scalar(e)
            .or_else(|| get(e, "type").and_then(scalar))
            .unwrap_or_else(|| "an error".into())
    });
    Ok(Kst {
        id,
        data,
        asserts,
        exception,
    })
}
