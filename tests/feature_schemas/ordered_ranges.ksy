meta:
  id: ordered_ranges
  endian: le
doc: |
  Exercises `keep-order`: each group names a range (a base index and a count) of one shared table, as in
  `ranges.ksy`, but the ranges need not be in group order in the table (AINB's query element id array). The order
  of the non-empty ranges in the file is a layout choice the model keeps, where it is not the groups' order; an
  empty range is where the range before it ends (elsewhere, its base is kept).
seq:
  - id: magic
    contents: ORDR
  - id: group_count
    type: u1
  - id: groups
    type: group
    repeat: expr
    repeat-expr: group_count
  - id: count
    type: u1
    doc: The number of values in the table.
  - id: values
    size: count * 2
    doc: The groups' values, one range after another, in some order.
    -pool:
      id: values
      keep-order: true
types:
  group:
    seq:
      - id: base
        type: u1
      - id: len
        type: u1
    instances:
      members:
        pos: 6 + _parent.group_count * 2 + base * 2
        type: u2
        repeat: expr
        repeat-expr: len
        -pool: values
        doc: The group's values.
