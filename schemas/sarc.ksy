meta:
  id: sarc
  title: SARC archive (SEAD archive)
  file-extension: [sarc, pack, bars, bgenv, blarc, genvb, arc]
  endian:
    switch-on: byte_order_mark
    cases:
      0xfeff: be
      0xfffe: le
  -binspec:
    source: EPD Wiki, page "Sarc", revision 2023-05-09T20:25:50Z
    archive:
      entries: sfat.entries
      name: name
      data: data
      # An entry stored without a name is known by its name hash.
      hash: name_hash
    info:
      version: version
      summary:
        files: sfat.entries.size
        hash multiplier: sfat.hash_multiplier
doc: |
  A file archive. Files are found by a binary search over the SFAT entries, which are sorted by a hash of the
  file name.

  Where the wiki page contradicts the files, this schema follows the files, oead and the `sarc` package:
  * The header is 0x14 bytes, as its own "size of header" field says. The page's table lists an "Alignment" u32 at
    0x10 and puts the version at 0x14, which adds up to 0x18; real files have the version (0x0100) at 0x10 and two
    reserved bytes at 0x12. Alignment is not stored anywhere: it is a layout choice, inferred from where the data
    lies.
  * The SFAT header is 0xc bytes (the page says 0x14): magic, header size, file count, hash seed.
  * The SFAT entry's "File name offset" and "Number of file hash collisions" are one field, `name_attrs` (see
    below).
  * The SFNT magic is "SFNT", not "SFAT" as the page's table says.
  * The page splits the entry's name field (`name_attrs`) into a u24 "File name offset" at 0x4 and a u8 "Number of
    file hash collisions" at 0x7. That is how the bytes fall in little-endian files only: the field is one u32 in
    the archive's byte order whose top byte is the collision count and whose low 24 bits are the name's offset in
    the name table divided by 4 (0 for an entry without a name).
doc-ref: https://github.com/Kinnay/Nintendo-File-Formats/wiki/SARC-File-Format
-wiki:
  page: Sarc
  section: Header
seq:
  - id: magic
    contents: SARC
  - id: header_size
    type: u2
    valid: 0x14
    doc: Size of this header (0x14).
  - id: bom
    type: u2
    valid: 0xfeff
    doc: Byte order mark; reads as 0xfeff in the archive's own byte order (the wiki's "Endianess").
  - id: file_size
    type: u4
    doc: Total file size.
    -derive: _io.size
  - id: data_offset
    type: u4
    doc: Offset of the file data region from the start of the file (the wiki's "File array offset").
    -derive: file_data._pos
  - id: version
    type: u2
    valid: 0x100
    doc: Version (0x0100).
  - id: reserved
    type: u2
    doc: Reserved, zero.
  - id: sfat
    type: sfat
    doc: File allocation table.
  - id: sfnt
    type: sfnt
    doc: File name table.
  - id: file_data
    size-eos: true
    doc: The files' data. Each file's data is aligned; the region starts aligned as well.
    -pool:
      id: data
      align: data_alignment
instances:
  byte_order_mark:
    pos: 6
    type: u2be
    doc: The byte order mark read as big-endian, which tells the archive's byte order.
-layout:
  data_alignment:
    type: u4
    default: 4
    doc: |
      Alignment of the start of the file data region (oead aligns it to the largest alignment any file needs).
types:
  sfat:
    -wiki:
      page: Sarc
      section: Sfat Header
    seq:
      - id: magic
        contents: SFAT
      - id: header_size
        type: u2
        valid: 0xc
        doc: Size of this header (0xc).
      - id: file_count
        type: u2
        doc: Number of entries.
      - id: hash_multiplier
        type: u4
        doc: Multiplier of the name hash (0x65 in every known file); the wiki calls it "Hash seed".
        -default: 0x65
      - id: entries
        type: sfat_entry
        repeat: expr
        repeat-expr: file_count
        doc: Entries, sorted by name hash.
        -sort-by: name_hash
    instances:
      names_start:
        value: _root.header_size + header_size + file_count * 0x10 + 8
        doc: Where the name table's strings start (after this table and the 8-byte SFNT header).
  sfat_entry:
    doc: One file. Its data is stored in the data region, its name in the name table.
    -wiki:
      page: Sarc
      section: Sfat Entry Array
    seq:
      - id: name_hash
        type: u4
        doc: Hash of the file name, `h = h * multiplier + c` over its bytes taken as signed chars.
        -derive: name.sarc_hash(_parent.hash_multiplier)
      - id: name_attrs
        type: u4
        doc: |
          Bits 0-23: offset of the name in the name table, divided by 4. Bits 24-31: collision count, 1 for the
          first file with a given hash. 0 when the entry has no name.
        -derive: "name._present ? (collision_count << 24 | (name._pos - _parent.names_start) / 4) : 0"
      - id: data_start
        type: u4
        doc: Offset of the file's data from the start of the data region (the wiki's "File array start offset").
      - id: data_end
        type: u4
        doc: Offset of the end of the file's data from the start of the data region (the wiki's "File array end offset").
    instances:
      collision_count:
        value: name_attrs >> 24
        doc: |
          The top byte of `name_attrs`: 1 for the first file with a given name hash (and what oead writes for
          every file), counting up for files whose names have the same hash. It is kept in the model, so that
          `name_attrs` can still be derived from where the writer puts the name.
        -data: u1
        -default: 1
      name:
        pos: _parent.names_start + (name_attrs & 0xffffff) * 4
        type: strz
        encoding: UTF-8
        if: name_attrs != 0
        io: _root._io
        doc: The file name (absent in archives that only store hashes).
        -pool: names
      data:
        pos: _root.data_offset + data_start
        size: data_end - data_start
        io: _root._io
        doc: The file's contents.
        -pool: data
  sfnt:
    -wiki:
      page: Sarc
      section: Sfnt Section
    seq:
      - id: magic
        contents: SFNT
      - id: header_size
        type: u2
        valid: 8
        doc: Size of this header (0x8).
      - id: reserved
        type: u2
        doc: Reserved, zero.
      - id: names
        size: _root.data_offset - _io.pos
        doc: Null-terminated file names, each aligned to 4 bytes.
        -pool:
          id: names
          item-align: 4
