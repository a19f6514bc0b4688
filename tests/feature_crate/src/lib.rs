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
    absent_offset,
    align_at,
    before_value,
    bina_offsets,
    bits,
    chain,
    chain_end_section,
    cross,
    data,
    dedup_records,
    derive,
    eager,
    element_args,
    endian_switch,
    enums,
    exact_slots,
    expr_errors,
    given,
    given_relocate,
    hashes,
    imported_root,
    imported_root_child,
    imported_root_io,
    imported_root_io_child,
    instances,
    item_offsets,
    late_pointers,
    late_reads,
    layout,
    len_of_instance,
    local_sections,
    nested,
    nested_place,
    null_switch,
    optional_offset,
    ordered_aligned,
    ordered_own,
    ordered_ranges,
    ordered_ranks,
    outer_args,
    outer_record,
    own_elements,
    param_io,
    params,
    parent_false,
    parent_later,
    placed_in_slot,
    placed_item,
    pool,
    pool_records,
    process,
    r,
    ranges,
    raw_case,
    record_lengths,
    relocations,
    relocations_data,
    repeat,
    resdic,
    resdic_record_key,
    root_value_late,
    saved_positions,
    scan,
    section_order,
    sections,
    shared_count,
    slot_views,
    sort_by,
    switch,
    switch_item,
    tail_placed,
    view_guard,
);

/// Every schema `build.rs` compiled, by file name without `.ksy`.
pub const SCHEMAS: &[&str] = include!(concat!(env!("OUT_DIR"), "/schemas.rs"));

/// For the tests: `file` cut at every length, and with each byte set to each of a few values. Each input decodes
/// to a model or an error, and a model that writes gives bytes that read back as the same model: never a panic.
/// Gives (inputs, how many decoded, how many of those wrote), for the caller to check that the sweep is not
/// vacuous.
pub fn cut_and_mutate<F>(file: &[u8]) -> (usize, usize, usize)
where
    F: binspec_runtime::Format + PartialEq + std::fmt::Debug,
{
    let mut inputs: Vec<Vec<u8>> = (0..file.len()).map(|n| file[..n].to_vec()).collect();
    for i in 0..file.len() {
        for v in [0u8, 1, 2, 9, 0x7f, 0xff] {
            let mut m = file.to_vec();
            m[i] = v;
            inputs.push(m);
        }
    }
    let (mut decoded, mut written) = (0, 0);
    for input in &inputs {
        let Ok(m) = F::from_binary(input) else {
            continue;
        };
        decoded += 1;
        let Ok(out) = m.to_binary() else { continue };
        written += 1;
        let again = F::from_binary(&out)
            .unwrap_or_else(|e| panic!("{input:?}: what the writer wrote does not read: {e}"));
        assert_eq!(again, m, "{input:?}");
    }
    (inputs.len(), decoded, written)
}
