meta:
  id: cross
  endian: le
doc: |
  Exercises a table of offsets to arrays whose contents are ranges that records elsewhere name (as AINB's property
  table, whose six arrays hold the element parameters' ranges). The records count from the table's offsets
  (`_root.table.a_ofs`), which are derived: a reader takes them from the file, where the table is; a writer from
  where it put the arrays. The first array is sized by where the second starts.
seq:
  - id: magic
    contents: CRSS
  - id: record_count
    type: u1
  - id: table_ofs
    type: u1
  - id: records
    type: record
    repeat: expr
    repeat-expr: record_count
instances:
  table:
    pos: table_ofs
    type: table
types:
  table:
    seq:
      - id: a_ofs
        type: u1
      - id: b_ofs
        type: u1
      - id: arrays
        size-eos: true
        -pool:
          id: arrays
    instances:
      a_array:
        pos: a_ofs
        size: b_ofs - a_ofs
        type: a_array
        -pool: arrays
      b_array:
        pos: b_ofs
        type: b_array
        -pool: arrays
  a_array:
    seq:
      - id: values
        size-eos: true
        -pool:
          id: a_values
  b_array:
    seq:
      - id: values
        size-eos: true
        -pool:
          id: b_values
  record:
    seq:
      - id: a_base
        type: u1
      - id: a_count
        type: u1
      - id: b_base
        type: u1
      - id: b_count
        type: u1
    instances:
      a:
        pos: _root.table.a_ofs + a_base * 2
        type: u2
        repeat: expr
        repeat-expr: a_count
        -pool: a_values
      b:
        pos: _root.table.b_ofs + b_base
        type: u1
        repeat: expr
        repeat-expr: b_count
        -pool: b_values
