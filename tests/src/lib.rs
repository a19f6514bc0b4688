//! binspec integration tests live in `tests/`.
