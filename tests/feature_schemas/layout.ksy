meta:
  id: layout
  endian: le
doc: |
  Exercises `-layout`: two pool regions, each starting at an alignment that is a layout choice (`-layout` fields
  with defaults), inferred from where the file puts them when reading, and applied when writing. The items of the
  second region keep their own alignment (8 by default). As in SARC, the items are instances of a type read before
  the regions, and the second region's start is derived (`x._pos`) so that the first region's size can name it.
seq:
  - id: magic
    contents: LAY
  - id: second_ofs
    type: u4
    doc: Where the second region starts.
    -derive: second_region._pos
  - id: header
    type: header
  - id: first_region
    size: second_ofs - _io.pos
    -pool:
      id: first
      align: first_align
  - id: second_region
    size-eos: true
    -pool:
      id: second
      align: second_align
      item-align: 8
-layout:
  first_align:
    type: u4
    default: 4
    doc: Alignment of the first region's start.
  second_align:
    type: u4
    default: 16
    doc: Alignment of the second region's start.
types:
  header:
    seq:
      - id: first_ofs
        type: u4
      - id: first_len
        type: u2
      - id: second_rel
        type: u2
        doc: Offset of the second item from the start of the second region.
      - id: second_len
        type: u2
    instances:
      head_blob:
        pos: first_ofs
        size: first_len
        io: _root._io
        -pool: first
      tail_blob:
        pos: _root.second_ofs + second_rel
        size: second_len
        io: _root._io
        -pool: second
