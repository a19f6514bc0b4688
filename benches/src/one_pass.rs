//! The pieces of a write in one pass that `examples/sarc_one_pass_probe.rs` is made of (docs/design.md §9): a
//! probe of the design, not code of the product. (They were in the runtime while the generated writers were to use
//! them; the generated one-pass writer built on 2026-12-07 was slower than the passes, see docs/design.md §9, so
//! they live here, with the probe.)
//!
//! Instead of a sizing pass and then the bytes (`write_passes`), the bytes are written once, a value that depends
//! on positions not known yet is written as zeros with a [`Fixup`], and the fixups are applied when the pass ends.
//!
//! - A pool of bytes made for it (a string pool) is its own buffer ([`OnePass::push_own`]): an item's offset in its
//!   region is known when it is queued, so its position is the region's start plus that offset.
//! - Bytes of the model queued for a pool (an archive's files) are borrowed ([`OnePass::push_borrowed`]), laid out
//!   when the region is written, each aligned to its absolute position, and copied once, into the output.
//! - A [`Lin`] is a value known now plus up to two positions known when the pass ends, each added or subtracted:
//!   one small value, no expression tree. A position is a slot of one table the pass fills in ([`OnePass::end`],
//!   [`OnePass::region`], and the items' positions), so applying a fixup is two loads.
//!
//! Anything the pieces cannot reproduce as the passes would (a region of own items that does not start on a
//! multiple of their alignment, a fixup whose value does not fit or does not divide) makes [`OnePass::finish`]
//! say no. So a fixup keeps no path.

use binspec_runtime::write::{align_up, Writer};
use binspec_runtime::Endian;

/// A position known when the pass ends: its slot in the pass's table of positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slot(u32);

/// The slot of the output's length.
const END: Slot = Slot(0);
/// A slot not filled in yet.
const UNKNOWN: u64 = u64::MAX;

/// A value linear in positions: `known` plus each term's position times its sign (+1 or -1).
#[derive(Debug, Clone, Copy)]
pub struct Lin {
    known: i128,
    terms: [Slot; 2],
    signs: [i8; 2],
    n: u8,
}

/// The same value: the same number and the same positions with the same signs, in any order.
impl PartialEq for Lin {
    fn eq(&self, other: &Lin) -> bool {
        self.known == other.known
            && self.n == other.n
            && self.iter().all(|t| other.iter().any(|u| u == t))
    }
}

impl Eq for Lin {}

impl Lin {
    /// A value known now.
    #[inline]
    pub const fn known(v: i128) -> Self {
        Lin {
            known: v,
            terms: [END; 2],
            signs: [0; 2],
            n: 0,
        }
    }
    #[inline]
    const fn at(t: Slot) -> Self {
        Lin {
            known: 0,
            terms: [t, END],
            signs: [1, 0],
            n: 1,
        }
    }
    /// The positions and their signs.
    #[inline]
    fn iter(&self) -> impl Iterator<Item = (i8, Slot)> + '_ {
        (0..usize::from(self.n)).map(|i| (self.signs[i], self.terms[i]))
    }
    /// The value, where it has no positions left.
    #[inline]
    pub fn value(&self) -> Option<i128> {
        (self.n == 0).then_some(self.known)
    }
    /// `self + v`.
    #[must_use]
    #[inline]
    pub fn plus(mut self, v: i128) -> Self {
        self.known = self.known.wrapping_add(v);
        self
    }
    /// `self + other`, or `None` where it would have more than two positions.
    #[inline]
    pub fn checked_add(self, other: Lin) -> Option<Lin> {
        self.combine(other, 1)
    }
    /// `self - other`, or `None` where it would have more than two positions. (A position less itself cancels:
    /// an item's offset in its region is `Item - Region`.)
    #[inline]
    pub fn checked_sub(self, other: Lin) -> Option<Lin> {
        self.combine(other, -1)
    }
    #[inline]
    fn combine(mut self, other: Lin, sign: i8) -> Option<Lin> {
        self.known = self.known.wrapping_add(i128::from(sign) * other.known);
        for (s, t) in other.iter() {
            let s = s * sign;
            let n = usize::from(self.n);
            match self.terms[..n].iter().position(|&u| u == t) {
                Some(i) if self.signs[i] + s == 0 => {
                    // Cancelled: the last term takes its place.
                    self.terms[i] = self.terms[n - 1];
                    self.signs[i] = self.signs[n - 1];
                    self.terms[n - 1] = END;
                    self.signs[n - 1] = 0;
                    self.n -= 1;
                }
                // (+t + t: not a position, and no format derives one.)
                Some(_) => return None,
                None if n < 2 => {
                    self.terms[n] = t;
                    self.signs[n] = s;
                    self.n += 1;
                }
                None => return None,
            }
        }
        Some(self)
    }
    #[inline]
    fn eval(&self, positions: &[u64]) -> Option<i128> {
        // (Positions are below 2^64 and there are at most two: no overflow of an i128 to check. Unrolled: this is
        // most of the time of applying a fixup.)
        let term = |i: usize| -> Option<i128> {
            let p = *positions.get(self.terms[i].0 as usize)?;
            if p == UNKNOWN {
                return None;
            }
            let p = i128::from(p);
            Some(if self.signs[i] > 0 { p } else { -p })
        };
        match self.n {
            0 => Some(self.known),
            1 => Some(self.known.wrapping_add(term(0)?)),
            _ => Some(self.known.wrapping_add(term(0)?).wrapping_add(term(1)?)),
        }
    }
}

/// A field written as zeros, to be set when the pass ends: `(value / div) | or`, in `width` bytes.
#[derive(Debug, Clone, Copy)]
pub struct Fixup {
    /// Where the field is in the output ([`OnePass::write`] sets it).
    pub at: usize,
    /// The field's width in bytes (1 to 8).
    pub width: u8,
    pub endian: Endian,
    /// Whether the field is a signed integer (its range).
    pub signed: bool,
    /// What is written, before the division and the OR.
    pub value: Lin,
    /// An exact division (1 for none): a value that does not divide is refused, as the passes refuse it.
    pub div: u32,
    /// Bits ORed in after the division (a flag or a count beside an offset: SARC's `name_attrs`).
    pub or: u64,
    /// What the field's value must be for the model to read back: a condition on it that decides whether
    /// something is present (SARC's entry has a name where `name_attrs != 0`). A value that breaks it is refused,
    /// as the passes refuse it.
    pub expect: Expect,
}

/// A condition on a fixup's final value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    Any,
    /// Not 0 (what the condition makes present is in the model).
    NonZero,
    /// 0 (what the condition makes present is not in the model).
    Zero,
}

impl Fixup {
    /// An unsigned field of `width` bytes that holds `value` (no division, nothing ORed in).
    pub fn unsigned(width: u8, endian: Endian, value: Lin) -> Self {
        Fixup {
            at: 0,
            width,
            endian,
            signed: false,
            value,
            div: 1,
            or: 0,
            expect: Expect::Any,
        }
    }
}

/// The value `v` as a `width`-byte field, or `None` where it does not fit.
#[inline]
fn fit(v: i128, width: u8, signed: bool) -> Option<u64> {
    if width == 0 || width > 8 {
        return None;
    }
    let bits = u32::from(width) * 8;
    let fits = if signed {
        i64::try_from(v)
            .is_ok_and(|v| bits == 64 || (v >> (bits - 1)) == 0 || (v >> (bits - 1)) == -1)
    } else {
        u64::try_from(v).is_ok_and(|v| bits == 64 || v >> bits == 0)
    };
    fits.then(|| (v as u64) & (u64::MAX >> (64 - bits)))
}

/// One pool's items in this pass.
#[derive(Debug)]
enum Items<'m> {
    /// Nothing queued yet.
    None,
    /// Bytes made for the pool, each item at its offset in the region.
    Own { bytes: Vec<u8>, max_align: u64 },
    /// Bytes of the model, each with its alignment and the slot of its position.
    Borrowed(Vec<(&'m [u8], u64, Slot)>),
}

#[derive(Debug)]
struct Pool<'m> {
    items: Items<'m>,
    /// The slot of where the region starts.
    start: Slot,
    written: bool,
}

/// The state of a write in one pass: each pool's items, the positions, and the fixups.
#[derive(Debug)]
pub struct OnePass<'m> {
    pools: Vec<Option<Pool<'m>>>,
    /// Positions by slot ([`UNKNOWN`] until known); slot 0 is the output's length.
    positions: Vec<u64>,
    fixups: Vec<Fixup>,
    /// Why this pass cannot give the passes' bytes, once something says so.
    fallback: Option<&'static str>,
    /// Whether the output has made room for the regions.
    reserved: bool,
}

impl Default for OnePass<'_> {
    fn default() -> Self {
        Self::with_capacity(0)
    }
}

impl<'m> OnePass<'m> {
    /// A pass with nothing queued.
    pub fn new() -> Self {
        Self::default()
    }
    /// With room for `fixups` fixups (a writer that knows how many it will make grows its list once).
    pub fn with_capacity(fixups: usize) -> Self {
        OnePass {
            pools: Vec::new(),
            positions: vec![UNKNOWN],
            fixups: Vec::with_capacity(fixups),
            fallback: None,
            reserved: false,
        }
    }
    #[inline]
    fn slot(&mut self) -> Slot {
        self.positions.push(UNKNOWN);
        Slot(u32::try_from(self.positions.len() - 1).unwrap_or(u32::MAX))
    }
    #[inline]
    fn pool(&mut self, pool: usize) -> &mut Pool<'m> {
        if self.pools.get(pool).is_some_and(Option::is_some) {
            return self.pools[pool].as_mut().expect("checked above");
        }
        self.new_pool(pool)
    }
    /// [`OnePass::pool`] the first time (out of the way of the items).
    #[cold]
    #[inline(never)]
    fn new_pool(&mut self, pool: usize) -> &mut Pool<'m> {
        if self.pools.len() <= pool {
            self.pools.resize_with(pool + 1, || None);
        }
        if self.pools[pool].is_none() {
            let start = self.slot();
            self.pools[pool] = Some(Pool {
                items: Items::None,
                start,
                written: false,
            });
        }
        self.pools[pool].as_mut().expect("made above")
    }
    fn give_up(&mut self, why: &'static str) {
        self.fallback.get_or_insert(why);
    }
    /// The output's length.
    pub fn end(&self) -> Lin {
        Lin::at(END)
    }
    /// Where the region of `pool` starts.
    pub fn region(&mut self, pool: usize) -> Lin {
        Lin::at(self.pool(pool).start)
    }
    /// Queues `bytes` then `term` for `pool` at its next multiple of `align` (a power of two): its position.
    #[inline]
    pub fn push_own(&mut self, pool: usize, bytes: &[u8], term: &[u8], align: u64) -> Lin {
        let p = self.pool(pool);
        if matches!(p.items, Items::None) {
            p.items = Items::Own {
                bytes: Vec::new(),
                max_align: 1,
            };
        }
        let at = match &mut p.items {
            Items::Own {
                bytes: b,
                max_align,
            } if !p.written => {
                let at = align_up(b.len() as u64, align);
                b.resize(at as usize, 0);
                b.extend_from_slice(bytes);
                b.extend_from_slice(term);
                *max_align = (*max_align).max(align);
                Some(at)
            }
            _ => None,
        };
        let start = p.start;
        match at {
            Some(at) => Lin::at(start).plus(i128::from(at)),
            None => {
                self.give_up("an item queued after its region, or with another pool's kind");
                Lin::known(0)
            }
        }
    }
    /// Queues bytes of the model for `pool`, aligned to `align` (a power of two): its position.
    #[inline]
    pub fn push_borrowed(&mut self, pool: usize, bytes: &'m [u8], align: u64) -> Lin {
        let slot = self.slot();
        let p = self.pool(pool);
        if matches!(p.items, Items::None) {
            p.items = Items::Borrowed(Vec::new());
        }
        match &mut p.items {
            Items::Borrowed(items) if !p.written => {
                items.push((bytes, align, slot));
                Lin::at(slot)
            }
            _ => {
                self.give_up("an item queued after its region, or with another pool's kind");
                Lin::known(0)
            }
        }
    }
    /// Writes `f`: its value now where it has no positions left, else zeros and a fixup.
    #[inline]
    pub fn write(&mut self, w: &mut Writer, f: Fixup) {
        let known = f.value.value();
        let now = known.and_then(|v| Self::result(&f, v));
        let v = match (now, known) {
            (Some(v), _) => v,
            (None, Some(_)) => {
                self.give_up(
                    "a derived value that does not fit its field, or breaks a condition on it",
                );
                0
            }
            (None, None) => {
                self.fixups.push(Fixup { at: w.pos(), ..f });
                0
            }
        };
        // (Fixed widths write a fixed number of bytes: no call to copy or fill a variable length, which was a
        // tenth of a SARC write's time.)
        match f.width {
            2 => w.u16(v as u16, f.endian),
            4 => w.u32(v as u32, f.endian),
            8 => w.u64(v, f.endian),
            n if now.is_some() => {
                // (A width over 8 is refused by `fit`, so `result` gave nothing for it.)
                let _ = w.uint_n(v, usize::from(n), f.endian);
            }
            n => w.fill(usize::from(n), 0),
        }
    }
    /// The field's bytes for value `v`, where it divides and fits.
    #[inline]
    fn result(f: &Fixup, v: i128) -> Option<u64> {
        let v = match f.div {
            1 => v,
            0 => return None,
            d => match i64::try_from(v) {
                // (An i64 division: an i128 one is a call, a third of the time of applying a fixup.)
                Ok(v) => {
                    let d = i64::from(d);
                    if v % d != 0 {
                        return None;
                    }
                    i128::from(v / d)
                }
                Err(_) => {
                    let d = i128::from(d);
                    if v % d != 0 {
                        return None;
                    }
                    v / d
                }
            },
        };
        let v = fit(v | i128::from(f.or), f.width, f.signed)?;
        match (f.expect, v) {
            (Expect::NonZero, 0) => None,
            (Expect::Zero, 1..) => None,
            _ => Some(v),
        }
    }
    /// Makes room in the output for every region's items, the first time a region is written: every region's items
    /// are queued by then (a region comes after what points into it), and the output holds little.
    fn reserve(&mut self, w: &mut Writer) {
        self.reserved = true;
        let pending: usize = self
            .pools
            .iter()
            .flatten()
            .map(|p| match &p.items {
                Items::Own { bytes, max_align } => bytes.len() + *max_align as usize,
                Items::Borrowed(items) => items.iter().map(|(b, a, _)| b.len() + *a as usize).sum(),
                Items::None => 0,
            })
            .sum();
        w.reserve(pending);
    }
    /// Writes `pool`'s region at the writer's position, aligned to `align` first.
    pub fn flush(&mut self, pool: usize, w: &mut Writer, align: u64) {
        if !self.reserved {
            self.reserve(w);
        }
        w.align(align);
        let start = w.pos() as u64;
        self.pool(pool);
        let p = self.pools[pool].as_mut().expect("made by `pool`");
        if p.written {
            self.give_up("a region written twice");
            return;
        }
        p.written = true;
        let mut misaligned = false;
        let positions = &mut self.positions;
        positions[p.start.0 as usize] = start;
        match &p.items {
            Items::Own { bytes, max_align } => {
                w.bytes(bytes);
                misaligned = !start.is_multiple_of(*max_align);
            }
            Items::None => {}
            Items::Borrowed(items) => {
                for &(b, a, slot) in items {
                    w.align(a);
                    positions[slot.0 as usize] = w.pos() as u64;
                    w.bytes(b);
                }
            }
        }
        if misaligned {
            self.give_up(
                "a region of own items that does not start on a multiple of their alignment",
            );
        }
    }
    /// Applies the fixups; whether the bytes are the ones the passes would write (if not, the caller writes with
    /// the passes, and the reason is [`OnePass::fallback`]).
    pub fn finish(&mut self, w: &mut Writer) -> bool {
        if self.fallback.is_some() {
            return false;
        }
        self.positions[END.0 as usize] = w.pos() as u64;
        for f in &self.fixups {
            let Some(v) = f
                .value
                .eval(&self.positions)
                .and_then(|v| Self::result(f, v))
            else {
                self.fallback = Some(
                    "a fixup whose positions are unknown, or whose value does not fit, divide or meet its condition",
                );
                return false;
            };
            // (Fixed widths copy a fixed number of bytes: no call to copy a variable length.)
            match f.width {
                2 => w.patch_u16(f.at, v as u16, f.endian),
                4 => w.patch_u32(f.at, v as u32, f.endian),
                8 => w.patch_u64(f.at, v, f.endian),
                n => w.patch_uint_n(f.at, v, usize::from(n), f.endian),
            }
        }
        true
    }
    /// Why the pass cannot give the passes' bytes, if it cannot.
    pub fn fallback(&self) -> Option<&'static str> {
        self.fallback
    }
}

#[cfg(test)]
mod tests;
