# expect: binspec_text_module.ksy:7:13: error: /meta/-binspec/module: 'module' does not apply to a text format ('text-format'): nothing is generated for it, its reader and writer are hand-written (remove 'module', and name the hand-written types with 'register')
meta:
  id: binspec_text_module
  -binspec:
    text-format: lines
    register: [binspec_text_module::Text]
    module: binspec_text_module
seq:
  - id: magic
    contents: BTM1
