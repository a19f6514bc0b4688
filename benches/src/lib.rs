//! Shared code of the BYML benchmarks: the generated test document, tree walks for both libraries, the conversion of
//! our tree to roead's, the cross-check of the two implementations, and the summary printed after a run.
//!
//! roead is GPL-3.0-or-later; this crate is unpublished and is the only one in the workspace that depends on it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use binspec_formats::byml::{Byml, Document, Map};
use roead::byml::Byml as RByml;

/// The size of the generated document, in nodes (containers and scalars, the root included).
pub const TARGET_NODES: usize = 100_000;

/// The largest real file of the corpus, read when present.
pub const REAL_FILE: &str = "/work/shared/corpus/real/byml/s3_v7/Vss_Kaisou04.bcett.byml";

/// SplitMix64: a small deterministic generator, so that every run benchmarks the same document.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Skewed towards 0, so that some choices repeat much more than others, as names do in real level files.
    fn skewed(&mut self, n: u64) -> u64 {
        let a = self.below(n);
        let b = self.below(n);
        a.min(b)
    }
    fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }
    fn f32_in(&mut self, lo: f32, hi: f32) -> f32 {
        let unit = (self.next() >> 40) as f32 / (1u64 << 24) as f32;
        lo + unit * (hi - lo)
    }
}

const PREFIXES: &[&str] = &[
    "Enemy", "Obj", "Npc", "Item", "Weapon", "Area", "Dgn", "Field",
];
const BASES: &[&str] = &[
    "Bokoblin",
    "Moblin",
    "Lizalfos",
    "TreeApple",
    "BoxWood",
    "Barrel",
    "Torch",
    "Chest",
    "Rock",
    "Grass",
    "Sword",
    "Shield",
    "Bow",
    "Lantern",
    "Bridge",
    "Gate",
];
const SUFFIXES: &[&str] = &[
    "A", "B", "Junior", "Middle", "Senior", "L_01", "S_02", "Dark",
];
const LINK_NAMES: &[&str] = &[
    "BasicSig",
    "ChangeAppear",
    "Create",
    "Delete",
    "ForbidAttack",
    "MtxCopyCreate",
];
const DROPS: &[&str] = &["Item_Fruit_A", "Item_Meat_01", "Item_Ore_F", "Arrow", ""];

fn names() -> Vec<String> {
    let mut v = Vec::new();
    for p in PREFIXES {
        for b in BASES {
            for s in SUFFIXES {
                v.push(format!("{p}_{b}_{s}"));
            }
        }
    }
    v
}

fn vec3(x: f32, y: f32, z: f32) -> Byml {
    Byml::Array(vec![Byml::F32(x), Byml::F32(y), Byml::F32(z)])
}

fn map<const N: usize>(pairs: [(&str, Byml); N]) -> Byml {
    Byml::Map(pairs.into_iter().collect())
}

fn actor(rng: &mut Rng, names: &[String], i: usize) -> Byml {
    let mut m = Map::default();
    let name = &names[rng.skewed(names.len() as u64) as usize];
    m.insert("UnitConfigName", Byml::String(name.as_str().into()));
    m.insert("HashId", Byml::U32(rng.next() as u32));
    m.insert("SRTHash", Byml::I32(rng.next() as i32));
    m.insert(
        "Translate",
        vec3(
            rng.f32_in(-4000.0, 4000.0),
            rng.f32_in(-100.0, 600.0),
            rng.f32_in(-4000.0, 4000.0),
        ),
    );
    if rng.chance(2) {
        // Many actors share the same rotation or scale: equal containers, which both writers store once.
        m.insert("Rotate", vec3(0.0, 0.0, 0.0));
    } else {
        m.insert(
            "Rotate",
            vec3(
                0.0,
                rng.f32_in(-std::f32::consts::PI, std::f32::consts::PI),
                0.0,
            ),
        );
    }
    if rng.chance(3) {
        let s = if rng.chance(2) {
            1.0
        } else {
            rng.f32_in(0.5, 3.0)
        };
        m.insert("Scale", vec3(s, s, s));
    }
    m.insert("IsHardModeActor", Byml::Bool(rng.chance(8)));
    let links = rng.below(4) as usize;
    if links > 0 {
        let v = (0..links)
            .map(|_| {
                map([
                    ("DestUnitHashId", Byml::U32(rng.next() as u32)),
                    (
                        "DefinitionName",
                        Byml::String(
                            LINK_NAMES[rng.skewed(LINK_NAMES.len() as u64) as usize].into(),
                        ),
                    ),
                ])
            })
            .collect();
        m.insert("LinksToObj", Byml::Array(v));
    }
    let mut p = Map::default();
    p.insert(
        "DropActor",
        Byml::String(DROPS[rng.skewed(DROPS.len() as u64) as usize].into()),
    );
    p.insert("EnemyRank", Byml::I32(rng.below(5) as i32 - 1));
    p.insert("IsNearCreate", Byml::Bool(rng.chance(2)));
    p.insert("LevelSensorMode", Byml::I32(rng.below(3) as i32));
    if rng.chance(4) {
        // 64-bit values, stored out of line.
        p.insert("CreateTime", Byml::U64(rng.next()));
        p.insert("GroupId", Byml::I64(-(rng.below(1 << 40) as i64)));
        p.insert("Probability", Byml::F64(rng.below(1_000_000) as f64 / 1e6));
    }
    m.insert("!Parameters", Byml::Map(p));
    if rng.chance(8) {
        // Nested vectors: a path of points.
        let n = 2 + rng.below(6) as usize;
        let pts = (0..n)
            .map(|_| {
                vec3(
                    rng.f32_in(-4000.0, 4000.0),
                    rng.f32_in(-100.0, 600.0),
                    rng.f32_in(-4000.0, 4000.0),
                )
            })
            .collect();
        m.insert("Points", Byml::Array(pts));
    }
    if rng.chance(10) {
        m.insert("UniqueName", Byml::String(format!("{name}_{i:05}").into()));
    }
    Byml::Map(m)
}

fn rail(rng: &mut Rng, i: usize) -> Byml {
    let n = 2 + rng.below(10) as usize;
    let points = (0..n)
        .map(|_| {
            map([
                (
                    "Translate",
                    vec3(
                        rng.f32_in(-4000.0, 4000.0),
                        rng.f32_in(-100.0, 600.0),
                        rng.f32_in(-4000.0, 4000.0),
                    ),
                ),
                ("WaitFrame", Byml::I32(rng.below(120) as i32)),
                ("Speed", Byml::F32(rng.f32_in(0.5, 20.0))),
            ])
        })
        .collect();
    map([
        (
            "UnitConfigName",
            Byml::String(format!("Rail_{i:04}").into()),
        ),
        ("HashId", Byml::U32(rng.next() as u32)),
        ("IsClosed", Byml::Bool(rng.chance(3))),
        ("RailPoints", Byml::Array(points)),
    ])
}

/// A deterministic document of at least `target_nodes` nodes, shaped like a game's actor list (BotW map units,
/// Splatoon banc files): a dictionary of arrays of dictionaries with string names, s32/u32/f32/bool values, nested
/// vectors, some 64-bit values and many repeated strings. Only version 2 types: every node is one roead has.
pub fn generate(target_nodes: usize) -> Byml {
    let mut rng = Rng(0x5eed_b1f5_bec0_0001);
    let names = names();
    let header = map([
        ("Version", Byml::I32(3)),
        ("Revision", Byml::U32(0x0001_2345)),
        ("BuildTime", Byml::U64(0x0000_0187_65f0_a2c4)),
        ("Seed", Byml::I64(-1_234_567_890_123)),
        ("LocationPosX", Byml::F64(-1234.5625)),
        ("LocationName", Byml::String("Hyrule_Field_A-1".into())),
    ]);
    // root + header + the two arrays.
    let mut nodes = 3 + header.count_nodes();
    let (mut actors, mut rails) = (Vec::new(), Vec::new());
    let mut i = 0;
    while nodes < target_nodes {
        let a = actor(&mut rng, &names, i);
        nodes += a.count_nodes();
        actors.push(a);
        if i % 25 == 24 {
            let r = rail(&mut rng, i / 25);
            nodes += r.count_nodes();
            rails.push(r);
        }
        i += 1;
    }
    map([
        ("Header", header),
        ("Objs", Byml::Array(actors)),
        ("Rails", Byml::Array(rails)),
    ])
}

/// Our tree as roead's. Fails on node types that roead does not have (version 7+ containers, aligned binary).
pub fn to_roead(v: &Byml) -> Result<RByml, String> {
    Ok(match v {
        Byml::Null => RByml::Null,
        Byml::Bool(b) => RByml::Bool(*b),
        Byml::I32(x) => RByml::I32(*x),
        Byml::U32(x) => RByml::U32(*x),
        Byml::F32(x) => RByml::Float(*x),
        Byml::I64(x) => RByml::I64(*x),
        Byml::U64(x) => RByml::U64(*x),
        Byml::F64(x) => RByml::Double(*x),
        Byml::String(s) => RByml::String(s.as_str().into()),
        Byml::Binary(b) => RByml::BinaryData(b.clone()),
        Byml::Array(a) => RByml::Array(a.iter().map(to_roead).collect::<Result<_, _>>()?),
        Byml::Map(m) => RByml::Map(
            m.iter()
                .map(|(k, v)| Ok((k.as_str().into(), to_roead(v)?)))
                .collect::<Result<_, String>>()?,
        ),
        other => return Err(format!("roead has no {} node", other.type_name())),
    })
}

/// What a walk gathers: the number of nodes, and a checksum of every key and value. Both are independent of the
/// order of dictionary entries (roead's dictionaries are hash maps), so both libraries' walks of the same document
/// give the same figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Walk {
    pub nodes: u64,
    pub checksum: u64,
}

fn mix(x: u64) -> u64 {
    // A cheap, order-free combination: the sum of a hash of each item.
    x.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(23)
}

fn str_sum(s: &str) -> u64 {
    s.bytes().fold(s.len() as u64, |h, b| {
        h.wrapping_mul(31).wrapping_add(b as u64)
    })
}

/// Visits every node of our tree.
pub fn walk_ours(v: &Byml) -> Walk {
    let mut w = Walk::default();
    walk_ours_into(v, &mut w);
    w
}

fn walk_ours_into(v: &Byml, w: &mut Walk) {
    w.nodes += 1;
    let x = match v {
        Byml::Null => 0,
        Byml::Bool(b) => 1 + *b as u64,
        Byml::I32(x) => *x as i64 as u64,
        Byml::U32(x) => *x as u64,
        Byml::F32(x) => x.to_bits() as u64,
        Byml::I64(x) => *x as u64,
        Byml::U64(x) => *x,
        Byml::F64(x) => x.to_bits(),
        Byml::String(s) => str_sum(s),
        Byml::Binary(b) | Byml::AlignedBinary(b, _) => b.len() as u64,
        Byml::Array(a) | Byml::MonoArray(a) => {
            for c in a {
                walk_ours_into(c, w);
            }
            a.len() as u64
        }
        Byml::Map(m) | Byml::RemapMap(m) => {
            for (k, c) in m {
                w.checksum = w.checksum.wrapping_add(mix(str_sum(k)));
                walk_ours_into(c, w);
            }
            m.len() as u64
        }
        Byml::HashArray(h) => {
            for (hash, c) in &h.entries {
                w.checksum = w
                    .checksum
                    .wrapping_add(mix(hash.iter().map(|&x| x as u64).sum()));
                walk_ours_into(c, w);
            }
            h.entries.len() as u64
        }
    };
    w.checksum = w.checksum.wrapping_add(mix(x));
}

/// Visits every node of roead's tree.
pub fn walk_roead(v: &RByml) -> Walk {
    let mut w = Walk::default();
    walk_roead_into(v, &mut w);
    w
}

fn walk_roead_into(v: &RByml, w: &mut Walk) {
    w.nodes += 1;
    let x = match v {
        RByml::Null => 0,
        RByml::Bool(b) => 1 + *b as u64,
        RByml::I32(x) => *x as i64 as u64,
        RByml::U32(x) => *x as u64,
        RByml::Float(x) => x.to_bits() as u64,
        RByml::I64(x) => *x as u64,
        RByml::U64(x) => *x,
        RByml::Double(x) => x.to_bits(),
        RByml::String(s) => str_sum(s),
        RByml::BinaryData(b) | RByml::FileData(b) => b.len() as u64,
        RByml::Array(a) => {
            for c in a {
                walk_roead_into(c, w);
            }
            a.len() as u64
        }
        RByml::Map(m) => {
            for (k, c) in m {
                w.checksum = w.checksum.wrapping_add(mix(str_sum(k)));
                walk_roead_into(c, w);
            }
            m.len() as u64
        }
        RByml::HashMap(m) => {
            for (hash, c) in m {
                w.checksum = w.checksum.wrapping_add(mix(*hash as u64));
                walk_roead_into(c, w);
            }
            m.len() as u64
        }
        RByml::ValueHashMap(m) => {
            for (hash, (c, _)) in m {
                w.checksum = w.checksum.wrapping_add(mix(*hash as u64));
                walk_roead_into(c, w);
            }
            m.len() as u64
        }
    };
    w.checksum = w.checksum.wrapping_add(mix(x));
}

/// The first difference between our tree and roead's, with its path; `None` when they hold the same values.
/// Dictionaries compare as sets of pairs (roead's do not keep an order); floats compare by their bits.
pub fn diff(ours: &Byml, theirs: &RByml) -> Option<String> {
    diff_at(ours, theirs, &mut String::new())
}

fn diff_at(ours: &Byml, theirs: &RByml, path: &mut String) -> Option<String> {
    let same = match (ours, theirs) {
        (Byml::Null, RByml::Null) => true,
        (Byml::Bool(a), RByml::Bool(b)) => a == b,
        (Byml::I32(a), RByml::I32(b)) => a == b,
        (Byml::U32(a), RByml::U32(b)) => a == b,
        (Byml::F32(a), RByml::Float(b)) => a.to_bits() == b.to_bits(),
        (Byml::I64(a), RByml::I64(b)) => a == b,
        (Byml::U64(a), RByml::U64(b)) => a == b,
        (Byml::F64(a), RByml::Double(b)) => a.to_bits() == b.to_bits(),
        (Byml::String(a), RByml::String(b)) => a.as_str() == b.as_str(),
        (Byml::Binary(a), RByml::BinaryData(b)) => a == b,
        (Byml::Array(a), RByml::Array(b)) => {
            if a.len() != b.len() {
                return Some(format!("{path}: {} elements vs {}", a.len(), b.len()));
            }
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                let n = path.len();
                let _ = write!(path, "[{i}]");
                if let Some(d) = diff_at(x, y, path) {
                    return Some(d);
                }
                path.truncate(n);
            }
            true
        }
        (Byml::Map(a), RByml::Map(b)) => {
            if a.len() != b.len() {
                return Some(format!("{path}: {} entries vs {}", a.len(), b.len()));
            }
            for (k, x) in a {
                let Some(y) = b.get(k.as_str()) else {
                    return Some(format!("{path}: key {k:?} missing in roead's tree"));
                };
                let n = path.len();
                let _ = write!(path, ".{k}");
                if let Some(d) = diff_at(x, y, path) {
                    return Some(d);
                }
                path.truncate(n);
            }
            true
        }
        _ => false,
    };
    (!same).then(|| format!("{path}: ours {ours:?} vs roead {theirs:?}"))
}

/// A few values read through each library's accessors.
fn spot_check(ours: &Byml, theirs: &RByml) -> Result<(), String> {
    let objs = ours["Objs"]
        .as_array()
        .ok_or("ours: Objs is not an array")?;
    let robjs = theirs.as_map().map_err(|e| e.to_string())?["Objs"]
        .as_array()
        .map_err(|e| e.to_string())?;
    if objs.len() != robjs.len() {
        return Err(format!("Objs: {} vs {}", objs.len(), robjs.len()));
    }
    for i in [0, objs.len() / 2, objs.len() - 1] {
        let (a, b) = (&objs[i], &robjs[i]);
        let name = a["UnitConfigName"].as_str();
        let rname = b["UnitConfigName"].as_string().ok().map(|s| s.as_str());
        let hash = a["HashId"].as_u32();
        let rhash = b["HashId"].as_u32().ok();
        let x = a["Translate"][0].as_f32().map(f32::to_bits);
        let rx = b["Translate"][0usize].as_float().ok().map(f32::to_bits);
        if name.is_none()
            || name != rname
            || hash.is_none()
            || hash != rhash
            || x.is_none()
            || x != rx
        {
            return Err(format!(
                "Objs[{i}]: ours ({name:?}, {hash:?}, {x:?}) vs roead ({rname:?}, {rhash:?}, {rx:?})"
            ));
        }
    }
    let seed = ours["Header"]["Seed"].as_i64();
    let rseed = theirs["Header"]["Seed"].as_i64().ok();
    if seed.is_none() || seed != rseed {
        return Err(format!("Header.Seed: ours {seed:?} vs roead {rseed:?}"));
    }
    Ok(())
}

/// The inputs of the benchmarks, made once.
pub struct Fixture {
    /// The generated tree, and the same as roead's tree.
    pub ours: Document,
    pub roead: RByml,
    pub nodes: u64,
    /// Each library's binary of the tree.
    pub ours_bin: Result<Vec<u8>, String>,
    pub roead_bin: Vec<u8>,
    /// Each library's YAML of the tree.
    pub ours_text: Result<String, String>,
    pub roead_text: String,
}

impl Fixture {
    pub fn new(target_nodes: usize) -> Fixture {
        let root = generate(target_nodes);
        let roead = to_roead(&root).expect("the generated document has only version 2 types");
        let ours = Document::new(root);
        let nodes = walk_ours(&ours.root).nodes;
        let roead_bin = roead.to_binary(roead::Endian::Little);
        let roead_text = roead.to_text();
        Fixture {
            ours_bin: ours.to_binary().map_err(|e| e.to_string()),
            ours_text: ours.to_text().map_err(|e| e.to_string()),
            ours,
            roead,
            nodes,
            roead_bin,
            roead_text,
        }
    }
}

/// The findings of [`check_agreement`], one line each.
pub type Findings = Vec<String>;

/// Ours and roead agree on the document, and each reads the other's output (binary and YAML). Returns what it
/// found (sizes, whether the binaries are identical), or the first disagreement.
pub fn check_agreement(f: &Fixture) -> Result<Findings, String> {
    let mut out = Vec::new();
    let root = &f.ours.root;
    let (w_ours, w_roead) = (walk_ours(root), walk_roead(&f.roead));
    if w_ours != w_roead {
        return Err(format!("walks differ: ours {w_ours:?}, roead {w_roead:?}"));
    }
    spot_check(root, &f.roead)?;
    out.push(format!(
        "document: {} nodes, checksum {:#018x}",
        w_ours.nodes, w_ours.checksum
    ));

    // Each reads its own binary back.
    let ours_bin = f
        .ours_bin
        .as_ref()
        .map_err(|e| format!("ours: to_binary: {e}"))?;
    let back =
        Document::from_binary(ours_bin).map_err(|e| format!("ours: from_binary(ours): {e}"))?;
    // Compared with roead's tree, which holds the same values: a dictionary read back has the order in which the
    // file placed its values, which need not be the order in which the generator inserted the keys.
    if let Some(d) = diff(&back.root, &f.roead) {
        return Err(format!(
            "ours: reading our own binary gives another tree: {d}"
        ));
    }
    let rback =
        RByml::from_binary(&f.roead_bin).map_err(|e| format!("roead: from_binary(roead): {e}"))?;
    if rback != f.roead {
        return Err("roead: reading its own binary gives another tree".into());
    }
    // Each reads the other's binary.
    let r_of_ours =
        RByml::from_binary(ours_bin).map_err(|e| format!("roead cannot read our binary: {e}"))?;
    if let Some(d) = diff(root, &r_of_ours) {
        return Err(format!("roead reading our binary: {d}"));
    }
    let o_of_roead = Document::from_binary(&f.roead_bin)
        .map_err(|e| format!("ours cannot read roead's binary: {e}"))?;
    if let Some(d) = diff(&o_of_roead.root, &f.roead) {
        return Err(format!("ours reading roead's binary: {d}"));
    }
    if walk_ours(&o_of_roead.root) != w_roead || walk_roead(&r_of_ours) != w_ours {
        return Err("walks of the cross-read trees differ".into());
    }
    let same_bytes = *ours_bin == f.roead_bin;
    out.push(format!(
        "binary: ours {} bytes, roead {} bytes, {}; each reads the other's",
        ours_bin.len(),
        f.roead_bin.len(),
        if same_bytes {
            "byte-identical".to_string()
        } else {
            let first = ours_bin
                .iter()
                .zip(&f.roead_bin)
                .position(|(a, b)| a != b)
                .unwrap_or(ours_bin.len().min(f.roead_bin.len()));
            format!("differ from offset {first:#x}")
        }
    ));

    // Ours rewriting what it read from roead's binary: the layout that reading recorded (dictionary order) is
    // roead's, so the bytes should be too.
    let rewritten = o_of_roead
        .to_binary()
        .map_err(|e| format!("ours: to_binary of roead's tree: {e}"))?;
    out.push(format!(
        "ours rewrites roead's binary {}",
        if rewritten == f.roead_bin {
            "byte for byte"
        } else {
            "with other bytes"
        }
    ));

    // YAML: each reads the other's text.
    let ours_text = f
        .ours_text
        .as_ref()
        .map_err(|e| format!("ours: to_text: {e}"))?;
    let o_of_rtext = Document::from_text(&f.roead_text)
        .map_err(|e| format!("ours cannot read roead's YAML: {e}"))?;
    if let Some(d) = diff(&o_of_rtext.root, &f.roead) {
        return Err(format!("ours reading roead's YAML: {d}"));
    }
    let r_of_otext =
        RByml::from_text(ours_text).map_err(|e| format!("roead cannot read our YAML: {e}"))?;
    if let Some(d) = diff(root, &r_of_otext) {
        return Err(format!("roead reading our YAML: {d}"));
    }
    out.push(format!(
        "YAML: ours {} bytes, roead {} bytes; each reads the other's",
        ours_text.len(),
        f.roead_text.len()
    ));
    Ok(out)
}

/// Reads the real file with both libraries: `Ok` with the file's bytes and what was found, and whether roead can
/// read it at all; `Err` when the file is absent or ours cannot read it.
pub struct RealFile {
    pub bytes: Vec<u8>,
    pub ours_walk: Walk,
    /// roead's walk, or why roead cannot read the file.
    pub roead_walk: Result<Walk, String>,
}

pub fn read_real_file(path: &Path) -> Result<RealFile, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let ours = Document::from_binary(&bytes).map_err(|e| format!("ours: {e}"))?;
    let ours_walk = walk_ours(&ours.root);
    let roead_walk = std::panic::catch_unwind(|| RByml::from_binary(&bytes))
        .map_err(|_| "roead panicked".to_string())
        .and_then(|r| r.map_err(|e| e.to_string()))
        .map(|t| walk_roead(&t));
    Ok(RealFile {
        bytes,
        ours_walk,
        roead_walk,
    })
}

/// One pair of benchmarks: a criterion group with the ids `ours` and `roead`.
pub struct Pair {
    pub group: &'static str,
    pub title: &'static str,
}

/// Where criterion writes its results: what criterion itself picks ($CRITERION_HOME, else
/// $CARGO_TARGET_DIR/criterion), else `criterion/` in the target directory this benchmark was built in.
pub fn criterion_dir() -> PathBuf {
    if let Some(p) = std::env::var_os("CRITERION_HOME") {
        return p.into();
    }
    if let Some(p) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(p).join("criterion");
    }
    // The bench binary is <target>/<profile>/deps/<name>-<hash>.
    std::env::current_exe()
        .ok()
        .and_then(|e| Some(e.parent()?.parent()?.parent()?.join("criterion")))
        .unwrap_or_else(|| PathBuf::from("target/criterion"))
}

/// The median time in nanoseconds of `<dir>/<group>/<id>/new/estimates.json`, if that was written at or after
/// `since` (so a result of an earlier run is never shown as this run's).
pub fn median_ns(dir: &Path, group: &str, id: &str, since: SystemTime) -> Option<f64> {
    let p = dir.join(group).join(id).join("new").join("estimates.json");
    let modified = std::fs::metadata(&p).ok()?.modified().ok()?;
    if modified < since {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).ok()?).ok()?;
    v["median"]["point_estimate"].as_f64()
}

pub fn format_ns(ns: f64) -> String {
    if ns >= 1e9 {
        format!("{:.3} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

/// The machine: number of cores and the CPU model.
pub fn machine() -> String {
    let cores = std::thread::available_parallelism()
        .map(|n| n.get().to_string())
        .unwrap_or_else(|_| "?".into());
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    format!("nproc {cores}, {cpu}")
}

/// The version of roead in the workspace's Cargo.lock, if found.
pub fn roead_version() -> String {
    let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock");
    std::fs::read_to_string(lock)
        .ok()
        .and_then(|s| {
            let i = s.find("name = \"roead\"")?;
            let rest = &s[i..];
            let v = rest.lines().nth(1)?.strip_prefix("version = \"")?;
            Some(v.trim_end_matches('"').to_string())
        })
        .unwrap_or_else(|| "?".into())
}

/// The summary table: machine, command, each time, and ours/roead.
/// Ours/roead from rounds in which the two alternate, each round timing a batch of calls of each (about 0.1 s a
/// side; the side that goes first alternates too): the median, lowest and highest of the rounds' ratios. On a
/// shared machine, load that comes and goes over seconds moves two criterion runs made one after the other, but
/// much less a ratio of two batches timed back to back.
#[derive(Debug, Clone, Copy)]
pub struct Paired {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub rounds: usize,
}

pub fn paired(mut ours: impl FnMut(), mut roead: impl FnMut(), rounds: usize) -> Paired {
    let time = |f: &mut dyn FnMut(), n: usize| {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        t.elapsed().as_secs_f64()
    };
    // Warm both up, and size the batches from the slower of one call each.
    let one = time(&mut ours, 1).max(time(&mut roead, 1)).max(1e-6);
    let batch = ((0.1 / one).ceil() as usize).clamp(1, 100_000);
    let mut ratios: Vec<f64> = (0..rounds.max(1))
        .map(|r| {
            if r % 2 == 0 {
                let o = time(&mut ours, batch);
                o / time(&mut roead, batch)
            } else {
                let t = time(&mut roead, batch);
                time(&mut ours, batch) / t
            }
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    Paired {
        median: ratios[ratios.len() / 2],
        min: ratios[0],
        max: ratios[ratios.len() - 1],
        rounds: ratios.len(),
    }
}

pub fn summary(
    pairs: &[Pair],
    paired: &std::collections::BTreeMap<&str, Paired>,
    notes: &[String],
    dir: &Path,
    since: SystemTime,
) -> String {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut s = String::new();
    let _ = writeln!(s, "### BYML: binspec-formats vs roead {}", roead_version());
    let _ = writeln!(s);
    let _ = writeln!(s, "- machine: {}", machine());
    let _ = writeln!(
        s,
        "- command: `cargo bench -p binspec-benches{}{}`",
        if args.is_empty() { "" } else { " -- " },
        args.join(" ")
    );
    for n in notes {
        let _ = writeln!(s, "- {n}");
    }
    if let Some(p) = paired.values().next() {
        let _ = writeln!(
            s,
            "- paired: {} rounds per benchmark after criterion's, ours and roead alternating (0.1 s batches); the median of the rounds' ratios, and their range",
            p.rounds
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "| benchmark | ours (median) | roead (median) | ours/roead | paired ours/roead (range) |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|");
    for p in pairs {
        let o = median_ns(dir, p.group, "ours", since);
        let r = median_ns(dir, p.group, "roead", since);
        if o.is_none() && r.is_none() {
            continue;
        }
        let f = |t: Option<f64>| t.map(format_ns).unwrap_or_else(|| "-".into());
        let ratio = match (o, r) {
            (Some(o), Some(r)) => format!("{:.2}", o / r),
            _ => "-".into(),
        };
        let pr = paired.get(p.group).map_or_else(
            || "-".into(),
            |x| format!("{:.2} ({:.2}-{:.2})", x.median, x.min, x.max),
        );
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            p.title,
            f(o),
            f(r),
            ratio,
            pr
        );
    }
    s
}
