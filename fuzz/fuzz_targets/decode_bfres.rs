#![no_main]
// decode fuzz target for `binspec_formats::bfres::Bfres`: the model, and the models' vertex attributes and indices.
libfuzzer_sys::fuzz_target!(|data: &[u8]| binspec_fuzz::decode_bfres(data));
