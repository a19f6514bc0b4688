# expect: info_summary_not_in_model.ksy:8:15: error: /meta/-binspec/info/summary/kind: 'magic' is only read, never written: it is not known in the model
meta:
  id: info_summary_not_in_model
  endian: le
  -binspec:
    info:
      summary:
        kind: magic
seq:
  - id: count
    type: u2
instances:
  magic:
    pos: 0
    size: 2
    -view: true
