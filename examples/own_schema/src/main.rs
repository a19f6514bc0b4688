//! `binspec-example-own-schema FILE`: lists the chunks of a RIFF file (a `.wav`, `.avi` or `.webp`).
use binspec_example_own_schema::{riff::Riff, Format};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: binspec-example-own-schema FILE.wav");
        std::process::exit(2);
    };
    let riff = match std::fs::read(&path)
        .map_err(|e| e.to_string())
        .and_then(|b| Riff::from_binary(&b).map_err(|e| e.to_string()))
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    println!("{}", riff.body.form_type);
    for c in &riff.body.chunks {
        println!("{:>10}  {}", c.data.len(), c.id);
    }
}
