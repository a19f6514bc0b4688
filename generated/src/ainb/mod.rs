//! AINB: Nintendo EPD's node graphs for AI, logic and sequences (versions 0x404, 0x407 and 0x408), with the EXB
//! expression binary they embed.
//!
//! Only the raw reader exists so far: [`raw`], generated from `schemas/ainb.ksy` (which imports `schemas/exb.ksy`),
//! the transcription of the wiki page. AINB is not registered as a [`crate::Format`] yet.
//!
//! ```no_run
//! use binspec_formats::ainb::raw::Ainb;
//! use binspec_formats::Format;
//! let bytes = std::fs::read("PlayerCamera.root.ainb").unwrap();
//! let file = Ainb::from_binary(&bytes).unwrap();
//! println!("{} elements", file.elements.len());
//! ```

format_module!(
    /// The reader generated from `schemas/ainb.ksy` and `schemas/exb.ksy`: a raw view of an AINB file's bytes (every
    /// offset, count and index as read, every section the header points to followed). It derives nothing.
    "ainb",
    raw
);
