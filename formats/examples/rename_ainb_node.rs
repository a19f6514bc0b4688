//! Renames the nodes of an AINB file that have one name to another, and writes the file back:
//!
//! `cargo run -p binspec-formats --example rename_ainb_node -- IN OUT OLD NEW`
//!
//! The writer derives everything the name touches (the string pool, offsets, the name's hash).

use binspec_formats::ainb::Document;
use binspec_formats::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, old, new] = &args[..] else {
        return Err("usage: rename_ainb_node IN OUT OLD NEW".into());
    };
    let mut doc: Packed<Document> = Packed::from_binary(&std::fs::read(input)?)?;
    let mut renamed = 0;
    for e in doc.elements.iter_mut().filter(|e| e.name == *old) {
        e.name = new.as_str().into();
        renamed += 1;
    }
    if renamed == 0 {
        return Err(format!("no node is named {old:?}").into());
    }
    std::fs::write(output, doc.to_binary()?)?;
    println!("renamed {renamed} node(s)");
    Ok(())
}
