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
pub mod read;
pub mod write;

pub use error::{Error, ErrorKind, Result, ResultExt};
pub use format::{Archive, DocFormat, DynFormat, Format, FormatHandle, Info, MaybeArchive};
pub use read::Reader;
pub use write::{align_up, Writer};

/// Byte order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
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
        Error::write(format!("value {v} does not fit in the field's type ({})", std::any::type_name::<T>()))
            .at(field)
    })
}
