//! The order a sorted repetition (`-sort-by`) is written in.
//!
//! A model read from a file is in order already (the reader puts a repetition read out of order in order), so the
//! usual case is checked in one pass over the keys, which keeps nothing: only elements out of order are sorted.

use crate::error::{Result, ResultExt};

/// The order in which a sorted repetition's elements are written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Order {
    /// The elements are in order already: written where they are (as many as the number).
    InPlace(usize),
    /// The elements' indices, in the order they are written (ties in the elements' order).
    Sorted(Vec<usize>),
}

impl Order {
    /// The number of elements ordered.
    pub fn len(&self) -> usize {
        match self {
            Order::InPlace(n) => *n,
            Order::Sorted(o) => o.len(),
        }
    }
    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The order of `val` by the keys that `key` computes, ties in the elements' order. Each key is compared with
    /// the one before it as it is computed; only where one is smaller are the keys computed again and sorted.
    #[inline]
    pub fn of<T, K: Ord>(val: &[T], mut key: impl FnMut(&T) -> Result<K>) -> Result<Order> {
        let Some(first) = val.first() else {
            return Ok(Order::InPlace(0));
        };
        let mut last = key(first).at_index(0)?;
        for (i, x) in val.iter().enumerate().skip(1) {
            let k = key(x).at_index(i)?;
            if k < last {
                return Self::sorted(val, key);
            }
            last = k;
        }
        Ok(Order::InPlace(val.len()))
    }
    /// `val`'s order by its keys, sorted (a stable sort, so ties stay in the elements' order).
    #[cold]
    fn sorted<T, K: Ord>(val: &[T], mut key: impl FnMut(&T) -> Result<K>) -> Result<Order> {
        let mut keyed = Vec::with_capacity(val.len());
        for (i, x) in val.iter().enumerate() {
            keyed.push((key(x).at_index(i)?, i));
        }
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(Order::Sorted(keyed.into_iter().map(|(_, i)| i).collect()))
    }
    /// [`Order::of`] for keys that the elements' writers take (derived numbers): the order, and every key in that
    /// order.
    pub fn keyed<T>(
        val: &[T],
        mut key: impl FnMut(&T) -> Result<i128>,
    ) -> Result<(Order, Vec<i128>)> {
        let mut keys = Vec::with_capacity(val.len());
        for (i, x) in val.iter().enumerate() {
            keys.push(key(x).at_index(i)?);
        }
        if keys.windows(2).all(|w| w[0] <= w[1]) {
            return Ok((Order::InPlace(keys.len()), keys));
        }
        let mut order: Vec<usize> = (0..keys.len()).collect();
        order.sort_by_key(|&i| keys[i]);
        let keys = order.iter().map(|&i| keys[i]).collect();
        Ok((Order::Sorted(order), keys))
    }
    /// `val` in this order.
    pub fn apply<T>(self, val: Vec<T>) -> Vec<T> {
        match self {
            Order::InPlace(_) => val,
            Order::Sorted(order) => {
                let mut slots: Vec<Option<T>> = val.into_iter().map(Some).collect();
                order.into_iter().filter_map(|i| slots[i].take()).collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_order_is_in_place() {
        let v = [1u32, 2, 2, 5];
        assert_eq!(Order::of(&v, |x| Ok(*x)).unwrap(), Order::InPlace(4));
        assert_eq!(
            Order::of(&[] as &[u32], |x| Ok(*x)).unwrap(),
            Order::InPlace(0)
        );
        let (o, k) = Order::keyed(&v, |x| Ok(i128::from(*x))).unwrap();
        assert_eq!((o, k), (Order::InPlace(4), vec![1, 2, 2, 5]));
    }

    #[test]
    fn out_of_order_is_sorted_stably() {
        // Keys 3, 1, 3, 0: ties (the two 3s) keep their order.
        let v = [(3u8, 'a'), (1, 'b'), (3, 'c'), (0, 'd')];
        let o = Order::of(&v, |x| Ok(x.0)).unwrap();
        assert_eq!(o, Order::Sorted(vec![3, 1, 0, 2]));
        let (ko, keys) = Order::keyed(&v, |x| Ok(i128::from(x.0))).unwrap();
        assert_eq!((ko, keys), (o.clone(), vec![0, 1, 3, 3]));
        let names: Vec<char> = o.apply(v.to_vec()).into_iter().map(|x| x.1).collect();
        assert_eq!(names, vec!['d', 'b', 'a', 'c']);
    }

    #[test]
    fn a_key_that_fails_names_its_element() {
        let v = [1u32, 2, 3];
        let e = Order::of(&v, |x| {
            if *x == 3 {
                Err(crate::Error::write("no key"))
            } else {
                Ok(*x)
            }
        })
        .unwrap_err();
        assert!(e.to_string().contains('2'), "{e}");
    }
}
