meta:
  id: element_args
  endian: le
doc: |
  Arguments that name the element's index (`_index`): `items[1].len` is the argument element 1 was given
  (`lens[1]`), and a repeated instance whose elements take their index is written like any placed instance (it
  was a read-only view).
seq:
  - id: lens
    type: u1
    repeat: expr
    repeat-expr: 2
  - id: items
    type: item(lens[_index])
    repeat: expr
    repeat-expr: 2
  - id: tail
    size: items[1].len
    doc: As long as the second item (the argument that item was given).
instances:
  heads:
    pos: 0
    type: head(_index)
    repeat: expr
    repeat-expr: 2
    doc: The file's first bytes again, as many for each element as `lens` says.
types:
  item:
    params:
      - id: len
        type: u1
    seq:
      - id: data
        size: len
  head:
    params:
      - id: idx
        type: u1
    seq:
      - id: b
        size: _root.lens[idx]
