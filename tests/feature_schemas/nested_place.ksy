meta:
  id: nested_place
  endian: le
doc: |
  Exercises an item of a record named from outside it: the root points to a record (`info`, an item) whose
  record (`loc`) gives where its blob is and how long (the blob is an item of the same pool, so both are derived:
  its offset, as a `pos`, and its length, as a byte array's `size` naming a record's field), and the root's
  trailer is passed where the blob ends, `info.blob._pos + info.blob._len`, from which it derives its `end`
  (BFRES's relocation table, whose sections' regions are where the GPU region inside the memory pool info is).
seq:
  - id: magic
    contents: NEST
  - id: info_ofs
    type: u1
  - id: tail_ofs
    type: u1
  - id: data
    size-eos: true
    -pool:
      id: data
      item-align: 1
      keep-order: true
instances:
  info:
    pos: info_ofs
    type: info
    -pool: data
  tail:
    pos: tail_ofs
    type: tail(blob_end)
    -pool: data
  blob_end:
    value: info.loc.ofs + info.loc.len
    -value: info.blob._pos + info.blob._len
    doc: Where the blob ends (Kaitai's tools compute it from `loc`, binspec from where the blob is).
types:
  info:
    seq:
      - id: loc
        type: loc
    instances:
      blob:
        pos: loc.ofs
        size: loc.len
        io: _root._io
        -pool: data
  loc:
    doc: Where the blob is and how long (as BFRES's nn_gfx::memory_pool_info describes its GPU region).
    seq:
      - id: ofs
        type: u1
      - id: len
        type: u1
  tail:
    params:
      - id: end
        type: u1
    seq:
      - id: blob_end
        type: u1
        -derive: end
