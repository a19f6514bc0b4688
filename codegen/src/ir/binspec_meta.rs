//! `meta: -binspec`, the schema's settings that Kaitai has no key for: the format id, the wiki source, extra
//! magics, the archive and `info` specs, and where the `binspec-formats` crate builds the schema (`feature`,
//! `module`, `register`: [`CrateSpec`]). Every key is checked: an unknown one is an error with a suggestion; keys
//! that start with `-` are tables for a hand-written reader (Perro's `-node-fields`) and are left to it.

use crate::diag::{did_you_mean, Diags};
use crate::syntax::{Node, RawSchema, Value};

use super::builder::node_ex;
use super::keys::ext_get;
use super::{camel, ArchiveSpec, CrateSpec, Module};

/// The keys `-binspec` takes (besides `-` keys).
const KEYS: &[&str] = &[
    "source",
    "id",
    "magic",
    "magic-at",
    "archive",
    "info",
    "text-format",
    "feature",
    "module",
    "register",
];

/// Reads `-binspec` into the module (checking it; see [`crate_spec`]).
pub(super) fn read(raw: &RawSchema, module: &mut Module, diags: &mut Diags) {
    module.crate_spec = crate_spec(raw, diags);
    module.format_id = module.crate_spec.format_id.clone();
    let Some(bs) = binspec(raw) else {
        return;
    };
    module.source = bs.get("source").and_then(|s| s.scalar_text());
    module.text_format = bs.get("text-format").and_then(|s| s.scalar_text());
    match bs.get("magic-at").map(|m| &m.value) {
        None => {}
        Some(Value::Int(i)) if *i >= 0 && *i < 1 << 20 => module.magic_at = *i as u64,
        Some(_) => {
            let n = bs.get("magic-at").unwrap();
            diags.error(
                n.pos,
                &n.path,
                "'magic-at' must be a byte offset (an integer)",
                None,
            );
        }
    }
    if let Some(Value::Seq(ms)) = bs.get("magic").map(|m| &m.value) {
        module.magics = ms
            .iter()
            .filter_map(|m| m.scalar_text())
            .map(|s| s.into_bytes())
            .collect();
    }
    if let Some(a) = bs.get("archive") {
        let s = |k: &str| a.get(k).and_then(|x| x.scalar_text()).unwrap_or_default();
        module.archive = Some(ArchiveSpec {
            entries: s("entries").split('.').map(str::to_string).collect(),
            name: s("name"),
            data: s("data"),
            hash: Some(s("hash")).filter(|h| !h.is_empty()),
        });
    }
    if let Some(i) = bs.get("info") {
        module.info.version = i.get("version").and_then(|v| node_ex(v, diags));
        if let Some(m) = i.get("summary").and_then(|s| s.as_map()) {
            for (k, v) in m {
                if let Some(e) = node_ex(v, diags) {
                    module
                        .info
                        .summary
                        .push((k.scalar_text().unwrap_or_default(), e));
                }
            }
        }
    }
}

fn binspec(raw: &RawSchema) -> Option<&Node> {
    ext_get(&raw.root.meta.as_ref()?.ext, "-binspec")
}

/// Where `binspec-formats` builds the schema: its format id, cargo feature, module and registered types, from
/// `-binspec` (`id`, `feature`, `module`, `register`) and their defaults. It also checks the keys of `-binspec`,
/// so that a typo is reported even by a reader that needs nothing else of the schema (`formats/build.rs`).
pub fn crate_spec(raw: &RawSchema, diags: &mut Diags) -> CrateSpec {
    let id = raw.root.name.clone();
    let bs = binspec(raw);
    if let Some(bs) = bs {
        check_keys(bs, diags);
    }
    let get = |k: &str| bs.and_then(|b| b.get(k));
    let format_id = get("id")
        .and_then(|n| name(n, "id", ID_USAGE, is_feature_name, diags))
        .unwrap_or_else(|| id.clone());
    let feature = get("feature")
        .and_then(|n| name(n, "feature", FEATURE_USAGE, is_feature_name, diags))
        .unwrap_or_else(|| format_id.clone());
    let text_format = get("text-format").is_some();
    let module = match get("module") {
        Some(n) if text_format => {
            diags.error(
                n.pos,
                &n.path,
                "'module' does not apply to a text format ('text-format'): nothing is generated for it, its reader \
                 and writer are hand-written",
                Some("remove 'module', and name the hand-written types with 'register'".into()),
            );
            None
        }
        Some(n) => name(n, "module", MODULE_USAGE, is_module_path, diags),
        None if text_format => None,
        None => Some(id.clone()),
    };
    let register = match get("register") {
        Some(n) => register(n, diags),
        None => {
            if text_format {
                let n = get("text-format").expect("present");
                diags.error(
                    n.pos,
                    &n.path,
                    "a text format's reader and writer are hand-written, so nothing says which types to register \
                     as formats",
                    Some(
                        "name them with 'register: [MODULE::TYPE, ...]' (panim_perro.ksy: \
                         register: [panim_perro::Clip, panim_perro::Retarget])"
                            .into(),
                    ),
                );
            }
            module
                .iter()
                .map(|m| format!("{m}::{}", camel(&id)))
                .collect()
        }
    };
    CrateSpec {
        format_id,
        feature,
        module,
        register,
    }
}

const ID_USAGE: &str =
    "'id' is the format id, which is also its cargo feature and generated file name: lower-case \
                        letters, digits, '-' and '_', starting with a letter";
const FEATURE_USAGE: &str =
    "'feature' names the cargo feature of binspec-formats that builds the schema: \
                             lower-case letters, digits, '-' and '_', starting with a letter";
const MODULE_USAGE: &str = "'module' is where binspec-formats puts the generated code: NAME (a module of its own) \
                            or LAYER::NAME (inside the hand-written module LAYER), in lower_snake_case";
const REGISTER_USAGE: &str =
    "'register' takes a list of the types registered as formats, each a path from the \
                              crate root such as byml::Document ([] registers none)";

fn check_keys(bs: &Node, diags: &mut Diags) {
    let Some(m) = bs.as_map() else {
        diags.error(
            bs.pos,
            &bs.path,
            format!("'-binspec' takes a map (keys: {})", KEYS.join(", ")),
            None,
        );
        return;
    };
    for (k, v) in m {
        let key = k.scalar_text().unwrap_or_default();
        if !key.starts_with('-') && !KEYS.contains(&key.as_str()) {
            diags.error(
                k.pos,
                &v.path,
                format!("unknown key '{key}' in '-binspec'"),
                did_you_mean(&key, KEYS.iter().copied()),
            );
        }
    }
}

/// A name-like value, checked by `ok`.
fn name(
    n: &Node,
    key: &str,
    usage: &str,
    ok: fn(&str) -> bool,
    diags: &mut Diags,
) -> Option<String> {
    match n.as_str() {
        Some(s) if ok(s) => Some(s.to_string()),
        Some(s) => {
            diags.error(n.pos, &n.path, format!("{usage} (got '{s}')"), None);
            None
        }
        None => {
            diags.error(
                n.pos,
                &n.path,
                format!("{usage} (got {} for '{key}')", n.kind_name()),
                None,
            );
            None
        }
    }
}

fn register(n: &Node, diags: &mut Diags) -> Vec<String> {
    let Value::Seq(items) = &n.value else {
        diags.error(
            n.pos,
            &n.path,
            format!("{REGISTER_USAGE} (got {})", n.kind_name()),
            None,
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for it in items {
        match it.as_str() {
            Some(s) if is_type_path(s) => {
                if out.iter().any(|o| o == s) {
                    diags.error(
                        it.pos,
                        &it.path,
                        format!("'{s}' is registered twice"),
                        None,
                    );
                }
                out.push(s.to_string());
            }
            got => diags.error(
                it.pos,
                &it.path,
                format!(
                    "'register' items are type paths from the crate root, such as byml::Document (got {})",
                    got.map_or_else(|| it.kind_name().to_string(), |s| format!("'{s}'"))
                ),
                None,
            ),
        }
    }
    out
}

fn is_feature_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

fn is_snake(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !RUST_KEYWORDS.contains(&s)
}

const RUST_KEYWORDS: &[&str] = &[
    "as", "async", "await", "box", "break", "const", "continue", "crate", "dyn", "else", "enum",
    "extern", "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod",
    "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true",
    "try", "type", "unsafe", "use", "where", "while", "yield",
];

/// `NAME` or `LAYER::NAME`.
fn is_module_path(s: &str) -> bool {
    let parts: Vec<&str> = s.split("::").collect();
    parts.len() <= 2 && parts.iter().all(|p| is_snake(p))
}

/// `module::Type`, `a::b::Type`.
fn is_type_path(s: &str) -> bool {
    let parts: Vec<&str> = s.split("::").collect();
    let (last, modules) = parts.split_last().expect("split yields one part");
    !modules.is_empty()
        && modules.iter().all(|p| is_snake(p))
        && last.starts_with(|c: char| c.is_ascii_uppercase())
        && last.chars().all(|c| c.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_paths() {
        assert!(
            is_feature_name("panim-pluto") && is_feature_name("sarc") && is_feature_name("a_1")
        );
        assert!(!is_feature_name("Sarc") && !is_feature_name("-x") && !is_feature_name("a b"));
        assert!(is_module_path("ainb::raw") && is_module_path("sarc"));
        assert!(
            !is_module_path("a::b::c") && !is_module_path("ainb::Raw") && !is_module_path("type")
        );
        assert!(is_type_path("byml::Document") && is_type_path("a::b::C2"));
        assert!(
            !is_type_path("Document") && !is_type_path("byml::document") && !is_type_path("byml::")
        );
    }

    fn spec(meta: &str) -> (CrateSpec, Vec<String>) {
        let text = format!("meta:\n  id: panim_x\n{meta}seq:\n  - id: a\n    type: u1\n");
        let mut diags = Diags::new("t.ksy");
        let raw = crate::syntax::parse_schema("t.ksy", &text, &mut diags).expect("parses");
        let s = crate_spec(&raw, &mut diags);
        (s, diags.list.iter().map(|d| d.to_string()).collect())
    }

    #[test]
    fn defaults_come_from_the_ids() {
        let (s, d) = spec("");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(
            (
                s.format_id.as_str(),
                s.feature.as_str(),
                s.module.as_deref()
            ),
            ("panim_x", "panim_x", Some("panim_x"))
        );
        assert_eq!(s.register, ["panim_x::PanimX"]);
        let (s, _) = spec("  -binspec:\n    id: panim-x\n");
        assert_eq!(
            (s.format_id.as_str(), s.feature.as_str()),
            ("panim-x", "panim-x")
        );
        assert_eq!(s.module.as_deref(), Some("panim_x"));
        let (s, d) =
            spec("  -binspec:\n    feature: other\n    module: other::raw\n    register: []\n");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(
            (s.feature.as_str(), s.module.as_deref(), s.register.len()),
            ("other", Some("other::raw"), 0)
        );
    }

    #[test]
    fn mistakes_are_named() {
        let (_, d) = spec("  -binspec:\n    registers: []\n");
        assert!(
            d[0].contains("unknown key 'registers' in '-binspec' (did you mean 'register'?)"),
            "{d:?}"
        );
        let (_, d) = spec("  -binspec:\n    text-format: x\n    module: y\n");
        assert!(
            d.iter()
                .any(|m| m.contains("'module' does not apply to a text format")),
            "{d:?}"
        );
        assert!(
            d.iter()
                .any(|m| m.contains("nothing says which types to register")),
            "{d:?}"
        );
        let (_, d) = spec("  -binspec:\n    feature: Big\n");
        assert!(
            d[0].contains("/meta/-binspec/feature: 'feature' names"),
            "{d:?}"
        );
        let (_, d) = spec("  -binspec:\n    register: x::Y\n");
        assert!(d[0].contains("(got a string)"), "{d:?}");
    }
}
