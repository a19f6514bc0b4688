# expect: unknown_type.ksy:6:11: error: /seq/0/type: unknown type 'u5' (did you mean 'u1'?)
meta:
  id: unknown_type
seq:
  - id: count
    type: u5
