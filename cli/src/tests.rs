//! Tests of every command against formats made up here: `toy` (an archive, magic `TOY0`) and `blob` (not an
//! archive, magic `BLB1`).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use binspec_runtime::compress::{self, Compression};
use binspec_runtime::{
    Archive, DynFormat, Endian, Error, Format, FormatHandle, Info, Reader, ResultExt,
};

use crate::archive::{plan_extract, safe_relative_path, SETTINGS_FILE};
use crate::check::first_difference;
use crate::files::doc_header;

// ----------------------------------------------------------------------------------------------------------------
// The toy archive: "TOY0", u32 flags, u32 count, then per file: u16 name length, name, u32 data length, data.
// Bytes after the last file are ignored by the reader (so such files write back differently).

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Toy {
    flags: u32,
    #[serde(default)]
    files: Vec<ToyFile>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct ToyFile {
    name: String,
    data: Vec<u8>,
}

impl Format for Toy {
    const ID: &'static str = "toy";
    const TITLE: &'static str = "Toy archive";
    const EXTENSIONS: &'static [&'static str] = &["toy"];

    fn sniff(data: &[u8]) -> bool {
        data.starts_with(b"TOY0")
    }

    fn from_binary(data: &[u8]) -> binspec_runtime::Result<Self> {
        let r = &mut Reader::new(data);
        let inner = |r: &mut Reader| -> binspec_runtime::Result<Toy> {
            r.expect(b"TOY0").at("magic")?;
            let flags = r.u32(Endian::Little).at("flags")?;
            let count = r.u32(Endian::Little).at("count")?;
            let cap = r.check_count(count as u64, 6).at("count")?;
            let mut files = Vec::with_capacity(cap);
            for i in 0..count as usize {
                let f = (|| {
                    let n = r.u16(Endian::Little).at("name_len")?;
                    let at = r.abs_pos();
                    let name = String::from_utf8(r.bytes(n as u64).at("name")?.to_vec())
                        .map_err(|_| Error::invalid(at, "name is not UTF-8").at("name"))?;
                    let len = r.u32(Endian::Little).at("data_len")?;
                    let data = r.bytes(len as u64).at("data")?.to_vec();
                    Ok(ToyFile { name, data })
                })()
                .at_index(i)
                .at("files")?;
                files.push(f);
            }
            Ok(Toy { flags, files })
        };
        inner(r).map_err(|e| e.in_format("toy"))
    }

    fn to_binary(&self) -> binspec_runtime::Result<Vec<u8>> {
        let mut out = b"TOY0".to_vec();
        out.extend_from_slice(&self.flags.to_le_bytes());
        out.extend_from_slice(&(self.files.len() as u32).to_le_bytes());
        for (i, f) in self.files.iter().enumerate() {
            if f.name.is_empty() {
                return Err(Error::write("a file name may not be empty")
                    .at("name")
                    .at_index(i)
                    .at("files")
                    .in_format("toy"));
            }
            out.extend_from_slice(&(f.name.len() as u16).to_le_bytes());
            out.extend_from_slice(f.name.as_bytes());
            out.extend_from_slice(&(f.data.len() as u32).to_le_bytes());
            out.extend_from_slice(&f.data);
        }
        Ok(out)
    }

    fn info(&self) -> Info {
        Info {
            format: Self::ID,
            version: Some("0".into()),
            endian: Some(Endian::Little),
            summary: vec![("files".into(), self.files.len().to_string())],
        }
    }
}

impl binspec_runtime::ArchiveEntry for ToyFile {
    fn name(&self) -> Option<&str> {
        Some(&self.name)
    }
    fn set_name(&mut self, name: &str) {
        self.name = name.to_string();
    }
    fn data(&self) -> &[u8] {
        &self.data
    }
    fn set_data(&mut self, data: binspec_runtime::Bytes) -> binspec_runtime::Bytes {
        std::mem::replace(&mut self.data, data.to_vec()).into()
    }
}

impl Archive for Toy {
    type Entry = ToyFile;
    fn entries(&self) -> &[ToyFile] {
        &self.files
    }
    fn entries_mut(&mut self) -> &mut Vec<ToyFile> {
        &mut self.files
    }
}

binspec_runtime::impl_archive_dyn!(Toy);

/// Not an archive: "BLB1" and a u32.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Blob {
    value: u32,
}

impl Format for Blob {
    const ID: &'static str = "blob";
    const TITLE: &'static str = "Blob";
    const EXTENSIONS: &'static [&'static str] = &["blob", "blb"];
    fn sniff(data: &[u8]) -> bool {
        data.starts_with(b"BLB1")
    }
    fn from_binary(data: &[u8]) -> binspec_runtime::Result<Self> {
        let r = &mut Reader::new(data);
        r.expect(b"BLB1")
            .at("magic")
            .map_err(|e| e.in_format("blob"))?;
        Ok(Blob {
            value: r
                .u32(Endian::Big)
                .at("value")
                .map_err(|e| e.in_format("blob"))?,
        })
    }
    fn to_binary(&self) -> binspec_runtime::Result<Vec<u8>> {
        let mut out = b"BLB1".to_vec();
        out.extend_from_slice(&self.value.to_be_bytes());
        Ok(out)
    }
    fn info(&self) -> Info {
        Info {
            format: Self::ID,
            version: None,
            endian: Some(Endian::Big),
            summary: vec![],
        }
    }
}

impl binspec_runtime::MaybeArchive for Blob {}

static TOY: FormatHandle<Toy> = FormatHandle::new();
static BLOB: FormatHandle<Blob> = FormatHandle::new();

fn registry() -> Vec<&'static dyn DynFormat> {
    vec![&TOY, &BLOB]
}

fn toy_bytes(files: &[(&str, &[u8])]) -> Vec<u8> {
    Toy {
        flags: 7,
        files: files
            .iter()
            .map(|(n, d)| ToyFile {
                name: n.to_string(),
                data: d.to_vec(),
            })
            .collect(),
    }
    .to_binary()
    .unwrap()
}

fn sample_toy() -> Vec<u8> {
    toy_bytes(&[
        ("a.txt", b"hello"),
        ("dir/b.bin", &[1, 2, 3]),
        ("dir/sub/c", b""),
    ])
}

// ----------------------------------------------------------------------------------------------------------------
// Running commands.

struct Run {
    code: u8,
    out: String,
    err: String,
}

fn run_with(registry: &[&'static dyn DynFormat], args: &[&str]) -> Run {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let argv = std::iter::once("binspec").chain(args.iter().copied());
    let code = crate::run_from(argv, registry, &mut out, &mut err, false);
    Run {
        code,
        out: String::from_utf8(out).unwrap(),
        err: String::from_utf8(err).unwrap(),
    }
}

fn run(args: &[&str]) -> Run {
    run_with(&registry(), args)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn write(dir: &Path, name: &str, data: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, data).unwrap();
    p
}

/// The names in a folder (recursively, `/`-separated), sorted.
fn listing(dir: &Path) -> Vec<String> {
    crate::files::walk(dir)
        .unwrap()
        .into_iter()
        .map(|p| {
            p.strip_prefix(dir)
                .unwrap()
                .to_str()
                .unwrap()
                .replace('\\', "/")
        })
        .collect()
}

// ----------------------------------------------------------------------------------------------------------------
// Pieces.

#[test]
fn names_that_leave_the_folder_are_refused() {
    for bad in [
        "",
        "../evil",
        "a/../../evil",
        "/etc/passwd",
        "a//b",
        "a/",
        "./a",
        "a/.",
        "a\\..\\b",
        "x\0y",
        SETTINGS_FILE,
    ] {
        assert!(safe_relative_path(bad).is_err(), "{bad:?} accepted");
    }
    for good in [
        "a",
        "a/b/c.txt",
        "Actor/Pack/Link.bactorpack",
        "..hidden",
        "a..b",
        ".x",
    ] {
        assert!(safe_relative_path(good).is_ok(), "{good:?} refused");
    }
    assert!(plan_extract(&["a", "a"]).unwrap_err().contains("two files"));
    assert!(plan_extract(&["a", "a/b"])
        .unwrap_err()
        .contains("other files under"));
    assert!(plan_extract(&["a/b", "a"]).is_err());
    assert_eq!(plan_extract(&["a/b", "a/c", "b"]).unwrap().len(), 3);
}

#[test]
fn first_differences() {
    assert_eq!(first_difference(b"abc", b"abc"), None);
    assert_eq!(first_difference(b"abc", b"abd"), Some(2));
    assert_eq!(first_difference(b"abc", b"abcd"), Some(3));
    assert_eq!(first_difference(b"", b"a"), Some(0));
}

#[test]
fn document_headers() {
    let h = doc_header("# binspec: sarc\n# compression: yaz0, alignment 0x80 (encode with ...)\nflags: 1\n# binspec: x\n");
    assert_eq!(h.format.as_deref(), Some("sarc"));
    assert_eq!(h.compression, Some(Compression::Yaz0));
    assert_eq!(h.yaz0_alignment, Some(0x80));
    let h = doc_header("\n#binspec:toy\nflags: 1\n");
    assert_eq!(h.format.as_deref(), Some("toy"));
    assert_eq!(h.compression, None);
    assert_eq!(doc_header("flags: 1\n# binspec: toy\n").format, None);
}

#[test]
fn formats_by_extension() {
    let reg = registry();
    let id = |p: &str| crate::formats::by_extension(&reg, Path::new(p)).map(|f| f.id());
    assert_eq!(id("x.toy"), Some("toy"));
    assert_eq!(id("dir.d/x.BLB"), Some("blob"));
    assert_eq!(id("x.toy.zs"), Some("toy"));
    assert_eq!(id("x.bin"), None);
    assert_eq!(id("toy"), None);
    assert_eq!(id("x.toy.bin"), None);
}

// ----------------------------------------------------------------------------------------------------------------
// Commands.

#[test]
fn usage_errors_exit_2() {
    let r = run(&["frobnicate"]);
    assert_eq!(r.code, 2);
    assert!(r.err.starts_with("error: "), "{}", r.err);
    assert_eq!(run(&["decode"]).code, 2);
    assert_eq!(run(&["encode", "x.yaml"]).code, 2, "missing -o");
    assert_eq!(run(&["check"]).code, 2);
    assert_eq!(
        run(&["encode", "x.yaml", "-o", "y", "--compress", "lz4"]).code,
        2
    );
    let d = tmp();
    let f = write(d.path(), "a.toy", &sample_toy());
    let r = run(&["info", s(&f), "--format", "nope"]);
    assert_eq!(r.code, 2);
    assert!(
        r.err
            .contains("unknown format `nope` (known formats: toy, blob)"),
        "{}",
        r.err
    );
    let h = run(&["--help"]);
    assert_eq!(h.code, 0);
    assert!(h.out.contains("extract"), "{}", h.out);
}

#[test]
fn info_detects_the_format() {
    let d = tmp();
    let f = write(d.path(), "file.bin", &sample_toy());
    let r = run(&["info", s(&f)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let lines: Vec<&str> = r.out.lines().collect();
    assert_eq!(lines[0], "toy: Toy archive");
    assert!(lines.contains(&"version: 0"));
    assert!(lines.contains(&"byte order: little"));
    assert!(lines.contains(&"files: 3"));
    assert!(!r.out.contains("compression"));

    let b = write(d.path(), "b", b"BLB1\0\0\0\x2a");
    assert!(run(&["info", s(&b)]).out.starts_with("blob: Blob\n"));
    let j = run(&["info", "--json", s(&b)]);
    let v: serde_json::Value = serde_json::from_str(&j.out).unwrap();
    assert_eq!(v["format"], "blob");
    assert_eq!(v["compression"], "none");

    // --format overrides the magic: a toy read as a blob fails with the field path.
    let r = run(&["info", "--format", "blob", s(&f)]);
    assert_eq!(r.code, 1);
    assert!(
        r.err.starts_with("error: ") && r.err.contains("blob.magic: expected bytes"),
        "{}",
        r.err
    );

    // Compressed files are decompressed and say so.
    let z = write(
        d.path(),
        "file.szs",
        &compress::compress_yaz0(&sample_toy(), 0x80).unwrap(),
    );
    let r = run(&["info", s(&z)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.starts_with("toy: "));
    assert!(
        r.out.contains("compression: yaz0, alignment 0x80"),
        "{}",
        r.out
    );
    let z = write(
        d.path(),
        "file.zs",
        &compress::compress(&sample_toy(), Compression::Zstd).unwrap(),
    );
    assert!(run(&["info", s(&z)]).out.contains("compression: zstd"));
}

#[test]
fn unknown_and_broken_files_exit_1() {
    let d = tmp();
    let r = run(&["info", s(&d.path().join("missing.toy"))]);
    assert_eq!(r.code, 1);
    assert!(
        r.err.starts_with("error: ") && r.err.contains("missing.toy"),
        "{}",
        r.err
    );

    let u = write(d.path(), "u.dat", b"GARBAGE!");
    let r = run(&["decode", s(&u)]);
    assert_eq!(r.code, 1);
    assert!(
        r.err
            .contains("not a known format (starts with \"GARB\" (47 41 52 42))"),
        "{}",
        r.err
    );

    // A truncated toy: the error names the field and the offset.
    let mut t = sample_toy();
    t.truncate(35);
    let t = write(d.path(), "t.toy", &t);
    let r = run(&["decode", s(&t)]);
    assert_eq!(r.code, 1);
    let expected = format!(
        "error: {}: toy.files[1].name: needs 0x9 bytes at offset 0x1e, past the end",
        s(&t)
    );
    assert!(r.err.starts_with(&expected), "{}", r.err);
    assert_eq!(r.err.lines().count(), 1);

    // Broken compression.
    let y = write(d.path(), "y.szs", b"Yaz0\0\0\0\x10\0\0\0\0\0\0\0\0\xff");
    let r = run(&["info", s(&y)]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("yaz0: needs 0x1 bytes"), "{}", r.err);

    // No formats at all.
    let r = run_with(&[], &["info", s(&u)]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("built without formats"), "{}", r.err);
}

/// A file whose document does not hold every byte (the toy reader ignores bytes after its last file): `decode`
/// still writes the document, and says on standard error that encoding it gives another file, and where.
#[test]
fn decode_says_when_the_document_does_not_hold_every_byte() {
    let d = tmp();
    let mut bytes = sample_toy();
    let n = bytes.len();
    bytes.extend_from_slice(b"junk");
    let f = write(d.path(), "t.toy", &bytes);
    let r = run(&["decode", s(&f)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.starts_with("# binspec: toy\n"), "{}", r.out);
    assert!(
        r.err.contains("warning:")
            && r.err.contains("does not hold every byte")
            && r.err.contains(&format!("{n:#x}")),
        "{}",
        r.err
    );
    // A file that it holds whole: no warning.
    let f = write(d.path(), "ok.toy", &sample_toy());
    let r = run(&["decode", s(&f)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(!r.err.contains("warning"), "{}", r.err);
}

#[test]
fn decode_and_encode_round_trip() {
    let d = tmp();
    let orig = sample_toy();
    let f = write(d.path(), "a.toy", &orig);

    let r = run(&["decode", s(&f)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.starts_with("# binspec: toy\n"), "{}", r.out);
    let yaml = write(d.path(), "a.yaml", r.out.as_bytes());
    let out = d.path().join("out.bin");
    let r = run(&["encode", s(&yaml), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(&out).unwrap(), orig);

    // decode -o
    let yaml2 = d.path().join("b.yaml");
    assert_eq!(run(&["decode", s(&f), "-o", s(&yaml2)]).code, 0);
    assert!(std::fs::read_to_string(&yaml2)
        .unwrap()
        .starts_with("# binspec: toy\n"));

    // JSON: no header, so the format comes from --format or the output's extension.
    let r = run(&["decode", "--json", s(&f)]);
    assert!(r.out.trim_start().starts_with('{'), "{}", r.out);
    let json = write(d.path(), "a.json", r.out.as_bytes());
    let r = run(&["encode", s(&json), "-o", s(&d.path().join("x.bin"))]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("pass --format ID"), "{}", r.err);
    assert!(!d.path().join("x.bin").exists());
    let r = run(&[
        "encode",
        s(&json),
        "-o",
        s(&d.path().join("x.bin")),
        "--format",
        "toy",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(d.path().join("x.bin")).unwrap(), orig);
    let r = run(&["encode", s(&json), "-o", s(&d.path().join("x.toy"))]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(d.path().join("x.toy")).unwrap(), orig);

    // A YAML document without the header line, written to a .toy file, works by extension too.
    let bare = write(
        d.path(),
        "bare.yaml",
        b"flags: 3\nfiles:\n- name: q\n  data: [1, 2]\n",
    );
    let r = run(&["encode", s(&bare), "-o", s(&d.path().join("bare.toy"))]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(
        std::fs::read(d.path().join("bare.toy")).unwrap(),
        toy_bytes_flags(3, &[("q", &[1, 2])])
    );
}

fn toy_bytes_flags(flags: u32, files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut b = toy_bytes(files);
    b[4..8].copy_from_slice(&flags.to_le_bytes());
    b
}

#[test]
fn compressed_documents_and_outputs() {
    let d = tmp();
    let orig = sample_toy();
    let f = write(
        d.path(),
        "a.szs",
        &compress::compress_yaz0(&orig, 0x80).unwrap(),
    );
    let r = run(&["decode", s(&f)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let mut lines = r.out.lines();
    assert_eq!(lines.next(), Some("# binspec: toy"));
    assert!(lines
        .next()
        .unwrap()
        .starts_with("# compression: yaz0, alignment 0x80"));
    let yaml = write(d.path(), "a.yaml", r.out.as_bytes());

    // Without --compress: plain output, and a note.
    let plain = d.path().join("plain.toy");
    let r = run(&["encode", s(&yaml), "-o", s(&plain)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.err.contains("note:") && r.err.contains("--compress yaz0"),
        "{}",
        r.err
    );
    assert_eq!(std::fs::read(&plain).unwrap(), orig);

    // With --compress yaz0: the document's alignment is kept unless --yaz0-alignment says otherwise.
    let y = d.path().join("y.szs");
    assert_eq!(
        run(&["encode", s(&yaml), "-o", s(&y), "--compress", "yaz0"]).code,
        0
    );
    let raw = std::fs::read(&y).unwrap();
    assert_eq!(compress::yaz0_header(&raw).unwrap().alignment, 0x80);
    assert_eq!(compress::decompress(&raw).unwrap().0, orig);
    assert_eq!(
        run(&[
            "encode",
            s(&yaml),
            "-o",
            s(&y),
            "--compress",
            "yaz0",
            "--yaz0-alignment",
            "0x2000"
        ])
        .code,
        0
    );
    assert_eq!(
        compress::yaz0_header(&std::fs::read(&y).unwrap())
            .unwrap()
            .alignment,
        0x2000
    );

    let z = d.path().join("z.zs");
    assert_eq!(
        run(&["encode", s(&yaml), "-o", s(&z), "--compress", "zstd"]).code,
        0
    );
    let raw = std::fs::read(&z).unwrap();
    assert_eq!(
        compress::decompress(&raw).unwrap(),
        (orig, Compression::Zstd)
    );
}

#[test]
fn failed_encode_leaves_no_output() {
    let d = tmp();
    let doc = write(
        d.path(),
        "bad.yaml",
        b"# binspec: toy\nflags: 1\nfiles:\n- name: ''\n  data: []\n",
    );
    let out = d.path().join("out.toy");
    let r = run(&["encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 1);
    assert!(
        r.err.starts_with("error: ")
            && r.err
                .contains("toy.files[0].name: a file name may not be empty"),
        "{}",
        r.err
    );
    assert!(!out.exists());

    // An existing output is left as it was; no temporary files stay behind.
    std::fs::write(&out, b"before").unwrap();
    assert_eq!(run(&["encode", s(&doc), "-o", s(&out)]).code, 1);
    assert_eq!(std::fs::read(&out).unwrap(), b"before");
    let text = write(d.path(), "syntax.yaml", b"# binspec: toy\nflags: [\n");
    let r = run(&["encode", s(&text), "-o", s(&out)]);
    assert_eq!(r.code, 1);
    assert_eq!(std::fs::read(&out).unwrap(), b"before");
    assert_eq!(listing(d.path()), ["bad.yaml", "out.toy", "syntax.yaml"]);

    // A folder that does not exist.
    let good = write(d.path(), "good.yaml", b"# binspec: toy\nflags: 1\n");
    let r = run(&["encode", s(&good), "-o", s(&d.path().join("nope/out.toy"))]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("does not exist"), "{}", r.err);
}

#[cfg(unix)]
#[test]
fn outputs_get_ordinary_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let d = tmp();
    let good = write(d.path(), "good.yaml", b"# binspec: toy\nflags: 1\n");
    let out = d.path().join("o.toy");
    assert_eq!(run(&["encode", s(&good), "-o", s(&out)]).code, 0);
    let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
    assert_ne!(
        mode & 0o044,
        0,
        "mode {mode:o}: a temporary file's 0600 leaked into the output"
    );
}

#[test]
fn inputs_are_not_overwritten_without_force() {
    let d = tmp();
    let f = write(d.path(), "a.toy", &sample_toy());
    let r = run(&["decode", s(&f), "-o", s(&f)]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("refusing to overwrite"), "{}", r.err);
    assert_eq!(std::fs::read(&f).unwrap(), sample_toy());

    let doc = write(d.path(), "a.yaml", b"# binspec: toy\nflags: 1\n");
    assert_eq!(run(&["encode", s(&doc), "-o", s(&doc)]).code, 2);
    let r = run(&["encode", "--force", s(&doc), "-o", s(&doc)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(&doc).unwrap(), toy_bytes_flags(1, &[]));
}

#[test]
fn check_compares_round_trips() {
    let d = tmp();
    write(d.path(), "good/a.toy", &sample_toy());
    write(
        d.path(),
        "good/b.szs",
        &compress::compress_yaz0(&sample_toy(), 0).unwrap(),
    );
    write(d.path(), "good/c.blob", b"BLB1\0\0\0\x01");
    write(d.path(), "good/readme.txt", b"not a game file");
    let r = run(&["check", s(&d.path().join("good"))]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        !r.out.contains("DIFF") && !r.out.contains("FAIL"),
        "{}",
        r.out
    );
    let row = |out: &str, name: &str| -> Vec<String> {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no row {name} in\n{out}"))
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    // format files identical differ failed skipped bytes...
    assert_eq!(row(&r.out, "toy")[1..6], ["2", "2", "0", "0", "0"]);
    assert_eq!(row(&r.out, "blob")[1..6], ["1", "1", "0", "0", "0"]);
    assert_eq!(row(&r.out, "(unknown)")[1..6], ["1", "0", "0", "0", "1"]);
    assert_eq!(row(&r.out, "total")[1..6], ["4", "3", "0", "0", "1"]);

    // Differences and failures.
    let mut trailing = sample_toy();
    let n = trailing.len();
    trailing.extend_from_slice(b"junk");
    write(d.path(), "bad/diff.toy", &trailing);
    let mut cut = sample_toy();
    cut.truncate(30);
    write(d.path(), "bad/cut.toy", &cut);
    write(d.path(), "bad/ok.toy", &sample_toy());
    write(d.path(), "bad/other.dat", b"????");
    let r = run(&["check", s(&d.path().join("bad"))]);
    assert_eq!(r.code, 1);
    let diff = format!(
        "DIFF {}: first difference at offset {n:#x} (sizes {:#x} vs {n:#x})",
        s(&d.path().join("bad/diff.toy")),
        n + 4
    );
    assert!(r.out.contains(&diff), "{}", r.out);
    assert!(
        r.out.contains(&format!(
            "FAIL {}: toy.files[",
            s(&d.path().join("bad/cut.toy"))
        )),
        "{}",
        r.out
    );
    assert_eq!(row(&r.out, "toy")[1..6], ["3", "1", "1", "1", "0"]);
    assert!(
        r.err.starts_with("error: 1 of 3 files differ and 1 failed"),
        "{}",
        r.err
    );

    // --format: files of another format in folders are skipped.
    let r = run(&["check", "--format", "blob", s(&d.path().join("good"))]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert_eq!(row(&r.out, "blob")[1..6], ["1", "1", "0", "0", "0"]);
    assert_eq!(row(&r.out, "(unknown)")[1..6], ["3", "0", "0", "0", "3"]);
}

#[test]
fn check_with_format_takes_files_by_extension_too() {
    let d = tmp();
    write(d.path(), "odd.blb", b"NOPE\0\0\0\0");
    write(d.path(), "fine.blob", b"BLB1\0\0\0\0");
    write(d.path(), "other.dat", b"NOPE\0\0\0\0");
    // Without --format the magic decides: odd.blb is skipped.
    let r = run(&["check", s(d.path())]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    // With it, the extension also selects files (think of headerless formats): odd.blb is read, and fails.
    let r = run(&["check", "--format", "blob", s(d.path())]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("odd.blb: blob.magic: expected bytes"),
        "{}",
        r.out
    );
    assert!(!r.out.contains("other.dat"), "{}", r.out);
}

#[test]
fn check_named_files_must_have_a_format() {
    let d = tmp();
    let u = write(d.path(), "readme.txt", b"text");
    let r = run(&["check", s(&u)]);
    assert_eq!(r.code, 1);
    assert!(
        r.out
            .contains(&format!("FAIL {}: not a known format", s(&u))),
        "{}",
        r.out
    );
    let r = run(&["check", s(&d.path().join("missing"))]);
    assert_eq!(r.code, 1);
    assert!(r.out.contains("FAIL"), "{}", r.out);
    // Named with --format, a file is read as that format whatever its magic.
    let r = run(&["check", "--format", "toy", s(&u)]);
    assert_eq!(r.code, 1);
    assert!(r.out.contains("toy.magic: expected bytes"), "{}", r.out);
}

#[test]
fn check_empty_folder_succeeds() {
    let d = tmp();
    let r = run(&["check", s(d.path())]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.lines().any(|l| l.starts_with("total")), "{}", r.out);
    let r = run_with(&[], &["check", s(d.path())]);
    assert_eq!(r.code, 0, "{}", r.err);
}

#[test]
fn extract_and_pack_round_trip() {
    let d = tmp();
    let orig = sample_toy();
    let a = write(
        d.path(),
        "a.szs",
        &compress::compress_yaz0(&orig, 0).unwrap(),
    );
    let out = d.path().join("x");
    let r = run(&["extract", s(&a), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(
        listing(&out),
        [SETTINGS_FILE, "a.txt", "dir/b.bin", "dir/sub/c"]
    );
    assert_eq!(std::fs::read(out.join("dir/b.bin")).unwrap(), [1, 2, 3]);
    let settings = std::fs::read_to_string(out.join(SETTINGS_FILE)).unwrap();
    assert!(
        settings.starts_with("# binspec: toy\n# compression: yaz0"),
        "{settings}"
    );
    // The settings keep each entry (and so its layout choices) with its data emptied.
    assert!(
        settings.contains("name: a.txt") && settings.contains("data: []"),
        "{settings}"
    );

    let packed = d.path().join("p.toy");
    let r = run(&["pack", s(&out), "-o", s(&packed)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.err.contains("--compress yaz0"), "{}", r.err);
    assert_eq!(std::fs::read(&packed).unwrap(), orig);

    // Edit: add a file, change one; names are sorted.
    write(&out, "0new/z", b"zz");
    write(&out, "a.txt", b"bye");
    let r = run(&["pack", s(&out), "-o", s(&packed), "--compress", "zstd"]);
    assert_eq!(r.code, 0, "{}", r.err);
    let (bytes, c) = compress::decompress(&std::fs::read(&packed).unwrap()).unwrap();
    assert_eq!(c, Compression::Zstd);
    assert_eq!(
        bytes,
        toy_bytes_flags(
            7,
            &[
                ("0new/z", b"zz"),
                ("a.txt", b"bye"),
                ("dir/b.bin", &[1, 2, 3]),
                ("dir/sub/c", b"")
            ]
        )
    );

    // Not into a folder that is not empty, unless --force.
    let r = run(&["extract", s(&a), "-o", s(&out)]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("is not empty"), "{}", r.err);
    assert_eq!(run(&["extract", "--force", s(&a), "-o", s(&out)]).code, 0);
    assert_eq!(std::fs::read(out.join("a.txt")).unwrap(), b"hello");

    // Not into the folder being packed.
    let r = run(&["pack", s(&out), "-o", s(&out.join("p.toy"))]);
    assert_eq!(r.code, 2, "{}", r.err);
    assert!(!out.join("p.toy").exists());
}

#[test]
fn extract_refuses_names_outside_the_folder() {
    for bad in [
        "../evil",
        "/tmp/binspec-evil-absolute",
        "a//b",
        "ok/../../evil",
        "a\\..\\evil",
    ] {
        let d = tmp();
        let a = write(
            d.path(),
            "a.toy",
            &toy_bytes(&[("fine.txt", b"1"), (bad, b"evil")]),
        );
        let out = d.path().join("x");
        let r = run(&["extract", s(&a), "-o", s(&out)]);
        assert_eq!(r.code, 1, "{bad}");
        assert!(
            r.err.starts_with("error: ") && r.err.contains("refusing the file name"),
            "{}",
            r.err
        );
        // Nothing at all was written.
        assert!(!out.exists(), "{bad}");
        assert_eq!(listing(d.path()), ["a.toy"], "{bad}");
    }
    assert!(!Path::new("/tmp/binspec-evil-absolute").exists());
}

#[cfg(unix)]
#[test]
fn extract_does_not_follow_links_out_of_the_folder() {
    let d = tmp();
    let outside = d.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    let out = d.path().join("x");
    std::fs::create_dir(&out).unwrap();
    std::os::unix::fs::symlink(&outside, out.join("dir")).unwrap();
    let a = write(d.path(), "a.toy", &toy_bytes(&[("dir/f", b"1")]));
    let r = run(&["extract", "--force", s(&a), "-o", s(&out)]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("leads outside"), "{}", r.err);
    assert!(!outside.join("f").exists());
}

#[test]
fn extract_and_pack_errors() {
    let d = tmp();
    let b = write(d.path(), "b.blob", b"BLB1\0\0\0\x01");
    let r = run(&["extract", s(&b), "-o", s(&d.path().join("x"))]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("blob is not an archive format"), "{}", r.err);

    let empty = d.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let r = run(&["pack", s(&empty), "-o", s(&d.path().join("o.toy"))]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains(SETTINGS_FILE), "{}", r.err);

    write(&empty, SETTINGS_FILE, b"flags: 1\n");
    let r = run(&["pack", s(&empty), "-o", s(&d.path().join("o.toy"))]);
    assert_eq!(r.code, 2);
    // Text errors read well: one `error: ` prefix.
    let r2 = run(&[
        "pack",
        "--format",
        "blob",
        s(&empty),
        "-o",
        s(&d.path().join("o.blob")),
    ]);
    assert_eq!(r2.code, 1);
    assert!(
        r2.err.starts_with("error: ") && r2.err.matches("error: ").count() == 1,
        "{}",
        r2.err
    );
    assert!(r.err.contains("pass --format"), "{}", r.err);
    let r = run(&[
        "pack",
        "--format",
        "toy",
        s(&empty),
        "-o",
        s(&d.path().join("o.toy")),
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(
        std::fs::read(d.path().join("o.toy")).unwrap(),
        toy_bytes_flags(1, &[])
    );
    write(&empty, SETTINGS_FILE, b"flags: 1\nvalue: 2\n");
    let r = run(&[
        "pack",
        "--format",
        "blob",
        s(&empty),
        "-o",
        s(&d.path().join("o.blob")),
    ]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("not an archive format"), "{}", r.err);
}

#[test]
fn formats_are_listed() {
    let r = run(&["formats"]);
    assert_eq!(r.code, 0);
    assert!(
        r.out.lines().next().unwrap().starts_with("toy "),
        "{}",
        r.out
    );
    assert!(r.out.contains(".blob .blb"));
}
