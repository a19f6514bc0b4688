//! A bounds-checked reader over a byte slice: the stream (`_io`) that generated readers use.

use crate::error::{Error, ErrorKind, Result};
use crate::Endian;

/// How deep user types may nest while reading (protects the stack from hostile input).
pub const MAX_DEPTH: u32 = 256;

/// Where `part` starts in `whole`'s memory, if it lies inside it (an empty `part` at its end counts).
#[inline]
fn offset_within(whole: &[u8], part: &[u8]) -> Option<usize> {
    let off = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    (part.len() <= whole.len() && off <= whole.len() - part.len()).then_some(off)
}

/// A stream over a byte slice. Substreams (a type read with `size`) are readers over a sub-slice that remember
/// where they start in the file, so every error carries an absolute offset.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    buf: &'a [u8],
    /// The shared buffer the file's bytes live in, when the reader was made by [`Reader::shared`]: bytes taken
    /// from it are shared ([`Reader::share`]) instead of copied.
    owner: Option<&'a crate::Bytes>,
    pos: usize,
    /// Absolute offset of `buf[0]` in the file.
    base: u64,
    root: bool,
    depth: u32,
    bits: u64,
    bits_left: u32,
}

macro_rules! prim {
    ($name:ident, $t:ty, $n:expr) => {
        #[doc = concat!("Reads a `", stringify!($t), "` in byte order `e`; fails at the end of the stream.")]
        #[inline]
        pub fn $name(&mut self, e: Endian) -> Result<$t> {
            let b = self.array::<$n>()?;
            Ok(match e {
                Endian::Little => <$t>::from_le_bytes(b),
                Endian::Big => <$t>::from_be_bytes(b),
            })
        }
    };
}

impl<'a> Reader<'a> {
    /// A reader over a whole file.
    pub fn new(buf: &'a [u8]) -> Self {
        Reader {
            buf,
            owner: None,
            pos: 0,
            base: 0,
            root: true,
            depth: 0,
            bits: 0,
            bits_left: 0,
        }
    }

    /// A reader over a whole file held in a shared buffer: the bytes fields read from it share the buffer.
    pub fn shared(buf: &'a crate::Bytes) -> Self {
        Reader {
            owner: Some(buf),
            ..Reader::new(buf)
        }
    }

    /// `raw` as a share of the file's buffer, when there is one and `raw` lies in it.
    #[inline]
    fn shared_slice(&self, raw: &[u8]) -> Option<crate::Bytes> {
        // (`Bytes::slice_ref` would check the same bounds again.)
        let o = self.owner?;
        let off = offset_within(o, raw)?;
        Some(o.slice(off..off + raw.len()))
    }

    /// `raw` as a [`crate::Bytes`]: a share of the file's buffer when `raw` lies in it (no copy), else a copy.
    #[inline]
    pub fn share(&self, raw: &[u8]) -> crate::Bytes {
        self.shared_slice(raw)
            .unwrap_or_else(|| crate::Bytes::copy_from_slice(raw))
    }

    /// A string read from `raw` (at `at` in the file, for errors) in the named encoding.
    #[inline]
    pub fn read_str(&self, raw: &[u8], encoding: &str, at: u64) -> Result<crate::Str> {
        if crate::text::is_utf8(encoding) {
            self.read_utf8(raw, at)
        } else {
            crate::text::decode_as(raw, encoding, at).map(crate::Str::from)
        }
    }

    /// [`Reader::read_str`] for a schema whose encoding is UTF-8: an ASCII string (most names) without the full
    /// UTF-8 validation, kept inline when it is short.
    #[inline]
    pub fn read_utf8(&self, raw: &[u8], at: u64) -> Result<crate::Str> {
        Self::view_utf8(raw, at).map(crate::Str::from)
    }

    /// A string borrowed from the input (for [`ViewFiles`]): UTF-8 (or ASCII) only.
    #[inline]
    pub fn view_str(&self, raw: &'a [u8], encoding: &str, at: u64) -> Result<&'a str> {
        if !crate::text::is_utf8(encoding) {
            return Err(Error::invalid(
                at,
                format!("a view borrows UTF-8 strings only, not {encoding}"),
            ));
        }
        Self::view_utf8(raw, at)
    }

    /// `raw` as a UTF-8 string borrowed from the input (at `at` in the file, for the error), for [`ViewFiles`]
    /// of a schema whose encoding is UTF-8. Names in archives are short and nearly always ASCII, which
    /// is checked a word at a time before the full UTF-8 validation.
    #[inline]
    pub fn view_utf8(raw: &[u8], at: u64) -> Result<&str> {
        if raw.is_ascii() {
            // SAFETY: every byte is below 0x80, and a sequence of ASCII bytes is valid UTF-8.
            return Ok(unsafe { std::str::from_utf8_unchecked(raw) });
        }
        std::str::from_utf8(raw)
            .map_err(|err| Error::invalid(at, format!("string is not valid UTF-8: {err}")))
    }

    /// The whole stream.
    pub fn buf(&self) -> &'a [u8] {
        self.buf
    }
    /// Current position, relative to this stream (`_io.pos`).
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }
    /// Size of this stream (`_io.size`).
    #[inline]
    pub fn size(&self) -> usize {
        self.buf.len()
    }
    /// Bytes left (`_io.size - _io.pos`).
    #[inline]
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }
    /// `_io.eof`.
    #[inline]
    pub fn is_eof(&self) -> bool {
        self.bits_left == 0 && self.pos >= self.buf.len()
    }
    /// Absolute offset in the file of the current position.
    #[inline]
    pub fn abs_pos(&self) -> u64 {
        self.base + self.pos as u64
    }

    fn eof(&self, need: usize) -> Error {
        Error::new(
            ErrorKind::Eof {
                at: self.abs_pos(),
                need: need as u64,
                size: self.base + self.buf.len() as u64,
                root: self.root,
            },
            Some(self.abs_pos()),
        )
    }

    /// An error for a position that lies past the end of this stream.
    pub fn past_end(&self, pos: u64) -> Error {
        let at = self.base.saturating_add(pos);
        Error::new(
            ErrorKind::PastEnd {
                at,
                size: self.base + self.buf.len() as u64,
                root: self.root,
            },
            Some(at),
        )
    }

    /// Moves to `pos` (relative to this stream); `pos` may equal the size.
    #[inline]
    pub fn seek(&mut self, pos: u64) -> Result<()> {
        if pos > self.buf.len() as u64 {
            return Err(self.past_end(pos));
        }
        self.pos = pos as usize;
        self.bits_left = 0;
        Ok(())
    }

    /// Enters a nested user type; fails past [`MAX_DEPTH`].
    #[inline]
    pub fn enter(&mut self) -> Result<()> {
        if self.depth >= MAX_DEPTH {
            return Err(Error::limit(
                self.abs_pos(),
                format!("types nest deeper than {MAX_DEPTH} levels"),
            ));
        }
        self.depth += 1;
        Ok(())
    }
    /// Leaves a nested user type.
    #[inline]
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
    /// How deep user types nest at this point.
    #[inline]
    pub fn depth(&self) -> u32 {
        self.depth
    }
    /// This reader, counting nesting from `depth` on: for a stream opened again inside a nested type (an
    /// instance read from `_root._io`), so that recursion through offsets is bounded by [`MAX_DEPTH`] too.
    #[inline]
    pub fn nested(mut self, depth: u32) -> Self {
        self.depth = depth;
        self
    }

    /// Checks that `count` elements of at least `min_size` bytes each can still follow, so that no allocation
    /// exceeds what the input can justify. Returns a capacity hint.
    #[inline]
    pub fn check_count(&self, count: u64, min_size: u64) -> Result<usize> {
        let need = count.saturating_mul(min_size.max(1));
        if min_size > 0 && need > self.remaining() as u64 {
            return Err(self.count_too_large(count, need));
        }
        Ok(count.min(self.remaining() as u64 + 1) as usize)
    }

    #[cold]
    #[inline(never)]
    fn count_too_large(&self, count: u64, need: u64) -> Error {
        Error::limit(
            self.abs_pos(),
            format!(
                "count {count} needs at least {need:#x} bytes but only {:#x} remain",
                self.remaining()
            ),
        )
    }

    /// Takes `n` bytes.
    #[inline]
    pub fn bytes(&mut self, n: u64) -> Result<&'a [u8]> {
        self.bits_left = 0;
        let Some(s) = usize::try_from(n)
            .ok()
            .and_then(|n| self.buf.get(self.pos..)?.get(..n))
        else {
            return Err(self.eof(n.min(usize::MAX as u64) as usize));
        };
        self.pos += s.len();
        Ok(s)
    }

    /// [`Reader::bytes`] for a size an expression computed: a negative one is an error at the current position.
    pub fn bytes_sized(&mut self, n: i128) -> Result<&'a [u8]> {
        let n = self.size_of(n)?;
        self.bytes(n)
    }

    /// A size an expression computed, as a count of bytes: a negative one is an error at the current position (one
    /// past `u64` counts as all of them, which no stream holds).
    fn size_of(&self, n: i128) -> Result<u64> {
        if n < 0 {
            return Err(Error::invalid(self.abs_pos(), format!("negative size {n}")));
        }
        Ok(u64::try_from(n).unwrap_or(u64::MAX))
    }

    /// Takes everything up to the end of the stream.
    pub fn bytes_eos(&mut self) -> Result<&'a [u8]> {
        self.bits_left = 0;
        let s = &self.buf[self.pos..];
        self.pos = self.buf.len();
        Ok(s)
    }

    /// Takes bytes up to a terminator. `include` keeps the terminator in the result, `consume` moves past it;
    /// with `eos_error` false a missing terminator ends at the end of the stream.
    #[inline]
    pub fn bytes_term(
        &mut self,
        term: u8,
        include: bool,
        consume: bool,
        eos_error: bool,
    ) -> Result<&'a [u8]> {
        self.bits_left = 0;
        let rest = &self.buf[self.pos..];
        match memchr::memchr(term, rest) {
            Some(i) => {
                let out = if include { &rest[..=i] } else { &rest[..i] };
                self.pos += if consume { i + 1 } else { i };
                Ok(out)
            }
            None if eos_error => Err(Error::invalid(
                self.abs_pos(),
                format!("terminator {term:#04x} not found before the end of the stream"),
            )),
            None => {
                self.pos = self.buf.len();
                Ok(rest)
            }
        }
    }

    /// Takes bytes up to a terminator of several bytes (`00 00` for a UTF-16 `strz`), looked for at multiples of
    /// its length.
    #[inline]
    pub fn bytes_term_multi(
        &mut self,
        term: &[u8],
        include: bool,
        consume: bool,
        eos_error: bool,
    ) -> Result<&'a [u8]> {
        if term.len() == 1 {
            return self.bytes_term(term[0], include, consume, eos_error);
        }
        self.bits_left = 0;
        let rest = &self.buf[self.pos..];
        let step = term.len().max(1);
        let mut i = 0;
        while i + step <= rest.len() {
            if &rest[i..i + step] == term {
                let out = if include {
                    &rest[..i + step]
                } else {
                    &rest[..i]
                };
                self.pos += if consume { i + step } else { i };
                return Ok(out);
            }
            i += step;
        }
        if eos_error {
            return Err(Error::invalid(
                self.abs_pos(),
                format!(
                    "terminator {} not found before the end of the stream",
                    crate::error::describe_bytes(term)
                ),
            ));
        }
        self.pos = self.buf.len();
        Ok(rest)
    }

    /// A reader over bytes produced from this stream (cut at a terminator, or processed), starting at `base` in
    /// the file, so errors inside still carry file offsets.
    pub fn over<'b>(&self, buf: &'b [u8], base: u64) -> Reader<'b>
    where
        'a: 'b,
    {
        Reader {
            buf,
            owner: self.owner,
            pos: 0,
            base,
            root: false,
            depth: self.depth,
            bits: 0,
            bits_left: 0,
        }
    }

    /// Takes `N` bytes as an array.
    #[inline]
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        self.bits_left = 0;
        match self.buf.get(self.pos..).and_then(|s| s.first_chunk::<N>()) {
            Some(a) => {
                self.pos += N;
                Ok(*a)
            }
            None => Err(self.eof(N)),
        }
    }

    /// Takes `n` records of `N` bytes each (a repetition of fixed-size elements, see [`crate::records`]) if that
    /// many bytes remain. Otherwise takes nothing and returns `None`: the caller reads the elements one by one,
    /// and fails where the input ends, at that element's field.
    #[inline]
    pub fn records<const N: usize>(&mut self, n: u64) -> Option<&'a [[u8; N]]> {
        if N == 0 {
            return None;
        }
        let len = usize::try_from(n).ok()?.checked_mul(N)?;
        let s = self.buf.get(self.pos..)?.get(..len)?;
        self.bits_left = 0;
        self.pos += len;
        Some(s.as_chunks::<N>().0)
    }

    /// Takes the rest of the stream as records of `N` bytes (a repetition to the end of the stream), if it
    /// divides into them and no bits of a partly read byte are left; otherwise takes nothing and returns `None`
    /// (see [`Reader::records`]).
    #[inline]
    pub fn records_eos<const N: usize>(&mut self) -> Option<&'a [[u8; N]]> {
        if N == 0 || self.bits_left != 0 {
            return None;
        }
        let (recs, rest) = self.buf.get(self.pos..)?.as_chunks::<N>();
        if !rest.is_empty() {
            return None;
        }
        self.pos = self.buf.len();
        Some(recs)
    }

    /// Checks fixed bytes (`contents`).
    pub fn expect(&mut self, expected: &[u8]) -> Result<()> {
        let at = self.abs_pos();
        let found = self.bytes(expected.len() as u64)?;
        if found != expected {
            return Err(Error::new(
                ErrorKind::Contents {
                    expected: expected.to_vec(),
                    found: found.to_vec(),
                },
                Some(at),
            ));
        }
        Ok(())
    }

    /// [`Reader::substream`] for a size an expression computed: a negative one is an error at the current position.
    pub fn substream_sized(&mut self, n: i128) -> Result<Reader<'a>> {
        let n = self.size_of(n)?;
        self.substream(n)
    }

    /// A substream of the next `n` bytes; this stream moves past them.
    pub fn substream(&mut self, n: u64) -> Result<Reader<'a>> {
        let base = self.abs_pos();
        let s = self.bytes(n)?;
        Ok(Reader {
            buf: s,
            owner: self.owner,
            pos: 0,
            base,
            root: false,
            depth: self.depth,
            bits: 0,
            bits_left: 0,
        })
    }

    /// `-scan`: the length of the field that starts here and ends where one of `tags` begins, looking at every
    /// `step`-th offset from here (the loader's "scanning forward two bytes at a time"). Without a tag, the field
    /// runs to the end of the stream when `or_eos`, and is an error otherwise.
    pub fn scan(&self, tags: &[&[u8]], step: usize, or_eos: bool) -> Result<u64> {
        let rest = &self.buf[self.pos..];
        let mut at = 0usize;
        while at <= rest.len() {
            if tags.iter().any(|t| rest[at..].starts_with(t)) {
                return Ok(at as u64);
            }
            at += step.max(1);
        }
        if or_eos {
            return Ok(rest.len() as u64);
        }
        let names: Vec<String> = tags
            .iter()
            .map(|t| format!("{:?}", String::from_utf8_lossy(t)))
            .collect();
        Err(Error::invalid(
            self.abs_pos(),
            format!(
                "no tag {} follows (looked at every {}th byte to the end)",
                names.join(" or "),
                step.max(1)
            ),
        ))
    }

    /// A substream over the rest of this stream; this stream moves to its end.
    pub fn substream_eos(&mut self) -> Result<Reader<'a>> {
        let n = self.remaining() as u64;
        self.substream(n)
    }

    /// Reads a byte; fails at the end of the stream.
    #[inline]
    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>()?[0])
    }
    /// Reads a signed byte; fails at the end of the stream.
    #[inline]
    pub fn i8(&mut self) -> Result<i8> {
        Ok(self.array::<1>()?[0] as i8)
    }
    prim!(u16, u16, 2);
    prim!(u32, u32, 4);
    prim!(u64, u64, 8);
    prim!(i16, i16, 2);
    prim!(i32, i32, 4);
    prim!(i64, i64, 8);
    prim!(f32, f32, 4);
    prim!(f64, f64, 8);

    /// The unsigned integer of `n` bytes (1..=8) at `at` (relative to this stream, as an expression computes it:
    /// negative is an error), without moving: a field of a section read from outside it (generated code, for
    /// `_root.table.x_ofs` where `x_ofs` is derived).
    #[inline]
    pub fn peek_uint(&self, at: i128, n: usize, e: Endian) -> Result<u64> {
        let Ok(at) = u64::try_from(at) else {
            return Err(Error::invalid(
                self.abs_pos(),
                format!("negative position {at}"),
            ));
        };
        let b = usize::try_from(at)
            .ok()
            .and_then(|s| self.buf.get(s..s.checked_add(n)?))
            .ok_or_else(|| self.past_end(at.saturating_add(n as u64)))?;
        let mut v = [0u8; 8];
        Ok(match e {
            Endian::Little => {
                v[..n].copy_from_slice(b);
                u64::from_le_bytes(v)
            }
            Endian::Big => {
                v[8 - n..].copy_from_slice(b);
                u64::from_be_bytes(v)
            }
        })
    }

    /// An unsigned integer of `n` bytes (1..=8), e.g. a `u24`.
    pub fn uint_n(&mut self, n: usize, e: Endian) -> Result<u64> {
        let b = self.bytes(n as u64)?;
        let mut v = 0u64;
        match e {
            Endian::Big => b.iter().for_each(|&x| v = (v << 8) | x as u64),
            Endian::Little => b.iter().rev().for_each(|&x| v = (v << 8) | x as u64),
        }
        Ok(v)
    }

    /// `n` bits (1..=64), most significant bit first (`bit-endian: be`).
    pub fn bits_be(&mut self, n: u32) -> Result<u64> {
        let mut res: u64 = 0;
        let mut need = n;
        while need > 0 {
            if self.bits_left == 0 {
                let b = *self.buf.get(self.pos).ok_or_else(|| self.eof(1))?;
                self.pos += 1;
                self.bits = b as u64;
                self.bits_left = 8;
            }
            let take = need.min(self.bits_left);
            let shift = self.bits_left - take;
            let part = (self.bits >> shift) & mask(take);
            res = if take == 64 {
                part
            } else {
                (res << take) | part
            };
            self.bits_left -= take;
            self.bits &= mask(self.bits_left);
            need -= take;
        }
        Ok(res)
    }

    /// `n` bits (1..=64), least significant bit first (`bit-endian: le`).
    pub fn bits_le(&mut self, n: u32) -> Result<u64> {
        let mut res: u64 = 0;
        let mut got = 0u32;
        while got < n {
            if self.bits_left == 0 {
                let b = *self.buf.get(self.pos).ok_or_else(|| self.eof(1))?;
                self.pos += 1;
                self.bits = b as u64;
                self.bits_left = 8;
            }
            let take = (n - got).min(self.bits_left);
            let part = self.bits & mask(take);
            res |= part << got;
            self.bits >>= take;
            self.bits_left -= take;
            got += take;
        }
        Ok(res)
    }

    /// Drops any partly read byte (Kaitai's `align_to_byte`).
    pub fn align_to_byte(&mut self) {
        self.bits_left = 0;
    }
}

/// Cuts a fixed-size slot down to its content, as Kaitai does: at the terminator if there is one (keeping it
/// when `include`), else by dropping trailing `pad` bytes.
pub fn slot_content<'b>(
    b: &'b [u8],
    pad: Option<u8>,
    term: Option<&[u8]>,
    include: bool,
) -> &'b [u8] {
    if let Some(t) = term {
        let cut = terminate(b, t, include);
        if cut.len() < b.len() || (include && cut.ends_with(t) && !t.is_empty()) {
            return cut;
        }
    }
    match pad {
        Some(p) => strip_right(b, p),
        None => b,
    }
}

/// The bytes of a sized slot after its content (`slot_content`), where they are not what the writer puts there
/// ([`crate::write::write_slot`]: the terminator when `append` is set and it fits, then `fill` up to the end, or
/// for a slot to the end of the stream, `fill` `None`, nothing): bytes after a terminator that are not padding,
/// which a file may hold (garbage from the tool that made it). `None` where the writer would reproduce the slot.
pub fn slot_filler<'b>(
    slot: &'b [u8],
    pad: Option<u8>,
    term: Option<&[u8]>,
    include: bool,
    append: &[u8],
    fill: Option<u8>,
) -> Option<&'b [u8]> {
    let content = slot_content(slot, pad, term, include).len();
    let rest = &slot[content..];
    let (t, padding) = if rest.len() >= append.len() {
        rest.split_at(append.len())
    } else {
        (&rest[..0], rest)
    };
    let written = t == append && padding.iter().all(|&b| Some(b) == fill);
    (!written).then_some(rest)
}

/// The bytes of a record's slot after the `used` bytes its reader read, where the model keeps them: any (`all`:
/// the slot's size is derived from the record and them), or only where they are not all zeros (what the writer
/// pads a slot of a given size with). `None` for none.
pub fn unread_tail(slot: &[u8], used: usize, all: bool) -> Option<&[u8]> {
    let rest = slot.get(used..).filter(|r| !r.is_empty())?;
    (all || rest.iter().any(|&b| b != 0)).then_some(rest)
}

/// A record read at `at` from `bytes` as a stream of their own (positions, and the offsets of errors, count from
/// their start), with pools of its own: what a writer reads again from the bytes of a parameter (an instance
/// `io: param._io`), since the model holds the parameter, not the record.
pub fn read_from<T>(
    bytes: &[u8],
    at: i128,
    endian: Endian,
    read: impl for<'b> FnOnce(
        &mut Reader<'b>,
        Endian,
        &mut crate::layout::ReadPools,
        &Reader<'b>,
    ) -> Result<T>,
) -> Result<T> {
    let mut r = Reader::new(bytes);
    let root = r.clone();
    if at < 0 {
        return Err(Error::invalid(0, format!("negative position {at}")));
    }
    r.seek(at as u64)?;
    read(&mut r, endian, &mut crate::layout::ReadPools::new(), &root)
}

/// The bytes of a record's slot of `size` bytes that the model keeps beside a record that reads nothing (its
/// `<field>_filler`, see [`unread_tail`]): those, or where there are none, zeros. Zeros are made up to
/// [`MAX_ZERO_SLOT`] bytes; a larger slot of zeros is an error rather than an allocation the input does not hold.
pub fn kept_slot(kept: Option<&[u8]>, size: i128) -> Result<std::borrow::Cow<'_, [u8]>> {
    match kept {
        Some(b) => Ok(std::borrow::Cow::Borrowed(b)),
        None if (0..=MAX_ZERO_SLOT as i128).contains(&size) => {
            Ok(std::borrow::Cow::Owned(vec![0; size as usize]))
        }
        None => Err(Error::invalid(
            0,
            format!("a slot of {size} bytes of zeros is not read from (at most {MAX_ZERO_SLOT})"),
        )),
    }
}

/// The most bytes of zeros [`kept_slot`] makes.
pub const MAX_ZERO_SLOT: usize = 1 << 24;

/// Drops trailing `pad` bytes (`pad-right`).
pub fn strip_right(b: &[u8], pad: u8) -> &[u8] {
    let mut n = b.len();
    while n > 0 && b[n - 1] == pad {
        n -= 1;
    }
    &b[..n]
}

/// Cuts at the first terminator (looked for at multiples of its length), keeping it when `include`.
pub fn terminate<'b>(b: &'b [u8], term: &[u8], include: bool) -> &'b [u8] {
    let step = term.len().max(1);
    let mut i = 0;
    while i + step <= b.len() {
        if &b[i..i + step] == term {
            return if include { &b[..i + step] } else { &b[..i] };
        }
        i += step;
    }
    b
}

#[inline]
fn mask(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Reads one file of an archive (its name and data, borrowed from the input) with the reader at its entry.
pub type ViewFile<'a, A> =
    fn(&mut Reader<'a>, crate::Endian, &Reader<'a>, A) -> Result<(&'a str, &'a [u8])>;

/// The files of an archive, read one entry at a time from the input without building the model (what a generated
/// `view_files` returns). The count was checked against the input when the view was made, so collecting the files
/// allocates no more than the input justifies. After an error the iterator ends.
pub struct ViewFiles<'a, A> {
    r: Reader<'a>,
    root_io: Reader<'a>,
    endian: crate::Endian,
    n: usize,
    i: usize,
    args: A,
    read: ViewFile<'a, A>,
    /// The fields that lead to the entries, outermost first, and the format: for error paths.
    path: &'static [&'static str],
    format: &'static str,
}

impl<'a, A: Copy> ViewFiles<'a, A> {
    /// Entries `0..n` read by `read` from `r` on.
    // Generated code only (a format's `view_files`).
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        r: Reader<'a>,
        root_io: Reader<'a>,
        endian: crate::Endian,
        n: usize,
        args: A,
        read: ViewFile<'a, A>,
        path: &'static [&'static str],
        format: &'static str,
    ) -> Self {
        ViewFiles {
            r,
            root_io,
            endian,
            n,
            i: 0,
            args,
            read,
            path,
            format,
        }
    }
}

impl<'a, A: Copy> Iterator for ViewFiles<'a, A> {
    type Item = Result<(&'a str, &'a [u8])>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.i >= self.n {
            return None;
        }
        let i = self.i;
        self.i += 1;
        match (self.read)(&mut self.r, self.endian, &self.root_io, self.args) {
            Ok(x) => Some(Ok(x)),
            Err(e) => {
                self.i = self.n;
                let mut e = e.at_index(i);
                for p in self.path.iter().rev() {
                    e = e.at(p);
                }
                Some(Err(e.in_format(self.format)))
            }
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.n - self.i, Some(self.n - self.i))
    }
}

impl<A: Copy> ExactSizeIterator for ViewFiles<'_, A> {}

#[cfg(test)]
mod tests {
    use super::*;

    /// A size an expression computed: negative is an error naming it at the position; past `u64` it is more than
    /// any stream holds (it used to wrap around to a small size).
    #[test]
    fn sized_reads_refuse_negative_and_huge_sizes() {
        let data = [1u8, 2, 3, 4];
        let mut r = Reader::new(&data);
        r.bytes(1).unwrap();
        let e = r.bytes_sized(-2).unwrap_err().to_string();
        assert!(e.contains("negative size -2") && e.contains("0x1"), "{e}");
        assert!(r.bytes_sized((1i128 << 64) + 2).is_err());
        assert!(r.substream_sized((1i128 << 64) + 2).is_err());
        assert_eq!(r.bytes_sized(2).unwrap(), &[2, 3]);
        assert_eq!(r.substream_sized(1).unwrap().bytes(1).unwrap(), &[4]);
    }

    #[test]
    fn unread_tail_keeps_what_padding_would_not_give() {
        let slot = [7u8, 0, 0, 9];
        assert_eq!(unread_tail(&slot, 1, false), Some(&[0u8, 0, 9][..]));
        assert_eq!(unread_tail(&[7, 0, 0], 1, false), None);
        // Where the size is derived, any bytes count.
        assert_eq!(unread_tail(&[7, 0, 0], 1, true), Some(&[0u8, 0][..]));
        assert_eq!(unread_tail(&slot, 4, true), None);
        // A case that is no record leaves `used` unset (usize::MAX): nothing.
        assert_eq!(unread_tail(&slot, usize::MAX, true), None);
    }

    #[test]
    fn slot_filler_keeps_what_the_writer_would_not_write() {
        let term = Some(&[0x40u8][..]);
        // Content, terminator, then the writer's fill (the terminator again, with no pad-right): nothing kept.
        assert_eq!(
            slot_filler(b"ab@@@@", None, term, false, b"@", Some(b'@')),
            None
        );
        // Other bytes after the terminator: kept, from the terminator on.
        assert_eq!(
            slot_filler(b"ab@+++", None, term, false, b"@", Some(b'@')),
            Some(&b"@+++"[..])
        );
        // Padding stripped first (pad-right 0x2b), then cut at the terminator.
        assert_eq!(
            slot_filler(b"ab@+++", Some(b'+'), term, false, b"@", Some(b'+')),
            None
        );
        // No terminator in the slot: the writer would add one where it fits.
        assert_eq!(
            slot_filler(b"abcd++", Some(b'+'), term, false, b"@", Some(b'+')),
            Some(&b"++"[..])
        );
        // A slot to the end of the stream ends with the content and the terminator.
        assert_eq!(slot_filler(b"ab@", None, term, false, b"@", None), None);
        assert_eq!(
            slot_filler(b"ab@x", None, term, false, b"@", None),
            Some(&b"@x"[..])
        );
        // Kept bytes are written back while the content has its length; otherwise the slot is padded.
        let write = |content: &[u8], filler: Option<&[u8]>| {
            let mut w = crate::Writer::new();
            crate::write::write_slot_filled(&mut w, content, Some(6), b"@", b'@', false, filler)
                .unwrap();
            w.into_inner()
        };
        assert_eq!(write(b"ab", Some(b"@+++")), b"ab@+++");
        assert_eq!(write(b"abc", Some(b"@+++")), b"abc@@@");
        assert_eq!(write(b"ab", None), b"ab@@@@");
    }

    #[test]
    fn peek_reads_without_moving_and_names_the_end() {
        let data = [0u8, 1, 2, 3, 4, 5];
        let mut r = Reader::new(&data);
        r.seek(1).unwrap();
        let mut sub = r.substream(4).unwrap();
        assert_eq!(sub.peek_uint(1, 2, Endian::Little).unwrap(), 0x0302);
        assert_eq!(sub.peek_uint(1, 3, Endian::Big).unwrap(), 0x020304);
        assert_eq!(sub.pos(), 0);
        // Past the stream's end (not the buffer's): an error at the absolute offset.
        let e = sub.peek_uint(3, 2, Endian::Little).unwrap_err().to_string();
        assert!(e.contains("0x6"), "{e}");
        assert!(sub
            .peek_uint(i128::from(u64::MAX), 4, Endian::Little)
            .is_err());
        let e = sub
            .peek_uint(-2, 1, Endian::Little)
            .unwrap_err()
            .to_string();
        assert!(e.contains("negative position -2"), "{e}");
        sub.u8().unwrap();
    }

    #[test]
    fn reads_both_byte_orders() {
        let mut r = Reader::new(&[1, 2, 3, 4, 5, 6]);
        assert_eq!(r.u16(Endian::Big).unwrap(), 0x0102);
        assert_eq!(r.u16(Endian::Little).unwrap(), 0x0403);
        assert_eq!(r.uint_n(2, Endian::Big).unwrap(), 0x0506);
        assert!(r.is_eof());
    }

    #[test]
    fn nesting_carries_over_to_a_reopened_stream() {
        let data = [0u8; 4];
        let mut r = Reader::new(&data);
        for _ in 0..MAX_DEPTH - 1 {
            r.enter().unwrap();
        }
        let mut again = Reader::new(&data).nested(r.depth());
        again.enter().unwrap();
        assert!(again
            .enter()
            .unwrap_err()
            .to_string()
            .contains("nest deeper"));
    }

    #[test]
    fn eof_names_offset_and_size() {
        let mut r = Reader::new(&[0; 6]);
        r.seek(4).unwrap();
        let e = r.u32(Endian::Big).unwrap_err();
        assert_eq!(e.offset(), Some(4));
        assert_eq!(
            e.message(),
            "needs 0x4 bytes at offset 0x4, past the end of the file (0x6 bytes)"
        );
        let e = r.seek(0x1f40).unwrap_err();
        assert_eq!(
            e.message(),
            "offset 0x1f40 is past the end of the file (0x6 bytes)"
        );
    }

    #[test]
    fn substream_errors_are_absolute() {
        let data = [0u8; 16];
        let mut r = Reader::new(&data);
        r.seek(8).unwrap();
        let mut s = r.substream(4).unwrap();
        s.u16(Endian::Big).unwrap();
        let e = s.u32(Endian::Big).unwrap_err();
        assert_eq!(e.offset(), Some(10));
        assert_eq!(
            e.message(),
            "needs 0x4 bytes at offset 0xa, past the end of its substream, which ends at 0xc"
        );
        let e = s.seek(0x20).unwrap_err();
        assert_eq!(
            e.message(),
            "offset 0x28 is past the end of its substream, which ends at 0xc"
        );
    }

    #[test]
    fn bits_both_orders() {
        let mut r = Reader::new(&[0b1010_0000, 0xff]);
        assert_eq!(r.bits_be(3).unwrap(), 0b101);
        assert_eq!(r.bits_be(5).unwrap(), 0);
        let mut r = Reader::new(&[0b0000_0101]);
        assert_eq!(r.bits_le(3).unwrap(), 0b101);
    }

    #[test]
    fn counts_are_bounded_by_input() {
        let r = Reader::new(&[0; 16]);
        assert!(r.check_count(4, 4).is_ok());
        assert!(r.check_count(5, 4).is_err());
        assert!(r.check_count(u64::MAX, 1).is_err());
    }

    #[test]
    fn terminator() {
        let mut r = Reader::new(b"ab\0cd");
        assert_eq!(r.bytes_term(0, false, true, true).unwrap(), b"ab");
        assert_eq!(r.pos(), 3);
        assert!(r.bytes_term(0, false, true, true).is_err());
        assert_eq!(r.bytes_term(0, false, true, false).unwrap(), b"cd");
    }

    #[test]
    fn takes_stop_at_the_end() {
        // (size, position, how many bytes are taken): whether the take succeeds, and the position after it.
        let cases: &[(usize, usize, u64, Option<usize>)] = &[
            (6, 0, 6, Some(6)),
            (6, 2, 4, Some(6)),
            (6, 2, 5, None),
            (6, 6, 0, Some(6)),
            (6, 6, 1, None),
            (6, 0, u64::MAX, None),
            (0, 0, 0, Some(0)),
        ];
        for &(size, pos, n, after) in cases {
            let data = vec![7u8; size];
            let mut r = Reader::new(&data);
            r.seek(pos as u64).unwrap();
            match r.bytes(n) {
                Ok(s) => {
                    assert_eq!(Some(r.pos()), after, "{size} {pos} {n}");
                    assert_eq!(s.len() as u64, n);
                }
                Err(e) => {
                    assert_eq!(after, None, "{size} {pos} {n}: {}", e.message());
                    assert_eq!(e.offset(), Some(pos as u64));
                    assert_eq!(r.pos(), pos, "a failed take does not move");
                }
            }
        }
        let mut r = Reader::new(&[1, 2, 3, 4, 5]);
        assert_eq!(r.array::<4>().unwrap(), [1, 2, 3, 4]);
        assert!(r.array::<2>().is_err());
        assert_eq!(r.pos(), 4);
        assert_eq!(r.array::<1>().unwrap(), [5]);
        assert_eq!(r.array::<0>().unwrap(), [0u8; 0]);
        assert!(r.array::<1>().is_err());
    }

    #[test]
    fn viewed_strings() {
        // ASCII (the fast path), other UTF-8, and bytes that are not UTF-8.
        assert_eq!(
            Reader::view_utf8(b"Actor/Pack/a.bfres", 0).unwrap(),
            "Actor/Pack/a.bfres"
        );
        assert_eq!(Reader::view_utf8(b"", 0).unwrap(), "");
        assert_eq!(
            Reader::view_utf8("Müll/ß.txt".as_bytes(), 0).unwrap(),
            "Müll/ß.txt"
        );
        let e = Reader::view_utf8(b"abc\xffdef", 0x40).unwrap_err();
        assert_eq!(e.offset(), Some(0x40));
        assert!(e.message().contains("not valid UTF-8"), "{}", e.message());
        let e = Reader::view_utf8(b"ab\xc3", 0x10).unwrap_err();
        assert_eq!(e.offset(), Some(0x10));
        let r = Reader::new(b"");
        assert_eq!(r.view_str(b"x", "utf8", 0).unwrap(), "x");
        assert!(r.view_str(b"x", "UTF-16LE", 0).is_err());
    }

    #[test]
    fn strings_are_read_into_their_own() {
        let buf =
            crate::Bytes::from_static(b"name\0M\xc3\xbcll\0ab\xff\0a_name_longer_than_24_bytes");
        let r = Reader::shared(&buf);
        // ASCII and other UTF-8 are read into a string of their own, inline when short (no allocation); bytes that
        // are not UTF-8 are an error at `at`.
        let a = r.read_utf8(&buf[0..4], 0).unwrap();
        assert_eq!(&*a, "name");
        assert!(!a.is_heap_allocated());
        let m = r.read_utf8(&buf[5..10], 5).unwrap();
        assert_eq!(&*m, "M\u{fc}ll");
        assert!(!m.is_heap_allocated());
        let long = r.read_utf8(&buf[15..], 15).unwrap();
        assert_eq!(&*long, "a_name_longer_than_24_bytes");
        assert!(long.is_heap_allocated());
        let e = r.read_utf8(&buf[11..14], 11).unwrap_err();
        assert_eq!(e.offset(), Some(11));
        assert!(r.read_utf8(b"\xc3", 3).is_err());
        // A reader without a shared buffer, and the encoding looked up by name.
        let plain = Reader::new(b"");
        assert_eq!(&*plain.read_str(b"abc", "utf8", 0).unwrap(), "abc");
        assert_eq!(&*plain.read_str(&[0xe9], "latin1", 0).unwrap(), "\u{e9}");
    }

    #[test]
    fn offsets_within_a_buffer() {
        let whole = [0u8; 8];
        assert_eq!(offset_within(&whole, &whole), Some(0));
        assert_eq!(offset_within(&whole, &whole[3..5]), Some(3));
        assert_eq!(offset_within(&whole, &whole[8..]), Some(8));
        assert_eq!(offset_within(&whole[2..6], &whole[2..6]), Some(0));
        // Reaching past the end, starting before the start, or elsewhere.
        assert_eq!(offset_within(&whole[..4], &whole[2..6]), None);
        assert_eq!(offset_within(&whole[2..], &whole[..4]), None);
        let other = [0u8; 4];
        assert_eq!(offset_within(&whole, &other), None);
    }

    #[test]
    fn kept_slot_gives_the_bytes_or_bounded_zeros() {
        assert_eq!(&kept_slot(Some(&[1, 2][..]), 9).unwrap()[..], [1, 2]);
        assert_eq!(&kept_slot(None, 3).unwrap()[..], [0, 0, 0]);
        // A slot of zeros larger than the bound, or of a negative size, is an error, not an allocation.
        assert!(kept_slot(None, MAX_ZERO_SLOT as i128 + 1).is_err());
        assert!(kept_slot(None, -1).is_err());
        assert!(kept_slot(None, i128::MAX).is_err());
    }

    #[test]
    fn read_from_reads_at_a_position_of_the_bytes() {
        let b = [1u8, 2, 3];
        assert_eq!(
            read_from(&b, 1, Endian::Little, |r, _, _, _| r.u8()).unwrap(),
            2
        );
        assert!(read_from(&b, -1, Endian::Little, |r, _, _, _| r.u8()).is_err());
        assert!(read_from(&b, 3, Endian::Little, |r, _, _, _| r.u8()).is_err());
    }
}
