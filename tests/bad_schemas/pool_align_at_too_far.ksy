# expect: pool_align_at_too_far.ksy:18:14: error: /instances/block/-pool/align: an item's alignment is a power of two up to 0x100000, and 'align-at' is below it and below 0x10000 (got align 0x10, align-at 0x10)
meta:
  id: pool_align_at_too_far
  endian: le
seq:
  - id: ofs
    type: u1
  - id: heap
    size-eos: true
    -pool:
      id: heap
instances:
  block:
    pos: ofs
    size: 4
    -pool:
      id: heap
      align: 0x10
      align-at: 0x10
