# expect: if_not_bool.ksy:9:9: error: /seq/1/if: 'if' needs a boolean, but 'len + 1' is s8
meta:
  id: if_not_bool
  endian: le
seq:
  - id: len
    type: u1
  - id: body
    if: len + 1
    size: len
