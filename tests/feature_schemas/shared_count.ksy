meta:
  id: shared_count
  endian: le
doc: |
  Exercises a count that several repetitions name: the writer derives it from the first of them that is present,
  and the others present must have as many elements. `names` and `indices` (an array at an offset that may be
  null: BFRES's static shader variations have a null index array where the names are in order) share
  `pair_count`. `ints` and `bytes`, under exclusive conditions, share `count`: where neither is present (`kind`
  2), the file's count is in no repetition, so the model keeps a nonzero one as an override (BFRES's shader
  option count, whose option index array may be null).
seq:
  - id: kind
    type: u1
  - id: count
    type: u1
  - id: ints
    type: u2
    repeat: expr
    repeat-expr: count
    if: kind == 0
  - id: bytes
    type: u1
    repeat: expr
    repeat-expr: count
    if: kind == 1
  - id: pair_count
    type: u1
  - id: names_ofs
    type: u1
  - id: indices_ofs
    type: u1
  - id: pool
    size-eos: true
    -pool:
      id: pool
instances:
  names:
    pos: names_ofs
    type: u1
    repeat: expr
    repeat-expr: pair_count
    -pool: pool
  indices:
    pos: indices_ofs
    type: u1
    repeat: expr
    repeat-expr: pair_count
    if: indices_ofs != 0
    -pool: pool
