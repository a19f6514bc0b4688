//! Helpers shared by binspec's integration tests (in `tests/`).

use std::path::{Path, PathBuf};

/// What an in-process run of the `binspec` command gave.
pub struct Run {
    pub code: u8,
    pub out: String,
    /// Standard output's bytes, for binary output (`-o -`).
    pub out_bytes: Vec<u8>,
    pub err: String,
}

/// Runs `binspec ARGS...` in-process (`binspec_cli::run_from`) with the real formats.
pub fn run(args: &[&str]) -> Run {
    let registry = binspec_formats::registry();
    let mut out = Vec::new();
    let mut err = Vec::new();
    let argv = std::iter::once("binspec").chain(args.iter().copied());
    let code = binspec_cli::run_from(argv, &registry, &mut out, &mut err, false);
    Run {
        code,
        out: String::from_utf8_lossy(&out).into_owned(),
        out_bytes: out,
        err: String::from_utf8_lossy(&err).into_owned(),
    }
}

/// A seed page dump in `../shared/seeds`, or `None` (with a message saying the test is skipped) when it is absent.
pub fn seed(name: &str) -> Option<PathBuf> {
    let p = repo().join("../shared/seeds").join(name);
    if p.is_file() {
        Some(p)
    } else {
        eprintln!("skipped: {} is absent", p.display());
        None
    }
}

/// The repository's root folder.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The user's first step with a file: `binspec decode FILE -o DIR/t.EXT` (`EXT` yaml or json), then `binspec
/// encode` of the document unchanged, which must give the file's bytes back. Returns the document's path.
pub fn cli_decode_unchanged(src: &Path, dir: &Path, ext: &str) -> PathBuf {
    let text = dir.join(format!("t.{ext}"));
    let out = dir.join("unchanged.bin");
    let (src_s, text_s, out_s) = (
        src.to_str().unwrap_or_default(),
        text.to_str().unwrap_or_default(),
        out.to_str().unwrap_or_default(),
    );
    let mut args = vec!["decode", src_s, "-o", text_s];
    if ext == "json" {
        args.push("--json");
    }
    let r = run(&args);
    assert_eq!(r.code, 0, "{}", r.err);
    let mut args = vec!["encode", text_s, "-o", out_s];
    let id = src.extension().and_then(|e| e.to_str()).unwrap_or_default();
    if ext == "json" {
        // (JSON documents carry no format line.)
        args.extend(["--format", id]);
    }
    let r = run(&args);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        std::fs::read(&out).ok() == std::fs::read(src).ok(),
        "{ext}: {} encodes to other bytes",
        src.display()
    );
    text
}

/// Every file under a folder, recursively, sorted.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// `None` when two byte strings are equal, else where they first differ and their sizes.
pub fn difference(got: &[u8], want: &[u8]) -> Option<String> {
    if got == want {
        return None;
    }
    let at = got
        .iter()
        .zip(want)
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(want.len()));
    Some(format!(
        "differs at {at:#x} ({} vs {} bytes)",
        got.len(),
        want.len()
    ))
}

/// Runs `scripts/oracle/setup-venv.sh` once per test binary and gives the venv's python; `Err(why)` when there is
/// no oracle (tests then skip with that message).
pub fn oracle_python() -> Result<&'static Path, &'static str> {
    static PY: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    let r = PY.get_or_init(|| {
        let out = std::process::Command::new("bash")
            .arg(repo().join("scripts/oracle/setup-venv.sh"))
            .output()
            .map_err(|e| format!("cannot run setup-venv.sh: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "setup-venv.sh failed ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        let p = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if p.is_empty() {
            return Err("setup-venv.sh printed no python path".into());
        }
        Ok(PathBuf::from(p))
    });
    match r {
        Ok(p) => Ok(p.as_path()),
        Err(e) => Err(e.as_str()),
    }
}

/// The findings of `binspec wiki lint` on a page's text (its newest revision), as lines.
pub fn lint_page(text: &str, title: &str) -> Vec<String> {
    let revs = binspec_wiki::revisions(text, title);
    binspec_wiki::chosen(&revs, 0)
        .into_iter()
        .flat_map(binspec_wiki::lint)
        .map(|f| f.to_string())
        .collect()
}

/// Runs `scripts/oracle/SCRIPT ARGS...` with the oracle's python `py` and gives its standard output; panics with
/// the script's standard error when it fails (the oracle rejected the input).
pub fn run_oracle<S: AsRef<std::ffi::OsStr>>(py: &Path, script: &str, args: &[S]) -> Vec<u8> {
    let out = std::process::Command::new(py)
        .arg(repo().join("scripts/oracle").join(script))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {script}: {e}"));
    assert!(
        out.status.success(),
        "{script} {:?} failed: {}",
        args.iter().map(|a| a.as_ref()).collect::<Vec<_>>(),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The oracle's python, or returns from the calling test after printing why it is skipped.
#[macro_export]
macro_rules! oracle_or_skip {
    () => {
        match $crate::oracle_python() {
            Ok(p) => p,
            Err(why) => {
                eprintln!("skipped: {why}");
                return;
            }
        }
    };
}

/// xorshift64*, seeded: reproducible random numbers for tests, without a rand crate.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// A folder named by the environment variable `var`, or `default` (relative to the repository), if it exists.
pub fn dir_of(var: &str, default: &str) -> Option<PathBuf> {
    let d = std::env::var_os(var)
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join(default));
    d.is_dir().then_some(d)
}

/// The sample files of Kaitai's gallery (`kaitai-io/kaitai_struct_samples`, laid out as the gallery's specs are:
/// `image/png/x.png` is a file of `image/png.ksy`) whose spec is in the gallery at `formats`: (the file's path
/// under `samples`, the spec, the file), in path order. Licences, notes and scripts beside them are left out.
pub fn kaitai_samples(formats: &Path, samples: &Path) -> Vec<(String, PathBuf, PathBuf)> {
    let mut out = Vec::new();
    for f in files_under(samples) {
        let rel = f
            .strip_prefix(samples)
            .unwrap_or(&f)
            .to_string_lossy()
            .replace('\\', "/");
        let Some((spec_path, _)) = rel.rsplit_once('/') else {
            continue;
        };
        let spec = formats.join(format!("{spec_path}.ksy"));
        let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !spec.is_file()
            || matches!(
                ext,
                "license" | "md" | "py" | "txt" | "json" | "java" | "dts"
            )
        {
            continue;
        }
        out.push((rel, spec, f));
    }
    out.sort();
    out
}

/// Runs a fixture generator of `scripts/fixtures/` with `--check` (it regenerates its fixtures into a temporary
/// folder and compares them with the checked-in ones) and fails with its output where they differ; skipped, with a
/// message, without python3.
pub fn check_fixture_script(script: &str) {
    let out = std::process::Command::new("python3")
        .arg(repo().join("scripts/fixtures").join(script))
        .arg("--check")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output();
    match out {
        Err(e) => eprintln!("skipped: python3 not available ({e})"),
        Ok(o) => assert!(
            o.status.success(),
            "{script} --check: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
    }
}

/// The `count + 1` nodes (root first) of the nn::util dictionary at `at` in `file`, as its bytes hold them: each
/// node's reference bit and left and right indices (node i at the dictionary + 8 + 16 i).
pub fn nn_util_dictionary_nodes(
    file: &[u8],
    at: usize,
    count: usize,
) -> Vec<binspec_runtime::layout::resdic::Node> {
    (0..count + 1)
        .map(|i| {
            let n = &file[at + 8 + 16 * i..];
            binspec_runtime::layout::resdic::Node {
                ref_bit: u32::from_le_bytes(n[..4].try_into().unwrap()),
                left: u16::from_le_bytes([n[4], n[5]]),
                right: u16::from_le_bytes([n[6], n[7]]),
            }
        })
        .collect()
}

/// The sections of an nn::util file's relocation table, read from its bytes: each section's region offset and
/// size (the table's 0x10-byte header, then 0x18 bytes per section).
pub fn nn_util_relocation_sections(file: &[u8]) -> Vec<[u64; 2]> {
    let u32_at = |at: usize| u32::from_le_bytes(file[at..at + 4].try_into().unwrap()) as usize;
    let table = u32_at(0x18);
    (0..u32_at(table + 8))
        .map(|i| {
            let s = table + 0x10 + i * 0x18;
            [u32_at(s + 8) as u64, u32_at(s + 12) as u64]
        })
        .collect()
}

/// The entries of an nn::util file's relocation table, read from its bytes: {u32 position, u16 struct count, u8
/// pointer count, u8 padding count} after the table's 0x10-byte header and its 0x18-byte sections.
pub fn nn_util_relocation_entries(file: &[u8]) -> Vec<[u64; 4]> {
    let u32_at = |at: usize| u32::from_le_bytes(file[at..at + 4].try_into().unwrap()) as usize;
    let table = u32_at(0x18);
    let sections = u32_at(table + 8);
    file[table + 0x10 + sections * 0x18..]
        .chunks_exact(8)
        .map(|e| {
            [
                u64::from(u32::from_le_bytes(e[..4].try_into().unwrap())),
                u64::from(u16::from_le_bytes([e[4], e[5]])),
                u64::from(e[6]),
                u64::from(e[7]),
            ]
        })
        .collect()
}

/// The keys of a BFRES's dictionary `dict` (`model_dict`: of the file's models; `bone_dict`: of model 0's
/// skeleton; else of model 0), from the model's JSON.
pub fn bfres_dict_keys(m: &binspec_formats::bfres::Bfres, dict: &str) -> Vec<String> {
    let v = serde_json::to_value(m).unwrap();
    let body = v["body"]
        .as_object()
        .and_then(|b| b.values().next())
        .unwrap();
    let holder = match dict {
        "model_dict" => body,
        "bone_dict" => &body["models"][0]["skeleton_data"],
        _ => &body["models"][0],
    };
    holder[dict]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .skip(1)
        .map(|n| n["key"]["data"].as_str().unwrap().to_string())
        .collect()
}
