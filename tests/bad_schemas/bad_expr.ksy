# expect: bad_expr.ksy:8:11: error: /seq/1/size: bad expression 'len && 2': '&&' is not an operator here
meta:
  id: bad_expr
seq:
  - id: len
    type: u1
  - id: body
    size: len && 2
