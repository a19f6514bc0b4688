//! `--schema FILE.ksy`: `info`, `decode`, `encode` and `check` with a schema interpreted at once (the
//! `binspec-interp` crate) instead of a built-in format.

use std::path::{Path, PathBuf};

use binspec_interp::{Doc, Schema};

use crate::doc::compress_as_asked;
use crate::{files, CliError, Command, Ctx};

/// The first line of a document decoded with a schema.
const SCHEMA_LINE: &str = "# binspec-schema:";

fn out_line(ctx: &mut Ctx<'_>, s: &str) -> Result<(), CliError> {
    writeln!(ctx.out, "{s}").map_err(CliError::out)
}

pub fn run(
    ctx: &mut Ctx<'_>,
    schema_path: &Path,
    command: Option<Command>,
) -> Result<(), CliError> {
    if ctx.format.is_some() {
        return Err(CliError::Usage(
            "--schema and --format both name a format; pass one of them".into(),
        ));
    }
    let command = command.ok_or_else(|| {
        CliError::Usage("--schema needs a command: info, decode, encode or check".into())
    })?;
    let load = || {
        Schema::load(schema_path)
            .map(with_hooks)
            .map_err(CliError::Fail)
    };
    match command {
        Command::Info { file, json } => {
            let schema = load()?;
            let input = files::load_limited(&file, ctx.limits)?;
            let info = schema
                .info(&input.data)
                .map_err(|e| CliError::file(&file, e))?;
            if json {
                let map: serde_json::Map<String, serde_json::Value> =
                    info.into_iter().map(|(k, v)| (k, v.into())).collect();
                let text = serde_json::to_string_pretty(&map)
                    .map_err(|e| CliError::Fail(e.to_string()))?;
                return out_line(ctx, &text);
            }
            for (k, v) in info {
                out_line(ctx, &format!("{k}: {v}"))?;
            }
            Ok(())
        }
        Command::Decode { file, output, json } => {
            if let Some(o) = &output {
                files::guard_overwrite(o, &[&file], ctx.force)?;
            }
            let schema = load()?;
            let input = files::load_limited(&file, ctx.limits)?;
            let doc = schema
                .decode(&input.data)
                .map_err(|e| CliError::file(&file, e))?;
            let mut text = String::new();
            if json {
                text.push_str(&doc.to_json_text().map_err(CliError::Fail)?);
            } else {
                text.push_str(&format!("{SCHEMA_LINE} {}\n", schema_path.display()));
                if let Some(c) = input.compression_comment() {
                    text.push_str(&c);
                    text.push('\n');
                }
                text.push_str(&doc.to_yaml().map_err(CliError::Fail)?);
            }
            if !text.ends_with('\n') {
                text.push('\n');
            }
            match output {
                Some(o) => files::write_output(ctx.out, &o, text.as_bytes())?,
                None => ctx.out.write_all(text.as_bytes()).map_err(CliError::out)?,
            }
            // As `binspec decode` of a built-in format: bytes the document does not hold are said.
            crate::doc::warn_unheld(ctx, &file, &input.data, schema.encode(&doc));
            Ok(())
        }
        Command::Encode {
            doc,
            output,
            normalize,
            compress,
        } => {
            if normalize {
                return Err(CliError::Usage(
                    "--normalize applies to Perro clips, not to a schema's documents".into(),
                ));
            }
            files::guard_overwrite(&output, &[&doc], ctx.force)?;
            let schema = load()?;
            let raw = files::read_limited(&doc, ctx.limits)?;
            let text =
                String::from_utf8(raw).map_err(|_| CliError::file(&doc, "not UTF-8 text"))?;
            let json = files::is_json_doc(&doc, &text);
            let value = if json {
                Doc::from_json(&text)
            } else {
                Doc::from_yaml(&text)
            }
            .map_err(|e| CliError::file(&doc, e))?;
            let bytes = schema.encode(&value).map_err(|e| CliError::file(&doc, e))?;
            let header = if json {
                files::DocHeader::default()
            } else {
                files::doc_header(&text)
            };
            let bytes = compress_as_asked(ctx, &doc, bytes, &compress, &header)?;
            files::write_output(ctx.out, &output, &bytes)
        }
        Command::Check { paths } => {
            let schema = load()?;
            check(ctx, &schema, &paths)
        }
        _ => Err(CliError::Usage(
            "--schema applies to info, decode, encode and check".into(),
        )),
    }
}

/// The built-in schemas' `-hook` functions (`binspec_formats::hooks`), for a schema whose id is theirs.
pub fn with_hooks(s: Schema) -> Schema {
    match s.module().id.as_str() {
        "rsizetable" => s.with_hook("headerless_little_endian", |b| {
            i128::from(binspec_formats::hooks::rsizetable::headerless_little_endian(b))
        }),
        "ainb" => s.with_hook(
            "file_reference_end",
            binspec_formats::hooks::ainb::file_reference_end,
        ),
        _ => s,
    }
}

/// What `check --schema` found of one file.
enum Checked {
    Identical,
    /// Written back otherwise, reading back as the same document.
    Differs(String),
    Failed(String),
}

/// Reads every file with the schema and writes it back, comparing the bytes; where they differ, whether what was
/// written reads back as the same document.
fn check(ctx: &mut Ctx<'_>, schema: &Schema, paths: &[PathBuf]) -> Result<(), CliError> {
    // In a folder, only the files with one of the schema's `file-extension`s, where it names any (a sample
    // folder holds notes and licences beside the files); a file named on the command line is always checked.
    let exts = &schema.module().extensions;
    let wanted = |f: &PathBuf| {
        exts.is_empty()
            || f.extension()
                .is_some_and(|x| exts.iter().any(|e| x.eq_ignore_ascii_case(e.as_str())))
    };
    let (mut files_to_check, mut skipped) = (Vec::new(), 0usize);
    for p in paths {
        if p.is_dir() {
            for f in files::walk_regular(p)? {
                if wanted(&f) {
                    files_to_check.push(f);
                } else {
                    skipped += 1;
                }
            }
        } else {
            files_to_check.push(p.clone());
        }
    }
    // (Each file on a thread of the pool; the results printed in the files' order.)
    use rayon::prelude::*;
    let limits = ctx.limits;
    let outcomes: Vec<Checked> = files_to_check
        .par_iter()
        .map(|f| match files::load_limited(f, limits) {
            Err(e) => Checked::Failed(e.message().unwrap_or("cannot read").to_string()),
            Ok(input) => match schema.decode(&input.data) {
                Err(e) => Checked::Failed(format!("decode: {e}")),
                Ok(doc) => match schema.encode(&doc) {
                    Err(e) => Checked::Failed(format!("encode: {e}")),
                    Ok(out) => match crate::check::first_difference(&input.data, &out) {
                        None => Checked::Identical,
                        Some(at) => {
                            let what = format!(
                                "differs at offset {at:#x} ({} bytes read, {} written)",
                                input.data.len(),
                                out.len()
                            );
                            // Bytes the schema does not describe, or data compressed again otherwise, still read
                            // back as the same document; anything else is a fault of the schema or of binspec.
                            match schema.decode(&out) {
                                Ok(back) if back == doc => Checked::Differs(format!(
                                    "{what}; reads back as the same document"
                                )),
                                Ok(_) => Checked::Failed(format!(
                                    "{what}, and reads back as another document"
                                )),
                                Err(e) => {
                                    Checked::Failed(format!("{what}, and does not read back: {e}"))
                                }
                            }
                        }
                    },
                },
            },
        })
        .collect();
    let (mut same, mut differ, mut bad) = (0usize, 0usize, 0usize);
    for (f, outcome) in files_to_check.iter().zip(outcomes) {
        match outcome {
            Checked::Identical => {
                same += 1;
                out_line(ctx, &format!("identical  {}", f.display()))?;
            }
            Checked::Differs(e) => {
                differ += 1;
                out_line(ctx, &format!("DIFF       {}: {e}", f.display()))?;
            }
            Checked::Failed(e) => {
                bad += 1;
                out_line(ctx, &format!("FAILED     {}: {e}", f.display()))?;
            }
        }
    }
    out_line(
        ctx,
        &format!(
            "{} files: {same} identical, {differ} differ (reading back as the same document), {bad} failed{}",
            files_to_check.len(),
            if skipped > 0 {
                format!(
                    "; {skipped} skipped in folders (not .{})",
                    exts.join(", .")
                )
            } else {
                String::new()
            }
        ),
    )?;
    if differ + bad > 0 {
        return Err(CliError::Fail(format!(
            "{} of {} files differ and {bad} failed",
            differ,
            files_to_check.len()
        )));
    }
    Ok(())
}
