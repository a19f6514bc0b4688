#![no_main]
// decode fuzz target for `binspec_formats::panim_perro::Clip`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| binspec_fuzz::decode::<binspec_formats::panim_perro::Clip>(data));
