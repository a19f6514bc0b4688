meta:
  id: derive
  endian: le
doc: |
  Exercises `-derive` and `-default`: the file size (`_io.size`), the position of a later field (`x._pos`), a flag
  that says whether an optional field is present (`x._present`), a length inferred from `size`, and model
  defaults for a new file (one of them for an optional field, which a new model then has).
seq:
  - id: magic
    contents: DRV1
  - id: file_size
    type: u4
    -derive: _io.size
  - id: body_ofs
    type: u2
    doc: Where `body` starts.
    -derive: body._pos
  - id: has_extra
    type: u1
    -derive: "extra._present ? 1 : 0"
  - id: version
    type: u1
    -default: 3
  - id: extra
    type: u4
    if: has_extra != 0
    doc: Present in a new model (`-default` on an optional field).
    -default: 0x12345678
  - id: body_len
    type: u1
    doc: Length of `body` (inferred from its `size`).
  - id: body
    size: body_len
