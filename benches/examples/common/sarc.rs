//! What the SARC profiling examples share: the benchmark's archive (3,000 files, 12 MB, built by roead), read by
//! ours and by tomolib, and what tomolib's writer is given.

use binspec_benches::{sarc_files, SARC_FILES};
use binspec_formats::sarc::Sarc;
use binspec_formats::Format;
use tomolib::formats::sarc as tomo;

/// The archive's bytes, ours and tomolib's reading of them, and the alignment the tomolib bench gives tomolib's
/// writer (the largest power of two, up to 0x1000, that divides every file's data offset).
pub fn archive() -> (Vec<u8>, Sarc, tomo::Sarc, u32) {
    let mut w = roead::sarc::SarcWriter::new(roead::Endian::Little);
    for (name, d) in &sarc_files(SARC_FILES) {
        w.add_file(name.as_str(), d.clone());
    }
    let bin = w.to_binary();
    let ours = Sarc::from_binary(&bin).expect("ours reads roead's archive");
    assert_eq!(ours.to_binary().expect("ours writes"), bin);
    let theirs = tomo::Sarc::parse(bin.clone()).expect("tomolib reads roead's archive");
    let mut align = 0x1000u32;
    for e in theirs.entries() {
        while align > 1 && !(theirs.data_offset() + e.data_start).is_multiple_of(align) {
            align /= 2;
        }
    }
    (bin, ours, theirs, align)
}

/// tomolib's writer's input: each file of its reading, by name.
pub fn pack(theirs: &tomo::Sarc) -> Vec<tomo::PackEntry<'_>> {
    theirs
        .entries()
        .iter()
        .map(|e| tomo::PackEntry {
            name: e.name.as_deref().unwrap_or_default(),
            data: theirs.data(e),
        })
        .collect()
}

/// tomolib writes `pack` with one alignment for every file, into `io::sink()` (as the tomolib bench does).
pub fn write_theirs(pack: &[tomo::PackEntry<'_>], align: u32) {
    tomo::write(
        &mut std::io::sink(),
        std::hint::black_box(pack),
        tomo::ByteOrder::Little,
        align,
    )
    .expect("tomolib writes");
}
