meta:
  id: camel_clash_switch
  endian: le
seq:
  - id: tag
    type: u1
  - id: body
    type:
      switch-on: tag
      cases:
        1: camel_clash_switch_body
types:
  camel_clash_switch_body:
    seq:
      - id: x
        type: u1
