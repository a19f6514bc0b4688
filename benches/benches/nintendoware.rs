//! NintendoWare files: binspec-formats (ours) and tomolib side by side for BNTX (parse, write, every texture's
//! every mip level decoded to RGBA8) and BFRES (parse); then a summary table of the medians and ours/tomolib.
//!
//! `cargo bench -p binspec-benches --features peers --bench nintendoware` (add `-- --quick` for a smoke run). See
//! ../README.md.
//!
//! Inputs: Super Mario Odyssey's `HomeBed.bntx` and `AirCurrent.bfres` from `../shared/corpus` (each group is
//! skipped, with a message, when its file is absent). Before the groups, each side reads what the other wrote,
//! and tomolib reads binspec's BFRES fixtures (version 10, written from the wiki page).
//!
//! What each side does: ours reads every structure into its model (BNTX: texture infos, names, dictionary, string
//! pool, relocation table and each texture's data; BFRES: models, vertices, shapes, meshes, materials, skeleton,
//! dictionaries, string pool and relocation table); tomolib reads BNTX's textures (infos, names, mip offsets,
//! data) and BFRES's header, subfile dictionaries and embedded files, keeping a copy of the file's bytes.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use binspec_benches::{criterion_dir, Pair, Run};
use binspec_formats::bfres::Bfres;
use binspec_formats::bntx::Bntx;
use binspec_formats::Format;

const PEER: &str = "tomolib";

const PAIRS: &[Pair] = &[
    Pair {
        group: "tomolib_bntx_parse",
        title: "BNTX parse (SMO HomeBed.bntx, 4 BCn textures)",
    },
    Pair {
        group: "tomolib_bntx_write",
        title: "BNTX write (the same file's model)",
    },
    Pair {
        group: "tomolib_bntx_decode",
        title: "BNTX decode every mip level of every texture to RGBA8 (38 images)",
    },
    Pair {
        group: "tomolib_bfres_parse",
        title: "BFRES parse (SMO AirCurrent.bfres, version 8; ours reads every structure, tomolib the header)",
    },
];

/// The corpus folder, `../shared/corpus` from the project root.
fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

fn note(run: &mut Run, msg: String) {
    println!("{msg}");
    run.notes.push(msg);
}

/// A corpus file, or a note saying why it is absent.
fn corpus_file(run: &mut Run, rel: &str) -> Option<Vec<u8>> {
    let path = corpus().join(rel);
    match std::fs::read(&path) {
        Ok(b) => Some(b),
        Err(e) => {
            note(run, format!("skipped: {} ({e})", path.display()));
            None
        }
    }
}

fn yes_no<T, E: std::fmt::Display>(r: Result<T, E>) -> String {
    match r {
        Ok(_) => "yes".into(),
        Err(e) => format!("no ({e})"),
    }
}

/// Every mip level of every texture, decoded by ours: the number of images.
fn decode_ours(m: &Bntx) -> binspec_formats::Result<usize> {
    let mut n = 0;
    for t in m.textures() {
        n += black_box(t.images()?).len();
    }
    Ok(n)
}

/// The same with tomolib.
fn decode_theirs(t: &tomolib::formats::bntx::Bntx) -> usize {
    let mut n = 0;
    for tex in &t.textures {
        for mip in 0..usize::from(tex.info.mip_count) {
            if black_box(tomolib::formats::bntx::image::decode_texture_rgba(tex, mip)).is_ok() {
                n += 1;
            }
        }
    }
    n
}

fn bntx(run: &mut Run) {
    let Some(bytes) = corpus_file(run, "real/bntx/HomeBed.bntx") else {
        return;
    };
    let bytes = bytes.as_slice();
    let ours = match Bntx::from_binary(bytes) {
        Ok(m) => m,
        Err(e) => return note(run, format!("BNTX: ours cannot read the file: {e}")),
    };
    let theirs = match tomolib::formats::bntx::Bntx::parse(bytes) {
        Ok(m) => m,
        Err(e) => return note(run, format!("BNTX: tomolib cannot read the file: {e}")),
    };
    let ours_bin = ours.to_binary().expect("ours writes the file it read");
    let theirs_bin = theirs.write();
    let decoded = decode_ours(&ours).unwrap_or(0);
    let decoded_theirs = decode_theirs(&theirs);
    // The first level of the first texture, pixel by pixel.
    let first_same = match (
        ours.textures().next().map(|t| t.images()),
        theirs
            .textures
            .first()
            .map(|t| tomolib::formats::bntx::image::decode_texture_rgba(t, 0)),
    ) {
        (Some(Ok(a)), Some(Ok(b))) => {
            let (a, b) = (a[0].image.as_raw(), &b.data);
            if a.len() != b.len() {
                format!("no ({} and {} bytes)", a.len(), b.len())
            } else {
                let diff: Vec<u8> = a.iter().zip(b).map(|(x, y)| x.abs_diff(*y)).collect();
                let n = diff.iter().filter(|d| **d != 0).count();
                let max = diff.iter().max().copied().unwrap_or(0);
                format!(
                    "{} of {} channel values differ, by at most {max}",
                    n,
                    a.len()
                )
            }
        }
        _ => "not compared".into(),
    };
    note(
        run,
        format!(
            "BNTX: HomeBed.bntx ({} bytes, {} textures): ours rewrites it {}, tomolib {}; ours reads tomolib's \
             output: {}, tomolib reads ours: {}; images decoded: ours {decoded}, tomolib {decoded_theirs}; the \
             first texture's first level in RGBA8: {first_same}",
            bytes.len(),
            ours.textures().count(),
            if ours_bin == bytes { "byte-identical" } else { "otherwise" },
            match &theirs_bin {
                Ok(b) if b == bytes => "byte-identical".to_string(),
                Ok(b) => format!("otherwise ({} bytes)", b.len()),
                Err(e) => format!("not at all ({e})"),
            },
            match &theirs_bin {
                Ok(b) => yes_no(Bntx::from_binary(b)),
                Err(_) => "-".into(),
            },
            yes_no(tomolib::formats::bntx::Bntx::parse(&ours_bin)),
        ),
    );
    run.group(
        "tomolib_bntx_parse",
        bytes.len() as u64,
        || Bntx::from_binary(black_box(bytes)),
        Some(|| tomolib::formats::bntx::Bntx::parse(black_box(bytes)).ok()),
    );
    run.group(
        "tomolib_bntx_write",
        bytes.len() as u64,
        || black_box(&ours).to_binary(),
        Some(|| black_box(&theirs).write().ok()),
    );
    run.group(
        "tomolib_bntx_decode",
        bytes.len() as u64,
        || decode_ours(black_box(&ours)),
        Some(|| decode_theirs(black_box(&theirs))),
    );
}

fn bfres(run: &mut Run) {
    // tomolib on binspec's version 10 fixtures (written from the wiki page by a script that never saw binspec).
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/bfres");
    if let Ok(dir) = std::fs::read_dir(&fixtures) {
        let mut files: Vec<PathBuf> = dir
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "bfres"))
            .collect();
        files.sort();
        for f in files {
            let b = std::fs::read(&f).unwrap_or_default();
            let theirs = tomolib::formats::bfres::Bfres::parse(&b);
            let msg = match &theirs {
                Ok(t) => format!(
                    "yes (version {:?}, {} models, {} embedded files)",
                    t.version_tuple(),
                    t.models.names.len(),
                    t.embedded_files.len()
                ),
                Err(e) => format!("no ({e})"),
            };
            note(
                run,
                format!(
                    "BFRES fixture {}: tomolib reads it: {msg}",
                    f.file_name().unwrap_or_default().to_string_lossy()
                ),
            );
        }
    }
    let Some(bytes) = corpus_file(run, "real/bfres/AirCurrent.bfres") else {
        return;
    };
    let bytes = bytes.as_slice();
    let ours = match Bfres::from_binary(bytes) {
        Ok(m) => m,
        Err(e) => return note(run, format!("BFRES: ours cannot read the file: {e}")),
    };
    let theirs = tomolib::formats::bfres::Bfres::parse(bytes);
    let ours_bin = ours.to_binary().expect("ours writes the file it read");
    note(
        run,
        format!(
            "BFRES: AirCurrent.bfres ({} bytes): ours rewrites it {}; tomolib reads it: {}, and ours' output: {}",
            bytes.len(),
            if ours_bin == bytes { "byte-identical" } else { "otherwise" },
            yes_no(theirs.as_ref().map_err(|e| e.to_string())),
            yes_no(tomolib::formats::bfres::Bfres::parse(&ours_bin)),
        ),
    );
    run.group(
        "tomolib_bfres_parse",
        bytes.len() as u64,
        || Bfres::from_binary(black_box(bytes)),
        Some(|| tomolib::formats::bfres::Bfres::parse(black_box(bytes)).ok()),
    );
}

fn main() {
    let since = SystemTime::now();
    let dir = criterion_dir();
    let c = binspec_benches::criterion(&dir, 2, 5);
    let mut run = Run::new(c, dir, since, PEER);
    bntx(&mut run);
    bfres(&mut run);
    run.c.final_summary();
    println!();
    println!("{}", run.summary("BNTX, BFRES", "nintendoware", PAIRS));
}
