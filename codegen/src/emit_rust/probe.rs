//! Probes of the root: `endian_of(data)` and `<field>_variant_of(data, endian)`, which read just the instances
//! that decide the byte order or a switch's type, so the writer can check that its output reads back the same;
//! and the value of the view the byte order is switched on, known from the model's byte order.

use super::*;
use crate::ir::EndianSpec;

impl<'m> Gen<'m> {
    /// For a root whose bytes decide its byte order: `endian_of(data)`, the byte order a reader finds in `data`.
    pub(super) fn emit_endian_of(&self, ti: usize) -> R<TokenStream> {
        let t = &self.m.types[ti];
        let EndianSpec::Switch { on, cases } = &t.endian else {
            return Ok(quote!());
        };
        if ti != 0 {
            return Ok(quote!());
        }
        let mut body = Vec::new();
        let mut done: BTreeSet<String> = BTreeSet::new();
        let e = self.endian_switch(ti, on, cases, &mut done, &mut body)?;
        let probe = probe_prelude();
        Ok(quote! {
            #[allow(non_snake_case)]
            pub(crate) fn endian_of(data: &[u8]) -> ::binspec_runtime::Result<::binspec_runtime::Endian> {
                #probe
                let endian = ::binspec_runtime::Endian::Little;
                #(#body)*
                Ok(#e)
            }
        })
    }

    /// The root's switch fields that only the file's instances choose (not fields before them): those whose choice
    /// the written bytes must make again, or the file reads back as another type.
    pub(super) fn root_switches(&self) -> Vec<&Field> {
        let t = &self.m.types[0];
        // Whether every name `e` uses, through the instances it reads, is an instance (or `_io`/`_root`).
        fn only_instances(
            t: &crate::ir::TypeDef,
            e: &crate::expr::Expr,
            seen: &mut BTreeSet<String>,
        ) -> bool {
            let mut names = BTreeSet::new();
            crate::ir::names_used(e, &mut names);
            names.into_iter().all(|n| {
                if n.starts_with('_') || !seen.insert(n.clone()) {
                    return true;
                }
                if t.seq.iter().any(|f| f.name == n) || t.params.iter().any(|p| p.name == n) {
                    return false;
                }
                match t.instances.iter().find(|f| f.name == n) {
                    // (An instance read from a parameter's bytes, `io: p._io`, uses the parameter.)
                    Some(f) => [
                        f.pos_expr(),
                        f.io(),
                        f.size.as_ref(),
                        f.cond.as_ref(),
                        f.value(),
                    ]
                    .into_iter()
                    .flatten()
                    .all(|x| only_instances(t, &x.expr, seen)),
                    None => true,
                }
            })
        }
        t.seq
            .iter()
            .filter(|f| f.repeat == Repeat::None && f.cond.is_none() && f.role == Role::Data)
            .filter(|f| match &f.ty {
                FieldTy::Switch { on, .. } => only_instances(t, &on.expr, &mut BTreeSet::new()),
                _ => false,
            })
            .collect()
    }

    /// For each of [`Self::root_switches`]: `<field>_variant_of(data, endian)`, the name of the type a reader
    /// chooses for it in `data`.
    pub(super) fn emit_variant_of(&self, ti: usize) -> R<TokenStream> {
        if ti != 0 {
            return Ok(quote!());
        }
        let mut out = TokenStream::new();
        for f in self.root_switches() {
            let FieldTy::Switch { on, cases } = &f.ty else {
                continue;
            };
            let mut body = Vec::new();
            let mut done: BTreeSet<String> = BTreeSet::new();
            let mut needed = BTreeSet::new();
            crate::ir::names_used(&on.expr, &mut needed);
            for n in needed {
                self.ensure_instance(ti, &n, &mut done, &mut body)?;
            }
            let cx = || self.cx(ti, Scope::Read);
            let o = cx().tr(&on.expr, &on.path)?.0.full();
            let mut arms = Vec::new();
            let mut has_default = false;
            for c in cases {
                let n = c
                    .user()
                    .map_or(c.variant.as_str(), |t| self.m.types[t].name.as_str());
                match &c.key {
                    Some(k) => {
                        let (kt, _) = cx().tr(&k.expr, &k.path)?;
                        let pat = case_pattern(&kt, false);
                        arms.push(quote!(#pat => #n,));
                    }
                    None => {
                        has_default = true;
                        arms.push(quote!(_ => #n,));
                    }
                }
            }
            if !has_default {
                arms.push(quote!(other => return Err(::binspec_runtime::Error::invalid(r.abs_pos(), format!("no case for {:?}", other))),));
            }
            let fname = format_ident!("{}_variant_of", f.name);
            let probe = probe_prelude();
            out.extend(quote! {
                #[allow(non_snake_case)]
                pub(crate) fn #fname(data: &[u8], endian: ::binspec_runtime::Endian) -> ::binspec_runtime::Result<&'static str> {
                    #probe
                    #(#body)*
                    Ok(match #o { #(#arms)* })
                }
            });
        }
        Ok(out)
    }
}

/// The start of a function that reads a few of the root's instances from `data` (`endian_of`, `<field>_variant_of`):
/// the reader, the root stream and pools that the instances' read statements use.
fn probe_prelude() -> TokenStream {
    quote! {
        use ::binspec_runtime::ResultExt as _;
        let root_io = ::binspec_runtime::Reader::new(data);
        let mut r = root_io.clone();
        let r = &mut r;
        let root_io = &root_io;
        let mut pools = ::binspec_runtime::layout::ReadPools::new();
        let pools = &mut pools;
    }
}

/// `match` arms from each variant of switch field `f`'s enum to the name of its type (`Enum::Variant(_) => "name",`).
pub(super) fn variant_name_arms(
    m: &Module,
    f: &Field,
    cases: &[crate::ir::SwitchCase],
) -> Vec<TokenStream> {
    let en = switch_enum_name(m, f);
    let mut seen = BTreeSet::new();
    cases
        .iter()
        .filter(|c| seen.insert(c.variant.clone()))
        .map(|c| {
            let v = ty_ident(&c.variant);
            let n = c
                .user()
                .map_or(c.variant.as_str(), |t| m.types[t].name.as_str());
            quote!(#en::#v(_) => #n,)
        })
        .collect()
}

impl<'m> Cx<'m> {
    /// A view that the type's byte order switches on (`meta: endian: switch-on: NAME`) is known from the model's
    /// byte order: the case value that gives it.
    pub(super) fn endian_view(&mut self, n: &str) -> R<Option<Rx>> {
        let EndianSpec::Switch { on, cases } = &self.t().endian else {
            return Ok(None);
        };
        if crate::ir::bare_name(&on.expr) != Some(n) {
            return Ok(None);
        }
        let key = |e: Endian| cases.iter().find(|(k, c)| *c == e && k.text != "_");
        let (Some((le, _)), Some((be, _))) = (key(Endian::Le), key(Endian::Be)) else {
            return Ok(None);
        };
        let le = self.tr(&le.expr.clone(), &le.path.clone())?.0.full();
        let be = self.tr(&be.expr.clone(), &be.path.clone())?.0.full();
        let endian = match self.scope {
            Scope::Model => {
                let me = self.me();
                quote!(#me.endian)
            }
            _ => quote!(endian),
        };
        Ok(Some(Rx::new(
            quote!(match #endian {
                ::binspec_runtime::Endian::Little => #le,
                ::binspec_runtime::Endian::Big => #be,
            }),
            Prec::Block,
        )))
    }
}
