//! The custom processes the suite's schemas name (`process: my_custom_fx(key, flag, bytes)`), as binspec's
//! generated code calls them: `crate::hooks::<schema id>::<process path>::{decode, encode}`. Their behaviour is
//! the suite's own (its `extra/` helpers): `my_custom_fx` adds the key to each byte (subtracts it where the flag
//! is false), `custom_fx_no_args` and `nested.deeply.custom_fx` put a `_` before and after the bytes.

use binspec_runtime::{Error, Result};

/// `my_custom_fx(key, flag, some_bytes)`.
pub mod my_custom_fx {
    use super::*;

    fn key(key: i128, flag: bool) -> u8 {
        let k = key.rem_euclid(256) as u8;
        if flag {
            k
        } else {
            k.wrapping_neg()
        }
    }
    pub fn decode(data: &[u8], k: i128, flag: bool, _some_bytes: &[u8]) -> Result<Vec<u8>> {
        let k = key(k, flag);
        Ok(data.iter().map(|b| b.wrapping_add(k)).collect())
    }
    pub fn encode(data: &[u8], k: i128, flag: bool, _some_bytes: &[u8]) -> Result<Vec<u8>> {
        let k = key(k, flag);
        Ok(data.iter().map(|b| b.wrapping_sub(k)).collect())
    }
}

/// `custom_fx_no_args`, and `nested.deeply.custom_fx(foo)` (whose argument changes nothing).
pub mod underscores {
    use super::*;

    pub fn decode(data: &[u8]) -> Result<Vec<u8>> {
        Ok([&b"_"[..], data, b"_"].concat())
    }
    pub fn encode(data: &[u8]) -> Result<Vec<u8>> {
        match data {
            [b'_', inner @ .., b'_'] => Ok(inner.to_vec()),
            _ => Err(Error::write(
                "custom_fx: the bytes do not start and end with '_', so no bytes decode to them",
            )),
        }
    }
}

pub mod process_custom {
    pub use super::my_custom_fx;
    pub mod nested {
        pub mod deeply {
            pub mod custom_fx {
                use binspec_runtime::Result;
                pub fn decode(data: &[u8], _foo: i128) -> Result<Vec<u8>> {
                    super::super::super::super::underscores::decode(data)
                }
                pub fn encode(data: &[u8], _foo: i128) -> Result<Vec<u8>> {
                    super::super::super::super::underscores::encode(data)
                }
            }
        }
    }
}

pub mod process_custom_no_args {
    pub use super::underscores as custom_fx_no_args;
}

pub mod process_term_struct {
    pub use super::my_custom_fx;
}

pub mod process_repeat_usertype_dynarg_custom {
    pub use super::my_custom_fx;
}
