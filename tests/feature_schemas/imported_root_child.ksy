meta:
  id: imported_root_child
  title: A schema that imported_root.ksy imports
  endian: le
doc: |
  Its `_root` is its own top-level type, also where another schema imports it (`imported_root.ksy`).
seq:
  - id: big
    type: u1
  - id: body
    type: body
types:
  body:
    seq:
      - id: value
        size: '_root.big == 0 ? 2 : 4'
