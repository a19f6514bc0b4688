//! Textures of texture archives (BNTX): `binspec extract` writes them as PNG (and DDS) files, `binspec import`
//! replaces one from an image or a DDS file. The pixels are converted by `binspec_formats::bntx_api`.

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

/// For a texture archive format (`bntx`): the files `extract` writes; `None` for other formats.
pub fn extract_files(format: &str, data: &[u8], dds: bool) -> Option<Result<TextureFiles, String>> {
    (format == "bntx").then(|| {
        let m = Bntx::from_binary(data).map_err(|e| e.to_string())?;
        let mut out = TextureFiles {
            files: Vec::new(),
            problems: Vec::new(),
        };
        for t in m.textures() {
            match texture_files(t, dds) {
                Ok(files) => out.files.extend(files),
                Err(e) => out.problems.push(e),
            }
        }
        Ok(out)
    })
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

/// `binspec import FILE TEXTURE IMAGE... -o OUT`.
pub fn import(
    ctx: &mut Ctx<'_>,
    file: &Path,
    texture: &str,
    images: &[PathBuf],
    output: &Path,
) -> Result<(), CliError> {
    let (input, f) = load_binary(ctx, file)?;
    if f.id() != "bntx" {
        return Err(CliError::file(
            file,
            format!(
                "{} has no textures to import into (import takes BNTX files)",
                f.id()
            ),
        ));
    }
    files::guard_overwrite(output, &[file], ctx.force)?;
    let mut m = Bntx::from_binary(&input.data).map_err(|e| CliError::file(file, e))?;
    let names: Vec<String> = m.textures().map(|t| t.name().to_string()).collect();
    let t = m.texture_mut(texture).ok_or_else(|| {
        CliError::file(
            file,
            format!("no texture named {texture:?} (it has {})", names.join(", ")),
        )
    })?;
    let is_dds = |p: &Path| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("dds"));
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
        let mut layers = Vec::with_capacity(images.len());
        for p in images {
            let bytes = files::load_limited(p, ctx.limits)?.data;
            let img = image::load_from_memory(&bytes)
                .map_err(|e| CliError::file(p, format!("cannot read the image: {e}")))?;
            layers.push(img.to_rgba8());
        }
        t.replace_images(&layers)
            .map_err(|e| CliError::file(file, e))?;
    }
    let bytes = m.to_binary().map_err(|e| CliError::file(file, e))?;
    let bytes = match input.compression {
        binspec_runtime::compress::Compression::None => bytes,
        c => files::compress_output(bytes, Some(c), input.yaz0_alignment)?,
    };
    files::write_output(ctx.out, output, &bytes)?;
    let _ = writeln!(
        ctx.err,
        "replaced the texture {texture:?}; wrote {}",
        files::output_name(output)
    );
    Ok(())
}
