# expect: keep_order_on_item.ksy:17:7: error: /instances/blob/-pool: 'keep-order' belongs on the pool's region (the seq attribute with '-pool: {id: ...}'), not on an item
meta:
  id: keep_order_on_item
  endian: le
seq:
  - id: ofs
    type: u4
  - id: heap
    size-eos: true
    -pool:
      id: blobs
instances:
  blob:
    pos: ofs
    size: 4
    -pool:
      id: blobs
      keep-order: true
