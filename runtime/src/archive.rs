//! Archives: formats that hold named files ([`Archive`]), used like a map from name to bytes, over the entries
//! their model keeps (each entry's layout choices stay with it: an edited file keeps its alignment).

use crate::{Bytes, Error, Format, Result};

/// How an archive's file is known: by its name, or, for an entry the archive stores without a name, by the hash
/// the archive keeps in its place (SARC's name hash).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EntryKey {
    /// The entry's name (its path in the archive).
    Name(String),
    /// The hash an entry without a name is stored under.
    Hash(u64),
}

/// One entry of an archive's model, as [`Archive`] sees it. Generated archive formats implement it for their
/// entry type from the schema's `-binspec: archive` (which fields are the name, the data and the hash).
pub trait ArchiveEntry: Default {
    /// The entry's name; `None` for an entry stored without one.
    fn name(&self) -> Option<&str>;
    /// Gives the entry a name.
    fn set_name(&mut self, name: &str);
    /// The file's bytes.
    fn data(&self) -> &[u8];
    /// Replaces the file's bytes, giving back the old ones.
    fn set_data(&mut self, data: Bytes) -> Bytes;
    /// The hash an entry without a name is known by, in formats that store one (`None` in the others; for an entry
    /// with a name, what the model keeps, which may be nothing the file holds).
    fn hash(&self) -> Option<u64> {
        None
    }
    /// How the entry is known: its name, or the hash of an entry stored without one.
    fn key(&self) -> EntryKey {
        match (self.name(), self.hash()) {
            (None, Some(h)) => EntryKey::Hash(h),
            (n, _) => EntryKey::Name(n.unwrap_or_default().to_string()),
        }
    }
}

/// A file of an archive, borrowed from it ([`Archive::iter`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArchiveFile<'a> {
    /// The file's name ("" for an entry stored without one: see [`ArchiveFile::hash`]).
    pub name: &'a str,
    /// For an entry without a name, the hash it is known by, where the format stores one (`None` for a named
    /// entry).
    pub hash: Option<u64>,
    /// Whether the entry has a name.
    pub named: bool,
    /// The file's bytes.
    pub data: &'a [u8],
}

/// The files of an archive, borrowed, in the archive's order ([`Archive::iter`]).
pub struct ArchiveFiles<'a, E> {
    entries: std::slice::Iter<'a, E>,
}

impl<'a, E: ArchiveEntry> Iterator for ArchiveFiles<'a, E> {
    type Item = ArchiveFile<'a>;
    fn next(&mut self) -> Option<ArchiveFile<'a>> {
        let e = self.entries.next()?;
        let name = e.name();
        Some(ArchiveFile {
            name: name.unwrap_or_default(),
            hash: if name.is_none() { e.hash() } else { None },
            named: name.is_some(),
            data: e.data(),
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.entries.size_hint()
    }
}

impl<E: ArchiveEntry> ExactSizeIterator for ArchiveFiles<'_, E> {}

/// A format that holds named files, used like a map from name to bytes: [`get`](Archive::get),
/// [`insert`](Archive::insert), [`remove`](Archive::remove), [`rename`](Archive::rename) and a borrowing
/// [`iter`](Archive::iter). The model underneath keeps each entry's layout choices: a file replaced under its name
/// keeps its alignment, a new one gets the defaults, and the writer derives the rest (SARC's order by name hash,
/// offsets, the name table).
///
/// ```no_run
/// # fn edit<A: binspec_runtime::Archive>(arc: &mut A) -> binspec_runtime::Result<()> {
/// for f in arc.iter() {
///     println!("{} ({} bytes)", f.name, f.data.len());
/// }
/// let data = arc.get("Actor/Player.bgyml").map(|d| d.to_vec());
/// if let Some(d) = data {
///     arc.insert("Actor/Player.bgyml", d);
/// }
/// arc.rename("Actor/Player.bgyml", "Actor/Hero.bgyml")?;
/// # Ok(()) }
/// ```
pub trait Archive: Format {
    /// The model's entry type.
    type Entry: ArchiveEntry;
    /// The entries, in the archive's order.
    fn entries(&self) -> &[Self::Entry];
    /// The entries, to add, remove or reorder (the order is the file's where the format does not derive one).
    fn entries_mut(&mut self) -> &mut Vec<Self::Entry>;

    /// How many files the archive holds.
    fn len(&self) -> usize {
        self.entries().len()
    }
    /// Whether the archive holds no file.
    fn is_empty(&self) -> bool {
        self.entries().is_empty()
    }
    /// The files, borrowed, in the archive's order.
    fn iter(&self) -> ArchiveFiles<'_, Self::Entry> {
        ArchiveFiles {
            entries: self.entries().iter(),
        }
    }
    /// The bytes of the file named `name`.
    fn get(&self, name: &str) -> Option<&[u8]> {
        self.entries()
            .iter()
            .find(|e| e.name() == Some(name))
            .map(|e| e.data())
    }
    /// The bytes of the entry stored without a name under `hash`.
    fn get_by_hash(&self, hash: u64) -> Option<&[u8]> {
        self.entries()
            .iter()
            .find(|e| e.name().is_none() && e.hash() == Some(hash))
            .map(|e| e.data())
    }
    /// Whether the archive holds a file named `name`.
    fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }
    /// Puts `data` under `name`: replaces the file of that name (which keeps its layout choices) and gives back its
    /// old bytes, or adds a new file at the end.
    fn insert(&mut self, name: &str, data: impl Into<Bytes>) -> Option<Bytes> {
        let data = data.into();
        let entries = self.entries_mut();
        if let Some(e) = entries.iter_mut().find(|e| e.name() == Some(name)) {
            return Some(e.set_data(data));
        }
        let mut e = Self::Entry::default();
        e.set_name(name);
        e.set_data(data);
        entries.push(e);
        None
    }
    /// Takes the file named `name` out of the archive, giving back its bytes.
    fn remove(&mut self, name: &str) -> Option<Bytes> {
        let entries = self.entries_mut();
        let i = entries.iter().position(|e| e.name() == Some(name))?;
        let mut e = entries.remove(i);
        Some(e.set_data(Bytes::new()))
    }
    /// Renames the file `from` to `to`, keeping its bytes and layout choices.
    ///
    /// # Errors
    /// No file named `from`, or a file named `to` already.
    fn rename(&mut self, from: &str, to: &str) -> Result<()> {
        if from != to && self.contains(to) {
            return Err(Error::other(format!(
                "cannot rename '{from}' to '{to}': the archive has a file named '{to}' already"
            )));
        }
        let Some(e) = self
            .entries_mut()
            .iter_mut()
            .find(|e| e.name() == Some(from))
        else {
            return Err(Error::other(format!(
                "cannot rename '{from}': the archive has no file of that name"
            )));
        };
        e.set_name(to);
        Ok(())
    }

    /// The files, in the archive's order (an entry without a name has the name ""), collected: [`iter`](Archive::iter)
    /// borrows them without a vector.
    fn files(&self) -> Vec<(&str, &[u8])> {
        self.iter().map(|f| (f.name, f.data)).collect()
    }
    /// Replaces the files, keeping the archive's other settings (byte order, alignment, seeds). A file whose name
    /// matches an existing entry keeps that entry's layout choices (its alignment); new names get the defaults.
    /// Generated archives do not fail here: a name or size the format cannot store fails in
    /// [`Format::to_binary`].
    fn set_files(&mut self, files: Vec<(String, Vec<u8>)>) -> Result<()> {
        self.set_entries(
            files
                .into_iter()
                .map(|(n, d)| (EntryKey::Name(n), d))
                .collect(),
        )
    }
    /// Each file's key, in the order of [`files`](Archive::files): its name, or the hash of an entry stored
    /// without one.
    fn keys(&self) -> Vec<EntryKey> {
        self.entries().iter().map(ArchiveEntry::key).collect()
    }
    /// Replaces the files as [`set_files`](Archive::set_files) does, where a file keyed by a hash is the entry
    /// stored without a name that has that hash: it stays unnamed and keeps its layout choices (an error if the
    /// archive has no such entry).
    fn set_entries(&mut self, files: Vec<(EntryKey, Vec<u8>)>) -> Result<()> {
        // (Checked first, so that a refused list leaves the archive as it was.)
        let mut unnamed: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
        for e in self.entries().iter().filter(|e| e.name().is_none()) {
            if let EntryKey::Hash(h) = e.key() {
                *unnamed.entry(h).or_default() += 1;
            }
        }
        for (k, _) in &files {
            if let EntryKey::Hash(h) = k {
                match unnamed.get_mut(h) {
                    Some(n) if *n > 0 => *n -= 1,
                    _ => {
                        return Err(Error::other(format!(
                            "the archive has no entry stored without a name whose hash is {h:#010x}"
                        )))
                    }
                }
            }
        }
        // Entries that keep their key keep their layout choices (the first of several with one key first).
        let mut old: std::collections::HashMap<EntryKey, std::collections::VecDeque<Self::Entry>> =
            std::collections::HashMap::new();
        for e in std::mem::take(self.entries_mut()) {
            old.entry(e.key()).or_default().push_back(e);
        }
        let mut entries = Vec::with_capacity(files.len());
        for (k, d) in files {
            let mut e = match old.get_mut(&k).and_then(|v| v.pop_front()) {
                Some(e) => e,
                None => match &k {
                    EntryKey::Name(n) => {
                        let mut e = Self::Entry::default();
                        e.set_name(n);
                        e
                    }
                    // (Checked above: every hash names an entry.)
                    EntryKey::Hash(_) => continue,
                },
            };
            e.set_data(d.into());
            entries.push(e);
        }
        *self.entries_mut() = entries;
        Ok(())
    }
    /// Empties every file's data but keeps the entries and their layout choices: the archive's settings, as
    /// `extract` saves them for `pack`.
    fn strip_data(&mut self) -> Result<()> {
        for e in self.entries_mut() {
            e.set_data(Bytes::new());
        }
        Ok(())
    }
}
