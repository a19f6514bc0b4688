# expect: resdic_bad_key.ksy:9:14: error: /seq/0/-resdic: '-resdic: kye': type 'node' has no field 'kye'
meta:
  id: resdic_bad_key
  endian: le
seq:
  - id: nodes
    type: node
    repeat: eos
    -resdic: kye
types:
  node:
    seq:
      - id: key
        type: strz
        encoding: UTF-8
