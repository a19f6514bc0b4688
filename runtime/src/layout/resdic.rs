//! `nn::util::ResDic`: the radix-tree (Patricia) dictionary of the NintendoWare Switch formats (BNTX, BFRES and
//! others built on `nn::util`). A dictionary is a header (magic `_DIC`, or 0 in older files such as BFRES 0.8, and
//! an s32 count) and `count + 1` nodes of {u32 reference bit, u16 left index, u16 right index, key}; node 0 is the
//! root, with an empty key, and node `i` (from 1) names element `i - 1` of the array the dictionary indexes.
//!
//! The reference bits and the indices are derived from the keys and their order, so a writer computes them with
//! [`build`] and a model holds only the keys. [`lookup`] walks a tree, as the runtime that loads the files does.
//!
//! A **reference bit** `r` names one bit of a key: byte `r >> 3` counted from the key's end (0 is the last byte),
//! bit `r & 7` of that byte counted from the least significant; a key is zero past its start ([`bit`]). A walk
//! starts at the root's left child and follows the right index where the key has the node's bit set, the left
//! index otherwise, until it reaches a node whose reference bit is not greater than the one it came from (a link
//! back up, or the root); that node's key is the only one the walked key can equal. (The EPD wiki's "Common
//! nn::util" page describes the same field as a shift in bits 0-2 and a length above.)
//!
//! Checked against every dictionary of the Switch files in the shared corpus (`tests/tests/nn_util.rs`).

use crate::error::{Error, Result};
use crate::layout::WriteCtx;

/// The reference bit stored in the root node. The walk never reads it (the root is above every node), and
/// Nintendo's files hold all ones. Files rewritten by other tools may hold something else (one in the shared
/// corpus holds 0x0000ffff), so a reader that wants such a file back byte for byte keeps the root's value.
pub const ROOT_REF_BIT: u32 = u32::MAX;

/// One node of a dictionary, without its key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Node {
    /// The bit of a key this node tests ([`bit`]); [`ROOT_REF_BIT`] for the root.
    pub ref_bit: u32,
    /// The node a walk goes to when the bit is clear (for the root: the first node of every walk).
    pub left: u16,
    /// The node a walk goes to when the bit is set (for the root: 0).
    pub right: u16,
}

impl<'m> WriteCtx<'m> {
    /// Begins writing a dictionary whose nodes are `nodes` ([`build`]): its node records, written one after
    /// another, take their derived values from [`WriteCtx::dic_next`].
    pub fn dic_begin(&mut self, nodes: Vec<Node>) {
        self.dic = (nodes, 0);
    }
    /// The derived values of the next node record of the dictionary being written (zeros past its end: a node
    /// record written outside a dictionary, which the generated writers do not do).
    pub fn dic_next(&mut self) -> Node {
        let (nodes, at) = &mut self.dic;
        let n = nodes.get(*at).copied().unwrap_or(Node {
            ref_bit: 0,
            left: 0,
            right: 0,
        });
        *at += 1;
        n
    }
}

/// Bit `ref_bit` of `key`: bit `ref_bit & 7` of the byte `ref_bit >> 3` places before the key's last byte; `false`
/// past the key's first byte.
pub fn bit(key: &[u8], ref_bit: u32) -> bool {
    let from_end = (ref_bit >> 3) as usize;
    match from_end
        .checked_add(1)
        .and_then(|n| key.len().checked_sub(n))
    {
        Some(i) => key[i] >> (ref_bit & 7) & 1 == 1,
        None => false,
    }
}

/// The lowest reference bit at which `a` and `b` differ ([`bit`]), or `None` when they do not differ (equal keys,
/// or keys that differ only by zero bytes at their start).
pub fn first_difference(a: &[u8], b: &[u8]) -> Option<u32> {
    let n = a.len().max(b.len());
    (0..n).find_map(|from_end| {
        let byte = |k: &[u8]| k.len().checked_sub(from_end + 1).map_or(0, |i| k[i]);
        let x = byte(a) ^ byte(b);
        if x == 0 {
            return None;
        }
        let bit = u32::try_from(from_end).ok()?.checked_mul(8)?;
        bit.checked_add(x.trailing_zeros())
    })
}

/// The nodes of the dictionary of `keys`, in their order (node `i + 1` is `keys[i]`), root first: what Nintendo's
/// tools write. The keys are inserted one after the other into a Patricia tree: each new key is walked down to the
/// closest key already in the tree; its node tests the lowest bit at which the two differ and goes in on the new
/// key's path just above the first node that tests a higher bit (or above the link back up that ends the path).
/// The new node's link for the key's own value of its bit points back to itself; the other link to the node it
/// went in above.
///
/// Fails when two keys (or a key and the root's empty key) do not differ in any bit: duplicate keys, an empty
/// key, or keys that differ only by zero bytes at their start (the files' keys are C strings, which hold none).
/// Also fails past 65,535 keys, as the indices are u16.
///
/// ```
/// use binspec_runtime::layout::resdic::{build, Node, ROOT_REF_BIT};
/// // 'a' = 0x61, 'b' = 0x62, 'c' = 0x63: "a" and "c" differ at bit 1, "a" and "b" at bit 0.
/// let n = |ref_bit, left, right| Node { ref_bit, left, right };
/// assert_eq!(
///     build(&["a", "b", "c"]).unwrap(),
///     [n(ROOT_REF_BIT, 1, 0), n(0, 2, 3), n(1, 0, 2), n(1, 1, 3)]
/// );
/// ```
pub fn build<K: AsRef<[u8]>>(keys: &[K]) -> Result<Vec<Node>> {
    if keys.len() > usize::from(u16::MAX) {
        return Err(Error::write(format!(
            "a dictionary holds at most 65535 keys (its indices are u16), not {}",
            keys.len()
        )));
    }
    let key = |i: usize| {
        if i == 0 {
            &[][..]
        } else {
            keys[i - 1].as_ref()
        }
    };
    let root = Node {
        ref_bit: ROOT_REF_BIT,
        left: 0,
        right: 0,
    };
    let mut nodes = vec![root; keys.len() + 1];
    for i in 1..nodes.len() {
        let k = key(i);
        let (_, closest) = descend(&nodes, k, None);
        let Some(b) = first_difference(k, key(closest)) else {
            let other = match closest {
                0 => "the root's empty key".to_string(),
                c => format!("key {}", c - 1),
            };
            return Err(Error::write(format!(
                "dictionary key {} ({:?}) cannot be told apart from {other}: keys must be distinct, not empty, \
                 and not differ only by zero bytes at their start",
                i - 1,
                String::from_utf8_lossy(k)
            )));
        };
        let (parent, below) = descend(&nodes, k, Some(b));
        // `i` fits in u16: there are at most 65,535 keys.
        let (me, below) = (i as u16, below as u16);
        nodes[i] = if bit(k, b) {
            Node {
                ref_bit: b,
                left: below,
                right: me,
            }
        } else {
            Node {
                ref_bit: b,
                left: me,
                right: below,
            }
        };
        let p = &mut nodes[parent];
        if parent != 0 && bit(k, p.ref_bit) {
            p.right = me;
        } else {
            p.left = me;
        }
    }
    Ok(nodes)
}

/// The rank of node `i` in a walk: the root is above every node whatever its stored bit.
fn rank(nodes: &[Node], i: usize) -> i64 {
    if i == 0 {
        -1
    } else {
        i64::from(nodes[i].ref_bit)
    }
}

/// Walks `key` down from the root while the next node tests a higher bit than the last (and, with `below`, a bit
/// lower than `below`): the last node walked through and the node the walk stopped at.
fn descend(nodes: &[Node], key: &[u8], below: Option<u32>) -> (usize, usize) {
    let (mut parent, mut child) = (0, usize::from(nodes[0].left));
    while rank(nodes, parent) < rank(nodes, child)
        && below.is_none_or(|b| rank(nodes, child) < i64::from(b))
    {
        parent = child;
        let n = nodes[child];
        child = usize::from(if bit(key, n.ref_bit) { n.right } else { n.left });
    }
    (parent, child)
}

/// Finds `key` by walking the tree `nodes` (root first), as the runtime does: the index of the element it names
/// (its node's index minus 1), or `None` when the walk ends at another key or at the root. `keys[i]` is the key of
/// node `i + 1`. The root's stored reference bit is not read. Safe on any nodes (from a hostile file): an index
/// out of range ends the walk with `None`, and a walk visits each node at most once, as the bits it tests rise.
pub fn lookup<K: AsRef<[u8]>>(nodes: &[Node], keys: &[K], key: &[u8]) -> Option<usize> {
    let mut last = -1i64;
    let mut at = usize::from(nodes.first()?.left);
    while at != 0 {
        let n = nodes.get(at)?;
        if i64::from(n.ref_bit) <= last {
            break;
        }
        last = i64::from(n.ref_bit);
        at = usize::from(if bit(key, n.ref_bit) { n.right } else { n.left });
    }
    let i = at.checked_sub(1)?;
    (keys.get(i)?.as_ref() == key).then_some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(ref_bit: u32, left: u16, right: u16) -> Node {
        Node {
            ref_bit,
            left,
            right,
        }
    }

    #[test]
    fn bits_count_from_the_end_of_the_key() {
        // "ab": 'b' = 0x62 is byte 0 from the end, 'a' = 0x61 byte 1.
        let k = b"ab";
        let bits: Vec<u32> = (0..24).filter(|&r| bit(k, r)).collect();
        assert_eq!(bits, [1, 5, 6, 8, 13, 14]);
        assert!(!bit(k, u32::MAX));
        assert_eq!(first_difference(b"ab", b"b"), Some(8));
        assert_eq!(first_difference(b"b", b"c"), Some(0));
        assert_eq!(first_difference(b"x", b"x"), None);
        assert_eq!(first_difference(b"\0x", b"x"), None);
    }

    #[test]
    fn no_keys_is_the_root_alone() {
        assert_eq!(build::<&str>(&[]).unwrap(), [n(ROOT_REF_BIT, 0, 0)]);
        assert_eq!(lookup::<&str>(&[n(ROOT_REF_BIT, 0, 0)], &[], b"a"), None);
    }

    #[test]
    fn one_key_tests_its_lowest_set_bit() {
        // 'a' = 0x61: bit 0; the key's bit is set, so its right link is itself and its left the root.
        assert_eq!(build(&["a"]).unwrap(), [n(ROOT_REF_BIT, 1, 0), n(0, 0, 1)]);
        // "p0": '0' = 0x30, lowest set bit 4.
        assert_eq!(build(&["p0"]).unwrap(), [n(ROOT_REF_BIT, 1, 0), n(4, 0, 1)]);
    }

    #[test]
    fn three_keys_worked_by_hand() {
        // "a" (0x61) goes in at bit 0. "b" (0x62) walks root -> 1 -> (bit 0 clear) root, so it differs from the
        // empty key first at bit 1: its node goes below node 1 on the left. "c" (0x63) walks root -> 1 -> (bit 0 set)
        // 1 and stops at "a"; they differ at bit 1; node 1's right link (to itself) is the way down, so node 3
        // goes there, its left back to node 1 ("c" has bit 1 set, so its right is itself).
        let nodes = build(&["a", "b", "c"]).unwrap();
        assert_eq!(
            nodes,
            [n(ROOT_REF_BIT, 1, 0), n(0, 2, 3), n(1, 0, 2), n(1, 1, 3)]
        );
        let keys = ["a", "b", "c"];
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(lookup(&nodes, &keys, k.as_bytes()), Some(i));
        }
        // 'd' = 0x64 walks root -> 1 -> 2 -> root.
        assert_eq!(lookup(&nodes, &keys, b"d"), None);
        assert_eq!(lookup(&nodes, &keys, b""), None);
        assert_eq!(lookup(&nodes, &keys, b"aa"), None);
    }

    #[test]
    fn a_later_key_can_go_in_above_the_first() {
        // Four texture names that differ only in the last byte: 'b' 0x62, 'l' 0x6c, 'm' 0x6d, 'h' 0x68. "nrm" and
        // "mtl" differ at bit 0, lower than the first node's bit 1, so node 3 goes in right below the root.
        let keys = ["BedBody_alb", "BedBody_mtl", "BedBody_nrm", "BedBody_rgh"];
        let nodes = build(&keys).unwrap();
        assert_eq!(
            nodes,
            [
                n(ROOT_REF_BIT, 3, 0),
                n(1, 2, 1),
                n(2, 4, 2),
                n(0, 1, 3),
                n(3, 0, 4)
            ]
        );
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(lookup(&nodes, &keys, k.as_bytes()), Some(i));
        }
        assert_eq!(lookup(&nodes, &keys, b"BedBody_xyz"), None);
    }

    #[test]
    fn keys_of_different_lengths() {
        // "a" and "ba" share their last byte; "ba" differs from "a" at 'b' = 0x62 in byte 1 from the end: bit 9.
        let keys = ["a", "ba"];
        let nodes = build(&keys).unwrap();
        assert_eq!(nodes, [n(ROOT_REF_BIT, 1, 0), n(0, 0, 2), n(9, 1, 2)]);
        assert_eq!(lookup(&nodes, &keys, b"ba"), Some(1));
        assert_eq!(lookup(&nodes, &keys, b"a"), Some(0));
        assert_eq!(lookup(&nodes, &keys, b"ca"), None);
    }

    #[test]
    fn keys_that_cannot_be_told_apart_are_refused() {
        let msg = |keys: &[&[u8]]| build(keys).unwrap_err().to_string();
        assert!(msg(&[b"a", b"b", b"a"]).contains("key 2"));
        assert!(msg(&[b"a", b"b", b"a"]).contains("key 0"));
        assert!(msg(&[b"a", b""]).contains("root's empty key"));
        assert!(msg(&[b"a", b"\0a"]).contains("zero bytes"));
    }

    #[test]
    fn lookup_survives_hostile_nodes() {
        // An index past the end, and a cycle of equal bits: the walk stops.
        let keys = ["a"];
        assert_eq!(lookup(&[n(ROOT_REF_BIT, 5, 0)], &keys, b"a"), None);
        assert_eq!(
            lookup(&[n(ROOT_REF_BIT, 1, 0), n(0, 1, 1)], &keys, b"a"),
            Some(0)
        );
        assert_eq!(
            lookup(&[n(ROOT_REF_BIT, 1, 0), n(0, 1, 1)], &[] as &[&str], b"a"),
            None
        );
        assert_eq!(lookup::<&str>(&[], &[], b"a"), None);
        // The root's stored bit is not read (some files hold 0x0000ffff).
        let nodes = [n(0xffff, 1, 0), n(0, 0, 1)];
        assert_eq!(lookup(&nodes, &keys, b"a"), Some(0));
    }
}
