meta:
  id: rsizetable
  title: Resource size table (ares::ResourceSizeTable)
  file-extension: [rsizetable, rstb]
  endian:
    switch-on: counts_fit_le
    cases:
      true: le
      false: be
  -binspec:
    source: EPD Wiki, page "Rsizetable", revision 2026-02-16T06:29:22Z
    # The headerless revision has no magic: name the format (`--format rsizetable`) to read one.
    magic: [RESTBL, RSTB]
    # (No `info` version: the revision is known from the magic, which the model does not keep; `info` names the
    # table's kind, `table: restbl`, `rstb` or `headerless`, which says the same.)
doc: |
  Sizes that the resource system must reserve for files, looked up by the CRC-32 of the file path, with a second
  table of full paths for paths whose CRC-32 collides.
  Three revisions exist: the earliest has no header at all (only the CRC-32 array; its length follows from the file
  size), the second starts with "RSTB" and two counts, the third with the six bytes "RESTBL", a version, the size
  of the path slots and two counts (the six-byte magic leaves every later u32 unaligned).

  Where the wiki page and the files disagree, this schema follows the files, the `rstb` and `restbl` packages:
  * The page types the six-byte "RESTBL" magic as a u32; it is six ASCII bytes.
  * The page does not give the byte order. "RESTBL" tables (Tears of the Kingdom) are little-endian. "RSTB" tables are
    big-endian on Wii U and little-endian on Switch: the byte order is the one in which the counts fit the file.
  * The path slot of an "RSTB" table is 128 bytes (Breath of the Wild's maximum path length); "RESTBL" stores the
    slot size in its header (0xa0 in Tears of the Kingdom).
seq:
  - id: table
    -no-case: error
    type:
      switch-on: revision
      cases:
        2: restbl
        1: rstb
        0: headerless
instances:
  magic:
    pos: 0
    size: "_io.size < 6 ? _io.size : 6"
    doc: The first six bytes (fewer in a shorter file), which tell the revision.
  revision:
    value: "magic == [0x52, 0x45, 0x53, 0x54, 0x42, 0x4c] ? 2 : (magic.length >= 4 and magic[0] == 0x52 and magic[1] == 0x53 and magic[2] == 0x54 and magic[3] == 0x42) ? 1 : 0"
    doc: 0 for the headerless table, 1 for "RSTB", 2 for "RESTBL".
  count_le:
    pos: 4
    type: u4le
    if: _io.size >= 12
  first_size_le:
    pos: 4
    type: u4le
    if: _io.size >= 8
  first_size_be:
    pos: 4
    type: u4be
    if: _io.size >= 8
  headerless_le:
    value: "first_size_le <= first_size_be"
    -hook: headerless_little_endian
    doc: |
      Whether a headerless table is little-endian: sizes are small numbers, and a small number read in the other
      byte order is large. Kaitai's tools decide by the first entry's size (this expression); binspec lets every
      entry vote (`binspec_formats::hooks::rsizetable::headerless_little_endian`), so that the answer does not
      depend on which entry comes first: a table that the writer sorts reads back in the same byte order.
  counts_fit_le:
    value: "revision == 2 or (revision == 1 and count_le <= (_io.size - 12) / 8) or (revision == 0 and headerless_le)"
    doc: |
      Whether the table is little-endian. "RESTBL" tables are. An "RSTB" table is little-endian when its crc count
      read little-endian fits the file. A headerless table when most of its sizes are smaller read little-endian
      (`headerless_le`).
types:
  headerless:
    doc: The earliest revision, with only the CRC-32 array (as long as the file).
    seq:
      - id: crc_entries
        type: crc_entry
        repeat: eos
        -sort-by: crc
  rstb:
    doc: The second revision, with a 0xc-byte header.
    -wiki:
      page: Rsizetable
      section: Header (revision 1)
    seq:
      - id: magic
        contents: RSTB
      - id: crc_count
        type: u4
        doc: Number of CRC-32 entries (the wiki's "Crc32b resource size pair count").
      - id: name_count
        type: u4
        doc: Number of path entries (the wiki's "Path resource size pair count").
      - id: crc_entries
        type: crc_entry
        repeat: expr
        repeat-expr: crc_count
        doc: Sorted by CRC-32.
        -sort-by: crc
      - id: name_entries
        type: name_entry(128)
        repeat: expr
        repeat-expr: name_count
        doc: Sorted by path.
        -sort-by: name
  restbl:
    doc: The third and most common revision, with a 0x16-byte header.
    -wiki:
      page: Rsizetable
      section: Header (revision 2)
    seq:
      - id: magic
        contents: RESTBL
      - id: version
        type: u4
        doc: Version (1).
        -default: 1
      - id: path_size
        type: u4
        doc: Size of the path slots in the path table (0x80 and 0xa0 have been used).
        -default: 0xa0
      - id: crc_count
        type: u4
        doc: Number of CRC-32 entries (the wiki's "Crc32b resource size pair count").
      - id: name_count
        type: u4
        doc: Number of path entries (the wiki's "Path resource size pair count").
      - id: crc_entries
        type: crc_entry
        repeat: expr
        repeat-expr: crc_count
        doc: Sorted by CRC-32.
        -sort-by: crc
      - id: name_entries
        type: name_entry(path_size)
        repeat: expr
        repeat-expr: name_count
        doc: Sorted by path.
        -sort-by: name
  crc_entry:
    -wiki:
      page: Rsizetable
      section: Crc32b Array
    seq:
      - id: crc
        type: u4
        doc: CRC-32 of the file path (the wiki's "Crc32b of file path").
      - id: size
        type: u4
        doc: Size the resource needs.
  name_entry:
    -wiki:
      page: Rsizetable
      section: Path Array
    params:
      - id: path_size
        type: u4
    seq:
      - id: name
        type: strz
        encoding: UTF-8
        size: path_size
        doc: The file path, padded with zeros to the slot size (the wiki's "Fixed size file path").
      - id: size
        type: u4
        doc: Size the resource needs.
