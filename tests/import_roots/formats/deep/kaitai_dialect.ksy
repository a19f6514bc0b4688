meta:
  id: kaitai_dialect
  endian: le
  imports:
    - /common/ascii_tag
doc: |
  What schemas of Kaitai's format gallery write and binspec reads as Kaitai does: an enum key with digits grouped
  by `_` (YAML 1.1), a type with arguments written as a block over several lines, an imported schema's own default
  encoding, `_root._io.size` inside a nested type, an outer value in a `valid` check, and the static size of an
  outer field that is still being read (`_root.head._sizeof` inside `head`), `_root.info.n` in a child of `info`
  read after `n`, and the count of an instance that is only read (`marks`: it stays data).
seq:
  - id: limit
    type: u1
  - id: head
    type: head
  - id: info
    type: info
  - id: tag
    type: ascii_tag
  - id: kind
    type: u4
    enum: kind
  - id: num_marks
    type: u1
  - id: body
    type: |
      body(
        kind == kind::grouped
      )
instances:
  marks:
    io: _root._io
    type: u1
    repeat: expr
    repeat-expr: num_marks
types:
  head:
    seq:
      - id: n
        type: u1
        valid:
          max: _root.limit
      - id: m
        type: u1
    instances:
      own_size:
        value: _root.head._sizeof
  info:
    seq:
      - id: n
        type: u1
      - id: sub
        type: info_sub
        doc: Reads `_root.info.n`, which `info` has read before it (Kaitai's lazy `_root` into the object being read).
  info_sub:
    seq:
      - id: bytes
        size: _root.info.n
  body:
    params:
      - id: grouped
        type: bool
    seq:
      - id: rest
        size: _root._io.size - 13 - _root.info.n
enums:
  kind:
    0x0253_f200: grouped
    1_000: decimal
