//! Helpers on Pluto's `.panim` model ([`PanimPluto`]): the bone count, and per-bone, per-frame translations and
//! scales as floats with the format's defaults and clamping.

use crate::panim_pluto::{
    BoneTrack, PanimPluto, ScalesSection, Tracks, TranslationsSection, Vec3s,
};
use binspec_runtime::{Error, Result};

/// The stored value of scale 1.0 (scales are fixed point, 1024 = 1.0).
pub const SCALE_ONE: i16 = 1024;

/// Rounds and clamps to the s16 range, as the exporter does (`max(-32768, min(32767, round(x)))`); NaN is 0.
fn clamp_s16(x: f64) -> i16 {
    if x.is_nan() {
        0
    } else {
        x.round().clamp(-32768.0, 32767.0) as i16
    }
}

fn get(t: Option<&Tracks>, bone: usize, frame: usize) -> Option<&Vec3s> {
    t?.bones.get(bone)?.frames.as_ref()?.get(frame)
}

/// Sets one frame of one bone's track in `slot` (creating the section as needed), then drops the track if it became
/// all `identity` and the section if no track is left.
fn set(
    slot: &mut Option<Tracks>,
    bones: usize,
    default_frames: u16,
    bone: usize,
    frame: usize,
    v: [i16; 3],
    identity: i16,
) -> Result<()> {
    if bone >= bones {
        return Err(Error::invalid(
            0,
            format!("bone {bone} does not exist: the indices table has {bones} non-root bones"),
        ));
    }
    let t = slot.get_or_insert_with(|| Tracks {
        frame_count: default_frames,
        mask: None,
        bones: Vec::new(),
    });
    if frame >= t.frame_count as usize {
        return Err(Error::invalid(
            0,
            format!("frame {frame} is past the tracks' {} frames", t.frame_count),
        ));
    }
    if t.bones.len() < bones {
        t.bones.resize_with(bones, BoneTrack::default);
    }
    let n = t.frame_count as usize;
    let frames = t.bones[bone].frames.get_or_insert_with(|| {
        vec![
            Vec3s {
                x: identity,
                y: identity,
                z: identity,
            };
            n
        ]
    });
    frames[frame] = Vec3s {
        x: v[0],
        y: v[1],
        z: v[2],
    };
    if frames
        .iter()
        .all(|f| f.x == identity && f.y == identity && f.z == identity)
    {
        t.bones[bone].frames = None;
    }
    if t.bones.iter().all(|b| b.frames.is_none()) {
        *slot = None;
    }
    Ok(())
}

impl PanimPluto {
    /// Number of non-root animatable bones, derived from the indices table as the loader derives it:
    /// `indices / 6 - 1` (each bone has six shorts, the root's first).
    pub fn bone_count(&self) -> usize {
        (self.indices.len() / 6).saturating_sub(1)
    }

    /// Translation of non-root bone `bone` (0 is the first bone after the root) at `frame`, in game units. A bone
    /// without a translation track (or a frame past its track) has the default, (0, 0, 0).
    pub fn translation(&self, bone: usize, frame: usize) -> [f32; 3] {
        match get(self.translations.as_ref().map(|s| &s.tracks), bone, frame) {
            Some(v) => [v.x as f32, v.y as f32, v.z as f32],
            None => [0.0; 3],
        }
    }

    /// Scale of non-root bone `bone` at `frame`: the stored fixed-point value / 1024. A bone without a scale track
    /// (or a frame past its track) has the default, (1.0, 1.0, 1.0).
    pub fn scale(&self, bone: usize, frame: usize) -> [f32; 3] {
        match get(self.scales.as_ref().map(|s| &s.tracks), bone, frame) {
            Some(v) => [
                v.x as f32 / 1024.0,
                v.y as f32 / 1024.0,
                v.z as f32 / 1024.0,
            ],
            None => [1.0; 3],
        }
    }

    /// Sets the translation of `bone` at `frame`, each axis rounded and clamped to [-32768, 32767] as the exporter
    /// does. The translations section and the bone's track are created as needed (a new track is all zeros, as long
    /// as the section's frame count, which for a new section is the animation's `length`); a track that becomes all
    /// zeros is omitted, and the section goes when no track is left, as the page says files are written.
    pub fn set_translation(&mut self, bone: usize, frame: usize, v: [f32; 3]) -> Result<()> {
        let stored = v.map(|x| clamp_s16(x as f64));
        let bones = self.bone_count();
        let mut slot = self.translations.take().map(|s| s.tracks);
        let r = set(&mut slot, bones, self.length, bone, frame, stored, 0);
        self.translations = slot.map(|tracks| TranslationsSection { tracks });
        r
    }

    /// Sets the scale of `bone` at `frame`: stored as `round(scale * 1024)` clamped to [-32768, 32767]. As with
    /// [`PanimPluto::set_translation`], a new track starts at 1.0 everywhere, a track that becomes 1.0 everywhere
    /// is omitted, and so is a section without tracks.
    pub fn set_scale(&mut self, bone: usize, frame: usize, v: [f32; 3]) -> Result<()> {
        let stored = v.map(|x| clamp_s16(x as f64 * 1024.0));
        let bones = self.bone_count();
        let mut slot = self.scales.take().map(|s| s.tracks);
        let r = set(
            &mut slot,
            bones,
            self.length,
            bone,
            frame,
            stored,
            SCALE_ONE,
        );
        self.scales = slot.map(|tracks| ScalesSection { tracks });
        r
    }
}
