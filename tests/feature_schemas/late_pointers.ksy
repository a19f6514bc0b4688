meta:
  id: late_pointers
  endian: le
doc: |
  Exercises a relocation table read before some of the pointers it lists: a pointer held in an instance of a
  record (`holder.value`, read over bytes of the record's `values`, at the file's 0x10) that the generated reader
  reads with its record and the interpreter when first named, after it has read the table, a root instance. Both
  readers judge the table against every pointer of the file: this one's entries are what the writer derives, and
  the model keeps none.
seq:
  - id: magic
    contents: LATE
  - id: table_ofs
    type: u4
  - id: name_ofs
    type: u8
    -relocate: main
  - id: holder
    type: holder
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
  table:
    pos: table_ofs
    type: relocation_table
    -pool: data
types:
  holder:
    seq:
      - id: values
        size: 8
        doc: Bytes that hold a pointer, read as one by `value`.
    instances:
      value:
        pos: 0x10
        type: pointer
        io: _root._io
  pointer:
    seq:
      - id: ofs
        type: u8
        -relocate: main
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
