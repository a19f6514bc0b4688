# expect: resdic_not_repeated.ksy:8:14: error: /seq/0/-resdic: '-resdic' takes the name of the key field of the node records, on a repeated seq attribute of records (for example '-resdic: name')
meta:
  id: resdic_not_repeated
  endian: le
seq:
  - id: root
    type: node
    -resdic: key
types:
  node:
    seq:
      - id: key
        type: strz
        encoding: UTF-8
