# expect: resdic_no_array.ksy:11:9: error: /types/node/seq/0: '-derive' uses '_dic', but no '-resdic' array has type 'node' as its nodes (mark the array of nodes with '-resdic: KEY', KEY being the node's key field)
meta:
  id: resdic_no_array
  endian: le
seq:
  - id: node
    type: node
types:
  node:
    seq:
      - id: ref_bit
        type: u4
        -derive: _dic.ref_bit
