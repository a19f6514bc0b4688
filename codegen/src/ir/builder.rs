//! The IR builder: `build` runs the passes from a raw schema to a checked [`Module`], and the first of them,
//! `collect_types`, flattens the nested types and enums into the module's lists.

use crate::diag::{did_you_mean, Diags};
use crate::expr;
use crate::syntax::{ExprSrc, Node, RawEndian, RawSchema, RawType, Value};

use super::keys::{check_ext, ext_get, parse_wiki, META_EXT, TYPE_EXT};
use super::passes::{classify, owners};
use super::resolve::resolve_fields;
use super::{
    camel, CrateSpec, Endian, EndianSpec, EnumDef, Ex, InfoSpec, LayoutField, Module, PoolDef,
    TypeDef,
};

pub(super) fn parse_ex(src: &ExprSrc, diags: &mut Diags) -> Option<Ex> {
    match expr::parse(&src.text) {
        Ok(e) => Some(Ex {
            ty: None,
            expr: e,
            text: src.text.clone(),
            pos: src.pos,
            path: src.path.clone(),
        }),
        Err(e) => {
            diags.error(
                src.pos,
                &src.path,
                format!("bad expression '{}': {}", src.text, e.message),
                None,
            );
            None
        }
    }
}

pub(super) fn node_ex(n: &Node, diags: &mut Diags) -> Option<Ex> {
    let text = n.scalar_text()?;
    parse_ex(
        &ExprSrc {
            text,
            pos: n.pos,
            path: n.path.clone(),
        },
        diags,
    )
}

/// A pass over the whole module, once its types and fields are resolved: its name, and the function, which reads
/// and completes the module and reports what is wrong.
pub type ModulePass = (&'static str, fn(&mut Module, &mut Diags));

/// The module passes, in the order they run: `owners` (the type that reads each type, for `_parent`), `classify`
/// (each field's role: data, derived, layout), `given` (fields of inner records a type derives), `outer_args` (a parameter reached through
/// an outer value becomes its argument), `typecheck` (every expression, binspec's keys included), `names`
/// (no two switch enums or types with one Rust name), `endian_switch` (no byte order decided by a field read in
/// it).
pub const MODULE_PASSES: &[ModulePass] = &[
    ("owners", |m, _| m.owners = owners(m)),
    ("classify", classify),
    ("given", super::given::given),
    ("outer_args", super::outer_args::outer_args),
    ("typecheck", |m, diags| crate::check::typecheck(m, diags)),
    ("names", |m, diags| {
        super::names::check_switch_enums(m, diags)
    }),
    ("endian_switch", |m, diags| {
        super::endian_switch::check(m, diags)
    }),
];

/// Builds the IR of one schema.
pub fn build(raw: &RawSchema, imports: &[RawSchema], diags: &mut Diags) -> Option<Module> {
    let mut b = Builder {
        types: Vec::new(),
        raw_types: Vec::new(),
        enums: Vec::new(),
        pools: Vec::new(),
        file: String::new(),
        names: Vec::new(),
    };
    collect_types(&mut b, raw, imports, diags);
    resolve_fields(&mut b, diags);
    let meta = raw.root.meta.clone().unwrap_or_default();
    check_ext(&meta.ext, META_EXT, "meta", diags);
    let mut module = Module {
        id: raw.root.name.clone(),
        file: raw.file.clone(),
        title: meta.title.clone(),
        source: None,
        extensions: meta.file_extension.clone(),
        doc: raw.root.doc.clone(),
        doc_ref: raw.root.doc_ref.clone(),
        types: b.types,
        enums: b.enums,
        pools: b.pools,
        archive: None,
        info: InfoSpec::default(),
        magic: None,
        magics: Vec::new(),
        magic_at: 0,
        format_id: raw.root.name.clone(),
        switch_enums: Default::default(),
        text_format: None,
        crate_spec: CrateSpec::default(),
        owners: Vec::new(),
    };
    super::binspec_meta::read(raw, &mut module, diags);
    // The magic: leading `contents` of the root (with `magic-at`, its first `contents`, at that offset).
    module.magic = if module.magic_at > 0 {
        module.root().seq.iter().find_map(|f| f.contents.clone())
    } else {
        module.root().seq.first().and_then(|f| f.contents.clone())
    };
    for (_, pass) in MODULE_PASSES {
        pass(&mut module, diags);
    }
    if diags.has_errors() {
        None
    } else {
        Some(module)
    }
}

/// Pass `collect_types`: the schema's types, nested ones flattened, then the imported schemas' types.
fn collect_types(b: &mut Builder, raw: &RawSchema, imports: &[RawSchema], diags: &mut Diags) {
    b.file = raw.file.clone();
    b.collect(&raw.root, None, Vec::new(), diags);
    // Imported schemas' types come after this schema's own, under their ids.
    for imp in imports {
        b.file = imp.file.clone();
        b.collect(&imp.root, None, Vec::new(), diags);
    }
    b.file = raw.file.clone();
}

pub(super) struct Builder {
    pub(super) types: Vec<TypeDef>,
    pub(super) raw_types: Vec<RawType>,
    pub(super) enums: Vec<EnumDef>,
    pub(super) pools: Vec<PoolDef>,
    /// The file whose types are being collected.
    pub(super) file: String,
    /// The type and enum names seen so far, for Rust names that would clash.
    pub(super) names: Vec<super::names::NameUse>,
}

impl Builder {
    fn collect(
        &mut self,
        rt: &RawType,
        parent: Option<usize>,
        mut path: Vec<String>,
        diags: &mut Diags,
    ) -> usize {
        path.push(rt.name.clone());
        let idx = self.types.len();
        // Types with the same name in different scopes get their enclosing types' names in front.
        let use_ = super::names::NameUse {
            kind: "type",
            name: rt.name.clone(),
            file: self.file.clone(),
            pos: rt.pos,
            path: rt.path.clone(),
        };
        super::names::claim(&mut self.names, use_, diags);
        let mut rust = camel(&rt.name);
        if self.types.iter().any(|t| t.rust == rust) || self.enums.iter().any(|e| e.rust == rust) {
            rust = camel(&path.join("_"));
        }
        if self.types.iter().any(|t| t.path == path) {
            diags.error(
                rt.pos,
                &rt.path,
                format!("type '{}' is defined twice", rt.name),
                Some("give one of them another name".into()),
            );
        }
        check_ext(&rt.ext, TYPE_EXT, "a type", diags);
        let mut layout = Vec::new();
        if let Some(l) = ext_get(&rt.ext, "-layout").and_then(|n| n.as_map()) {
            for (k, v) in l {
                let default = match v.get("default").map(|d| &d.value) {
                    Some(Value::Int(i)) => *i,
                    _ => 0,
                };
                layout.push(LayoutField {
                    name: k.scalar_text().unwrap_or_default(),
                    default,
                    doc: v.get("doc").and_then(|d| d.scalar_text()),
                });
            }
        }
        let endian = match rt.meta.as_ref().and_then(|m| m.endian.clone()) {
            None => EndianSpec::Inherit,
            Some(RawEndian::Fixed { le, .. }) => {
                EndianSpec::Fixed(if le { Endian::Le } else { Endian::Be })
            }
            Some(RawEndian::Switch { on, cases }) => {
                let on = parse_ex(&on, diags);
                let cases = cases
                    .iter()
                    .filter_map(|(k, le, _)| {
                        parse_ex(k, diags).map(|e| (e, if *le { Endian::Le } else { Endian::Be }))
                    })
                    .collect();
                match on {
                    Some(on) => EndianSpec::Switch {
                        on: Box::new(on),
                        cases,
                    },
                    None => EndianSpec::Inherit,
                }
            }
        };
        self.types.push(TypeDef {
            name: rt.name.clone(),
            path: path.clone(),
            rust,
            doc: rt.doc.clone(),
            doc_ref: rt.doc_ref.clone(),
            params: Vec::new(),
            seq: Vec::new(),
            instances: Vec::new(),
            parent,
            endian,
            layout,
            wiki: ext_get(&rt.ext, "-wiki")
                .map(|n| parse_wiki(n, diags))
                .unwrap_or_default(),
            pos: rt.pos,
            file: self.file.clone(),
            given: Vec::new(),
        });
        self.raw_types.push(rt.clone());
        let enum_wiki = ext_get(&rt.ext, "-wiki-enums");
        if let Some(w) = enum_wiki {
            match w.as_map() {
                Some(m) => {
                    for (k, v) in m {
                        let k = k.scalar_text().unwrap_or_default();
                        if !rt.enums.iter().any(|e| e.name == k) {
                            diags.error(
                                v.pos,
                                &v.path,
                                format!("'-wiki-enums' names '{k}', which this type does not declare"),
                                did_you_mean(&k, rt.enums.iter().map(|e| e.name.as_str())),
                            );
                        }
                    }
                }
                None => diags.error(
                    w.pos,
                    &w.path,
                    "'-wiki-enums' maps enum names to their wiki tables: {ENUM: {page: TITLE, section: HEADING}}",
                    None,
                ),
            }
        }
        for e in &rt.enums {
            let use_ = super::names::NameUse {
                kind: "enum",
                name: e.name.clone(),
                file: self.file.clone(),
                pos: e.pos,
                path: e.path.clone(),
            };
            super::names::claim(&mut self.names, use_, diags);
            self.enums.push(EnumDef {
                name: e.name.clone(),
                owner: idx,
                rust: {
                    let plain = camel(&e.name);
                    if self.enums.iter().any(|x| x.rust == plain)
                        || self.types.iter().any(|t| t.rust == plain)
                    {
                        camel(&format!("{}_{}", path.join("_"), e.name))
                    } else {
                        plain
                    }
                },
                values: e
                    .values
                    .iter()
                    .map(|v| (v.value, v.id.clone(), v.doc.clone()))
                    .collect(),
                wiki: enum_wiki
                    .and_then(|w| w.get(&e.name))
                    .map(|n| parse_wiki(n, diags))
                    .unwrap_or_default(),
            });
        }
        for sub in &rt.types {
            self.collect(sub, Some(idx), path.clone(), diags);
        }
        idx
    }

    /// Finds a type by name as seen from type `from` ([`super::find_type_in`]).
    pub(super) fn find_type(&self, from: usize, name: &str) -> Option<usize> {
        super::find_type_in(&self.types, from, name)
    }

    pub(super) fn find_enum(&self, from: usize, name: &str) -> Option<usize> {
        if let Some((owner, enum_name)) = name.rsplit_once("::") {
            let owner = self.find_type(from, owner)?;
            return self
                .enums
                .iter()
                .position(|e| e.owner == owner && e.name == enum_name);
        }
        let mut scope = Some(from);
        while let Some(s) = scope {
            if let Some(i) = self
                .enums
                .iter()
                .position(|e| e.owner == s && e.name == name)
            {
                return Some(i);
            }
            scope = self.types[s].parent;
        }
        None
    }

    /// The default string encoding of a type's fields: `meta: encoding` on it or an enclosing type, up to the root
    /// of the schema it comes from (an imported schema's own, for its types).
    pub(super) fn default_encoding(&self, idx: usize) -> Option<String> {
        let mut scope = Some(idx);
        while let Some(s) = scope {
            if let Some(e) = self.raw_types[s]
                .meta
                .as_ref()
                .and_then(|m| m.encoding.clone())
            {
                return Some(e);
            }
            scope = self.types[s].parent;
        }
        // (A type of the main schema without an encoding of its own: the root's.)
        self.raw_types
            .first()
            .and_then(|r| r.meta.as_ref())
            .and_then(|m| m.encoding.clone())
    }

    /// Whether bit fields of a type are little-endian (`meta: bit-endian: le` on it or an enclosing type).
    pub(super) fn bit_le(&self, idx: usize) -> bool {
        let mut scope = Some(idx);
        while let Some(s) = scope {
            if let Some((le, _)) = self.raw_types[s].meta.as_ref().and_then(|m| m.bit_endian) {
                return le;
            }
            scope = self.types[s].parent;
        }
        false
    }

    pub(super) fn pool_index(&mut self, id: &str) -> usize {
        match self.pools.iter().position(|p| p.id == id) {
            Some(i) => i,
            None => {
                self.pools.push(PoolDef {
                    id: id.to_string(),
                    item_align: 1,
                    dedup: false,
                    keep_order: false,
                    order: Vec::new(),
                    order_at: None,
                });
                self.pools.len() - 1
            }
        }
    }
}
