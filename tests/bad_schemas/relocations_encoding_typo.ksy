# expect: relocations_encoding_typo.ksy:29:17: error: /instances/entries/-relocations/encoding: '-relocations/encoding': unknown encoding 'bian' (it takes nn-util or bina) (did you mean 'bina'?)
meta:
  id: relocations_encoding_typo
  endian: le
seq:
  - id: name_ofs
    type: u8
    -relocate: main
  - id: entry_ofs
    type: u4
  - id: data
    size-eos: true
    -pool:
      id: data
instances:
  name:
    pos: name_ofs
    type: strz
    encoding: UTF-8
    -pool: data
  entries:
    pos: entry_ofs
    type: entry
    repeat: expr
    repeat-expr: 2
    -pool: data
    -relocations:
      id: main
      encoding: bian
types:
  entry:
    seq:
      - id: position
        type: u4
      - id: struct_count
        type: u2
      - id: offset_count
        type: u1
      - id: padding_count
        type: u1
