meta:
  id: chain
  endian: le
doc: |
  A block chain: each block holds the distance to the next block in the file (`-derive: _chain.next`), 0 in the
  last, and its size (`-derive: _chain.size`): the same, the last block's reaching the trailer, which marks the
  chain's end (`-chain-end`), as `nn::util`'s block headers do up to the relocation table. The blocks are items of
  a pool, so the writer lays them out and derives the distances; a file whose distances are something else keeps
  those as overrides.
seq:
  - id: magic
    contents: CHN0
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
instances:
  trailer:
    pos: trailer_ofs
    size: 1
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
