//! Little-endian reads at absolute offsets with errors that say where, a growing output buffer, and string pools.

// FxHash: the pool hashes every string the writer meets, twice per write (SipHash was the writer's hottest part).
use rustc_hash::FxHashMap as HashMap;

use crate::{Error, Result};

/// Bounds-checked reads; `base` is added to offsets in errors (the absolute position of `data` in the file).
pub mod at {
    use super::*;

    fn get<const N: usize>(data: &[u8], o: usize, base: usize) -> Result<[u8; N]> {
        data.get(o..o.saturating_add(N))
            .map(|s| s.try_into().unwrap())
            .ok_or_else(|| {
                Error::invalid(
                    (base + o) as u64,
                    format!(
                        "a {N}-byte read at {:#x} runs past the end ({:#x} bytes)",
                        base + o,
                        base + data.len()
                    ),
                )
            })
    }
    pub fn u16(data: &[u8], o: usize, base: usize) -> Result<u16> {
        Ok(u16::from_le_bytes(get(data, o, base)?))
    }
    pub fn u32(data: &[u8], o: usize, base: usize) -> Result<u32> {
        Ok(u32::from_le_bytes(get(data, o, base)?))
    }
    /// `n` entries of `size` bytes from `o` lie inside `data` (checked before allocating for them).
    pub fn fits(data: &[u8], o: usize, n: usize, size: usize, base: usize) -> Result<()> {
        match n.checked_mul(size).and_then(|l| l.checked_add(o)) {
            Some(end) if end <= data.len() => Ok(()),
            _ => Err(Error::invalid(
                (base + o) as u64,
                format!(
                    "{n} entries of {size:#x} bytes at {:#x} do not fit in the file ({:#x} bytes)",
                    base + o,
                    base + data.len()
                ),
            )),
        }
    }
    /// The null-terminated UTF-8 string at `o` of `pool`.
    pub fn string(pool: &[u8], o: usize, base: usize) -> Result<String> {
        let s = pool.get(o..).ok_or_else(|| {
            Error::invalid(
                (base + o) as u64,
                format!(
                    "string offset {o:#x} is past the string pool's end ({:#x})",
                    pool.len()
                ),
            )
        })?;
        let end = s.iter().position(|&b| b == 0).ok_or_else(|| {
            Error::invalid(
                (base + o) as u64,
                format!("the string at pool offset {o:#x} has no terminating null byte"),
            )
        })?;
        String::from_utf8(s[..end].to_vec()).map_err(|_| {
            Error::invalid(
                (base + o) as u64,
                format!("the string at pool offset {o:#x} is not UTF-8"),
            )
        })
    }
    /// Every string of a pool, in order.
    pub fn pool_strings(pool: &[u8], base: usize) -> Result<Vec<String>> {
        let mut v = Vec::new();
        let mut o = 0;
        while o < pool.len() {
            let s = string(pool, o, base)?;
            o += s.len() + 1;
            v.push(s);
        }
        Ok(v)
    }
}

/// A little-endian output buffer.
#[derive(Default)]
pub struct Out(pub Vec<u8>);

impl Out {
    pub fn pos(&self) -> usize {
        self.0.len()
    }
    pub fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    pub fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn f32(&mut self, v: f32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn bytes(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }
    /// A size, count or offset as a u32, or an error naming `what`.
    pub fn fit(v: usize, what: &str) -> Result<u32> {
        u32::try_from(v).map_err(|_| Error::write(format!("{what} ({v}) does not fit in 32 bits")))
    }
    pub fn fit8(v: i128, what: &str) -> Result<u8> {
        u8::try_from(v).map_err(|_| Error::write(format!("{what} ({v}) does not fit in 8 bits")))
    }
}

/// A string pool being built: strings are added in the order the writer meets them, then laid out after the
/// recorded order.
pub struct Pool<'a> {
    recorded: &'a [String],
    keep_all: bool,
    keep: HashMap<&'a str, ()>,
    used: Vec<String>,
    seen: HashMap<String, ()>,
}

impl<'a> Pool<'a> {
    /// `recorded` is the order read from a file; with `keep_all` every recorded string stays, otherwise only those
    /// that were added and those in `keep`.
    pub fn new(recorded: &'a [String], keep_all: bool, keep: &'a [String]) -> Self {
        Pool {
            recorded,
            keep_all,
            keep: keep.iter().map(|s| (s.as_str(), ())).collect(),
            used: Vec::new(),
            seen: HashMap::default(),
        }
    }
    pub fn add(&mut self, s: &str) {
        if !self.seen.contains_key(s) {
            self.seen.insert(s.to_owned(), ());
            self.used.push(s.to_owned());
        }
    }
    /// The strings added so far, in the order they were first added.
    #[cfg(test)]
    pub fn used(&self) -> &[String] {
        &self.used
    }
    /// The pool's bytes and each string's offset.
    pub fn finish(self) -> Result<(Vec<u8>, HashMap<String, u32>)> {
        let mut bytes = Vec::new();
        let mut offsets: HashMap<String, u32> = HashMap::default();
        let mut put = |s: &str, bytes: &mut Vec<u8>| -> Result<()> {
            if s.as_bytes().contains(&0) {
                return Err(Error::write(format!(
                    "the string {s:?} contains a null byte, which the pool cannot hold"
                )));
            }
            let o = Out::fit(bytes.len(), "string pool offset")?;
            offsets.entry(s.to_owned()).or_insert(o);
            bytes.extend_from_slice(s.as_bytes());
            bytes.push(0);
            Ok(())
        };
        let mut placed: HashMap<&str, ()> = HashMap::default();
        for s in self.recorded {
            if self.keep_all
                || self.seen.contains_key(s.as_str())
                || self.keep.contains_key(s.as_str())
            {
                put(s, &mut bytes)?;
                placed.insert(s, ());
            }
        }
        for s in &self.used {
            if !placed.contains_key(s.as_str()) {
                put(s, &mut bytes)?;
            }
        }
        Ok((bytes, offsets))
    }
}
