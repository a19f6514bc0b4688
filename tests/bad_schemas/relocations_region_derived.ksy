# expect: relocations_region_derived.ksy:30:13: error: /instances/entries/-relocations/size: 'entry_ofs': 'entry_ofs' is derived by the writer, which computes the entries before it; the region must be data or positions ('_root.x._pos')
meta:
  id: relocations_region_derived
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
      from: 0
      size: entry_ofs
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
