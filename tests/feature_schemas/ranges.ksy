meta:
  id: ranges
  endian: le
doc: |
  Exercises a base index into a shared table: each group names a range (a base index and a count) of one table
  of values that every group shares. The model holds each group's values; the writer writes them one group after
  another into the table, and derives the table's length, each group's base index and count, and the table's
  offset. A group with no values gets the base index where the next group's values start.
seq:
  - id: magic
    contents: RNGS
  - id: group_count
    type: u1
  - id: values_ofs
    type: u1
  - id: groups
    type: group
    repeat: expr
    repeat-expr: group_count
  - id: sections
    size-eos: true
    doc: The value table.
    -pool:
      id: sections
instances:
  table:
    pos: values_ofs
    type: value_table
    -pool: sections
types:
  value_table:
    seq:
      - id: count
        type: u1
      - id: values
        size: count * 2
        doc: The groups' values, one group after another.
        -pool:
          id: values
  group:
    seq:
      - id: base
        type: u1
      - id: count
        type: u1
    instances:
      members:
        pos: _parent.values_ofs + 1 + base * 2
        type: u2
        repeat: expr
        repeat-expr: count
        -pool: values
        doc: The group's values.
