meta:
  id: exact_slots
  endian: le
doc: |
  Sized byte arrays and strings. Without a terminator or padding, the slot is the value: a shorter value would be
  padded and read back as another (principle 4), so it is refused. With `pad-right` or a terminator, the padding is
  layout and a shorter value reads back as it was.
seq:
  - id: name
    type: str
    size: 4
    encoding: ASCII
  - id: data
    size: 3
  - id: padded
    type: str
    size: 4
    pad-right: 0x20
    encoding: ASCII
  - id: zs
    type: strz
    size: 4
    encoding: ASCII
