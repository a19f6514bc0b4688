meta:
  id: enums
  endian: le
doc: |
  Exercises `enum:`: an enum on a u1 and on a u2 field (values the enum does not name are kept), an enum on a bit
  field, an enum value compared in an `if`, an enum-typed parameter and a repeated enum field. `level` names a value
  `unknown`, as Windows' `cpu_archs` in Kaitai's gallery does: its variant for values the schema does not name is
  then `UnknownValue`.
seq:
  - id: kind
    type: u1
    enum: kind
  - id: color
    type: u2
    enum: color
    -default: color::green
  - id: level
    type: b4
    enum: level
  - id: unused
    type: b4
  - id: big_only
    type: u4
    if: kind == kind::big
    doc: Present for big things only.
  - id: tail
    type: tail(kind)
  - id: history
    type: u1
    enum: kind
    repeat: expr
    repeat-expr: 3
    doc: A repeated enum field.
enums:
  kind:
    1: small
    2:
      id: big
      doc: A big thing, with a `big_only` field.
  color:
    0x10: red
    0x20: green
    0x400: blue
  level:
    0: low
    7: high
    0xf: unknown
types:
  tail:
    params:
      - id: of_kind
        type: u1
        enum: kind
    seq:
      - id: extra
        type: u1
        if: of_kind == kind::small
