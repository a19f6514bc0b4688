meta:
  id: nested
  endian: le
doc: |
  Exercises a section that is a file of its own (EXB inside AINB): the header gives the section's offset and size,
  and the offsets inside it are relative to its start. The writer derives both, and the inner offsets from where
  the inner writer puts its items.
seq:
  - id: magic
    contents: NEST
  - id: inner_ofs
    type: u4
  - id: inner_size
    type: u4
  - id: tail_ofs
    type: u4
  - id: sections
    size-eos: true
    -pool:
      id: sections
instances:
  inner:
    pos: inner_ofs
    size: inner_size
    type: inner
    -pool: sections
  tail:
    pos: tail_ofs
    type: strz
    encoding: UTF-8
    -pool: sections
types:
  inner:
    seq:
      - id: magic
        contents: INNR
      - id: name_ofs
        type: u4
      - id: heap
        size-eos: true
        -pool:
          id: heap
    instances:
      name:
        pos: name_ofs
        type: strz
        encoding: UTF-8
        -pool: heap
