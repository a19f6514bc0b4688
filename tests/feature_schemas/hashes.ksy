meta:
  id: hashes
  endian: le
doc: |
  Exercises hash functions in `-derive`: a name's murmur3 (x86, 32-bit, seeded) and CRC-32, each stored before the
  name and computed by the writer from it.
seq:
  - id: murmur
    type: u4
    -derive: name.murmur3(seed)
  - id: crc
    type: u4
    -derive: name.crc32()
  - id: seed
    type: u4
  - id: name
    type: strz
    encoding: UTF-8
