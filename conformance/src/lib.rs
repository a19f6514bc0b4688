//! Kaitai Struct's conformance suite (`../shared/kaitai_struct_tests`, outside the repository; see its
//! README.md), run against binspec's generated readers.
//!
//! `build.rs` compiles each test's schema (`formats/<id>.ksy`) with `binspec-codegen` and translates the test's
//! asserts (`spec/ks/<id>.kst`) to Rust over the decoded model. Every test becomes a module with a `check`
//! function; [`TESTS`] lists them, [`SKIPPED`] lists the tests that could not be built and why, and
//! [`ROUNDTRIP`] gives, for tests that expect a successful parse, a function checking that writing the model
//! back gives the input bytes. `tests/suite.rs` runs them.
//!
//! Tests whose generated code does not compile are listed in `known_bad.txt` (an emitter bug each) and
//! skipped, so that one bad module does not break the whole crate. When a change to the emitter makes another
//! test's code fail to compile, rustc's errors point into `$OUT_DIR/schema_<id>.rs` (the generated schema) or
//! `$OUT_DIR/check_<id>.rs` (the translated asserts): add `<id>  # reason` to the list, or run
//! `conformance/update_known_bad.sh`, which rewrites the list from scratch (build, map errors to ids, repeat).
//! After fixing the emitter, `BINSPEC_CONFORMANCE_IGNORE_KNOWN_BAD=1 cargo build -p binspec-conformance` builds
//! every test, showing which entries are still needed.
//!
//! The suite's folder can be moved with `BINSPEC_KAITAI_SUITE=<dir>`; when it is absent the tables are empty
//! and the test passes with a note.

/// What a check or round trip returns: `Err` holds the first failure's message.
pub type Outcome = Result<(), String>;

/// A test's check (or round trip) over its input bytes.
pub type Check = fn(&[u8]) -> Outcome;

/// The generated model of a test's input as a JSON document, and the bytes writing it gives (or why not).
pub type ModelOutcome = Result<(serde_json::Value, Result<Vec<u8>, String>), String>;

/// A test's [`ModelOutcome`] over its input bytes.
pub type ModelFn = fn(&[u8]) -> ModelOutcome;

/// Value views the generated asserts compare through. Method calls auto-dereference, so these work whether
/// a translated expression gives a value or a reference to one.
#[doc(hidden)]
pub mod cmp {
    /// Why a check failed: an assert's message, or an error evaluating an expression passed up with `?`.
    pub struct Fail(pub String);
    impl From<String> for Fail {
        fn from(s: String) -> Self {
            Fail(s)
        }
    }
    impl From<binspec_runtime::Error> for Fail {
        fn from(e: binspec_runtime::Error) -> Self {
            Fail(format!("evaluating an expression: {e}"))
        }
    }
    /// An integer, widened.
    pub trait Int {
        fn int(&self) -> i128;
    }
    /// A number, as `f64`.
    pub trait Float {
        fn float(&self) -> f64;
    }
    /// A boolean.
    pub trait Flag {
        fn flag(&self) -> bool;
    }
    /// A string.
    pub trait Text {
        fn text(&self) -> &str;
    }
    /// A byte array or an array of integers, widened.
    pub trait Ints {
        fn ints(&self) -> Vec<i128>;
    }
    /// An array of strings.
    pub trait Texts {
        fn texts(&self) -> Vec<String>;
    }

    macro_rules! ints {
        ($($t:ty),*) => {$(
            impl Int for $t {
                fn int(&self) -> i128 {
                    *self as i128
                }
            }
            impl Float for $t {
                fn float(&self) -> f64 {
                    *self as f64
                }
            }
        )*};
    }
    ints!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

    impl Float for f32 {
        fn float(&self) -> f64 {
            *self as f64
        }
    }
    impl Float for f64 {
        fn float(&self) -> f64 {
            *self
        }
    }
    impl Flag for bool {
        fn flag(&self) -> bool {
            *self
        }
    }
    impl Text for str {
        fn text(&self) -> &str {
            self
        }
    }
    impl Text for String {
        fn text(&self) -> &str {
            self
        }
    }
    impl Text for binspec_runtime::Str {
        fn text(&self) -> &str {
            self
        }
    }
    impl<T: Int> Ints for [T] {
        fn ints(&self) -> Vec<i128> {
            self.iter().map(Int::int).collect()
        }
    }
    impl<T: Int> Ints for Vec<T> {
        fn ints(&self) -> Vec<i128> {
            self.iter().map(Int::int).collect()
        }
    }
    impl<T: Text> Texts for [T] {
        fn texts(&self) -> Vec<String> {
            self.iter().map(|t| t.text().to_string()).collect()
        }
    }
    impl<T: Text> Texts for Vec<T> {
        fn texts(&self) -> Vec<String> {
            self.iter().map(|t| t.text().to_string()).collect()
        }
    }
    impl<T: Text + ?Sized> Text for &T {
        fn text(&self) -> &str {
            (**self).text()
        }
    }

    /// A string as `&str` (the call coerces `&String`, `&&str`).
    pub fn str_view(s: &str) -> &str {
        s
    }
    /// A byte array as `&[u8]` (the call coerces `&Vec<u8>`, `&[u8; N]`, and types `vec![]`).
    pub fn bytes_view(b: &[u8]) -> &[u8] {
        b
    }

    /// Two floats are equal, allowing for `f4` rounding.
    pub fn close(a: f64, b: f64) -> bool {
        a == b || (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1.0)
    }

    /// Whether written bytes are the input, with the first difference when not.
    pub fn same_bytes(out: &[u8], input: &[u8]) -> super::Outcome {
        if out == input {
            return Ok(());
        }
        let at = out
            .iter()
            .zip(input)
            .position(|(a, b)| a != b)
            .unwrap_or(out.len().min(input.len()));
        if out.len() < input.len() && input.starts_with(out) {
            return Err(format!(
                "prefix: wrote {} of {} bytes (the rest of the input was not read)",
                out.len(),
                input.len()
            ));
        }
        Err(format!(
            "differs: wrote {} bytes for {}; first difference at offset {at:#x}",
            out.len(),
            input.len()
        ))
    }
}

#[doc(hidden)]
pub mod hooks;

include!(concat!(env!("OUT_DIR"), "/suite.rs"));
