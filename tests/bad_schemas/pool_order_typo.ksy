# expect: pool_order_typo.ksy:12:7: error: /seq/1/-pool: unknown key 'oder' in '-pool' (it takes id, align, align-at, item-align, dedup, keep-order, order) (did you mean 'order'?)
meta:
  id: pool_order_typo
  endian: le
seq:
  - id: ofs
    type: u1
  - id: heap
    size-eos: true
    -pool:
      id: blobs
      oder: [blob]
instances:
  blob:
    pos: ofs
    size: 1
    -pool: blobs
