# expect: camel_clash_enum.ksy:13:5: error: /types/foo_bar: type 'foo_bar' and enum 'foo__bar' (camel_clash_enum.ksy:18:5, /enums/foo__bar) both become the Rust name 'FooBar'
meta:
  id: camel_clash_enum
  endian: le
seq:
  - id: kind
    type: u1
    enum: foo__bar
  - id: body
    type: foo_bar
types:
  foo_bar:
    seq:
      - id: x
        type: u1
enums:
  foo__bar:
    1: one
