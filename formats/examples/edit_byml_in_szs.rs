//! Opens a Yaz0-compressed SARC (`.szs`), lists its files, changes one value in a BYML inside, writes the archive
//! back compressed as it was (same Yaz0 header alignment) and reads the value back from the new file:
//!
//! `cargo run -p binspec-formats --example edit_byml_in_szs -- IN.szs OUT.szs [FILE KEY VALUE]`
//!
//! (by default `InitClipping.byml`, `Radius`, `500`: an actor pack of Super Mario Odyssey). The new value keeps
//! the type of the old one.

use binspec_formats::byml::{Byml, Document};
use binspec_formats::prelude::*;
use binspec_formats::sarc::Sarc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let (input, output) = (arg(0, ""), arg(1, ""));
    let (file, key, value) = (arg(2, "InitClipping.byml"), arg(3, "Radius"), arg(4, "500"));

    let mut arc: Packed<Sarc> = Packed::from_binary(&std::fs::read(&input)?)?;
    for f in arc.iter() {
        println!("{:>8}  {}", f.data.len(), f.name);
    }
    let mut doc = Document::from_binary(arc.get(&file).ok_or("no such file in the archive")?)?;
    let node = doc
        .root
        .get_mut(&key)
        .ok_or("no such key in the BYML's root")?;
    *node = match node {
        Byml::F32(_) => Byml::F32(value.parse()?),
        Byml::I32(_) => Byml::I32(value.parse()?),
        Byml::Bool(_) => Byml::Bool(value.parse()?),
        _ => Byml::String(value.as_str().into()),
    };
    arc.insert(&file, doc.to_binary()?);
    std::fs::write(&output, arc.to_binary()?)?;

    let back: Packed<Sarc> = Packed::from_binary(&std::fs::read(&output)?)?;
    let doc = Document::from_binary(back.get(&file).ok_or("the file is gone")?)?;
    println!(
        "{file}: {key} = {:?} ({:?})",
        doc.root.get(&key),
        back.packing
    );
    Ok(())
}
