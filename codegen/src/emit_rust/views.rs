//! Views of an archive's entries without building the model: the plan from the root to the entries, each
//! type's `view_files_in` on the way, and the entry's `view_file`.

use super::*;

impl<'m> Gen<'m> {
    /// For an archive whose files a view can list without building the model (`view_files`): the fields that
    /// lead from the root to the entries (type and field name each), and the entry type. Each step must be a plain
    /// field of a user type (no size, condition or processing), the last one repeated a counted number of times by
    /// entries of a known minimum size; the entry's name a UTF-8 string and its data bytes, none of its fields
    /// processed; and every param a number or a flag, so that the entries' arguments can be kept.
    pub(super) fn view_plan(&self) -> Option<&ViewPlan> {
        self.view_plan
            .get_or_init(|| self.find_view_plan())
            .as_ref()
    }

    fn find_view_plan(&self) -> Option<ViewPlan> {
        let a = self.m.archive.as_ref()?;
        let mut ty = 0usize;
        let mut steps = Vec::new();
        let copy_params = |ti: usize| {
            // (Numbers and flags: nothing passed by reference.)
            self.param_pairs(ti).iter().all(|(_, _, by_ref)| !by_ref)
        };
        for (i, p) in a.entries.iter().enumerate() {
            let t = &self.m.types[ty];
            let f = t.seq.iter().find(|f| &f.name == p)?;
            let FieldTy::User { ty: next, .. } = &f.ty else {
                return None;
            };
            let plain = f.role == Role::Data
                && f.cond.is_none()
                && f.size.is_none()
                && !f.size_eos
                && !f.is_blob()
                && f.process.is_none()
                && !self.boxed.contains(&f.path);
            let last = i + 1 == a.entries.len();
            let shape = match &f.repeat {
                Repeat::None => !last,
                Repeat::Expr(_) => last && min_size(self.m, f) > 0,
                _ => false,
            };
            if !plain || !shape || !copy_params(ty) {
                return None;
            }
            steps.push((ty, f.name.clone()));
            ty = *next;
        }
        let et = &self.m.types[ty];
        let all = || et.seq.iter().chain(et.instances.iter());
        if all().any(|f| f.process.is_some()) || !copy_params(ty) {
            return None;
        }
        let utf8 = |e: &str| {
            let n: String = e
                .chars()
                .filter(|c| !matches!(c, '-' | '_'))
                .collect::<String>()
                .to_ascii_uppercase();
            n == "UTF8"
        };
        let nm = all().find(|f| f.name == a.name)?;
        let dt = all().find(|f| f.name == a.data)?;
        let name_ok = matches!(&nm.ty, FieldTy::Str { encoding, .. } if utf8(encoding))
            && nm.repeat == Repeat::None
            && matches!(nm.role, Role::Data | Role::Placed);
        let data_ok = matches!(dt.ty, FieldTy::Bytes)
            && dt.repeat == Repeat::None
            && matches!(dt.role, Role::Data | Role::Placed);
        (name_ok && data_ok).then_some((steps, ty))
    }

    /// The type of the arguments an entry's `view_file` takes, as one tuple.
    pub(super) fn view_args_ty(&self, ti: usize) -> TokenStream {
        let tys: Vec<TokenStream> = self
            .param_pairs(ti)
            .iter()
            .map(|(_, t, by_ref)| super::param_ty(t, *by_ref, &quote!()))
            .collect();
        quote!((#(#tys,)*))
    }

    /// `view_files_in` of a type on the way to an archive's entries: the statements of its read function up to
    /// the field that leads on (`pre`), then that field's view.
    pub(super) fn emit_view_files_in(
        &self,
        ti: usize,
        pre: &[TokenStream],
        f: &Field,
        entry: usize,
    ) -> R<TokenStream> {
        let (params, _) = self.fn_params(ti);
        let bind = self.args_bind(ti);
        let FieldTy::User { ty: next, args } = &f.ty else {
            return err(&f.path, "internal: a view step is not a user type");
        };
        let a = self.args_for(ti, *next, args, Scope::Read, f)?;
        let nt = ty_ident(&self.m.types[*next].rust);
        let fname = f.name.as_str();
        let args_ty = self.view_args_ty(entry);
        let tail = match &f.repeat {
            Repeat::Expr(x) => {
                let cnt = self.cx(ti, Scope::Read).tr(&x.expr, &x.path)?.0.full();
                let min = min_size(self.m, f);
                let id = self.m.id.as_str();
                let path: Vec<&str> = self
                    .m
                    .archive
                    .as_ref()
                    .map(|a| a.entries.iter().map(String::as_str).collect())
                    .unwrap_or_default();
                let tuple = if a.is_empty() { quote!(()) } else { a.clone() };
                quote! {
                    let n = #cnt;
                    if n < 0 {
                        return Err(::binspec_runtime::Error::invalid(r.abs_pos(), format!("negative count {n}"))).at(#fname);
                    }
                    r.check_count(n as u64, #min).at(#fname)?;
                    Ok(::binspec_runtime::ViewFiles::new(r.clone(), root_io.clone(), endian, n as usize, #tuple, #nt::view_file, &[#(#path),*], #id))
                }
            }
            _ => quote!(#nt::view_files_in(r, endian, pools, root_io, #a).at(#fname)),
        };
        Ok(quote! {
            #[allow(non_snake_case)]
            pub(crate) fn view_files_in<'a>(
                r: &mut ::binspec_runtime::Reader<'a>,
                endian: ::binspec_runtime::Endian,
                pools: &mut ::binspec_runtime::layout::ReadPools,
                root_io: &::binspec_runtime::Reader<'a>,
                #(#params),*
            ) -> ::binspec_runtime::Result<::binspec_runtime::ViewFiles<'a, #args_ty>> {
                use ::binspec_runtime::ResultExt as _;
                #bind
                #(#pre)*
                #tail
            }
        })
    }

    /// An archive entry's `view_file`: the statements of its read function (`body`, with kept bytes and strings
    /// borrowed), then its name and data.
    pub(super) fn emit_view_file(&self, ti: usize, body: &[TokenStream]) -> R<TokenStream> {
        let t = &self.m.types[ti];
        let Some(a) = &self.m.archive else {
            return err(
                "/meta/-binspec/archive",
                "internal: a view without an archive",
            );
        };
        let args_ty = self.view_args_ty(ti);
        let names: Vec<Ident> = self
            .param_pairs(ti)
            .into_iter()
            .map(|(id, _, _)| id)
            .collect();
        let get = |n: &str| -> R<TokenStream> {
            let Some(f) = t.seq.iter().chain(t.instances.iter()).find(|f| f.name == n) else {
                return err(
                    "/meta/-binspec/archive",
                    "internal: the archive's field is missing",
                );
            };
            let v = local("v", n);
            Ok(if f.cond.is_some() {
                quote!(#v.unwrap_or_default())
            } else {
                quote!(#v)
            })
        };
        let (nm, dt) = (get(&a.name)?, get(&a.data)?);
        // The entry's own pools (once per file; making them allocates nothing until a pool is used, and an entry
        // that reads no pool leaves them unused).
        let pools = quote! {
            let mut pools = ::binspec_runtime::layout::ReadPools::new();
            let pools = &mut pools;
        };
        Ok(quote! {
            #[allow(non_snake_case)]
            pub(crate) fn view_file<'a>(
                r: &mut ::binspec_runtime::Reader<'a>,
                endian: ::binspec_runtime::Endian,
                root_io: &::binspec_runtime::Reader<'a>,
                args: #args_ty,
            ) -> ::binspec_runtime::Result<(&'a str, &'a [u8])> {
                use ::binspec_runtime::ResultExt as _;
                let (#(#names,)*) = args;
                #pools
                #(#body)*
                Ok((#nm, #dt))
            }
        })
    }
}
