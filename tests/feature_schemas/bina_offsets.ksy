meta:
  id: bina_offsets
  endian: le
doc: |
  Exercises `-relocations` with `encoding: bina`: a BINA offset table (the pointers' positions, each as the
  distance from the one before in units of 4 bytes, in 1, 2 or 4 bytes, padded with zeros to 4 bytes), derived
  by the writer from the pointers marked `-relocate: main`, with its length. The pointers are the header's
  name and optional note (null when absent, and then not listed) and one in each record, after a blob whose
  length the model holds (a long one makes a distance of two bytes).
seq:
  - id: magic
    contents: BINA
  - id: offsets_size
    type: u4
  - id: name_ofs
    type: u8
    -relocate: main
  - id: note_ofs
    type: u8
    -relocate: main
  - id: blob_len
    type: u4
  - id: record_count
    type: u4
  - id: blob
    size: blob_len
  - id: records
    type: record
    repeat: expr
    repeat-expr: record_count
  - id: offsets
    size: offsets_size
    -relocations:
      id: main
      encoding: bina
  - id: strings
    size-eos: true
    -pool:
      id: strings
instances:
  name:
    pos: name_ofs
    type: strz
    encoding: UTF-8
    -pool: strings
  note:
    pos: note_ofs
    type: strz
    encoding: UTF-8
    if: note_ofs != 0
    -pool: strings
types:
  record:
    seq:
      - id: label_ofs
        type: u8
        -relocate: main
      - id: value
        type: u8
    instances:
      label:
        pos: label_ofs
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: strings
