# expect: camel_clash_enum.ksy:13:5: error: /types/kind: type 'kind' and enum 'kind' (camel_clash_enum.ksy:18:5, /enums/kind) both become the Rust name 'Kind'
meta:
  id: camel_clash_enum
  endian: le
seq:
  - id: kind
    type: u1
    enum: kind
  - id: body
    type: kind
types:
  kind:
    seq:
      - id: x
        type: u1
enums:
  kind:
    1: one
