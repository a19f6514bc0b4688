meta:
  id: outer_record
  endian: le
doc: |
  Exercises a field of a record named through a value instance of another type (`_parent.chosen.x`, where
  `chosen` is `items[idx]`, a record): the value instance has the record's type, not an integer's.
seq:
  - id: idx
    type: u1
  - id: items
    type: item
    repeat: expr
    repeat-expr: 2
  - id: child
    type: child
instances:
  chosen:
    value: items[idx]
types:
  item:
    seq:
      - id: x
        type: u1
  child:
    seq:
      - id: y
        type: u1
        repeat: expr
        repeat-expr: _parent.chosen.x
