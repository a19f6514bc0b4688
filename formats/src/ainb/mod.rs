//! AINB: Nintendo EPD's node graphs for AI, logic and sequences (versions 0x404, 0x407 and 0x408), with the EXB
//! expression binary they embed.
//!
//! [`Document`] is the decoded file as a user edits it: names instead of string-pool offsets, elements and
//! attachments by index, typed properties, inputs, outputs, plugs and blackboard defaults. [`raw`] is the reader and
//! writer generated from `schemas/ainb.ksy` (which imports `schemas/exb.ksy`), the transcription of the wiki page:
//! its writer derives every offset, count, index and hash, and it writes every file at hand back byte for byte. The
//! document converts to and from it (`from_raw`, `to_raw`) and lays out no byte itself.
//!
//! ```no_run
//! use binspec_formats::ainb::Document;
//! use binspec_formats::Format;
//! let bytes = std::fs::read("PlayerCamera.root.ainb").unwrap();
//! let mut doc = Document::from_binary(&bytes).unwrap();
//! doc.elements[0].name = "RenamedAction".into();
//! std::fs::write("PlayerCamera.root.ainb", doc.to_binary().unwrap()).unwrap();
//! ```

pub mod exb;
mod from_raw;
mod holds;
mod model;
mod places;
mod to_raw;

pub use model::*;

use binspec_runtime::{Endian, Info};
use places::{
    after_params, after_state_info, plug_lists, plug_lists_mut, plug_slot, PlugSlot,
    UNLINKED_REPLACEMENT_HEADER,
};

use crate::{Format, Result};

/// murmur3 (x86, 32-bit, seed 0), the hash AINB uses for names and paths (the raw model derives every one).
pub fn murmur3(s: &str) -> u32 {
    binspec_runtime::hash::murmur3_32(s.as_bytes(), 0)
}

format_module!(
    /// The reader and writer generated from `schemas/ainb.ksy` and `schemas/exb.ksy`: an AINB file as the page
    /// describes it, every section the header points to followed. The model holds no offset, count, index or hash
    /// the writer can derive (only values a file holds otherwise, kept as overrides), and layout choices (the order
    /// of sections and query ranges, bytes nothing describes) that reproduce the file.
    "ainb",
    raw
);

format_module!(
    /// The reader and writer generated from `schemas/exb.ksy` alone: an EXB section (whose offsets are relative to
    /// its start) read and written as a file of its own.
    "ainb",
    "exb" => exb_raw
);

/// Where element `i` starts in a file of `version` with `commands` commands: the element array follows the
/// 0x74-byte header and the 0x18-byte commands; an element is 0x3c bytes from version 0x407, 0x38 in 0x404.
pub(crate) fn element_at(version: u32, commands: u64, i: u64) -> u64 {
    let size = if version >= 0x407 { 0x3c } else { 0x38 };
    0x74 + 0x18 * commands + size * i
}

/// Where an element's field is within it, from its offset `at` in the 0x407 layout: 4 less in 0x404 past 0xc,
/// where 0x404 has no name hash.
pub(crate) fn element_field(version: u32, at: u64) -> u64 {
    if version >= 0x407 || at < 0xc {
        at
    } else {
        at - 4
    }
}

impl Format for Document {
    const ID: &'static str = "ainb";
    const TITLE: &'static str =
        "AINB (AI, logic and sequence node graphs), versions 0x404, 0x407, 0x408";
    const EXTENSIONS: &'static [&'static str] = &["ainb"];

    fn sniff(data: &[u8]) -> bool {
        data.starts_with(b"AIB ")
    }
    fn from_binary(data: &[u8]) -> Result<Self> {
        places::decode(data)
    }
    fn to_binary(&self) -> Result<Vec<u8>> {
        to_raw::raw(self)?.to_binary()
    }
    fn info(&self) -> Info {
        Info {
            format: "ainb",
            version: Some(format!("{:#x}", self.version)),
            endian: Some(Endian::Little),
            summary: vec![
                ("file".into(), self.file_name.to_string()),
                ("category".into(), self.category.to_string()),
                ("commands".into(), self.commands.len().to_string()),
                ("elements".into(), self.elements.len().to_string()),
                ("attachments".into(), self.attachments.len().to_string()),
                (
                    "expressions".into(),
                    self.expressions
                        .as_ref()
                        .map_or(0, |x| x.functions.len())
                        .to_string(),
                ),
            ],
        }
    }
}

impl binspec_runtime::format::MaybeArchive for Document {}
