# expect: camel_clash.ksy:16:5: error: /types/foo__bar: type 'foo__bar' and type 'foo_bar' (camel_clash.ksy:12:5, /types/foo_bar) both become the Rust name 'FooBar' (rename one of them, e.g. type 'foo__bar' to 'foo__bar_type')
meta:
  id: camel_clash
  endian: le
seq:
  - id: a
    type: foo_bar
  - id: b
    type: foo__bar
types:
  foo_bar:
    seq:
      - id: x
        type: u1
  foo__bar:
    seq:
      - id: y
        type: u1
