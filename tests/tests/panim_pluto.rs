//! Pluto's binary `.panim` (`schemas/panim_pluto.ksy`): the fixtures written by `scripts/fixtures/make_pluto.py`
//! (an independent writer, from the seed's text alone) read as their sidecar `.expected.json` says and are written
//! back byte for byte; the float helpers, edits, and the writer's `-scan` checks.

use binspec_formats::panim_pluto::{LoopMode, PanimPluto};
use binspec_formats::Format;
use binspec_tests::{difference, repo};
use serde_json::Value;
use std::path::PathBuf;

fn fixtures() -> Vec<PathBuf> {
    let dir = repo().join("tests/fixtures/panim_pluto");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "panim"))
        .collect();
    v.sort();
    assert!(v.len() >= 7, "fixtures missing in {}", dir.display());
    v
}

fn expected(p: &std::path::Path) -> Value {
    let j = p.with_extension("expected.json");
    serde_json::from_slice(&std::fs::read(&j).unwrap()).unwrap()
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

fn floats(v: &Value) -> Vec<f32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect()
}

#[test]
fn fixtures_read_as_the_independent_writer_says() {
    for p in fixtures() {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let data = std::fs::read(&p).unwrap();
        assert!(PanimPluto::sniff(&data), "{name}: not recognised");
        let a = PanimPluto::from_binary(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        let x = expected(&p);
        assert_eq!(a.name, x["name"].as_str().unwrap(), "{name}");
        assert_eq!(a.author, x["author"].as_str().unwrap(), "{name}");
        assert_eq!(
            a.looping == LoopMode::Looping,
            x["looping"].as_bool().unwrap(),
            "{name}"
        );
        assert_eq!(a.length as i64, x["length"].as_i64().unwrap(), "{name}");
        assert_eq!(
            a.node_count as i64,
            x["node_count"].as_i64().unwrap(),
            "{name}"
        );
        assert_eq!(
            a.bone_count() as i64,
            x["bone_count"].as_i64().unwrap(),
            "{name}"
        );
        let vals: Vec<i64> = a.values.iter().map(|&v| v as i64).collect();
        assert_eq!(vals, ints(&x["values"]), "{name}: values");
        let idx: Vec<i64> = a.indices.iter().map(|&v| v as i64).collect();
        assert_eq!(idx, ints(&x["indices"]), "{name}: indices");
        for (key, tracks) in [
            ("translations", a.translations.as_ref().map(|s| &s.tracks)),
            ("scales", a.scales.as_ref().map(|s| &s.tracks)),
        ] {
            let want = &x[key];
            let Some(t) = tracks else {
                assert!(want.is_null(), "{name}: {key} missing");
                continue;
            };
            assert!(!want.is_null(), "{name}: {key} not expected");
            assert_eq!(t.frame_count as i64, want["frame_count"].as_i64().unwrap());
            assert_eq!(t.bones.len() as i64, want["bone_count"].as_i64().unwrap());
            let present: Vec<i64> = t
                .bones
                .iter()
                .enumerate()
                .filter(|(_, b)| b.frames.is_some())
                .map(|(i, _)| i as i64)
                .collect();
            assert_eq!(present, ints(&want["present_bones"]), "{name}: {key}");
            assert_eq!(t.mask, None, "{name}: {key}: the mask is derived");
            for s in want["samples"].as_array().unwrap() {
                let (bone, frame) = (
                    s["bone"].as_u64().unwrap() as usize,
                    s["frame"].as_u64().unwrap() as usize,
                );
                if key == "translations" {
                    let got = a.translation(bone, frame);
                    let w: Vec<f32> = ints(&s["translation"]).iter().map(|&v| v as f32).collect();
                    assert_eq!(got.to_vec(), w, "{name}: translation {bone} {frame}");
                } else {
                    let got = a.scale(bone, frame);
                    assert_eq!(
                        got.to_vec(),
                        floats(&s["scale"]),
                        "{name}: scale {bone} {frame}"
                    );
                }
            }
        }
    }
}

#[test]
fn fixtures_are_written_back_byte_for_byte() {
    for p in fixtures() {
        let data = std::fs::read(&p).unwrap();
        let a = PanimPluto::from_binary(&data).unwrap();
        let out = a.to_binary().unwrap();
        if let Some(d) = difference(&out, &data) {
            panic!("{}: {d}", p.display());
        }
        // Through the text form too.
        let back = PanimPluto::from_text(&a.to_text().unwrap()).unwrap();
        assert_eq!(back.to_binary().unwrap(), data, "{}", p.display());
    }
}

fn load(name: &str) -> PanimPluto {
    let p = repo().join("tests/fixtures/panim_pluto").join(name);
    PanimPluto::from_binary(&std::fs::read(p).unwrap()).unwrap()
}

#[test]
fn edits_derive_masks_counts_and_sections() {
    // A file without optional sections gains a translation: the section, its bone count and mask are derived.
    let mut a = load("pluto_idle_core_only.panim");
    assert!(a.translations.is_none() && a.scales.is_none());
    let bones = a.bone_count();
    assert!(bones >= 2);
    a.set_translation(1, 2, [10.4, -3.6, 40000.0]).unwrap();
    let bytes = a.to_binary().unwrap();
    let b = PanimPluto::from_binary(&bytes).unwrap();
    assert_eq!(
        b.translation(1, 2),
        [10.0, -4.0, 32767.0],
        "rounded and clamped"
    );
    assert_eq!(b.translation(0, 2), [0.0; 3], "a bone without a track");
    let t = &b.translations.as_ref().unwrap().tracks;
    assert_eq!(t.bones.len(), bones);
    assert_eq!(t.frame_count, a.length);
    let present: Vec<bool> = t.bones.iter().map(|x| x.frames.is_some()).collect();
    assert!(present[1] && present.iter().filter(|&&p| p).count() == 1);
    // The mask byte on disk: bit 1.
    let tag = bytes
        .windows(12)
        .position(|w| w == b"translations")
        .unwrap();
    assert_eq!(bytes[tag + 12 + 4], 0b10);
    // Back to zero: the track and then the section are omitted again, and the file is the original.
    let mut c = b.clone();
    c.set_translation(1, 2, [0.0; 3]).unwrap();
    assert!(c.translations.is_none());
    assert_eq!(
        c.to_binary().unwrap(),
        std::fs::read(repo().join("tests/fixtures/panim_pluto/pluto_idle_core_only.panim"))
            .unwrap()
    );
    // Scales: 1024 is 1.0; a scale track that returns to 1.0 is omitted.
    let mut s = load("pluto_idle_core_only.panim");
    s.set_scale(0, 0, [2.0, 0.5, -40.0]).unwrap();
    let s2 = PanimPluto::from_binary(&s.to_binary().unwrap()).unwrap();
    assert_eq!(
        s2.scale(0, 0),
        [2.0, 0.5, -32.0],
        "-40 * 1024 clamps to -32768"
    );
    assert_eq!(s2.scale(0, 1), [1.0; 3]);
    assert!(
        s2.translations.is_none(),
        "scales alone are written and read back"
    );
    let mut s3 = s2.clone();
    s3.set_scale(0, 0, [1.0; 3]).unwrap();
    assert!(s3.scales.is_none());
    // Out of range.
    assert!(a.set_translation(bones, 0, [1.0; 3]).is_err());
    assert!(a.set_translation(0, a.length as usize, [1.0; 3]).is_err());
}

#[test]
fn more_than_eight_bones_use_a_multi_byte_mask() {
    let a = load("pluto_dance_11bones_multibyte_mask.panim");
    let t = &a.translations.as_ref().unwrap().tracks;
    assert_eq!(t.bones.len(), 11);
    // Dropping bone 10 (in the second mask byte) changes only that bit and removes its track's bytes.
    let mut b = a.clone();
    let before = b.to_binary().unwrap().len();
    let frames = b.translations.as_ref().unwrap().tracks.frame_count as usize;
    b.translations.as_mut().unwrap().tracks.bones[10].frames = None;
    let out = b.to_binary().unwrap();
    assert_eq!(out.len(), before - frames * 6);
    let back = PanimPluto::from_binary(&out).unwrap();
    assert!(back.translations.as_ref().unwrap().tracks.bones[10]
        .frames
        .is_none());
    assert!(back.translations.as_ref().unwrap().tracks.bones[8]
        .frames
        .is_some());
}

#[test]
fn data_that_contains_a_tag_cannot_be_written() {
    let mut a = load("pluto_idle_core_only.panim");
    // "in", "di", "ce", "s\0"... as big-endian shorts: the values table would end early when read back.
    let tag: Vec<i16> = b"indices\0"
        .chunks(2)
        .map(|c| i16::from_be_bytes([c[0], c[1]]))
        .collect();
    a.values.splice(2..2, tag);
    let e = a.to_binary().unwrap_err().to_string();
    assert!(
        e.contains("values") && e.contains("the data contains the tag \"indices\""),
        "{e}"
    );
    // At an odd offset the loader never looks: that is fine.
    let mut b = load("pluto_idle_core_only.panim");
    let odd: Vec<i16> = b"Xindices"
        .chunks(2)
        .map(|c| i16::from_be_bytes([c[0], c[1]]))
        .collect();
    b.values.extend(odd);
    let out = b.to_binary().unwrap();
    assert_eq!(PanimPluto::from_binary(&out).unwrap().values, b.values);
}

#[test]
fn bad_files_get_errors_not_panics() {
    let data = std::fs::read(repo().join("tests/fixtures/panim_pluto/pluto_idle_core_only.panim"))
        .unwrap();
    // Every truncation, and a corrupted tag.
    for n in [0, 10, 99, 100, 103, 106, 120, data.len() - 1] {
        let _ = PanimPluto::from_binary(&data[..n.min(data.len())]);
    }
    let no_indices: Vec<u8> = {
        let mut d = data.clone();
        let at = d.windows(7).position(|w| w == b"indices").unwrap();
        d[at] = b'X';
        d
    };
    let e = PanimPluto::from_binary(&no_indices)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("values") && e.contains("no tag \"indices\""),
        "{e}"
    );
}

#[test]
fn the_fixture_script_reproduces_the_fixtures() {
    binspec_tests::check_fixture_script("make_pluto.py");
}

#[test]
fn info_names_the_format() {
    let reg = binspec_formats::registry();
    let data = std::fs::read(
        repo().join("tests/fixtures/panim_pluto/pluto_jump_translations_and_scales.panim"),
    )
    .unwrap();
    let ids: Vec<&str> = reg
        .iter()
        .filter(|f| f.sniff(&data))
        .map(|f| f.id())
        .collect();
    assert_eq!(ids, ["panim-pluto"]);
    let info = reg
        .iter()
        .find(|f| f.id() == "panim-pluto")
        .unwrap()
        .info(&data)
        .unwrap();
    let summary: Vec<(String, String)> = info.summary;
    assert!(
        summary.contains(&("bones".into(), "7".into())),
        "{summary:?}"
    );
}

#[test]
fn a_track_must_have_the_sections_frame_count() {
    let mut a = load("pluto_jump_translations_and_scales.panim");
    let t = &mut a.translations.as_mut().unwrap().tracks;
    t.bones[0].frames.as_mut().unwrap().pop();
    let e = a.to_binary().unwrap_err().to_string();
    assert!(
        e.contains("translations.tracks.bones[0].frames")
            && e.contains("but the count `num_frames` is 9"),
        "{e}"
    );
}
