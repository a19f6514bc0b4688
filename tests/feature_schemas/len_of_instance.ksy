meta:
  id: len_of_instance
  endian: le
doc: |
  Exercises `x._len`: how many bytes instance `x` takes, from its position to where reading it ended, or what the
  writer wrote of it (BFRES's string pool size, the length of the string pool that its header points to). Here
  `table_size` is derived from it; a file whose value differs keeps its own (`-derive`).
seq:
  - id: table_ofs
    type: u4
  - id: table_size
    type: u4
    -derive: table._len
  - id: tag
    type: u1
instances:
  table:
    pos: table_ofs
    type: table
types:
  table:
    seq:
      - id: count
        type: u1
      - id: names
        type: strz
        encoding: ASCII
        repeat: expr
        repeat-expr: count
