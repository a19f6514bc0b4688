//! Scalars shared by the YAML and JSON forms: how plain YAML scalars resolve (oead's rules), how numbers are parsed
//! and written so that they read back bit for bit, tag names, hash keys and base64.

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, STANDARD};
use base64::engine::DecodePaddingMode;
use base64::Engine as _;

use super::super::Byml;

/// The NaN that `.nan` reads as (and the only one written as `.nan`).
pub(super) const F32_NAN_BITS: u32 = 0x7fc0_0000;
pub(super) const F64_NAN_BITS: u64 = 0x7ff8_0000_0000_0000;

/// The alignment that roead's `!!file` (its "file data", node 0xa2) stands for: roead writes 0x1000 there.
pub(super) const FILE_ALIGN: u32 = 0x1000;

/// Deepest nesting of containers, in both directions: deeper text is an error, not a stack overflow.
pub(super) const MAX_DEPTH: usize = 512;

/// What a tag asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tag {
    /// `!u`
    U32,
    /// `!l`
    I64,
    /// `!ul`
    U64,
    /// `!f32`
    F32,
    /// `!f64`
    F64,
    /// `!f32bits`: an f32 by its bits (NaNs other than the canonical one).
    F32Bits,
    /// `!f64bits`
    F64Bits,
    /// `!!binary`
    Binary,
    /// `!binary_align{N}`, or `!!file` (N = 0x1000).
    AlignedBinary(u32),
    /// `!!str`
    Str,
    /// `!`: the non-specific tag, which makes a scalar a string.
    NonSpecific,
    /// `!!int`: an s32.
    Int,
    /// `!!float`: an f32.
    Float,
    /// `!!bool`
    Bool,
    /// `!!null`
    Null,
    /// `!!map`: a plain dictionary (what an untagged mapping is).
    Map,
    /// `!!seq`: a plain array.
    Seq,
    /// `!remap`
    Remap,
    /// `!mono`
    Mono,
    /// `!hash{width}` or `!hash{width}_remap`.
    Hash { width: u8, remap: bool },
}

impl Tag {
    /// Recognises a tag as written in the text (`!u`, `!!binary`, `!<tag:yaml.org,2002:str>`), or in a JSON key.
    pub(super) fn from_name(name: &str) -> Option<Tag> {
        let name = match name.strip_prefix("!<tag:yaml.org,2002:") {
            Some(rest) => return Tag::from_secondary(rest.strip_suffix('>')?),
            None => name,
        };
        if let Some(rest) = name.strip_prefix("!!") {
            return Tag::from_secondary(rest);
        }
        Some(match name {
            "!" => Tag::NonSpecific,
            "!u" => Tag::U32,
            "!l" => Tag::I64,
            "!ul" => Tag::U64,
            "!f32" => Tag::F32,
            "!f64" => Tag::F64,
            "!f32bits" => Tag::F32Bits,
            "!f64bits" => Tag::F64Bits,
            "!mono" => Tag::Mono,
            "!remap" => Tag::Remap,
            _ => {
                if let Some(n) = name.strip_prefix("!binary_align") {
                    return Some(Tag::AlignedBinary(parse_decimal_u32(n)?));
                }
                let rest = name.strip_prefix("!hash")?;
                let (digits, remap) = match rest.strip_suffix("_remap") {
                    Some(d) => (d, true),
                    None => (rest, false),
                };
                let width = parse_decimal_u32(digits)?;
                if width > 15 {
                    return None;
                }
                Tag::Hash {
                    width: width as u8,
                    remap,
                }
            }
        })
    }

    fn from_secondary(name: &str) -> Option<Tag> {
        Some(match name {
            "binary" => Tag::Binary,
            "file" => Tag::AlignedBinary(FILE_ALIGN),
            "str" => Tag::Str,
            "int" => Tag::Int,
            "float" => Tag::Float,
            "bool" => Tag::Bool,
            "null" => Tag::Null,
            "map" => Tag::Map,
            "seq" => Tag::Seq,
            _ => return None,
        })
    }
}

/// The tags the reader knows, for error messages.
pub(super) const KNOWN_TAGS: &str = "!u, !l, !ul, !f64, !!binary, !!file, !f32, !f32bits, !f64bits, \
    !binary_align<N>, !mono, !remap, !hash<W>, !hash<W>_remap, !!str, !!int, !!float, !!bool, !!null, !!map, !!seq";

/// A decimal number without sign or leading `+`, as in tag names.
fn parse_decimal_u32(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 10 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// The tag of an aligned binary value: roead's `!!file` for its alignment (0x1000), else `!binary_align{N}`.
pub(super) fn aligned_binary_tag(align: u32, out: &mut String) {
    if align == FILE_ALIGN {
        out.push_str("!!file");
    } else {
        out.push_str("!binary_align");
        out.push_str(itoa::Buffer::new().format(align));
    }
}

/// The tag of a hash array.
pub(super) fn hash_tag(width: u8, remap: bool, out: &mut String) {
    out.push_str("!hash");
    out.push_str(itoa::Buffer::new().format(width));
    if remap {
        out.push_str("_remap");
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Integers.

/// C's `strtoull(s, &end, 0)` over the whole string, which is how oead reads integers (plain and tagged): optional
/// leading white space, an optional sign (a `-` negates modulo 2^64), then `0x`/`0X` and hex digits, `0` and octal
/// digits, or decimal digits. Out of range saturates to `u64::MAX` whatever the sign. `None` unless the whole
/// string is consumed.
pub(super) fn parse_c_integer(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
        i += 1;
    }
    let mut negative = false;
    match b.get(i) {
        Some(b'+') => i += 1,
        Some(b'-') => {
            negative = true;
            i += 1
        }
        _ => {}
    }
    let radix: u64 = if b.get(i) == Some(&b'0')
        && matches!(b.get(i + 1), Some(b'x' | b'X'))
        && b.get(i + 2).is_some_and(|c| c.is_ascii_hexdigit())
    {
        i += 2;
        16
    } else if b.get(i) == Some(&b'0') {
        8
    } else {
        10
    };
    if i >= b.len() {
        return None;
    }
    let mut value: u64 = 0;
    let mut overflow = false;
    for &c in &b[i..] {
        let d = match c {
            b'0'..=b'9' => (c - b'0') as u64,
            b'a'..=b'f' => (c - b'a' + 10) as u64,
            b'A'..=b'F' => (c - b'A' + 10) as u64,
            _ => return None,
        };
        if d >= radix {
            return None;
        }
        match value.checked_mul(radix).and_then(|v| v.checked_add(d)) {
            Some(v) => value = v,
            None => overflow = true,
        }
    }
    Some(if overflow {
        u64::MAX
    } else if negative {
        value.wrapping_neg()
    } else {
        value
    })
}

/// `0x` and hex digits (1 to `max_digits`), for the bits of floats.
pub(super) fn parse_hex(s: &str, max_digits: usize) -> Option<u64> {
    let h = s
        .trim()
        .strip_prefix("0x")
        .or_else(|| s.trim().strip_prefix("0X"))?;
    if h.is_empty() || h.len() > max_digits || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u64::from_str_radix(h, 16).ok()
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// `0x` and 8 lowercase hex digits, as oead writes `!u` values.
pub(super) fn push_hex_u32(out: &mut String, v: u32) {
    out.push_str("0x");
    push_hex_digits(out, v);
}

fn push_hex_digits(out: &mut String, v: u32) {
    let mut buf = [0u8; 8];
    for (i, b) in buf.iter_mut().enumerate() {
        *b = HEX[((v >> (28 - 4 * i)) & 0xf) as usize];
    }
    // Only ASCII hex digits.
    out.push_str(std::str::from_utf8(&buf).unwrap_or("00000000"));
}

/// `0x` and 16 lowercase hex digits.
pub(super) fn push_hex_u64(out: &mut String, v: u64) {
    out.push_str("0x");
    push_hex_digits(out, (v >> 32) as u32);
    push_hex_digits(out, v as u32);
}

/// A hash array key: `0x` and each word as 8 hex digits, words joined with `_` (`0x0000abcd_12345678`); no words
/// is the empty string.
pub(super) fn push_hash_key(out: &mut String, words: &[u32]) {
    for (i, w) in words.iter().enumerate() {
        if i == 0 {
            out.push_str("0x");
        } else {
            out.push('_');
        }
        push_hex_digits(out, *w);
    }
}

/// Reads a hash array key: an optional `0x`, then groups of 1 to 8 hex digits separated by `_`, one per word.
pub(super) fn parse_hash_key(s: &str) -> Option<Vec<u32>> {
    if s.is_empty() {
        return Some(Vec::new());
    }
    let h = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    h.split('_')
        .map(|g| {
            if g.is_empty() || g.len() > 8 || !g.bytes().all(|b| b.is_ascii_hexdigit()) {
                None
            } else {
                u32::from_str_radix(g, 16).ok()
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------------------------
// Floats.

/// oead's words for infinities and NaN; and what oead writes for them (`%.9g` and `.0`: `inf.0`, `-nan.0`), which
/// oead itself reads back as strings but which can only come from non-finite floats.
fn special_float(s: &str) -> Option<f64> {
    Some(match s {
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "inf.0" => f64::INFINITY,
        "-.inf" | "-.Inf" | "-.INF" | "-inf.0" => f64::NEG_INFINITY,
        ".nan" | ".NaN" | ".NAN" | "nan.0" | "-nan.0" => f64::NAN,
        _ => return None,
    })
}

/// A float as oead reads one (tagged, or plain with a `.`): the words above, else a decimal number (optional sign,
/// digits with an optional fraction, optional exponent; `1.`, `.5`, `inf`, `nan` also), correctly rounded to an
/// f64; white space around it is ignored; out of range gives an infinity or zero.
pub(super) fn parse_float(s: &str) -> Option<f64> {
    let s = s.trim_matches(|c: char| c.is_ascii_whitespace());
    if let Some(v) = special_float(s) {
        return Some(v);
    }
    // Rust's grammar is C's from_chars' (which oead uses) minus hex floats and `nan(...)`, which never occur.
    s.parse::<f64>().ok()
}

/// An f32 read from a float's text: through an f64 as oead does (`F32(double)`), canonical NaN for NaNs.
pub(super) fn f32_from_f64(v: f64) -> f32 {
    if v.is_nan() {
        f32::from_bits(F32_NAN_BITS)
    } else {
        v as f32
    }
}

/// An f64 read from text: canonical NaN for NaNs.
pub(super) fn canonical_f64(v: f64) -> f64 {
    if v.is_nan() {
        f64::from_bits(F64_NAN_BITS)
    } else {
        v
    }
}

/// Appends `.0` to a number that zmij wrote without a fraction (`1` -> `1.0`, `5e+20` -> `5.0e+20`): oead reads a
/// plain number as a float only when it has a `.`.
fn push_with_point(out: &mut String, s: &str) {
    if s.contains('.') {
        out.push_str(s);
    } else if let Some(e) = s.find(['e', 'E']) {
        out.push_str(&s[..e]);
        out.push_str(".0");
        out.push_str(&s[e..]);
    } else {
        out.push_str(s);
        out.push_str(".0");
    }
}

/// Writes a finite f32 so that it reads back exactly through an f64 (oead's way, and ours): the shortest digits
/// that give it back, else, in the rare case where rounding twice (text -> f64 -> f32) would give a neighbour, the
/// shortest digits of its exact value as an f64.
pub(super) fn push_finite_f32(out: &mut String, v: f32) {
    let mut buf = zmij::Buffer::new();
    let s = buf.format_finite(v);
    if f32_roundtrips_via_f64(s, v) {
        push_with_point(out, s);
    } else {
        let mut buf = zmij::Buffer::new();
        push_with_point(out, buf.format_finite(v as f64));
    }
}

/// Whether `s` (zmij's shortest digits of `v`) reads back as `v` through an f64.
pub(super) fn f32_roundtrips_via_f64(s: &str, v: f32) -> bool {
    s.parse::<f64>()
        .map(|d| (d as f32).to_bits() == v.to_bits())
        .unwrap_or(false)
}

/// Writes a finite f64: its shortest round-trip digits, with a `.`.
pub(super) fn push_finite_f64(out: &mut String, v: f64) {
    let mut buf = zmij::Buffer::new();
    push_with_point(out, buf.format_finite(v));
}

/// What a non-finite float is written as: `.inf`, `-.inf`, `.nan` (the canonical NaN only), or `None` for other
/// NaNs, which need their bits.
pub(super) fn non_finite_word(
    is_nan: bool,
    negative: bool,
    canonical_nan: bool,
) -> Option<&'static str> {
    if is_nan {
        canonical_nan.then_some(".nan")
    } else if negative {
        Some("-.inf")
    } else {
        Some(".inf")
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Plain scalars.

/// What an untagged plain scalar is when it is not a string, by oead's rules, in its order: `true`/`false` are
/// booleans; with a `.`, a float ([`parse_float`]) is an f32; an integer ([`parse_c_integer`]) is an s32 (modulo
/// 2^32); `null` is null. Anything else (`~`, `yes`, `1e5`, `0o17`, the empty string) is a string: `None`.
pub(super) fn resolve_plain(s: &str) -> Option<Byml> {
    let b = s.as_bytes();
    match *b.first()? {
        b'0'..=b'9' | b'+' | b'-' | b'.' => {
            if b.contains(&b'.') {
                if let Some(v) = parse_float(s) {
                    return Some(Byml::F32(f32_from_f64(v)));
                }
            }
            parse_c_integer(s).map(|v| Byml::I32(v as u32 as i32))
        }
        b't' if s == "true" => Some(Byml::Bool(true)),
        b'f' if s == "false" => Some(Byml::Bool(false)),
        b'n' if s == "null" => Some(Byml::Null),
        b'i' | b'n' => special_float(s).map(|v| Byml::F32(f32_from_f64(v))),
        _ => None,
    }
}

/// Whether a string must be quoted so that it reads back as a string: by our (oead's) rules, and so that YAML 1.1
/// and 1.2 readers (roead's ryml, PyYAML) also see a string: `~`, `Null`, `yes`, `On`, `1e5`, `.inf`, `0o17`...
/// Anything that starts like a number is quoted.
pub(super) fn looks_like_non_string(s: &str) -> bool {
    let b = s.as_bytes();
    let Some(&first) = b.first() else {
        return true;
    };
    match first {
        b'0'..=b'9' => true,
        b'+' | b'-' | b'.' => {
            b.len() == 1
                || b[1].is_ascii_digit()
                || b[1] == b'.'
                || special_float(s).is_some()
                || s.parse::<f64>().is_ok()
        }
        b'~' => b.len() == 1,
        _ => {
            b.len() <= 8
                && (special_float(s).is_some()
                    || matches!(
                        s,
                        "true"
                            | "True"
                            | "TRUE"
                            | "false"
                            | "False"
                            | "FALSE"
                            | "null"
                            | "Null"
                            | "NULL"
                            | "y"
                            | "Y"
                            | "yes"
                            | "Yes"
                            | "YES"
                            | "n"
                            | "N"
                            | "no"
                            | "No"
                            | "NO"
                            | "on"
                            | "On"
                            | "ON"
                            | "off"
                            | "Off"
                            | "OFF"
                    )
                    || s.parse::<f64>().is_ok())
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Base64.

/// Reads padded or unpadded standard base64; white space (from line folding) is skipped.
pub(super) fn decode_base64(s: &str) -> Option<Vec<u8>> {
    const LENIENT: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new()
            .with_decode_padding_mode(DecodePaddingMode::Indifferent)
            .with_decode_allow_trailing_bits(true),
    );
    if s.bytes().any(|b| b.is_ascii_whitespace()) {
        let compact: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
        LENIENT.decode(compact).ok()
    } else {
        LENIENT.decode(s).ok()
    }
}

/// Standard base64 with padding, as oead writes it.
pub(super) fn push_base64(out: &mut String, data: &[u8]) {
    STANDARD.encode_string(data, out);
}
