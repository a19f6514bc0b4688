# expect: binspec_unknown_key.ksy:6:5: error: /meta/-binspec/registers: unknown key 'registers' in '-binspec' (did you mean 'register'?)
meta:
  id: binspec_unknown_key
  endian: le
  -binspec:
    registers: [binspec_unknown_key::BinspecUnknownKey]
seq:
  - id: magic
    contents: BUK1
