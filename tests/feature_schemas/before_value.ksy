meta:
  id: before_value
  endian: le
doc: |
  Exercises `x._before` (where the content before a section ends, not counting the padding its alignment puts
  before it) and `-value` (what binspec computes for a value instance, with binspec's additions; Kaitai's tools
  compute its `value`): a table that says where the heap's items end and where the aligned block starts, as
  `nn::util`'s relocation table says where each of a file's regions starts and ends. The table's fields are
  derived from the bounds the root passes it.
seq:
  - id: magic
    contents: BEF0
  - id: name_ofs
    type: u2
  - id: block_ofs
    type: u2
  - id: table_ofs
    type: u2
  - id: heap
    size-eos: true
    -pool:
      id: heap
      order: [name, block, table]
instances:
  name:
    pos: name_ofs
    type: strz
    encoding: UTF-8
    -pool: heap
  block:
    pos: block_ofs
    size: 4
    -pool:
      id: heap
      align: 0x10
  table:
    pos: table_ofs
    type: table(bounds)
    -pool: heap
  bounds:
    value: '[name_ofs, block_ofs]'
    -value: '[block._before, block._pos]'
    doc: Where the content before the block ends, and where the block starts.
types:
  table:
    params:
      - id: b
        type: u2[]
    seq:
      - id: content_end
        type: u2
        -derive: b[0]
      - id: block_start
        type: u2
        -derive: b[1]
