//! The reader generated from `schemas/ainb.ksy` and `schemas/exb.ksy` (`binspec_formats::ainb::raw`) over every AINB
//! file of the shared corpus: Tears of the Kingdom 0x407 and Splatoon 3 0x404 files (`real/ainb`), and files written
//! by the Python `ainb` package (`oracle/ainb`, 0x404, 0x407 and 0x408) whose JSON inputs say what they hold. Also
//! the wiki drift of the two schemas against the seed page. Corpus tests skip, with a message, when it is absent.

use std::path::{Path, PathBuf};

use binspec_formats::ainb::raw::Ainb;
use binspec_formats::Format;
use binspec_tests::{files_under, repo};

const DUMP: &str = "002_611e4de14f4074d5.txt";

fn corpus() -> Option<PathBuf> {
    let p = repo().join("../shared/corpus");
    if p.join("real/ainb").is_dir() && p.join("oracle/ainb").is_dir() {
        Some(p)
    } else {
        eprintln!(
            "skipped: {} (with real/ainb and oracle/ainb) is absent",
            p.display()
        );
        None
    }
}

fn ainb_files(corpus: &Path) -> Vec<PathBuf> {
    let mut v = files_under(&corpus.join("real/ainb"));
    v.extend(files_under(&corpus.join("oracle/ainb")));
    v.retain(|p| p.extension().is_some_and(|e| e == "ainb"));
    v
}

/// The string pool's length: its strings, each with its terminator (it ends the file).
fn pool_len(f: &Ainb) -> usize {
    f.string_pool.strings.iter().map(|s| s.len() + 1).sum()
}

/// A plug's length in the file: 8 bytes, then what its element type and kind add.
fn plug_len(d: &binspec_formats::ainb::raw::Plug) -> usize {
    let words = [
        d.selector_index_and_flags.is_some(),
        d.selector_s32.is_some(),
        d.selector_string_text.is_some(),
        d.selector_weight.is_some(),
        d.input_flags.is_some(),
        d.input_s32.is_some(),
        d.input_string_text.is_some(),
        d.input_word.is_some(),
    ];
    8 + 4 * words.iter().filter(|&&w| w).count() + d.conditions.as_ref().map_or(0, |c| 8 * c.len())
}

fn u32_at(d: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(d[at..at + 4].try_into().unwrap())
}

/// The header's section offsets, as the file has them (the raw model derives them: the sections are items of its
/// region).
struct Header {
    blackboard_ofs: u32,
    string_pool_ofs: u32,
    enum_relocation_array_ofs: u32,
    property_table_ofs: u32,
    jump_table_ofs: u32,
    input_output_table_ofs: u32,
    multi_input_array_ofs: u32,
    attachment_array_ofs: u32,
    attachment_id_array_ofs: u32,
    expression_binary_ofs: u32,
    child_replacement_table_ofs: u32,
    query_element_id_array_ofs: u32,
    module_caller_array_ofs: u32,
    external_action_array_ofs: u32,
    unknown_6c: u32,
    module_caller_link_ofs: u32,
}

fn header(d: &[u8]) -> Header {
    Header {
        blackboard_ofs: u32_at(d, 0x20),
        string_pool_ofs: u32_at(d, 0x24),
        enum_relocation_array_ofs: u32_at(d, 0x28),
        property_table_ofs: u32_at(d, 0x2c),
        jump_table_ofs: u32_at(d, 0x30),
        input_output_table_ofs: u32_at(d, 0x34),
        multi_input_array_ofs: u32_at(d, 0x38),
        attachment_array_ofs: u32_at(d, 0x3c),
        attachment_id_array_ofs: u32_at(d, 0x40),
        expression_binary_ofs: u32_at(d, 0x44),
        child_replacement_table_ofs: u32_at(d, 0x48),
        query_element_id_array_ofs: u32_at(d, 0x4c),
        module_caller_array_ofs: u32_at(d, 0x5c),
        external_action_array_ofs: u32_at(d, 0x68),
        unknown_6c: u32_at(d, 0x6c),
        module_caller_link_ofs: u32_at(d, 0x70),
    }
}

/// Element `i`'s word at `at` (its offset from version 0x407; 4 less in 0x404, which has no name hash), as the
/// file has it: the raw model derives the element's parameter (0x14) and state info (0x28) offsets.
fn element_word(d: &[u8], f: &Ainb, i: usize, at: usize) -> u32 {
    let (size, at) = if f.version >= 0x407 {
        (0x3c, at)
    } else {
        (0x38, at - 4)
    };
    u32_at(d, 0x74 + 0x18 * f.commands.len() + size * i + at)
}

/// An element parameter's plugs of each kind, in kind order (the order of its plug pointer array).
fn plug_kinds(
    p: &binspec_formats::ainb::raw::ElementParam,
) -> [&Vec<binspec_formats::ainb::raw::PlugRef>; 10] {
    [
        &p.bool_float_input_source_plugs,
        &p.unknown_02_plugs,
        &p.child_plugs,
        &p.jump_plugs,
        &p.string_input_source_plugs,
        &p.int_input_source_plugs,
        &p.unknown_0c_plugs,
        &p.unknown_0e_plugs,
        &p.unknown_10_plugs,
        &p.unknown_12_plugs,
    ]
}

/// [`plug_kinds`], to edit.
fn plug_kinds_mut(
    p: &mut binspec_formats::ainb::raw::ElementParam,
) -> [&mut Vec<binspec_formats::ainb::raw::PlugRef>; 10] {
    [
        &mut p.bool_float_input_source_plugs,
        &mut p.unknown_02_plugs,
        &mut p.child_plugs,
        &mut p.jump_plugs,
        &mut p.string_input_source_plugs,
        &mut p.int_input_source_plugs,
        &mut p.unknown_0c_plugs,
        &mut p.unknown_0e_plugs,
        &mut p.unknown_10_plugs,
        &mut p.unknown_12_plugs,
    ]
}

fn parse(path: &Path) -> (Vec<u8>, Ainb) {
    let data = std::fs::read(path).unwrap();
    let file = Ainb::from_binary(&data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (data, file)
}

/// The section offsets of the header (0x20 to 0x70, without the two fields that are not offsets).
fn header_offsets(h: &Header) -> Vec<(&'static str, u32)> {
    vec![
        ("blackboard", h.blackboard_ofs),
        ("string pool", h.string_pool_ofs),
        ("enum relocation", h.enum_relocation_array_ofs),
        ("property table", h.property_table_ofs),
        ("jump table", h.jump_table_ofs),
        ("input/output table", h.input_output_table_ofs),
        ("multi-inputs", h.multi_input_array_ofs),
        ("attachments", h.attachment_array_ofs),
        ("attachment ids", h.attachment_id_array_ofs),
        ("expression binary", h.expression_binary_ofs),
        ("child replacement table", h.child_replacement_table_ofs),
        ("query element ids", h.query_element_id_array_ofs),
        ("module callers", h.module_caller_array_ofs),
        ("external actions", h.external_action_array_ofs),
        ("module caller link", h.module_caller_link_ofs),
    ]
}

/// Every file parses; the header agrees with the bytes; the string pool is the last section and ends at the end of
/// the file; every section lies inside the file; the element ranges into the property and input/output arrays lie
/// inside those arrays.
#[test]
fn every_corpus_file_parses() {
    let Some(corpus) = corpus() else { return };
    let files = ainb_files(&corpus);
    assert!(files.len() >= 9, "{files:?}");
    for path in files {
        let what = path.display().to_string();
        let (data, f) = parse(&path);
        let h = header(&data);
        assert_eq!(f.version, u32_at(&data, 4), "{what}");
        assert!([0x404, 0x407, 0x408].contains(&f.version), "{what}");
        assert_eq!(f.commands.len() as u32, u32_at(&data, 0xc), "{what}");
        assert_eq!(f.elements.len() as u32, u32_at(&data, 0x10), "{what}");
        // The query element count is derived (the elements flagged as queries): no file keeps an override.
        assert_eq!(f.query_element_count, None, "{what}");
        let queries = f
            .elements
            .iter()
            .filter(|e| e.element_flags & 1 != 0)
            .count();
        assert_eq!(u32_at(&data, 0x14), queries as u32, "{what}");
        for (i, e) in f.elements.iter().enumerate() {
            // The element id is its index, derived: no file keeps an override.
            assert_eq!(e.element_id, None, "{what}: element {i}");
            let size = if f.version >= 0x407 { 0x3c } else { 0x38 };
            let at = 0x74 + 0x18 * f.commands.len() + size * i;
            assert_eq!(u32_at(&data, at) >> 16, i as u32, "{what}: element {i}");
            // Derived from the type name (see `name_hashes_are_derived`): no file keeps an override.
            assert_eq!(e.name_hash, None, "{what}: element {i}");
            // The attachments are a range of the attachment id array, derived where the file has it.
            assert_eq!(e.base_attachment_id, None, "{what}: element {i}");
        }
        // The string pool is last and ends at the end of the file.
        assert_eq!(
            h.string_pool_ofs as usize + pool_len(&f),
            data.len(),
            "{what}"
        );
        for (name, ofs) in header_offsets(&h) {
            assert!(
                (ofs as usize) < data.len() && ofs <= h.string_pool_ofs,
                "{what}: {name} at {ofs:#x}, file {:#x} bytes",
                data.len()
            );
        }
        assert!(!f.file_name.is_empty(), "{what}");
        // The element's properties, inputs and outputs are ranges the model holds, whose bases and counts the
        // writer derives.
        let mut params = 0;
        let mut kept_bases = 0;
        for (i, e) in f.elements.iter().enumerate() {
            let Some(p) = &e.param else { continue };
            params += 1;
            let pe = &p.property_entries;
            for r in [
                &pe.s32_entries,
                &pe.bool_entries,
                &pe.float_entries,
                &pe.string_entries,
                &pe.vector3f_entries,
                &pe.pointer_entries,
            ] {
                assert_eq!(r.count, None, "{what}: element {i}: a count is derived");
                // A base is kept only for an empty range based elsewhere than where the next one starts.
                kept_bases += usize::from(r.base_index.is_some());
            }
            let ie = &p.input_output_entries;
            for r in [
                &ie.s32_entries,
                &ie.bool_entries,
                &ie.float_entries,
                &ie.string_entries,
                &ie.vector3f_entries,
                &ie.pointer_entries,
            ] {
                assert_eq!(
                    (r.input_count, r.output_count),
                    (None, None),
                    "{what}: element {i}: a count is derived"
                );
                kept_bases += usize::from(r.input_base_index.is_some());
                kept_bases += usize::from(r.output_base_index.is_some());
            }
        }
        assert_eq!(params, f.elements.len(), "{what}: every element has params");
        eprintln!("{what}: {kept_bases} property and input/output range bases kept");
        // The query element id array: one entry per query the elements use, each element's a range of it; the
        // ranges are in element order except in Nintendo's Tears of the Kingdom file, whose order is kept.
        let queries: usize = f.elements.iter().map(|e| e.queries.len()).sum();
        let end = if h.expression_binary_ofs != 0 {
            h.expression_binary_ofs
        } else {
            h.module_caller_array_ofs
        };
        assert_eq!(
            (end - h.query_element_id_array_ofs) as usize / 4,
            queries,
            "{what}: query element ids"
        );
        let order = f
            .query_element_id_array
            .as_ref()
            .and_then(|q| q.ids_item_order.as_ref());
        assert_eq!(
            order.is_some(),
            path.ends_with("real/ainb/Npc_Gerudo_Queen_Young.event.root.ainb"),
            "{what}: query range order kept"
        );
        // An element without queries has base 0 (kept where the writer would put it elsewhere).
        for (i, e) in f.elements.iter().enumerate() {
            let base = element_word(&data, &f, i, 0x24) as u16;
            if e.queries.is_empty() {
                assert_eq!(base, 0, "{what}: element {i}");
            }
        }
        if let Some(a) = &f.attachments {
            assert_eq!(a.len() as u32, u32_at(&data, 0x18), "{what}");
            // The six end offsets of each attachment parameter are where the writer puts its end.
            for (k, x) in a.iter().enumerate() {
                let p = x.param.as_ref().unwrap();
                let ends = [p.end_38, p.end_40, p.end_48, p.end_50, p.end_58, p.end_60];
                assert_eq!(ends, [None; 6], "{what}: attachment {k}");
            }
        }
    }
}

/// The blackboard's parameters of each type, in header order, with the `ainb` package's name for the type.
fn blackboard_params(
    f: &Ainb,
) -> Vec<(
    &'static str,
    &[binspec_formats::ainb::raw::BlackboardParameter],
)> {
    let bb = f.blackboard.as_ref().expect("blackboard");
    let mut out = vec![
        ("String", &bb.string_params[..]),
        ("S32", &bb.s32_params[..]),
    ];
    if f.version >= 0x408 {
        out.push((
            "U32",
            bb.u32_params.as_deref().expect("u32 parameters in 0x408"),
        ));
    } else {
        assert!(bb.u32_params.is_none());
    }
    out.extend([
        ("F32", &bb.f32_params[..]),
        ("Bool", &bb.bool_params[..]),
        ("Vec3f", &bb.vector3f_params[..]),
        ("VoidPtr", &bb.pointer_params[..]),
    ]);
    out
}

fn blackboard_counts(f: &Ainb) -> Vec<(&'static str, usize)> {
    blackboard_params(f)
        .into_iter()
        .map(|(n, ps)| (n, ps.len()))
        .collect()
}

/// The oracle files against the JSON the `ainb` package wrote them from: version, file name, category, commands,
/// elements (type names of user-defined ones), blackboard parameters per type with their names and defaults.
#[test]
fn oracle_files_match_their_json() {
    let Some(corpus) = corpus() else { return };
    let dir = corpus.join("oracle/ainb");
    let cases = [
        ("minimal_v404.ainb", "minimal_v404.json", None),
        ("minimal_v407.ainb", "minimal_v407.json", None),
        ("minimal_v408.ainb", "minimal_v408.json", None),
        (
            "PlayerCamera.root.as_v404.ainb",
            "PlayerCamera.root.v407.json",
            Some(0x404),
        ),
        (
            "PlayerCamera.root.as_v407.ainb",
            "PlayerCamera.root.v407.json",
            Some(0x407),
        ),
        (
            "PlayerCamera.root.as_v408.ainb",
            "PlayerCamera.root.v407.json",
            Some(0x408),
        ),
    ];
    for (file, json, version) in cases {
        let what = file;
        let (_, f) = parse(&dir.join(file));
        let j: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(json)).unwrap()).unwrap();
        let want_version = version.unwrap_or(j["Version"].as_u64().unwrap() as u32);
        assert_eq!(f.version, want_version, "{what}");
        assert_eq!(f.file_name, j["Filename"].as_str().unwrap(), "{what}");
        assert_eq!(
            f.file_category_name_text,
            j["Category"].as_str().unwrap(),
            "{what}"
        );
        let link = f.module_caller_link.as_ref().expect("module caller link");
        assert_eq!(
            link.file_hash as u64,
            j["Blackboard ID"].as_u64().unwrap(),
            "{what}"
        );
        assert_eq!(
            link.parent_file_hash as u64,
            j["Parent Blackboard ID"].as_u64().unwrap(),
            "{what}"
        );
        let commands = j["Commands"].as_array().unwrap();
        assert_eq!(f.commands.len(), commands.len(), "{what}");
        for (c, jc) in f.commands.iter().zip(commands) {
            assert_eq!(c.name_text, jc["Name"].as_str().unwrap(), "{what}");
            assert_eq!(
                c.main_element_id as u64,
                jc["Root Node Index"].as_u64().unwrap(),
                "{what}"
            );
        }
        let nodes = j["Nodes"].as_array().unwrap();
        assert_eq!(f.elements.len(), nodes.len(), "{what}");
        for (i, (e, n)) in f.elements.iter().zip(nodes).enumerate() {
            assert_eq!(
                (e.element_id, i as u64),
                (None, n["Node Index"].as_u64().unwrap()),
                "{what}"
            );
            if n["Node Type"] == "UserDefined" {
                assert_eq!(e.type_name_text, n["Name"].as_str().unwrap(), "{what}");
            }
        }
        // Blackboard: the count of each type, and the names in header order.
        let jb = &j["Blackboard"];
        for (ty, params) in blackboard_params(&f) {
            // A file of another version than its JSON has no u32 parameters.
            let want: Vec<&str> = jb[ty]
                .as_array()
                .map(|v| v.iter().map(|p| p["Name"].as_str().unwrap()).collect())
                .unwrap_or_default();
            let got: Vec<&str> = params.iter().map(|p| &p.name_text[..]).collect();
            assert_eq!(got, want, "{what}: blackboard {ty}");
        }
        // Every header's count, first index and first offset is derived: no file keeps one.
        let bb = f.blackboard.as_ref().unwrap();
        let kept = [
            bb.string_first_index,
            bb.string_first_offset,
            bb.s32_first_index,
            bb.s32_first_offset,
            bb.u32_first_index,
            bb.u32_first_offset,
            bb.f32_first_index,
            bb.f32_first_offset,
            bb.bool_first_index,
            bb.bool_first_offset,
            bb.vector3f_first_index,
            bb.vector3f_first_offset,
            bb.pointer_first_index,
            bb.pointer_first_offset,
        ];
        assert_eq!(kept, [None; 14], "{what}");
    }
}

/// The minimal files' blackboard defaults, per type, as the JSON gives them.
#[test]
fn blackboard_defaults() {
    let Some(corpus) = corpus() else { return };
    for v in ["404", "407", "408"] {
        let (_, f) = parse(&corpus.join(format!("oracle/ainb/minimal_v{v}.ainb")));
        let bb = f.blackboard.as_ref().unwrap();
        assert_eq!(bb.s32_defaults, vec![-3], "{v}");
        assert_eq!(bb.f32_defaults, vec![1.5], "{v}");
        assert_eq!(bb.bool_defaults, vec![1], "{v}");
        let p = &bb.vector3f_defaults[0];
        assert_eq!((p.x, p.y, p.z), (1.0, 2.0, 3.0), "{v}");
        assert_eq!(bb.string_defaults.len(), 1, "{v}");
        assert_eq!(*bb.string_defaults[0].text, *"Link", "{v}");
        assert_eq!(*bb.s32_params[0].notes_text, *"a note", "{v}");
        if v == "408" {
            assert_eq!(bb.u32_defaults, Some(vec![61680]));
        } else {
            assert_eq!(bb.u32_defaults, None, "{v}");
        }
    }
}

/// The Splatoon 3 0x404 file: every section the header points to is read.
#[test]
fn splatoon3_v404_decodes_completely() {
    let Some(corpus) = corpus() else { return };
    let (data, f) = parse(&corpus.join("real/ainb/Vss_Kaisou04_66b8.logic.root.ainb"));
    let h = header(&data);
    assert_eq!(f.version, 0x404);
    assert_eq!(f.file_name, "Vss_Kaisou04_66b8.logic.root");
    assert_eq!(f.file_category_name_text, "Logic");
    assert_eq!(f.file_category, 1);
    assert_eq!((f.commands.len(), f.elements.len()), (0, 4));
    let names: Vec<&str> = f.elements.iter().map(|e| &e.type_name_text[..]).collect();
    assert_eq!(names[0], "SplLogicBhvAreaSwitchOnline");
    assert!(f.elements.iter().all(|e| e.element_flags & 1 != 0));
    assert!(f.elements.iter().all(|e| e.param.is_some()));
    let bb = f.blackboard.as_ref().unwrap();
    assert!(blackboard_counts(&f).iter().all(|&(_, n)| n == 0));
    assert!(bb.u32_params.is_none() && bb.file_references.is_empty());
    let params = || f.elements.iter().filter_map(|e| e.param.as_ref());
    assert_eq!(params().map(|p| p.bool_properties.len()).sum::<usize>(), 2);
    assert_eq!(
        params().map(|p| p.string_properties.len()).sum::<usize>(),
        4
    );
    assert!(f.attachments.as_ref().is_none_or(|a| a.is_empty()));
    let sum =
        |n: fn(&binspec_formats::ainb::raw::ElementParam) -> usize| params().map(n).sum::<usize>();
    assert_eq!(
        (sum(|p| p.bool_inputs.len()), sum(|p| p.bool_outputs.len())),
        (0, 4)
    );
    assert_eq!(sum(|p| p.pointer_inputs.len()), 4);
    assert_eq!(sum(|p| p.pointer_outputs.len()), 6);
    assert_eq!(f.multi_inputs.as_ref().map(Vec::len), Some(0));
    assert_eq!(f.module_callers.as_ref().map(|m| m.entries.len()), Some(0));
    assert_eq!(
        f.external_actions.as_ref().map(|m| m.entries.len()),
        Some(0)
    );
    assert_eq!(
        f.enum_resolve_array.as_ref().map(|m| m.entries.len()),
        Some(0)
    );
    let link = f.module_caller_link.as_ref().unwrap();
    assert_eq!((link.file_hash, link.parent_file_hash), (0x8264_8d1f, 0));
    assert!(f.expression_binary.is_none() && f.child_replacement_table.is_none());
    assert_eq!(h.string_pool_ofs as usize + pool_len(&f), data.len());
}

/// The EXB of the real Tears of the Kingdom event file.
#[test]
fn exb_of_a_real_file() {
    let Some(corpus) = corpus() else { return };
    let (_, f) = parse(&corpus.join("real/ainb/Npc_Gerudo_Queen_Young.event.root.ainb"));
    // Its blackboard has one file reference (every parameter with a valid one gives index 0), with a path.
    let bb = f.blackboard.as_ref().unwrap();
    assert_eq!(bb.file_references.len(), 1);
    assert!(!bb.file_references[0].file_path.is_empty());
    let exb = f.expression_binary.as_ref().expect("EXB");
    assert_eq!(exb.version, 2);
    assert_eq!(exb.command_infos.entries.len(), 4);
    // The instruction table is the functions' instructions, one range each.
    let n: usize = exb
        .command_infos
        .entries
        .iter()
        .map(|c| c.instructions.len())
        .sum();
    assert_eq!(n, 26);
    // The signatures are the pool's first two strings (at 0 and 0x22), read through their offsets.
    let texts: Vec<&str> = exb.signatures.signatures.iter().map(|s| &*s.text).collect();
    assert_eq!(texts.len(), 2);
    assert_eq!(texts[0], "ClampMinMax( Int, Int, Int, Int )");
    assert_eq!(texts[0].len() + 1, 0x22);
    assert!(texts[1].starts_with("CastIntToFloat"), "{texts:?}");
    assert_eq!(exb.parameter_region.len(), 8);
    assert_eq!(exb.string_pool.strings[..2], [texts[0], texts[1]]);
    // Every function has instructions, and the file's ranges are the ones the writer derives.
    for c in &exb.command_infos.entries {
        assert!(!c.instructions.is_empty());
        assert_eq!(c.instruction_base_index, None);
    }
}

/// `binspec wiki drift` of the two schemas against the seed page: every difference is explained in a doc.
#[test]
fn wiki_drift_is_explained() {
    let Some(dump) = binspec_tests::seed(DUMP) else {
        return;
    };
    let dump = dump.display().to_string();
    let ainb = repo().join("schemas/ainb.ksy").display().to_string();
    let exb = repo().join("schemas/exb.ksy").display().to_string();
    let r = binspec_tests::run(&["wiki", "drift", &dump, &ainb, &exb]);
    assert_eq!(r.code, 0, "{}", r.err);
    let drift: Vec<&str> = r.out.lines().filter(|l| l.starts_with("drift:")).collect();
    assert!(drift.is_empty(), "{}", drift.join("\n"));
    assert!(r.out.contains("Input Output Type Entry"), "{}", r.out);
}

/// The byte ranges the raw model says it read, each `(start, end)`: the header, the arrays after it and every section
/// reached through an offset, with their entry sizes from the page. The EXB counts as a whole (its reader follows its
/// own offsets inside its own range).
fn read_ranges(f: &Ainb, data: &[u8]) -> Vec<(usize, usize)> {
    let (file_len, h) = (data.len(), header(data));
    let mut r: Vec<(usize, usize)> = Vec::new();
    let mut at = |start: u32, len: usize| r.push((start as usize, start as usize + len));
    let v407 = f.version >= 0x407;
    at(0, 0x74);
    at(0x74, 0x18 * f.commands.len());
    let element_size = if v407 { 0x3c } else { 0x38 };
    at(
        0x74 + 0x18 * f.commands.len() as u32,
        element_size * f.elements.len(),
    );
    if let Some(bb) = &f.blackboard {
        let scalars = bb.string_defaults.len()
            + bb.s32_defaults.len()
            + bb.u32_defaults.as_ref().map_or(0, Vec::len)
            + bb.f32_defaults.len()
            + bb.bool_defaults.len();
        let params: Vec<_> = blackboard_params(f);
        let len = 8 * params.len()
            + 8 * params.iter().map(|(_, ps)| ps.len()).sum::<usize>()
            + 4 * scalars
            + 12 * bb.vector3f_defaults.len()
            + 16 * bb.file_references.len();
        at(h.blackboard_ofs, len);
    }
    for (i, e) in f.elements.iter().enumerate() {
        if let Some(p) = &e.param {
            let param_ofs = element_word(data, f, i, 0x14);
            let kinds = plug_kinds(p);
            // The pointer array is the kinds' ranges, one kind after another; the plugs' data follows it, each
            // plug after the one before (the model keeps no plug's alignment: asserted below).
            let plugs = kinds.iter().map(|k| k.len()).sum::<usize>();
            at(param_ofs, 0xa4 + 4 * plugs);
            let mut cursor = param_ofs + 0xa4 + 4 * plugs as u32;
            for plug in kinds.into_iter().flatten() {
                assert_eq!(plug.data_align, None, "plugs are not aligned");
                let d = &plug.data;
                let len = plug_len(d);
                at(cursor, len);
                cursor += len as u32;
            }
            assert_eq!(p.plug_pointers_order, None, "the kinds are in order");
        }
    }
    if let Some(a) = &f.attachments {
        at(
            h.attachment_array_ofs,
            a.len() * if v407 { 0x10 } else { 0xc },
        );
        for (k, x) in a.iter().enumerate() {
            if x.param.is_some() {
                let asize = if v407 { 0x10 } else { 0xc };
                at(
                    u32_at(data, h.attachment_array_ofs as usize + asize * k + 4),
                    0x64,
                );
            }
        }
    }
    if f.attachment_id_array.is_some() {
        // The elements' attachment ranges, one after another.
        let ids: usize = f.elements.iter().map(|e| e.attachments.len()).sum();
        at(h.attachment_id_array_ofs, 4 * ids);
    }
    if f.property_table.is_some() {
        // The six arrays follow the table's offsets, each the parameters' ranges one after another.
        macro_rules! len {
            ($p:expr) => {
                12 * ($p.s32_properties.len()
                    + $p.bool_properties.len()
                    + $p.float_properties.len()
                    + $p.string_properties.len()
                    + $p.pointer_properties.len())
                    + 20 * $p.vector3f_properties.len()
            };
        }
        let elements: usize = f
            .elements
            .iter()
            .filter_map(|e| e.param.as_ref())
            .map(|p| len!(p))
            .sum();
        let attachments: usize = f
            .attachments
            .iter()
            .flatten()
            .filter_map(|a| a.param.as_ref())
            .map(|p| len!(p))
            .sum();
        at(h.property_table_ofs, 0x18 + elements + attachments);
    }
    if f.input_output_table.is_some() {
        // The twelve arrays follow the table's offsets, each the element parameters' ranges one after another.
        let arrays: usize = f
            .elements
            .iter()
            .filter_map(|e| e.param.as_ref())
            .map(|p| {
                16 * (p.s32_inputs.len()
                    + p.bool_inputs.len()
                    + p.float_inputs.len()
                    + p.string_inputs.len())
                    + 24 * p.vector3f_inputs.len()
                    + 20 * p.pointer_inputs.len()
                    + 4 * (p.s32_outputs.len()
                        + p.bool_outputs.len()
                        + p.float_outputs.len()
                        + p.string_outputs.len()
                        + p.vector3f_outputs.len())
                    + 8 * p.pointer_outputs.len()
            })
            .sum();
        at(h.input_output_table_ofs, 0x30 + arrays);
    }
    if let Some(m) = &f.multi_inputs {
        at(h.multi_input_array_ofs, 8 * m.len());
    }
    if let Some(j) = &f.jumps {
        at(h.jump_table_ofs, 4 * j.len());
    }
    if f.query_element_id_array.is_some() {
        // The elements' query ranges, in some order.
        let ids: usize = f.elements.iter().map(|e| e.queries.len()).sum();
        at(h.query_element_id_array_ofs, 4 * ids);
    }
    if f.expression_binary.is_some() {
        at(
            h.expression_binary_ofs,
            (h.module_caller_array_ofs - h.expression_binary_ofs) as usize,
        );
    }
    if let Some(m) = &f.module_callers {
        at(h.module_caller_array_ofs, 4 + 12 * m.entries.len());
    }
    if let Some(m) = &f.external_actions {
        at(h.external_action_array_ofs, 4 + 12 * m.entries.len());
    }
    if let Some(c) = &f.child_replacement_table {
        at(h.child_replacement_table_ofs, 8 + 8 * c.entries.len());
    }
    if f.module_caller_link.is_some() {
        at(h.module_caller_link_ofs, 8);
    }
    if f.section_6c.is_some() {
        at(h.unknown_6c, 4);
    }
    if let Some(e) = &f.enum_resolve_array {
        at(h.enum_relocation_array_ofs, 4 + 12 * e.entries.len());
    }
    at(h.string_pool_ofs, file_len - h.string_pool_ofs as usize);
    r
}

/// The bytes of `0..len` that no range covers, as `(start, end)` runs.
fn gaps(mut ranges: Vec<(usize, usize)>, len: usize) -> Vec<(usize, usize)> {
    ranges.retain(|r| r.1 > r.0);
    ranges.sort();
    let mut out = Vec::new();
    let mut next = 0;
    for (s, e) in ranges {
        assert!(
            e <= len,
            "a range ends at {e:#x}, past the end of the file ({len:#x})"
        );
        if s > next {
            out.push((next, s));
        }
        next = next.max(e);
    }
    if next < len {
        out.push((next, len));
    }
    out
}

/// Which bytes of each file the model accounts for. Every range read lies inside the file. In the Splatoon 3 0x404
/// file, the only bytes left are the ones the page does not describe (see the schema's doc): bytes after two element
/// params' plug pointer arrays, and 8 bytes before the 0x6c section. Elsewhere at most 8 bytes are left (the second
/// half of the extra bytes of an expression's vector3f input plug, which the plug alone does not tell apart), except
/// in the `ainb` package's 0x404 files, which have sections of their own in the tail (from the query element id
/// array on).
#[test]
fn byte_coverage() {
    let Some(corpus) = corpus() else { return };
    let mut failed = Vec::new();
    let real = corpus.join("real");
    for path in ainb_files(&corpus) {
        let (data, f) = parse(&path);
        let h = header(&data);
        let g = gaps(read_ranges(&f, &data), data.len());
        let unread: usize = g.iter().map(|(s, e)| e - s).sum();
        let shown: Vec<String> = g.iter().map(|(s, e)| format!("{s:#x}..{e:#x}")).collect();
        eprintln!(
            "{}: {unread} of {} bytes unread: {}",
            path.file_name().unwrap().to_string_lossy(),
            data.len(),
            shown.join(" ")
        );
        if path.ends_with("Vss_Kaisou04_66b8.logic.root.ainb") {
            assert_eq!(g, vec![(0x228, 0x238), (0x2dc, 0x2e4), (0x564, 0x56c)]);
        } else if !path.starts_with(&real) && f.version == 0x404 {
            // The `ainb` package's 0x404 files: what is left is in the tail, from the query element id array on.
            if g.iter()
                .any(|&(s, _)| s < h.query_element_id_array_ofs as usize)
            {
                failed.push(path.display().to_string());
            }
        } else if unread > 8 {
            failed.push(path.display().to_string());
        }
    }
    assert!(failed.is_empty(), "unaccounted bytes: {failed:?}");
}

/// The selector plugs of the real Tears of the Kingdom event file: as the page says, the last child plug of a
/// selector is the default case, whose condition is 0 for an Element_S32Selector and the string その他 ("Other")
/// for an Element_StringSelector; Element_F32Selector child plugs carry four condition entries.
#[test]
fn selector_plugs() {
    let Some(corpus) = corpus() else { return };
    let (_, f) = parse(&corpus.join("real/ainb/Npc_Gerudo_Queen_Young.event.root.ainb"));
    let mut seen = [0usize; 3];
    for (i, e) in f.elements.iter().enumerate() {
        let p = e.param.as_ref().unwrap();
        let Some(last) = p.child_plugs.last() else {
            continue;
        };
        match e.element_type.value() {
            1 => {
                seen[0] += 1;
                assert_eq!(last.data.selector_s32, Some(0), "element {i}");
                assert_eq!(last.data.selector_index_and_flags, Some(0));
            }
            5 => {
                seen[1] += 1;
                assert_eq!(
                    last.data.selector_string_text.as_deref(),
                    Some("その他"),
                    "element {i}"
                );
            }
            4 => {
                seen[2] += 1;
                for c in &p.child_plugs {
                    assert_eq!(c.data.conditions.as_ref().map(Vec::len), Some(4));
                    assert!(c.data.selector_s32.is_none() && c.data.selector_string_text.is_none());
                }
            }
            _ => {
                for c in &p.child_plugs {
                    assert!(c.data.selector_weight.is_some() || e.element_type.value() != 6);
                    assert!(c.data.selector_s32.is_none() && c.data.conditions.is_none());
                }
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "selectors seen: {seen:?}");
}

/// The name hashes are derived (murmur3 of the element type name, the attachment name and the file reference's
/// path): every fixture and corpus file agrees, so none is kept as an override; a renamed attachment gets the new
/// name's hash.
#[test]
fn name_hashes_are_derived() {
    let mut files = files_under(&repo().join("tests/fixtures/ainb"));
    files.retain(|p| p.extension().is_some_and(|e| e == "ainb"));
    if let Some(c) = corpus() {
        files.extend(ainb_files(&c));
    }
    let (mut elements, mut attachments, mut refs) = (0, 0, 0);
    for p in &files {
        let (_, f) = parse(p);
        let v407 = f.version >= 0x407;
        for (i, e) in f.elements.iter().enumerate() {
            assert_eq!(e.name_hash, None, "{}: element {i}", p.display());
            elements += v407 as usize;
        }
        for a in f.attachments.iter().flatten() {
            assert_eq!(
                a.name_hash,
                None,
                "{}: attachment {}",
                p.display(),
                a.name_text
            );
            attachments += v407 as usize;
        }
        for r in f.blackboard.iter().flat_map(|b| &b.file_references) {
            assert_eq!(r.file_path_hash, None, "{}: {}", p.display(), r.file_path);
            assert_eq!(r.filename_hash, None, "{}: {}", p.display(), r.file_path);
            assert_eq!(
                r.file_extension_hash,
                None,
                "{}: {}",
                p.display(),
                r.file_path
            );
            refs += 1;
        }
    }
    eprintln!("{elements} element, {attachments} attachment and {refs} file path hashes derived");
    assert!(elements > 0, "no version 0x407 element at hand");
    // The hash follows the name: an element type name changed in place (same length) reads back with no
    // override, so the writer wrote the new name's hash.
    let (data, mut f) = files
        .iter()
        .map(|p| parse(p))
        .find(|(_, f)| f.version >= 0x407 && f.elements.iter().any(|e| e.type_name_text.len() > 1))
        .expect("a 0x407 file with a named element");
    assert_eq!(
        f.to_binary().unwrap(),
        data,
        "the raw model writes the file back"
    );
    // The raw model holds the pool's strings in file order and each text that refers to one: renaming the
    // string in both keeps the file's size and layout, and every element of that type name gets the new name.
    let e = f
        .elements
        .iter()
        .find(|e| e.type_name_text.len() > 1)
        .unwrap();
    let old = e.type_name_text.to_string();
    let new: String = old.chars().rev().collect();
    for s in f.string_pool.strings.iter_mut().filter(|s| **s == old) {
        *s = new.clone();
    }
    for e in f.elements.iter_mut().filter(|e| *e.type_name_text == *old) {
        e.type_name_text = new.as_str().into();
    }
    let out = f.to_binary().unwrap();
    assert_eq!(out.len(), data.len());
    let again = Ainb::from_binary(&out).unwrap();
    let e = again
        .elements
        .iter()
        .find(|e| *e.type_name_text == *new)
        .unwrap();
    assert_eq!(e.name_hash, None);
    assert_ne!(
        binspec_formats::ainb::murmur3(&new),
        binspec_formats::ainb::murmur3(&old)
    );
}

/// An element's id is its index in the element array (a type argument, `element(_index)`), derived: swapped
/// elements get each other's ids. The header's query element count is derived from the elements' flags.
#[test]
fn element_ids_are_derived() {
    let (_, mut f) = parse(&repo().join("tests/fixtures/ainb/patrol_v407.ainb"));
    assert!(f.elements.len() >= 2);
    let names: Vec<String> = f
        .elements
        .iter()
        .map(|e| e.type_name_text.to_string())
        .collect();
    f.elements.swap(0, 1);
    let out = f.to_binary().unwrap();
    for i in 0..2 {
        assert_eq!(
            u32_at(&out, 0x74 + 0x18 * f.commands.len() + 0x3c * i) >> 16,
            i as u32
        );
    }
    let again = Ainb::from_binary(&out).unwrap();
    assert_eq!(
        (again.elements[0].element_id, again.elements[1].element_id),
        (None, None)
    );
    assert_eq!(*again.elements[0].type_name_text, names[1]);
    // Flagging an element as a query counts it in the header.
    let before = u32_at(&out, 0x14);
    let e = f
        .elements
        .iter_mut()
        .find(|e| e.element_flags & 1 == 0)
        .unwrap();
    e.element_flags |= 1;
    let out = f.to_binary().unwrap();
    assert_eq!(u32_at(&out, 0x14), before + 1);
}

/// A file reference's three hashes (of the path, of the file name without directories and extension, of the
/// extension) are derived: a new path gets the hashes of its parts, found in the written bytes as three words in a
/// row.
#[test]
fn file_reference_hashes_follow_the_path() {
    let Some(corpus) = corpus() else { return };
    let (_, mut f) = parse(&corpus.join("real/ainb/Npc_Gerudo_Queen_Young.event.root.ainb"));
    let r = &mut f.blackboard.as_mut().unwrap().file_references[0];
    assert_eq!(
        &*r.file_path,
        "Work/Component/Blackboard/BlackboardParamTable/NpcCommon.engine__component__BlackboardParamTable.gyml"
    );
    r.file_path = "Work/Other/Renamed.table.bgyml".into();
    let out = f.to_binary().unwrap();
    let m = binspec_formats::ainb::murmur3;
    let want: Vec<u8> = [
        m("Work/Other/Renamed.table.bgyml"),
        m("Renamed.table"),
        m("bgyml"),
    ]
    .iter()
    .flat_map(|h| h.to_le_bytes())
    .collect();
    assert!(
        out.windows(12).any(|w| w == want),
        "the new path's hashes are not in the file"
    );
    let again = Ainb::from_binary(&out).unwrap();
    let r = &again.blackboard.as_ref().unwrap().file_references[0];
    assert_eq!(
        (r.file_path_hash, r.filename_hash, r.file_extension_hash),
        (None, None, None)
    );
    assert_eq!(&*r.file_path, "Work/Other/Renamed.table.bgyml");
}

/// The raw model writes every fixture and corpus AINB back byte for byte. The bytes of the Splatoon 3 0x404 file
/// that the page does not describe (see `byte_coverage`) are kept as the gaps before the sections and element
/// parameters that follow them (every section and parameter is an item of one region, whose layout the writer
/// derives); before that, the output differed there (11 bytes). No file keeps a section order of its own: the
/// schema's default (`order` on the region) is the order of every file at hand.
#[test]
fn the_raw_model_writes_every_file_back() {
    let mut files = files_under(&repo().join("tests/fixtures/ainb"));
    files.retain(|p| p.extension().is_some_and(|e| e == "ainb"));
    if let Some(c) = corpus() {
        files.extend(ainb_files(&c));
    }
    let mut failed = Vec::new();
    for p in &files {
        let (data, f) = parse(p);
        // The schema's default section order is the one every file at hand has (Nintendo's and the `ainb`
        // package's): no model keeps one of its own.
        if let Some(o) = &f.sections_order {
            failed.push(format!("{}: keeps the section order {o:?}", p.display()));
        }
        let out = f
            .to_binary()
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        if out.len() != data.len() {
            failed.push(format!(
                "{}: {} bytes written, {} read",
                p.display(),
                out.len(),
                data.len()
            ));
            continue;
        }
        let differ: Vec<String> = (0..data.len())
            .filter(|&i| out[i] != data[i])
            .map(|i| format!("{i:#x}"))
            .collect();
        if !differ.is_empty() {
            failed.push(format!(
                "{}: {} bytes differ, the first at {:?}",
                p.display(),
                differ.len(),
                &differ[..differ.len().min(8)]
            ));
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

/// Strings are the raw model's data and their offsets are derived: renaming every float property and command to a
/// longer name that the file does not hold writes the new names at the end of the pool, the offsets follow, and
/// both the raw model and the document read the new names back (the other strings keep their places).
#[test]
fn renamed_strings_are_laid_out_by_the_writer() {
    let p = repo().join("tests/fixtures/ainb/patrol_v407.ainb");
    let (data, mut f) = parse(&p);
    let floats = |f: &Ainb| -> Vec<String> {
        f.elements
            .iter()
            .filter_map(|e| e.param.as_ref())
            .flat_map(|p| p.float_properties.iter().map(|x| x.name_text.to_string()))
            .collect()
    };
    assert!(!floats(&f).is_empty());
    for p in f.elements.iter_mut().filter_map(|e| e.param.as_mut()) {
        for x in &mut p.float_properties {
            x.name_text = format!("{}_renamed", x.name_text).as_str().into();
        }
    }
    let want = floats(&f);
    f.file_name = "a_longer_file_name_than_before".into();
    let out = f.to_binary().unwrap();
    assert!(out.len() > data.len());
    let again = Ainb::from_binary(&out).unwrap();
    let got = floats(&again);
    assert_eq!(got, want);
    assert_eq!(&*again.file_name, "a_longer_file_name_than_before");
    // The strings the file held stay where they were: the pool only grows at its end.
    assert_eq!(
        again.string_pool.strings[..f.string_pool.strings.len()],
        f.string_pool.strings[..]
    );
    let doc = binspec_formats::ainb::Document::from_binary(&out).unwrap();
    let names: Vec<&str> = doc
        .elements
        .iter()
        .flat_map(|e| e.properties.f32.iter().map(|p| p.name.as_str()))
        .collect();
    assert!(names.iter().all(|n| n.ends_with("_renamed")), "{names:?}");
    assert!(!names.is_empty());
}

/// Plug names, the strings string selectors select on and the strings of string input plugs are the raw model's
/// data, and their offsets are derived (before, the model kept the offsets, and a renamed plug kept its old name
/// in the file): every one renamed in every file reads back renamed, through the raw model and the document.
#[test]
fn plug_strings_are_laid_out_by_the_writer() {
    let mut files = files_under(&repo().join("tests/fixtures/ainb"));
    files.retain(|p| p.extension().is_some_and(|e| e == "ainb"));
    let have_corpus = corpus().inspect(|c| files.extend(ainb_files(c))).is_some();
    let mut seen = [0usize; 3];
    for p in &files {
        let (_, mut f) = parse(p);
        let mut want = Vec::new();
        for e in &mut f.elements {
            let Some(param) = e.param.as_mut() else {
                continue;
            };
            for (k, plugs) in plug_kinds_mut(param).into_iter().enumerate() {
                for plug in plugs {
                    let d = &mut plug.data;
                    for (i, s) in [
                        &mut d.name_text,
                        &mut d.selector_string_text,
                        &mut d.input_string_text,
                    ]
                    .into_iter()
                    .enumerate()
                    {
                        if let Some(s) = s {
                            *s = format!("{s}_renamed").as_str().into();
                            seen[i] += 1;
                        }
                    }
                    want.push((k, d.clone()));
                }
            }
        }
        let out = f
            .to_binary()
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let mut again = Ainb::from_binary(&out).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let mut got = Vec::new();
        for e in &mut again.elements {
            let Some(param) = e.param.as_mut() else {
                continue;
            };
            for (k, plugs) in plug_kinds_mut(param).into_iter().enumerate() {
                got.extend(plugs.iter().map(|x| (k, x.data.clone())));
            }
        }
        assert_eq!(got, want, "{}", p.display());
        // The document reads the names through the offsets in the bytes.
        let doc = binspec_formats::ainb::Document::from_binary(&out)
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        for plug in doc.elements.iter().flat_map(|e| &e.plugs) {
            if let binspec_formats::ainb::PlugName::Name(n) = &plug.name {
                assert!(n.ends_with("_renamed"), "{}: {n}", p.display());
            }
        }
    }
    // The fixtures have plug names; the selectors' and input plugs' strings are in the corpus's Nintendo file.
    let need = if have_corpus { 3 } else { 1 };
    assert!(
        seen[..need].iter().all(|&n| n > 0),
        "plug names, selector strings, input strings: {seen:?}"
    );
}

/// A pool string that holds its terminator would read back cut short: the writer refuses it and names the field,
/// rather than changing the value. (So does a string of the pool's own list.)
#[test]
fn pool_strings_holding_their_terminator_are_refused() {
    let p = repo().join("tests/fixtures/ainb/patrol_v407.ainb");
    let (_, mut f) = parse(&p);
    f.file_name = "a\0b".into();
    let e = f.to_binary().unwrap_err().to_string();
    assert!(e.contains("file_name") && e.contains("terminator"), "{e}");
    let (_, mut f) = parse(&p);
    f.string_pool.strings[0] = "x\0y".into();
    let e = f.to_binary().unwrap_err().to_string();
    assert!(e.contains("strings") && e.contains("terminator"), "{e}");
}

/// Header word 0x50 is derived from the jump table offset (every file at hand has them equal): a file where it
/// differs keeps its value in the raw model and writes back as it was, and the document, whose writer cannot
/// keep it, refuses the file and names the word.
#[test]
fn header_word_0x50_is_derived_and_a_differing_one_is_kept() {
    let p = repo().join("tests/fixtures/ainb/patrol_v407.ainb");
    let (mut data, f) = parse(&p);
    assert_eq!(f.unknown_50, None);
    data[0x50] ^= 0x10;
    let f = Ainb::from_binary(&data).unwrap();
    assert_eq!(f.unknown_50, Some(u32_at(&data, 0x50)));
    assert_eq!(f.to_binary().unwrap(), data);
    let e = binspec_formats::ainb::Document::from_binary(&data)
        .unwrap_err()
        .to_string();
    assert!(e.contains("header word 0x50"), "{e}");
}

/// The raw model's reader and writer (the generated ones, which derive the parameters' ranges, count from the
/// property and input/output tables' offsets and write one plug region per element parameter) on mutated
/// fixtures: flipped bytes, and huge or file-sized words planted at word offsets, including the parameters' range
/// entries. Each input reads or fails with an error; one that reads writes or fails with an error, and what it
/// writes reads again. No panic.
#[test]
fn the_raw_model_survives_mutated_files() {
    let mut files = files_under(&repo().join("tests/fixtures/ainb"));
    files.retain(|p| p.extension().is_some_and(|e| e == "ainb"));
    let mut rng = binspec_tests::Rng(0x5eed_a1b2);
    let (mut read, mut written) = (0, 0);
    for p in &files {
        let data = std::fs::read(p).unwrap();
        for i in 0..300 {
            let mut d = data.clone();
            let at = rng.below(d.len() - 4) & !3;
            match i % 3 {
                0 => d[rng.below(data.len())] ^= 1 << rng.below(8),
                1 => d[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes()),
                _ => d[at..at + 4].copy_from_slice(&(data.len() as u32).to_le_bytes()),
            }
            let what = format!("{} mutation {i} at {at:#x}", p.display());
            let r = std::panic::catch_unwind(|| {
                let Ok(f) = Ainb::from_binary(&d) else {
                    return (false, false);
                };
                let Ok(out) = f.to_binary() else {
                    return (true, false);
                };
                Ainb::from_binary(&out)
                    .unwrap_or_else(|e| panic!("written file does not read: {e}"));
                (true, true)
            });
            let (r1, w1) = r.unwrap_or_else(|_| panic!("{what}: panicked"));
            read += usize::from(r1);
            written += usize::from(w1);
        }
    }
    eprintln!("{read} mutated files read, {written} written and read back");
    assert!(read > 0 && written > 0);
}

/// The plug data pointers are derived: the plugs are items written after the element parameter's pointer array,
/// one after another. Dropping an element's first child plug moves every later plug of that element 4 bytes
/// (one pointer less) plus the dropped plug's size down, and the file reads back with the plugs that are left.
#[test]
fn plug_pointers_are_derived() {
    let mut files = files_under(&repo().join("tests/fixtures/ainb"));
    files.retain(|p| p.extension().is_some_and(|e| e == "ainb"));
    let mut edited = 0;
    for p in &files {
        let (_, mut f) = parse(p);
        let Some(i) = f.elements.iter().position(|e| {
            e.param
                .as_ref()
                .is_some_and(|p| p.child_plugs.len() >= 2 && p.jump_plugs.is_empty())
        }) else {
            continue;
        };
        let param = f.elements[i].param.as_mut().unwrap();
        param.child_plugs.remove(0);
        let plugs = |p: &binspec_formats::ainb::raw::ElementParam| {
            plug_kinds(p)
                .into_iter()
                .flatten()
                .map(|x| x.data.clone())
                .collect::<Vec<_>>()
        };
        let want = plugs(param);
        let out = f
            .to_binary()
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let again = Ainb::from_binary(&out).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let back = again.elements[i].param.as_ref().unwrap();
        assert_eq!(plugs(back), want, "{}", p.display());
        // The first pointer is right after the (shorter) pointer array.
        let param_ofs = element_word(&out, &again, i, 0x14) as usize;
        let word = |o: usize| u32_at(&out, o) as usize;
        assert_eq!(
            word(param_ofs + 0xa4),
            param_ofs + 0xa4 + 4 * want.len(),
            "{}",
            p.display()
        );
        edited += 1;
    }
    eprintln!("{edited} files edited");
    assert!(edited > 0, "no fixture has an element with two child plugs");
}

/// The sections and parameters are items of one region, so their offsets are derived: giving an element one more
/// child plug makes its parameter longer (one pointer and one plug), and every parameter and section after it
/// moves by that much, with the header's offsets following. (When the offsets were kept as read, the longer
/// parameter ran into the next one and the write failed.)
#[test]
fn sections_move_when_a_parameter_grows() {
    let mut files = files_under(&repo().join("tests/fixtures/ainb"));
    files.retain(|p| p.extension().is_some_and(|e| e == "ainb"));
    let mut edited = 0;
    let mut attachments_moved = 0;
    for p in &files {
        let (data, mut f) = parse(p);
        let Some(i) = f.elements.iter().position(|e| {
            e.param
                .as_ref()
                .is_some_and(|p| !p.child_plugs.is_empty() && p.jump_plugs.is_empty())
        }) else {
            continue;
        };
        let param = f.elements[i].param.as_mut().unwrap();
        let plug = param.child_plugs[0].clone();
        let d = &plug.data;
        let grown = 4 + plug_len(d) as u32;
        param.child_plugs.push(plug);
        let want = f.elements[i].param.clone();
        let out = f
            .to_binary()
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let again = Ainb::from_binary(&out).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert_eq!(again.elements[i].param, want, "{}", p.display());
        assert_eq!(out.len(), data.len() + grown as usize, "{}", p.display());
        let (before, after) = (header(&data), header(&out));
        let param_at = element_word(&data, &f, i, 0x14);
        // Every section after the parameter moved by as much as it grew; the ones before it stayed.
        for ((name, was), (_, is)) in header_offsets(&before)
            .into_iter()
            .zip(header_offsets(&after))
        {
            let moved = if was > param_at { grown } else { 0 };
            assert_eq!(is, was + moved, "{}: {name}", p.display());
        }
        // An attachment parameter that moved has its end offsets where it ends now.
        for x in again.attachments.iter().flatten() {
            let param = x.param.as_ref().unwrap();
            assert_eq!(param.end_38, None, "{}: {}", p.display(), x.name_text);
            attachments_moved += 1;
        }
        for j in 0..f.elements.len() {
            let was = element_word(&data, &f, j, 0x14);
            let moved = if was > param_at { grown } else { 0 };
            assert_eq!(
                element_word(&out, &again, j, 0x14),
                was + moved,
                "{}: element {j}",
                p.display()
            );
        }
        edited += 1;
    }
    eprintln!("{edited} files edited, {attachments_moved} attachment parameters checked");
    assert!(edited > 0, "no fixture has an element with a child plug");
    assert!(attachments_moved > 0, "no fixture has attachments");
}

/// The blackboard's section headers are derived: one s32 parameter more (with its default) makes the s32 count one
/// more and moves every later type's first index by one and first offset by four bytes, and the file reads back
/// with the parameter.
#[test]
fn blackboard_headers_are_derived() {
    let p = repo().join("tests/fixtures/ainb/patrol_v408.ainb");
    let (data, mut f) = parse(&p);
    let bb = f.blackboard.as_mut().unwrap();
    let extra = bb.s32_params[0].clone();
    bb.s32_params.push(extra);
    bb.s32_defaults.push(77);
    let out = f.to_binary().unwrap();
    let again = Ainb::from_binary(&out).unwrap();
    assert_eq!(again.blackboard, f.blackboard);
    let headers = |d: &[u8]| -> Vec<[u16; 4]> {
        let at = header(d).blackboard_ofs as usize;
        (0..7)
            .map(|t| {
                std::array::from_fn(|k| {
                    u16::from_le_bytes([d[at + 8 * t + 2 * k], d[at + 8 * t + 2 * k + 1]])
                })
            })
            .collect()
    };
    let (before, after) = (headers(&data), headers(&out));
    for t in 0..7 {
        let (count, index, offset) = match t {
            0 => (0, 0, 0),
            1 => (1, 0, 0),
            _ => (0, 1, 4),
        };
        assert_eq!(after[t][0], before[t][0] + count, "type {t}");
        assert_eq!(after[t][1], before[t][1] + index, "type {t}");
        assert_eq!(after[t][2], before[t][2] + offset, "type {t}");
    }
    // A parameter without its default is refused: the count would read back the other array otherwise.
    f.blackboard.as_mut().unwrap().s32_defaults.pop();
    let e = f.to_binary().unwrap_err().to_string();
    assert!(e.contains("s32_count"), "{e}");
}

/// A blackboard section header whose last u16 is not 0 (no file at hand has one) is kept by the raw model and
/// refused by the document, which has no place for it, rather than lost.
#[test]
fn a_blackboard_header_unknown_is_kept_or_refused() {
    let p = repo().join("tests/fixtures/ainb/patrol_v407.ainb");
    let mut data = std::fs::read(&p).unwrap();
    let at = header(&data).blackboard_ofs as usize + 8 + 6;
    data[at] = 1;
    let f = Ainb::from_binary(&data).unwrap();
    assert_eq!(f.blackboard.as_ref().unwrap().s32_unknown_06, 1);
    assert_eq!(f.to_binary().unwrap(), data);
    let e = binspec_formats::ainb::Document::from_binary(&data)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("blackboard.s32_unknown_06 is 1 in the file, 0 as the document writes it"),
        "{e}"
    );
}

/// A float that is not a number (an element's float property, input, or a selector plug's weight) is data like any
/// other: the document holds its bits and writes them back. (The document's check that it holds everything the
/// raw model does compared models with `==`, under which NaN differs from itself, and refused such files.)
#[test]
fn not_a_number_floats_decode_and_write_back() {
    let p = repo().join("tests/fixtures/ainb/patrol_v407.ainb");
    let mut f = Ainb::from_binary(&std::fs::read(&p).unwrap()).unwrap();
    let nan = f32::from_bits(0x7fc0_1234);
    let name = f.string_pool.strings[0].as_str().into();
    let param = f.elements[0].param.as_mut().unwrap();
    param
        .float_properties
        .push(binspec_formats::ainb::raw::PropertyFloat {
            flags: Default::default(),
            immediate_value: nan,
            name_text: name,
        });
    let data = f.to_binary().unwrap();
    let doc = binspec_formats::ainb::Document::from_binary(&data).unwrap();
    let v = doc.elements[0].properties.f32.last().unwrap().value;
    assert_eq!(v.to_bits(), nan.to_bits());
    assert_eq!(doc.to_binary().unwrap(), data);
}
