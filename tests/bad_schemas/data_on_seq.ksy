# expect: data_on_seq.ksy:7:12: error: /seq/0/-data: '-data' takes an integer type
meta:
  id: data_on_seq
  endian: le
seq:
  - id: n
    -data: u1
    type: u1
