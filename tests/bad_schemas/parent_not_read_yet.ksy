# expect: parent_not_read_yet.ksy:8:5: error: /seq/1: '_parent.items' is not read yet when 'item' needs it: 'items' of 'parent_not_read_yet' holds the one being read, and binspec reads fields in order and passes their values down (Kaitai reads such a value lazily, as far as it has got); the record's own fields need the value to be read, so it cannot wait
meta:
  id: parent_not_read_yet
  endian: le
seq:
  - id: count
    type: u1
  - id: items
    type: item
    repeat: expr
    repeat-expr: count
types:
  item:
    seq:
      - id: v
        type: u1
      - id: end_mark
        type: u1
        if: is_last
    instances:
      is_last:
        value: _parent.items.size == _parent.count
