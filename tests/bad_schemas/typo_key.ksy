# expect: typo_key.ksy:7:5: error: /seq/0/repeat-exp: unknown key 'repeat-exp' in a seq attribute (did you mean 'repeat-expr'?)
meta:
  id: typo_key
seq:
  - id: items
    type: u1
    repeat-exp: 4
