meta:
  id: kaitai_dialect
  endian: le
  imports:
    - /common/ascii_tag
doc: |
  What schemas of Kaitai's format gallery write and binspec reads as Kaitai does: an enum key with digits grouped
  by `_` (YAML 1.1), a type with arguments written as a block over several lines, an imported schema's own default
  encoding, and `_root._io.size` inside a nested type.
seq:
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
  body:
    params:
      - id: grouped
        type: bool
    seq:
      - id: rest
        size: _root._io.size - 8
enums:
  kind:
    0x0253_f200: grouped
    1_000: decimal
