//! The per-feature schemas of `tests/feature_schemas/`, compiled by `build.rs` into Cargo's `OUT_DIR` and included
//! here, one module per schema, named after its file (a new schema needs its name in `feature_modules!` below).
//! `tests/roundtrip.rs` decodes a small hand-made file with each, checks some values, writes it back and compares
//! the bytes.
//!
//! No lint is allowed module-wide (as in `binspec-formats`, `formats/src/lib.rs`): every warning is denied, so a
//! new warning in generated code fails the build.

#![deny(warnings)]

/// The feature modules: each generated file, and [`MODULES`], their names.
macro_rules! feature_modules {
    ($($name:ident),* $(,)?) => {
        $(
            pub mod $name {
                include!(concat!(env!("OUT_DIR"), "/", stringify!($name), ".rs"));
            }
        )*

        /// The modules, by name; a test checks that every schema has one.
        pub const MODULES: &[&str] = &[$(stringify!($name)),*];
    };
}

feature_modules!(
    bina_offsets,
    bits,
    cross,
    data,
    derive,
    eager,
    element_args,
    endian_switch,
    enums,
    exact_slots,
    expr_errors,
    given,
    hashes,
    imported_root,
    imported_root_child,
    imported_root_io,
    imported_root_io_child,
    instances,
    late_reads,
    layout,
    local_sections,
    nested,
    null_switch,
    optional_offset,
    ordered_ranges,
    outer_args,
    own_elements,
    param_io,
    params,
    parent_false,
    pool,
    process,
    r,
    ranges,
    raw_case,
    record_lengths,
    relocations,
    repeat,
    resdic,
    saved_positions,
    scan,
    section_order,
    sections,
    slot_views,
    sort_by,
    switch,
);

/// Every schema `build.rs` compiled, by file name without `.ksy`.
pub const SCHEMAS: &[&str] = include!(concat!(env!("OUT_DIR"), "/schemas.rs"));
