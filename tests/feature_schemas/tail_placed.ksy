meta:
  id: tail_placed
  endian: le
doc: |
  Exercises a region to the end of the file in a file where a record holds an instance written where the file had
  it (BFRES's GPU region and relocation table, after its pooled structures): the bytes after the region's items
  are not kept as the region's trailing bytes, which would hold the placed instance's bytes a second time, so an
  item may grow into the room before the placed instance.
seq:
  - id: magic
    contents: TAIL
  - id: header
    type: header
  - id: body
    size-eos: true
    doc: Where the name goes.
    -pool:
      id: body
types:
  header:
    seq:
      - id: name_ofs
        type: u1
      - id: footer_ofs
        type: u1
    instances:
      name:
        pos: name_ofs
        type: strz
        encoding: ASCII
        io: _root._io
        -pool: body
      footer:
        pos: footer_ofs
        size: 4
        io: _root._io
        doc: Written where the file had it.
