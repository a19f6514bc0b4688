//! BFRES geometry as a renderer or converter wants it: each vertex attribute as `f32` values, whatever its stored
//! format (positions as `[f32; 3]`), and each mesh's index buffer as `u32`s, for versions 8 and 10 alike.
//!
//! Written by hand: it converts the bytes of the GPU region that the generated model ([`crate::bfres`]) holds,
//! at the positions the schema's fields give (a mesh's index buffer offset and size, a vertex set's base offset
//! and buffer alignment, each buffer's size and stride, each attribute's buffer and offset); it lays out no byte.
//! Every position is checked against the region, and a count against the bytes it needs before anything is
//! allocated, so that a crafted file gets an error naming the model, vertex set or mesh, never a panic.
//!
//! ```no_run
//! use binspec_formats::prelude::*;
//! use binspec_formats::bfres::Bfres;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bfres = Bfres::from_binary(&std::fs::read("AirCurrent.bfres")?)?;
//! let positions = bfres.positions(0, 0)?;
//! let indices = bfres.mesh_indices(0, 0, 0)?;
//! println!("{} vertices, {} triangles", positions.len(), indices.indices.len() / 3);
//! # Ok(()) }
//! ```

use binspec_runtime::{Error, Result};

use crate::bfres::{
    Bfres, BfresBody, BufferInfo, ChannelFormat, IndexFormat, Mesh, PrimitiveTopology, TypeFormat,
    Vertex, VertexAttribute, VertexBufferStride, VertexV8,
};
use crate::bfres_api::text;

/// One vertex attribute's values, one per vertex of its set.
#[derive(Debug, Clone, PartialEq)]
pub struct AttributeValues {
    /// The attribute's name (`_p0` positions, `_n0` normals, `_u0` texture coordinates, `_c0` colors, ...).
    pub name: String,
    /// nn::gfx's attribute format, `(channel format << 8) | type format`.
    pub format: u32,
    /// How many of the four values of each vertex the format stores; the others are 0.
    pub components: usize,
    /// Each vertex's values: normalized formats mapped to [0, 1] (unorm) or [-1, 1] (snorm), integer formats as
    /// their integers, floats (16 and 32 bits) as they are.
    pub values: Vec<[f32; 4]>,
}

/// One mesh's indices (a level of detail of a shape).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeshIndices {
    pub topology: PrimitiveTopology,
    /// Added to each index when drawing (the indices are as stored).
    pub base_vertex: u32,
    /// The index buffer's first `index_count` indices, widened from 8, 16 or 32 bits.
    pub indices: Vec<u32>,
    /// The sub meshes, as (first index, index count): the file's byte offsets divided by the index size.
    pub sub_meshes: Vec<(u32, u32)>,
}

/// What this module reads of a vertex set, from either version.
struct VertexSet<'a> {
    base_offset: u32,
    alignment: u64,
    vertex_count: u32,
    infos: &'a [BufferInfo],
    strides: &'a [VertexBufferStride],
    attributes: &'a [VertexAttribute],
}

/// What this module reads of a file: the GPU region (not where it is in the file, which the writer decides).
struct Gpu<'a> {
    region: &'a [u8],
}

/// The fields of a vertex set of either version.
trait HasVertexSet {
    fn set(&self) -> VertexSet<'_>;
}

impl HasVertexSet for Vertex {
    fn set(&self) -> VertexSet<'_> {
        VertexSet {
            base_offset: self.base_offset,
            alignment: u64::from(self.buffer_alignment),
            vertex_count: self.vertex_count,
            infos: self.buffer_infos.as_deref().unwrap_or(&[]),
            strides: self.buffer_strides.as_deref().unwrap_or(&[]),
            attributes: self.attributes.as_deref().unwrap_or(&[]),
        }
    }
}

impl HasVertexSet for VertexV8 {
    /// Version 8 stores no alignment: its buffers are 8-aligned (HomeBed.bfres; BfresLibrary aligns them so).
    fn set(&self) -> VertexSet<'_> {
        VertexSet {
            base_offset: self.base_offset,
            alignment: 8,
            vertex_count: self.vertex_count,
            infos: self.buffer_infos.as_deref().unwrap_or(&[]),
            strides: self.buffer_strides.as_deref().unwrap_or(&[]),
            attributes: self.attributes.as_deref().unwrap_or(&[]),
        }
    }
}

/// The bytes `[start, start + len)` of the region, or an error naming them.
fn slice<'a>(gpu: &Gpu<'a>, start: u64, len: u64, what: &str) -> Result<&'a [u8]> {
    let end = start.checked_add(len);
    match end {
        Some(end) if end <= gpu.region.len() as u64 => {
            Ok(&gpu.region[start as usize..end as usize])
        }
        // (The model does not say where the region is in the file: the writer puts it.)
        _ => Err(Error::other(format!(
            "{what}: bytes {start:#x}..+{len:#x} of the GPU region, which has {:#x}",
            gpu.region.len()
        ))),
    }
}

/// Bits of each component and the component count of a vertex channel format; `None` for a format this module
/// does not decode (packed floats, block-compressed and depth formats, which are no vertex formats).
fn channels(c: &ChannelFormat) -> Option<(&'static [u32], usize)> {
    Some(match c {
        ChannelFormat::R8 => (&[8], 1),
        ChannelFormat::R8g8 => (&[8, 8], 2),
        ChannelFormat::R8g8b8a8 | ChannelFormat::B8g8r8a8 => (&[8, 8, 8, 8], 4),
        ChannelFormat::R16 => (&[16], 2),
        ChannelFormat::R16g16 => (&[16, 16], 4),
        ChannelFormat::R16g16b16a16 => (&[16, 16, 16, 16], 8),
        ChannelFormat::R32 => (&[32], 4),
        ChannelFormat::R32g32 => (&[32, 32], 8),
        ChannelFormat::R32g32b32 => (&[32, 32, 32], 12),
        ChannelFormat::R32g32b32a32 => (&[32, 32, 32, 32], 16),
        ChannelFormat::R10g10b10a2 => (&[10, 10, 10, 2], 4),
        _ => return None,
    })
}

/// One component of `bits` bits (its raw value in the low bits of `raw`) as `f32` in type format `t`.
fn component(raw: u32, bits: u32, t: &TypeFormat) -> Option<f32> {
    let mask = if bits == 32 {
        u32::MAX
    } else {
        (1 << bits) - 1
    };
    let u = raw & mask;
    // Sign-extended from `bits`.
    let s = ((u << (32 - bits)) as i32) >> (32 - bits);
    let smax = ((1u64 << (bits - 1)) - 1) as f32;
    Some(match t {
        TypeFormat::Unorm => u as f32 / mask as f32,
        // The most negative value is -1, as is the one above it (nn::gfx follows the graphics APIs).
        TypeFormat::Snorm => (s as f32 / smax).max(-1.0),
        TypeFormat::Uint | TypeFormat::Uscaled => u as f32,
        TypeFormat::Sint | TypeFormat::Sscaled => s as f32,
        TypeFormat::Float if bits == 32 => f32::from_bits(u),
        TypeFormat::Float if bits == 16 => half::f16::from_bits(u as u16).to_f32(),
        _ => return None,
    })
}

/// Decodes one vertex's element of `bytes` (little-endian).
fn element(bytes: &[u8], bits: &[u32], t: &TypeFormat, bgr: bool) -> Option<[f32; 4]> {
    let mut out = [0.0; 4];
    if bits == [10, 10, 10, 2] {
        let w = u32::from_le_bytes(bytes[..4].try_into().ok()?);
        for (i, (shift, b)) in [(0, 10), (10, 10), (20, 10), (30, 2)]
            .into_iter()
            .enumerate()
        {
            out[i] = component(w >> shift, b, t)?;
        }
        return Some(out);
    }
    let mut at = 0;
    for (i, &b) in bits.iter().enumerate() {
        let n = (b / 8) as usize;
        let mut raw = [0u8; 4];
        raw[..n].copy_from_slice(bytes.get(at..at + n)?);
        out[i] = component(u32::from_le_bytes(raw), b, t)?;
        at += n;
    }
    if bgr {
        out.swap(0, 2);
    }
    Some(out)
}

fn attribute(
    gpu: &Gpu,
    v: &VertexSet,
    bufs: &[Buffer],
    a: &VertexAttribute,
) -> Result<AttributeValues> {
    let attr = text(&a.name);
    let what = format!("attribute {attr:?}");
    let channel = ChannelFormat::from_value(i128::from(a.format >> 8));
    let ty = TypeFormat::from_value(i128::from(a.format & 0xff));
    // A type the component width cannot have (8-bit floats) is refused here, before any value is read.
    let Some((bits, size)) =
        channels(&channel).filter(|(b, _)| b.iter().all(|&w| component(0, w, &ty).is_some()))
    else {
        return Err(Error::other(format!(
            "{what}: format {:#06x} is not a vertex format this reader decodes",
            a.format
        )));
    };
    let b = usize::from(a.buffer_index);
    let Some(&Buffer {
        start,
        size: buf_size,
        stride,
    }) = bufs.get(b)
    else {
        return Err(Error::other(format!(
            "{what}: buffer {b}, of a vertex set with {} buffers",
            bufs.len()
        )));
    };
    let count = u64::from(v.vertex_count);
    // The last vertex's element must lie in the buffer: so the values allocated are bounded by the file's bytes.
    let need = match count.checked_sub(1) {
        None => 0,
        Some(last) => last
            .checked_mul(stride)
            .and_then(|x| x.checked_add(u64::from(a.buffer_offset) + size as u64))
            .unwrap_or(u64::MAX),
    };
    if need > buf_size || count.saturating_mul(size as u64) > buf_size {
        return Err(Error::other(format!(
            "{what}: {count} vertices of {size} bytes every {stride} from +{} need {need:#x} bytes of buffer {b} (at \
             {start:#x} in the GPU region), which has {:#x}",
            a.buffer_offset, buf_size
        )));
    }
    let buf = slice(gpu, start, buf_size, &format!("{what}: buffer {b}"))?;
    let bgr = matches!(channel, ChannelFormat::B8g8r8a8);
    let mut values = Vec::with_capacity(count as usize);
    for i in 0..count {
        let at = (i * stride + u64::from(a.buffer_offset)) as usize;
        values.push(element(&buf[at..at + size], bits, &ty, bgr).ok_or_else(|| {
            Error::other(format!("{what}: format {:#06x} is not decoded", a.format))
        })?);
    }
    Ok(AttributeValues {
        name: attr,
        format: a.format,
        components: bits.len(),
        values,
    })
}

/// Each buffer of a vertex set: where it starts in the GPU region, its size and its stride. The first starts at
/// the set's base offset, each other at the first multiple of the set's alignment after the one before it ends
/// (the files store no offset per buffer). A buffer whose info gives size 0 and stride 0 while attributes read
/// from it (HomeBed.bfres's buffers 3 and 4, its tangents and texture coordinates, whose bytes follow buffer 2)
/// is dense: its stride is where its attributes' elements end, its size one stride per vertex.
fn buffers(v: &VertexSet) -> Vec<Buffer> {
    let mut at = u64::from(v.base_offset);
    v.infos
        .iter()
        .enumerate()
        .map(|(b, info)| {
            let mut size = u64::from(info.size);
            let mut stride = v.strides.get(b).map_or(0, |s| u64::from(s.stride));
            if size == 0 && stride == 0 {
                stride = v
                    .attributes
                    .iter()
                    .filter(|a| usize::from(a.buffer_index) == b)
                    .filter_map(|a| {
                        let channel = ChannelFormat::from_value(i128::from(a.format >> 8));
                        channels(&channel).map(|(_, n)| u64::from(a.buffer_offset) + n as u64)
                    })
                    .max()
                    .unwrap_or(0);
                size = stride.saturating_mul(u64::from(v.vertex_count));
            }
            let start = at;
            at = start
                .saturating_add(size)
                .checked_next_multiple_of(v.alignment.max(1))
                .unwrap_or(u64::MAX);
            Buffer {
                start,
                size,
                stride,
            }
        })
        .collect()
}

/// One vertex buffer, as [`buffers`] finds it.
struct Buffer {
    start: u64,
    size: u64,
    stride: u64,
}

fn attributes(gpu: &Gpu, v: &VertexSet) -> Result<Vec<AttributeValues>> {
    let bufs = buffers(v);
    v.attributes
        .iter()
        .enumerate()
        .map(|(i, a)| attribute(gpu, v, &bufs, a).map_err(|e| e.at_index(i).at("attributes")))
        .collect()
}

fn indices(gpu: &Gpu, m: &Mesh) -> Result<MeshIndices> {
    let width: u64 = match m.index_format {
        IndexFormat::Uint8 => 1,
        IndexFormat::Uint16 => 2,
        IndexFormat::Uint32 => 4,
        IndexFormat::Unknown(v) => {
            return Err(Error::other(format!(
                "index format {v}, which the schema does not name"
            )))
        }
    };
    let size = m.index_buffer.as_ref().map_or(0, |b| u64::from(b.size));
    let need = u64::from(m.index_count) * width;
    if need > size {
        return Err(Error::other(format!(
            "{} indices of {width} bytes need {need:#x} bytes; the index buffer (at {:#x} in the GPU region) has \
             {size:#x}",
            m.index_count, m.index_buffer_offset
        )));
    }
    let bytes = slice(gpu, u64::from(m.index_buffer_offset), need, "index buffer")?;
    let indices = bytes
        .chunks_exact(width as usize)
        .map(|c| match c {
            [a] => u32::from(*a),
            [a, b] => u32::from(u16::from_le_bytes([*a, *b])),
            _ => u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
        })
        .collect();
    let sub_meshes = m
        .sub_meshes
        .iter()
        .flatten()
        .map(|s| ((s.offset as u64 / width) as u32, s.index_count))
        .collect();
    Ok(MeshIndices {
        topology: m.primitive_topology,
        base_vertex: m.base_vertex,
        indices,
        sub_meshes,
    })
}

/// Runs `$f(gpu, models)` on the file's GPU region and models, whichever the version.
macro_rules! with_models {
    ($self:expr, |$gpu:ident, $models:ident| $body:expr) => {{
        macro_rules! go {
            ($file:expr) => {{
                let f = $file;
                let $gpu = Gpu {
                    region: f
                        .gpu_memory_pool
                        .as_ref()
                        .map_or(&[][..], |p| &p.region[..]),
                };
                let $models = f.models.as_deref().unwrap_or(&[]);
                $body
            }};
        }
        match &$self.body {
            Some(BfresBody::ResFile(f)) => go!(f),
            Some(BfresBody::ResFileV8(f)) => go!(f),
            None => Err(Error::other(
                "the file has no body this reader knows (version 8 or 10)",
            )),
        }
    }};
}

fn missing(what: &str, i: usize, n: usize) -> Error {
    Error::other(format!("{what} {i}, of {n}"))
}

impl Bfres {
    /// Every attribute of vertex set `set` of model `model` (indices as `binspec info` numbers them), decoded.
    ///
    /// # Errors
    /// No such model or set; an attribute whose format is no vertex format, or whose values lie outside its
    /// buffer or the GPU region.
    pub fn vertex_attributes(&self, model: usize, set: usize) -> Result<Vec<AttributeValues>> {
        with_models!(self, |gpu, models| {
            let m = models
                .get(model)
                .ok_or_else(|| missing("model", model, models.len()))?;
            let sets = m.vertices.as_deref().unwrap_or(&[]);
            let v = sets
                .get(set)
                .ok_or_else(|| missing("vertex set", set, sets.len()))?;
            attributes(&gpu, &v.set())
                .map_err(|e| e.at_index(set).at("vertices").at_index(model).at("models"))
        })
    }

    /// The positions (attribute `_p0`) of vertex set `set` of model `model`, as `[x, y, z]` whatever their stored
    /// format (a fourth component, where stored, is left out).
    ///
    /// # Errors
    /// As [`Bfres::vertex_attributes`], and a set with no `_p0`.
    pub fn positions(&self, model: usize, set: usize) -> Result<Vec<[f32; 3]>> {
        let attrs = self.vertex_attributes(model, set)?;
        let p = attrs.into_iter().find(|a| a.name == "_p0").ok_or_else(|| {
            Error::other(format!(
                "model {model}, vertex set {set}: no attribute \"_p0\" (positions)"
            ))
        })?;
        Ok(p.values.into_iter().map(|[x, y, z, _]| [x, y, z]).collect())
    }

    /// The indices of mesh `mesh` (level of detail) of shape `shape` of model `model`.
    ///
    /// # Errors
    /// No such model, shape or mesh; an index buffer that does not hold its index count, or lies outside the GPU
    /// region.
    pub fn mesh_indices(&self, model: usize, shape: usize, mesh: usize) -> Result<MeshIndices> {
        with_models!(self, |gpu, models| {
            let m = models
                .get(model)
                .ok_or_else(|| missing("model", model, models.len()))?;
            let shapes = m.shapes.as_deref().unwrap_or(&[]);
            let s = shapes
                .get(shape)
                .ok_or_else(|| missing("shape", shape, shapes.len()))?;
            let meshes = s.meshes.as_deref().unwrap_or(&[]);
            let x = meshes
                .get(mesh)
                .ok_or_else(|| missing("mesh", mesh, meshes.len()))?;
            indices(&gpu, x).map_err(|e| {
                e.at_index(mesh)
                    .at("meshes")
                    .at_index(shape)
                    .at("shapes")
                    .at_index(model)
                    .at("models")
            })
        })
    }
}
