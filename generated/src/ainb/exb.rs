//! The decoded EXB (expression binary) section: functions with their instructions, signatures, the parameter region
//! and the string pool. Offsets and counts are recomputed on write; the section is self-contained (its offsets are
//! relative to its start, and it has its own string pool).

use serde::{Deserialize, Serialize};

use super::bytes::{at, Out};
use super::raw::{DataType, ExbInstructionEntryDataType, InstructionType, ParameterSource};
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
}

/// One function (command info entry).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Function {
    pub base_index_pre_command_entry: i32,
    pub pre_entry_static_memory_usage: u32,
    pub static_memory_size: u32,
    pub scratch_32_memory_size: u16,
    pub scratch_64_memory_size: u16,
    pub output_type: DataType,
    pub input_type: DataType,
    pub instructions: Vec<Instruction>,
}

/// One instruction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instruction {
    pub kind: InstructionType,
    pub data_type: ExbInstructionEntryDataType,
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
                data_type: ExbInstructionEntryDataType::from_value(data[o + 1] as i128),
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
        let strings = at::pool_strings(pool, base + pool_ofs)?;
        let mut signatures = Vec::with_capacity(n_sig);
        for i in 0..n_sig {
            signatures.push(at::string(
                pool,
                w(sig_ofs + 4 + 4 * i)? as usize,
                base + pool_ofs,
            )?);
        }
        let mut functions = Vec::with_capacity(n_info);
        let mut next = 0usize;
        for i in 0..n_info {
            let o = info_ofs + 4 + 0x1c * i;
            let (first, count) = (w(o + 8)? as usize, w(o + 12)? as usize);
            if first != next || first + count > n_instr {
                return Err(e(o + 8, &format!(
                    "function {i} has instructions {first}..{} where this reader expects them to follow the previous function's (from {next}, of {n_instr})",
                    first + count
                )));
            }
            next = first + count;
            functions.push(Function {
                base_index_pre_command_entry: w(o)? as i32,
                pre_entry_static_memory_usage: w(o + 4)?,
                static_memory_size: w(o + 16)?,
                scratch_32_memory_size: at::u16(data, o + 20, base)?,
                scratch_64_memory_size: at::u16(data, o + 22, base)?,
                output_type: DataType::from_value(at::u16(data, o + 24, base)? as i128),
                input_type: DataType::from_value(at::u16(data, o + 26, base)? as i128),
                instructions: instructions[first..first + count].to_vec(),
            });
        }
        if next != n_instr {
            return Err(e(
                instr_ofs,
                &format!("{} instructions belong to no function", n_instr - next),
            ));
        }
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
        } = self;
        let mut pool = super::bytes::Pool::new(strings, true, &[]);
        for s in signatures {
            pool.add(s);
        }
        let (pool_bytes, offsets) = pool.finish()?;
        let n_instr: usize = functions.iter().map(|f| f.instructions.len()).sum();
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
        let mut first = 0usize;
        for f in functions {
            let Function {
                base_index_pre_command_entry,
                pre_entry_static_memory_usage,
                static_memory_size,
                scratch_32_memory_size,
                scratch_64_memory_size,
                output_type,
                input_type,
                instructions,
            } = f;
            o.u32(*base_index_pre_command_entry as u32);
            o.u32(*pre_entry_static_memory_usage);
            o.u32(Out::fit(first, "EXB instruction index")?);
            o.u32(Out::fit(instructions.len(), "EXB instruction count")?);
            o.u32(*static_memory_size);
            o.u16(*scratch_32_memory_size);
            o.u16(*scratch_64_memory_size);
            o.u16(Out::fit16(output_type.value(), "EXB output type")?);
            o.u16(Out::fit16(input_type.value(), "EXB input type")?);
            first += instructions.len();
        }
        o.u32(Out::fit(n_instr, "EXB instruction count")?);
        for f in functions {
            for i in &f.instructions {
                let Instruction {
                    kind,
                    data_type,
                    lhs_source,
                    rhs_source,
                    lhs_value,
                    rhs_value,
                } = i;
                o.u8(Out::fit8(kind.value(), "EXB instruction type")?);
                o.u8(Out::fit8(data_type.value(), "EXB data type")?);
                o.u8(Out::fit8(lhs_source.value(), "EXB parameter source")?);
                o.u8(Out::fit8(rhs_source.value(), "EXB parameter source")?);
                o.u16(*lhs_value);
                o.u16(*rhs_value);
            }
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
