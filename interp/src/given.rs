//! Values given by a record's holder ([`Role::Given`]): a field of a record inside a type (AINB's property ranges,
//! a base index and a count in a record of an element's parameters) that the type derives for one of its pool
//! items, as the generated writer does (`emit_rust/given.rs`): a count from the item's length, a position solved
//! from the item's `pos` where the previous pass put it. The record's model holds such a field only as an override:
//! where the user sets it, or, for a position, where the item is empty and the file's points elsewhere than the
//! writer would put it.

use std::rc::Rc;

use binspec_codegen::ir::{Given, GivenKind};

use crate::error::{Error, Result};
use crate::run::Run;
use crate::value::{Obj, V};

impl Run<'_> {
    /// The record and field that `chain` (from `obj`) ends at.
    fn given_target(&self, obj: &Rc<Obj>, chain: &[String]) -> Option<(Rc<Obj>, usize)> {
        let mut o = obj.clone();
        for (k, name) in chain.iter().enumerate() {
            let fid = self.m.types[o.ty].field_id(name)?.0;
            if k + 1 == chain.len() {
                return Some((o, fid));
            }
            match o.get(fid) {
                Some(V::Obj(x)) => o = x,
                _ => return None,
            }
        }
        None
    }

    /// Once `obj`'s pool items are read: the fields it gives records inside it are the writer's to derive (no
    /// override in the model), except the position of an empty item that the file has elsewhere.
    pub fn settle_given(&self, obj: &Rc<Obj>) {
        let t = &self.m.types[obj.ty];
        for g in &t.given {
            let Some((o, fid)) = self.given_target(obj, &g.chain) else {
                continue;
            };
            let kept = g.kind == GivenKind::Offset
                && self.keeps_empty_position(obj.ty, t.field(g.of))
                && obj.keep.borrow()[g.of.0];
            if !kept {
                o.overrides.borrow_mut()[fid] = None;
            }
        }
    }

    /// Before `obj` is written: the values it gives the records inside it, set where the records' writers and
    /// its items' counts take them. Returns what to clear once it is written.
    pub fn give(&self, obj: &Rc<Obj>) -> Result<Vec<(Rc<Obj>, usize)>> {
        let t = &self.m.types[obj.ty];
        let mut set = Vec::new();
        for g in &t.given {
            let Some((o, fid)) = self.given_target(obj, &g.chain) else {
                continue;
            };
            let v = self.given_value(obj, g, &o, fid)?;
            o.set(fid, Some(V::Int(v)));
            set.push((o, fid));
        }
        Ok(set)
    }

    /// The value `obj` gives field `fid` of `o` for `g`: the override where it applies, else derived.
    fn given_value(&self, obj: &Rc<Obj>, g: &Given, o: &Rc<Obj>, fid: usize) -> Result<i128> {
        let item = self.m.types[obj.ty].field(g.of);
        let len = obj.get(g.of.0).and_then(|v| v.elements()).unwrap_or(0);
        let over = o.overrides.borrow()[fid].as_ref().and_then(V::int);
        match g.kind {
            GivenKind::Count => Ok(over.unwrap_or(len as i128)),
            GivenKind::Offset => {
                if let (Some(v), 0) = (over, len) {
                    return Ok(v);
                }
                let Some(p) = item.pos_expr() else {
                    return Err(Error::new(
                        "internal: a position given for an item without 'pos'",
                    ));
                };
                let target = obj
                    .derive_span(g.of.0, self.pass.get())
                    .map_or(0, |(at, _)| i128::from(at));
                match self.linear_solution(obj, o, fid, &p.expr, target)? {
                    Some(q) => Ok(q),
                    None if self.lenient.get() => Ok(0),
                    None => Err(Error::new(format!(
                        "no value of this field gives the position {target} the writer chose"
                    ))
                    .in_field(&g.chain.join("."))),
                }
            }
        }
    }
}
