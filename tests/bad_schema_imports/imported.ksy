meta:
  id: imported
seq:
  - id: a
    type: u5
