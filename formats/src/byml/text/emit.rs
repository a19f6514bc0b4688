//! The YAML writer, in oead's style: two-space indentation, sequences under a key not indented, dictionaries and
//! arrays of at most 10 scalars on one line in flow style, `!u 0x0000002a`, `!l`, `!ul`, `!f64`, `!!binary`.

use binspec_runtime::{Error, Result};

use super::super::{Byml, HashArray, Map};
use super::scalar::{
    aligned_binary_tag, hash_tag, looks_like_non_string, non_finite_word, push_base64,
    push_finite_f32, push_finite_f64, push_hash_key, push_hex_u32, push_hex_u64, F32_NAN_BITS,
    F64_NAN_BITS, MAX_DEPTH,
};

/// Writes the root (after the header comment, which the caller wrote into `out`).
pub(super) fn emit_root(root: &Byml, out: &mut String) -> Result<()> {
    let mut e = Emitter { out };
    if root.is_container() {
        if flow_ok(root) {
            if e.container_tag(root) {
                e.out.push(' ');
            }
            e.flow(root);
            e.out.push('\n');
        } else {
            if e.container_tag(root) {
                e.out.push('\n');
            }
            e.block(root)?;
        }
    } else {
        e.scalar(root, false);
        e.out.push('\n');
    }
    Ok(())
}

/// Containers of at most this many scalars are written on one line, as oead does.
const FLOW_MAX: usize = 10;

/// Whether a container is written in flow style: at most 10 children, none of them a container.
fn flow_ok(v: &Byml) -> bool {
    let scalar = |c: &Byml| !c.is_container();
    match v {
        Byml::Array(a) | Byml::MonoArray(a) => a.len() <= FLOW_MAX && a.iter().all(scalar),
        Byml::Map(m) | Byml::RemapMap(m) => m.len() <= FLOW_MAX && m.values().all(scalar),
        Byml::HashArray(h) => {
            h.entries.len() <= FLOW_MAX && h.entries.iter().all(|(_, c)| scalar(c))
        }
        _ => false,
    }
}

fn too_deep() -> Error {
    Error::text(format!(
        "the tree is nested deeper than {MAX_DEPTH} levels, which the YAML reader does not accept"
    ))
}

/// The entries of a block container still to write.
enum Entries<'t> {
    Seq(std::slice::Iter<'t, Byml>),
    Map(crate::byml::map::Iter<'t>),
    Hash(std::slice::Iter<'t, (Vec<u32>, Byml)>),
}

/// A block container being written.
struct Level<'t> {
    entries: Entries<'t>,
    /// The indentation of its entries.
    indent: usize,
    /// Whether its next entry continues the current line (the first one, after `- `).
    inline: bool,
}

impl<'t> Level<'t> {
    fn new(v: &'t Byml, indent: usize, inline: bool) -> Level<'t> {
        let entries = match v {
            Byml::Map(m) | Byml::RemapMap(m) => Entries::Map(m.iter()),
            Byml::HashArray(h) => Entries::Hash(h.entries.iter()),
            Byml::Array(a) | Byml::MonoArray(a) => Entries::Seq(a.iter()),
            _ => Entries::Seq([].iter()),
        };
        Level {
            entries,
            indent,
            inline,
        }
    }

    fn is_done(&self) -> bool {
        match &self.entries {
            Entries::Seq(it) => it.len() == 0,
            Entries::Map(it) => it.len() == 0,
            Entries::Hash(it) => it.len() == 0,
        }
    }
}

struct Emitter<'o> {
    out: &'o mut String,
}

/// How a string is written.
enum Style {
    Plain,
    Single,
    Double,
}

/// Bytes that need a closer look when deciding how to write a string.
static SPECIAL: [u8; 256] = special_table();

const ESCAPE: u8 = 1;
const COLON: u8 = 2;
const HASH: u8 = 3;
const FLOW: u8 = 4;
const HIGH: u8 = 5;

const fn special_table() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = ESCAPE;
        i += 1;
    }
    t[0x7f] = ESCAPE;
    t[b':' as usize] = COLON;
    t[b'#' as usize] = HASH;
    t[b',' as usize] = FLOW;
    t[b'[' as usize] = FLOW;
    t[b']' as usize] = FLOW;
    t[b'{' as usize] = FLOW;
    t[b'}' as usize] = FLOW;
    let mut i = 0x80;
    while i < 0x100 {
        t[i] = HIGH;
        i += 1;
    }
    t
}

/// Whether the character that starts at `b[i]` (a byte >= 0x80) must be escaped: C1 controls, U+2028, U+2029,
/// U+FEFF, U+FFFE, U+FFFF (not printable in YAML, or line breaks in YAML 1.1).
fn needs_escape_at(b: &[u8], i: usize) -> bool {
    match b[i] {
        0xc2 => matches!(b.get(i + 1), Some(0x80..=0x9f)),
        0xe2 => b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0xa8 | 0xa9)),
        0xef => matches!(
            (b.get(i + 1), b.get(i + 2)),
            (Some(0xbb), Some(0xbf)) | (Some(0xbf), Some(0xbe | 0xbf))
        ),
        _ => false,
    }
}

/// How to write `s` so that it reads back as the same string, in block context or in a flow collection.
fn style(s: &str, flow: bool) -> Style {
    let b = s.as_bytes();
    let Some(&first) = b.first() else {
        return Style::Single;
    };
    let mut quote = matches!(
        first,
        b' ' | b'-'
            | b'?'
            | b':'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    ) || b[b.len() - 1] == b' ';
    for (i, &c) in b.iter().enumerate() {
        match SPECIAL[c as usize] {
            0 => {}
            ESCAPE => return Style::Double,
            COLON => quote |= flow || matches!(b.get(i + 1), None | Some(b' ')),
            HASH => quote |= i > 0 && b[i - 1] == b' ',
            FLOW => quote |= flow,
            _ => {
                if needs_escape_at(b, i) {
                    return Style::Double;
                }
            }
        }
    }
    if quote || looks_like_non_string(s) {
        Style::Single
    } else {
        Style::Plain
    }
}

impl Emitter<'_> {
    fn indent(&mut self, n: usize) {
        for _ in 0..n {
            self.out.push(' ');
        }
    }

    /// The tag of a tagged container (`!mono`, `!remap`, `!hash1`), if any; written without spaces around.
    fn container_tag(&mut self, v: &Byml) -> bool {
        match v {
            Byml::MonoArray(_) => self.out.push_str("!mono"),
            Byml::RemapMap(_) => self.out.push_str("!remap"),
            Byml::HashArray(h) => hash_tag(h.width, h.remap, self.out),
            _ => return false,
        }
        true
    }

    /// A block container (the root), its entries each on its own line, and the containers in it: with an explicit
    /// stack, so that nesting costs no native stack.
    fn block(&mut self, root: &Byml) -> Result<()> {
        let mut stack = vec![Level::new(root, 0, false)];
        while let Some(top) = stack.last_mut() {
            let indent = top.indent;
            if !std::mem::take(&mut top.inline) && !top.is_done() {
                self.indent(indent);
            }
            // Write the entry's key or dash; `dash` tells which.
            let (v, dash) = match &mut top.entries {
                Entries::Seq(it) => match it.next() {
                    Some(v) => {
                        self.out.push_str("- ");
                        (v, true)
                    }
                    None => {
                        stack.pop();
                        continue;
                    }
                },
                Entries::Map(it) => match it.next() {
                    Some((k, v)) => {
                        self.string(k, false);
                        self.out.push(':');
                        (v, false)
                    }
                    None => {
                        stack.pop();
                        continue;
                    }
                },
                Entries::Hash(it) => match it.next() {
                    Some((words, v)) => {
                        self.hash_key(words);
                        self.out.push(':');
                        (v, false)
                    }
                    None => {
                        stack.pop();
                        continue;
                    }
                },
            };
            if !v.is_container() {
                if !dash {
                    self.out.push(' ');
                }
                self.scalar(v, false);
                self.out.push('\n');
                continue;
            }
            if stack.len() >= MAX_DEPTH {
                return Err(too_deep());
            }
            if flow_ok(v) {
                if !dash {
                    self.out.push(' ');
                }
                if self.container_tag(v) {
                    self.out.push(' ');
                }
                self.flow(v);
                self.out.push('\n');
                continue;
            }
            let is_seq = matches!(v, Byml::Array(_) | Byml::MonoArray(_));
            let level = if dash {
                if self.container_tag(v) {
                    // The tag alone on the line of the `- `, the container below it.
                    self.out.push('\n');
                    Level::new(v, indent + 2, false)
                } else {
                    // Compact: the first entry on the line of the `- `.
                    Level::new(v, indent + 2, true)
                }
            } else {
                self.out.push(' ');
                if !self.container_tag(v) {
                    self.out.pop();
                }
                self.out.push('\n');
                // Sequences go at the key's indentation, as oead writes them.
                Level::new(v, if is_seq { indent } else { indent + 2 }, false)
            };
            stack.push(level);
        }
        Ok(())
    }

    /// A container of scalars, on one line.
    fn flow(&mut self, v: &Byml) {
        match v {
            Byml::Array(a) | Byml::MonoArray(a) => {
                self.out.push('[');
                for (i, item) in a.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.scalar(item, true);
                }
                self.out.push(']');
            }
            Byml::Map(m) | Byml::RemapMap(m) => self.flow_map(m),
            Byml::HashArray(h) => self.flow_hash(h),
            _ => {}
        }
    }

    fn flow_map(&mut self, m: &Map) {
        self.out.push('{');
        for (i, (k, item)) in m.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.string(k, true);
            self.out.push_str(": ");
            self.scalar(item, true);
        }
        self.out.push('}');
    }

    fn flow_hash(&mut self, h: &HashArray) {
        self.out.push('{');
        for (i, (words, item)) in h.entries.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.hash_key(words);
            self.out.push_str(": ");
            self.scalar(item, true);
        }
        self.out.push('}');
    }

    fn hash_key(&mut self, words: &[u32]) {
        if words.is_empty() {
            self.out.push_str("''");
        } else {
            push_hash_key(self.out, words);
        }
    }

    /// A scalar (never a container).
    fn scalar(&mut self, v: &Byml, flow: bool) {
        let out = &mut *self.out;
        match v {
            Byml::Null => out.push_str("null"),
            Byml::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Byml::I32(x) => out.push_str(itoa::Buffer::new().format(*x)),
            Byml::U32(x) => {
                out.push_str("!u ");
                push_hex_u32(out, *x);
            }
            Byml::I64(x) => {
                out.push_str("!l ");
                out.push_str(itoa::Buffer::new().format(*x));
            }
            Byml::U64(x) => {
                out.push_str("!ul ");
                out.push_str(itoa::Buffer::new().format(*x));
            }
            Byml::F32(x) => {
                if x.is_finite() {
                    push_finite_f32(out, *x);
                } else {
                    match non_finite_word(
                        x.is_nan(),
                        x.is_sign_negative(),
                        x.to_bits() == F32_NAN_BITS,
                    ) {
                        Some(w) => out.push_str(w),
                        None => {
                            out.push_str("!f32bits ");
                            push_hex_u32(out, x.to_bits());
                        }
                    }
                }
            }
            Byml::F64(x) => {
                if x.is_finite() {
                    out.push_str("!f64 ");
                    push_finite_f64(out, *x);
                } else {
                    match non_finite_word(
                        x.is_nan(),
                        x.is_sign_negative(),
                        x.to_bits() == F64_NAN_BITS,
                    ) {
                        Some(w) => {
                            out.push_str("!f64 ");
                            out.push_str(w);
                        }
                        None => {
                            out.push_str("!f64bits ");
                            push_hex_u64(out, x.to_bits());
                        }
                    }
                }
            }
            Byml::String(s) => self.string(s, flow),
            Byml::Binary(b) => {
                out.push_str("!!binary ");
                push_base64(out, b);
            }
            Byml::AlignedBinary(b, align) => {
                aligned_binary_tag(*align, out);
                out.push(' ');
                push_base64(out, b);
            }
            // Containers are never written here.
            _ => out.push_str("null"),
        }
    }

    fn string(&mut self, s: &str, flow: bool) {
        let out = &mut *self.out;
        match style(s, flow) {
            Style::Plain => out.push_str(s),
            Style::Single => {
                out.push('\'');
                for (i, part) in s.split('\'').enumerate() {
                    if i > 0 {
                        out.push_str("''");
                    }
                    out.push_str(part);
                }
                out.push('\'');
            }
            Style::Double => push_double_quoted(out, s),
        }
    }
}

/// `"..."` with YAML escapes for `"`, `\`, control characters and the characters that are not printable in YAML.
fn push_double_quoted(out: &mut String, s: &str) {
    out.push('"');
    let mut run = 0;
    for (i, c) in s.char_indices() {
        let esc: &str = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\0' => "\\0",
            '\x07' => "\\a",
            '\x08' => "\\b",
            '\t' => "\\t",
            '\n' => "\\n",
            '\x0b' => "\\v",
            '\x0c' => "\\f",
            '\r' => "\\r",
            '\x1b' => "\\e",
            '\u{85}' => "\\N",
            '\u{2028}' => "\\L",
            '\u{2029}' => "\\P",
            '\u{feff}' | '\u{fffe}' | '\u{ffff}' | '\x00'..='\x1f' | '\x7f'..='\u{9f}' => "",
            _ => continue,
        };
        out.push_str(&s[run..i]);
        run = i + c.len_utf8();
        if esc.is_empty() {
            let n = c as u32;
            if n < 0x100 {
                out.push_str("\\x");
                out.push(hex_digit(n >> 4));
                out.push(hex_digit(n & 0xf));
            } else {
                out.push_str("\\u");
                for shift in [12, 8, 4, 0] {
                    out.push(hex_digit((n >> shift) & 0xf));
                }
            }
        } else {
            out.push_str(esc);
        }
    }
    out.push_str(&s[run..]);
    out.push('"');
}

fn hex_digit(n: u32) -> char {
    char::from_digit(n, 16).unwrap_or('0').to_ascii_uppercase()
}
