//! Small files that would expand to far more than their size (issue 19, item 9): data that many entries share,
//! subtrees and strings used over and over. Reading must refuse them with an error that says so, before anything
//! of that size is made — through the library and through the CLI's `decode`, `info` and `check`.

use binspec_formats::byml::Document;
use binspec_formats::sarc::Sarc;
use binspec_runtime::Format;
use binspec_tests::run;

/// A little-endian SARC whose `n` unnamed entries all point at the same `blob`-byte data.
pub fn sarc_sharing_one_blob(n: u32, blob: usize) -> Vec<u8> {
    let mut sfat = b"SFAT".to_vec();
    sfat.extend(0xcu16.to_le_bytes());
    sfat.extend((n as u16).to_le_bytes());
    sfat.extend(0x65u32.to_le_bytes());
    for i in 0..n {
        for v in [i, 0, 0, blob as u32] {
            sfat.extend(v.to_le_bytes());
        }
    }
    let mut body = sfat;
    body.extend(b"SFNT\x08\x00\x00\x00");
    let data_offset = (0x14 + body.len()).next_multiple_of(0x100);
    body.resize(data_offset - 0x14, 0);
    body.extend((0..blob).map(|i| (i * 7) as u8));
    let mut file = b"SARC".to_vec();
    file.extend(0x14u16.to_le_bytes());
    file.extend(0xfeffu16.to_le_bytes());
    file.extend(((0x14 + body.len()) as u32).to_le_bytes());
    file.extend((data_offset as u32).to_le_bytes());
    file.extend(0x100u16.to_le_bytes());
    file.extend(0u16.to_le_bytes());
    file.extend(body);
    file
}

/// A little-endian BYML (version 2) whose root array has `n` elements, all the same string of `len` bytes.
fn byml_one_string_many_times(n: u32, len: usize) -> Vec<u8> {
    let string_table = 0x10u32;
    // String table: header, one offset and the end offset, then the string and its NUL.
    let mut table = vec![0xc2, 1, 0, 0];
    table.extend(0x10u32.to_le_bytes());
    table.extend((0x10 + len as u32 + 1).to_le_bytes());
    table.extend(std::iter::repeat_n(b'x', len));
    table.push(0);
    while !table.len().is_multiple_of(4) {
        table.push(0);
    }
    let root = string_table + table.len() as u32;
    let mut file = b"YB".to_vec();
    file.extend(2u16.to_le_bytes());
    file.extend(0u32.to_le_bytes());
    file.extend(string_table.to_le_bytes());
    file.extend(root.to_le_bytes());
    file.extend(table);
    file.push(0xc0);
    file.extend(&n.to_le_bytes()[..3]);
    file.extend(std::iter::repeat_n(0xa0, n as usize));
    while !file.len().is_multiple_of(4) {
        file.push(0);
    }
    for _ in 0..n {
        file.extend(0u32.to_le_bytes());
    }
    file
}

#[test]
fn sarc_entries_sharing_one_blob_are_refused() {
    // 5,000 entries of the same 1 MiB: a 1.1 MB file that decoded to 6.7 GB of YAML and aborted.
    let file = sarc_sharing_one_blob(5000, 1 << 20);
    let e = Sarc::from_binary(&file).unwrap_err().to_string();
    assert!(
        e.starts_with(
            "sarc: the `data` and `names` items add up to 5242880000 bytes, more than 4 times the"
        ),
        "{e}"
    );
    // A few entries sharing data stay readable (the budget is 4 bytes per input byte plus 16 MiB).
    let few = sarc_sharing_one_blob(3, 1 << 20);
    let a = Sarc::from_binary(&few).unwrap();
    assert_eq!(a.sfat.entries.len(), 3);

    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("shared.sarc");
    std::fs::write(&path, &file).unwrap();
    let p = path.to_str().unwrap();
    for args in [
        vec!["decode", p],
        vec!["info", p],
        vec!["extract", p, "-o", d.path().join("x").to_str().unwrap()],
    ] {
        let r = run(&args);
        assert_eq!(r.code, 1, "{args:?}: {}", r.err);
        assert!(r.err.starts_with("error: "), "{args:?}: {}", r.err);
        assert!(
            r.err.contains("add up to 5242880000 bytes"),
            "{args:?}: {}",
            r.err
        );
        assert_eq!(r.err.lines().count(), 1, "{args:?}: {}", r.err);
    }
}

#[test]
fn byml_strings_used_over_and_over_are_refused() {
    // A 4 KiB string used 100,000 times: a 0.5 MB file whose tree held 410 MB of copies.
    let file = byml_one_string_many_times(100_000, 4096);
    assert!(file.len() < 600_000);
    let e = Document::from_binary(&file).unwrap_err().to_string();
    assert!(e.contains("the tree expands to more than"), "{e}");
    // The same string used a few times is read.
    let small = byml_one_string_many_times(10, 4096);
    let d = Document::from_binary(&small).unwrap();
    assert_eq!(d.root.as_array().map(|a| a.len()), Some(10));
}

/// Layout choices and sizes in a document that would make the writer pad by gigabytes are refused, naming the
/// field (issue 19, item 10: `data_alignment: 4294967295` and `path_size: 4294967295` aborted).
#[test]
fn huge_layout_values_in_documents_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let fixtures = binspec_tests::repo().join("tests/fixtures");
    for (rel, from, to, want) in [
        (
            "sarc/oead_le_new_min4.sarc",
            "data_alignment: 4\n",
            "data_alignment: 4294967295\n",
            "sarc.file_data.data_alignment: an alignment of 4294967295 (0xffffffff) is more than the largest",
        ),
        (
            "sarc/oead_le_new_min4.sarc",
            "    data_align: 8\n",
            "    data_align: 0x80000000\n",
            ".data_align: an alignment of 2147483648",
        ),
        (
            "rsizetable/restbl_names.rsizetable",
            "path_size: 160\n",
            "path_size: 4294967295\n",
            "bytes of padding; the writer pads a field with at most 0x100000 bytes",
        ),
    ] {
        let src = fixtures.join(rel);
        let text = run(&["decode", src.to_str().unwrap()]).out;
        assert!(text.contains(from), "{rel}: {from:?} not in\n{text}");
        let doc = d.path().join("doc.yaml");
        std::fs::write(&doc, text.replacen(from, to, 1)).unwrap();
        let out = d.path().join("out.bin");
        let r = run(&["encode", doc.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(r.code, 1, "{rel}: {}", r.err);
        assert!(r.err.contains(want), "{rel}: {}", r.err);
        assert!(!out.exists());
    }
}

/// zstd data that decompresses to `n` zero bytes after `head`, compressed as it is made (a few KB).
fn zstd_bomb(head: &[u8], n: usize) -> Vec<u8> {
    use std::io::Write as _;
    let mut enc = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
    enc.write_all(head).unwrap();
    let zeros = vec![0u8; 1 << 20];
    let mut left = n;
    while left > 0 {
        let k = left.min(zeros.len());
        enc.write_all(&zeros[..k]).unwrap();
        left -= k;
    }
    enc.finish().unwrap()
}

/// `check` on a folder tells a compressed file's format from its first bytes, so that files of no known format are
/// not decompressed whole; a known one that would decompress past the limit fails with a message saying how to
/// raise it (issue 19, item 11: six 35 KB zstd files of 1,000 MB each took 2 GB).
#[test]
fn check_decompresses_only_what_it_needs() {
    let d = tempfile::tempdir().unwrap();
    // Not a known format, and broken after its first block: decompressing it whole would fail.
    let mut broken = zstd_bomb(b"not a game file", 300 << 20);
    let cut = broken.len() - 64;
    broken[cut..].fill(0xff);
    std::fs::write(d.path().join("junk.bin.zs"), &broken).unwrap();
    // A SARC magic, then 300 MB.
    std::fs::write(
        d.path().join("big.sarc.zs"),
        zstd_bomb(b"SARC\x14\x00\xff\xfe", 300 << 20),
    )
    .unwrap();
    let r = run(&["check", d.path().to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}\n{}", r.out, r.err);
    assert!(!r.out.contains("junk.bin.zs"), "{}", r.out);
    let fail = r
        .out
        .lines()
        .find(|l| l.starts_with("FAIL"))
        .unwrap_or_default();
    assert!(
        fail.contains("big.sarc.zs")
            && fail.contains("zstd data decompresses to more than")
            && fail.contains("--max-size"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("1 failed")
            || r.out
                .lines()
                .any(|l| l.starts_with("total") && l.contains(" 1 ")),
        "{}",
        r.out
    );
    // With the limit raised, the file is read whole (and is not a valid SARC).
    let r = run(&[
        "check",
        "--max-size",
        "512M",
        d.path().join("big.sarc.zs").to_str().unwrap(),
    ]);
    assert_eq!(r.code, 1);
    assert!(!r.out.contains("--max-size"), "{}", r.out);
}

/// An input with no end is read up to a limit, then refused (issue 19, item 11: `info /dev/zero` never ended).
#[test]
fn endless_input_is_refused_at_the_limit() {
    if !std::path::Path::new("/dev/zero").exists() {
        eprintln!("skipped: no /dev/zero");
        return;
    }
    let r = run(&["info", "--max-size", "1M", "/dev/zero"]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert_eq!(
        r.err,
        "error: /dev/zero: more than 1048576 bytes came from it (an input with no end?); pass --max-size BYTES to \
         allow more\n"
    );
    let r = run(&["info", "--max-size", "lots", "/dev/zero"]);
    assert_eq!(r.code, 2, "{}", r.err);
}

/// An AINB file stores each name once, but its document holds a copy for every use: elements that share a long
/// property name (as the writer itself writes them) expand a small file (issue 19, item 9: "for every format").
#[test]
fn ainb_names_used_over_and_over_are_refused() {
    use binspec_formats::ainb::Document;
    let fixture = binspec_tests::repo().join("tests/fixtures/ainb/single_v407.ainb");
    let base = Document::from_binary(&std::fs::read(fixture).unwrap()).unwrap();
    let long: String = "n".repeat(60_000);
    let with = |n: usize| {
        let mut d = base.clone();
        let mut e = d.elements[0].clone();
        e.properties.s32[0].name = long.as_str().into();
        d.elements = vec![e; n];
        d.to_binary().unwrap()
    };
    // 4,000 elements: a 0.4 MB file whose names would take 240 MB as a document.
    let file = with(4000);
    assert!(file.len() < 1 << 20, "{}", file.len());
    let e = Document::from_binary(&file).unwrap_err().to_string();
    assert!(
        e.contains("would copy more names than 16 bytes per byte of the file"),
        "{e}"
    );
    // A few uses are read.
    let d = Document::from_binary(&with(8)).unwrap();
    assert_eq!(d.elements.len(), 8);
}
