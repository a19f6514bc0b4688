//! The generated RIFF reader and writer on a small WAV made here: read, edit a chunk (the sizes follow), write,
//! read back.
use binspec_example_own_schema::{riff::Riff, Format};

/// A WAV of 3 bytes of 8-bit mono sound: "fmt " (16 bytes) and "data" (3 bytes, padded to 4).
fn wav() -> Vec<u8> {
    let mut b = b"RIFF".to_vec();
    b.extend_from_slice(&(4u32 + 8 + 16 + 8 + 4).to_le_bytes());
    b.extend_from_slice(b"WAVE");
    b.extend_from_slice(b"fmt ");
    b.extend_from_slice(&16u32.to_le_bytes());
    b.extend_from_slice(&[1, 0, 1, 0, 0x40, 0x1f, 0, 0, 0x40, 0x1f, 0, 0, 1, 0, 8, 0]);
    b.extend_from_slice(b"data");
    b.extend_from_slice(&3u32.to_le_bytes());
    b.extend_from_slice(&[0x80, 0x90, 0xa0, 0]);
    b
}

#[test]
fn reads_edits_and_writes_a_wav() {
    let bytes = wav();
    let mut riff = Riff::from_binary(&bytes).expect("reads");
    assert_eq!(riff.body.form_type, "WAVE");
    let ids: Vec<&str> = riff.body.chunks.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["fmt ", "data"]);
    assert_eq!(&riff.body.chunks[1].data[..], &[0x80, 0x90, 0xa0]);
    assert_eq!(riff.to_binary().expect("writes"), bytes, "byte for byte");

    // Two more samples: the chunk's size and the file's are derived, the pad byte is data (the schema's
    // `len_data % 2` bytes), so it goes with the even length.
    let data = &mut riff.body.chunks[1];
    data.data = vec![0x80, 0x90, 0xa0, 0xb0].into();
    data.pad = Vec::new().into();
    let out = riff.to_binary().expect("writes");
    assert_eq!(&out[4..8], &(4u32 + 8 + 16 + 8 + 4).to_le_bytes());
    assert_eq!(&out[40..44], &4u32.to_le_bytes());
    let back = Riff::from_binary(&out).expect("reads back");
    assert_eq!(&back.body.chunks[1].data[..], &[0x80, 0x90, 0xa0, 0xb0]);
}

/// The copy generated with another path to the runtime reads and writes the same.
#[test]
fn the_copy_through_a_reexport_is_the_same() {
    use binspec_example_own_schema::riff_through_rt::Riff as Riff2;
    let bytes = wav();
    let r = Riff2::from_binary(&bytes).expect("reads");
    assert_eq!(r.body.chunks.len(), 2);
    assert_eq!(r.to_binary().expect("writes"), bytes);
    // Its structs derive `Eq` too (`struct_attribute`).
    fn is_eq<T: Eq>(_: &T) {}
    is_eq(&r);
}
