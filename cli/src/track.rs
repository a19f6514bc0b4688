//! `binspec track FILE @Object.field [--from A] [--to B] [--step S]`: a Perro clip track's values over frames.

use std::path::Path;

use binspec_formats::panim_perro::Clip;
use binspec_formats::Format;

use crate::{files, CliError, Ctx};

/// Prints one line per frame: the frame, then the value in clip syntax, or `open` where the value comes from
/// the runtime (an open key, or an `@Object.field` reference).
pub fn track(
    ctx: &mut Ctx<'_>,
    path: &Path,
    track: &str,
    from: Option<f64>,
    to: Option<f64>,
    step: f64,
) -> Result<(), CliError> {
    if let Some(id) = &ctx.format {
        if !id.eq_ignore_ascii_case(Clip::ID) {
            return Err(CliError::Usage(format!(
                "`track` reads Perro clips ({}), not {id}",
                Clip::ID
            )));
        }
    }
    if !(step.is_finite() && step > 0.0) {
        return Err(CliError::Usage(format!(
            "--step must be a positive number, not {step}"
        )));
    }
    let input = files::load_limited(path, ctx.limits)?;
    let clip = Clip::from_binary(&input.data).map_err(|e| CliError::file(path, e))?;
    let (t, _) = clip.track(track).map_err(|e| CliError::file(path, e))?;
    let first = t.keys.first().map_or(0.0, |k| k.frame as f64);
    let last = clip.settings().total_frames.saturating_sub(1) as f64;
    let from = from.unwrap_or(first.min(last));
    let to = to.unwrap_or(last);
    if !(from.is_finite() && to.is_finite()) || to < from {
        return Err(CliError::Usage(format!(
            "--to ({to}) must not be less than --from ({from})"
        )));
    }
    let count = ((to - from) / step).floor() as u64 + 1;
    if count > 1_000_000 {
        return Err(CliError::Usage(format!(
            "{count} frames asked for; at most 1000000 (raise --step)"
        )));
    }
    for n in 0..count {
        let frame = from + n as f64 * step;
        let v = clip
            .sample(track, frame)
            .map_err(|e| CliError::file(path, e))?;
        let text = match v {
            Some(v) => v.to_string(),
            None => "open".to_string(),
        };
        let f = binspec_formats::panim_perro::syntax::fmt_number(frame);
        writeln!(ctx.out, "{f}\t{text}").map_err(CliError::out)?;
    }
    Ok(())
}
