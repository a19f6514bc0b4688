//! Sizes by file path on the resource size table ([`Rsizetable::size`], [`Rsizetable::set_size`],
//! [`Rsizetable::remove`]), as a mod tool updates the entry of a file whose size changed. The table keeps a CRC-32
//! of each path, or the path itself where two paths share a CRC-32: a path is looked up among the names first, then
//! by its CRC-32. The writer keeps both lists sorted, so an entry added here goes at the end.

use crate::rsizetable::{CrcEntry, NameEntry, Rsizetable, RsizetableTable};

/// The CRC-32 of a path, as the table stores it.
pub fn path_crc(path: &str) -> u32 {
    binspec_runtime::hash::crc32(path.as_bytes())
}

impl Rsizetable {
    /// The CRC entries and the name entries (none in a headerless table).
    pub fn entries(&self) -> (&[CrcEntry], &[NameEntry]) {
        match &self.table {
            RsizetableTable::Restbl(t) => (&t.crc_entries, &t.name_entries),
            RsizetableTable::Rstb(t) => (&t.crc_entries, &t.name_entries),
            RsizetableTable::Headerless(t) => (&t.crc_entries, &[]),
        }
    }

    fn entries_mut(&mut self) -> (&mut Vec<CrcEntry>, Option<&mut Vec<NameEntry>>) {
        match &mut self.table {
            RsizetableTable::Restbl(t) => (&mut t.crc_entries, Some(&mut t.name_entries)),
            RsizetableTable::Rstb(t) => (&mut t.crc_entries, Some(&mut t.name_entries)),
            RsizetableTable::Headerless(t) => (&mut t.crc_entries, None),
        }
    }

    /// The size the table gives `path`: its name entry, or else the entry of its CRC-32.
    pub fn size(&self, path: &str) -> Option<u32> {
        let (crcs, names) = self.entries();
        if let Some(e) = names.iter().find(|e| &*e.name == path) {
            return Some(e.size);
        }
        let crc = path_crc(path);
        crcs.iter().find(|e| e.crc == crc).map(|e| e.size)
    }

    /// Sets the size of `path`, giving back the old one: in its name entry, or else in the entry of its CRC-32, or
    /// else in a new CRC entry.
    pub fn set_size(&mut self, path: &str, size: u32) -> Option<u32> {
        let crc = path_crc(path);
        let (crcs, names) = self.entries_mut();
        if let Some(e) = names.and_then(|n| n.iter_mut().find(|e| &*e.name == path)) {
            return Some(std::mem::replace(&mut e.size, size));
        }
        if let Some(e) = crcs.iter_mut().find(|e| e.crc == crc) {
            return Some(std::mem::replace(&mut e.size, size));
        }
        crcs.push(CrcEntry { crc, size });
        None
    }

    /// Takes `path` out of the table (its name entry, or else the entry of its CRC-32), giving back its size.
    pub fn remove(&mut self, path: &str) -> Option<u32> {
        let crc = path_crc(path);
        let (crcs, names) = self.entries_mut();
        if let Some(names) = names {
            if let Some(i) = names.iter().position(|e| &*e.name == path) {
                return Some(names.remove(i).size);
            }
        }
        let i = crcs.iter().position(|e| e.crc == crc)?;
        Some(crcs.remove(i).size)
    }
}
