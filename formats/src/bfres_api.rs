//! BFRES models summarized, with names instead of indices: each model's shapes (with their material's name, their
//! vertex and index counts), materials, skeleton bones and vertex attributes with their formats, for versions 8
//! and 10 alike. What `binspec info` prints for a BFRES file.
//!
//! Written by hand: it reads the generated model ([`crate::bfres`]) and lays out no byte.
//!
//! ```no_run
//! use binspec_formats::prelude::*;
//! use binspec_formats::bfres::Bfres;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bfres = Bfres::from_binary(&std::fs::read("AirCurrent.bfres")?)?;
//! for m in bfres.model_summaries() {
//!     println!("{}: {} shapes, {} bones", m.name, m.shapes.len(), m.bones.len());
//! }
//! # Ok(()) }
//! ```

use crate::bfres::{
    Bfres, BfresBody, ChannelFormat, EmbedFileEntry, NwString, ResDic, TypeFormat, VertexAttribute,
};

/// One model of a BFRES file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ModelSummary {
    pub name: String,
    pub shapes: Vec<ShapeSummary>,
    pub materials: Vec<String>,
    pub bones: Vec<BoneSummary>,
    /// Each vertex set (shapes name theirs by index): its vertex count and attributes.
    pub vertex_sets: Vec<VertexSetSummary>,
}

/// One shape: its meshes' index counts (one per level of detail) and what it is drawn with.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ShapeSummary {
    pub name: String,
    /// The name of its material (`None` where its index names none).
    pub material: Option<String>,
    pub vertex_set: u16,
    pub index_counts: Vec<u32>,
}

/// One bone of a model's skeleton.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BoneSummary {
    pub name: String,
    /// The parent bone's name (`None` for a root).
    pub parent: Option<String>,
}

/// One vertex set.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct VertexSetSummary {
    pub vertex_count: u32,
    pub attributes: Vec<AttributeSummary>,
}

/// One vertex attribute.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AttributeSummary {
    pub name: String,
    /// nn::gfx's channel and type formats, as the schema names them: `r32_g32_b32 float`, or their values in hex
    /// where the schema names none.
    pub format: String,
    pub buffer_index: u8,
    pub buffer_offset: u16,
}

/// A name's text (empty where the name is absent).
pub(crate) fn text(s: &Option<NwString>) -> String {
    s.as_ref().map(|n| n.data.to_string()).unwrap_or_default()
}

fn attribute(a: &VertexAttribute) -> AttributeSummary {
    let channel = ChannelFormat::from_value(i128::from(a.format >> 8));
    let ty = TypeFormat::from_value(i128::from(a.format & 0xff));
    let format = match (channel.name(), ty.name()) {
        (Some(c), Some(t)) => format!("{c} {t}"),
        _ => format!("{:#06x}", a.format),
    };
    AttributeSummary {
        name: text(&a.name),
        format,
        buffer_index: a.buffer_index,
        buffer_offset: a.buffer_offset,
    }
}

/// The summary of a model of either version: their types differ, the fields read here are named alike.
macro_rules! summarize {
    ($m:expr) => {{
        let m = $m;
        let materials: Vec<String> = m
            .materials
            .iter()
            .flatten()
            .map(|x| text(&x.name))
            .collect();
        let bone_list = m.skeleton_data.as_ref().and_then(|s| s.bones.as_ref());
        let bone_names: Vec<String> = bone_list
            .into_iter()
            .flatten()
            .map(|b| text(&b.name))
            .collect();
        let bones = bone_list
            .into_iter()
            .flatten()
            .zip(&bone_names)
            .map(|(b, n)| BoneSummary {
                name: n.clone(),
                parent: usize::try_from(b.parent_index)
                    .ok()
                    .and_then(|i| bone_names.get(i).cloned()),
            })
            .collect();
        let shapes = m
            .shapes
            .iter()
            .flatten()
            .map(|s| ShapeSummary {
                name: text(&s.name),
                material: materials.get(usize::from(s.material_index)).cloned(),
                vertex_set: s.vertex_index,
                index_counts: s.meshes.iter().flatten().map(|x| x.index_count).collect(),
            })
            .collect();
        let vertex_sets = m
            .vertices
            .iter()
            .flatten()
            .map(|v| VertexSetSummary {
                vertex_count: v.vertex_count,
                attributes: v.attributes.iter().flatten().map(attribute).collect(),
            })
            .collect();
        ModelSummary {
            name: text(&m.name),
            shapes,
            materials,
            bones,
            vertex_sets,
        }
    }};
}

/// The names of a dictionary's keys, in the order of the array it names (node 0, the root, is not a key).
fn keys(d: &Option<ResDic>) -> Vec<String> {
    d.iter()
        .flat_map(|d| d.nodes.iter().skip(1))
        .map(|n| text(&n.key))
        .collect()
}

impl Bfres {
    /// The embedded files (a model's textures as a BNTX, shader archives, ...), each with its name from the
    /// dictionary (empty where it has none).
    pub fn embedded_files(&self) -> Vec<(String, &EmbedFileEntry)> {
        let (files, dict) = match &self.body {
            Some(BfresBody::ResFile(f)) => (&f.embed_files, &f.embed_file_dict),
            Some(BfresBody::ResFileV8(f)) => (&f.embed_files, &f.embed_file_dict),
            None => return Vec::new(),
        };
        let mut names = keys(dict).into_iter();
        files
            .iter()
            .flatten()
            .map(|e| (names.next().unwrap_or_default(), e))
            .collect()
    }

    /// The embedded file with this name, to change its bytes.
    pub fn embedded_file_mut(&mut self, name: &str) -> Option<&mut EmbedFileEntry> {
        let (files, dict) = match &mut self.body {
            Some(BfresBody::ResFile(f)) => (&mut f.embed_files, &f.embed_file_dict),
            Some(BfresBody::ResFileV8(f)) => (&mut f.embed_files, &f.embed_file_dict),
            None => return None,
        };
        let i = keys(dict).iter().position(|k| k == name)?;
        files.as_mut()?.get_mut(i)
    }

    /// Every model, summarized.
    pub fn model_summaries(&self) -> Vec<ModelSummary> {
        match &self.body {
            Some(BfresBody::ResFile(f)) => {
                f.models.iter().flatten().map(|m| summarize!(m)).collect()
            }
            Some(BfresBody::ResFileV8(f)) => {
                f.models.iter().flatten().map(|m| summarize!(m)).collect()
            }
            None => Vec::new(),
        }
    }

    /// The summary as `binspec info` prints it, one line each: a model, then its shapes, bones and vertex sets.
    pub fn summary_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for m in self.model_summaries() {
            out.push(format!(
                "model {:?}: {} shapes, {} materials ({}), {} bones",
                m.name,
                m.shapes.len(),
                m.materials.len(),
                m.materials.join(", "),
                m.bones.len()
            ));
            for s in &m.shapes {
                out.push(format!(
                    "  shape {:?}: material {}, vertex set {}, indices {:?}",
                    s.name,
                    s.material
                        .as_deref()
                        .map_or("(none)".into(), |n| format!("{n:?}")),
                    s.vertex_set,
                    s.index_counts
                ));
            }
            if !m.bones.is_empty() {
                let bones: Vec<String> = m
                    .bones
                    .iter()
                    .map(|b| match &b.parent {
                        Some(p) => format!("{} (in {p})", b.name),
                        None => b.name.clone(),
                    })
                    .collect();
                out.push(format!("  bones: {}", bones.join(", ")));
            }
            for (i, v) in m.vertex_sets.iter().enumerate() {
                let attrs: Vec<String> = v
                    .attributes
                    .iter()
                    .map(|a| {
                        format!(
                            "{} {} (buffer {} +{})",
                            a.name, a.format, a.buffer_index, a.buffer_offset
                        )
                    })
                    .collect();
                out.push(format!(
                    "  vertex set {i}: {} vertices; {}",
                    v.vertex_count,
                    attrs.join(", ")
                ));
            }
        }
        out
    }
}
