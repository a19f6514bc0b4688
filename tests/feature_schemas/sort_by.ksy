meta:
  id: sort_by
  endian: be
doc: |
  Exercises `-sort-by`: entries whose key is a SARC-style name hash (`name.sarc_hash(multiplier)`, derived), kept
  in hash order by the writer, and a second table sorted by a string.
seq:
  - id: multiplier
    type: u4
    -default: 0x65
  - id: count
    type: u1
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: count
    -sort-by: name_hash
  - id: tag_count
    type: u1
  - id: tags
    type: tag
    repeat: expr
    repeat-expr: tag_count
    -sort-by: text
types:
  entry:
    seq:
      - id: name_hash
        type: u4
        -derive: name.sarc_hash(_parent.multiplier)
      - id: name
        type: strz
        encoding: UTF-8
  tag:
    seq:
      - id: text
        type: strz
        size: 4
        encoding: UTF-8
