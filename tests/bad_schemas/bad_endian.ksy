# expect: bad_endian.ksy:4:11: error: /meta/endian: endian must be 'le' or 'be' (did you mean 'le'?)
meta:
  id: bad_endian
  endian: lee
seq:
  - id: a
    type: u2
