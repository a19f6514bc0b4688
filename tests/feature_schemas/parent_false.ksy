meta:
  id: parent_false
  endian: le
doc: |
  Exercises Kaitai's `parent: false` on a type another field reads with a parent: the record read without one gets
  its types' defaults for what it names of `_parent` (here an empty string: its size is 0 + 1), whatever the type
  of the value (a string is passed as `""`).
seq:
  - id: name
    type: strz
    encoding: ASCII
  - id: a
    type: child
  - id: c
    type: child
    parent: false
types:
  child:
    seq:
      - id: n
        size: _parent.name.length + 1
