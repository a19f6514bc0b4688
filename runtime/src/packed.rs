//! A format's value together with the compression of the file it came from ([`Packed`]), so that a tool opens a
//! `.szs` or `.zs` file the way it opens a plain one and writes it back compressed the same way.

use crate::compress::{self, Compression};
use crate::{Format, Result};

/// How data is compressed, with what it takes to compress it again the same way: the alignment a Yaz0 header
/// records, the level for zstd (a zstd frame does not record its level: data read from one is given
/// [`compress::ZSTD_LEVEL`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Packing {
    /// Not compressed.
    #[default]
    None,
    /// Nintendo's Yaz0 (`.szs`), with the alignment its header records (0 in most files; 0x80 or 0x1000 in some
    /// archives, the alignment the game allocates the decompressed data with).
    Yaz0 {
        /// The alignment field of the header.
        alignment: u32,
    },
    /// A zstd frame (`.zs`), compressed at `level`.
    Zstd {
        /// The compression level, 1 to 22.
        level: i32,
    },
}

impl Packing {
    /// How `data` is compressed, from its magic bytes (and a Yaz0 header's alignment).
    pub fn detect(data: &[u8]) -> Packing {
        match compress::detect(data) {
            Compression::None => Packing::None,
            Compression::Yaz0 => Packing::Yaz0 {
                alignment: compress::yaz0_header(data).map_or(0, |h| h.alignment),
            },
            Compression::Zstd => Packing::Zstd {
                level: compress::ZSTD_LEVEL,
            },
        }
    }

    /// Undoes the compression [`Packing::detect`] finds in `data`, within the default limit on the decompressed
    /// size ([`compress::default_limit`]): the bytes, and how to compress them again. Data that is not compressed
    /// comes back as it is (copied).
    ///
    /// # Errors
    /// Corrupt or truncated compressed data, or more than the limit once decompressed ([`crate::ErrorKind::Limit`]).
    pub fn unpack(data: &[u8]) -> Result<(Vec<u8>, Packing)> {
        let packing = Packing::detect(data);
        let (bytes, _) = compress::decompress_limited(data, compress::default_limit(data.len()))?;
        Ok((bytes, packing))
    }

    /// Compresses `data` this way ([`Packing::None`] copies it).
    ///
    /// # Errors
    /// Data too large for the format (Yaz0 stores its size in 32 bits), or a zstd level zstd refuses.
    pub fn pack(self, data: &[u8]) -> Result<Vec<u8>> {
        match self {
            Packing::None => Ok(data.to_vec()),
            Packing::Yaz0 { alignment } => compress::compress_yaz0(data, alignment),
            Packing::Zstd { level } => compress::compress_zstd(data, level),
        }
    }
}

/// A format's value and how the file it came from was compressed: [`Packed::from_binary`] reads compressed and
/// plain files alike, and [`Packed::to_binary`] writes the value back compressed the same way (Yaz0 with the same
/// header alignment, zstd at the recorded level). It dereferences to the value, so its methods are at hand.
///
/// ```no_run
/// # #[cfg(feature = "compress")] {
/// use binspec_runtime::{Packed, Format};
/// # fn edit<T: Format>(bytes: &[u8]) -> binspec_runtime::Result<Vec<u8>> {
/// let value: Packed<T> = Packed::from_binary(bytes)?; // a `.szs`, a `.zs` or a plain file
/// // ... edit `value` as a `T` ...
/// value.to_binary() // compressed as the input was
/// # }
/// # }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Packed<T> {
    /// The value.
    pub value: T,
    /// How the file was compressed, and how [`Packed::to_binary`] compresses it: change it to write it otherwise.
    pub packing: Packing,
}

impl<T: Format> Packed<T> {
    /// A value to be written uncompressed.
    pub fn new(value: T) -> Self {
        Packed {
            value,
            packing: Packing::None,
        }
    }

    /// Reads `data`, compressed ([`Packing::detect`]) or not.
    ///
    /// # Errors
    /// As [`Packing::unpack`] for the compression, then as [`Format::from_binary`] for the bytes inside.
    pub fn from_binary(data: &[u8]) -> Result<Self> {
        let (bytes, packing) = Packing::unpack(data)?;
        let value = T::from_bytes(bytes.into())?;
        Ok(Packed { value, packing })
    }

    /// Writes the value and compresses it as [`Packed::packing`] says.
    ///
    /// # Errors
    /// As [`Format::to_binary`], then as [`Packing::pack`].
    pub fn to_binary(&self) -> Result<Vec<u8>> {
        let bytes = self.value.to_binary()?;
        match self.packing {
            Packing::None => Ok(bytes),
            p => p.pack(&bytes),
        }
    }

    /// The value, without its packing.
    pub fn into_inner(self) -> T {
        self.value
    }
}

impl<T> std::ops::Deref for Packed<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> std::ops::DerefMut for Packed<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.value
    }
}
