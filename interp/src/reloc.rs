//! Relocation tables (`-relocate: ID` on pointers, `-relocations: {id, from, size, encoding}` on the table), as the
//! generated writer derives them (`WriteCtx::pointer`, `pointer_to`, `relocations`, `bina_offsets`): each pass
//! notes where it wrote each pointer whose item is present and which item it points to (or, for a pointer the
//! model holds, its value where it is not null); the next pass lists the pointers whose
//! targets lay in the table's region, by their positions from the start of the table's stream, as `nn::util`
//! entries (`reloc::group`) or a BINA offset table (`reloc::bina_encode`). A reader keeps a file's table only
//! where it is not what the writer would make of the pointers it lists.

use std::rc::Rc;

use binspec_codegen::ir::{Field, RelocEncoding, Relocations, Role};
use binspec_runtime::layout::reloc;

use crate::error::{Error, Result};
use crate::eval::Env;
use crate::run::Run;
use crate::value::{Obj, V};

/// A pointer written in this pass: its table, where it is in the output, and what it points to.
pub struct Pointer {
    pub table: String,
    pub at: u64,
    pub target: Target,
}

/// What a pointer points to: an item (the record, the field, and the stream the item's position counts in), or,
/// for a pointer the model holds, its value.
pub enum Target {
    Item {
        obj: Rc<Obj>,
        field: usize,
        stream: u64,
    },
    Value(u64),
}

/// The pointers of this pass, and those of the previous one with where their items were (in the output).
#[derive(Default)]
pub struct Pointers {
    pub cur: Vec<Pointer>,
    pub prev: Vec<(String, u64, u64)>,
}

impl Run<'_> {
    /// Starts a write pass: the last pass's pointers, with where their items ended up.
    pub fn pointers_new_pass(&self) {
        let mut p = self.pointers.borrow_mut();
        let cur = std::mem::take(&mut p.cur);
        p.prev = cur
            .into_iter()
            .filter_map(|x| {
                let target = match x.target {
                    Target::Item { obj, field, stream } => {
                        let (at, _) = obj.spans.borrow()[field]?;
                        self.base_of(stream) + at
                    }
                    Target::Value(v) => v,
                };
                Some((x.table, x.at, target))
            })
            .collect();
    }

    /// Notes pointer `f` (field `i` of `obj`, written as `v`) at `at` in the output: where its item is present,
    /// for an offset the writer derives; where it is not null (nor past 2^62, no position of a file), for one the
    /// model holds; and where it is null, for a pointer marked `list-null: true`.
    pub fn note_pointer(&self, obj: &Rc<Obj>, f: &Field, at: u64, v: &V) -> Result<()> {
        let Some(r) = &f.relocate else {
            return Ok(());
        };
        let target = match (&f.role, v) {
            // Absent, the pointer is null: listed only where the table lists null ones.
            (Role::Offset { of }, _) if obj.get(of.0).is_none() => match r.null {
                true => Target::Value(0),
                false => return Ok(()),
            },
            (Role::Offset { of }, _) => {
                let item = self.m.types[obj.ty].field(*of);
                let stream = self.item_stream(obj, item)?;
                Target::Item {
                    obj: obj.clone(),
                    field: of.0,
                    stream,
                }
            }
            // One the model holds, one derived from an expression, and one the type holding its record derives
            // (BNTX's pointer to its GPU region): by the value written.
            (Role::Data | Role::Derive(_) | Role::Given, V::Int(x)) if listed(*x, r.null) => {
                Target::Value(*x as u64)
            }
            _ => return Ok(()),
        };
        self.pointers.borrow_mut().cur.push(Pointer {
            table: r.id.clone(),
            at,
            target,
        });
        Ok(())
    }

    /// The region of table `r` of `obj` (`from` and `size`; every pointer of the table where it has none).
    fn table_region(&self, obj: &Rc<Obj>, r: &Relocations) -> Result<Option<(i128, i128)>> {
        Ok(match (&r.from, &r.size) {
            (Some(from), Some(size)) => Some((
                self.eval_int(&from.expr, &Env::of(obj))?,
                self.eval_int(&size.expr, &Env::of(obj))?,
            )),
            _ => None,
        })
    }

    /// The positions, from where `obj`'s stream starts, of the last pass's pointers of table `f.relocations` whose
    /// items lay in its region.
    fn relocated(&self, obj: &Rc<Obj>, f: &Field) -> Result<Vec<u32>> {
        let Some(r) = &f.relocations else {
            return Ok(Vec::new());
        };
        let base = self.base_of(obj.io.borrow().id);
        let region = self.table_region(obj, r)?;
        let mut out = Vec::new();
        for (table, at, target) in &self.pointers.borrow().prev {
            if *table != r.id {
                continue;
            }
            let v = i128::from(*target) - i128::from(base);
            if region.is_some_and(|(from, size)| v < from || v - from >= size) {
                continue;
            }
            let p = at.checked_sub(base).and_then(|x| u32::try_from(x).ok());
            out.push(p.ok_or_else(|| {
                Error::new(format!(
                    "a relocated pointer at {at:#x} is not within 4 GiB after its table's stream starts at \
                     {base:#x}"
                ))
            })?);
        }
        // (Before positions settle, an item is written at where it was in the pass before, or at 0 in the first
        // pass, so two pointers may seem to be at one place: each position once. Once they settle, positions are
        // distinct, as the generated writer's, which moves recorded positions with their items, always are.)
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    /// Before `obj` is written: its relocation tables that the model does not keep, derived from the last pass's
    /// pointers. Returns the fields to clear once it is written.
    pub fn derive_tables(&self, obj: &Rc<Obj>) -> Result<Vec<usize>> {
        let mut set = Vec::new();
        for i in 0..self.n_fields(obj.ty) {
            let f = self.def(obj.ty, i);
            let Some(r) = &f.relocations else { continue };
            if obj.get(i).is_some() {
                continue;
            }
            let positions = self.relocated(obj, f).map_err(|e| e.in_field(&f.name))?;
            let v = match r.encoding {
                RelocEncoding::Bina => V::Bytes(Rc::from(
                    reloc::bina_encode(&positions).map_err(|e| Error::from(e).in_field(&f.name))?,
                )),
                RelocEncoding::NnUtil => {
                    let entries =
                        reloc::group(&positions).map_err(|e| Error::from(e).in_field(&f.name))?;
                    V::Arr(Rc::new(
                        entries
                            .iter()
                            .map(|e| self.entry_record(obj, f, e))
                            .collect::<Result<_>>()?,
                    ))
                }
            };
            obj.set(i, Some(v));
            set.push(i);
        }
        Ok(set)
    }

    /// An `nn::util` entry as a record of the entries' type (its four fields in order).
    fn entry_record(&self, obj: &Rc<Obj>, f: &Field, e: &reloc::Entry) -> Result<V> {
        let binspec_codegen::ir::FieldTy::User { ty, .. } = &f.ty else {
            return Err(Error::new("relocation entries that are not records"));
        };
        let o = Obj::new(
            *ty,
            self.n_fields(*ty),
            Vec::new(),
            Some(obj),
            Some(obj),
            obj.io.borrow().clone(),
            obj.endian.get(),
        );
        let vals = [
            i128::from(e.position),
            i128::from(e.struct_count),
            i128::from(e.offset_count),
            i128::from(e.padding_count),
        ];
        for (k, v) in vals.into_iter().enumerate() {
            o.set(k, Some(V::Int(v)));
        }
        Ok(V::Obj(o))
    }

    /// After reading seq attribute `f` at `at` (from the file's start) as `v`: a pointer that a relocation table
    /// may list, noted where the writer would list it (as `ReadPools::pointer`).
    pub fn note_pointer_read(&self, f: &Field, at: u64, v: &V) {
        let (Some(r), V::Int(x)) = (&f.relocate, v) else {
            return;
        };
        if listed(*x, r.null) {
            self.read_pointers
                .borrow_mut()
                .push((r.id.clone(), at, *x as u64));
        }
    }

    /// The positions, from `base`, in increasing order and each once, of the pointers of table `id` read so far
    /// whose values lie in `region` (as `ReadPools::pointers_in`).
    fn pointers_read(&self, id: &str, base: u64, region: Option<(i128, i128)>) -> Vec<u32> {
        let read = self.read_pointers.borrow();
        let of_table = read.iter().filter(|(t, _, _)| t == id);
        reloc::listed_in(of_table.map(|&(_, at, v)| (at, v)), base, region)
    }

    /// After reading a relocation table (field `i` of `obj`): whether the model keeps it (it is not what the writer
    /// would make of the pointers read).
    pub fn note_table_read(&self, obj: &Rc<Obj>, i: usize, f: &Field, v: &V) -> Result<()> {
        let Some(r) = &f.relocations else {
            return Ok(());
        };
        let kept = match (r.encoding, v) {
            (RelocEncoding::Bina, V::Bytes(b)) => reloc::bina_kept(b),
            (RelocEncoding::NnUtil, V::Arr(xs)) => {
                let es: Vec<reloc::Entry> = xs
                    .iter()
                    .map(|x| {
                        let field = |k: usize| match x {
                            V::Obj(o) => o.get(k).and_then(|v| v.int()).unwrap_or(0),
                            _ => 0,
                        };
                        reloc::Entry {
                            position: field(0) as u32,
                            struct_count: field(1) as u16,
                            offset_count: field(2) as u8,
                            padding_count: field(3) as u8,
                        }
                    })
                    .collect();
                let region = self.table_region(obj, r)?;
                let base = obj.io.borrow().abs;
                reloc::kept_for(es, &self.pointers_read(&r.id, base, region), |e| *e).is_some()
            }
            _ => true,
        };
        obj.omitted.borrow_mut()[i] = !kept;
        let n = self.read_pointers.borrow().len();
        let mut tables = self.tables_read.borrow_mut();
        match tables
            .iter_mut()
            .find(|(o, j, _)| Rc::ptr_eq(o, obj) && *j == i)
        {
            Some(t) => t.2 = n,
            None => tables.push((obj.clone(), i, n)),
        }
        Ok(())
    }

    /// After a read's export: judges again the relocation tables judged before pointers were read that instances
    /// read later (when first named) hold, as the generated reader, which reads every instance with its record,
    /// judges them. Whether any was (the model is exported again).
    pub fn tables_judged_again(&self) -> Result<bool> {
        let n = self.read_pointers.borrow().len();
        let stale: Vec<_> = (self.tables_read.borrow().iter())
            .filter(|t| t.2 < n)
            .map(|(o, i, _)| (o.clone(), *i))
            .collect();
        for (obj, i) in &stale {
            let f = self.def(obj.ty, *i);
            if let Some(v) = obj.get(*i) {
                self.note_table_read(obj, *i, f, &v)?;
            }
        }
        Ok(!stale.is_empty())
    }
}

/// Whether a pointer with value `x` is listed (`reloc::lists_value`, for the interpreter's integers).
fn listed(x: i128, null: bool) -> bool {
    u64::try_from(x).is_ok_and(|v| reloc::lists_value(v, null))
}
