# expect: cross_not_an_offset.ksy:8:5: error: /seq/1: 'table.count' is derived in 'table': only an offset of it can be named from outside while writing
meta:
  id: cross_not_an_offset
  endian: le
seq:
  - id: table_ofs
    type: u1
  - id: record
    type: record
instances:
  table:
    pos: table_ofs
    type: table
types:
  table:
    seq:
      - id: count
        type: u1
      - id: values
        type: u1
        repeat: expr
        repeat-expr: count
  record:
    seq:
      - id: n
        type: u1
    instances:
      more:
        pos: _root.table.count + n
        type: u1
