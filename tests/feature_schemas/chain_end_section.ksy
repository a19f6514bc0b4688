meta:
  id: chain_end_section
  endian: le
doc: |
  A block chain whose end is an item the writer places (`-chain-end` on a section of the blocks' region, as
  `nn::util`'s relocation table is in BNTX's): the trailer comes after the blocks (the region's `order`), its
  offset is derived, and the last block's size reaches where the writer puts it.
seq:
  - id: magic
    contents: CHE0
  - id: count
    type: u1
  - id: trailer_ofs
    type: u1
  - id: ptrs
    type: ptr
    repeat: expr
    repeat-expr: count
  - id: blocks
    size-eos: true
    -pool:
      id: blocks
      order: [ptr.block, trailer]
instances:
  trailer:
    pos: trailer_ofs
    size: 1
    -pool: blocks
    -chain-end: true
types:
  ptr:
    seq:
      - id: ofs
        type: u1
    instances:
      block:
        pos: ofs
        type: block
        io: _root._io
        -pool: blocks
  block:
    seq:
      - id: next
        type: u1
        -derive: _chain.next
      - id: size
        type: u1
        -derive: _chain.size
      - id: len
        type: u1
      - id: body
        size: len
