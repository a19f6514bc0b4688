meta:
  id: root_value_late
  endian: le
doc: |
  Exercises a root value instance that reads the field being read (`limit`, whose expression is
  `body.as<body_a>.lim`), named in an instance of that field's record (`_root.limit`): the record is read again
  once the value is known, as for a field it names directly. Before, the generated reader did not compile
  (found while writing BFRES, whose string pool bounds were such values).
seq:
  - id: ver
    type: u1
  - id: body
    type:
      switch-on: ver
      cases:
        1: body_a
instances:
  limit:
    value: body.as<body_a>.lim
types:
  body_a:
    seq:
      - id: lim
        type: u1
      - id: ptr
        type: u1
    instances:
      item:
        pos: ptr
        type: u1
        if: ptr < _root.limit
