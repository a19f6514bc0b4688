meta:
  id: imported_root_io
  title: An imported schema's own stream
  endian: le
  imports:
    - imported_root_io_child
doc: |
  In an imported schema's types, `_root._io` is the stream of that schema's top-level record, not the file's (as in
  Kaitai's `mach_o_fat`, whose objects place their data at offsets inside the object): the object here is read
  from a slot of its own, and its `data` lies in that slot, past the object's fields, where the writer pads the
  slot with it. An optional sized string that is absent has no slot, and so no filler.
seq:
  - id: ofs_object
    type: u1
  - id: len_object
    type: u1
  - id: has_name
    type: u1
  - id: name
    type: strz
    encoding: ASCII
    size: 4
    if: has_name != 0
instances:
  object:
    pos: ofs_object
    size: len_object
    type: imported_root_io_child
