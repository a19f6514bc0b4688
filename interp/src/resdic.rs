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

/// A dictionary's node records, and the bytes of their keys (from node 1; `None` where a node has no key: its
/// key is a field of a record the node does not have).
type NodesAndKeys = (Vec<Rc<Obj>>, Option<Vec<Vec<u8>>>);

impl Run<'_> {
    /// The nodes of a `-resdic` array (`v`) and their keys' bytes (from node 1: node 0 is the root).
    fn dic_nodes(&self, f: &Field, v: &V) -> Result<NodesAndKeys> {
        let Some(rk) = &f.resdic else {
            return Ok((Vec::new(), Some(Vec::new())));
        };
        let V::Arr(xs) = v else {
            return Ok((Vec::new(), Some(Vec::new())));
        };
        let mut nodes = Vec::with_capacity(xs.len());
        let mut keys = Some(Vec::new());
        for (k, x) in xs.iter().enumerate() {
            let V::Obj(o) = x else {
                return Err(Error::new("a dictionary node is not a record").in_index(k));
            };
            if k > 0 {
                let key = self.dic_key(o, &rk.key).map_err(|e| e.in_index(k))?;
                match (key, &mut keys) {
                    (Some(b), Some(ks)) => ks.push(b),
                    _ => keys = None,
                }
            }
            nodes.push(o.clone());
        }
        Ok((nodes, keys))
    }

    /// The bytes of node `o`'s key `path` (`KEY`, or `RECORD.KEY`: `None` where the node has no such record).
    fn dic_key(&self, o: &Rc<Obj>, path: &str) -> Result<Option<Vec<u8>>> {
        let mut cur = o.clone();
        let mut names = path.split('.').peekable();
        while let Some(name) = names.next() {
            let fid = self.m.types[cur.ty]
                .field_id(name)
                .ok_or_else(|| Error::new(format!("the node has no key '{path}'")))?;
            let v = self.field(&cur, fid.0)?;
            match (v, names.peek()) {
                (Some(V::Obj(r)), Some(_)) => cur = r,
                (Some(V::Str(s)), None) => return Ok(Some(s.as_bytes().to_vec())),
                (Some(V::Bytes(b)), None) => return Ok(Some(b.to_vec())),
                _ => return Ok(None),
            }
        }
        Ok(None)
    }

    /// After reading a `-resdic` array: each node's derived values, where the keys make a dictionary.
    pub fn read_dic(&self, f: &Field, v: &V) -> Result<()> {
        let (nodes, keys) = self.dic_nodes(f, v)?;
        if let Some(Ok(built)) = keys.map(|k| build(&k)) {
            for (o, b) in nodes.iter().zip(built) {
                o.dic.set(Some(b));
            }
        }
        Ok(())
    }

    /// Before writing a `-resdic` array: each node's derived values from the model's keys.
    pub fn write_dic(&self, f: &Field, v: &V) -> Result<()> {
        let (nodes, keys) = self.dic_nodes(f, v)?;
        match keys.map(|k| build(&k)) {
            Some(Ok(built)) => {
                for (o, b) in nodes.iter().zip(built) {
                    o.dic.set(Some(b));
                }
                Ok(())
            }
            // (Nodes that keep every value the dictionary would give need none.)
            _ if nodes.iter().all(|o| self.keeps_dic_values(o)) => {
                nodes.iter().for_each(|o| o.dic.set(None));
                Ok(())
            }
            Some(Err(e)) => Err(e.into()),
            None => Err(Error::new(
                "a dictionary node has no key, so its reference bit and indices cannot be derived: give it one, or give each node its values",
            )),
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
