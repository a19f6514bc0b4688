# expect: ext_wrong_place.ksy:7:14: error: /types/entry/-derive: binspec key '-derive' does not go on a type
meta:
  id: ext_wrong_place
  endian: le
types:
  entry:
    -derive: 4
    seq:
      - id: a
        type: u4
seq:
  - id: e
    type: entry
