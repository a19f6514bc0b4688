meta:
  id: pool_records
  endian: le
doc: |
  Pool items that are records and arrays: each entry points to a record (`info`) and an array of numbers
  (`vals`) placed out of line in one region, each item aligned to 4 bytes. The offsets and the array's count are
  derived from where the writer puts the items and what the model holds.
seq:
  - id: count
    type: u1
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: count
  - id: heap
    size-eos: true
    -pool:
      id: heap
      item-align: 4
types:
  entry:
    seq:
      - id: info_ofs
        type: u2
      - id: vals_ofs
        type: u2
      - id: num_vals
        type: u1
    instances:
      info:
        pos: info_ofs
        type: info_rec
        io: _root._io
        -pool: heap
      vals:
        pos: vals_ofs
        type: u2
        repeat: expr
        repeat-expr: num_vals
        io: _root._io
        -pool: heap
  info_rec:
    seq:
      - id: kind
        type: u1
      - id: name
        type: strz
        encoding: UTF-8
