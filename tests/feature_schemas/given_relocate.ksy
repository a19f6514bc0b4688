meta:
  id: given_relocate
  endian: le
doc: |
  Exercises a relocated pointer that a repeated record's holder derives: each entry's name is a pool item whose
  `pos` is a field of a record in the entry's `seq` (`info.name_ofs`, as BFRES's user data entries point to their
  names through nn::gfx's user data record), and the relocation table lists every such pointer, one per entry.
seq:
  - id: magic
    contents: GREL
  - id: table_ofs
    type: u4
  - id: entry_count
    type: u4
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: entry_count
  - id: data
    size-eos: true
    -pool:
      id: data
instances:
  table:
    pos: table_ofs
    type: reloc_table
    -pool: data
types:
  entry:
    seq:
      - id: info
        type: info
      - id: value
        type: u4
    instances:
      name:
        pos: info.name_ofs
        type: strz
        encoding: UTF-8
        io: _root._io
        if: info.name_ofs != 0
        -pool: data
  info:
    seq:
      - id: name_ofs
        type: u8
        -relocate: main
      - id: flags
        type: u4
  reloc_table:
    seq:
      - id: count
        type: u4
      - id: section
        type: reloc_section
      - id: area
        size-eos: true
        -pool:
          id: entries
  reloc_section:
    doc: Reads nothing; its instance is the table's entries (a group of the table's region, as nn::util's are).
    instances:
      list:
        pos: _root.table_ofs + 4
        io: _root._io
        type: reloc
        repeat: expr
        repeat-expr: _parent.count
        -pool: entries
        -relocations:
          id: main
  reloc:
    seq:
      - id: position
        type: u4
      - id: struct_count
        type: u2
      - id: offset_count
        type: u1
      - id: padding_count
        type: u1
