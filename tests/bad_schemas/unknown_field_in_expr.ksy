# expect: unknown_field_in_expr.ksy:8:11: error: /seq/1/size: in 'lenght * 2': unknown name 'lenght'; did you mean 'length'?
meta:
  id: unknown_field_in_expr
seq:
  - id: length
    type: u1
  - id: body
    size: lenght * 2
