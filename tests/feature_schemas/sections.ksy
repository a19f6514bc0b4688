meta:
  id: sections
  endian: le
doc: |
  Exercises a region whose sections a header points to, in an order files choose (as AINB's): an optional table
  (offset 0 when absent), an array whose length is where the next section starts, a string, blobs that the
  records point to and the table's own two arrays (items of the same region declared by other types), the last of
  which ends where a section of the root starts (`_root.ids_ofs`). The order of all of them is a layout choice read
  off their positions; every offset is derived, and the writer refuses an order that would make a length read back
  otherwise.
seq:
  - id: magic
    contents: SECT
  - id: record_count
    type: u4
  - id: table_ofs
    type: u4
  - id: ids_ofs
    type: u4
  - id: name_ofs
    type: u4
  - id: records
    type: record
    repeat: expr
    repeat-expr: record_count
  - id: sections
    size-eos: true
    -pool:
      id: sections
instances:
  table:
    pos: table_ofs
    type: table
    if: table_ofs != 0
    -pool: sections
  ids:
    pos: ids_ofs
    type: u2
    repeat: expr
    repeat-expr: (name_ofs - ids_ofs) / 2
    -pool: sections
  name:
    pos: name_ofs
    type: strz
    encoding: UTF-8
    -pool: sections
types:
  table:
    seq:
      - id: count
        type: u4
      - id: values
        type: u4
        repeat: expr
        repeat-expr: count
      - id: small_ofs
        type: u4
      - id: big_ofs
        type: u4
    instances:
      small:
        pos: small_ofs
        type: u1
        repeat: expr
        repeat-expr: big_ofs - small_ofs
        io: _root._io
        -pool: sections
      big:
        pos: big_ofs
        type: u4
        repeat: expr
        repeat-expr: (_root.ids_ofs - big_ofs) / 4
        io: _root._io
        -pool: sections
  record:
    seq:
      - id: blob_ofs
        type: u4
      - id: blob_len
        type: u4
    instances:
      blob:
        pos: blob_ofs
        size: blob_len
        io: _root._io
        -pool: sections
