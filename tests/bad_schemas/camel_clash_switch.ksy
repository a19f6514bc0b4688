# expect: camel_clash_switch.ksy:8:5: error: /seq/1: the enum generated for switch field 'body' of type 'camel_clash_switch' has the Rust name 'CamelClashSwitchBody', as type 'camel_clash_switch_body' does (rename the field 'body' or the type 'camel_clash_switch_body')
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
