# expect: parent_other.ksy:9:13: error: /seq/1/parent: 'parent: _root' is not supported yet: binspec takes 'parent: false' and 'parent: _parent'
meta:
  id: parent_other
seq:
  - id: a
    type: u1
  - id: b
    type: child
    parent: _root
types:
  child:
    seq:
      - id: x
        type: u1
