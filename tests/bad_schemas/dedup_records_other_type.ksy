# expect: dedup_records_other_type.ksy:19:5: error: /instances/label: items of the deduplicating pool 'names' must be records of type 'name', the type its region repeats, one per item
meta:
  id: dedup_records_other_type
  endian: le
seq:
  - id: label_ofs
    type: u1
  - id: count
    type: u1
  - id: names
    type: name
    repeat: expr
    repeat-expr: count
    -pool:
      id: names
      dedup: true
instances:
  label:
    pos: label_ofs
    type: other
    -pool: names
types:
  name:
    seq:
      - id: len
        type: u1
      - id: text
        type: str
        size: len
        encoding: UTF-8
  other:
    seq:
      - id: x
        type: u1
