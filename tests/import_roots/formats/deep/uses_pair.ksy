meta:
  id: uses_pair
  endian: le
  imports:
    - /common/le_u16_pair
doc: Imports a schema by its path from the root of the schema folders, as Kaitai's format gallery does.
seq:
  - id: pair
    type: le_u16_pair
