//! Repetitions of fixed-size records: elements that are a few numbers each (a `u4` array, or a record of `u4`s
//! like the resource size table's CRC entries), read and written as whole `[u8; N]` records.
//!
//! Read one field at a time, such an element costs a bounds check, a store of the reader's position and a branch
//! on the byte order per field, and an error path per element. Where the whole repetition is in the input, the
//! generated reader takes it at once ([`crate::Reader::records`]) and decodes each record from its array
//! ([`decode`], [`get`]); the generated writer makes each element's array ([`put`]) and writes them all at once
//! ([`crate::Writer::records`]). Where the input is cut short, the reader reads element by element as before, so
//! that the error names the element and field where the input ends.

use crate::Endian;

/// A number that a record holds: read from and written to its bytes in a byte order.
pub trait Num: Copy {
    /// Its size in bytes.
    const SIZE: usize;
    /// The number at `at` of `b`.
    fn get(b: &[u8], at: usize, e: Endian) -> Self;
    /// Writes the number at `at` of `b`.
    fn put(self, b: &mut [u8], at: usize, e: Endian);
}

macro_rules! num {
    ($($t:ty),*) => {$(
        impl Num for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            #[inline(always)]
            fn get(b: &[u8], at: usize, e: Endian) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(&b[at..at + Self::SIZE]);
                match e {
                    Endian::Little => <$t>::from_le_bytes(a),
                    Endian::Big => <$t>::from_be_bytes(a),
                }
            }
            #[inline(always)]
            fn put(self, b: &mut [u8], at: usize, e: Endian) {
                let a = match e {
                    Endian::Little => self.to_le_bytes(),
                    Endian::Big => self.to_be_bytes(),
                };
                b[at..at + Self::SIZE].copy_from_slice(&a);
            }
        }
    )*};
}
num!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

/// The number of type `T` at `at` of a record (which generated code knows to hold it).
#[inline(always)]
pub fn get<T: Num>(b: &[u8], at: usize, e: Endian) -> T {
    T::get(b, at, e)
}

/// Writes `v` at `at` of a record.
#[inline(always)]
pub fn put<T: Num>(b: &mut [u8], at: usize, v: T, e: Endian) {
    v.put(b, at, e)
}

/// Decodes each record with `f` and appends the elements to `out`. The byte order is matched once, outside the
/// loop, so that `f` (inlined) sees a constant one.
#[inline(always)]
pub fn decode<const N: usize, T>(
    recs: &[[u8; N]],
    e: Endian,
    out: &mut Vec<T>,
    f: impl Fn(&[u8; N], Endian) -> T,
) {
    match e {
        Endian::Little => out.extend(recs.iter().map(|b| f(b, Endian::Little))),
        Endian::Big => out.extend(recs.iter().map(|b| f(b, Endian::Big))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Reader, Writer};

    #[test]
    fn numbers_round_trip_in_both_orders() {
        let mut b = [0u8; 15];
        for e in [Endian::Little, Endian::Big] {
            put(&mut b, 0, 0x0102_0304u32, e);
            put(&mut b, 4, -2i16, e);
            put(&mut b, 6, 1.5f64, e);
            put(&mut b, 14, 7u8, e);
            assert_eq!(get::<u32>(&b, 0, e), 0x0102_0304);
            assert_eq!(get::<i16>(&b, 4, e), -2);
            assert_eq!(get::<f64>(&b, 6, e), 1.5);
            assert_eq!(get::<u8>(&b, 14, e), 7);
        }
        put(&mut b, 0, 0x0102_0304u32, Endian::Big);
        assert_eq!(b[..4], [1, 2, 3, 4]);
    }

    #[test]
    fn records_are_taken_whole_or_not_at_all() {
        let data: Vec<u8> = (0..10).collect();
        let mut r = Reader::new(&data);
        r.u8().unwrap();
        // 9 bytes remain: two records of 4, not three.
        assert!(r.records::<4>(3).is_none());
        assert_eq!(r.pos(), 1, "a refused take does not move");
        let recs = r.records::<4>(2).unwrap();
        assert_eq!(recs, &[[1, 2, 3, 4], [5, 6, 7, 8]]);
        assert_eq!(r.pos(), 9);
        assert!(r.records::<4>(u64::MAX).is_none());
        assert_eq!(r.records::<4>(0).unwrap().len(), 0);
        // To the end: only when the rest divides into records.
        assert!(r.records_eos::<2>().is_none());
        assert_eq!(r.records_eos::<1>().unwrap(), &[[9]]);
        assert!(r.is_eof());
        assert_eq!(r.records_eos::<4>().unwrap().len(), 0);
    }

    #[test]
    fn decoded_and_written_records_match_field_by_field() {
        let data: Vec<u8> = (0..16).collect();
        for e in [Endian::Little, Endian::Big] {
            let mut r = Reader::new(&data);
            let mut out = Vec::new();
            decode(r.records::<8>(2).unwrap(), e, &mut out, |b, e| {
                (get::<u32>(b, 0, e), get::<u32>(b, 4, e))
            });
            let mut one = Reader::new(&data);
            let each: Vec<(u32, u32)> = (0..2)
                .map(|_| (one.u32(e).unwrap(), one.u32(e).unwrap()))
                .collect();
            assert_eq!(out, each);
            let mut w = Writer::new();
            w.u8(0xaa);
            w.records(out.iter(), e, |x, e| {
                let mut b = [0u8; 8];
                put(&mut b, 0, x.0, e);
                put(&mut b, 4, x.1, e);
                b
            });
            assert_eq!(w.as_slice()[0], 0xaa);
            assert_eq!(&w.as_slice()[1..], &data[..]);
            let mut s = Writer::sizing();
            s.records(out.iter(), e, |_, _| [0u8; 8]);
            assert_eq!(s.pos(), 16);
        }
    }
}
