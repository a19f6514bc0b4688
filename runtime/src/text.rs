//! Strings in files.

use crate::error::{Error, Result};

/// Decodes UTF-8 (ASCII is a subset); `at` is the offset for the error.
pub fn decode(b: &[u8], at: u64) -> Result<String> {
    String::from_utf8(b.to_vec())
        .map_err(|e| Error::invalid(at, format!("string is not valid UTF-8: {e}")))
}
