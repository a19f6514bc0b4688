//! BFRES names changed where the file names a thing: a model, material, shape or bone renamed in its array and
//! in the dictionary a game finds it by, for versions 8 and 10 alike; and a model removed from both.
//!
//! Written by hand: it changes names in the generated model ([`crate::bfres`]) and lays out no byte (the
//! generated writer derives the pointers to the strings, the string pool's size and the dictionaries' trees).
//!
//! ```no_run
//! use binspec_formats::prelude::*;
//! use binspec_formats::bfres::Bfres;
//! use binspec_formats::bfres_names::Named;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut bfres = Bfres::from_binary(&std::fs::read("AirCurrent.bfres")?)?;
//! bfres.rename(Named::Material("AirCurrent"), "Default_Material", "Wind")?;
//! std::fs::write("AirCurrent.bfres", bfres.to_binary()?)?;
//! # Ok(()) }
//! ```

use binspec_runtime::{Error, Result};

use crate::bfres::{Bfres, BfresBody, NwString, ResDic};

/// What [`Bfres::rename`] renames: a model, or a material, shape or bone of the model named so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named<'a> {
    Model,
    Material(&'a str),
    Shape(&'a str),
    Bone(&'a str),
}

impl Named<'_> {
    /// What it is, as messages name it.
    fn what(&self) -> &'static str {
        match self {
            Named::Model => "model",
            Named::Material(_) => "material",
            Named::Shape(_) => "shape",
            Named::Bone(_) => "bone",
        }
    }
}

/// Whether name `n` is there and is `s`.
fn named(n: &Option<NwString>, s: &str) -> bool {
    n.as_ref().is_some_and(|n| n.data == s)
}

/// Renames the item named `old` among `names` (a model's array of one kind) and its key in `dict`, the
/// dictionary of that array.
fn rename_in(
    what: &str,
    mut names: Vec<&mut Option<NwString>>,
    dict: Option<&mut ResDic>,
    old: &str,
    new: &str,
) -> Result<()> {
    let at = (names.iter().position(|n| named(n, old)))
        .ok_or_else(|| Error::other(format!("no {what} is named {old:?}")))?;
    if old == new {
        return Ok(());
    }
    if new.is_empty() {
        return Err(Error::other(format!("a {what} cannot be named \"\"")));
    }
    if names.iter().any(|n| named(n, new)) {
        return Err(Error::other(format!(
            "a {what} is named {new:?} already: the dictionary could not tell the two apart"
        )));
    }
    // (The key is found before anything changes.)
    let key = match dict {
        Some(d) => Some(
            (d.nodes.iter_mut().skip(1))
                .find_map(|n| n.key.as_mut().filter(|k| k.data == old))
                .ok_or_else(|| {
                    Error::other(format!("the {what}s' dictionary has no key {old:?}"))
                })?,
        ),
        None => None,
    };
    for s in key.into_iter().chain(names[at].as_mut()) {
        s.data = new.into();
        // (The bytes the file had after the old name do not go with the new one.)
        s.padding_filler = None;
    }
    Ok(())
}

/// The lines of [`Bfres::name_mismatches`] for one array (`what`, in `place`) and its dictionary: node `i + 1`
/// names item `i`.
fn mismatches(
    out: &mut Vec<String>,
    place: &str,
    what: &str,
    items: &[Option<&str>],
    dict: Option<&ResDic>,
) {
    let Some(d) = dict else { return };
    let keys = names(d.nodes.iter().skip(1).map(|n| &n.key));
    for (i, (n, k)) in items.iter().zip(&keys).enumerate() {
        if n != k {
            out.push(format!(
                "{place}{what} {i} is named {} and its dictionary key is {}",
                n.map_or("(nothing)".into(), |n| format!("{n:?}")),
                k.map_or("(nothing)".into(), |k| format!("{k:?}"))
            ));
        }
    }
    if items.len() != keys.len() {
        out.push(format!(
            "{place}{} {what}s and {} dictionary keys",
            items.len(),
            keys.len()
        ));
    }
}

/// The names' texts (`None` where a name is absent).
fn names<'a>(v: impl Iterator<Item = &'a Option<NwString>>) -> Vec<Option<&'a str>> {
    v.map(|n| n.as_ref().map(|n| &*n.data)).collect()
}

/// [`Bfres::name_mismatches`] of model `m` (of either version).
macro_rules! model_mismatches {
    ($out:expr, $m:expr) => {{
        let m = $m;
        let place = format!("model {:?}: ", m.name.as_ref().map_or("", |n| &*n.data));
        let materials = names(m.materials.iter().flatten().map(|x| &x.name));
        mismatches(
            $out,
            &place,
            "material",
            &materials,
            m.material_dict.as_ref(),
        );
        let shapes = names(m.shapes.iter().flatten().map(|x| &x.name));
        mismatches($out, &place, "shape", &shapes, m.shape_dict.as_ref());
        if let Some(s) = &m.skeleton_data {
            let bones = names(s.bones.iter().flatten().map(|x| &x.name));
            mismatches($out, &place, "bone", &bones, s.bone_dict.as_ref());
        }
    }};
}

/// [`Bfres::rename`] in model `m` (of either version: the fields used are named alike).
macro_rules! in_model {
    ($m:expr, $what:expr, $old:expr, $new:expr) => {{
        let m = $m;
        let w = $what.what();
        match $what {
            Named::Material(_) => rename_in(
                w,
                m.materials
                    .iter_mut()
                    .flatten()
                    .map(|x| &mut x.name)
                    .collect(),
                m.material_dict.as_mut(),
                $old,
                $new,
            ),
            Named::Shape(_) => rename_in(
                w,
                m.shapes.iter_mut().flatten().map(|x| &mut x.name).collect(),
                m.shape_dict.as_mut(),
                $old,
                $new,
            ),
            _ => {
                let s = m
                    .skeleton_data
                    .as_mut()
                    .ok_or_else(|| Error::other("the model has no skeleton"))?;
                rename_in(
                    w,
                    s.bones.iter_mut().flatten().map(|x| &mut x.name).collect(),
                    s.bone_dict.as_mut(),
                    $old,
                    $new,
                )
            }
        }
    }};
}

/// Removes the item named `name` from `items` (an array of the file or a model) and its key from `dict`, the
/// dictionary of that array; `what` names the kind for messages. The dictionary's other nodes keep their keys; its
/// tree is derived again (the values a file held that are not the derived ones are dropped: they described the
/// old tree).
fn remove_in<T>(
    what: &str,
    items: &mut Vec<T>,
    name_of: impl Fn(&T) -> &Option<NwString>,
    dict: Option<&mut ResDic>,
    name: &str,
) -> Result<()> {
    let at = (items.iter().position(|x| named(name_of(x), name)))
        .ok_or_else(|| Error::other(format!("no {what} is named {name:?}")))?;
    if let Some(d) = dict {
        let node = (d.nodes.iter().enumerate().skip(1))
            .find(|(_, n)| n.key.as_ref().is_some_and(|k| k.data == name))
            .map(|(i, _)| i)
            .ok_or_else(|| Error::other(format!("the {what}s' dictionary has no key {name:?}")))?;
        d.nodes.remove(node);
        for n in &mut d.nodes {
            n.ref_bit = None;
            n.left = None;
            n.right = None;
        }
    }
    items.remove(at);
    Ok(())
}

impl Bfres {
    /// Removes the model named `name`: from the array of models and from their dictionary. Its structures and
    /// names go with it; the writer lays the rest out again, in the order in which it meets the structures (the
    /// order the file had is a list of positions that no longer fits, so it is dropped), and derives the count,
    /// the pointers, the dictionary's tree and the relocation table. The model's index and vertex buffers stay in
    /// the GPU region, unused, as the GPU region is kept as the file has it; so do its strings in the string pool.
    ///
    /// # Errors
    /// No model is named so, or the dictionary has no key `name`; the file is then unchanged.
    pub fn remove_model(&mut self, name: &str) -> Result<()> {
        macro_rules! in_file {
            ($f:expr) => {{
                let f = $f;
                let models = f
                    .models
                    .as_mut()
                    .ok_or_else(|| Error::other(format!("no model is named {name:?}")))?;
                remove_in("model", models, |m| &m.name, f.model_dict.as_mut(), name)
            }};
        }
        match &mut self.body {
            Some(BfresBody::ResFile(f)) => in_file!(f)?,
            Some(BfresBody::ResFileV8(f)) => in_file!(f)?,
            None => return Err(Error::other("the file has no body")),
        }
        self.layout_item_order = None;
        self.layout_item_align = None;
        Ok(())
    }

    /// What does not agree between the names of the models, and of each model's materials, shapes and bones, and
    /// the keys of the dictionaries a game finds them by: one line each, empty where they agree. A document edited
    /// by hand can rename one and not its key ([`Bfres::rename`] renames both).
    pub fn name_mismatches(&self) -> Vec<String> {
        let mut out = Vec::new();
        match &self.body {
            Some(BfresBody::ResFile(f)) => {
                let models = names(f.models.iter().flatten().map(|m| &m.name));
                mismatches(&mut out, "", "model", &models, f.model_dict.as_ref());
                for m in f.models.iter().flatten() {
                    model_mismatches!(&mut out, m);
                }
            }
            Some(BfresBody::ResFileV8(f)) => {
                let models = names(f.models.iter().flatten().map(|m| &m.name));
                mismatches(&mut out, "", "model", &models, f.model_dict.as_ref());
                for m in f.models.iter().flatten() {
                    model_mismatches!(&mut out, m);
                }
            }
            None => {}
        }
        out
    }

    /// Renames a model, or a material, shape or bone of a model, from `old` to `new`: its name and its key in the
    /// dictionary of its kind, the two places the file names it. The string pool keeps the strings the file held,
    /// the old name among them, and adds the new one after them, as for any name the file did not hold; the
    /// writer derives the pointers, the pool's size and the dictionary's tree. Nothing else changes: a shape
    /// refers to its material by index, and names that merely contain the old one (Nintendo's shape names repeat
    /// their material's) are left as they are.
    ///
    /// # Errors
    /// No model is named so, nothing of that kind is named `old` in it, another is named `new` already (its
    /// dictionary could not tell the two apart), `new` is empty, or the dictionary has no key `old`; the model is
    /// then unchanged.
    pub fn rename(&mut self, what: Named<'_>, old: &str, new: &str) -> Result<()> {
        let model = match what {
            Named::Model => None,
            Named::Material(m) | Named::Shape(m) | Named::Bone(m) => Some(m),
        };
        // (In a body of either version: the fields used are named alike.)
        macro_rules! in_file {
            ($f:expr) => {{
                let f = $f;
                match model {
                    None => rename_in(
                        "model",
                        f.models.iter_mut().flatten().map(|x| &mut x.name).collect(),
                        f.model_dict.as_mut(),
                        old,
                        new,
                    ),
                    Some(name) => {
                        let m = (f.models.iter_mut().flatten())
                            .find(|m| named(&m.name, name))
                            .ok_or_else(|| Error::other(format!("no model is named {name:?}")))?;
                        in_model!(m, what, old, new)
                    }
                }
            }};
        }
        match &mut self.body {
            Some(BfresBody::ResFile(f)) => in_file!(f),
            Some(BfresBody::ResFileV8(f)) => in_file!(f),
            None => Err(Error::other("the file has no body")),
        }
    }
}
