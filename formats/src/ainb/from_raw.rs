//! The raw model (`raw`, generated from `schemas/ainb.ksy`) to [`Document`]: strings instead of pool texts, typed
//! values, plugs in one list per element, and the few layout choices the document keeps (the string pool's order,
//! the query ranges' order, bytes after an element's parameters, the unlinked child replacement header). It reads
//! no byte: the raw reader found every section and item. Whatever else the raw model holds that the document has
//! no place for (another section order, an alignment, bytes nothing describes elsewhere) is refused by
//! [`super::places::decode`], which checks that the document holds all of the raw model ([`super::holds`], or
//! converting back and comparing), so that nothing is lost.

use super::exb::Exb;
use super::model::*;
use super::raw;
use super::PlugSlot;
use crate::{Error, Result};
use binspec_runtime::{ErrorKind, Str};

/// The six property ranges of `$p`, an element's or an attachment's raw parameters.
macro_rules! property_ranges {
    ($p:expr) => {
        PropertyRanges {
            s32: &$p.s32_properties,
            bool: &$p.bool_properties,
            f32: &$p.float_properties,
            string: &$p.string_properties,
            vec3f: &$p.vector3f_properties,
            pointer: &$p.pointer_properties,
        }
    };
}

/// A value the document cannot take. (The raw model holds no positions, so the error names the value, not an
/// offset.)
fn bad(m: impl Into<String>) -> Error {
    Error::new(ErrorKind::Invalid { message: m.into() }, None)
}

/// What the document may still copy of the file's strings. Each name the document holds is a copy of a pool
/// string, and every entry that holds one (properties, inputs, outputs, elements) is charged [`ENTRY_COST`]
/// besides. Ranges of entries that elements share, and strings used over and over, would otherwise expand a small
/// file without bound (issue 19, item 9); [`COPY_PER_BYTE`] per byte of the file plus [`COPY_BASE`] is far more
/// than files need.
pub(super) struct Strs<'r> {
    left: std::cell::Cell<u64>,
    /// The document's strings, each once: the pool's other strings are the ones nothing refers to.
    refs: std::cell::RefCell<rustc_hash::FxHashSet<&'r str>>,
}

/// What each name the document holds costs, besides its bytes (a `String` and its entry).
const ENTRY_COST: u64 = 32;
/// Bytes of names and entries a document may take per byte of its file ...
const COPY_PER_BYTE: u64 = 16;
/// ... and whatever the file's size.
const COPY_BASE: u64 = 64 << 20;

impl<'r> Strs<'r> {
    pub(super) fn new(file_len: usize) -> Strs<'r> {
        Strs {
            left: std::cell::Cell::new(
                (file_len as u64)
                    .saturating_mul(COPY_PER_BYTE)
                    .saturating_add(COPY_BASE),
            ),
            refs: Default::default(),
        }
    }
    /// A string the raw model read from the pool, as the document's own.
    fn text(&self, s: &'r str) -> Result<Str> {
        let cost = ENTRY_COST + s.len() as u64;
        match self.left.get().checked_sub(cost) {
            Some(left) => self.left.set(left),
            None => {
                return Err(Error::new(
                    ErrorKind::Limit {
                        message: "the document would copy more names than 16 bytes per byte of the file plus 64 \
                                  MiB: entries that elements share, or strings used over and over"
                            .into(),
                    },
                    None,
                ))
            }
        }
        self.refs.borrow_mut().insert(s);
        Ok(Str::from(s))
    }
}

/// The document of the raw model `r`; `shared_tails` is set where a text is the tail of a pool string.
pub(super) fn document<'r>(
    r: &'r raw::Ainb,
    s: &Strs<'r>,
    shared_tails: &mut bool,
) -> Result<Document> {
    let version = r.version;
    if let Some(v) = r.unknown_50 {
        return Err(bad(format!(
            "header word 0x50 is {v:#x}; in every file at hand it equals the jump table offset, and the writer \
             writes it so"
        )));
    }
    if r.unknown_54 != 0 || r.unknown_58 != 0 {
        return Err(bad(
            "header words 0x54 and 0x58 are not 0: the section they point to is not supported yet",
        ));
    }
    let commands = r
        .commands
        .iter()
        .map(|c| {
            Ok(Command {
                name: s.text(&c.name_text)?,
                guid: guid(&c.guid)?,
                main_element: c.main_element_id,
                secondary_element: c.secondary_element_id.checked_sub(1),
            })
        })
        .collect::<Result<Vec<_>>>()?;

    let mut elements = Vec::with_capacity(r.elements.len());
    for (i, e) in r.elements.iter().enumerate() {
        let param = e
            .param
            .as_ref()
            .ok_or_else(|| bad(format!("element {i} has no element param (offset 0)")))?;
        let what = || format!("element {i}");
        // The bytes after the parameters are kept with what follows them (the next element's parameters).
        let trailing = match r.elements.get(i + 1) {
            Some(next) => words(next.param_gap.as_deref(), &what)?,
            None => words(super::after_params(r).gap(r), &what)?,
        };
        elements.push(Element {
            element_type: e.element_type.value() as u16,
            name: s.text(&e.type_name_text)?,
            flags: e.element_flags,
            unknown_07: e.unknown_07,
            unknown_10: e.unknown_10,
            exb_function_count: e.exb_function_count,
            exb_io_field_size: e.exb_input_output_field_size,
            multi_input_count: e.multi_input_count,
            unknown_1e: e.unknown_1e,
            attachments: e.attachments.clone(),
            queries: e
                .queries
                .iter()
                .map(|q| QueryRef {
                    id: q.query_element_id,
                    unknown: q.unknown_02,
                })
                .collect(),
            state: match &e.state_info {
                Some(x) => Some(StateInfo {
                    desired_state: s.text(&x.desired_state_text)?,
                    unknown_04: x.unknown_04,
                    unknown_08: x.unknown_08,
                    unknown_0c: x.unknown_0c,
                    unknown_10: x.unknown_10,
                }),
                None => None,
            },
            guid: guid(&e.guid)?,
            properties: properties(property_ranges!(param), s, &what)?,
            io: io_of(param, s, &what)?,
            plugs: plugs(param, e.element_type.value() as u16, s, &what)?,
            trailing,
        });
    }
    // The query ranges in the array's order, where it is not the elements' (indices among the non-empty ranges).
    let query_order = match r
        .query_element_id_array
        .as_ref()
        .and_then(|q| q.ids_item_order.as_ref())
    {
        None => Vec::new(),
        Some(order) => {
            let non_empty: Vec<u32> = (0..elements.len() as u32)
                .filter(|&i| !elements[i as usize].queries.is_empty())
                .collect();
            order
                .iter()
                .map(|&k| {
                    non_empty.get(k as usize).copied().ok_or_else(|| {
                        bad(format!("query range {k} of the kept order does not exist"))
                    })
                })
                .collect::<Result<_>>()?
        }
    };

    let blackboard = blackboard(r, s)?;
    let mut attachments = Vec::new();
    for (k, a) in r.attachments.iter().flatten().enumerate() {
        let param = a
            .param
            .as_ref()
            .ok_or_else(|| bad(format!("attachment {k} has no parameter entry")))?;
        let what = || format!("attachment {k}");
        let u = &param.unknown_01;
        if u.len() != 3 {
            return Err(bad(format!("attachment {k}'s unknown_01 is not 3 bytes")));
        }
        attachments.push(Attachment {
            name: s.text(&a.name_text)?,
            exb_function_count: a.exb_function_count,
            exb_io_field_size: a.exb_input_output_field_size,
            unknown: param.unknown,
            unknown_01: [u[0], u[1], u[2]],
            properties: properties(property_ranges!(param), s, &what)?,
        });
    }
    let expressions = r
        .expression_binary
        .as_ref()
        .map(Exb::from_raw)
        .transpose()?;
    let modules = r
        .module_callers
        .iter()
        .flat_map(|m| &m.entries)
        .map(|m| {
            Ok(Module {
                path: s.text(&m.file_path)?,
                category: s.text(&m.file_category)?,
                count: m.ainb_file_count,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let external_actions = r
        .external_actions
        .iter()
        .flat_map(|m| &m.entries)
        .map(|a| {
            Ok(ExternalAction {
                element: a.node_index,
                slot: s.text(&a.string_1)?,
                state: s.text(&a.state_name)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let module_link = r
        .module_caller_link
        .as_ref()
        .map(|l| ModuleLink {
            file_hash: l.file_hash,
            parent_file_hash: l.parent_file_hash,
        })
        .ok_or_else(|| bad("the module caller link offset is 0, which no file at hand has"))?;
    let child_replacement = r
        .child_replacement_table
        .as_ref()
        .map(|t| ChildReplacement {
            initialization_guard: t.initialization_guard,
            unknown_01: t.unknown_01,
            override_element_count: t.override_element_count,
            override_attachment_parameter_count: t.override_attachment_parameter_count,
            entries: t
                .entries
                .iter()
                .map(|x| Replacement {
                    kind: x.replacement_type_enum,
                    unknown_01: x.unknown_01,
                    element: x.element_id,
                    child: x.child_element_id,
                    new_element: x.new_element_id,
                })
                .collect(),
        });
    // Splatoon 3's 0x404 files carry an empty child replacement header after the module link and the state info
    // that the file header does not point to: the bytes before what follows.
    let unlinked_replacement_header = version < 0x407
        && child_replacement.is_none()
        && super::after_state_info(r).gap(r) == Some(&super::UNLINKED_REPLACEMENT_HEADER[..]);
    let enum_resolves = r
        .enum_resolve_array
        .iter()
        .flat_map(|a| &a.entries)
        .map(|x| {
            Ok(EnumResolve {
                value_offset: x.enum_value_offset,
                class: s.text(&x.enum_class_name)?,
                value: s.text(&x.enum_value_name)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;

    let file_name = s.text(&r.file_name)?;
    let category = s.text(&r.file_category_name_text)?;
    let strings = r.string_pool.strings.clone();
    let refs = s.refs.borrow();
    let unreferenced_strings = strings
        .iter()
        .filter(|x| !refs.contains(x.as_str()))
        .cloned()
        .collect();
    // A text read through an offset into the middle of a pool string (sharing its tail) is no string of the pool:
    // the writer adds it as one, which [`super::places::decode`] records.
    let pool: rustc_hash::FxHashSet<&str> = strings.iter().map(String::as_str).collect();
    *shared_tails = refs.iter().any(|x| !pool.contains(x));
    Ok(Document {
        version,
        file_name,
        category,
        category_id: r.file_category,
        output_element_count: r.output_element_count,
        commands,
        elements,
        blackboard,
        attachments,
        multi_inputs: r
            .multi_inputs
            .iter()
            .flatten()
            .map(|m| MultiInput {
                element: m.input_element_id,
                plug: m.input_element_output_plug_id,
                flags: m.flags,
            })
            .collect(),
        jumps: r.jumps.iter().flatten().map(|j| j.raw).collect(),
        expressions,
        modules,
        external_actions,
        module_link,
        child_replacement,
        section_6c: r.section_6c,
        enum_resolves,
        layout: Layout {
            strings,
            unreferenced_strings,
            query_order,
            unlinked_replacement_header,
        },
    })
}

/// Bytes nothing describes, as whole little-endian words.
fn words(b: Option<&[u8]>, what: &dyn Fn() -> String) -> Result<Vec<u32>> {
    let Some(b) = b else { return Ok(Vec::new()) };
    if b.len() % 4 != 0 {
        return Err(bad(format!(
            "{}: {} bytes after its parameters that nothing describes, not whole words",
            what(),
            b.len()
        )));
    }
    Ok(b.chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect())
}

fn guid(b: &[u8]) -> Result<Guid> {
    let g: [u8; 16] = b.try_into().map_err(|_| bad("a GUID is not 16 bytes"))?;
    Ok(Guid(g))
}

fn boolean(v: u32, what: &dyn Fn() -> String) -> Result<bool> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(bad(format!(
            "{}: a bool value is {v}, neither 0 nor 1",
            what()
        ))),
    }
}

fn vec3(v: &[f32], what: &dyn Fn() -> String) -> Result<[f32; 3]> {
    v.try_into().map_err(|_| {
        bad(format!(
            "{}: a vector3f value has {} components",
            what(),
            v.len()
        ))
    })
}

/// The six property ranges of an element's or an attachment's parameters, as the raw model holds them.
struct PropertyRanges<'r> {
    s32: &'r [raw::PropertyS32],
    bool: &'r [raw::PropertyBool],
    f32: &'r [raw::PropertyFloat],
    string: &'r [raw::PropertyString],
    vec3f: &'r [raw::PropertyVector3f],
    pointer: &'r [raw::PropertyPointer],
}

fn properties<'r>(
    r: PropertyRanges<'r>,
    s: &Strs<'r>,
    what: &dyn Fn() -> String,
) -> Result<Properties> {
    let mut p = Properties::default();
    for x in r.s32 {
        p.s32.push(Property {
            name: s.text(&x.name_text)?,
            flags: x.flags.index_and_flags,
            value: x.immediate_value,
        });
    }
    for x in r.bool {
        p.bool.push(Property {
            name: s.text(&x.name_text)?,
            flags: x.flags.index_and_flags,
            value: boolean(x.immediate_value, what)?,
        });
    }
    for x in r.f32 {
        p.f32.push(Property {
            name: s.text(&x.name_text)?,
            flags: x.flags.index_and_flags,
            value: x.immediate_value,
        });
    }
    for x in r.string {
        p.string.push(Property {
            name: s.text(&x.name_text)?,
            flags: x.flags.index_and_flags,
            value: s.text(&x.immediate_value_text)?,
        });
    }
    for x in r.vec3f {
        p.vec3f.push(Property {
            name: s.text(&x.name_text)?,
            flags: x.flags.index_and_flags,
            value: vec3(&x.immediate_value, what)?,
        });
    }
    for x in r.pointer {
        p.pointer.push(PointerProperty {
            name: s.text(&x.name_text)?,
            class: s.text(&x.class_name_text)?,
            flags: x.flags.index_and_flags,
        });
    }
    Ok(p)
}

fn io_of<'r>(p: &'r raw::ElementParam, s: &Strs<'r>, what: &dyn Fn() -> String) -> Result<Io> {
    let out = |v: &'r [raw::Output]| -> Result<Vec<Output>> {
        v.iter()
            .map(|o| {
                Ok(Output {
                    name: s.text(&o.name_text)?,
                    flag: o.flag,
                })
            })
            .collect()
    };
    let mut io = Io::default();
    // One input type: the parameters' range of the table's array, each entry with its typed immediate value, then
    // the outputs.
    macro_rules! typed {
        ($inputs:ident, $outputs:ident, $raw_in:ident, $raw_out:ident, |$x:ident| $value:expr) => {
            for $x in &p.$raw_in {
                io.$inputs.push(Input {
                    name: s.text(&$x.name_text)?,
                    element: $x.input_element_id,
                    plug: $x.input_element_output_plug_id,
                    flags: $x.flags.index_and_flags,
                    value: $value,
                });
            }
            io.$outputs = out(&p.$raw_out)?;
        };
    }
    typed!(s32_inputs, s32_outputs, s32_inputs, s32_outputs, |x| x
        .immediate_value);
    typed!(bool_inputs, bool_outputs, bool_inputs, bool_outputs, |x| {
        boolean(x.immediate_value, what)?
    });
    typed!(f32_inputs, f32_outputs, float_inputs, float_outputs, |x| x
        .immediate_value);
    typed!(
        string_inputs,
        string_outputs,
        string_inputs,
        string_outputs,
        |x| s.text(&x.immediate_value_text)?
    );
    typed!(
        vec3f_inputs,
        vec3f_outputs,
        vector3f_inputs,
        vector3f_outputs,
        |x| vec3(&x.immediate_value, what)?
    );
    for x in &p.pointer_inputs {
        io.pointer_inputs.push(PointerInput {
            name: s.text(&x.name_text)?,
            class: s.text(&x.class_name_text)?,
            element: x.input_element_id,
            plug: x.input_element_output_plug_id,
            flags: x.flags.index_and_flags,
            unknown_10: x.unknown_10,
        });
    }
    for o in &p.pointer_outputs {
        io.pointer_outputs.push(PointerOutput {
            name: s.text(&o.name_text)?,
            flag: o.flag,
            class: s.text(&o.class_name_text)?,
        });
    }
    Ok(io)
}

/// An element parameter's plugs, kind by kind (the pointer array's order; another order is a layout choice the
/// document does not keep, refused where the document is compared with the raw model).
fn plugs<'r>(
    p: &'r raw::ElementParam,
    ty: u16,
    s: &Strs<'r>,
    what: &dyn Fn() -> String,
) -> Result<Vec<Plug>> {
    let mut out = Vec::new();
    for (kind, list) in super::plug_lists(p).into_iter().enumerate() {
        for x in list {
            let d = &x.data;
            let name = match (&d.name_text, d.jump_index) {
                (Some(n), None) => PlugName::Name(s.text(n)?),
                (None, Some(j)) => PlugName::Index(j),
                _ => {
                    return Err(bad(format!(
                        "{}: a plug of kind {kind} has no name or jump index",
                        what()
                    )))
                }
            };
            let extra = match super::plug_slot(kind as u8, ty) {
                PlugSlot::None => PlugExtra::None,
                PlugSlot::SelectorS32 => PlugExtra::S32 {
                    flags: d.selector_index_and_flags.unwrap_or_default(),
                    value: d.selector_s32.unwrap_or_default(),
                },
                PlugSlot::SelectorString => PlugExtra::String {
                    flags: d.selector_index_and_flags.unwrap_or_default(),
                    value: s.text(d.selector_string_text.as_deref().unwrap_or_default())?,
                },
                PlugSlot::SelectorWeight => PlugExtra::F32 {
                    flags: d.selector_index_and_flags.unwrap_or_default(),
                    value: d.selector_weight.unwrap_or_default(),
                },
                PlugSlot::Conditions => PlugExtra::Conditions(
                    d.conditions
                        .iter()
                        .flatten()
                        .map(|c| Condition {
                            flags: c.local_blackboard_parameter_index_and_flags,
                            value: c.condition_value,
                        })
                        .collect(),
                ),
                PlugSlot::InputS32 => PlugExtra::S32 {
                    flags: d.input_flags.unwrap_or_default(),
                    value: d.input_s32.unwrap_or_default(),
                },
                PlugSlot::InputString => PlugExtra::String {
                    flags: d.input_flags.unwrap_or_default(),
                    value: s.text(d.input_string_text.as_deref().unwrap_or_default())?,
                },
                PlugSlot::InputWords => PlugExtra::Words(vec![
                    d.input_flags.unwrap_or_default(),
                    d.input_word.unwrap_or_default(),
                ]),
            };
            out.push(Plug {
                kind: kind as u8,
                element: d.element_id as i32,
                name,
                extra,
            });
        }
    }
    Ok(out)
}

fn blackboard<'r>(r: &'r raw::Ainb, s: &Strs<'r>) -> Result<Blackboard> {
    let Some(b) = &r.blackboard else {
        return Err(bad("the blackboard offset is 0, which no file at hand has"));
    };
    let v408 = r.version >= 0x408;
    let params_of = |ps: &'r [raw::BlackboardParameter]| -> Result<Vec<(Str, Str, u16)>> {
        ps.iter()
            .map(|p| {
                Ok((
                    s.text(&p.name_text)?,
                    s.text(&p.notes_text)?,
                    // Bit fields of 2 and 7 bits (u64 in the model): they fit.
                    (p.inherit_mode
                        | p.file_reference_index << 2
                        | u64::from(p.is_file_reference_valid) << 9) as u16,
                ))
            })
            .collect()
    };
    fn with<T: Clone>(p: Vec<(Str, Str, u16)>, d: &[T]) -> Vec<BlackboardParam<T>> {
        p.into_iter()
            .zip(d)
            .map(|((name, notes, flags), v)| BlackboardParam {
                name,
                notes,
                flags,
                default: v.clone(),
            })
            .collect()
    }
    let what = || "a blackboard bool default".to_string();
    let bools: Vec<bool> = b
        .bool_defaults
        .iter()
        .map(|&v| boolean(v, &what))
        .collect::<Result<_>>()?;
    let vecs: Vec<[f32; 3]> = b
        .vector3f_defaults
        .iter()
        .map(|v| [v.x, v.y, v.z])
        .collect();
    let strings: Vec<Str> = b
        .string_defaults
        .iter()
        .map(|x| s.text(&x.text))
        .collect::<Result<_>>()?;
    Ok(Blackboard {
        string: with(params_of(&b.string_params)?, &strings),
        s32: with(params_of(&b.s32_params)?, &b.s32_defaults),
        u32: if v408 {
            with(
                params_of(b.u32_params.as_deref().unwrap_or(&[]))?,
                b.u32_defaults.as_deref().unwrap_or(&[]),
            )
        } else {
            Vec::new()
        },
        f32: with(params_of(&b.f32_params)?, &b.f32_defaults),
        bool: with(params_of(&b.bool_params)?, &bools),
        vec3f: with(params_of(&b.vector3f_params)?, &vecs),
        pointer: params_of(&b.pointer_params)?
            .into_iter()
            .map(|(name, notes, flags)| BlackboardPointer { name, notes, flags })
            .collect(),
        file_references: b
            .file_references
            .iter()
            .map(|f| s.text(&f.file_path))
            .collect::<Result<_>>()?,
    })
}
