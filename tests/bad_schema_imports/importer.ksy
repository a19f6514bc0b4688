# expect: imported.ksy:5:11: error: /seq/0/type: unknown type 'u5' (did you mean 'u1'?)
meta:
  id: importer
  endian: le
  imports: [imported]
seq:
  - id: x
    type: imported
