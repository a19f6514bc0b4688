meta:
  id: kaitai_dialect
  endian: le
  imports:
    - /common/ascii_tag
doc: |
  What schemas of Kaitai's format gallery write and binspec reads as Kaitai does: an enum key with digits grouped
  by `_` (YAML 1.1), a type with arguments written as a block over several lines, an imported schema's own default
  encoding, `_root._io.size` inside a nested type, an outer value in a `valid` check, and the static size of an
  outer field that is still being read (`_root.head._sizeof` inside `head`).
seq:
  - id: limit
    type: u1
  - id: head
    type: head
  - id: tag
    type: ascii_tag
  - id: kind
    type: u4
    enum: kind
  - id: body
    type: |
      body(
        kind == kind::grouped
      )
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
  body:
    params:
      - id: grouped
        type: bool
    seq:
      - id: rest
        size: _root._io.size - 11
enums:
  kind:
    0x0253_f200: grouped
    1_000: decimal
