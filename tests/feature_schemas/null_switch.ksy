meta:
  id: null_switch
  endian: le
doc: |
  Exercises an unsized switch without a `_` case: a tag that no case names reads nothing (Kaitai's null), so the
  field is optional in the model; and `-no-case: error`, where such a tag is a read error instead.
seq:
  - id: tag
    type: u1
  - id: body
    type:
      switch-on: tag
      cases:
        1: u1
        2: u2
  - id: strict_tag
    type: u1
  - id: strict
    -no-case: error
    type:
      switch-on: strict_tag
      cases:
        1: u1
