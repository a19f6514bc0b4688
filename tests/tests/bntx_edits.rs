//! BNTX edits that move data: a texture renamed to a longer name, through the CLI (decode, edit the text, encode)
//! and through the model. The string pool, the dictionary after it and every `BRTI` block move; the writer derives
//! their pointers, the names' pointers, the string count and the relocation table. Super Mario Odyssey's
//! HomeBed.bntx from the shared corpus (skipped with a message when absent) and the fixtures.

use std::path::{Path, PathBuf};

use binspec_formats::bntx::Bntx;
use binspec_runtime::layout::resdic;
use binspec_runtime::Format as _;

use binspec_tests::{nn_util_relocation_entries, repo, run};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn home_bed() -> Option<(PathBuf, Vec<u8>)> {
    let path = repo().join("../shared/corpus/real/bntx/HomeBed.bntx");
    match std::fs::read(&path) {
        Ok(b) => Some((path, b)),
        Err(_) => {
            eprintln!("skipped: {} is absent", path.display());
            None
        }
    }
}

/// Every texture's pixels, by name.
fn pixels(m: &Bntx) -> Vec<(String, Vec<image::RgbaImage>)> {
    m.textures()
        .map(|t| {
            let images = t.images().unwrap_or_else(|e| panic!("{}: {e}", t.name()));
            (
                t.name().to_string(),
                images.into_iter().map(|i| i.image).collect(),
            )
        })
        .collect()
}

/// The dictionary as written finds every key at its index.
fn dictionary_finds_its_keys(out: &[u8], m: &Bntx) {
    let keys: Vec<String> = m.container.dictionary.nodes[1..]
        .iter()
        .map(|n| n.key.as_ref().unwrap().data.to_string())
        .collect();
    let at = u64::from_le_bytes(out[0x38..0x40].try_into().unwrap()) as usize;
    let nodes = binspec_tests::nn_util_dictionary_nodes(out, at, keys.len());
    for (i, k) in keys.iter().enumerate() {
        assert_eq!(resdic::lookup(&nodes, &keys, k.as_bytes()), Some(i), "{k}");
    }
}

/// The block chain as a loader walks it, from the file header's first block offset through each next block offset:
/// `_STR`, one `BRTI` per texture and `BRTD`, each block's size reaching the next block (the last's, the relocation
/// table).
fn chain_is_whole(out: &[u8], textures: usize) {
    let u32_at = |p: usize| u32::from_le_bytes(out[p..p + 4].try_into().unwrap()) as usize;
    let mut at = u16::from_le_bytes(out[0x16..0x18].try_into().unwrap()) as usize;
    let mut magics = Vec::new();
    loop {
        magics.push(String::from_utf8_lossy(&out[at..at + 4]).into_owned());
        let (next, size) = (u32_at(at + 4), u32_at(at + 8));
        if next == 0 {
            assert_eq!(
                at + size,
                u32_at(0x18),
                "the last block reaches the relocation table"
            );
            break;
        }
        assert_eq!(size, next, "the block at {at:#x} reaches the next");
        at += next;
    }
    let mut want = vec!["_STR".to_string()];
    want.extend(std::iter::repeat_n("BRTI".to_string(), textures));
    want.push("BRTD".into());
    assert_eq!(magics, want);
}

/// Each listed pointer of the relocation table, from the file's bytes.
fn listed(file: &[u8]) -> Vec<u64> {
    let mut ps: Vec<u64> = nn_util_relocation_entries(file)
        .iter()
        .flat_map(|&[p, s, c, pad]| {
            (0..s).flat_map(move |g| (0..c).map(move |k| p + 8 * (g * (c + pad) + k)))
        })
        .collect();
    ps.sort_unstable();
    ps
}

/// The same texture renamed through the CLI: the name is edited where the document has it (the texture's, the
/// dictionary key's and the string pool's list), and the file that comes out reads back with the new name, a
/// dictionary that finds it, the same pixels, and a relocation table that the model keeps nothing of.
#[test]
fn a_longer_name_through_the_cli_moves_what_follows() {
    let Some((path, bytes)) = home_bed() else {
        return;
    };
    let d = tempfile::tempdir().unwrap();
    let (doc, out) = (d.path().join("h.yaml"), d.path().join("h.bntx"));
    let r = run(&["decode", s(&path), "-o", s(&doc)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(!r.err.contains("warning"), "{}", r.err);
    let text = std::fs::read_to_string(&doc).unwrap();
    assert_eq!(text.matches("data: BedBody_mtl\n").count(), 3, "{text}");
    let edited = text.replace("data: BedBody_mtl\n", "data: BedBody_metallic_roughness\n");
    std::fs::write(&doc, edited).unwrap();
    let r = run(&["encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let written = std::fs::read(&out).unwrap();
    let back = Bntx::from_binary(&written).unwrap();
    let before = Bntx::from_binary(&bytes).unwrap();
    let names: Vec<&str> = back.textures().map(|t| t.name()).collect();
    assert_eq!(
        names,
        [
            "BedBody_alb",
            "BedBody_metallic_roughness",
            "BedBody_nrm",
            "BedBody_rgh"
        ]
    );
    dictionary_finds_its_keys(&written, &back);
    // The string pool holds as many strings as before (the old name's place taken by the new one).
    assert_eq!(
        back.string_pool.strings.len(),
        before.string_pool.strings.len()
    );
    // The BRTI blocks moved after the longer string pool; the pixels did not change.
    let first = |b: &[u8]| u64::from_le_bytes(b[0x198..0x1a0].try_into().unwrap());
    assert!(first(&written) > first(&bytes));
    let renamed = |p: Vec<(String, Vec<image::RgbaImage>)>| -> Vec<Vec<image::RgbaImage>> {
        p.into_iter().map(|(_, i)| i).collect()
    };
    assert_eq!(renamed(pixels(&back)), renamed(pixels(&before)));
    // Nintendo's way of listing the pointers, derived for the new positions: nothing kept.
    for sec in &back.relocation_table.sections {
        assert!(sec.entries.is_none());
    }
    assert_eq!(listed(&written).len(), listed(&bytes).len());
    // The blocks chain through their new places.
    chain_is_whole(&written, 4);
    // And the file reads back as the same document, written again byte for byte.
    assert_eq!(back.to_binary().unwrap(), written);
}

/// Renamed through the model, where only the texture and its dictionary key are given the new name: the string
/// pool keeps the strings the file held (the old name, which nothing points to now, stays in its place) and adds
/// the new one after them; the string count counts it.
#[test]
fn a_new_name_goes_after_the_strings_the_file_held() {
    let Some((_, bytes)) = home_bed() else {
        return;
    };
    let mut m = Bntx::from_binary(&bytes).unwrap();
    let n = m.string_pool.strings.len();
    let new = "BedBody_metalness";
    m.texture_mut("BedBody_mtl").unwrap().name.data = new.into();
    for node in m.container.dictionary.nodes.iter_mut() {
        if let Some(k) = node.key.as_mut().filter(|k| &*k.data == "BedBody_mtl") {
            k.data = new.into();
        }
    }
    let out = m.to_binary().unwrap();
    let back = Bntx::from_binary(&out).unwrap();
    let strings: Vec<&str> = back.string_pool.strings.iter().map(|s| &*s.data).collect();
    assert_eq!(strings.len(), n + 1, "{strings:?}");
    assert_eq!(strings.last(), Some(&new));
    assert!(strings.contains(&"BedBody_mtl"));
    // The string count in the file says so: at the string pool block's 0x10 (the block is at the header's 0x16).
    let pool = u16::from_le_bytes([out[0x16], out[0x17]]) as usize;
    let count = u32::from_le_bytes(out[pool + 0x10..pool + 0x14].try_into().unwrap());
    assert_eq!(count as usize, n);
    assert!(back.texture(new).is_some());
    dictionary_finds_its_keys(&out, &back);
}

/// Each fixture renamed the same way (a one-byte longer name for every texture) reads back with its names and
/// data (one fixture's format, r5g6b5, has no codec here: its bytes are compared).
#[test]
fn every_fixture_takes_longer_names() {
    let dir = repo().join("tests/fixtures/bntx");
    let files = binspec_tests::files_under(&dir);
    let mut done = 0;
    for f in files
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "bntx"))
    {
        let bytes = std::fs::read(f).unwrap();
        let mut m = Bntx::from_binary(&bytes).unwrap();
        let data = |m: &Bntx| -> Vec<(String, Vec<u8>)> {
            m.textures()
                .map(|t| (t.name().to_string(), t.data.to_vec()))
                .collect()
        };
        let before = data(&m);
        let names: Vec<String> = m.textures().map(|t| t.name().to_string()).collect();
        for name in &names {
            let longer = format!("{name}x");
            m.texture_mut(name).unwrap().name.data = longer.as_str().into();
            for node in m.container.dictionary.nodes.iter_mut() {
                if let Some(k) = node.key.as_mut().filter(|k| *k.data == **name) {
                    k.data = longer.as_str().into();
                }
            }
        }
        let out = m
            .to_binary()
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let back = Bntx::from_binary(&out).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let got = data(&back);
        let want: Vec<(String, Vec<u8>)> = before
            .into_iter()
            .map(|(n, i)| (format!("{n}x"), i))
            .collect();
        assert_eq!(got, want, "{}", f.display());
        dictionary_finds_its_keys(&out, &back);
        chain_is_whole(&out, names.len());
        done += 1;
    }
    assert_eq!(done, 5);
}

/// A texture removed (`Bntx::remove_texture`: its entry in the container's array and its dictionary node): the file that
/// comes out has three textures, a dictionary that finds their names, their pixels as before, and a string pool
/// that still lists the removed name (the strings the file held are kept) while nothing points to it. The GPU
/// region closes up: the other textures' data moves where the removed one's was (their mip level pointers
/// follow), the relocation table comes that much earlier, and every pointer left is listed in it.
#[test]
fn a_texture_removed_leaves_the_others_as_they_were() {
    let Some((_, bytes)) = home_bed() else {
        return;
    };
    let before = Bntx::from_binary(&bytes).unwrap();
    let mut m = before.clone();
    let gone = "BedBody_nrm";
    m.remove_texture(gone).unwrap();
    assert!(m.remove_texture(gone).is_err(), "removed twice");
    let out = m.to_binary().unwrap();
    let back = Bntx::from_binary(&out).unwrap();
    let names: Vec<&str> = back.textures().map(|t| t.name()).collect();
    assert_eq!(names, ["BedBody_alb", "BedBody_mtl", "BedBody_rgh"]);
    dictionary_finds_its_keys(&out, &back);
    let kept: Vec<(String, Vec<image::RgbaImage>)> = pixels(&before)
        .into_iter()
        .filter(|(n, _)| n != gone)
        .collect();
    assert_eq!(pixels(&back), kept);
    // The container's count is derived: 3.
    assert_eq!(u32::from_le_bytes(out[0x24..0x28].try_into().unwrap()), 3);
    chain_is_whole(&out, 3);
    // Its data is gone: the file is shorter by it (the relocation table is aligned to 0x1000 after the data).
    let t = before.texture(gone).unwrap();
    let shorter = bytes.len() - out.len();
    assert!(
        shorter + 0x1000 > t.data.len() && shorter <= t.data.len() + 0x1000,
        "{shorter:#x} bytes shorter, the data was {:#x}",
        t.data.len()
    );
    // The removed texture's pointers are no longer listed (each mip level's; its name's, its container's, its
    // mip level array's, its in-place texture's and view's; its entry in the container's array and its
    // dictionary key's); every other one is.
    let gone_ptrs = t.mip_ptrs.len() + 5 + 2;
    assert_eq!(listed(&out).len(), listed(&bytes).len() - gone_ptrs);
    assert_eq!(back.to_binary().unwrap(), out);
}

/// Renamed through `Bntx::rename_texture`, in every fixture: the texture and its dictionary key take the new name,
/// the file reads back with it where the old one was, the dictionary finds every key, the pixels of every texture
/// are what they were, and the file writes itself again byte for byte. A name another texture has, or one no
/// texture has, is an error that changes nothing.
#[test]
fn a_texture_renamed_through_the_api() {
    let mut n = 0;
    for p in binspec_tests::files_under(&repo().join("tests/fixtures/bntx")) {
        if p.extension().and_then(|e| e.to_str()) != Some("bntx") {
            continue;
        }
        let bytes = std::fs::read(&p).unwrap();
        let before = Bntx::from_binary(&bytes).unwrap();
        let names: Vec<String> = before.textures().map(|t| t.name().to_string()).collect();
        let mut m = before.clone();
        let old = names.last().unwrap().clone();
        let new = format!("{old}_renamed_longer");
        m.rename_texture(&old, &new).unwrap();
        let out = m.to_binary().unwrap();
        let back = Bntx::from_binary(&out).unwrap();
        let got: Vec<&str> = back.textures().map(|t| t.name()).collect();
        let mut want: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
        *want.last_mut().unwrap() = &new;
        assert_eq!(got, want, "{}", p.display());
        dictionary_finds_its_keys(&out, &back);
        let images = |m: &Bntx| -> Vec<Vec<Vec<u8>>> {
            m.textures()
                .map(|t| {
                    t.images()
                        .map(|i| i.into_iter().map(|x| x.image.into_raw()).collect())
                        .unwrap_or_default()
                })
                .collect()
        };
        assert_eq!(images(&back), images(&before), "{}", p.display());
        assert_eq!(back.to_binary().unwrap(), out, "{}", p.display());
        // Refused, and nothing changed.
        let mut again = back.clone();
        if names.len() > 1 {
            let e = again.rename_texture(&names[0], &new).unwrap_err();
            assert!(e.to_string().contains("already"), "{e}");
        }
        let e = again.rename_texture("no such texture", "x").unwrap_err();
        assert!(e.to_string().contains("no texture"), "{e}");
        assert_eq!(again, back);
        n += 1;
    }
    assert!(n >= 4, "{n} fixtures");
}

/// Names long enough to move the last `BRTI` block's pointers past where the relocation table's first section
/// ended in the file read (HomeBed.bntx: 0xe20), and then the GPU region past where it was (0xff0): the table's
/// sections follow the blocks (a 150-byte name once left a pointer unlisted, which the game would not have
/// relocated), the GPU region moves to the next place its data is aligned to 0x1000 (a 600-byte name was refused,
/// the region being where the file had it), the mip level pointers follow it, and the pixels are the same.
#[test]
fn a_much_longer_name_keeps_every_pointer_listed() {
    let Some((_, bytes)) = home_bed() else {
        return;
    };
    let before = Bntx::from_binary(&bytes).unwrap();
    for len in [150, 600] {
        let mut m = before.clone();
        let old = m.textures().last().unwrap().name().to_string();
        m.rename_texture(&old, &"x".repeat(len)).unwrap();
        let out = m.to_binary().unwrap();
        assert_eq!(listed(&out).len(), listed(&bytes).len(), "{len}");
        let back = Bntx::from_binary(&out).unwrap();
        assert_eq!(back.to_binary().unwrap(), out, "{len}");
        chain_is_whole(&out, 4);
        let brtd = out.windows(4).position(|w| w == b"BRTD").unwrap();
        assert_eq!((brtd + 0x10) % 0x1000, 0, "{len}: the GPU data is aligned");
        if len == 600 {
            assert!(brtd > 0xff0, "the GPU region moved");
        }
        let unnamed = |p: Vec<(String, Vec<image::RgbaImage>)>| -> Vec<Vec<image::RgbaImage>> {
            p.into_iter().map(|(_, i)| i).collect()
        };
        assert_eq!(unnamed(pixels(&back)), unnamed(pixels(&before)), "{len}");
    }
}

/// A 2D image of `w` x `h` pixels: a gradient over red and green, blue a checker of 8-pixel squares, opaque.
fn gradient(w: u32, h: u32) -> image::RgbaImage {
    image::RgbaImage::from_fn(w, h, |x, y| {
        let b = if (x / 8 + y / 8) % 2 == 0 { 255 } else { 0 };
        image::Rgba([
            (x * 255 / w.max(2)) as u8,
            (y * 255 / h.max(2)) as u8,
            b,
            255,
        ])
    })
}

/// The mean absolute difference per channel between two images of one size.
fn mean_diff(a: &image::RgbaImage, b: &image::RgbaImage) -> f64 {
    let n = a.as_raw().len() as f64;
    a.as_raw()
        .iter()
        .zip(b.as_raw())
        .map(|(x, y)| (i32::from(*x) - i32::from(*y)).unsigned_abs() as f64)
        .sum::<f64>()
        / n
}

/// A texture added through `Bntx::add_texture`, of a size no texture of the file has (64x32, like the 512x512
/// BC1 `BedBody_alb`): the file comes out with five textures, the new one last, with its size, as many mip levels
/// as 64 pixels have (7), its pixels (BC1 loses a little), a dictionary that finds every name, every other
/// texture's pixels as they were, its `BRTI` block in the chain, every pointer listed, and its data in the GPU
/// region, which stays aligned; it writes itself again byte for byte. A name that is taken, or a template that
/// is not there, is an error that changes nothing.
#[test]
fn a_texture_added_through_the_api() {
    let Some((_, bytes)) = home_bed() else {
        return;
    };
    let before = Bntx::from_binary(&bytes).unwrap();
    let mut m = before.clone();
    let img = gradient(64, 32);
    m.add_texture("BedBody_new", "BedBody_alb", std::slice::from_ref(&img))
        .unwrap();
    let out = m.to_binary().unwrap();
    let back = Bntx::from_binary(&out).unwrap();
    let names: Vec<&str> = back.textures().map(|t| t.name()).collect();
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
    dictionary_finds_its_keys(&out, &back);
    let t = back.texture("BedBody_new").unwrap();
    assert_eq!((t.info.width, t.info.height), (64, 32));
    assert_eq!(t.mip_levels(), 7);
    let images = t.images().unwrap();
    assert_eq!(images.len(), 7);
    assert_eq!(images[0].image.dimensions(), (64, 32));
    let d = mean_diff(&images[0].image, &img);
    assert!(
        d < 12.0,
        "the first level differs from the image by {d:.1} per channel"
    );
    assert_eq!(images[6].image.dimensions(), (1, 1));
    // The others' pixels as they were.
    let old: Vec<(String, Vec<image::RgbaImage>)> = pixels(&back).into_iter().take(4).collect();
    assert_eq!(old, pixels(&before));
    chain_is_whole(&out, 5);
    // Its pointers: each mip level's; its name's, container's, mip level array's, in-place texture's and view's;
    // its entry in the container's array, and its dictionary key's.
    assert_eq!(listed(&out).len(), listed(&bytes).len() + 7 + 5 + 2);
    let brtd = out.windows(4).position(|w| w == b"BRTD").unwrap();
    assert_eq!((brtd + 0x10) % 0x1000, 0, "the GPU data is aligned");
    assert_eq!(back.to_binary().unwrap(), out);

    // Taken names and missing templates change nothing.
    let mut again = back.clone();
    assert!(again
        .add_texture("BedBody_mtl", "BedBody_alb", std::slice::from_ref(&img))
        .is_err());
    assert!(again
        .add_texture("Other", "Nothing", std::slice::from_ref(&img))
        .is_err());
    assert_eq!(again, back);
}

/// A texture given pixels of another size (`TextureInfo::replace_images`): it takes their size and as many mip
/// levels as the size has, the file reads back with it, and what follows its data in the GPU region moves.
#[test]
fn a_texture_given_another_size() {
    let Some((_, bytes)) = home_bed() else {
        return;
    };
    let before = Bntx::from_binary(&bytes).unwrap();
    let mut m = before.clone();
    let img = gradient(128, 256);
    m.texture_mut("BedBody_alb")
        .unwrap()
        .replace_images(std::slice::from_ref(&img))
        .unwrap();
    let out = m.to_binary().unwrap();
    let back = Bntx::from_binary(&out).unwrap();
    let t = back.texture("BedBody_alb").unwrap();
    assert_eq!((t.info.width, t.info.height), (128, 256));
    // As many mip levels as 256 pixels have (9; it had 10 at 512x512).
    assert_eq!(before.texture("BedBody_alb").unwrap().mip_levels(), 10);
    assert_eq!(t.mip_levels(), 9);
    let first = &t.images().unwrap()[0].image;
    assert_eq!(first.dimensions(), (128, 256));
    assert!(mean_diff(first, &img) < 12.0);
    let others = |m: &Bntx| -> Vec<(String, Vec<image::RgbaImage>)> {
        pixels(m)
            .into_iter()
            .filter(|(n, _)| n != "BedBody_alb")
            .collect()
    };
    assert_eq!(others(&back), others(&before));
    // One mip level pointer fewer; every one listed.
    assert_eq!(listed(&out).len(), listed(&bytes).len() - 1);
    chain_is_whole(&out, 4);
    assert_eq!(back.to_binary().unwrap(), out);
}

/// A texture renamed in the document but not in the dictionary (a hand edit of one place of three): `encode`
/// still writes the file, and warns that the game finds textures by the dictionary's keys; renamed in both, no
/// warning.
#[test]
fn a_name_edited_without_its_key_is_warned_about() {
    let Some((path, _)) = home_bed() else {
        return;
    };
    let d = tempfile::tempdir().unwrap();
    let (doc, out) = (d.path().join("h.yaml"), d.path().join("h.bntx"));
    let r = run(&["decode", s(&path), "-o", s(&doc)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let text = std::fs::read_to_string(&doc).unwrap();
    // The texture's name comes first in the document, then its dictionary key, then the string pool's list.
    let one = text.replacen("data: BedBody_mtl\n", "data: BedBody_metal\n", 1);
    std::fs::write(&doc, &one).unwrap();
    let r = run(&["encode", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.err.contains(
            "warning: ") && r.err.contains("texture 1 is named \"BedBody_metal\" and the dictionary's key 1 is \"BedBody_mtl\""),
        "{}",
        r.err
    );
    let both = text.replacen("data: BedBody_mtl\n", "data: BedBody_metal\n", 2);
    std::fs::write(&doc, &both).unwrap();
    let r = run(&["encode", s(&doc), "-o", s(&out), "--force"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(!r.err.contains("warning"), "{}", r.err);
}
