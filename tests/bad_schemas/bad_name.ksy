# expect: bad_name.ksy:5:9: error: /seq/0/id: invalid name 'FileCount': names are lower_snake_case, starting with a letter (try 'file_count')
meta:
  id: bad_name
seq:
  - id: FileCount
    type: u2
