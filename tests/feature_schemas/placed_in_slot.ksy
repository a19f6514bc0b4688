meta:
  id: placed_in_slot
  endian: le
doc: |
  Exercises a record in a slot sized by a field of its holder (`size: len`) that places an instance in its own
  stream, past what it reads in sequence (as an Exif block in a PNG `eXIf` chunk places its directories after its
  header). The writer derives the slot's size from what the record writes and what it places; the slot's bytes
  after what the record reads are kept (`body_filler`), and where edited data is placed over them, the placed
  bytes win. A position far past the record (`wide`, an edited document's) is refused rather than filled with
  zeros. A record that is processed (`xor` here, `zlib` in PNG's iCCP profile) places in its own stream, which
  is what is processed, not the file.
seq:
  - id: chunks
    type: chunk
    repeat: eos
types:
  chunk:
    seq:
      - id: tag
        type: u1
      - id: len
        type: u1
      - id: body
        size: len
        type:
          switch-on: tag
          cases:
            1: dir
            2: name
            3: xored
            4: wide
            5: xored_wide
  dir:
    seq:
      - id: num_entries
        type: u1
      - id: entries_ofs
        type: u1
    instances:
      entries:
        pos: entries_ofs
        type: u2
        repeat: expr
        repeat-expr: num_entries
  name:
    seq:
      - id: text
        type: strz
        encoding: ASCII
  xored:
    seq:
      - id: inner
        size-eos: true
        process: xor(0xff)
        type: dir
  wide:
    seq:
      - id: num_entries
        type: u1
      - id: entries_ofs
        type: u4
    instances:
      entries:
        pos: entries_ofs
        type: u2
        repeat: expr
        repeat-expr: num_entries
  xored_wide:
    seq:
      - id: inner
        size-eos: true
        process: xor(0xff)
        type: wide
