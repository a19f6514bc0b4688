# expect: given_not_derived.ksy:8:5: error: /seq/1: 'more' holds 'entry', whose 'base' is derived by the type that holds it (an item's `pos` or `repeat-expr` names it); here nothing does: hold it in a plain field of a type whose item names it
meta:
  id: given_not_derived
  endian: le
seq:
  - id: first
    type: holder
  - id: more
    type: entry
    repeat: expr
    repeat-expr: 2
  - id: table
    size-eos: true
    -pool:
      id: values
types:
  entry:
    seq:
      - id: base
        type: u1
  holder:
    seq:
      - id: entry
        type: entry
    instances:
      values:
        pos: 8 + entry.base * 2
        type: u2
        -pool: values
