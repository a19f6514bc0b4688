# expect: relocations_entry_fields.ksy:28:7: error: /instances/entries/-relocations: '-relocations' goes on a pool item repeated by 'repeat-expr', with no 'if', whose type has exactly these fields, plain data: u4 position, u2 struct count, u1 offset count, u1 padding count (or, with 'encoding: bina', on bytes)
meta:
  id: relocations_entry_fields
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
types:
  entry:
    seq:
      - id: position
        type: u4
      - id: struct_count
        type: u2
      - id: offset_count
        type: u2
      - id: padding_count
        type: u1
