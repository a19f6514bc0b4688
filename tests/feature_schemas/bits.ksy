meta:
  id: bits
  endian: be
  bit-endian: be
doc: |
  Exercises bit-sized integers: big-endian bit order (most significant bit first) in the root, little-endian bit
  order (least significant bit first) in a nested type, a one-bit field (a bool), a field that spans bytes, and a
  byte-aligned integer after the bits.
seq:
  - id: version
    type: b4
  - id: flags
    type: b3
  - id: enabled
    type: b1
  - id: wide
    type: b12
    doc: Spans two bytes.
  - id: spare
    type: b4
  - id: low_first
    type: le_bits
  - id: after
    type: u4
    doc: A byte-aligned integer after the bit fields.
types:
  le_bits:
    meta:
      bit-endian: le
    seq:
      - id: low
        type: b3
      - id: high
        type: b5
      - id: mid
        type: b10
      - id: rest
        type: b6
