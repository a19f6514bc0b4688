//! Reads and writes files of any Kaitai Struct-style schema by interpreting binspec's checked IR: no code is
//! generated or compiled, so an edited schema can be tried on a file at once (`binspec decode --schema`).
//!
//! The interpreter follows the generated code's rules: the document ([`Doc`]) has the shape the generated model's
//! serde derives give it, and the writer derives counts, lengths and `-derive`d values as the generated writer
//! does. `tests/tests/interp_differential.rs` checks both against the generated code.
//!
//! What the interpreter cannot do (custom processes and `-hook`s it is not given: hand-written Rust)
//! [`Schema::unsupported`] names, with the schema position; the generated crate (`binspec gen`, `binspec-build`)
//! does it.

mod chain;
mod dedup;
mod doc;
mod error;
mod eval;
mod given;
mod model;
mod read;
mod reloc;
mod resdic;
mod run;
mod sections;
mod value;
mod write;

use std::path::Path;
use std::rc::Rc;

use binspec_codegen::ir::{Field, Module};
use binspec_runtime::Endian;

pub use doc::Doc;
pub use error::{Error, Result};

use run::{Mode, Run};
use value::Stream;

/// A checked schema, ready to read and write files.
#[derive(Debug, Clone)]
pub struct Schema {
    module: Module,
    hooks: Vec<(String, Hook)>,
}

/// A `-hook: NAME` function: what the value instance is, from the bytes of the stream it is in (a boolean as 0 or
/// 1). `binspec_formats::hooks` has the built-in schemas' hooks; the CLI registers them.
pub type Hook = fn(&[u8]) -> i128;

/// How many write passes may run before the layout must have settled.
const MAX_PASSES: usize = 12;

impl Schema {
    /// Loads and checks a schema file (its imports from beside it, or under the folders above it for absolute
    /// imports). The error is the schema's diagnostics, one per line.
    pub fn load(path: &Path) -> std::result::Result<Schema, String> {
        Schema::load_in(path, &[])
    }

    /// [`Schema::load`], with folders an absolute import (`/common/x`) is also looked for in (Kaitai's
    /// `--import-path`).
    pub fn load_in(
        path: &Path,
        import_paths: &[std::path::PathBuf],
    ) -> std::result::Result<Schema, String> {
        binspec_codegen::module_file_in(path, import_paths)
            .map(|(module, _)| Schema::from_module(module))
            .map_err(|d| {
                d.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join("\n")
            })
    }

    /// A schema from its checked IR.
    pub fn from_module(module: Module) -> Schema {
        Schema {
            module,
            hooks: Vec::new(),
        }
    }

    /// The schema with the `-hook` function `name`.
    pub fn with_hook(mut self, name: &str, f: Hook) -> Schema {
        self.hooks.push((name.to_string(), f));
        self
    }

    pub fn module(&self) -> &Module {
        &self.module
    }

    /// The first feature of the schema that the interpreter does not support yet, as an error naming where it is.
    pub fn unsupported(&self) -> Option<Error> {
        self.unsupported_all().into_iter().next()
    }

    /// Every use of a feature the interpreter does not support yet, each an error naming where it is.
    pub fn unsupported_all(&self) -> Vec<Error> {
        let mut out = Vec::new();
        let m = &self.module;
        for t in &m.types {
            for f in t.seq.iter().chain(t.instances.iter()) {
                let hooked = f
                    .hook
                    .as_ref()
                    .is_some_and(|h| self.hooks.iter().any(|(n, _)| n == h));
                if let Some(what) = unsupported_field(f).filter(|_| !hooked) {
                    out.push(
                        Error::new(format!(
                            "the interpreter does not support {what} yet: generate the crate for this schema \
                             (`binspec gen`)"
                        ))
                        .in_schema(&t.file, f.pos, &f.path),
                    );
                }
            }
        }
        out
    }

    /// Reads a file as a document.
    pub fn decode(&self, data: &[u8]) -> Result<Doc> {
        on_own_stack(|| self.decode_here(data))
    }

    fn decode_here(&self, data: &[u8]) -> Result<Doc> {
        if let Some(e) = self.unsupported() {
            return Err(e);
        }
        let run = Run::new(&self.module, Mode::Read, &self.hooks);
        let root = read_root(&run, data)?;
        let mut doc = export_settled(&run, &root)?;
        if !run.pools.borrow().relaid() {
            return Ok(doc);
        }
        // A file that shares bytes between items, or has them out of order or after gaps, is read as the file the
        // writer makes of it, as the generated reader does (its `relay`): the layout choices read off positions
        // describe positions that writing moves. Until reading what is written gives the same document (a few
        // rounds at most); where a round cannot write or read, the last document read stays.
        for _ in 0..4 {
            let Ok(out) = self.encode_here(&doc) else {
                return Ok(doc);
            };
            let run = Run::new(&self.module, Mode::Read, &self.hooks);
            match read_root(&run, &out).and_then(|r| export_settled(&run, &r)) {
                Ok(again) if again == doc => return Ok(again),
                Ok(again) => doc = again,
                Err(_) => return Ok(doc),
            }
        }
        Ok(doc)
    }

    /// Writes a document as a file.
    pub fn encode(&self, doc: &Doc) -> Result<Vec<u8>> {
        on_own_stack(|| self.encode_here(doc))
    }

    fn encode_here(&self, doc: &Doc) -> Result<Vec<u8>> {
        if let Some(e) = self.unsupported() {
            return Err(e);
        }
        let run = Run::new(&self.module, Mode::Write, &self.hooks);
        let io = Stream::whole(Rc::new(Vec::new()));
        let root = run.import(0, doc, Vec::new(), None, None, &io, Endian::Little)?;
        let mut prev: Option<Vec<u8>> = None;
        // Passes are lenient (what positions decide is not checked: a derived value that does not fit, a size or
        // count that does not hold) until the bytes settle, since positions inside an item written out of line
        // settle a pass after its holder's; then a strict pass must reproduce them, as in the generated writer.
        let mut strict = false;
        for pass in 0..MAX_PASSES {
            run.lenient.set(!strict);
            run.flushed.borrow_mut().clear();
            run.dedup.borrow_mut().new_pass();
            run.pass.set(pass as u32 + 1);
            run.pointers_new_pass();
            run.chain_new_pass();
            run.queues.borrow_mut().iter_mut().for_each(Vec::clear);
            let mut sw = write::SW::new(io.id);
            run.bases.borrow_mut().insert(io.id, 0);
            run.write_type(&root, &mut sw)?;
            let (bytes, (left, _)) = sw.finish(run.lenient.get())?;
            // An item queued after the last region of its pool was written would be lost.
            let late = (0..self.module.pools.len())
                .find(|p| run.flushed.borrow().contains(p) && !run.queues.borrow()[*p].is_empty());
            if let Some(p) = late {
                return Err(Error::new(format!(
                    "an item of pool '{}' was queued after the pool's region was written: the writer would lose \
                     it (the region must come after what points into it)",
                    self.module.pools[p].id
                )));
            }
            if !left.is_empty() {
                return Err(Error::new(
                    "internal: an instance was placed in a stream that was not written",
                ));
            }
            run.written
                .borrow_mut()
                .insert(io.id, Stream::whole_as(io.id, Rc::new(bytes.clone())));
            if pass > 0 && prev.as_ref() == Some(&bytes) {
                if strict {
                    return Ok(bytes);
                }
                strict = true;
            }
            prev = Some(bytes);
        }
        Err(Error::new(format!(
            "the layout did not settle in {MAX_PASSES} passes (a derived value moves what it depends on)"
        )))
    }

    /// What `binspec info` prints of a file: the format, the byte order where the schema reads one, and the
    /// schema's `-binspec: info` values.
    pub fn info(&self, data: &[u8]) -> Result<Vec<(String, String)>> {
        on_own_stack(|| self.info_here(data))
    }

    fn info_here(&self, data: &[u8]) -> Result<Vec<(String, String)>> {
        if let Some(e) = self.unsupported() {
            return Err(e);
        }
        let m = &self.module;
        let run = Run::new(m, Mode::Read, &self.hooks);
        let root = read_root(&run, data)?;
        let mut out = vec![("format".to_string(), m.format_id.clone())];
        if let Some(t) = &m.title {
            out.push(("title".into(), t.clone()));
        }
        out.push(("size".into(), format!("{:#x} bytes", data.len())));
        if matches!(
            m.root().endian,
            binspec_codegen::ir::EndianSpec::Switch { .. }
        ) {
            out.push(("byte order".into(), root.endian.get().name().to_string()));
        }
        let env = eval::Env::of(&root);
        if let Some(v) = &m.info.version {
            out.push(("version".into(), read::show(&run.eval(&v.expr, &env)?)));
        }
        for (k, x) in &m.info.summary {
            out.push((k.clone(), read::show(&run.eval(&x.expr, &env)?)));
        }
        Ok(out)
    }
}

/// The document of a file read: exported once, and again where records of the block chain, or its end, were read
/// while exporting (instances are read when first named), which the chain values exported before them did not
/// know: the second export knows every record. (For every reading, the relaid file's too.)
fn export_settled(run: &Run<'_>, root: &Rc<value::Obj>) -> Result<Doc> {
    let doc = run.export(root)?;
    let judged_again = run.tables_judged_again()?;
    if run.chain_grew_in_export() || judged_again {
        return run.export(root);
    }
    Ok(doc)
}

/// Reads a whole file as the schema's top-level type, with as many records as the input allows.
fn read_root(run: &Run<'_>, data: &[u8]) -> Result<Rc<value::Obj>> {
    run.limit_values(data.len());
    let io = Stream::whole(Rc::new(data.to_vec()));
    *run.root.borrow_mut() = Some(io.clone());
    let mut r = read::reader_of(&io);
    run.read_type(
        0,
        Vec::new(),
        None,
        None,
        io.clone(),
        &mut r,
        Endian::Little,
    )
}

/// The stack the interpreter runs on: records nest up to [`run::MAX_DEPTH`] levels, and each level takes several
/// frames (tens of kilobytes in a debug build), more than a test thread's 2 MiB or a main thread's 8 MiB.
const STACK: usize = 512 << 20;

/// Runs `f` on a thread with a stack of [`STACK`] bytes (reserved, not committed), or here if no thread can be
/// made.
fn on_own_stack<T: Send>(f: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    std::thread::scope(|s| {
        match std::thread::Builder::new()
            .stack_size(STACK)
            .spawn_scoped(s, f)
        {
            Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            Err(e) => Err(Error::new(format!(
                "cannot start the interpreter's thread: {e}"
            ))),
        }
    })
}

fn unsupported_field(f: &Field) -> Option<&'static str> {
    Some(if f.hook.is_some() {
        "'-hook' functions (hand-written)"
    } else if matches!(f.process, Some(binspec_codegen::ir::Process::Custom { .. })) {
        "custom processes (hand-written)"
    } else {
        return None;
    })
}
