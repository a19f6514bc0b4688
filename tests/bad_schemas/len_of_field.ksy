# expect: len_of_field.ksy:8:14: error: /seq/0/-derive: 'body._len' is known for an instance with 'pos' (a record read where it says)
meta:
  id: len_of_field
  endian: le
seq:
  - id: size
    type: u1
    -derive: body._len
  - id: body
    type: u2
