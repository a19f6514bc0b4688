//! Lists an archive's files, and those of the archives inside it, however deep and whether compressed or not:
//!
//! `cargo run -p binspec-formats --example list_archive -- ARCHIVE`

use binspec_formats::prelude::*;
use binspec_formats::sarc::Sarc;

/// Prints the files of the SARC in `data` (compressed or not) under `prefix`, and recurses into those that are
/// archives too; `depth` bounds the recursion (an archive could hold itself, compressed, many times).
fn list(data: &[u8], prefix: &str, depth: usize) -> Result<(), Box<dyn std::error::Error>> {
    let arc: Packed<Sarc> = Packed::from_binary(data)?;
    for f in arc.iter() {
        println!("{:>10}  {prefix}{}", f.data.len(), f.name);
        // (Only the first bytes are decompressed to tell whether it is an archive.)
        let head = binspec_formats::compress::decompress_prefix(f.data, 8).unwrap_or_default();
        if depth < 16 && Sarc::sniff(&head) {
            list(f.data, &format!("{prefix}{}/", f.name), depth + 1)?;
        }
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: list_archive ARCHIVE")?;
    list(&std::fs::read(path)?, "", 0)
}
