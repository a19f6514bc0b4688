meta:
  id: imported_root_io_child
  title: A schema that places data in its own stream
  endian: le
doc: Read as another schema's record, `_root._io` is the stream of this record.
seq:
  - id: ofs_data
    type: u1
  - id: len_data
    type: u1
instances:
  data:
    io: _root._io
    pos: ofs_data
    size: len_data
    doc: In this record's stream, past its fields.
