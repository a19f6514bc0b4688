//! What every fuzz target does, for any format.

use binspec_formats::Format;

/// Decoding returns a value or an error; it never panics.
pub fn decode<F: Format>(data: &[u8]) {
    let _ = F::from_binary(data);
}

/// Whatever decodes encodes (or fails cleanly), and decode, encode, decode gives the same value and the same bytes
/// (`binspec_runtime::format::check_value_round_trip`).
pub fn round_trip<F: Format + PartialEq + std::fmt::Debug>(data: &[u8]) {
    if let Err(e) = binspec_runtime::format::check_value_round_trip::<F>(data) {
        panic!("{e}");
    }
}

/// [`decode`] for BNTX, then what a user does next with a texture file: every texture's images (deswizzled and
/// decoded to RGBA8, as `binspec extract` writes them), for each texture that decodes. Errors are fine; a panic,
/// a hang or an allocation out of proportion to the input is not.
pub fn decode_bntx(data: &[u8]) {
    let Ok(b) = binspec_formats::bntx::Bntx::from_binary(data) else {
        return;
    };
    for t in b.textures() {
        let _ = t.images();
    }
}

/// [`decode`] for BFRES, then what `binspec info` and the geometry API read of it: the summary, and every vertex
/// set's attributes and every mesh's indices of every model (as far as the counts the summary gives go).
pub fn decode_bfres(data: &[u8]) {
    let Ok(b) = binspec_formats::bfres::Bfres::from_binary(data) else {
        return;
    };
    let _ = b.summary_lines();
    for (m, s) in b.model_summaries().iter().enumerate() {
        for set in 0..s.vertex_sets.len() {
            let _ = b.vertex_attributes(m, set);
        }
        for (shape, sh) in s.shapes.iter().enumerate() {
            for mesh in 0..sh.index_counts.len() {
                let _ = b.mesh_indices(m, shape, mesh);
            }
        }
    }
}
