meta:
  id: slot_views
  endian: le
doc: |
  A record's instance read from the slot of a record that reads nothing (`io: _parent.storage._io`, where
  `storage` is a sized `dummy: {}`), as Kaitai's `rpm` reads its index records' bodies from the storage section.
  The model keeps the storage's bytes (its filler), so the instance is read from them wherever it is named: here
  the payload's length is the first entry's body, which the writer checks the payload against.
seq:
  - id: table
    type: table
  - id: payload
    size: len_payload
instances:
  first:
    value: table.entries[0]
  len_payload:
    value: 'first.kind == 2 ? first.body.as<u16_body>.value : first.body.as<u8_body>.value'
types:
  table:
    seq:
      - id: num_entries
        type: u1
      - id: len_storage
        type: u1
      - id: entries
        type: entry
        repeat: expr
        repeat-expr: num_entries
      - id: storage
        size: len_storage
        type: dummy
  dummy: {}
  entry:
    seq:
      - id: kind
        type: u1
      - id: ofs_body
        type: u1
    instances:
      body:
        io: _parent.storage._io
        pos: ofs_body
        type:
          switch-on: kind
          cases:
            1: u8_body
            2: u16_body
  u8_body:
    seq:
      - id: value
        type: u1
  u16_body:
    seq:
      - id: value
        type: u2
