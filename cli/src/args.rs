//! The command line, as clap sees it.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use binspec_runtime::compress::Compression;

/// Reads, edits and checks game files (SARC archives, resource size tables, ...) through Kaitai Struct-style
/// schemas. Yaz0 (.szs) and zstd (.zs) compressed files are decompressed everywhere.
///
/// Run with no arguments, `binspec` checks the bundled fixtures (the folder tests/fixtures).
///
/// Exit status: 0 on success, 1 for bad input or a failed check, 2 for bad usage.
#[derive(Debug, Parser)]
#[command(name = "binspec", version)]
pub struct Cli {
    /// Format id (see `binspec formats`): overrides detection from magic bytes, file extensions and the
    /// `# binspec: ID` line of documents.
    #[arg(long, global = true, value_name = "ID")]
    pub format: Option<String>,

    /// Overwrite the input file, or extract into a folder that is not empty.
    #[arg(long, global = true)]
    pub force: bool,

    /// The most bytes to read from one file, and to decompress one file to (default: 512 MiB read; a compressed
    /// file to 16 times its size, at least 32 MiB). Accepts 0x hex and K, M, G suffixes (1 GiB = 1G).
    #[arg(long, global = true, value_name = "BYTES", value_parser = parse_size)]
    pub max_size: Option<u64>,

    /// Read and write with this schema (a `.ksy` file, with its imports beside it), interpreted at once instead
    /// of a built-in format: for `info`, `decode`, `encode` and `check`. Nothing is compiled, so an edited schema
    /// can be tried on a file straight away.
    // (Its own id: `gen`'s positional SCHEMA is another argument.)
    #[arg(
        long = "schema",
        id = "schema_file",
        global = true,
        value_name = "FILE.ksy"
    )]
    pub schema: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the format, version, byte order and a summary of a file.
    Info {
        /// The file (Yaz0/zstd-compressed files are decompressed first).
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Write a file as an editable document (YAML, whose first line is `# binspec: ID`; or JSON). Warns where the
    /// document does not hold every byte of the file (encoding it would give another file).
    Decode {
        /// The file (Yaz0/zstd-compressed files are decompressed first).
        file: PathBuf,
        /// Where to write the document (default, or `-`: standard output).
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// Write JSON instead of YAML (JSON documents carry no format line: encode them with --format).
        #[arg(long)]
        json: bool,
    },
    /// Turn a document back into a binary file.
    ///
    /// The format is --format, else the document's `# binspec: ID` line, else the one whose extension the
    /// output file has. A document is read as JSON when DOC ends in .json or starts with `{`, else as YAML.
    Encode {
        /// The document (YAML or JSON) that `decode` wrote, edited or not.
        doc: PathBuf,
        /// The binary file to write (atomically: a failed encode leaves no partial file; `-`: standard output;
        /// a FIFO or device is written to in place, and a symbolic link's target is replaced).
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        /// Write canonical text instead of keeping the document's recorded spacing and comments (Perro clips).
        #[arg(long)]
        normalize: bool,
        #[command(flatten)]
        compress: CompressArgs,
    },
    /// Read every file and write it back, comparing the bytes (folders are searched recursively).
    ///
    /// Files of no known format are skipped inside folders, and an error when named. With --format, named files
    /// are read as that format, and files in folders when their magic or their extension is that format's (so
    /// headerless files are checked too); other files in folders are skipped.
    Check {
        /// Files and folders.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
    },
    /// Write the files of an archive under a folder, with its settings in DIR/.binspec-archive.yaml; or the
    /// textures of a texture archive (BNTX) as PNG images; or a BFRES's embedded files, and the textures of those
    /// that are BNTX files under a folder of their name (`textures.bntx`: `textures/NAME.png`).
    ///
    /// Textures: NAME.png is the first mip level of the first layer; the others are NAME.mipM.png,
    /// NAME.layerL.png and NAME.layerL.mipM.png. The pixels are as stored (channel sources not applied).
    Extract {
        /// The archive (Yaz0/zstd-compressed archives are decompressed first).
        archive: PathBuf,
        /// The folder to write into (created if needed; it must be empty unless --force). Entries stored
        /// without a name are written as 0xHASH.EXT.
        #[arg(short, long, value_name = "DIR")]
        output: PathBuf,
        /// Textures: also write each texture as NAME.dds, every level and layer in its own format (what
        /// `import` takes back without encoding it again).
        #[arg(long)]
        dds: bool,
    },
    /// Replace a texture of a texture archive (BNTX), or of a BNTX embedded in a BFRES, with a PNG (or any image
    /// the `image` crate reads, one per array layer) or a DDS file: encoded to the texture's format with its mip
    /// levels generated, or, from a DDS of the texture's format and levels, taken as it is; then swizzled as the
    /// texture was. An image of another size gives a 2D texture its size. With --like, add a texture instead.
    Import {
        /// The texture archive (Yaz0/zstd-compressed files are decompressed first).
        file: PathBuf,
        /// The name of the texture to replace (with --like: of the texture to add).
        texture: String,
        /// The images, one per array layer in order, or one DDS file.
        #[arg(required = true, value_name = "IMAGE")]
        images: Vec<PathBuf>,
        /// Add TEXTURE (a BNTX's) made like the texture LIKE: its format, tile mode, channel sources and layers,
        /// from images of any size (PNG or other images, not DDS).
        #[arg(long, value_name = "LIKE")]
        like: Option<String>,
        /// The file to write (atomically; `-`: standard output). Compressed as the input was.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
    },
    /// Build an archive from a folder written by `extract` (its .binspec-archive.yaml and every other file).
    Pack {
        /// A folder that `extract` wrote.
        dir: PathBuf,
        /// The archive to write (`-`: standard output). Symbolic links inside DIR are refused.
        #[arg(short, long, value_name = "ARCHIVE")]
        output: PathBuf,
        #[command(flatten)]
        compress: CompressArgs,
    },
    /// List the formats this binspec knows.
    Formats,
    /// Print the Rust that binspec generates for a schema (what `binspec-formats` compiles for the built-in ones),
    /// or write it to a file.
    Gen {
        /// The `.ksy` schema (its imports are read from beside it).
        schema: PathBuf,
        /// Where to write the Rust (default: standard output).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Regenerate the documentation from the schemas: one markdown page per format and an index with each
    /// format's status, or with --wiki MediaWiki `wikitable` markup to paste back into the wiki.
    Docs {
        /// The folder of `.ksy` schemas (default: `schemas` here, else the source tree's).
        #[arg(long, value_name = "DIR")]
        schemas: Option<PathBuf>,
        /// Where to write (default: `generated/docs` beside the schemas folder; with --wiki, its `wiki`
        /// subfolder).
        #[arg(short, long, value_name = "DIR")]
        output: Option<PathBuf>,
        /// Write MediaWiki markup (`.wiki`, tables in the EPD Wiki's columns) instead of markdown.
        #[arg(long)]
        wiki: bool,
        /// Write nothing: list the pages that would change, and exit 1 if any would.
        #[arg(long)]
        check: bool,
    },
    /// Work with wiki pages (MediaWiki text, or a "User contributions" dump of several pages and revisions).
    #[command(subcommand)]
    Wiki(WikiCommand),
    /// Print a Perro clip track's values over a frame range (`open` where they come from the runtime).
    Track {
        /// The clip (.panim, text).
        file: PathBuf,
        // (In `help`, not a doc comment: rustdoc would take `[0]` for a link.)
        #[arg(
            help = "The track: @Object.field (@Hero.position, @Rig.bones[0].rotation, @Door.rotation_deg)"
        )]
        track: String,
        /// First frame (default: the track's first key).
        #[arg(long, allow_hyphen_values = true)]
        from: Option<f64>,
        /// Last frame (default: the clip's last frame).
        #[arg(long, allow_hyphen_values = true)]
        to: Option<f64>,
        /// Frame step (fractions allowed).
        #[arg(long, default_value_t = 1.0)]
        step: f64,
    },
}

/// `binspec wiki ...`.
#[derive(Debug, Clone, Subcommand)]
pub enum WikiCommand {
    // (In `about`, not a doc comment: rustdoc would take `[caption]` for a link.)
    #[command(
        about = "Report tables that contradict themselves, one finding per line (page | section [caption] | row \
                 (field): what). Exit status 0 whatever is found; 1 only for unreadable input."
    )]
    Lint {
        /// A page text or a dump.
        file: PathBuf,
        /// Which revision of each page: 0 is the newest (the dump lists the newest first).
        #[arg(long, default_value_t = 0)]
        rev: usize,
    },
    /// Compare a page's tables with the schema types that transcribe them (`-wiki` in the schemas): missing or
    /// extra fields, offsets, sizes, types, names and enum values. Differences that the schema's `doc` explains
    /// are listed as explained. Exit status 0 whatever is found; 1 for unreadable input or schemas.
    Drift {
        /// A page text or a dump.
        file: PathBuf,
        /// Schemas (`.ksy` files or folders of them).
        #[arg(required = true, value_name = "SCHEMA")]
        schemas: Vec<PathBuf>,
        /// Which revision of each page: 0 is the newest.
        #[arg(long, default_value_t = 0)]
        rev: usize,
    },
    /// For each page, its struct and enum tables and whether a schema transcribes each, with a figure per page
    /// and overall. Tables that are not layouts (version lists, game lists) are named and left out.
    Coverage {
        /// A page text or a dump.
        file: PathBuf,
        /// The schemas (`.ksy` files or folders; default: the `schemas` folder).
        #[arg(long, value_name = "SCHEMA")]
        schemas: Vec<PathBuf>,
        /// Which revision of each page: 0 is the newest.
        #[arg(long, default_value_t = 0)]
        rev: usize,
    },
    /// What changed in a page's tables between two revisions (default: the two newest), and which schema types
    /// each change touches.
    Diff {
        /// A dump.
        file: PathBuf,
        /// The page's title.
        page: String,
        /// The older revision: a number (0 is the newest) or a timestamp (or its start, such as 2024-05).
        rev_a: Option<String>,
        /// The newer revision (default: the newest).
        rev_b: Option<String>,
        /// The schemas (`.ksy` files or folders; default: the `schemas` folder).
        #[arg(long, value_name = "SCHEMA")]
        schemas: Vec<PathBuf>,
    },
    /// Write a draft `.ksy` type from a wiki table, to start a transcription from.
    Import {
        /// A page text or a dump.
        file: PathBuf,
        /// The page's title.
        page: String,
        /// The heading the table is under (the nearest heading, or headings joined by ` > `).
        section: String,
        /// The table's caption, when the section has several tables.
        #[arg(long)]
        caption: Option<String>,
        /// Which of the section's tables (1-based), when the section has several.
        #[arg(long, value_name = "N")]
        table: Option<usize>,
        /// Which revision of the page: 0 is the newest.
        #[arg(long, default_value_t = 0)]
        rev: usize,
        /// Where to write the draft (default: standard output).
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
    },
}

#[derive(Debug, Clone, clap::Args)]
pub struct CompressArgs {
    /// Compress the output.
    #[arg(long, value_enum, value_name = "KIND")]
    pub compress: Option<CompressKind>,
    /// The alignment written into a Yaz0 header (default: the one the document recorded, else 0).
    #[arg(long, value_name = "N", value_parser = parse_u32, requires = "compress")]
    pub yaz0_alignment: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompressKind {
    Yaz0,
    Zstd,
}

impl From<CompressKind> for Compression {
    fn from(k: CompressKind) -> Self {
        match k {
            CompressKind::Yaz0 => Compression::Yaz0,
            CompressKind::Zstd => Compression::Zstd,
        }
    }
}

/// A u32 in decimal or with 0x.
pub fn parse_u32(s: &str) -> Result<u32, String> {
    let s = s.trim();
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|e| format!("`{s}` is not a number: {e}"))
}

/// A size: decimal or `0x` hex, with an optional `K`, `M` or `G` suffix (powers of 1024).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (num, mult) = match t.chars().last() {
        Some('K' | 'k') => (&t[..t.len() - 1], 1u64 << 10),
        Some('M' | 'm') => (&t[..t.len() - 1], 1 << 20),
        Some('G' | 'g') => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1),
    };
    let n = match num.strip_prefix("0x").or_else(|| num.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => num.parse::<u64>(),
    }
    .map_err(|_| {
        format!("{s:?} is not a size (a number of bytes, e.g. 4096, 0x1000, 64M or 2G)")
    })?;
    n.checked_mul(mult)
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{s:?} is not a size from 1 byte to 2^64 - 1"))
}
