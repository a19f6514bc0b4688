# expect: chain_end_item.ksy:17:17: error: /instances/trailer/-chain-end: '-chain-end' is 'true' on an instance with a 'pos' that is not a pool item (where the block chain ends)
meta:
  id: chain_end_item
  endian: le
seq:
  - id: ofs
    type: u1
  - id: items
    size-eos: true
    -pool:
      id: items
instances:
  trailer:
    pos: ofs
    size: 1
    -pool: items
    -chain-end: true
