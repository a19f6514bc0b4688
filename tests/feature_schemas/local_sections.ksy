meta:
  id: local_sections
  endian: le
doc: |
  Exercises a region in a repeated record (as AINB's plug pointer array, one per element parameter): each record's
  own instances are its region's sections, one kind after another, ranges whose base index and count are in a
  record inside it. Each record's region starts anew: what the record before held says nothing about it.
seq:
  - id: magic
    contents: LOCS
  - id: record_count
    type: u1
  - id: records
    type: record
    size: 12
    repeat: expr
    repeat-expr: record_count
types:
  kind_entry:
    seq:
      - id: count
        type: u1
      - id: base
        type: u1
  kinds:
    seq:
      - id: a
        type: kind_entry
      - id: b
        type: kind_entry
    instances:
      total:
        value: a.count + b.count
  record:
    doc: A record of 12 bytes.
    seq:
      - id: kinds
        type: kinds
      - id: values
        size: kinds.total * 2
        doc: The values of each kind, one kind after another.
        -pool:
          id: values
    instances:
      a_values:
        pos: 4 + kinds.a.base * 2
        type: u2
        repeat: expr
        repeat-expr: kinds.a.count
        -pool: values
      b_values:
        pos: 4 + kinds.b.base * 2
        type: u2
        repeat: expr
        repeat-expr: kinds.b.count
        -pool: values
