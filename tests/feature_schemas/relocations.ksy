meta:
  id: relocations
  endian: le
doc: |
  Exercises `-relocate` and `-relocations`: a table that lists where every pointer of the file is, shaped as an
  `nn::util` relocation table (entries of {u4 position, u2 struct count, u1 offset count, u1 padding count}, a
  range of them per section, each section listing the pointers whose values lie in its region). The pointers
  are the header's name and its optional note (null when absent, and then not listed) and one in each record
  (every 16 bytes, so they group into one entry). The entries, each section's entry index and count, and the
  table's offset are derived: the model holds the sections' regions only.
seq:
  - id: magic
    contents: RELO
  - id: table_ofs
    type: u4
  - id: name_ofs
    type: u8
    -relocate: main
  - id: note_ofs
    type: u8
    -relocate: main
  - id: record_count
    type: u4
  - id: reserved
    type: u4
  - id: records
    type: record
    repeat: expr
    repeat-expr: record_count
  - id: data
    size-eos: true
    -pool:
      id: data
instances:
  name:
    pos: name_ofs
    type: strz
    encoding: UTF-8
    -pool: data
  note:
    pos: note_ofs
    type: strz
    encoding: UTF-8
    if: note_ofs != 0
    -pool: data
  table:
    pos: table_ofs
    type: relocation_table
    -pool: data
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
        -pool: data
  relocation_table:
    seq:
      - id: magic
        contents: _RLT
      - id: section_count
        type: u4
      - id: sections
        type: section
        repeat: expr
        repeat-expr: section_count
      - id: entries
        size-eos: true
        -pool:
          id: entries
  section:
    seq:
      - id: region_ofs
        type: u4
      - id: region_size
        type: u4
      - id: entry_index
        type: u4
      - id: entry_count
        type: u4
    instances:
      entries:
        pos: _root.table_ofs + 8 + _parent.section_count * 16 + entry_index * 8
        type: entry
        repeat: expr
        repeat-expr: entry_count
        io: _root._io
        -pool: entries
        -relocations:
          id: main
          from: region_ofs
          size: region_size
  entry:
    seq:
      - id: position
        type: u4
      - id: struct_count
        type: u2
      - id: offset_count
        type: u1
      - id: padding_count
        type: u1
