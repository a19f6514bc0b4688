//! Perro's text keyframe clips (`.panim`) and retarget bakes (`.pretarget`): byte-identical round trips of every
//! fixture (the seed's examples verbatim and our own), the model through YAML and JSON, canonical printing,
//! invalid clips with their `file:line:column` errors through the CLI, track evaluation and `binspec track`, and
//! the docs page generated from `schemas/panim_perro.ksy`.
//!
//! Refresh the page with `BINSPEC_UPDATE_DOCS=1 cargo test -p binspec-tests --test panim_perro`.

use std::path::PathBuf;

use binspec_formats::panim_perro::{
    self, docs, schema, Clip, ControlValue, Ease, FieldPath, Frame, FrameEntry, Interp, Item, Key,
    KeyMode, ObjectBlock, ObjectDecl, ObjectEntry, Objects, Retarget, Value,
};
use binspec_runtime::Format;
use binspec_tests::repo;

const REFRESH: &str = "BINSPEC_UPDATE_DOCS=1 cargo test -p binspec-tests --test panim_perro";

fn dir() -> PathBuf {
    repo().join("tests/fixtures/panim_perro")
}

fn fixtures(ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    v.sort();
    v
}

fn clip(name: &str) -> Clip {
    Clip::from_binary(&std::fs::read(dir().join(name)).unwrap()).unwrap()
}

/// Runs the CLI with every format; (exit status, stdout, stderr).
fn cli(args: &[&str]) -> (u8, String, String) {
    let registry = binspec_formats::registry();
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut all = vec!["binspec"];
    all.extend_from_slice(args);
    let rc = binspec_cli::run_from(all, &registry, &mut out, &mut err, false);
    (
        rc,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

#[test]
fn every_fixture_round_trips_byte_for_byte() {
    let clips = fixtures("panim");
    assert!(clips.len() >= 7, "only {} clips", clips.len());
    for p in &clips {
        let bytes = std::fs::read(p).unwrap();
        assert!(Clip::sniff(&bytes), "{} not sniffed", p.display());
        assert!(
            !Retarget::sniff(&bytes),
            "{} sniffed as .pretarget",
            p.display()
        );
        let c = Clip::from_binary(&bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert_eq!(
            String::from_utf8(c.to_binary().unwrap()).unwrap(),
            String::from_utf8(bytes.clone()).unwrap(),
            "{}",
            p.display()
        );
    }
    let rets = fixtures("pretarget");
    assert!(rets.len() >= 2);
    for p in &rets {
        let bytes = std::fs::read(p).unwrap();
        assert!(
            Retarget::sniff(&bytes) && !Clip::sniff(&bytes),
            "{}",
            p.display()
        );
        let r = Retarget::from_binary(&bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert_eq!(r.to_binary().unwrap(), bytes, "{}", p.display());
    }
    // And through the CLI: `check` on the folder (the invalid cases file is not a clip and is skipped).
    let (rc, out, err) = cli(&["check", dir().to_str().unwrap()]);
    assert_eq!(rc, 0, "{out}{err}");
    assert!(
        out.contains("panim-perro") && out.contains("panim-pretarget"),
        "{out}"
    );
}

#[test]
fn seed_examples_are_verbatim() {
    let seed = repo().join("../shared/seeds/003_733e721063886d99.txt");
    let Ok(seed) = std::fs::read_to_string(&seed) else {
        eprintln!("skipped: {} is absent", seed.display());
        return;
    };
    for name in [
        "seed_door_open.panim",
        "seed_run_forward.panim",
        "seed_retarget.pretarget",
    ] {
        let text = std::fs::read_to_string(dir().join(name)).unwrap();
        assert!(
            seed.contains(text.trim_end()),
            "{name} is not verbatim from the seed"
        );
    }
}

#[test]
fn info_names_the_format() {
    let (rc, out, _) = cli(&[
        "info",
        dir().join("seed_run_forward.panim").to_str().unwrap(),
    ]);
    assert_eq!(rc, 0);
    assert!(out.starts_with("panim-perro: "), "{out}");
    assert!(
        out.contains("name: RunForward") && out.contains("total frames: 11"),
        "{out}"
    );
    let (rc, out, _) = cli(&[
        "info",
        dir().join("seed_retarget.pretarget").to_str().unwrap(),
    ]);
    assert_eq!(rc, 0);
    assert!(
        out.starts_with("panim-pretarget: ") && out.contains("bone rows: 2"),
        "{out}"
    );
}

#[test]
fn documents_round_trip_through_yaml_and_json() {
    for p in fixtures("panim") {
        let bytes = std::fs::read(&p).unwrap();
        let c = Clip::from_binary(&bytes).unwrap();
        let yaml = c.to_text().unwrap();
        let back =
            Clip::from_text(&yaml).unwrap_or_else(|e| panic!("{}: {e}\n{yaml}", p.display()));
        assert_eq!(back, c, "{}", p.display());
        assert_eq!(back.to_binary().unwrap(), bytes, "{}", p.display());
        let json = c.to_json().unwrap();
        let back = Clip::from_json(&json).unwrap();
        assert_eq!(back.to_binary().unwrap(), bytes, "{}", p.display());
    }
    for p in fixtures("pretarget") {
        let bytes = std::fs::read(&p).unwrap();
        let r = Retarget::from_binary(&bytes).unwrap();
        let back = Retarget::from_text(&r.to_text().unwrap()).unwrap();
        assert_eq!(back.to_binary().unwrap(), bytes, "{}", p.display());
    }
}

#[test]
fn decoded_document_has_tracks_with_effective_controls() {
    let c = clip("events_and_controls.panim");
    let v: serde_json::Value = serde_json::from_str(&c.to_json().unwrap()).unwrap();
    assert_eq!(v["settings"]["total_frames"], 41);
    let events: Vec<(u64, &str, &str)> = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["frame"].as_u64().unwrap(),
                e["object"].as_str().unwrap_or("-"),
                e["kind"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        events,
        [
            (0, "Hero", "set_var"),
            (0, "Hero", "call_method"),
            (0, "-", "emit_signal"),
            (20, "Hero", "call_method"),
            (20, "Hero", "set_var"),
            (20, "Hero", "emit_signal"),
            (40, "-", "emit_signal"),
        ]
    );
    let hero = v["tracks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["object"] == "Hero" && t["field"] == "position")
        .unwrap();
    let keys = hero["keys"].as_array().unwrap();
    let got: Vec<(u64, &str, &str)> = keys
        .iter()
        .map(|k| {
            (
                k["frame"].as_u64().unwrap(),
                k["interp"].as_str().unwrap(),
                k["ease"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (0, "interpolate", "ease_in"),
            (25, "interpolate", "ease_out"),
            // `position.ease = "easein"` came after frame 25's key: it shapes frame 40's key, and frame 40's
            // `position.interp = "step"` came before its key.
            (40, "step", "ease_in"),
        ]
    );
}

#[test]
fn controls_persist_across_frames_in_file_order() {
    let text = "[Animation]\ndefault_ease = \"out\"\n[/Animation]\n[Objects]\nA = Node2D\n[/Objects]\n\
                [Frame0]\n@A {\n    position = (0, 0)\n    position.interp = \"step\"\n}\n[/Frame0]\n\
                [Frame5]\n@A {\n    position = (1, 1)\n    rotation = 1\n}\n[/Frame5]\n\
                [Frame9]\n@A {\n    position.ease = \"easeinout\"\n    position = (2, 2)\n}\n[/Frame9]\n";
    let c = Clip::parse(text).unwrap();
    let t = c.tracks();
    let pos = t.iter().find(|t| t.id.field.field == "position").unwrap();
    let modes: Vec<(u32, Interp, Ease)> = pos
        .keys
        .iter()
        .map(|k| (k.frame, k.interp, k.ease))
        .collect();
    assert_eq!(
        modes,
        [
            (0, Interp::Interpolate, Ease::EaseOut),
            (5, Interp::Step, Ease::EaseOut),
            (9, Interp::Step, Ease::EaseInOut),
        ]
    );
    // Another track of the same object keeps the defaults.
    let rot = t.iter().find(|t| t.id.field.field == "rotation").unwrap();
    assert_eq!(
        (rot.keys[0].interp, rot.keys[0].ease),
        (Interp::Interpolate, Ease::EaseOut)
    );
    // Frame 0 → 5 blends with ease_out; frame 5 holds (step) until frame 9.
    let x = |f: f64| {
        c.sample("@A.position", f)
            .unwrap()
            .unwrap()
            .as_numbers()
            .unwrap()[0]
    };
    assert!((x(2.5) - 0.75).abs() < 1e-12, "{}", x(2.5));
    assert_eq!(x(8.99), 1.0);
    assert_eq!(x(9.0), 2.0);
    assert_eq!(x(100.0), 2.0);
    assert_eq!(x(-3.0), 0.0);
}

#[test]
fn sampling_follows_the_documented_semantics() {
    // The seed's door: rotation_deg (0,0,0) → (0,95,0) over 20 frames, ease_out.
    let door = clip("seed_door_open.panim");
    let y = |f: f64| {
        door.sample("@Door.rotation_deg", f)
            .unwrap()
            .unwrap()
            .as_numbers()
            .unwrap()[1]
    };
    assert_eq!(y(0.0), 0.0);
    assert_eq!(y(20.0), 95.0);
    let t: f64 = 0.5;
    assert!((y(10.0) - 95.0 * (1.0 - (1.0 - t).powi(2))).abs() < 1e-9);
    // The same track asked as `rotation` is in radians.
    let r = door
        .sample("@Door.rotation", 20.0)
        .unwrap()
        .unwrap()
        .as_numbers()
        .unwrap()[1];
    assert!((r - 95f64.to_radians()).abs() < 1e-12);

    // Quaternions slerp (unit length half way), 2D vectors lerp, bools and assets step.
    let all = clip("all_nodes.panim");
    let q = all
        .sample("@Root3D.rotation", 6.0)
        .unwrap()
        .unwrap()
        .as_numbers()
        .unwrap();
    let len = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    assert!((len - 1.0).abs() < 1e-9, "{q:?}");
    let angle = 2.0 * q[1].atan2(q[3]);
    // ease in_out at t = 0.5 is 0.5: half of the 90° turn.
    assert!(
        (angle.to_degrees() - 45.0).abs() < 1e-4,
        "{}",
        angle.to_degrees()
    );
    let p = all.sample("@Root2D.position", 6.0).unwrap().unwrap();
    assert_eq!(p.as_numbers().unwrap(), [32.0, -16.0]);
    assert_eq!(
        all.sample("@Root2D.visible", 11.9).unwrap(),
        Some(Value::Bool(true))
    );
    assert_eq!(
        all.sample("@Root2D.visible", 12.0).unwrap(),
        Some(Value::Bool(false))
    );
    assert_eq!(
        all.sample("@HeroMesh.mesh", 3.0).unwrap(),
        Some(Value::String("res://meshes/hero.glb:mesh[0]".into()))
    );
    // A step-controlled bone channel, and `bone[3]` / `bones[3]` naming one track.
    let b = all
        .sample("@Rig3D.bones[0].position", 11.0)
        .unwrap()
        .unwrap();
    assert_eq!(b.as_numbers().unwrap(), [0.0, 1.0, 0.0]);
    let deg = all
        .sample("@Rig3D.bones[3].rotation_deg", 6.0)
        .unwrap()
        .unwrap();
    assert!((deg.as_numbers().unwrap()[1] - 45.0).abs() < 1e-9);
    // Open keys have no deterministic value; after them the closed key holds.
    let open = clip("open_frame.panim");
    assert_eq!(open.sample("@Hand.rotation", 0.0).unwrap(), None);
    assert_eq!(open.sample("@Hand.rotation", 10.0).unwrap(), None);
    assert_eq!(
        open.sample("@Hand.rotation_deg", 20.0).unwrap(),
        Some(Value::Number(90.0))
    );
    let k = &open.tracks()[0].keys;
    assert_eq!((k[0].mode, k[1].mode), (KeyMode::Open, KeyMode::Closed));
    // Unknown tracks are an error naming the tracks there are.
    let e = open.sample("@Hand.position", 0.0).unwrap_err().to_string();
    assert!(e.contains("@Hand.rotation"), "{e}");
}

#[test]
fn ease_curves() {
    for e in Ease::ALL {
        assert_eq!(e.apply(0.0), 0.0);
        assert_eq!(e.apply(1.0), 1.0);
    }
    assert_eq!(Ease::Linear.apply(0.25), 0.25);
    assert_eq!(Ease::EaseIn.apply(0.5), 0.25);
    assert_eq!(Ease::EaseOut.apply(0.5), 0.75);
    assert_eq!(Ease::EaseInOut.apply(0.25), 0.125);
    assert_eq!(Ease::EaseInOut.apply(0.75), 0.875);
}

#[test]
fn an_edited_line_prints_canonically_and_the_rest_as_written() {
    let path = dir().join("seed_run_forward.panim");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut c = Clip::parse(&text).unwrap();
    let Item::Frame(f) = &mut c.items[2] else {
        panic!()
    };
    let FrameEntry::Object(b) = &mut f.entries[0] else {
        panic!()
    };
    let ObjectEntry::Key(k) = &mut b.entries[0] else {
        panic!()
    };
    k.value = Value::Tuple(vec![
        Value::Number(0.5),
        Value::Number(0.0),
        Value::Number(-1.0),
    ]);
    let printed = c.print();
    assert_eq!(
        printed,
        text.replace("    position = (0,0,0)\n", "    position = (0.5, 0, -1)\n")
    );
}

#[test]
fn a_model_built_in_code_prints_canonically() {
    let key = |field: &str, value: Value| {
        ObjectEntry::Key(Key {
            field: FieldPath::field(field),
            value,
            layout: Default::default(),
        })
    };
    let c = Clip {
        items: vec![
            Item::Objects(Objects {
                objects: vec![ObjectDecl {
                    name: "Hero".into(),
                    node_type: "Node2D".into(),
                    layout: Default::default(),
                }],
                layout: Default::default(),
            }),
            Item::Frame(Frame {
                index: 3,
                open: true,
                entries: vec![FrameEntry::Object(ObjectBlock {
                    object: "Hero".into(),
                    entries: vec![
                        ObjectEntry::Control(panim_perro::Control {
                            field: FieldPath::field("position"),
                            set: ControlValue::Ease(Ease::EaseIn),
                            layout: Default::default(),
                        }),
                        key(
                            "position",
                            Value::Tuple(vec![Value::Number(1.5), Value::Number(2.0)]),
                        ),
                        key("visible", Value::Bool(false)),
                    ],
                    layout: Default::default(),
                })],
                layout: Default::default(),
            }),
        ],
        layout: Default::default(),
    };
    let text = "[Objects]\nHero = Node2D\n[/Objects]\n\n[Frame3?]\n@Hero {\n    position.ease = \"ease_in\"\n    \
                position = (1.5, 2)\n    visible = false\n}\n[/Frame3]\n";
    assert_eq!(String::from_utf8(c.to_binary().unwrap()).unwrap(), text);
    // What it prints reads back as the same data.
    assert_eq!(Clip::parse(text).unwrap().normalize(), text);
}

#[test]
fn normalize_writes_canonical_text() {
    let c = clip("all_nodes.panim");
    let n = c.normalize();
    assert!(!n.contains("// Every node type"), "comments are dropped");
    assert!(n.contains("default_interp = \"interpolate\"\n"), "{n}");
    assert!(n.contains("default_ease = \"ease_in_out\"\n"), "{n}");
    assert!(n.contains("    bones[3].rotation_deg = (0, 0, 0)\n"), "{n}");
    assert!(n.contains("    bones[\"Tail\"].scale = (1, 1)\n"), "{n}");
    let again = Clip::parse(&n).unwrap();
    assert_eq!(again.normalize(), n, "normalize is stable");
    assert_eq!(again.tracks(), c.tracks(), "normalize keeps the data");
    // Every fixture: the canonical text reads back to the same tracks and events, and is stable.
    for p in fixtures("panim") {
        let c = Clip::from_binary(&std::fs::read(&p).unwrap()).unwrap();
        let n = c.normalize();
        let again = Clip::parse(&n).unwrap_or_else(|e| panic!("{}: {e}\n{n}", p.display()));
        assert_eq!(again.normalize(), n, "{}", p.display());
        assert_eq!(again.tracks(), c.tracks(), "{}", p.display());
        assert_eq!(again.settings(), c.settings(), "{}", p.display());
        let events = |c: &Clip| {
            c.events()
                .into_iter()
                .map(|(f, o, e)| (f, o.map(str::to_string), e.kind, e.value.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(events(&again), events(&c), "{}", p.display());
    }
    let crlf = clip("crlf_no_final_newline.panim").normalize();
    assert_eq!(
        crlf,
        "[Objects]\nHero = Node2D\n[/Objects]\n\n[Frame5]\n@Hero {\n    position = (1, 2.5)\n}\n[/Frame5]\n"
    );
}

/// The cases of `invalid_clips.txt`: (file name, expected stderr line, clip text).
fn invalid_cases() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(dir().join("invalid_clips.txt")).unwrap();
    let mut out: Vec<(String, String, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if let Some(name) = line.strip_prefix("=== ") {
            out.push((name.trim().to_string(), String::new(), String::new()));
        } else if let Some(c) = out.last_mut() {
            if c.1.is_empty() {
                c.1 = line
                    .strip_prefix("--- ")
                    .unwrap_or_else(|| panic!("{}: expected `--- error: ...`", c.0))
                    .trim_end()
                    .to_string();
            } else {
                c.2.push_str(line);
            }
        }
    }
    out
}

#[test]
fn invalid_clips_fail_with_file_line_column() {
    let cases = invalid_cases();
    assert!(cases.len() >= 20, "only {} cases", cases.len());
    let tmp = tempfile::tempdir().unwrap();
    let mut seen_kinds = 0;
    for (name, expected, body) in &cases {
        let p = tmp.path().join(name);
        std::fs::write(&p, body).unwrap();
        let (rc, _, err) = cli(&["info", p.to_str().unwrap()]);
        let err = err.replace(&format!("{}/", tmp.path().display()), "");
        assert_eq!(rc, 1, "{name}: {err}");
        assert_eq!(err.trim_end(), expected, "{name}");
        // `check` names the file too, and fails.
        let (rc, out, _) = cli(&["check", p.to_str().unwrap()]);
        assert_eq!(rc, 1, "{name}: {out}");
        for kind in [
            "unknown node type",
            "is not animatable on",
            "undeclared object",
            "is closed by",
            "unknown ease",
            "unknown interpolation",
            "duplicate key",
        ] {
            seen_kinds += usize::from(expected.contains(kind));
        }
    }
    assert!(seen_kinds >= 7, "every required kind of error has a case");
}

#[test]
fn hostile_input_gets_clean_errors() {
    // Deep nesting: refused with a position, no stack overflow.
    let deep = format!(
        "[Frame0]\nemit_signal = {{ name = \"x\", params = {}{} }}\n[/Frame0]\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let e = Clip::parse(&deep).unwrap_err().to_string();
    assert!(
        e.starts_with("2:") && e.contains("nested more than 64"),
        "{e}"
    );
    // Not UTF-8.
    let e = Clip::from_binary(b"[Frame0]\n\xff\n[/Frame0]\n")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("2:1:"), "{e}");
    // Truncations of every fixture never panic.
    for p in fixtures("panim") {
        let text = std::fs::read_to_string(&p).unwrap();
        for cut in (0..text.len()).filter(|i| text.is_char_boundary(*i)) {
            if let Ok(c) = Clip::parse(&text[..cut]) {
                assert_eq!(c.print(), &text[..cut]);
            }
        }
    }
    // Every fourth character of every fixture replaced by each of a few significant characters: never a panic,
    // and whatever still reads prints back byte for byte.
    let mut read_back = 0;
    for p in fixtures("panim") {
        let text = std::fs::read_to_string(&p).unwrap();
        let idx: Vec<usize> = text.char_indices().map(|(i, _)| i).step_by(4).collect();
        for i in idx {
            let len = text[i..].chars().next().unwrap().len_utf8();
            for c in ["{", "}", "[", "]", "\"", "\n", "@", "?", "=", "/", "(", "x"] {
                let m = format!("{}{c}{}", &text[..i], &text[i + len..]);
                if let Ok(clip) = Clip::parse(&m) {
                    assert_eq!(clip.print(), m, "{} with {c:?} at {i}", p.display());
                    let _ = clip.tracks();
                    read_back += 1;
                }
            }
        }
    }
    assert!(read_back > 100, "{read_back}");
    assert_eq!(
        clip("seed_door_open.panim")
            .sample("@Door.rotation", f64::NAN)
            .unwrap(),
        None
    );
    // A frame index past u32.
    let e = Clip::parse("[Frame4294967296]\n[/Frame4294967296]\n")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("1:") && e.contains("32 bits"), "{e}");
}

#[test]
fn sniff_claims_clips_only() {
    // Pluto's binary `.panim`: a 64-byte name, then the tag `values` at 0x64.
    let mut pluto = vec![0u8; 0x80];
    pluto[..11].copy_from_slice(b"[Animation]");
    pluto[0x64..0x6a].copy_from_slice(b"values");
    assert!(!Clip::sniff(&pluto));
    assert!(!Retarget::sniff(&pluto));
    assert!(!Clip::sniff(b"# binspec: byml\nversion: 2\n"));
    assert!(!Clip::sniff(b"[Scene]\n"));
    assert!(Clip::sniff(b"\n// a comment\n[Frame12?]\n[/Frame12]\n"));
    assert!(Clip::sniff(b"@mesh = \"x\"\n"));
    assert!(!Clip::sniff(b"@Hero {\n"));
    assert!(Retarget::sniff(b"bone a => b\n"));
    assert!(!Retarget::sniff(b"source code\n"));
}

#[test]
fn retarget_rows() {
    let r = Retarget::parse("source_rest a = (0, 1, 0) | (0, 0, 0, 1)\n").unwrap();
    let panim_perro::pretarget::Entry::SourceRest { bone, rest } = &r.rows[0].entry else {
        panic!()
    };
    assert_eq!(
        (bone.as_str(), rest.scale, rest.scale()),
        ("a", None, [1.0; 3])
    );
    let e = Retarget::parse("translation = root_onyl\n")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("1:15:") && e.contains("did you mean root_only"),
        "{e}"
    );
    // Without root_bone, root_only is refused; with it, accepted.
    assert!(Retarget::parse("translation = root_only\n").is_err());
    assert!(Retarget::parse("translation = root_only\nroot_bone = hips\n").is_ok());
}

#[test]
fn track_command_prints_values() {
    let p = dir().join("seed_door_open.panim");
    let (rc, out, err) = cli(&[
        "track",
        p.to_str().unwrap(),
        "@Door.rotation_deg",
        "--from",
        "0",
        "--to",
        "20",
        "--step",
        "10",
    ]);
    assert_eq!(rc, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0], "0\t(0, 0, 0)");
    assert!(lines[1].starts_with("10\t(0, 71.25"), "{out}");
    assert_eq!(lines[2], "20\t(0, 95, 0)");
    let p = dir().join("open_frame.panim");
    let (rc, out, _) = cli(&[
        "track",
        p.to_str().unwrap(),
        "Hand.rotation_deg",
        "--step",
        "10",
    ]);
    assert_eq!(rc, 0);
    assert_eq!(out, "0\topen\n10\topen\n20\t90\n");
    let (rc, _, err) = cli(&["track", p.to_str().unwrap(), "@Hand.scale"]);
    assert_eq!(rc, 1);
    assert!(
        err.contains("no keys for @Hand.scale") && err.contains("@Hand.rotation"),
        "{err}"
    );
    let (rc, _, _) = cli(&[
        "track",
        p.to_str().unwrap(),
        "@Hand.rotation",
        "--step",
        "0",
    ]);
    assert_eq!(rc, 2);
}

#[test]
fn schema_is_the_source_of_the_tables() {
    let t = schema::tables();
    assert_eq!(
        t.interp.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
        ["step", "interpolate"]
    );
    assert_eq!(Interp::from_name("slerp"), Some(Interp::Interpolate));
    assert_eq!(Ease::from_name("in_out"), Some(Ease::EaseInOut));
    assert!(t
        .fields_of("PointLight3D")
        .iter()
        .any(|(f, i)| f == "intensity" && i.declared_by == "Light3D"));
    // An altered schema gives altered tables (and page): nothing is hard-coded beside it.
    let altered: String = schema::SCHEMA_TEXT
        .split_inclusive('\n')
        .filter(|l| l.trim() != "z_index: int")
        .collect();
    let t2 = schema::Tables::parse(&altered).unwrap();
    assert!(t.fields_of("Node2D").iter().any(|(f, _)| f == "z_index"));
    assert!(!t2.fields_of("Node2D").iter().any(|(f, _)| f == "z_index"));
    assert_ne!(docs::page_of(&t2), docs::page());
    let broken = schema::SCHEMA_TEXT.replace("extends: Light3D", "extends: Lamp3D");
    assert!(schema::Tables::parse(&broken)
        .unwrap_err()
        .contains("Lamp3D"));
}

#[test]
fn docs_page_is_up_to_date() {
    let page = docs::page();
    for (name, _) in &schema::tables().node_types {
        assert!(page.contains(&format!("### {name}\n")), "{name}");
    }
    assert!(page.contains("`ease_in` (also `easein`, `in`)"));
    let path = repo().join("generated/docs/panim_perro.md");
    if std::env::var("BINSPEC_UPDATE_DOCS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &page).unwrap();
        return;
    }
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        old == page,
        "{} is out of date; refresh with: {REFRESH}",
        path.display()
    );
}

/// `encode --normalize` writes the canonical text (what `Clip::normalize` gives); without it, the text as it was.
#[test]
fn encode_normalize_writes_canonical_text() {
    let tmp = tempfile::tempdir().unwrap();
    let src = dir().join("events_and_controls.panim");
    let doc = tmp.path().join("clip.yml");
    let (same, norm) = (tmp.path().join("same.panim"), tmp.path().join("norm.panim"));
    let s = |p: &std::path::Path| p.to_str().unwrap().to_string();
    assert_eq!(cli(&["decode", &s(&src), "-o", &s(&doc)]).0, 0);
    assert_eq!(cli(&["encode", &s(&doc), "-o", &s(&same)]).0, 0);
    assert_eq!(std::fs::read(&same).unwrap(), std::fs::read(&src).unwrap());
    let (rc, _, err) = cli(&["encode", &s(&doc), "-o", &s(&norm), "--normalize"]);
    assert_eq!(rc, 0, "{err}");
    let want = clip("events_and_controls.panim").normalize();
    let got = std::fs::read_to_string(&norm).unwrap();
    assert_eq!(got, want);
    assert_ne!(
        got.as_bytes(),
        &std::fs::read(&src).unwrap()[..],
        "the fixture is not canonical"
    );
    // Canonical text is a fixed point.
    assert_eq!(Clip::from_binary(got.as_bytes()).unwrap().normalize(), got);
}

/// A clip that keys one object open and another closed at frame 0 (both blocks), with comments and spacing that
/// are not canonical.
const OPEN_AND_CLOSED: &str = "[Objects]\nHand = Node3D\nArm = Node3D\n[/Objects]\n\n\
    // Hand starts from wherever the runtime left it.\n[Frame0?]\n@Hand {\n    rotation_deg = (0,0,0)\n}\n[/Frame0]\n\n\
    [Frame0]  // Arm is authored\n@Arm {\n    position = (1, 2,3)\n}\nemit_signal = { name=\"start\" }\n[/Frame0]\n\n\
    [Frame20]\n@Hand {\n    rotation_deg = (0, 90, 0)\n}\n@Arm {\n    position = (3, 2, 1)\n}\n[/Frame20]\n";

#[test]
fn open_and_closed_blocks_at_one_frame_key_different_tracks() {
    let c = Clip::parse(OPEN_AND_CLOSED).unwrap_or_else(|e| panic!("{e}"));
    // The model keeps both blocks, in file order.
    let blocks: Vec<(u32, bool)> = c.frames().map(|f| (f.index, f.open)).collect();
    assert_eq!(blocks, [(0, true), (0, false), (20, false)]);
    assert_eq!(c.settings().total_frames, 21);
    assert_eq!(c.to_binary().unwrap(), OPEN_AND_CLOSED.as_bytes());
    // Each track has its key at frame 0 in its own mode.
    let modes = |path: &str| -> Vec<(u32, KeyMode)> {
        c.track(path)
            .unwrap()
            .0
            .keys
            .iter()
            .map(|k| (k.frame, k.mode))
            .collect()
    };
    assert_eq!(
        modes("@Hand.rotation"),
        [(0, KeyMode::Open), (20, KeyMode::Closed)]
    );
    assert_eq!(
        modes("@Arm.position"),
        [(0, KeyMode::Closed), (20, KeyMode::Closed)]
    );
    let nums = |path: &str, f: f64| c.sample(path, f).unwrap().map(|v| v.as_numbers().unwrap());
    assert_eq!(nums("@Arm.position", 0.0), Some(vec![1.0, 2.0, 3.0]));
    assert_eq!(nums("@Arm.position", 10.0), Some(vec![2.0, 2.0, 2.0]));
    assert_eq!(nums("@Hand.rotation_deg", 0.0), None);
    assert_eq!(nums("@Hand.rotation_deg", 10.0), None);
    assert_eq!(nums("@Hand.rotation_deg", 20.0), Some(vec![0.0, 90.0, 0.0]));
    assert_eq!(c.events().len(), 1);
    assert_eq!(c.events()[0].0, 0);
    // Canonical text keeps both blocks, reads back to the same data, and is a fixed point.
    let n = c.normalize();
    assert_eq!(
        n,
        "[Objects]\nHand = Node3D\nArm = Node3D\n[/Objects]\n\n[Frame0?]\n@Hand {\n    rotation_deg = (0, 0, 0)\n}\n\
         [/Frame0]\n\n[Frame0]\n@Arm {\n    position = (1, 2, 3)\n}\nemit_signal = { name = \"start\" }\n[/Frame0]\n\n\
         [Frame20]\n@Hand {\n    rotation_deg = (0, 90, 0)\n}\n@Arm {\n    position = (3, 2, 1)\n}\n[/Frame20]\n"
    );
    let again = Clip::parse(&n).unwrap();
    assert_eq!(again.tracks(), c.tracks());
    assert_eq!(again.normalize(), n);
    // The document through YAML and JSON gives the same clip and the same bytes.
    let back = Clip::from_text(&c.to_text().unwrap()).unwrap();
    assert_eq!(back, c);
    assert_eq!(back.to_binary().unwrap(), OPEN_AND_CLOSED.as_bytes());
    let back = Clip::from_json(&c.to_json().unwrap()).unwrap();
    assert_eq!(back.to_binary().unwrap(), OPEN_AND_CLOSED.as_bytes());
    // Two closed blocks of one frame keying different objects are accepted too.
    let two = "[Objects]\nA = Node2D\nB = Node2D\n[/Objects]\n\n[Frame5]\n@A {\n    visible = true\n}\n[/Frame5]\n\n\
               [Frame5]\n@B {\n    visible = false\n}\n[/Frame5]\n";
    let c2 = Clip::parse(two).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c2.normalize(), two);
    assert_eq!(
        c2.sample("@B.visible", 5.0).unwrap(),
        Some(Value::Bool(false))
    );
    assert_eq!(
        c2.sample("@A.visible", 5.0).unwrap(),
        Some(Value::Bool(true))
    );
}

#[test]
fn open_and_closed_blocks_round_trip_through_the_cli() {
    let tmp = tempfile::tempdir().unwrap();
    let s = |name: &str| tmp.path().join(name).to_str().unwrap().to_string();
    std::fs::write(s("clip.panim"), OPEN_AND_CLOSED).unwrap();
    let r = binspec_tests::run(&["check", &s("clip.panim")]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let r = binspec_tests::run(&["decode", &s("clip.panim"), "-o", &s("clip.yml")]);
    assert_eq!(r.code, 0, "{}", r.err);
    let r = binspec_tests::run(&["encode", &s("clip.yml"), "-o", &s("same.panim")]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(
        std::fs::read_to_string(s("same.panim")).unwrap(),
        OPEN_AND_CLOSED
    );
    let r = binspec_tests::run(&[
        "encode",
        &s("clip.yml"),
        "-o",
        &s("norm.panim"),
        "--normalize",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let norm = std::fs::read_to_string(s("norm.panim")).unwrap();
    assert_eq!(norm, Clip::parse(OPEN_AND_CLOSED).unwrap().normalize());
    assert!(norm.contains("[Frame0?]\n@Hand {") && norm.contains("[Frame0]\n@Arm {"));
    // The same through JSON, which names no format (`.panim` is Pluto's extension too).
    let r = binspec_tests::run(&["decode", &s("clip.panim"), "--json", "-o", &s("clip.json")]);
    assert_eq!(r.code, 0, "{}", r.err);
    let r = binspec_tests::run(&[
        "encode",
        &s("clip.json"),
        "-o",
        &s("json.panim"),
        "--format",
        "panim-perro",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(
        std::fs::read_to_string(s("json.panim")).unwrap(),
        OPEN_AND_CLOSED
    );
    // `track` on each track.
    let r = binspec_tests::run(&["track", &s("clip.panim"), "@Arm.position", "--step", "10"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.out, "0\t(1, 2, 3)\n10\t(2, 2, 2)\n20\t(3, 2, 1)\n");
    let r = binspec_tests::run(&[
        "track",
        &s("clip.panim"),
        "@Hand.rotation_deg",
        "--step",
        "10",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.out, "0\topen\n10\topen\n20\t(0, 90, 0)\n");
}

#[test]
fn a_track_keyed_twice_at_one_frame_is_refused_at_the_second_key() {
    let head = "[Objects]\nHero = Node3D\nRig = Skeleton3D\n[/Objects]\n\n";
    let cases: [(&str, &str); 5] = [
        // An open and a closed block keying the same track.
        (
            "[Frame0]\n@Hero {\n    position = (0, 0, 0)\n}\n[/Frame0]\n\n[Frame0?]\n@Hero {\n    visible = true\n    position = (1, 0, 0)\n}\n[/Frame0]\n",
            "15:5: duplicate key: @Hero.position is already keyed at frame 0 on line 8 (8:5, in [Frame0]); a track has one key per frame",
        ),
        // Two closed blocks.
        (
            "[Frame3]\n@Hero {\n    scale = (1, 1, 1)\n}\n[/Frame3]\n[Frame3]\n@Hero {\n      scale = (2, 2, 2)\n}\n[/Frame3]\n",
            "13:7: duplicate key: @Hero.scale is already keyed at frame 3 on line 8 (8:5, in [Frame3]); a track has one key per frame",
        ),
        // One block: rotation and rotation_deg are one track.
        (
            "[Frame2?]\n@Hero {\n    rotation = (0, 0, 0)\n    rotation_deg = (0, 90, 0)\n}\n[/Frame2]\n",
            "9:5: duplicate key: @Hero.rotation is already keyed at frame 2 on line 8 (8:5, in [Frame2?]; rotation and rotation_deg key one track); a track has one key per frame",
        ),
        // bone[1] and bones[1] name one bone.
        (
            "[Frame1]\n@Rig {\n    bones[1].position = (0, 0, 0)\n}\n[/Frame1]\n[Frame1?]\n@Rig {\n    bone[1].position = (0, 1, 0)\n}\n[/Frame1]\n",
            "13:5: duplicate key: @Rig.bones[1].position is already keyed at frame 1 on line 8 (8:5, in [Frame1]); a track has one key per frame",
        ),
        // One block, the same field twice.
        (
            "[Frame9]\n@Hero {\n    visible = true\n    visible = false\n}\n[/Frame9]\n",
            "9:5: duplicate key: @Hero.visible is already keyed at frame 9 on line 8 (8:5, in [Frame9]); a track has one key per frame",
        ),
    ];
    let tmp = tempfile::tempdir().unwrap();
    for (i, (frames, want)) in cases.iter().enumerate() {
        let text = format!("{head}{frames}");
        let e = Clip::parse(&text).unwrap_err().to_string();
        assert_eq!(&e, want, "case {i}");
        // Through the CLI: the file, then the position.
        let p = tmp.path().join(format!("dup{i}.panim"));
        std::fs::write(&p, &text).unwrap();
        let r = binspec_tests::run(&["info", p.to_str().unwrap()]);
        assert_eq!(r.code, 1, "case {i}");
        assert_eq!(
            r.err.trim_end(),
            format!("error: {}:{want}", p.display()),
            "case {i}"
        );
    }
    // Other objects, other fields and other frames are other tracks; controls are no keys.
    let ok = format!(
        "{head}[Frame0]\n@Hero {{\n    position = (0, 0, 0)\n    position.ease = \"in\"\n    rotation = (0, 0, 0)\n}}\n\
         @Rig {{\n    bones[1].position = (0, 0, 0)\n    bones[2].position = (0, 0, 0)\n    bones[1].scale = (1, 1, 1)\n}}\n\
         [/Frame0]\n[Frame0?]\n@Hero {{\n    scale = (1, 1, 1)\n    position.interp = \"step\"\n}}\n[/Frame0]\n"
    );
    Clip::parse(&ok).unwrap_or_else(|e| panic!("{e}"));
    // A model edited in code into a duplicate is refused when written.
    let mut c = Clip::parse(OPEN_AND_CLOSED).unwrap();
    let Item::Frame(f) = &mut c.items[2] else {
        panic!()
    };
    let FrameEntry::Object(b) = &mut f.entries[0] else {
        panic!()
    };
    b.object = "Hand".into();
    let ObjectEntry::Key(k) = &mut b.entries[0] else {
        panic!()
    };
    k.field = FieldPath::field("rotation");
    let e = c.to_binary().unwrap_err().to_string();
    assert!(
        e.contains("does not read back") && e.contains("duplicate key: @Hand.rotation"),
        "{e}"
    );
}
