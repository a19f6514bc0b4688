//! Nodes to the raw schema: the keys Kaitai allows on a type, `meta`, an attribute, an instance and a param
//! (others reported with a suggestion, `-` keys kept), names checked, and each key's value read into its raw form.

use crate::diag::{did_you_mean, Diags};

use super::{
    ExprSrc, Ext, Node, RawAttr, RawEndian, RawEnum, RawEnumValue, RawMeta, RawParam, RawRepeat,
    RawType, RawTypeRef, RawValid, Value,
};

const TYPE_KEYS: &[&str] = &[
    "meta",
    "doc",
    "doc-ref",
    "params",
    "seq",
    "instances",
    "types",
    "enums",
    "to-string",
];
const META_KEYS: &[&str] = &[
    "id",
    "title",
    "application",
    "file-extension",
    "xref",
    "license",
    "ks-version",
    "ks-debug",
    "ks-opaque-types",
    "imports",
    "encoding",
    "endian",
    "bit-endian",
    "tags",
];
const ATTR_KEYS: &[&str] = &[
    "id",
    "doc",
    "doc-ref",
    "type",
    "size",
    "size-eos",
    "contents",
    "terminator",
    "consume",
    "include",
    "eos-error",
    "pad-right",
    "encoding",
    "repeat",
    "repeat-expr",
    "repeat-until",
    "if",
    "enum",
    "valid",
    "process",
    "parent",
];
const INSTANCE_KEYS: &[&str] = &["pos", "io", "value"];
const PARAM_KEYS: &[&str] = &["id", "type", "doc", "doc-ref", "enum"];

fn check_keys(n: &Node, allowed: &[&str], what: &str, diags: &mut Diags) -> Ext {
    let mut ext = Vec::new();
    let Some(m) = n.as_map() else { return ext };
    for (k, v) in m {
        let key = k.scalar_text().unwrap_or_default();
        if key.starts_with('-') {
            ext.push((key, v.clone()));
        } else if !allowed.contains(&key.as_str()) {
            diags.error(
                k.pos,
                &v.path,
                format!("unknown key '{key}' in {what}"),
                did_you_mean(&key, allowed.iter().copied()),
            );
        }
    }
    ext
}

/// An integer written with `_` between digits (`0x0253_f200`, `1_000`), as YAML 1.1 reads it; `None` for any other
/// text. The expression language writes integers the same way, so its parser reads them.
fn grouped_int(s: &str) -> Option<i128> {
    use crate::expr::{ExprKind, UnOp};
    if !s.contains('_') {
        return None;
    }
    let e = crate::expr::parse(s).ok()?;
    match e.kind {
        ExprKind::Int(v) => Some(i128::from(v)),
        ExprKind::Unary {
            op: UnOp::Neg,
            expr,
        } => match expr.kind {
            ExprKind::Int(v) => Some(-i128::from(v)),
            _ => None,
        },
        _ => None,
    }
}

fn str_of(n: &Node, diags: &mut Diags) -> Option<String> {
    match &n.value {
        Value::Str(s) => Some(s.clone()),
        Value::Int(_) | Value::Bool(_) | Value::Float(_) => n.scalar_text(),
        _ => {
            diags.error(
                n.pos,
                &n.path,
                format!("expected a string, found {}", n.kind_name()),
                None,
            );
            None
        }
    }
}

fn bool_of(n: &Node, diags: &mut Diags) -> Option<bool> {
    match &n.value {
        Value::Bool(b) => Some(*b),
        _ => {
            diags.error(
                n.pos,
                &n.path,
                format!("expected true or false, found {}", n.kind_name()),
                None,
            );
            None
        }
    }
}

fn doc_refs(n: &Node, diags: &mut Diags) -> Vec<String> {
    match &n.value {
        Value::Seq(items) => items.iter().filter_map(|i| str_of(i, diags)).collect(),
        _ => str_of(n, diags).into_iter().collect(),
    }
}

fn is_identifier(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some('a'..='z')) && c.all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_'))
}

fn check_id(id: &str, n: &Node, diags: &mut Diags) {
    if !is_identifier(id) {
        diags.error(
            n.pos,
            &n.path,
            format!("invalid name '{id}': names are lower_snake_case, starting with a letter"),
            Some(format!("try '{}'", suggest_identifier(id))),
        );
    }
}

fn suggest_identifier(id: &str) -> String {
    let mut out = String::new();
    for (i, c) in id.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    if out.is_empty() || !out.starts_with(|c: char| c.is_ascii_lowercase()) {
        out.insert(0, 'x');
    }
    out
}

fn parse_meta(n: &Node, diags: &mut Diags) -> RawMeta {
    let ext = check_keys(n, META_KEYS, "meta", diags);
    let mut meta = RawMeta {
        ext,
        pos: n.pos,
        ..Default::default()
    };
    if let Some(v) = n.get("id") {
        if let Some(s) = str_of(v, diags) {
            check_id(&s, v, diags);
            meta.id = Some((s, v.pos));
        }
    }
    meta.title = n.get("title").and_then(|v| str_of(v, diags));
    if let Some(v) = n.get("file-extension") {
        meta.file_extension = doc_refs(v, diags);
    }
    meta.encoding = n.get("encoding").and_then(|v| str_of(v, diags));
    meta.opaque_types = matches!(
        n.get("ks-opaque-types").map(|v| &v.value),
        Some(Value::Bool(true))
    );
    if let Some(v) = n.get("imports") {
        if let Value::Seq(items) = &v.value {
            meta.imports = items
                .iter()
                .filter_map(|i| str_of(i, diags).map(|s| (s, i.pos)))
                .collect();
        } else {
            diags.error(
                v.pos,
                &v.path,
                "imports must be a list of schema names",
                None,
            );
        }
    }
    if let Some(v) = n.get("bit-endian") {
        match v.as_str() {
            Some("le") => meta.bit_endian = Some((true, v.pos)),
            Some("be") => meta.bit_endian = Some((false, v.pos)),
            _ => diags.error(v.pos, &v.path, "bit-endian must be 'le' or 'be'", None),
        }
    }
    if let Some(v) = n.get("endian") {
        meta.endian = parse_endian(v, diags);
    }
    meta
}

fn endian_word(n: &Node, diags: &mut Diags) -> Option<bool> {
    match n.as_str() {
        Some("le") => Some(true),
        Some("be") => Some(false),
        _ => {
            diags.error(
                n.pos,
                &n.path,
                "endian must be 'le' or 'be'",
                did_you_mean(&n.scalar_text().unwrap_or_default(), ["le", "be"]),
            );
            None
        }
    }
}

fn parse_endian(v: &Node, diags: &mut Diags) -> Option<RawEndian> {
    if v.as_map().is_some() {
        check_keys(v, &["switch-on", "cases"], "endian", diags);
        let on = match v.get("switch-on") {
            Some(o) => ExprSrc::from_node(o, diags)?,
            None => {
                diags.error(v.pos, &v.path, "endian switch needs 'switch-on'", None);
                return None;
            }
        };
        let mut cases = Vec::new();
        match v.get("cases").and_then(|c| c.as_map()) {
            Some(m) => {
                for (k, val) in m {
                    let key = ExprSrc {
                        text: k.scalar_text().unwrap_or_default(),
                        pos: k.pos,
                        path: val.path.clone(),
                    };
                    if let Some(le) = endian_word(val, diags) {
                        cases.push((key, le, val.pos));
                    }
                }
            }
            None => diags.error(v.pos, &v.path, "endian switch needs a 'cases' map", None),
        }
        Some(RawEndian::Switch { on, cases })
    } else {
        endian_word(v, diags).map(|le| RawEndian::Fixed { le, pos: v.pos })
    }
}

pub(super) fn parse_type(n: &Node, name: &str, diags: &mut Diags, is_root: bool) -> RawType {
    let ext = check_keys(
        n,
        TYPE_KEYS,
        if is_root { "the schema" } else { "a type" },
        diags,
    );
    let mut t = RawType {
        name: name.to_string(),
        pos: n.pos,
        path: n.path.clone(),
        ext,
        ..Default::default()
    };
    if let Some(m) = n.get("meta") {
        let meta = parse_meta(m, diags);
        if is_root {
            match &meta.id {
                Some((id, _)) => t.name = id.clone(),
                None => diags.error(m.pos, &m.path, "meta needs an 'id'", None),
            }
        }
        t.meta = Some(meta);
    } else if is_root {
        diags.error(n.pos, "/", "a schema needs 'meta' with an 'id'", None);
    }
    t.doc = n.get("doc").and_then(|v| str_of(v, diags));
    t.doc_ref = n
        .get("doc-ref")
        .map(|v| doc_refs(v, diags))
        .unwrap_or_default();
    if let Some(p) = n.get("params") {
        match &p.value {
            Value::Seq(items) => {
                for i in items {
                    let pext = check_keys(i, PARAM_KEYS, "a parameter", diags);
                    let _ = pext;
                    let id = i
                        .get("id")
                        .and_then(|v| str_of(v, diags))
                        .unwrap_or_default();
                    if id.is_empty() {
                        diags.error(i.pos, &i.path, "a parameter needs an 'id'", None);
                    } else {
                        check_id(&id, i, diags);
                    }
                    t.params.push(RawParam {
                        id,
                        ty: i.get("type").and_then(|v| str_of(v, diags)),
                        enum_: i.get("enum").and_then(|v| str_of(v, diags)),
                        doc: i.get("doc").and_then(|v| str_of(v, diags)),
                        pos: i.pos,
                        path: i.path.clone(),
                    });
                }
            }
            _ => diags.error(p.pos, &p.path, "params must be a list", None),
        }
    }
    if let Some(s) = n.get("seq") {
        match &s.value {
            Value::Seq(items) => {
                for (i, item) in items.iter().enumerate() {
                    t.seq.push(parse_attr(item, None, i, diags));
                }
            }
            Value::Null => {}
            _ => diags.error(
                s.pos,
                &s.path,
                format!("seq must be a list, found {}", s.kind_name()),
                None,
            ),
        }
    }
    if let Some(s) = n.get("instances") {
        match s.as_map() {
            Some(m) => {
                for (k, v) in m {
                    let id = k.scalar_text().unwrap_or_default();
                    check_id(&id, k, diags);
                    t.instances.push(parse_attr(v, Some(id), 0, diags));
                }
            }
            None => diags.error(
                s.pos,
                &s.path,
                "instances must be a map of name to instance",
                None,
            ),
        }
    }
    if let Some(s) = n.get("types") {
        match s.as_map() {
            Some(m) => {
                for (k, v) in m {
                    let id = k.scalar_text().unwrap_or_default();
                    check_id(&id, k, diags);
                    t.types.push(parse_type(v, &id, diags, false));
                }
            }
            None => diags.error(s.pos, &s.path, "types must be a map of name to type", None),
        }
    }
    if let Some(s) = n.get("enums") {
        match s.as_map() {
            Some(m) => {
                for (k, v) in m {
                    let id = k.scalar_text().unwrap_or_default();
                    check_id(&id, k, diags);
                    t.enums.push(parse_enum(&id, v, diags));
                }
            }
            None => diags.error(
                s.pos,
                &s.path,
                "enums must be a map of name to values",
                None,
            ),
        }
    }
    t
}

fn parse_enum(name: &str, n: &Node, diags: &mut Diags) -> RawEnum {
    let mut e = RawEnum {
        name: name.to_string(),
        values: Vec::new(),
        pos: n.pos,
        path: n.path.clone(),
    };
    let Some(m) = n.as_map() else {
        diags.error(
            n.pos,
            &n.path,
            "an enum must be a map of value to name",
            None,
        );
        return e;
    };
    for (k, v) in m {
        let value = match &k.value {
            Value::Int(i) => *i,
            Value::Bool(b) => *b as i128,
            // `0x0253_f200`: YAML 1.1 (Kaitai's) reads digits grouped with `_` as an integer; YAML 1.2 a string.
            Value::Str(s) if grouped_int(s).is_some() => grouped_int(s).unwrap_or_default(),
            _ => {
                diags.error(
                    k.pos,
                    &v.path,
                    format!("enum keys must be integers, found {}", k.kind_name()),
                    None,
                );
                continue;
            }
        };
        let (id, doc) = if v.as_map().is_some() {
            check_keys(
                v,
                &["id", "doc", "doc-ref", "-orig-id"],
                "an enum value",
                diags,
            );
            (
                v.get("id")
                    .and_then(|x| str_of(x, diags))
                    .unwrap_or_default(),
                v.get("doc").and_then(|x| str_of(x, diags)),
            )
        } else {
            (str_of(v, diags).unwrap_or_default(), None)
        };
        check_id(&id, v, diags);
        if let Some(prev) = e.values.iter().find(|x| x.id == id) {
            diags.error(
                v.pos,
                &v.path,
                format!(
                    "'{id}' names two values of enum '{name}' ({:#x} and {value:#x})",
                    prev.value
                ),
                Some("give each value its own name".into()),
            );
        }
        e.values.push(RawEnumValue {
            value,
            id,
            doc,
            pos: v.pos,
        });
    }
    e
}

fn parse_contents(n: &Node, diags: &mut Diags) -> Option<Vec<u8>> {
    match &n.value {
        Value::Str(s) => Some(s.as_bytes().to_vec()),
        Value::Int(i) if (0..=255).contains(i) => Some(vec![*i as u8]),
        Value::Seq(items) => {
            let mut out = Vec::new();
            for i in items {
                match &i.value {
                    Value::Int(b) if (0..=255).contains(b) => out.push(*b as u8),
                    Value::Str(s) => out.extend_from_slice(s.as_bytes()),
                    _ => diags.error(
                        i.pos,
                        &i.path,
                        "contents items must be bytes (0..=255) or strings",
                        None,
                    ),
                }
            }
            Some(out)
        }
        _ => {
            diags.error(
                n.pos,
                &n.path,
                "contents must be a string or a list of bytes",
                None,
            );
            None
        }
    }
}

fn byte_of(n: &Node, what: &str, diags: &mut Diags) -> Option<u8> {
    match &n.value {
        Value::Int(i) if (0..=255).contains(i) => Some(*i as u8),
        _ => {
            diags.error(
                n.pos,
                &n.path,
                format!("{what} must be a byte (0..=255)"),
                None,
            );
            None
        }
    }
}

fn parse_attr(n: &Node, instance_id: Option<String>, index: usize, diags: &mut Diags) -> RawAttr {
    let is_instance = instance_id.is_some();
    let mut allowed: Vec<&str> = ATTR_KEYS.to_vec();
    if is_instance {
        allowed.extend_from_slice(INSTANCE_KEYS);
    }
    let ext = check_keys(
        n,
        &allowed,
        if is_instance {
            "an instance"
        } else {
            "a seq attribute"
        },
        diags,
    );
    let mut a = RawAttr {
        pos: n.pos,
        path: n.path.clone(),
        ext,
        ..Default::default()
    };
    match instance_id {
        Some(id) => a.id = id,
        None => match n.get("id").and_then(|v| str_of(v, diags)) {
            Some(id) => {
                check_id(&id, n.get("id").unwrap_or(n), diags);
                a.id = id;
            }
            None => a.id = format!("unnamed{index}"),
        },
    }
    let e = |k: &str, diags: &mut Diags| n.get(k).and_then(|v| ExprSrc::from_node(v, diags));
    a.doc = n.get("doc").and_then(|v| str_of(v, diags));
    a.doc_ref = n
        .get("doc-ref")
        .map(|v| doc_refs(v, diags))
        .unwrap_or_default();
    if let Some(t) = n.get("type") {
        if t.as_map().is_some() {
            check_keys(t, &["switch-on", "cases"], "a type switch", diags);
            let on = t
                .get("switch-on")
                .and_then(|o| ExprSrc::from_node(o, diags));
            let mut cases = Vec::new();
            if let Some(m) = t.get("cases").and_then(|c| c.as_map()) {
                for (k, v) in m {
                    let key = ExprSrc {
                        text: k.scalar_text().unwrap_or_default(),
                        pos: k.pos,
                        path: v.path.clone(),
                    };
                    if let Some(tn) = str_of(v, diags) {
                        cases.push((key, tn, v.pos));
                    }
                }
            } else {
                diags.error(t.pos, &t.path, "a type switch needs a 'cases' map", None);
            }
            match on {
                Some(on) => a.ty = Some(RawTypeRef::Switch { on, cases }),
                None => diags.error(t.pos, &t.path, "a type switch needs 'switch-on'", None),
            }
        } else if let Some(s) = str_of(t, diags) {
            a.ty = Some(RawTypeRef::Name {
                text: s,
                pos: t.pos,
                path: t.path.clone(),
            });
        }
    }
    a.size = e("size", diags);
    a.size_eos = n
        .get("size-eos")
        .and_then(|v| bool_of(v, diags))
        .unwrap_or(false);
    a.contents = n.get("contents").and_then(|v| parse_contents(v, diags));
    a.terminator = n
        .get("terminator")
        .and_then(|v| byte_of(v, "terminator", diags));
    a.consume = n.get("consume").and_then(|v| bool_of(v, diags));
    a.include = n.get("include").and_then(|v| bool_of(v, diags));
    a.eos_error = n.get("eos-error").and_then(|v| bool_of(v, diags));
    a.pad_right = n
        .get("pad-right")
        .and_then(|v| byte_of(v, "pad-right", diags));
    a.encoding = n.get("encoding").and_then(|v| str_of(v, diags));
    a.if_ = e("if", diags);
    a.enum_ = n
        .get("enum")
        .and_then(|v| str_of(v, diags).map(|s| (s, v.pos)));
    a.process = e("process", diags);
    if let Some(r) = n.get("repeat") {
        // A key that belongs to another kind of repeat is a mistake.
        let kind = r.as_str().unwrap_or("");
        for (k, own) in [("repeat-expr", "expr"), ("repeat-until", "until")] {
            if let (Some(v), true) = (n.get(k), kind != own) {
                diags.error(
                    v.pos,
                    &v.path,
                    format!("'{k}' does not go with 'repeat: {kind}'"),
                    Some(format!("use 'repeat: {own}', or remove '{k}'")),
                );
            }
        }
        match r.as_str() {
            Some("eos") => a.repeat = Some(RawRepeat::Eos),
            Some("expr") => match e("repeat-expr", diags) {
                Some(x) => a.repeat = Some(RawRepeat::Expr(x)),
                None => diags.error(r.pos, &r.path, "repeat: expr needs 'repeat-expr'", None),
            },
            Some("until") => match e("repeat-until", diags) {
                Some(x) => a.repeat = Some(RawRepeat::Until(x)),
                None => diags.error(r.pos, &r.path, "repeat: until needs 'repeat-until'", None),
            },
            _ => diags.error(
                r.pos,
                &r.path,
                format!(
                    "repeat must be 'eos', 'expr' or 'until', found '{}'",
                    r.scalar_text().unwrap_or_default()
                ),
                did_you_mean(
                    &r.scalar_text().unwrap_or_default(),
                    ["eos", "expr", "until"],
                ),
            ),
        }
    } else {
        for k in ["repeat-expr", "repeat-until"] {
            if let Some(v) = n.get(k) {
                diags.error(
                    v.pos,
                    &v.path,
                    format!("'{k}' without 'repeat'"),
                    Some(format!("add 'repeat: {}'", &k[7..])),
                );
            }
        }
    }
    if let Some(v) = n.get("valid") {
        a.valid = parse_valid(v, diags);
    }
    a.parent = e("parent", diags);
    if is_instance {
        a.pos_expr = e("pos", diags);
        a.io = e("io", diags);
        a.value = e("value", diags);
    }
    a
}

fn parse_valid(v: &Node, diags: &mut Diags) -> Option<RawValid> {
    if v.as_map().is_some() {
        check_keys(
            v,
            &["eq", "min", "max", "any-of", "expr", "in-enum"],
            "valid",
            diags,
        );
        let e = |k: &str, diags: &mut Diags| v.get(k).and_then(|x| ExprSrc::from_node(x, diags));
        if let Some(x) = e("eq", diags) {
            return Some(RawValid::Eq(x));
        }
        if let Some(x) = e("expr", diags) {
            return Some(RawValid::Expr(x));
        }
        if let Some(l) = v.get("any-of") {
            if let Value::Seq(items) = &l.value {
                return Some(RawValid::AnyOf(
                    items
                        .iter()
                        .filter_map(|i| ExprSrc::from_node(i, diags))
                        .collect(),
                ));
            }
            diags.error(l.pos, &l.path, "any-of must be a list", None);
            return None;
        }
        if v.get("in-enum").is_some() {
            return Some(RawValid::InEnum);
        }
        let min = e("min", diags);
        let max = e("max", diags);
        match (min, max) {
            (Some(a), None) => Some(RawValid::Min(a)),
            (None, Some(b)) => Some(RawValid::Max(b)),
            (a, b) if a.is_some() || b.is_some() => Some(RawValid::Range(a, b)),
            _ => {
                diags.error(
                    v.pos,
                    &v.path,
                    "valid needs one of eq, min, max, any-of, expr, in-enum",
                    None,
                );
                None
            }
        }
    } else {
        ExprSrc::from_node(v, diags).map(RawValid::Eq)
    }
}
