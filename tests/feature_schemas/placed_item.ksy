meta:
  id: placed_item
  endian: le
doc: |
  Exercises a pool item that is a record in a slot of a given size, measured by a field of its holder, which
  reads nothing in sequence and places its values in its own stream (as BFRES's render info values, each at its
  offset in the block): the item holds what the record places, so the measured size is where its placed bytes
  end, and the writer meets the item as one that is not empty. The item is optional: the model cannot say such a
  record is empty, so its offset is derived wherever it is present.
seq:
  - id: magic
    contents: PITM
  - id: block_ofs
    type: u1
  - id: block_size
    type: u1
  - id: value_ofs
    type: u1
  - id: tail_ofs
    type: u1
  - id: heap
    size-eos: true
    -pool:
      id: heap
      keep-order: true
instances:
  block:
    pos: block_ofs
    size: block_size
    type: block(value_ofs)
    if: block_ofs != 0
    -pool: heap
  tail:
    pos: tail_ofs
    type: u2
    -pool: heap
types:
  block:
    params:
      - id: ofs
        type: u1
    instances:
      value:
        pos: ofs
        type: u4
