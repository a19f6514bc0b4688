# expect: keep_order_declared_late.ksy:17:5: error: /instances/values: 'values' names 'count_record', an item of the same keep-order pool 'data' declared after it: the reader reads 'count_record' first, but the writer meets the items in the order they are declared, and the file's order, which the model keeps, counts them as the writer meets them (declare 'count_record' before 'values')
meta:
  id: keep_order_declared_late
  endian: le
seq:
  - id: values_ofs
    type: u1
  - id: count_ofs
    type: u1
  - id: data
    size-eos: true
    -pool:
      id: data
      keep-order: true
instances:
  values:
    pos: values_ofs
    type: u1
    repeat: expr
    repeat-expr: count_record.count
    -pool: data
  count_record:
    pos: count_ofs
    type: counted
    -pool: data
types:
  counted:
    seq:
      - id: count
        type: u1
