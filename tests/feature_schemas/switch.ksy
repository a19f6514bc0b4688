meta:
  id: switch
  endian: le
doc: |
  Exercises `switch-on`: a field whose user type an integer tag chooses (with a default case), a switch between
  built-in integer types, and a switch inside each element of a repeated field.
seq:
  - id: kind
    type: u1
    doc: Which body follows (1 point, 2 name, anything else raw).
  - id: body
    type:
      switch-on: kind
      cases:
        1: point
        2: name
        _: raw
  - id: count
    type: u1
    doc: Number of records.
  - id: records
    type: record
    repeat: expr
    repeat-expr: count
types:
  point:
    seq:
      - id: x
        type: s2
      - id: y
        type: s2
  name:
    seq:
      - id: text
        type: strz
        encoding: UTF-8
  raw:
    seq:
      - id: bytes
        size: 2
  record:
    doc: A tagged value; the tag says how wide the value is.
    seq:
      - id: width
        type: u1
      - id: value
        type:
          switch-on: width
          cases:
            1: u1
            2: u2
            4: u4
            _: u1
