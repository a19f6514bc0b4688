meta:
  id: raw_case
  title: Chunks of kinds no case names
  endian: le
doc: |
  A sized switch without a `_` case: a chunk whose code no case names is read as its bytes (the `raw` case, as
  Kaitai reads it), and written back as they are; its size is derived from them as from any case.
seq:
  - id: chunks
    type: chunk
    repeat: eos
types:
  chunk:
    seq:
      - id: code
        type: u1
      - id: len_body
        type: u1
      - id: body
        size: len_body
        type:
          switch-on: code
          cases:
            1: pair
  pair:
    seq:
      - id: a
        type: u1
      - id: b
        type: u1
