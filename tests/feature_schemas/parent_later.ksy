meta:
  id: parent_later
  endian: le
doc: |
  Exercises an instance whose type names an instance of its parent declared after it (`_parent.seconds[idx]`, a
  count): the parent reads `seconds` first, as Kaitai's lazy instances would. Before, the generated reader did not
  compile (found while writing BFRES's materials, which name their model's shader reflections).
seq:
  - id: a_ptr
    type: u1
  - id: b_ptr
    type: u1
instances:
  firsts:
    pos: a_ptr
    type: first
  seconds:
    pos: b_ptr
    type: u1
    repeat: expr
    repeat-expr: 2
types:
  first:
    seq:
      - id: idx
        type: u1
    instances:
      picked:
        value: _parent.seconds[idx]
      more:
        pos: 0
        type: u1
        repeat: expr
        repeat-expr: picked
