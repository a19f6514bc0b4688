//! The decoded EXB (expression binary) section: functions with their instructions, signatures, the parameter region
//! and the string pool. Offsets and counts are recomputed on write; the section is self-contained (its offsets are
//! relative to its start, and it has its own string pool).

use serde::{Deserialize, Serialize};

use super::bytes::{at, Out};
use super::raw::{InstructionType, ParameterSource};
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
    /// The order of the functions' instruction lists in the instruction table, when it is not each function's setup
    /// list then its main list, function by function.
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

const HEADER: usize = 0x2c;

impl Exb {
    /// Decodes the EXB section `data` (which starts with `EXB `); `base` is its absolute offset, for errors.
    pub fn decode(data: &[u8], base: usize) -> Result<Exb> {
        let e = |o: usize, m: &str| crate::Error::invalid((base + o) as u64, format!("EXB: {m}"));
        if data.get(..4) != Some(b"EXB ") {
            return Err(e(0, "magic is not \"EXB \""));
        }
        let w = |o: usize| at::u32(data, o, base);
        let (version, static_mem, param_count, s32, s64) = (w(4)?, w(8)?, w(12)?, w(16)?, w(20)?);
        let (info_ofs, instr_ofs, sig_ofs, param_ofs, pool_ofs) = (
            w(24)? as usize,
            w(28)? as usize,
            w(32)? as usize,
            w(36)? as usize,
            w(40)? as usize,
        );
        let expect = |got: usize, want: usize, what: &str| {
            if got != want {
                Err(e(got, &format!("{what} at {got:#x}, where this reader expects it to follow the previous section ({want:#x})")))
            } else {
                Ok(())
            }
        };
        expect(info_ofs, HEADER, "the command info table")?;
        let n_info = w(info_ofs)? as usize;
        at::fits(data, info_ofs + 4, n_info, 0x1c, base)?;
        expect(
            instr_ofs,
            info_ofs + 4 + 0x1c * n_info,
            "the instruction table",
        )?;
        let n_instr = w(instr_ofs)? as usize;
        at::fits(data, instr_ofs + 4, n_instr, 8, base)?;
        let mut instructions = Vec::with_capacity(n_instr);
        for i in 0..n_instr {
            let o = instr_ofs + 4 + 8 * i;
            instructions.push(Instruction {
                kind: InstructionType::from_value(data[o] as i128),
                data_type: ExbType::from_raw(data[o + 1] as u16, version),
                lhs_source: ParameterSource::from_value(data[o + 2] as i128),
                rhs_source: ParameterSource::from_value(data[o + 3] as i128),
                lhs_value: at::u16(data, o + 4, base)?,
                rhs_value: at::u16(data, o + 6, base)?,
            });
        }
        expect(sig_ofs, instr_ofs + 4 + 8 * n_instr, "the signature table")?;
        let n_sig = w(sig_ofs)? as usize;
        at::fits(data, sig_ofs + 4, n_sig, 4, base)?;
        expect(param_ofs, sig_ofs + 4 + 4 * n_sig, "the parameter region")?;
        if pool_ofs < param_ofs || pool_ofs > data.len() {
            return Err(e(
                40,
                "the string pool offset is before the parameter region or past the end",
            ));
        }
        let pool = &data[pool_ofs..];
        let mut strings = at::pool_strings(pool, base + pool_ofs)?;
        let mut signatures = Vec::with_capacity(n_sig);
        for i in 0..n_sig {
            let s = at::string(pool, w(sig_ofs + 4 + 4 * i)? as usize, base + pool_ofs)?;
            // A signature at an offset inside another string (sharing its tail) is written as a string of its own.
            if !strings.contains(&s) {
                strings.push(s.clone());
            }
            signatures.push(s);
        }
        let mut functions = Vec::with_capacity(n_info);
        // (first instruction, count, segment): every list, to check that they tile the instruction table.
        let mut ranges: Vec<(usize, usize, Segment)> = Vec::new();
        for i in 0..n_info {
            let o = info_ofs + 4 + 0x1c * i;
            let (setup_base, setup_count) = (w(o)? as i32, w(o + 4)? as usize);
            let (main_base, main_count) = (w(o + 8)? as usize, w(o + 12)? as usize);
            let list = |base: usize, count: usize, what: &str| -> Result<Vec<Instruction>> {
                instructions.get(base..base.saturating_add(count)).map(<[_]>::to_vec).ok_or_else(|| {
                    e(o, &format!("function {i}'s {what} instructions {base}..{} are past the table's {n_instr}", base + count))
                })
            };
            let setup = if setup_base == -1 {
                if setup_count != 0 {
                    return Err(e(o + 4, &format!("function {i} has no setup list (-1) but a setup count of {setup_count}")));
                }
                None
            } else {
                let b = usize::try_from(setup_base)
                    .map_err(|_| e(o, &format!("function {i}'s setup index is {setup_base}")))?;
                ranges.push((
                    b,
                    setup_count,
                    Segment {
                        function: i as u32,
                        setup: true,
                    },
                ));
                Some(list(b, setup_count, "setup")?)
            };
            ranges.push((
                main_base,
                main_count,
                Segment {
                    function: i as u32,
                    setup: false,
                },
            ));
            functions.push(Function {
                output_type: ExbType::from_raw(at::u16(data, o + 24, base)?, version),
                input_type: ExbType::from_raw(at::u16(data, o + 26, base)?, version),
                static_memory_size: w(o + 16)?,
                scratch_32_memory_size: at::u16(data, o + 20, base)?,
                scratch_64_memory_size: at::u16(data, o + 22, base)?,
                setup,
                main: list(main_base, main_count, "main")?,
            });
        }
        // The lists must tile the table, each starting where the one before it ends (an empty list starts there too).
        ranges.sort_by_key(|&(b, c, _)| (b, c != 0));
        let mut next = 0usize;
        for &(b, c, seg) in &ranges {
            if b != next {
                return Err(e(instr_ofs, &format!(
                    "function {}'s {} instructions start at {b}, where the lists before them end at {next}: lists \
                     that overlap or leave gaps are not supported",
                    seg.function,
                    if seg.setup { "setup" } else { "main" }
                )));
            }
            next += c;
        }
        if next != n_instr {
            return Err(e(
                instr_ofs,
                &format!("{} instructions belong to no function", n_instr - next),
            ));
        }
        let order: Vec<Segment> = ranges.iter().map(|r| r.2).collect();
        let instruction_order = if order == default_order(&functions) {
            Vec::new()
        } else {
            order
        };
        Ok(Exb {
            version,
            static_memory_allocation_size: static_mem,
            parameter_field_entry_count: param_count,
            scratch_32_allocation_size: s32,
            scratch_64_allocation_size: s64,
            functions,
            signatures,
            parameters: data[param_ofs..pool_ofs].to_vec(),
            strings,
            instruction_order,
        })
    }

    /// Encodes the section.
    pub fn encode(&self) -> Result<Vec<u8>> {
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
        let mut pool = super::bytes::Pool::new(strings, true, &[]);
        for s in signatures {
            pool.add(s);
        }
        let (pool_bytes, offsets) = pool.finish()?;
        let order = if instruction_order.is_empty() {
            default_order(functions)
        } else {
            instruction_order.clone()
        };
        // Where each list starts: (setup, main) per function.
        let mut starts = vec![(-1i64, 0usize); functions.len()];
        let mut seq: Vec<&Instruction> = Vec::new();
        let mut placed = vec![(false, false); functions.len()];
        for seg in &order {
            let f = functions.get(seg.function as usize).ok_or_else(|| {
                crate::Error::write(format!(
                    "expressions.instruction_order: function {} does not exist",
                    seg.function
                ))
            })?;
            let done = &mut placed[seg.function as usize];
            let (list, flag) = if seg.setup {
                (f.setup.as_deref(), &mut done.0)
            } else {
                (Some(&f.main[..]), &mut done.1)
            };
            let Some(list) = list else {
                return Err(crate::Error::write(format!(
                    "expressions.instruction_order: function {} has no setup list",
                    seg.function
                )));
            };
            if std::mem::replace(flag, true) {
                return Err(crate::Error::write(format!(
                    "expressions.instruction_order: function {}'s {} list is listed twice",
                    seg.function,
                    if seg.setup { "setup" } else { "main" }
                )));
            }
            if seg.setup {
                starts[seg.function as usize].0 = seq.len() as i64;
            } else {
                starts[seg.function as usize].1 = seq.len();
            }
            seq.extend(list);
        }
        if let Some(i) = placed
            .iter()
            .zip(functions)
            .position(|(p, f)| !p.1 || (f.setup.is_some() && !p.0))
        {
            return Err(crate::Error::write(format!(
                "expressions.instruction_order: a list of function {i} is missing"
            )));
        }
        let n_instr = seq.len();
        let info_ofs = HEADER;
        let instr_ofs = info_ofs + 4 + 0x1c * functions.len();
        let sig_ofs = instr_ofs + 4 + 8 * n_instr;
        let param_ofs = sig_ofs + 4 + 4 * signatures.len();
        let pool_ofs = param_ofs + parameters.len();
        let mut o = Out::default();
        o.bytes(b"EXB ");
        for v in [
            *version,
            *static_memory_allocation_size,
            *parameter_field_entry_count,
            *scratch_32_allocation_size,
            *scratch_64_allocation_size,
        ] {
            o.u32(v);
        }
        for v in [info_ofs, instr_ofs, sig_ofs, param_ofs, pool_ofs] {
            o.u32(Out::fit(v, "EXB section offset")?);
        }
        o.u32(Out::fit(functions.len(), "EXB function count")?);
        for (f, &(setup_at, main_at)) in functions.iter().zip(&starts) {
            let Function {
                output_type,
                input_type,
                static_memory_size,
                scratch_32_memory_size,
                scratch_64_memory_size,
                setup,
                main,
            } = f;
            o.u32(setup_at as i32 as u32);
            o.u32(Out::fit(
                setup.as_ref().map_or(0, Vec::len),
                "EXB setup instruction count",
            )?);
            o.u32(Out::fit(main_at, "EXB instruction index")?);
            o.u32(Out::fit(main.len(), "EXB instruction count")?);
            o.u32(*static_memory_size);
            o.u16(*scratch_32_memory_size);
            o.u16(*scratch_64_memory_size);
            o.u16(output_type.to_raw(*version)?);
            o.u16(input_type.to_raw(*version)?);
        }
        o.u32(Out::fit(n_instr, "EXB instruction count")?);
        for i in seq {
            let Instruction {
                kind,
                data_type,
                lhs_source,
                rhs_source,
                lhs_value,
                rhs_value,
            } = i;
            o.u8(Out::fit8(kind.value(), "EXB instruction type")?);
            o.u8(Out::fit8(
                data_type.to_raw(*version)? as i128,
                "EXB data type",
            )?);
            o.u8(Out::fit8(lhs_source.value(), "EXB parameter source")?);
            o.u8(Out::fit8(rhs_source.value(), "EXB parameter source")?);
            o.u16(*lhs_value);
            o.u16(*rhs_value);
        }
        o.u32(Out::fit(signatures.len(), "EXB signature count")?);
        for s in signatures {
            o.u32(offsets[s.as_str()]);
        }
        o.bytes(parameters);
        o.bytes(&pool_bytes);
        Ok(o.0)
    }
}

/// Each function's setup list (if any), then its main list, function by function.
fn default_order(functions: &[Function]) -> Vec<Segment> {
    let mut v = Vec::new();
    for (i, f) in functions.iter().enumerate() {
        if f.setup.is_some() {
            v.push(Segment {
                function: i as u32,
                setup: true,
            });
        }
        v.push(Segment {
            function: i as u32,
            setup: false,
        });
    }
    v
}
