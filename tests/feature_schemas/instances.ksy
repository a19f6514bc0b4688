meta:
  id: instances
  endian: le
doc: |
  Exercises instances: value instances (computed, never written), positioned instances read from offsets the file
  stores and written back there, and `-view` (only read, never written: one read from a position computed from
  the file size, and the byte at 0, which the seq writes anyway).
seq:
  - id: width
    type: u2
  - id: height
    type: u2
  - id: table_ofs
    type: u2
  - id: table_len
    type: u1
instances:
  area:
    value: width * height
  is_square:
    value: width == height
  table:
    pos: table_ofs
    size: table_len
    doc: Bytes at an offset the header stores.
  footer:
    pos: table_ofs + table_len
    type: u2
    doc: Right after the table.
  last_byte:
    pos: _io.size - 1
    type: u1
    -view: true
    doc: The last byte of the file; never written.
  first_byte:
    pos: 0
    type: u1
    -view: true
    doc: The low byte of `width`, read again; never written.
