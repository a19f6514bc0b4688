# expect: data_not_an_int.ksy:10:16: error: /types/entry/instances/count/-data: '-data' takes an integer type
meta:
  id: data_not_an_int
  endian: le
types:
  entry:
    instances:
      count:
        value: 3
        -data: f4
seq:
  - id: e
    type: entry
