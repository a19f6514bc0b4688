//! The `typecheck` pass stores the type of every expression it checks in the IR (`Ex::ty`), and of every node of
//! it (`Expr::ty`), for the emitters to read instead of typing expressions again. Every expression of every schema
//! of the repository (the formats' and the per-feature ones), and every node of each, has its type once compiled.

use binspec_tests::{files_under, repo};

#[test]
fn every_expression_has_its_type() {
    let mut missing = Vec::new();
    let mut counted = 0;
    let mut nodes = 0;
    for dir in ["schemas", "tests/feature_schemas"] {
        for path in files_under(&repo().join(dir)) {
            if path.extension().and_then(|e| e.to_str()) != Some("ksy") {
                continue;
            }
            let mut c = binspec_codegen::compile_file(&path)
                .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
            for x in binspec_codegen::ir::exprs_mut(&mut c.module) {
                counted += 1;
                if x.ty.is_none() {
                    missing.push(format!("{}: {} '{}'", path.display(), x.path, x.text));
                }
                let mut stack = vec![&x.expr];
                while let Some(n) = stack.pop() {
                    nodes += 1;
                    if n.ty.is_none() {
                        missing.push(format!(
                            "{}: {} '{}': node '{n}'",
                            path.display(),
                            x.path,
                            x.text
                        ));
                    }
                    stack.extend(binspec_codegen::ir::children(n));
                }
            }
        }
    }
    assert!(counted > 500, "only {counted} expressions");
    assert!(
        nodes > 2 * counted,
        "only {nodes} nodes in {counted} expressions"
    );
    assert!(
        missing.is_empty(),
        "{} expressions or nodes of {counted} expressions have no type:\n{}",
        missing.len(),
        missing.join("\n")
    );
}
