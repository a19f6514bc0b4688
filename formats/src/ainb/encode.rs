//! [`Document`] to bytes. Sections are laid out in the order the files at hand use (header, commands, elements,
//! blackboard, element params with their plugs, attachment ids, attachments and their params, properties,
//! inputs/outputs, multi-inputs, jumps, query ids, EXB, modules, external actions, module link, state info,
//! child replacement table, 0x6C section, enum resolve array, string pool), and every offset, count, base index,
//! string-pool offset and hash is computed here.
//!
//! The file is written twice: the first pass only collects the strings in the order it meets them, which (after the
//! recorded order) decides the pool; the second pass writes with the pool's offsets.

use rustc_hash::FxHashMap as HashMap;

use super::bytes::{Out, Pool};
use super::decode::{plug_shape, Shape, ATTACHMENT_PARAM, PARAM_HEADER};
use super::model::*;
use crate::{Error, Result};

/// murmur3 (x86, 32-bit, seed 0), the hash AINB uses for names and paths.
pub fn murmur3(s: &str) -> u32 {
    murmur3::murmur3_32(&mut std::io::Cursor::new(s.as_bytes()), 0)
        .expect("reading from memory cannot fail")
}

enum Strings<'a> {
    Collect(Pool<'a>),
    Resolve(HashMap<String, u32>),
}

struct W<'a> {
    o: Out,
    strings: Strings<'a>,
    /// Where the writer is, for errors about strings (`elements[3]`, `blackboard`, ...).
    at: String,
}

impl W<'_> {
    fn s(&mut self, s: &str) -> Result<u32> {
        if s.as_bytes().contains(&0) {
            return Err(Error::write(format!(
                "{}: the string {s:?} contains a null byte, which the string pool cannot hold",
                self.at
            )));
        }
        match &mut self.strings {
            Strings::Collect(p) => {
                p.add(s);
                Ok(0)
            }
            Strings::Resolve(m) => m.get(s).copied().ok_or_else(|| {
                Error::write(format!(
                    "internal: the string {s:?} was not collected for the pool"
                ))
            }),
        }
    }
    fn str_u32(&mut self, s: &str) -> Result<()> {
        let o = self.s(s)?;
        self.o.u32(o);
        Ok(())
    }
}

fn n32(v: usize, what: &str) -> Result<u32> {
    Out::fit(v, what)
}

fn n16(v: usize, what: &str) -> Result<u16> {
    u16::try_from(v).map_err(|_| Error::write(format!("{what} ({v}) does not fit in 16 bits")))
}

fn n8(v: usize, what: &str) -> Result<u8> {
    u8::try_from(v).map_err(|_| Error::write(format!("{what} ({v}) does not fit in 8 bits")))
}

pub(crate) fn encode(doc: &Document) -> Result<Vec<u8>> {
    validate(doc)?;
    let mut w = W {
        o: Out::default(),
        strings: Strings::Collect(Pool::new(
            &doc.layout.strings,
            false,
            &doc.layout.unreferenced_strings,
        )),
        at: String::new(),
    };
    write(doc, &mut w)?;
    let Strings::Collect(pool) =
        std::mem::replace(&mut w.strings, Strings::Resolve(HashMap::default()))
    else {
        unreachable!()
    };
    let (pool, offsets) = pool.finish()?;
    let mut w = W {
        o: Out(Vec::with_capacity(w.o.pos() + pool.len())),
        strings: Strings::Resolve(offsets),
        at: String::new(),
    };
    write(doc, &mut w)?;
    w.o.bytes(&pool);
    Ok(w.o.0)
}

/// The strings the document refers to, in the order the writer meets them. (Decoding finds the pool's strings that
/// nothing refers to from the offsets it read; a test checks that it finds what this finds.)
#[cfg(test)]
pub(crate) fn used_strings(doc: &Document) -> Result<Vec<String>> {
    let mut w = W {
        o: Out::default(),
        strings: Strings::Collect(Pool::new(&[], false, &[])),
        at: String::new(),
    };
    write(doc, &mut w)?;
    let Strings::Collect(pool) = w.strings else {
        unreachable!()
    };
    Ok(pool.used().to_vec())
}

/// Checks what the writer cannot represent, naming the field.
fn validate(doc: &Document) -> Result<()> {
    if ![0x404, 0x407, 0x408].contains(&doc.version) {
        return Err(Error::write(format!(
            "version: {:#x} is not 0x404, 0x407 or 0x408",
            doc.version
        )));
    }
    if doc.version < 0x408 && !doc.blackboard.u32.is_empty() {
        return Err(Error::write(
            "blackboard.u32: u32 blackboard parameters need version 0x408",
        ));
    }
    if doc.version >= 0x407 && doc.layout.unlinked_replacement_header {
        return Err(Error::write(
            "layout.unlinked_replacement_header: only version 0x404 files have one",
        ));
    }
    if doc.version < 0x407 && doc.child_replacement.is_some() {
        return Err(Error::write(
            "child_replacement: version 0x404 has no child replacement table",
        ));
    }
    let n_el = doc.elements.len();
    let n_att = doc.attachments.len();
    for (i, e) in doc.elements.iter().enumerate() {
        if doc.version >= 0x407 && e.state.is_some() {
            return Err(Error::write(format!(
                "elements[{i}].state: only version 0x404 has node state info"
            )));
        }
        if let Some(a) = e.attachments.iter().find(|&&a| a as usize >= n_att) {
            return Err(Error::write(format!(
                "elements[{i}].attachments: attachment {a} does not exist ({n_att} attachments)"
            )));
        }
        if e.plugs.iter().any(|p| p.kind > 9) {
            return Err(Error::write(format!(
                "elements[{i}].plugs: a plug kind is greater than 9"
            )));
        }
        for (j, p) in e.plugs.iter().enumerate() {
            if matches!(p.name, PlugName::Index(_)) != (p.kind == 3) {
                return Err(Error::write(format!(
                    "elements[{i}].plugs[{j}].name: jump plugs (kind 3) have an index, other plugs a name"
                )));
            }
        }
    }
    for (i, c) in doc.commands.iter().enumerate() {
        if c.main_element as usize >= n_el {
            return Err(Error::write(format!(
                "commands[{i}].main_element: element {} does not exist",
                c.main_element
            )));
        }
        if c.secondary_element == Some(u16::MAX) {
            return Err(Error::write(format!(
                "commands[{i}].secondary_element: 65535 cannot be stored (the file adds 1)"
            )));
        }
    }
    let mut seen = vec![false; n_el];
    for &e in &doc.layout.query_order {
        match seen.get_mut(e as usize) {
            Some(s) if !*s => *s = true,
            _ => {
                return Err(Error::write(format!(
                    "layout.query_order: element {e} is listed twice or does not exist"
                )))
            }
        }
    }
    Ok(())
}

/// Base indices of each element's (then each attachment's) properties, per type.
fn property_bases<'d>(lists: impl Iterator<Item = &'d Properties>) -> Vec<[(u32, u32); 6]> {
    let mut run = [0u32; 6];
    lists
        .map(|p| {
            let counts = [
                p.s32.len(),
                p.bool.len(),
                p.f32.len(),
                p.string.len(),
                p.vec3f.len(),
                p.pointer.len(),
            ];
            let mut out = [(0, 0); 6];
            for t in 0..6 {
                out[t] = (run[t], counts[t] as u32);
                run[t] += counts[t] as u32;
            }
            out
        })
        .collect()
}

fn plug_size(p: &Plug) -> usize {
    8 + match &p.extra {
        PlugExtra::None => 0,
        PlugExtra::S32 { .. } | PlugExtra::F32 { .. } | PlugExtra::String { .. } => 8,
        PlugExtra::Conditions(c) => 8 * c.len(),
        PlugExtra::Words(w) => 4 * w.len(),
    }
}

fn write(doc: &Document, w: &mut W) -> Result<()> {
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
    let v407 = *version >= 0x407;
    let v408 = *version >= 0x408;
    let el_size = if v407 { 0x3c } else { 0x38 };
    let att_size = if v407 { 0x10 } else { 0xc };

    // Sizes of everything before the element params, to place them.
    let bb = blackboard;
    let n_types = if v408 { 7 } else { 6 };
    let n_params = bb.string.len()
        + bb.s32.len()
        + bb.u32.len()
        + bb.f32.len()
        + bb.bool.len()
        + bb.vec3f.len()
        + bb.pointer.len();
    let defaults_size = 4
        * (bb.string.len() + bb.s32.len() + bb.u32.len() + bb.f32.len() + bb.bool.len())
        + 12 * bb.vec3f.len();
    let bb_ofs = 0x74 + 0x18 * commands.len() + el_size * elements.len();
    let params_ofs =
        bb_ofs + 8 * n_types + 8 * n_params + defaults_size + 16 * bb.file_references.len();
    let mut param_ofs = Vec::with_capacity(elements.len());
    let mut at = params_ofs;
    let mut sorted_plugs: Vec<Vec<&Plug>> = Vec::with_capacity(elements.len());
    for e in elements {
        param_ofs.push(at);
        let mut ps: Vec<&Plug> = e.plugs.iter().collect();
        ps.sort_by_key(|p| p.kind);
        at += PARAM_HEADER
            + 4 * ps.len()
            + ps.iter().map(|p| plug_size(p)).sum::<usize>()
            + 4 * e.trailing.len();
        sorted_plugs.push(ps);
    }
    let att_id_ofs = at;
    let n_att_ids: usize = elements.iter().map(|e| e.attachments.len()).sum();
    let att_ofs = att_id_ofs + 4 * n_att_ids;
    let att_param_ofs = att_ofs + att_size * attachments.len();
    let prop_ofs = att_param_ofs + ATTACHMENT_PARAM * attachments.len();
    let prop_bases = property_bases(
        elements
            .iter()
            .map(|e| &e.properties)
            .chain(attachments.iter().map(|a| &a.properties)),
    );
    let prop_totals = prop_bases
        .last()
        .map(|b| std::array::from_fn::<u32, 6, _>(|t| b[t].0 + b[t].1))
        .unwrap_or([0; 6]);
    let prop_sizes = [12, 12, 12, 12, 20, 12];
    let mut prop_arrays = [0usize; 6];
    let mut p = prop_ofs + 0x18;
    for t in 0..6 {
        prop_arrays[t] = p;
        p += prop_sizes[t] * prop_totals[t] as usize;
    }
    let io_ofs = p;
    // Input and output counts per type, and each element's bases.
    let io_counts = |e: &Element| -> [usize; 12] {
        let i = &e.io;
        [
            i.s32_inputs.len(),
            i.s32_outputs.len(),
            i.bool_inputs.len(),
            i.bool_outputs.len(),
            i.f32_inputs.len(),
            i.f32_outputs.len(),
            i.string_inputs.len(),
            i.string_outputs.len(),
            i.vec3f_inputs.len(),
            i.vec3f_outputs.len(),
            i.pointer_inputs.len(),
            i.pointer_outputs.len(),
        ]
    };
    let mut io_run = [0usize; 12];
    let mut io_bases = Vec::with_capacity(elements.len());
    for e in elements {
        let c = io_counts(e);
        io_bases.push(io_run);
        for k in 0..12 {
            io_run[k] += c[k];
        }
    }
    let io_sizes = [0x10, 4, 0x10, 4, 0x10, 4, 0x10, 4, 0x18, 4, 0x14, 8];
    let mut io_arrays = [0usize; 12];
    let mut p = io_ofs + 0x30;
    for k in 0..12 {
        io_arrays[k] = p;
        p += io_sizes[k] * io_run[k];
    }
    let multi_ofs = p;
    let jump_ofs = multi_ofs + 8 * multi_inputs.len();
    let query_ofs = jump_ofs + 4 * jumps.len();
    let n_queries: usize = elements.iter().map(|e| e.queries.len()).sum();
    let exb_bytes = match expressions {
        Some(x) if matches!(w.strings, Strings::Resolve(_)) => Some(x.encode()?),
        Some(_) => Some(Vec::new()), // the first pass needs no EXB bytes, only AINB strings
        None => None,
    };
    let exb_ofs = query_ofs + 4 * n_queries;
    let module_ofs = exb_ofs + exb_bytes.as_ref().map_or(0, |b| b.len());
    let action_ofs = module_ofs + 4 + 12 * modules.len();
    let link_ofs = action_ofs + 4 + 12 * external_actions.len();
    let state_ofs = link_ofs + 8;
    let n_states = elements.iter().filter(|e| e.state.is_some()).count();
    let replacement_ofs = state_ofs + 0x14 * n_states;
    let replacement_size = match child_replacement {
        Some(t) => 8 + 8 * t.entries.len(),
        None if layout.unlinked_replacement_header => 8,
        None => 0,
    };
    let x6c_ofs = replacement_ofs + replacement_size;
    let enum_ofs = x6c_ofs + if section_6c.is_some() { 4 } else { 0 };
    let pool_ofs = enum_ofs + 4 + 12 * enum_resolves.len();

    // Header.
    w.at = "file_name, category".into();
    let o32 = |v: usize| n32(v, "a section offset");
    w.o.bytes(b"AIB ");
    w.o.u32(*version);
    w.str_u32(file_name)?;
    w.o.u32(n32(commands.len(), "command count")?);
    w.o.u32(n32(elements.len(), "element count")?);
    w.o.u32(n32(
        elements.iter().filter(|e| e.flags & 1 != 0).count(),
        "query element count",
    )?);
    w.o.u32(n32(attachments.len(), "attachment count")?);
    w.o.u32(*output_element_count);
    w.o.u32(o32(bb_ofs)?);
    w.o.u32(o32(pool_ofs)?);
    w.o.u32(o32(enum_ofs)?);
    w.o.u32(o32(prop_ofs)?);
    w.o.u32(o32(jump_ofs)?);
    w.o.u32(o32(io_ofs)?);
    w.o.u32(o32(multi_ofs)?);
    w.o.u32(o32(att_ofs)?);
    w.o.u32(o32(att_id_ofs)?);
    w.o.u32(if exb_bytes.is_some() {
        o32(exb_ofs)?
    } else {
        0
    });
    w.o.u32(if child_replacement.is_some() {
        o32(replacement_ofs)?
    } else {
        0
    });
    w.o.u32(o32(query_ofs)?);
    w.o.u32(o32(jump_ofs)?);
    w.o.u32(0);
    w.o.u32(0);
    w.o.u32(o32(module_ofs)?);
    w.str_u32(category)?;
    w.o.u32(*category_id);
    w.o.u32(o32(action_ofs)?);
    w.o.u32(if section_6c.is_some() {
        o32(x6c_ofs)?
    } else {
        0
    });
    w.o.u32(o32(link_ofs)?);

    for (i, c) in commands.iter().enumerate() {
        w.at = format!("commands[{i}]");
        let Command {
            name,
            guid,
            main_element,
            secondary_element,
        } = c;
        w.str_u32(name)?;
        w.o.bytes(&guid.0);
        w.o.u16(*main_element);
        w.o.u16(match secondary_element {
            None => 0,
            Some(v) => v.checked_add(1).ok_or_else(|| {
                Error::write(format!("commands[{i}].secondary_element is too large"))
            })?,
        });
    }

    // Query ranges: the array order is layout.query_order, then the other elements in index order.
    let mut query_order: Vec<usize> = layout.query_order.iter().map(|&e| e as usize).collect();
    let listed: std::collections::HashSet<usize> = query_order.iter().copied().collect();
    query_order.extend((0..elements.len()).filter(|e| !listed.contains(e)));
    let mut query_base = vec![0usize; elements.len()];
    let mut run = 0;
    for &e in &query_order {
        query_base[e] = run;
        run += elements[e].queries.len();
    }

    let mut state_at = state_ofs;
    let mut att_run = 0usize;
    for (i, e) in elements.iter().enumerate() {
        w.at = format!("elements[{i}]");
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
            attachments: atts,
            queries,
            state,
            guid,
            properties: _,
            io: _,
            plugs: _,
            trailing: _,
        } = e;
        w.o.u16(*element_type);
        w.o.u16(n16(i, "element index")?);
        w.o.u16(n16(atts.len(), "attachment count")?);
        w.o.u8(*flags);
        w.o.u8(*unknown_07);
        w.str_u32(name)?;
        if v407 {
            w.o.u32(murmur3(name));
        }
        w.o.u32(*unknown_10);
        w.o.u32(o32(param_ofs[i])?);
        w.o.u16(*exb_function_count);
        w.o.u16(*exb_io_field_size);
        w.o.u16(*multi_input_count);
        w.o.u16(*unknown_1e);
        w.o.u32(n32(att_run, "attachment id index")?);
        att_run += atts.len();
        // An empty query range starts at 0 (in the files of both Nintendo and the `ainb` package); an empty
        // attachment range where the next would start.
        w.o.u16(if queries.is_empty() {
            0
        } else {
            n16(query_base[i], "query element id index")?
        });
        w.o.u16(n16(queries.len(), "query count")?);
        if state.is_some() {
            w.o.u32(o32(state_at)?);
            state_at += 0x14;
        } else {
            w.o.u32(0);
        }
        w.o.bytes(&guid.0);
    }

    // Blackboard.
    w.at = "blackboard".into();
    let Blackboard {
        string,
        s32,
        u32: u32s,
        f32,
        bool,
        vec3f,
        pointer,
        file_references,
    } = bb;
    let counts: Vec<(usize, usize)> = {
        let mut v = vec![(string.len(), 4), (s32.len(), 4)];
        if v408 {
            v.push((u32s.len(), 4));
        }
        v.extend([
            (f32.len(), 4),
            (bool.len(), 4),
            (vec3f.len(), 12),
            (pointer.len(), 0),
        ]);
        v
    };
    let (mut first, mut off) = (0usize, 0usize);
    for &(n, size) in &counts {
        w.o.u16(n16(n, "blackboard parameter count")?);
        w.o.u16(n16(first, "blackboard parameter index")?);
        w.o.u16(n16(off, "blackboard default offset")?);
        w.o.u16(0);
        first += n;
        off += n * size;
    }
    let bb_name = |w: &mut W, name: &str, notes: &str, flags: u16| -> Result<()> {
        let o = w.s(name)?;
        if o > 0x3f_ffff {
            return Err(Error::write(format!("blackboard parameter {name:?}: its string-pool offset ({o:#x}) does not fit in 22 bits")));
        }
        if flags > 0x3ff {
            return Err(Error::write(format!(
                "blackboard parameter {name:?}: flags {flags:#x} do not fit in 10 bits"
            )));
        }
        w.o.u32(o | (flags as u32) << 22);
        w.str_u32(notes)
    };
    for p in string {
        bb_name(w, &p.name, &p.notes, p.flags)?;
    }
    for p in s32 {
        bb_name(w, &p.name, &p.notes, p.flags)?;
    }
    for p in u32s {
        bb_name(w, &p.name, &p.notes, p.flags)?;
    }
    for p in f32 {
        bb_name(w, &p.name, &p.notes, p.flags)?;
    }
    for p in bool {
        bb_name(w, &p.name, &p.notes, p.flags)?;
    }
    for p in vec3f {
        bb_name(w, &p.name, &p.notes, p.flags)?;
    }
    for p in pointer {
        bb_name(w, &p.name, &p.notes, p.flags)?;
    }
    for p in string {
        w.str_u32(&p.default)?;
    }
    for p in s32 {
        w.o.u32(p.default as u32);
    }
    for p in u32s {
        w.o.u32(p.default);
    }
    for p in f32 {
        w.o.f32(p.default);
    }
    for p in bool {
        w.o.u32(p.default as u32);
    }
    for p in vec3f {
        for v in p.default {
            w.o.f32(v);
        }
    }
    for f in file_references {
        w.str_u32(f)?;
        let base = f.rsplit('/').next().unwrap_or(f);
        let dot = base
            .char_indices()
            .skip_while(|&(_, c)| c == '.')
            .filter(|&(_, c)| c == '.')
            .last()
            .map(|(i, _)| i);
        let (stem, ext) = match dot {
            Some(d) => (&base[..d], &base[d + 1..]),
            None => (base, ""),
        };
        w.o.u32(murmur3(f));
        w.o.u32(murmur3(stem));
        w.o.u32(murmur3(ext));
    }
    debug_assert_eq!(w.o.pos(), params_ofs);

    // Element params.
    for (i, e) in elements.iter().enumerate() {
        w.at = format!("elements[{i}].plugs");
        let pb = prop_bases[i];
        for (b, c) in pb {
            w.o.u32(b);
            w.o.u32(c);
        }
        let c = io_counts(e);
        for t in 0..6 {
            w.o.u32(n32(io_bases[i][2 * t], "input index")?);
            w.o.u32(n32(c[2 * t], "input count")?);
            w.o.u32(n32(io_bases[i][2 * t + 1], "output index")?);
            w.o.u32(n32(c[2 * t + 1], "output count")?);
        }
        let plugs = &sorted_plugs[i];
        let mut base = 0usize;
        for k in 0..10u8 {
            let n = plugs.iter().filter(|p| p.kind == k).count();
            w.o.u8(n8(n, "plug count")?);
            w.o.u8(n8(base, "plug index")?);
            base += n;
        }
        let mut at = w.o.pos() + 4 * plugs.len();
        for p in plugs {
            w.o.u32(o32(at)?);
            at += plug_size(p);
        }
        for (j, p) in plugs.iter().enumerate() {
            let Plug {
                kind,
                element,
                name,
                extra,
            } = p;
            w.o.u32(*element as u32);
            match name {
                PlugName::Name(s) => w.str_u32(s)?,
                PlugName::Index(x) => w.o.u32(*x),
            }
            // The extra must have the shape the reader will see for this size, or the file would not read back.
            let want = plug_shape(*kind, e.element_type, plug_size(p));
            let ok = matches!(
                (want, extra),
                (Shape::None, PlugExtra::None)
                    | (Shape::S32, PlugExtra::S32 { .. })
                    | (Shape::F32, PlugExtra::F32 { .. })
                    | (Shape::String, PlugExtra::String { .. })
                    | (Shape::Conditions, PlugExtra::Conditions(_))
                    | (Shape::Words, PlugExtra::Words(_))
            );
            if !ok {
                return Err(Error::write(format!(
                    "elements[{i}].plugs[{j}].extra: a kind {kind} plug of an element of type {} with this extra \
                     would read back as {want:?}",
                    e.element_type
                )));
            }
            match extra {
                PlugExtra::None => {}
                PlugExtra::S32 { flags, value } => {
                    w.o.u32(*flags);
                    w.o.u32(*value as u32);
                }
                PlugExtra::F32 { flags, value } => {
                    w.o.u32(*flags);
                    w.o.f32(*value);
                }
                PlugExtra::String { flags, value } => {
                    w.o.u32(*flags);
                    w.str_u32(value)?;
                }
                PlugExtra::Conditions(c) => {
                    for Condition { flags, value } in c {
                        w.o.u32(*flags);
                        w.o.f32(*value);
                    }
                }
                PlugExtra::Words(v) => {
                    for x in v {
                        w.o.u32(*x);
                    }
                }
            }
        }
        for x in &e.trailing {
            w.o.u32(*x);
        }
    }
    debug_assert_eq!(w.o.pos(), att_id_ofs);

    for e in elements {
        for a in &e.attachments {
            w.o.u32(*a);
        }
    }
    for (k, a) in attachments.iter().enumerate() {
        w.at = format!("attachments[{k}]");
        let Attachment {
            name,
            exb_function_count,
            exb_io_field_size,
            unknown: _,
            unknown_01: _,
            properties: _,
        } = a;
        w.str_u32(name)?;
        w.o.u32(o32(att_param_ofs + ATTACHMENT_PARAM * k)?);
        w.o.u16(*exb_function_count);
        w.o.u16(*exb_io_field_size);
        if v407 {
            w.o.u32(murmur3(name));
        }
    }
    for (k, a) in attachments.iter().enumerate() {
        let end = att_param_ofs + ATTACHMENT_PARAM * (k + 1);
        w.o.u8(a.unknown);
        w.o.bytes(&a.unknown_01);
        for (b, c) in prop_bases[elements.len() + k] {
            w.o.u32(b);
            w.o.u32(c);
        }
        for _ in 0..6 {
            w.o.u32(0);
            w.o.u32(o32(end)?);
        }
    }
    debug_assert_eq!(w.o.pos(), prop_ofs);

    // Properties: every element's, then every attachment's, per type.
    w.at = "a property (elements[..].properties or attachments[..].properties)".into();
    for a in prop_arrays {
        w.o.u32(o32(a)?);
    }
    let lists: Vec<&Properties> = elements
        .iter()
        .map(|e| &e.properties)
        .chain(attachments.iter().map(|a| &a.properties))
        .collect();
    for p in &lists {
        for x in &p.s32 {
            w.str_u32(&x.name)?;
            w.o.u32(x.flags);
            w.o.u32(x.value as u32);
        }
    }
    for p in &lists {
        for x in &p.bool {
            w.str_u32(&x.name)?;
            w.o.u32(x.flags);
            w.o.u32(x.value as u32);
        }
    }
    for p in &lists {
        for x in &p.f32 {
            w.str_u32(&x.name)?;
            w.o.u32(x.flags);
            w.o.f32(x.value);
        }
    }
    for p in &lists {
        for x in &p.string {
            w.str_u32(&x.name)?;
            w.o.u32(x.flags);
            w.str_u32(&x.value)?;
        }
    }
    for p in &lists {
        for x in &p.vec3f {
            w.str_u32(&x.name)?;
            w.o.u32(x.flags);
            for v in x.value {
                w.o.f32(v);
            }
        }
    }
    for p in &lists {
        for x in &p.pointer {
            w.str_u32(&x.name)?;
            w.str_u32(&x.class)?;
            w.o.u32(x.flags);
        }
    }
    debug_assert_eq!(w.o.pos(), io_ofs);

    // Inputs and outputs.
    w.at = "an input or output (elements[..].io)".into();
    for a in io_arrays {
        w.o.u32(o32(a)?);
    }
    fn input_head<T>(w: &mut W, x: &Input<T>) -> Result<()> {
        w.str_u32(&x.name)?;
        w.o.u16(x.element as u16);
        w.o.u16(x.plug as u16);
        w.o.u32(x.flags);
        Ok(())
    }
    fn output(w: &mut W, x: &Output) -> Result<()> {
        let o = w.s(&x.name)?;
        if o > 0x7fff_ffff {
            return Err(Error::write(format!(
                "output {:?}: its string-pool offset does not fit in 31 bits",
                x.name
            )));
        }
        w.o.u32(o | (x.flag as u32) << 31);
        Ok(())
    }
    for e in elements {
        for x in &e.io.s32_inputs {
            input_head(w, x)?;
            w.o.u32(x.value as u32);
        }
    }
    for e in elements {
        for x in &e.io.s32_outputs {
            output(w, x)?;
        }
    }
    for e in elements {
        for x in &e.io.bool_inputs {
            input_head(w, x)?;
            w.o.u32(x.value as u32);
        }
    }
    for e in elements {
        for x in &e.io.bool_outputs {
            output(w, x)?;
        }
    }
    for e in elements {
        for x in &e.io.f32_inputs {
            input_head(w, x)?;
            w.o.f32(x.value);
        }
    }
    for e in elements {
        for x in &e.io.f32_outputs {
            output(w, x)?;
        }
    }
    for e in elements {
        for x in &e.io.string_inputs {
            input_head(w, x)?;
            w.str_u32(&x.value)?;
        }
    }
    for e in elements {
        for x in &e.io.string_outputs {
            output(w, x)?;
        }
    }
    for e in elements {
        for x in &e.io.vec3f_inputs {
            input_head(w, x)?;
            for v in x.value {
                w.o.f32(v);
            }
        }
    }
    for e in elements {
        for x in &e.io.vec3f_outputs {
            output(w, x)?;
        }
    }
    for e in elements {
        for x in &e.io.pointer_inputs {
            w.str_u32(&x.name)?;
            w.str_u32(&x.class)?;
            w.o.u16(x.element as u16);
            w.o.u16(x.plug as u16);
            w.o.u32(x.flags);
            w.o.u32(x.unknown_10);
        }
    }
    for e in elements {
        for x in &e.io.pointer_outputs {
            let o = w.s(&x.name)?;
            w.o.u32(o | (x.flag as u32) << 31);
            w.str_u32(&x.class)?;
        }
    }
    debug_assert_eq!(w.o.pos(), multi_ofs);

    for m in multi_inputs {
        w.o.u16(m.element);
        w.o.u16(m.plug);
        w.o.u32(m.flags);
    }
    for j in jumps {
        w.o.u32(*j);
    }
    for &e in &query_order {
        for q in &elements[e].queries {
            w.o.u16(q.id);
            w.o.u16(q.unknown);
        }
    }
    if let Some(b) = &exb_bytes {
        w.o.bytes(b);
    }
    w.at = "modules, external_actions, state info or enum_resolves".into();
    w.o.u32(n32(modules.len(), "module count")?);
    for m in modules {
        w.str_u32(&m.path)?;
        w.str_u32(&m.category)?;
        w.o.u32(m.count);
    }
    w.o.u32(n32(external_actions.len(), "external action count")?);
    for a in external_actions {
        w.o.u32(a.element);
        w.str_u32(&a.slot)?;
        w.str_u32(&a.state)?;
    }
    w.o.u32(module_link.file_hash);
    w.o.u32(module_link.parent_file_hash);
    for e in elements {
        if let Some(s) = &e.state {
            w.str_u32(&s.desired_state)?;
            for v in [s.unknown_04, s.unknown_08, s.unknown_0c, s.unknown_10] {
                w.o.u32(v);
            }
        }
    }
    match child_replacement {
        Some(t) => {
            w.o.u8(t.initialization_guard);
            w.o.u8(t.unknown_01);
            w.o.u16(n16(t.entries.len(), "child replacement count")?);
            w.o.u16(t.override_element_count as u16);
            w.o.u16(t.override_attachment_parameter_count as u16);
            for r in &t.entries {
                w.o.u8(r.kind);
                w.o.u8(r.unknown_01);
                w.o.u16(r.element);
                w.o.u16(r.child);
                w.o.u16(r.new_element);
            }
        }
        None if layout.unlinked_replacement_header => {
            w.o.bytes(&[0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff])
        }
        None => {}
    }
    if let Some(v) = section_6c {
        w.o.u32(*v);
    }
    w.o.u32(n32(enum_resolves.len(), "enum resolve count")?);
    for x in enum_resolves {
        w.o.u32(x.value_offset);
        w.str_u32(&x.class)?;
        w.str_u32(&x.value)?;
    }
    if matches!(w.strings, Strings::Resolve(_)) {
        debug_assert_eq!(w.o.pos(), pool_ofs);
    }
    Ok(())
}
