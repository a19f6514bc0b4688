meta:
  id: ascii_tag
  encoding: ASCII
doc: A four-character tag whose encoding comes from this schema's meta, not from the schema importing it.
seq:
  - id: tag
    type: str
    size: 4
