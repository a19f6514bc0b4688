//! The small hand-written runtime under binspec's generated readers and writers.
//!
//! Generated code reads through [`Reader`] (bounds-checked, errors with field paths and absolute offsets) and
//! writes through [`Writer`] (alignment, back-patching). [`Format`] is what every generated format implements;
//! [`DynFormat`] is its object-safe face, which the CLI uses to treat all formats alike.

pub mod bytes;
pub mod compress;
pub mod error;
pub mod format;
pub mod hash;
pub mod layout;
pub mod read;
pub mod write;

pub use error::{Error, ErrorKind, Result, ResultExt};
pub use format::{Archive, DocFormat, DynFormat, Format, FormatHandle, Info, MaybeArchive};
pub use read::Reader;
pub use write::{align_up, Writer};

/// Byte order.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Endian {
    Little,
    Big,
}

impl Endian {
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

/// Checks that a value computed by a writer fits the field it goes into.
#[inline]
pub fn fit<T: TryFrom<i128>>(v: i128, field: &'static str) -> Result<T> {
    T::try_from(v).map_err(|_| {
        Error::write(format!(
            "value {v} does not fit in the field's type ({})",
            std::any::type_name::<T>()
        ))
        .at(field)
    })
}

pub mod text;

/// Implements binrw's `BinRead` and `BinWrite` for a generated format, so it fits code built on binrw. Reading
/// takes the rest of the stream (a format's offsets are relative to its start).
#[macro_export]
macro_rules! impl_binrw {
    ($t:ty) => {
        impl ::binrw::BinRead for $t {
            type Args<'a> = ();
            fn read_options<R: ::std::io::Read + ::std::io::Seek>(
                reader: &mut R,
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
            fn write_options<W: ::std::io::Write + ::std::io::Seek>(
                &self,
                writer: &mut W,
                _endian: ::binrw::Endian,
                _args: (),
            ) -> ::binrw::BinResult<()> {
                let pos = writer.stream_position()?;
                let bytes = <$t as $crate::Format>::to_binary(self).map_err(|e| {
                    ::binrw::Error::Custom {
                        pos,
                        err: ::std::boxed::Box::new(e),
                    }
                })?;
                writer.write_all(&bytes)?;
                Ok(())
            }
        }
    };
}
