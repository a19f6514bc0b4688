# expect: relocate_not_a_pointer.ksy:8:16: error: /seq/0/-relocate: '-relocate: main' marks a pointer: an 8-byte offset, derived by the writer (named by the 'pos' of a pool item, or '-derive'd) or data, not repeated and without a condition
meta:
  id: relocate_not_a_pointer
  endian: le
seq:
  - id: count
    type: u8
    -relocate: main
  - id: things
    type: u1
    repeat: expr
    repeat-expr: count
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
