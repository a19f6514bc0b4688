# expect: resdic_dic_arithmetic.ksy:15:18: error: /types/node/seq/0/-derive: '-derive: _dic.left - 1': a dictionary node's field derives from '_dic' alone (write '_dic.ref_bit', '_dic.left' or '_dic.right')
meta:
  id: resdic_dic_arithmetic
  endian: le
seq:
  - id: nodes
    type: node
    repeat: eos
    -resdic: key
types:
  node:
    seq:
      - id: left
        type: u2
        -derive: _dic.left - 1
      - id: key
        type: strz
        encoding: UTF-8
