//! BNTX textures as images: each texture's data deswizzled (the Tegra X1's block-linear layout, by
//! `tegra_swizzle`), decoded to RGBA8 (BCn and uncompressed formats by `image_dds`, ASTC by `astc-decode`) and
//! encoded back from RGBA8 images or a DDS surface.
//!
//! Written by hand: it converts a texture's pixels, and lays out no byte of the file (the generated writer of
//! [`crate::bntx`] does). Replacing a texture's pixels keeps its format, size, mip count and layers; a texture
//! of other dimensions needs a writer that derives the file's layout, which BNTX's does not do yet, so it is
//! refused with a message that says so.
//!
//! ```no_run
//! use binspec_formats::prelude::*;
//! use binspec_formats::bntx::Bntx;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut bntx = Bntx::from_binary(&std::fs::read("HomeBed.bntx")?)?;
//! for t in bntx.textures() {
//!     for img in t.images()? {
//!         img.image.save(format!("{}.layer{}.mip{}.png", t.name(), img.layer, img.mip))?;
//!     }
//! }
//! let png = image::open("alb.png")?.to_rgba8();
//! bntx.texture_mut("alb").ok_or("no such texture")?.replace_images(&[png])?;
//! std::fs::write("HomeBed.bntx", bntx.to_binary()?)?;
//! # Ok(()) }
//! ```

use binspec_runtime::{Error, Result};
use image_dds::{ImageFormat as DdsFormat, Mipmaps, Quality, Surface, SurfaceRgba8};
use std::num::NonZeroU32;
use tegra_swizzle::surface::BlockDim;
use tegra_swizzle::BlockHeight;

use crate::bntx::{Bntx, ImageFormat, TextureInfo, TileMode};

/// The `image` crate that [`TextureImage`] and [`TextureInfo::replace_images`] use (for reading and writing PNG).
pub use image;

/// Largest width, height or depth of a texture (the Tegra X1's limit is 16384); larger ones are refused before
/// anything is allocated for them.
pub const MAX_DIMENSION: u32 = 1 << 15;
/// Largest number of array layers.
pub const MAX_LAYERS: u32 = 2048;

/// One level of one layer of a texture, decoded.
#[derive(Debug, Clone)]
pub struct TextureImage {
    /// The array layer (or cube face).
    pub layer: u32,
    /// The mip level (0 is the full size).
    pub mip: u32,
    /// The pixels, as stored (the texture's channel sources are not applied).
    pub image: image::RgbaImage,
}

/// How a texture format is stored and which codec handles it.
#[derive(Debug, Clone, Copy)]
enum Codec {
    /// BCn and uncompressed formats: decoded and encoded by `image_dds`.
    Dds(DdsFormat),
    /// ASTC: decoded by `astc-decode`, with no encoder.
    Astc,
}

/// The codec of a format, its block's width and height in pixels and its bytes per block (per pixel for
/// uncompressed formats), or `None` for a format with no codec here.
fn codec(f: ImageFormat) -> Option<(Codec, (u32, u32, u32))> {
    use ImageFormat as F;
    let dds = |d, w, h, bytes| Some((Codec::Dds(d), (w, h, bytes)));
    match f {
        F::R8Unorm => dds(DdsFormat::R8Unorm, 1, 1, 1),
        F::R8Snorm => dds(DdsFormat::R8Snorm, 1, 1, 1),
        F::R8g8Unorm => dds(DdsFormat::Rg8Unorm, 1, 1, 2),
        F::R8g8Snorm => dds(DdsFormat::Rg8Snorm, 1, 1, 2),
        F::R8g8b8a8Unorm => dds(DdsFormat::Rgba8Unorm, 1, 1, 4),
        F::R8g8b8a8Snorm => dds(DdsFormat::Rgba8Snorm, 1, 1, 4),
        F::R8g8b8a8Srgb => dds(DdsFormat::Rgba8UnormSrgb, 1, 1, 4),
        F::B8g8r8a8Unorm => dds(DdsFormat::Bgra8Unorm, 1, 1, 4),
        F::B8g8r8a8Srgb => dds(DdsFormat::Bgra8UnormSrgb, 1, 1, 4),
        F::R16Unorm => dds(DdsFormat::R16Unorm, 1, 1, 2),
        F::R16Snorm => dds(DdsFormat::R16Snorm, 1, 1, 2),
        F::R16Float => dds(DdsFormat::R16Float, 1, 1, 2),
        F::R16g16Unorm => dds(DdsFormat::Rg16Unorm, 1, 1, 4),
        F::R16g16Snorm => dds(DdsFormat::Rg16Snorm, 1, 1, 4),
        F::R16g16Float => dds(DdsFormat::Rg16Float, 1, 1, 4),
        F::R16g16b16a16Unorm => dds(DdsFormat::Rgba16Unorm, 1, 1, 8),
        F::R16g16b16a16Snorm => dds(DdsFormat::Rgba16Snorm, 1, 1, 8),
        F::R16g16b16a16Float => dds(DdsFormat::Rgba16Float, 1, 1, 8),
        F::R32Float => dds(DdsFormat::R32Float, 1, 1, 4),
        F::R32g32Float => dds(DdsFormat::Rg32Float, 1, 1, 8),
        F::R32g32b32Float => dds(DdsFormat::Rgb32Float, 1, 1, 12),
        F::R32g32b32a32Float => dds(DdsFormat::Rgba32Float, 1, 1, 16),
        F::Bc1Unorm => dds(DdsFormat::BC1RgbaUnorm, 4, 4, 8),
        F::Bc1Srgb => dds(DdsFormat::BC1RgbaUnormSrgb, 4, 4, 8),
        F::Bc2Unorm => dds(DdsFormat::BC2RgbaUnorm, 4, 4, 16),
        F::Bc2Srgb => dds(DdsFormat::BC2RgbaUnormSrgb, 4, 4, 16),
        F::Bc3Unorm => dds(DdsFormat::BC3RgbaUnorm, 4, 4, 16),
        F::Bc3Srgb => dds(DdsFormat::BC3RgbaUnormSrgb, 4, 4, 16),
        F::Bc4Unorm => dds(DdsFormat::BC4RUnorm, 4, 4, 8),
        F::Bc4Snorm => dds(DdsFormat::BC4RSnorm, 4, 4, 8),
        F::Bc5Unorm => dds(DdsFormat::BC5RgUnorm, 4, 4, 16),
        F::Bc5Snorm => dds(DdsFormat::BC5RgSnorm, 4, 4, 16),
        F::Bc7uUnorm => dds(DdsFormat::BC7RgbaUnorm, 4, 4, 16),
        F::Bc7uSrgb => dds(DdsFormat::BC7RgbaUnormSrgb, 4, 4, 16),
        _ => astc_block(f).map(|(w, h)| (Codec::Astc, (w, h, 16))),
    }
}

/// The block size of an ASTC format: the format's channel part (its value's upper byte) names it.
fn astc_block(f: ImageFormat) -> Option<(u32, u32)> {
    let blocks = [
        (4, 4),
        (5, 4),
        (5, 5),
        (6, 5),
        (6, 6),
        (8, 5),
        (8, 6),
        (8, 8),
        (10, 5),
        (10, 6),
        (10, 8),
        (10, 10),
        (12, 10),
        (12, 12),
    ];
    let channel = (f.value() >> 8) as usize;
    let ty = f.value() & 0xff;
    (matches!(ty, 1 | 6) && (0x2d..0x2d + blocks.len()).contains(&channel))
        .then(|| blocks[channel - 0x2d])
}

/// What a texture's pixels need: its dimensions, levels, layers and codec.
#[derive(Debug, Clone, Copy)]
struct Shape {
    width: u32,
    height: u32,
    depth: u32,
    layers: u32,
    mips: u32,
    codec: Codec,
    block: (u32, u32, u32),
}

impl Shape {
    fn block_dim(&self) -> BlockDim {
        let nz = |v: u32| NonZeroU32::new(v.max(1)).unwrap_or(NonZeroU32::MIN);
        BlockDim {
            width: nz(self.block.0),
            height: nz(self.block.1),
            depth: nz(1),
        }
    }
    /// The packed levels `data` (in `format`, this shape's codec's) as `image_dds` takes them.
    fn surface<'a>(&self, format: DdsFormat, data: &'a [u8]) -> Surface<&'a [u8]> {
        Surface {
            width: self.width,
            height: self.height,
            depth: self.depth,
            layers: self.layers,
            mipmaps: self.mips,
            image_format: format,
            data,
        }
    }
    /// Bytes of every level of every layer, packed (what `image_dds` and a DDS file hold).
    fn linear_size(&self) -> usize {
        tegra_swizzle::surface::deswizzled_surface_size(
            self.width,
            self.height,
            self.depth,
            self.block_dim(),
            self.block.2,
            self.mips,
            self.layers,
        )
    }
}

/// A format as messages name it: the schema's name and the value (`r5g6b5_unorm (0x0701)`).
fn format_name(f: ImageFormat) -> String {
    format!("{} ({:#06x})", f.name().unwrap_or("unnamed"), f.value())
}

fn err(t: &TextureInfo, what: impl std::fmt::Display) -> Error {
    Error::other(format!("texture {:?}: {what}", t.name()))
}

impl Bntx {
    /// The textures, in the file's order.
    pub fn textures(&self) -> impl Iterator<Item = &TextureInfo> {
        self.container.textures.iter().map(|r| &r.texture)
    }
    /// The texture with this name.
    pub fn texture(&self, name: &str) -> Option<&TextureInfo> {
        self.textures().find(|t| t.name() == name)
    }
    /// The texture with this name, to change its pixels.
    pub fn texture_mut(&mut self, name: &str) -> Option<&mut TextureInfo> {
        self.container
            .textures
            .iter_mut()
            .map(|r| &mut r.texture)
            .find(|t| t.name() == name)
    }
    /// Renames the texture `old` to `new`: its name and its key in the textures' dictionary, the two places the
    /// file names it (the writer derives the dictionary's tree, the pointers into the string pool and where
    /// everything after the longer or shorter string goes). The string pool keeps the strings the file held, the
    /// old name among them, and adds the new one after them, as for any name the file did not hold.
    ///
    /// # Errors
    /// No texture is named `old`, another is named `new` already (the dictionary could not tell the two apart), or
    /// the dictionary has no key `old` for it.
    pub fn rename_texture(&mut self, old: &str, new: &str) -> Result<()> {
        self.index_of(old)?;
        if old == new {
            return Ok(());
        }
        self.free(new)?;
        let at = self.key_of(old)?;
        // (Both are there: nothing is changed before both are found.)
        if let Some(k) = self.container.dictionary.nodes[at].key.as_mut() {
            k.data = new.into();
        }
        if let Some(t) = self.texture_mut(old) {
            t.name.data = new.into();
        }
        Ok(())
    }

    /// Where the texture `name` is in the container's array; an error where none is named so.
    fn index_of(&self, name: &str) -> Result<usize> {
        self.textures()
            .position(|t| t.name() == name)
            .ok_or_else(|| Error::other(format!("no texture is named {name:?}")))
    }

    /// An error where a texture is named `name` already.
    fn free(&self, name: &str) -> Result<()> {
        match self.texture(name) {
            None => Ok(()),
            Some(_) => Err(Error::other(format!(
                "a texture is named {name:?} already: the dictionary could not tell the two apart"
            ))),
        }
    }

    /// Where the textures' dictionary has the key `name` (a node's index; the root, node 0, has none).
    fn key_of(&self, name: &str) -> Result<usize> {
        (self.container.dictionary.nodes.iter().enumerate().skip(1))
            .find(|(_, n)| n.key.as_ref().is_some_and(|k| k.data == name))
            .map(|(i, _)| i)
            .ok_or_else(|| Error::other(format!("the textures' dictionary has no key {name:?}")))
    }

    /// Adds a texture named `name` from `layers` (one image per array layer, all of one size, any size for a 2D
    /// texture), made like the texture `like`: its format, tile mode, channel sources, layer count and mip level
    /// count (as many as the size has, at most `like`'s), encoded and swizzled as [`TextureInfo::replace_images`]
    /// does. It goes after the other textures, with a key in the textures' dictionary; the writer derives the
    /// rest: its `BRTI` block, its name in the string pool, its data's place in the GPU region, the pointers,
    /// the dictionary's tree and the relocation table.
    ///
    /// # Errors
    /// A texture is named `name` already, none is named `like` (or the dictionary has no key for it), or its
    /// format has no encoder here; the model is then unchanged.
    pub fn add_texture(
        &mut self,
        name: &str,
        like: &str,
        layers: &[image::RgbaImage],
    ) -> Result<()> {
        self.free(name)?;
        let mut r = self.container.textures[self.index_of(like)?].clone();
        let mut node = self.container.dictionary.nodes[self.key_of(like)?].clone();
        // Where `like` is in the file says nothing of where the new one goes: the writer's defaults place it.
        r.texture_align = None;
        r.texture_gap = None;
        let t = &mut r.texture;
        t.name.data = name.into();
        t.name.padding_filler = None;
        (t.data_align, t.data_gap, t.mip_ptrs_align, t.mip_ptrs_gap) = (None, None, None, None);
        (t.texture_area_align, t.texture_area_gap) = (None, None);
        (t.view_area_align, t.view_area_gap, t.tail_order) = (None, None, None);
        t.replace_images(layers)?;
        if let Some(k) = node.key.as_mut() {
            k.data = name.into();
            k.padding_filler = None;
        }
        (node.ref_bit, node.left, node.right, node.string_key) = (None, None, None, None);
        self.container.textures.push(r);
        self.container.dictionary.nodes.push(node);
        Ok(())
    }

    /// What does not agree between the textures' names and the keys of the textures' dictionary, which a game
    /// finds them by (its node `i + 1` is texture `i`'s): one line each, empty where they agree. A document edited
    /// by hand can rename a texture and not its key ([`Bntx::rename_texture`] renames both).
    pub fn name_mismatches(&self) -> Vec<String> {
        let keys: Vec<Option<&str>> = (self.container.dictionary.nodes.iter().skip(1))
            .map(|n| n.key.as_ref().map(|k| &*k.data))
            .collect();
        let mut out = Vec::new();
        for (i, t) in self.textures().enumerate() {
            match keys.get(i) {
                Some(Some(k)) if *k == t.name() => {}
                Some(Some(k)) => out.push(format!(
                    "texture {i} is named {:?} and the dictionary's key {i} is {k:?}",
                    t.name()
                )),
                _ => out.push(format!(
                    "texture {i} ({:?}) has no key in the dictionary",
                    t.name()
                )),
            }
        }
        if keys.len() > self.container.textures.len() {
            out.push(format!(
                "the dictionary has {} keys for {} textures",
                keys.len(),
                self.container.textures.len()
            ));
        }
        out
    }

    /// Removes the texture `name`: its entry in the container's array and its key in the textures' dictionary
    /// (the writer derives the rest: the GPU region closes up, and the pointers, the dictionary's tree and the
    /// relocation table follow). The string pool keeps the strings the file held, the name among them.
    ///
    /// # Errors
    /// No texture is named `name`; the model is then unchanged.
    pub fn remove_texture(&mut self, name: &str) -> Result<()> {
        self.index_of(name)?;
        self.container.textures.retain(|t| t.texture.name() != name);
        self.container
            .dictionary
            .nodes
            .retain(|n| n.key.as_ref().is_none_or(|k| k.data != name));
        Ok(())
    }
}

impl TextureInfo {
    /// The texture's name.
    pub fn name(&self) -> &str {
        &self.name.data
    }

    /// How many mip levels it has: one pointer each (the texture info's count is derived from them).
    pub fn mip_levels(&self) -> u32 {
        u32::try_from(self.mip_ptrs.len()).unwrap_or(u32::MAX)
    }

    fn shape(&self) -> Result<Shape> {
        let i = &self.info;
        let (codec, block) = codec(i.image_format).ok_or_else(|| {
            err(
                self,
                format!(
                    "no codec here for its format {}",
                    format_name(i.image_format)
                ),
            )
        })?;
        let (depth, layers, mips) = (i.depth.max(1), i.array_layers.max(1), self.mip_levels());
        for (what, v, max) in [
            ("width", i.width, MAX_DIMENSION),
            ("height", i.height, MAX_DIMENSION),
            ("depth", depth, MAX_DIMENSION),
            ("array layers", layers, MAX_LAYERS),
            ("mip levels", mips, 17),
        ] {
            if v == 0 || v > max {
                return Err(err(
                    self,
                    format!("its {what} is {v} (1 to {max} are read)"),
                ));
            }
        }
        Ok(Shape {
            width: i.width,
            height: i.height,
            depth,
            layers,
            mips,
            codec,
            block,
        })
    }

    /// The block height of its first level (log2 of it in GOBs is the low 3 bits of `packaged_texture_layout`).
    fn block_height(&self) -> Result<BlockHeight> {
        let log2 = self.info.packaged_texture_layout & 7;
        BlockHeight::new(1 << log2).ok_or_else(|| {
            err(
                self,
                format!("its block height is 2^{log2} GOBs (at most 2^5 are read)"),
            )
        })
    }

    /// Every level of every layer, deswizzled and packed (layer 0's levels, then layer 1's, ...), in the
    /// texture's format: a DDS file's data.
    pub fn linear_data(&self) -> Result<Vec<u8>> {
        let s = self.shape()?;
        match self.info.tile_mode {
            TileMode::Optimal => {
                let bh = self.block_height()?;
                let need = tegra_swizzle::surface::swizzled_surface_size(
                    s.width,
                    s.height,
                    s.depth,
                    s.block_dim(),
                    Some(bh),
                    s.block.2,
                    s.mips,
                    s.layers,
                );
                if need > self.data.len() {
                    return Err(err(
                        self,
                        format!(
                            "its levels take {need} bytes and its data is {} bytes",
                            self.data.len()
                        ),
                    ));
                }
                tegra_swizzle::surface::deswizzle_surface(
                    s.width,
                    s.height,
                    s.depth,
                    &self.data,
                    s.block_dim(),
                    Some(bh),
                    s.block.2,
                    s.mips,
                    s.layers,
                )
                .map_err(|e| err(self, format!("cannot deswizzle it: {e:?}")))
            }
            TileMode::Linear => {
                let need = s.linear_size();
                self.data.get(..need).map(<[u8]>::to_vec).ok_or_else(|| {
                    err(
                        self,
                        format!(
                            "its levels take {need} bytes and its data is {} bytes",
                            self.data.len()
                        ),
                    )
                })
            }
            TileMode::Unknown(v) => Err(err(self, format!("unknown tile mode {v}"))),
        }
    }

    /// Every level of every layer, decoded to RGBA8 (layer 0's levels first).
    pub fn images(&self) -> Result<Vec<TextureImage>> {
        let s = self.shape()?;
        let data = self.linear_data()?;
        let mut out = Vec::with_capacity((s.layers * s.mips) as usize);
        match s.codec {
            // Level by level: each level's pixels are decoded into the buffer its image keeps (the whole surface
            // decoded at once, then each level copied out of it, took a second buffer and a copy of every pixel).
            Codec::Dds(format) if s.depth == 1 => {
                let src = s.surface(format, &data);
                for layer in 0..s.layers {
                    for mip in 0..s.mips {
                        let missing =
                            || err(self, format!("no layer {layer} level {mip} in its data"));
                        let level = src.get(layer, 0, mip).ok_or_else(missing)?;
                        let (w, h) = ((s.width >> mip).max(1), (s.height >> mip).max(1));
                        let one = Surface {
                            width: w,
                            height: h,
                            depth: 1,
                            layers: 1,
                            mipmaps: 1,
                            image_format: format,
                            data: level,
                        };
                        let rgba = one.decode_rgba8().map_err(|e| {
                            err(
                                self,
                                format!("cannot decode layer {layer} level {mip}: {e}"),
                            )
                        })?;
                        let image =
                            image::RgbaImage::from_raw(w, h, rgba.data).ok_or_else(missing)?;
                        out.push(TextureImage { layer, mip, image });
                    }
                }
            }
            Codec::Dds(format) => {
                let rgba = s
                    .surface(format, &data)
                    .decode_rgba8()
                    .map_err(|e| err(self, format!("cannot decode it: {e}")))?;
                for layer in 0..s.layers {
                    for mip in 0..s.mips {
                        let image = rgba.get_image(layer, 0, mip).ok_or_else(|| {
                            err(self, format!("no layer {layer} level {mip} after decoding"))
                        })?;
                        out.push(TextureImage { layer, mip, image });
                    }
                }
            }
            Codec::Astc => {
                let (bw, bh) = (s.block.0, s.block.1);
                let footprint = astc_decode::Footprint::new(bw, bh);
                let mut rest = &data[..];
                for layer in 0..s.layers {
                    for mip in 0..s.mips {
                        let (w, h) = ((s.width >> mip).max(1), (s.height >> mip).max(1));
                        let blocks =
                            (w.div_ceil(bw) * h.div_ceil(bh)) as usize * 16 * s.depth as usize;
                        let (level, after) = rest.split_at(blocks.min(rest.len()));
                        rest = after;
                        let mut image = image::RgbaImage::new(w, h);
                        astc_decode::astc_decode(level, w, h, footprint, |x, y, c| {
                            if x < w && y < h {
                                image.put_pixel(x, y, image::Rgba(c));
                            }
                        })
                        .map_err(|e| {
                            err(
                                self,
                                format!("cannot decode layer {layer} level {mip}: {e}"),
                            )
                        })?;
                        out.push(TextureImage { layer, mip, image });
                    }
                }
            }
        }
        Ok(out)
    }

    /// Replaces the texture's pixels with these images, one per array layer, each the texture's size: encoded to
    /// its format, its mip levels generated from them, and swizzled as its data was.
    pub fn replace_images(&mut self, layers: &[image::RgbaImage]) -> Result<()> {
        let s = self.shape()?;
        if layers.len() != s.layers as usize {
            return Err(err(
                self,
                format!(
                    "it has {} layers and {} images were given",
                    s.layers,
                    layers.len()
                ),
            ));
        }
        // A texture of another size takes the images' (a 2D one; every image the same size).
        let size = layers.first().map(|l| l.dimensions());
        if let Some((w, h)) = size.filter(|&d| d != (s.width, s.height)) {
            if s.depth != 1 {
                return Err(err(
                    self,
                    format!("it is 3D ({} deep): it keeps its size", s.depth),
                ));
            }
            self.resize(w, h)?;
            return self.replace_images(layers);
        }
        let mut rgba = Vec::with_capacity(layers.len() * (s.width * s.height * 4) as usize);
        for (i, l) in layers.iter().enumerate() {
            if l.dimensions() != (s.width, s.height) || s.depth != 1 {
                return Err(err(
                    self,
                    format!(
                        "image {i} is {}x{} and the texture is {}x{}x{}: every layer's image has one size",
                        l.width(),
                        l.height(),
                        s.width,
                        s.height,
                        s.depth
                    ),
                ));
            }
            rgba.extend_from_slice(l.as_raw());
        }
        let Codec::Dds(format) = s.codec else {
            return Err(err(
                self,
                format!(
                    "no encoder here for its format {}",
                    format_name(self.info.image_format)
                ),
            ));
        };
        let surface = SurfaceRgba8 {
            width: s.width,
            height: s.height,
            depth: 1,
            layers: s.layers,
            mipmaps: 1,
            data: &rgba[..],
        }
        .encode(format, Quality::Normal, Mipmaps::GeneratedExact(s.mips))
        .map_err(|e| err(self, format!("cannot encode it: {e}")))?;
        self.replace_linear_data(&surface.data)
    }

    /// Replaces the texture's pixels with packed levels in its format (what [`TextureInfo::linear_data`] gives,
    /// a DDS file's data), swizzled as its data was.
    pub fn replace_linear_data(&mut self, linear: &[u8]) -> Result<()> {
        let s = self.shape()?;
        if linear.len() != s.linear_size() {
            return Err(err(
                self,
                format!(
                    "its levels take {} bytes packed and {} were given",
                    s.linear_size(),
                    linear.len()
                ),
            ));
        }
        let mut data = match self.info.tile_mode {
            TileMode::Optimal => tegra_swizzle::surface::swizzle_surface(
                s.width,
                s.height,
                s.depth,
                linear,
                s.block_dim(),
                Some(self.block_height()?),
                s.block.2,
                s.mips,
                s.layers,
            )
            .map_err(|e| err(self, format!("cannot swizzle it: {e:?}")))?,
            TileMode::Linear => linear.to_vec(),
            TileMode::Unknown(v) => return Err(err(self, format!("unknown tile mode {v}"))),
        };
        if data.len() > self.data.len() {
            return Err(err(
                self,
                format!(
                    "its swizzled levels take {} bytes and its data is {} bytes",
                    data.len(),
                    self.data.len()
                ),
            ));
        }
        // Bytes after the levels (alignment of the last one) stay as they were.
        data.extend_from_slice(&self.data[data.len()..]);
        self.data = data.into();
        Ok(())
    }

    /// The texture as a DDS file: its levels and layers deswizzled, in its format (nothing is encoded again).
    /// ASTC formats, which DDS files do not hold here, are an error.
    pub fn to_dds(&self) -> Result<Vec<u8>> {
        let s = self.shape()?;
        let Codec::Dds(format) = s.codec else {
            return Err(err(
                self,
                format!(
                    "its format {} has no DDS form here",
                    format_name(self.info.image_format)
                ),
            ));
        };
        let data = self.linear_data()?;
        let dds = s
            .surface(format, &data)
            .to_dds()
            .map_err(|e| err(self, format!("cannot make a DDS of it: {e}")))?;
        let mut out = Vec::with_capacity(data.len() + 148);
        dds.write(&mut out)
            .map_err(|e| err(self, format!("cannot write its DDS: {e}")))?;
        Ok(out)
    }

    /// Gives the texture another 2D size (`width` x `height` pixels): as many mip levels as before, or as many as
    /// the size has; the block height of its first level and where each level starts in its data, as the Tegra
    /// X1's block-linear layout (or, linear, packed levels) puts them; its data zeros of the new length, for
    /// [`TextureInfo::replace_images`] to fill. (The writer derives the rest: the mip level pointers, the data's
    /// place in the GPU region, and what follows it.)
    pub fn resize(&mut self, width: u32, height: u32) -> Result<()> {
        let before = self.shape()?;
        if before.depth != 1 {
            return Err(err(self, "a 3D texture keeps its size"));
        }
        for (what, v) in [("width", width), ("height", height)] {
            if v == 0 || v > MAX_DIMENSION {
                return Err(err(
                    self,
                    format!("a {what} of {v} (1 to {MAX_DIMENSION} are read)"),
                ));
            }
        }
        let most = 32 - width.max(height).leading_zeros();
        let mips = before.mips.min(most);
        let s = Shape {
            width,
            height,
            mips,
            ..before
        };
        let rows = height.div_ceil(s.block.1.max(1));
        let bh = tegra_swizzle::block_height_mip0(rows);
        let level_end = |k: u32| -> usize {
            match self.info.tile_mode {
                TileMode::Linear => tegra_swizzle::surface::deswizzled_surface_size(
                    width,
                    height,
                    1,
                    s.block_dim(),
                    s.block.2,
                    k,
                    1,
                ),
                _ => tegra_swizzle::surface::swizzled_surface_size(
                    width,
                    height,
                    1,
                    s.block_dim(),
                    Some(bh),
                    s.block.2,
                    k,
                    1,
                ),
            }
        };
        let total = match self.info.tile_mode {
            TileMode::Linear => s.linear_size(),
            TileMode::Optimal => tegra_swizzle::surface::swizzled_surface_size(
                width,
                height,
                1,
                s.block_dim(),
                Some(bh),
                s.block.2,
                mips,
                s.layers,
            ),
            TileMode::Unknown(v) => return Err(err(self, format!("unknown tile mode {v}"))),
        };
        let mut offsets = Vec::with_capacity(mips as usize);
        for k in 0..mips {
            let at = u32::try_from(level_end(k))
                .map_err(|_| err(self, "its levels would take more than 4 GiB"))?;
            offsets.push(at);
        }
        self.mip_ptrs = offsets
            .into_iter()
            .map(|offset| crate::bntx::MipLevelPtr { ptr: None, offset })
            .collect();
        self.info.width = width;
        self.info.height = height;
        // (The low 3 bits: log2 of the first level's block height in GOBs.)
        let log2 = (bh as u32).trailing_zeros();
        self.info.packaged_texture_layout = (self.info.packaged_texture_layout & !7) | log2;
        self.data = vec![0u8; total].into();
        Ok(())
    }

    /// Replaces the texture's pixels with a DDS file's: as they are where the DDS has the texture's format,
    /// size, levels and layers (nothing is encoded again); else the DDS's first level of each layer is decoded
    /// and encoded to the texture's format ([`TextureInfo::replace_images`]).
    pub fn replace_from_dds(&mut self, dds: &[u8]) -> Result<()> {
        let s = self.shape()?;
        let dds = image_dds::ddsfile::Dds::read(dds)
            .map_err(|e| err(self, format!("cannot read the DDS file: {e}")))?;
        let surface = Surface::from_dds(&dds)
            .map_err(|e| err(self, format!("cannot read the DDS file: {e}")))?;
        if (surface.depth.max(1), surface.layers.max(1)) != (s.depth, s.layers) {
            return Err(err(
                self,
                format!(
                    "the DDS is {}x{}x{} with {} layers and the texture is {}x{}x{} with {}: a texture keeps its \
                     depth and its layer count",
                    surface.width,
                    surface.height,
                    surface.depth,
                    surface.layers,
                    s.width,
                    s.height,
                    s.depth,
                    s.layers
                ),
            ));
        }
        // A DDS of another 2D size gives the texture its size.
        if (surface.width, surface.height) != (s.width, s.height) {
            self.resize(surface.width, surface.height)?;
        }
        let s = self.shape()?;
        if matches!(s.codec, Codec::Dds(f) if f == surface.image_format)
            && surface.mipmaps == s.mips
        {
            return self.replace_linear_data(surface.data);
        }
        let rgba = surface
            .decode_rgba8()
            .map_err(|e| err(self, format!("cannot decode the DDS file: {e}")))?;
        let layers = (0..s.layers)
            .map(|l| {
                rgba.get_image(l, 0, 0)
                    .ok_or_else(|| err(self, format!("the DDS file has no layer {l}")))
            })
            .collect::<Result<Vec<_>>>()?;
        self.replace_images(&layers)
    }
}
