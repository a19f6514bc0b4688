#![no_main]
// decode fuzz target for `binspec_formats::bntx::Bntx`: the model, and every texture's images decoded from it.
libfuzzer_sys::fuzz_target!(|data: &[u8]| binspec_fuzz::decode_bntx(data));
