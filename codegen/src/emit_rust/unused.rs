//! Names the generated code binds and never uses get a leading `_`, so that it compiles without
//! `unused_variables` allowed. Every reader and writer takes the same context (`r`, `endian`, `pools`, `root_io`,
//! `ctx`, `io`) so that callers need not know which of it a type uses, and the emitter binds a read value, its
//! position and its alignment together; many types use only some of them. This pass runs on the parsed file,
//! after everything is generated: a parameter the function body never names, a `let` binding the rest of its block
//! never names and a closure parameter its body never names is renamed. It changes no behaviour: a name counts as
//! used wherever it appears (a field of the same name too, and `{name}` in a format string), so the pass only
//! errs towards leaving a name as it is.

use std::collections::BTreeSet;

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;
use syn::visit_mut::VisitMut;

/// Renames the unused bindings of every function of `file`.
pub(super) fn underscore_unused(file: &mut syn::File) {
    // Dropping an idle binding can leave what it bound from unused: again, until nothing goes.
    for _ in 0..4 {
        let mut r = Renamer { dropped: 0 };
        r.visit_file_mut(file);
        if r.dropped == 0 {
            break;
        }
    }
}

struct Renamer {
    /// Idle bindings dropped ([`is_idle_binding`]).
    dropped: usize,
}

impl VisitMut for Renamer {
    fn visit_item_fn_mut(&mut self, f: &mut syn::ItemFn) {
        rename_params(f.sig.inputs.iter_mut(), &f.block);
        syn::visit_mut::visit_item_fn_mut(self, f);
    }
    fn visit_impl_item_fn_mut(&mut self, f: &mut syn::ImplItemFn) {
        rename_params(f.sig.inputs.iter_mut(), &f.block);
        syn::visit_mut::visit_impl_item_fn_mut(self, f);
    }
    fn visit_expr_closure_mut(&mut self, c: &mut syn::ExprClosure) {
        for p in c.inputs.iter_mut() {
            rename_unused(p, |n| uses(n, |v| v.visit_expr(&c.body)));
        }
        syn::visit_mut::visit_expr_closure_mut(self, c);
    }
    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        // A `let` binding is used by the statements after it in its block.
        for i in 0..b.stmts.len() {
            let (head, rest) = b.stmts.split_at_mut(i + 1);
            if let syn::Stmt::Local(l) = &mut head[i] {
                rename_unused(&mut l.pat, |n| uses(n, |v| v.visit_stmts(rest)));
            }
        }
        // A renamed binding of a name or a constant does nothing: it goes.
        let before = b.stmts.len();
        b.stmts.retain(|s| !is_idle_binding(s));
        self.dropped += before - b.stmts.len();
        syn::visit_mut::visit_block_mut(self, b);
    }
}

/// `let _x = y;`, `let _x = &y;` or `let _x = &mut y;` with `y` a path or a literal: nothing is computed.
fn is_idle_binding(s: &syn::Stmt) -> bool {
    let syn::Stmt::Local(l) = s else {
        return false;
    };
    let syn::Pat::Ident(i) = &l.pat else {
        return false;
    };
    let Some(init) = l.init.as_ref().filter(|i| i.diverge.is_none()) else {
        return false;
    };
    let plain = |e: &syn::Expr| matches!(e, syn::Expr::Path(_) | syn::Expr::Lit(_));
    let idle = match &*init.expr {
        syn::Expr::Reference(r) => plain(&r.expr),
        e => plain(e),
    };
    idle && i.ident.to_string().starts_with('_') && l.attrs.is_empty()
}

fn rename_params<'a>(inputs: impl Iterator<Item = &'a mut syn::FnArg>, body: &syn::Block) {
    for a in inputs {
        if let syn::FnArg::Typed(t) = a {
            rename_unused(&mut t.pat, |n| uses(n, |v| v.visit_block(body)));
        }
    }
}

/// Renames the names `p` binds that `used` says are not used.
fn rename_unused(p: &mut syn::Pat, used: impl Fn(&str) -> bool) {
    let mut names = BTreeSet::new();
    pat_names(p, &mut names);
    let unused: BTreeSet<String> = names.into_iter().filter(|n| !used(n)).collect();
    rename_pat(p, &unused);
}

/// Renames the names in `unused` that `p` binds (plain names, in tuples, typed, by reference).
fn rename_pat(p: &mut syn::Pat, unused: &BTreeSet<String>) {
    match p {
        syn::Pat::Ident(i) if i.subpat.is_none() => {
            let n = i.ident.to_string();
            if !n.starts_with('_') && n != "self" && unused.contains(&n) {
                i.ident = syn::Ident::new(&format!("_{n}"), i.ident.span());
                // (`mut` on a name that is never used would be unused as well.)
                i.mutability = None;
            }
        }
        syn::Pat::Tuple(t) => t.elems.iter_mut().for_each(|e| rename_pat(e, unused)),
        syn::Pat::Type(t) => rename_pat(&mut t.pat, unused),
        syn::Pat::Reference(r) => rename_pat(&mut r.pat, unused),
        _ => {}
    }
}

/// The names a pattern binds (plain names, in tuples, typed, by reference).
fn pat_names(p: &syn::Pat, out: &mut BTreeSet<String>) {
    match p {
        syn::Pat::Ident(i) => {
            out.insert(i.ident.to_string());
        }
        syn::Pat::Tuple(t) => t.elems.iter().for_each(|e| pat_names(e, out)),
        syn::Pat::Type(t) => pat_names(&t.pat, out),
        syn::Pat::Reference(r) => pat_names(&r.pat, out),
        _ => {}
    }
}

/// Whether the code `visit` walks uses the binding `name` it starts in: where a `let` of a block or a closure
/// binds `name` again, what follows in that block (or the closure's body) is another binding's.
fn uses(name: &str, visit: impl FnOnce(&mut Uses)) -> bool {
    let mut u = Uses {
        name,
        shadowed: false,
        found: false,
    };
    visit(&mut u);
    u.found
}

struct Uses<'n> {
    name: &'n str,
    shadowed: bool,
    found: bool,
}

impl Uses<'_> {
    fn visit_stmts(&mut self, stmts: &[syn::Stmt]) {
        let outer = self.shadowed;
        for s in stmts {
            if let syn::Stmt::Local(l) = s {
                if let Some(init) = &l.init {
                    self.visit_local_init(init);
                }
                let mut bound = BTreeSet::new();
                pat_names(&l.pat, &mut bound);
                if bound.contains(self.name) {
                    self.shadowed = true;
                }
                continue;
            }
            self.visit_stmt(s);
        }
        self.shadowed = outer;
    }
}

impl<'ast> Visit<'ast> for Uses<'_> {
    fn visit_block(&mut self, b: &'ast syn::Block) {
        self.visit_stmts(&b.stmts);
    }
    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        let mut bound = BTreeSet::new();
        c.inputs.iter().for_each(|p| pat_names(p, &mut bound));
        let outer = self.shadowed;
        self.shadowed |= bound.contains(self.name);
        self.visit_expr(&c.body);
        self.shadowed = outer;
    }
    fn visit_ident(&mut self, i: &'ast syn::Ident) {
        if !self.shadowed && i == self.name {
            self.found = true;
        }
    }
    // A field of the same name is not the binding (`self.endian`), unless written shorthand (`S { endian }`).
    fn visit_expr_field(&mut self, e: &'ast syn::ExprField) {
        self.visit_expr(&e.base);
    }
    fn visit_field_value(&mut self, f: &'ast syn::FieldValue) {
        if f.colon_token.is_none() {
            if let syn::Member::Named(i) = &f.member {
                self.visit_ident(i);
            }
        }
        self.visit_expr(&f.expr);
    }
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        let mut names = BTreeSet::new();
        tokens_names(m.tokens.clone(), &mut names);
        if !self.shadowed && names.contains(self.name) {
            self.found = true;
        }
    }
}

/// The names in macro tokens: identifiers, and `{name}` or `{name:...}` in string literals (inline format
/// arguments).
fn tokens_names(t: TokenStream, out: &mut BTreeSet<String>) {
    for tt in t {
        match tt {
            TokenTree::Ident(i) => {
                out.insert(i.to_string());
            }
            TokenTree::Group(g) => tokens_names(g.stream(), out),
            TokenTree::Literal(l) => {
                let s = l.to_string();
                for part in s.split('{').skip(1) {
                    let name: String = part
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        out.insert(name);
                    }
                }
            }
            TokenTree::Punct(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tidy(src: &str) -> String {
        let mut f: syn::File = syn::parse_str(src).unwrap();
        underscore_unused(&mut f);
        prettyplease::unparse(&f)
    }

    #[test]
    fn unused_names_get_an_underscore_and_used_ones_do_not() {
        let table: &[(&str, &[&str], &[&str])] = &[
            // (source, names that must be renamed, names that must stay)
            ("fn f(a: u8, b: u8) -> u8 { a }", &["_b"], &["a: u8"]),
            ("fn f(x: u8) { let y = x + 1; }", &["_y"], &["x: u8"]),
            ("fn f(x: u8) { let y = x; }", &["_x: u8"], &[]),
            (
                "fn f() { let (a, p, q) = (1, 2, 3); g(p); }",
                &["_a", "_q"],
                &["p,"],
            ),
            ("fn f(at: i32) { format!(\"{at}\"); }", &[], &["at: i32"]),
            ("fn f(at: i32) { format!(\"{at:#x}\"); }", &[], &["at: i32"]),
            ("fn f() { v.iter().map(|x| 1); }", &["|_x|"], &[]),
            ("fn f() { let mut k = g(); }", &["let _k"], &[]),
            ("fn f(endian: u8) { self.endian; }", &["_endian: u8"], &[]),
            ("fn f(endian: u8) { S { endian }; }", &[], &["endian: u8"]),
            ("fn f(io: u8) { { let io = 1; g(io); } }", &["_io: u8"], &[]),
            (
                "fn f(io: u8) { { g(io); let io = 1; g(io); } }",
                &[],
                &["io: u8"],
            ),
            ("fn f(x: u8) { v.map(|x| x); }", &["_x: u8"], &[]),
            // A binding of a name or a constant that nothing uses goes (one that computes something stays).
            (
                "fn f(p: u8) { let q = &p; let e = E::Little; let s = r.pos(); }",
                &["let _s = r.pos()"],
                &["p: u8"],
            ),
            (
                "fn f() { let a = 1; { let b = a + 1; } }",
                &["_b"],
                &["let a"],
            ),
            // A parameter shadowed at the top of the body is unused unless named before (or in the shadow's
            // initializer).
            ("fn f(e: u8) { let e = 1; g(e); }", &["_e: u8"], &[]),
            ("fn f(e: u8) { let e = e + 1; g(e); }", &[], &["e: u8"]),
        ];
        for (src, renamed, kept) in table {
            let out = tidy(src);
            for r in *renamed {
                assert!(out.contains(r), "{src}: '{r}' in\n{out}");
            }
            for k in *kept {
                assert!(out.contains(k), "{src}: '{k}' in\n{out}");
            }
        }
    }
}
