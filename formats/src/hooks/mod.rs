//! Hand-written functions that schemas name with `-hook: NAME` on a value instance, one module per schema id:
//! what Kaitai's expressions cannot say (a vote over every element of an array). The generated reader calls
//! `crate::hooks::<schema id>::NAME(bytes of the stream the instance is in)`; the instance's `value` expression
//! stays in the schema for Kaitai's tools. Hooks compute meaning from bytes; they never lay bytes out.

#[cfg(feature = "ainb")]
pub mod ainb;
#[cfg(feature = "rsizetable")]
pub mod rsizetable;
