//! Stage 2: the resolved, checked IR. This module holds the IR's types only (and the sizes a [`Module`] can tell
//! without reading, `Module::static_*`). The IR is built from the raw schema by named passes, each adding
//! diagnostics, in this order:
//! - `collect_types` (`builder`): flatten nested types, give them Rust names, find each type's parent;
//! - `resolve_fields` (`resolve`): type names, expressions parsed, binspec's `-` keys read (`keys`);
//! - `owners` and `classify` (`passes`): who reads each type, and which bytes are data, layout, constant or derived
//!   (per DEVELOPERS.md principle 1);
//! - `given` (`given`): fields of records inside a type that the type derives for its pool items;
//! - `outer_args` (`outer_args`): a parameter of a record reached through an outer value becomes its argument;
//! - `typecheck` (`crate::check`).
//!
//! `query` holds the questions passes and emitters ask of expressions and of the type graph.

mod binspec_meta;
mod builder;
mod endian_switch;
mod given;
mod keys;
mod names;
mod outer_args;
mod passes;
pub use passes::resdic_key;
mod query;
mod relocations;
pub use relocations::derived_from_params;
mod resolve;
mod sizes;

pub use binspec_meta::crate_spec;
pub use builder::build;
pub use given::{leaf as given_leaf, replace_chain};
pub use outer_args::{attr_chain, holder_type, rebase_onto};
pub use query::{
    bare_name, chain_part, chain_record, children, const_int, count_from_len,
    count_kept_where_absent, dic_part, exprs_mut, guards_own_offset, keep_order_ranks,
    keeps_absent_offset, names_used, param_only_in_guards, reaches_type, region_members,
    solvable_for, types_graph, types_reached, types_reached_from, unchecked_guard, ChainPart,
    MemberRef,
};
pub use resolve::is_int_type_name;

use crate::diag::Pos;
use crate::expr::Expr;

/// A parsed expression with its source text and position, and its type once the `typecheck` pass has checked
/// it (emitters read it there instead of typing the expression again).
#[derive(Debug, Clone, PartialEq)]
pub struct Ex {
    pub expr: Expr,
    pub text: String,
    pub pos: Pos,
    pub path: String,
    pub ty: Option<crate::expr::Ty>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endian {
    Le,
    Be,
}

/// How a type knows its byte order.
#[derive(Debug, Clone, PartialEq)]
pub enum EndianSpec {
    /// Taken from the type that reads it (or little-endian at the root when nothing says otherwise).
    Inherit,
    Fixed(Endian),
    /// Chosen by an expression when read; a model field when written.
    Switch {
        on: Box<Ex>,
        cases: Vec<(Ex, Endian)>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum FieldTy {
    /// An integer of 1..=8 bytes. `endian` is `None` when the type's byte order applies.
    Int {
        bytes: u8,
        signed: bool,
        endian: Option<Endian>,
    },
    Float {
        bytes: u8,
        endian: Option<Endian>,
    },
    /// `bN`: an unsigned integer of N bits (`b1` is a bool), in the type's bit order (`le`: least significant
    /// bit first).
    Bits {
        n: u8,
        le: bool,
    },
    /// Raw bytes (`size`, `size-eos`, `terminator`).
    Bytes,
    /// A string (`str`/`strz`), in an encoding.
    Str {
        encoding: String,
        zero_terminated: bool,
    },
    /// A user type, with arguments for its params.
    User {
        ty: usize,
        args: Vec<Ex>,
    },
    /// A type chosen by an expression.
    Switch {
        on: Ex,
        cases: Vec<SwitchCase>,
    },
    /// A value instance; its type comes from the expression.
    Value,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SwitchCase {
    /// `None` for `_` (the default case).
    pub key: Option<Ex>,
    /// The user type; `None` for a built-in type (then `prim` holds it).
    pub ty: Option<usize>,
    /// Arguments for the user type's params.
    pub args: Vec<Ex>,
    /// A built-in case type (`u4`, `strz`, ...).
    pub prim: Option<FieldTy>,
    /// The Rust variant; cases with the same type share one.
    pub variant: String,
}

impl SwitchCase {
    /// The user type, if the case is one.
    pub fn user(&self) -> Option<usize> {
        self.ty
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Repeat {
    None,
    Eos,
    Expr(Ex),
    Until(Ex),
}

/// What a field's bytes are, from the writer's point of view.
#[derive(Debug, Clone, PartialEq)]
pub enum Role {
    /// What the user edits: a model field.
    Data,
    /// Fixed bytes (`contents`) or a value that `valid` pins down.
    Const(ConstVal),
    /// The length of the repeated field `of` (of the same type). Where other repetitions name the same count
    /// (`alt`, in the order declared; the last one is `of`), the writer takes the length of the first present of
    /// `of` and then `alt` (arrays under exclusive conditions, or one of two that may be absent), and checks
    /// the others against it.
    Count { of: FieldId, alt: Vec<FieldId> },
    /// The size of the field or instance `of`.
    Length { of: FieldId },
    /// Solved from the `pos` of the instance `of`, once it is placed.
    Offset { of: FieldId },
    /// A field of a record that a type containing it derives: an instance of that type names it through a chain
    /// of plain fields in its `pos` or `repeat-expr` (`entries.ints.base`: AINB's property entries). The owner
    /// computes it (see [`TypeDef::given`]); the model keeps it only as an override.
    Given,
    /// Computed by the `-derive` expression; kept in the model only where a file disagrees.
    Derive(Ex),
    /// A region where a pool's items are written.
    Pool(PoolUse),
    /// An instance that is only read (a view on bytes that something else writes: what decides the byte order
    /// or which type a switch reads).
    View,
    /// An instance read from its `pos` that is data: written back at the position its `pos` gives.
    Placed,
    /// A value instance: computed, never written.
    Computed,
    /// A value instance marked `-data: TYPE`: computed from the fields when reading and kept in the model as an
    /// integer of that type; when writing, the model's value is used wherever the instance is named (typically in
    /// the `-derive` of the field it was computed from, so that the field keeps the part the model cannot derive).
    Kept,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ConstVal {
    Bytes(Vec<u8>),
    Int(i128),
}

#[derive(Debug, Clone, PartialEq)]
pub struct PoolUse {
    pub pool: usize,
    /// For a pool region: the layout field that holds its start alignment.
    pub align_field: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PoolDef {
    pub id: String,
    /// Default alignment of each item.
    pub item_align: u64,
    /// `dedup: true`: a string pool whose equal strings are stored once. Its region is a model field, the strings
    /// it held in file order (a layout choice that also keeps the strings nothing refers to).
    pub dedup: bool,
    /// `keep-order: true`: the order of the items in the file is a layout choice the model keeps (in the region
    /// owner's `<region>_item_order`) where it is not the order the writer meets them (AINB's query ranges).
    pub keep_order: bool,
    /// `order: [NAME, ...]` on the region: the default order of its members (their names as in
    /// `<region>_order`), where it is not the sections then the groups as declared; members it does not name follow
    /// in the declared order. With where the key is, for its diagnostics (file, position, YAML path).
    pub order: Vec<String>,
    pub order_at: Option<(String, Pos, String)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: String,
    pub doc: Option<String>,
    pub pos: Pos,
    pub path: String,
    pub ty: FieldTy,
    pub repeat: Repeat,
    pub cond: Option<Ex>,
    pub role: Role,
    pub valid: Option<Valid>,
    pub enum_: Option<usize>,
    pub size: Option<Ex>,
    pub size_eos: bool,
    pub terminator: Option<u8>,
    pub consume: bool,
    pub include: bool,
    pub eos_error: bool,
    pub pad_right: Option<u8>,
    pub contents: Option<Vec<u8>>,
    /// A seq attribute, a parse instance or a value instance.
    pub kind: FieldKind,
    /// `-pool` on an instance: placed as an item of this pool.
    pub item_of: Option<usize>,
    /// `-pool: {id, align: N, align-at: M}` on an instance: the item's default alignment (instead of the pool's
    /// `item-align`), and the offset into the item where it applies (`binspec_runtime::layout::align_at`).
    pub item_align: Option<(u64, u64)>,
    /// A value instance whose expression is its `-value` (binspec's, which may use binspec's additions such as
    /// `x._pos`), not its `value` (which Kaitai's tools compute).
    pub binspec_value: bool,
    pub sort_by: Option<Ex>,
    /// `process:` applied to the bytes read (and undone when writing).
    pub process: Option<Process>,
    pub default: Option<Ex>,
    /// `-eager: true` on an instance whose type can contain its own type again (a tree linked by offsets): read
    /// when its parent is read and kept in the model, like every other positioned instance, instead of being left
    /// out as a view. Reading is bounded by the nesting depth and by a budget of followed instances.
    pub eager: bool,
    /// `-chain-end: true` (on a positioned instance): where it is, the block chain ends; the last record's
    /// `_chain.size` reaches it.
    pub chain_end: bool,
    /// `-scan`: the field has no stored length; it ends where a tag is found.
    pub scan: Option<Scan>,
    /// `-view: true` on an instance: only read, never written (what it reads is written by something else).
    pub view: bool,
    /// `-data: TYPE` on a value instance: kept in the model as an integer of that type (see [`Role::Kept`]).
    pub data: bool,
    /// `-hook: NAME` on a value instance: binspec computes it with the hand-written function
    /// `crate::hooks::<schema id>::NAME(stream bytes)` instead of its `value` expression, which stays for Kaitai's
    /// tools (for what Kaitai's expressions cannot say, such as a vote over every element of an array).
    pub hook: Option<String>,
    /// `-resdic: KEY` on a repeated attribute of records: the records are the nodes of an `nn::util` dictionary
    /// whose keys are their field `KEY`; the node fields that `-derive` from `_dic.ref_bit`, `_dic.left` and
    /// `_dic.right` are computed from the keys in their order (node 0 is the root).
    pub resdic: Option<ResdicKey>,
    /// `-relocate: ID` on an offset the writer derives: the field is a pointer that relocation table `ID` lists
    /// (where it is not null).
    pub relocate: Option<Relocate>,
    /// `parent:` on a user-type field: what its record's `_parent` is.
    pub parent: ParentRef,
    /// `-relocations: {id, from, size}` on a repeated pool item of relocation entries: the entries are derived
    /// from the positions of table `id`'s pointers whose values lie in `[from, from + size)`.
    pub relocations: Option<Relocations>,
    /// A record (or a switch) in a slot whose size the writer derives (a field of its type is its `Role::Length`):
    /// the writer writes the record as long as it is, and the model keeps the slot's bytes after what the record
    /// reads (`<name>_filler`), which a derived size would otherwise drop.
    pub size_derived: bool,
}

/// What a user-type field's record has as its `_parent` (Kaitai's `parent:` key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ParentRef {
    /// The type that reads it (without `parent:`).
    #[default]
    Reader,
    /// None (`parent: false`): the record reads nothing of its parent.
    Nothing,
    /// The reader's own parent (`parent: _parent`), as if the reader's parent had read it.
    ReadersParent,
}

/// `-resdic: KEY`: the nodes' key field, and where the key is (for errors).
#[derive(Debug, Clone, PartialEq)]
pub struct ResdicKey {
    pub key: String,
    pub pos: Pos,
}

/// `-relocate: ID` or `{id: ID, list-null: true}`: the table's id, whether the table lists the pointer also where it is
/// null (version 8 BFRES lists its null dictionary pointers), and where the key is (for errors).
#[derive(Debug, Clone, PartialEq)]
pub struct Relocate {
    pub id: String,
    pub null: bool,
    pub pos: Pos,
}

/// `-relocations: {id: ID, from: EXPR, size: EXPR, encoding: nn-util | bina}`: a repeated pool item whose records (an `nn::util`
/// relocation entry each: u4 position, u2 struct count, u1 offset count, u1 padding count) the writer derives
/// from where it wrote the pointers marked `-relocate: ID` whose values lie in `[from, from + size)` (every one
/// where `from` and `size` are absent). The model keeps a file's entries only where they are not the ones the
/// writer would derive. With `encoding: bina`, the bytes of a BINA offset table instead (a seq attribute whose
/// `size` is a field).
#[derive(Debug, Clone, PartialEq)]
pub struct Relocations {
    pub id: String,
    pub from: Option<Ex>,
    pub size: Option<Ex>,
    /// How the table lists the pointers (`encoding:`).
    pub encoding: RelocEncoding,
    /// Where the key is (for errors).
    pub pos: Pos,
}

/// How a relocation table lists pointers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelocEncoding {
    /// `nn-util` (the default): on a repeated pool item of `nn::util` entries.
    NnUtil,
    /// `bina`: on a bytes attribute sized by a field, a BINA offset table.
    Bina,
}

/// What a field is: Kaitai's seq attribute, parse instance or value instance, each with only what it can have.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldKind {
    /// A seq attribute: read where the one before it ends.
    Attr,
    /// A parse instance: read at `pos` (where the stream is, without one) of the stream `io` (the type's own,
    /// without one).
    Parse { pos: Option<Ex>, io: Option<Ex> },
    /// A value instance: computed from `value`, not read.
    Value(Ex),
}

impl Field {
    /// The terminator as bytes: two zero bytes for a UTF-16 `strz`.
    pub fn term_bytes(&self) -> Option<Vec<u8>> {
        let t = self.terminator?;
        if let FieldTy::Str {
            encoding,
            zero_terminated: true,
        } = &self.ty
        {
            let e: String = encoding
                .chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .collect::<String>()
                .to_ascii_uppercase();
            if e.starts_with("UTF16") {
                return Some(vec![t, t]);
            }
        }
        Some(vec![t])
    }

    /// Whether the field's sized slot may hold bytes after its content that the writer would not put there (after
    /// a terminator or before padding): a data field of the `seq` read once (not repeated, not a pool item), whose
    /// model keeps those bytes beside it (`<name>_filler`, see `binspec_runtime::read::slot_filler`).
    pub fn has_filler(&self) -> bool {
        matches!(self.role, Role::Data)
            && !self.is_instance()
            && (self.size.is_some() || self.size_eos)
            && (self.pad_right.is_some() || self.terminator.is_some() || self.keeps_unread())
            && self.repeat == Repeat::None
            && self.item_of.is_none()
            && (matches!(
                self.ty,
                FieldTy::Bytes | FieldTy::Str { .. } | FieldTy::User { .. }
            ) || self.keeps_unread())
    }

    /// Whether the field is a record (or a switch) in a slot of a given size, in sequence, whose slot's bytes after
    /// what the record reads are kept beside it (`<name>_filler`): where the slot's size is derived
    /// ([`Field::size_derived`]) whenever there are any, else where they are not the zeros the writer would pad
    /// with. Without them, such bytes (flags the spec does not name, a reserved field) would be lost.
    pub fn keeps_unread(&self) -> bool {
        matches!(self.role, Role::Data)
            && !self.is_instance()
            && self.size.is_some()
            && self.pad_right.is_none()
            && self.terminator.is_none()
            && self.process.is_none()
            && self.repeat == Repeat::None
            && self.item_of.is_none()
            && matches!(self.ty, FieldTy::User { .. } | FieldTy::Switch { .. })
    }

    /// Whether the field's sized slot is its value: bytes or a string with no terminator, no padding and no
    /// process, so that a shorter value would read back as another (the writer refuses it).
    pub fn slot_exact(&self) -> bool {
        matches!(self.ty, FieldTy::Bytes | FieldTy::Str { .. })
            && self.size.is_some()
            && self.terminator.is_none()
            && self.pad_right.is_none()
            && self.process.is_none()
    }

    /// The writer's arguments for the field's slot: (the terminator it appends, the fill byte).
    pub fn slot_writing(&self) -> (Vec<u8>, u8) {
        let append = match self.term_bytes() {
            Some(t) if self.consume && !self.include => t,
            _ => Vec::new(),
        };
        (append, self.pad_right.or(self.terminator).unwrap_or(0))
    }

    /// Whether the model's value can be empty, so that an item of it may write nothing: an array, or bytes or a
    /// string of a given size (a record in a slot of a given size is not: the model cannot say it is empty).
    pub fn can_be_empty(&self) -> bool {
        self.repeat != Repeat::None
            || (self.size.is_some() && matches!(self.ty, FieldTy::Bytes | FieldTy::Str { .. }))
    }

    /// Whether the field's value is read from bytes cut out first (a substream).
    pub fn is_blob(&self) -> bool {
        self.size.is_some() || self.size_eos || self.terminator.is_some() || self.process.is_some()
    }

    /// Whether the field is an instance (parse or value), not a seq attribute.
    pub fn is_instance(&self) -> bool {
        !matches!(self.kind, FieldKind::Attr)
    }
    /// A parse instance's `pos`.
    pub fn pos_expr(&self) -> Option<&Ex> {
        match &self.kind {
            FieldKind::Parse { pos, .. } => pos.as_ref(),
            _ => None,
        }
    }
    /// A parse instance's `io`.
    pub fn io(&self) -> Option<&Ex> {
        match &self.kind {
            FieldKind::Parse { io, .. } => io.as_ref(),
            _ => None,
        }
    }
    /// A value instance's `value`.
    pub fn value(&self) -> Option<&Ex> {
        match &self.kind {
            FieldKind::Value(v) => Some(v),
            _ => None,
        }
    }
}

/// `-scan: {tag: BYTES | tags: [BYTES...], step: N, or-eos: BOOL}` on a `repeat: eos` attribute: the attribute's
/// bytes end where one of the tags begins, looking at every `step`-th offset from the attribute's start (or at the
/// end of the stream, with `or-eos`). The writer checks that the data contains no tag at such an offset.
#[derive(Debug, Clone, PartialEq)]
pub struct Scan {
    pub tags: Vec<Vec<u8>>,
    pub step: u64,
    pub or_eos: bool,
}

/// A `process:` transformation.
#[derive(Debug, Clone, PartialEq)]
pub enum Process {
    /// XOR with a byte (integer key) or a repeating byte string.
    Xor(Ex),
    /// Rotate each byte left by the given number of bits.
    Rol(Ex),
    /// Rotate each byte right.
    Ror(Ex),
    /// zlib-compressed data.
    Zlib,
    /// A process the schema's user writes (`my_custom_fx(7, true, [0x20])`, `nested.deeply.custom_fx(7)`): the
    /// hand-written `decode` and `encode` of module `hooks::<schema id>::<path>`, given the arguments.
    Custom { path: Vec<String>, args: Vec<Ex> },
}

#[derive(Debug, Clone, PartialEq)]
pub enum Valid {
    /// `valid: in-enum`: the value must be one the enum names.
    InEnum,
    Eq(Ex),
    Min(Ex),
    Max(Ex),
    Range(Option<Ex>, Option<Ex>),
    AnyOf(Vec<Ex>),
    Expr(Ex),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub name: String,
    pub ty: FieldTy,
    /// `enum:` on an integer parameter.
    pub enum_: Option<usize>,
    pub doc: Option<String>,
    /// `type: T[]`: an array of `T`, passed by reference.
    pub array: bool,
    /// `type: struct`: a record of any type, passed by reference (cast with `.as<T>` to reach its fields).
    pub any_struct: bool,
}

/// A model field that is not in the bytes: a layout choice with a default.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutField {
    pub name: String,
    pub default: i128,
    pub doc: Option<String>,
}

/// A field of a type, by its place: its `seq` attributes first, then its instances. Ids do not change once the
/// type is built (the passes that classify fields name them so).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FieldId(pub usize);

#[derive(Debug, Clone, PartialEq)]
pub struct TypeDef {
    pub name: String,
    /// Names from the root down, the root's id first.
    pub path: Vec<String>,
    pub rust: String,
    pub doc: Option<String>,
    pub doc_ref: Vec<String>,
    pub params: Vec<Param>,
    pub seq: Vec<Field>,
    pub instances: Vec<Field>,
    pub parent: Option<usize>,
    pub endian: EndianSpec,
    pub layout: Vec<LayoutField>,
    /// `-wiki`: the wiki tables this type transcribes.
    pub wiki: Vec<WikiRef>,
    pub pos: Pos,
    /// The schema file the type is written in (an imported schema's for its types), for diagnostics.
    pub file: String,
    /// Fields of records inside this type that this type derives for its instances ([`Role::Given`]).
    pub given: Vec<Given>,
}

/// A field of a record inside a type, derived by that type for one of its instances ([`Role::Given`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Given {
    /// The way to the field: a plain field of this type of a user type, then fields of those types, the last the
    /// derived integer (`[entries, ints, base]`).
    pub chain: Vec<String>,
    /// The instance whose `pos` (an offset) or `repeat-expr` (a count) names the chain.
    pub of: FieldId,
    pub kind: GivenKind,
}

/// What a [`Given`] field is to its instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GivenKind {
    /// Solved from the instance's `pos` once it is placed.
    Offset,
    /// The instance's length.
    Count,
}

impl TypeDef {
    /// The byte order the type fixes for itself (`meta: endian: le|be` on it), if it does.
    pub fn fixed_endian(&self) -> Option<Endian> {
        match &self.endian {
            EndianSpec::Fixed(e) => Some(*e),
            _ => None,
        }
    }
    /// The field `id` names (an id of this type's: see [`FieldId`]).
    pub fn field(&self, id: FieldId) -> &Field {
        match id.0.checked_sub(self.seq.len()) {
            None => &self.seq[id.0],
            Some(i) => &self.instances[i],
        }
    }
    /// Whether a field of the type's `seq` is the length of its field `name` (`Role::Length`, derived by the
    /// writer).
    pub fn measured(&self, name: &str) -> bool {
        self.seq
            .iter()
            .any(|l| matches!(&l.role, Role::Length { of } if self.field(*of).name == name))
    }
    /// The id of the field or instance named `name`.
    pub fn field_id(&self, name: &str) -> Option<FieldId> {
        self.seq
            .iter()
            .chain(self.instances.iter())
            .position(|f| f.name == name)
            .map(FieldId)
    }
}

/// Where a type or enum comes from on a wiki (`-wiki: {page, section, caption, table}` on a type, or under
/// `-wiki-enums: {ENUM: ...}` on the type that declares the enum). `binspec wiki drift` compares the two.
#[derive(Debug, Clone, PartialEq)]
pub struct WikiRef {
    /// The page's title as the wiki (or dump) names it.
    pub page: String,
    /// The heading the table sits under: the nearest heading, or a path of headings joined by ` > `.
    pub section: String,
    /// The table's caption, when the section holds several tables.
    pub caption: Option<String>,
    /// 1-based: which of the tables that match `section` (and `caption`) it is.
    pub table: Option<usize>,
    /// The table offset where this type starts (`from: 0x4`): rows before it belong to the type that reads this
    /// one (a container's header that the schema reads elsewhere).
    pub from: u64,
    pub pos: Pos,
    pub path: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EnumDef {
    pub name: String,
    pub owner: usize,
    pub rust: String,
    pub values: Vec<(i128, String, Option<String>)>,
    /// `-wiki-enums` on the owner: the wiki tables this enum transcribes.
    pub wiki: Vec<WikiRef>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ArchiveSpec {
    pub entries: Vec<String>,
    pub name: String,
    pub data: String,
    /// The entry's field that stands for its name where it has none (SARC's name hash), if any.
    pub hash: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct InfoSpec {
    pub version: Option<Ex>,
    pub summary: Vec<(String, Ex)>,
}

/// Where the `binspec-formats` crate builds a schema and which of its types are formats (`-binspec: id, feature,
/// module, register`; see docs/schema-language.md). `formats/build.rs` reads it of every schema, and writes the
/// modules and the registry from it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CrateSpec {
    /// The format id (`-binspec: id`, else `meta: id`), which is also the name of the generated file,
    /// `$OUT_DIR/<format_id>.rs`.
    pub format_id: String,
    /// The cargo feature that builds the schema: `-binspec: feature`, else the format id.
    pub feature: String,
    /// The module that holds the generated code, from the crate root: `-binspec: module`, else `meta: id`. One
    /// name (`sarc`) is a module of its own, which `formats/build.rs` declares; `LAYER::NAME` (`ainb::raw`) is
    /// declared by the hand-written module `LAYER`. `None` for a text format, whose code is all hand-written.
    pub module: Option<String>,
    /// The types registered as formats (`binspec_formats::registry()`), from the crate root, in order:
    /// `-binspec: register`, else the generated root type (`sarc::Sarc`).
    pub register: Vec<String>,
}

/// One schema, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    pub id: String,
    pub file: String,
    pub title: Option<String>,
    pub source: Option<String>,
    pub extensions: Vec<String>,
    pub doc: Option<String>,
    pub doc_ref: Vec<String>,
    /// The root is type 0.
    pub types: Vec<TypeDef>,
    pub enums: Vec<EnumDef>,
    pub pools: Vec<PoolDef>,
    pub archive: Option<ArchiveSpec>,
    pub info: InfoSpec,
    pub magic: Option<Vec<u8>>,
    /// Further magics that identify the format (`-binspec: magic:`), for formats whose first field is not fixed.
    pub magics: Vec<Vec<u8>>,
    /// Where the magic is (`-binspec: magic-at: N`): then the magic is the root's first `contents` attribute, which
    /// the schema says starts at that offset (formats that begin with data, such as a name).
    pub magic_at: u64,
    /// The format id that tools use (`-binspec: id:`; the schema's `meta/id` by default, which must be a Rust-like
    /// identifier while a format id may contain `-`).
    pub format_id: String,
    /// `-binspec: text-format: NAME`: a text format whose reader, writer and docs page are hand-written; the schema
    /// holds the tables they use.
    pub text_format: Option<String>,
    /// Where `binspec-formats` builds the schema (`-binspec: feature, module, register`).
    pub crate_spec: CrateSpec,
    /// For each type, the one type that reads it (Kaitai's `_parent`), if exactly one does.
    pub owners: Vec<Option<usize>>,
    /// The Rust name of the enum generated for each switch field, by its type and name (the `names` pass).
    pub switch_enums: std::collections::BTreeMap<(usize, String), String>,
}

/// How deep the static-size functions follow user types before giving up.
const MAX_STATIC_DEPTH: usize = 16;

impl Module {
    /// The default alignment of item `f` of `pool` as the runtime takes it: the item's own (`-pool: {align,
    /// align-at}`, with the offset into the item where it applies, `binspec_runtime::layout::align_at`), else the
    /// pool's `item-align`.
    pub fn item_default(&self, f: &Field, pool: usize) -> u64 {
        match f.item_align {
            Some((a, at)) => a | (at << 32),
            None => self.pools[pool].item_align,
        }
    }

    /// The alignment the writer gives item `f` of `pool`: a layout choice `choice` (which applies where the item's
    /// own alignment does), else its default ([`Module::item_default`]).
    pub fn item_align_with(&self, f: &Field, pool: usize, choice: Option<u64>) -> u64 {
        match (choice, f.item_align) {
            (Some(a), Some((_, at))) => a | (at << 32),
            (Some(a), None) => a,
            (None, _) => self.item_default(f, pool),
        }
    }

    /// A type by name (`a::b`) as seen from type `from`, as `type:` and `enum:` name them: its own nested types, then
    /// its ancestors'; then a type at the root level by name, or a full path.
    pub fn find_type(&self, from: usize, name: &str) -> Option<usize> {
        find_type_in(&self.types, from, name)
    }

    /// The type whose path, its names joined with `::`, is `path` (`png::chunk`): how the type checker names a user
    /// type (`Ty::User`), turned back into the type.
    pub fn type_by_path(&self, path: &str) -> Option<usize> {
        self.types
            .iter()
            .position(|t| t.path.iter().map(String::as_str).eq(path.split("::")))
    }

    /// Bytes one element of a field takes, when known without reading.
    pub fn static_elem_size(&self, f: &Field) -> Option<u64> {
        self.elem_size_at(f, 0)
    }

    /// Bytes a field takes, when known without reading (ignores `if`).
    pub fn static_field_size(&self, f: &Field) -> Option<u64> {
        self.field_size_at(f, 0)
    }

    /// How far a field moves the position, when known without reading (a conditional field never is).
    pub fn static_advance(&self, f: &Field) -> Option<u64> {
        self.advance_at(f, 0)
    }

    /// The size of a type whose whole `seq` is static.
    pub fn static_type_size(&self, ti: usize) -> Option<u64> {
        self.type_size_at(ti, 0)
    }

    /// Where `seq` attribute `i` of type `ti` starts in it, when known without reading; else the attribute before
    /// it whose size is not.
    pub fn static_offset(&self, ti: usize, i: usize) -> Result<u64, &Field> {
        // (Bit fields as `type_size_at` counts them: a run takes whole bytes.)
        let (mut bytes, mut bits) = (0u64, 0u64);
        for f in &self.types[ti].seq[..i] {
            match (&f.ty, &f.repeat, &f.cond) {
                (FieldTy::Bits { n, .. }, Repeat::None, None) => bits += u64::from(*n),
                _ => {
                    bytes += bits.div_ceil(8) + self.static_advance(f).ok_or(f)?;
                    bits = 0;
                }
            }
        }
        // (A byte-sized field starts on the byte after the bits before it.)
        Ok(bytes + bits.div_ceil(8))
    }

    fn field_size_at(&self, f: &Field, depth: usize) -> Option<u64> {
        let one = self.elem_size_at(f, depth)?;
        match &f.repeat {
            Repeat::None => Some(one),
            Repeat::Expr(x) => const_int(&x.expr)
                .and_then(|n| u64::try_from(n).ok())
                .map(|n| n * one),
            _ => None,
        }
    }

    fn elem_size_at(&self, f: &Field, depth: usize) -> Option<u64> {
        if let Some(c) = &f.contents {
            return Some(c.len() as u64);
        }
        if let Some(s) = &f.size {
            return const_int(&s.expr).and_then(|n| u64::try_from(n).ok());
        }
        match &f.ty {
            FieldTy::Int { bytes, .. } | FieldTy::Float { bytes, .. } => Some(u64::from(*bytes)),
            FieldTy::User { ty, .. } => self.type_size_at(*ty, depth + 1),
            _ => None,
        }
    }

    fn advance_at(&self, f: &Field, depth: usize) -> Option<u64> {
        if f.cond.is_some() {
            return None;
        }
        self.field_size_at(f, depth)
    }

    fn type_size_at(&self, ti: usize, depth: usize) -> Option<u64> {
        if depth > MAX_STATIC_DEPTH {
            return None;
        }
        // (A run of bit fields takes whole bytes, as Kaitai reads it: the next byte-sized field starts on a byte.)
        let (mut bytes, mut bits) = (0u64, 0u64);
        for f in &self.types[ti].seq {
            match (&f.ty, &f.repeat, &f.cond) {
                (FieldTy::Bits { n, .. }, Repeat::None, None) => bits += u64::from(*n),
                _ => {
                    bytes += bits.div_ceil(8) + self.advance_at(f, depth)?;
                    bits = 0;
                }
            }
        }
        Some(bytes + bits.div_ceil(8))
    }

    /// The root's last field where it is a region to the end of the file whose bytes after its last item the
    /// model keeps (`<region>_trailing`): a pool that does not deduplicate, unrepeated and unconditional, in a root
    /// whose instances in the model are items of that region (the readers cut the bytes once those are read too:
    /// BNTX's relocation table), and in a file where no type holds an instance written where the file had it
    /// (`Role::Placed`): either could lie after the region's items, and the bytes kept would hold it twice.
    pub fn tail_region(&self, ti: usize) -> Option<&Field> {
        if ti != 0 {
            return None;
        }
        let t = &self.types[ti];
        let last = t.seq.last()?;
        let Role::Pool(u) = &last.role else {
            return None;
        };
        let ok = !self.pools[u.pool].dedup
            && last.size_eos
            && last.repeat == Repeat::None
            && last.cond.is_none()
            && !t.instances.iter().any(|f| {
                f.role == Role::Placed || (f.role == Role::Data && f.item_of != Some(u.pool))
            })
            && !self
                .types
                .iter()
                .flat_map(|u| u.instances.iter())
                .any(|f| f.role == Role::Placed);
        ok.then_some(last)
    }

    /// Where instance `f` of type `ti` is read from the bytes of a parameter (`io: p._io`, `p` a parameter whose
    /// type holds nothing but its bytes to the end of its stream, as Kaitai's `bytes_with_io` does): (the
    /// parameter, the field of its type that holds the bytes). Such a stream is those bytes, and the instance is
    /// read from them, by a reader and by a writer alike: it is known from the parameter, not held in the model.
    pub fn param_stream(&self, ti: usize, f: &Field) -> Option<(&Param, &Field)> {
        let io = f.io()?;
        let crate::expr::ExprKind::Attr { base, name, .. } = &io.expr.kind else {
            return None;
        };
        let crate::expr::ExprKind::Name(p) = &base.kind else {
            return None;
        };
        if name != "_io" {
            return None;
        }
        let p = self.types[ti].params.iter().find(|x| &x.name == p)?;
        let (FieldTy::User { ty, .. }, false, false) = (&p.ty, p.array, p.any_struct) else {
            return None;
        };
        let pt = &self.types[*ty];
        let [data] = &pt.seq[..] else {
            return None;
        };
        let plain = matches!(data.ty, FieldTy::Bytes)
            && data.size_eos
            && data.repeat == Repeat::None
            && data.cond.is_none()
            && data.process.is_none()
            && data.role == Role::Data
            && pt.params.is_empty()
            && pt.instances.is_empty();
        plain.then_some((p, data))
    }

    /// Whether expression `e` of type `ty` names an instance that is only read (`Role::View`): the model does not
    /// hold it, so a writer cannot check a condition or count that names it (BFRES's shader parameter names, read
    /// only where a string ends where its length says): the model decides. One read from a parameter's bytes, or
    /// from a slot the model keeps, is known (the writer reads it again): not such an instance.
    pub fn names_a_view(&self, ty: usize, e: &crate::expr::Expr) -> bool {
        let mut used = std::collections::BTreeSet::new();
        names_used(e, &mut used);
        self.types[ty].instances.iter().any(|f| {
            f.role == Role::View
                && used.contains(&f.name)
                && self.param_stream(ty, f).is_none()
                && self.slot_stream(ty, f).is_none()
        })
    }

    /// Where instance `f` of type `ti` is read from the slot of a record that reads nothing (`io: _parent.x._io`
    /// or `io: x._io`, `x` a sized field of a type without fields, as Kaitai's `dummy: {}`): whether `x` is the
    /// parent's (`_parent.x`), the type that holds `x`, and `x`. The model keeps such a slot's bytes (`x_filler`, or zeros of its size), so the instance can
    /// be read from the model (rpm's `body`, in the storage section's slot at `ofs_body`).
    pub fn slot_stream(&self, ti: usize, f: &Field) -> Option<(bool, usize, &Field)> {
        use crate::expr::ExprKind;
        let io = f.io()?;
        let ExprKind::Attr { base, name, .. } = &io.expr.kind else {
            return None;
        };
        if name != "_io" {
            return None;
        }
        let (up, holder, x) = match &base.kind {
            ExprKind::Name(x) => (false, ti, x),
            ExprKind::Attr { base, name: x, .. } if matches!(&base.kind, ExprKind::Name(p) if p == "_parent") => {
                (true, self.owners[ti]?, x)
            }
            _ => return None,
        };
        let sf = self.types[holder].seq.iter().find(|s| &s.name == x)?;
        let FieldTy::User { ty, .. } = &sf.ty else {
            return None;
        };
        let empty = self.types[*ty].seq.is_empty()
            && !self.types[*ty]
                .instances
                .iter()
                .any(|i| matches!(i.role, Role::Data | Role::Placed));
        (empty && sf.keeps_unread() && sf.cond.is_none()).then_some((up, holder, sf))
    }

    pub fn root(&self) -> &TypeDef {
        &self.types[0]
    }

    /// What `_root` is in type `ti`: the top-level type of the schema it comes from (an imported schema has its
    /// own; 0 for the module's).
    pub fn root_of(&self, ti: usize) -> usize {
        let top = &self.types[ti].path[0];
        self.types
            .iter()
            .position(|t| t.path.len() == 1 && &t.path[0] == top)
            .unwrap_or(0)
    }
    pub fn field(&self, ty: usize, name: &str) -> Option<&Field> {
        let t = &self.types[ty];
        t.seq
            .iter()
            .chain(t.instances.iter())
            .find(|f| f.name == name)
    }
}

/// CamelCase from snake_case.
pub fn camel(s: &str) -> String {
    s.split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// Whether a schema's `encoding` names UTF-8 (as the runtime reads the name: any case, `-` and `_` ignored), so
/// that generated code can call the UTF-8 functions without looking the name up for each string.
pub fn is_utf8(encoding: &str) -> bool {
    let bare: String = encoding
        .chars()
        .filter(|c| !matches!(c, '-' | '_'))
        .collect();
    bare.eq_ignore_ascii_case("UTF8")
}

/// Finds a type by name (`a::b`) as seen from type `from`: its own nested types, then its ancestors'; then a type
/// named at the root level (the root's own name, or an imported schema's), or a full path from one.
pub(crate) fn find_type_in(types: &[TypeDef], from: usize, name: &str) -> Option<usize> {
    let parts: Vec<&str> = name.split("::").collect();
    let mut scope = Some(from);
    while let Some(s) = scope {
        let mut want = types[s].path.clone();
        want.extend(parts.iter().map(|p| p.to_string()));
        if let Some(i) = types.iter().position(|t| t.path == want) {
            return Some(i);
        }
        scope = types[s].parent;
    }
    types
        .iter()
        .position(|t| t.name == name && t.parent.is_none())
        .or_else(|| types.iter().position(|t| t.path == parts))
}
