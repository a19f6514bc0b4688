meta:
  id: byml
  title: BYML (binary YAML, "Byaml")
  file-extension: [byml, bgyml, byaml]
  endian:
    switch-on: magic_be
    cases:
      0x5942: le
      0x4259: be
  -binspec:
    source: EPD Wiki, page "Byaml", revision 2023-12-27T02:20:10Z
    # This schema is the raw reader `binspec_formats::byml::raw` (declared in formats/src/byml/); the BYML format
    # is the hand-written typed tree built on it.
    module: byml::raw
    register: [byml::Document]
    magic: [YB, BY]
    info:
      version: version
doc: |
  Nintendo EPD's binary take on YAML: a tree of dictionaries, arrays and scalar values, with the dictionary keys
  and the string values interned in two string tables (the key table sorted). Both byte orders exist (the magic
  tells which), and versions 1 to 10.

  This schema transcribes the wiki page. It is a raw view of the bytes: every offset, count, key index and string
  index is kept as it was read, and every container reached through an offset is read (a shared container once per
  reference). binspec's own BYML model, which builds the tree, derives the offsets and writes files, is
  hand-written (`binspec_formats::byml`); this schema is the independent transcription it is checked against.

  Where the page is unclear or contradicts the files, this schema follows the files, oead and the `byml` package:
  * The page's header and container tables are for versions 4 to 7 only. Files of versions 1 to 4 written by oead,
    1 to 7 written by the `byml` package, and real version 3 (Super Mario Odyssey) and version 7 (Splatoon 3) files
    have the same 0x10-byte header and containers.
  * An offset of 0 in the header means the table or the root is absent (an empty file has all three at 0).
  * The page's dictionary pair table gives the key index as a u24 at 0x0 and the node type as a u8 "at 0x1", which
    would overlap. oead, the `byml` package and real files agree that the type is the byte at 0x3 of the pair: the
    first four bytes are one u32 in the file's byte order whose low 24 bits are the key index and whose top 8 bits
    are the node type in a little-endian file; in a big-endian file the key index is the top 24 bits and the type
    the low 8 bits. The container header (u8 type, u24 count) is read the same way: there the type is the first
    byte of the container, the top byte of the u32 in a big-endian file and the low byte in a little-endian one.
    Kaitai Struct has no 24-bit integers, so both are read as a u32 and split by value instances.
  * The page gives the size of a key/string table's offset array as 4 * count; it holds count + 1 offsets, the last
    being the end of the last string (as oead writes and real files have).
  * The page does not align an array's (0xc0) values. They start at the next multiple of 4 after the type bytes,
    counting from the start of the array, as oead reads them (every array in the files at hand starts at a multiple
    of 4, so counting from the start of the file gives the same).
  * The page does not say whether a hash array's remap table is aligned, where a relocated table's base offset is
    relative to, or how many offsets a relocated table (0xc5) holds; no file at hand has a hash array, a relocated
    table, a dictionary with remap, a mono-typed array or a version 10 root. This schema reads the hash array's
    parts back to back, the base offset relative to the table like the string offsets, count + 1 offsets after the
    base offset, and a version 10 root value in the 4 bytes after the container header.
-wiki:
  page: Byaml
  section: Header
-wiki-enums:
  node_type:
    page: Byaml
    section: Node Data Types
seq:
  - id: magic
    type: u2
    valid: 0x4259
    doc: |
      Magic: "YB" in a little-endian file, "BY" in a big-endian one. Either way it reads as 0x4259 ("BY") in the
      file's own byte order.
  - id: version
    type: u2
    valid:
      min: 1
      max: 10
    doc: Version, 1 to 10 (10 since Super Mario Bros. Wonder).
  - id: key_table_ofs
    type: u4
    doc: |
      Absolute offset of the key table (a key/string table container, 0xc2 or 0xc5) that dictionary keys index; 0
      when there is none.
  - id: string_table_ofs
    type: u4
    doc: |
      Absolute offset of the string table (a key/string table container) that string values (0xa0) index; 0 when
      there is none.
  - id: root_ofs
    type: u4
    doc: |
      Absolute offset of the root node: a container, or since version 10 a single value. 0 for an empty document.
instances:
  magic_be:
    pos: 0
    type: u2be
    doc: The magic read as big-endian, which tells the file's byte order (0x5942 "YB" little, 0x4259 "BY" big).
  is_le:
    value: magic_be == 0x5942
    doc: Whether the file is little-endian.
  key_table:
    pos: key_table_ofs
    type: node
    if: key_table_ofs != 0
    doc: The key table, sorted (dictionary pairs give indices into it).
  string_table:
    pos: string_table_ofs
    type: node
    if: string_table_ofs != 0
    doc: The string table (string values give indices into it).
  root:
    pos: root_ofs
    type: node
    if: root_ofs != 0
    doc: The root node.
types:
  node:
    doc: |
      A ByamlContainer: a four-byte header (node type and element count), then what the type says. A version 10
      root that is not a container has the header with only the node type, then its value.
    -wiki:
      page: Byaml
      section: Byaml Container
    seq:
      - id: header
        type: u4
        doc: |
          The u8 node type and the u24 element count (the wiki's "Container data type" and "Count of container
          elements"), read as one u32 in the file's byte order (see `node_type` and `count`).
      - id: body
        doc: |
          The container's contents, by node type (a single value for a version 10 root that is not a container);
          the wiki's "NodeDataType specific data".
        type:
          switch-on: kind
          cases:
            0x20: hash_array(count, node_type & 0xf, false, _io.pos)
            0x30: hash_array(count, node_type & 0xf, true, _io.pos)
            0xc0: array(count)
            0xc1: dictionary(count, false)
            0xc2: string_table(count, _io.pos - 4)
            0xc4: dictionary(count, true)
            0xc5: relocated_string_table(count, _io.pos - 4)
            0xc8: mono_typed_array(count)
            _: value(node_type)
    instances:
      node_type:
        value: "_root.is_le ? header & 0xff : header >> 24"
        doc: The container's node type (see the `node_type` enum); the first byte of the container.
      count:
        value: "_root.is_le ? header >> 8 : header & 0xffffff"
        doc: The number of elements (u24).
      kind:
        value: "node_type >= 0x20 and node_type <= 0x2f ? 0x20 : node_type >= 0x30 and node_type <= 0x3f ? 0x30 : node_type"
        doc: The node type, with each range of hash array types (0x20-0x2f, 0x30-0x3f) folded to its first value.
  value:
    doc: |
      A value as a container stores it (the "Value" of a NodeDataType + Value pair): four bytes whose meaning the
      node type gives. Scalars up to 32 bits are stored inline; containers, binary data and 64-bit values are stored
      elsewhere and the four bytes are their absolute offset.
    params:
      - id: node_type
        type: u1
        doc: The node type of the value (see the `node_type` enum).
    seq:
      - id: data
        doc: |
          The value, inline or as an offset. Every case is a type of its own, so that the switch has one type in
          every target language of Kaitai Struct.
        -no-case: error
        type:
          switch-on: "node_type >= 0x20 and node_type <= 0x3f ? 0xc0 : node_type"
          cases:
            0xa0: string_index
            0xa1: binary_ref(false)
            0xa2: binary_ref(true)
            0xc0: node_ref
            0xc1: node_ref
            0xc4: node_ref
            0xc8: node_ref
            0xd0: inline_bool
            0xd1: inline_s32
            0xd2: inline_f32
            0xd3: inline_u32
            0xd4: s64_ref
            0xd5: u64_ref
            0xd6: f64_ref
            0xff: inline_null
  string_index:
    doc: A string value (0xa0), stored inline as an index.
    seq:
      - id: index
        type: u4
        doc: Index of the string in the string table.
  inline_bool:
    doc: A bool (0xd0), stored inline.
    seq:
      - id: value
        type: u4
        doc: 0 (false) or 1 (true).
  inline_s32:
    doc: A signed 32-bit integer (0xd1), stored inline.
    seq:
      - id: value
        type: s4
        doc: The value.
  inline_f32:
    doc: A 32-bit float (0xd2), stored inline.
    seq:
      - id: value
        type: f4
        doc: The value.
  inline_u32:
    doc: An unsigned 32-bit integer (0xd3), stored inline.
    seq:
      - id: value
        type: u4
        doc: The value.
  inline_null:
    doc: Null (0xff).
    seq:
      - id: value
        type: u4
        doc: The value, 0.
  node_ref:
    doc: A container value (hash array, array, dictionary), stored as the absolute offset of the container.
    seq:
      - id: ofs
        type: u4
        doc: Absolute offset of the container. Equal containers may be stored once and shared.
    instances:
      node:
        pos: ofs
        type: node
        io: _root._io
        doc: The container.
        -eager: true
  binary_ref:
    doc: Binary data (0xa1) or binary data with alignment (0xa2), stored as the absolute offset of its size.
    params:
      - id: with_alignment
        type: bool
        doc: Whether an alignment follows the size (0xa2).
    seq:
      - id: ofs
        type: u4
        doc: Absolute offset of the size of the binary data.
    instances:
      binary:
        pos: ofs
        type: binary(with_alignment)
        io: _root._io
        doc: The binary data.
  binary:
    doc: Binary data, where a 0xa1 or 0xa2 value points.
    params:
      - id: with_alignment
        type: bool
        doc: Whether an alignment follows the size (0xa2).
    seq:
      - id: size
        type: u4
        doc: Size of the data.
      - id: alignment
        type: u4
        if: with_alignment
        doc: The data's alignment (0xa2 only).
      - id: data
        size: size
        doc: The data.
  s64_ref:
    doc: A signed 64-bit integer (0xd4), stored out of line.
    seq:
      - id: ofs
        type: u4
        doc: Absolute offset of the value.
    instances:
      value:
        pos: ofs
        type: s8
        io: _root._io
        doc: The value.
  u64_ref:
    doc: An unsigned 64-bit integer (0xd5), stored out of line.
    seq:
      - id: ofs
        type: u4
        doc: Absolute offset of the value.
    instances:
      value:
        pos: ofs
        type: u8
        io: _root._io
        doc: The value.
  f64_ref:
    doc: A 64-bit float (0xd6), stored out of line.
    seq:
      - id: ofs
        type: u4
        doc: Absolute offset of the value.
    instances:
      value:
        pos: ofs
        type: f8
        io: _root._io
        doc: The value.
  string_table:
    doc: |
      Key/String Table (0xc2): null-terminated UTF-8 strings, found through offsets relative to the table's start.
      The key table is sorted; the page does not say the string table is (oead sorts both). The page's "Array of
      strings" row is read through the offsets (each entry's `text`), not as a field of its own.
    -wiki:
      page: Byaml
      section: Key/String Table (0xc2)
      from: 0x4
    params:
      - id: count
        type: u4
        doc: The number of strings.
      - id: start
        type: u4
        doc: Position of the table (its container header), which the offsets are relative to.
    seq:
      - id: strings
        type: string_entry(start)
        repeat: expr
        repeat-expr: count
        doc: One offset per string, in index order.
      - id: end_ofs
        type: u4
        doc: Offset of the end of the last string (the offset array has count + 1 entries).
  string_entry:
    doc: One string of a key/string table.
    params:
      - id: base
        type: u4
        doc: Position of the table.
    seq:
      - id: ofs
        type: u4
        doc: Offset of the string from the start of the table.
    instances:
      text:
        pos: base + ofs
        type: strz
        encoding: UTF-8
        io: _root._io
        doc: The string.
  relocated_string_table:
    doc: |
      Relocated Key/String Table (0xc5, version 7): an offset array whose first element is the offset of a u64
      value to be added to the other offsets.
    -wiki:
      page: Byaml
      section: Relocated Key/String Table (0xc5)
      from: 0x4
    params:
      - id: count
        type: u4
        doc: The number of strings.
      - id: start
        type: u4
        doc: Position of the table (its container header).
    seq:
      - id: base_ofs
        type: u4
        doc: |
          Offset of the u64 value that is added to the string offsets (taken to be relative to the table): the first
          element of the wiki's "String offset array".
      - id: offsets
        type: u4
        repeat: expr
        repeat-expr: count
        doc: The string offsets, to which `base` is added.
    instances:
      base:
        pos: start + base_ofs
        type: u8
        io: _root._io
        doc: The value added to every string offset.
  hash_array:
    doc: |
      Hash Array (0x20-0x2f) and Hash Array With Remap (0x30-0x3f): values found by a hash (sorted by it) or by
      index. The node type of each value comes after all the pairs.
    -wiki:
      - page: Byaml
        section: Hash Array (0x20-0x2f)
        from: 0x4
      - page: Byaml
        section: Hash Array With Remap (0x30-0x3f)
        from: 0x4
    params:
      - id: count
        type: u4
        doc: The number of pairs.
      - id: hash_words
        type: u1
        doc: The number of u32 words of each hash (the container's node type & 0xf).
      - id: with_remap
        type: bool
        doc: Whether an index remap table follows (0x30-0x3f).
      - id: start
        type: u4
        doc: Position of the first pair.
    seq:
      - id: pairs
        type: hash_pair(hash_words, start + count * (hash_words * 4 + 4) + _index)
        repeat: expr
        repeat-expr: count
        doc: The hash and value pairs, sorted by hash (the wiki's "Hash + value array sorted by hash").
      - id: types
        type: u1
        repeat: expr
        repeat-expr: count
        doc: The node type of each pair's value.
      - id: remap
        doc: |
          Index remap table (0x30-0x3f): accessing the element at an index reads the pair the table gives. Its
          entries are u1 when count < 0x100, u2 when count < 0x10000 and u4 otherwise.
        if: with_remap
        repeat: expr
        repeat-expr: count
        -no-case: error
        type:
          switch-on: "count < 0x100 ? 1 : count < 0x10000 ? 2 : 4"
          cases:
            1: u1
            2: u2
            4: u4
  hash_pair:
    doc: One element of a hash array.
    -wiki:
      page: Byaml
      section: Hash Pair
    params:
      - id: hash_words
        type: u1
        doc: The number of u32 words of the hash.
      - id: type_pos
        type: u4
        doc: Position of this pair's node type in the hash array's `types`.
    seq:
      - id: hash
        type: u4
        repeat: expr
        repeat-expr: hash_words
        doc: The hash, (node type & 0xf) u32 words.
      - id: value
        type: value(node_type)
        doc: The value.
    instances:
      node_type:
        pos: type_pos
        type: u1
        io: _root._io
        doc: The value's node type, stored after all the pairs.
  array:
    doc: Array (0xc0), the node types of the elements, then their values.
    -wiki:
      page: Byaml
      section: Array (0xc0)
      from: 0x4
    params:
      - id: count
        type: u4
        doc: The number of elements.
    seq:
      - id: types
        type: u1
        repeat: expr
        repeat-expr: count
        doc: The node type of each element (see the `node_type` enum).
      - id: padding
        size: (4 - count % 4) % 4
        doc: Zeros up to the next multiple of 4, which the wiki's table does not list (see the schema's doc).
      - id: values
        type: value(types[_index])
        repeat: expr
        repeat-expr: count
        doc: The values.
  mono_typed_array:
    doc: Mono-Typed Array (0xc8, version 7), one node type for every element, then the values.
    -wiki:
      page: Byaml
      section: Mono-Typed Array (0xc8)
      from: 0x4
    params:
      - id: count
        type: u4
        doc: The number of elements.
    seq:
      - id: value_type
        type: u1
        enum: node_type
        doc: The node type of every element.
      - id: padding
        size: 3
        doc: Zeros up to the next multiple of 4; the wiki's table counts them in the type's row ("aligned up by 0x4").
      - id: values
        type: value(value_type.to_i)
        repeat: expr
        repeat-expr: count
        doc: The values.
  dictionary:
    doc: |
      Dictionary (0xc1) and Dictionary With Remap (0xc4): values found by a key (the pairs are sorted by key index,
      so by key) or by index.
    -wiki:
      - page: Byaml
        section: Dictionary (0xc1)
        from: 0x4
      - page: Byaml
        section: Dictionary With Remap (0xc4)
        from: 0x4
    params:
      - id: count
        type: u4
        doc: The number of pairs.
      - id: with_remap
        type: bool
        doc: Whether an index remap table follows (0xc4).
    seq:
      - id: pairs
        type: dictionary_pair
        repeat: expr
        repeat-expr: count
        doc: The pairs, sorted by key index.
      - id: remap
        doc: |
          Index remap table (0xc4). Its entries are u1 when count < 0x100, u2 when count < 0x10000 and u4
          otherwise.
        if: with_remap
        repeat: expr
        repeat-expr: count
        -no-case: error
        type:
          switch-on: "count < 0x100 ? 1 : count < 0x10000 ? 2 : 4"
          cases:
            1: u1
            2: u2
            4: u4
  dictionary_pair:
    doc: One element of a dictionary.
    -wiki:
      page: Byaml
      section: Byaml Dictionary Pair
    seq:
      - id: key_and_type
        type: u4
        doc: |
          The u24 key index and the u8 node type (the wiki's "Key table index" and "Node Data Type"), read as one
          u32 in the file's byte order (see `key_index` and `node_type`).
      - id: value
        type: value(node_type)
        doc: The value.
    instances:
      key_index:
        value: "_root.is_le ? key_and_type & 0xffffff : key_and_type >> 8"
        doc: Index of the key in the key table.
      node_type:
        value: "_root.is_le ? key_and_type >> 24 : key_and_type & 0xff"
        doc: The value's node type (see the `node_type` enum); byte 3 of the pair.
enums:
  node_type:
    0x20:
      id: hash_array
      doc: Hash Array (0x20-0x2f; the low four bits are the hash's size in u32 words). The value is its offset.
    0x30:
      id: hash_array_with_remap
      doc: Hash Array With Remap (0x30-0x3f); index access goes through the remap table. The value is its offset.
    0xa0:
      id: string
      doc: String. The value is an index into the string table.
    0xa1:
      id: binary
      doc: Binary data. The value is the absolute offset of its size, followed by the data.
    0xa2:
      id: binary_with_alignment
      doc: Binary data with alignment. The value is the absolute offset of its size, then its alignment, then the data.
    0xc0:
      id: array
      doc: Array. The value is its offset.
    0xc1:
      id: dictionary
      doc: Dictionary. The value is its offset.
    0xc2:
      id: string_table
      doc: Key/String Table; only where the header points.
    0xc4:
      id: dictionary_with_remap
      doc: Dictionary With Remap. The value is its offset.
    0xc5:
      id: relocated_string_table
      doc: Relocated Key/String Table; only where the header points.
    0xc8:
      id: mono_typed_array
      doc: Mono-Typed Array (the page's value column calls it the Array with remap type). The value is its offset.
    0xd0:
      id: bool
      doc: Bool, inline (0 or 1).
    0xd1:
      id: s32
      doc: Signed 32-bit integer, inline.
    0xd2:
      id: f32
      doc: 32-bit float, inline.
    0xd3:
      id: u32
      doc: Unsigned 32-bit integer, inline.
    0xd4:
      id: s64
      doc: Signed 64-bit integer. The value is its absolute offset.
    0xd5:
      id: u64
      doc: Unsigned 64-bit integer. The value is its absolute offset.
    0xd6:
      id: f64
      doc: 64-bit float. The value is its absolute offset.
    0xff:
      id: "null"
      doc: Null; the value is 0.
