#![no_main]
// decode fuzz target for `binspec_formats::sarc::Sarc`: the model, and the view that lists files without it.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    binspec_fuzz::decode::<binspec_formats::sarc::Sarc>(data);
    if let Ok(v) = binspec_formats::sarc::Sarc::view_files(data) {
        let _ = v.count();
    }
});
