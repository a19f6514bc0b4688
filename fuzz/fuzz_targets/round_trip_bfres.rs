#![no_main]
// round trip fuzz target for `binspec_formats::bfres::Bfres`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| binspec_fuzz::round_trip::<binspec_formats::bfres::Bfres>(data));
