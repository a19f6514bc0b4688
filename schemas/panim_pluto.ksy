meta:
  id: panim_pluto
  title: Pluto binary animation (.panim)
  file-extension: panim
  endian: be
  -binspec:
    source: seed 000_f23082549658c0c3.txt (".panim File Format", Pluto)
    # Two unrelated formats use `.panim`: this one is told apart by the "values" tag at 0x64.
    id: panim-pluto
    magic-at: 0x64
    info:
      summary:
        name: name
        frames: length
        nodes: node_count
        bones: bone_count
doc: |
  Pluto's binary animation: the SM64 DMA animation tables (a "values" table of s16 rotations and an "indices" table
  of per-axis frame counts and start offsets) with a metadata header, and optional per-bone translation and scale
  tracks in tagged sections after them. Big-endian throughout. No section stores its length: each ends where the
  loader, scanning forward two bytes at a time, finds the next section's ASCII tag.

  Where the page contradicts itself, this schema follows the offsets that add up:
  * The page calls the header "fixed 103 bytes" and "bytes 0x00 – 0x66", but its field table ends at 0x64 and it
    says twice that the values tag begins at 0x64 ("Total header size: 100 bytes"). The header is 100 bytes.
  * The page says the indices end at the "translations" tag or at the end of the file, and also that the scales
    section may be present when translations are not. A file with scales and no translations would then read its
    scales as indices; this schema ends the indices at either tag.
  * The page does not say where the two-byte scan starts; it is counted from the start of each table, whose
    elements are s16.
seq:
  - id: name
    type: strz
    size: 64
    encoding: UTF-8
    doc: Name, UTF-8, padded with NULs to 64 bytes.
  - id: author
    type: strz
    size: 32
    encoding: UTF-8
    doc: Author, UTF-8, padded with NULs to 32 bytes.
  - id: looping
    type: u1
    enum: loop_mode
    doc: Whether the animation loops.
  - id: length
    type: u2
    doc: Frame count (exclusive end), the loop end.
  - id: node_count
    type: u1
    doc: Number of animatable bones, capped at 255.
  - id: values_tag
    contents: values
    doc: Tag of the values table, at 0x64.
  - id: values
    type: s2
    repeat: eos
    -scan:
      tag: indices
      step: 2
    doc: Rotation values (the SM64 DMA animation values table), up to the "indices" tag.
  - id: indices_tag
    contents: indices
    doc: Tag of the indices table.
  - id: indices
    type: s2
    repeat: eos
    -scan:
      tags: [translations, scales]
      step: 2
      or-eos: true
    doc: |
      The SM64 DMA animation index table: per animatable bone (the root first), three axes of (frame count, start
      offset into the values). Six shorts per bone. Ends at the next section's tag or at the end of the file.
  - id: translations
    type: translations_section
    if: after_indices == 0x74
    doc: Per-bone translation tracks; present when some non-root bone has a non-zero translation.
  - id: scales
    type: scales_section
    if: not _io.eof
    doc: Per-bone scale tracks; present when some non-root bone has a scale other than 1.0.
instances:
  after_indices:
    pos: 0x64 + 6 + values.size * 2 + 7 + indices.size * 2
    type: u1
    if: 0x64 + 6 + values.size * 2 + 7 + indices.size * 2 < _io.size
    -view: true
    doc: |
      The first byte after the indices table ("t" for translations, "s" for scales), to tell which section follows.
      Only read: when writing, the model's sections decide.
  bone_count:
    value: indices.size / 6 - 1
    doc: Number of non-root animatable bones, derived from the indices table as the loader derives it.
types:
  translations_section:
    seq:
      - id: tag
        contents: translations
      - id: tracks
        type: tracks
  scales_section:
    seq:
      - id: tag
        contents: scales
      - id: tracks
        type: tracks
        doc: Scale tracks, stored as fixed point (1024 = 1.0).
  tracks:
    doc: |
      Tracks of the non-root bones: a frame count shared by every track, the number of bones, one bit per bone
      (bit `i % 8` of byte `i / 8`) for the bones that have a track, then those tracks in bone order. Bones whose
      track is absent take the default (translation 0, scale 1.0).
    seq:
      - id: frame_count
        type: u2
        doc: Number of frames in every track.
      - id: bone_count
        type: u2
        doc: Number of non-root bones this section covers.
      - id: mask
        size: (bone_count + 7) / 8
        -derive: bones.bitmask(_.frames._present)
        doc: One bit per bone, set when the bone has a track.
      - id: bones
        type: bone_track(frame_count, (mask[_index / 8] >> (_index % 8)) & 1 == 1)
        repeat: expr
        repeat-expr: bone_count
        doc: The bones, each with its track or without.
  bone_track:
    params:
      - id: num_frames
        type: u2
      - id: present
        type: bool
    seq:
      - id: frames
        type: vec3s
        repeat: expr
        repeat-expr: num_frames
        if: present
        doc: One (x, y, z) per frame; absent for a bone without a track.
  vec3s:
    seq:
      - id: x
        type: s2
      - id: y
        type: s2
      - id: z
        type: s2
enums:
  loop_mode:
    0x00:
      id: once
      doc: One-shot.
    0xa6:
      id: looping
      doc: Loops.
