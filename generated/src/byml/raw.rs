//! The reader generated from `schemas/byml.ksy`, the transcription of the wiki page: a raw view of a BYML file's
//! bytes (every offset, count and index as read, every container followed through its offset). It writes a model
//! back byte for byte at the positions it holds, but derives nothing: the BYML format of this crate is
//! [`super::Document`].
#![allow(
    clippy::needless_question_mark,
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
    clippy::derivable_impls,
    clippy::op_ref,
    clippy::needless_as_bytes,
    clippy::redundant_as_str
)]

include!(concat!(env!("OUT_DIR"), "/byml.rs"));
