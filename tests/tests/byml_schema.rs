//! The reader generated from `schemas/byml.ksy` (`binspec_formats::byml::raw`) over every BYML file of the shared
//! corpus (`../shared/corpus/oracle/byml`, written by oead and the `byml` package, and `real/byml`, from Super Mario
//! Odyssey and Splatoon 3) and of `tests/fixtures/byml`: each is checked against a small walk of its bytes written
//! here, independently of the schema, and written back byte for byte by the generated writer. Node types that no
//! such file has (hash arrays, remap tables, mono-typed arrays, binary data with alignment, a version 10 root) are
//! checked on small files built here from the wiki page's tables. The corpus tests skip, with a message, when the
//! corpus is absent.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use binspec_formats::byml::raw::{Byml, Node, NodeBody, Value, ValueData};
use binspec_runtime::{Endian, Format};

use binspec_tests::{difference, files_under, repo};

// ---------------------------------------------------------------------------------------------------------------
// A walk of the bytes, written from the wiki page without the schema: one line per node, `path what`.

struct Bytes<'a> {
    d: &'a [u8],
    le: bool,
    /// Nodes visited, to stop on a cyclic file.
    budget: usize,
}

impl Bytes<'_> {
    fn u8(&self, at: usize) -> u8 {
        self.d[at]
    }
    fn u32(&self, at: usize) -> u32 {
        let b: [u8; 4] = self.d[at..at + 4].try_into().unwrap();
        if self.le {
            u32::from_le_bytes(b)
        } else {
            u32::from_be_bytes(b)
        }
    }
    fn u64(&self, at: usize) -> u64 {
        let b: [u8; 8] = self.d[at..at + 8].try_into().unwrap();
        if self.le {
            u64::from_le_bytes(b)
        } else {
            u64::from_be_bytes(b)
        }
    }
    /// A container header (or a dictionary pair's first word): the type byte and the 24-bit number. The type
    /// byte comes first in the file in both byte orders.
    fn type_and_u24(&self, at: usize) -> (u8, usize) {
        let n = if self.le {
            u32::from_le_bytes([self.d[at + 1], self.d[at + 2], self.d[at + 3], 0])
        } else {
            u32::from_be_bytes([0, self.d[at + 1], self.d[at + 2], self.d[at + 3]])
        };
        (self.d[at], n as usize)
    }
    /// A dictionary pair's first word: the 24-bit key index, then the type byte (byte 3 of the pair).
    fn u24_and_type(&self, at: usize) -> (usize, u8) {
        let k = if self.le {
            u32::from_le_bytes([self.d[at], self.d[at + 1], self.d[at + 2], 0])
        } else {
            u32::from_be_bytes([0, self.d[at], self.d[at + 1], self.d[at + 2]])
        };
        (k as usize, self.d[at + 3])
    }
    fn cstr(&self, at: usize) -> String {
        let end = at + self.d[at..].iter().position(|&b| b == 0).unwrap();
        String::from_utf8(self.d[at..end].to_vec()).unwrap()
    }
    fn table(&self, at: usize) -> Vec<String> {
        if at == 0 {
            return Vec::new();
        }
        let (t, n) = self.type_and_u24(at);
        assert_eq!(t, 0xc2, "table at {at:#x}");
        (0..n)
            .map(|i| self.cstr(at + self.u32(at + 4 + 4 * i) as usize))
            .collect()
    }
}

/// Every node of a file: `path type[count]` for a container, `path kind value` for a value.
fn walk_bytes(d: &[u8]) -> Vec<String> {
    let mut b = Bytes {
        d,
        le: &d[..2] == b"YB",
        budget: 1 << 20,
    };
    let keys = b.table(b.u32(4) as usize);
    let strings = b.table(b.u32(8) as usize);
    let root = b.u32(12) as usize;
    let mut out = Vec::new();
    if root != 0 {
        node_bytes(&mut b, root, "", &keys, &strings, &mut out);
    }
    out
}

fn remap_bytes(b: &Bytes, at: usize, n: usize) -> Vec<u64> {
    (0..n)
        .map(|i| match n {
            _ if n < 0x100 => b.u8(at + i) as u64,
            _ if n < 0x10000 => {
                let v = [b.d[at + 2 * i], b.d[at + 2 * i + 1]];
                (if b.le {
                    u16::from_le_bytes(v)
                } else {
                    u16::from_be_bytes(v)
                }) as u64
            }
            _ => b.u32(at + 4 * i) as u64,
        })
        .collect()
}

fn node_bytes(
    b: &mut Bytes,
    at: usize,
    path: &str,
    keys: &[String],
    strings: &[String],
    out: &mut Vec<String>,
) {
    b.budget -= 1;
    let (t, n) = b.type_and_u24(at);
    match t {
        0xc0 => {
            out.push(format!("{path} {t:#x}[{n}]"));
            let values = at + 4 + n.div_ceil(4) * 4;
            for i in 0..n {
                let ty = b.u8(at + 4 + i);
                let v = b.u32(values + 4 * i);
                value_bytes(b, ty, v, &format!("{path}/{i}"), keys, strings, out);
            }
        }
        0xc8 => {
            out.push(format!("{path} {t:#x}[{n}]"));
            let ty = b.u8(at + 4);
            for i in 0..n {
                let v = b.u32(at + 8 + 4 * i);
                value_bytes(b, ty, v, &format!("{path}/{i}"), keys, strings, out);
            }
        }
        0xc1 | 0xc4 => {
            out.push(format!("{path} {t:#x}[{n}]"));
            for i in 0..n {
                let (k, ty) = b.u24_and_type(at + 4 + 8 * i);
                let v = b.u32(at + 8 + 8 * i);
                value_bytes(b, ty, v, &format!("{path}/{}", keys[k]), keys, strings, out);
            }
            if t == 0xc4 {
                let remap = remap_bytes(b, at + 4 + 8 * n, n);
                out.push(format!("{path} remap {remap:?}"));
            }
        }
        0x20..=0x3f => {
            out.push(format!("{path} {t:#x}[{n}]"));
            let words = (t & 0xf) as usize;
            let pair = 4 * words + 4;
            let types = at + 4 + n * pair;
            for i in 0..n {
                let hash: Vec<String> = (0..words)
                    .map(|w| format!("{:x}", b.u32(at + 4 + i * pair + 4 * w)))
                    .collect();
                let v = b.u32(at + 4 + i * pair + 4 * words);
                let ty = b.u8(types + i);
                let p = format!("{path}/#{}", hash.join("."));
                value_bytes(b, ty, v, &p, keys, strings, out);
            }
            if t >= 0x30 {
                let remap = remap_bytes(b, types + n, n);
                out.push(format!("{path} remap {remap:?}"));
            }
        }
        // A version 10 root that is a single value: its four bytes follow the header.
        _ => {
            let v = b.u32(at + 4);
            value_bytes(b, t, v, path, keys, strings, out);
        }
    }
}

fn value_bytes(
    b: &mut Bytes,
    t: u8,
    v: u32,
    path: &str,
    keys: &[String],
    strings: &[String],
    out: &mut Vec<String>,
) {
    let at = v as usize;
    let text = match t {
        0x20..=0x3f | 0xc0 | 0xc1 | 0xc4 | 0xc8 => {
            assert_eq!(b.u8(at), t, "{path}: the container's type");
            return node_bytes(b, at, path, keys, strings, out);
        }
        0xa0 => format!("string {:?}", strings[at]),
        0xa1 => {
            let n = b.u32(at) as usize;
            format!("binary {:02x?}", &b.d[at + 4..at + 4 + n])
        }
        0xa2 => {
            let n = b.u32(at) as usize;
            let align = b.u32(at + 4);
            format!("binary/{align} {:02x?}", &b.d[at + 8..at + 8 + n])
        }
        0xd0 => format!("bool {v}"),
        0xd1 => format!("s32 {}", v as i32),
        0xd2 => format!("f32 {}", f32::from_bits(v)),
        0xd3 => format!("u32 {v}"),
        0xd4 => format!("s64 {}", b.u64(at) as i64),
        0xd5 => format!("u64 {}", b.u64(at)),
        0xd6 => format!("f64 {}", f64::from_bits(b.u64(at))),
        0xff => format!("null {v}"),
        _ => panic!("{path}: unknown node type {t:#x}"),
    };
    out.push(format!("{path} {text}"));
}

// ---------------------------------------------------------------------------------------------------------------
// The same lines from the generated model.

struct Model<'a> {
    le: bool,
    keys: Vec<&'a str>,
    strings: Vec<&'a str>,
    out: Vec<String>,
}

/// The strings of a key/string table node.
fn table(n: Option<&Node>) -> Vec<&str> {
    match n.map(|n| &n.body) {
        None => Vec::new(),
        Some(NodeBody::StringTable(t)) => t.strings.iter().map(|s| &s.text[..]).collect(),
        Some(other) => panic!("a table is a {other:?}"),
    }
}

impl Model<'_> {
    /// A container header's (or pair's) u32 split in the file's byte order: (the type byte, the u24).
    fn type_and_u24(&self, h: u32) -> (u8, usize) {
        if self.le {
            (h as u8, (h >> 8) as usize)
        } else {
            ((h >> 24) as u8, (h & 0xff_ffff) as usize)
        }
    }
    fn u24_and_type(&self, h: u32) -> (usize, u8) {
        if self.le {
            ((h & 0xff_ffff) as usize, (h >> 24) as u8)
        } else {
            ((h >> 8) as usize, h as u8)
        }
    }

    fn node(&mut self, n: &Node, path: &str) {
        let (t, count) = self.type_and_u24(n.header);
        let head = format!("{path} {t:#x}[{count}]");
        match &n.body {
            NodeBody::Array(a) => {
                assert_eq!((a.types.len(), a.values.len()), (count, count), "{path}");
                assert!(a.padding.iter().all(|&b| b == 0), "{path}: padding");
                self.out.push(head);
                for (i, (ty, v)) in a.types.iter().zip(&a.values).enumerate() {
                    self.value(*ty, v, &format!("{path}/{i}"));
                }
            }
            NodeBody::MonoTypedArray(a) => {
                assert_eq!(a.values.len(), count, "{path}");
                self.out.push(head);
                let ty = a.value_type.value() as u8;
                for (i, v) in a.values.iter().enumerate() {
                    self.value(ty, v, &format!("{path}/{i}"));
                }
            }
            NodeBody::Dictionary(d) => {
                assert_eq!(d.pairs.len(), count, "{path}");
                assert_eq!(d.remap.is_some(), t == 0xc4, "{path}: remap");
                self.out.push(head);
                let mut last = None;
                for p in &d.pairs {
                    let (k, ty) = self.u24_and_type(p.key_and_type);
                    assert!(last < Some(k), "{path}: pairs not sorted by key index");
                    last = Some(k);
                    let key = self.keys[k];
                    self.value(ty, &p.value, &format!("{path}/{key}"));
                }
                if let Some(r) = &d.remap {
                    let r: Vec<i128> = r.iter().map(|x| x.value()).collect();
                    self.out.push(format!("{path} remap {r:?}"));
                }
            }
            NodeBody::HashArray(h) => {
                assert_eq!((h.pairs.len(), h.types.len()), (count, count), "{path}");
                assert_eq!(h.remap.is_some(), t >= 0x30, "{path}: remap");
                self.out.push(head);
                for (i, p) in h.pairs.iter().enumerate() {
                    assert_eq!(p.hash.len(), (t & 0xf) as usize, "{path}: hash size");
                    assert_eq!(p.node_type, h.types[i], "{path}: the pair's own node type");
                    let hash: Vec<String> = p.hash.iter().map(|w| format!("{w:x}")).collect();
                    self.value(
                        p.node_type,
                        &p.value,
                        &format!("{path}/#{}", hash.join(".")),
                    );
                }
                if let Some(r) = &h.remap {
                    let r: Vec<i128> = r.iter().map(|x| x.value()).collect();
                    self.out.push(format!("{path} remap {r:?}"));
                }
            }
            NodeBody::Value(v) => self.value(t, v, path),
            other => panic!("{path}: {other:?} in the tree"),
        }
    }

    fn value(&mut self, t: u8, v: &Value, path: &str) {
        let text = match (t, &v.data) {
            (0x20..=0x3f | 0xc0 | 0xc1 | 0xc4 | 0xc8, ValueData::NodeRef(r)) => {
                assert_eq!(
                    self.type_and_u24(r.node.header).0,
                    t,
                    "{path}: the container's type"
                );
                return self.node(&r.node, path);
            }
            (0xa0, ValueData::StringIndex(i)) => {
                format!("string {:?}", self.strings[i.index as usize])
            }
            (0xa1, ValueData::BinaryRef(b)) => {
                assert_eq!(b.binary.alignment, None);
                format!("binary {:02x?}", &b.binary.data[..])
            }
            (0xa2, ValueData::BinaryRef(b)) => {
                let align = b.binary.alignment.expect("0xa2 has an alignment");
                format!("binary/{align} {:02x?}", &b.binary.data[..])
            }
            (0xd0, ValueData::InlineBool(x)) => format!("bool {}", x.value),
            (0xd1, ValueData::InlineS32(x)) => format!("s32 {}", x.value),
            (0xd2, ValueData::InlineF32(x)) => format!("f32 {}", x.value),
            (0xd3, ValueData::InlineU32(x)) => format!("u32 {}", x.value),
            (0xd4, ValueData::S64Ref(x)) => format!("s64 {}", x.value),
            (0xd5, ValueData::U64Ref(x)) => format!("u64 {}", x.value),
            (0xd6, ValueData::F64Ref(x)) => format!("f64 {}", x.value),
            (0xff, ValueData::InlineNull(x)) => format!("null {}", x.value),
            (t, other) => panic!("{path}: node type {t:#x} read as {other:?}"),
        };
        self.out.push(format!("{path} {text}"));
    }
}

fn walk_model(doc: &Byml) -> Vec<String> {
    let mut m = Model {
        le: doc.endian == Endian::Little,
        keys: table(doc.key_table.as_ref()),
        strings: table(doc.string_table.as_ref()),
        out: Vec::new(),
    };
    if let Some(root) = &doc.root {
        m.node(root, "");
    }
    m.out
}

// ---------------------------------------------------------------------------------------------------------------
// Checks on one file.

/// Facts of one decoded file that the bytes decide on their own; returns the file's lines.
fn check_file(data: &[u8], what: &str) -> Vec<String> {
    let doc = Byml::from_binary(data).unwrap_or_else(|e| panic!("{what}: {e}"));
    let le = &data[..2] == b"YB";
    let u32_at = |at: usize| {
        let b: [u8; 4] = data[at..at + 4].try_into().unwrap();
        if le {
            u32::from_le_bytes(b)
        } else {
            u32::from_be_bytes(b)
        }
    };
    // The header.
    assert_eq!(doc.endian == Endian::Little, le, "{what}: byte order");
    let version = if le { data[2] } else { data[3] } as u16;
    assert_eq!(doc.version, version, "{what}: version");
    assert_eq!(
        (doc.key_table_ofs, doc.string_table_ofs, doc.root_ofs),
        (u32_at(4), u32_at(8), u32_at(12)),
        "{what}: header offsets"
    );
    assert_eq!(doc.root.is_some(), doc.root_ofs != 0, "{what}: root");
    // The tables: strings back to back after count + 1 offsets, the last one their end; keys sorted.
    for (name, ofs, t) in [
        ("key table", doc.key_table_ofs, &doc.key_table),
        ("string table", doc.string_table_ofs, &doc.string_table),
    ] {
        let Some(t) = t else { continue };
        assert_eq!(data[ofs as usize], 0xc2, "{what}: {name} type");
        let NodeBody::StringTable(st) = &t.body else {
            panic!("{what}: {name} is a {:?}", t.body)
        };
        let n = st.strings.len() as u32;
        let mut at = 4 + 4 * (n + 1);
        for s in &st.strings {
            assert_eq!(s.ofs, at, "{what}: {name} offset of {:?}", s.text);
            at += s.text.len() as u32 + 1;
        }
        assert_eq!(st.end_ofs, at, "{what}: {name} end");
        if name == "key table" {
            assert!(
                st.strings.windows(2).all(|w| w[0].text < w[1].text),
                "{what}: the key table is not sorted"
            );
        }
    }
    // The root container's count and types against the bytes.
    if let Some(root) = &doc.root {
        let at = doc.root_ofs as usize;
        let (t, n) = Bytes {
            d: data,
            le,
            budget: 0,
        }
        .type_and_u24(at);
        match &root.body {
            NodeBody::Dictionary(d) => {
                let want = if d.remap.is_some() { 0xc4 } else { 0xc1 };
                assert_eq!((t, d.pairs.len()), (want, n), "{what}: root");
                for (i, p) in d.pairs.iter().enumerate() {
                    assert_eq!(
                        (p.key_and_type.to_le_bytes()[if le { 3 } else { 0 }]),
                        data[at + 4 + 8 * i + 3],
                        "{what}: pair {i}'s node type"
                    );
                }
            }
            NodeBody::Array(a) => {
                assert_eq!((t, a.values.len()), (0xc0, n), "{what}: root");
                assert_eq!(a.types[..], data[at + 4..at + 4 + n], "{what}: root types");
            }
            NodeBody::Value(_) => {
                assert!(doc.version >= 10, "{what}: a root value before version 10");
                assert!(
                    !matches!(t, 0x20..=0x3f | 0xc0..=0xcf),
                    "{what}: root type {t:#x}"
                );
            }
            NodeBody::HashArray(h) => assert_eq!((t & 0xe0, h.pairs.len()), (0x20, n), "{what}"),
            NodeBody::MonoTypedArray(a) => assert_eq!((t, a.values.len()), (0xc8, n), "{what}"),
            other => panic!("{what}: root is a {other:?}"),
        }
    }
    // Every node against the walk of the bytes.
    let got = walk_model(&doc);
    let want = walk_bytes(data);
    assert_eq!(
        got, want,
        "{what}: the generated reader and the walk of the bytes disagree"
    );
    // Writing the model back gives the file.
    let out = doc
        .to_binary()
        .unwrap_or_else(|e| panic!("{what}: writing: {e}"));
    if let Some(d) = difference(&out, data) {
        panic!("{what}: written back, {d}");
    }
    got
}

fn corpus() -> Option<PathBuf> {
    let c = repo().join("../shared/corpus");
    if c.exists() {
        Some(c)
    } else {
        eprintln!("skipped: ../shared/corpus is not present");
        None
    }
}

fn byml_files(dir: &Path) -> Vec<PathBuf> {
    files_under(dir)
        .into_iter()
        .filter(|p| {
            std::fs::read(p)
                .map(|d| d.starts_with(b"YB") || d.starts_with(b"BY"))
                .unwrap_or(false)
        })
        .collect()
}

#[test]
fn corpus_files_agree_with_a_walk_of_their_bytes() {
    let Some(corpus) = corpus() else { return };
    let mut files = 0;
    let mut nodes = 0;
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut versions: BTreeMap<u16, usize> = BTreeMap::new();
    for sub in ["oracle/byml", "real/byml"] {
        let list = byml_files(&corpus.join(sub));
        assert!(!list.is_empty(), "no BYML files in {sub}");
        for p in list {
            let data = std::fs::read(&p).unwrap();
            let lines = check_file(&data, &p.display().to_string());
            files += 1;
            nodes += lines.len();
            *versions
                .entry(Byml::from_binary(&data).unwrap().version)
                .or_default() += 1;
            for l in &lines {
                let kind = l.split(' ').nth(1).unwrap_or("").split('[').next().unwrap();
                *kinds.entry(kind.to_string()).or_default() += 1;
            }
        }
    }
    eprintln!("{files} files, {nodes} nodes; versions {versions:?}; kinds {kinds:?}");
    assert!(files >= 77, "only {files} BYML files");
    assert!(nodes > 30_000, "only {nodes} nodes");
    for v in [1, 2, 3, 4, 7] {
        assert!(versions.contains_key(&v), "no file of version {v}");
    }
}

/// The repository's own BYML fixtures (`tests/fixtures/byml`, written by oead and the `byml` package), when there.
#[test]
fn repository_fixtures_agree_with_a_walk_of_their_bytes() {
    let list = byml_files(&repo().join("tests/fixtures/byml"));
    for p in &list {
        check_file(&std::fs::read(p).unwrap(), &p.display().to_string());
    }
    eprintln!("{} fixtures checked", list.len());
}

/// oead and the `byml` package wrote the same documents in both byte orders and several versions: each file must
/// decode to the same tree as its siblings.
#[test]
fn byte_orders_and_versions_decode_alike() {
    let Some(corpus) = corpus() else { return };
    let dir = corpus.join("oracle/byml");
    let mut groups: BTreeMap<String, Vec<(String, Vec<String>)>> = BTreeMap::new();
    for p in byml_files(&dir) {
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        // oead_v2_le_rootarray -> oead/rootarray; bymlpkg_v3_be -> bymlpkg/ (versions 1-2 hold no 64-bit values).
        let parts: Vec<&str> = name.split('_').collect();
        let mut key = format!("{}/{}", parts[0], parts[3..].join("_"));
        if parts[0] == "bymlpkg" {
            let v: u32 = parts[1][1..].parse().unwrap();
            key.push_str(if v >= 3 { "64bit" } else { "plain" });
        }
        let data = std::fs::read(&p).unwrap();
        let lines = walk_model(&Byml::from_binary(&data).unwrap());
        groups.entry(key).or_default().push((name, lines));
    }
    let mut compared = 0;
    for (key, files) in &groups {
        assert!(
            files.len() >= 2,
            "{key}: only {:?}",
            files.iter().map(|f| &f.0).collect::<Vec<_>>()
        );
        for (name, lines) in &files[1..] {
            assert_eq!(
                lines, &files[0].1,
                "{key}: {name} and {} differ",
                files[0].0
            );
            compared += 1;
        }
    }
    assert!(compared >= 30, "only {compared} comparisons");
}

// ---------------------------------------------------------------------------------------------------------------
// Files built here for what the corpus lacks, in both byte orders.

struct Builder {
    le: bool,
    b: Vec<u8>,
}

impl Builder {
    fn u8(&mut self, v: u8) -> &mut Self {
        self.b.push(v);
        self
    }
    fn u16(&mut self, v: u16) -> &mut Self {
        self.b.extend(if self.le {
            v.to_le_bytes()
        } else {
            v.to_be_bytes()
        });
        self
    }
    fn u32(&mut self, v: u32) -> &mut Self {
        self.b.extend(if self.le {
            v.to_le_bytes()
        } else {
            v.to_be_bytes()
        });
        self
    }
    /// A type byte and a 24-bit number in the order of a container header.
    fn header(&mut self, t: u8, n: u32) -> &mut Self {
        self.u32(if self.le {
            t as u32 | n << 8
        } else {
            (t as u32) << 24 | n
        })
    }
    /// A dictionary pair's key index and type.
    fn pair(&mut self, key: u32, t: u8, v: u32) -> &mut Self {
        self.u32(if self.le {
            key | (t as u32) << 24
        } else {
            key << 8 | t as u32
        })
        .u32(v)
    }
    fn pos(&self) -> u32 {
        self.b.len() as u32
    }
    fn patch(&mut self, at: u32, v: u32) {
        let b = if self.le {
            v.to_le_bytes()
        } else {
            v.to_be_bytes()
        };
        self.b[at as usize..at as usize + 4].copy_from_slice(&b);
    }
    fn header_of_file(&mut self, version: u16) -> &mut Self {
        self.b
            .extend_from_slice(if self.le { b"YB" } else { b"BY" });
        self.u16(version).u32(0).u32(0).u32(0)
    }
    fn table(&mut self, strings: &[&str]) -> u32 {
        let start = self.pos();
        self.header(0xc2, strings.len() as u32);
        let mut at = 4 + 4 * (strings.len() as u32 + 1);
        for s in strings {
            self.u32(at);
            at += s.len() as u32 + 1;
        }
        self.u32(at);
        for s in strings {
            self.b.extend_from_slice(s.as_bytes());
            self.b.push(0);
        }
        while !self.b.len().is_multiple_of(4) {
            self.b.push(0);
        }
        start
    }
}

/// A version 7 file with a dictionary with remap at the root, holding a hash array with remap, a mono-typed array
/// and binary data with alignment.
fn built_v7(le: bool) -> Vec<u8> {
    let mut b = Builder { le, b: Vec::new() };
    b.header_of_file(7);
    let keys = b.table(&["bin", "hash", "mono"]);
    let strings = b.table(&["s"]);
    // The root: 0xc4 with three pairs and a u8 remap table, padded to 4.
    let root = b.pos();
    b.header(0xc4, 3);
    let slots: Vec<u32> = (0..3).map(|i| root + 4 + 8 * i + 4).collect();
    b.pair(0, 0xa2, 0).pair(1, 0x31, 0).pair(2, 0xc8, 0);
    b.u8(2).u8(0).u8(1).u8(0);
    // Binary data with alignment: size, alignment, data.
    let bin = b.pos();
    b.u32(3).u32(0x10).u8(1).u8(2).u8(3).u8(0);
    // Hash array with remap, one u32 of hash: pairs, types, remap (u8).
    let hash = b.pos();
    b.header(0x31, 2)
        .u32(0x10)
        .u32(-5i32 as u32)
        .u32(0x20)
        .u32(0);
    b.u8(0xd1).u8(0xa0).u8(1).u8(0);
    // Mono-typed array of two f32.
    let mono = b.pos();
    b.header(0xc8, 2).u8(0xd2).u8(0).u8(0).u8(0);
    b.u32(1.5f32.to_bits()).u32((-2.0f32).to_bits());
    for (slot, v) in slots.into_iter().zip([bin, hash, mono]) {
        b.patch(slot, v);
    }
    b.patch(4, keys);
    b.patch(8, strings);
    b.patch(12, root);
    b.b
}

#[test]
fn node_types_without_corpus_files() {
    let want = [
        " 0xc4[3]",
        "/bin binary/16 [01, 02, 03]",
        "/hash 0x31[2]",
        "/hash/#10 s32 -5",
        "/hash/#20 string \"s\"",
        "/hash remap [1, 0]",
        "/mono 0xc8[2]",
        "/mono/0 f32 1.5",
        "/mono/1 f32 -2",
        " remap [2, 0, 1]",
    ];
    for le in [true, false] {
        let data = built_v7(le);
        let lines = check_file(&data, if le { "built v7 le" } else { "built v7 be" });
        assert_eq!(lines, want, "le: {le}");
    }
}

#[test]
fn version_10_root_value() {
    for le in [true, false] {
        let mut b = Builder { le, b: Vec::new() };
        b.header_of_file(10);
        b.patch(12, 0x10);
        b.header(0xd1, 0).u32(-7i32 as u32);
        let lines = check_file(&b.b, "built v10");
        assert_eq!(lines, [" s32 -7"]);
    }
}

/// A relocated key table (0xc5): no file at hand has one, so this only checks that the reader takes the page's
/// layout as the schema reads it (base offset, count offsets, the u64 at the base offset) and writes it back.
#[test]
fn relocated_table_as_the_schema_reads_it() {
    for le in [true, false] {
        let mut b = Builder { le, b: Vec::new() };
        b.header_of_file(7);
        b.patch(4, 0x10);
        // The table at 0x10: header, base offset (0x10 from the table: 0x20), two string offsets; then the u64.
        b.header(0xc5, 2).u32(0x10).u32(0x100).u32(0x104);
        b.u32(0x1234).u32(0);
        let doc = Byml::from_binary(&b.b).unwrap();
        let Some(NodeBody::RelocatedStringTable(t)) = doc.key_table.as_ref().map(|n| &n.body)
        else {
            panic!("{:?}", doc.key_table)
        };
        let base = if le { 0x1234 } else { 0x1234 << 32 };
        assert_eq!(
            (t.base_ofs, &t.offsets[..], t.base),
            (0x10, &[0x100, 0x104][..], base)
        );
        assert_eq!(doc.to_binary().unwrap(), b.b);
    }
}

#[test]
fn an_empty_document_has_no_root() {
    let data = b"YB\x03\0\0\0\0\0\0\0\0\0\0\0\0\0";
    let doc = Byml::from_binary(data).unwrap();
    assert_eq!(
        (doc.version, doc.root.is_none(), doc.key_table.is_none()),
        (3, true, true)
    );
    assert_eq!(doc.to_binary().unwrap(), data);
}

/// A container that contains itself ends in an error about nesting, not in a stack overflow; containers shared
/// exponentially often end in an error about the number of references followed.
#[test]
fn cycles_and_exponential_sharing_are_refused() {
    // The root array's only element is the root array.
    let mut b = Builder {
        le: true,
        b: Vec::new(),
    };
    b.header_of_file(2);
    b.patch(12, 0x10);
    b.header(0xc0, 1).u8(0xc0).u8(0).u8(0).u8(0).u32(0x10);
    let e = Byml::from_binary(&b.b).unwrap_err().to_string();
    assert!(e.contains("nest deeper"), "{e}");

    // 40 arrays, each holding the next one twice.
    let mut b = Builder {
        le: false,
        b: Vec::new(),
    };
    b.header_of_file(2);
    b.patch(12, 0x10);
    for i in 0..40u32 {
        let next = 0x10 + (i + 1) * 16;
        if i < 39 {
            b.header(0xc0, 2)
                .u8(0xc0)
                .u8(0xc0)
                .u8(0)
                .u8(0)
                .u32(next)
                .u32(next);
        } else {
            b.header(0xc0, 2)
                .u8(0xff)
                .u8(0xff)
                .u8(0)
                .u8(0)
                .u32(0)
                .u32(0);
        }
    }
    let e = Byml::from_binary(&b.b).unwrap_err().to_string();
    assert!(e.contains("references followed"), "{e}");
}

/// The hand-written `byml::Document` is the registered BYML format; the generated reader is not registered.
#[test]
fn the_generated_module_is_not_registered() {
    let reg = binspec_formats::registry();
    assert!(reg.iter().filter(|f| f.id() == "byml").count() <= 1);
    assert!(reg.iter().all(|f| f.title() != <Byml as Format>::TITLE));
}
