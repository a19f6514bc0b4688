meta:
  id: ordered_ranks
  endian: le
doc: |
  Exercises `order` on a `keep-order` pool: where the model keeps no order (a new file), the items of the
  instances it names come after the others, in its order (BFRES's string pool, GPU region, runtime memory pool,
  embedded files and relocation table, after the structures). Here the entries' bytes come after the trailer,
  which the writer meets last. A file in that order keeps none; a file in another keeps its own.
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
      order:
        - entry.body
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
