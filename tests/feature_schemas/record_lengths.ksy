meta:
  id: record_lengths
  endian: le
doc: |
  Exercises a record in a slot whose size a field of its holder gives (`size: len`, with a user type or a switch):
  the writer derives the size from what it writes of the record, as it does for bytes, and the model keeps the
  slot's bytes after what the record reads (`body_filler`), so that a file with such bytes is written back as it
  was and an edited record moves its slot's end. A record in a slot of a fixed size (`fixed`) keeps the bytes
  after what it reads too, where they are not the zeros the writer pads with.
seq:
  - id: header_len
    type: u1
  - id: header
    size: header_len
    type: point
  - id: fixed
    size: 4
    type: one_byte
  - id: chunks
    type: chunk
    repeat: eos
types:
  one_byte:
    seq:
      - id: v
        type: u1
  chunk:
    seq:
      - id: tag
        type: u1
      - id: len
        type: u2
      - id: body
        size: len
        type:
          switch-on: tag
          cases:
            1: point
            2: name
  point:
    seq:
      - id: x
        type: s2
      - id: y
        type: s2
  name:
    seq:
      - id: text
        type: strz
        encoding: ASCII
