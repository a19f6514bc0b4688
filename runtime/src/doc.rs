//! Models read from their text documents (YAML and JSON): limits that grow with the document, and errors that
//! read as sentences and say what a misspelt field was probably meant to be.

use serde::de::DeserializeOwned;
use serde_saphyr::budget::BudgetBreach;

use crate::error::{Error, Result};

/// The most nodes of a YAML document whatever its size: a document holds at most one node per byte of its text
/// (plus this), so a large table loads while aliases (`*a`) that would copy one part of a document over and over
/// (a "billion laughs") still stop early.
const MIN_NODES: usize = 250_000;

/// YAML parser options for a document of `len` bytes: counts of nodes, events and scalar bytes grow with the
/// text; anchors, aliases and what aliases may copy keep serde-saphyr's fixed limits.
pub fn yaml_options(len: usize) -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_nodes = MIN_NODES.max(len.saturating_add(1));
    budget.max_events = budget.max_events.max(len.saturating_mul(3));
    budget.max_total_scalar_bytes = budget.max_total_scalar_bytes.max(len);
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    // A file's float may be infinite or NaN: the serializer writes `.inf`, `-.inf` and `.nan`, which must read
    // back (a model holding one could not be encoded from its own document).
    options.non_finite_float_policy = serde_saphyr::options::NonFiniteFloatPolicy::PassThrough;
    options
}

/// A model from YAML, with [`yaml_options`].
pub fn from_yaml<T: DeserializeOwned>(text: &str) -> Result<T> {
    serde_saphyr::from_str_with_options(text, yaml_options(text.len()))
        .map_err(|e| Error::text(yaml_message(&e)))
}

/// A model from JSON.
pub fn from_json<T: DeserializeOwned>(text: &str) -> Result<T> {
    serde_json::from_str(text).map_err(|e| Error::text(with_hint(&e.to_string())))
}

/// The message of a YAML error, on one line: `LINE:COLUMN: what` where the place is known, a sentence for
/// limits, and a hint for misspelt fields.
fn yaml_message(e: &serde_saphyr::Error) -> String {
    use serde_saphyr::Error as E;
    let mut inner = e;
    while let E::AliasError { error, .. } | E::WithSnippet { error, .. } = inner {
        inner = error;
    }
    let what = match inner {
        E::Budget { breach, .. } => format!(
            "the document is too large to load: {}",
            breach_sentence(breach)
        ),
        E::SerdeUnknownField {
            field, expected, ..
        } => unknown("field", field, expected),
        E::SerdeUnknownVariant {
            variant, expected, ..
        } => unknown("variant", variant, expected),
        other => {
            let text = other.to_string();
            let first = text.lines().next().unwrap_or("").trim();
            let first = first.strip_prefix("error: ").unwrap_or(first);
            strip_saphyr_location(first).to_string()
        }
    };
    match e.location() {
        Some(l) if l.line() > 0 => format!("{}:{}: {what}", l.line(), l.column()),
        _ => what,
    }
}

/// `unknown field `x` (did you mean `y`?); expected one of `a`, `b``.
fn unknown(kind: &str, word: &str, expected: &[&str]) -> String {
    let mut s = format!("unknown {kind} `{word}`");
    if let Some(best) = did_you_mean(word, expected.iter().copied()) {
        s.push_str(&format!(" (did you mean `{best}`?)"));
    }
    if expected.is_empty() {
        s.push_str(&format!("; there are no {kind}s here"));
    } else {
        let list: Vec<String> = expected.iter().map(|e| format!("`{e}`")).collect();
        s.push_str(&format!("; expected one of {}", list.join(", ")));
    }
    s
}

/// serde-saphyr's `line 3 column 5: ` (or ` at line 3 column 5`), which the caller gives as `3:5: ` instead.
fn strip_saphyr_location(msg: &str) -> &str {
    let msg = match msg.strip_prefix("line ") {
        Some(rest) => rest
            .find(": ")
            .filter(|&i| {
                rest[..i]
                    .split(" column ")
                    .all(|n| n.bytes().all(|b| b.is_ascii_digit()))
            })
            .map_or(msg, |i| &rest[i + 2..]),
        None => msg,
    };
    match msg.rfind(" at line ") {
        Some(i)
            if msg[i + 9..]
                .split(" column ")
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) =>
        {
            &msg[..i]
        }
        _ => msg,
    }
}

fn breach_sentence(b: &BudgetBreach) -> String {
    match b {
        BudgetBreach::Nodes { nodes } => {
            format!("it expands to more than {nodes} values (aliases that copy the same part many times?)")
        }
        BudgetBreach::Events { events } => {
            format!("it expands to more than {events} YAML events (aliases that copy the same part many times?)")
        }
        BudgetBreach::Aliases { aliases } => format!("it has more than {aliases} aliases (`*name`)"),
        BudgetBreach::Anchors { anchors } => format!("it has more than {anchors} anchors (`&name`)"),
        BudgetBreach::Depth { depth } => format!("it nests deeper than {depth} levels"),
        BudgetBreach::Documents { documents } => format!("it holds more than {documents} YAML documents"),
        BudgetBreach::ScalarBytes { total_scalar_bytes } => format!(
            "its values add up to more than {total_scalar_bytes} bytes (aliases that copy the same part many times?)"
        ),
        BudgetBreach::AliasAnchorRatio { aliases, anchors } => format!(
            "its {aliases} aliases use its {anchors} anchors over and over (a document that copies itself?)"
        ),
        BudgetBreach::RecordedAnchorEvents {
            recorded_anchor_events,
        } => format!(
            "its anchors hold more than {recorded_anchor_events} YAML events for aliases to copy"
        ),
        BudgetBreach::RecordedAnchorBytes {
            recorded_anchor_bytes,
        } => format!(
            "its anchors hold more than {recorded_anchor_bytes} bytes of values for aliases to copy"
        ),
        BudgetBreach::MergeKeys { merge_keys } => {
            format!("it has more than {merge_keys} merge keys (`<<`)")
        }
        _ => "aliases or anchors copy too much of it".to_string(),
    }
}

/// Adds "did you mean" to serde's `unknown field `x`, expected one of `a`, `b`` (and `unknown variant`).
fn with_hint(msg: &str) -> String {
    for what in ["unknown field `", "unknown variant `"] {
        let Some(start) = msg.find(what) else {
            continue;
        };
        let rest = &msg[start + what.len()..];
        let Some(end) = rest.find('`') else {
            continue;
        };
        let word = &rest[..end];
        let after = &rest[end + 1..];
        let expected = after
            .strip_prefix(", expected one of ")
            .or_else(|| after.strip_prefix(", expected "))
            .unwrap_or("");
        let candidates = expected.split(", ").filter_map(|c| {
            let c = c.strip_prefix('`')?;
            Some(&c[..c.find('`')?])
        });
        if let Some(best) = did_you_mean(word, candidates) {
            return format!("{msg} (did you mean `{best}`?)");
        }
    }
    msg.to_string()
}

/// Words longer than this get no suggestion: the distance costs len(a) × len(b), and a word that long is not a
/// typo of a short one.
const SUGGEST_MAX_CHARS: usize = 64;

/// The closest of `candidates` to `word`, if close enough to be a likely typo: an edit distance (optimal string
/// alignment, ASCII case ignored) of at most a third of the longer word's length, at least 1. Words longer than
/// [`SUGGEST_MAX_CHARS`] get none, and candidates whose length alone rules them out are not compared.
// For binspec-formats' own messages (Perro's clips), not part of the user-facing API.
#[doc(hidden)]
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let w = word.to_ascii_lowercase();
    let wlen = w.chars().count();
    if wlen > SUGGEST_MAX_CHARS {
        return None;
    }
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let clen = c.chars().take(SUGGEST_MAX_CHARS + 1).count();
        let limit = (wlen.max(clen) / 3).max(1);
        if clen > SUGGEST_MAX_CHARS || wlen.abs_diff(clen) > limit {
            continue;
        }
        let d = strsim::osa_distance(&w, &c.to_ascii_lowercase());
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Settings {
        data_alignment: u32,
        #[serde(default)]
        entries: Vec<Entry>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Entry {
        name: String,
    }

    /// What the serializer writes for a float that is not finite reads back (the interpreter's BYML documents
    /// hold `.inf` from bymlpkg's fixtures).
    #[test]
    fn non_finite_floats_read_back() {
        let v = [f32::INFINITY, f32::NEG_INFINITY, 1.5, f32::NAN];
        let text = serde_saphyr::to_string(&v).unwrap();
        let back: Vec<f32> = from_yaml(&text).unwrap();
        assert_eq!(back[..3], v[..3], "{text}");
        assert!(back[3].is_nan(), "{text}");
    }

    #[test]
    fn hints_name_the_closest_field() {
        for (word, candidates, want) in [
            (
                "data_alignn",
                vec!["data_alignment", "entries"],
                Some("data_alignment"),
            ),
            (
                "Entries",
                vec!["data_alignment", "entries"],
                Some("entries"),
            ),
            ("nmae", vec!["name"], Some("name")),
            ("bogus", vec!["data_alignment", "entries"], None),
            ("x", vec![], None),
        ] {
            assert_eq!(did_you_mean(word, candidates), want, "{word}");
        }
        let e = from_yaml::<Settings>("data_alignn: 16\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "1:1: unknown field `data_alignn` (did you mean `data_alignment`?); expected one of \
             `data_alignment`, `entries`"
        );
        let e = from_yaml::<Settings>("data_alignment: 4\nentries:\n  - {name: a, bogus: 1}\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("3:") && e.contains(": unknown field `bogus`; expected one of `name`"),
            "{e}"
        );
        let e = from_yaml::<Settings>("data_alignment: x\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("1:17: ") && !e.contains('\n'), "{e}");
        let e = from_json::<Settings>(r#"{"data_alignment": 4, "entries": [{"nam": "a"}]}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown field `nam`") && e.contains("(did you mean `name`?)"),
            "{e}"
        );
    }

    /// A table of more entries than serde-saphyr's default node budget (250,000) loads (issue 19: the TotK
    /// resource size table, 379,538 entries, could not be encoded from its YAML); aliases that copy a part of a
    /// document over and over are still refused, with a sentence.
    #[test]
    fn node_budget_grows_with_the_document_but_not_with_aliases() {
        let mut text = String::from("data_alignment: 4\nentries:\n");
        for i in 0..130_000 {
            text.push_str(&format!("- name: n{i}\n"));
        }
        let s: Settings = from_yaml(&text).unwrap();
        assert_eq!(s.entries.len(), 130_000);

        let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 0..9 {
            let prev = if i == 0 {
                "a".to_string()
            } else {
                format!("l{}", i - 1)
            };
            bomb.push_str(&format!("l{i}: &l{i} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
        }
        let e = from_yaml::<serde_json::Value>(&bomb)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(": the document is too large to load: it expands to more than "),
            "{e}"
        );
        assert!(!e.contains("{ "), "not a sentence: {e}");
    }
}
