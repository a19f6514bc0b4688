meta:
  id: expr_errors
  endian: le
doc: |
  Exercises expressions that can fail as Kaitai's do: a division (or modulo) by zero, a string's `to_i` that is
  no integer, and an index out of range are read errors (and write errors) naming the field, never a made-up value
  or a panic; in a `valid` check over the elements of an array as well.
seq:
  - id: n
    type: u1
  - id: digits
    type: str
    size: 2
    encoding: ASCII
  - id: head
    size: 12 / n
  - id: body
    size: digits.to_i(16)
  - id: items
    type: u1
    repeat: expr
    repeat-expr: 2
    valid:
      expr: _ % n == 0
  - id: pick
    type: u1
  - id: tail
    size: items[pick]
    doc: As long as the item `pick` says (an index past the items is an error, not a size of 0).
