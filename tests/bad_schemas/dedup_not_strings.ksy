# expect: dedup_not_strings.ksy:15:5: error: /instances/blob: items of the deduplicating pool 'strings' must be UTF-8 strings with a terminator (`type: strz`, `encoding: UTF-8`), or records of the type its region repeats
meta:
  id: dedup_not_strings
  endian: le
seq:
  - id: blob_ofs
    type: u4
  - id: pool
    size-eos: true
    -pool:
      id: strings
      dedup: true
instances:
  blob:
    pos: blob_ofs
    size: 4
    -pool: strings
