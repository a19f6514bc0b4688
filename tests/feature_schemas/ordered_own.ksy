meta:
  id: ordered_own
  endian: le
doc: |
  Exercises `keep-order` with an item that the region's own type declares: the trailer (BFRES's relocation table,
  an instance of the root, whose offset is in the header) is an item of the same pool as the entries' bytes, in
  the order the file has them, and its offset is derived as theirs are.
seq:
  - id: magic
    contents: ORDO
  - id: trailer_ofs
    type: u1
  - id: entry_count
    type: u1
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: entry_count
  - id: data
    size-eos: true
    doc: The entries' bytes and the trailer, each at an offset aligned to 2, in some order.
    -pool:
      id: data
      item-align: 2
      keep-order: true
instances:
  trailer:
    pos: trailer_ofs
    size: 2
    -pool: data
    doc: Two bytes the root points to.
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
