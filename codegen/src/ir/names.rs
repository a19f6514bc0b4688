//! The Rust names of a schema's models. The same name twice (types or enums in different scopes, which is Kaitai's
//! scoping, or a type and an enum, as `binspec wiki import` drafts an enum table) is not a clash: the builder gives
//! the later one its enclosing types' names in front. Two different schema names that become the same CamelCase
//! name (`foo_bar` and `foo__bar`, as types, enums or one of each) get the same treatment, with a warning naming
//! both, and so does the enum generated for a switch field that a type or enum already names (`Switch` after its
//! name): schemas of Kaitai's gallery have both (lvm2's `label_header_` in `label_header`, elf's switch field
//! `flags` beside a type `section_header_flags`), and renaming one is no option there. Names that still meet after
//! that are refused.

use crate::diag::{Diags, Pos};
use crate::ir::{camel, FieldTy, Module};

/// A schema name that claims a Rust model name.
pub(super) struct NameUse {
    pub(super) kind: &'static str,
    pub(super) name: String,
    pub(super) file: String,
    pub(super) pos: Pos,
    pub(super) path: String,
}

impl NameUse {
    fn describe(&self) -> String {
        format!(
            "{} '{}' ({}:{}:{}, {})",
            self.kind, self.name, self.file, self.pos.line, self.pos.col, self.path
        )
    }
}

/// Records `new`, warning when an earlier type or enum of another name has the same CamelCase name (the builder
/// names the later one after its enclosing types).
pub(super) fn claim(uses: &mut Vec<NameUse>, new: NameUse, diags: &mut Diags) {
    let rust = camel(&new.name);
    if let Some(old) = uses
        .iter()
        .find(|u| camel(&u.name) == rust && u.name != new.name)
    {
        let message = format!(
            "{} '{}' and {} both become the Rust name '{rust}': the later is named after its enclosing types",
            new.kind,
            new.name,
            old.describe()
        );
        let help = Some(format!(
            "to choose the name, rename one of them, e.g. {} '{}' to '{}_{}'",
            new.kind, new.name, new.name, new.kind
        ));
        diags.in_file(&new.file, |d| d.warning(new.pos, &new.path, message, help));
    }
    uses.push(new);
}

/// Names the enum generated for each switch field (its type's Rust name and its own, in CamelCase), in
/// [`Module::switch_enums`]: where a type, an enum or another switch's enum has that name, `Switch` (then a number)
/// follows it, with a warning. Refuses types and enums that still share a Rust name.
pub(super) fn check_switch_enums(m: &mut Module, diags: &mut Diags) {
    let mut taken: Vec<(String, String)> = m
        .types
        .iter()
        .map(|t| (t.rust.clone(), format!("type '{}'", t.name)))
        .chain(
            m.enums
                .iter()
                .map(|e| (e.rust.clone(), format!("enum '{}'", e.name))),
        )
        .collect();
    // The builder's names for types and enums, with enclosing names put in front, may still meet.
    let owners: Vec<usize> = (0..m.types.len())
        .chain(m.enums.iter().map(|e| e.owner))
        .collect();
    for i in 0..taken.len() {
        if let Some((rust, other)) = taken[..i].iter().find(|(r, _)| *r == taken[i].0) {
            let t = &m.types[owners[i]];
            let message = format!("{} and {other} both get the Rust name '{rust}'", taken[i].1);
            let help = Some("rename one of them".to_string());
            diags.in_file(&t.file, |d| d.error(t.pos, "", message, help));
        }
    }
    let mut names = std::collections::BTreeMap::new();
    for (ti, t) in m.types.iter().enumerate() {
        for f in t.seq.iter().chain(&t.instances) {
            if !matches!(f.ty, FieldTy::Switch { .. }) {
                continue;
            }
            let base = format!("{}{}", t.rust, camel(&f.name));
            let free = |n: &str| !taken.iter().any(|(r, _)| r == n);
            let rust = std::iter::once(base.clone())
                .chain(std::iter::once(format!("{base}Switch")))
                .chain((2..).map(|i| format!("{base}Switch{i}")))
                .find(|n| free(n))
                .unwrap_or_default();
            if rust != base {
                let other = taken
                    .iter()
                    .find(|(r, _)| *r == base)
                    .map(|(_, o)| o.clone())
                    .unwrap_or_default();
                let message = format!(
                    "the enum generated for switch field '{}' of type '{}' would have the Rust name '{base}', as \
                     {other} does: it is named '{rust}'",
                    f.name, t.name
                );
                let help = Some(format!(
                    "to choose the name, rename the field '{}' or the {other}",
                    f.name
                ));
                diags.in_file(&t.file, |d| d.warning(f.pos, &f.path, message, help));
            }
            taken.push((
                rust.clone(),
                format!("the switch field '{}' of type '{}'", f.name, t.name),
            ));
            names.insert((ti, f.name.clone()), rust);
        }
    }
    m.switch_enums = names;
}

#[cfg(test)]
mod tests {
    /// A type and an enum of the same name (as `binspec wiki import` drafts an enum table) are accepted: the
    /// enum gets its enclosing type's name in front.
    #[test]
    fn a_type_and_an_enum_of_one_name_are_not_a_clash() {
        let text = "meta:\n  id: kind\n  endian: le\nseq:\n  - id: k\n    type: u1\n    enum: kind\nenums:\n  kind:\n    1: one\n";
        let c = crate::compile_str("kind.ksy", text).unwrap_or_else(|d| panic!("{d:?}"));
        assert_eq!(c.module.types[0].rust, "Kind");
        assert_eq!(c.module.enums[0].rust, "KindKind");
    }
}
