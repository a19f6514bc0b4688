//! Textures of texture archives (BNTX, and BNTX files embedded in a BFRES): `binspec extract` writes them as PNG
//! (and DDS) files, `binspec import` replaces one from an image or a DDS file. The pixels are converted by
//! `binspec_formats::bntx_api`.

use std::path::{Path, PathBuf};

use binspec_formats::bntx::Bntx;
use binspec_formats::bntx_api::image;
use binspec_runtime::Format as _;

use crate::doc::load_binary;
use crate::{files, CliError, Ctx};

/// The file name of one level of one layer of a texture: `NAME.png` for the first, `NAME.mipM.png`,
/// `NAME.layerL.png`, `NAME.layerL.mipM.png` for the others.
pub fn image_file_name(texture: &str, layer: u32, mip: u32) -> String {
    let mut n = texture.to_string();
    if layer > 0 {
        n.push_str(&format!(".layer{layer}"));
    }
    if mip > 0 {
        n.push_str(&format!(".mip{mip}"));
    }
    n.push_str(".png");
    n
}

/// The files `extract` writes of a texture archive.
pub struct TextureFiles {
    /// Each texture's levels and layers as PNG (and the texture as NAME.dds, when asked).
    pub files: Vec<(String, Vec<u8>)>,
    /// The textures that could not be converted, and why (the others are written).
    pub problems: Vec<String>,
}

/// For a texture archive (`bntx`), the files `extract` writes; for a BFRES (`bfres`), its embedded files as they
/// are and, for each that is a BNTX (`textures.bntx`), its textures under a folder of its name without the
/// extension (`textures/NAME.png`); `None` for other formats.
pub fn extract_files(format: &str, data: &[u8], dds: bool) -> Option<Result<TextureFiles, String>> {
    let mut out = TextureFiles {
        files: Vec::new(),
        problems: Vec::new(),
    };
    match format {
        "bntx" => Some(bntx_files(data, "", dds, &mut out).map(|()| out)),
        "bfres" => Some(bfres_files(data, dds, out)),
        _ => None,
    }
}

/// The textures of a BNTX into `out`, their names after `prefix`.
fn bntx_files(data: &[u8], prefix: &str, dds: bool, out: &mut TextureFiles) -> Result<(), String> {
    let m = Bntx::from_binary(data).map_err(|e| e.to_string())?;
    for t in m.textures() {
        match texture_files(t, dds) {
            Ok(files) => out
                .files
                .extend(files.into_iter().map(|(n, d)| (format!("{prefix}{n}"), d))),
            Err(e) => out.problems.push(format!("{prefix}{e}")),
        }
    }
    Ok(())
}

/// A BFRES's embedded files, and the textures of those that are BNTX files.
fn bfres_files(data: &[u8], dds: bool, mut out: TextureFiles) -> Result<TextureFiles, String> {
    let m = binspec_formats::bfres::Bfres::from_binary(data).map_err(|e| e.to_string())?;
    for (i, (name, e)) in m.embedded_files().into_iter().enumerate() {
        let name = if name.is_empty() {
            format!("embedded{i}.bin")
        } else {
            name
        };
        if e.data.starts_with(b"BNTX") {
            let stem = name.strip_suffix(".bntx").unwrap_or(&name);
            let prefix = format!("{stem}/");
            if let Err(why) = bntx_files(&e.data, &prefix, dds, &mut out) {
                out.problems
                    .push(format!("the embedded file {name:?}: {why}"));
            }
        }
        out.files.push((name, e.data.to_vec()));
    }
    Ok(out)
}

fn texture_files(
    t: &binspec_formats::bntx::TextureInfo,
    dds: bool,
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut out = Vec::new();
    for img in t.images().map_err(|e| e.to_string())? {
        let mut png = Vec::new();
        img.image
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .map_err(|e| format!("texture {:?}: cannot write its PNG: {e}", t.name()))?;
        out.push((image_file_name(t.name(), img.layer, img.mip), png));
    }
    if dds {
        out.push((
            format!("{}.dds", t.name()),
            t.to_dds().map_err(|e| e.to_string())?,
        ));
    }
    Ok(out)
}

/// `binspec import FILE TEXTURE IMAGE... -o OUT`: into a BNTX, or into the BNTX embedded in a BFRES that has the
/// texture.
pub fn import(
    ctx: &mut Ctx<'_>,
    file: &Path,
    texture: &str,
    images: &[PathBuf],
    like: Option<&str>,
    output: &Path,
) -> Result<(), CliError> {
    let (input, f) = load_binary(ctx, file)?;
    let bytes = match f.id() {
        "bntx" => {
            files::guard_overwrite(output, &[file], ctx.force)?;
            let mut m = Bntx::from_binary(&input.data).map_err(|e| CliError::file(file, e))?;
            match like {
                Some(like) => add_texture(ctx, &mut m, file, texture, like, images)?,
                None => replace_texture(ctx, &mut m, file, texture, images)?,
            }
            m.to_binary().map_err(|e| CliError::file(file, e))?
        }
        "bfres" if like.is_some() => {
            return Err(CliError::file(
                file,
                "--like adds a texture to a BNTX file; a BFRES's embedded BNTX keeps its textures (BFRES's \
                 offsets are kept as read)",
            ))
        }
        "bfres" => {
            files::guard_overwrite(output, &[file], ctx.force)?;
            import_into_bfres(ctx, &input.data, file, texture, images)?
        }
        id => {
            return Err(CliError::file(
                file,
                format!(
                    "{id} has no textures to import into (import takes BNTX files, and BFRES files with an \
                     embedded BNTX)"
                ),
            ))
        }
    };
    let bytes = match input.compression {
        binspec_runtime::compress::Compression::None => bytes,
        c => files::compress_output(bytes, Some(c), input.yaz0_alignment)?,
    };
    files::write_output(ctx.out, output, &bytes)?;
    let _ = writeln!(
        ctx.err,
        "{} the texture {texture:?}; wrote {}",
        if like.is_some() { "added" } else { "replaced" },
        files::output_name(output)
    );
    Ok(())
}

/// Adds `texture` to `m`, made like its texture `like`, from the images (one per layer; not DDS).
fn add_texture(
    ctx: &mut Ctx<'_>,
    m: &mut Bntx,
    file: &Path,
    texture: &str,
    like: &str,
    images: &[PathBuf],
) -> Result<(), CliError> {
    if images.iter().any(|p| is_dds(p)) {
        return Err(CliError::Usage(
            "--like adds a texture from images (PNG or others the image crate reads), not from a DDS file".into(),
        ));
    }
    let layers = load_images(ctx, images)?;
    m.add_texture(texture, like, &layers)
        .map_err(|e| CliError::file(file, e))
}

/// Whether `p` names a DDS file (by its extension).
fn is_dds(p: &Path) -> bool {
    p.extension().is_some_and(|e| e.eq_ignore_ascii_case("dds"))
}

/// The images, as RGBA8, one per array layer.
fn load_images(ctx: &mut Ctx<'_>, images: &[PathBuf]) -> Result<Vec<image::RgbaImage>, CliError> {
    let mut layers = Vec::with_capacity(images.len());
    for p in images {
        let bytes = files::load_limited(p, ctx.limits)?.data;
        let img = image::load_from_memory(&bytes)
            .map_err(|e| CliError::file(p, format!("cannot read the image: {e}")))?;
        layers.push(img.to_rgba8());
    }
    Ok(layers)
}

/// The BFRES with `texture` replaced in the first embedded BNTX that has it: the BNTX written again must keep its
/// length (BFRES's offsets are kept as read: an image of the texture's size), and becomes the embedded file's
/// bytes.
fn import_into_bfres(
    ctx: &mut Ctx<'_>,
    data: &[u8],
    file: &Path,
    texture: &str,
    images: &[PathBuf],
) -> Result<Vec<u8>, CliError> {
    let mut m =
        binspec_formats::bfres::Bfres::from_binary(data).map_err(|e| CliError::file(file, e))?;
    let mut found = None;
    let mut all = Vec::new();
    for (name, e) in m.embedded_files() {
        if let Ok(b) = Bntx::from_binary(&e.data) {
            all.extend(b.textures().map(|t| t.name().to_string()));
            if found.is_none() && b.texture(texture).is_some() {
                found = Some((name, b));
            }
        }
    }
    let Some((name, mut b)) = found else {
        return Err(CliError::file(
            file,
            format!(
                "no embedded BNTX has a texture named {texture:?} (they have {})",
                all.join(", ")
            ),
        ));
    };
    replace_texture(ctx, &mut b, file, texture, images)?;
    let bytes = b.to_binary().map_err(|e| CliError::file(file, e))?;
    let entry = m
        .embedded_file_mut(&name)
        .ok_or_else(|| CliError::file(file, format!("no embedded file named {name:?}")))?;
    entry.data = bytes.into();
    m.to_binary().map_err(|e| CliError::file(file, e))
}

/// Replaces `texture` of `m` from `images`: PNGs (any image the `image` crate reads), one per array layer, or
/// one DDS file.
fn replace_texture(
    ctx: &mut Ctx<'_>,
    m: &mut Bntx,
    file: &Path,
    texture: &str,
    images: &[PathBuf],
) -> Result<(), CliError> {
    let names: Vec<String> = m.textures().map(|t| t.name().to_string()).collect();
    let t = m.texture_mut(texture).ok_or_else(|| {
        CliError::file(
            file,
            format!("no texture named {texture:?} (it has {})", names.join(", ")),
        )
    })?;
    if images.iter().any(|p| is_dds(p)) {
        if images.len() != 1 {
            return Err(CliError::Usage(
                "a DDS file holds every layer: give it alone".into(),
            ));
        }
        let bytes = files::load_limited(&images[0], ctx.limits)?.data;
        t.replace_from_dds(&bytes)
            .map_err(|e| CliError::file(&images[0], e))?;
    } else {
        let layers = load_images(ctx, images)?;
        t.replace_images(&layers)
            .map_err(|e| CliError::file(file, e))?;
    }
    Ok(())
}
