meta:
  id: switch_item
  endian: le
doc: |
  Exercises pool items whose type is a switch (BFRES's render info values: numbers or string pointers, by the
  render info's type): each entry's values, of the entry's kind, are an item of the pool; the writer lays them out
  and derives each entry's offset and count.
seq:
  - id: magic
    contents: SWIT
  - id: entry_count
    type: u1
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: entry_count
  - id: data
    size-eos: true
    doc: The entries' values, one entry's after another, each aligned to 4.
    -pool:
      id: data
      item-align: 4
types:
  entry:
    seq:
      - id: kind
        type: u1
      - id: count
        type: u1
      - id: ofs
        type: u2
    instances:
      values:
        pos: ofs
        type:
          switch-on: kind
          cases:
            1: u2
            2: u4
        repeat: expr
        repeat-expr: count
        -pool: data
        doc: The entry's values, 16-bit for kind 1, 32-bit for kind 2.
