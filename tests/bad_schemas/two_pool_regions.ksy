# expect: two_pool_regions.ksy:22:9: error: /types/more/seq/0: pool 'blobs' needs exactly one seq attribute with '-pool: blobs' to hold it, found 2 (the first is /seq/1 in two_pool_regions.ksy); a schema and its imports share pool ids
meta:
  id: two_pool_regions
  endian: le
seq:
  - id: ofs
    type: u4
  - id: heap
    size: 4
    -pool:
      id: blobs
  - id: more
    type: more
instances:
  blob:
    pos: ofs
    size: 4
    -pool: blobs
types:
  more:
    seq:
      - id: heap
        size-eos: true
        -pool:
          id: blobs
