meta:
  id: absent_offset
  endian: le
doc: |
  Optional items whose offset is derived: where an item is absent (its condition does not hold), the writer writes
  0, and a file whose offset there is something else keeps it in the model (as BFRES files rewritten by another
  tool keep dictionary keys that point into the file header, which this schema's condition stands for: an entry
  whose offset points into the header has no value).
seq:
  - id: magic
    contents: ABSO
  - id: count
    type: u1
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: count
  - id: data
    size-eos: true
    -pool:
      id: data
types:
  entry:
    seq:
      - id: ofs
        type: u1
    instances:
      value:
        pos: ofs
        type: u2
        io: _root._io
        if: ofs >= 4
        -pool: data
