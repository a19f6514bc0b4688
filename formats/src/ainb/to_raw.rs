//! [`Document`] to the raw model (`raw`, generated from `schemas/ainb.ksy`), whose writer lays out the file: every
//! offset, count, base index, string-pool offset and hash is derived there. This checks what the document says that
//! a file cannot (a plug whose extra data its element type and kind do not take, an index past the end), and places
//! the document's few layout choices where the raw model keeps them.

use binspec_runtime::{Bytes, Str};
use rustc_hash::FxHashSet;

use super::model::*;
use super::raw;
use super::PlugSlot;
use crate::{Error, Result};

fn bad(m: impl Into<String>) -> Error {
    Error::write(m.into())
}

/// The strings the document uses, as the raw model's texts, each made once (a name used over and over shares one;
/// the pool keeps the listed strings nothing uses only where the document says so).
#[derive(Default)]
struct Texts<'d> {
    used: rustc_hash::FxHashMap<&'d str, Str>,
}

impl<'d> Texts<'d> {
    fn s(&mut self, s: &'d str) -> Str {
        self.used.entry(s).or_insert_with(|| s.into()).clone()
    }
}

/// The raw model of `doc`.
pub(super) fn raw(doc: &Document) -> Result<raw::Ainb> {
    build(doc, true)
}

/// The raw model of `doc` without its elements (an empty list), for [`super::holds`], which checks them on its
/// own: the rest is what [`raw`] makes. The string pool keeps every string the document lists (`raw` leaves out
/// those that are neither used nor listed as unreferenced; of a document converted from a file, those are strings
/// the file uses where the document writes another value, which the comparison of that value refuses).
pub(super) fn without_elements(doc: &Document) -> Result<raw::Ainb> {
    build(doc, false)
}

fn build(doc: &Document, with_elements: bool) -> Result<raw::Ainb> {
    validate(doc)?;
    let Document {
        version,
        file_name,
        category,
        category_id,
        output_element_count,
        commands,
        elements,
        blackboard,
        attachments,
        multi_inputs,
        jumps,
        expressions,
        modules,
        external_actions,
        module_link,
        child_replacement,
        section_6c,
        enum_resolves,
        layout,
    } = doc;
    let version = *version;
    let mut t = Texts::default();
    let file_name = t.s(file_name);
    let file_category_name_text = t.s(category);
    let commands = commands
        .iter()
        .map(|c| raw::CommandEntry {
            name_text: t.s(&c.name),
            guid: Bytes::copy_from_slice(&c.guid.0),
            main_element_id: c.main_element,
            // Stored plus one, 0 for none (`validate` refused 65535).
            secondary_element_id: c.secondary_element.map_or(0, |v| v + 1),
        })
        .collect();
    let mut raw_elements = Vec::new();
    if with_elements {
        raw_elements.reserve(elements.len());
        for (i, e) in elements.iter().enumerate() {
            raw_elements.push(element(e, i, version, &mut t)?);
        }
    }
    // Bytes after an element's parameters go before what follows them: the next element's parameters, or the
    // first section after all of them.
    let mut after_last = None;
    for (i, e) in elements.iter().enumerate() {
        if e.trailing.is_empty() {
            continue;
        }
        let b = Bytes::from(
            e.trailing
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<u8>>(),
        );
        if i + 1 == elements.len() {
            after_last = Some(b);
        } else if let Some(next) = raw_elements.get_mut(i + 1) {
            next.param_gap = Some(b);
        }
    }
    let query_order = if layout.query_order.is_empty() {
        None
    } else {
        // Indices among the non-empty ranges, which the writer meets in element order.
        let mut rank = vec![None; elements.len()];
        let mut n = 0u32;
        for (i, e) in elements.iter().enumerate() {
            if !e.queries.is_empty() {
                rank[i] = Some(n);
                n += 1;
            }
        }
        // The listed ranges first, then the others in element order.
        let mut order: Vec<u32> = layout
            .query_order
            .iter()
            .filter_map(|&e| rank.get(e as usize).copied().flatten())
            .collect();
        let listed: FxHashSet<u32> = order.iter().copied().collect();
        order.extend((0..n).filter(|k| !listed.contains(k)));
        Some(order)
    };
    let attachments = attachments
        .iter()
        .map(|a| raw::Attachment {
            exb_function_count: a.exb_function_count,
            exb_input_output_field_size: a.exb_io_field_size,
            name_text: t.s(&a.name),
            param: Some(raw::AttachmentParam {
                unknown: a.unknown,
                unknown_01: Bytes::copy_from_slice(&a.unknown_01),
                s32_properties: props_s32(&a.properties, &mut t),
                bool_properties: props_bool(&a.properties, &mut t),
                float_properties: props_f32(&a.properties, &mut t),
                string_properties: props_string(&a.properties, &mut t),
                vector3f_properties: props_vec3f(&a.properties, &mut t),
                pointer_properties: props_pointer(&a.properties, &mut t),
                ..Default::default()
            }),
            ..Default::default()
        })
        .collect();
    let blackboard = blackboard_of(blackboard, version, &mut t);
    let module_callers = raw::ModuleCallerArray {
        entries: modules
            .iter()
            .map(|m| raw::ModuleEntry {
                ainb_file_count: m.count,
                file_path: t.s(&m.path),
                file_category: t.s(&m.category),
            })
            .collect(),
    };
    let external_actions = raw::ExternalActionArray {
        entries: external_actions
            .iter()
            .map(|a| raw::ExternalAction {
                node_index: a.element,
                string_1: t.s(&a.slot),
                state_name: t.s(&a.state),
            })
            .collect(),
    };
    let enum_resolve_array = raw::EnumResolveArray {
        entries: enum_resolves
            .iter()
            .map(|x| raw::EnumResolveEntry {
                enum_value_offset: x.value_offset,
                enum_class_name: t.s(&x.class),
                enum_value_name: t.s(&x.value),
            })
            .collect(),
    };
    let child_replacement_table = child_replacement
        .as_ref()
        .map(|c| raw::ChildReplacementTable {
            initialization_guard: c.initialization_guard,
            unknown_01: c.unknown_01,
            override_element_count: c.override_element_count,
            override_attachment_parameter_count: c.override_attachment_parameter_count,
            entries: c
                .entries
                .iter()
                .map(|r| raw::ChildReplacementEntry {
                    replacement_type_enum: r.kind,
                    unknown_01: r.unknown_01,
                    element_id: r.element,
                    child_element_id: r.child,
                    new_element_id: r.new_element,
                })
                .collect(),
        });
    // The pool keeps the listed strings in their order, but of those nothing uses only the ones the document
    // says are unreferenced; the others the writer adds as it meets them.
    let unreferenced: FxHashSet<&str> = layout
        .unreferenced_strings
        .iter()
        .map(String::as_str)
        .collect();
    let strings = layout
        .strings
        .iter()
        .filter(|s| {
            !with_elements || t.used.contains_key(s.as_str()) || unreferenced.contains(s.as_str())
        })
        .cloned()
        .collect();
    let mut r = raw::Ainb {
        version,
        output_element_count: *output_element_count,
        file_category: *category_id,
        commands,
        elements: raw_elements,
        file_name,
        file_category_name_text,
        string_pool: raw::StringPool { strings },
        blackboard: Some(blackboard),
        enum_resolve_array: Some(enum_resolve_array),
        attachments: Some(attachments),
        property_table: Some(Default::default()),
        input_output_table: Some(Default::default()),
        multi_inputs: Some(
            multi_inputs
                .iter()
                .map(|m| raw::MultiInputEntry {
                    input_element_id: m.element,
                    input_element_output_plug_id: m.plug,
                    flags: m.flags,
                })
                .collect(),
        ),
        jumps: Some(jumps.iter().map(|&j| raw::Jump { raw: j }).collect()),
        attachment_id_array: Some(Default::default()),
        query_element_id_array: Some(raw::QueryElementIdArray {
            ids_item_order: query_order,
            ids_item_align: None,
        }),
        expression_binary: expressions.as_ref().map(|x| x.to_raw()).transpose()?,
        module_callers: Some(module_callers),
        external_actions: Some(external_actions),
        child_replacement_table,
        section_6c: *section_6c,
        module_caller_link: Some(raw::ModuleCallerLink {
            file_hash: module_link.file_hash,
            parent_file_hash: module_link.parent_file_hash,
        }),
        ..Default::default()
    };
    if let Some(b) = after_last {
        *super::after_params(&r).gap_mut(&mut r) = Some(b);
    }
    if layout.unlinked_replacement_header {
        let gap = super::after_state_info(&r).gap_mut(&mut r);
        if gap.is_some() {
            return Err(bad(
                "layout.unlinked_replacement_header: the last element's trailing words are where the header goes",
            ));
        }
        *gap = Some(Bytes::from_static(&super::UNLINKED_REPLACEMENT_HEADER));
    }
    Ok(r)
}

fn element<'d>(e: &'d Element, i: usize, version: u32, t: &mut Texts<'d>) -> Result<raw::Element> {
    let Element {
        element_type,
        name,
        flags,
        unknown_07,
        unknown_10,
        exb_function_count,
        exb_io_field_size,
        multi_input_count,
        unknown_1e,
        attachments,
        queries,
        state,
        guid,
        properties,
        io,
        plugs,
        trailing: _,
    } = e;
    let mut param = raw::ElementParam {
        s32_properties: props_s32(properties, t),
        bool_properties: props_bool(properties, t),
        float_properties: props_f32(properties, t),
        string_properties: props_string(properties, t),
        vector3f_properties: props_vec3f(properties, t),
        pointer_properties: props_pointer(properties, t),
        ..Default::default()
    };
    io_into(io, &mut param, t);
    for (j, p) in plugs.iter().enumerate() {
        let data =
            plug(p, *element_type, t).map_err(|m| bad(format!("elements[{i}].plugs[{j}]{m}")))?;
        let list = super::plug_lists_mut(&mut param)
            .into_iter()
            .nth(p.kind as usize)
            .ok_or_else(|| {
                bad(format!(
                    "elements[{i}].plugs[{j}].kind: {} is not a plug kind (0-9)",
                    p.kind
                ))
            })?;
        list.push(raw::PlugRef {
            data,
            data_align: None,
        });
    }
    Ok(raw::Element {
        element_type: raw::ElementType::from_value((*element_type).into()),
        element_flags: *flags,
        unknown_07: *unknown_07,
        unknown_10: *unknown_10,
        exb_function_count: *exb_function_count,
        exb_input_output_field_size: *exb_io_field_size,
        multi_input_count: *multi_input_count,
        unknown_1e: *unknown_1e,
        // An empty query range starts at 0, in the files of both Nintendo and the `ainb` package.
        base_query_element_id: queries.is_empty().then_some(0),
        guid: Bytes::copy_from_slice(&guid.0),
        state_info: match state {
            Some(s) if version < 0x407 => Some(raw::StateInfo {
                unknown_04: s.unknown_04,
                unknown_08: s.unknown_08,
                unknown_0c: s.unknown_0c,
                unknown_10: s.unknown_10,
                desired_state_text: t.s(&s.desired_state),
            }),
            _ => None,
        },
        queries: queries
            .iter()
            .map(|q| raw::QueryNodeEntry {
                query_element_id: q.id,
                unknown_02: q.unknown,
            })
            .collect(),
        attachments: attachments.clone(),
        type_name_text: t.s(name),
        param: Some(param),
        ..Default::default()
    })
}

/// A plug's raw data: the extra words its element type and kind take, from the document's [`PlugExtra`]. An error
/// starts with the field it is about (`.name: ...`).
fn plug<'d>(p: &'d Plug, ty: u16, t: &mut Texts<'d>) -> std::result::Result<raw::Plug, String> {
    let mut d = raw::Plug {
        element_id: p.element as u32,
        ..Default::default()
    };
    match &p.name {
        PlugName::Name(n) if p.kind != 3 => d.name_text = Some(t.s(n)),
        PlugName::Index(j) if p.kind == 3 => d.jump_index = Some(*j),
        _ => return Err(".name: jump plugs (kind 3) have an index, other plugs a name".into()),
    }
    let slot = super::plug_slot(p.kind, ty);
    match (slot, &p.extra) {
        (PlugSlot::None, PlugExtra::None) => {}
        (PlugSlot::SelectorS32, PlugExtra::S32 { flags, value }) => {
            d.selector_index_and_flags = Some(*flags);
            d.selector_s32 = Some(*value);
        }
        (PlugSlot::SelectorString, PlugExtra::String { flags, value }) => {
            d.selector_index_and_flags = Some(*flags);
            d.selector_string_text = Some(t.s(value));
        }
        (PlugSlot::SelectorWeight, PlugExtra::F32 { flags, value }) => {
            d.selector_index_and_flags = Some(*flags);
            d.selector_weight = Some(*value);
        }
        (PlugSlot::Conditions, PlugExtra::Conditions(c)) if c.len() == 4 => {
            d.conditions = Some(
                c.iter()
                    .map(|c| raw::F32SelectorConditionEntry {
                        local_blackboard_parameter_index_and_flags: c.flags,
                        condition_value: c.value,
                    })
                    .collect(),
            );
        }
        (PlugSlot::InputS32, PlugExtra::S32 { flags, value }) => {
            d.input_flags = Some(*flags);
            d.input_s32 = Some(*value);
        }
        (PlugSlot::InputString, PlugExtra::String { flags, value }) => {
            d.input_flags = Some(*flags);
            d.input_string_text = Some(t.s(value));
        }
        (PlugSlot::InputWords, PlugExtra::Words(w)) if w.len() == 2 => {
            d.input_flags = Some(w[0]);
            d.input_word = Some(w[1]);
        }
        (slot, _) => {
            return Err(format!(
                ".extra: a plug of kind {} on an element of type {ty} carries {}",
                p.kind,
                slot.takes()
            ))
        }
    }
    Ok(d)
}

fn flags(f: u32) -> raw::PropertyFlags {
    raw::PropertyFlags { index_and_flags: f }
}

fn props_s32<'d>(p: &'d Properties, t: &mut Texts<'d>) -> Vec<raw::PropertyS32> {
    p.s32
        .iter()
        .map(|x| raw::PropertyS32 {
            flags: flags(x.flags),
            immediate_value: x.value,
            name_text: t.s(&x.name),
        })
        .collect()
}

fn props_bool<'d>(p: &'d Properties, t: &mut Texts<'d>) -> Vec<raw::PropertyBool> {
    p.bool
        .iter()
        .map(|x| raw::PropertyBool {
            flags: flags(x.flags),
            immediate_value: x.value.into(),
            name_text: t.s(&x.name),
        })
        .collect()
}

fn props_f32<'d>(p: &'d Properties, t: &mut Texts<'d>) -> Vec<raw::PropertyFloat> {
    p.f32
        .iter()
        .map(|x| raw::PropertyFloat {
            flags: flags(x.flags),
            immediate_value: x.value,
            name_text: t.s(&x.name),
        })
        .collect()
}

fn props_string<'d>(p: &'d Properties, t: &mut Texts<'d>) -> Vec<raw::PropertyString> {
    p.string
        .iter()
        .map(|x| raw::PropertyString {
            flags: flags(x.flags),
            name_text: t.s(&x.name),
            immediate_value_text: t.s(&x.value),
        })
        .collect()
}

fn props_vec3f<'d>(p: &'d Properties, t: &mut Texts<'d>) -> Vec<raw::PropertyVector3f> {
    p.vec3f
        .iter()
        .map(|x| raw::PropertyVector3f {
            flags: flags(x.flags),
            immediate_value: x.value.to_vec(),
            name_text: t.s(&x.name),
        })
        .collect()
}

fn props_pointer<'d>(p: &'d Properties, t: &mut Texts<'d>) -> Vec<raw::PropertyPointer> {
    p.pointer
        .iter()
        .map(|x| raw::PropertyPointer {
            flags: flags(x.flags),
            name_text: t.s(&x.name),
            class_name_text: t.s(&x.class),
        })
        .collect()
}

fn io_into<'d>(io: &'d Io, p: &mut raw::ElementParam, t: &mut Texts<'d>) {
    let Io {
        s32_inputs,
        s32_outputs,
        bool_inputs,
        bool_outputs,
        f32_inputs,
        f32_outputs,
        string_inputs,
        string_outputs,
        vec3f_inputs,
        vec3f_outputs,
        pointer_inputs,
        pointer_outputs,
    } = io;
    let outputs = |v: &'d [Output], t: &mut Texts<'d>| -> Vec<raw::Output> {
        v.iter()
            .map(|o| raw::Output {
                flag: o.flag,
                name_text: t.s(&o.name),
            })
            .collect()
    };
    // One input type: the entries with their typed immediate values, then the outputs.
    macro_rules! typed {
        ($inputs:expr, $raw_in:ident, $ty:ident, |$x:ident| { $($value:tt)* }) => {
            p.$raw_in = $inputs
                .iter()
                .map(|$x| raw::$ty {
                    input_element_id: $x.element,
                    input_element_output_plug_id: $x.plug,
                    flags: flags($x.flags),
                    name_text: t.s(&$x.name),
                    $($value)*
                })
                .collect();
        };
    }
    typed!(s32_inputs, s32_inputs, InputS32, |x| { immediate_value: x.value });
    p.s32_outputs = outputs(s32_outputs, t);
    typed!(bool_inputs, bool_inputs, InputBool, |x| { immediate_value: x.value.into() });
    p.bool_outputs = outputs(bool_outputs, t);
    typed!(f32_inputs, float_inputs, InputFloat, |x| { immediate_value: x.value });
    p.float_outputs = outputs(f32_outputs, t);
    p.string_inputs = string_inputs
        .iter()
        .map(|x| raw::InputString {
            input_element_id: x.element,
            input_element_output_plug_id: x.plug,
            flags: flags(x.flags),
            name_text: t.s(&x.name),
            immediate_value_text: t.s(&x.value),
        })
        .collect();
    p.string_outputs = outputs(string_outputs, t);
    typed!(vec3f_inputs, vector3f_inputs, InputVector3f, |x| { immediate_value: x.value.to_vec() });
    p.vector3f_outputs = outputs(vec3f_outputs, t);
    p.pointer_inputs = pointer_inputs
        .iter()
        .map(|x| raw::InputPointer {
            input_element_id: x.element,
            input_element_output_plug_id: x.plug,
            flags: flags(x.flags),
            unknown_10: x.unknown_10,
            name_text: t.s(&x.name),
            class_name_text: t.s(&x.class),
        })
        .collect();
    p.pointer_outputs = pointer_outputs
        .iter()
        .map(|o| raw::OutputPointer {
            flag: o.flag,
            name_text: t.s(&o.name),
            class_name_text: t.s(&o.class),
        })
        .collect();
}

fn blackboard_of<'d>(b: &'d Blackboard, version: u32, t: &mut Texts<'d>) -> raw::Blackboard {
    let Blackboard {
        string,
        s32,
        u32,
        f32,
        bool,
        vec3f,
        pointer,
        file_references,
    } = b;
    fn params<'d, T>(
        ps: &'d [BlackboardParam<T>],
        t: &mut Texts<'d>,
    ) -> Vec<raw::BlackboardParameter> {
        ps.iter()
            .map(|p| param(&p.name, &p.notes, p.flags, t))
            .collect()
    }
    fn param<'d>(
        name: &'d str,
        notes: &'d str,
        flags: u16,
        t: &mut Texts<'d>,
    ) -> raw::BlackboardParameter {
        raw::BlackboardParameter {
            inherit_mode: u64::from(flags & 3),
            file_reference_index: u64::from(flags >> 2 & 0x7f),
            is_file_reference_valid: flags >> 9 & 1 != 0,
            name_text: t.s(name),
            notes_text: t.s(notes),
        }
    }
    let v408 = version >= 0x408;
    raw::Blackboard {
        string_params: params(string, t),
        s32_params: params(s32, t),
        u32_params: v408.then(|| params(u32, t)),
        f32_params: params(f32, t),
        bool_params: params(bool, t),
        vector3f_params: params(vec3f, t),
        pointer_params: pointer
            .iter()
            .map(|p| param(&p.name, &p.notes, p.flags, t))
            .collect(),
        string_defaults: string
            .iter()
            .map(|p| raw::StringRef {
                text: t.s(&p.default),
            })
            .collect(),
        s32_defaults: s32.iter().map(|p| p.default).collect(),
        u32_defaults: v408.then(|| u32.iter().map(|p| p.default).collect()),
        u32_unknown_06: v408.then_some(0),
        f32_defaults: f32.iter().map(|p| p.default).collect(),
        bool_defaults: bool.iter().map(|p| p.default.into()).collect(),
        vector3f_defaults: vec3f
            .iter()
            .map(|p| raw::Vector3f {
                x: p.default[0],
                y: p.default[1],
                z: p.default[2],
            })
            .collect(),
        file_references: file_references
            .iter()
            .map(|f| raw::FileReferenceEntry {
                file_path: t.s(f),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

/// Checks what a file cannot say, naming the field.
fn validate(doc: &Document) -> Result<()> {
    if ![0x404, 0x407, 0x408].contains(&doc.version) {
        return Err(bad(format!(
            "version: {:#x} is not 0x404, 0x407 or 0x408",
            doc.version
        )));
    }
    if doc.version < 0x408 && !doc.blackboard.u32.is_empty() {
        return Err(bad(
            "blackboard.u32: u32 blackboard parameters need version 0x408",
        ));
    }
    if doc.version >= 0x407 && doc.layout.unlinked_replacement_header {
        return Err(bad(
            "layout.unlinked_replacement_header: only version 0x404 files have one",
        ));
    }
    if doc.version < 0x407 && doc.child_replacement.is_some() {
        return Err(bad(
            "child_replacement: version 0x404 has no child replacement table",
        ));
    }
    let n_el = doc.elements.len();
    let n_att = doc.attachments.len();
    for (i, e) in doc.elements.iter().enumerate() {
        if doc.version >= 0x407 && e.state.is_some() {
            return Err(bad(format!(
                "elements[{i}].state: only version 0x404 has node state info"
            )));
        }
        if let Some(a) = e.attachments.iter().find(|&&a| a as usize >= n_att) {
            return Err(bad(format!(
                "elements[{i}].attachments: attachment {a} does not exist ({n_att} attachments)"
            )));
        }
    }
    for (i, c) in doc.commands.iter().enumerate() {
        if c.main_element as usize >= n_el {
            return Err(bad(format!(
                "commands[{i}].main_element: element {} does not exist",
                c.main_element
            )));
        }
        if c.secondary_element == Some(u16::MAX) {
            return Err(bad(format!(
                "commands[{i}].secondary_element: 65535 cannot be stored (the file adds 1)"
            )));
        }
    }
    let mut seen = vec![false; n_el];
    for &e in &doc.layout.query_order {
        match seen.get_mut(e as usize) {
            Some(s) if !*s => *s = true,
            _ => {
                return Err(bad(format!(
                    "layout.query_order: element {e} is listed twice or does not exist"
                )))
            }
        }
    }
    Ok(())
}
