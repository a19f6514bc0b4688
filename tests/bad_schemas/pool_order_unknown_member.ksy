# expect: pool_order_unknown_member.ksy:14:14: error: /seq/2/-pool/order: 'order' of pool 'sections' names 'head.blob', which is no member of its region (the members: tail, head, record.blob)
meta:
  id: pool_order_unknown_member
  endian: le
seq:
  - id: head_ofs
    type: u1
  - id: tail_ofs
    type: u1
  - id: sections
    size-eos: true
    -pool:
      id: sections
      order: [head.blob, tail]
instances:
  head:
    pos: head_ofs
    type: u1
    -pool: sections
  tail:
    pos: tail_ofs
    type: u1
    -pool: sections
types:
  record:
    seq:
      - id: blob_ofs
        type: u1
    instances:
      blob:
        pos: blob_ofs
        size: 1
        io: _root._io
        -pool: sections
