//! `nn::util` dictionaries (`-resdic: KEY` on an array of node records): the nodes' reference bits and indices
//! (`-derive: _dic.ref_bit`, `_dic.left`, `_dic.right`) are what `binspec_runtime::layout::resdic::build` makes of
//! the keys in their order, as the generated code derives them. A file whose values differ keeps them as
//! overrides; keys that make no dictionary derive nothing when read and are a write error (unless every node keeps
//! all three values).

use std::rc::Rc;

use binspec_codegen::ir::{Field, Role};
use binspec_runtime::layout::resdic::{build, Node};

use crate::error::{Error, Result};
use crate::run::Run;
use crate::value::{Obj, V};

/// A dictionary's node records, and the bytes of their keys (from node 1).
type NodesAndKeys = (Vec<Rc<Obj>>, Vec<Vec<u8>>);

impl Run<'_> {
    /// The nodes of a `-resdic` array (`v`) and their keys' bytes (from node 1: node 0 is the root).
    fn dic_nodes(&self, f: &Field, v: &V) -> Result<NodesAndKeys> {
        let Some(rk) = &f.resdic else {
            return Ok((Vec::new(), Vec::new()));
        };
        let V::Arr(xs) = v else {
            return Ok((Vec::new(), Vec::new()));
        };
        let mut nodes = Vec::with_capacity(xs.len());
        let mut keys = Vec::new();
        for (k, x) in xs.iter().enumerate() {
            let V::Obj(o) = x else {
                return Err(Error::new("a dictionary node is not a record").in_index(k));
            };
            if k > 0 {
                let t = &self.m.types[o.ty];
                let fid = t.field_id(&rk.key).ok_or_else(|| {
                    Error::new(format!("the node has no key '{}'", rk.key)).in_index(k)
                })?;
                keys.push(match self.field(o, fid.0).map_err(|e| e.in_index(k))? {
                    Some(V::Str(s)) => s.as_bytes().to_vec(),
                    Some(V::Bytes(b)) => b.to_vec(),
                    _ => Vec::new(),
                });
            }
            nodes.push(o.clone());
        }
        Ok((nodes, keys))
    }

    /// After reading a `-resdic` array: each node's derived values, where the keys make a dictionary.
    pub fn read_dic(&self, f: &Field, v: &V) -> Result<()> {
        let (nodes, keys) = self.dic_nodes(f, v)?;
        if let Ok(built) = build(&keys) {
            for (o, b) in nodes.iter().zip(built) {
                o.dic.set(Some(b));
            }
        }
        Ok(())
    }

    /// Before writing a `-resdic` array: each node's derived values from the model's keys.
    pub fn write_dic(&self, f: &Field, v: &V) -> Result<()> {
        let (nodes, keys) = self.dic_nodes(f, v)?;
        match build(&keys) {
            Ok(built) => {
                for (o, b) in nodes.iter().zip(built) {
                    o.dic.set(Some(b));
                }
                Ok(())
            }
            // (Nodes that keep every value the dictionary would give need none.)
            Err(_) if nodes.iter().all(|o| self.keeps_dic_values(o)) => {
                nodes.iter().for_each(|o| o.dic.set(None));
                Ok(())
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Whether a node's model holds an override for each of its fields derived from the dictionary.
    fn keeps_dic_values(&self, o: &Obj) -> bool {
        let t = &self.m.types[o.ty];
        t.seq.iter().enumerate().all(|(i, f)| match &f.role {
            Role::Derive(x) if binspec_codegen::ir::dic_part(&x.expr).is_some() => {
                o.overrides.borrow()[i].is_some()
            }
            _ => true,
        })
    }

    /// `_dic.PART` for the node `obj` (nothing where its dictionary was not built: never equal to a value, so a
    /// reader keeps the file's).
    pub fn dic_value(&self, obj: &Obj, part: &str) -> V {
        let Some(Node {
            ref_bit,
            left,
            right,
        }) = obj.dic.get()
        else {
            return V::Null;
        };
        V::Int(match part {
            "ref_bit" => i128::from(ref_bit),
            "left" => i128::from(left),
            _ => i128::from(right),
        })
    }
}
