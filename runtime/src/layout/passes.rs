//! The passes of a write ([`write_passes`]): each writes the whole model with the positions of the one before,
//! until a pass reproduces them; and a record written into a slot of a given size ([`write_sized`]).

use super::*;

/// Runs `write` until positions settle. The first pass only finds positions (its writer is [`Writer::sizing`]).
/// The second writes the bytes: where every field has a fixed size, as in most formats, positions no longer change
/// and it is the output. Where they do change, sizing passes run until a pass reproduces the one before it, and then
/// one more pass writes the bytes; it must reproduce the positions too (it does unless `write` behaves differently
/// when it can see its bytes), and if it does not, passes go on writing bytes until they settle. Items written out
/// of line that record positions inside them (AINB's element parameters and their plugs) do not know in the first
/// pass where they go: those positions move once the item is placed (`Blind`), so that the second pass can still
/// write the bytes (before, it wrote bytes with the wrong positions, and two more passes followed).
pub fn write_passes<'m>(
    write: impl FnMut(&mut Writer, &mut WriteCtx<'m>) -> Result<()>,
) -> Result<Vec<u8>> {
    write_passes_writer(write, false).map(Writer::into_inner)
}

/// Writes a record into its slot of `size` bytes (a field's `size`, not derived), as the generated writers do for
/// every such field: the record (`write`, given the slot as its stream), then the bytes the file had after it
/// (`filler`) where they fill the slot exactly, else padding with `pad`, where the record placed bytes in its own
/// stream (`places`) those placed bytes ([`WriteCtx::pad_slot`]). A size out of range, or a record longer than its
/// slot, is an error once positions settle, at `field` (the record's own errors come with their paths). `bits`:
/// the format has bit fields, so the slot starts and ends on a byte.
#[allow(clippy::too_many_arguments)]
pub fn write_sized<'m>(
    w: &mut Writer,
    ctx: &mut WriteCtx<'m>,
    field: &'static str,
    size: i128,
    filler: Option<&[u8]>,
    pad: u8,
    places: bool,
    bits: bool,
    write: impl FnOnce(&mut Writer, &mut WriteCtx<'m>, Io) -> Result<()>,
) -> Result<()> {
    if bits {
        w.flush_bits();
    }
    let start = w.pos();
    let size = match u64::try_from(size) {
        Ok(s) if s <= 1 << 32 => Some(s),
        _ if ctx.first_pass() => None,
        _ => return Err(Error::write(format!("size {size} is out of range")).at(field)),
    };
    let mark = ctx.placed_mark();
    write(w, ctx, Io { start, size })?;
    if bits {
        w.flush_bits();
    }
    let used = w.pos() - start;
    let Some(size) = size.map(|s| s as usize) else {
        return Ok(());
    };
    if used > size && !ctx.first_pass() {
        return Err(Error::write(format!(
            "{used:#x} bytes do not fit in its size ({size:#x})"
        ))
        .at(field));
    }
    match filler {
        Some(b) if used + b.len() == size => w.bytes(b),
        _ if places => ctx.pad_slot(w, mark, size.saturating_sub(used), pad),
        _ => w.fill(size.saturating_sub(used), pad),
    }
    Ok(())
}

/// How many bytes a record writes (its own writer given as `write`, passes and all): for the size of a record's
/// slot, which the writer derives, asked of a finished model.
pub fn written_len<'m>(
    write: impl FnMut(&mut Writer, &mut WriteCtx<'m>) -> Result<()>,
) -> Result<usize> {
    Ok(write_passes_writer(write, false)?.pos())
}

/// [`write_passes`], giving the last pass's writer; with `stream`, a [`Writer::streaming`] one: large shared bytes
/// of the model (an archive's files) are not copied into it, and [`Writer::write_to`] writes them from the model.
pub fn write_passes_writer<'m>(
    mut write: impl FnMut(&mut Writer, &mut WriteCtx<'m>) -> Result<()>,
    stream: bool,
) -> Result<Writer> {
    let mut ctx = WriteCtx::new();
    // Whether the next pass writes bytes.
    let mut real = false;
    // Whether the first pass derived relocation tables.
    let mut first_tables = false;
    for pass in 0..=MAX_PASSES {
        ctx.sizing = !real;
        let mut w = if real && stream {
            // (Most of a streamed output is usually in its holes.)
            let size = usize::try_from(ctx.prev_size()).unwrap_or(0);
            Writer::with_capacity(size.min(1 << 20)).streaming()
        } else if real {
            Writer::with_capacity(usize::try_from(ctx.prev_size()).unwrap_or(0))
        } else {
            Writer::sizing()
        };
        write(&mut w, &mut ctx)?;
        if let Some(pool) = ctx.late_pool() {
            return Err(Error::write(format!(
                "an item of pool #{pool} was queued after the pool's region was written: the writer would lose it \
                 (a generator limitation: the region must come after what points into it)"
            )));
        }
        let overlap = ctx.apply_placed(&mut w);
        let size = w.pos() as u64;
        let unfit = ctx.unfit.swap(false, std::sync::atomic::Ordering::Relaxed);
        let same = ctx.end_pass(size);
        if same && real && unfit {
            // Written again, strictly, so that the value that does not fit comes back through the writers that
            // wrote it and names its path.
            ctx.sizing = true;
            ctx.strict = true;
            return Err(match write(&mut Writer::sizing(), &mut ctx) {
                Err(e) => e,
                Ok(()) => Error::write("a derived value does not fit its field"),
            });
        }
        if same && real {
            if let Some((n, message)) = overlap {
                // Written again, with the placement refused, so that the error comes back through the writers
                // that placed it and names its path. (The pass reproduced the one before it, so writing it again
                // makes the same placements.)
                ctx.sizing = true;
                ctx.refuse_place = Some((n, message.clone()));
                return Err(match write(&mut Writer::sizing(), &mut ctx) {
                    Err(e) => e,
                    Ok(()) => Error::write(message),
                });
            }
            return Ok(w);
        }
        // After the first pass, try writing at once (after the second where the first derived relocation tables
        // from no pointers: they fill in the second, which moves what follows them); after that, only once a
        // sizing pass has settled.
        let tables = ctx
            .derived_tables
            .swap(false, std::sync::atomic::Ordering::Relaxed);
        if pass == 0 {
            first_tables = tables;
        }
        real = (pass == 0 && !tables) || (pass == 1 && first_tables) || same || (real && pass > 1);
    }
    Err(Error::write(format!(
        "the layout did not settle after {MAX_PASSES} passes"
    )))
}

/// Copies into `buf`, which holds the output's bytes from position `start`, the parts of `placed` (bytes at
/// absolute positions) that lie in it: a slot's padding or kept bytes give way to what was placed there.
pub(super) fn overlay(placed: &[(usize, Vec<u8>)], start: usize, buf: &mut [u8]) {
    let end = start + buf.len();
    for (at, b) in placed {
        let (lo, hi) = ((*at).max(start), (at + b.len()).min(end));
        if lo < hi {
            buf[lo - start..hi - start].copy_from_slice(&b[lo - at..hi - at]);
        }
    }
}

/// Lays `placed` (bytes at absolute positions) over `w`'s output in order, except those placed far past
/// everything before them ([`crate::write::far_placements`]): those are left out, so that the passes still settle,
/// and the first of them is reported as a refused placement (by its number), unless `found` (an overlap) comes
/// first. Gives the first refused placement, with its message.
pub(super) fn lay_over(
    w: &mut Writer,
    placed: Vec<(usize, Vec<u8>)>,
    mut found: Option<(usize, String)>,
) -> Option<(usize, String)> {
    let spans: Vec<(usize, usize)> = placed.iter().map(|(at, b)| (*at, at + b.len())).collect();
    let far = crate::write::far_placements(w.pos(), &spans);
    for (n, ((at, b), far)) in placed.into_iter().zip(far).enumerate() {
        if far {
            if found.as_ref().is_none_or(|(f, _)| n < *f) {
                found = Some((
                    n,
                    format!(
                        "its bytes are placed at {at:#x}, more than {MAX_PAD:#x} bytes past what is written before \
                         them (is its position right?)"
                    ),
                ));
            }
            continue;
        }
        w.write_at(at, &b);
    }
    found
}

/// The first of `placed` (by number, each bytes at an absolute position) whose bytes differ from bytes of another
/// placement or of `seq` (what was written in sequence, from position 0) at the same position, with a message that
/// says where. Of two placements that differ, the later one is reported.
pub(super) fn first_overlap(placed: &[(usize, Vec<u8>)], seq: &[u8]) -> Option<(usize, String)> {
    let end = |i: usize| placed[i].0 + placed[i].1.len();
    let mut order: Vec<usize> = (0..placed.len())
        .filter(|&i| !placed[i].1.is_empty())
        .collect();
    order.sort_by_key(|&i| (placed[i].0, i));
    // The placements that reach the current one's start, and the first difference found: (placement, message).
    let mut open: Vec<usize> = Vec::new();
    let mut found: Option<(usize, String)> = None;
    let mut report = |n: usize, message: String| {
        if found.as_ref().is_none_or(|(f, _)| n < *f) {
            found = Some((n, message));
        }
    };
    for &i in &order {
        let (at, ref b) = placed[i];
        open.retain(|&j| end(j) > at);
        for &j in &open {
            let (jat, ref jb) = placed[j];
            if let Some(d) = (at..end(i).min(end(j))).find(|&p| b[p - at] != jb[p - jat]) {
                let (n, o) = (i.max(j), i.min(j));
                report(
                    n,
                    format!(
                        "its bytes at {:#x}..{:#x} overlap other bytes placed at {:#x}..{:#x}, and differ from them \
                         at {d:#x}: the file would keep only one of them, and read back otherwise",
                        placed[n].0,
                        end(n),
                        placed[o].0,
                        end(o)
                    ),
                );
            }
        }
        let upto = end(i).min(seq.len());
        if let Some(d) = (at..upto).find(|&p| b[p - at] != seq[p]) {
            report(
                i,
                format!(
                    "its bytes at {at:#x}..{:#x} overlap what is written in sequence up to {:#x}, and differ from it \
                     at {d:#x}: the file would keep only one of them, and read back otherwise",
                    end(i),
                    seq.len()
                ),
            );
        }
        open.push(i);
    }
    found
}
