//! Stage 3a: Rust. One module per schema: a model struct per type (data and layout fields only), a reader that
//! checks every constant and records layout choices, and a writer that computes every derived value.
//!
//! Expressions are translated for two scopes. In the read scope a name is the local holding what was read. In the
//! write scope a name is the model field (data), the value computed before writing (derived), or a literal
//! (constants). Values from outer types (`_parent.x`, `_root.x`) travel as extra function arguments, found by
//! the `implicit_params` pass.
//!
//! This module holds the entry points ([`emit`], [`format_file`]), the emitter's shared state (`Gen` for the
//! module being generated, `Cx` for one expression's scope), the parameters a type's functions take, and small
//! helpers every part uses. The parts, by concern:
//! - `passes`: what the emitter works out before generating (implicit params, `_pos` slots, boxed fields);
//! - `expr` and `resolve`: the expression translator (operators and methods; names, attributes and chains);
//! - `rx`: translated expressions with their precedence, parenthesised only where an operand needs it;
//! - `models`: the model structs and enums, with their serde and `Default` derives;
//! - `read`, `read_field` and `read_items`: a type's read function, the reading of one field, and how the pool
//!   items read are noted;
//! - `write` and `write_field`: a type's write function, and the writing of one field;
//! - `layout`: pools and sorted repetitions (the kept tail of a pool, order slots, sort keys);
//! - `views`: an archive's `view_files`, which lists entries without building the model;
//! - `probe`: `endian_of` and `<field>_variant_of`, which read a few of the root's instances;
//! - `format`: the root's `Format` and `Archive` impls.

mod chain;
mod cross;
mod expr;
mod format;
mod frames;
mod given;
mod late;
mod layout;
mod models;
mod own_elements;
mod param_stream;
mod passes;
mod pinned;
mod probe;
mod read;
mod read_field;
mod read_items;
mod records;
mod relocations;
mod resolve;
mod resolve_util;
mod rx;
mod sizeof;
mod slot_views;
mod tidy;
mod unused;
mod valid;
mod views;
mod write;
mod write_field;
mod write_solve;

#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

use crate::expr::{Expr, ExprKind};
use crate::ir::{is_utf8, ConstVal, Endian, Field, FieldTy, Module, Repeat, Role, TypeDef};

pub use expr::translate_model_expr;

use models::{emit_enum, switch_enum_name};
use passes::{
    collect_chains, collect_pos_refs, exprs_of, implicit_params, own_root_io, recursive_fields,
    write_params,
};
use resolve_util::rebase;
use rx::{Prec, Rx};
use tidy::{case_pattern, fallible, place, recv, tag_arms, Read};

/// Why code could not be generated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmitError {
    pub path: String,
    pub message: String,
}

type R<T> = Result<T, EmitError>;

/// An inconsistency between IR passes (a bug in binspec, not in the schema).
fn internal(path: &str) -> EmitError {
    EmitError {
        path: path.to_string(),
        message: "internal: the IR is inconsistent here".into(),
    }
}

fn err<T>(path: &str, message: impl Into<String>) -> R<T> {
    Err(EmitError {
        path: path.to_string(),
        message: message.into(),
    })
}

const RUST_KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// An identifier for a schema name, escaping Rust keywords (`type` becomes `r#type`).
pub fn ident(name: &str) -> Ident {
    if matches!(name, "self" | "Self" | "super" | "crate") {
        format_ident!("{}_", name)
    } else if RUST_KEYWORDS.contains(&name) {
        Ident::new_raw(name, Span::call_site())
    } else {
        Ident::new(name, Span::call_site())
    }
}

/// A `-scan`'s tags, step and or-eos as tokens.
fn scan_tokens(sc: &crate::ir::Scan) -> (TokenStream, usize, bool) {
    let tags = sc.tags.iter().map(|t| {
        let b = proc_macro2::Literal::byte_string(t);
        quote!(#b as &[u8])
    });
    (quote!(&[#(#tags),*]), sc.step as usize, sc.or_eos)
}

fn local(prefix: &str, name: &str) -> Ident {
    format_ident!("{}_{}", prefix, name)
}

fn ty_ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// The type of a translated expression.
#[derive(Debug, Clone, PartialEq)]
enum T {
    Int,
    Float,
    Bool,
    Bytes,
    Str,
    /// A user type's model (write scope) or nothing usable (read scope).
    User(usize),
    /// A value whose fields cannot be reached: the element of a `repeat-until` that reads a value type (its
    /// fields are the value's, not a model's).
    Opaque,
    /// A switch field's enum: (the type that holds the field, the field).
    Switch(usize, String),
    Array(Box<T>),
    /// A record of any type (a param `type: struct`), a `&dyn Any`.
    AnyStruct,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Scope {
    Read,
    Write,
    /// The finished model (`info`, sort keys that only use data).
    Model,
}

struct Cx<'m> {
    m: &'m Module,
    /// The type of `_` (the element just read, in `repeat-until`).
    last_t: Option<T>,
    /// The value whose model fields names refer to, when not `self`.
    base: Option<Rx>,
    ty: usize,
    scope: Scope,
    depth: usize,
    /// Whether the expression is translated for a reader (also where `scope` is `Model`, reaching into a record
    /// read already): a [`Role::Given`] field is known there, as the file holds it.
    reading: bool,
    /// The position slots, by type and name (for the positions of another type's items: see `cross.rs`).
    slots: Option<&'m BTreeMap<(usize, String), u32>>,
    /// Set when the translation may leave the function early (`?`: a derived field of a section peeked from the
    /// file, a division, a string's `to_i`), so that a read whose arguments hold it is given its error context in
    /// a closure, and a summary of `info()` shows the error instead.
    exits: bool,
    /// Where the translation reached the current type through a field that passes it arguments (`x.param`, or a
    /// value instance of `x` that names its params): the arguments, translated where the field is.
    args_of: Option<std::rc::Rc<frames::ArgFrame>>,
    /// What `_index` is, where not the loop's `i`: the index of the element whose arguments are translated
    /// ([`frames::ArgFrame::index`]).
    index: Option<Rx>,
    /// In the model scope of a whole tree (an expression over a decoded file): what `_root` is.
    root: Option<Rx>,
    /// The types (and values) the translation went down through to reach the current one, outermost first: the
    /// last is what `_parent` is in the model scope.
    outer: Vec<(usize, Option<Rx>, Scope)>,
    /// The repeated field whose elements are being read or written, where their arguments name it.
    own: Option<own_elements::OwnElements>,
    /// The generator, where the translation is for generated code (to note the functions it calls).
    gen: Option<&'m Gen<'m>>,
}

fn int_lit(v: i128) -> TokenStream {
    let l = Literal::i128_suffixed(v);
    quote!(#l)
}

fn rust_int(bytes: u8, signed: bool) -> TokenStream {
    match (bytes, signed) {
        (1, false) => quote!(u8),
        (2, false) => quote!(u16),
        (4, false) => quote!(u32),
        (8, false) => quote!(u64),
        (1, true) => quote!(i8),
        (2, true) => quote!(i16),
        (4, true) => quote!(i32),
        _ => quote!(i64),
    }
}

fn endian_tokens(e: Option<Endian>) -> TokenStream {
    match e {
        Some(Endian::Le) => quote!(::binspec_runtime::Endian::Little),
        Some(Endian::Be) => quote!(::binspec_runtime::Endian::Big),
        None => quote!(endian),
    }
}

/// Finds a field or instance by name in a type.
fn find<'a>(t: &'a TypeDef, name: &str) -> Option<&'a Field> {
    t.seq
        .iter()
        .chain(t.instances.iter())
        .find(|f| f.name == name)
}

/// The key under which an outer value is passed: `_root.a.b` or `_parent.x`.
fn chain_of(e: &Expr) -> Option<Vec<String>> {
    match &e.kind {
        ExprKind::Name(n) if n == "_root" || n == "_parent" => Some(vec![n.clone()]),
        ExprKind::Attr { base, name, .. } => {
            let mut c = chain_of(base)?;
            c.push(name.clone());
            Some(c)
        }
        _ => None,
    }
}

fn param_ident(key: &[String]) -> Ident {
    let s: Vec<String> = key
        .iter()
        .map(|k| k.trim_start_matches('_').to_string())
        .collect();
    format_ident!("x_{}", s.join("__"))
}

/// The way from the root to an archive's entries (each step's type and field name), and the entry type.
type ViewPlan = (Vec<(usize, String)>, usize);

struct Gen<'m> {
    m: &'m Module,
    /// Fields (by YAML path) that hold a type containing their own type: boxed, so the model has a finite size.
    boxed: BTreeSet<String>,
    params: Vec<BTreeSet<Vec<String>>>,
    /// The part of `params` that writers use ([`write_params`]); the others are passed as defaults when writing.
    write_params: Vec<BTreeSet<Vec<String>>>,
    pos_refs: BTreeMap<usize, BTreeSet<String>>,
    /// The instances whose length an expression of their type asks (`x._len`), by type.
    len_refs: BTreeMap<usize, BTreeSet<String>>,
    slots: BTreeMap<(usize, String), u32>,
    /// The pool items named from outside their type (`holder.item._pos`), by type and name
    /// ([`passes::collect_named_items`]).
    named_items: BTreeSet<(usize, String)>,
    /// Set while the archive entry's `view_file` is generated: kept bytes and strings borrow the input, and no
    /// layout choice is inferred.
    view: std::cell::Cell<bool>,
    /// [`Gen::view_plan`], worked out once.
    view_plan: std::cell::OnceCell<Option<ViewPlan>>,
    /// The types whose params the writer may not know as the file had them (`params_unsure` in `write_field.rs`), worked
    /// out once.
    params_unsure: std::cell::OnceCell<BTreeSet<usize>>,
    /// The calls between the types' functions, noted where the call is generated ([`Gen::note_call`]): (the
    /// function being generated, `None` for code that is always emitted; the function it calls).
    calls: std::cell::RefCell<BTreeSet<Call>>,
    /// The function whose body is being generated ([`Gen::in_fn`]).
    current: std::cell::Cell<Option<(usize, Fun)>>,
    /// The functions that a first emission of the module found called from code that is always emitted, directly
    /// or through other such functions: the ones to emit ([`Gen::called`]); `None` in that first emission, which
    /// emits every function.
    called: Option<BTreeSet<(usize, Fun)>>,
    /// The repeated field whose elements' loop is being generated, where their arguments name it.
    own: std::cell::RefCell<Option<own_elements::OwnElements>>,
    /// Pass `late`: what a field read twice needs ([`late`]).
    late: late::Late,
    /// The `seq` field whose reading is being generated, which may be read twice ([`Gen::read_before`]).
    late_field: std::cell::RefCell<Option<String>>,
    /// Where that field is read twice: the index in `seq` of the last field its records need, after which it is
    /// read again.
    late_after: std::cell::RefCell<Option<usize>>,
    /// Set while a field's second reading is generated: the values it waited for are read.
    full_keys: std::cell::Cell<bool>,
    /// Set while code without a reader at hand is generated (`args_<field>`): errors get no offset there.
    no_reader: std::cell::Cell<bool>,
    /// Arguments of the next record written that were chosen before (`Gen::args_by_tag`): by position among its
    /// own params, the tokens to pass there.
    args_override: std::cell::RefCell<Option<BTreeMap<usize, TokenStream>>>,
}

/// A call noted by [`Gen::note_call`]: (the function making it, `None` for code always emitted; the function of
/// a type it calls).
type Call = (Option<(usize, Fun)>, (usize, Fun));

/// A function of a type's model that generated code may call, emitted only where something calls it (so that
/// the generated code needs no `dead_code` allowance).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Fun {
    /// `read` (for a type a sorted repetition holds, the wrapper around `read_keyed`).
    Read,
    /// `write` (for a type a sorted repetition holds, the wrapper around `write_keyed`).
    Write,
    /// `read_keyed`: an element of a sorted repetition (the body of its `read`).
    ReadKeyed,
    /// `write_keyed`: an element of a sorted repetition (the body of its `write`).
    WriteKeyed,
    /// `from_record`: an element of a repetition read as whole records.
    FromRecord,
    /// `to_record`: an element of a repetition written as whole records.
    ToRecord,
    /// `args_<field>`: the arguments each element of the type's field (by its index in `seq`) is passed, where
    /// they name the elements before it (see `own_elements`).
    ElementArgs(usize),
}

impl<'m> Gen<'m> {
    /// Notes that the code being generated calls `fun` of type `ty`.
    pub(super) fn note_call(&self, ty: usize, fun: Fun) {
        self.calls
            .borrow_mut()
            .insert((self.current.get(), (ty, fun)));
    }

    /// `gen()`, noting the calls it generates as made by `fun` of type `ty` (`None`: by code always emitted).
    fn in_fn<T>(&self, f: Option<(usize, Fun)>, gen: impl FnOnce() -> T) -> T {
        let outer = self.current.replace(f);
        let r = gen();
        self.current.set(outer);
        r
    }

    /// The functions reached from code that is always emitted, following the calls noted.
    fn reached(&self) -> BTreeSet<(usize, Fun)> {
        let calls = self.calls.borrow();
        let mut reached = BTreeSet::new();
        let mut todo: Vec<(usize, Fun)> = calls
            .iter()
            .filter(|(from, _)| from.is_none())
            .map(|&(_, to)| to)
            .collect();
        while let Some(f) = todo.pop() {
            if reached.insert(f) {
                todo.extend(
                    calls
                        .iter()
                        .filter(|(from, _)| *from == Some(f))
                        .map(|&(_, to)| to),
                );
            }
        }
        reached
    }

    /// Whether `fun` of type `ty` is emitted: something calls it (every function, in the first emission).
    fn called(&self, ty: usize, fun: Fun) -> bool {
        self.called.as_ref().is_none_or(|c| c.contains(&(ty, fun)))
    }

    fn cx(&self, ty: usize, scope: Scope) -> Cx<'_> {
        Cx {
            m: self.m,
            last_t: None,
            base: None,
            ty,
            scope,
            depth: 0,
            reading: scope == Scope::Read,
            slots: Some(&self.slots),
            exits: false,
            args_of: None,
            index: None,
            root: None,
            outer: Vec::new(),
            own: self.own.borrow().clone(),
            gen: Some(self),
        }
    }

    fn slot(&self, ty: usize, name: &str) -> u32 {
        self.slots[&(ty, name.to_string())]
    }

    /// The implicit params of a type, with the Rust types used to pass them.
    fn param_list(&self, ty: usize) -> Vec<Param> {
        self.params[ty]
            .iter()
            .filter(|k| {
                // Constants fold and need no argument.
                let cx = self.cx(ty, Scope::Read);
                !matches!(
                    cx.resolve_chain(k).map(|f| &f.role),
                    Some(Role::Const(ConstVal::Int(_)))
                )
            })
            .map(|k| {
                let cx = self.cx(ty, Scope::Read);
                // Strings, bytes, records and arrays are passed by reference.
                let kt = cx.chain_t(k);
                let by_ref = k.last().map(|s| s.as_str()) != Some("_pos")
                    && match kt.clone() {
                        Some(T::Bytes | T::Str | T::User(_)) => true,
                        Some(T::Array(_)) => cx.resolve_chain(k).is_some(),
                        _ => false,
                    };
                // (The type referred to, for one passed by reference.)
                let rt = match k.last().map(|s| s.as_str()) {
                    Some("_pos") => quote!(i128),
                    _ => match kt.clone() {
                        Some(T::Bool) => quote!(bool),
                        Some(T::Float) => quote!(f64),
                        Some(T::Bytes) => quote!([u8]),
                        Some(T::Str) => quote!(str),
                        Some(T::User(t)) => {
                            let n = ty_ident(&self.m.types[t].rust);
                            quote!(#n)
                        }
                        // A value instance's array, as its expression makes it (`vec![8.18f64, ...]`).
                        Some(T::Array(et))
                            if cx.resolve_chain(k).is_some_and(|f| f.value().is_some()) =>
                        {
                            let et = value_rust_ty(&et);
                            quote!([#et])
                        }
                        Some(T::Array(_)) => {
                            // An array is passed as a slice of its model elements.
                            let f = cx.resolve_chain(k).cloned().map(|mut f| {
                                f.repeat = Repeat::None;
                                f.cond = None;
                                f
                            });
                            match f {
                                Some(f) => {
                                    let et = self.model_ty(&f);
                                    quote!([#et])
                                }
                                None => quote!(i128),
                            }
                        }
                        _ => quote!(i128),
                    },
                };
                // (What is passed where the record has no parent: `parent: false`.)
                let absent = match (by_ref, kt) {
                    (false, _) => quote!(::std::default::Default::default()),
                    (true, Some(T::Str)) => quote!(""),
                    (true, Some(T::Bytes | T::Array(_))) => quote!(&[]),
                    (true, _) => quote!(&::std::default::Default::default()),
                };
                Param {
                    key: k.clone(),
                    id: param_ident(k),
                    ty: rt,
                    by_ref,
                    absent,
                }
            })
            .collect()
    }

    /// Arguments that type `caller` passes to child type `child` through its field `f` (user params first, then
    /// implicit ones).
    fn args_for(
        &self,
        caller: usize,
        child: usize,
        user_args: &[crate::ir::Ex],
        scope: Scope,
        f: &Field,
    ) -> R<TokenStream> {
        Ok(self.args_exits(caller, child, user_args, scope, f)?.0)
    }

    /// [`Gen::args_for`], and whether computing the arguments may leave the function early ([`Cx::exits`]).
    fn args_exits(
        &self,
        caller: usize,
        child: usize,
        user_args: &[crate::ir::Ex],
        scope: Scope,
        f: &Field,
    ) -> R<(TokenStream, bool)> {
        self.args_tuple(caller, child, user_args, scope, f, true)
    }

    /// [`Gen::args_exits`], with the outer values the child needs (`outer`) or its own params alone.
    fn args_tuple(
        &self,
        caller: usize,
        child: usize,
        user_args: &[crate::ir::Ex],
        scope: Scope,
        f: &Field,
        outer: bool,
    ) -> R<(TokenStream, bool)> {
        // (Chosen already: a switch's case whose arguments its tag decides, `Gen::args_by_tag`.)
        let chosen = match scope {
            Scope::Write => self.args_override.borrow_mut().take(),
            _ => None,
        };
        let path = f.path.as_str();
        let mut exits = false;
        let mut out = Vec::new();
        let params = &self.m.types[child].params;
        if user_args.len() != params.len() {
            return err(
                path,
                format!(
                    "type '{}' takes {} argument(s), {} given",
                    self.m.types[child].name,
                    params.len(),
                    user_args.len()
                ),
            );
        }
        for (i, (a, p)) in user_args.iter().zip(params).enumerate() {
            match chosen.as_ref().and_then(|c| c.get(&i)) {
                Some(t) => out.push(t.clone()),
                // A parameter that only guards where an item's offset points: not needed when writing (its
                // argument may name a value the writer derives).
                None if scope != Scope::Read
                    && crate::ir::param_only_in_guards(&self.m.types[child], &p.name) =>
                {
                    out.push(quote!(::core::default::Default::default()))
                }
                None => out.push(self.arg_tokens(caller, a, p, scope, &mut exits)?),
            }
        }
        let implicit = if outer {
            self.param_list(child)
        } else {
            Vec::new()
        };
        // (What the field gives the child as its `_parent`.)
        let parent = f.parent;
        for Param {
            key: k,
            by_ref,
            absent,
            ..
        } in implicit
        {
            if k[0] == "_parent" && parent == crate::ir::ParentRef::Nothing {
                // No parent: its values are their types' defaults (a record read so uses none of them).
                out.push(absent);
                continue;
            }
            if scope == Scope::Write && !self.write_params[child].contains(&k) {
                // Only reading uses it (a `-data` instance's value): the writer has the model's value.
                out.push(absent);
                continue;
            }
            // `_parent.x` is `x` in the caller; the root resolves `_root.x` itself, and the type it reads as its
            // field `a` resolves `_root.a.x` (its own `x`); other types pass it along.
            let aliased = self.m.is_own_root_chain(caller, &k);
            // How many leading steps name the caller itself: the rest is read in its own scope.
            let own = if aliased {
                Some(2)
            } else if k[0] == "_parent" && parent == crate::ir::ParentRef::ReadersParent {
                // The reader's parent is the record's: the reader passes on what it was given.
                None
            } else if k[0] == "_parent" || self.m.root_of(caller) == caller {
                Some(1)
            } else {
                None
            };
            let t = if let Some(skip) = own {
                // (A key is a value reached through the object: the object itself is not passed down.)
                if k.len() <= skip {
                    return err(
                        path,
                        format!(
                            "'{}' is used as a whole object (a cast, or a value passed on), which binspec \
                             cannot pass down to '{}'; use its fields",
                            k.join("."),
                            self.m.types[child].name
                        ),
                    );
                }
                if scope == Scope::Read
                    && !self.full_keys.get()
                    && self.read_before(caller, &k, &k[skip - 1..], child, path)?
                {
                    // A first reading: the child's instances that need the value wait for the second.
                    out.push(absent);
                    continue;
                }
                let mut cx = self.cx(caller, scope);
                let t = cx.tr(&rebase(&k[skip..]), path)?.0;
                exits |= cx.exits;
                // (A borrowed slice or string is passed as it is.)
                if by_ref && t.place().is_none() {
                    t.prefix(quote!(&)).full()
                } else {
                    t.full()
                }
            } else {
                let id = param_ident(&k);
                quote!(#id)
            };
            out.push(t);
        }
        // One tuple (see `fn_params`), or nothing.
        let args = if out.is_empty() {
            quote!()
        } else {
            self.cx(caller, scope)
                .keep_args(quote!((#(#out,)*)), child, outer)
        };
        Ok((args, exits))
    }

    fn fn_params(&self, ti: usize) -> (Vec<TokenStream>, Vec<TokenStream>) {
        // One tuple, `args`, whatever the number of params: a function takes the same few arguments for every
        // type (`clippy::too_many_arguments`), and its body binds the names ([`Gen::args_bind`]).
        if self.param_pairs(ti).is_empty() {
            return (Vec::new(), Vec::new());
        }
        let (name, life) = self.args_alias_name(ti);
        let decl = vec![if life {
            quote!(args: #name<'_>)
        } else {
            quote!(args: #name)
        }];
        (decl.clone(), decl)
    }

    /// The name of the type of `args` of type `ti`'s functions, and whether it takes a lifetime (it holds
    /// references).
    fn args_alias_name(&self, ti: usize) -> (Ident, bool) {
        let name = format_ident!("{}Args", self.m.types[ti].rust);
        let life = self.param_pairs(ti).iter().any(|(_, _, by_ref)| *by_ref);
        (name, life)
    }

    /// `type NameArgs = (...)`: the params of type `ti`'s functions as one tuple (with a lifetime `'p` for the
    /// ones passed by reference); nothing for a type without params or without functions.
    pub(super) fn args_alias(&self, ti: usize) -> R<TokenStream> {
        let pairs = self.param_pairs(ti);
        // (Nor for a type none of whose functions is emitted: a root with params, read only by other schemas.)
        let used = self
            .called
            .as_ref()
            .is_none_or(|c| c.iter().any(|(t, _)| *t == ti));
        if pairs.is_empty() || !used {
            return Ok(quote!());
        }
        let (name, life) = self.args_alias_name(ti);
        let taken = self
            .m
            .types
            .iter()
            .map(|t| (&t.rust, format!("type '{}'", t.name)))
            .chain(
                self.m
                    .enums
                    .iter()
                    .map(|e| (&e.rust, format!("enum '{}'", e.name))),
            );
        for (rust, what) in taken {
            if name == rust.as_str() {
                let t = &self.m.types[ti];
                return err(
                    &format!("/types/{}/params", t.name),
                    format!(
                        "the params of type '{}' are passed as '{name}', the Rust name of {what}: rename one of them",
                        t.name
                    ),
                );
            }
        }
        let tys = pairs
            .iter()
            .map(|(_, t, by_ref)| param_ty(t, *by_ref, &quote!('p)));
        let names: Vec<String> = pairs.iter().map(|(n, _, _)| format!("`{n}`")).collect();
        let doc = format!(
            " The parameters of `{}`'s readers and writers, in this order: {} (a type's own params, then the \
             outer values it uses).",
            self.m.types[ti].rust,
            names.join(", ")
        );
        let generics = if life { quote!(<'p>) } else { quote!() };
        Ok(quote! {
            #[doc = #doc]
            pub(crate) type #name #generics = (#(#tys,)*);
        })
    }

    /// The statement that binds the params of type `ti`'s functions from their `args` tuple (nothing without
    /// params).
    fn args_bind(&self, ti: usize) -> TokenStream {
        let pairs = self.param_pairs(ti);
        if pairs.is_empty() {
            return quote!();
        }
        let names = pairs.iter().map(|(n, _, _)| n);
        quote!(let (#(#names,)*) = args;)
    }

    /// `args,` where type `ti`'s functions take params (to pass them on as they came), else nothing.
    fn args_fwd(&self, ti: usize) -> TokenStream {
        if self.param_pairs(ti).is_empty() {
            quote!()
        } else {
            quote!(args,)
        }
    }

    /// The params a type's read function takes after the reader, byte order, pools and root stream: each name and
    /// Rust type (explicit params first, then the implicit ones).
    ///
    /// Each is its name, the type (referred to, for one passed by reference) and whether it is passed by reference.
    fn param_pairs(&self, ti: usize) -> Vec<(Ident, TokenStream, bool)> {
        let t = &self.m.types[ti];
        let mut read_params = Vec::new();
        for p in &t.params {
            let id = local("p", &p.name);
            let (ty, by_ref) = match &p.ty {
                // Arrays: of records, or of numbers and texts of one Rust type each (the caller converts).
                _ if p.array => {
                    let et = match param_elem_t(p) {
                        T::User(ty) => {
                            let n = ty_ident(&self.m.types[ty].rust);
                            quote!(#n)
                        }
                        t => value_rust_ty(&t),
                    };
                    (quote!([#et]), true)
                }
                _ if p.any_struct => (quote!(dyn ::std::any::Any), true),
                FieldTy::Float { .. } => (quote!(f64), false),
                FieldTy::Bits { n: 1, .. } => (quote!(bool), false),
                FieldTy::Str { .. } => (quote!(str), true),
                FieldTy::Bytes => (quote!([u8]), true),
                FieldTy::User { ty, .. } => {
                    let n = ty_ident(&self.m.types[*ty].rust);
                    (quote!(#n), true)
                }
                _ => (quote!(i128), false),
            };
            read_params.push((id, ty, by_ref));
        }
        for Param { id, ty, by_ref, .. } in self.param_list(ti) {
            read_params.push((id, ty, by_ref));
        }
        read_params
    }
}

/// The name of the slot that records where a pool region ends (for a length field that measures it).
pub(super) fn region_end(name: &str) -> String {
    format!("{name}__end")
}

/// Generates the Rust module for one schema.
pub fn emit(m: &Module) -> R<TokenStream> {
    let params = implicit_params(m);
    let mut pos_refs = BTreeMap::new();
    let mut len_refs = BTreeMap::new();
    let mut named_items = BTreeSet::new();
    for (ti, t) in m.types.iter().enumerate() {
        for e in exprs_of(t) {
            collect_pos_refs(e, ti, &mut pos_refs, &mut len_refs);
            passes::collect_named_items(m, e, ti, &mut named_items);
        }
        // Relocated pointers: a slot for where each is written.
        for f in &t.seq {
            if f.relocate.is_some() {
                pos_refs
                    .entry(ti)
                    .or_default()
                    .insert(relocations::pointer_slot(&f.name));
            }
        }
        // Pool items always get a slot.
        for f in &t.instances {
            if f.item_of.is_some() {
                pos_refs.entry(ti).or_default().insert(f.name.clone());
            }
        }
        // A record in a slot whose size is derived: where it is, and its length.
        for f in &t.seq {
            if f.size_derived {
                pos_refs.entry(ti).or_default().insert(f.name.clone());
            }
        }
        // A pool region that a length field measures: its start and its end.
        for f in &t.seq {
            if matches!(f.role, Role::Pool(_)) && t.measured(&f.name) {
                let refs = pos_refs.entry(ti).or_default();
                refs.insert(f.name.clone());
                refs.insert(region_end(&f.name));
            }
        }
    }
    // `_root.x._pos` style references name a field of another type.
    for (ti, t) in m.types.iter().enumerate() {
        let mut chains = BTreeSet::new();
        for e in exprs_of(t) {
            collect_chains(e, &mut chains);
        }
        let _ = ti;
        for c in chains {
            if c.last().map(|s| s.as_str()) == Some("_pos") && c[0] == "_root" && c.len() == 3 {
                pos_refs.entry(0).or_default().insert(c[1].clone());
            }
        }
    }
    let mut slots = BTreeMap::new();
    for (ti, names) in &pos_refs {
        for n in names {
            let s = slots.len() as u32;
            slots.insert((*ti, n.clone()), s);
        }
    }
    let late = late::late_pass(m, &params);
    let mut g = Gen {
        m,
        boxed: recursive_fields(m),
        params,
        write_params: write_params(m),
        pos_refs,
        named_items,
        len_refs,
        slots,
        view: std::cell::Cell::new(false),
        view_plan: std::cell::OnceCell::new(),
        params_unsure: std::cell::OnceCell::new(),
        calls: Default::default(),
        current: std::cell::Cell::new(None),
        called: None,
        own: Default::default(),
        late,
        late_field: Default::default(),
        late_after: Default::default(),
        args_override: Default::default(),
        full_keys: Default::default(),
        no_reader: Default::default(),
    };
    // Emitted twice: the first emission notes which functions the generated code calls, the second emits only
    // those (the calls it generates are the same).
    g.emit_items()?;
    g.called = Some(g.reached());
    let items = g.emit_items()?;
    Ok(quote!(#(#items)*))
}

impl Gen<'_> {
    /// Every item of the module: the types, the enums, the root's format glue.
    fn emit_items(&self) -> R<Vec<TokenStream>> {
        let mut items = Vec::new();
        for ti in 0..self.m.types.len() {
            items.push(self.emit_type(ti)?);
        }
        for e in &self.m.enums {
            items.push(emit_enum(e));
        }
        // A root with params (Kaitai's `common/bcd`) is read only as another schema's type, with its arguments:
        // no file is one on its own, so it gets no `Format`.
        if self.m.root().params.is_empty() {
            items.push(self.emit_root_impl()?);
        }
        Ok(items)
    }
}

/// Formats generated tokens as a file, with the `@generated` header.
pub fn format_file(tokens: TokenStream, source: &str) -> Result<String, String> {
    let mut file: syn::File =
        syn::parse2(tokens).map_err(|e| format!("generated code does not parse: {e}"))?;
    unused::underscore_unused(&mut file);
    let body = prettyplease::unparse(&file);
    Ok(format!("// @generated by binspec-codegen from {source}. Do not edit: edit the schema and rebuild.\n\n{body}"))
}

/// The smallest number of bytes one element can take (for allocation bounds).
fn min_size(m: &Module, f: &Field) -> u64 {
    match &f.ty {
        FieldTy::Int { bytes, .. } | FieldTy::Float { bytes, .. } => *bytes as u64,
        FieldTy::User { ty, .. } => m.types[*ty]
            .seq
            .iter()
            .map(|s| match (&s.ty, &s.repeat, &s.cond) {
                (FieldTy::Int { bytes, .. }, Repeat::None, None) => *bytes as u64,
                _ => 0,
            })
            .sum(),
        _ => 0,
    }
}

/// The field as one switch case reads it: the case's type in place of the switch.
fn case_field(f: &Field, c: &crate::ir::SwitchCase) -> Field {
    let mut cf = f.clone();
    cf.ty = match (&c.prim, c.user()) {
        (Some(p), _) => p.clone(),
        (None, Some(ty)) => FieldTy::User {
            ty,
            args: c.args.clone(),
        },
        (None, None) => FieldTy::Bytes,
    };
    cf.repeat = Repeat::None;
    cf.cond = None;
    cf
}

/// The kind of a param's value as expressions see it (of one element, for an array param, `type: T[]`).
fn param_elem_t(p: &crate::ir::Param) -> T {
    match &p.ty {
        FieldTy::Float { .. } => T::Float,
        FieldTy::Bits { n: 1, .. } => T::Bool,
        FieldTy::Str { .. } => T::Str,
        FieldTy::Bytes => T::Bytes,
        FieldTy::User { ty, .. } => T::User(*ty),
        _ => T::Int,
    }
}

/// The Rust type of a value the translator makes of type `t` (an array literal's elements: `vec![...]`).
fn value_rust_ty(t: &T) -> TokenStream {
    match t {
        T::Float => quote!(f64),
        T::Bool => quote!(bool),
        T::Str => quote!(::std::string::String),
        T::Bytes => quote!(::std::vec::Vec<u8>),
        T::Array(inner) => {
            let i = value_rust_ty(inner);
            quote!(::std::vec::Vec<#i>)
        }
        _ => quote!(i128),
    }
}

/// A switch whose every case is an integer: it reads as an integer in expressions (`.value()`).
fn int_switch(f: &Field) -> bool {
    matches!(&f.ty, FieldTy::Switch { cases, .. } if cases.iter().all(|c| matches!(c.prim, Some(FieldTy::Int { .. }))))
}

/// A field whose model value is an enum-like wrapper of an integer (an enum, or an integer switch).
fn valued(f: &Field) -> bool {
    f.enum_.is_some() || int_switch(f)
}

/// An implicit parameter of a type's read and write functions: a `_parent`/`_root` value it uses.
struct Param {
    /// The path of the value (`["_root", "version"]`).
    key: Vec<String>,
    id: Ident,
    /// Its Rust type (the type referred to, where it is passed by reference).
    ty: TokenStream,
    /// Whether it is passed by reference (strings, bytes, records, arrays).
    by_ref: bool,
    /// The value passed for it where the record has no parent (`parent: false`): its type's default.
    absent: TokenStream,
}

/// The Rust type of a param of type `ty` (see [`Param`]), with `life` as the lifetime of a reference (nothing
/// for an elided one).
fn param_ty(ty: &TokenStream, by_ref: bool, life: &TokenStream) -> TokenStream {
    if by_ref {
        quote!(& #life #ty)
    } else {
        ty.clone()
    }
}
