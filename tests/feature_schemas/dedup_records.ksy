meta:
  id: dedup_records
  endian: le
doc: |
  A deduplicating pool of records: length-prefixed strings as nn::util's NW strings are (a u2 length, the
  characters, a zero byte, padding to 2 bytes). Each string is stored once: the records that point at equal
  strings share one position. The pool lists its strings after a count, which is derived from what the writer
  writes there (the strings the file held, then those the model refers to that it did not hold).
seq:
  - id: magic
    contents: DDRC
  - id: name_count
    type: u1
  - id: pool_ofs
    type: u1
  - id: names
    type: name_ref
    repeat: expr
    repeat-expr: name_count
  - id: sections
    size-eos: true
    -pool:
      id: sections
instances:
  pool:
    pos: pool_ofs
    type: string_pool
    -pool: sections
types:
  name_ref:
    seq:
      - id: ofs
        type: u1
    instances:
      name:
        pos: ofs
        type: pstr
        io: _root._io
        -pool: strings
  string_pool:
    seq:
      - id: count
        type: u1
      - id: strings
        type: pstr
        repeat: expr
        repeat-expr: count
        -pool:
          id: strings
          dedup: true
  pstr:
    seq:
      - id: len
        type: u2
      - id: data
        type: str
        size: len
        encoding: UTF-8
      - id: zero
        contents: [0]
      - id: padding
        size: (len + 1) % 2
        pad-right: 0
