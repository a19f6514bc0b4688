# expect: value_instance_with_pos.ksy:11:10: error: /instances/twice/pos: a value instance is computed, not read: it takes no 'pos' or 'io' (drop 'value' to read the instance, or 'pos' and 'io' to compute it)
meta:
  id: value_instance_with_pos
  endian: le
seq:
  - id: a
    type: u1
instances:
  twice:
    value: a * 2
    pos: 4
