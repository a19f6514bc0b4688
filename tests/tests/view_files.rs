//! `view_files`: an archive's files listed from the input without building the model. It must list what the model
//! holds (every SARC fixture and, when present, every uncompressed SARC of the corpus), borrow the input, and fail
//! cleanly, naming the entry, on damaged input.

use binspec_formats::sarc::Sarc;
use binspec_formats::{Archive, Format};
use binspec_tests::{files_under, repo};

fn sarc_files() -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = files_under(&repo().join("tests/fixtures/sarc"));
    let corpus = repo().join("../shared/corpus");
    if corpus.is_dir() {
        v.extend(files_under(&corpus.join("real/sarc")));
        v.extend(files_under(&corpus.join("oracle/sarc")));
    } else {
        eprintln!("skipped the corpus: {} is absent", corpus.display());
    }
    v.retain(|p| p.extension().is_some_and(|e| e == "sarc"));
    v
}

/// Whether `part` lies in `whole`'s memory.
fn inside(whole: &[u8], part: &[u8]) -> bool {
    let (w, p) = (whole.as_ptr() as usize, part.as_ptr() as usize);
    p >= w && p + part.len() <= w + whole.len()
}

#[test]
fn view_lists_what_the_model_holds() {
    let files = sarc_files();
    assert!(files.len() >= 10, "{files:?}");
    for path in files {
        let data = std::fs::read(&path).unwrap();
        let model = Sarc::from_binary(&data).unwrap();
        let view: Vec<(&str, &[u8])> = Sarc::view_files(&data)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut listed = view.clone();
        let mut held = model.files();
        // The view goes in the file's order; the model in the writer's (the same for a well-formed archive).
        listed.sort();
        held.sort();
        assert_eq!(listed, held, "{}", path.display());
        for (n, d) in &view {
            assert!(
                n.is_empty() || inside(&data, n.as_bytes()),
                "{}",
                path.display()
            );
            assert!(d.is_empty() || inside(&data, d), "{}", path.display());
        }
        assert_eq!(Sarc::view_files(&data).unwrap().len(), view.len());
    }
}

#[test]
fn damaged_archives_give_errors_that_name_the_entry() {
    let data = std::fs::read(repo().join("tests/fixtures/sarc/oead_le_new_min4.sarc")).unwrap();
    let n = Sarc::view_files(&data).unwrap().len();
    assert!(n >= 2);
    // Cut in the middle of the name table: the header and entries are there, a name is not.
    let model = Sarc::from_binary(&data).unwrap();
    let names_at = 0x14 + 0xc + 16 * n + 8;
    let cut = &data[..names_at + 2];
    let mut errors = Vec::new();
    for f in Sarc::view_files(cut).unwrap() {
        if let Err(e) = f {
            errors.push(e.to_string());
        }
    }
    assert_eq!(
        errors.len(),
        1,
        "the iterator stops after an error: {errors:?}"
    );
    assert!(
        errors[0].contains("sarc")
            && errors[0].contains("sfat.entries[")
            && errors[0].contains("name"),
        "{}",
        errors[0]
    );
    assert!(!model.files().is_empty());

    // A count the input cannot hold is refused when the view is made, not when it is collected.
    let mut big = data.clone();
    big[0x14 + 6..0x14 + 8].copy_from_slice(&0xffffu16.to_le_bytes());
    let e = Sarc::view_files(&big)
        .map(|v| v.len())
        .unwrap_err()
        .to_string();
    assert!(e.contains("entries") && e.contains("count"), "{e}");

    // Every truncation gives a view that fails cleanly or lists files.
    for end in 0..data.len() {
        if let Ok(v) = Sarc::view_files(&data[..end]) {
            let _ = v.count();
        }
    }
}
