# expect: args_alias_clash.ksy:12:5: error: /types/item/params: the params of type 'item' are passed as 'ItemArgs', the Rust name of type 'item_args': rename one of them
meta:
  id: args_alias_clash
  endian: le
seq:
  - id: item
    type: item(1)
  - id: other
    type: item_args
types:
  item:
    params:
      - id: t
        type: u1
    seq:
      - id: v
        type: u1
  item_args:
    seq:
      - id: w
        type: u1
