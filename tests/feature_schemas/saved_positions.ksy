meta:
  id: saved_positions
  endian: le
doc: |
  Positions saved in the middle of a `seq` with Kaitai's idiom: a value instance `_io.pos`, named first by the
  condition of an empty field (`size: 0`, `if: ofs_b < 0`), holds the position of that field, since Kaitai
  computes a value instance once, when it is first named. binspec binds such an instance there, in the reader and
  the writer alike: `len_b` is the length of `b` as written, and the instance `tail` after the `seq` is as long.
seq:
  - id: len_a
    type: u1
  - id: a
    size: len_a
  - size: 0
    if: ofs_b < 0
  - id: b
    type: strz
    encoding: ASCII
  - size: 0
    if: ofs_end < 0
instances:
  ofs_b:
    value: _io.pos
  ofs_end:
    value: _io.pos
  len_b:
    value: ofs_end - ofs_b
  tail:
    pos: ofs_end
    size: len_b
