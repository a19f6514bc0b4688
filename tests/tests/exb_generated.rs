//! The model generated from `schemas/exb.ksy` alone (`ainb::exb_raw`) reads every EXB section of every AINB fixture
//! and corpus file and writes it back byte for byte; an edited model writes a section that a reader of this test's
//! own (`Decoded`, which follows the page's offsets byte by byte) reads back with the edit.
//!
//! A section is cut from its AINB file where the raw AINB reader says it starts (the header's expression binary
//! offset) and where the next section starts (the module caller array).

use std::path::PathBuf;

use binspec_formats::ainb::exb_raw::Exb;
use binspec_formats::ainb::raw::Ainb;
use binspec_formats::Format;
use binspec_tests::{difference, files_under, repo};

/// A function's setup list (if any) and main list of instructions, 8 bytes each.
type Lists = (Option<Vec<[u8; 8]>>, Vec<[u8; 8]>);

/// An EXB section as this test reads it from its bytes, independently of the generated reader: the header's
/// offsets, each function's setup and main instructions (8 bytes each), the signatures through their string
/// offsets, the parameter region and the pool's strings.
#[derive(Debug)]
struct Decoded {
    functions: Vec<Lists>,
    signatures: Vec<String>,
    parameters: Vec<u8>,
    strings: Vec<String>,
}

impl Decoded {
    fn decode(b: &[u8]) -> Decoded {
        assert_eq!(&b[..4], b"EXB ");
        let w = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize;
        let (info, instr, sig, param, pool) = (w(24), w(28), w(32), w(36), w(40));
        let instruction =
            |i: usize| -> [u8; 8] { b[instr + 4 + 8 * i..instr + 12 + 8 * i].try_into().unwrap() };
        let list =
            |base: usize, count: usize| (base..base + count).map(instruction).collect::<Vec<_>>();
        let functions = (0..w(info))
            .map(|i| {
                let at = info + 4 + 0x1c * i;
                let setup = (w(at) as i32 != -1).then(|| list(w(at), w(at + 4)));
                (setup, list(w(at + 8), w(at + 12)))
            })
            .collect();
        let string = |at: usize| {
            let s = &b[pool + at..];
            String::from_utf8(s[..s.iter().position(|&c| c == 0).unwrap()].to_vec()).unwrap()
        };
        Decoded {
            functions,
            signatures: (0..w(sig)).map(|i| string(w(sig + 4 + 4 * i))).collect(),
            parameters: b[param..pool].to_vec(),
            strings: b[pool..]
                .split(|&c| c == 0)
                .take_while(|s| !s.is_empty())
                .map(|s| String::from_utf8(s.to_vec()).unwrap())
                .collect(),
        }
    }
}

/// Every AINB file at hand: the fixtures, and the corpus's when it is present (with a message when not).
fn ainb_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = files_under(&repo().join("tests/fixtures/ainb"));
    let corpus = repo().join("../shared/corpus");
    if corpus.is_dir() {
        v.extend(files_under(&corpus.join("real/ainb")));
        v.extend(files_under(&corpus.join("oracle/ainb")));
    } else {
        eprintln!("../shared/corpus is absent: only the fixtures' EXB sections are checked");
    }
    v.retain(|p| p.extension().is_some_and(|x| x == "ainb"));
    v
}

/// The EXB sections of every AINB file at hand, as (file name, bytes).
fn sections() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for p in ainb_files() {
        let data = std::fs::read(&p).unwrap();
        let raw = Ainb::from_binary(&data).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        // The raw model derives the header's offsets; the section is where the file's header says.
        let word = |at: usize| u32::from_le_bytes(data[at..at + 4].try_into().unwrap()) as usize;
        let (start, end) = (word(0x44), word(0x5c));
        if start == 0 {
            assert!(raw.expression_binary.is_none(), "{}", p.display());
            continue;
        }
        assert!(raw.expression_binary.is_some(), "{}", p.display());
        assert!(start < end && end <= data.len(), "{}", p.display());
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        out.push((name, data[start..end].to_vec()));
    }
    out
}

/// The interpreter writes the document of an edited model `exb` as the generated writer wrote it (`out`).
fn interpreter_writes_the_same(name: &str, exb: &Exb, out: &[u8]) {
    let schema = binspec_interp::Schema::load(&repo().join("schemas/exb.ksy")).unwrap();
    let doc = binspec_interp::Doc::from_json(&serde_json::to_string(exb).unwrap()).unwrap();
    let got = schema
        .encode(&doc)
        .unwrap_or_else(|e| panic!("{name}: the interpreter: {e}"));
    if let Some(d) = difference(&got, out) {
        panic!("{name}: the interpreter writes the edited model otherwise: {d}");
    }
}

#[test]
fn every_exb_section_round_trips() {
    let sections = sections();
    // The fixtures hold three (expr_v404, expr_v407, expr_v408); the corpus adds more.
    assert!(
        sections.len() >= 3,
        "expected EXB sections in the fixtures, found {}",
        sections.len()
    );
    for (name, bytes) in &sections {
        let exb = Exb::from_binary(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let again = exb.to_binary().unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Some(d) = difference(&again, bytes) {
            panic!("{name}: the EXB section differs: {d}");
        }
    }
    eprintln!("{} EXB sections round-trip", sections.len());
}

/// Edits of the generated model: a new signature string is added to the pool once (after the strings the file
/// held), a signature that repeats a pooled string adds nothing, and a longer parameter region moves the string
/// pool; the hand-written EXB decoder reads the result with the edits.
#[test]
fn edited_sections_keep_their_offsets_consistent() {
    let sections = sections();
    let (name, bytes) = sections
        .iter()
        .find(|(_, b)| {
            let e = Exb::from_binary(b).unwrap();
            !e.signatures.signatures.is_empty()
        })
        .expect("an EXB section with signatures");
    let before = Decoded::decode(bytes);
    let mut exb = Exb::from_binary(bytes).unwrap();
    let first = exb.signatures.signatures[0].text.clone();
    let mut added = exb.signatures.signatures[0].clone();
    added.text = "int binspec_added(int)".into();
    exb.signatures.signatures.push(added.clone());
    exb.signatures.signatures.push(added);
    let mut again = exb.signatures.signatures[0].clone();
    again.text = first.clone();
    exb.signatures.signatures.push(again);
    let mut params = exb.parameter_region.to_vec();
    params.extend_from_slice(&[1, 2, 3, 4]);
    exb.parameter_region = params.into();
    let out = exb.to_binary().unwrap_or_else(|e| panic!("{name}: {e}"));
    interpreter_writes_the_same(name, &exb, &out);

    let after = Decoded::decode(&out);
    let n = before.signatures.len();
    assert_eq!(after.signatures.len(), n + 3, "{name}");
    assert_eq!(after.signatures[..n], before.signatures[..], "{name}");
    assert_eq!(after.signatures[n], "int binspec_added(int)");
    assert_eq!(after.signatures[n + 1], "int binspec_added(int)");
    assert_eq!(after.signatures[n + 2], &*first);
    assert_eq!(after.parameters.len(), before.parameters.len() + 4);
    assert_eq!(
        after.parameters[..before.parameters.len()],
        before.parameters[..]
    );
    assert_eq!(after.functions, before.functions, "{name}");
    // The pool: the file's strings in their order, then the new one, once.
    assert_eq!(after.strings[..before.strings.len()], before.strings[..]);
    assert_eq!(
        after.strings[before.strings.len()..],
        ["int binspec_added(int)".to_string()]
    );
    // And the generated reader reads what it wrote.
    let reread = Exb::from_binary(&out).unwrap();
    assert_eq!(reread.to_binary().unwrap(), out);
}

/// The instruction table is the functions' instructions, one range per function: the model holds each function's
/// instructions, and the writer derives the table, its count and every function's base index and count. An
/// instruction added to the first function moves every later function's range; the hand-written decoder reads
/// each function's instructions back as the model held them.
#[test]
fn instruction_ranges_are_derived_from_each_functions_instructions() {
    let sections = sections();
    let (name, bytes) = sections
        .iter()
        .find(|(_, b)| {
            let e = Exb::from_binary(b).unwrap();
            e.command_infos.entries.len() >= 2
        })
        .expect("an EXB section with two functions");
    let before = Decoded::decode(bytes);
    let mut exb = Exb::from_binary(bytes).unwrap();
    // The model's ranges are the decoder's functions.
    assert_eq!(exb.command_infos.entries.len(), before.functions.len());
    for (m, f) in exb.command_infos.entries.iter().zip(&before.functions) {
        assert_eq!(m.instructions.len(), f.1.len(), "{name}");
        assert_eq!(m.setup.is_some(), f.0.is_some(), "{name}");
    }
    let first = exb.command_infos.entries[0].instructions[0].clone();
    exb.command_infos.entries[0].instructions.insert(0, first);
    let out = exb.to_binary().unwrap_or_else(|e| panic!("{name}: {e}"));
    interpreter_writes_the_same(name, &exb, &out);
    assert_eq!(out.len(), bytes.len() + 8, "one instruction more");
    let after = Decoded::decode(&out);
    assert_eq!(after.functions.len(), before.functions.len());
    assert_eq!(after.functions[0].1.len(), before.functions[0].1.len() + 1);
    assert_eq!(after.functions[0].1[1..], before.functions[0].1[..]);
    assert_eq!(after.functions[0].1[0], before.functions[0].1[0]);
    assert_eq!(after.functions[1..], before.functions[1..], "{name}");
    assert_eq!(after.signatures, before.signatures);
    assert_eq!(after.strings, before.strings);
    // Removing a function's instructions entirely leaves the others in place.
    let mut exb = Exb::from_binary(bytes).unwrap();
    exb.command_infos.entries[0].instructions.clear();
    let out = exb.to_binary().unwrap_or_else(|e| panic!("{name}: {e}"));
    interpreter_writes_the_same(name, &exb, &out);
    let after = Decoded::decode(&out);
    assert!(after.functions[0].1.is_empty());
    assert_eq!(after.functions[1..], before.functions[1..], "{name}");
}

/// The interpreter (`binspec --schema schemas/exb.ksy`) reads every EXB section as the generated reader does (the
/// same document) and writes that document as the generated writer does (the same bytes); and the command a user
/// types, decode then encode, gives the section back byte for byte.
#[test]
fn the_interpreter_agrees_on_every_exb_section() {
    let path = repo().join("schemas/exb.ksy");
    let schema = binspec_interp::Schema::load(&path).unwrap();
    if let Some(e) = schema.unsupported() {
        panic!("the interpreter refuses exb.ksy: {e}");
    }
    let dir = tempfile::tempdir().unwrap();
    let sections = sections();
    for (name, bytes) in &sections {
        let exb = Exb::from_binary(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = serde_json::to_value(&exb).unwrap();
        let doc = schema
            .decode(bytes)
            .unwrap_or_else(|e| panic!("{name}: the interpreter: {e}"));
        assert!(doc.to_json() == want, "{name}: the documents differ");
        let out = schema
            .encode(&doc)
            .unwrap_or_else(|e| panic!("{name}: the interpreter: {e}"));
        assert!(out == exb.to_binary().unwrap(), "{name}: the bytes differ");
        // The CLI's loop.
        let (bin, text, back) = (
            dir.path().join("s.exb"),
            dir.path().join("s.yaml"),
            dir.path().join("t.exb"),
        );
        std::fs::write(&bin, bytes).unwrap();
        let p = path.to_str().unwrap();
        let r = binspec_tests::run(&[
            "--schema",
            p,
            "decode",
            bin.to_str().unwrap(),
            "-o",
            text.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "{name}: {}", r.err);
        let r = binspec_tests::run(&[
            "--schema",
            p,
            "encode",
            text.to_str().unwrap(),
            "-o",
            back.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "{name}: {}", r.err);
        if let Some(d) = difference(&std::fs::read(&back).unwrap(), bytes) {
            panic!("{name}: binspec --schema exb.ksy decode, encode: {d}");
        }
    }
    eprintln!("the interpreter agrees on {} EXB sections", sections.len());
}

/// Cut and mutated sections: the interpreter never panics, reads a document where the generated reader does (the
/// same one) and refuses where it refuses, and what it reads it writes as the generated writer does.
#[test]
fn the_interpreter_agrees_on_cut_and_mutated_sections() {
    let schema = binspec_interp::Schema::load(&repo().join("schemas/exb.ksy")).unwrap();
    let sections = sections();
    let (name, bytes) = &sections[0];
    let mut inputs: Vec<Vec<u8>> = (0..bytes.len()).map(|n| bytes[..n].to_vec()).collect();
    for i in 0..bytes.len() {
        for v in [0u8, 1, 0x7f, 0xff] {
            if bytes[i] != v {
                let mut b = bytes.clone();
                b[i] = v;
                inputs.push(b);
            }
        }
    }
    let (mut read, mut written) = (0, 0);
    for (k, b) in inputs.iter().enumerate() {
        let generated = Exb::from_binary(b);
        let interp = schema.decode(b);
        match (&generated, &interp) {
            (Ok(m), Ok(d)) => {
                assert!(
                    d.to_json() == serde_json::to_value(m).unwrap(),
                    "{name}, input {k}: the documents differ:\n{}\n{}",
                    d.to_json(),
                    serde_json::to_value(m).unwrap()
                );
                read += 1;
                match (m.to_binary(), schema.encode(d)) {
                    (Ok(a), Ok(c)) => {
                        assert!(a == c, "{name}, input {k}: the bytes written differ");
                        written += 1;
                    }
                    (Err(_), Err(_)) => {}
                    (a, c) => panic!(
                        "{name}, input {k}: generated {:?}, interpreter {:?}",
                        a.map(|x| x.len()),
                        c.map(|x| x.len())
                    ),
                }
            }
            (Err(_), Err(_)) => {}
            (g, i) => panic!(
                "{name}, input {k}: generated {:?}, interpreter {:?}",
                g.as_ref().err(),
                i.as_ref().err()
            ),
        }
    }
    eprintln!(
        "{} inputs: {read} read alike, {written} written alike",
        inputs.len()
    );
    assert!(read > 0 && written > 0);
}
