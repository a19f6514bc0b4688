# expect: missing_pool.ksy:2:1: error: /: pool 'blobs' needs exactly one seq attribute with '-pool: blobs' to hold it, found 0
meta:
  id: missing_pool
seq:
  - id: ofs
    type: u4
instances:
  blob:
    pos: ofs
    size: 4
    -pool: blobs
