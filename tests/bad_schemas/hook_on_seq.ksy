# expect: hook_on_seq.ksy:7:12: error: /seq/0/-hook: '-hook' takes the name of a hand-written function (snake_case), on a value instance
meta:
  id: hook_on_seq
  endian: le
seq:
  - id: a
    -hook: decide
    type: u4
