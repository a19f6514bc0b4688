//! The order of a region's sections (the items a type declares for a region of its own: the tables a header points
//! to) as a layout choice: read off their positions, kept in the model by name, and followed by the writer.
//!
//! Files of one format differ in where some sections go (AINB's attachment id array before or after the attachment
//! array). A reader reads the sections in their declared order; their positions say the file's order, and their
//! alignments are judged in that order, once all of them are read ([`ReadPools::sections`]).

use super::ReadPools;
use crate::error::{Error, Result};

/// A section read, waiting for its region's other sections: by pool, its number among the type's sections, where
/// it starts and how long it is.
#[derive(Debug, Clone, Copy)]
pub(super) struct Pending {
    pool: usize,
    idx: usize,
    start: u64,
    len: u64,
}

/// The order of a region's sections and their alignment choices, by section number (see [`ReadPools::sections`]).
pub type Sections = (Option<Vec<usize>>, Vec<Option<u64>>);

impl ReadPools {
    /// Notes section `idx` of a region of `pool`, read at `start..start+len`. Its alignment is judged by
    /// [`ReadPools::sections`], once the position of every section is known.
    pub fn section(&mut self, pool: usize, idx: usize, start: u64, len: u64) {
        self.pending.push(Pending {
            pool,
            idx,
            start,
            len,
        });
    }

    /// The sections of `pool` noted since the region's type began to be read (`defaults` holds each one's default
    /// alignment, by number): their order in the file, `None` where it is the declared one, and each one's
    /// alignment choice in that order (as [`ReadPools::item`] gives it). Sections at one position are taken empty
    /// ones first, as the writer puts them; an absent section is in neither.
    pub fn sections(&mut self, pool: usize, defaults: &[u64]) -> Sections {
        let mut mine = Vec::new();
        self.pending.retain(|p| {
            let m = p.pool == pool;
            if m {
                mine.push(*p);
            }
            !m
        });
        mine.sort_by_key(|p| (p.start, p.len > 0, p.idx));
        let mut aligns = vec![None; defaults.len()];
        for p in &mine {
            let d = defaults.get(p.idx).copied().unwrap_or(1);
            if let Some(a) = aligns.get_mut(p.idx) {
                *a = self.item(pool, p.start, p.len, d);
            }
        }
        let order: Vec<usize> = mine.iter().map(|p| p.idx).collect();
        let declared = order.windows(2).all(|w| w[0] < w[1]);
        ((!declared).then_some(order), aligns)
    }
}

/// The model's kept order of sections, by name: `None` for the declared order.
pub fn order_names(order: Option<Vec<usize>>, names: &[&str]) -> Option<Vec<String>> {
    order.map(|o| {
        o.into_iter()
            .filter_map(|i| names.get(i).map(|n| (*n).to_string()))
            .collect()
    })
}

/// The order the writer puts a region's sections in: those `order` names, then the others in their declared order
/// (`names`). A name that is no section of the type, or one named twice, is an error.
pub fn write_order(order: Option<&[String]>, names: &[&str]) -> Result<Vec<usize>> {
    let Some(order) = order else {
        return Ok((0..names.len()).collect());
    };
    let mut out = Vec::with_capacity(names.len());
    let mut seen = vec![false; names.len()];
    for n in order {
        let Some(i) = names.iter().position(|x| x == n) else {
            return Err(Error::write(format!(
                "'{n}' is not a section of this type (they are: {})",
                names.join(", ")
            )));
        };
        if std::mem::replace(&mut seen[i], true) {
            return Err(Error::write(format!("section '{n}' is named twice")));
        }
        out.push(i);
    }
    out.extend((0..names.len()).filter(|&i| !seen[i]));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_are_judged_in_file_order() {
        let mut p = ReadPools::new();
        p.enter_region(0, 0x10);
        // Declared first, but in the file after the second (which ends at 0x15); aligned to 4 there.
        p.section(0, 0, 0x18, 8);
        p.section(0, 1, 0x10, 5);
        let (order, aligns) = p.sections(0, &[1, 1]);
        assert_eq!(order, Some(vec![1, 0]));
        assert_eq!(aligns, vec![Some(8), None]);
        assert!(!p.relaid());
    }

    #[test]
    fn empty_sections_at_one_position_come_first() {
        let mut p = ReadPools::new();
        p.enter_region(0, 0x10);
        p.section(0, 0, 0x10, 4);
        p.section(0, 1, 0x10, 0);
        p.section(0, 2, 0x14, 0);
        let (order, _) = p.sections(0, &[1, 1, 1]);
        assert_eq!(order, Some(vec![1, 0, 2]));
        // In declared order: none kept.
        let mut p = ReadPools::new();
        p.enter_region(0, 0x10);
        p.section(0, 0, 0x10, 0);
        p.section(0, 1, 0x10, 4);
        assert_eq!(p.sections(0, &[1, 1]).0, None);
    }

    #[test]
    fn other_pools_sections_wait() {
        let mut p = ReadPools::new();
        p.section(1, 0, 0x40, 4);
        p.section(0, 0, 0x10, 4);
        let _ = p.sections(0, &[1]);
        assert_eq!(p.pending.len(), 1);
    }

    #[test]
    fn write_order_lists_the_rest_after_the_kept_order() {
        let names = ["a", "b", "c"];
        assert_eq!(write_order(None, &names).unwrap(), vec![0, 1, 2]);
        let o = vec!["c".to_string()];
        assert_eq!(write_order(Some(&o), &names).unwrap(), vec![2, 0, 1]);
        let bad = vec!["d".to_string()];
        assert!(write_order(Some(&bad), &names).is_err());
        let twice = vec!["a".to_string(), "a".to_string()];
        assert!(write_order(Some(&twice), &names).is_err());
    }
}
