//! Sets the size of one file in a resource size table (`.rsizetable`, or `.rsizetable.zs` as the game ships it),
//! the chore after a mod changes a file's size, and writes the table back compressed as it was:
//!
//! `cargo run -p binspec-formats --example update_restbl -- IN OUT PATH SIZE`
//!
//! (`PATH` as the game names the file, `Actor/Foo.engine__actor__ActorParam.bgyml`; `SIZE` in bytes, `0x` allowed.)

use binspec_formats::prelude::*;
use binspec_formats::rsizetable::Rsizetable;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, path, size] = &args[..] else {
        return Err("usage: update_restbl IN OUT PATH SIZE".into());
    };
    let size = match size.strip_prefix("0x") {
        Some(hex) => u32::from_str_radix(hex, 16)?,
        None => size.parse()?,
    };
    let mut table: Packed<Rsizetable> = Packed::from_binary(&std::fs::read(input)?)?;
    match table.set_size(path, size) {
        Some(old) => println!("{path}: {old} -> {size}"),
        None => println!("{path}: added, {size}"),
    }
    std::fs::write(output, table.to_binary()?)?;
    Ok(())
}
