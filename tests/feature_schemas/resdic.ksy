meta:
  id: resdic
  endian: le
doc: |
  Exercises `-resdic`: an `nn::util` dictionary, a Patricia tree over its keys, whose nodes' reference bits and
  left and right indices are derived from the keys in their order (`-derive: _dic.ref_bit`, `_dic.left`,
  `_dic.right` on the node's fields; `-resdic: key` on the array names each node's key). Node 0 is the root, with
  an empty key. The keys are strings of a pool after the nodes.
seq:
  - id: magic
    contents: _DIC
  - id: count
    type: s4
  - id: nodes
    type: node
    repeat: expr
    repeat-expr: count + 1
    -resdic: key
  - id: strings
    size-eos: true
    -pool:
      id: strings
types:
  node:
    seq:
      - id: ref_bit
        type: u4
        -derive: _dic.ref_bit
      - id: left
        type: u2
        -derive: _dic.left
      - id: right
        type: u2
        -derive: _dic.right
      - id: key_ofs
        type: u4
    instances:
      key:
        pos: key_ofs
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: strings
