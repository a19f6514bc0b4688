//! The interpreter's differential over the feature schemas: where a test decodes a file or writes a model with the
//! generated code, `binspec_interp` reads the same file or writes the same model (as its serde document) from the
//! schema, and must give the same document and the same bytes, or fail where the generated code fails. A schema the
//! interpreter refuses is skipped here; `interp_refuses.rs` lists those.

#![allow(dead_code)]

use binspec_runtime::Format;

/// The schema of `F`, as the interpreter loads it; `None` where the interpreter refuses it.
fn schema<F: Format>() -> Option<binspec_interp::Schema> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../feature_schemas")
        .join(format!("{}.ksy", F::ID));
    let s = binspec_interp::Schema::load(&path)
        .unwrap_or_else(|e| panic!("{}: the interpreter cannot load it: {e}", F::ID));
    s.unsupported().is_none().then_some(s)
}

/// `bytes`, which the generated reader read as `m`: the interpreter reads the same document.
pub fn decoded<F: Format + serde::Serialize>(bytes: &[u8], m: &F) {
    let Some(s) = schema::<F>() else { return };
    let doc = s.decode(bytes).unwrap_or_else(|e| {
        panic!(
            "{}: the interpreter cannot read what the generated code reads: {e}",
            F::ID
        )
    });
    let want = serde_json::to_value(m).unwrap();
    assert_eq!(
        doc.to_json(),
        want,
        "{}: the interpreter reads another document",
        F::ID
    );
}

/// `m`, which the generated writer wrote as `out`: the interpreter writes its document as the same bytes, or fails
/// where it fails.
pub fn written<F: Format + serde::Serialize>(m: &F, out: &Result<Vec<u8>, binspec_runtime::Error>) {
    let Some(s) = schema::<F>() else { return };
    let text = serde_json::to_string(m).unwrap();
    let doc = binspec_interp::Doc::from_json(&text)
        .unwrap_or_else(|e| panic!("{}: the model's document does not parse: {e}", F::ID));
    match (s.encode(&doc), out) {
        (Ok(a), Ok(b)) => assert!(
            a == *b,
            "{}: the interpreter writes other bytes:\n{a:02x?}\nthe generated code:\n{b:02x?}",
            F::ID
        ),
        (Err(_), Err(_)) => {}
        (Ok(a), Err(e)) => panic!(
            "{}: the generated writer fails ({e}), the interpreter writes {} bytes",
            F::ID,
            a.len()
        ),
        (Err(e), Ok(b)) => panic!(
            "{}: the interpreter fails ({e}), the generated writer writes {} bytes",
            F::ID,
            b.len()
        ),
    }
}

/// `F::from_binary`, with the interpreter reading the same bytes: the same document, or an error where the
/// generated reader fails too.
pub fn read<F: Format + serde::Serialize>(bytes: &[u8]) -> Result<F, binspec_runtime::Error> {
    let r = F::from_binary(bytes);
    match &r {
        Ok(m) => decoded(bytes, m),
        Err(e) => {
            if let Some(s) = schema::<F>() {
                if let Ok(d) = s.decode(bytes) {
                    panic!(
                        "{}: the generated reader fails ({e}), the interpreter reads {}",
                        F::ID,
                        d.to_json()
                    );
                }
            }
        }
    }
    r
}

/// `to_binary`, with the interpreter writing the model's document too ([`written`]).
pub trait Agreed {
    fn to_binary_agreed(&self) -> Result<Vec<u8>, binspec_runtime::Error>;
}

impl<F: Format + serde::Serialize> Agreed for F {
    fn to_binary_agreed(&self) -> Result<Vec<u8>, binspec_runtime::Error> {
        let out = self.to_binary();
        written(self, &out);
        out
    }
}
