meta:
  id: outer_args
  endian: le
doc: |
  A parameter (and a value instance computed from one) of a record reached through an outer value:
  `_parent.chunks[index].len` in a record read by another field. binspec keeps no parameter in the model and passes
  a reader the outer values it names, so the expression becomes the argument the record was passed, written from
  where it is (`_parent.lens[index]`), and the value instance its own expression. A parameter of the parent itself
  (`_parent.has_addend`) is passed down like a field, and two cases of a switch that read one type with other
  arguments are written with the arguments of the case the tag chooses.
seq:
  - id: lens
    type: u1
    repeat: expr
    repeat-expr: 3
  - id: bias
    type: u1
  - id: users
    type: user(_index)
    repeat: expr
    repeat-expr: 2
  - id: kind
    type: u1
  - id: rel
    type:
      switch-on: kind
      cases:
        1: relocs(false)
        2: relocs(true)
instances:
  chunks:
    pos: 0
    type: chunk(lens[_index])
    repeat: expr
    repeat-expr: 3
types:
  chunk:
    params:
      - id: len
        type: u1
    instances:
      len_plus:
        value: len + _parent.bias
  user:
    params:
      - id: index
        type: u1
    seq:
      - id: body
        size: _parent.chunks[index].len
      - id: more
        size: _parent.chunks[index + 1].len_plus
  relocs:
    params:
      - id: has_addend
        type: bool
    seq:
      - id: entries
        type: reloc
        repeat: expr
        repeat-expr: 2
  reloc:
    seq:
      - id: offset
        type: u1
      - id: addend
        type: u1
        if: _parent.has_addend
