//! Deduplicating string pools (`-pool: {id, dedup: true}`): a string equal to one already queued for the pool is
//! not queued again, and its key gets the first one's position; a pool can be seeded with the strings a file held,
//! in their order, so that the order and the strings nothing refers to are kept (a layout choice).

use std::collections::HashMap;

use super::{Key, WriteCtx};

/// The strings queued so far for each deduplicating pool, and the keys that share another key's position.
#[derive(Debug, Default)]
pub(super) struct Dedup {
    /// (pool, encoded bytes with terminator) -> the key of the first string queued with them.
    first: HashMap<(usize, Vec<u8>), Key>,
    /// (a later key, the first key): set to the first key's position when the pass ends.
    aliases: Vec<(Key, Key)>,
}

impl Dedup {
    pub(super) fn clear(&mut self) {
        self.first.clear();
        self.aliases.clear();
    }
    pub(super) fn aliases(&self) -> &[(Key, Key)] {
        &self.aliases
    }
}

impl WriteCtx {
    /// Queues a UTF-8 string (then `term`) for a deduplicating pool: when equal bytes were queued for the pool
    /// before, nothing is queued and `key` takes the earlier string's position.
    pub fn push_utf8_dedup(&mut self, pool: usize, key: Key, s: &str, term: &[u8], align: u64) {
        let id = (pool, encoded(s, term));
        match self.dedup.first.get(&id) {
            Some(&first) => self.dedup.aliases.push((key, first)),
            None => {
                self.push_utf8(pool, key, s, term, align);
                self.dedup.first.insert(id, key);
            }
        }
    }

    /// Queues the strings a deduplicating pool held in a file, in their order, before anything refers to them:
    /// the pool keeps that order and the strings nothing refers to. Each gets a key of `slot`. Equal strings in
    /// the list are each kept (a file may hold a string twice); later references share the first.
    pub fn seed_utf8(&mut self, pool: usize, slot: u32, strings: &[String], term: &[u8], align: u64) {
        for s in strings {
            let key = self.key(slot);
            self.push_utf8(pool, key, s, term, align);
            self.dedup.first.entry((pool, encoded(s, term))).or_insert(key);
        }
    }
}

/// A string's bytes and its terminator.
fn encoded(s: &str, term: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(s.len() + term.len());
    bytes.extend_from_slice(s.as_bytes());
    bytes.extend_from_slice(term);
    bytes
}

/// The strings of a pool region, in order: the region split after each terminator (`term`, one or more bytes).
/// Bytes after the last terminator (padding that is not a string) are returned apart, as the second value.
pub fn split_pool<'a>(region: &'a [u8], term: &[u8]) -> (Vec<&'a [u8]>, &'a [u8]) {
    let mut out = Vec::new();
    let mut rest = region;
    if term.is_empty() {
        return (out, rest);
    }
    loop {
        let found = rest
            .windows(term.len())
            .enumerate()
            .step_by(term.len())
            .find(|(_, w)| *w == term)
            .map(|(i, _)| i);
        match found {
            Some(i) => {
                out.push(&rest[..i]);
                rest = &rest[i + term.len()..];
            }
            None => return (out, rest),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::write_passes;

    #[test]
    fn equal_strings_share_a_position_and_seeds_keep_their_order() {
        let out = write_passes(|w, ctx| {
            let seeded = ["z".to_string(), "unused".to_string()];
            ctx.seed_utf8(0, 9, &seeded, &[0], 1);
            let (a, b, c) = (ctx.key(1), ctx.key(1), ctx.key(1));
            ctx.push_utf8_dedup(0, a, "abc", &[0], 1);
            ctx.push_utf8_dedup(0, b, "z", &[0], 1);
            ctx.push_utf8_dedup(0, c, "abc", &[0], 1);
            // The offsets of the three references, as a header before the pool.
            for k in [a, b, c] {
                w.u8(ctx.prev_pos(k) as u8);
            }
            ctx.flush(0, w, 1);
            Ok(())
        })
        .unwrap();
        assert_eq!(out, b"\x0c\x03\x0cz\0unused\0abc\0");
    }

    #[test]
    fn regions_split_at_terminators() {
        assert_eq!(
            split_pool(b"ab\0\0cd\0xy", &[0]),
            (vec![&b"ab"[..], b"", b"cd"], &b"xy"[..])
        );
        // A two-byte terminator is looked for at even offsets of each string.
        assert_eq!(
            split_pool(b"a\0\0\0b\0\0\0", &[0, 0]),
            (vec![&b"a\0"[..], b"b\0"], &b""[..])
        );
    }
}
