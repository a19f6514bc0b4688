//! Built-in type names (`u4`, `f8be`, `b12`, `strz`, ...) and the "did you mean" suggestions of type errors.

use super::Ty;

/// Built-in type names usable in `.as<>`, `sizeof<>` and `bitsizeof<>`.
pub fn builtin_type(name: &str) -> Option<Ty> {
    let base = name
        .strip_suffix("le")
        .or_else(|| name.strip_suffix("be"))
        .filter(|b| b.len() >= 2)
        .unwrap_or(name);
    match base {
        "str" | "strz" if base == name => return Some(Ty::Str),
        "bytes" if base == name => return Some(Ty::Bytes),
        "f4" | "f8" => return Some(Ty::Float),
        _ => {}
    }
    let mut chars = base.chars();
    let kind = chars.next()?;
    let digits = chars.as_str();
    let n: u8 = digits
        .parse()
        .ok()
        .filter(|_| !digits.starts_with(['0', '+']))?;
    match (kind, n) {
        ('u' | 's', 1 | 2 | 4 | 8) => Some(Ty::Int {
            signed: kind == 's',
            width: n,
        }),
        ('b', 1) => Some(Ty::Bool),
        ('b', 2..=64) => Some(Ty::Int {
            signed: false,
            width: n.div_ceil(8).next_power_of_two(),
        }),
        _ => None,
    }
}

/// Picks the candidate most similar to `name` (Jaro-Winkler similarity of
/// the lowercased strings, at least 0.8), for "did you mean" hints.
pub fn did_you_mean<'a, I>(name: &str, candidates: I) -> Option<String>
where
    I: IntoIterator<Item = &'a str>,
{
    let lower = name.to_lowercase();
    let mut best: Option<(f64, &str)> = None;
    for cand in candidates {
        if cand == name {
            continue;
        }
        let score = strsim::jaro_winkler(&lower, &cand.to_lowercase());
        if score >= 0.8 && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, cand));
        }
    }
    best.map(|(_, c)| c.to_owned())
}

/// `; did you mean 'x'?` where a candidate is close enough to `name`, else nothing.
pub(super) fn hint(name: &str, candidates: &[String]) -> String {
    match did_you_mean(name, candidates.iter().map(String::as_str)) {
        Some(c) => format!("; did you mean '{c}'?"),
        None => String::new(),
    }
}
