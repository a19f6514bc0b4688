# expect: unknown_ext.ksy:7:15: error: /seq/0/-derived: unknown binspec key '-derived' on a seq attribute (did you mean '-derive'?)
meta:
  id: unknown_ext
seq:
  - id: size
    type: u4
    -derived: _io.size
