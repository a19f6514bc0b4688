# expect: endian_switch_self.ksy:5:16: error: /meta/endian/switch-on: the byte order of type 'endian_switch_self' is chosen by 'bom', which needs 'bom' (a 'u2' without 'le' or 'be', endian_switch_self.ksy:10:5, /seq/0), read in the byte order being chosen (give 'bom' its own byte order ('u2le' or 'u2be'), or decide from a single byte)
meta:
  id: endian_switch_self
  endian:
    switch-on: bom
    cases:
      0xfeff: be
      0xfffe: le
seq:
  - id: bom
    type: u2
  - id: value
    type: u4
