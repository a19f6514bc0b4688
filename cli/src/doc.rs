//! `info`, `decode`, `encode` and `formats`.

use std::path::Path;

use binspec_runtime::compress::Compression;
use binspec_runtime::{DocFormat, DynFormat};

use crate::args::CompressArgs;
use crate::files::{self, Input};
use crate::{formats, CliError, Ctx};

/// Loads a binary file and finds its format.
pub fn load_binary(
    ctx: &Ctx<'_>,
    path: &Path,
) -> Result<(Input, &'static dyn DynFormat), CliError> {
    let input = files::load_limited(path, ctx.limits)?;
    let f = formats::of_binary(ctx.registry, ctx.format.as_deref(), path, &input.data)?;
    Ok((input, f))
}

fn out_line(ctx: &mut Ctx<'_>, s: &str) -> Result<(), CliError> {
    writeln!(ctx.out, "{s}").map_err(CliError::out)
}

fn note(ctx: &mut Ctx<'_>, s: &str) {
    let _ = writeln!(ctx.err, "note: {s}");
}

/// `binspec info FILE`.
pub fn info(ctx: &mut Ctx<'_>, path: &Path, json: bool) -> Result<(), CliError> {
    let (input, f) = load_binary(ctx, path)?;
    // BFRES is read once, for its summary and its models' lines (`binspec_formats::bfres_api`).
    let bfres = if f.id() == "bfres" {
        use binspec_runtime::Format as _;
        let m = binspec_formats::bfres::Bfres::from_binary(&input.data);
        Some(m.map_err(|e| CliError::file(path, e))?)
    } else {
        None
    };
    let info = match &bfres {
        Some(m) => binspec_runtime::Format::info(m),
        None => f.info(&input.data).map_err(|e| CliError::file(path, e))?,
    };
    if json {
        let mut v = serde_json::to_value(&info).map_err(|e| CliError::Fail(e.to_string()))?;
        v["title"] = f.title().into();
        v["compression"] = input.compression.name().into();
        if input.compression == Compression::Yaz0 {
            v["yaz0_alignment"] = input.yaz0_alignment.into();
        }
        v["file_size"] = input.disk_len.into();
        v["size"] = (input.data.len() as u64).into();
        if let Some(m) = &bfres {
            v["models"] = serde_json::to_value(m.model_summaries())
                .map_err(|e| CliError::Fail(e.to_string()))?;
        }
        let text = serde_json::to_string_pretty(&v).map_err(|e| CliError::Fail(e.to_string()))?;
        return out_line(ctx, &text);
    }
    out_line(ctx, &format!("{}: {}", info.format, f.title()))?;
    if let Some(v) = &info.version {
        out_line(ctx, &format!("version: {v}"))?;
    }
    if let Some(e) = info.endian {
        out_line(ctx, &format!("byte order: {e}"))?;
    }
    match input.compression {
        Compression::None => out_line(ctx, &format!("size: {} bytes", input.data.len()))?,
        c => {
            let align = if c == Compression::Yaz0 {
                format!(", alignment {:#x}", input.yaz0_alignment)
            } else {
                String::new()
            };
            out_line(
                ctx,
                &format!(
                    "compression: {c}{align} ({} bytes, {} decompressed)",
                    input.disk_len,
                    input.data.len()
                ),
            )?
        }
    }
    for (k, v) in &info.summary {
        out_line(ctx, &format!("{k}: {v}"))?;
    }
    // BFRES: each model's shapes, materials, bones and vertex attributes.
    if let Some(m) = &bfres {
        for line in m.summary_lines() {
            out_line(ctx, &line)?;
        }
    }
    Ok(())
}

/// `binspec decode FILE [-o OUT] [--json]`.
pub fn decode(
    ctx: &mut Ctx<'_>,
    path: &Path,
    output: Option<&Path>,
    json: bool,
) -> Result<(), CliError> {
    if let Some(o) = output {
        files::guard_overwrite(o, &[path], ctx.force)?;
    }
    let (input, f) = load_binary(ctx, path)?;
    let doc = if json {
        DocFormat::Json
    } else {
        DocFormat::Yaml
    };
    let body = f
        .decode(&input.data, doc)
        .map_err(|e| CliError::file(path, e))?;
    let mut text = String::with_capacity(body.len() + 128);
    if !json {
        text.push_str(&files::format_comment(f.id()));
        text.push('\n');
        if let Some(c) = input.compression_comment() {
            text.push_str(&c);
            text.push('\n');
        }
    }
    text.push_str(&body);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    match output {
        Some(o) => files::write_output(ctx.out, o, text.as_bytes())?,
        None => ctx.out.write_all(text.as_bytes()).map_err(CliError::out)?,
    }
    // Bytes that no structure of the format reads (between structures, after the end) are not in the document:
    // said, so that encoding it does not lose them without a word.
    warn_unheld(ctx, path, &input.data, f.roundtrip(&input.data));
    Ok(())
}

/// Before `encode`: a warning where a document says something the file it gives would contradict (a BNTX
/// texture, or a BFRES model, material, shape or bone, renamed in the document but not in the dictionary the game
/// finds it by).
fn warn_inconsistent(ctx: &mut Ctx<'_>, path: &Path, id: &str, text: &str, doc: DocFormat) {
    // (The document read as the format's model; nothing is said where it does not read.)
    macro_rules! read {
        ($t:ty) => {{
            let m: Result<$t, _> = match doc {
                DocFormat::Json => binspec_runtime::doc::from_json(text),
                _ => binspec_runtime::doc::from_yaml(text),
            };
            match m {
                Ok(m) => m,
                Err(_) => return,
            }
        }};
    }
    let (lines, what) = match id {
        "bntx" => (
            read!(binspec_formats::bntx::Bntx).name_mismatches(),
            "textures",
        ),
        "bfres" => (
            read!(binspec_formats::bfres::Bfres).name_mismatches(),
            "them",
        ),
        _ => return,
    };
    for line in lines {
        let _ = writeln!(
            ctx.err,
            "warning: {}: {line}: a game finds {what} by the dictionary's keys (rename both)",
            path.display()
        );
    }
}

/// After `decode`: a warning where the document (`back`, the file written back from it) does not give the file's
/// bytes `data` again.
pub fn warn_unheld(
    ctx: &mut Ctx<'_>,
    path: &Path,
    data: &[u8],
    back: Result<Vec<u8>, impl std::fmt::Display>,
) {
    let why = match back {
        Ok(back) => match crate::check::first_difference(data, &back) {
            None => return,
            Some(at) => format!(
                "the document does not hold every byte of the file: encoded as it is, it gives {} bytes (the file \
                 has {}) that first differ at offset {at:#x} (`binspec check` compares)",
                back.len(),
                data.len()
            ),
        },
        Err(e) => format!("the document, encoded as it is, fails: {e}"),
    };
    let _ = writeln!(ctx.err, "warning: {}: {why}", path.display());
}

/// The format of a document: `--format`, its `# binspec:` line, the output file's extension.
fn doc_format(
    ctx: &Ctx<'_>,
    doc_path: &Path,
    header: &files::DocHeader,
    json: bool,
    output: &Path,
) -> Result<&'static dyn DynFormat, CliError> {
    if let Some(id) = &ctx.format {
        return formats::by_id(ctx.registry, id);
    }
    if let Some(id) = &header.format {
        return formats::by_id(ctx.registry, id).map_err(|e| {
            CliError::Fail(format!(
                "{}: the line `# binspec: {id}` names an {}",
                doc_path.display(),
                e
            ))
        });
    }
    let (ext, by_ext) = formats::with_extension(ctx.registry, output);
    match by_ext[..] {
        [] => {}
        [f] => return Ok(f),
        ref several => {
            let ids: Vec<_> = several.iter().map(|f| f.id()).collect();
            let ids = match ids.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => ids.join(""),
            };
            return Err(CliError::Usage(format!(
                "cannot tell the format of {}: `.{ext}` is the extension of {ids}; pass --format ID",
                doc_path.display()
            )));
        }
    }
    let why = if json {
        "JSON documents carry no `# binspec:` line and the output file's extension names no format"
    } else {
        "the document has no `# binspec: ID` first line and the output file's extension names no format"
    };
    Err(CliError::Usage(format!(
        "cannot tell the format of {}: {why}; pass --format ID (known formats: {})",
        doc_path.display(),
        formats::known(ctx.registry)
    )))
}

/// `binspec encode DOC -o FILE [--compress yaz0|zstd]`.
pub fn encode(
    ctx: &mut Ctx<'_>,
    doc_path: &Path,
    output: &Path,
    normalize: bool,
    compress: &CompressArgs,
) -> Result<(), CliError> {
    files::guard_overwrite(output, &[doc_path], ctx.force)?;
    let raw = files::read_limited(doc_path, ctx.limits)?;
    let text = String::from_utf8(raw).map_err(|_| CliError::file(doc_path, "not UTF-8 text"))?;
    let json = files::is_json_doc(doc_path, &text);
    let header = if json {
        files::DocHeader::default()
    } else {
        files::doc_header(&text)
    };
    let f = doc_format(ctx, doc_path, &header, json, output)?;
    let doc = if json {
        DocFormat::Json
    } else {
        DocFormat::Yaml
    };
    warn_inconsistent(ctx, doc_path, f.id(), &text, doc);
    if !normalize && compress.compress.is_none() {
        // Written as it is made: an archive's files go to the output from the model (see `pack`).
        note_uncompressed(ctx, doc_path, &header);
        return files::write_output_with(ctx.out, output, &mut |w| {
            f.encode_to(&text, doc, w)
                .map_err(|e| files::WriteFail::of_model(e, doc_path))
        });
    }
    let mut bytes = f
        .encode(&text, doc)
        .map_err(|e| CliError::file(doc_path, e))?;
    if normalize {
        bytes = normalized(f.id(), &bytes).map_err(|e| CliError::file(doc_path, e))?;
    }
    let bytes = compress_as_asked(ctx, doc_path, bytes, compress, &header)?;
    files::write_output(ctx.out, output, &bytes)
}

/// `--normalize`: the canonical text of a text format's file.
fn normalized(id: &str, bytes: &[u8]) -> Result<Vec<u8>, String> {
    match id {
        "panim-perro" => {
            use binspec_formats::Format as _;
            binspec_formats::panim_perro::Clip::from_binary(bytes)
                .map(|c| c.normalize().into_bytes())
                .map_err(|e| e.to_string())
        }
        _ => {
            let _ = bytes;
            Err(format!(
                "--normalize applies to Perro clips (panim-perro), not to {id}"
            ))
        }
    }
}

/// Applies `--compress`, with the Yaz0 alignment from `--yaz0-alignment` or the document; notes when the
/// document came from a compressed file and no `--compress` was given.
pub fn compress_as_asked(
    ctx: &mut Ctx<'_>,
    doc_path: &Path,
    bytes: Vec<u8>,
    args: &CompressArgs,
    header: &files::DocHeader,
) -> Result<Vec<u8>, CliError> {
    match args.compress {
        Some(k) => {
            let align = args.yaz0_alignment.or(header.yaz0_alignment).unwrap_or(0);
            files::compress_output(bytes, Some(k.into()), align)
        }
        None => {
            note_uncompressed(ctx, doc_path, header);
            Ok(bytes)
        }
    }
}

/// Where no compression is asked for and the document came from a compressed file, says that the output is not
/// compressed.
pub fn note_uncompressed(ctx: &mut Ctx<'_>, doc_path: &Path, header: &files::DocHeader) {
    if let Some(c) = header.compression {
        note(
            ctx,
            &format!(
                "{} came from a {c}-compressed file; the output is not compressed (pass --compress {c} \
                 to compress it)",
                doc_path.display()
            ),
        );
    }
}

/// `binspec formats`.
pub fn list_formats(ctx: &mut Ctx<'_>) -> Result<(), CliError> {
    if ctx.registry.is_empty() {
        return out_line(ctx, "(no formats: this binspec was built without any)");
    }
    let registry = ctx.registry;
    for f in registry {
        let exts = f
            .extensions()
            .iter()
            .map(|e| format!(".{e}"))
            .collect::<Vec<_>>()
            .join(" ");
        out_line(ctx, &format!("{:<12} {:<40} {exts}", f.id(), f.title()))?;
    }
    Ok(())
}
