//! IR pass `typecheck`: every Kaitai expression of a schema is type-checked against the types it can see, and
//! each key's expression must have the type the key needs (`if` a boolean; `size`, `pos` and `repeat-expr` an
//! integer; `repeat-until` a boolean with `_` the element just read). Expressions in `-` keys use binspec's own
//! extensions (`x._pos`) and are checked by the emitter instead.

use std::cell::RefCell;
use std::collections::BTreeSet;

use crate::diag::{Diags, Pos};
use crate::expr::types::{type_of, Env, Ty};
use crate::ir::{Ex, Field, FieldTy, Module, Repeat, Valid};

/// Where an expression is checked: a type, and the extra names in scope there.
struct Scope<'m> {
    m: &'m Module,
    ty: usize,
    /// `_index` is in scope (inside a repeated attribute).
    index: bool,
    /// The type of `_` (repeat-until, valid).
    last: Option<Ty>,
    /// What the checks of one module share.
    shared: &'m Shared,
}

/// What the checks of one module share: the value instances being typed (to stop cycles), and the type found for
/// each expression checked, by its address in the module (stored into it once every check is done).
#[derive(Default)]
struct Shared {
    visiting: RefCell<BTreeSet<(usize, String)>>,
    found: RefCell<Vec<(usize, Ty)>>,
    /// The type of every node of those expressions, by the node's address.
    nodes: crate::expr::types::Recorded,
}

impl Shared {
    fn found(&self, x: &Ex, t: &Ty) {
        self.found
            .borrow_mut()
            .push((x as *const Ex as usize, t.clone()));
    }
}

fn type_path(m: &Module, ty: usize) -> String {
    m.types[ty].path.join("::")
}

fn enum_key(m: &Module, e: usize) -> String {
    let en = &m.enums[e];
    format!("{}::{}", type_path(m, en.owner), en.name)
}

impl Scope<'_> {
    fn at(&self, ty: usize) -> Scope<'_> {
        Scope {
            m: self.m,
            ty,
            index: false,
            last: None,
            shared: self.shared,
        }
    }

    fn field_ty(&self, ty: usize, f: &Field) -> Ty {
        let base = match &f.ty {
            FieldTy::Int { .. } if f.enum_.is_some() => {
                Ty::Enum(enum_key(self.m, f.enum_.unwrap_or(0)))
            }
            FieldTy::Int { bytes, signed, .. } => Ty::Int {
                signed: *signed,
                width: *bytes,
            },
            FieldTy::Float { .. } => Ty::Float,
            FieldTy::Bits { n: 1, .. } if f.enum_.is_none() => Ty::Bool,
            FieldTy::Bits { .. } if f.enum_.is_some() => {
                Ty::Enum(enum_key(self.m, f.enum_.unwrap_or(0)))
            }
            FieldTy::Bits { .. } => Ty::Int {
                signed: false,
                width: 8,
            },
            FieldTy::Bytes => Ty::Bytes,
            FieldTy::Str { .. } => Ty::Str,
            FieldTy::User { ty, .. } => Ty::User(type_path(self.m, *ty)),
            FieldTy::Switch { cases, .. } => {
                let mut tys: BTreeSet<usize> = cases.iter().filter_map(|c| c.user()).collect();
                let all_int = cases
                    .iter()
                    .all(|c| matches!(c.prim, Some(FieldTy::Int { .. })));
                match (tys.len(), tys.pop_first()) {
                    (1, Some(t)) if cases.iter().all(|c| c.user().is_some()) => {
                        Ty::User(type_path(self.m, t))
                    }
                    _ if all_int => Ty::Int {
                        signed: true,
                        width: 8,
                    },
                    _ => Ty::Any,
                }
            }
            FieldTy::Value => {
                let key = (ty, f.name.clone());
                if !self.shared.visiting.borrow_mut().insert(key.clone()) {
                    return Ty::Any;
                }
                let t = f
                    .value()
                    .and_then(|v| type_of(&v.expr, &self.at(ty)).ok())
                    .unwrap_or(Ty::Any);
                self.shared.visiting.borrow_mut().remove(&key);
                match (f.enum_, t) {
                    (Some(e), Ty::Int { .. }) => Ty::Enum(enum_key(self.m, e)),
                    (_, t) => t,
                }
            }
        };
        if f.repeat != Repeat::None {
            Ty::Array(Box::new(base))
        } else {
            base
        }
    }

    fn type_by_path(&self, path: &str) -> Option<usize> {
        self.m.type_by_path(path)
    }
}

/// The type a param is declared with: its enum, its user type, an array of either.
fn declared_param_ty(m: &Module, p: &crate::ir::Param) -> Ty {
    let one = match (p.enum_, &p.ty) {
        _ if p.any_struct => Ty::Any,
        (Some(e), _) => Ty::Enum(enum_key(m, e)),
        (None, FieldTy::User { ty, .. }) => Ty::User(type_path(m, *ty)),
        (None, other) => param_ty(other),
    };
    if p.array {
        Ty::Array(Box::new(one))
    } else {
        one
    }
}

fn param_ty(f: &FieldTy) -> Ty {
    match f {
        FieldTy::Int { bytes, signed, .. } => Ty::Int {
            signed: *signed,
            width: *bytes,
        },
        FieldTy::Float { .. } => Ty::Float,
        FieldTy::Bits { n: 1, .. } => Ty::Bool,
        FieldTy::Bits { .. } => Ty::Int {
            signed: false,
            width: 8,
        },
        FieldTy::Bytes => Ty::Bytes,
        FieldTy::Str { .. } => Ty::Str,
        _ => Ty::Any,
    }
}

impl Env for Scope<'_> {
    fn name(&self, name: &str) -> Option<Ty> {
        match name {
            "_index" if self.index => {
                return Some(Ty::Int {
                    signed: true,
                    width: 8,
                })
            }
            "_" => return self.last.clone(),
            _ => {}
        }
        let t = &self.m.types[self.ty];
        if let Some(p) = t.params.iter().find(|p| p.name == name) {
            return Some(declared_param_ty(self.m, p));
        }
        if name == "_sizeof" {
            return Some(Ty::Int {
                signed: true,
                width: 8,
            });
        }
        if t.layout.iter().any(|l| l.name == name) {
            return Some(Ty::Int {
                signed: false,
                width: 8,
            });
        }
        let f = t
            .seq
            .iter()
            .chain(t.instances.iter())
            .find(|f| f.name == name)?;
        Some(self.field_ty(self.ty, f))
    }

    fn special(&self, name: &str) -> Option<Ty> {
        match name {
            // The root of the schema this type comes from (an imported schema has its own).
            "_root" => Some(Ty::User(type_path(self.m, self.m.root_of(self.ty)))),
            "_parent" => self
                .m
                .owners
                .get(self.ty)
                .copied()
                .flatten()
                .map(|p| Ty::User(type_path(self.m, p))),
            _ => None,
        }
    }

    fn parent_of(&self, user_type: &str) -> Option<Ty> {
        let ty = self.type_by_path(user_type)?;
        let p = self.m.owners.get(ty).copied().flatten()?;
        Some(Ty::User(type_path(self.m, p)))
    }

    fn field_of(&self, user_type: &str, field: &str) -> Option<Ty> {
        let ty = self.type_by_path(user_type)?;
        let t = &self.m.types[ty];
        if let Some(p) = t.params.iter().find(|p| p.name == field) {
            return Some(declared_param_ty(self.m, p));
        }
        let f = t
            .seq
            .iter()
            .chain(t.instances.iter())
            .find(|f| f.name == field)?;
        Some(self.field_ty(ty, f))
    }

    fn enum_value(&self, path: &[String], value: &str) -> Option<String> {
        let (enum_name, owner_path) = path.split_last()?;
        let owner_path: Vec<&String> = owner_path.iter().filter(|p| !p.is_empty()).collect();
        // Look outwards from this type, as names are resolved; a qualified name must match its owner's path tail.
        let mut scope = Some(self.ty);
        let mut candidates = Vec::new();
        while let Some(s) = scope {
            candidates.push(s);
            scope = self.m.types[s].parent;
        }
        candidates.extend(0..self.m.types.len());
        for s in candidates {
            for (i, e) in self.m.enums.iter().enumerate() {
                if e.owner != s || &e.name != enum_name {
                    continue;
                }
                let tp = &self.m.types[e.owner].path;
                let tail_ok = owner_path.is_empty()
                    || (tp.len() >= owner_path.len()
                        && tp[tp.len() - owner_path.len()..]
                            .iter()
                            .zip(owner_path.iter())
                            .all(|(a, b)| a == *b));
                if tail_ok && e.values.iter().any(|(_, id, _)| id == value) {
                    return Some(enum_key(self.m, i));
                }
            }
        }
        None
    }

    fn type_named(&self, path: &[String]) -> Option<Ty> {
        let name = path
            .iter()
            .filter(|p| !p.is_empty())
            .cloned()
            .collect::<Vec<_>>()
            .join("::");
        if let Some(t) = crate::expr::types::builtin_type(&name) {
            return Some(t);
        }
        let last = path.last()?;
        if let Some(t) = self
            .m
            .types
            .iter()
            .find(|t| t.path.join("::").ends_with(&name) && &t.name == last)
        {
            return Some(Ty::User(t.path.join("::")));
        }
        // As Kaitai resolves a path, one name at a time from the type before it, each found where `type:` would
        // find it from there (its nested types, then its ancestors'): `top::chunk::chunk_body` names a
        // `chunk_body` declared beside `chunk`.
        let names: Vec<&String> = path.iter().filter(|p| !p.is_empty()).collect();
        let (first, rest) = names.split_first()?;
        let mut at = self.m.find_type(0, first)?;
        for n in rest {
            at = self.m.find_type(at, n)?;
        }
        Some(Ty::User(self.m.types[at].path.join("::")))
    }

    fn field_names(&self, user_type: &str) -> Vec<String> {
        let Some(ty) = self.type_by_path(user_type) else {
            return Vec::new();
        };
        let t = &self.m.types[ty];
        t.seq
            .iter()
            .chain(t.instances.iter())
            .map(|f| f.name.clone())
            .collect()
    }

    fn names(&self) -> Vec<String> {
        let t = &self.m.types[self.ty];
        t.seq
            .iter()
            .chain(t.instances.iter())
            .map(|f| f.name.clone())
            .chain(t.params.iter().map(|p| p.name.clone()))
            .collect()
    }
}

/// What a key needs its expression to be.
#[derive(Clone, Copy, PartialEq)]
enum Want {
    Bool,
    Int,
    Any,
}

fn check(scope: &Scope<'_>, x: &Ex, want: Want, key: &str, diags: &mut Diags) {
    // Errors point into the expression: its column plus the offset of the bad part.
    let at = |start: usize| Pos {
        line: x.pos.line,
        col: x.pos.col + start,
    };
    // binspec's own keys may use what binspec adds to the expression language.
    let ext = key.starts_with('-');
    let typed = crate::expr::types::types_of(&x.expr, scope, ext, &scope.shared.nodes);
    match typed {
        Err(e) => diags.error(
            at(e.span.start),
            &x.path,
            format!("in '{}': {}", x.text, e.message),
            None,
        ),
        Ok(t) => {
            scope.shared.found(x, &t);
            sizes_known(scope, x, diags);
            let ok = match want {
                Want::Bool => matches!(t, Ty::Bool | Ty::Any),
                Want::Int => matches!(t, Ty::Int { .. } | Ty::Any),
                Want::Any => true,
            };
            if !ok {
                let need = if want == Want::Bool {
                    "a boolean"
                } else {
                    "an integer"
                };
                diags.error(
                    at(0),
                    &x.path,
                    format!("'{key}' needs {need}, but '{}' is {t}", x.text),
                    None,
                );
            }
        }
    }
}

/// Reports every size `x` asks for (`sizeof<T>`, `a._sizeof`, `_sizeof`) that is not known without reading, as
/// Kaitai's compiler does.
fn sizes_known(scope: &Scope<'_>, x: &Ex, diags: &mut Diags) {
    let mut stack = vec![&x.expr];
    while let Some(e) = stack.pop() {
        if let Some(Err(message)) = scope.m.size_asked(scope.ty, e) {
            diags.error(
                Pos {
                    line: x.pos.line,
                    col: x.pos.col + e.span.start,
                },
                &x.path,
                format!("in '{}': {message}", x.text),
                None,
            );
        }
        stack.extend(crate::expr::children(e));
    }
}

/// Checks that `a == b` is a valid comparison (switch cases against their switch-on, `valid` values against the
/// field).
fn check_comparable(scope: &Scope<'_>, a: &Ex, b: &Ex, what: &str, diags: &mut Diags) {
    let typed = |x: &Ex| crate::expr::types::types_of(&x.expr, scope, false, &scope.shared.nodes);
    let (Ok(ta), Ok(tb)) = (typed(a), typed(b)) else {
        return;
    };
    scope.shared.found(a, &ta);
    scope.shared.found(b, &tb);
    let eq = crate::expr::Expr {
        kind: crate::expr::ExprKind::Binary {
            op: crate::expr::BinOp::Eq,
            lhs: Box::new(a.expr.clone()),
            rhs: Box::new(b.expr.clone()),
        },
        span: Default::default(),
        ty: None,
    };
    if type_of(&eq, scope).is_err() {
        diags.error(
            b.pos,
            &b.path,
            format!(
                "{what} '{}' is {tb}, which cannot be compared with {ta}",
                b.text
            ),
            None,
        );
    }
}

/// Whether a type or an enclosing one gives a byte order.
fn has_default_endian(m: &Module, mut ty: usize) -> bool {
    loop {
        if !matches!(m.types[ty].endian, crate::ir::EndianSpec::Inherit) {
            return true;
        }
        match m.types[ty].parent {
            Some(p) => ty = p,
            None => return false,
        }
    }
}

/// Arguments against the parameters of the type they are passed to: as many, and of fitting types.
fn check_args(scope: &Scope<'_>, ty: usize, args: &[Ex], f: &Field, diags: &mut Diags) {
    let params = &scope.m.types[ty].params;
    if args.len() != params.len() {
        diags.error(
            f.pos,
            &f.path,
            format!(
                "type '{}' takes {} argument(s), {} given",
                scope.m.types[ty].name,
                params.len(),
                args.len()
            ),
            None,
        );
        return;
    }
    for (i, (a, p)) in args.iter().zip(params).enumerate() {
        check(scope, a, Want::Any, "argument", diags);
        let Ok(at) = type_of(&a.expr, scope) else {
            continue;
        };
        let pt = declared_param_ty(scope.m, p);
        fn fits(pt: &Ty, at: &Ty) -> bool {
            match (pt, at) {
                (Ty::Any, _) | (_, Ty::Any) => true,
                (Ty::Int { .. }, Ty::Int { .. }) => true,
                (Ty::Float, Ty::Float | Ty::Int { .. }) => true,
                (Ty::Array(p), Ty::Array(a)) => fits(p, a),
                (a, b) => a == b,
            }
        }
        let fits = fits(&pt, &at);
        if !fits {
            diags.error(
                a.pos,
                &a.path,
                format!(
                    "argument {} ('{}') is {at}, but parameter '{}' is {pt}",
                    i + 1,
                    a.text,
                    p.name
                ),
                None,
            );
        }
    }
}

/// Pass `typecheck`: checks every expression, and stores the type of each one that checks in it ([`Ex::ty`]).
pub fn typecheck(m: &mut Module, diags: &mut Diags) {
    let shared = Shared::default();
    {
        let m: &Module = m;
        for (ti, t) in m.types.iter().enumerate() {
            diags.in_file(&t.file, |diags| typecheck_type(m, ti, t, &shared, diags));
        }
    }
    let found: std::collections::HashMap<usize, Ty> =
        shared.found.into_inner().into_iter().collect();
    let nodes: std::collections::HashMap<usize, Ty> =
        shared.nodes.into_inner().into_iter().collect();
    for x in crate::ir::exprs_mut(m) {
        x.ty = found.get(&(&*x as *const Ex as usize)).cloned();
        crate::expr::types::annotate(&mut x.expr, &nodes);
    }
    // The `info` summary and version, over the root type (what they cannot type, the emitter reports with its
    // position).
    if m.types.is_empty() {
        return;
    }
    let mut info = std::mem::take(&mut m.info.summary);
    let mut version = m.info.version.take();
    for x in info.iter_mut().map(|(_, x)| x).chain(version.as_mut()) {
        if let Ok(t) = annotate(m, 0, &mut x.expr, true) {
            x.ty = Some(t);
        }
    }
    m.info.summary = info;
    m.info.version = version;
}

/// Type-checks `e`, an expression over type `ti` of `m` written outside the schema (a test's expectation over a
/// decoded file), and stores the type of each of its nodes in it, as the `typecheck` pass does for the schema's.
/// With `ext`, what binspec adds to the language is allowed, as in its `-` keys.
pub fn annotate(m: &Module, ti: usize, e: &mut crate::expr::Expr, ext: bool) -> Result<Ty, String> {
    let shared = Shared::default();
    let scope = Scope {
        m,
        ty: ti,
        index: false,
        last: None,
        shared: &shared,
    };
    let t = crate::expr::types::types_of(e, &scope, ext, &shared.nodes).map_err(|e| e.message)?;
    let nodes = shared.nodes.into_inner().into_iter().collect();
    crate::expr::types::annotate(e, &nodes);
    Ok(t)
}

/// [`typecheck`] for one type.
fn typecheck_type(
    m: &Module,
    ti: usize,
    t: &crate::ir::TypeDef,
    shared: &Shared,
    diags: &mut Diags,
) {
    // Parameter names must be unique and not clash with fields or instances.
    let mut seen = BTreeSet::new();
    let yaml = if ti == 0 {
        "/params".to_string()
    } else {
        format!("/types/{}/params", t.path[1..].join("/types/"))
    };
    for p in &t.params {
        if !seen.insert(p.name.as_str()) {
            diags.error(
                t.pos,
                &yaml,
                format!("parameter '{}' is declared twice", p.name),
                None,
            );
        }
        if t.seq
            .iter()
            .chain(t.instances.iter())
            .any(|f| f.name == p.name)
        {
            diags.error(
                t.pos,
                &yaml,
                format!(
                    "'{}' is both a parameter and a field or instance of '{}'",
                    p.name, t.name
                ),
                None,
            );
        }
    }
    let scope = Scope {
        m,
        ty: ti,
        index: false,
        last: None,
        shared,
    };
    if let crate::ir::EndianSpec::Switch { on, cases } = &t.endian {
        check(&scope, on, Want::Any, "switch-on", diags);
        for (k, _) in cases {
            check_comparable(&scope, on, k, "byte-order case", diags);
        }
    }
    for f in t.seq.iter().chain(t.instances.iter()) {
        let repeated = f.repeat != Repeat::None;
        let inner = Scope {
            m,
            ty: ti,
            index: repeated,
            last: None,
            shared,
        };
        if let Some(x) = &f.cond {
            check(&scope, x, Want::Bool, "if", diags);
        }
        if let Some(x) = &f.size {
            check(&inner, x, Want::Int, "size", diags);
        }
        if let Some(x) = f.pos_expr() {
            check(&scope, x, Want::Int, "pos", diags);
        }
        if let Some(x) = f.value() {
            let key = if f.binspec_value { "-value" } else { "value" };
            check(&scope, x, Want::Any, key, diags);
        }
        if let Some(x) = f.io() {
            check(&scope, x, Want::Any, "io", diags);
        }
        // (Each element of a repetition is processed with its own key, so `_index` may be in it.)
        match &f.process {
            Some(
                crate::ir::Process::Xor(x)
                | crate::ir::Process::Rol(x)
                | crate::ir::Process::Ror(x),
            ) => check(&inner, x, Want::Any, "process", diags),
            Some(crate::ir::Process::Custom { args, .. }) => {
                for x in args {
                    check(&inner, x, Want::Any, "process", diags);
                }
            }
            Some(crate::ir::Process::Zlib) | None => {}
        }
        // binspec's own expressions (`-` keys), in the scope of the type they are written in.
        if let crate::ir::Role::Derive(x) = &f.role {
            check(&scope, x, Want::Any, "-derive", diags);
        }
        if let Some(x) = &f.default {
            check(&scope, x, Want::Any, "-default", diags);
        }
        if let Some(r) = &f.relocations {
            for x in r.from.iter().chain(&r.size) {
                check(&scope, x, Want::Int, "-relocations", diags);
            }
        }
        // A sort key is an expression of the element.
        if let (Some(x), FieldTy::User { ty, .. }) = (&f.sort_by, &f.ty) {
            let elem = Scope {
                m,
                ty: *ty,
                index: false,
                last: None,
                shared,
            };
            check(&elem, x, Want::Any, "-sort-by", diags);
        }
        match &f.repeat {
            Repeat::Expr(x) => check(&scope, x, Want::Int, "repeat-expr", diags),
            Repeat::Until(x) => {
                let elem = match scope.field_ty(ti, f) {
                    Ty::Array(e) => *e,
                    t => t,
                };
                let s = Scope {
                    m,
                    ty: ti,
                    index: true,
                    last: Some(elem),
                    shared,
                };
                check(&s, x, Want::Bool, "repeat-until", diags);
            }
            _ => {}
        }
        match &f.ty {
            FieldTy::User { ty, args } => check_args(&inner, *ty, args, f, diags),
            FieldTy::Switch { on, cases } => {
                check(&inner, on, Want::Any, "switch-on", diags);
                for c in cases {
                    if let Some(ty) = c.user() {
                        check_args(&inner, ty, &c.args, f, diags);
                    }
                }
                for k in cases.iter().filter_map(|c| c.key.as_ref()) {
                    check_comparable(&inner, on, k, "case", diags);
                }
            }
            _ => {}
        }
        let multibyte = |ft: &FieldTy| {
            matches!(
                ft,
                FieldTy::Int {
                    bytes: 2..,
                    endian: None,
                    ..
                } | FieldTy::Float { endian: None, .. }
            )
        };
        let case_prims = match &f.ty {
            FieldTy::Switch { cases, .. } => cases.iter().filter_map(|c| c.prim.clone()).collect(),
            other => vec![other.clone()],
        };
        if case_prims.iter().any(multibyte) && !has_default_endian(m, ti) {
            diags.error(
                f.pos,
                &f.path,
                "a multi-byte number needs a byte order, and neither it nor its type gives one",
                Some(
                    "add 'endian: le' or 'endian: be' to meta, or write the type as u2le/u2be"
                        .into(),
                ),
            );
        }
        if let Some(v) = &f.valid {
            let elem = match scope.field_ty(ti, f) {
                Ty::Array(e) => *e,
                t => t,
            };
            let s = Scope {
                m,
                ty: ti,
                index: repeated,
                last: Some(elem),
                shared,
            };
            let xs: Vec<&Ex> = match v {
                Valid::InEnum => {
                    if f.enum_.is_none() {
                        diags.error(
                            f.pos,
                            &f.path,
                            "'valid: in-enum' needs 'enum' on the same attribute",
                            None,
                        );
                    }
                    vec![]
                }
                Valid::Eq(x) | Valid::Min(x) | Valid::Max(x) => vec![x],
                Valid::Range(a, b) => a.iter().chain(b.iter()).collect(),
                Valid::AnyOf(xs) => xs.iter().collect(),
                Valid::Expr(x) => {
                    check(&s, x, Want::Bool, "valid: expr", diags);
                    vec![]
                }
            };
            let under = Ex {
                ty: None,
                expr: crate::expr::Expr {
                    kind: crate::expr::ExprKind::Name("_".into()),
                    span: Default::default(),
                    ty: None,
                },
                text: "_".into(),
                pos: f.pos,
                path: f.path.clone(),
            };
            for x in xs {
                check(&s, x, Want::Any, "valid", diags);
                check_comparable(&s, &under, x, "valid value", diags);
            }
        }
        if f.enum_.is_some()
            && !matches!(
                f.ty,
                FieldTy::Int { .. } | FieldTy::Bits { .. } | FieldTy::Value
            )
        {
            diags.error(f.pos, &f.path, "'enum' needs an integer type", None);
        }
        if f.value().is_some() && (f.size.is_some() || !(f.data || matches!(f.ty, FieldTy::Value)))
        {
            diags.error(
                f.pos,
                &f.path,
                "a value instance cannot also have 'type' or 'size': it is computed, not read",
                None,
            );
        }
    }
}
