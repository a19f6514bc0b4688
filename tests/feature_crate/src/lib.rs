//! The per-feature schemas of `tests/feature_schemas/`, compiled by `build.rs` into Cargo's `OUT_DIR` and included
//! here, one module per schema, named after its file (a new schema needs its name in `feature_modules!` below).
//! `tests/roundtrip.rs` decodes a small hand-made file with each, checks some values, writes it back and compares
//! the bytes.
//!
//! The generated code still trips style lints, so each module allows the same list as `binspec-formats`
//! (`formats/src/lib.rs`, `format_module!`); the list goes when the generator stops needing it. Everything else is
//! denied, so a new warning in generated code fails the build.

#![deny(warnings)]

/// The feature modules: each generated file, with the style lints generated code trips allowed in it, and
/// [`MODULES`], their names.
macro_rules! feature_modules {
    ($($name:ident),* $(,)?) => {
        $(
            #[allow(
                unused_parens,
                clippy::useless_format,
                clippy::redundant_guards,
                clippy::redundant_closure_call,
                clippy::needless_borrow,
                clippy::unnecessary_cast,
                clippy::nonminimal_bool,
                clippy::double_parens,
                clippy::identity_op,
                clippy::useless_conversion,
                clippy::redundant_field_names,
                clippy::let_and_return,
                clippy::match_single_binding,
                clippy::unit_arg,
                clippy::let_unit_value,
                clippy::bool_comparison,
                clippy::neg_cmp_op_on_partial_ord,
                clippy::manual_range_contains,
                clippy::int_plus_one,
                clippy::precedence,
                clippy::erasing_op,
                clippy::overly_complex_bool_expr,
                clippy::op_ref,
                clippy::needless_as_bytes,
                clippy::redundant_as_str,
                clippy::redundant_slicing

            )]
            pub mod $name {
                include!(concat!(env!("OUT_DIR"), "/", stringify!($name), ".rs"));
            }
        )*

        /// The modules, by name; a test checks that every schema has one.
        pub const MODULES: &[&str] = &[$(stringify!($name)),*];
    };
}

feature_modules!(
    bits,
    data,
    derive,
    eager,
    endian_switch,
    enums,
    hashes,
    instances,
    layout,
    nested,
    pool,
    process,
    ranges,
    repeat,
    scan,
    sort_by,
    switch,
);

/// Every schema `build.rs` compiled, by file name without `.ksy`.
pub const SCHEMAS: &[&str] = include!(concat!(env!("OUT_DIR"), "/schemas.rs"));
