//! Block chains (`-derive: _chain.next`, `binspec_runtime::layout::chain`): the interpreter notes where each record
//! of a chain type starts, from the file's start, while reading (all of them are known when the model is exported,
//! which compares each value with what the writer derives) and in each write pass (the next pass derives the
//! distances from those).

use binspec_runtime::layout::chain::next_distance;

use crate::run::{Mode, Run};
use crate::value::{Obj, V};

/// The chain's record starts: those of the last write pass (sorted, each once), and those of this pass or read.
#[derive(Debug, Default)]
pub struct Chain {
    prev: Vec<u64>,
    cur: Vec<u64>,
    /// Where the chain ends (`-chain-end`): in the last write pass, and in this one or the read.
    prev_end: Option<u64>,
    end: Option<u64>,
    /// How many records a read had noted, and its end, when a value of its model was first exported.
    read: Option<(usize, Option<u64>)>,
}

impl Run<'_> {
    /// Where `obj` starts from the output's (or the file's) start.
    fn chain_start(&self, obj: &Obj) -> u64 {
        let io = obj.io.borrow();
        let base = match self.mode {
            Mode::Read => io.abs,
            Mode::Write => self.base_of(io.id),
        };
        base + obj.start.get()
    }

    /// Notes a record of the chain, read or written (its `start` set).
    pub fn chain_note(&self, obj: &Obj) {
        if self.chain_types[obj.ty] {
            let at = self.chain_start(obj);
            self.chain.borrow_mut().cur.push(at);
        }
    }

    /// After a read's first export: whether it read records of the chain, or its end, that chain values exported
    /// before them did not know (the model is exported again).
    pub fn chain_grew_in_export(&self) -> bool {
        let c = self.chain.borrow();
        c.read
            .is_some_and(|(n, end)| n < c.cur.len() || end != c.end)
    }

    /// Notes where the chain ends, where `f` is the instance that marks it, at `at` from the file's start.
    pub fn chain_end_at(&self, f: &binspec_codegen::ir::Field, at: u64) {
        if f.chain_end {
            self.chain.borrow_mut().end = Some(at);
        }
    }

    /// A new write pass: the last one's starts are the ones distances derive from.
    pub fn chain_new_pass(&self) {
        let mut c = self.chain.borrow_mut();
        let mut starts = std::mem::take(&mut c.cur);
        starts.sort_unstable();
        starts.dedup();
        c.prev = starts;
        c.prev_end = c.end.take();
    }

    /// `_chain.next` of `obj`: the distance to the next record of the chain (of the whole file read, or of the
    /// last write pass), 0 for the last; `_chain.size` (`to_end`): for the last, the distance to the chain's end.
    pub fn chain_value(&self, obj: &Obj, to_end: bool) -> V {
        let own = self.chain_start(obj);
        let c = self.chain.borrow();
        let d = match self.mode {
            Mode::Read => {
                drop(c);
                let mut c = self.chain.borrow_mut();
                if c.read.is_none() {
                    c.read = Some((c.cur.len(), c.end));
                }
                let mut starts = c.cur.clone();
                starts.sort_unstable();
                starts.dedup();
                next_distance(&starts, own, c.end.filter(|_| to_end))
            }
            Mode::Write => next_distance(&c.prev, own, c.prev_end.filter(|_| to_end)),
        };
        V::Int(i128::from(d))
    }
}
