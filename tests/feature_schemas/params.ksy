meta:
  id: params
  title: Params of every kind
  endian: le
doc: |
  A type's params of each kind: an integer array (`u1[]`), a string array (`str[]`), a record of a named type, a
  record of any type (`struct`, cast with `.as<T>`) and a boolean (and an element's own index). The arguments are read where the field is; a
  param is no model field (the writer passes the same arguments), and `x.param` from outside is the argument `x`
  was given.
seq:
  - id: magic
    contents: PARM
  - id: lens
    type: u1
    repeat: expr
    repeat-expr: 2
  - id: names
    type: strz
    encoding: ASCII
    repeat: expr
    repeat-expr: 2
  - id: header
    type: header
  - id: chunk
    type: chunk(lens, names, header, header)
  - id: flagged
    type: flagged(header.flag != 0)
  - id: items
    type: item(_index)
    repeat: expr
    repeat-expr: 2
instances:
  chunk_flag:
    value: chunk.head.flag
  first_size:
    value: chunk.sizes[0]
types:
  header:
    seq:
      - id: flag
        type: u1
  chunk:
    params:
      - id: sizes
        type: u1[]
      - id: labels
        type: str[]
      - id: head
        type: header
      - id: any
        type: struct
    seq:
      - id: first
        size: sizes[0]
      - id: second
        size: sizes[1]
      - id: tail
        type: u1
        if: any.as<header>.flag == 1
    instances:
      first_label:
        value: labels[0]
  item:
    params:
      - id: i
        type: u1
    seq:
      - id: v
        type: u1
        valid:
          expr: _ >= i
  flagged:
    params:
      - id: on
        type: bool
    seq:
      - id: extra
        type: u1
        if: on
