//! BNTX textures as images (`binspec_formats::bntx_api`): Super Mario Odyssey's HomeBed.bntx (skipped with a
//! message when absent) deswizzles, decodes and swizzles back to its own bytes; replacing a texture's pixels
//! reads back; the fixtures of `scripts/fixtures/make_bntx.py` (linear tiling) decode to their stated sizes; and
//! what cannot be done is an error that says why.

use binspec_formats::bntx::Bntx;
use binspec_runtime::Format as _;

use binspec_tests::{repo, run};

fn s(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

fn home_bed() -> Option<Vec<u8>> {
    let path = repo().join("../shared/corpus/real/bntx/HomeBed.bntx");
    let r = std::fs::read(&path);
    if r.is_err() {
        eprintln!("skipped: {} is absent", path.display());
    }
    r.ok()
}

/// How many different pixels an image has (a blank one has 1).
fn distinct(img: &image::RgbaImage) -> usize {
    let mut v: Vec<[u8; 4]> = img.pixels().map(|p| p.0).collect();
    v.sort_unstable();
    v.dedup();
    v.len()
}

#[test]
fn home_bed_textures_decode_at_their_sizes_and_swizzle_back() {
    let Some(bytes) = home_bed() else { return };
    let m = Bntx::from_binary(&bytes).unwrap();
    let mut seen = Vec::new();
    for t in m.textures() {
        let images = t.images().unwrap_or_else(|e| panic!("{e}"));
        let (w, h, mips) = (t.info.width, t.info.height, t.mip_levels());
        assert_eq!(images.len() as u32, mips, "{}", t.name());
        for (i, img) in images.iter().enumerate() {
            assert_eq!((img.layer, img.mip), (0, i as u32));
            assert_eq!(
                img.image.dimensions(),
                ((w >> i).max(1), (h >> i).max(1)),
                "{} level {i}",
                t.name()
            );
        }
        let n = distinct(&images[0].image);
        assert!(n > 100, "{}: only {n} distinct pixels", t.name());
        // Deswizzled and swizzled again, the data is the file's, byte for byte.
        let mut again = t.clone();
        again
            .replace_linear_data(&t.linear_data().unwrap())
            .unwrap();
        assert!(
            again.data == t.data,
            "{}: swizzled back otherwise",
            t.name()
        );
        seen.push((t.name().to_string(), images[0].image.dimensions()));
    }
    assert_eq!(
        seen,
        [
            ("BedBody_alb".to_string(), (512, 512)),
            ("BedBody_mtl".to_string(), (256, 256)),
            ("BedBody_nrm".to_string(), (512, 512)),
            ("BedBody_rgh".to_string(), (256, 256)),
        ]
    );
}

/// Replacing a texture's pixels: the file reads back with the new pixels (BC1 encoded again, so close, not equal)
/// and every other texture's data as it was.
#[test]
fn home_bed_texture_replaced_from_an_image_reads_back() {
    let Some(bytes) = home_bed() else { return };
    let mut m = Bntx::from_binary(&bytes).unwrap();
    let mut img = image::RgbaImage::new(512, 512);
    for (x, y, p) in img.enumerate_pixels_mut() {
        *p = image::Rgba([
            (x / 2) as u8,
            (y / 2) as u8,
            if (x / 64 + y / 64) % 2 == 0 { 255 } else { 0 },
            255,
        ]);
    }
    m.texture_mut("BedBody_alb")
        .unwrap()
        .replace_images(std::slice::from_ref(&img))
        .unwrap();
    let out = m.to_binary().unwrap();
    assert_eq!(out.len(), bytes.len());
    let back = Bntx::from_binary(&out).unwrap();
    let old = Bntx::from_binary(&bytes).unwrap();
    for (a, b) in back.textures().zip(old.textures()) {
        assert_eq!(a.name() != "BedBody_alb", a.data == b.data, "{}", a.name());
    }
    let got = back.texture("BedBody_alb").unwrap().images().unwrap();
    assert_eq!(got.len(), 10);
    let level0 = &got[0].image;
    let err: u64 = level0
        .pixels()
        .zip(img.pixels())
        .map(|(a, b)| (0..3).map(|c| a.0[c].abs_diff(b.0[c]) as u64).sum::<u64>())
        .sum();
    let mean = err as f64 / (512.0 * 512.0 * 3.0);
    assert!(mean < 4.0, "mean error {mean} per channel");
    // The last level is the average of the image: a generated mip level, not left as it was.
    assert_eq!(got[9].image.dimensions(), (1, 1));
}

/// Every level of every texture of the ASTC fixture `name` (of `make_bntx.py`), decoded: each with its texture's
/// name, its `astc` object and its level's object in the sidecar, after checking the texture's name, its level
/// count and the level's dimensions against the sidecar.
fn astc_levels(
    name: &str,
) -> Vec<(
    String,
    serde_json::Value,
    serde_json::Value,
    image::RgbaImage,
)> {
    let path = repo().join(format!("tests/fixtures/bntx/{name}.bntx"));
    let want: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path.with_extension("expected.json")).unwrap())
            .unwrap();
    let m = Bntx::from_binary(&std::fs::read(&path).unwrap()).unwrap();
    let mut out = Vec::new();
    for (t, w) in m.textures().zip(want["textures"].as_array().unwrap()) {
        assert_eq!(t.name(), w["name"].as_str().unwrap());
        let images = t.images().unwrap_or_else(|e| panic!("{}: {e}", t.name()));
        let wl = w["astc"]["levels"].as_array().unwrap();
        assert_eq!(images.len(), wl.len(), "{}", t.name());
        for (img, l) in images.into_iter().zip(wl) {
            let size = (
                l["width"].as_u64().unwrap() as u32,
                l["height"].as_u64().unwrap() as u32,
            );
            assert_eq!(
                img.image.dimensions(),
                size,
                "{} level {}",
                t.name(),
                img.mip
            );
            out.push((
                t.name().to_string(),
                w["astc"].clone(),
                l.clone(),
                img.image,
            ));
        }
    }
    out
}

/// The ASTC fixture of `make_bntx.py`: every block of every level is a void-extent block (a constant colour, laid out
/// bit by bit from the Khronos Data Format Specification's ASTC chapter by the script, not by an encoder), so each
/// level decodes to one colour, the one its sidecar states, at the level's size (partial blocks at the edges
/// cropped): ASTC 4x4 and 8x8, one and two levels.
#[test]
fn astc_void_extent_levels_decode_to_their_colours() {
    let levels = astc_levels("bntx_astc_void_extent");
    for (name, _, l, img) in &levels {
        let rgba: Vec<u8> = l["rgba8"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u8)
            .collect();
        for p in img.pixels() {
            assert_eq!(&p.0[..], &rgba[..], "{name} level {}", l["level"]);
        }
    }
    assert_eq!(levels.len(), 3);
}

/// ASTC stored block-linear (tile mode Optimal, as Nintendo's files store textures), written from the pages and
/// public descriptions of the Tegra X1 layout by `scripts/fixtures/make_bntx.py`: every block of every level has a
/// colour of its own (a void-extent block), so a texture deswizzled with the wrong block order or block height, or
/// decoded with the wrong footprint, decodes to other colours. Every pixel is checked against its block's colour
/// (edge blocks cropped): a 4x4 texture with five levels, an 8x8 one whose dimensions are not multiples of its
/// blocks (and whose block height the file states differs from another rule's), a 5x5 sRGB one taller than wide.
#[test]
fn astc_block_linear_levels_decode_block_by_block() {
    let levels = astc_levels("bntx_astc_block_linear");
    for (name, astc, l, img) in &levels {
        let (bw, bh) = (
            astc["block_width"].as_u64().unwrap() as u32,
            astc["block_height"].as_u64().unwrap() as u32,
        );
        let blocks_x = l["blocks_x"].as_u64().unwrap() as u32;
        let colours: Vec<[u8; 4]> = l["rgba8_hex"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                u32::from_str_radix(h.as_str().unwrap(), 16)
                    .unwrap()
                    .to_be_bytes()
            })
            .collect();
        for (x, y, p) in img.enumerate_pixels() {
            let b = ((y / bh) * blocks_x + x / bw) as usize;
            assert_eq!(
                p.0, colours[b],
                "{name} level {} pixel ({x}, {y}), block {b}",
                l["level"]
            );
        }
    }
    assert_eq!(levels.len(), 11);
}

/// The independent fixtures (linear tiling, pattern data): each texture whose format has a codec decodes to its
/// stated levels; R5G6B5, which has none here, is an error that names the format.
#[test]
fn fixture_textures_decode_or_name_their_format() {
    for name in [
        "bntx_single_rgba8_16x16",
        "bntx_two_bc1_r5g6b5",
        "bntx_four_with_array",
    ] {
        let path = repo().join(format!("tests/fixtures/bntx/{name}.bntx"));
        let m = Bntx::from_binary(&std::fs::read(&path).unwrap()).unwrap();
        for t in m.textures() {
            let layers = t.info.array_layers.max(1);
            let mips = t.mip_levels();
            match t.images() {
                Ok(images) => {
                    assert_eq!(images.len() as u32, layers * mips, "{name}: {}", t.name());
                    let last = images.last().unwrap();
                    assert_eq!((last.layer, last.mip), (layers - 1, mips - 1));
                    assert_eq!(
                        last.image.dimensions(),
                        (
                            (t.info.width >> (mips - 1)).max(1),
                            (t.info.height >> (mips - 1)).max(1)
                        )
                    );
                }
                Err(e) => {
                    let e = e.to_string();
                    assert!(
                        e.contains("no codec here for its format r5g6b5_unorm (0x0701)"),
                        "{name}: {}: {e}",
                        t.name()
                    );
                }
            }
        }
    }
}

#[test]
fn texture_edits_that_cannot_be_done_are_errors() {
    let Some(bytes) = home_bed() else { return };
    let mut m = Bntx::from_binary(&bytes).unwrap();
    let t = m.texture_mut("BedBody_mtl").unwrap();
    let e = t
        .replace_images(&[
            image::RgbaImage::new(128, 128),
            image::RgbaImage::new(64, 64),
        ])
        .unwrap_err()
        .to_string();
    assert!(e.contains("it has 1 layers and 2 images were given"), "{e}");
    let e = t.replace_images(&[]).unwrap_err().to_string();
    assert!(e.contains("it has 1 layers and 0 images were given"), "{e}");
    let e = t.replace_linear_data(&[0; 10]).unwrap_err().to_string();
    assert!(
        e.contains("texture \"BedBody_mtl\": its levels take"),
        "{e}"
    );
    // A crafted size: refused before anything is allocated for it.
    t.info.width = 1 << 20;
    let e = t.images().unwrap_err().to_string();
    assert!(
        e.contains("its width is 1048576 (1 to 32768 are read)"),
        "{e}"
    );
    t.info.width = 16384;
    t.info.height = 16384;
    let e = t.images().unwrap_err().to_string();
    assert!(
        e.contains("its levels take") && e.contains("its data is 46080 bytes"),
        "{e}"
    );
}

/// What a user runs: `binspec extract HomeBed.bntx -o DIR --dds` writes every level as PNG (the sizes the file
/// states, not blank) and each texture as DDS; `binspec import` of that DDS gives the file back byte for byte, and
/// of a PNG, a file whose texture reads back as that PNG (BC1 again: close) and whose other textures are as they
/// were.
#[test]
fn cli_extract_and_import() {
    let Some(bytes) = home_bed() else { return };
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("HomeBed.bntx");
    std::fs::write(&src, &bytes).unwrap();
    let dir = d.path().join("out");
    let r = run(&["extract", s(&src), "-o", s(&dir), "--dds"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.err.contains("extracted 42 files"), "{}", r.err);
    for (name, size, mips) in [
        ("BedBody_alb", 512, 10),
        ("BedBody_mtl", 256, 9),
        ("BedBody_nrm", 512, 10),
        ("BedBody_rgh", 256, 9),
    ] {
        for mip in 0..mips {
            let file = dir.join(if mip == 0 {
                format!("{name}.png")
            } else {
                format!("{name}.mip{mip}.png")
            });
            let img = image::open(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let side = (size >> mip).max(1);
            assert_eq!(
                (img.width(), img.height()),
                (side, side),
                "{}",
                file.display()
            );
            if mip == 0 {
                assert!(
                    distinct(&img.to_rgba8()) > 100,
                    "{} is blank",
                    file.display()
                );
            }
        }
        assert!(!dir.join(format!("{name}.mip{mips}.png")).exists());
    }
    // The DDS back: nothing encoded again, the same file.
    let out = d.path().join("again.bntx");
    let dds = dir.join("BedBody_nrm.dds");
    let r = run(&["import", s(&src), "BedBody_nrm", s(&dds), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        std::fs::read(&out).unwrap() == bytes,
        "DDS imported: not the same file"
    );
    // An edited PNG: the texture reads back as it.
    let png = dir.join("BedBody_alb.png");
    let mut img = image::open(&png).unwrap().to_rgba8();
    for (x, y, p) in img.enumerate_pixels_mut() {
        if x < 128 && y < 128 {
            *p = image::Rgba([255, 0, 0, 255]);
        }
    }
    img.save(&png).unwrap();
    let r = run(&[
        "import",
        s(&src),
        "BedBody_alb",
        s(&png),
        "-o",
        s(&out),
        "--force",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let back = Bntx::from_binary(&std::fs::read(&out).unwrap()).unwrap();
    let level0 = back
        .texture("BedBody_alb")
        .unwrap()
        .images()
        .unwrap()
        .remove(0)
        .image;
    assert_eq!(level0.get_pixel(10, 10).0, [255, 0, 0, 255]);
    let old = Bntx::from_binary(&bytes).unwrap();
    let old0 = old
        .texture("BedBody_alb")
        .unwrap()
        .images()
        .unwrap()
        .remove(0)
        .image;
    let far: usize = level0
        .pixels()
        .zip(old0.pixels())
        .zip(img.pixels())
        .filter(|((a, _), want)| (0..3).any(|c| a.0[c].abs_diff(want.0[c]) > 24))
        .count();
    assert!(far < 512 * 512 / 100, "{far} pixels far from the PNG");
    assert!(back.texture("BedBody_mtl").unwrap().data == old.texture("BedBody_mtl").unwrap().data);
}

/// A hostile or mistaken user: an unknown texture, an image of another size, a DDS given with another file, an
/// image that is not one, import into a format with no textures, and overwriting the input without --force;
/// each is an error that says what, and writes nothing.
#[test]
fn cli_import_errors() {
    let Some(bytes) = home_bed() else { return };
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("HomeBed.bntx");
    std::fs::write(&src, &bytes).unwrap();
    let out = d.path().join("out.bntx");
    let small = d.path().join("small.png");
    image::RgbaImage::new(64, 64).save(&small).unwrap();
    let junk = d.path().join("junk.png");
    std::fs::write(&junk, b"not a PNG at all").unwrap();
    let sarc = repo().join("tests/fixtures/sarc");
    let a_sarc = std::fs::read_dir(&sarc)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "sarc"))
        .unwrap();
    let cases: Vec<(Vec<&str>, &str)> =
        vec![
        (
            vec!["import", s(&src), "Nope", s(&small), "-o", s(&out)],
            "no texture named \"Nope\" (it has BedBody_alb, BedBody_mtl, BedBody_nrm, BedBody_rgh)",
        ),
        (
            vec!["import", s(&src), "BedBody_mtl", s(&small), "x.dds", "-o", s(&out)],
            "a DDS file holds every layer: give it alone",
        ),
        (
            vec!["import", s(&src), "BedBody_mtl", s(&junk), "-o", s(&out)],
            "cannot read the image",
        ),
        (
            vec!["import", s(&a_sarc), "x", s(&small), "-o", s(&out)],
            "sarc has no textures to import into (import takes BNTX files, and BFRES files with an embedded BNTX)",
        ),
        (
            vec!["import", s(&src), "BedBody_mtl", s(&small), "-o", s(&src)],
            "refusing to overwrite the input file",
        ),
    ];
    for (args, want) in cases {
        let r = run(&args);
        assert_ne!(r.code, 0, "{args:?}");
        assert!(r.err.contains(want), "{args:?}: {}", r.err);
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
    assert!(std::fs::read(&src).unwrap() == bytes);
    // An image of another size gives the texture its size.
    let r = run(&["import", s(&src), "BedBody_mtl", s(&small), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let back = Bntx::from_binary(&std::fs::read(&out).unwrap()).unwrap();
    let t = back.texture("BedBody_mtl").unwrap();
    assert_eq!((t.info.width, t.info.height), (64, 64));
    assert_eq!(t.images().unwrap()[0].image.dimensions(), (64, 64));
}

/// Extracting a file with a texture whose format has no codec here writes the others and fails naming it.
#[test]
fn cli_extract_names_the_textures_it_cannot_convert() {
    let d = tempfile::tempdir().unwrap();
    let src = repo().join("tests/fixtures/bntx/bntx_two_bc1_r5g6b5.bntx");
    let dir = d.path().join("out");
    let r = run(&["extract", s(&src), "-o", s(&dir)]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.err.contains("1 textures were not extracted")
            && r.err.contains(
                "\"ui_icon_long_name_r5g6b5\": no codec here for its format r5g6b5_unorm (0x0701)"
            ),
        "{}",
        r.err
    );
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "Stone_Alb.mip1.png",
            "Stone_Alb.mip2.png",
            "Stone_Alb.mip3.png",
            "Stone_Alb.mip4.png",
            "Stone_Alb.mip5.png",
            "Stone_Alb.png"
        ]
    );
}

/// Textures embedded in a BFRES (Super Mario Odyssey's HomeBed.bfres holds `textures.bntx`): `extract` writes the
/// embedded file and its textures under `textures/`; `import` of a DDS it wrote gives the BFRES back byte for
/// byte, and of a PNG, a BFRES whose embedded texture reads back as it; a texture no embedded BNTX has is an error
/// naming the ones there are.
#[test]
fn cli_textures_embedded_in_bfres() {
    let src = repo().join("../shared/corpus/real/bfres/HomeBed.bfres");
    let Ok(bytes) = std::fs::read(&src) else {
        return eprintln!("skipped: {} is absent", src.display());
    };
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("out");
    let r = run(&["extract", s(&src), "-o", s(&dir), "--dds"]);
    assert_eq!(r.code, 0, "{}", r.err);
    let embedded = std::fs::read(dir.join("textures.bntx")).unwrap();
    assert!(embedded.starts_with(b"BNTX"));
    let img = image::open(dir.join("textures/BedBody_alb.png")).unwrap();
    assert_eq!((img.width(), img.height()), (512, 512));
    assert!(distinct(&img.to_rgba8()) > 100);
    assert!(dir.join("textures/BedBody_rgh.mip8.png").exists());
    // The DDS back: the same BFRES.
    let out = d.path().join("again.bfres");
    let dds = dir.join("textures/BedBody_nrm.dds");
    let r = run(&["import", s(&src), "BedBody_nrm", s(&dds), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(std::fs::read(&out).unwrap() == bytes, "not the same BFRES");
    // A PNG: the embedded texture reads back as it.
    let mut red = image::RgbaImage::new(256, 256);
    for p in red.pixels_mut() {
        *p = image::Rgba([200, 0, 0, 255]);
    }
    let png = d.path().join("red.png");
    red.save(&png).unwrap();
    let r = run(&[
        "import",
        s(&src),
        "BedBody_mtl",
        s(&png),
        "-o",
        s(&out),
        "--force",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let back = binspec_formats::bfres::Bfres::from_binary(&std::fs::read(&out).unwrap()).unwrap();
    let files = back.embedded_files();
    let bntx = Bntx::from_binary(&files[0].1.data).unwrap();
    let level0 = bntx
        .texture("BedBody_mtl")
        .unwrap()
        .images()
        .unwrap()
        .remove(0)
        .image;
    // (BC4 keeps the red channel.)
    assert_eq!(level0.get_pixel(100, 100).0[0], 200);
    // A PNG of another size: the embedded BNTX grows, and the BFRES's layout after it (the relocation table) with
    // it; the file reads back whole, its other textures as they were.
    let big = d.path().join("big.png");
    image::RgbaImage::from_pixel(1024, 1024, image::Rgba([0, 0, 200, 255]))
        .save(&big)
        .unwrap();
    let r = run(&[
        "import",
        s(&src),
        "BedBody_mtl",
        s(&big),
        "-o",
        s(&out),
        "--force",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let grown = std::fs::read(&out).unwrap();
    assert!(grown.len() > bytes.len() + 0x80000, "{} bytes", grown.len());
    let back = binspec_formats::bfres::Bfres::from_binary(&grown).unwrap();
    assert_eq!(back.to_binary().unwrap(), grown);
    let files = back.embedded_files();
    let bntx = Bntx::from_binary(&files[0].1.data).unwrap();
    let t = bntx.texture("BedBody_mtl").unwrap();
    let level0 = t.images().unwrap().remove(0).image;
    assert_eq!((level0.width(), level0.height()), (1024, 1024));
    let alb = bntx
        .texture("BedBody_alb")
        .unwrap()
        .images()
        .unwrap()
        .remove(0)
        .image;
    assert_eq!((alb.width(), alb.height()), (512, 512));
    let r = run(&["check", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let r = run(&["import", s(&src), "Nope", s(&png), "-o", s(&out), "--force"]);
    assert_eq!(r.code, 1);
    assert!(
        r.err.contains("no embedded BNTX has a texture named \"Nope\" (they have BedBody_alb, BedBody_mtl, BedBody_nrm, BedBody_rgh)"),
        "{}",
        r.err
    );
}

/// A tile mode the schema does not name is an error when writing pixels, as when reading them (it was written as
/// if linear).
#[test]
fn an_unknown_tile_mode_is_refused_both_ways() {
    let path = repo().join("tests/fixtures/bntx/bntx_single_rgba8_16x16.bntx");
    let mut m = Bntx::from_binary(&std::fs::read(&path).unwrap()).unwrap();
    let t = &mut m.container.textures[0].texture;
    let linear = t.linear_data().unwrap();
    t.info.tile_mode = binspec_formats::bntx::TileMode::Unknown(5);
    let e = t.linear_data().unwrap_err().to_string();
    assert!(e.contains("unknown tile mode 5"), "{e}");
    let before = t.data.clone();
    let e = t.replace_linear_data(&linear).unwrap_err().to_string();
    assert!(e.contains("unknown tile mode 5"), "{e}");
    assert!(t.data == before);
}

/// `binspec import FILE.bntx NEW IMAGE.png --like TEXTURE -o OUT` adds a texture: OUT has it last, with the image's
/// size, made like TEXTURE (its format), and every texture the file had with its pixels; `binspec extract` writes
/// it as a PNG of that size. A name that is taken, a template that is not there, and a DDS are errors that write
/// nothing.
#[test]
fn cli_import_like_adds_a_texture() {
    let Some(bytes) = home_bed() else { return };
    let d = tempfile::tempdir().unwrap();
    let (src, png, out) = (
        d.path().join("HomeBed.bntx"),
        d.path().join("new.png"),
        d.path().join("out.bntx"),
    );
    std::fs::write(&src, &bytes).unwrap();
    image::RgbaImage::from_fn(48, 24, |x, y| {
        image::Rgba([(x * 5) as u8, (y * 10) as u8, 90, 255])
    })
    .save(&png)
    .unwrap();
    let r = run(&[
        "import",
        s(&src),
        "Added",
        s(&png),
        "--like",
        "BedBody_nrm",
        "-o",
        s(&out),
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.err.contains("added the texture \"Added\""), "{}", r.err);
    let before = Bntx::from_binary(&bytes).unwrap();
    let back = Bntx::from_binary(&std::fs::read(&out).unwrap()).unwrap();
    let names: Vec<&str> = back.textures().map(|t| t.name()).collect();
    assert_eq!(names.last(), Some(&"Added"));
    assert_eq!(names.len(), 5);
    let t = back.texture("Added").unwrap();
    assert_eq!((t.info.width, t.info.height), (48, 24));
    assert_eq!(
        t.info.image_format,
        before.texture("BedBody_nrm").unwrap().info.image_format
    );
    for old in before.textures() {
        let new = back.texture(old.name()).unwrap();
        let px = |t: &binspec_formats::bntx::TextureInfo| -> Vec<Vec<u8>> {
            t.images()
                .unwrap()
                .into_iter()
                .map(|i| i.image.into_raw())
                .collect()
        };
        assert_eq!(px(new), px(old), "{}", old.name());
    }
    let dir = d.path().join("x");
    let r = run(&["extract", s(&out), "-o", s(&dir)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let png_out = image::open(dir.join("Added.png")).unwrap().to_rgba8();
    assert_eq!(png_out.dimensions(), (48, 24));

    std::fs::remove_file(&out).unwrap();
    for (args, want) in [
        (
            vec![
                "import",
                s(&src),
                "BedBody_alb",
                s(&png),
                "--like",
                "BedBody_nrm",
                "-o",
                s(&out),
            ],
            "a texture is named \"BedBody_alb\" already",
        ),
        (
            vec![
                "import",
                s(&src),
                "Added",
                s(&png),
                "--like",
                "Nope",
                "-o",
                s(&out),
            ],
            "no texture is named \"Nope\"",
        ),
        (
            vec![
                "import",
                s(&src),
                "Added",
                "x.dds",
                "--like",
                "BedBody_nrm",
                "-o",
                s(&out),
            ],
            "not from a DDS file",
        ),
    ] {
        let r = run(&args);
        assert_ne!(r.code, 0, "{args:?}");
        assert!(r.err.contains(want), "{args:?}: {}", r.err);
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
}
