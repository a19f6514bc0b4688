//! Compression wrappers that game files come in: Nintendo's Yaz0 (`.szs`) and zstd (`.zs`).
//!
//! Everything here is safe on hostile input: a decoder never reads or writes out of bounds, never panics, and
//! never allocates much more than the input could plausibly expand to (see [`MAX_DECOMPRESSED`] and
//! [`yaz0_size_cap`]).

use std::io::Read;

use crate::error::{Error, ErrorKind, Result};

/// How a file is compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Not compressed.
    None,
    /// Nintendo's Yaz0 (`.szs`, magic `Yaz0`).
    Yaz0,
    /// A zstd frame (`.zs`).
    Zstd,
}

impl Compression {
    /// A short name (`none`, `yaz0`, `zstd`).
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Yaz0 => "yaz0",
            Compression::Zstd => "zstd",
        }
    }
}

impl std::fmt::Display for Compression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The zstd frame magic number, as it appears in a file.
pub const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
/// The Yaz0 magic.
pub const YAZ0_MAGIC: [u8; 4] = *b"Yaz0";
/// Size of the Yaz0 header.
pub const YAZ0_HEADER_LEN: usize = 16;
/// No decoder here produces more than this many bytes (1 GiB).
pub const MAX_DECOMPRESSED: u64 = 1 << 30;
/// The zstd level [`compress`] uses.
pub const ZSTD_LEVEL: i32 = 9;

/// Looks at the magic bytes.
pub fn detect(data: &[u8]) -> Compression {
    if data.starts_with(&YAZ0_MAGIC) {
        Compression::Yaz0
    } else if data.starts_with(&ZSTD_MAGIC) {
        Compression::Zstd
    } else {
        Compression::None
    }
}

/// Undoes whatever compression [`detect`] finds; data that is not compressed is returned as it is (copied).
/// Fails on corrupt or truncated data, on zstd frames that need a dictionary, and on data that claims or reaches
/// more than [`MAX_DECOMPRESSED`] bytes ([`ErrorKind::Limit`]); the error's path starts with `yaz0` or `zstd`.
pub fn decompress(data: &[u8]) -> Result<(Vec<u8>, Compression)> {
    decompress_limited(data, MAX_DECOMPRESSED)
}

/// A compressed file decompresses to at most this many times its size by default ([`default_limit`]) ...
pub const DEFAULT_RATIO: u64 = 16;
/// ... or to this many bytes (32 MiB), whichever is more. Game files compress 3 to 10 times; a file that claims
/// more is either unusual (raise the limit) or made to exhaust memory (a 35 KB zstd file of 1,000 MB).
pub const DEFAULT_FLOOR: u64 = 32 << 20;

/// The default limit on the decompressed size of `input_len` compressed bytes: [`DEFAULT_RATIO`] times it, at
/// least [`DEFAULT_FLOOR`], at most [`MAX_DECOMPRESSED`].
pub fn default_limit(input_len: usize) -> u64 {
    (input_len as u64)
        .saturating_mul(DEFAULT_RATIO)
        .clamp(DEFAULT_FLOOR, MAX_DECOMPRESSED)
}

/// [`decompress`], refusing to produce more than `limit` bytes (at most [`MAX_DECOMPRESSED`]): more is an
/// [`ErrorKind::Limit`], the other errors are those of [`decompress`].
pub fn decompress_limited(data: &[u8], limit: u64) -> Result<(Vec<u8>, Compression)> {
    let c = detect(data);
    let out = match c {
        Compression::None => data.to_vec(),
        Compression::Yaz0 => yaz0(data, limit.min(MAX_DECOMPRESSED), usize::MAX)?,
        Compression::Zstd => decompress_zstd_limited(data, limit)?,
    };
    Ok((out, c))
}

/// The first `n` bytes (or fewer, if there are fewer) that `data` decompresses to, decompressing no more than
/// that: enough to tell the format of a compressed file from its magic. Fails as [`decompress`] does on the part
/// it decompresses.
pub fn decompress_prefix(data: &[u8], n: usize) -> Result<Vec<u8>> {
    match detect(data) {
        Compression::None => Ok(data[..n.min(data.len())].to_vec()),
        Compression::Yaz0 => yaz0(data, MAX_DECOMPRESSED, n),
        Compression::Zstd => {
            let mut dec = zstd::stream::read::Decoder::with_buffer(data).map_err(zstd_error)?;
            let mut out = vec![0u8; n];
            let mut got = 0;
            while got < n {
                match dec.read(&mut out[got..]) {
                    Ok(0) => break,
                    Ok(k) => got += k,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(zstd_error(e)),
                }
            }
            out.truncate(got);
            Ok(out)
        }
    }
}

/// Compresses `data` (Yaz0 with alignment 0, zstd at [`ZSTD_LEVEL`]); [`Compression::None`] copies it. Fails only
/// when the data is too large for the format (Yaz0 stores the size in 32 bits) or zstd reports an error.
pub fn compress(data: &[u8], c: Compression) -> Result<Vec<u8>> {
    match c {
        Compression::None => Ok(data.to_vec()),
        Compression::Yaz0 => compress_yaz0(data, 0),
        Compression::Zstd => compress_zstd(data, ZSTD_LEVEL),
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Yaz0

/// The fields of a Yaz0 header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Yaz0Header {
    /// Size of the data once decompressed.
    pub size: u32,
    /// The alignment the game should load the data at (0 in most files).
    pub alignment: u32,
}

/// Reads a Yaz0 header, if `data` starts with one.
pub fn yaz0_header(data: &[u8]) -> Option<Yaz0Header> {
    if data.len() < YAZ0_HEADER_LEN || !data.starts_with(&YAZ0_MAGIC) {
        return None;
    }
    let u32_at = |o: usize| u32::from_be_bytes([data[o], data[o + 1], data[o + 2], data[o + 3]]);
    Some(Yaz0Header {
        size: u32_at(4),
        alignment: u32_at(8),
    })
}

/// The largest decompressed size a Yaz0 stream of `input_len` bytes may declare: each group of at most 25 input
/// bytes gives at most 8 × 0x111 output bytes, so anything above 256× the input (plus a little) is a lie.
pub fn yaz0_size_cap(input_len: usize) -> u64 {
    (input_len as u64)
        .saturating_mul(256)
        .saturating_add(4096)
        .min(MAX_DECOMPRESSED)
}

fn yaz0_eof(at: usize, need: usize, size: usize) -> Error {
    Error::new(
        ErrorKind::Eof {
            at: at as u64,
            need: need as u64,
            size: size as u64,
            root: true,
        },
        Some(at as u64),
    )
    .in_format("yaz0")
}

/// Decompresses a Yaz0 stream (header included). Fails on a stream that ends early ([`ErrorKind::Eof`]), a wrong
/// magic ([`ErrorKind::Contents`]), a declared size the stream cannot hold ([`ErrorKind::Limit`], see
/// [`yaz0_size_cap`]), and a back-reference before the start of the output ([`ErrorKind::Invalid`]).
pub fn decompress_yaz0(data: &[u8]) -> Result<Vec<u8>> {
    yaz0(data, MAX_DECOMPRESSED, usize::MAX)
}

/// Decompresses the first `want` bytes of a Yaz0 stream whose declared size may be at most `limit`.
fn yaz0(data: &[u8], limit: u64, want: usize) -> Result<Vec<u8>> {
    if data.len() < YAZ0_HEADER_LEN {
        return Err(yaz0_eof(data.len().min(4), YAZ0_HEADER_LEN, data.len()).at("header"));
    }
    if !data.starts_with(&YAZ0_MAGIC) {
        return Err(Error::new(
            ErrorKind::Contents {
                expected: YAZ0_MAGIC.to_vec(),
                found: data[..4].to_vec(),
            },
            Some(0),
        )
        .at("magic")
        .in_format("yaz0"));
    }
    let header = yaz0_header(data).expect("checked above");
    let size = header.size as u64;
    let cap = yaz0_size_cap(data.len());
    if size > cap {
        return Err(Error::limit(
            4,
            format!(
                "declared decompressed size {size:#x} is more than a {:#x}-byte Yaz0 stream can hold (limit {cap:#x})",
                data.len()
            ),
        )
        .at("size")
        .in_format("yaz0"));
    }
    if size > limit && want as u64 >= size {
        return Err(Error::limit(
            4,
            format!("declared decompressed size {size:#x} is more than the limit of {limit:#x}"),
        )
        .at("size")
        .in_format("yaz0"));
    }
    let size = (size as usize).min(want);
    let mut out: Vec<u8> = Vec::with_capacity(size);
    let mut src = YAZ0_HEADER_LEN;
    let byte = |i: usize| {
        data.get(i)
            .copied()
            .ok_or_else(|| yaz0_eof(i, 1, data.len()))
    };

    while out.len() < size {
        let flags = byte(src)?;
        src += 1;
        for bit in (0..8).rev() {
            if out.len() >= size {
                break;
            }
            if flags >> bit & 1 == 1 {
                out.push(byte(src)?);
                src += 1;
            } else {
                let at = src;
                let b0 = byte(src)? as usize;
                let b1 = byte(src + 1)? as usize;
                src += 2;
                let dist = ((b0 & 0xf) << 8 | b1) + 1;
                let len = if b0 >> 4 == 0 {
                    let b2 = byte(src)? as usize;
                    src += 1;
                    b2 + 0x12
                } else {
                    (b0 >> 4) + 2
                };
                if dist > out.len() {
                    return Err(Error::invalid(
                        at as u64,
                        format!(
                            "back-reference to {dist} bytes back reaches before the start of the output \
                             (output offset {:#x})",
                            out.len()
                        ),
                    )
                    .in_format("yaz0"));
                }
                // A stream may overshoot the declared size in its last chunk: stop at the size.
                let len = len.min(size - out.len());
                let start = out.len() - dist;
                if dist >= len {
                    out.extend_from_within(start..start + len);
                } else {
                    for i in 0..len {
                        let b = out[start + i];
                        out.push(b);
                    }
                }
            }
        }
    }
    Ok(out)
}

const Y_WINDOW: usize = 0x1000;
const Y_MIN_MATCH: usize = 3;
const Y_MAX_MATCH: usize = 0x111;
const Y_HASH_BITS: u32 = 15;
const Y_CHAIN_RING: usize = 2 * Y_WINDOW;
const Y_MAX_CHAIN: usize = 256;
const NIL: u32 = u32::MAX;

/// Hash chains over 3-byte prefixes, holding the last [`Y_CHAIN_RING`] positions.
struct Matcher<'a> {
    data: &'a [u8],
    head: Vec<u32>,
    prev: Vec<u32>,
}

impl<'a> Matcher<'a> {
    fn new(data: &'a [u8]) -> Self {
        Matcher {
            data,
            head: vec![NIL; 1 << Y_HASH_BITS],
            prev: vec![NIL; Y_CHAIN_RING],
        }
    }

    #[inline]
    fn hash(&self, pos: usize) -> usize {
        let d = self.data;
        let v = (d[pos] as u32) << 16 | (d[pos + 1] as u32) << 8 | d[pos + 2] as u32;
        (v.wrapping_mul(2654435761) >> (32 - Y_HASH_BITS)) as usize
    }

    #[inline]
    fn insert(&mut self, pos: usize) {
        if pos + Y_MIN_MATCH > self.data.len() {
            return;
        }
        let h = self.hash(pos);
        self.prev[pos % Y_CHAIN_RING] = self.head[h];
        self.head[h] = pos as u32;
    }

    /// The longest match for `pos` in the window as (length, distance); length 0 when there is none of at
    /// least [`Y_MIN_MATCH`] bytes. `pos` itself must not be inserted yet.
    fn find(&self, pos: usize) -> (usize, usize) {
        let d = self.data;
        if pos + Y_MIN_MATCH > d.len() {
            return (0, 0);
        }
        let max = Y_MAX_MATCH.min(d.len() - pos);
        let mut best = (0usize, 0usize);
        let mut cand = self.head[self.hash(pos)];
        let mut steps = 0;
        while cand != NIL && steps < Y_MAX_CHAIN {
            let c = cand as usize;
            if c >= pos || pos - c > Y_WINDOW {
                break;
            }
            // Cheap rejection: the byte that would make this match longer than the best one.
            if d[c + best.0.min(max - 1)] == d[pos + best.0.min(max - 1)] {
                let mut l = 0;
                while l < max && d[c + l] == d[pos + l] {
                    l += 1;
                }
                if l > best.0 {
                    best = (l, pos - c);
                    if l == max {
                        break;
                    }
                }
            }
            let next = self.prev[c % Y_CHAIN_RING];
            // Chains only go back in time; anything else is a stale slot of the ring.
            if next != NIL && next as usize >= c {
                break;
            }
            cand = next;
            steps += 1;
        }
        if best.0 >= Y_MIN_MATCH {
            best
        } else {
            (0, 0)
        }
    }
}

/// Writes Yaz0 groups: a flag byte followed by up to 8 chunks.
struct GroupWriter {
    out: Vec<u8>,
    flag_pos: usize,
    count: u32,
}

impl GroupWriter {
    fn start_chunk(&mut self) {
        if self.count == 8 {
            self.count = 0;
        }
        if self.count == 0 {
            self.flag_pos = self.out.len();
            self.out.push(0);
        }
    }
    fn literal(&mut self, b: u8) {
        self.start_chunk();
        self.out[self.flag_pos] |= 0x80 >> self.count;
        self.out.push(b);
        self.count += 1;
    }
    fn back_ref(&mut self, len: usize, dist: usize) {
        debug_assert!((Y_MIN_MATCH..=Y_MAX_MATCH).contains(&len) && (1..=Y_WINDOW).contains(&dist));
        self.start_chunk();
        let d = dist - 1;
        if len < 0x12 {
            self.out.push(((len - 2) << 4 | d >> 8) as u8);
            self.out.push(d as u8);
        } else {
            self.out.push((d >> 8) as u8);
            self.out.push(d as u8);
            self.out.push((len - 0x12) as u8);
        }
        self.count += 1;
    }
}

/// Compresses `data` as Yaz0 with a lazy LZ matcher, writing `alignment` into the header. Fails when `data` is
/// longer than the header's 32-bit size can say.
pub fn compress_yaz0(data: &[u8], alignment: u32) -> Result<Vec<u8>> {
    let size = u32::try_from(data.len()).map_err(|_| {
        Error::write(format!(
            "{:#x} bytes are too many for Yaz0 (at most 4 GiB)",
            data.len()
        ))
    })?;
    let mut w = GroupWriter {
        out: Vec::with_capacity(data.len() / 2 + 64),
        flag_pos: 0,
        count: 0,
    };
    w.out.extend_from_slice(&YAZ0_MAGIC);
    w.out.extend_from_slice(&size.to_be_bytes());
    w.out.extend_from_slice(&alignment.to_be_bytes());
    w.out.extend_from_slice(&[0; 4]);

    let n = data.len();
    let mut m = Matcher::new(data);
    let mut pos = 0;
    // A match already found for `pos` by the previous step's look-ahead.
    let mut pending: Option<(usize, usize)> = None;
    while pos < n {
        let (len, dist) = pending.take().unwrap_or_else(|| m.find(pos));
        if len < Y_MIN_MATCH {
            m.insert(pos);
            w.literal(data[pos]);
            pos += 1;
            continue;
        }
        m.insert(pos);
        if len < Y_MAX_MATCH && pos + 1 < n {
            let next = m.find(pos + 1);
            if next.0 > len {
                // Lazy: one literal now buys a longer match.
                w.literal(data[pos]);
                pos += 1;
                pending = Some(next);
                continue;
            }
        }
        w.back_ref(len, dist);
        for p in pos + 1..pos + len {
            m.insert(p);
        }
        pos += len;
    }
    Ok(w.out)
}

// ---------------------------------------------------------------------------------------------------------------
// zstd

fn zstd_error(e: std::io::Error) -> Error {
    let msg = e.to_string();
    if msg.to_ascii_lowercase().contains("dictionary") {
        Error::other(format!(
            "zstd: {msg}: the file was probably compressed with a dictionary (as in Tears of the Kingdom's \
             ZsDic.pack), which binspec does not support"
        ))
        .in_format("zstd")
    } else {
        Error::other(format!("zstd: {msg}")).in_format("zstd")
    }
}

/// Decompresses one or more zstd frames, refusing to produce more than [`MAX_DECOMPRESSED`] bytes, and refusing
/// frames that need a dictionary ([`ErrorKind::Invalid`]); corrupt frames are [`ErrorKind::Other`].
pub fn decompress_zstd(data: &[u8]) -> Result<Vec<u8>> {
    decompress_zstd_limited(data, MAX_DECOMPRESSED)
}

/// [`decompress_zstd`] with another limit on the output size (at most [`MAX_DECOMPRESSED`]).
pub fn decompress_zstd_limited(data: &[u8], limit: u64) -> Result<Vec<u8>> {
    use zstd::zstd_safe;
    let limit = limit.min(MAX_DECOMPRESSED);
    if let Some(id) = zstd_safe::get_dict_id_from_frame(data) {
        return Err(Error::invalid(
            5,
            format!(
                "zstd frame needs dictionary {id:#x}, which binspec does not have (Nintendo games such as Tears \
                 of the Kingdom compress with dictionaries from ZsDic.pack); decompress the file with the game's \
                 dictionary first"
            ),
        )
        .in_format("zstd"));
    }
    let mut reserve = 0usize;
    match zstd_safe::get_frame_content_size(data) {
        Ok(Some(n)) if n > limit => {
            return Err(Error::limit(
                4,
                format!("zstd frame declares {n:#x} bytes of content, more than the limit of {limit:#x}"),
            )
            .in_format("zstd"));
        }
        // Trust the declared size for the allocation only as far as the input could plausibly expand.
        Ok(Some(n)) => reserve = (n as usize).min(data.len().saturating_mul(64)),
        Ok(None) => {}
        Err(_) => return Err(Error::invalid(0, "not a valid zstd frame header").in_format("zstd")),
    }
    let mut dec = zstd::stream::read::Decoder::with_buffer(data).map_err(zstd_error)?;
    let mut out = Vec::with_capacity(reserve);
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let n = match dec.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(zstd_error(e)),
        };
        if (out.len() + n) as u64 > limit {
            return Err(Error::limit(
                0,
                format!("zstd data decompresses to more than {limit:#x} bytes"),
            )
            .in_format("zstd"));
        }
        if out.len() + n > out.capacity() {
            // Grow by doubling, but never past the limit.
            let want = (out.capacity() * 2).max(out.len() + n).min(limit as usize);
            out.reserve_exact(want - out.len());
        }
        out.extend_from_slice(&chunk[..n]);
    }
    Ok(out)
}

/// Compresses `data` as a single zstd frame (content size included) at `level`. Fails only when zstd does (an
/// unusable level, memory).
pub fn compress_zstd(data: &[u8], level: i32) -> Result<Vec<u8>> {
    zstd::bulk::compress(data, level).map_err(zstd_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use zstd::zstd_safe;

    fn xorshift(seed: u64) -> impl FnMut() -> u64 {
        let mut s = seed;
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        }
    }

    fn samples() -> Vec<Vec<u8>> {
        let mut rng = xorshift(0x9e3779b97f4a7c15);
        let random: Vec<u8> = (0..5000).map(|_| rng() as u8).collect();
        // Text-like data: random words from a small vocabulary.
        let words = [
            &b"sarc "[..],
            b"bfres ",
            b"Actor/",
            b"Link",
            b".bgyml\n",
            b"0000",
        ];
        let mut text = Vec::new();
        while text.len() < 40_000 {
            text.extend_from_slice(words[(rng() % words.len() as u64) as usize]);
        }
        let mut low_entropy: Vec<u8> = (0..20_000).map(|_| (rng() % 3) as u8).collect();
        low_entropy.extend(std::iter::repeat_n(7u8, 3000));
        vec![
            vec![],
            vec![0x42],
            vec![1, 2],
            b"abc".to_vec(),
            b"aaaa".to_vec(),
            vec![0; 100_000],
            b"abcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabc".to_vec(),
            (0..=255u8).cycle().take(10_000).collect(),
            random,
            text,
            low_entropy,
        ]
    }

    #[test]
    fn yaz0_round_trips() {
        for (i, s) in samples().iter().enumerate() {
            for align in [0, 0x80, 0x2000] {
                let c = compress_yaz0(s, align).unwrap();
                assert_eq!(detect(&c), Compression::Yaz0);
                assert_eq!(
                    yaz0_header(&c),
                    Some(Yaz0Header {
                        size: s.len() as u32,
                        alignment: align
                    })
                );
                let d = decompress_yaz0(&c).unwrap();
                assert!(
                    d == *s,
                    "sample {i} (alignment {align:#x}) does not round-trip"
                );
            }
        }
    }

    #[test]
    fn yaz0_compresses() {
        let zeros = compress_yaz0(&[0; 100_000], 0).unwrap();
        assert!(zeros.len() < 100_000 / 80, "{} bytes", zeros.len());
        let text = &samples()[9];
        let c = compress_yaz0(text, 0).unwrap();
        assert!(
            c.len() < text.len() / 3,
            "{} of {} bytes",
            c.len(),
            text.len()
        );
    }

    #[test]
    fn yaz0_known_stream() {
        // "abc" as literals, then a back-reference of 6 bytes at distance 3 (overlapping copy), then a long
        // back-reference (3-byte form) of 0x12 + 2 bytes at distance 1, then literal 'z'.
        let mut s = b"Yaz0".to_vec();
        s.extend_from_slice(&(3 + 6 + 0x14 + 1u32).to_be_bytes());
        s.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0]);
        s.push(0b1110_0100);
        s.extend_from_slice(b"abc");
        s.extend_from_slice(&[0x40, 0x02]); // len 4 + 2 = 6, dist 2 + 1 = 3
        s.extend_from_slice(&[0x00, 0x00, 0x02]); // len 2 + 0x12, dist 1
        s.push(b'z');
        let mut expected = b"abcabcabc".to_vec();
        expected.extend(std::iter::repeat_n(b'c', 0x14));
        expected.push(b'z');
        assert_eq!(decompress_yaz0(&s).unwrap(), expected);
        assert_eq!(decompress(&s).unwrap(), (expected, Compression::Yaz0));
    }

    #[test]
    fn yaz0_hostile_inputs_are_errors() {
        let good = compress_yaz0(&samples()[9], 0).unwrap();
        // Every truncation is an error (the header says more bytes follow), never a panic.
        for cut in 0..good.len() {
            assert!(decompress_yaz0(&good[..cut]).is_err(), "cut at {cut}");
        }
        // Garbage after a valid header: any result is fine as long as it is not a panic.
        let mut rng = xorshift(42);
        for round in 0..2000 {
            let len = (rng() % 200) as usize;
            let mut s = b"Yaz0".to_vec();
            s.extend_from_slice(&((rng() % 4000) as u32).to_be_bytes());
            s.extend_from_slice(&[0; 8]);
            s.extend((0..len).map(|_| rng() as u8));
            if let Ok(d) = decompress_yaz0(&s) {
                assert_eq!(
                    d.len(),
                    yaz0_header(&s).unwrap().size as usize,
                    "round {round}"
                );
            }
            let _ = decompress(&s);
        }
        // A back-reference before the start.
        let mut s = b"Yaz0\0\0\0\x10\0\0\0\0\0\0\0\0".to_vec();
        s.extend_from_slice(&[0x00, 0x10, 0x05]);
        let e = decompress_yaz0(&s).unwrap_err();
        assert!(e.to_string().contains("before the start"), "{e}");
        // An implausible size is refused before allocating.
        let s = b"Yaz0\xff\xff\xff\xff\0\0\0\0\0\0\0\0\0".to_vec();
        let e = decompress_yaz0(&s).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Limit { .. }), "{e}");
        // Not Yaz0 at all.
        assert!(decompress_yaz0(b"Yaz1\0\0\0\0\0\0\0\0\0\0\0\0").is_err());
        assert!(decompress_yaz0(b"").is_err());
        // Truncated errors say where.
        let random = compress_yaz0(&samples()[8], 0).unwrap();
        let e = decompress_yaz0(&random[..40]).unwrap_err();
        assert_eq!(e.offset(), Some(40));
        assert!(e.to_string().starts_with("yaz0: "), "{e}");
    }

    #[test]
    fn zstd_round_trips() {
        for s in samples() {
            let c = compress(&s, Compression::Zstd).unwrap();
            assert_eq!(detect(&c), Compression::Zstd);
            assert_eq!(decompress(&c).unwrap(), (s, Compression::Zstd));
        }
    }

    #[test]
    fn zstd_hostile_inputs_are_errors() {
        let good = compress_zstd(&samples()[9], 3).unwrap();
        for cut in [0, 3, 4, 5, 8, good.len() / 2, good.len() - 1] {
            assert!(decompress_zstd(&good[..cut]).is_err(), "cut at {cut}");
        }
        let mut rng = xorshift(7);
        for _ in 0..500 {
            let mut s = ZSTD_MAGIC.to_vec();
            s.extend((0..(rng() % 100)).map(|_| rng() as u8));
            let _ = decompress_zstd(&s);
        }
    }

    #[test]
    fn zstd_output_is_limited() {
        let zeros = vec![0u8; 100_000];
        // With the content size in the header: refused before decoding.
        let z = compress_zstd(&zeros, 3).unwrap();
        let e = decompress_zstd_limited(&z, 1000).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Limit { .. }), "{e}");
        // Without it (streamed): stopped once past the limit.
        let mut enc = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
        enc.include_contentsize(false).unwrap();
        std::io::Write::write_all(&mut enc, &zeros).unwrap();
        let z = enc.finish().unwrap();
        assert!(matches!(zstd_safe::get_frame_content_size(&z), Ok(None)));
        let e = decompress_zstd_limited(&z, 1000).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Limit { .. }), "{e}");
        assert_eq!(decompress_zstd(&z).unwrap(), zeros);
    }

    #[test]
    fn zstd_dictionary_is_a_clear_error() {
        let mut rng = xorshift(3);
        let words = [
            &b"{\"actor\": "[..],
            b"\"Link\"",
            b", \"hp\": ",
            b"100",
            b"}\n",
            b"Weapon_Sword_",
        ];
        let samples: Vec<Vec<u8>> = (0..2000)
            .map(|_| {
                (0..20)
                    .flat_map(|_| words[(rng() % words.len() as u64) as usize].to_vec())
                    .collect()
            })
            .collect();
        let dict = zstd::dict::from_samples(&samples, 4096).unwrap();
        let mut c = zstd::bulk::Compressor::with_dictionary(3, &dict).unwrap();
        let z = c.compress(&samples[0]).unwrap();
        let e = decompress_zstd(&z).unwrap_err();
        assert!(e.to_string().contains("dictionary"), "{e}");
    }

    /// Files compressed by oead (Yaz0) and restbl (zstd), from `tests/fixtures` (skipped where it is absent).
    #[test]
    fn decodes_files_from_other_tools() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
        let cases = [
            (
                "sarc/oead_le_new_min4.ssarc",
                "sarc/oead_le_new_min4.sarc",
                Compression::Yaz0,
                0,
            ),
            (
                "sarc/oead_be_new_min4.ssarc",
                "sarc/oead_be_new_min4.sarc",
                Compression::Yaz0,
                0x80,
            ),
            (
                "rsizetable/rstb_le.srsizetable",
                "rsizetable/rstb_le.rsizetable",
                Compression::Yaz0,
                0,
            ),
            (
                "rsizetable/restbl_crc.rsizetable.zs",
                "rsizetable/restbl_crc.rsizetable",
                Compression::Zstd,
                0,
            ),
        ];
        for (packed, plain, kind, align) in cases {
            let (Ok(packed_bytes), Ok(plain_bytes)) = (
                std::fs::read(dir.join(packed)),
                std::fs::read(dir.join(plain)),
            ) else {
                continue;
            };
            assert_eq!(
                decompress(&packed_bytes).unwrap(),
                (plain_bytes, kind),
                "{packed}"
            );
            if kind == Compression::Yaz0 {
                assert_eq!(
                    yaz0_header(&packed_bytes).unwrap().alignment,
                    align,
                    "{packed}"
                );
            }
        }
    }

    #[test]
    fn none_passes_through() {
        assert_eq!(
            decompress(b"SARC").unwrap(),
            (b"SARC".to_vec(), Compression::None)
        );
        assert_eq!(
            compress(b"SARC", Compression::None).unwrap(),
            b"SARC".to_vec()
        );
        assert_eq!(Compression::Yaz0.to_string(), "yaz0");
    }
}
