# expect: chain_end_item.ksy:19:9: error: /types/ptr/instances/trailer: '-chain-end' on a pool item is supported for an item of its own type's region (a section), which the writer places where it writes its type
meta:
  id: chain_end_item
  endian: le
seq:
  - id: ptr
    type: ptr
  - id: items
    size-eos: true
    -pool:
      id: items
types:
  ptr:
    seq:
      - id: ofs
        type: u1
    instances:
      trailer:
        pos: ofs
        size: 1
        io: _root._io
        -pool: items
        -chain-end: true
