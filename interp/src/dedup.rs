//! Deduplicating string pools (`-pool: {id, dedup: true}`), as the runtime's `layout/dedup.rs` writes them for the
//! generated code: the region is a model field, the strings the file held in order (read with
//! `layout::pool_strings`); it is written first, then each queued string that is not equal to one written already,
//! then the strings met after the region in an earlier pass. Equal strings share one position. A string met after
//! its region was written takes the position of an equal one there, or the region's end, where every later pass
//! writes it.

use std::collections::HashMap;
use std::rc::Rc;

use crate::error::{Error, Result};
use crate::run::Run;
use crate::value::{Obj, V};
use crate::write::{Queued, SW};

/// What the write of deduplicating pools keeps: by pool, where each string is in this pass (absolute positions in
/// the output) and where the region ends; and the strings met after their region, which later passes write in it.
#[derive(Debug, Default)]
pub struct DedupState {
    at: HashMap<usize, HashMap<Vec<u8>, u64>>,
    end: HashMap<usize, u64>,
    late: Vec<(usize, Vec<u8>)>,
    /// How many strings (or records) each region held in this pass and in the pass before.
    counts: HashMap<usize, u64>,
    prev_counts: HashMap<usize, u64>,
}

impl DedupState {
    /// Starts a pass (the strings met late stay, so that passes settle).
    pub fn new_pass(&mut self) {
        self.at.clear();
        self.end.clear();
        self.prev_counts = std::mem::take(&mut self.counts);
    }
}

impl Run<'_> {
    /// The terminator of pool `pool`'s strings (its items', which the generator requires to agree).
    pub fn dedup_term(&self, pool: usize) -> Vec<u8> {
        let t = self
            .m
            .types
            .iter()
            .flat_map(|t| t.instances.iter())
            .find(|f| f.item_of == Some(pool))
            .and_then(|f| f.terminator)
            .unwrap_or(0);
        vec![t]
    }

    /// The strings of a deduplicating pool's region read as `bytes` at `at` (absolute), for the model.
    pub fn read_pool_strings(&self, pool: usize, bytes: &[u8], at: u64) -> Result<V> {
        let strings = binspec_runtime::layout::pool_strings(bytes, &self.dedup_term(pool), at)?;
        Ok(V::Arr(Rc::new(
            strings.into_iter().map(|s| V::Str(Rc::from(s))).collect(),
        )))
    }

    /// A string of a deduplicating pool met after its region was written in this pass: the position of an equal
    /// string there, or the region's end (then written there from the next pass on). Where it is, in its holder's
    /// stream, is noted as the item's span.
    pub fn dedup_late(&self, obj: &Rc<Obj>, i: usize, pool: usize, stream: u64, bytes: Vec<u8>) {
        let mut st = self.dedup.borrow_mut();
        let found = st.at.get(&pool).and_then(|m| m.get(&bytes)).copied();
        let abs = match found {
            Some(p) => p,
            None => {
                let end = st.end.entry(pool).or_insert(0);
                let p = *end;
                *end += bytes.len() as u64;
                st.at.entry(pool).or_default().insert(bytes.clone(), p);
                if !st.late.iter().any(|(q, b)| *q == pool && *b == bytes) {
                    st.late.push((pool, bytes.clone()));
                }
                p
            }
        };
        let at = abs.saturating_sub(self.base_of(stream));
        obj.set_span(i, Some((at, at + bytes.len() as u64)), self.pass.get());
    }

    /// How many strings (or records) the region of pool `pool` held in the previous pass, or `listed` (the
    /// model's) in the first: the count a region's count field gives (`WriteCtx::dedup_count`).
    pub fn dedup_count(&self, pool: usize, listed: usize) -> u64 {
        let st = self.dedup.borrow();
        st.prev_counts.get(&pool).copied().unwrap_or(listed as u64)
    }

    /// The model's list of a deduplicating pool's region, each string (with its terminator) or record encoded.
    fn dedup_recorded(
        &self,
        obj: &Rc<Obj>,
        i: usize,
        pool: usize,
        sw: &SW,
    ) -> Result<Vec<Vec<u8>>> {
        let recorded = match obj.get(i) {
            Some(V::Arr(xs)) => xs,
            _ => Rc::new(Vec::new()),
        };
        let records = self.m.dedup_records(pool).is_some();
        let term = self.dedup_term(pool);
        let f = self.def(obj.ty, i).clone();
        let mut out = Vec::with_capacity(recorded.len());
        for (k, s) in recorded.iter().enumerate() {
            let b = match s {
                // A record, written apart as an item is.
                V::Obj(_) if records => {
                    let mut sub = SW::at(sw.id, 0);
                    self.write_one(obj, i, &f, s, &mut sub, Some(k))
                        .map_err(|e| e.in_index(k))?;
                    sub.w.flush_bits();
                    sub.w.into_inner()
                }
                V::Str(s) if !records => {
                    binspec_runtime::write::check_term(s.as_bytes(), &term)
                        .map_err(|e| Error::from(e).in_index(k))?;
                    let mut b = s.as_bytes().to_vec();
                    b.extend_from_slice(&term);
                    b
                }
                _ => {
                    let want = if records { "a record" } else { "a string" };
                    return Err(
                        Error::new(format!("expected {want}, found {}", s.kind())).in_index(k)
                    );
                }
            };
            out.push(b);
        }
        Ok(out)
    }

    /// A deduplicating pool's region: the model's strings or records (the file's, in order), then the queued ones
    /// that are not among them, then the ones met after the region in an earlier pass.
    pub fn write_dedup_region(
        &self,
        obj: &Rc<Obj>,
        i: usize,
        pool: usize,
        items: Vec<Queued>,
        sw: &mut SW,
    ) -> Result<()> {
        let base = self.base_of(sw.id);
        let mut at: HashMap<Vec<u8>, u64> = HashMap::new();
        let recorded = self.dedup_recorded(obj, i, pool, sw)?;
        let mut count = recorded.len() as u64;
        for b in recorded {
            at.entry(b.clone()).or_insert(base + sw.w.pos() as u64);
            sw.w.bytes(&b);
        }
        for q in items {
            let abs = match at.get(&q.bytes) {
                Some(&p) => p,
                None => {
                    sw.w.align(q.align);
                    let p = base + sw.w.pos() as u64;
                    sw.w.bytes(&q.bytes);
                    at.insert(q.bytes.clone(), p);
                    count += 1;
                    p
                }
            };
            let rel = abs.saturating_sub(self.base_of(q.stream));
            q.obj.set_span(
                q.field,
                Some((rel, rel + q.bytes.len() as u64)),
                self.pass.get(),
            );
        }
        let late = self.dedup.borrow().late.clone();
        for (p, b) in late {
            if p == pool && !at.contains_key(&b) {
                at.insert(b.clone(), base + sw.w.pos() as u64);
                sw.w.bytes(&b);
                count += 1;
            }
        }
        let mut st = self.dedup.borrow_mut();
        st.end.insert(pool, base + sw.w.pos() as u64);
        st.at.insert(pool, at);
        st.counts.insert(pool, count);
        Ok(())
    }
}
