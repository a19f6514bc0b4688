meta:
  id: data
  endian: le
doc: |
  Exercises `-data`: a value instance kept in the model. Each item's `packed` holds the payload length in its low
  12 bits and a priority in its top 4; the priority is a model field (`-data: u1`, `-default: 1`), and `packed` is
  derived from it and from the payload.
seq:
  - id: count
    type: u1
  - id: items
    type: item
    repeat: expr
    repeat-expr: count
types:
  item:
    seq:
      - id: packed
        type: u2
        -derive: priority << 12 | payload.size
      - id: payload
        size: packed & 0xfff
    instances:
      priority:
        value: packed >> 12
        -data: u1
        -default: 1
