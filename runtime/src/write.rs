//! The writer that generated code lays a model out with: a growing buffer, alignment, and back-patching of derived
//! values (offsets, sizes) that are known only once later data has been placed.

use crate::error::{Error, Result};
use crate::Endian;

/// The output of a write: bytes written in order, with positions that later values are patched into. A sizing
/// writer counts bytes without keeping them.
#[derive(Debug, Default, Clone)]
pub struct Writer {
    buf: Vec<u8>,
    /// Absolute position of `buf[0]` in the output: 0, except for a writer that writes something placed at a
    /// known position (`Writer::at_origin`), so that positions and alignments inside it are the final ones.
    origin: usize,
    bits: u64,
    bits_n: u32,
    /// Whether the partly written byte is being filled from the top (`bit-endian: be`).
    be_bits: bool,
    /// A sizing writer ([`Writer::sizing`]) keeps no bytes, only how many it would have written.
    sizing: bool,
    /// What a sizing writer would have written so far.
    len: usize,
    /// Whether large shared bytes may be left out of `buf` as holes ([`Writer::streaming`]).
    stream: bool,
    /// Shared bytes that follow `buf[..i]` in the output but are not copied into `buf` (each `(i, bytes)`, in
    /// order): [`Writer::write_to`] writes them from where they are.
    holes: Vec<(usize, crate::Bytes)>,
    /// The length of all holes.
    hole_len: usize,
}

macro_rules! wprim {
    ($name:ident, $patch:ident, $t:ty) => {
        #[doc = concat!("Writes a `", stringify!($t), "` in byte order `e`.")]
        #[inline]
        pub fn $name(&mut self, v: $t, e: Endian) {
            self.flush_bits();
            if self.sizing {
                self.len += std::mem::size_of::<$t>();
                return;
            }
            match e {
                Endian::Little => self.buf.extend_from_slice(&v.to_le_bytes()),
                Endian::Big => self.buf.extend_from_slice(&v.to_be_bytes()),
            }
        }
        /// Overwrites a value written earlier at absolute position `at`.
        pub fn $patch(&mut self, at: usize, v: $t, e: Endian) {
            if self.sizing {
                return;
            }
            self.fill_holes();
            let b = match e {
                Endian::Little => v.to_le_bytes(),
                Endian::Big => v.to_be_bytes(),
            };
            let at = at - self.origin;
            self.buf[at..at + b.len()].copy_from_slice(&b);
        }
    };
}

impl Writer {
    /// An empty writer at position 0.
    pub fn new() -> Self {
        Self::default()
    }
    /// An empty writer at position 0 with room for `n` bytes.
    pub fn with_capacity(n: usize) -> Self {
        Writer {
            buf: Vec::with_capacity(n),
            ..Self::default()
        }
    }
    /// Makes room for `n` more bytes (nothing for a sizing writer).
    pub fn reserve(&mut self, n: usize) {
        if !self.sizing {
            self.buf.reserve(n);
        }
    }
    /// A writer for bytes that will be placed at absolute position `origin` of the output: its positions
    /// (`pos`, alignment, `write_at`) are absolute, its buffer holds only what it writes.
    pub fn at_origin(origin: usize) -> Self {
        Writer {
            origin,
            ..Self::default()
        }
    }
    /// A writer for a pool item written out of line, to be placed at `origin`: it keeps bytes where this writer
    /// does and only counts them where this one is a sizing writer.
    #[doc(hidden)]
    pub fn for_item(&self, origin: usize) -> Self {
        self.for_item_in(origin, Vec::new())
    }
    /// [`Writer::for_item`] writing into `buf` (emptied first), a buffer an earlier item gave back.
    pub(crate) fn for_item_in(&self, origin: usize, mut buf: Vec<u8>) -> Self {
        buf.clear();
        Writer {
            buf,
            origin,
            sizing: self.sizing,
            ..Self::default()
        }
    }
    /// A writer that keeps no bytes: it only counts them, so that a layout pass that needs nothing but positions
    /// and sizes costs no copying. Everything else behaves as in a writer that keeps them: `pos`, alignment,
    /// `write_at` past the end. What it has written reads back as nothing ([`Writer::as_slice`] is empty and
    /// [`Writer::into_inner`] gives an empty `Vec`).
    pub fn sizing() -> Self {
        Writer {
            sizing: true,
            ..Self::default()
        }
    }
    /// Whether this writer only counts bytes ([`Writer::sizing`]).
    #[inline]
    pub fn is_sizing(&self) -> bool {
        self.sizing
    }
    #[inline]
    fn written(&self) -> usize {
        if self.sizing {
            self.len
        } else {
            self.buf.len() + self.hole_len
        }
    }
    /// This writer, allowed to leave large shared bytes ([`Writer::shared`]) out of its buffer, to be written from
    /// where they are by [`Writer::write_to`]: writing an archive to a file then copies its files' data once, not
    /// twice, and holds no second copy of it in memory.
    pub fn streaming(mut self) -> Self {
        self.stream = true;
        self
    }
    /// Writes bytes that are shared: a streaming writer ([`Writer::streaming`]) keeps a reference to large ones
    /// instead of copying them.
    #[inline]
    pub fn shared(&mut self, b: &crate::Bytes) {
        if self.stream && !self.sizing && b.len() >= HOLE_MIN {
            self.flush_bits();
            self.holes.push((self.buf.len(), b.clone()));
            self.hole_len += b.len();
        } else {
            self.bytes(b);
        }
    }
    /// Copies the holes' bytes into the buffer, where they belong: for what needs the bytes written so far in one
    /// piece (a patch, [`Writer::contents`]). A writer that patches after its holes copies as a plain writer would.
    #[inline]
    fn fill_holes(&mut self) {
        if !self.holes.is_empty() {
            self.fill_holes_slow();
        }
    }
    #[cold]
    fn fill_holes_slow(&mut self) {
        let mut buf = Vec::with_capacity(self.buf.len() + self.hole_len);
        for piece in self.pieces() {
            buf.extend_from_slice(piece);
        }
        self.buf = buf;
        self.holes.clear();
        self.hole_len = 0;
    }
    /// What has been written, in order: the buffer's bytes between the holes, and each hole's bytes from where they
    /// are.
    fn pieces(&self) -> impl Iterator<Item = &[u8]> {
        let mut from = 0;
        self.holes
            .iter()
            .flat_map(move |(at, b)| {
                let before = &self.buf[from..*at];
                from = *at;
                [before, &b[..]]
            })
            .chain(std::iter::once(
                &self.buf[self.holes.last().map_or(0, |&(at, _)| at)..],
            ))
    }
    /// The bytes before the first hole (all of them for a writer without holes): what is written there is final.
    pub fn head(&self) -> &[u8] {
        match self.holes.first() {
            Some(&(at, _)) => &self.buf[..at],
            None => &self.buf,
        }
    }
    /// What has been written, in one piece (holes copied in first; nothing for a sizing writer).
    pub fn contents(&mut self) -> &[u8] {
        self.fill_holes();
        &self.buf
    }
    /// `f` of what has been written: of the bytes before the first hole ([`Writer::head`]) if it succeeds there,
    /// else of all of them ([`Writer::contents`]). For checks that read a file's first bytes (its byte order mark),
    /// so that a streaming writer copies nothing for them.
    pub fn with_contents<R>(&mut self, f: impl Fn(&[u8]) -> Result<R>) -> Result<R> {
        match f(self.head()) {
            Ok(r) => Ok(r),
            Err(_) if !self.holes.is_empty() => f(self.contents()),
            Err(e) => Err(e),
        }
    }
    /// Writes what has been written to `out`: the buffer, and each hole's bytes from where they are.
    pub fn write_to(mut self, out: &mut dyn std::io::Write) -> Result<()> {
        self.flush_bits();
        for piece in self.pieces() {
            out.write_all(piece).map_err(Error::io)?;
        }
        Ok(())
    }
    /// Grows what is written by `n` bytes of `fill`.
    #[inline]
    fn grow(&mut self, n: usize, fill: u8) {
        if self.sizing {
            self.len += n;
        } else {
            self.buf.resize(self.buf.len() + n, fill);
        }
    }
    /// Current position: the origin plus the size written so far.
    #[inline]
    pub fn pos(&self) -> usize {
        self.origin + self.written()
    }
    /// What has been written (nothing for a sizing writer), for a writer without holes ([`Writer::streaming`]);
    /// use [`Writer::contents`] for one that may have them.
    pub fn as_slice(&self) -> &[u8] {
        debug_assert!(self.holes.is_empty(), "as_slice of a writer with holes");
        &self.buf
    }
    /// The bytes written, with a partly written bit field completed (and holes copied in).
    pub fn into_inner(mut self) -> Vec<u8> {
        self.flush_bits();
        self.fill_holes();
        self.buf
    }
    /// Writes a byte.
    #[inline]
    pub fn u8(&mut self, v: u8) {
        self.flush_bits();
        if self.sizing {
            self.len += 1;
        } else {
            self.buf.push(v);
        }
    }
    /// Writes a signed byte.
    #[inline]
    pub fn i8(&mut self, v: i8) {
        self.u8(v as u8);
    }
    wprim!(u16, patch_u16, u16);
    wprim!(u32, patch_u32, u32);
    wprim!(u64, patch_u64, u64);
    wprim!(i16, patch_i16, i16);
    wprim!(i32, patch_i32, i32);
    wprim!(i64, patch_i64, i64);
    wprim!(f32, patch_f32, f32);
    wprim!(f64, patch_f64, f64);

    /// An unsigned integer of `n` bytes (1..=8); fails when `v` does not fit.
    pub fn uint_n(&mut self, v: u64, n: usize, e: Endian) -> Result<()> {
        self.flush_bits();
        if n < 8 && v >> (n * 8) != 0 {
            return Err(Error::write(format!("{v:#x} does not fit in {n} bytes")));
        }
        if !(1..=8).contains(&n) {
            return Err(Error::write(format!(
                "an integer of {n} bytes (1 to 8 are written)"
            )));
        }
        if self.sizing {
            self.len += n;
            return Ok(());
        }
        // (Appended, not patched: a patch would copy a streaming writer's holes in.)
        let (bytes, range) = uint_n_bytes(v, n, e);
        self.buf.extend_from_slice(&bytes[range]);
        Ok(())
    }
    /// Overwrites an `n`-byte unsigned integer written earlier at absolute position `at`.
    ///
    /// # Panics
    /// If `n` is over 8 or the bytes were not written yet (a generator bug: derived fields are patched after
    /// their placeholders are written).
    #[inline]
    pub fn patch_uint_n(&mut self, at: usize, v: u64, n: usize, e: Endian) {
        if self.sizing {
            return;
        }
        self.fill_holes();
        let at = at - self.origin;
        // (One copy of the value's bytes in order: a loop over the bytes, with a bounds check and a byte-order
        // branch per byte, was 7% of AINB's write.)
        let (bytes, range) = uint_n_bytes(v, n, e);
        self.buf[at..at + n].copy_from_slice(&bytes[range]);
    }
    /// Writes bytes.
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) {
        self.flush_bits();
        if self.sizing {
            self.len += b.len();
        } else {
            self.buf.extend_from_slice(b);
        }
    }
    /// Writes one record of `N` bytes per item, each made by `f` in byte order `e` (a repetition of fixed-size
    /// elements, see [`crate::records`]): the output grows once, and the byte order is matched once, outside the
    /// loop. A sizing writer only counts the bytes.
    #[inline]
    pub fn records<const N: usize, T>(
        &mut self,
        items: impl ExactSizeIterator<Item = T>,
        e: Endian,
        f: impl Fn(T, Endian) -> [u8; N],
    ) {
        self.flush_bits();
        let len = items.len() * N;
        if self.sizing || N == 0 {
            self.len += len;
            return;
        }
        let start = self.buf.len();
        self.buf.resize(start + len, 0);
        let out = self.buf[start..].as_chunks_mut::<N>().0;
        match e {
            Endian::Little => out
                .iter_mut()
                .zip(items)
                .for_each(|(d, x)| *d = f(x, Endian::Little)),
            Endian::Big => out
                .iter_mut()
                .zip(items)
                .for_each(|(d, x)| *d = f(x, Endian::Big)),
        }
    }
    /// Writes `n` bytes of `fill`.
    pub fn fill(&mut self, n: usize, fill: u8) {
        self.flush_bits();
        self.grow(n, fill);
    }
    /// Pads with zeros up to a multiple of `align` (a power of two, or any positive number); or, for an alignment
    /// with an offset ([`crate::layout::align_at`]), up to where the position plus the offset is one.
    #[inline]
    pub fn align(&mut self, align: u64) {
        self.flush_bits();
        if align <= 1 {
            return;
        }
        let p = self.pos() as u64;
        let target = crate::layout::place_after(p, align);
        self.grow(target as usize - p as usize, 0);
    }
    /// Pads with zeros up to absolute position `pos`; fails if already past it.
    pub fn pad_to(&mut self, pos: u64) -> Result<()> {
        self.flush_bits();
        if (self.pos() as u64) > pos {
            return Err(Error::write(format!(
                "cannot move back to offset {pos:#x}: {:#x} bytes are already written",
                self.pos()
            )));
        }
        self.grow(pos as usize - self.pos(), 0);
        Ok(())
    }
    /// Writes bytes at an absolute position: over what is there, and past the end with zeros in between. The
    /// writer's position stays at the end. Bytes that would fall before the writer's origin are dropped.
    pub fn write_at(&mut self, at: usize, b: &[u8]) {
        self.flush_bits();
        let (at, b) = match at.checked_sub(self.origin) {
            Some(at) => (at, b),
            None => {
                let skip = (self.origin - at).min(b.len());
                (0, &b[skip..])
            }
        };
        let end = at + b.len();
        if self.sizing {
            self.len = self.len.max(end);
            return;
        }
        self.fill_holes();
        if self.buf.len() < end {
            self.buf.resize(end, 0);
        }
        self.buf[at..end].copy_from_slice(b);
    }
    /// Overwrites bytes written earlier at absolute position `at`.
    pub fn patch_bytes(&mut self, at: usize, b: &[u8]) {
        if self.sizing {
            return;
        }
        self.fill_holes();
        let at = at - self.origin;
        self.buf[at..at + b.len()].copy_from_slice(b);
    }

    /// `n` bits, most significant first.
    pub fn bits_be(&mut self, v: u64, n: u32) {
        self.be_bits = true;
        for i in (0..n).rev() {
            self.push_bit_be(((v >> i) & 1) as u8);
        }
    }
    fn push_bit_be(&mut self, bit: u8) {
        self.bits = (self.bits << 1) | bit as u64;
        self.bits_n += 1;
        if self.bits_n == 8 {
            let b = self.bits as u8;
            self.bits = 0;
            self.bits_n = 0;
            self.u8(b);
        }
    }
    /// `n` bits, least significant first.
    pub fn bits_le(&mut self, v: u64, n: u32) {
        self.be_bits = false;
        for i in 0..n {
            let bit = (v >> i) & 1;
            self.bits |= bit << self.bits_n;
            self.bits_n += 1;
            if self.bits_n == 8 {
                let b = self.bits as u8;
                self.bits = 0;
                self.bits_n = 0;
                self.u8(b);
            }
        }
    }
    /// Completes a partly written byte with zero bits.
    #[inline]
    pub fn flush_bits(&mut self) {
        if self.bits_n > 0 {
            self.flush_bits_slow();
        }
    }
    #[cold]
    fn flush_bits_slow(&mut self) {
        {
            // Big-endian bit order fills from the top, so what is there moves up into place.
            let b = if self.be_bits {
                (self.bits << (8 - self.bits_n)) as u8
            } else {
                self.bits as u8
            };
            self.bits = 0;
            self.bits_n = 0;
            self.u8(b);
        }
    }
}

/// The `n` low bytes of `v` (`n` at most 8) in byte order `e`: `bytes[range]` of the result.
#[inline]
fn uint_n_bytes(v: u64, n: usize, e: Endian) -> ([u8; 8], std::ops::Range<usize>) {
    match e {
        Endian::Little => (v.to_le_bytes(), 0..n),
        Endian::Big => (v.to_be_bytes(), 8 - n..8),
    }
}

/// The smallest shared bytes a streaming writer leaves out of its buffer ([`Writer::shared`]): smaller ones cost
/// less to copy than to keep apart.
const HOLE_MIN: usize = 512;

/// The most padding [`write_slot`] adds after a field's content (1 MiB): a size that asks for more
/// (`path_size: 4294967295`) is refused before anything that large is allocated.
pub const MAX_PAD: u64 = 1 << 20;

/// Which of the placed spans `(at, end)` (in any order) start more than [`MAX_PAD`] bytes past everything before
/// them: the `written` bytes in sequence, and the spans that start earlier. A writer refuses those rather than make
/// a file of zeros out of proportion to the document (a position of 0xffff_0000 in an edited document).
pub fn far_placements(written: usize, spans: &[(usize, usize)]) -> Vec<bool> {
    let mut order: Vec<usize> = (0..spans.len()).collect();
    order.sort_by_key(|&i| spans[i].0);
    let mut far = vec![false; spans.len()];
    let mut reach = written;
    for i in order {
        let (at, end) = spans[i];
        if at > reach.saturating_add(MAX_PAD as usize) {
            far[i] = true;
        } else {
            reach = reach.max(end);
        }
    }
    far
}

/// Refuses content shorter than its slot where nothing marks its end (no terminator, no padding, unprocessed):
/// padded, it would read back as the slot's bytes, another value. Nothing to check without a size, or in a pass
/// that does not know sizes yet (`lenient`); longer content is refused by [`write_slot`].
#[inline]
pub fn check_exact(content: &[u8], size: Option<i128>, lenient: bool) -> Result<()> {
    match size {
        Some(s) if !lenient && s >= 0 && (content.len() as i128) < s => Err(Error::write(format!(
            "{} bytes for a slot of {s}: nothing marks where the value ends (no terminator or padding), so it \
             would read back as {s} bytes, another value; give it all {s}",
            content.len()
        ))),
        _ => Ok(()),
    }
}

/// [`write_slot`] for a slot that nothing but its size ends (no terminator, no padding): the content must fill
/// it ([`check_exact`]).
#[inline]
pub fn write_slot_exact(
    w: &mut Writer,
    content: &[u8],
    size: Option<i128>,
    lenient: bool,
) -> Result<()> {
    check_exact(content, size, lenient)?;
    write_slot(w, content, size, &[], 0, lenient)
}

/// Refuses content that holds `term` (a string's terminator, at a position of a whole code unit: every
/// `term.len()` bytes): it would read back cut short there. Empty `term`: nothing to check.
#[inline]
pub fn check_term(content: &[u8], term: &[u8]) -> Result<()> {
    if term.is_empty() {
        return Ok(());
    }
    let found = match term {
        [t] => memchr::memchr(*t, content),
        _ => content
            .chunks(term.len())
            .position(|c| c == term)
            .map(|i| i * term.len()),
    };
    match found {
        Some(at) => Err(Error::write(format!(
            "the string holds its terminator {term:02x?} at byte {at}: it would read back cut short there"
        ))),
        None => Ok(()),
    }
}

/// Writes bytes into a slot: the content, then `term` if there is room, then `pad` up to `size`. Without a size the
/// content and the terminator are written as they are. Fails when the content does not fit, or the size is negative
/// or beyond 4 GiB; with `lenient` (a first layout pass, whose positions are not known yet) such a size counts as
/// the content's own length.
pub fn write_slot(
    w: &mut Writer,
    content: &[u8],
    size: Option<i128>,
    term: &[u8],
    pad: u8,
    lenient: bool,
) -> Result<()> {
    let Some(size) = size else {
        w.bytes(content);
        w.bytes(term);
        return Ok(());
    };
    let size = match usize::try_from(size) {
        Ok(s) if s as u64 <= 1 << 32 && s >= content.len() => s,
        _ if lenient => content.len(),
        Ok(s) if s as u64 <= 1 << 32 => {
            return Err(Error::write(format!(
                "{:#x} bytes do not fit in a size of {s:#x}",
                content.len()
            )))
        }
        _ => return Err(Error::write(format!("size {size} is out of range"))),
    };
    if (size - content.len()) as u64 > MAX_PAD && !lenient {
        return Err(Error::write(format!(
            "a field of {size} ({size:#x}) bytes would hold {} bytes and {} bytes of padding; the writer pads a \
             field with at most {MAX_PAD:#x} bytes (is its size right?)",
            content.len(),
            size - content.len()
        )));
    }
    w.bytes(content);
    let mut used = content.len();
    if size - used >= term.len() {
        w.bytes(term);
        used += term.len();
    }
    w.fill(size - used, pad);
    Ok(())
}

/// [`write_slot`] for a slot whose bytes after the content a file had its own way (`filler`, read by
/// `read::slot_filler`): those bytes instead of the terminator and padding, where they still fill the slot
/// (content of the length it was read with); otherwise as `write_slot` writes it.
pub fn write_slot_filled(
    w: &mut Writer,
    content: &[u8],
    size: Option<i128>,
    term: &[u8],
    pad: u8,
    lenient: bool,
    filler: Option<&[u8]>,
) -> Result<()> {
    match filler {
        // (No size: a slot to the end of the stream.)
        Some(f) if size.is_none_or(|s| i128::try_from(content.len() + f.len()).ok() == Some(s)) => {
            w.bytes(content);
            w.bytes(f);
            Ok(())
        }
        _ => write_slot(w, content, size, term, pad, lenient),
    }
}

/// `-scan` on write: the field written at `buf[start..end]` must read back with the same length. A reader that
/// scans from `start` at every `step`-th offset for one of `tags` must find none before `end`, and must find one
/// at `end` (or the end of the stream, when `or_eos`). The format has no escaping, so data that contains a tag at
/// such an offset cannot be written: that is an error, not a silently different file.
pub fn check_scan(
    buf: &[u8],
    start: usize,
    end: usize,
    tags: &[&[u8]],
    step: usize,
    or_eos: bool,
) -> crate::Result<()> {
    let show = |t: &[u8]| format!("{:?}", String::from_utf8_lossy(t));
    let step = step.max(1);
    let mut at = start;
    while at < end {
        if let Some(t) = tags.iter().find(|t| buf[at..].starts_with(t)) {
            return Err(crate::Error::write(format!(
                "the data contains the tag {} at offset {:#x} ({} bytes into the field, a multiple of {step}): the file would read back with this field cut short there",
                show(t),
                at,
                at - start
            )));
        }
        at += step;
    }
    if at != end {
        return Err(crate::Error::write(format!(
            "the field is {} bytes long, not a multiple of {step}: a reader scanning for its end would miss it",
            end - start
        )));
    }
    let tag_follows = tags.iter().any(|t| buf[end..].starts_with(t));
    if !(tag_follows || (or_eos && end == buf.len())) {
        let names: Vec<String> = tags.iter().map(|t| show(t)).collect();
        return Err(crate::Error::write(format!(
            "the field must be followed by {}{}, and it is not",
            names.join(" or "),
            if or_eos {
                " or the end of the file"
            } else {
                ""
            }
        )));
    }
    Ok(())
}

/// `switch-on` on write: the case that a reader chooses for the tag written (`reads`, by the name the text forms
/// use; `None` where no case matches) must be the one the model holds (`holds`), or the file would read back as
/// another case, or not at all. `tag_text` is the tag's expression, `tag` its value.
pub fn check_case(
    tag: &dyn std::fmt::Debug,
    tag_text: &str,
    reads: Option<&str>,
    holds: &str,
) -> crate::Result<()> {
    if reads == Some(holds) {
        return Ok(());
    }
    Err(crate::Error::write(format!(
        "holds a {holds}, but its tag `{tag_text}` is {tag:?}, which reads {}: the file would read back otherwise",
        reads.map_or("no case".to_string(), |r| format!("a {r}"))
    )))
}

/// `repeat-until` on write: whether the condition `cond` holds for each element (`stops`, in order). A reader
/// stops at the first element where it holds, so it must hold for the last and for no element before it, and
/// there must be one: the file would otherwise read back with fewer elements, or more. The error's path names the
/// element.
pub fn check_until(stops: impl ExactSizeIterator<Item = bool>, cond: &str) -> crate::Result<()> {
    let n = stops.len();
    if n == 0 {
        return Err(crate::Error::write(format!(
            "no elements, but `repeat-until` reads at least one (up to where `{cond}` holds)"
        )));
    }
    for (i, stop) in stops.enumerate() {
        if stop && i + 1 < n {
            return Err(crate::Error::write(format!(
                "`{cond}` holds for this element, before the last: the file would read back with {} elements, not {n}",
                i + 1
            ))
            .at_index(i));
        }
        if !stop && i + 1 == n {
            return Err(crate::Error::write(format!(
                "`{cond}` does not hold for the last element: the file would read back with more elements"
            ))
            .at_index(i));
        }
    }
    Ok(())
}

/// `v` rounded up to a multiple of `align` (0 and 1 leave it as it is).
#[inline]
pub fn align_up(v: u64, align: u64) -> u64 {
    if align <= 1 {
        v
    } else if align.is_power_of_two() {
        // (Every alignment a file uses; a mask instead of a division.)
        v.wrapping_add(align - 1) & !(align - 1)
    } else {
        v.div_ceil(align) * align
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A placement is far when it starts more than `MAX_PAD` past everything that starts before it, in position
    /// order, whatever the order it was queued in: a chain of near ones reaches far.
    #[test]
    fn far_placements_by_position() {
        let m = MAX_PAD as usize;
        assert_eq!(far_placements(10, &[(10 + m, 11 + m)]), [false]);
        assert_eq!(far_placements(10, &[(11 + m, 12 + m)]), [true]);
        // Queued after the one that reaches it: still near.
        assert_eq!(
            far_placements(0, &[(2 * m, 2 * m + 1), (m, 2 * m)]),
            [false, false]
        );
        // What follows a far one counts from what is near.
        assert_eq!(
            far_placements(0, &[(3 * m, 3 * m + 1), (3 * m + 2, 3 * m + 3)]),
            [true, true]
        );
    }

    /// A terminator inside a string is found at whole code units only (UTF-16's `00 00` straddling two units is
    /// not one).
    #[test]
    fn strings_holding_their_terminator() {
        assert!(check_term(b"abc", &[0]).is_ok());
        assert!(check_term(b"a\0c", &[]).is_ok());
        let e = check_term(b"ab\0c", &[0]).unwrap_err().to_string();
        assert!(e.contains("at byte 2"), "{e}");
        assert!(check_term(&[0x41, 0x00, 0x00, 0x42], &[0, 0]).is_ok());
        let e = check_term(&[0x41, 0x00, 0x00, 0x00], &[0, 0])
            .unwrap_err()
            .to_string();
        assert!(e.contains("at byte 2"), "{e}");
    }

    /// A patch overwrites the `n` bytes an append of the same value would have written, in either byte order, and
    /// nothing around them.
    #[test]
    fn a_patch_writes_what_an_append_writes() {
        let v = 0x0102_0304_0506_0708u64;
        for e in [Endian::Little, Endian::Big] {
            for n in 1..=8 {
                let masked = if n == 8 { v } else { v & ((1 << (8 * n)) - 1) };
                let mut want = Writer::new();
                want.bytes(&[0xaa]);
                want.uint_n(masked, n, e).unwrap();
                want.bytes(&[0xbb]);
                let mut got = Writer::new();
                got.bytes(&[0xaa]);
                got.uint_n(0, n, e).unwrap();
                got.bytes(&[0xbb]);
                got.patch_uint_n(1, v, n, e);
                assert_eq!(got.into_inner(), want.into_inner(), "{e:?} {n}");
            }
        }
    }

    #[test]
    fn a_sizing_writer_ends_where_a_real_one_does() {
        let ops = |w: &mut Writer| {
            w.u8(1);
            w.bits_be(5, 3);
            w.u32(7, Endian::Big);
            w.align(8);
            w.bytes(b"abc");
            w.fill(5, 0xff);
            w.uint_n(9, 3, Endian::Little).unwrap();
            w.write_at(40, &[1, 2]);
            w.bits_le(1, 1);
            w.flush_bits();
            w.pad_to(50).unwrap();
            w.patch_u16(2, 0xbeef, Endian::Little);
            w.pos()
        };
        let (mut real, mut sizing) = (Writer::new(), Writer::sizing());
        let (a, b) = (ops(&mut real), ops(&mut sizing));
        assert_eq!(a, b);
        assert_eq!(real.into_inner().len(), 50);
        assert!(sizing.is_sizing() && sizing.as_slice().is_empty());
    }

    #[test]
    fn case_check() {
        assert!(check_case(&9i128, "width", Some("u1"), "u1").is_ok());
        let e = check_case(&1i128, "kind", Some("point"), "raw").unwrap_err();
        assert_eq!(
            e.to_string(),
            "holds a raw, but its tag `kind` is 1, which reads a point: the file would read back otherwise"
        );
        assert!(check_case(&"x", "name", None, "raw")
            .unwrap_err()
            .to_string()
            .contains("which reads no case"));
    }

    #[test]
    fn until_check() {
        assert!(check_until([false, false, true].into_iter(), "_ == 0").is_ok());
        let early = check_until([false, true, false].into_iter(), "_ == 0").unwrap_err();
        assert_eq!(early.path(), "[1]");
        assert!(early.to_string().contains("2 elements, not 3"), "{early}");
        let late = check_until([false, false].into_iter(), "_ == 0").unwrap_err();
        assert_eq!(late.path(), "[1]");
        assert!(check_until([].into_iter(), "_ == 0").is_err());
    }

    #[test]
    fn origin_writers_use_absolute_positions() {
        let mut w = Writer::at_origin(0x13);
        assert_eq!(w.pos(), 0x13);
        w.u8(1);
        w.align(8);
        assert_eq!(w.pos(), 0x18);
        w.u32(0xaabbccdd, Endian::Big);
        w.patch_u16(0x18, 0x1122, Endian::Big);
        w.write_at(0x1e, &[7, 7]);
        // Only the part at or after the origin is kept.
        w.write_at(0x10, &[9, 9, 9, 9]);
        assert_eq!(
            w.into_inner(),
            vec![9, 0, 0, 0, 0, 0x11, 0x22, 0xcc, 0xdd, 0, 0, 7, 7]
        );
    }

    /// A streaming writer leaves large shared bytes out of its buffer, and writes, patches and reads them as a
    /// plain writer does: its head stops at the first hole, a patch after a hole sees the whole output, and
    /// `with_contents` retries a check that needs more than the head.
    #[test]
    fn a_streaming_writer_writes_what_a_plain_one_does() {
        let big = crate::Bytes::from(vec![0xabu8; HOLE_MIN]);
        let small = crate::Bytes::from(vec![0xcdu8; HOLE_MIN - 1]);
        let write = |w: &mut Writer| {
            w.u32(7, Endian::Little);
            w.shared(&big);
            w.shared(&small);
            w.u16(0, Endian::Big);
            w.shared(&big);
            w.u8(1);
            w.uint_n(0x0a0b0c, 3, Endian::Big).unwrap();
            w.uint_n(0x0a0b0c, 3, Endian::Little).unwrap();
        };
        let mut plain = Writer::new();
        write(&mut plain);
        let mut s = Writer::new().streaming();
        write(&mut s);
        assert_eq!(s.pos(), plain.pos());
        assert_eq!(s.head(), &plain.as_slice()[..4]);
        assert_eq!(
            s.holes.len(),
            2,
            "the small bytes are copied, and nothing after the holes fills them"
        );
        let mut out = Vec::new();
        s.clone().write_to(&mut out).unwrap();
        assert_eq!(out, plain.as_slice());
        // A check that reads past the head gets the whole output.
        let last = s
            .with_contents(|b| {
                b.last()
                    .copied()
                    .filter(|_| b.len() > 4)
                    .ok_or_else(|| Error::write("short"))
            })
            .unwrap();
        assert_eq!(last, 0x0a, "the last byte of the little-endian u24");
        // A patch after the holes lands where it would in the plain writer.
        let at = 4 + HOLE_MIN + HOLE_MIN - 1;
        let mut s = Writer::new().streaming();
        write(&mut s);
        s.patch_u16(at, 0x1234, Endian::Big);
        plain.patch_u16(at, 0x1234, Endian::Big);
        assert_eq!(s.into_inner(), plain.into_inner());
    }
}
