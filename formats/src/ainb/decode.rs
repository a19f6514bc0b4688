//! Bytes to [`Document`]: the raw reader (`raw`, generated from `schemas/ainb.ksy`) follows the header's offsets;
//! this turns what it read into the document, resolving strings and ranges, and reads what the raw view leaves as
//! offsets (plug data, state info, the EXB).

use super::bytes::at;
use super::exb::Exb;
use super::model::*;
use super::raw;
use crate::{Error, Format, Result};

/// The six property ranges of `$p`, an element's or an attachment's parameters.
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

/// The size of the fixed part of an element param: property, input/output and plug entries.
pub(crate) const PARAM_HEADER: usize = 0x30 + 0x60 + 0x14;
/// The size of an attachment param.
pub(crate) const ATTACHMENT_PARAM: usize = 0x64;

fn bad(o: usize, m: impl Into<String>) -> Error {
    Error::invalid(o as u64, m.into())
}

/// The string pool, and what the decoded document may still take of it.
struct Strs<'a> {
    pool: &'a [u8],
    base: usize,
    /// Bytes left to copy: each name the document holds is a copy of a pool string, and every entry that holds
    /// one (properties, inputs, outputs, elements) is charged [`ENTRY_COST`] besides. Ranges of entries that
    /// elements share, and strings used over and over, would otherwise expand a small file without bound
    /// (issue 19, item 9); [`COPY_PER_BYTE`] per byte of the file plus [`COPY_BASE`] is far more than files need.
    left: std::cell::Cell<u64>,
    /// The document's strings, each once, with the order in which it was first read: the pool's other strings
    /// are the ones nothing refers to ([`unreferenced`]).
    refs: std::cell::RefCell<rustc_hash::FxHashMap<String, usize>>,
}

/// What each name the document holds costs, besides its bytes (a `String` and its entry).
const ENTRY_COST: u64 = 32;
/// Bytes of names and entries a document may take per byte of its file ...
const COPY_PER_BYTE: u64 = 16;
/// ... and whatever the file's size.
const COPY_BASE: u64 = 64 << 20;

impl Strs<'_> {
    fn get(&self, o: u32) -> Result<String> {
        let s = at::string(self.pool, o as usize, self.base)?;
        self.charge(s.len(), (self.base + o as usize) as u64)?;
        self.note(&s);
        Ok(s)
    }
    /// A string the raw model read from the pool (an interned text field), charged as [`Strs::get`] charges.
    fn text(&self, s: &str) -> Result<String> {
        self.charge(s.len(), self.base as u64)?;
        self.note(s);
        Ok(s.to_owned())
    }
    /// Notes that the document refers to `s` (kept once, however often it is read).
    fn note(&self, s: &str) {
        let mut refs = self.refs.borrow_mut();
        if !refs.contains_key(s) {
            let n = refs.len();
            refs.insert(s.to_owned(), n);
        }
    }
    fn charge(&self, len: usize, at: u64) -> Result<()> {
        let cost = ENTRY_COST + len as u64;
        match self.left.get().checked_sub(cost) {
            Some(left) => self.left.set(left),
            None => {
                return Err(Error::limit(
                    at,
                    "the document would copy more names than 16 bytes per byte of the file plus 64 MiB: entries \
                     that elements share, or strings used over and over",
                ))
            }
        }
        Ok(())
    }
}

/// The header's section offsets, as the file has them: the raw model derives them (the sections are items of
/// its `ainb_sections` region), and the document still finds the bytes it reads itself through them.
struct Offsets {
    blackboard_ofs: u32,
    string_pool_ofs: u32,
    enum_relocation_array_ofs: u32,
    property_table_ofs: u32,
    jump_table_ofs: u32,
    attachment_array_ofs: u32,
    attachment_id_array_ofs: u32,
    expression_binary_ofs: u32,
    child_replacement_table_ofs: u32,
    query_element_id_array_ofs: u32,
    module_caller_array_ofs: u32,
    unknown_6c: u32,
    module_caller_link_ofs: u32,
}

impl Offsets {
    /// Element `i`'s word at `at` (its offset in the 0x407 layout), as the file has it: the raw model derives the
    /// element's parameter and state info offsets.
    fn element_u32(data: &[u8], commands: usize, version: u32, i: usize, at: usize) -> Result<u32> {
        let o = super::element_at(version, commands as u64, i as u64)
            + super::element_field(version, at as u64);
        at::u32(data, o as usize, 0)
    }
    /// Attachment `k`'s parameter offset (at 4), as the file has it.
    fn attachment_param(&self, data: &[u8], version: u32, k: usize) -> Result<u32> {
        let size = if version >= 0x407 { 0x10 } else { 0xc };
        at::u32(data, self.attachment_array_ofs as usize + size * k + 4, 0)
    }
    fn read(data: &[u8]) -> Result<Self> {
        Ok(Self {
            blackboard_ofs: at::u32(data, 0x20, 0)?,
            string_pool_ofs: at::u32(data, 0x24, 0)?,
            enum_relocation_array_ofs: at::u32(data, 0x28, 0)?,
            property_table_ofs: at::u32(data, 0x2c, 0)?,
            jump_table_ofs: at::u32(data, 0x30, 0)?,
            attachment_array_ofs: at::u32(data, 0x3c, 0)?,
            attachment_id_array_ofs: at::u32(data, 0x40, 0)?,
            expression_binary_ofs: at::u32(data, 0x44, 0)?,
            child_replacement_table_ofs: at::u32(data, 0x48, 0)?,
            query_element_id_array_ofs: at::u32(data, 0x4c, 0)?,
            module_caller_array_ofs: at::u32(data, 0x5c, 0)?,
            unknown_6c: at::u32(data, 0x6c, 0)?,
            module_caller_link_ofs: at::u32(data, 0x70, 0)?,
        })
    }
}

pub(crate) fn decode(data: &[u8]) -> Result<Document> {
    let r = raw::Ainb::from_binary(data)?;
    let h = Offsets::read(data)?;
    let version = r.version;
    let pool_ofs = h.string_pool_ofs as usize;
    let pool = data
        .get(pool_ofs..)
        .ok_or_else(|| bad(0x24, "the string pool offset is past the end of the file"))?;
    let strs = Strs {
        pool,
        base: pool_ofs,
        left: std::cell::Cell::new(
            (data.len() as u64)
                .saturating_mul(COPY_PER_BYTE)
                .saturating_add(COPY_BASE),
        ),
        // The file's name and category, read by the raw reader, come first (the writer writes them first).
        refs: Default::default(),
    };
    strs.note(&r.file_name);
    strs.note(&r.file_category_name_text);

    // The raw model derives it from the jump table offset, and keeps it only where the file differs.
    if let Some(v) = r.unknown_50 {
        return Err(bad(0x50, format!(
            "header word 0x50 is {v:#x}; in every file at hand it equals the jump table offset ({:#x}), and the writer \
             writes it so",
            h.jump_table_ofs
        )));
    }
    if r.unknown_54 != 0 || r.unknown_58 != 0 {
        return Err(bad(
            0x54,
            "header words 0x54 and 0x58 are not 0: the section they point to is not supported yet",
        ));
    }

    let commands = r
        .commands
        .iter()
        .map(|c| {
            Ok(Command {
                name: strs.text(&c.name_text)?,
                guid: guid(&c.guid),
                main_element: c.main_element_id,
                secondary_element: c.secondary_element_id.checked_sub(1),
            })
        })
        .collect::<Result<Vec<_>>>()?;

    // Where the element param region ends: the first section after it.
    let region_end = [
        h.attachment_id_array_ofs,
        h.attachment_array_ofs,
        h.property_table_ofs,
    ]
    .into_iter()
    .filter(|&o| o != 0)
    .min()
    .unwrap_or(h.string_pool_ofs) as usize;
    let element_params = (0..r.elements.len())
        .map(|i| Offsets::element_u32(data, r.commands.len(), version, i, 0x14))
        .collect::<Result<Vec<u32>>>()?;
    let mut param_starts: Vec<usize> = element_params
        .iter()
        .map(|&p| p as usize)
        .filter(|&p| p != 0)
        .collect();
    param_starts.sort_unstable();

    let mut elements = Vec::with_capacity(r.elements.len());
    let mut query_ranges: Vec<(u16, u32)> = Vec::new();
    for (i, e) in r.elements.iter().enumerate() {
        let eo = super::element_at(version, r.commands.len() as u64, i as u64) as usize;
        if let Some(id) = e.element_id {
            return Err(bad(eo + 2, format!("element {i} says it is element {id}")));
        }
        let attachments = e.attachments.clone();
        let queries = e
            .queries
            .iter()
            .map(|q| QueryRef {
                id: q.query_element_id,
                unknown: q.unknown_02,
            })
            .collect::<Vec<_>>();
        if !queries.is_empty() {
            // The base index as the file has it (the raw model derives it): the writer needs the ranges to tile
            // the array (checked below).
            let base = Offsets::element_u32(data, r.commands.len(), version, i, 0x24)? as u16;
            query_ranges.push((base, i as u32));
        }
        let state_ofs = Offsets::element_u32(data, r.commands.len(), version, i, 0x28)?;
        let state = match &e.state_info {
            _ if state_ofs != 0 && version >= 0x407 => {
                return Err(bad(
                    eo + 0x28,
                    format!("element {i} has a state info offset ({state_ofs:#x}), which only version 0x404 has"),
                ))
            }
            Some(x) => Some(StateInfo {
                desired_state: strs.text(&x.desired_state_text)?,
                unknown_04: x.unknown_04,
                unknown_08: x.unknown_08,
                unknown_0c: x.unknown_0c,
                unknown_10: x.unknown_10,
            }),
            None => None,
        };
        let p = element_params[i] as usize;
        let param = e
            .param
            .as_ref()
            .ok_or_else(|| bad(eo, format!("element {i} has no element param (offset 0)")))?;
        // (The starts are sorted: a binary search, not a scan per element.)
        let end = param_starts
            .get(param_starts.partition_point(|&q| q <= p))
            .copied()
            .unwrap_or(region_end);
        let properties = properties(property_ranges!(param), &strs, &|| {
            format!("element {i}'s properties")
        })?;
        let el_io = io_of(param, &strs, i)?;
        let (plugs, trailing) =
            plugs(data, e.element_type.value() as u16, p, end, param, &strs, i)?;
        elements.push(Element {
            element_type: e.element_type.value() as u16,
            name: strs.text(&e.type_name_text)?,
            flags: e.element_flags,
            unknown_07: e.unknown_07,
            unknown_10: e.unknown_10,
            exb_function_count: e.exb_function_count,
            exb_io_field_size: e.exb_input_output_field_size,
            multi_input_count: e.multi_input_count,
            unknown_1e: e.unknown_1e,
            attachments,
            queries,
            state,
            guid: guid(&e.guid),
            properties,
            io: el_io,
            plugs,
            trailing,
        });
    }
    // The query element id array: each element's range, in some order; the writer needs the ranges to tile it.
    query_ranges.sort_unstable();
    let mut next = 0u32;
    for &(base, el) in &query_ranges {
        if base as u32 != next {
            return Err(bad(
                h.query_element_id_array_ofs as usize,
                format!(
                    "element {el}'s queries start at entry {base} of the query element id array, where the ranges \
                     before it end at {next}: ranges that overlap or leave gaps are not supported"
                ),
            ));
        }
        next += elements[el as usize].queries.len() as u32;
    }
    let query_order: Vec<u32> = query_ranges.iter().map(|&(_, el)| el).collect();
    let in_element_order = query_order.windows(2).all(|w| w[0] < w[1]);

    let blackboard = blackboard(&r, &strs, h.blackboard_ofs as usize)?;

    let mut attachments = Vec::new();
    for (k, a) in r.attachments.iter().flatten().enumerate() {
        let po = h.attachment_param(data, version, k)? as usize;
        let param = a
            .param
            .as_ref()
            .ok_or_else(|| bad(po, format!("attachment {k} has no parameter entry")))?;
        // The 0x30 bytes after the property entries: six (0, end of this param) pairs in every file at hand.
        for j in 0..12 {
            let w = at::u32(data, po + 0x34 + 4 * j, 0)?;
            let want = if j % 2 == 0 {
                0
            } else {
                (po + ATTACHMENT_PARAM) as u32
            };
            if w != want {
                return Err(bad(po + 0x34 + 4 * j, format!(
                    "attachment {k}'s parameter entry has {w:#x} at +{:#x}, where this reader knows only {want:#x} \
                     (six pairs of 0 and the entry's end)",
                    0x34 + 4 * j
                )));
            }
        }
        attachments.push(Attachment {
            name: strs.text(&a.name_text)?,
            exb_function_count: a.exb_function_count,
            exb_io_field_size: a.exb_input_output_field_size,
            unknown: param.unknown,
            unknown_01: [
                param.unknown_01[0],
                param.unknown_01[1],
                param.unknown_01[2],
            ],
            properties: properties(property_ranges!(param), &strs, &|| {
                format!("attachment {k}'s properties")
            })?,
        });
    }

    let expressions = if h.expression_binary_ofs != 0 {
        let (a, b) = (
            h.expression_binary_ofs as usize,
            h.module_caller_array_ofs as usize,
        );
        if b <= a || b > data.len() {
            return Err(bad(
                0x44,
                "the EXB section does not end before the module caller array",
            ));
        }
        Some(Exb::decode(&data[a..b], a)?)
    } else {
        None
    };

    let modules = r
        .module_callers
        .iter()
        .flat_map(|m| &m.entries)
        .map(|m| {
            Ok(Module {
                path: strs.text(&m.file_path)?,
                category: strs.text(&m.file_category)?,
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
                slot: strs.text(&a.string_1)?,
                state: strs.text(&a.state_name)?,
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
        .ok_or_else(|| {
            bad(
                0x70,
                "the module caller link offset is 0, which no file at hand has",
            )
        })?;
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
    // Splatoon 3's 0x404 files carry an empty child replacement header after the module link (and the state info)
    // that the file header does not point to.
    let n_states = elements.iter().filter(|e| e.state.is_some()).count();
    let unlinked_at = h.module_caller_link_ofs as usize + 8 + 0x14 * n_states;
    let after = [h.unknown_6c, h.enum_relocation_array_ofs, h.string_pool_ofs]
        .into_iter()
        .find(|&o| o != 0)
        .unwrap_or(0) as usize;
    let unlinked_replacement_header = version < 0x407
        && h.child_replacement_table_ofs == 0
        && after == unlinked_at + 8
        && data.get(unlinked_at..after) == Some(&[0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff][..]);

    let enum_resolves = r
        .enum_resolve_array
        .iter()
        .flat_map(|a| &a.entries)
        .map(|x| {
            Ok(EnumResolve {
                value_offset: x.enum_value_offset,
                class: strs.text(&x.enum_class_name)?,
                value: strs.text(&x.enum_value_name)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;

    let mut doc = Document {
        version,
        file_name: r.file_name.to_string(),
        category: r.file_category_name_text.to_string(),
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
            strings: at::pool_strings(pool, pool_ofs)?,
            query_order: if in_element_order {
                Vec::new()
            } else {
                query_order
            },
            unlinked_replacement_header,
            unreferenced_strings: Vec::new(),
        },
    };
    let (unreferenced, shared_tails) = unreferenced(&doc.layout.strings, strs.refs.take());
    doc.layout.unreferenced_strings = unreferenced;
    // A string the file refers to that is not one of the pool's strings (an offset into the middle of one, which
    // shares its tail) is written as a string of its own: record it so the value is what the writer makes.
    doc.layout.strings.extend(shared_tails);
    Ok(doc)
}

/// The pool's strings (`strings`) that none of the document's strings (`refs`, each with the order it was first
/// read in) is equal to, compared by value as the writer sees strings; and the strings of `refs` that are not among
/// the pool's strings (read through an offset into the middle of one, sharing its tail), in the order they were
/// first read. (The writer's view, `encode::used_strings`, is a whole run of the writer; this is the same from the
/// strings read.)
fn unreferenced(
    strings: &[String],
    refs: rustc_hash::FxHashMap<String, usize>,
) -> (Vec<String>, Vec<String>) {
    let in_pool: std::collections::HashSet<&str> = strings.iter().map(String::as_str).collect();
    let unreferenced = strings
        .iter()
        .filter(|s| !refs.contains_key(s.as_str()))
        .cloned()
        .collect();
    let mut tails: Vec<(usize, String)> = refs
        .into_iter()
        .filter(|(s, _)| !in_pool.contains(s.as_str()))
        .map(|(s, n)| (n, s))
        .collect();
    tails.sort_unstable_by_key(|(n, _)| *n);
    (unreferenced, tails.into_iter().map(|(_, s)| s).collect())
}

fn guid(b: &[u8]) -> Guid {
    let mut g = [0u8; 16];
    g.copy_from_slice(&b[..16]);
    Guid(g)
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

fn properties(r: PropertyRanges<'_>, s: &Strs, what: &dyn Fn() -> String) -> Result<Properties> {
    let str_prop = |name: &str, flags: &raw::PropertyFlags| -> Result<(String, u32)> {
        Ok((s.text(name)?, flags.index_and_flags))
    };
    let mut p = Properties::default();
    for x in r.s32 {
        let (name, flags) = str_prop(&x.name_text, &x.flags)?;
        p.s32.push(Property {
            name,
            flags,
            value: x.immediate_value,
        });
    }
    for x in r.bool {
        let (name, flags) = str_prop(&x.name_text, &x.flags)?;
        p.bool.push(Property {
            name,
            flags,
            value: boolean(x.immediate_value, what)?,
        });
    }
    for x in r.f32 {
        let (name, flags) = str_prop(&x.name_text, &x.flags)?;
        p.f32.push(Property {
            name,
            flags,
            value: x.immediate_value,
        });
    }
    for x in r.string {
        let (name, flags) = str_prop(&x.name_text, &x.flags)?;
        p.string.push(Property {
            name,
            flags,
            value: s.text(&x.immediate_value_text)?,
        });
    }
    for x in r.vec3f {
        let (name, flags) = str_prop(&x.name_text, &x.flags)?;
        p.vec3f.push(Property {
            name,
            flags,
            value: vec3(&x.immediate_value),
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

fn boolean(v: u32, what: &dyn Fn() -> String) -> Result<bool> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(bad(
            0,
            format!("{}: a bool value is {v}, neither 0 nor 1", what()),
        )),
    }
}

fn vec3(v: &[f32]) -> [f32; 3] {
    [v[0], v[1], v[2]]
}

fn io_of(p: &raw::ElementParam, s: &Strs, el: usize) -> Result<Io> {
    let out = |v: &[raw::Output]| -> Result<Vec<Output>> {
        v.iter()
            .map(|o| {
                Ok(Output {
                    name: s.text(&o.name_text)?,
                    flag: o.flag,
                })
            })
            .collect()
    };
    let what = || format!("element {el}'s inputs");
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
        boolean(x.immediate_value, &what)?
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
        |x| { vec3(&x.immediate_value) }
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

/// Which extra layout a plug of `kind` on an element of `ty` has when it is `size` bytes.
pub(crate) fn plug_shape(kind: u8, ty: u16, size: usize) -> Shape {
    match (size, kind, ty) {
        (8, _, _) => Shape::None,
        (40, 2, 4) => Shape::Conditions,
        (16, 2, 1) | (16, 5, 1) | (16, 5, 20) => Shape::S32,
        (16, 2, 6) => Shape::F32,
        (16, 2, 5) | (16, 4, 5) | (16, 4, 20) => Shape::String,
        _ => Shape::Words,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    None,
    Conditions,
    S32,
    F32,
    String,
    Words,
}

fn plugs(
    data: &[u8],
    ty: u16,
    p: usize,
    end: usize,
    param: &raw::ElementParam,
    s: &Strs,
    el: usize,
) -> Result<(Vec<Plug>, Vec<u32>)> {
    // The plugs of each kind, in kind order: the pointer array holds them so (its order is a layout choice the
    // raw model keeps, and the document's writer places kinds in order).
    if param.plug_pointers_order.is_some() {
        return Err(bad(
            p + PARAM_HEADER,
            format!("element {el}'s plug kinds are not in kind order in the pointer array: the writer places kinds in order"),
        ));
    }
    let kinds = [
        &param.bool_float_input_source_plugs,
        &param.unknown_02_plugs,
        &param.child_plugs,
        &param.jump_plugs,
        &param.string_input_source_plugs,
        &param.int_input_source_plugs,
        &param.unknown_0c_plugs,
        &param.unknown_0e_plugs,
        &param.unknown_10_plugs,
        &param.unknown_12_plugs,
    ];
    // The raw model derives the pointers (the plugs are items after the pointer array); their sizes, and the
    // bytes after the last plug that the raw model does not describe (an expression's vector3f input plug is 8
    // bytes longer than the schema reads), are taken from the pointers as the file has them.
    let mut kind_of = Vec::new();
    for (k, plugs) in kinds.iter().enumerate() {
        kind_of.extend(std::iter::repeat_n(k as u8, plugs.len()));
    }
    let ptrs = (0..kind_of.len())
        .map(|j| at::u32(data, p + PARAM_HEADER + 4 * j, 0))
        .collect::<Result<Vec<u32>>>()?;
    let mut q = p + PARAM_HEADER + 4 * ptrs.len();
    let mut plugs = Vec::with_capacity(ptrs.len());
    for (j, &ptr) in ptrs.iter().enumerate() {
        let ptr = ptr as usize;
        if ptr != q {
            return Err(bad(p + PARAM_HEADER + 4 * j, format!(
                "element {el}'s plug {j} is at {ptr:#x}, where the plug data before it ends at {q:#x}"
            )));
        }
        let next = ptrs.get(j + 1).map(|&x| x as usize).unwrap_or(end);
        if next < ptr + 8 || !(next - ptr).is_multiple_of(4) {
            return Err(bad(
                ptr,
                format!(
                    "element {el}'s plug {j} is {} bytes, not 8 or more in whole words",
                    next as isize - ptr as isize
                ),
            ));
        }
        let kind = kind_of[j];
        let w = |k: usize| at::u32(data, ptr + 4 * k, 0);
        let size = next - ptr;
        let extra = match plug_shape(kind, ty, size) {
            Shape::None => PlugExtra::None,
            Shape::Conditions => PlugExtra::Conditions(
                (0..4)
                    .map(|c| {
                        Ok(Condition {
                            flags: w(2 + 2 * c)?,
                            value: f32::from_bits(w(3 + 2 * c)?),
                        })
                    })
                    .collect::<Result<_>>()?,
            ),
            Shape::S32 => PlugExtra::S32 {
                flags: w(2)?,
                value: w(3)? as i32,
            },
            Shape::F32 => PlugExtra::F32 {
                flags: w(2)?,
                value: f32::from_bits(w(3)?),
            },
            Shape::String => PlugExtra::String {
                flags: w(2)?,
                value: s.get(w(3)?)?,
            },
            Shape::Words => PlugExtra::Words((2..size / 4).map(w).collect::<Result<_>>()?),
        };
        plugs.push(Plug {
            kind,
            element: w(0)? as i32,
            name: if kind == 3 {
                PlugName::Index(w(1)?)
            } else {
                PlugName::Name(s.get(w(1)?)?)
            },
            extra,
        });
        q = next;
    }
    let mut trailing = Vec::new();
    if ptrs.is_empty() {
        if end < q || !(end - q).is_multiple_of(4) {
            return Err(bad(q, format!("element {el}'s param ends at {end:#x}, before its entries ({q:#x}) or not on a word")));
        }
        at::fits(data, q, (end - q) / 4, 4, 0)?;
        trailing = (q..end)
            .step_by(4)
            .map(|o| at::u32(data, o, 0))
            .collect::<Result<_>>()?;
    }
    Ok((plugs, trailing))
}

fn blackboard(r: &raw::Ainb, s: &Strs, at: usize) -> Result<Blackboard> {
    let Some(b) = &r.blackboard else {
        return Err(bad(
            0x20,
            "the blackboard offset is 0, which no file at hand has",
        ));
    };
    let v408 = r.version >= 0x408;
    // The headers' last u16 is 0 in every file at hand; the document has no place for another value.
    let unknown = [
        b.string_unknown_06,
        b.s32_unknown_06,
        b.u32_unknown_06.unwrap_or(0),
        b.f32_unknown_06,
        b.bool_unknown_06,
        b.vector3f_unknown_06,
        b.pointer_unknown_06,
    ];
    if let Some(v) = unknown.iter().find(|&&v| v != 0) {
        return Err(bad(
            at,
            format!("a blackboard section header's last u16 is {v:#x}, not 0: the document does not keep it"),
        ));
    }
    let params_of = |ps: &[raw::BlackboardParameter]| -> Result<Vec<(String, String, u16)>> {
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
    fn with<T: Clone>(p: Vec<(String, String, u16)>, d: &[T]) -> Vec<BlackboardParam<T>> {
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
    let bools: Vec<bool> = b
        .bool_defaults
        .iter()
        .map(|&v| boolean(v, &|| "a blackboard bool default".to_string()))
        .collect::<Result<_>>()?;
    let vecs: Vec<[f32; 3]> = b
        .vector3f_defaults
        .iter()
        .map(|v| [v.x, v.y, v.z])
        .collect();
    let strings: Vec<String> = b
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    fn ainb_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                ainb_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "ainb") {
                out.push(p);
            }
        }
    }

    /// The unreferenced strings and the strings of shared tails that decoding finds from the offsets it read are
    /// what a run of the writer finds (`encode::used_strings`, how they were found before), for the fixtures and
    /// every AINB file of the shared corpus.
    #[test]
    fn unreferenced_strings_are_what_the_writer_meets() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = Vec::new();
        for d in [
            "tests/fixtures/ainb",
            "../shared/corpus/real/ainb",
            "../shared/corpus/oracle/ainb",
        ] {
            ainb_files(&root.join(d), &mut files);
        }
        assert!(files.len() >= 9, "the AINB fixtures are missing");
        for f in &files {
            let data = std::fs::read(f).unwrap();
            let doc = decode(&data).unwrap();
            let pool_ofs = Offsets::read(&data).unwrap().string_pool_ofs as usize;
            let strings = at::pool_strings(&data[pool_ofs..], pool_ofs).unwrap();
            let used = super::super::encode::used_strings(&doc).unwrap();
            let used_set: std::collections::HashSet<&String> = used.iter().collect();
            let unreferenced: Vec<String> = strings
                .iter()
                .filter(|s| !used_set.contains(*s))
                .cloned()
                .collect();
            let mut all = strings.clone();
            all.extend(used.iter().filter(|s| !strings.contains(*s)).cloned());
            assert_eq!(
                doc.layout.unreferenced_strings,
                unreferenced,
                "{}",
                f.display()
            );
            assert_eq!(doc.layout.strings, all, "{}", f.display());
        }
    }
}
