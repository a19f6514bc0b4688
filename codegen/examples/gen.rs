//! Prints the Rust that binspec generates for a schema: `cargo run -p binspec-codegen --example gen -- FILE.ksy`.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: gen FILE.ksy");
        std::process::exit(2);
    };
    match binspec_codegen::compile_file(std::path::Path::new(&path)) {
        Ok(c) => print!("{}", c.rust),
        Err(diags) => {
            for d in diags {
                eprintln!("{d}");
            }
            std::process::exit(1);
        }
    }
}
