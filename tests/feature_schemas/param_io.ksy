meta:
  id: param_io
  endian: le
doc: |
  A record read from the bytes of a record passed as a parameter (`io: header_with_io._io`, where the parameter's
  type holds nothing but its bytes, as Kaitai's `bytes_with_io` does): the holder reads the header bytes, and the
  body reads its header from them. The body's writer reads the header from the same parameter, so its counts and
  switches check against what the header says.
seq:
  - id: header_raw
    type: bytes_with_io
    size: 2
  - id: body
    type: body(header_raw)
types:
  bytes_with_io:
    seq:
      - id: data
        size-eos: true
  body:
    params:
      - id: header_with_io
        type: bytes_with_io
    seq:
      - id: items
        type: u1
        repeat: expr
        repeat-expr: header.count
      - id: tail
        type:
          switch-on: header.wide
          cases:
            true: u2
            false: u1
    instances:
      header:
        io: header_with_io._io
        pos: 0
        type: header
  header:
    seq:
      - id: count
        type: u1
      - id: wide
        type: b1
