meta:
  id: endian_switch
  endian:
    switch-on: bom_be
    cases:
      0xfeff: be
      0xfffe: le
doc: |
  Exercises a byte order chosen by the file: a byte order mark read as big-endian by an instance (a view: the
  model's byte order decides it when writing). The model keeps the byte order; nested types inherit it unless
  they fix their own, and a field can name its own (`u4le`).
seq:
  - id: magic
    contents: BO
  - id: bom
    type: u2
    valid: 0xfeff
    doc: Reads as 0xfeff in the file's own byte order.
  - id: header
    type: header
  - id: fixed_be
    type: fixed_be
  - id: always_le
    type: u4le
instances:
  bom_be:
    pos: 2
    type: u2be
types:
  header:
    seq:
      - id: count
        type: u2
      - id: values
        type: s4
        repeat: expr
        repeat-expr: count
  fixed_be:
    meta:
      endian: be
    seq:
      - id: value
        type: u4
