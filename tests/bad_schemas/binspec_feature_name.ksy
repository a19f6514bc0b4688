# expect: binspec_feature_name.ksy:6:14: error: /meta/-binspec/feature: 'feature' names the cargo feature of binspec-formats that builds the schema: lower-case letters, digits, '-' and '_', starting with a letter (got 'Ainb')
meta:
  id: binspec_feature_name
  endian: le
  -binspec:
    feature: Ainb
seq:
  - id: magic
    contents: BFN1
