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

/// An integer as written, with its sign, for range checks: `None` for its magnitude when it does not fit in 64
/// bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct IntLit {
    pub negative: bool,
    pub magnitude: Option<u64>,
}

/// The integer types of nodes, for [`int_in_range`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum IntType {
    S32,
    U32,
    S64,
    U64,
}

impl IntType {
    fn range(self) -> (i128, i128) {
        match self {
            IntType::S32 => (i32::MIN as i128, i32::MAX as i128),
            IntType::U32 => (0, u32::MAX as i128),
            IntType::S64 => (i64::MIN as i128, i64::MAX as i128),
            IntType::U64 => (0, u64::MAX as i128),
        }
    }
    pub(super) fn name(self) -> &'static str {
        match self {
            IntType::S32 => "s32",
            IntType::U32 => "u32",
            IntType::S64 => "s64",
            IntType::U64 => "u64",
        }
    }
}

/// An integer as oead reads it (C's `strtoull(s, &end, 0)` over the whole string): optional leading white space,
/// an optional sign, then `0x`/`0X` and hex digits, `0` and octal digits, or decimal digits. Where oead wraps
/// (a `-` negates modulo 2^64, and the value is taken modulo 2^32 for 32-bit nodes), this keeps the sign and
/// magnitude as written, for [`int_in_range`]. `None` unless the whole string is such an integer.
pub(super) fn parse_int_literal(s: &str) -> Option<IntLit> {
    let t = s.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let (negative, d) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let hex = d
        .strip_prefix("0x")
        .or_else(|| d.strip_prefix("0X"))
        .filter(|h| h.starts_with(|c: char| c.is_ascii_hexdigit()));
    let (radix, digits) = match hex {
        Some(h) => (16, h),
        None if d.starts_with('0') => (8, d),
        None => (10, d),
    };
    if digits.is_empty() {
        return None;
    }
    let mut magnitude = Some(0u64);
    for c in digits.chars() {
        let digit = c.to_digit(radix)? as u64;
        magnitude = magnitude.and_then(|m| m.checked_mul(radix as u64)?.checked_add(digit));
    }
    Some(IntLit {
        negative,
        magnitude,
    })
}

/// The value of an integer literal as a node of type `t`, or why it does not fit (binspec never wraps a value
/// silently, where oead reads integers modulo 2^32 or 2^64).
pub(super) fn int_in_range(lit: IntLit, t: IntType) -> std::result::Result<i128, String> {
    let (lo, hi) = t.range();
    let v = lit.magnitude.map(|m| {
        if lit.negative {
            -(m as i128)
        } else {
            m as i128
        }
    });
    match v {
        Some(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(format!(
            "is out of the range of {} ({lo} to {hi})",
            t.name()
        )),
    }
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
/// booleans; with a `.`, a float ([`parse_float`]) is an f32; an integer ([`parse_int_literal`]) is an s32;
/// `null` is null. Anything else (`~`, `yes`, `1e5`, `0o17`, the empty string) is a string: `None`. An integer
/// out of the range of s32 is `Some(Err(why))` (oead wraps it modulo 2^32).
pub(super) fn resolve_plain(s: &str) -> Option<std::result::Result<Byml, String>> {
    let b = s.as_bytes();
    Some(Ok(match *b.first()? {
        b'0'..=b'9' | b'+' | b'-' | b'.' => {
            if b.contains(&b'.') {
                if let Some(v) = parse_float(s) {
                    return Some(Ok(Byml::F32(f32_from_f64(v))));
                }
            }
            let lit = parse_int_literal(s)?;
            return Some(
                int_in_range(lit, IntType::S32)
                    .map(|v| Byml::I32(v as i32))
                    .map_err(|why| {
                        format!(
                            "{s} {why}, the type of an untagged integer: tag it `!u` (u32), `!l` (s64) or `!ul` \
                             (u64) for a wider type, or quote it for a string"
                        )
                    }),
            );
        }
        b't' if s == "true" => Byml::Bool(true),
        b'f' if s == "false" => Byml::Bool(false),
        b'n' if s == "null" => Byml::Null,
        b'i' | b'n' => return special_float(s).map(|v| Ok(Byml::F32(f32_from_f64(v)))),
        _ => return None,
    }))
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
