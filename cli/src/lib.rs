//! The `binspec` command line: every command takes the formats it may use as a parameter (`&[&dyn DynFormat]`),
//! so it can be tested with formats made up for the tests.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use clap::Parser;

use binspec_runtime::DynFormat;

pub mod archive;
pub mod args;
pub mod check;
pub mod doc;
pub mod docs;
pub mod error;
pub mod files;
pub mod formats;
pub mod gen;
pub mod schema_cmd;
pub mod textures;
pub mod track;
pub mod wiki_cmd;

/// The MediaWiki library the `wiki` commands stand on (the `binspec-wiki` crate), under the name the CLI gave
/// it when it was a module here.
pub use binspec_wiki as wiki;

#[cfg(test)]
mod tests;

pub use args::{Cli, Command};
pub use error::CliError;

/// The formats a command may use.
pub type Registry<'a> = &'a [&'static dyn DynFormat];

/// What every command works with.
pub struct Ctx<'a> {
    pub registry: Registry<'a>,
    /// Results (documents, tables).
    pub out: &'a mut dyn Write,
    /// Notes and warnings (errors are written by [`run_from`]).
    pub err: &'a mut dyn Write,
    /// Whether to draw a progress bar on the terminal's standard error.
    pub progress: bool,
    /// `--format`.
    pub format: Option<String>,
    /// `--force`.
    pub force: bool,
    /// `--max-size`.
    pub limits: files::Limits,
    /// `--schema`.
    pub schema: Option<PathBuf>,
}

/// Parses `args` (the first is the program name) and runs the command; returns the exit status.
pub fn run_from<I, T>(
    args: I,
    registry: Registry<'_>,
    out: &mut dyn Write,
    err: &mut dyn Write,
    progress: bool,
) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let text = e.render().to_string();
            if e.use_stderr() {
                let _ = write!(err, "{text}");
                return 2;
            }
            // --help, --version.
            let _ = write!(out, "{text}");
            let _ = out.flush();
            return 0;
        }
    };
    let mut ctx = Ctx {
        registry,
        out,
        err,
        progress,
        format: cli.format,
        force: cli.force,
        limits: files::Limits {
            max_size: cli.max_size,
        },
        schema: cli.schema,
    };
    let r = run(cli.command, &mut ctx);
    let _ = ctx.out.flush();
    match r {
        Ok(()) => 0,
        Err(e) => {
            if let Some(msg) = e.message() {
                let _ = writeln!(ctx.err, "error: {msg}");
            }
            e.exit_code()
        }
    }
}

/// Runs one command (`None`: check the bundled fixtures).
pub fn run(command: Option<Command>, ctx: &mut Ctx<'_>) -> Result<(), CliError> {
    // An unknown --format is bad usage, whatever else is wrong.
    if let Some(id) = &ctx.format {
        formats::by_id(ctx.registry, id)?;
    }
    if let Some(schema) = ctx.schema.clone() {
        return schema_cmd::run(ctx, &schema, command);
    }
    match command {
        None => {
            let dir = fixtures_dir().ok_or_else(|| {
                CliError::Usage(
                    "no command given, and there is no tests/fixtures folder to check here; see `binspec --help`"
                        .into(),
                )
            })?;
            writeln!(
                ctx.out,
                "checking the bundled fixtures in {}",
                dir.display()
            )
            .map_err(CliError::out)?;
            check::check(ctx, &[dir])
        }
        Some(Command::Info { file, json }) => doc::info(ctx, &file, json),
        Some(Command::Decode { file, output, json }) => {
            doc::decode(ctx, &file, output.as_deref(), json)
        }
        Some(Command::Encode {
            doc,
            output,
            normalize,
            compress,
        }) => doc::encode(ctx, &doc, &output, normalize, &compress),
        Some(Command::Check { paths }) => check::check(ctx, &paths),
        Some(Command::Extract {
            archive,
            output,
            dds,
        }) => archive::extract(ctx, &archive, &output, dds),
        Some(Command::Import {
            file,
            texture,
            images,
            like,
            output,
        }) => textures::import(ctx, &file, &texture, &images, like.as_deref(), &output),
        Some(Command::Pack {
            dir,
            output,
            compress,
        }) => archive::pack(ctx, &dir, &output, &compress),
        Some(Command::Formats) => doc::list_formats(ctx),
        Some(Command::Gen { schema, output }) => gen::gen(ctx, &schema, output.as_deref()),
        Some(Command::Docs {
            schemas,
            output,
            wiki,
            check,
        }) => docs::docs(ctx, schemas.as_deref(), output.as_deref(), wiki, check),
        Some(Command::Wiki(args::WikiCommand::Lint { file, rev })) => {
            wiki_cmd::lint(ctx, &file, rev)
        }
        Some(Command::Wiki(args::WikiCommand::Drift { file, schemas, rev })) => {
            wiki_cmd::drift(ctx, &file, &schemas, rev)
        }
        Some(Command::Wiki(args::WikiCommand::Coverage { file, schemas, rev })) => {
            wiki_cmd::coverage(ctx, &file, &schemas, rev)
        }
        Some(Command::Wiki(args::WikiCommand::Diff {
            file,
            page,
            rev_a,
            rev_b,
            schemas,
        })) => wiki_cmd::diff(
            ctx,
            &file,
            &page,
            rev_a.as_deref(),
            rev_b.as_deref(),
            &schemas,
        ),
        Some(Command::Wiki(args::WikiCommand::Import {
            file,
            page,
            section,
            caption,
            table,
            rev,
            output,
        })) => wiki_cmd::import(
            ctx,
            &file,
            &binspec_wiki::import::Want {
                page,
                section,
                caption,
                table,
                rev,
            },
            output.as_deref(),
        ),
        Some(Command::Track {
            file,
            track,
            from,
            to,
            step,
        }) => track::track(ctx, &file, &track, from, to, step),
    }
}

/// `schemas` under the current folder, else the source tree's.
pub fn schemas_dir() -> Option<PathBuf> {
    let here = PathBuf::from("schemas");
    if here.is_dir() {
        return Some(here);
    }
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("schemas");
    src.is_dir().then_some(src)
}

/// `tests/fixtures` under the current folder, else next to this crate in the source tree.
pub fn fixtures_dir() -> Option<PathBuf> {
    let here = PathBuf::from("tests").join("fixtures");
    if here.is_dir() {
        return Some(here);
    }
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("tests")
        .join("fixtures");
    src.is_dir().then_some(src)
}
