# expect: no_case_value.ksy:8:15: error: /seq/1/-no-case: '-no-case' takes 'null' (what Kaitai does: nothing is read) or 'error'
meta:
  id: no_case_value
seq:
  - id: tag
    type: u1
  - id: body
    -no-case: maybe
    type:
      switch-on: tag
      cases:
        1: u1
