# expect: eager_seq.ksy:7:13: error: /seq/0/-eager: '-eager' applies to instances only (seq attributes are always read)
meta:
  id: eager_seq
seq:
  - id: next
    type: u4
    -eager: true
