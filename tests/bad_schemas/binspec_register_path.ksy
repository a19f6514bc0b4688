# expect: binspec_register_path.ksy:6:16: error: /meta/-binspec/register/0: 'register' items are type paths from the crate root, such as byml::Document (got 'Document')
meta:
  id: binspec_register_path
  endian: le
  -binspec:
    register: [Document]
seq:
  - id: magic
    contents: BRP1
