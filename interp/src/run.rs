//! The interpreter's state for one decode or encode: the module, whether it reads or writes, and the budgets that
//! keep a hostile file or schema from running without bound.

use std::cell::Cell;
use std::rc::Rc;

use binspec_codegen::ir::{Field, Module};

use crate::error::{Error, Result};
use crate::value::{Obj, V};

/// Expression steps one run may take (a file's counts cannot make it loop for ever).
const MAX_STEPS: u64 = 200_000_000;
/// How deep records and instances may nest.
pub const MAX_DEPTH: u32 = 256;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Read,
    Write,
}

/// Which ordered region each pool item is a member of, by type and field: (region type, member number, section).
pub type Members = std::collections::HashMap<(usize, usize), Option<(usize, usize, bool)>>;

pub struct Run<'m> {
    pub m: &'m Module,
    pub hooks: &'m [(String, crate::Hook)],
    pub mode: Mode,
    steps: Cell<u64>,
    pub depth: Cell<u32>,
    /// Records and elements read so far, and how many the input allows (a record or element may take no bytes, so
    /// counts are bounded by the input's size instead: memory stays in proportion to it).
    pub values: Cell<u64>,
    pub max_values: Cell<u64>,
    /// A write pass whose positions are not known yet: sizes and positions that do not work out are not errors.
    pub lenient: Cell<bool>,
    /// What reading has seen of each pool (the runtime's bookkeeping, as the generated reader keeps it).
    pub pools: std::cell::RefCell<binspec_runtime::layout::ReadPools>,
    /// Items queued for each pool's region while writing: their record, field, bytes and alignment.
    pub queues: std::cell::RefCell<Vec<Vec<crate::write::Queued>>>,
    /// The pools whose region this write pass has written.
    pub flushed: std::cell::RefCell<Vec<usize>>,
    /// The streams the last write pass wrote (see [`crate::write::Written`]).
    pub written: std::cell::RefCell<crate::write::Written>,
    /// Where each stream written in this pass starts in the output, by id, where known (a pool item's position
    /// counts in the stream of the record that holds it, which need not be the one its region is in).
    pub bases: std::cell::RefCell<std::collections::HashMap<u64, u64>>,
    /// The positions of deduplicating pools' strings (see [`crate::dedup`]).
    pub dedup: std::cell::RefCell<crate::dedup::DedupState>,
    /// Which ordered region each pool item is a member of ([`Run::member_of`]), by type and field.
    pub members: std::cell::RefCell<Members>,
    /// By type: its value instances that capture where the stream is (`Module::captures_position`), by field.
    pub captures: Vec<Vec<usize>>,
    /// By type: whether each parameter only guards where an item's offset points, so that the writer passes no
    /// value for it (`ir::param_only_in_guards`); and the names of its items whose condition the writer does not
    /// check (`ir::unchecked_guard`). Worked out once, not at each record written.
    pub guard_params: Vec<Vec<bool>>,
    pub unchecked_guards: Vec<Vec<String>>,
    /// The write pass (from 1; spans set while reading have pass 0).
    pub pass: Cell<u32>,
    /// The relocated pointers written (see [`crate::reloc`]).
    pub pointers: std::cell::RefCell<crate::reloc::Pointers>,
    /// The relocated pointers read: their table, where each is in the file, and its value.
    pub read_pointers: std::cell::RefCell<Vec<(String, u64, u64)>>,
    /// The relocation tables judged while reading (their record and field), with how many pointers had been read
    /// then: instances read later (when first named) may read more, and the table is judged again.
    pub tables_read: std::cell::RefCell<Vec<(Rc<crate::value::Obj>, usize, usize)>>,
    /// The file being read (what gaps between pool items are taken from).
    pub root: std::cell::RefCell<Option<Rc<crate::value::Stream>>>,
    /// Where the records of the block chain start (see [`crate::chain`]).
    pub chain: std::cell::RefCell<crate::chain::Chain>,
    /// By type: whether its records are of the block chain (`ir::chain_record`), for each record read or written.
    pub chain_types: Vec<bool>,
    /// By pool: the ranks its `order` gives the instances whose items it holds (`ir::keep_order_ranks`), worked
    /// out once, not at each item read or written.
    pub pool_ranks: Vec<Vec<(usize, usize, u32)>>,
}

impl<'m> Run<'m> {
    pub fn new(m: &'m Module, mode: Mode, hooks: &'m [(String, crate::Hook)]) -> Run<'m> {
        Run {
            m,
            hooks,
            mode,
            steps: Cell::new(0),
            depth: Cell::new(0),
            values: Cell::new(0),
            max_values: Cell::new(u64::MAX),
            lenient: Cell::new(false),
            written: Default::default(),
            root: Default::default(),
            chain: Default::default(),
            chain_types: m
                .types
                .iter()
                .map(binspec_codegen::ir::chain_record)
                .collect(),
            pool_ranks: (0..m.pools.len())
                .map(|p| binspec_codegen::ir::keep_order_ranks(m, p))
                .collect(),
            pointers: Default::default(),
            read_pointers: Default::default(),
            tables_read: Default::default(),
            pass: Cell::new(0),
            members: Default::default(),
            captures: m
                .types
                .iter()
                .enumerate()
                .map(|(ti, t)| {
                    (0..t.instances.len())
                        .filter(|&j| m.captures_position(ti, &t.instances[j].name))
                        .map(|j| t.seq.len() + j)
                        .collect()
                })
                .collect(),
            guard_params: m
                .types
                .iter()
                .map(|t| {
                    t.params
                        .iter()
                        .map(|p| binspec_codegen::ir::param_only_in_guards(t, &p.name))
                        .collect()
                })
                .collect(),
            unchecked_guards: m
                .types
                .iter()
                .map(|t| {
                    t.instances
                        .iter()
                        .filter(|f| binspec_codegen::ir::unchecked_guard(t, f))
                        .map(|f| f.name.clone())
                        .collect()
                })
                .collect(),
            dedup: Default::default(),
            bases: Default::default(),
            pools: {
                // (`x._before` asks where the content before an item ends: every item's end is kept.)
                let mut p = binspec_runtime::layout::ReadPools::new();
                p.track_ends();
                std::cell::RefCell::new(p)
            },
            flushed: Default::default(),
            queues: std::cell::RefCell::new(vec![Vec::new(); m.pools.len()]),
        }
    }

    pub fn tick(&self) -> Result<()> {
        let n = self.steps.get() + 1;
        self.steps.set(n);
        if n > MAX_STEPS {
            return Err(Error::new(format!(
                "more than {MAX_STEPS} steps: the schema or the file makes the interpreter loop"
            )));
        }
        Ok(())
    }

    /// Counts one record or element read; fails past what the input allows.
    pub fn count_value(&self) -> Result<()> {
        let n = self.values.get() + 1;
        self.values.set(n);
        if n > self.max_values.get() {
            return Err(Error::new(format!(
                "more than {} records and elements for this input (records of no bytes, counted without bound?)",
                self.max_values.get()
            )));
        }
        Ok(())
    }

    /// The most records and elements an input of `len` bytes may hold.
    pub fn limit_values(&self, len: usize) {
        self.max_values.set(1_000_000 + 16 * len as u64);
    }

    pub fn enter(&self) -> Result<()> {
        let d = self.depth.get();
        if d >= MAX_DEPTH {
            return Err(Error::new(format!(
                "records nest deeper than {MAX_DEPTH} levels"
            )));
        }
        self.depth.set(d + 1);
        Ok(())
    }
    pub fn leave(&self) {
        self.depth.set(self.depth.get().saturating_sub(1));
    }

    /// Runs `f` one level deeper (failing past [`MAX_DEPTH`]).
    pub fn nested<T>(&self, f: impl FnOnce() -> Result<T>) -> Result<T> {
        self.enter()?;
        let r = f();
        self.leave();
        r
    }

    /// The rank the `order` of keep-order pool `pool` gives the items of field `i` of type `ty` (from 1; 0 where
    /// it names none).
    pub fn item_rank(&self, pool: usize, ty: usize, i: usize) -> u32 {
        let n_seq = self.m.types[ty].seq.len();
        self.pool_ranks[pool]
            .iter()
            .find(|&&(t, j, _)| t == ty && n_seq + j == i)
            .map_or(0, |r| r.2)
    }

    /// Field `i` of a type (seq attributes, then instances).
    pub fn def(&self, ty: usize, i: usize) -> &'m Field {
        self.m.types[ty].field(binspec_codegen::ir::FieldId(i))
    }

    pub fn n_fields(&self, ty: usize) -> usize {
        let t = &self.m.types[ty];
        t.seq.len() + t.instances.len()
    }

    /// The value of field `i` of `obj`: read (an instance on first use) or, when writing, the model's or the
    /// derived value. `None` where the field is absent.
    pub fn field(&self, obj: &Rc<Obj>, i: usize) -> Result<Option<V>> {
        match self.mode {
            Mode::Read => self.read_field_of(obj, i),
            Mode::Write => self.write_value_of(obj, i),
        }
    }

    /// What `_io` of `obj` is: its stream (when writing, as the last pass wrote it).
    pub fn io_of(&self, obj: &Obj) -> Rc<crate::value::Stream> {
        match self.mode {
            Mode::Read => obj.io.borrow().clone(),
            Mode::Write => self.written_io(obj),
        }
    }

    /// What a record read by field `f` of `obj` has as its `_parent` (Kaitai's `parent:` key).
    pub fn parent_for(&self, obj: &Rc<Obj>, f: &Field) -> Option<Rc<Obj>> {
        match f.parent {
            binspec_codegen::ir::ParentRef::Reader => Some(obj.clone()),
            binspec_codegen::ir::ParentRef::Nothing => None,
            binspec_codegen::ir::ParentRef::ReadersParent => obj.parent(),
        }
    }

    /// Runs `f` on instance `i` of `obj`, failing on a cycle (an instance whose value needs itself).
    pub fn guarded<T>(&self, obj: &Rc<Obj>, i: usize, f: impl FnOnce() -> Result<T>) -> Result<T> {
        if std::mem::replace(&mut obj.busy.borrow_mut()[i], true) {
            let name = &self.def(obj.ty, i).name;
            return Err(Error::new(format!("'{name}' needs its own value")));
        }
        let r = self.nested(f);
        obj.busy.borrow_mut()[i] = false;
        r
    }
}
