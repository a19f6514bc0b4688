//! tomolib: binspec-formats (ours) and tomolib side by side, for every format both have: RESTBL, AINB, BYML and
//! SARC, parse and write each; then a summary table of the medians and ours/tomolib.
//!
//! `cargo bench -p binspec-benches --features peers --bench tomolib` (add `-- --quick` for a smoke run). See
//! ../README.md.
//!
//! Inputs: the Tears of the Kingdom resource size table and `Npc_Gerudo_Queen_Young.event.root.ainb` from
//! `../shared/corpus` (each group is skipped, with a message, when its file is absent), the BYML benchmark's
//! generated document (roead's binary of it) and its real version 7 file, and the SARC benchmark's generated
//! archive (written by roead). Before the groups, each side reads what the other wrote where both can.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use binspec_benches::tomo::walk_tomolib;
use binspec_benches::{
    criterion_dir, sarc_files, walk_ours, FileVisit, Fixture, Pair, Run, REAL_FILE, SARC_FILES,
    TARGET_NODES,
};
use binspec_formats::byml::Document as BymlDocument;
use binspec_formats::rsizetable::Rsizetable;
use binspec_formats::sarc::Sarc;
use binspec_formats::{ainb, Format};

const PEER: &str = "tomolib";

const PAIRS: &[Pair] = &[
    Pair {
        group: "tomolib_restbl_parse",
        title: "RESTBL parse (TotK table)",
    },
    Pair {
        group: "tomolib_restbl_write",
        title: "RESTBL write (TotK table)",
    },
    Pair {
        group: "tomolib_ainb_parse",
        title: "AINB parse (TotK Npc_Gerudo_Queen_Young; ours `ainb::Document`)",
    },
    Pair {
        group: "tomolib_ainb_write",
        title: "AINB write (the same file's tree)",
    },
    Pair {
        group: "tomolib_byml_parse_walk",
        title: "BYML parse + walk (generated, 100k nodes)",
    },
    Pair {
        group: "tomolib_byml_write",
        title: "BYML write (generated tree -> binary)",
    },
    Pair {
        group: "tomolib_byml_parse_walk_real",
        title: "BYML parse + walk (real v7 file)",
    },
    Pair {
        group: "tomolib_sarc_open_iterate",
        title: "SARC open + iterate (3,000 files; both copy the input once: ours `from_binary`, tomolib `parse(to_vec())`)",
    },
    Pair {
        group: "tomolib_sarc_write",
        title: "SARC write (archive -> binary; ours `to_binary` into a Vec)",
    },
    Pair {
        group: "tomolib_sarc_write_to",
        title: "SARC write to a writer (`io::sink()`: ours `write_to`, files written from the model; tomolib `write`)",
    },
];

/// The corpus folder, `../shared/corpus` from the project root.
fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

const RESTBL_FILE: &str = "real/restbl/ResourceSizeTable.Product.110.rsizetable";
const AINB_FILE: &str = "real/ainb/Npc_Gerudo_Queen_Young.event.root.ainb";

/// A corpus file, or a note saying why it is absent.
fn corpus_file(run: &mut Run, rel: &str) -> Option<Vec<u8>> {
    let path = corpus().join(rel);
    match std::fs::read(&path) {
        Ok(b) => Some(b),
        Err(e) => {
            let msg = format!("skipped: {} ({e})", path.display());
            println!("{msg}");
            run.notes.push(msg);
            None
        }
    }
}

fn note(run: &mut Run, msg: String) {
    println!("{msg}");
    run.notes.push(msg);
}

fn same(a: &[u8], b: &[u8]) -> &'static str {
    if a == b {
        "byte-identical to the input"
    } else {
        "not byte-identical to the input"
    }
}

fn restbl(run: &mut Run) {
    let Some(bytes) = corpus_file(run, RESTBL_FILE) else {
        return;
    };
    let bytes = bytes.as_slice();
    let ours = match Rsizetable::from_binary(bytes) {
        Ok(t) => t,
        Err(e) => return note(run, format!("RESTBL: ours cannot read the table: {e}")),
    };
    let theirs = match tomolib::formats::rstbl::Rstbl::parse(bytes) {
        Ok(t) => t,
        Err(e) => return note(run, format!("RESTBL: tomolib cannot read the table: {e}")),
    };
    let ours_bin = ours.to_binary().expect("ours writes the table it read");
    let mut theirs_bin = Vec::new();
    theirs
        .write(&mut theirs_bin)
        .expect("tomolib writes the table it read");
    let (ours_crc, ours_names) = restbl_counts(&ours);
    note(
        run,
        format!(
            "RESTBL: {} ({} bytes): ours reads {ours_crc} CRC entries and {ours_names} path entries, tomolib {} and {}; \
             ours rewrites it {}, tomolib {}; each reads the other's output: {}",
            Path::new(RESTBL_FILE).file_name().unwrap_or_default().to_string_lossy(),
            bytes.len(),
            theirs.crc_entries().len(),
            theirs.path_entries().len(),
            same(&ours_bin, bytes),
            same(&theirs_bin, bytes),
            if Rsizetable::from_binary(&theirs_bin).is_ok()
                && tomolib::formats::rstbl::Rstbl::parse(&ours_bin).is_ok()
            {
                "yes"
            } else {
                "NO"
            }
        ),
    );
    run.group(
        "tomolib_restbl_parse",
        bytes.len() as u64,
        || Rsizetable::from_binary(black_box(bytes)),
        Some(|| tomolib::formats::rstbl::Rstbl::parse(black_box(bytes)).ok()),
    );
    // tomolib's `write` builds the file in a Vec, then copies it into the writer: given `io::sink()`, that copy
    // costs nothing, so its figure is the building alone.
    run.group(
        "tomolib_restbl_write",
        bytes.len() as u64,
        || black_box(&ours).to_binary(),
        Some(|| black_box(&theirs).write(&mut std::io::sink()).ok()),
    );
}

/// The numbers of CRC and path entries ours read.
fn restbl_counts(t: &Rsizetable) -> (usize, usize) {
    use binspec_formats::rsizetable::RsizetableTable as T;
    match &t.table {
        T::Restbl(r) => (r.crc_entries.len(), r.name_entries.len()),
        T::Rstb(r) => (r.crc_entries.len(), r.name_entries.len()),
        T::Headerless(r) => (r.crc_entries.len(), 0),
    }
}

fn ainb(run: &mut Run) {
    let Some(bytes) = corpus_file(run, AINB_FILE) else {
        return;
    };
    let bytes = bytes.as_slice();
    let ours = match ainb::Document::from_binary(bytes) {
        Ok(d) => d,
        Err(e) => return note(run, format!("AINB: ours cannot read the file: {e}")),
    };
    let theirs = match tomolib::formats::ainb::Ainb::parse(bytes) {
        Ok(d) => d,
        Err(e) => return note(run, format!("AINB: tomolib cannot read the file: {e}")),
    };
    let ours_bin = ours.to_binary().expect("ours writes the file it read");
    let theirs_bin = theirs.to_binary();
    note(
        run,
        format!(
            "AINB: {} ({} bytes, version {:#x}): ours reads {} elements, tomolib {} nodes; ours rewrites it {} \
             ({} bytes), tomolib {} ({} bytes); ours reads tomolib's output: {}, tomolib reads ours: {}",
            Path::new(AINB_FILE).file_name().unwrap_or_default().to_string_lossy(),
            bytes.len(),
            ours.version,
            ours.elements.len(),
            theirs.nodes.len(),
            same(&ours_bin, bytes),
            ours_bin.len(),
            same(&theirs_bin, bytes),
            theirs_bin.len(),
            yes_no(ainb::Document::from_binary(&theirs_bin).map_err(|e| e.to_string())),
            yes_no(tomolib::formats::ainb::Ainb::parse(&ours_bin).map_err(|e| e.to_string())),
        ),
    );
    run.group(
        "tomolib_ainb_parse",
        bytes.len() as u64,
        || ainb::Document::from_binary(black_box(bytes)),
        Some(|| tomolib::formats::ainb::Ainb::parse(black_box(bytes)).ok()),
    );
    run.group(
        "tomolib_ainb_write",
        bytes.len() as u64,
        || black_box(&ours).to_binary(),
        Some(|| black_box(&theirs).to_binary()),
    );
}

fn yes_no<T>(r: Result<T, String>) -> String {
    match r {
        Ok(_) => "yes".into(),
        Err(e) => format!("no ({e})"),
    }
}

fn byml(run: &mut Run) {
    let f = Fixture::new(TARGET_NODES);
    let bin = f.roead_bin.as_slice();
    let theirs = tomolib::formats::byml::Byml::parse(bin).expect("tomolib reads roead's binary");
    let ours_bin = f.ours_bin.as_ref().expect("ours writes the document");
    let theirs_bin = theirs.to_bytes().expect("tomolib writes the document");
    let w_ours = walk_ours(&f.ours.root);
    let w_theirs = walk_tomolib(&theirs.root);
    let cross_ours = BymlDocument::from_binary(&theirs_bin)
        .map(|d| walk_ours(&d.root))
        .map_err(|e| e.to_string());
    let cross_theirs = tomolib::formats::byml::Byml::parse(ours_bin)
        .map(|d| walk_tomolib(&d.root))
        .map_err(|e| e.to_string());
    note(
        run,
        format!(
            "BYML: generated document, {} nodes (roead's binary, {} bytes): tomolib's walk {} ours; ours reads \
             tomolib's binary ({} bytes) {}; tomolib reads ours ({} bytes) {}",
            f.nodes,
            bin.len(),
            if w_ours == w_theirs { "equals" } else { "DIFFERS from" },
            theirs_bin.len(),
            cross(&cross_ours, &w_ours),
            ours_bin.len(),
            cross(&cross_theirs, &w_ours),
        ),
    );
    run.group(
        "tomolib_byml_parse_walk",
        bin.len() as u64,
        || BymlDocument::from_binary(black_box(bin)).map(|d| walk_ours(&d.root)),
        Some(|| {
            tomolib::formats::byml::Byml::parse(black_box(bin))
                .map(|t| walk_tomolib(&t.root))
                .ok()
        }),
    );
    run.group(
        "tomolib_byml_write",
        bin.len() as u64,
        || black_box(&f.ours).to_binary(),
        Some(|| black_box(&theirs).to_bytes().ok()),
    );

    let real = match std::fs::read(REAL_FILE) {
        Ok(b) => b,
        Err(e) => return note(run, format!("skipped: {REAL_FILE} ({e})")),
    };
    let real = real.as_slice();
    let ours_walk = match BymlDocument::from_binary(real) {
        Ok(d) => walk_ours(&d.root),
        Err(e) => return note(run, format!("BYML real file: ours cannot read it: {e}")),
    };
    let theirs_walk = std::panic::catch_unwind(|| tomolib::formats::byml::Byml::parse(real))
        .map_err(|_| "tomolib panicked".to_string())
        .and_then(|r| r.map_err(|e| e.to_string()))
        .map(|t| walk_tomolib(&t.root));
    let name = Path::new(REAL_FILE)
        .file_name()
        .unwrap_or_default()
        .to_string_lossy();
    note(
        run,
        match &theirs_walk {
            Ok(w) => format!(
                "BYML real file: {name} ({} bytes, {} nodes as ours reads it); tomolib reads it: {} nodes, {}",
                real.len(),
                ours_walk.nodes,
                w.nodes,
                if *w == ours_walk { "same walk as ours" } else { "walk differs from ours" }
            ),
            Err(e) => format!(
                "BYML real file: {name} ({} bytes, {} nodes as ours reads it); tomolib cannot read it ({e}), so only \
                 ours runs",
                real.len(),
                ours_walk.nodes
            ),
        },
    );
    let peer = theirs_walk.is_ok().then_some(|| {
        tomolib::formats::byml::Byml::parse(black_box(real))
            .map(|t| walk_tomolib(&t.root))
            .ok()
    });
    run.group(
        "tomolib_byml_parse_walk_real",
        real.len() as u64,
        || BymlDocument::from_binary(black_box(real)).map(|d| walk_ours(&d.root)),
        peer,
    );
}

fn cross(r: &Result<binspec_benches::Walk, String>, expected: &binspec_benches::Walk) -> String {
    match r {
        Ok(w) if w == expected => "with the same walk".into(),
        Ok(_) => "with ANOTHER walk".into(),
        Err(e) => format!("and fails ({e})"),
    }
}

/// The largest power of two (up to 0x1000) that divides every file's data offset in an archive: the alignment to
/// give tomolib's writer, which has one for every file.
fn common_alignment(s: &tomolib::formats::sarc::Sarc) -> u32 {
    let mut a = 0x1000u32;
    for e in s.entries() {
        while a > 1 && !(s.data_offset() + e.data_start).is_multiple_of(a) {
            a /= 2;
        }
    }
    a
}

fn sarc(run: &mut Run) {
    let files = sarc_files(SARC_FILES);
    let mut w = roead::sarc::SarcWriter::new(roead::Endian::Little);
    for (n, d) in &files {
        w.add_file(n.as_str(), d.clone());
    }
    let bin = w.to_binary();
    let bytes = bin.as_slice();
    let ours = Sarc::from_binary(bytes).expect("ours reads roead's archive");
    let theirs =
        tomolib::formats::sarc::Sarc::parse(bin.clone()).expect("tomolib reads roead's archive");
    let align = common_alignment(&theirs);
    let pack: Vec<tomolib::formats::sarc::PackEntry> = theirs
        .entries()
        .iter()
        .map(|e| tomolib::formats::sarc::PackEntry {
            name: e.name.as_deref().unwrap_or_default(),
            data: theirs.data(e),
        })
        .collect();
    let write_theirs = |mut out: &mut dyn std::io::Write| {
        tomolib::formats::sarc::write(
            &mut out,
            &pack,
            tomolib::formats::sarc::ByteOrder::Little,
            align,
        )
    };
    let ours_bin = ours.to_binary().expect("ours writes the archive");
    let mut theirs_bin = Vec::new();
    write_theirs(&mut theirs_bin).expect("tomolib writes the archive");
    let visit_ours = |s: &Sarc| {
        let mut v = FileVisit::default();
        for e in &s.sfat.entries {
            v.add(e.name.as_deref().unwrap_or_default(), &e.data);
        }
        (v.files, v.sum)
    };
    let visit_theirs = |s: &tomolib::formats::sarc::Sarc| {
        let mut v = FileVisit::default();
        for e in s.entries() {
            v.add(e.name.as_deref().unwrap_or_default(), s.data(e));
        }
        (v.files, v.sum)
    };
    let expected = visit_ours(&ours);
    let agree = visit_theirs(&theirs) == expected
        && Sarc::from_binary(&theirs_bin).map(|s| visit_ours(&s)).ok() == Some(expected)
        && tomolib::formats::sarc::Sarc::parse(ours_bin.clone())
            .map(|s| visit_theirs(&s))
            .ok()
            == Some(expected);
    note(
        run,
        format!(
            "SARC: generated archive, {} files, {} bytes written by roead; ours and tomolib read it and each other's \
             output with the same files: {}; ours rewrites it in {} bytes ({}), tomolib (one alignment for every \
             file: {align:#x}) in {} bytes ({})",
            expected.0,
            bytes.len(),
            if agree { "yes" } else { "NO" },
            ours_bin.len(),
            same(&ours_bin, bytes),
            theirs_bin.len(),
            same(&theirs_bin, bytes)
        ),
    );
    run.group(
        "tomolib_sarc_open_iterate",
        bytes.len() as u64,
        || Sarc::from_binary(black_box(bytes)).map(|s| visit_ours(&s)),
        Some(|| {
            tomolib::formats::sarc::Sarc::parse(black_box(bytes).to_vec())
                .ok()
                .map(|s| visit_theirs(&s))
        }),
    );
    // As for RESTBL: tomolib builds the archive in a Vec and copies it into the writer, here `io::sink()`.
    run.group(
        "tomolib_sarc_write",
        bytes.len() as u64,
        || black_box(&ours).to_binary(),
        Some(|| write_theirs(&mut std::io::sink()).ok()),
    );
    // The same API on both sides: a model written to an `io::Write`. Ours streams the files' data from the model
    // (`Format::write_to`); tomolib builds the archive in a Vec first.
    let mut streamed = Vec::new();
    ours.write_to(&mut streamed)
        .expect("ours writes the archive");
    assert_eq!(streamed, ours_bin, "write_to writes what to_binary makes");
    run.group(
        "tomolib_sarc_write_to",
        bytes.len() as u64,
        || black_box(&ours).write_to(&mut std::io::sink()),
        Some(|| write_theirs(&mut std::io::sink()).ok()),
    );
}

fn main() {
    let since = SystemTime::now();
    let dir = criterion_dir();
    let c = binspec_benches::criterion(&dir, 2, 5);
    let mut run = Run::new(c, dir, since, PEER);
    restbl(&mut run);
    ainb(&mut run);
    byml(&mut run);
    sarc(&mut run);
    run.c.final_summary();
    println!();
    println!(
        "{}",
        run.summary("RESTBL, AINB, BYML, SARC", "tomolib", PAIRS)
    );
}
