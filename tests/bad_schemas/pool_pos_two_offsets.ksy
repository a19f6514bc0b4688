# expect: pool_pos_two_offsets.ksy:17:5: error: /instances/name: 'pos' of a pool item names two fields of this type that could be its offset, 'name_ofs' and 'pool_ofs'; name the base through its owner ('_root.pool_ofs' or '_parent.pool_ofs', if 'pool_ofs' is the base) so that the other is the offset
meta:
  id: pool_pos_two_offsets
  endian: le
seq:
  - id: pool_ofs
    type: u4
  - id: name_ofs
    type: u4
  - id: pool
    size-eos: true
    -pool:
      id: strings
      dedup: true
instances:
  name:
    pos: pool_ofs + name_ofs
    type: strz
    encoding: UTF-8
    -pool: strings
