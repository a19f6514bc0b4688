meta:
  id: relocations_data
  endian: le
doc: |
  Exercises `-relocate` on pointers the model holds (data, not offsets the writer derives), as a format's
  pointers are before its writer derives its layout: the relocation table lists each nonzero one where the
  writer writes it, in the section whose region holds its value (a null one too where it is marked `list-null`).
  A file whose table lists other pointers than the schema marks keeps its entries. The table (an `nn::util` one: a range of a
  shared entry table per section) is an instance at an offset the model holds, and its entries, each section's
  entry index and count are derived.
seq:
  - id: magic
    contents: RELD
  - id: table_ofs
    type: u4
  - id: first
    type: u8
    -relocate: main
  - id: second
    type: u8
    -relocate: main
  - id: third
    type: u8
    -relocate: main
    doc: Null in the sample file, so not listed.
  - id: fourth
    type: u8
    -relocate:
      id: main
      list-null: true
    doc: Listed even where null (as version 8 BFRES lists its null dictionary pointers).
instances:
  table:
    pos: table_ofs
    type: relocation_table
types:
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
