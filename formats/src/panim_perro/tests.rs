//! Unit tests of the clip reader, writer and evaluator.

use super::*;

#[test]
fn schema_tables_parse() {
    let t = schema::tables();
    assert_eq!(
        t.interp.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
        Interp::ALL.map(Interp::id)
    );
    assert_eq!(
        t.ease.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
        Ease::ALL.map(Ease::id)
    );
    assert!(t.node("Camera3D").is_some());
}

fn val(s: &str) -> Value {
    syntax::run(s, |i| syntax::value(i, 0)).unwrap()
}

#[test]
fn values_parse_and_print() {
    assert_eq!(val("-1.50"), Value::Number(-1.5));
    assert_eq!(val("1e3"), Value::Number(1000.0));
    assert_eq!(val("\"a\\\"b\\n\""), Value::String("a\"b\n".into()));
    assert_eq!(val("( 1 ,2, )").to_string(), "(1, 2)");
    assert_eq!(
        val("{ name=\"hit\", params=[1, \"light\", @Target.position] }").to_string(),
        "{ name = \"hit\", params = [1, \"light\", @Target.position] }"
    );
    assert_eq!(val("{}"), Value::Object(vec![]));
    assert_eq!(val("once"), Value::Ident("once".into()));
    let r = val("@Rig.bone[2].rotation_deg");
    let Value::Ref(r) = &r else { panic!() };
    assert_eq!(r.field.as_ref().unwrap().bone, Some(Bone::Index(2)));
    assert_eq!(r.to_string(), "@Rig.bones[2].rotation_deg");
    for bad in ["(1 2)", "\"open", "[1,", "{ a }", "1e", "#"] {
        assert!(syntax::run(bad, |i| syntax::value(i, 0)).is_err(), "{bad}");
    }
}

#[test]
fn values_serialize_unambiguously() {
    let v = val("{ p = [(1, 2), @A, true, \"s\", x, 0.5], tuple = 1 }");
    let yaml = serde_saphyr::to_string(&v).unwrap();
    for part in [
        "object:",
        "tuple:",
        "ref: \"@A\"",
        "ident: x",
        "- 0.5",
        "tuple: 1",
    ] {
        assert!(yaml.contains(part), "{part} in {yaml}");
    }
    let back: Value = serde_saphyr::from_str(&yaml).unwrap();
    assert_eq!(back, v);
    assert!(serde_saphyr::from_str::<Value>("tuple: [1]\nref: \"@A\"\n").is_err());
    assert!(serde_saphyr::from_str::<Value>("ref: A\n").is_err());
}

#[test]
fn multi_line_values_continue_until_closed() {
    assert!(read::opens_more("emit_signal = {"));
    assert!(!read::opens_more("@Hero {"));
    assert!(!read::opens_more("name = \"{(\" // ["));
    let text = "[Frame0]\nemit_signal = {\n    name = \"x\", // the name\n    params = [1,\n 2]\n}\n[/Frame0]\n";
    let c = Clip::parse(text).unwrap();
    assert_eq!(c.print(), text);
    assert_eq!(c.events()[0].2.name(), Some("x"));
    assert_eq!(
        c.normalize(),
        "[Frame0]\nemit_signal = { name = \"x\", params = [1, 2] }\n[/Frame0]\n"
    );
}

#[test]
fn layout_that_no_longer_matches_is_printed_canonically() {
    let text = "[Frame0]  // start\n[/Frame0]\n";
    let mut c = Clip::parse(text).unwrap();
    assert_eq!(c.print(), text);
    let Item::Frame(f) = &mut c.items[0] else {
        panic!()
    };
    f.index = 7;
    // A `before` that is not blank or comment lines is not printed (it would change the clip).
    f.layout.close.before = Some("[Frame1]\n".into());
    assert_eq!(c.print(), "[Frame7]\n[/Frame7]\n");
}

#[test]
fn one_line_object_blocks_get_a_clear_error() {
    let e = Clip::parse(
        "[Objects]\nA = Node3D\n[/Objects]\n[Frame0]\n@A { visible = true }\n[/Frame0]\n",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("5:6: an object block's entries go on their own lines"),
        "{e}"
    );
}
