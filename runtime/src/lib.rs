//! The runtime under binspec's generated readers and writers, and the API their users work with.
//!
//! binspec generates Rust from `.ksy` schemas; `binspec-formats` is that code for game formats, and its models
//! stand on this crate. A user of `binspec-formats` meets:
//!
//! - [`Error`] and [`Result`]: every read, write and text conversion fails with an [`Error`] that names the field
//!   path (`sarc.sfat.entries[3].data_end`), the byte offset in the file where one applies, and an [`ErrorKind`].
//! - [`Format`]: what every format implements (`from_binary`, `to_binary`, `info`, and the text methods);
//!   [`Archive`] for formats that hold named files; [`DynFormat`], the object-safe face that tools use to treat
//!   all formats alike (`binspec_formats::registry()`).
//! - `compress` (feature `compress`): Yaz0 and zstd, which game files come wrapped in, safe on hostile input;
//!   [`Packed`], a format's value with the compression of its file ([`Packing`]), read and written back alike.
//! - The text forms (feature `text`): a model as YAML or JSON through `Format::to_text` and its siblings,
//!   `DocFormat`, and the `doc` module's loaders, whose limits grow with the document.
//! - [`Bytes`], [`Str`] and [`Endian`], which models hold; an archive's `view_files`, its files borrowed from
//!   the input without building the model.
//!
//! Everything else is public only because generated code in other crates calls it, and is hidden from these
//! docs: the reader and writer (`Reader`, `Writer`, the modules `read`, `write` and `layout`), `process`, `hash`,
//! `bytes`, `text` (string encodings), `expr`, `fit`, and the macros `impl_binrw!` and `impl_archive_dyn!`. It
//! may change in any release.
//!
//! # Features
//!
//! - `compress` (default): the `compress` module and the zlib of `process: zlib` schemas; builds zstd (with its C
//!   library) and flate2.
//! - `text` (default): YAML and JSON (the `doc` module, `DocFormat`, and the methods of [`Format`] and
//!   [`DynFormat`] that read or write text, which do not exist without it); builds serde-saphyr, serde_json and
//!   strsim.
//! - `encodings` (default): string encodings other than UTF-8, UTF-16 and Latin-1 (Shift-JIS, code page 437, the
//!   Windows code pages); builds encoding_rs and oem_cp. Without it, such a string fails to read or write with
//!   an error that names the feature.
#![warn(missing_docs)]

// Hidden modules: generated code names them (`::binspec_runtime::layout::WriteCtx`, `#[serde(with =
// "::binspec_runtime::bytes")]`, ...), so they are public, but a user never needs them.
mod archive;
#[doc(hidden)]
pub mod bytes;
#[cfg(feature = "compress")]
pub mod compress;
#[cfg(feature = "text")]
pub mod doc;
pub mod error;
pub mod format;
#[doc(hidden)]
pub mod hash;
#[doc(hidden)]
pub mod layout;
#[cfg(feature = "compress")]
mod packed;
#[doc(hidden)]
pub mod process;
#[doc(hidden)]
pub mod read;
#[doc(hidden)]
pub mod records;
#[cfg(feature = "text")]
pub mod text_floats;
#[doc(hidden)]
pub mod write;

/// The shared byte buffer that generated models keep bytes in: decoding from a [`Bytes`] input
/// ([`Format::from_bytes`]) shares it instead of copying, and cloning one is cheap.
pub use ::bytes::Bytes;
/// The string type of every model (generated ones and BYML's tree): `compact_str::CompactString`, which keeps up
/// to 24 bytes inline, without an allocation (most names in game files are that short). It dereferences to `str`;
/// make one with `"name".into()` or `String::into()`.
pub use ::compact_str::CompactString as Str;
pub use archive::{Archive, ArchiveEntry, ArchiveFile, ArchiveFiles, EntryKey};
pub use error::{Error, ErrorKind, Result, ResultExt, Seg};
#[cfg(feature = "text")]
pub use format::DocFormat;
pub use format::{DynFormat, Format, FormatHandle, Info, MaybeArchive};
#[cfg(feature = "compress")]
pub use packed::{Packed, Packing};
// Generated code only: what a format's `view_files` returns (as `impl ExactSizeIterator`).
#[doc(hidden)]
pub use read::ViewFiles;
// Generated code only: the stream it reads from and the writer it writes to.
#[doc(hidden)]
pub use read::Reader;
#[doc(hidden)]
pub use write::{
    align_up, check_case, check_scan, check_term, check_until, write_slot, write_slot_exact,
    write_slot_filled, Writer,
};

/// Byte order of a file (or of a field whose schema sets `endian`). It serializes as `little` or `big`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Endian {
    /// Least significant byte first.
    Little,
    /// Most significant byte first.
    Big,
}

impl Endian {
    /// `little` or `big`, as `Display` prints it.
    pub fn name(self) -> &'static str {
        match self {
            Endian::Little => "little",
            Endian::Big => "big",
        }
    }
}

impl std::fmt::Display for Endian {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Checks that a value computed by a writer fits the field it goes into: an [`ErrorKind::Write`] names the field
/// and the type when it does not.
// Generated code only (writers call it for each derived value).
#[doc(hidden)]
#[inline]
pub fn fit<T: TryFrom<i128>>(v: i128, field: &'static str) -> Result<T> {
    // The caller's error context names the field in the path; the message names it too, not the path again
    // (issue 19: `sarc.file_size.file_size`).
    T::try_from(v).map_err(|_| {
        Error::write(format!(
            "value {v} does not fit in `{field}` ({})",
            std::any::type_name::<T>()
        ))
    })
}

/// Checks that a value fits a bit field of `bits` bits (`b3`: 0 to 7), as [`fit`] does for byte-sized integers: a
/// writer that kept only the low bits would write a file that reads back as another value.
// Generated code only (writers call it for each bit field).
#[doc(hidden)]
#[inline]
pub fn fit_bits(v: i128, bits: u32, field: &'static str) -> Result<u64> {
    if bits <= 64 && (0..1i128 << bits).contains(&v) {
        return Ok(v as u64);
    }
    Err(Error::write(format!(
        "value {v} does not fit in `{field}` ({bits} bits: 0 to {})",
        (1u128 << bits.min(64)) - 1
    )))
}

#[cfg(test)]
#[test]
fn bit_fields_fit() {
    assert_eq!(fit_bits(7, 3, "flags").unwrap(), 7);
    assert_eq!(fit_bits(u64::MAX as i128, 64, "all").unwrap(), u64::MAX);
    assert_eq!(
        fit_bits(8, 3, "flags").unwrap_err().to_string(),
        "value 8 does not fit in `flags` (3 bits: 0 to 7)"
    );
    assert!(fit_bits(-1, 3, "flags").is_err());
}

// Generated code only: strings in the encodings schemas name (`encoding: SJIS`).
#[doc(hidden)]
pub mod text;

/// Implements binrw's `BinRead` and `BinWrite` for a generated format, so it fits code built on binrw. Reading
/// takes the rest of the stream (a format's offsets are relative to its start).
// Generated code only: it calls this for each format (the crate that calls it depends on binrw).
#[doc(hidden)]
#[macro_export]
macro_rules! impl_binrw {
    ($t:ty) => {
        impl ::binrw::BinRead for $t {
            type Args<'a> = ();
            fn read_options<Reader__: ::std::io::Read + ::std::io::Seek>(
                reader: &mut Reader__,
                _endian: ::binrw::Endian,
                _args: (),
            ) -> ::binrw::BinResult<Self> {
                let pos = reader.stream_position()?;
                let mut buf = ::std::vec::Vec::new();
                reader.read_to_end(&mut buf)?;
                <$t as $crate::Format>::from_binary(&buf).map_err(|e| ::binrw::Error::Custom {
                    pos,
                    err: ::std::boxed::Box::new(e),
                })
            }
        }
        impl ::binrw::BinWrite for $t {
            type Args<'a> = ();
            fn write_options<Writer__: ::std::io::Write + ::std::io::Seek>(
                &self,
                writer: &mut Writer__,
                _endian: ::binrw::Endian,
                _args: (),
            ) -> ::binrw::BinResult<()> {
                let pos = writer.stream_position()?;
                // Written as `Format::write_to` writes it (an archive's files from the model); an error of the
                // writer stays an I/O error.
                <$t as $crate::Format>::write_to(self, writer).map_err(|e| match e.to_io() {
                    Some(io) => ::binrw::Error::Io(io),
                    None => ::binrw::Error::Custom {
                        pos,
                        err: ::std::boxed::Box::new(e),
                    },
                })
            }
        }
    };
}

/// Runs `f`: generated code writes a field in a closure, so that the field's name (`.at(..)`) is given to every
/// error in it, and calls it here rather than where it is declared.
#[doc(hidden)]
#[inline]
pub fn attempt<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    f()
}

/// A `-scan` field the writer checks once what follows it is written: where it starts and ends, its tags, step,
/// whether it may end at the end of the stream, and its name.
#[doc(hidden)]
pub type ScanCheck<'a> = (usize, usize, &'a [&'a [u8]], usize, bool, &'static str);

/// Integer operations of the expression language, on `i128`, that never panic.
// Generated code only (translated Kaitai expressions).
#[doc(hidden)]
pub mod expr {
    /// Division rounding towards negative infinity (as Kaitai's `/`); dividing by 0 is an error (Kaitai's
    /// `ZeroDivisionError`), never a made-up value.
    #[inline]
    pub fn div(a: i128, b: i128) -> crate::Result<i128> {
        if b == 0 {
            return Err(by_zero(a, "/"));
        }
        let q = a.wrapping_div(b);
        Ok(if (a.wrapping_rem(b) != 0) && ((a < 0) != (b < 0)) {
            q - 1
        } else {
            q
        })
    }
    /// Modulo with the sign of the divisor (as Kaitai's `%`); dividing by 0 is an error.
    #[inline]
    pub fn modulo(a: i128, b: i128) -> crate::Result<i128> {
        if b == 0 {
            return Err(by_zero(a, "%"));
        }
        let r = a.wrapping_rem(b);
        Ok(if r != 0 && ((r < 0) != (b < 0)) {
            r + b
        } else {
            r
        })
    }
    /// Element `i` of an array (or a byte of bytes): an index out of range is an error (Kaitai's
    /// `IndexOutOfBounds`), never a made-up value.
    #[inline]
    pub fn at<T, A: AsRef<[T]> + ?Sized>(xs: &A, i: i128) -> crate::Result<&T> {
        let xs = xs.as_ref();
        usize::try_from(i)
            .ok()
            .and_then(|u| xs.get(u))
            .ok_or_else(|| {
                crate::Error::other(format!(
                    "index {i} is out of range (the array has {})",
                    xs.len()
                ))
            })
    }
    /// An optional value of the model, or its type's default where it is absent, borrowed where it is present:
    /// generated code names a field of an optional record (`body.as<res_file>.strings`) without copying the
    /// record (`(*or_default(&x))`).
    #[inline]
    pub fn or_default<T: Clone + Default>(x: &Option<T>) -> std::borrow::Cow<'_, T> {
        match x {
            Some(v) => std::borrow::Cow::Borrowed(v),
            None => std::borrow::Cow::Owned(T::default()),
        }
    }
    #[cold]
    fn by_zero(a: i128, op: &str) -> crate::Error {
        crate::Error::other(format!("{a} {op} 0: division by zero"))
    }
    /// A value held as bytes (a slice, a `Vec<u8>`, [`Bytes`](crate::Bytes)) borrowed as a slice, whichever it
    /// is: generated code names a local this way where it does not know which.
    #[inline]
    pub fn bytes<B: AsRef<[u8]> + ?Sized>(b: &B) -> &[u8] {
        b.as_ref()
    }
    /// An array of integers of any width, as the `i128`s a param `type: u2[]` (or any integer array) takes.
    pub fn ints<T: Copy + Into<i128>>(v: &[T]) -> Vec<i128> {
        v.iter().map(|x| (*x).into()).collect()
    }
    /// An array of floats, as the `f64`s a param `type: f4[]` takes.
    pub fn floats<T: Copy + Into<f64>>(v: &[T]) -> Vec<f64> {
        v.iter().map(|x| (*x).into()).collect()
    }
    /// An array of booleans, as a param `type: bool[]` takes it.
    pub fn bools(v: &[bool]) -> Vec<bool> {
        v.to_vec()
    }
    /// An array of strings (owned or borrowed), as the `String`s a param `type: str[]` takes.
    pub fn strs<S: AsRef<str>>(v: &[S]) -> Vec<String> {
        v.iter().map(|s| s.as_ref().to_owned()).collect()
    }
    /// An array of byte strings, as the `Vec<u8>`s a param `type: bytes[]` takes.
    pub fn byte_arrays<B: AsRef<[u8]>>(v: &[B]) -> Vec<Vec<u8>> {
        v.iter().map(|b| b.as_ref().to_vec()).collect()
    }
    /// A string's integer (`to_i`, `to_i(radix)`): the whole string, an optional sign and digits of the radix
    /// (2 to 36). Anything else is an error, as in Kaitai (`ConversionError`), rather than a made-up value.
    pub fn to_i(s: &str, radix: i128) -> crate::Result<i128> {
        let r = u32::try_from(radix).ok().filter(|r| (2..=36).contains(r));
        let Some(r) = r else {
            return Err(crate::Error::other(format!(
                "to_i: radix {radix} is not between 2 and 36"
            )));
        };
        i128::from_str_radix(s, r).map_err(|e| {
            crate::Error::other(format!("to_i: {s:?} is not an integer in base {r} ({e})"))
        })
    }
    /// `a << b`, 0 when the shift is out of range.
    #[inline]
    pub fn shl(a: i128, b: i128) -> i128 {
        u32::try_from(b)
            .ok()
            .and_then(|b| a.checked_shl(b))
            .unwrap_or(0)
    }
    /// `a >> b` (arithmetic), filling with the sign when the shift is out of range.
    #[inline]
    pub fn shr(a: i128, b: i128) -> i128 {
        match u32::try_from(b).ok().filter(|b| *b < 128) {
            Some(b) => a >> b,
            None if a < 0 => -1,
            None => 0,
        }
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn string_to_integer() {
            use super::to_i;
            assert_eq!(to_i("-42", 10).unwrap(), -42);
            assert_eq!(to_i("+7f", 16).unwrap(), 0x7f);
            assert_eq!(to_i("9173abc", 16).unwrap(), 0x9173abc);
            let e = to_i("9173abc", 10).unwrap_err().to_string();
            assert!(
                e.contains("\"9173abc\" is not an integer in base 10"),
                "{e}"
            );
            assert!(to_i("", 10).is_err());
            assert!(to_i("123_.^", 10).is_err());
            // A radix from a file may be anything: an error, never a panic.
            for r in [-1, 0, 1, 37, 1 << 40] {
                let e = to_i("1", r).unwrap_err().to_string();
                assert!(
                    e.contains(&format!("radix {r} is not between 2 and 36")),
                    "{e}"
                );
            }
        }
        #[test]
        fn floor_division() {
            use super::{div, modulo};
            assert_eq!(div(-7, 2).unwrap(), -4);
            assert_eq!(div(7, 2).unwrap(), 3);
            assert_eq!(div(7, -2).unwrap(), -4);
            assert_eq!(modulo(-7, 2).unwrap(), 1);
            assert_eq!(modulo(7, -2).unwrap(), -1);
            let e = div(1, 0).unwrap_err().to_string();
            assert!(e.contains("1 / 0: division by zero"), "{e}");
            assert!(modulo(1, 0).is_err());
            // Products wrap, so the one quotient that overflows can be reached: it wraps too, never panics.
            assert_eq!(div(i128::MIN, -1).unwrap(), i128::MIN);
            assert_eq!(modulo(i128::MIN, -1).unwrap(), 0);
            assert_eq!(super::shl(1, 200), 0);
            assert_eq!(super::shr(-8, 1), -4);
        }
    }
}
