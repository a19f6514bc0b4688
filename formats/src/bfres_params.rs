//! BFRES materials' shader parameters as numbers (hand-written: converts, lays out nothing). A parameter's value is
//! where the schema's fields say it is in its material's value bytes (`shader_param_values`): in version 8 at its
//! own `data_offset`, `data_size` bytes long; in version 10 at its `offset` in the shader reflection that the
//! material's static shader variation names, as long as its type (a `float3` 12 bytes). Values are read and
//! written as little-endian 32-bit floats, for the float, vector and matrix types; other types are an error that
//! names the type. Writing keeps the value bytes' size: nothing moves.
//!
//! ```no_run
//! # use binspec_formats::{bfres::Bfres, Format};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut f = Bfres::from_binary(&std::fs::read("AirCurrent.bfres")?)?;
//! let v = f.shader_param_f32("AirCurrent", "Default_Material", "const_single3")?;
//! f.set_shader_param_f32("AirCurrent", "Default_Material", "const_single3", &[v[0] * 2.0])?;
//! # Ok(())
//! # }
//! ```

use binspec_runtime::{Error, Result};

use crate::bfres::{Bfres, BfresBody};
use crate::bfres_api::text;

/// A material's shader parameter: its name, its type as the schema names it, and where its value is in the
/// material's value bytes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ShaderParam {
    pub name: String,
    /// `float3`, `matrix3x4`, `srt2d`, ... (`0x..` where the schema names no type for the value).
    pub ty: String,
    pub offset: usize,
    pub size: usize,
}

/// How many 32-bit floats a value of type `ty` is, for the types read as floats.
fn float_count(ty: &str) -> Option<usize> {
    let dims = |s: &str| -> Option<usize> {
        let (a, b) = s.split_once('x')?;
        Some(a.parse::<usize>().ok()? * b.parse::<usize>().ok()?)
    };
    match ty {
        "float" => Some(1),
        _ if ty.starts_with("float") => ty[5..]
            .parse()
            .ok()
            .filter(|n| (2..=4).contains(n))
            .or_else(|| dims(&ty[5..])),
        _ if ty.starts_with("matrix") => dims(&ty[6..]),
        _ => None,
    }
}

/// The size of a version 10 parameter's value, from its type (these hold no size): 4 bytes a component.
fn size_of_type(ty: &str) -> Option<usize> {
    let components = |s: &str, base: &str| -> Option<usize> {
        match &s[base.len()..] {
            "" => Some(1),
            n => n.parse().ok().filter(|n| (2..=4).contains(n)),
        }
    };
    let n = match ty {
        "srt2d" => 5,
        "srt3d" => 9,
        "srt_texture" => 6,
        _ if ty.starts_with("bool") => components(ty, "bool")?,
        _ if ty.starts_with("uint") => components(ty, "uint")?,
        _ if ty.starts_with("int") => components(ty, "int")?,
        _ => float_count(ty)?,
    };
    Some(n * 4)
}

fn not_found(what: String) -> Error {
    Error::invalid(0, what)
}

/// The model named `model` of a file body of either version and its material named `material` (their types
/// differ, the fields read here are named alike).
macro_rules! model_material {
    ($f:expr, $model:expr, $material:expr) => {{
        let (model, material) = ($model, $material);
        $f.models
            .iter()
            .flatten()
            .find(|m| text(&m.name) == model)
            .ok_or_else(|| not_found(format!("no model {model:?}")))
            .and_then(|m| {
                m.materials
                    .iter()
                    .flatten()
                    .find(|x| text(&x.name) == material)
                    .map(|x| (m, x))
                    .ok_or_else(|| {
                        not_found(format!("no material {material:?} in model {model:?}"))
                    })
            })
    }};
}

/// The value bytes of material `material` of model `model`, to change, in a file body of either version.
macro_rules! values_of {
    ($f:expr, $model:expr, $material:expr) => {
        $f.models
            .iter_mut()
            .flatten()
            .find(|m| text(&m.name) == $model)
            .and_then(|m| {
                m.materials
                    .iter_mut()
                    .flatten()
                    .find(|x| text(&x.name) == $material)
            })
            .and_then(|x| x.shader_param_values.as_mut())
    };
}

impl Bfres {
    /// The shader parameters of material `material` of model `model`, in their order.
    ///
    /// # Errors
    /// No such model or material; a version 10 material whose shader reflection is not among its model's.
    pub fn shader_params(&self, model: &str, material: &str) -> Result<Vec<ShaderParam>> {
        Ok(self.params_and_values(model, material)?.0)
    }

    /// A parameter's value as 32-bit floats (a `float3`: 3 values; a `matrix3x4`: 12).
    ///
    /// # Errors
    /// No such model, material or parameter; a type that is not read as floats; a value outside the material's
    /// value bytes.
    pub fn shader_param_f32(&self, model: &str, material: &str, name: &str) -> Result<Vec<f32>> {
        let (params, values) = self.params_and_values(model, material)?;
        let p = find(&params, material, name)?;
        let bytes = value_range(&p, values.len())
            .map(|r| &values[r])
            .ok_or_else(|| outside(&p, values.len()))?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    /// Sets a parameter's value from 32-bit floats, as many as [`Bfres::shader_param_f32`] gives.
    ///
    /// # Errors
    /// As [`Bfres::shader_param_f32`], and a count of values other than the parameter's.
    pub fn set_shader_param_f32(
        &mut self,
        model: &str,
        material: &str,
        name: &str,
        values: &[f32],
    ) -> Result<()> {
        let (params, len) = {
            let (p, v) = self.params_and_values(model, material)?;
            (p, v.len())
        };
        let p = find(&params, material, name)?;
        let range = value_range(&p, len).ok_or_else(|| outside(&p, len))?;
        if values.len() * 4 != range.len() {
            return Err(Error::write(format!(
                "shader parameter {name:?} of material {material:?} is a {} of {} floats, {} given",
                p.ty,
                range.len() / 4,
                values.len()
            )));
        }
        let bytes = self.values_mut(model, material)?;
        let mut new = bytes.to_vec();
        for (c, v) in new[range].chunks_exact_mut(4).zip(values) {
            c.copy_from_slice(&v.to_le_bytes());
        }
        *bytes = new.into();
        Ok(())
    }

    /// A material's parameters and its value bytes.
    fn params_and_values(&self, model: &str, material: &str) -> Result<(Vec<ShaderParam>, &[u8])> {
        match &self.body {
            Some(BfresBody::ResFileV8(f)) => {
                let (_, mat) = model_material!(f, model, material)?;
                let params = mat
                    .shader_params
                    .iter()
                    .flatten()
                    .map(|p| ShaderParam {
                        name: text(&p.name),
                        ty: type_name(p.r#type.name(), p.r#type.value()),
                        offset: usize::from(p.data_offset),
                        size: usize::from(p.data_size),
                    })
                    .collect();
                Ok((params, mat.shader_param_values.as_deref().unwrap_or(&[])))
            }
            Some(BfresBody::ResFile(f)) => {
                let (m, mat) = model_material!(f, model, material)?;
                // The reflection the static shader variation points to, among the model's.
                let refl = mat.variation.as_ref().and_then(|v| {
                    let i = usize::from(v.shader_reflection_index);
                    m.shader_reflections.as_ref()?.get(i)
                });
                let Some(refl) = refl else {
                    return Err(not_found(format!(
                        "material {material:?} names no shader reflection of model {model:?}"
                    )));
                };
                let params = refl
                    .shader_params
                    .iter()
                    .flatten()
                    .map(|p| {
                        let ty = type_name(p.r#type.name(), p.r#type.value());
                        ShaderParam {
                            name: text(&p.name),
                            size: size_of_type(&ty).unwrap_or(0),
                            ty,
                            offset: usize::from(p.offset),
                        }
                    })
                    .collect();
                Ok((params, mat.shader_param_values.as_deref().unwrap_or(&[])))
            }
            None => Err(not_found("the file has no body".into())),
        }
    }

    /// A material's value bytes, to change.
    fn values_mut(&mut self, model: &str, material: &str) -> Result<&mut binspec_runtime::Bytes> {
        let missing = || {
            not_found(format!(
                "material {material:?} has no shader parameter values"
            ))
        };
        // (Found as `params_and_values` found it, so each exists.)
        let values = match &mut self.body {
            Some(BfresBody::ResFileV8(f)) => values_of!(f, model, material),
            Some(BfresBody::ResFile(f)) => values_of!(f, model, material),
            None => None,
        };
        values.ok_or_else(missing)
    }
}

/// An enum value's name, or its value in hex where the schema names none.
fn type_name(name: Option<&str>, value: i128) -> String {
    name.map_or_else(|| format!("{value:#x}"), str::to_string)
}

fn find(params: &[ShaderParam], material: &str, name: &str) -> Result<ShaderParam> {
    params
        .iter()
        .find(|p| p.name == name)
        .cloned()
        .ok_or_else(|| {
            not_found(format!(
                "material {material:?} has no shader parameter {name:?}"
            ))
        })
}

/// The bytes of a parameter's value among `len` value bytes, for a type read as floats.
fn value_range(p: &ShaderParam, len: usize) -> Option<std::ops::Range<usize>> {
    let n = float_count(&p.ty)?;
    let end = p.offset.checked_add(n * 4)?;
    (n * 4 <= p.size && end <= len).then_some(p.offset..end)
}

fn outside(p: &ShaderParam, len: usize) -> Error {
    match float_count(&p.ty) {
        Some(n) if n * 4 > p.size => Error::invalid(
            0,
            format!(
                "shader parameter {:?} is a {} ({} bytes) in {} bytes",
                p.name,
                p.ty,
                n * 4,
                p.size
            ),
        ),
        None => Error::invalid(
            0,
            format!("shader parameter {:?} is a {}, not read as floats", p.name, p.ty),
        ),
        Some(n) => Error::invalid(
            0,
            format!(
                "shader parameter {:?} ({} floats at {:#x}) is past the material's {len} value bytes",
                p.name, n, p.offset
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_by_type() {
        for (ty, n) in [
            ("float", Some(1)),
            ("float3", Some(3)),
            ("float2x4", Some(8)),
            ("matrix3x4", Some(12)),
            ("srt2d", None),
            ("int2", None),
            ("float5", None),
        ] {
            assert_eq!(float_count(ty), n, "{ty}");
        }
        for (ty, n) in [
            ("bool", Some(4)),
            ("uint3", Some(12)),
            ("matrix4x4", Some(64)),
            ("srt3d", Some(36)),
            ("srt_texture", Some(24)),
            ("0x1f", None),
        ] {
            assert_eq!(size_of_type(ty), n, "{ty}");
        }
    }
}
