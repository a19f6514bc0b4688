//! tomolib as a peer: a walk of its BYML tree that gives the same figures as [`walk_ours`](crate::walk_ours), so
//! the two parse + walk benchmarks do the same work and can be checked against each other.
//!
//! tomolib is GPL-3.0-or-later, like roead; this crate is unpublished and the only one in the workspace that depends
//! on it (behind the `peers` feature).

use tomolib::formats::byml::Value;

use crate::{mix, str_sum, Walk};

/// Visits every node of tomolib's tree.
pub fn walk_tomolib(v: &Value) -> Walk {
    let mut w = Walk::default();
    walk_into(v, &mut w);
    w
}

fn walk_into(v: &Value, w: &mut Walk) {
    w.nodes += 1;
    let x = match v {
        Value::Null => 0,
        Value::Bool(b) => 1 + *b as u64,
        Value::I32(x) => *x as i64 as u64,
        Value::U32(x) => *x as u64,
        Value::F32(x) => x.to_bits() as u64,
        Value::I64(x) => *x as u64,
        Value::U64(x) => *x,
        Value::F64(x) => x.to_bits(),
        Value::String(s) => str_sum(s),
        Value::Binary(b) | Value::BinaryAlign { data: b, .. } => b.len() as u64,
        Value::Array(a) => {
            for c in a {
                walk_into(c, w);
            }
            a.len() as u64
        }
        Value::Dict(m) => {
            for (k, c) in m {
                w.checksum = w.checksum.wrapping_add(mix(str_sum(k)));
                walk_into(c, w);
            }
            m.len() as u64
        }
        // Ours adds up a hash's u32 words.
        Value::Hash32(m) => {
            for (hash, c) in m {
                w.checksum = w.checksum.wrapping_add(mix(*hash as u64));
                walk_into(c, w);
            }
            m.len() as u64
        }
        Value::Hash64(m) => {
            for (hash, c) in m {
                w.checksum = w
                    .checksum
                    .wrapping_add(mix((hash & 0xffff_ffff) + (hash >> 32)));
                walk_into(c, w);
            }
            m.len() as u64
        }
    };
    w.checksum = w.checksum.wrapping_add(mix(x));
}
