meta:
  id: own_elements
  title: Elements whose arguments name the elements before them
doc: |
  A variable-length integer as Kaitai's `vlq_base128_le` reads it: each group is passed its index, the value of
  the groups before it and its multiplier, both computed from the group before it (from its params, through a
  value instance of them). In the loop over the groups, `groups` is the groups read (or written) so far, and
  each group's arguments are kept as they are passed, so that an earlier group's params are known. The last
  group has a marker byte where the whole value is over 1000, and the tail after the groups is two bytes long
  then (one otherwise): the last group's params, outside the loop, are computed from the groups.
seq:
  - id: groups
    type: |
      group(
        _index,
        _index != 0 ? groups[_index - 1].interm_value : 0,
        _index != 0 ? groups[_index - 1].multiplier * 128 : 1
      )
    repeat: until
    repeat-until: not _.has_next
  - id: tail
    size: 'groups.last.interm_value > 1000 ? 2 : 1'
types:
  group:
    params:
      - id: idx
        type: s4
      - id: prev_interm_value
        type: u8
      - id: multiplier
        type: u8
    seq:
      - id: has_next
        type: b1
        valid:
          expr: 'idx == 9 ? not _ : true'
      - id: value
        type: b7
      - id: marker
        type: u1
        if: not has_next and interm_value > 1000
    instances:
      interm_value:
        value: prev_interm_value + value * multiplier
