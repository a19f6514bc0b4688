# expect: derive_bad_hash.ksy:8:27: error: /seq/0/-derive: in 'name.murmur3("seed")': the argument of 'murmur3' must be an integer, found str
meta:
  id: derive_bad_hash
  endian: le
seq:
  - id: name_hash
    type: u4
    -derive: name.murmur3("seed")
  - id: name
    type: strz
    encoding: UTF-8
