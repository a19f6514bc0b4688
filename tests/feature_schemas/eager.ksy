meta:
  id: eager
  endian: le
doc: |
  Exercises `-eager`: a tree linked by offsets. A node holds a value and references to its children; each
  reference's target is a node again, so Kaitai reads it lazily. With `-eager: true` binspec reads the whole tree
  with its parent, keeps it in the model and writes each node back at its offset.
seq:
  - id: magic
    contents: TREE
  - id: root_ofs
    type: u4
instances:
  root:
    pos: root_ofs
    type: node
types:
  node:
    seq:
      - id: value
        type: u2
      - id: child_count
        type: u2
      - id: children
        type: child_ref
        repeat: expr
        repeat-expr: child_count
  child_ref:
    seq:
      - id: ofs
        type: u4
    instances:
      target:
        pos: ofs
        type: node
        io: _root._io
        -eager: true
