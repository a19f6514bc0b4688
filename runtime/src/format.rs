//! What every generated format implements, and an object-safe face for tools that treat all formats alike.

use std::marker::PhantomData;

use serde::{de::DeserializeOwned, Serialize};

#[cfg(feature = "text")]
use crate::Error;
use crate::{Endian, Result};

/// A short description of a decoded file, for `binspec info`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Info {
    /// The format id, e.g. `sarc`.
    pub format: &'static str,
    /// The file's version as the format numbers it (`0x407`), where it has one.
    pub version: Option<String>,
    /// The file's byte order, where the format has a choice.
    pub endian: Option<Endian>,
    /// Further label/value pairs (counts, sizes).
    pub summary: Vec<(String, String)>,
}

impl Info {
    /// A summary value that evaluating may fail (a division by zero in the schema's expression): its text, or the
    /// error in parentheses. Generated `info()` uses it.
    #[doc(hidden)]
    pub fn value(f: impl FnOnce() -> Result<String>) -> String {
        f().unwrap_or_else(|e| format!("({e})"))
    }
}

/// Text forms of a decoded document.
#[cfg(feature = "text")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocFormat {
    /// YAML ([`Format::to_text`], [`Format::from_text`]).
    Yaml,
    /// JSON ([`Format::to_json`], [`Format::from_json`]).
    Json,
}

/// A format whose model can be read from and written to bytes, and (with the `text` feature) to and from text.
///
/// Every method that fails returns an [error](crate::Error) whose `Display` is `path: message`: reads name the field and the
/// byte offset, writes name the field whose value cannot be written, text names the line and column.
pub trait Format: Sized + Serialize + DeserializeOwned {
    /// Short id, as used by `--format` and printed by `info` (`sarc`).
    const ID: &'static str;
    /// Human title.
    const TITLE: &'static str;
    /// Usual file extensions, without dots.
    const EXTENSIONS: &'static [&'static str];

    /// Whether `data` looks like this format (magic bytes).
    fn sniff(data: &[u8]) -> bool;
    /// Reads a model from bytes; the model does not borrow `data`. Fails when `data` is not this format or breaks
    /// it: too short ([`ErrorKind::Eof`](crate::ErrorKind::Eof)), wrong magic
    /// ([`Contents`](crate::ErrorKind::Contents)), a failed check ([`Invalid`](crate::ErrorKind::Invalid)), or
    /// counts and sizes that would exhaust memory ([`Limit`](crate::ErrorKind::Limit)). A generated format whose model keeps raw bytes
    /// (an archive's files) copies `data` once and reads it as [`Format::from_bytes`] does, so those bytes share
    /// the copy: one allocation instead of one per field. A field kept after the rest of the model is dropped keeps
    /// the whole copy alive; `Bytes::copy_from_slice` detaches it.
    ///
    /// A file whose layout the writer does not reproduce (items that share bytes, come out of order or follow
    /// gaps) is read as the file the writer makes of it, so that its layout choices hold for what
    /// [`Format::to_binary`] writes.
    fn from_binary(data: &[u8]) -> Result<Self>;
    /// Reads a model from a shared buffer: bytes the model keeps share `data` instead of being copied (cloning a
    /// [`crate::Bytes`] only counts a reference). Read a file into a `Vec<u8>` and pass `Bytes::from(vec)`.
    /// Formats without such bytes just read it as [`Format::from_binary`] does.
    fn from_bytes(data: crate::Bytes) -> Result<Self> {
        Self::from_binary(&data)
    }
    /// Writes the model, computing every derived value (sizes, offsets, counts, hashes). Fails with
    /// [`ErrorKind::Write`](crate::ErrorKind::Write) when a value does not fit its field or the model contradicts
    /// itself.
    fn to_binary(&self) -> Result<Vec<u8>>;
    /// Writes the model to `out`, as [`Format::to_binary`] makes it. A generated format whose model keeps large raw
    /// bytes (an archive's files) writes them to `out` from the model, without a copy of the whole file in memory;
    /// an error of `out` is [`ErrorKind::Io`](crate::ErrorKind::Io). What `out` has received when an error comes
    /// is not a whole file: write to a temporary file and rename it.
    fn write_to(&self, out: &mut dyn std::io::Write) -> Result<()> {
        let bytes = self.to_binary()?;
        out.write_all(&bytes).map_err(crate::Error::io)
    }
    /// A short description, for `binspec info`.
    fn info(&self) -> Info;

    /// The model as YAML. Fails ([`ErrorKind::Text`](crate::ErrorKind::Text)) only for values YAML cannot hold,
    /// as a NaN other than the one `.nan` reads back as ([`crate::text_floats`]).
    #[cfg(feature = "text")]
    fn to_text(&self) -> Result<String> {
        crate::text_floats::refuse_inexact(self, crate::text_floats::Text::Yaml)?;
        serde_saphyr::to_string(self).map_err(|e| Error::text(e.to_string()))
    }
    /// A model from YAML, as [`Format::to_text`] writes it. Fails ([`ErrorKind::Text`](crate::ErrorKind::Text),
    /// with the line and column) on YAML that does not describe a model, and on documents too large to load.
    #[cfg(feature = "text")]
    fn from_text(text: &str) -> Result<Self> {
        crate::doc::from_yaml(text)
    }
    /// The model as JSON (pretty-printed). Fails ([`ErrorKind::Text`](crate::ErrorKind::Text)) only for values
    /// JSON cannot hold: a NaN or an infinite float among them ([`crate::text_floats`]; `serde_json` alone would
    /// write `null`).
    #[cfg(feature = "text")]
    fn to_json(&self) -> Result<String> {
        crate::text_floats::refuse_inexact(self, crate::text_floats::Text::Json)?;
        serde_json::to_string_pretty(self).map_err(|e| Error::text(e.to_string()))
    }
    /// A model from JSON, as [`Format::to_json`] writes it. Fails ([`ErrorKind::Text`](crate::ErrorKind::Text))
    /// on JSON that does not describe a model.
    #[cfg(feature = "text")]
    fn from_json(text: &str) -> Result<Self> {
        crate::doc::from_json(text)
    }
}

/// Whether bytes survive a round trip as a value: if `data` decodes, its value encodes (or fails with an error),
/// what it encodes to decodes to an equal value (by `PartialEq`, or by `Debug` so that NaN equals NaN) and encodes
/// to the same bytes again. `Ok(false)` when `data` does not decode at all; `Err` says which step broke. This is the
/// property the fuzz targets check.
pub fn check_value_round_trip<F: Format + PartialEq + std::fmt::Debug>(
    data: &[u8],
) -> std::result::Result<bool, String> {
    let Ok(a) = F::from_binary(data) else {
        return Ok(false);
    };
    let Ok(bytes) = a.to_binary() else {
        return Ok(true);
    };
    let b =
        F::from_binary(&bytes).map_err(|e| format!("the writer's output does not decode: {e}"))?;
    if a != b && format!("{a:?}") != format!("{b:?}") {
        return Err(format!(
            "decode, encode, decode changed the value:\n first: {a:?}\nsecond: {b:?}"
        ));
    }
    let again = b
        .to_binary()
        .map_err(|e| format!("a value that encoded once does not encode again: {e}"))?;
    if again != bytes {
        return Err("the second encoding differs from the first".into());
    }
    Ok(true)
}

pub use crate::archive::{Archive, ArchiveEntry, EntryKey};

/// Named files, as an archive holds them.
pub type Files = Vec<(String, Vec<u8>)>;

/// An archive's files, each with its key.
pub type Entries = Vec<(EntryKey, Vec<u8>)>;

/// The object-safe face of a [`Format`], for tools that handle every format alike (a list of
/// `&'static dyn DynFormat`). [`FormatHandle`] implements it. Its methods fail as the [`Format`] methods they
/// call do.
pub trait DynFormat: Send + Sync {
    /// [`Format::ID`].
    fn id(&self) -> &'static str;
    /// [`Format::TITLE`].
    fn title(&self) -> &'static str;
    /// [`Format::EXTENSIONS`].
    fn extensions(&self) -> &'static [&'static str];
    /// [`Format::sniff`].
    fn sniff(&self, data: &[u8]) -> bool;
    /// Reads `data` and describes it ([`Format::info`]).
    fn info(&self, data: &[u8]) -> Result<Info>;
    /// Bytes to the document in text form.
    #[cfg(feature = "text")]
    fn decode(&self, data: &[u8], doc: DocFormat) -> Result<String>;
    /// A document in text form to bytes.
    #[cfg(feature = "text")]
    fn encode(&self, text: &str, doc: DocFormat) -> Result<Vec<u8>>;
    /// [`DynFormat::encode`], writing the bytes to `out` as [`Format::write_to`] does (an archive's files go to
    /// `out` from the model). A failure of the model comes before anything is written; one of `out` is
    /// [`ErrorKind::Io`](crate::ErrorKind::Io).
    #[cfg(feature = "text")]
    fn encode_to(&self, text: &str, doc: DocFormat, out: &mut dyn std::io::Write) -> Result<()> {
        let bytes = self.encode(text, doc)?;
        out.write_all(&bytes).map_err(crate::Error::io)
    }
    /// Bytes to the model and straight back, as `check` does.
    fn roundtrip(&self, data: &[u8]) -> Result<Vec<u8>>;
    /// For archives: the files inside, and the document with no files (the archive's settings).
    #[cfg(feature = "text")]
    fn extract(&self, data: &[u8]) -> Result<Option<(Entries, String)>>;
    /// For archives: the keys of the entries a settings document (as `extract` gave it) holds.
    #[cfg(feature = "text")]
    fn archive_keys(&self, settings: &str) -> Result<Option<Vec<EntryKey>>>;
    /// For archives: a new archive from files and the settings document that `extract` gave.
    #[cfg(feature = "text")]
    fn pack(&self, settings: &str, files: Entries) -> Result<Vec<u8>>;
    /// [`DynFormat::pack`], writing the archive to `out` ([`Format::write_to`]: the files go to `out` from the
    /// model, without a copy of the whole archive in memory). A failure of the model comes before anything is
    /// written; one of `out` is [`ErrorKind::Io`](crate::ErrorKind::Io).
    #[cfg(feature = "text")]
    fn pack_to(&self, settings: &str, files: Entries, out: &mut dyn std::io::Write) -> Result<()> {
        let bytes = self.pack(settings, files)?;
        out.write_all(&bytes).map_err(crate::Error::io)
    }
}

/// Implements [`DynFormat`] for a [`Format`] that also implements [`MaybeArchive`]: keep one in a `static` and
/// use it as a `&'static dyn DynFormat`.
pub struct FormatHandle<T>(PhantomData<fn() -> T>);

impl<T> FormatHandle<T> {
    /// The handle (it holds nothing; `const`, so it can be a `static`).
    pub const fn new() -> Self {
        FormatHandle(PhantomData)
    }
}

impl<T> Default for FormatHandle<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Adds archive support to a [`FormatHandle`] where the format has it. A format that is not an archive implements
/// it with the defaults (`impl MaybeArchive for MyFormat {}`); generated archive formats implement it from
/// [`Archive`].
pub trait MaybeArchive {
    /// The files with their keys, or `None` for a format that is not an archive.
    fn extract_files(&self) -> Option<Entries> {
        None
    }
    /// The entries' keys, or `None` for a format that is not an archive.
    fn entry_keys(&self) -> Option<Vec<EntryKey>> {
        None
    }
    /// [`Archive::strip_data`]; `Ok(false)` for a format that is not an archive.
    fn strip_data(&mut self) -> Result<bool> {
        Ok(false)
    }
    /// [`Archive::set_entries`]; `Ok(false)` for a format that is not an archive.
    fn replace_files(&mut self, _files: Entries) -> Result<bool> {
        Ok(false)
    }
}

impl<T: Format + MaybeArchive> DynFormat for FormatHandle<T> {
    fn id(&self) -> &'static str {
        T::ID
    }
    fn title(&self) -> &'static str {
        T::TITLE
    }
    fn extensions(&self) -> &'static [&'static str] {
        T::EXTENSIONS
    }
    fn sniff(&self, data: &[u8]) -> bool {
        T::sniff(data)
    }
    fn info(&self, data: &[u8]) -> Result<Info> {
        Ok(T::from_binary(data)?.info())
    }
    #[cfg(feature = "text")]
    fn decode(&self, data: &[u8], doc: DocFormat) -> Result<String> {
        let m = T::from_binary(data)?;
        match doc {
            DocFormat::Yaml => m.to_text(),
            DocFormat::Json => m.to_json(),
        }
    }
    #[cfg(feature = "text")]
    fn encode(&self, text: &str, doc: DocFormat) -> Result<Vec<u8>> {
        Self::model_of(text, doc)?.to_binary()
    }
    #[cfg(feature = "text")]
    fn encode_to(&self, text: &str, doc: DocFormat, out: &mut dyn std::io::Write) -> Result<()> {
        Self::model_of(text, doc)?.write_to(out)
    }
    fn roundtrip(&self, data: &[u8]) -> Result<Vec<u8>> {
        T::from_binary(data)?.to_binary()
    }
    #[cfg(feature = "text")]
    fn extract(&self, data: &[u8]) -> Result<Option<(Entries, String)>> {
        let mut m = T::from_binary(data)?;
        let Some(files) = m.extract_files() else {
            return Ok(None);
        };
        m.strip_data()?;
        Ok(Some((files, m.to_text()?)))
    }
    #[cfg(feature = "text")]
    fn archive_keys(&self, settings: &str) -> Result<Option<Vec<EntryKey>>> {
        Ok(T::from_text(settings)?.entry_keys())
    }
    #[cfg(feature = "text")]
    fn pack(&self, settings: &str, files: Entries) -> Result<Vec<u8>> {
        Self::packed(settings, files)?.to_binary()
    }
    #[cfg(feature = "text")]
    fn pack_to(&self, settings: &str, files: Entries, out: &mut dyn std::io::Write) -> Result<()> {
        Self::packed(settings, files)?.write_to(out)
    }
}

#[cfg(feature = "text")]
impl<T: Format + MaybeArchive> FormatHandle<T> {
    /// The model a document in text form describes (`encode`, `encode_to`).
    fn model_of(text: &str, doc: DocFormat) -> Result<T> {
        match doc {
            DocFormat::Yaml => T::from_text(text),
            DocFormat::Json => T::from_json(text),
        }
    }
    /// The archive of a settings document with `files` in it (`pack`, `pack_to`).
    fn packed(settings: &str, files: Entries) -> Result<T> {
        let mut m = T::from_text(settings)?;
        if !m.replace_files(files)? {
            return Err(Error::other(format!("{} is not an archive format", T::ID)));
        }
        Ok(m)
    }
}

/// Implements [`MaybeArchive`] for an [`Archive`] (generated code calls this for archive formats).
// Generated code only (and the cli's tests); a hand-written archive can implement MaybeArchive itself.
#[doc(hidden)]
#[macro_export]
macro_rules! impl_archive_dyn {
    ($t:ty) => {
        impl $crate::format::MaybeArchive for $t {
            fn extract_files(&self) -> Option<$crate::format::Entries> {
                Some(
                    <$t as $crate::Archive>::keys(self)
                        .into_iter()
                        .zip(<$t as $crate::Archive>::files(self))
                        .map(|(k, (_, d))| (k, d.to_vec()))
                        .collect(),
                )
            }
            fn entry_keys(&self) -> Option<Vec<$crate::format::EntryKey>> {
                Some(<$t as $crate::Archive>::keys(self))
            }
            fn strip_data(&mut self) -> $crate::Result<bool> {
                <$t as $crate::Archive>::strip_data(self)?;
                Ok(true)
            }
            fn replace_files(&mut self, files: $crate::format::Entries) -> $crate::Result<bool> {
                <$t as $crate::Archive>::set_entries(self, files)?;
                Ok(true)
            }
        }
    };
}
