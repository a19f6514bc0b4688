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
            "--step must be a positive finite number, not {}",
            show(step)
        )));
    }
    let input = files::load_limited(path, ctx.limits)?;
    let clip = Clip::from_binary(&input.data).map_err(|e| CliError::file(path, e))?;
    let sample = clip.sampler(track).map_err(|e| CliError::file(path, e))?;
    let (t, _) = clip.track(track).map_err(|e| CliError::file(path, e))?;
    let first = t.keys.first().map_or(0.0, |k| k.frame as f64);
    let last = clip.settings().total_frames.saturating_sub(1) as f64;
    let frames = frames(from.unwrap_or(first.min(last)), to.unwrap_or(last), step)?;
    for frame in frames {
        let text = match sample(frame) {
            Some(v) => v.to_string(),
            None => "open".to_string(),
        };
        let f = binspec_formats::panim_perro::syntax::fmt_number(frame);
        writeln!(ctx.out, "{f}\t{text}").map_err(CliError::out)?;
    }
    Ok(())
}

/// The most frames `track` prints.
const MAX_FRAMES: u64 = 1_000_000;

/// The frames `from`, `from + step`, ... up to `to`: at least one, at most [`MAX_FRAMES`], each greater than the
/// one before. A range that would give none, too many (or a count that overflows), or frames that do not advance
/// (a step below the precision of numbers that large) is refused, naming the option.
fn frames(from: f64, to: f64, step: f64) -> Result<impl Iterator<Item = f64>, CliError> {
    let usage = |m: String| Err(CliError::Usage(m));
    if !from.is_finite() {
        return usage(format!("--from must be a finite frame number, not {from}"));
    }
    if !to.is_finite() {
        return usage(format!("--to must be a finite frame number, not {to}"));
    }
    if to < from {
        return usage(format!(
            "--to ({}) must not be less than --from ({})",
            show(to),
            show(from)
        ));
    }
    let range = format!(
        "--from {} --to {} --step {}",
        show(from),
        show(to),
        show(step)
    );
    let span = to - from;
    if !span.is_finite() {
        return usage(format!(
            "{range}: --from and --to are too far apart (their difference is not a finite number)"
        ));
    }
    // Whole steps within the range (infinite for a tiny --step: span and step are finite, so never NaN).
    let steps = (span / step).floor();
    if !steps.is_finite() || steps >= MAX_FRAMES as f64 {
        return usage(format!(
            "{range} asks for {} frames, more than the {MAX_FRAMES} `track` prints: raise --step or narrow \
             --from/--to",
            count_text(steps + 1.0)
        ));
    }
    let mut count = steps as u64 + 1;
    // Rounding may put the last frame just past --to.
    while count > 1 && from + (count - 1) as f64 * step > to {
        count -= 1;
    }
    let at = move |n: u64| from + n as f64 * step;
    for n in 1..count {
        if at(n) <= at(n - 1) {
            return usage(format!(
                "{range}: --step is too small for frames near {}: adding it does not change the frame number \
                 (raise --step)",
                show(at(n))
            ));
        }
    }
    Ok((0..count).map(at))
}

/// A frame count for a message: exact, or rounded in exponent form when it is large (or infinite).
fn count_text(n: f64) -> String {
    if n < 1e15 {
        show(n)
    } else if n.is_finite() {
        format!("about {n:.1e}")
    } else {
        "more than 1e308".into()
    }
}

/// A number for a message: as the clip syntax writes it, or in exponent form when it is large.
fn show(n: f64) -> String {
    if n.abs() >= 1e15 || (n != 0.0 && n.abs() < 1e-6) {
        format!("{n:e}")
    } else {
        binspec_formats::panim_perro::syntax::fmt_number(n)
    }
}
