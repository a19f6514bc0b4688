meta:
  id: resdic_record_key
  endian: le
doc: |
  Exercises `-resdic: RECORD.KEY`: an `nn::util`-style dictionary whose nodes point to their keys, each a record
  (a length and the text) that a node may lack (a null offset). The nodes' reference bits and indices are
  derived from the keys' texts in their order (`-resdic: key.text`); where a node has no key, nothing is derived
  and the file's values are kept.
seq:
  - id: magic
    contents: RDK1
  - id: count
    type: s4
  - id: nodes
    type: node
    repeat: expr
    repeat-expr: count + 1
    -resdic: key.text
  - id: names
    size-eos: true
    -pool:
      id: names
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
        type: name
        io: _root._io
        if: key_ofs != 0
        -pool: names
  name:
    seq:
      - id: len
        type: u1
      - id: text
        type: str
        size: len
        encoding: UTF-8
