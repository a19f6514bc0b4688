# expect: no_endian.ksy:5:5: error: /seq/0: a multi-byte number needs a byte order, and neither it nor its type gives one (add 'endian: le' or 'endian: be' to meta, or write the type as u2le/u2be)
meta:
  id: no_endian
seq:
  - id: count
    type: u2
