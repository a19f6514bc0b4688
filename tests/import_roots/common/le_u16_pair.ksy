meta:
  id: le_u16_pair
  endian: le
doc: Two u16 values; imported by absolute path (`/common/le_u16_pair`) from a schema two folders further down.
seq:
  - id: a
    type: u2
  - id: b
    type: u2
