meta:
  id: align_at
  endian: le
doc: |
  Exercises an item's own alignment and where in the item it applies (`-pool: {id, align: N, align-at: M}` on an
  instance): BNTX's GPU region, whose block header comes 0x10 bytes before an address aligned to the file's
  alignment. The block is placed where its start plus 8 is a multiple of 0x40, so that its data (after its 8-byte
  header) is aligned; the record's blob (an item of another type in the same region: a group) where its start
  plus 4 is a multiple of 0x20. Other items keep the pool's `item-align`. An item found elsewhere keeps an
  alignment choice that applies at the same place in the item.
seq:
  - id: magic
    contents: AAT0
  - id: name_ofs
    type: u4
  - id: block_ofs
    type: u4
  - id: sub
    type: sub
  - id: heap
    size-eos: true
    -pool:
      id: heap
      item-align: 4
instances:
  name:
    pos: name_ofs
    type: strz
    encoding: UTF-8
    -pool: heap
  block:
    pos: block_ofs
    type: block
    -pool:
      id: heap
      align: 0x40
      align-at: 8
types:
  block:
    seq:
      - id: magic
        contents: BLK0
      - id: size
        type: u4
      - id: data
        size: size
  sub:
    seq:
      - id: blob_ofs
        type: u4
    instances:
      blob:
        pos: blob_ofs
        size: 4
        io: _root._io
        -pool:
          id: heap
          align: 0x20
          align-at: 4
