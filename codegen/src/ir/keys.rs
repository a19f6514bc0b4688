//! binspec's own `-` keys, which the raw schema keeps for the IR: which are allowed where (`check_ext`), and the
//! readers of those with a structure of their own (`-scan`, `-wiki`).

use crate::diag::{did_you_mean, Diags};
use crate::syntax::{Node, Value};

use super::builder::node_ex;
use super::{Scan, WikiRef};

pub(super) fn ext_get<'a>(ext: &'a [(String, Node)], key: &str) -> Option<&'a Node> {
    ext.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

pub(super) const FIELD_EXT: &[&str] = &[
    "-derive",
    "-pool",
    "-sort-by",
    "-default",
    "-orig-id",
    "-eager",
    "-scan",
    "-view",
    "-data",
    "-hook",
    "-resdic",
    "-relocate",
    "-relocations",
    "-no-case",
    "-chain-end",
    "-value",
];

/// Reads `-chain-end` (`positioned`: on an instance with a `pos`, placed there or a pool item), reporting what is
/// wrong with it.
pub(super) fn parse_chain_end(n: Option<&Node>, positioned: bool, diags: &mut Diags) -> bool {
    let Some(n) = n else {
        return false;
    };
    match (&n.value, positioned) {
        (Value::Bool(b), true) => *b,
        _ => {
            diags.error(
                n.pos,
                &n.path,
                "'-chain-end' is 'true' on an instance with a 'pos' (where the block chain ends)",
                None,
            );
            false
        }
    }
}

/// Reads `-scan`, reporting what is wrong with it.
pub(super) fn parse_scan(n: &Node, repeat_eos: bool, diags: &mut Diags) -> Option<Scan> {
    let usage = "'-scan' takes a map: {tag: TEXT} or {tags: [TEXT, ...]}, with optional step: N (default 1) and or-eos: true|false";
    if n.as_map().is_none() {
        diags.error(n.pos, &n.path, usage, None);
        return None;
    }
    if let Some((k, _)) = n.as_map().unwrap_or_default().iter().find(|(k, _)| {
        !matches!(
            k.scalar_text().as_deref(),
            Some("tag" | "tags" | "step" | "or-eos")
        )
    }) {
        let key = k.scalar_text().unwrap_or_default();
        diags.error(
            k.pos,
            &n.path,
            format!("unknown key '{key}' in '-scan'"),
            did_you_mean(&key, ["tag", "tags", "step", "or-eos"]),
        );
        return None;
    }
    let mut tags = Vec::new();
    match (n.get("tag"), n.get("tags")) {
        (Some(t), None) => tags.extend(t.scalar_text().map(String::into_bytes)),
        (
            None,
            Some(Node {
                value: Value::Seq(items),
                ..
            }),
        ) => tags.extend(
            items
                .iter()
                .filter_map(|t| t.scalar_text().map(String::into_bytes)),
        ),
        _ => {
            diags.error(n.pos, &n.path, usage, None);
            return None;
        }
    }
    if tags.is_empty() || tags.iter().any(|t| t.is_empty()) {
        diags.error(
            n.pos,
            &n.path,
            "'-scan' needs at least one tag, and no empty tag",
            None,
        );
        return None;
    }
    let step = match n.get("step").map(|s| &s.value) {
        None => 1,
        Some(Value::Int(i)) if *i >= 1 && *i <= 4096 => *i as u64,
        Some(_) => {
            diags.error(
                n.pos,
                &n.path,
                "'-scan' step must be an integer from 1 to 4096",
                None,
            );
            return None;
        }
    };
    let or_eos = match n.get("or-eos").map(|s| &s.value) {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            diags.error(n.pos, &n.path, "'-scan' or-eos must be true or false", None);
            return None;
        }
    };
    if !repeat_eos {
        diags.error(
            n.pos,
            &n.path,
            "'-scan' needs 'repeat: eos' (the scan decides where the stream of elements ends)",
            None,
        );
        return None;
    }
    Some(Scan { tags, step, or_eos })
}

pub(super) const TYPE_EXT: &[&str] = &["-layout", "-orig-id", "-wiki", "-wiki-enums"];

/// Reads a `-wiki` value: one `{page, section, caption, table}` map or a list of them.
pub(super) fn parse_wiki(n: &Node, diags: &mut Diags) -> Vec<WikiRef> {
    let usage = "'-wiki' takes {page: TITLE, section: HEADING} (optional caption: TEXT, table: N, from: OFFSET), or a list of them";
    let items: Vec<&Node> = match &n.value {
        Value::Seq(xs) => xs.iter().collect(),
        Value::Map(_) => vec![n],
        _ => {
            diags.error(n.pos, &n.path, usage, None);
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for it in items {
        let Some(m) = it.as_map() else {
            diags.error(it.pos, &it.path, usage, None);
            continue;
        };
        const KEYS: &[&str] = &["page", "section", "caption", "table", "from"];
        for (k, v) in m {
            let k = k.scalar_text().unwrap_or_default();
            if !KEYS.contains(&k.as_str()) {
                diags.error(
                    v.pos,
                    &v.path,
                    format!("unknown key '{k}' in '-wiki'"),
                    did_you_mean(&k, KEYS.iter().copied()),
                );
            }
        }
        let text = |k: &str| it.get(k).and_then(|x| x.scalar_text());
        let (Some(page), Some(section)) = (text("page"), text("section")) else {
            diags.error(
                it.pos,
                &it.path,
                "'-wiki' needs both 'page' and 'section'",
                Some(usage.into()),
            );
            continue;
        };
        let table = match it.get("table").map(|t| &t.value) {
            None => None,
            Some(Value::Int(i)) if *i >= 1 && *i < 1000 => Some(*i as usize),
            Some(_) => {
                let t = it.get("table").expect("present");
                diags.error(
                    t.pos,
                    &t.path,
                    "'table' is a 1-based table number among the section's tables",
                    None,
                );
                None
            }
        };
        let from = match it.get("from").map(|t| &t.value) {
            None => 0,
            Some(Value::Int(i)) if *i >= 0 && *i < 1 << 32 => *i as u64,
            Some(_) => {
                let t = it.get("from").expect("present");
                diags.error(
                    t.pos,
                    &t.path,
                    "'from' is the table offset where the type starts",
                    None,
                );
                0
            }
        };
        out.push(WikiRef {
            page,
            section,
            caption: text("caption"),
            table,
            from,
            pos: it.pos,
            path: it.path.clone(),
        });
    }
    out
}

pub(super) const META_EXT: &[&str] = &["-binspec"];

/// The `-` keys of Kaitai Struct's own tools (the Web IDE, the format gallery's conventions), which schemas from
/// the Kaitai world carry: accepted anywhere and ignored, as Kaitai's compiler ignores them (`-orig-id` is also a
/// binspec key on fields and types, with the same meaning). Every other `-webide-` key is accepted too.
pub(super) const KAITAI_TOOL_KEYS: &[&str] = &[
    "-orig-id",
    "-webide-representation",
    "-webide-parse-mode",
    "-affected-by",
    "-license",
];

/// Every `-` key binspec reads, wherever it goes (a place's own keys among them): a key close to one of them is
/// taken for a misspelling.
fn binspec_keys() -> impl Iterator<Item = &'static str> {
    FIELD_EXT
        .iter()
        .chain(TYPE_EXT)
        .chain(META_EXT)
        .copied()
        .filter(|k| !KAITAI_TOOL_KEYS.contains(k))
}

/// Checks the `-` keys of one place (`allowed` there, `what` names the place). A binspec key that belongs
/// elsewhere, or a key close to one (a misspelling), is an error with a hint. A key of Kaitai's tools is accepted;
/// any other key is a warning, and ignored: Kaitai's compiler ignores every key that starts with `-`, so schemas
/// from elsewhere may carry keys of their own tools.
pub(super) fn check_ext(ext: &[(String, Node)], allowed: &[&str], what: &str, diags: &mut Diags) {
    for (k, v) in ext {
        if allowed.contains(&k.as_str())
            || KAITAI_TOOL_KEYS.contains(&k.as_str())
            || k.starts_with("-webide-")
        {
            continue;
        }
        if binspec_keys().any(|b| b == k) {
            diags.error(
                v.pos,
                &v.path,
                format!("binspec key '{k}' does not go on {what}"),
                Some(format!("on {what}, binspec reads {}", allowed.join(", "))),
            );
        } else if let Some(hint) = did_you_mean(k, binspec_keys()) {
            diags.error(
                v.pos,
                &v.path,
                format!("unknown binspec key '{k}' on {what}"),
                Some(hint),
            );
        } else {
            diags.warning(
                v.pos,
                &v.path,
                format!("'{k}' is not a binspec key; ignored, as Kaitai's compiler ignores keys that start with '-'"),
                None,
            );
        }
    }
}

/// `align: N` and `align-at: M` of an instance's `-pool` map: the item's default alignment (a power of two up to
/// 1 MiB) and the offset into the item where it applies (below the alignment and 65536).
pub(super) fn instance_align(p: &Node, diags: &mut Diags) -> Option<(u64, u64)> {
    let int = |key: &str, diags: &mut Diags| -> Option<u64> {
        let n = p.get(key)?;
        match n.value {
            Value::Int(i) if i >= 0 => Some(i as u64),
            _ => {
                diags.error(
                    n.pos,
                    &n.path,
                    format!("'{key}' on an item's '-pool' is a number (the item's own alignment)"),
                    None,
                );
                None
            }
        }
    };
    let align = int("align", diags);
    let at = int("align-at", diags);
    let (Some(a), at) = (align, at) else {
        if let Some(n) = at.and(p.get("align-at")) {
            diags.error(n.pos, &n.path, "'align-at' needs 'align' beside it", None);
        }
        return None;
    };
    let at = at.unwrap_or(0);
    if !a.is_power_of_two() || a > 1 << 20 || at >= a.max(1) || at >= 1 << 16 {
        let n = p.get("align").unwrap_or(p);
        diags.error(
            n.pos,
            &n.path,
            format!(
                "an item's alignment is a power of two up to 0x100000, and 'align-at' is below it and below 0x10000 (got align {a:#x}, align-at {at:#x})"
            ),
            None,
        );
        return None;
    }
    Some((a, at))
}

/// Reads `-relocate: ID`, or `-relocate: {id: ID, list-null: BOOL}`, reporting what is wrong with it (where it
/// may go is checked with the roles, in `classify`).
pub(super) fn parse_relocate(n: &Node, diags: &mut Diags) -> Option<super::Relocate> {
    let usage = "'-relocate' takes the id of the relocation table that lists the pointer, or a map {id: ID, \
                 list-null: true} for a pointer the table lists also where it is null";
    let hint = || Some("for example '-relocate: main'".to_string());
    if let Value::Str(id) = &n.value {
        if id.is_empty() {
            diags.error(n.pos, &n.path, usage, hint());
            return None;
        }
        return Some(super::Relocate {
            id: id.clone(),
            null: false,
            pos: n.pos,
        });
    }
    let Some(map) = n.as_map() else {
        diags.error(n.pos, &n.path, usage, hint());
        return None;
    };
    let mut out = super::Relocate {
        id: String::new(),
        null: false,
        pos: n.pos,
    };
    for (k, v) in map {
        let key = k.scalar_text().unwrap_or_default();
        match (key.as_str(), &v.value) {
            ("id", Value::Str(id)) if !id.is_empty() => out.id = id.clone(),
            ("list-null", Value::Bool(b)) => out.null = *b,
            ("id" | "list-null", _) => diags.error(v.pos, &v.path, usage, None),
            (other, _) => diags.error(
                k.pos,
                &k.path,
                format!("'-relocate' has no key '{other}' (it takes id and list-null)"),
                did_you_mean(other, ["id", "list-null"]),
            ),
        }
    }
    if out.id.is_empty() {
        diags.error(n.pos, &n.path, usage, hint());
        return None;
    }
    Some(out)
}

/// Reads `-relocations: {id: ID, from: EXPR, size: EXPR, encoding: NAME}`, reporting what is wrong with it
/// (where it may go is checked with the roles, in `classify`).
pub(super) fn parse_relocations(n: &Node, diags: &mut Diags) -> Option<super::Relocations> {
    let usage = "'-relocations' takes a map {id: ID, from: EXPR, size: EXPR, encoding: nn-util | bina} (from, size and encoding optional)";
    let Some(map) = n.as_map() else {
        diags.error(n.pos, &n.path, usage, None);
        return None;
    };
    let mut out = super::Relocations {
        id: String::new(),
        from: None,
        size: None,
        encoding: super::RelocEncoding::NnUtil,
        pos: n.pos,
    };
    for (k, v) in map {
        let key = k.scalar_text().unwrap_or_default();
        match key.as_str() {
            "id" => match &v.value {
                Value::Str(id) if !id.is_empty() => out.id = id.clone(),
                _ => diags.error(
                    v.pos,
                    &v.path,
                    "'-relocations/id' takes the table's id",
                    None,
                ),
            },
            "encoding" => match v.scalar_text().as_deref() {
                Some("nn-util") => out.encoding = super::RelocEncoding::NnUtil,
                Some("bina") => out.encoding = super::RelocEncoding::Bina,
                other => {
                    let other = other.unwrap_or_default();
                    diags.error(
                        v.pos,
                        &v.path,
                        format!("'-relocations/encoding': unknown encoding '{other}' (it takes nn-util or bina)"),
                        did_you_mean(other, ["nn-util", "bina"]),
                    );
                    // (The table stays, so that its pointers are not reported as listed by none.)
                }
            },
            "from" => out.from = node_ex(v, diags),
            "size" => out.size = node_ex(v, diags),
            _ => {
                diags.error(
                    k.pos,
                    &n.path,
                    format!("unknown key '{key}' in '-relocations'"),
                    did_you_mean(&key, ["id", "from", "size", "encoding"]),
                );
                return None;
            }
        }
    }
    if out.id.is_empty() {
        diags.error(
            n.pos,
            &n.path,
            "'-relocations' needs 'id': the table whose pointers it lists",
            Some("for example '-relocations: {id: main}'".into()),
        );
        return None;
    }
    if out.from.is_some() != out.size.is_some() {
        diags.error(n.pos, &n.path, "'-relocations' takes 'from' and 'size' together (the region whose pointers it lists), or neither", None);
        return None;
    }
    Some(out)
}
