meta:
  id: view_guard
  endian: le
doc: |
  Exercises a pool item's condition that names its own offset and an instance that is only read (`-view`): a
  guard on where the offset points (BFRES's shader parameter names, read only where the byte after the length at
  the pointer is a zero). The writer does not check it, the model's presence decides: an entry whose name is
  there gets its offset derived, and one whose offset points at no string keeps it. A condition on a view alone
  (`note`, which does not name its offset) is not checked either.
seq:
  - id: count
    type: u1
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: count
  - id: note_ofs
    type: u1
  - id: strings
    size-eos: true
    -pool:
      id: strings
instances:
  note_len:
    pos: note_ofs
    type: u1
    -view: true
  note:
    pos: note_ofs
    type: pstr
    if: note_len < 0x80
    -pool: strings
    doc: A string read only where the byte at its offset is below 0x80 (a view alone decides).
types:
  entry:
    seq:
      - id: name_ofs
        type: u1
    instances:
      name_len:
        pos: name_ofs
        type: u1
        io: _root._io
        -view: true
        doc: The length byte at the offset.
      name_end:
        pos: name_ofs + 1 + name_len
        type: u1
        io: _root._io
        -view: true
        doc: The byte after that many characters, 0 where a string is there.
      name:
        pos: name_ofs
        type: pstr
        io: _root._io
        if: name_ofs != 0 and name_end == 0
        -pool: strings
  pstr:
    seq:
      - id: len
        type: u1
      - id: text
        type: str
        size: len
        encoding: ASCII
      - id: term
        contents: [0]
