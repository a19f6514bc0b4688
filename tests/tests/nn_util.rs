//! The two structures of `nn::util` files (BNTX, BFRES) that a writer derives, against every such file of the
//! shared corpus: each dictionary (`_DIC`, `binspec_runtime::layout::resdic`) is rebuilt from its keys and compared
//! node by node, and each relocation section (`_RLT`, `binspec_runtime::layout::reloc`) is decoded to pointer
//! positions and regrouped, which must give back its entries.
//!
//! The files are found without their schemas: an `nn::util` file is wherever a `_RLT` block points back to a
//! `BinaryFileHeader` that points to it (so also inside SARC archives, compressed or not, and a BNTX inside a
//! BFRES), and its dictionaries are the targets of its relocated pointers that have a dictionary's header (magic
//! `_DIC`, or 0 in BFRES 0.8) and whose keys are relocated pointers too, the root's to an empty string. Every
//! `_DIC` magic in the file must be one of them. A key points to a string of the file's `_STR` block: a u16
//! length, the bytes and a 0 byte. The same `nn::util` file met twice (the BFRES of AirCurrent.sarc is
//! bfres/AirCurrent.bfres, and the BNTX inside sarc/HomeBed.szs is bntx/HomeBed.bntx) is checked once.
//!
//! Skips, with a message, when the corpus is absent.

use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;

use binspec_runtime::compress;
use binspec_runtime::layout::reloc::{self, Entry};
use binspec_runtime::layout::resdic::{self, Node, ROOT_REF_BIT};
use binspec_tests::{files_under, repo};

/// The corpus folders scanned: the `nn::util` formats, the archives that hold them, and the other Nintendo
/// layout and font formats (Wii U NW4F files, which hold no `nn::util` structures; the test checks they have none).
const FOLDERS: &[&str] = &["bntx", "bfres", "sarc", "ui2d", "bffnt", "bflyt"];

/// Folders whose files hold no `nn::util` file.
const WITHOUT: &[&str] = &["ui2d", "bffnt", "bflyt"];

/// A file that another tool wrote again: it is not the BFRES inside sarc/HomeBed.szs (which it is said to be
/// extracted from; 204,942 of its 692,616 bytes differ, starting with the magic `FRES  \0\0` for `FRES    `), and
/// its dictionaries are not what Nintendo's tools write: every root holds 0x0000ffff, four trees lose keys (a
/// walk for them ends elsewhere, so no builder made them), and one dictionary's keys point outside the string
/// pool. Its relocation table regroups exactly. The original inside the archive matches in every respect.
const REWRITTEN: &str = "bfres/HomeBed.bfres";

fn corpus() -> Option<PathBuf> {
    let p = repo().join("../shared/corpus/real");
    if p.join("bntx").is_dir() && p.join("bfres").is_dir() {
        Some(p)
    } else {
        eprintln!("skipped: {} (with bntx and bfres) is absent", p.display());
        None
    }
}

fn u16_at(d: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(
        d.get(at..at.checked_add(2)?)?.try_into().ok()?,
    ))
}
fn u32_at(d: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        d.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}
fn u64_at(d: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(
        d.get(at..at.checked_add(8)?)?.try_into().ok()?,
    ))
}

/// Where each occurrence of `tag` starts in `d`.
fn find_all(d: &[u8], tag: &[u8]) -> Vec<usize> {
    d.windows(tag.len())
        .enumerate()
        .filter(|(_, w)| *w == tag)
        .map(|(i, _)| i)
        .collect()
}

/// An `nn::util` file inside a buffer: its header's offset, its size and its relocation table's offset.
#[derive(Debug, Clone, Copy)]
struct NnFile {
    base: usize,
    size: usize,
    rlt: usize,
}

/// Every `nn::util` file in `d`: a `_RLT` whose offset field leads back to a little-endian `BinaryFileHeader`
/// (byte-order mark 0xfeff at 0xc) whose relocation table offset (0x18) is that same offset, and whose file size
/// (0x1c) contains it.
fn nn_files(d: &[u8]) -> Vec<NnFile> {
    find_all(d, b"_RLT")
        .into_iter()
        .filter_map(|rlt| {
            let off = u32_at(d, rlt + 4)? as usize;
            let base = rlt.checked_sub(off)?;
            let size = u32_at(d, base + 0x1c)? as usize;
            let ok = u16_at(d, base + 0xc)? == 0xfeff
                && u32_at(d, base + 0x18)? as usize == off
                && rlt < base + size
                && base + size <= d.len();
            ok.then_some(NnFile { base, size, rlt })
        })
        .collect()
}

/// The `_STR` block of a file (absolute start and end), found by walking its blocks from the header's first-block
/// offset (0x16) along each block's next-block offset (4); its size is at 8.
fn string_pool(d: &[u8], f: NnFile) -> Option<(usize, usize)> {
    let mut at = f.base + usize::from(u16_at(d, f.base + 0x16)?);
    for _ in 0..10_000 {
        if d.get(at..at + 4)? == b"_STR" {
            return Some((at, at + u32_at(d, at + 8)? as usize));
        }
        match u32_at(d, at + 4)? {
            0 => return None,
            next => at += next as usize,
        }
    }
    None
}

/// A key: a u16 length, the bytes and a 0 byte, inside the string pool.
fn key_at(d: &[u8], at: usize, pool: (usize, usize)) -> Option<Vec<u8>> {
    let len = usize::from(u16_at(d, at)?);
    let end = at.checked_add(2 + len)?;
    (at >= pool.0 && end < pool.1 && d[end] == 0).then(|| d[at + 2..end].to_vec())
}

/// What became of one dictionary.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// Every node, root included, is what `resdic::build` computes from the keys.
    Exact,
    /// The same, but for the root's reference bit (which the walk never reads).
    RootRef(u32),
    /// The file's own tree loses these keys: a walk for them ends elsewhere, so no correct builder wrote it.
    LosesKeys(Vec<String>),
    /// Keys that do not point into the string pool, so nothing can be rebuilt.
    Unreadable(usize),
    /// A real failure: the tree is sound but `resdic::build` computes another.
    Differs(String),
}

/// What was checked in one file.
#[derive(Debug, Default)]
struct Tally {
    /// (offset from the file's header, the root's stored reference bit, outcome).
    dictionaries: Vec<(usize, u32, Outcome)>,
    keys: usize,
    sections: usize,
    entries: usize,
    pointers: usize,
}

/// Checks every relocation section of `f` (panicking on a mismatch) and every dictionary (returning outcomes).
fn check_file(d: &[u8], f: NnFile, nested: &[NnFile], name: &str) -> Tally {
    let mut t = Tally::default();
    let at = |o: usize| u32_at(d, o).unwrap();
    let n_sections = at(f.rlt + 8) as usize;
    let entries_at = f.rlt + 0x10 + 0x18 * n_sections;
    let mut relocated = BTreeSet::new();
    for s in 0..n_sections {
        let sec = f.rlt + 0x10 + 0x18 * s;
        assert_eq!(
            u64_at(d, sec),
            Some(0),
            "{name}: section {s} has a base pointer"
        );
        let (region, region_size) = (at(sec + 8) as u64, at(sec + 0xc) as u64);
        let (first, count) = (at(sec + 0x10) as usize, at(sec + 0x14) as usize);
        let entries: Vec<Entry> = (first..first + count)
            .map(|i| {
                let e = entries_at + 8 * i;
                Entry {
                    position: at(e),
                    struct_count: u16_at(d, e + 4).unwrap(),
                    offset_count: d[e + 6],
                    padding_count: d[e + 7],
                }
            })
            .collect();
        let positions = reloc::positions(&entries, f.size as u64)
            .unwrap_or_else(|e| panic!("{name}: section {s}: {e}"));
        let regrouped = reloc::group(&positions).unwrap();
        assert_eq!(
            regrouped, entries,
            "{name}: section {s}'s pointers regroup differently"
        );
        // A section lists the pointers whose targets lie in its region (the pointers may be anywhere).
        for &p in &positions {
            let target = u64_at(d, f.base + p as usize).unwrap();
            assert!(
                (region..region + region_size).contains(&target),
                "{name}: section {s}: the pointer at {p:#x} points to {target:#x}, outside its region"
            );
        }
        t.sections += 1;
        t.entries += entries.len();
        t.pointers += positions.len();
        relocated.extend(positions);
    }

    let pool = string_pool(d, f).unwrap_or_else(|| panic!("{name}: no _STR block"));
    let end = f.base + f.size;
    let targets: BTreeSet<u64> = relocated
        .iter()
        .map(|&p| u64_at(d, f.base + p as usize).unwrap())
        .collect();
    // A dictionary's node key fields are relocated pointers, the root's to an empty string. (Without the last
    // rule, a block of the rewritten file that is all ones in the original would pass for an empty dictionary.)
    let is_dictionary = |o: usize| -> Option<usize> {
        let magic = d.get(o..o + 4)?;
        let count = u32_at(d, o + 4)? as usize;
        let root_ref = u32_at(d, o + 8)?;
        let nodes_end = o.checked_add(8 + 16 * (count + 1))?;
        let ok = (magic == b"_DIC" || magic == [0; 4])
            && (root_ref == ROOT_REF_BIT || root_ref == 0xffff)
            && nodes_end <= end
            && (0..=count).all(|i| {
                let node = o + 8 + 16 * i;
                let key = (node + 8 - f.base) as u32;
                let links_ok = u16_at(d, node + 4).is_some_and(|l| usize::from(l) <= count)
                    && u16_at(d, node + 6).is_some_and(|r| usize::from(r) <= count);
                links_ok && relocated.contains(&key)
            })
            && u64_at(d, o + 0x10)
                .and_then(|k| key_at(d, f.base.checked_add(usize::try_from(k).ok()?)?, pool))
                .is_some_and(|k| k.is_empty());
        ok.then_some(count)
    };
    let dictionaries: Vec<(usize, usize)> = targets
        .iter()
        .filter_map(|&t| {
            let o = f.base.checked_add(usize::try_from(t).ok()?)?;
            Some((o, is_dictionary(o)?))
        })
        .collect();
    // Every _DIC magic of this file (not of a file inside it) is one of them.
    for m in find_all(&d[f.base..end], b"_DIC") {
        let o = f.base + m;
        if nested
            .iter()
            .any(|n| (n.base..n.base + n.size).contains(&o))
        {
            continue;
        }
        assert!(
            dictionaries.iter().any(|&(x, _)| x == o),
            "{name}: the _DIC at {:#x} is not a relocated pointer's target",
            o - f.base
        );
    }

    for (o, count) in dictionaries {
        let node = |i: usize| o + 8 + 16 * i;
        let stored: Vec<Node> = (0..=count)
            .map(|i| Node {
                ref_bit: at(node(i)),
                left: u16_at(d, node(i) + 4).unwrap(),
                right: u16_at(d, node(i) + 6).unwrap(),
            })
            .collect();
        let keys: Vec<Option<Vec<u8>>> = (1..=count)
            .map(|i| {
                let k = u64_at(d, node(i) + 8).unwrap();
                key_at(d, f.base.checked_add(usize::try_from(k).ok()?)?, pool)
            })
            .collect();
        let unreadable = keys.iter().filter(|k| k.is_none()).count();
        let outcome = if unreadable > 0 {
            Outcome::Unreadable(unreadable)
        } else {
            let keys: Vec<Vec<u8>> = keys.into_iter().flatten().collect();
            t.keys += keys.len();
            classify(&stored, &keys)
        };
        t.dictionaries
            .push((o - f.base, stored[0].ref_bit, outcome));
    }
    t
}

fn classify(stored: &[Node], keys: &[Vec<u8>]) -> Outcome {
    let lost: Vec<String> = keys
        .iter()
        .enumerate()
        .filter(|&(i, k)| resdic::lookup(stored, keys, k) != Some(i))
        .map(|(_, k)| String::from_utf8_lossy(k).into_owned())
        .collect();
    if !lost.is_empty() {
        return Outcome::LosesKeys(lost);
    }
    let built = match resdic::build(keys) {
        Ok(b) => b,
        Err(e) => return Outcome::Differs(e.to_string()),
    };
    // A key changed in its last byte is not found.
    for k in keys {
        let mut other = k.clone();
        if let Some(b) = other.last_mut() {
            *b ^= 0x80;
        }
        if !keys.contains(&other) {
            assert_eq!(resdic::lookup(stored, keys, &other), None);
        }
    }
    if built == stored {
        Outcome::Exact
    } else if built[1..] == stored[1..]
        && (built[0].left, built[0].right) == (stored[0].left, stored[0].right)
    {
        Outcome::RootRef(stored[0].ref_bit)
    } else {
        let first = (0..built.len()).find(|&i| built[i] != stored[i]).unwrap();
        Outcome::Differs(format!(
            "node {first}: stored {:?}, built {:?}",
            stored[first], built[first]
        ))
    }
}

#[test]
fn dictionaries_and_relocation_tables_are_rebuilt_from_the_files() {
    let Some(real) = corpus() else { return };
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    let (mut files, mut dictionaries, mut keys) = (0, 0, 0);
    let (mut sections, mut entries, mut pointers) = (0, 0, 0);
    let mut rewritten = Vec::new();
    for folder in FOLDERS {
        for path in files_under(&real.join(folder)) {
            let name = path
                .strip_prefix(&real)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let raw = std::fs::read(&path).unwrap();
            let (data, _) = compress::decompress(&raw).unwrap_or_else(|e| panic!("{name}: {e}"));
            let found = nn_files(&data);
            if WITHOUT.contains(folder) {
                assert!(found.is_empty(), "{name}: holds an nn::util file");
                assert!(find_all(&data, b"_DIC").is_empty(), "{name}: holds a _DIC");
                continue;
            }
            for &f in &found {
                if !seen.insert(data[f.base..f.base + f.size].to_vec()) {
                    continue;
                }
                let nested: Vec<NnFile> = found
                    .iter()
                    .copied()
                    .filter(|n| n.base > f.base && n.base < f.base + f.size)
                    .collect();
                let label = format!("{name} at {:#x}", f.base);
                let t = check_file(&data, f, &nested, &label);
                eprintln!(
                    "{label}: {} dictionaries ({} keys), {} relocation sections ({} entries, {} pointers)",
                    t.dictionaries.len(),
                    t.keys,
                    t.sections,
                    t.entries,
                    t.pointers
                );
                files += 1;
                dictionaries += t.dictionaries.len();
                keys += t.keys;
                sections += t.sections;
                entries += t.entries;
                pointers += t.pointers;
                for (o, root_ref, outcome) in t.dictionaries {
                    if name == REWRITTEN {
                        assert_eq!(root_ref, 0xffff, "{label}: dictionary at {o:#x}");
                        rewritten.push((f.base, o, outcome));
                    } else {
                        assert_eq!(outcome, Outcome::Exact, "{label}: dictionary at {o:#x}");
                    }
                }
            }
        }
    }
    eprintln!(
        "{files} nn::util files: {dictionaries} dictionaries ({keys} keys), {sections} relocation sections \
         ({entries} entries, {pointers} pointers)"
    );
    assert!(files > 0 && dictionaries > 0 && sections > 0);

    // The rewritten file: every root holds 0x0000ffff; what differs beyond it no builder could have made.
    if !rewritten.is_empty() {
        let mut tally = [0; 3];
        for (base, o, outcome) in &rewritten {
            eprintln!("{REWRITTEN} at {base:#x}: dictionary at {o:#x}: {outcome:?}");
            match outcome {
                Outcome::RootRef(0xffff) => tally[0] += 1,
                Outcome::LosesKeys(_) => tally[1] += 1,
                Outcome::Unreadable(_) => tally[2] += 1,
                other => panic!("{REWRITTEN}: dictionary at {o:#x}: {other:?}"),
            }
        }
        assert_eq!(
            tally,
            [8, 4, 1],
            "{REWRITTEN}: root only, losing keys, unreadable"
        );
    }
}
