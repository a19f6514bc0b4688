# expect: nested_place_twice.ksy:15:14: error: /seq/2/-derive: 'blob._pos': 'rec' or this type is written more than once per file, so the writer cannot tell which one's item this is
meta:
  id: nested_place_twice
  endian: le
doc: |
  `a.x.blob._pos` where the record type holding `blob` is written twice per file (under `a`, and under `c.b`): the
  writer could not tell which one's item the expression means.
seq:
  - id: a
    type: holder_a
  - id: c
    type: holder_c
  - id: blob_at
    type: u1
    -derive: a.x.blob._pos
  - id: data
    size-eos: true
    -pool:
      id: data
types:
  holder_a:
    seq:
      - id: x
        type: rec
  holder_b:
    seq:
      - id: y
        type: rec
  holder_c:
    seq:
      - id: b
        type: holder_b
  rec:
    seq:
      - id: ofs
        type: u1
    instances:
      blob:
        pos: ofs
        size: 1
        io: _root._io
        -pool: data
