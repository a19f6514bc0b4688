meta:
  id: camel_clash_enum
  endian: le
seq:
  - id: kind
    type: u1
    enum: foo__bar
  - id: body
    type: foo_bar
types:
  foo_bar:
    seq:
      - id: x
        type: u1
enums:
  foo__bar:
    1: one
