//! Values while reading and writing: numbers, strings, bytes, arrays, and objects (one per record read or
//! written), with the streams they were read from.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use binspec_runtime::Endian;

/// A stream: bytes `data[start..end]`, whose first byte is at `abs` in the file (for errors).
#[derive(Debug)]
pub struct Stream {
    pub data: Rc<Vec<u8>>,
    pub start: usize,
    pub end: usize,
    pub abs: u64,
    /// Which stream this is when writing: a placeholder and what a pass wrote for it share their id.
    pub id: u64,
}

/// A new stream id.
pub fn new_id() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl Stream {
    pub fn whole(data: Rc<Vec<u8>>) -> Rc<Stream> {
        Stream::whole_as(new_id(), data)
    }
    /// A stream of `data`, as stream `id`.
    pub fn whole_as(id: u64, data: Rc<Vec<u8>>) -> Rc<Stream> {
        let end = data.len();
        Rc::new(Stream {
            data,
            start: 0,
            end,
            abs: 0,
            id,
        })
    }
    pub fn bytes(&self) -> &[u8] {
        &self.data[self.start..self.end]
    }
    pub fn size(&self) -> u64 {
        (self.end - self.start) as u64
    }
    /// Bytes `from..to` of this stream as a stream of their own.
    pub fn sub(&self, from: usize, to: usize) -> Rc<Stream> {
        Rc::new(Stream {
            data: self.data.clone(),
            start: self.start + from,
            end: self.start + to,
            abs: self.abs + from as u64,
            id: new_id(),
        })
    }
}

/// A value.
#[derive(Debug, Clone)]
pub enum V {
    Int(i128),
    Float(f64),
    Bool(bool),
    Str(Rc<str>),
    Bytes(Rc<[u8]>),
    Arr(Rc<Vec<V>>),
    Obj(Rc<Obj>),
    /// A value of enum `.0`.
    Enum(usize, i128),
    Io(Rc<Stream>),
    /// An absent field (its `if` does not hold): equal only to another, and nothing else can be done with it.
    Null,
}

impl V {
    pub fn kind(&self) -> &'static str {
        match self {
            V::Int(_) => "an integer",
            V::Float(_) => "a float",
            V::Bool(_) => "a boolean",
            V::Str(_) => "a string",
            V::Bytes(_) => "bytes",
            V::Arr(_) => "an array",
            V::Obj(_) => "a record",
            V::Enum(..) => "an enum value",
            V::Io(_) => "a stream",
            V::Null => "an absent field",
        }
    }
    /// How many elements an array or bytes value holds (`None` for any other value).
    pub fn elements(&self) -> Option<usize> {
        match self {
            V::Arr(xs) => Some(xs.len()),
            V::Bytes(b) => Some(b.len()),
            _ => None,
        }
    }
    /// The integer of an integer, a boolean or an enum value.
    pub fn int(&self) -> Option<i128> {
        match self {
            V::Int(i) | V::Enum(_, i) => Some(*i),
            V::Bool(b) => Some(i128::from(*b)),
            _ => None,
        }
    }
    /// Equality as Kaitai's `==` sees it (numbers by value, enums by value, strings, bytes).
    pub fn same(&self, o: &V) -> bool {
        match (self, o) {
            (V::Null, b) | (b, V::Null) => matches!(b, V::Null),
            (V::Float(a), b) | (b, V::Float(a)) => match b {
                V::Float(b) => a == b,
                b => b.int().is_some_and(|b| b as f64 == *a),
            },
            (V::Str(a), V::Str(b)) => a == b,
            (V::Bytes(a), V::Bytes(b)) => a == b,
            (V::Arr(a), V::Arr(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.same(y))
            }
            (V::Obj(a), V::Obj(b)) => Rc::ptr_eq(a, b),
            (a, b) => matches!((a.int(), b.int()), (Some(x), Some(y)) if x == y),
        }
    }
}

/// Where a field was read or written: its start and end in its object's stream.
pub type Span = (u64, u64);

/// Where the content before a section ended in a write pass: (that pass, where, the pass before's).
pub type Before = (u32, u64, Option<u64>);

/// One record: the values of its fields (seq attributes, then instances, as [`binspec_codegen::ir::FieldId`]
/// numbers them), its params, its parent and its stream.
#[derive(Debug)]
pub struct Obj {
    pub ty: usize,
    pub vals: RefCell<Vec<Option<V>>>,
    /// Where each field is in the stream (`_pos`, `_sizeof`), once read or written.
    pub spans: RefCell<Vec<Option<Span>>>,
    /// A sized slot's bytes after its content that the writer would not put there (`<field>_filler`).
    pub fillers: RefCell<Vec<Option<Rc<[u8]>>>>,
    /// `-derive` values the document sets (the file's value where it disagrees with the derived one).
    pub overrides: RefCell<Vec<Option<V>>>,
    /// The params' values (when writing, as the holder's values give them where the record is written).
    pub params: RefCell<Vec<V>>,
    pub parent: Option<Weak<Obj>>,
    /// The record that read this one (its parent, unless `parent:` says otherwise): `_root` is found through it.
    pub reader: Option<Weak<Obj>>,
    pub io: RefCell<Rc<Stream>>,
    pub endian: Cell<Endian>,
    /// Where the record starts and ends in its stream.
    pub start: Cell<u64>,
    pub end: Cell<u64>,
    /// Where the stream is while the record's `seq` is read or written (`_io.pos` of an instance named then).
    pub cur_pos: Cell<u64>,
    /// A pool item's alignment where its default does not reproduce the file (`<item>_align`).
    pub aligns: RefCell<Vec<Option<u64>>>,
    /// An empty pool item whose offset points elsewhere than the writer would put it (its offset is kept).
    pub keep: RefCell<Vec<bool>>,
    /// Layout choices (`-layout` fields) read or given.
    pub layout: RefCell<Vec<(String, i128)>>,
    /// Bytes at the end of a region to the end of the file after its last item (`<region>_trailing`).
    pub trailing: RefCell<Option<Rc<[u8]>>>,
    /// While the root is read: its tail region's bytes and where they start, cut to `trailing` once the root's
    /// own items of the region are read too.
    pub tail: RefCell<Option<(u64, Rc<[u8]>)>>,
    /// The switch case a document chose, by field and element (`usize::MAX` for a field that is not repeated).
    pub cases: RefCell<std::collections::HashMap<(usize, usize), usize>>,
    /// Instances being computed (a cycle is an error, not a stack overflow).
    pub busy: RefCell<Vec<bool>>,
    /// A stand-in for the parent of a record read with `parent: false`: each of its fields reads as its type's
    /// default, as the generated code passes defaults for what such a record names of `_parent`.
    pub defaults: Cell<bool>,
    /// A dictionary node's derived values (`_dic.ref_bit`, `_dic.left`, `_dic.right`), once its array's keys made
    /// a dictionary.
    pub dic: Cell<Option<binspec_runtime::layout::resdic::Node>>,
    /// Pool items read before their turn ([`Obj::eager`]), by field: read again in their turn.
    pub early: RefCell<std::collections::HashMap<usize, V>>,
    /// Fields read that the model does not keep (a relocation table that is what the writer would derive).
    pub omitted: RefCell<Vec<bool>>,
    /// Whether reading has reached the record's pool items (before, one named early is read apart).
    pub eager: Cell<bool>,
    /// Each field's span before the write pass that last set it, and that pass (derived positions and lengths are
    /// the previous pass's, as in the generated writer: see [`Obj::derive_span`]).
    pub prev_spans: RefCell<Vec<Option<Span>>>,
    pub span_pass: RefCell<Vec<u32>>,
    /// Where each region of the record (by seq attribute) starts in the file, once read.
    pub region_starts: RefCell<Vec<(usize, u64)>>,
    /// Where the content before each section ends (`x._before`), by field, in the write pass that set it, with the
    /// value of the pass before (derived values are the previous pass's).
    pub befores: RefCell<std::collections::HashMap<usize, Before>>,
    /// Layout choices of an ordered region's members that the model keeps beside the fields (`crate::sections`).
    pub extras: RefCell<Vec<(String, crate::sections::Extra)>>,
}

impl Obj {
    pub fn new(
        ty: usize,
        n_fields: usize,
        params: Vec<V>,
        parent: Option<&Rc<Obj>>,
        reader: Option<&Rc<Obj>>,
        io: Rc<Stream>,
        endian: Endian,
    ) -> Rc<Obj> {
        Rc::new(Obj {
            ty,
            vals: RefCell::new(vec![None; n_fields]),
            spans: RefCell::new(vec![None; n_fields]),
            fillers: RefCell::new(vec![None; n_fields]),
            overrides: RefCell::new(vec![None; n_fields]),
            params: RefCell::new(params),
            parent: parent.map(Rc::downgrade),
            reader: reader.map(Rc::downgrade),
            io: RefCell::new(io),
            endian: Cell::new(endian),
            start: Cell::new(0),
            end: Cell::new(0),
            cur_pos: Cell::new(0),
            busy: RefCell::new(vec![false; n_fields]),
            cases: RefCell::default(),
            aligns: RefCell::new(vec![None; n_fields]),
            keep: RefCell::new(vec![false; n_fields]),
            layout: RefCell::default(),
            trailing: RefCell::default(),
            tail: RefCell::default(),
            extras: RefCell::default(),
            defaults: Cell::new(false),
            eager: Cell::new(false),
            omitted: RefCell::new(vec![false; n_fields]),
            early: RefCell::default(),
            dic: Cell::new(None),
            region_starts: RefCell::default(),
            befores: RefCell::default(),
            prev_spans: RefCell::new(vec![None; n_fields]),
            span_pass: RefCell::new(vec![0; n_fields]),
        })
    }
    /// Sets field `i`'s span in write pass `pass` (keeping the one an earlier pass set).
    pub fn set_span(&self, i: usize, s: Option<Span>, pass: u32) {
        let mut sp = self.span_pass.borrow_mut();
        let Some(p) = sp.get_mut(i) else { return };
        let mut spans = self.spans.borrow_mut();
        if *p != pass {
            *p = pass;
            self.prev_spans.borrow_mut()[i] = spans[i];
        }
        spans[i] = s;
    }
    /// Sets where the content before section `i` ends in write pass `pass`.
    pub fn set_before(&self, i: usize, at: u64, pass: u32) {
        let mut b = self.befores.borrow_mut();
        let e = b.entry(i).or_insert((pass, at, None));
        if e.0 != pass {
            *e = (pass, at, Some(e.1));
        } else {
            e.1 = at;
        }
    }
    /// Where the content before section `i` ended, as write pass `pass` derives from: the previous pass's.
    pub fn derive_before(&self, i: usize, pass: u32) -> Option<u64> {
        let b = self.befores.borrow();
        let &(p, cur, prev) = b.get(&i)?;
        if p == pass {
            prev
        } else {
            Some(cur)
        }
    }
    /// Field `i`'s span as write pass `pass` derives offsets and lengths from: the previous pass's.
    pub fn derive_span(&self, i: usize, pass: u32) -> Option<Span> {
        if self.span_pass.borrow().get(i) == Some(&pass) {
            self.prev_spans.borrow()[i]
        } else {
            self.spans.borrow().get(i).copied().flatten()
        }
    }
    pub fn get(&self, i: usize) -> Option<V> {
        self.vals.borrow().get(i).cloned().flatten()
    }
    pub fn set(&self, i: usize, v: Option<V>) {
        if let Some(s) = self.vals.borrow_mut().get_mut(i) {
            *s = v;
        }
    }
    pub fn parent(&self) -> Option<Rc<Obj>> {
        self.parent.as_ref().and_then(Weak::upgrade)
    }
    pub fn reader(&self) -> Option<Rc<Obj>> {
        self.reader.as_ref().and_then(Weak::upgrade)
    }
}
