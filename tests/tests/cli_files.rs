//! How the CLI writes outputs and reads folders (issue 19): `-o` onto FIFOs, devices and symbolic links, `-o -`,
//! links inside a folder being packed or extracted into, SARC entries stored without a name, the names `pack`
//! accepts, and stale temporary files. Run in-process through `binspec_tests::run`; `cli/tests/binary.rs` runs
//! the built binary for what needs its real standard output.

#![cfg(unix)]

use std::os::unix::fs::{symlink, FileTypeExt};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, SystemTime};

use binspec_formats::sarc::{Sarc, SfatEntry};
use binspec_formats::Format;
use binspec_tests::{repo, run};

fn has_format(id: &str) -> bool {
    binspec_formats::registry().iter().any(|f| f.id() == id)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn fixture_sarc() -> Option<PathBuf> {
    let p = repo().join("tests/fixtures/sarc/oead_le_new_min4.sarc");
    (has_format("sarc") && p.exists()).then_some(p)
}

/// Every path under `dir` (files, folders, links), relative, sorted; links are not followed.
fn listing(dir: &Path) -> Vec<String> {
    fn go(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            out.push(p.strip_prefix(root).unwrap().to_str().unwrap().to_string());
            if e.file_type().unwrap().is_dir() {
                go(root, &p, out);
            }
        }
    }
    let mut out = Vec::new();
    if dir.exists() {
        go(dir, dir, &mut out);
    }
    out.sort();
    out
}

fn mkfifo(p: &Path) {
    let st = std::process::Command::new("mkfifo")
        .arg(p)
        .status()
        .unwrap();
    assert!(st.success());
}

/// Reads a FIFO to its end on a thread; the receiver gets the bytes.
fn read_fifo(p: &Path) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    let p = p.to_path_buf();
    std::thread::spawn(move || {
        let data = std::fs::read(&p).unwrap_or_default();
        let _ = tx.send(data);
    });
    rx
}

// ---- -o onto special files ----

#[test]
fn output_to_a_fifo_is_streamed_into_it() {
    let Some(sarc) = fixture_sarc() else { return };
    let d = tempfile::tempdir().unwrap();
    let doc = d.path().join("a.yaml");
    assert_eq!(run(&["decode", s(&sarc), "-o", s(&doc)]).code, 0);
    for (what, args) in [
        ("decode", vec!["decode", s(&sarc)]),
        ("encode", vec!["encode", s(&doc)]),
    ] {
        let fifo = d.path().join(format!("{what}.fifo"));
        mkfifo(&fifo);
        let rx = read_fifo(&fifo);
        let mut args = args.clone();
        args.extend(["-o", s(&fifo)]);
        let r = run(&args);
        assert_eq!(r.code, 0, "{what}: {}", r.err);
        let got = rx
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("{what}: nothing was written into the FIFO"));
        let want = if what == "decode" {
            std::fs::read(&doc).unwrap()
        } else {
            std::fs::read(&sarc).unwrap()
        };
        assert!(got == want, "{what}: the FIFO got other bytes");
        let ft = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(ft.is_fifo(), "{what}: the FIFO was replaced");
    }
    // No temporary file was left behind.
    assert!(
        !listing(d.path()).iter().any(|n| n.ends_with(".tmp")),
        "{:?}",
        listing(d.path())
    );
}

#[test]
fn output_to_dev_null_writes_into_the_device() {
    let Some(sarc) = fixture_sarc() else { return };
    let null = Path::new("/dev/null");
    assert!(std::fs::metadata(null)
        .unwrap()
        .file_type()
        .is_char_device());
    let d = tempfile::tempdir().unwrap();
    let x = d.path().join("x");
    assert_eq!(run(&["extract", s(&sarc), "-o", s(&x)]).code, 0);
    for args in [
        vec!["decode", s(&sarc), "-o", "/dev/null"],
        vec!["pack", s(&x), "-o", "/dev/null"],
    ] {
        let r = run(&args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.err);
        let m = std::fs::symlink_metadata(null).unwrap();
        assert!(
            m.file_type().is_char_device(),
            "{args:?} replaced /dev/null"
        );
    }
}

#[test]
fn output_through_a_link_replaces_the_target_and_keeps_the_link() {
    let Some(sarc) = fixture_sarc() else { return };
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("a"), d.path().join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let target = b.join("target.yaml");
    std::fs::write(&target, "old").unwrap();
    let link = a.join("link.yaml");
    symlink("../b/target.yaml", &link).unwrap();

    let r = run(&["decode", s(&sarc), "-o", s(&link)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let m = std::fs::symlink_metadata(&link).unwrap();
    assert!(m.file_type().is_symlink(), "the link was replaced");
    assert_eq!(
        std::fs::read_link(&link).unwrap(),
        Path::new("../b/target.yaml")
    );
    let text = std::fs::read_to_string(&target).unwrap();
    assert!(text.starts_with("# binspec: sarc\n"), "{text}");
    assert_eq!(listing(&a), ["link.yaml"]);
    assert_eq!(listing(&b), ["target.yaml"]);
}

/// A link to nothing is refused (it is not followed to create its target: in a shared folder, a link left by
/// someone else would choose where binspec writes).
#[test]
fn output_to_a_dangling_link_is_refused() {
    let Some(sarc) = fixture_sarc() else { return };
    let d = tempfile::tempdir().unwrap();
    let link = d.path().join("link.yaml");
    let missing = d.path().join("missing.yaml");
    symlink(&missing, &link).unwrap();
    let r = run(&["decode", s(&sarc), "-o", s(&link)]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.err.starts_with("error: ") && r.err.contains(s(&link)) && r.err.contains("symbolic link"),
        "{}",
        r.err
    );
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(!missing.exists());
    assert_eq!(listing(d.path()), ["link.yaml"]);
}

#[test]
fn dash_writes_to_standard_output() {
    let Some(sarc) = fixture_sarc() else { return };
    let d = tempfile::tempdir().unwrap();
    let doc = d.path().join("a.yaml");
    assert_eq!(run(&["decode", s(&sarc), "-o", s(&doc)]).code, 0);
    let r = run(&["decode", s(&sarc), "-o", "-"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.out, std::fs::read_to_string(&doc).unwrap());
    let r = run(&["encode", s(&doc), "-o", "-"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(
        r.out,
        String::from_utf8_lossy(&std::fs::read(&sarc).unwrap())
    );
    assert!(!Path::new("-").exists());
}

// ---- pack and links ----

fn extracted(d: &Path) -> Option<PathBuf> {
    let sarc = fixture_sarc()?;
    let x = d.join("x");
    let r = run(&["extract", s(&sarc), "-o", s(&x)]);
    assert_eq!(r.code, 0, "{}", r.err);
    Some(x)
}

#[test]
fn pack_refuses_links_in_the_folder() {
    let d = tempfile::tempdir().unwrap();
    let Some(x) = extracted(d.path()) else { return };
    let elsewhere = tempfile::tempdir().unwrap();
    let secret = elsewhere.path().join("secret");
    std::fs::write(&secret, "password").unwrap();
    let cases: [(&str, PathBuf); 3] = [
        ("p", secret.clone()),
        ("dangling", elsewhere.path().join("missing")),
        ("folder", elsewhere.path().to_path_buf()),
    ];
    for (name, to) in cases {
        let link = x.join("sub").join(name);
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        symlink(&to, &link).unwrap();
        let out = d.path().join("out.sarc");
        let r = run(&["pack", s(&x), "-o", s(&out)]);
        assert_eq!(r.code, 1, "{name}: {}", r.err);
        assert!(
            r.err.starts_with("error: ")
                && r.err.contains(s(&link))
                && r.err.contains(s(&x))
                && r.err.contains("symbolic link"),
            "{name}: {}",
            r.err
        );
        assert!(!out.exists(), "{name}");
        std::fs::remove_file(&link).unwrap();
    }
}

/// `pack` runs the name check that `extract` runs, and names the file.
#[test]
fn pack_refuses_names_extract_refuses() {
    let d = tempfile::tempdir().unwrap();
    let Some(x) = extracted(d.path()) else { return };
    let bad = x.join("a\\b.bin");
    std::fs::write(&bad, "x").unwrap();
    let out = d.path().join("out.sarc");
    let r = run(&["pack", s(&x), "-o", s(&out)]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.err.contains(s(&bad)) && r.err.contains("backslash"),
        "{}",
        r.err
    );
    assert!(!out.exists());
}

// ---- extract and links ----

fn sarc_with(files: &[(&str, &[u8])]) -> Vec<u8> {
    use binspec_formats::Archive;
    let mut a = Sarc::from_binary(&std::fs::read(fixture_sarc().unwrap()).unwrap()).unwrap();
    a.set_files(
        files
            .iter()
            .map(|(n, d)| (n.to_string(), d.to_vec()))
            .collect(),
    )
    .unwrap();
    a.to_binary().unwrap()
}

#[test]
fn extract_force_writes_nothing_through_a_link() {
    if fixture_sarc().is_none() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let archive = d.path().join("a.sarc");
    std::fs::write(
        &archive,
        sarc_with(&[("a.bin", b"1"), ("sub/x/y.bin", b"2"), ("z.bin", b"3")]),
    )
    .unwrap();
    let out = d.path().join("out");
    std::fs::create_dir(&out).unwrap();
    symlink(outside.path(), out.join("sub")).unwrap();
    let r = run(&["extract", "--force", s(&archive), "-o", s(&out)]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.err.contains(s(&archive))
            && r.err.contains("sub/x/y.bin")
            && r.err.contains("symbolic link"),
        "{}",
        r.err
    );
    assert!(
        listing(outside.path()).is_empty(),
        "{:?}",
        listing(outside.path())
    );
    assert_eq!(listing(&out), ["sub"]);

    // A link where a file would go is not followed either.
    std::fs::remove_file(out.join("sub")).unwrap();
    let victim = outside.path().join("victim");
    std::fs::write(&victim, "keep").unwrap();
    symlink(&victim, out.join("z.bin")).unwrap();
    let r = run(&["extract", "--force", s(&archive), "-o", s(&out)]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.err.contains(s(&archive)) && r.err.contains("\"z.bin\""),
        "{}",
        r.err
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    assert_eq!(listing(&out), ["z.bin"]);

    // A file where a folder would go: refused before anything is written.
    std::fs::remove_file(out.join("z.bin")).unwrap();
    std::fs::write(out.join("sub"), "a file").unwrap();
    let r = run(&["extract", "--force", s(&archive), "-o", s(&out)]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.err.contains(s(&archive)) && r.err.contains("sub/x/y.bin"),
        "{}",
        r.err
    );
    assert_eq!(listing(&out), ["sub"]);
}

/// A name longer than a file system allows is refused before anything is written, and the error names the
/// archive and the entry.
#[test]
fn extract_refuses_a_name_too_long_naming_the_archive() {
    if fixture_sarc().is_none() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let long = format!("dir/{}.bin", "n".repeat(300));
    let archive = d.path().join("a.sarc");
    std::fs::write(&archive, sarc_with(&[("a.bin", b"1"), (&long, b"2")])).unwrap();
    let out = d.path().join("out");
    let r = run(&["extract", s(&archive), "-o", s(&out)]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.err.contains(s(&archive)) && r.err.contains(&long[..20]) && r.err.contains("too long"),
        "{}",
        r.err
    );
    assert!(listing(&out).is_empty(), "{:?}", listing(&out));
}

// ---- SARC entries without names ----

fn unnamed(hash: Option<u32>, data: &[u8]) -> SfatEntry {
    SfatEntry {
        name: None,
        name_hash: hash,
        data: data.to_vec().into(),
        ..Default::default()
    }
}

fn named(name: &str, data: &[u8]) -> SfatEntry {
    SfatEntry {
        name: Some(name.into()),
        data: data.to_vec().into(),
        ..Default::default()
    }
}

fn bflim_like() -> Vec<u8> {
    let mut v = vec![0x11u8; 0x40];
    v.extend_from_slice(b"FLIM\xfe\xff\x00\x14");
    v.extend_from_slice(&[0; 0x20]);
    v
}

/// An archive mixing unnamed entries (each kind of data the extension is guessed for) and named ones, one of
/// them named like an unnamed entry's file.
fn mixed_sarc() -> Vec<u8> {
    let mut a = Sarc::from_binary(&std::fs::read(fixture_sarc().unwrap()).unwrap()).unwrap();
    a.sfat.entries = vec![
        unnamed(Some(0x0badf00d), b"FLYT\xfe\xff\x00\x14 layout"),
        unnamed(Some(0x00c0ffee), &bflim_like()),
        unnamed(Some(0x12345678), b"\x01\x02\x03"),
        unnamed(None, b"YB\x03\x00 byml"),
        unnamed(Some(0x0000abcd), b"Yaz0\0\0\0\0\0\0\0\0\0\0\0\0"),
        unnamed(Some(0x0000abce), b"SARC\x00\x14\xfe\xff"),
        unnamed(Some(0x0000abcf), b"FLAN\xfe\xff\x00\x14"),
        unnamed(Some(0x0000abd0), b"BY\x00\x03"),
        named("0xdeadbeef.bin", b"a named file"),
        named("dir/named.txt", b"another"),
    ];
    let bytes = a.to_binary().unwrap();
    // The unnamed entries read back unnamed.
    let back = Sarc::from_binary(&bytes).unwrap();
    assert_eq!(
        back.sfat
            .entries
            .iter()
            .filter(|e| e.name.is_none())
            .count(),
        8
    );
    bytes
}

#[test]
fn unnamed_entries_extract_under_their_hash_and_pack_back() {
    if fixture_sarc().is_none() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let archive = d.path().join("a.sarc");
    let orig = mixed_sarc();
    std::fs::write(&archive, &orig).unwrap();
    let x = d.path().join("x");
    let r = run(&["extract", s(&archive), "-o", s(&x)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(
        listing(&x),
        [
            ".binspec-archive.yaml",
            "0x00000000.byml",
            "0x0000abcd.szs",
            "0x0000abce.sarc",
            "0x0000abcf.bflan",
            "0x0000abd0.byml",
            "0x00c0ffee.bflim",
            "0x0badf00d.bflyt",
            "0x12345678.bin",
            "0xdeadbeef.bin",
            "dir",
            "dir/named.txt",
        ]
    );
    assert_eq!(std::fs::read(x.join("0x12345678.bin")).unwrap(), [1, 2, 3]);
    assert_eq!(
        std::fs::read(x.join("0xdeadbeef.bin")).unwrap(),
        b"a named file"
    );
    let out = d.path().join("out.sarc");
    let r = run(&["pack", s(&x), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        std::fs::read(&out).unwrap() == orig,
        "pack gave other bytes"
    );

    // An edited unnamed file stays unnamed, under its extension or another; a new file named like an unnamed
    // entry that the archive does not have is a new named file.
    std::fs::write(x.join("0x12345678.bin"), b"edited").unwrap();
    std::fs::rename(x.join("0x0badf00d.bflyt"), x.join("0x0badf00d.bin")).unwrap();
    std::fs::write(x.join("0x11111111.bin"), b"new").unwrap();
    let r = run(&["pack", s(&x), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let back = Sarc::from_binary(&std::fs::read(&out).unwrap()).unwrap();
    let find = |pred: &dyn Fn(&SfatEntry) -> bool| {
        back.sfat
            .entries
            .iter()
            .find(|e| pred(e))
            .map(|e| e.data.to_vec())
    };
    assert_eq!(
        find(&|e| e.name.is_none() && e.name_hash == Some(0x12345678)),
        Some(b"edited".to_vec())
    );
    assert_eq!(
        find(&|e| e.name.is_none() && e.name_hash == Some(0x0badf00d)),
        Some(b"FLYT\xfe\xff\x00\x14 layout".to_vec())
    );
    assert_eq!(
        find(&|e| e.name.as_deref() == Some("0x11111111.bin")),
        Some(b"new".to_vec())
    );
    assert_eq!(back.sfat.entries.len(), 11);

    // Two files for one unnamed entry: refused, naming both.
    std::fs::write(x.join("0x12345678.dat"), b"twice").unwrap();
    let r = run(&["pack", s(&x), "-o", s(&out)]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.err.contains("0x12345678.bin") && r.err.contains("0x12345678.dat"),
        "{}",
        r.err
    );
}

/// A named entry and an unnamed one that would be extracted under the same name: refused, nothing written.
#[test]
fn unnamed_entry_whose_file_name_a_named_entry_has_is_refused() {
    if fixture_sarc().is_none() {
        return;
    }
    let mut a = Sarc::from_binary(&std::fs::read(fixture_sarc().unwrap()).unwrap()).unwrap();
    a.sfat.entries = vec![
        unnamed(Some(0x12345678), b"\x01\x02\x03"),
        named("0x12345678.bin", b"named"),
    ];
    let d = tempfile::tempdir().unwrap();
    let archive = d.path().join("a.sarc");
    std::fs::write(&archive, a.to_binary().unwrap()).unwrap();
    let x = d.path().join("x");
    let r = run(&["extract", s(&archive), "-o", s(&x)]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.err.contains(s(&archive))
            && r.err.contains("0x12345678.bin")
            && r.err.contains("without a name"),
        "{}",
        r.err
    );
    assert!(!x.exists());
}

/// The Wii U layout archive whose 457 entries have no names: extract, pack with Yaz0, same bytes.
#[test]
fn real_unnamed_archive_round_trips() {
    let p = repo().join("../shared/corpus/real/ui2d/common.szs");
    if !p.exists() || !has_format("sarc") {
        eprintln!("skipped: {} is absent", p.display());
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let x = d.path().join("x");
    let r = run(&["extract", s(&p), "-o", s(&x)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let names = listing(&x);
    assert_eq!(names.len(), 458, "{names:?}");
    assert!(names.iter().any(|n| n.ends_with(".bflyt")));
    assert!(names.iter().any(|n| n.ends_with(".bflan")));
    assert!(names.iter().any(|n| n.ends_with(".bflim")));
    let out = d.path().join("out.szs");
    let r = run(&["pack", s(&x), "-o", s(&out), "--compress", "yaz0"]);
    assert_eq!(r.code, 0, "{}", r.err);
    let (got, want) = (std::fs::read(&out).unwrap(), std::fs::read(&p).unwrap());
    let unyaz = |b: &[u8]| binspec_runtime::compress::decompress(b).unwrap().0;
    let sarc = unyaz(&want);
    assert!(unyaz(&got) == sarc, "the archive differs");
    // binspec's Yaz0 encoder does not choose the matches Nintendo's did (its output is 2,881 bytes longer), so
    // the compressed bytes are compared with binspec's compression of the original archive.
    let header = binspec_runtime::compress::yaz0_header(&want).unwrap();
    let again = binspec_runtime::compress::compress_yaz0(&sarc, header.alignment).unwrap();
    assert!(got == again, "pack compressed the archive otherwise");
}

// ---- stale temporary files ----

#[test]
fn stale_temporary_files_are_removed_on_the_next_write() {
    let Some(sarc) = fixture_sarc() else { return };
    let d = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let me = std::process::id();
    let put = |name: &str, age: Duration| {
        let p = d.path().join(name);
        std::fs::write(&p, "partial").unwrap();
        let f = std::fs::File::options().write(true).open(&p).unwrap();
        f.set_modified(SystemTime::now() - age).unwrap();
    };
    let fresh = Duration::from_secs(5);
    let old = Duration::from_secs(3 * 3600);
    put(&format!(".binspec-{dead}-aaaaaa.tmp"), fresh); // its writer is gone
    put(&format!(".binspec-{me}-bbbbbb.tmp"), fresh); // being written
    put(&format!(".binspec-{me}-cccccc.tmp"), old); // not touched for hours
    put(".binspec-dddddd.tmp", old); // older binspec: no pid
    put(".binspec-eeeeee.tmp", fresh);
    put(".other-1-x.tmp", old); // not binspec's
    let r = run(&["decode", s(&sarc), "-o", s(&d.path().join("a.yaml"))]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(
        listing(d.path()),
        [
            format!(".binspec-{me}-bbbbbb.tmp"),
            ".binspec-eeeeee.tmp".into(),
            ".other-1-x.tmp".into(),
            "a.yaml".into(),
        ]
    );
}
