//! The decoded EXB (expression binary) section: functions with their instructions, signatures, the parameter region
//! and the string pool. It converts to and from the raw model generated from `schemas/exb.ksy` (`raw::Exb`), whose
//! writer derives every offset, count and instruction index; this code lays out no byte.

use serde::{Deserialize, Serialize};

use super::raw::{self, InstructionType, ParameterSource};
use crate::Result;

/// A decoded expression binary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exb {
    /// 2 (AINB 0x404 and 0x407) or 3 (AINB 0x408).
    pub version: u32,
    pub static_memory_allocation_size: u32,
    pub parameter_field_entry_count: u32,
    pub scratch_32_allocation_size: u32,
    pub scratch_64_allocation_size: u32,
    /// Functions (the command info table), each with its instructions.
    #[serde(default)]
    pub functions: Vec<Function>,
    /// Signatures of the user functions that instructions call, by index.
    #[serde(default)]
    pub signatures: Vec<String>,
    /// Parameter values too large for an instruction (as stored: instructions refer to them by byte offset).
    #[serde(default, with = "hex")]
    pub parameters: Vec<u8>,
    /// The string pool, in order. Parameters may refer to its strings by offset, so every string is kept; strings
    /// that signatures use and that are missing here are appended.
    #[serde(default)]
    pub strings: Vec<String>,
    /// The order of the functions' non-empty instruction lists in the instruction table, when it is not each
    /// function's setup list then its main list, function by function (empty lists go where the writer meets
    /// them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instruction_order: Vec<Segment>,
}

/// One function's setup or main instruction list, as placed in the instruction table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Segment {
    pub function: u32,
    pub setup: bool,
}

/// A value type of an EXB function or instruction. Version 3 added `uint` as 4 and moved the types after it up by
/// one; this is the version 3 numbering, and the writer converts for versions 1 and 2 (the `ainb` package does the
/// same).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExbType {
    None,
    /// An immediate value from the user.
    Imm,
    Bool,
    Int,
    /// Version 3 only.
    Uint,
    Float,
    String,
    Vec3f,
    /// A value no source names, as stored.
    Other(u16),
}

impl ExbType {
    fn from_raw(raw: u16, version: u32) -> ExbType {
        let v = if version < 3 && raw >= 4 {
            raw.saturating_add(1)
        } else {
            raw
        };
        match v {
            0 => ExbType::None,
            1 => ExbType::Imm,
            2 => ExbType::Bool,
            3 => ExbType::Int,
            4 => ExbType::Uint,
            5 => ExbType::Float,
            6 => ExbType::String,
            7 => ExbType::Vec3f,
            _ => ExbType::Other(raw),
        }
    }
    fn to_raw(self, version: u32) -> Result<u16> {
        let v = match self {
            ExbType::Other(v) => return Ok(v),
            ExbType::None => 0,
            ExbType::Imm => 1,
            ExbType::Bool => 2,
            ExbType::Int => 3,
            ExbType::Uint if version < 3 => {
                return Err(crate::Error::write(format!(
                    "EXB: the uint type needs EXB version 3 (this is {version})"
                )))
            }
            ExbType::Uint => 4,
            ExbType::Float => 5,
            ExbType::String => 6,
            ExbType::Vec3f => 7,
        };
        Ok(if version < 3 && v > 4 { v - 1 } else { v })
    }
}

/// One function (command info entry): an optional setup list and the main list of instructions.
///
/// The wiki names the entry's first two words "Base Index Pre-Command Entry" and "Pre-Entry Static Memory Usage";
/// they are the setup list's first instruction (-1 for none) and its length, as the `ainb` package reads them and
/// as the files bear out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Function {
    pub output_type: ExbType,
    pub input_type: ExbType,
    /// Static (global) memory the function uses.
    pub static_memory_size: u32,
    pub scratch_32_memory_size: u16,
    pub scratch_64_memory_size: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<Vec<Instruction>>,
    pub main: Vec<Instruction>,
}

/// One instruction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instruction {
    pub kind: InstructionType,
    pub data_type: ExbType,
    pub lhs_source: ParameterSource,
    pub rhs_source: ParameterSource,
    pub lhs_value: u16,
    pub rhs_value: u16,
}

mod hex {
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        let mut t = String::with_capacity(v.len() * 2);
        for b in v {
            t.push_str(&format!("{b:02x}"));
        }
        s.serialize_str(&t)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let t = String::deserialize(d)?;
        if t.len() % 2 != 0 || !t.is_ascii() {
            return Err(serde::de::Error::custom(
                "hex bytes have an even number of digits",
            ));
        }
        (0..t.len() / 2)
            .map(|i| u8::from_str_radix(&t[2 * i..2 * i + 2], 16).map_err(serde::de::Error::custom))
            .collect()
    }
}

impl Exb {
    /// The section as the raw model read it.
    pub(crate) fn from_raw(r: &raw::Exb) -> Result<Exb> {
        let version = r.version;
        let ty = |v: i128| ExbType::from_raw(v as u16, version);
        let instruction = |i: &raw::InstructionEntry| Instruction {
            kind: i.instruction_type,
            data_type: ty(i.data_type_enum.value()),
            lhs_source: i.left_hand_side_parameter_source_enum,
            rhs_source: i.right_hand_side_parameter_source_enum,
            lhs_value: i.left_hand_side_parameter_value,
            rhs_value: i.right_hand_side_parameter_value,
        };
        let functions: Vec<Function> = r
            .command_infos
            .entries
            .iter()
            .map(|f| Function {
                output_type: ty(f.output_data_type_enum.value()),
                input_type: ty(f.input_data_type_enum.value()),
                static_memory_size: f.static_memory_size,
                scratch_32_memory_size: f.n32_bit_scratch_memory_size,
                scratch_64_memory_size: f.n64_bit_scratch_memory_size,
                setup: f
                    .setup
                    .as_ref()
                    .map(|l| l.iter().map(instruction).collect()),
                main: f.instructions.iter().map(instruction).collect(),
            })
            .collect();
        let instruction_order = match &r.instructions.entries_item_order {
            None => Vec::new(),
            Some(order) => {
                let lists = non_empty(&functions);
                order
                    .iter()
                    .map(|&k| {
                        lists.get(k as usize).copied().ok_or_else(|| {
                            crate::Error::invalid(
                                0,
                                format!(
                                    "EXB: instruction list {k} of the kept order does not exist"
                                ),
                            )
                        })
                    })
                    .collect::<Result<_>>()?
            }
        };
        Ok(Exb {
            version,
            static_memory_allocation_size: r.static_memory_allocation_size,
            parameter_field_entry_count: r.parameter_exb_field_entry_count,
            scratch_32_allocation_size: r.n32_bit_scratch_allocation_size,
            scratch_64_allocation_size: r.n64_bit_scratch_allocation_size,
            functions,
            signatures: r
                .signatures
                .signatures
                .iter()
                .map(|s| s.text.to_string())
                .collect(),
            parameters: r.parameter_region.to_vec(),
            strings: strings(r),
            instruction_order,
        })
    }

    /// The raw model of the section, which its writer lays out.
    pub(crate) fn to_raw(&self) -> Result<raw::Exb> {
        let Exb {
            version,
            static_memory_allocation_size,
            parameter_field_entry_count,
            scratch_32_allocation_size,
            scratch_64_allocation_size,
            functions,
            signatures,
            parameters,
            strings,
            instruction_order,
        } = self;
        let version = *version;
        let instruction = |i: &Instruction| -> Result<raw::InstructionEntry> {
            let Instruction {
                kind,
                data_type,
                lhs_source,
                rhs_source,
                lhs_value,
                rhs_value,
            } = i;
            Ok(raw::InstructionEntry {
                instruction_type: *kind,
                data_type_enum: raw::ExbInstructionEntryDataType::from_value(
                    data_type.to_raw(version)?.into(),
                ),
                left_hand_side_parameter_source_enum: *lhs_source,
                right_hand_side_parameter_source_enum: *rhs_source,
                left_hand_side_parameter_value: *lhs_value,
                right_hand_side_parameter_value: *rhs_value,
            })
        };
        let entries = functions
            .iter()
            .map(|f| {
                let Function {
                    output_type,
                    input_type,
                    static_memory_size,
                    scratch_32_memory_size,
                    scratch_64_memory_size,
                    setup,
                    main,
                } = f;
                Ok(raw::CommandInfoEntry {
                    static_memory_size: *static_memory_size,
                    n32_bit_scratch_memory_size: *scratch_32_memory_size,
                    n64_bit_scratch_memory_size: *scratch_64_memory_size,
                    output_data_type_enum: raw::DataType::from_value(
                        output_type.to_raw(version)?.into(),
                    ),
                    input_data_type_enum: raw::DataType::from_value(
                        input_type.to_raw(version)?.into(),
                    ),
                    setup: setup
                        .as_ref()
                        .map(|l| l.iter().map(instruction).collect::<Result<_>>())
                        .transpose()?,
                    instructions: main.iter().map(instruction).collect::<Result<_>>()?,
                    ..Default::default()
                })
            })
            .collect::<Result<_>>()?;
        let item_order = if instruction_order.is_empty() {
            None
        } else {
            let lists = non_empty(functions);
            let mut order = Vec::with_capacity(lists.len());
            for seg in instruction_order {
                let f = functions.get(seg.function as usize).ok_or_else(|| {
                    crate::Error::write(format!(
                        "expressions.instruction_order: function {} does not exist",
                        seg.function
                    ))
                })?;
                let len = if seg.setup {
                    f.setup.as_ref().map(Vec::len)
                } else {
                    Some(f.main.len())
                };
                match len {
                    None => {
                        return Err(crate::Error::write(format!(
                            "expressions.instruction_order: function {} has no setup list",
                            seg.function
                        )))
                    }
                    // An empty list goes where the writer meets it.
                    Some(0) => {}
                    Some(_) => {
                        order.push(lists.iter().position(|l| l == seg).unwrap_or(usize::MAX) as u32)
                    }
                }
            }
            Some(order)
        };
        Ok(raw::Exb {
            version,
            static_memory_allocation_size: *static_memory_allocation_size,
            parameter_exb_field_entry_count: *parameter_field_entry_count,
            n32_bit_scratch_allocation_size: *scratch_32_allocation_size,
            n64_bit_scratch_allocation_size: *scratch_64_allocation_size,
            command_infos: raw::CommandInfoTable { entries },
            instructions: raw::InstructionTable {
                entries_item_order: item_order,
                entries_item_align: None,
            },
            signatures: raw::SignatureTable {
                signatures: signatures
                    .iter()
                    .map(|s| raw::Signature {
                        text: s.as_str().into(),
                    })
                    .collect(),
            },
            parameter_region: parameters.clone().into(),
            string_pool: raw::ExbStringPool {
                strings: strings.clone(),
            },
            ..Default::default()
        })
    }
}

/// The pool's strings, then each signature's that the pool does not hold as a string of its own (an offset into the
/// middle of another shares its tail), as the writer adds them: the signatures in order.
fn strings(r: &raw::Exb) -> Vec<String> {
    let mut strings = r.string_pool.strings.clone();
    let mut known: rustc_hash::FxHashSet<String> = strings.iter().cloned().collect();
    for s in &r.signatures.signatures {
        if !known.contains(&*s.text) {
            known.insert(s.text.to_string());
            strings.push(s.text.to_string());
        }
    }
    strings
}

/// The functions' non-empty instruction lists, in the order the writer meets them: each function's setup list,
/// then its main list.
fn non_empty(functions: &[Function]) -> Vec<Segment> {
    let mut v = Vec::new();
    for (i, f) in functions.iter().enumerate() {
        if f.setup.as_ref().is_some_and(|l| !l.is_empty()) {
            v.push(Segment {
                function: i as u32,
                setup: true,
            });
        }
        if !f.main.is_empty() {
            v.push(Segment {
                function: i as u32,
                setup: false,
            });
        }
    }
    v
}
