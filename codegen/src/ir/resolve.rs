//! Pass `resolve_fields`: each type's params, `seq` and instances resolved into [`Field`]s (type names looked
//! up, expressions parsed, `process:` and binspec's `-` keys read), and the built-in types.

use std::collections::BTreeSet;

use crate::diag::{did_you_mean, Diags, Pos};
use crate::syntax::{ExprSrc, RawAttr, RawRepeat, RawType, RawTypeRef, RawValid, Value};

use super::builder::{node_ex, parse_ex, Builder};
use super::keys::{check_ext, ext_get, parse_relocate, parse_relocations, parse_scan, FIELD_EXT};
use super::{
    camel, Endian, Field, FieldKind, FieldTy, Param, PoolUse, Process, Repeat, Role, SwitchCase,
    Valid,
};

/// Pass `resolve_fields`: every collected type's params, `seq` and instances, in the order they were collected.
pub(super) fn resolve_fields(b: &mut Builder, diags: &mut Diags) {
    for i in 0..b.raw_types.len() {
        let rt = b.raw_types[i].clone();
        diags.in_file(&b.types[i].file.clone(), |diags| {
            b.resolve_type(i, &rt, diags)
        });
    }
}

impl Builder {
    fn resolve_type(&mut self, idx: usize, rt: &RawType, diags: &mut Diags) {
        let mut params = Vec::new();
        for p in &rt.params {
            // `T[]`: an array of T.
            let (text, array) = match p.ty.as_deref().map(str::trim) {
                Some(t) => match t.strip_suffix("[]") {
                    Some(elem) => (Some(elem.trim_end()), true),
                    None => (Some(t), false),
                },
                None => (None, false),
            };
            let any_struct = text == Some("struct");
            if any_struct && array {
                diags.error(
                    p.pos,
                    &p.path,
                    "an array of records of any type ('struct[]') is not supported yet".to_string(),
                    Some("name the records' type: 'type: my_record[]'".to_string()),
                );
            }
            let ty = match text {
                Some("struct") => FieldTy::Value,
                Some(t) => self
                    .prim_or_user(idx, t, &p.path, p.pos, self.bit_le(idx), None, diags)
                    .unwrap_or(FieldTy::Value),
                None => FieldTy::Value,
            };
            let enum_ = p.enum_.as_deref().and_then(|e| self.find_enum(idx, e));
            params.push(Param {
                name: p.id.clone(),
                ty,
                enum_,
                doc: p.doc.clone(),
                array,
                any_struct,
            });
        }
        self.types[idx].params = params;
        let seq: Vec<Field> = rt
            .seq
            .iter()
            .filter_map(|a| self.resolve_attr(idx, rt, a, false, diags))
            .collect();
        let inst: Vec<Field> = rt
            .instances
            .iter()
            .filter_map(|a| self.resolve_attr(idx, rt, a, true, diags))
            .collect();
        let mut seen = BTreeSet::new();
        for f in seq.iter().chain(inst.iter()) {
            if !seen.insert(f.name.clone()) {
                diags.error(
                    f.pos,
                    &f.path,
                    format!("'{}' is defined twice in type '{}'", f.name, rt.name),
                    None,
                );
            }
        }
        self.types[idx].seq = seq;
        self.types[idx].instances = inst;
    }

    #[allow(clippy::too_many_arguments)]
    fn prim_or_user(
        &mut self,
        idx: usize,
        text: &str,
        path: &str,
        pos: Pos,
        bit_le: bool,
        encoding: Option<&str>,
        diags: &mut Diags,
    ) -> Option<FieldTy> {
        // (A type with arguments may be a block over several lines, which ends in a line break.)
        let text = text.trim();
        let (name, args) = match text.find('(') {
            Some(i) if text.ends_with(')') => {
                (text[..i].trim_end(), Some(&text[i + 1..text.len() - 1]))
            }
            _ => (text, None),
        };
        if let Some(t) = prim_type(name, encoding) {
            // A bit type's own `le`/`be` suffix (`b6be`) wins over `meta: bit-endian`.
            let own = bit_suffix(name);
            return Some(match t {
                FieldTy::Bits { n, .. } => FieldTy::Bits {
                    n,
                    le: own.unwrap_or(bit_le),
                },
                t => t,
            });
        }
        match self.find_type(idx, name) {
            Some(ty) => {
                let mut a = Vec::new();
                if let Some(args) = args {
                    for (i, part) in split_args(args).into_iter().enumerate() {
                        if let Some(e) = parse_ex(
                            &ExprSrc {
                                text: part,
                                pos,
                                path: format!("{path}[arg {i}]"),
                            },
                            diags,
                        ) {
                            a.push(e);
                        }
                    }
                }
                Some(FieldTy::User { ty, args: a })
            }
            None => {
                let mut names: Vec<String> = PRIMS.iter().map(|s| s.to_string()).collect();
                names.extend(self.types.iter().map(|t| t.name.clone()));
                diags.error(
                    pos,
                    path,
                    format!("unknown type '{name}'"),
                    did_you_mean(name, names.iter().map(|s| s.as_str())),
                );
                None
            }
        }
    }

    fn resolve_attr(
        &mut self,
        idx: usize,
        _rt: &RawType,
        a: &RawAttr,
        is_instance: bool,
        diags: &mut Diags,
    ) -> Option<Field> {
        check_ext(
            &a.ext,
            FIELD_EXT,
            if is_instance {
                "an instance"
            } else {
                "a seq attribute"
            },
            diags,
        );
        let enc = a.encoding.clone().or_else(|| self.default_encoding(idx));
        // `-data: TYPE` on a value instance: an integer kept in the model.
        let data_ty = match ext_get(&a.ext, "-data") {
            None => None,
            Some(n) => {
                let t = match (&n.value, is_instance && a.value.is_some()) {
                    (Value::Str(t), true) => match prim_type(t, None) {
                        Some(FieldTy::Int { bytes, signed, .. }) => Some(FieldTy::Int {
                            bytes,
                            signed,
                            endian: None,
                        }),
                        _ => None,
                    },
                    _ => None,
                };
                if t.is_none() {
                    diags.error(
                        n.pos,
                        &n.path,
                        "'-data' takes an integer type (u1, u2, u4, u8, s1, ...), on a value instance",
                        Some("for example '-data: u1'".into()),
                    );
                }
                t
            }
        };
        let ty = match &a.ty {
            None if a.value.is_some() => data_ty.clone().unwrap_or(FieldTy::Value),
            None => FieldTy::Bytes,
            Some(RawTypeRef::Name { text, pos, path }) => {
                let t = self.prim_or_user(
                    idx,
                    text,
                    path,
                    *pos,
                    self.bit_le(idx),
                    enc.as_deref(),
                    diags,
                )?;
                if let FieldTy::Str { encoding, .. } = &t {
                    if encoding.is_empty() {
                        diags.error(
                            *pos,
                            path,
                            "a string needs an encoding",
                            Some("add 'encoding: UTF-8' here or in meta".into()),
                        );
                    }
                }
                t
            }
            Some(RawTypeRef::Switch { on, cases }) => {
                let on = parse_ex(on, diags)?;
                let mut cs = Vec::new();
                for (k, tn, pos) in cases {
                    let case_ty = self.prim_or_user(
                        idx,
                        tn,
                        &k.path,
                        *pos,
                        self.bit_le(idx),
                        enc.as_deref(),
                        diags,
                    )?;
                    let key = if k.text == "_" {
                        None
                    } else {
                        Some(parse_ex(k, diags)?)
                    };
                    let base_name = tn.split('(').next().unwrap_or(tn).replace("::", "_");
                    match case_ty {
                        FieldTy::User { ty, args } => {
                            let variant = camel(&self.types[ty].name);
                            cs.push(SwitchCase {
                                key,
                                ty: Some(ty),
                                args,
                                prim: None,
                                variant,
                            });
                        }
                        prim => cs.push(SwitchCase {
                            key,
                            ty: None,
                            args: Vec::new(),
                            prim: Some(prim),
                            variant: camel(&base_name),
                        }),
                    }
                }
                // A sized switch that no case matches reads its bytes as they are (as Kaitai does): a `Raw`
                // case of the model, written back as it was.
                if (a.size.is_some() || a.size_eos) && cs.iter().all(|c| c.key.is_some()) {
                    let mut variant = "Raw".to_string();
                    while cs.iter().any(|c| c.variant == variant) {
                        variant.push_str("Bytes");
                    }
                    cs.push(SwitchCase {
                        key: None,
                        ty: None,
                        args: Vec::new(),
                        prim: Some(FieldTy::Bytes),
                        variant,
                    });
                }
                FieldTy::Switch { on, cases: cs }
            }
        };
        let e =
            |x: &Option<ExprSrc>, diags: &mut Diags| x.as_ref().and_then(|s| parse_ex(s, diags));
        let cond = match null_switch_cond(a, diags) {
            // (Shown as a sentence where the condition is printed: docs, messages.)
            Some((c, shown)) => parse_ex(&c, diags).map(|x| super::Ex { text: shown, ..x }),
            None => e(&a.if_, diags),
        };
        let repeat = match &a.repeat {
            None => Repeat::None,
            Some(RawRepeat::Eos) => Repeat::Eos,
            Some(RawRepeat::Expr(x)) => Repeat::Expr(parse_ex(x, diags)?),
            Some(RawRepeat::Until(x)) => Repeat::Until(parse_ex(x, diags)?),
        };
        let valid = match &a.valid {
            None => None,
            Some(RawValid::Eq(x)) => Some(Valid::Eq(parse_ex(x, diags)?)),
            Some(RawValid::Min(x)) => Some(Valid::Min(parse_ex(x, diags)?)),
            Some(RawValid::Max(x)) => Some(Valid::Max(parse_ex(x, diags)?)),
            Some(RawValid::Range(x, y)) => Some(Valid::Range(e(x, diags), e(y, diags))),
            Some(RawValid::AnyOf(xs)) => Some(Valid::AnyOf(
                xs.iter().filter_map(|x| parse_ex(x, diags)).collect(),
            )),
            Some(RawValid::Expr(x)) => Some(Valid::Expr(parse_ex(x, diags)?)),
            Some(RawValid::InEnum) => Some(Valid::InEnum),
        };
        let enum_ = match &a.enum_ {
            Some((name, pos)) => match self.find_enum(idx, name) {
                Some(i) => Some(i),
                None => {
                    diags.error(
                        *pos,
                        &a.path,
                        format!("unknown enum '{name}'"),
                        did_you_mean(name, self.enums.iter().map(|e| e.name.as_str())),
                    );
                    None
                }
            },
            None => None,
        };
        let mut item_of = None;
        let mut own_align = None;
        let mut role = Role::Data;
        if let Some(p) = ext_get(&a.ext, "-pool") {
            let (id, align_field, item_align, dedup, keep_order) = if p.as_map().is_some() {
                let flag = |key: &str, diags: &mut Diags| match p.get(key).map(|x| &x.value) {
                    None | Some(Value::Bool(false)) => false,
                    Some(Value::Bool(true)) => true,
                    Some(_) => {
                        let n = p.get(key).unwrap();
                        diags.error(n.pos, &n.path, format!("'{key}' is true or false"), None);
                        false
                    }
                };
                (
                    p.get("id")
                        .and_then(|x| x.scalar_text())
                        .unwrap_or_default(),
                    p.get("align").and_then(|x| x.scalar_text()),
                    p.get("item-align").and_then(|x| match x.value {
                        Value::Int(i) => Some(i as u64),
                        _ => None,
                    }),
                    flag("dedup", diags),
                    flag("keep-order", diags),
                )
            } else {
                (
                    p.scalar_text().unwrap_or_default(),
                    None,
                    None,
                    false,
                    false,
                )
            };
            let pi = self.pool_index(&id);
            if let Some(m) = p.as_map() {
                const POOL_KEYS: [&str; 7] = [
                    "id",
                    "align",
                    "align-at",
                    "item-align",
                    "dedup",
                    "keep-order",
                    "order",
                ];
                for (k, _) in m {
                    let key = k.scalar_text().unwrap_or_default();
                    if !POOL_KEYS.contains(&key.as_str()) {
                        diags.error(
                            k.pos,
                            &p.path,
                            format!(
                                "unknown key '{key}' in '-pool' (it takes {})",
                                POOL_KEYS.join(", ")
                            ),
                            did_you_mean(&key, POOL_KEYS),
                        );
                    }
                }
            }
            if let Some(o) = p.get("order") {
                let names: Option<Vec<String>> = match &o.value {
                    Value::Seq(xs) => xs.iter().map(|x| x.as_str().map(str::to_owned)).collect(),
                    _ => None,
                };
                match names {
                    Some(names) if !is_instance => {
                        self.pools[pi].order = names;
                        self.pools[pi].order_at = Some((diags.file.clone(), o.pos, o.path.clone()));
                    }
                    Some(_) => diags.error(
                        o.pos,
                        &o.path,
                        "'order' belongs on the pool's region (the seq attribute with '-pool: {id: ...}'), not on an item",
                        None,
                    ),
                    None => diags.error(
                        o.pos,
                        &o.path,
                        "'order' is a list of the region's member names (sections, and `type.instance` for groups)",
                        Some("for example 'order: [header, item.data, strings]'".into()),
                    ),
                }
            }
            if let Some(ia) = item_align {
                self.pools[pi].item_align = ia;
            }
            // Flags of the pool as a whole, said on its region.
            for (key, set) in [("dedup", dedup), ("keep-order", keep_order)] {
                if set && is_instance {
                    diags.error(
                        p.pos,
                        &p.path,
                        format!("'{key}' belongs on the pool's region (the seq attribute with '-pool: {{id: ...}}'), not on an item"),
                        None,
                    );
                }
            }
            self.pools[pi].dedup |= dedup;
            self.pools[pi].keep_order |= keep_order;
            if is_instance {
                item_of = Some(pi);
                own_align = super::keys::instance_align(p, diags);
            } else {
                role = Role::Pool(PoolUse {
                    pool: pi,
                    align_field,
                });
            }
        }
        let scan = ext_get(&a.ext, "-scan")
            .and_then(|n| parse_scan(n, matches!(a.repeat, Some(RawRepeat::Eos)), diags));
        let resdic = match ext_get(&a.ext, "-resdic") {
            None => None,
            Some(n) => match (&n.value, &repeat, &ty) {
                (
                    Value::Str(k),
                    Repeat::Expr(_) | Repeat::Eos | Repeat::Until(_),
                    FieldTy::User { .. },
                ) if !is_instance => Some(super::ResdicKey {
                    key: k.clone(),
                    pos: n.pos,
                }),
                _ => {
                    diags.error(
                        n.pos,
                        &n.path,
                        "'-resdic' takes the name of the key field of the node records, on a repeated seq attribute of records",
                        Some("for example '-resdic: name'".into()),
                    );
                    None
                }
            },
        };
        let relocate = match ext_get(&a.ext, "-relocate") {
            None => None,
            Some(n) if !is_instance => parse_relocate(n, diags),
            Some(n) => {
                diags.error(
                    n.pos,
                    &n.path,
                    "'-relocate' marks a pointer of a seq attribute, not an instance",
                    None,
                );
                None
            }
        };
        let relocations = ext_get(&a.ext, "-relocations").and_then(|n| parse_relocations(n, diags));
        let derive = ext_get(&a.ext, "-derive").and_then(|n| node_ex(n, diags));
        if let Some(d) = derive {
            role = Role::Derive(d);
        }
        // `-value` beside `value`: what binspec computes (its additions allowed), Kaitai's tools the `value`.
        let own_value = ext_get(&a.ext, "-value");
        if let (Some(n), None) = (own_value, &a.value) {
            diags.error(
                n.pos,
                &n.path,
                "'-value' goes beside a 'value' (which Kaitai's tools compute instead)",
                None,
            );
        }
        let value = match own_value.filter(|_| a.value.is_some()) {
            Some(n) => {
                e(&a.value, diags);
                node_ex(n, diags)
            }
            None => e(&a.value, diags),
        };
        let binspec_value = own_value.is_some() && a.value.is_some();
        let kind = match (is_instance, value) {
            (false, _) => FieldKind::Attr,
            (true, Some(v)) => {
                if let Some(x) = a.pos_expr.as_ref().or(a.io.as_ref()) {
                    diags.error(
                        x.pos,
                        &x.path,
                        "a value instance is computed, not read: it takes no 'pos' or 'io'",
                        Some(
                            "drop 'value' to read the instance, or 'pos' and 'io' to compute it"
                                .into(),
                        ),
                    );
                }
                FieldKind::Value(v)
            }
            (true, None) => FieldKind::Parse {
                pos: e(&a.pos_expr, diags),
                io: e(&a.io, diags),
            },
        };
        // (Where the writer places it at its `pos`: a pool item's position is the writer's to choose.)
        let positioned = is_instance && matches!(kind, FieldKind::Parse { pos: Some(_), .. });
        Some(Field {
            name: a.id.clone(),
            doc: a.doc.clone(),
            pos: a.pos,
            path: a.path.clone(),
            ty,
            repeat,
            cond,
            role,
            valid,
            enum_,
            size: e(&a.size, diags),
            size_eos: a.size_eos,
            terminator: a.terminator.or(
                if matches!(a.ty, Some(RawTypeRef::Name { ref text, .. }) if text == "strz") {
                    Some(0)
                } else {
                    None
                },
            ),
            consume: a.consume.unwrap_or(true),
            include: a.include.unwrap_or(false),
            eos_error: a.eos_error.unwrap_or(true),
            pad_right: a.pad_right,
            contents: a.contents.clone(),
            kind,
            item_of,
            item_align: own_align,
            binspec_value,
            sort_by: ext_get(&a.ext, "-sort-by").and_then(|n| node_ex(n, diags)),
            process: a.process.as_ref().and_then(|p| parse_process(p, diags)),
            default: ext_get(&a.ext, "-default").and_then(|n| node_ex(n, diags)),
            eager: match ext_get(&a.ext, "-eager") {
                None => false,
                Some(n) => match (&n.value, is_instance) {
                    (Value::Bool(b), true) => *b,
                    (Value::Bool(_), false) => {
                        diags.error(
                            n.pos,
                            &n.path,
                            "'-eager' applies to instances only (seq attributes are always read)",
                            None,
                        );
                        false
                    }
                    _ => {
                        diags.error(n.pos, &n.path, "'-eager' must be true or false", None);
                        false
                    }
                },
            },
            chain_end: super::keys::parse_chain_end(
                ext_get(&a.ext, "-chain-end"),
                positioned,
                diags,
            ),
            scan,
            resdic,
            relocate,
            parent: parent_ref(a, diags),
            relocations,
            size_derived: false,
            view: match ext_get(&a.ext, "-view") {
                None => false,
                Some(n) => match (&n.value, is_instance) {
                    (Value::Bool(b), true) => *b,
                    _ => {
                        diags.error(
                            n.pos,
                            &n.path,
                            "'-view' takes true or false, on an instance",
                            None,
                        );
                        false
                    }
                },
            },
            data: data_ty.is_some(),
            hook: match ext_get(&a.ext, "-hook") {
                None => None,
                Some(n) => match (&n.value, is_instance && a.value.is_some()) {
                    (Value::Str(h), true)
                        if !h.is_empty()
                            && h.chars().all(|c| {
                                c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'
                            })
                            && !h.starts_with(|c: char| c.is_ascii_digit()) =>
                    {
                        Some(h.clone())
                    }
                    _ => {
                        diags.error(
                            n.pos,
                            &n.path,
                            "'-hook' takes the name of a hand-written function (snake_case), on a value instance",
                            Some("for example '-hook: headerless_little_endian'".into()),
                        );
                        None
                    }
                },
            },
        })
    }
}

const PRIMS: &[&str] = &[
    "u1", "u2", "u4", "u8", "s1", "s2", "s4", "s8", "u2le", "u2be", "u4le", "u4be", "u8le", "u8be",
    "s2le", "s2be", "s4le", "s4be", "s8le", "s8be", "f4", "f8", "f4le", "f4be", "f8le", "f8be",
    "str", "strz", "b1",
];

pub(super) fn prim_type(name: &str, encoding: Option<&str>) -> Option<FieldTy> {
    let (base, endian) = if let Some(b) = name.strip_suffix("le") {
        (b, Some(Endian::Le))
    } else if let Some(b) = name.strip_suffix("be") {
        (b, Some(Endian::Be))
    } else {
        (name, None)
    };
    match name {
        // `bool` is a parameter type: stored like `b1`.
        "bool" => return Some(FieldTy::Bits { n: 1, le: false }),
        "bytes" => return Some(FieldTy::Bytes),
        _ => {}
    }
    match base {
        "str" | "strz" => {
            return Some(FieldTy::Str {
                encoding: encoding.unwrap_or("").to_string(),
                zero_terminated: base == "strz",
            })
        }
        _ => {}
    }
    let mut c = base.chars();
    let k = c.next()?;
    let n: u8 = c.as_str().parse().ok()?;
    match k {
        'u' | 's' if [1, 2, 4, 8].contains(&n) => {
            if n == 1 && endian.is_some() {
                return None;
            }
            Some(FieldTy::Int {
                bytes: n,
                signed: k == 's',
                endian,
            })
        }
        'f' if [4, 8].contains(&n) => Some(FieldTy::Float { bytes: n, endian }),
        // (`b6le`, `b6be`: bit order from the suffix; see `bit_suffix`.)
        'b' if (1..=64).contains(&n) => Some(FieldTy::Bits {
            n,
            le: endian == Some(Endian::Le),
        }),
        _ => None,
    }
}

/// For a bit type with a bit-endian suffix (`b12le`, `b3be`), whether it is little-endian (as `prim_type` reads
/// the suffix).
fn bit_suffix(name: &str) -> Option<bool> {
    match prim_type(name, None)? {
        FieldTy::Bits { le, .. } if name.ends_with("le") || name.ends_with("be") => Some(le),
        _ => None,
    }
}

fn split_args(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for ch in s.chars() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn parse_process(src: &ExprSrc, diags: &mut Diags) -> Option<Process> {
    let text = src.text.trim();
    let (name, arg) = match text.find('(') {
        Some(i) if text.ends_with(')') => (&text[..i], Some(&text[i + 1..text.len() - 1])),
        _ => (text, None),
    };
    let arg_ex = |diags: &mut Diags| {
        arg.and_then(|a| {
            parse_ex(
                &ExprSrc {
                    text: a.to_string(),
                    pos: src.pos,
                    path: src.path.clone(),
                },
                diags,
            )
        })
    };
    match (name, arg) {
        ("xor", Some(_)) => arg_ex(diags).map(Process::Xor),
        ("rol", Some(_)) => arg_ex(diags).map(Process::Rol),
        ("ror", Some(_)) => arg_ex(diags).map(Process::Ror),
        ("zlib", None) => Some(Process::Zlib),
        // A custom process: a dotted path of names, with arguments or without.
        (name, _) if is_process_path(name) && !["xor", "rol", "ror", "zlib"].contains(&name) => {
            let mut args = Vec::new();
            for a in arg.map(split_args).unwrap_or_default() {
                let x = parse_ex(
                    &ExprSrc {
                        text: a,
                        pos: src.pos,
                        path: src.path.clone(),
                    },
                    diags,
                )?;
                args.push(x);
            }
            Some(Process::Custom {
                path: name.split('.').map(str::to_string).collect(),
                args,
            })
        }
        _ => {
            diags.error(
                src.pos,
                &src.path,
                format!("unknown process '{text}'"),
                Some(
                    "binspec knows xor(key), rol(n), ror(n) and zlib; a custom process is a name \
                     (my_fx(args), or a.b.my_fx(args)) of hand-written hooks"
                        .into(),
                ),
            );
            None
        }
    }
}

/// Whether `name` is a custom process's name: snake_case names joined by dots (`nested.deeply.custom_fx`).
fn is_process_path(name: &str) -> bool {
    !name.is_empty()
        && name.split('.').all(|p| {
            p.chars()
                .next()
                .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
                && p.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        })
}

/// Whether a name is a built-in integer type (`u4`, `s2be`, `b12`).
pub fn is_int_type_name(name: &str) -> bool {
    matches!(
        prim_type(name, None),
        Some(FieldTy::Int { .. } | FieldTy::Bits { .. })
    )
}

/// Kaitai's `parent:` key: `false` (no parent) or `_parent` (the reader's own parent); anything else is refused
/// with what is supported.
fn parent_ref(a: &RawAttr, diags: &mut Diags) -> super::ParentRef {
    let Some(p) = &a.parent else {
        return super::ParentRef::Reader;
    };
    match p.text.trim() {
        "false" => super::ParentRef::Nothing,
        "_parent" => super::ParentRef::ReadersParent,
        other => {
            diags.error(
                p.pos,
                &p.path,
                format!("'parent: {other}' is not supported yet: binspec takes 'parent: false' and 'parent: _parent'"),
                None,
            );
            super::ParentRef::Reader
        }
    }
}

/// An unsized switch without a default case reads nothing where no case matches, as Kaitai reads it (the field is
/// null): the field is there only where a case matches, which this condition says (joined to the attribute's own
/// `if`). `-no-case: error` on the attribute keeps it an error instead (a tag the schema does not know is then a
/// read error, as binspec's own schemas want it). `None` where the attribute is not such a switch.
fn null_switch_cond(a: &RawAttr, diags: &mut Diags) -> Option<(ExprSrc, String)> {
    let no_case = ext_get(&a.ext, "-no-case");
    let error = match no_case.map(|n| &n.value) {
        None => false,
        Some(Value::Str(v)) if v == "error" => true,
        Some(Value::Str(v)) if v == "null" => false,
        Some(_) => {
            let n = no_case?;
            diags.error(
                n.pos,
                &n.path,
                "'-no-case' takes 'null' (what Kaitai does: nothing is read) or 'error'",
                None,
            );
            false
        }
    };
    let Some(RawTypeRef::Switch { on, cases }) = &a.ty else {
        if let Some(n) = no_case {
            diags.error(
                n.pos,
                &n.path,
                "'-no-case' belongs on a switch ('type: {switch-on: ...}')",
                None,
            );
        }
        return None;
    };
    let not_sized =
        a.size.is_none() && !a.size_eos && a.terminator.is_none() && a.process.is_none();
    if error || !not_sized || a.repeat.is_some() || cases.iter().any(|(k, _, _)| k.text == "_") {
        return None;
    }
    // (Cases for `true` and `false` leave no value without one.)
    let has = |b: &str| cases.iter().any(|(k, _, _)| k.text.trim() == b);
    if has("true") && has("false") {
        return None;
    }
    let any = cases
        .iter()
        .map(|(k, _, _)| format!("({}) == ({})", on.text, k.text))
        .collect::<Vec<_>>();
    // (Joined as a balanced tree: a switch of hundreds of cases would nest a chain of `or` as deep.)
    fn balanced(xs: &[String]) -> String {
        match xs {
            [] => "false".to_string(),
            [x] => x.clone(),
            _ => {
                let (a, b) = xs.split_at(xs.len() / 2);
                format!("({}) or ({})", balanced(a), balanced(b))
            }
        }
    }
    let any = balanced(&any);
    let (text, shown) = match &a.if_ {
        Some(c) => (
            format!("({}) and ({any})", c.text),
            format!("{} and {} is one of the cases", c.text, on.text),
        ),
        None => (any, format!("{} is one of the cases", on.text)),
    };
    Some((
        ExprSrc {
            text,
            pos: on.pos,
            path: on.path.clone(),
        },
        shown,
    ))
}

#[cfg(test)]
mod prim_tests {
    use super::*;

    #[test]
    fn bit_types_take_a_bit_endian_suffix() {
        for (name, want) in [
            ("b6be", Some(FieldTy::Bits { n: 6, le: false })),
            ("b12le", Some(FieldTy::Bits { n: 12, le: true })),
            ("b1", Some(FieldTy::Bits { n: 1, le: false })),
            ("b64le", Some(FieldTy::Bits { n: 64, le: true })),
            ("b65le", None),
            ("b0be", None),
            ("bxle", None),
        ] {
            assert_eq!(prim_type(name, None), want, "{name}");
        }
        assert_eq!(bit_suffix("b3le"), Some(true));
        assert_eq!(bit_suffix("b3be"), Some(false));
        assert_eq!(bit_suffix("b3"), None);
        assert_eq!(bit_suffix("u4le"), None);
        assert_eq!(bit_suffix("ble"), None);
    }
}
