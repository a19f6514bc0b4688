meta:
  id: process
  endian: le
doc: |
  Exercises `process:`: bytes XORed with a key read from the file, bytes XORed with a constant byte string, a
  user type read from rotated bytes (`rol`), and zlib-compressed bytes whose compressed length is derived.
seq:
  - id: key
    type: u1
  - id: secret_len
    type: u1
  - id: secret
    size: secret_len
    process: xor(key)
  - id: masked
    size: 4
    process: xor([0x0f, 0xf0])
  - id: rotated
    type: point
    size: 4
    process: rol(3)
  - id: packed_len
    type: u2
  - id: packed
    size: packed_len
    process: zlib
types:
  point:
    seq:
      - id: x
        type: u2
      - id: y
        type: u2
