meta:
  id: camel_clash
  endian: le
seq:
  - id: a
    type: foo_bar
  - id: b
    type: foo__bar
types:
  foo_bar:
    seq:
      - id: x
        type: u1
  foo__bar:
    seq:
      - id: y
        type: u1
