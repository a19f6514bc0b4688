meta:
  id: late_reads
  endian: le
doc: |
  Instances that use a value their holder has not read yet when their record is read (Kaitai reads instances
  lazily; the gallery's chrome_pak, dune_2_pak, broadcom_trx and microsoft_pe do this): an entry's body ends where
  the next entry's begins, and the header's instance looks at the entries, which come after it. binspec reads
  such a field twice: first with those instances left at their defaults, then again once the value is read.
seq:
  - id: header
    type: header
  - id: num_entries
    type: u1
  - id: entries
    type: entry(_index, _index < num_entries)
    repeat: expr
    repeat-expr: num_entries + 1
    doc: One more entry than bodies, whose offset is where the last body ends.
types:
  header:
    seq:
      - id: magic
        type: u1
    instances:
      first_byte:
        pos: _parent.entries[0].ofs_body
        type: u1
        doc: The first byte of the first body (the entries are read after the header).
  entry:
    params:
      - id: idx
        type: s4
      - id: has_body
        type: bool
    seq:
      - id: ofs_body
        type: u1
    instances:
      len_body:
        value: _parent.entries[idx + 1].ofs_body - ofs_body
        if: has_body
      body:
        pos: ofs_body
        size: len_body
        if: has_body
