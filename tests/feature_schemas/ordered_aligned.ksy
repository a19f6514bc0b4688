meta:
  id: ordered_aligned
  endian: le
doc: |
  Exercises `keep-order` with aligned items: each entry points to its bytes (an offset and a length), items of
  a pool whose order in the file is a layout choice and whose items are each aligned to 4 (BFRES's structures,
  each at its alignment after the one before, in Nintendo's order). Padding to an item's alignment is not a gap:
  the order is kept; any other gap lays the file out anew.
seq:
  - id: magic
    contents: ORDA
  - id: entry_count
    type: u1
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: entry_count
  - id: data
    size-eos: true
    doc: The entries' bytes, each at an offset aligned to 4, in some order.
    -pool:
      id: data
      item-align: 4
      keep-order: true
types:
  entry:
    seq:
      - id: ofs
        type: u1
      - id: len
        type: u1
    instances:
      body:
        pos: ofs
        size: len
        -pool: data
        doc: The entry's bytes.
