//! Where the document's pieces sit in the raw model: which extra data a plug of a kind takes on an element of a
//! type (the schema's conditions), the plug lists by kind, and which member of the section region follows the
//! element parameters and the state info (its gap holds the bytes the document keeps after them). And
//! [`decode`], which converts a file's raw model to the document and refuses what the document would lose.

use binspec_runtime::Bytes;

use super::from_raw::{self, Strs};
use super::model::Document;
use super::raw;
use crate::{Error, Format, Result};
use binspec_runtime::ErrorKind;

/// The empty child replacement header Splatoon 3's 0x404 files carry after the module link and the state info,
/// which the file header does not point to: no guard, no entries, override counts -1.
pub(super) const UNLINKED_REPLACEMENT_HEADER: [u8; 8] = [0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff];

/// The extra data a plug carries after its element and name, as `schemas/ainb.ksy` decides it from the plug's
/// kind and its element's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PlugSlot {
    None,
    /// A child plug of an Element_S32Selector (type 1): flags, an s32.
    SelectorS32,
    /// A child plug of an Element_StringSelector (type 5): flags, a string.
    SelectorString,
    /// A child plug of an Element_RandomSelector (type 6): flags, a weight.
    SelectorWeight,
    /// A child plug of an Element_F32Selector (type 4): four conditions.
    Conditions,
    /// An int input plug of an Element_S32Selector or Element_Expression (20): flags, an s32.
    InputS32,
    /// A string input plug of an Element_StringSelector or Element_Expression: flags, a string.
    InputString,
    /// Another input plug (kinds 0, 4, 5) of a selector or expression element: two words.
    InputWords,
}

impl PlugSlot {
    /// What the document's `extra` says for it, for errors.
    pub(super) fn takes(self) -> &'static str {
        match self {
            PlugSlot::None => "no extra data (extra: none)",
            PlugSlot::SelectorS32 | PlugSlot::InputS32 => "flags and an s32 (extra: {s32: ...})",
            PlugSlot::SelectorString | PlugSlot::InputString => {
                "flags and a string (extra: {string: ...})"
            }
            PlugSlot::SelectorWeight => "flags and a float weight (extra: {f32: ...})",
            PlugSlot::Conditions => "four conditions (extra: {conditions: [...]})",
            PlugSlot::InputWords => "two words (extra: {words: [a, b]})",
        }
    }
}

/// The extra data of a plug of `kind` on an element of type `ty` (the conditions of `plug` in the schema).
pub(super) fn plug_slot(kind: u8, ty: u16) -> PlugSlot {
    let input = matches!(kind, 0 | 4 | 5) && matches!(ty, 1 | 4 | 5 | 6 | 7 | 20);
    match (kind, ty) {
        (2, 1) => PlugSlot::SelectorS32,
        (2, 5) => PlugSlot::SelectorString,
        (2, 6) => PlugSlot::SelectorWeight,
        (2, 4) => PlugSlot::Conditions,
        (5, 1 | 20) if input => PlugSlot::InputS32,
        (4, 5 | 20) if input => PlugSlot::InputString,
        _ if input => PlugSlot::InputWords,
        _ => PlugSlot::None,
    }
}

/// An element parameter's plugs of each kind, in kind order (the order of its plug pointer array).
pub(super) fn plug_lists(p: &raw::ElementParam) -> [&Vec<raw::PlugRef>; 10] {
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

/// [`plug_lists`], to fill.
pub(super) fn plug_lists_mut(p: &mut raw::ElementParam) -> [&mut Vec<raw::PlugRef>; 10] {
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

/// The members of the section region after the element parameters, in the schema's default order (`order` of
/// the `ainb_sections` pool): `present` says whether a model has it, `gap` is where it keeps the bytes before it.
macro_rules! members {
    ($($name:ident: |$r:ident| $present:expr, $gap:ident;)*) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(super) enum After { $($name),* }

        const AFTER: &[After] = &[$(After::$name),*];

        impl After {
            fn present(self, r: &raw::Ainb) -> bool {
                match self { $(After::$name => { let $r = r; $present })* }
            }
            /// The bytes before it that nothing describes.
            pub(super) fn gap(self, r: &raw::Ainb) -> Option<&[u8]> {
                match self { $(After::$name => r.$gap.as_deref()),* }
            }
            pub(super) fn gap_mut(self, r: &mut raw::Ainb) -> &mut Option<Bytes> {
                match self { $(After::$name => &mut r.$gap),* }
            }
        }
    };
}

members! {
    AttachmentIdArray: |r| r.attachment_id_array.is_some(), attachment_id_array_gap;
    Attachments: |r| r.attachments.is_some(), attachments_gap;
    AttachmentParams: |r| r.attachments.iter().flatten().any(|a| a.param.is_some()), sections_attachment_param_gap;
    PropertyTable: |r| r.property_table.is_some(), property_table_gap;
    InputOutputTable: |r| r.input_output_table.is_some(), input_output_table_gap;
    MultiInputs: |r| r.multi_inputs.is_some(), multi_inputs_gap;
    Jumps: |r| r.jumps.is_some(), jumps_gap;
    QueryIds: |r| r.query_element_id_array.is_some(), query_element_id_array_gap;
    Expressions: |r| r.expression_binary.is_some(), expression_binary_gap;
    ModuleCallers: |r| r.module_callers.is_some(), module_callers_gap;
    ExternalActions: |r| r.external_actions.is_some(), external_actions_gap;
    ModuleCallerLink: |r| r.module_caller_link.is_some(), module_caller_link_gap;
    StateInfo: |r| r.elements.iter().any(|e| e.state_info.is_some()), sections_element_state_info_gap;
    ChildReplacement: |r| r.child_replacement_table.is_some(), child_replacement_table_gap;
    Section6c: |r| r.section_6c.is_some(), section_6c_gap;
    EnumResolves: |r| r.enum_resolve_array.is_some(), enum_resolve_array_gap;
    StringPool: |_r| true, string_pool_gap;
}

/// The first member present from `from` on (the string pool always is).
fn first_present(r: &raw::Ainb, from: After) -> After {
    let at = AFTER.iter().position(|&m| m == from).unwrap_or(0);
    AFTER[at..]
        .iter()
        .copied()
        .find(|m| m.present(r))
        .unwrap_or(After::StringPool)
}

/// The member after the element parameters, which keeps the bytes after the last one.
pub(super) fn after_params(r: &raw::Ainb) -> After {
    first_present(r, After::AttachmentIdArray)
}

/// The member after the state info (and the module caller link), which keeps an unlinked child replacement header.
pub(super) fn after_state_info(r: &raw::Ainb) -> After {
    first_present(r, After::ChildReplacement)
}

/// Bytes to [`Document`]: the raw reader reads the file, the document is converted from it, and checked to hold
/// everything the raw model does: by [`super::holds`] first and, where that does not say yes, by converting back
/// and comparing (a section order, an alignment, bytes nothing describes that the document has no place for are
/// refused, naming the first field that would change).
pub(super) fn decode(data: &[u8]) -> Result<Document> {
    let mut r = raw::Ainb::from_binary(data)?;
    let mut shared_tails = false;
    let mut doc = from_raw::document(&r, &Strs::new(data.len()), &mut shared_tails)?;
    if !shared_tails && super::holds::holds(&mut r, &doc) {
        return Ok(doc);
    }
    let invalid = |message: String| Error::new(ErrorKind::Invalid { message }, None);
    let back = super::to_raw::raw(&doc)
        .map_err(|e| invalid(format!("the document of this file does not write: {e}")))?;
    if shared_tails {
        // Texts that share the tail of a pool string are written as strings of their own, after the pool's, in the
        // order the writer meets them: the pool of the file the document writes says which and where.
        let again = raw::Ainb::from_binary(&back.to_binary()?)?;
        doc.layout.strings = again.string_pool.strings;
        r.string_pool.strings = doc.layout.strings.clone();
    }
    let back = if shared_tails {
        super::to_raw::raw(&doc)?
    } else {
        back
    };
    // Where the file's empty query ranges start is derived when it is where the writer would put them; the
    // document writes 0, as every file at hand has it, which is the same place or one no reader looks at.
    for e in r.elements.iter_mut().filter(|e| e.queries.is_empty()) {
        e.base_query_element_id.get_or_insert(0);
    }
    // Floats are compared by their text where `==` says they differ: NaN is not equal to itself, and the
    // document copies a float's bits both ways.
    if back != r && format!("{back:?}") != format!("{r:?}") {
        return Err(invalid(format!(
            "the file holds what the document has no place for: {} (the raw model, `ainb::raw`, keeps it)",
            first_difference(&r, &back)
        )));
    }
    Ok(doc)
}

/// The path of the first field where two raw models differ, with both values.
fn first_difference(a: &raw::Ainb, b: &raw::Ainb) -> String {
    fn walk(a: &serde_json::Value, b: &serde_json::Value, path: &mut String) -> Option<String> {
        use serde_json::Value::{Array, Object};
        match (a, b) {
            (Object(x), Object(y)) => {
                for (k, v) in x {
                    let w = y.get(k).unwrap_or(&serde_json::Value::Null);
                    if v != w {
                        let n = path.len();
                        path.push_str(if path.is_empty() { "" } else { "." });
                        path.push_str(k);
                        let r = walk(v, w, path);
                        path.truncate(n);
                        return r;
                    }
                }
                y.keys()
                    .find(|k| !x.contains_key(*k))
                    .map(|k| format!("{path}.{k}: absent in the file"))
            }
            (Array(x), Array(y)) if x.len() == y.len() => {
                let i = x.iter().zip(y).position(|(v, w)| v != w)?;
                let n = path.len();
                path.push_str(&format!("[{i}]"));
                let r = walk(&x[i], &y[i], path);
                path.truncate(n);
                r
            }
            _ => Some(format!(
                "{path} is {a} in the file, {b} as the document writes it"
            )),
        }
    }
    let (Ok(a), Ok(b)) = (serde_json::to_value(a), serde_json::to_value(b)) else {
        return "a value that does not convert to JSON".into();
    };
    walk(&a, &b, &mut String::new()).unwrap_or_else(|| "a value JSON does not show".into())
}
