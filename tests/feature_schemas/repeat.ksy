meta:
  id: repeat
  endian: le
doc: |
  Exercises the three repetitions: `repeat: expr` with a constant and with a count field (a derived count),
  `repeat: until` over integers, strings and a user type (`_` the element just read), and `repeat: eos` to the end
  of the file.
seq:
  - id: fixed
    type: u2
    repeat: expr
    repeat-expr: 3
  - id: count
    type: u1
  - id: counted
    type: u1
    repeat: expr
    repeat-expr: count
  - id: until_zero
    type: u1
    repeat: until
    repeat-until: _ == 0
  - id: names
    type: strz
    encoding: ASCII
    repeat: until
    repeat-until: _ == "end"
  - id: chunks
    type: chunk
    repeat: until
    repeat-until: _.last != 0
  - id: rest
    type: pair
    repeat: eos
types:
  chunk:
    seq:
      - id: value
        type: u2
      - id: last
        type: u1
  pair:
    seq:
      - id: a
        type: u1
      - id: b
        type: s1
