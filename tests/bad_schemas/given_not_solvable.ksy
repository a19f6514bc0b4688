# expect: given_not_solvable.ksy:23:14: error: /types/holder/instances/values/pos: 'pos' names 'entry.base', a field of a record of this type, but cannot be solved for it (it must appear once, under + - and multiplication by a constant)
meta:
  id: given_not_solvable
  endian: le
seq:
  - id: first
    type: holder
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
        pos: entry.base * entry.base
        type: u2
        -pool: values
