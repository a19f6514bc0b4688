meta:
  id: pool
  endian: le
doc: |
  Exercises `-pool`: a table of entries whose names (zero-terminated strings) and contents (sized bytes) are
  instances placed out of line, in one region at the end of the file. The region's start alignment is a layout
  choice (`-layout`), inferred when reading; each item is aligned to 4 bytes (`item-align`). The entries' offsets
  and the contents' size are derived from where the writer puts the items.
seq:
  - id: magic
    contents: POOL
  - id: count
    type: u2
  - id: reserved
    type: u2
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: count
  - id: heap
    size-eos: true
    doc: Names and contents of the entries.
    -pool:
      id: heap
      align: heap_align
      item-align: 4
-layout:
  heap_align:
    type: u4
    default: 16
    doc: Alignment of the start of the heap.
types:
  entry:
    seq:
      - id: name_ofs
        type: u4
      - id: data_ofs
        type: u4
      - id: data_size
        type: u4
    instances:
      name:
        pos: name_ofs
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: heap
      data:
        pos: data_ofs
        size: data_size
        io: _root._io
        -pool: heap
