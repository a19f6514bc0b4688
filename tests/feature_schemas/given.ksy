meta:
  id: given
  endian: le
doc: |
  Exercises ranges whose base index and count are fields of a record inside the type that holds the range (as
  AINB's property entries: a base index and a count per property array, in a record of an element's parameters).
  Two types hold the same record, one after a field of its own (bits that do not end a byte), and each derives
  its fields: every base index and count is derived from the values the model holds, and the writer puts them in
  place once it has written the record. A range with no values keeps the file's base index where the writer would put it elsewhere.
seq:
  - id: magic
    contents: GIVN
  - id: node_count
    type: u1
  - id: extra_count
    type: u1
  - id: ints_ofs
    type: u1
  - id: shorts_ofs
    type: u1
  - id: nodes
    type: node
    repeat: expr
    repeat-expr: node_count
  - id: extras
    type: extra
    repeat: expr
    repeat-expr: extra_count
  - id: sections
    size-eos: true
    -pool:
      id: sections
instances:
  int_table:
    pos: ints_ofs
    type: int_table
    -pool: sections
  short_table:
    pos: shorts_ofs
    type: short_table
    -pool: sections
types:
  int_table:
    seq:
      - id: count
        type: u1
      - id: values
        size: count * 4
        -pool:
          id: ints
  short_table:
    seq:
      - id: count
        type: u1
      - id: values
        size: count * 2
        -pool:
          id: shorts
  range_entry:
    doc: A range of one table.
    seq:
      - id: base
        type: u1
      - id: count
        type: u1
  entries:
    doc: A range of each table.
    seq:
      - id: ints
        type: range_entry
      - id: shorts
        type: range_entry
  node:
    seq:
      - id: id
        type: u1
      - id: entries
        type: entries
    instances:
      int_values:
        pos: _root.ints_ofs + 1 + entries.ints.base * 4
        type: u4
        repeat: expr
        repeat-expr: entries.ints.count
        -pool: ints
      short_values:
        pos: _root.shorts_ofs + 1 + entries.shorts.base * 2
        type: u2
        repeat: expr
        repeat-expr: entries.shorts.count
        -pool: shorts
  extra:
    seq:
      - id: flags
        type: b12
        doc: 12 bits, then `entries` from the next byte (as Kaitai reads it), where the writer puts its fields.
      - id: entries
        type: entries
    instances:
      int_values:
        pos: _root.ints_ofs + 1 + entries.ints.base * 4
        type: u4
        repeat: expr
        repeat-expr: entries.ints.count
        -pool: ints
      short_values:
        pos: _root.shorts_ofs + 1 + entries.shorts.base * 2
        type: u2
        repeat: expr
        repeat-expr: entries.shorts.count
        -pool: shorts
