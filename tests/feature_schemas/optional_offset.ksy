meta:
  id: optional_offset
  endian: le
doc: |
  Exercises an optional offset (as AINB's plug names, which jump plugs do not have): a record's `name_ofs` is
  there when its kind is not 0, and is the offset of its name, an item with the same condition; it is derived,
  like any offset. Where the kind is 0, the same four bytes are an index, which is data. An optional count
  (`extra_count`, with its repetition's condition) is derived too.
seq:
  - id: magic
    contents: OPTO
  - id: count
    type: u1
  - id: records
    type: record
    repeat: expr
    repeat-expr: count
  - id: has_extras
    type: u1
  - id: extra_count
    type: u1
    if: has_extras != 0
  - id: extras
    type: u1
    repeat: expr
    repeat-expr: extra_count
    if: has_extras != 0
  - id: heap
    size-eos: true
    -pool:
      id: heap
types:
  record:
    seq:
      - id: kind
        type: u1
      - id: name_ofs
        type: u1
        if: kind != 0
      - id: index
        type: u1
        if: kind == 0
    instances:
      name:
        pos: name_ofs
        type: strz
        encoding: UTF-8
        io: _root._io
        if: kind != 0
        -pool: heap
