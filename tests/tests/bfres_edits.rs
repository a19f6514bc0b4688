//! BFRES edits through the CLI on Super Mario Odyssey's AirCurrent.bfres (version 8; skipped with a message when
//! the corpus is absent): a material renamed where the document has its name (the material's, its dictionary
//! key's and the string pool's list), to a name of the same length and to a longer one. The pointers to strings,
//! the string pool's size and the relocation table's first section are derived, and so is the layout of the
//! structures before the string pool and of the regions after it (a name past the zeros before the GPU region,
//! 0x72e bytes in AirCurrent.bfres, moves it). On a version 10 fixture, a render info's string value edited and a
//! shape renamed: the render infos' string pointers follow the strings.

use std::path::{Path, PathBuf};

use binspec_formats::bfres::Bfres;
use binspec_runtime::Format as _;

use binspec_tests::{
    bfres_dict_keys, nn_util_relocation_entries, nn_util_relocation_sections, repo, run,
};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// AirCurrent.bfres decoded by the CLI into a folder of its own: its bytes, the document's path and text, and
/// the path to encode to. `None` (with a message) where the corpus is absent.
struct Decoded {
    _dir: tempfile::TempDir,
    bytes: Vec<u8>,
    doc: PathBuf,
    text: String,
    out: PathBuf,
}

/// AirCurrent.bfres's bytes; `None` (with a message) where the corpus is absent.
fn air_current() -> Option<Vec<u8>> {
    let path = repo().join("../shared/corpus/real/bfres/AirCurrent.bfres");
    let bytes = std::fs::read(&path);
    if bytes.is_err() {
        eprintln!("skipped: {} is absent", path.display());
    }
    bytes.ok()
}

impl Decoded {
    fn new() -> Option<Decoded> {
        let path = repo().join("../shared/corpus/real/bfres/AirCurrent.bfres");
        let bytes = air_current()?;
        let dir = tempfile::tempdir().unwrap();
        let (doc, out) = (dir.path().join("a.yaml"), dir.path().join("a.bfres"));
        let r = run(&["decode", s(&path), "-o", s(&doc)]);
        assert_eq!(r.code, 0, "{}", r.err);
        let text = std::fs::read_to_string(&doc).unwrap();
        Some(Decoded {
            _dir: dir,
            bytes,
            doc,
            text,
            out,
        })
    }

    /// Encodes `edited` (the document's text, edited) with the CLI.
    fn encode(&self, edited: &str) -> binspec_tests::Run {
        std::fs::write(&self.doc, edited).unwrap();
        run(&["encode", s(&self.doc), "-o", s(&self.out)])
    }
}

#[test]
fn a_material_renamed_through_the_cli() {
    let Some(d) = Decoded::new() else { return };
    assert_eq!(d.text.matches("data: Default_Material\n").count(), 3);
    let r = d.encode(
        &d.text
            .replace("data: Default_Material\n", "data: Default_Matte_01\n"),
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let written = std::fs::read(&d.out).unwrap();
    assert_eq!(written.len(), d.bytes.len());
    let back = Bfres::from_binary(&written).unwrap();
    let m = &back.model_summaries()[0];
    assert_eq!(m.materials, ["Default_Matte_01"]);
    assert_eq!(m.shapes[0].material.as_deref(), Some("Default_Matte_01"));
    // Found by its new name, with its shader parameters.
    assert!(back
        .shader_params("AirCurrent", "Default_Matte_01")
        .is_ok_and(|p| !p.is_empty()));
    let r = run(&["info", s(&d.out)]);
    assert!(r.out.contains("materials (Default_Matte_01)"), "{}", r.out);
    assert_eq!(back.to_binary().unwrap(), written);
}

/// Every pointer a relocation table lists, by section: (section, position).
fn listed(file: &[u8]) -> Vec<(usize, u64)> {
    let sections = nn_util_relocation_sections(file);
    let entries = nn_util_relocation_entries(file);
    let table = u32::from_le_bytes(file[0x18..0x1c].try_into().unwrap()) as usize;
    let mut out = Vec::new();
    for (si, _) in sections.iter().enumerate() {
        let at = table + 0x10 + si * 0x18;
        let u32_at = |a: usize| u32::from_le_bytes(file[a..a + 4].try_into().unwrap()) as usize;
        let (first, count) = (u32_at(at + 0x10), u32_at(at + 0x14));
        for e in &entries[first..first + count] {
            let [pos, structs, ptrs, pad] = *e;
            for s in 0..structs {
                for p in 0..ptrs {
                    out.push((si, pos + 8 * (s * (ptrs + pad) + p)));
                }
            }
        }
    }
    out
}

#[test]
fn a_material_renamed_to_a_longer_name_through_the_cli() {
    let Some(d) = Decoded::new() else { return };
    let bytes = d.bytes.as_slice();
    let long = "Default_Material_For_The_Air_Current_Effect";
    let r = d.encode(
        &d.text
            .replace("data: Default_Material\n", &format!("data: {long}\n")),
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let written = std::fs::read(&d.out).unwrap();
    let back = Bfres::from_binary(&written).unwrap();
    let m = &back.model_summaries()[0];
    assert_eq!(m.materials, [long]);
    assert_eq!(m.shapes[0].material.as_deref(), Some(long));
    assert!(back
        .shader_params("AirCurrent", long)
        .is_ok_and(|p| !p.is_empty()));
    // The string pool grew by 26 bytes (the name's 27 more characters, less the padding byte it had), its size
    // with it, and so did the relocation table's first section, which lists the same pointers (none moved).
    let size_at = |f: &[u8]| u32::from_le_bytes(f[0xb8..0xbc].try_into().unwrap());
    assert_eq!(size_at(&written), size_at(bytes) + 26);
    let (was, now) = (
        nn_util_relocation_sections(bytes),
        nn_util_relocation_sections(&written),
    );
    assert_eq!(now[0], [0, was[0][1] + 26]);
    assert_eq!(now[1..], was[1..]);
    assert_eq!(listed(&written), listed(bytes));
    assert_eq!(written.len(), bytes.len());
    assert_eq!(back.to_binary().unwrap(), written);
}

/// Through the CLI: a name longer than the zeros before the GPU region (0x72e bytes) moves the GPU region and
/// what follows it (it was an error naming the GPU region while they stayed where the file had them); the file
/// reads back with the name, and its vertices as they were.
#[test]
fn a_name_longer_than_the_room_before_the_gpu_region_moves_it() {
    let Some(d) = Decoded::new() else { return };
    let long = "M".repeat(2000);
    let r = d.encode(
        &d.text
            .replace("data: Default_Material\n", &format!("data: {long}\n")),
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let written = std::fs::read(&d.out).unwrap();
    let info = u64::from_le_bytes(written[0x90..0x98].try_into().unwrap()) as usize;
    let gpu = u64::from_le_bytes(written[info + 8..info + 16].try_into().unwrap());
    assert_eq!(gpu, 0x6000);
    let back = Bfres::from_binary(&written).unwrap();
    assert!(back.model_summaries()[0].materials[0] == long);
    let before = Bfres::from_binary(&d.bytes).unwrap();
    assert_eq!(
        back.positions(0, 0).unwrap(),
        before.positions(0, 0).unwrap()
    );
}

#[test]
fn a_model_material_shape_and_bone_renamed_through_the_api() {
    use binspec_formats::bfres_names::Named;
    let Some(bytes) = air_current() else { return };
    let mut m = Bfres::from_binary(&bytes).unwrap();
    m.rename(
        Named::Material("AirCurrent"),
        "Default_Material",
        "Wind_Material_Long_Name",
    )
    .unwrap();
    m.rename(
        Named::Shape("AirCurrent"),
        "nw4f_root__Default_Material__0",
        "wind_shape",
    )
    .unwrap();
    m.rename(Named::Bone("AirCurrent"), "nw4f_root", "root_bone")
        .unwrap();
    m.rename(Named::Model, "AirCurrent", "AirCurrentRenamed")
        .unwrap();
    let out = m.to_binary().unwrap();
    let back = Bfres::from_binary(&out).unwrap();
    let s = &back.model_summaries()[0];
    assert_eq!(s.name, "AirCurrentRenamed");
    assert_eq!(s.materials, ["Wind_Material_Long_Name"]);
    assert_eq!(s.shapes[0].name, "wind_shape");
    assert_eq!(
        s.shapes[0].material.as_deref(),
        Some("Wind_Material_Long_Name")
    );
    assert_eq!(s.bones[0].name, "root_bone");
    // The dictionaries a game finds them by have the new names.
    assert_eq!(bfres_dict_keys(&back, "model_dict"), ["AirCurrentRenamed"]);
    assert_eq!(
        bfres_dict_keys(&back, "material_dict"),
        ["Wind_Material_Long_Name"]
    );
    assert_eq!(bfres_dict_keys(&back, "shape_dict"), ["wind_shape"]);
    assert_eq!(bfres_dict_keys(&back, "bone_dict"), ["root_bone"]);
    assert!(back
        .shader_params("AirCurrentRenamed", "Wind_Material_Long_Name")
        .is_ok_and(|p| !p.is_empty()));
    assert_eq!(back.to_binary().unwrap(), out);
}

#[test]
fn a_rename_of_nothing_or_to_no_name_changes_nothing() {
    use binspec_formats::bfres_names::Named;
    let Some(bytes) = air_current() else { return };
    let mut m = Bfres::from_binary(&bytes).unwrap();
    let was = m.clone();
    let e = m
        .rename(Named::Material("AirCurrent"), "No_Such_Material", "x")
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("no material is named \"No_Such_Material\""),
        "{e}"
    );
    let e = m
        .rename(Named::Bone("Elsewhere"), "nw4f_root", "x")
        .unwrap_err();
    assert!(
        e.to_string().contains("no model is named \"Elsewhere\""),
        "{e}"
    );
    let e = m.rename(Named::Model, "AirCurrent", "").unwrap_err();
    assert!(e.to_string().contains("cannot be named"), "{e}");
    assert_eq!(m, was);
    assert_eq!(m.to_binary().unwrap(), bytes);
}

/// A version 10 fixture (two models, two materials in the first): a name another one has already is refused,
/// and a material renamed there writes a file that reads back with it.
#[test]
fn a_taken_name_is_refused_and_version_10_renames_too() {
    use binspec_formats::bfres_names::Named;
    let path = repo().join("tests/fixtures/bfres/bfres_two_models_formats.bfres");
    let bytes = std::fs::read(&path).unwrap();
    let mut m = Bfres::from_binary(&bytes).unwrap();
    let was = m.clone();
    let e = m.rename(Named::Model, "Props", "Marker").unwrap_err();
    assert!(
        e.to_string()
            .contains("a model is named \"Marker\" already"),
        "{e}"
    );
    let e = m
        .rename(Named::Material("Props"), "FanMat", "TriMat")
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("a material is named \"TriMat\" already"),
        "{e}"
    );
    assert_eq!(m, was);
    m.rename(Named::Material("Props"), "FanMat", "FanMaterial")
        .unwrap();
    let back = Bfres::from_binary(&m.to_binary().unwrap()).unwrap();
    assert_eq!(
        back.model_summaries()[0].materials,
        ["FanMaterial", "TriMat"]
    );
    assert_eq!(
        bfres_dict_keys(&back, "material_dict"),
        ["FanMaterial", "TriMat"]
    );
}

#[test]
fn encode_warns_where_a_material_is_renamed_but_not_its_key() {
    let Some(d) = Decoded::new() else { return };
    // The first occurrence is the dictionary's key (the model's materials are counted by their dictionary,
    // which comes first); the material's own name and the pool's list come after.
    let r = d.encode(
        &d.text
            .replacen("data: Default_Material\n", "data: Renamed_Material\n", 1),
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.err.contains(
            "model \"AirCurrent\": material 0 is named \"Default_Material\" and its dictionary key is \"Renamed_Material\""
        ),
        "{}",
        r.err
    );
    // Written as the document says, and it says the same when it reads back.
    let back = Bfres::from_binary(&std::fs::read(&d.out).unwrap()).unwrap();
    assert_eq!(back.name_mismatches().len(), 1);
}

/// Every file at hand names its models, materials, shapes and bones as its dictionaries do (HomeBed.bfres, which
/// another tool wrote again, among them): the warning above says nothing for them.
#[test]
fn no_file_at_hand_has_a_name_its_key_contradicts() {
    let mut files = binspec_tests::files_under(&repo().join("tests/fixtures/bfres"));
    files.extend(binspec_tests::files_under(
        &repo().join("../shared/corpus/real/bfres"),
    ));
    files.retain(|f| f.extension().is_some_and(|e| e == "bfres"));
    assert!(files.len() >= 3, "{files:?}");
    for f in files {
        let m = Bfres::from_binary(&std::fs::read(&f).unwrap()).unwrap();
        assert_eq!(m.name_mismatches(), Vec::<String>::new(), "{}", f.display());
    }
}

/// Every render info value of the version 10 fixture with two models, as JSON text per material.
fn render_info_values_v10(m: &Bfres) -> Vec<String> {
    let v = serde_json::to_value(m).unwrap();
    let mut out = Vec::new();
    for model in v["body"]["res_file"]["models"].as_array().unwrap() {
        for mat in model["materials"].as_array().unwrap() {
            out.push(mat["render_info_values"]["render_infos"].to_string());
        }
    }
    out
}

/// A version 10 material's render info of type string set to a longer string through the CLI (JSON), then a shape
/// renamed to a long name through the API: the strings move, and the render infos' pointers follow them (they
/// were kept as the bytes the file had, and writing refused the edit).
#[test]
fn version_10_render_info_strings_follow_their_strings() {
    use binspec_formats::bfres_names::Named;
    let path = repo().join("tests/fixtures/bfres/bfres_two_models_formats.bfres");
    let before =
        render_info_values_v10(&Bfres::from_binary(&std::fs::read(&path).unwrap()).unwrap());
    assert!(before[0].contains("\"translucent\""), "{before:?}");
    let dir = tempfile::tempdir().unwrap();
    let (doc, out) = (dir.path().join("a.json"), dir.path().join("a.bfres"));
    let r = run(&["decode", s(&path), "--json", "-o", s(&doc)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&doc).unwrap()).unwrap();
    let value = &mut v["body"]["res_file"]["models"][0]["materials"][0]["render_info_values"]
        ["render_infos"][0]["values"]["strings"][0]["value"]["data"];
    assert_eq!(value, "translucent");
    *value = "translucent_sorted_back_to_front".into();
    std::fs::write(&doc, serde_json::to_string(&v).unwrap()).unwrap();
    let r = run(&["encode", "--format", "bfres", s(&doc), "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let mut m = Bfres::from_binary(&std::fs::read(&out).unwrap()).unwrap();
    let expected: Vec<String> = (before.iter())
        .map(|x| x.replacen("\"translucent\"", "\"translucent_sorted_back_to_front\"", 1))
        .collect();
    assert_ne!(expected, before);
    assert_eq!(render_info_values_v10(&m), expected);
    let long = format!("Fan_{}", "x".repeat(300));
    m.rename(Named::Shape("Props"), "Fan", &long).unwrap();
    let written = m.to_binary().unwrap();
    let back = Bfres::from_binary(&written).unwrap();
    assert_eq!(render_info_values_v10(&back), expected);
    assert!(back.summary_lines().iter().any(|l| l.contains(&long)));
    assert_eq!(back.to_binary().unwrap(), written);
}
