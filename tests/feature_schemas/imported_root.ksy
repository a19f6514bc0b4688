meta:
  id: imported_root
  title: An imported schema's own root
  endian: le
  imports:
    - imported_root_child
doc: |
  An imported schema's `_root` is its own top-level type (as Kaitai's `exif` reads `_root.endianness` when `jpeg`
  imports it): the importer has a field of the same name, which the imported types do not see.
seq:
  - id: big
    type: u1
  - id: child
    type: imported_root_child
