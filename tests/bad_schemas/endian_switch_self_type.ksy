# expect: endian_switch_self_type.ksy:5:16: error: /meta/endian/switch-on: the byte order of type 'endian_switch_self_type' is chosen by 'header.bom', which needs 'header' (type 'header', which reads numbers in the byte order it inherits
meta:
  id: endian_switch_self_type
  endian:
    switch-on: header.bom
    cases:
      0xfeff: be
      0xfffe: le
seq:
  - id: header
    type: header
  - id: value
    type: u4
types:
  header:
    seq:
      - id: magic
        size: 2
      - id: bom
        type: u2
