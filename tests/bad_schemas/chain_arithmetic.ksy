# expect: chain_arithmetic.ksy:10:18: error: /types/block/seq/0/-derive: '_chain.next + 4': '_chain' is only the whole '-derive' of an integer field (write '-derive: _chain.next' (the distance to the next record of the chain) or '_chain.size' (the same, or to the instance marked '-chain-end' for the last record) on an integer field without 'if' or 'repeat')
meta:
  id: chain_arithmetic
  endian: le
types:
  block:
    seq:
      - id: next
        type: u4
        -derive: _chain.next + 4
      - id: size
        type: u4
seq:
  - id: blocks
    type: block
    repeat: eos
