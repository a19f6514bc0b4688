# expect: relocate_unknown_table.ksy:8:16: error: /seq/0/-relocate: '-relocate: mian': no '-relocations' table has id 'mian' (did you mean 'main'?)
meta:
  id: relocate_unknown_table
  endian: le
seq:
  - id: name_ofs
    type: u8
    -relocate: mian
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
        type: u1
      - id: padding_count
        type: u1
