//! Ours and tomolib, two independent implementations, read the same NintendoWare files alike: the version 10
//! BFRES fixtures that `scripts/fixtures/make_bfres.py` wrote from the wiki page (models and embedded files), the
//! corpus' Super Mario Odyssey files, and ours' BNTX output after a texture was replaced from an image (tomolib
//! decodes the new texture as ours does, within BC rounding).
//!
//! tomolib is GPL-3.0-or-later: `cargo test -p binspec-benches --features peers` (this unpublished crate only).
#![cfg(feature = "peers")]

use std::path::{Path, PathBuf};

use binspec_formats::bfres::Bfres;
use binspec_formats::bntx::Bntx;
use binspec_formats::Format;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn tomolib_reads_the_bfres_fixtures_as_ours_does() {
    let dir = repo().join("tests/fixtures/bfres");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "bfres"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 3);
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        let ours = Bfres::from_binary(&bytes).unwrap();
        let theirs = tomolib::formats::bfres::Bfres::parse(&bytes)
            .unwrap_or_else(|e| panic!("{}: tomolib: {e}", f.display()));
        let (major, minor, micro, _) = theirs.version_tuple();
        assert_eq!(
            (u32::from(major), u32::from(minor), u32::from(micro)),
            (
                u32::from(ours.header.version_major),
                u32::from(ours.header.version_minor),
                u32::from(ours.header.version_micro)
            ),
            "{}",
            f.display()
        );
        let names: Vec<String> = ours.model_summaries().into_iter().map(|m| m.name).collect();
        assert_eq!(theirs.models.names, names, "{}", f.display());
        let embedded: Vec<(String, u32)> = ours
            .embedded_files()
            .into_iter()
            .map(|(n, e)| (n, e.data.len() as u32))
            .collect();
        let theirs_embedded: Vec<(String, u32)> = theirs
            .embedded_files
            .iter()
            .map(|e| (e.name.clone(), e.size))
            .collect();
        assert_eq!(theirs_embedded, embedded, "{}", f.display());
    }
}

#[test]
fn tomolib_reads_ours_bntx_with_a_replaced_texture() {
    let path = repo().join("../shared/corpus/real/bntx/HomeBed.bntx");
    let Ok(bytes) = std::fs::read(&path) else {
        return eprintln!("skipped: {} is absent", path.display());
    };
    let mut m = Bntx::from_binary(&bytes).unwrap();
    let mut img = binspec_formats::bntx_api::image::RgbaImage::new(512, 512);
    for (x, y, p) in img.enumerate_pixels_mut() {
        *p = binspec_formats::bntx_api::image::Rgba([(x / 2) as u8, (y / 2) as u8, 128, 255]);
    }
    m.texture_mut("BedBody_alb")
        .unwrap()
        .replace_images(std::slice::from_ref(&img))
        .unwrap();
    let out = m.to_binary().unwrap();
    let theirs = tomolib::formats::bntx::Bntx::parse(&out).unwrap();
    let names: Vec<&str> = theirs.textures.iter().map(|t| t.name.as_str()).collect();
    let ours_names: Vec<&str> = m.textures().map(|t| t.name()).collect();
    assert_eq!(names, ours_names);
    let t = theirs
        .textures
        .iter()
        .find(|t| t.name == "BedBody_alb")
        .unwrap();
    assert_eq!(
        (t.info.width, t.info.height, t.info.mip_count),
        (512, 512, 10)
    );
    let theirs_img = tomolib::formats::bntx::image::decode_texture_rgba(t, 0).unwrap();
    let ours_img = m
        .texture("BedBody_alb")
        .unwrap()
        .images()
        .unwrap()
        .remove(0)
        .image;
    let max = ours_img
        .as_raw()
        .iter()
        .zip(&theirs_img.data)
        .map(|(a, b)| a.abs_diff(*b))
        .max()
        .unwrap_or(255);
    assert_eq!(theirs_img.data.len(), ours_img.as_raw().len());
    assert!(max <= 1, "the decoders differ by up to {max}");
}

/// HomeBed.bntx with a texture renamed to a longer name (the string pool, the dictionary after it and the BRTI
/// blocks move; their pointers and the relocation table are derived): tomolib reads ours with the new name, the
/// other names, and the renamed texture's pixels as before.
#[test]
fn tomolib_reads_ours_bntx_with_a_longer_name() {
    let path = repo().join("../shared/corpus/real/bntx/HomeBed.bntx");
    let Ok(bytes) = std::fs::read(&path) else {
        return eprintln!("skipped: {} is absent", path.display());
    };
    let mut m = Bntx::from_binary(&bytes).unwrap();
    let new = "BedBody_metallic_roughness";
    m.texture_mut("BedBody_mtl").unwrap().name.data = new.into();
    for node in m.container.dictionary.nodes.iter_mut() {
        if let Some(k) = node.key.as_mut().filter(|k| &*k.data == "BedBody_mtl") {
            k.data = new.into();
        }
    }
    let out = m.to_binary().unwrap();
    assert_ne!(out.len(), 0);
    let before = tomolib::formats::bntx::Bntx::parse(&bytes).unwrap();
    let theirs = tomolib::formats::bntx::Bntx::parse(&out).unwrap();
    let names: Vec<&str> = theirs.textures.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["BedBody_alb", new, "BedBody_nrm", "BedBody_rgh"]);
    let old = before
        .textures
        .iter()
        .find(|t| t.name == "BedBody_mtl")
        .unwrap();
    let renamed = theirs.textures.iter().find(|t| t.name == new).unwrap();
    let a = tomolib::formats::bntx::image::decode_texture_rgba(old, 0).unwrap();
    let b = tomolib::formats::bntx::image::decode_texture_rgba(renamed, 0).unwrap();
    assert_eq!(a.data, b.data);
}

/// HomeBed.bntx with a texture removed from the model (its array entry and dictionary node): tomolib reads ours
/// with the three others, their pixels as in the original.
#[test]
fn tomolib_reads_ours_bntx_with_a_texture_removed() {
    let path = repo().join("../shared/corpus/real/bntx/HomeBed.bntx");
    let Ok(bytes) = std::fs::read(&path) else {
        return eprintln!("skipped: {} is absent", path.display());
    };
    let mut m = Bntx::from_binary(&bytes).unwrap();
    let gone = "BedBody_nrm";
    m.container.textures.retain(|t| t.texture.name() != gone);
    m.container
        .dictionary
        .nodes
        .retain(|n| n.key.as_ref().is_none_or(|k| &*k.data != gone));
    let out = m.to_binary().unwrap();
    let before = tomolib::formats::bntx::Bntx::parse(&bytes).unwrap();
    let theirs = tomolib::formats::bntx::Bntx::parse(&out).unwrap();
    let names: Vec<&str> = theirs.textures.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["BedBody_alb", "BedBody_mtl", "BedBody_rgh"]);
    for t in &theirs.textures {
        let old = before.textures.iter().find(|o| o.name == t.name).unwrap();
        let a = tomolib::formats::bntx::image::decode_texture_rgba(old, 0).unwrap();
        let b = tomolib::formats::bntx::image::decode_texture_rgba(t, 0).unwrap();
        assert_eq!(a.data, b.data, "{}", t.name);
    }
}

/// HomeBed.bntx with a texture added through `Bntx::add_texture` (64x32, like the 512x512 BC1 `BedBody_alb`: a
/// new `BRTI` block, its data in the GPU region, which the writer lays out): tomolib reads ours with five
/// textures, the new one's size, and decodes its first level to the pixels ours does; the others' pixels are as
/// in the original.
#[test]
fn tomolib_reads_ours_bntx_with_a_texture_added() {
    let path = repo().join("../shared/corpus/real/bntx/HomeBed.bntx");
    let Ok(bytes) = std::fs::read(&path) else {
        return eprintln!("skipped: {} is absent", path.display());
    };
    let mut m = Bntx::from_binary(&bytes).unwrap();
    let img = binspec_formats::bntx_api::image::RgbaImage::from_fn(64, 32, |x, y| {
        binspec_formats::bntx_api::image::Rgba([
            (x * 4) as u8,
            (y * 8) as u8,
            ((x ^ y) * 4) as u8,
            255,
        ])
    });
    m.add_texture("BedBody_new", "BedBody_alb", std::slice::from_ref(&img))
        .unwrap();
    let out = m.to_binary().unwrap();
    let before = tomolib::formats::bntx::Bntx::parse(&bytes).unwrap();
    let theirs = tomolib::formats::bntx::Bntx::parse(&out).unwrap();
    let names: Vec<&str> = theirs.textures.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "BedBody_alb",
            "BedBody_mtl",
            "BedBody_nrm",
            "BedBody_rgh",
            "BedBody_new"
        ]
    );
    for t in &theirs.textures[..4] {
        let old = before.textures.iter().find(|o| o.name == t.name).unwrap();
        let a = tomolib::formats::bntx::image::decode_texture_rgba(old, 0).unwrap();
        let b = tomolib::formats::bntx::image::decode_texture_rgba(t, 0).unwrap();
        assert_eq!(a.data, b.data, "{}", t.name);
    }
    let new = &theirs.textures[4];
    let b = tomolib::formats::bntx::image::decode_texture_rgba(new, 0).unwrap();
    let ours = Bntx::from_binary(&out).unwrap();
    let ours_img = &ours.texture("BedBody_new").unwrap().images().unwrap()[0].image;
    assert_eq!((b.width, b.height), (64, 32));
    assert_eq!(b.data.len(), ours_img.as_raw().len());
    let max = b
        .data
        .iter()
        .zip(ours_img.as_raw())
        .map(|(x, y)| x.abs_diff(*y))
        .max()
        .unwrap_or(0);
    assert!(max <= 1, "the decoders differ by up to {max}");
}

/// The block-linear ASTC fixture (`scripts/fixtures/make_bntx.py`, written without our code): tomolib decodes each
/// texture's first level to the pixels ours does.
#[test]
fn tomolib_decodes_the_block_linear_astc_fixture_as_ours_does() {
    let path = repo().join("tests/fixtures/bntx/bntx_astc_block_linear.bntx");
    let bytes = std::fs::read(&path).unwrap();
    let ours = Bntx::from_binary(&bytes).unwrap();
    let theirs = tomolib::formats::bntx::Bntx::parse(&bytes).unwrap();
    assert_eq!(theirs.textures.len(), ours.textures().count());
    for (t, o) in theirs.textures.iter().zip(ours.textures()) {
        assert_eq!(t.name, o.name());
        let theirs_img = tomolib::formats::bntx::image::decode_texture_rgba(t, 0)
            .unwrap_or_else(|e| panic!("{}: tomolib: {e}", t.name));
        let ours_img = o.images().unwrap().remove(0).image;
        assert_eq!(
            (theirs_img.width, theirs_img.height),
            ours_img.dimensions(),
            "{}",
            t.name
        );
        assert!(theirs_img.data == ours_img.as_raw()[..], "{}", t.name);
    }
}
