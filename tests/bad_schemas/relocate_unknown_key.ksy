# expect: relocate_unknown_key.ksy:10:7: error: /seq/0/-relocate: '-relocate' has no key 'list-nul' (it takes id and list-null) (did you mean 'list-null'?)
meta:
  id: relocate_unknown_key
  endian: le
seq:
  - id: ptr
    type: u8
    -relocate:
      id: main
      list-nul: true
  - id: data
    size-eos: true
    -pool:
      id: data
instances:
  entries:
    pos: 0
    type: entry
    repeat: expr
    repeat-expr: 1
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
