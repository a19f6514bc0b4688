meta:
  id: item_offsets
  endian: le
doc: |
  Exercises pointers into an item that the writer places (BNTX's mip level pointers into a texture's data): the
  table of level pointers and the data are items of the heap, in either order. Each level's pointer is derived as
  where the writer put the data plus the level's offset into it; the offset is kept in the model (`-data`), read
  as the pointer minus the first level's pointer (a `-view` instance: only reading knows it, and the writer passes
  its records no value for it). The data's `pos` names no field of the root: it is placed by its pool alone, and
  what points into it derives from its `_pos`.
seq:
  - id: magic
    contents: IOF0
  - id: levels
    type: u2
  - id: reserved
    type: u2
  - id: table_ofs
    type: u4
  - id: data_size
    type: u4
  - id: heap
    size-eos: true
    -pool:
      id: heap
      item-align: 16
instances:
  first_ptr:
    pos: table_ofs
    type: u4
    -view: true
    doc: The first level's pointer, as the file holds it (the levels' offsets are counted from it).
  table:
    pos: table_ofs
    type: level_ptr
    repeat: expr
    repeat-expr: levels
    -pool: heap
  data:
    pos: first_ptr
    size: data_size
    -pool: heap
types:
  level_ptr:
    seq:
      - id: ptr
        type: u4
        -derive: _parent.data._pos + offset
    instances:
      offset:
        value: ptr - _parent.first_ptr
        -data: u4
        doc: Where the level starts in the data.
