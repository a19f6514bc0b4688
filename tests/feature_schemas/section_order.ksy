meta:
  id: section_order
  endian: le
doc: |
  Exercises a region whose members have a default order that is not the declared one (`order` on the region, as
  AINB's sections): the records' blobs (a group) first, then the `tail` and `head` sections. A file in that order
  keeps no order in its model; a new model is written in it; a file in another order keeps its own.
seq:
  - id: magic
    contents: ORDR
  - id: record_count
    type: u1
  - id: head_ofs
    type: u1
  - id: tail_ofs
    type: u1
  - id: records
    type: record
    repeat: expr
    repeat-expr: record_count
  - id: sections
    size-eos: true
    -pool:
      id: sections
      order: [record.blob, tail]
instances:
  head:
    pos: head_ofs
    type: u1
    repeat: expr
    repeat-expr: 2
    -pool: sections
  tail:
    pos: tail_ofs
    type: strz
    encoding: UTF-8
    -pool: sections
types:
  record:
    seq:
      - id: blob_ofs
        type: u1
      - id: blob_len
        type: u1
    instances:
      blob:
        pos: blob_ofs
        size: blob_len
        io: _root._io
        -pool: sections
