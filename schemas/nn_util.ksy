meta:
  id: nn_util
  title: nn::util binary file structures (NintendoWare)
  endian: le
  -binspec:
    source: EPD Wiki, page "Common nn::util", revision 2026-02-16T06:57:17Z
    # Structures of NintendoWare files, imported by their formats' schemas: built with BNTX's feature as a module
    # of its own, and not a format of its own.
    feature: bntx
    register: []
doc: |
  The structures that NintendoWare file formats share (BNTX, BFRES, BNSH, BFSHA, ...): the file header
  (`nn::util::BinaryFileHeader`, this schema's root), the header of each block, the relocation table, the
  dictionary (`nn::util::ResDic`) and the string pool. Imported by the formats' schemas, not read on its own.

  Switch files are little-endian; the byte order mark reads 0xfeff (the bytes `ff fe`). Big-endian files of these
  formats (Wii U) have other headers and are not described here.

  Where the page contradicts the files, this schema follows the files (Super Mario Odyssey's HomeBed.bntx):
  * The page's `nn::util::StringPool` table lists "0c8 0x8 void* Reserved" and then a string count at 0xc, which
    does not add up. The files have a block header there (magic, next block offset, block size, a reserved u32:
    0x10 bytes), the string count at 0x10, the empty string at 0x14 and the strings from 0x18.
  * `NWString` pointers (`const char * (NW)`) point at the string's u16 length, not at its characters; each string
    ends with a zero byte after its characters (not counted in the length) before the padding to 2 bytes. The file
    header's file name offset is the exception: it points at the characters.
  * The relocation table's entry is {u32 position, u16 struct count, u8 pointer count, u8 padding count}: the
    entry lists `struct count` groups of `pointer count` pointers, each group `pointer count + padding count`
    pointers after the one before (the page's "array count", "per array pointer count" and "array stride").
-wiki:
  page: Common nn::util
  section: nn::util::BinaryFileHeader
seq:
  - id: magic
    size: 8
    doc: The file type's magic ("BNTX\0\0\0\0", "FRES    "); the wiki's u64 Magic, read as its 8 bytes.
  - id: version_micro
    type: u1
    doc: Micro version (no code-breaking changes).
  - id: version_minor
    type: u1
  - id: version_major
    type: u2
  - id: bom
    type: u2
    valid: 0xfeff
    doc: Byte order mark (the wiki's "Endianess"); 0xfeff read little-endian.
  - id: alignment_shift
    type: u1
    doc: Packed alignment of the file (alignment = 1 << this).
  - id: address_size
    type: u1
    doc: Always 64 (the size of a pointer, in bits).
  - id: file_name_ofs
    type: u4
    doc: |
      Offset of the file name's characters (after its u16 length) in the string pool; derived from where the
      writer puts the file name (`file_name`).
  - id: is_relocated
    type: u2
    doc: Set at run time by nn::util::RelocationTable::Relocate, against relocating twice; 0 in files.
  - id: first_block_ofs
    type: u2
    doc: Offset of the first block header, relative to this header.
  - id: relocation_table_ofs
    type: u4
    doc: Offset of the relocation table, relative to this header.
  - id: file_size
    type: u4
    -derive: _io.size
    doc: Size of the whole file (derived by the writer; a file that disagrees keeps its value).
instances:
  file_name:
    pos: file_name_ofs - 2
    type: nw_string
    -pool: nw_strings
    doc: The file's name, a string of the string pool (its offset is derived).
types:
  block_header:
    -wiki:
      page: Common nn::util
      section: nn::util::BinaryBlockHeader
    doc: The header of a block (a sub section) of the file.
    seq:
      - id: magic
        type: str
        size: 4
        encoding: ASCII
        doc: The block's magic (`BRTI`, `BRTD`, `_STR`); the wiki's u32 Magic, read as its 4 characters.
      - id: next_block_ofs
        type: u4
        -derive: _chain.next
        doc: |
          Offset of the next block header, relative to this header; 0 for the last block. Derived by the writer
          from where it puts the blocks (every block header of the file, in the order of their positions); a file
          whose blocks chain otherwise keeps its values.
      - id: size
        type: u4
        -derive: _chain.size
        doc: |
          Size of the block (to the next block where one follows, padding included; the last block's reaches the
          relocation table). Derived by the writer as the next block offset, and for the last block from where
          the relocation table is (the formats mark it `-chain-end`).
      - id: reserved
        type: u4
  relocation_table:
    -wiki:
      page: Common nn::util
      section: nn::util::RelocationTable
    doc: |
      Where the file's pointers are, so that they can be turned into addresses when the file is loaded. Derived
      by the writer from the fields marked `-relocate: nn_util` (the pointers of the schemas that import this
      one): per section, the pointers whose values lie in its region, grouped as Nintendo's tools group them.

      The sections' regions are where the format lays its parts out, which only the format knows: it passes
      them (`bounds`: the start and the end of each section's region, in order), and each section's region
      offset and size are derived from them. Where it passes none for a section, the region is as the file holds
      it.
    params:
      - id: at
        type: s8
        doc: "Where the format puts the table (-1 where it gives none: the table's offset is then as the file has it)."
      - id: bounds
        type: u8[]
        doc: "The start and the end of each section's region, section by section (none where the format passes none)."
    seq:
      - id: magic
        contents: _RLT
      - id: table_ofs
        type: u4
        -derive: at
        doc: Offset of this table, relative to the file header (derived from where the format puts it).
      - id: section_count
        type: u4
      - id: reserved
        type: u4
      - id: sections
        type: 'relocation_section(_index * 2 + 1 < bounds.size ? bounds[_index * 2] : -1, _index * 2 + 1 < bounds.size ? bounds[_index * 2 + 1] : -1)'
        repeat: expr
        repeat-expr: section_count
      - id: entries
        size-eos: true
        doc: The entries of every section, each section's a range of them.
        -pool:
          id: relocation_entries
  relocation_section:
    -wiki:
      page: Common nn::util
      section: nn::util::RelocationTable::Section
    doc: A region of the file, and the range of entries that list the pointers whose values lie in it.
    params:
      - id: start
        type: s8
        doc: Where the format puts the region's start (-1 where it gives none).
      - id: end
        type: s8
        doc: Where the format puts the region's end (-1 where it gives none).
    seq:
      - id: base_pointer
        type: u8
        doc: Base pointer of the region's offsets; null (in files) for offsets relative to the file header.
      - id: region_ofs
        type: u4
        -derive: start
        doc: Where the region starts (derived from where the format lays it out; kept as the file has it otherwise).
      - id: region_size
        type: u4
        -derive: 'start >= 0 ? end - start : -1'
        doc: How long the region is (derived as its offset is).
      - id: entry_index
        type: u4
        doc: Index of the section's first entry.
      - id: entry_count
        type: u4
    instances:
      entries:
        pos: _parent.table_ofs + 16 + _parent.section_count * 24 + entry_index * 8
        type: relocation_entry
        repeat: expr
        repeat-expr: entry_count
        io: _root._io
        -pool: relocation_entries
        -relocations:
          id: nn_util
          from: 'start >= 0 ? start : region_ofs'
          size: 'start >= 0 ? end - start : region_size'
        doc: The section's entries.
  relocation_entry:
    -wiki:
      page: Common nn::util
      section: nn::util::RelocationTable::Entry (unofficial name)
    doc: Groups of pointers at a regular stride.
    seq:
      - id: region_offset
        type: u4
        doc: |
          Offset of the first pointer, from the file header (the wiki's "File region offset", which it says is
          relative to the section's region: the files have it from the file header).
      - id: struct_count
        type: u2
        doc: How many groups of pointers (the wiki's "array count").
      - id: pointer_count
        type: u1
        doc: Pointers in each group (the wiki's "per array pointer count").
      - id: padding_count
        type: u1
        doc: |
          Pointer-sized slots after each group before the next one (the next group starts `pointer_count +
          padding_count` pointers after this one; the wiki's "array stride").
  res_dic:
    -wiki:
      page: Common nn::util
      section: nn::util::ResDic
    doc: |
      A dictionary: a Patricia tree over its keys, whose root (node 0, with the empty key) is not counted.

      The wiki's "Root node" and "Node array" rows are one array here, `nodes` (count + 1 entries, the root
      first). Each node's reference bit and indices are derived from the keys in their order (`-resdic`), as
      Nintendo's tools build the tree; a file whose values differ (another tool's) keeps them.
    seq:
      - id: magic
        size: 4
        doc: '"_DIC" (or 0 in some files); the wiki''s u32 Magic, read as its 4 bytes.'
      - id: count
        type: u4
        doc: Number of keys (the root node is not counted).
      - id: nodes
        type: 'res_dic_node(_index == 0 ? 0 : root_key)'
        repeat: expr
        repeat-expr: count + 1
        -resdic: key.data
    instances:
      nodes_pos:
        value: _io.pos
        doc: Where the nodes start (saved before them).
      root_key:
        pos: nodes_pos + 8
        type: u8
        -view: true
        doc: |
          The root node's key pointer, as the file holds it: where the string pool's strings start, which the
          other nodes' keys are read from (their pointers are derived when writing).
  res_dic_node:
    -wiki:
      page: Common nn::util
      section: nn::util::ResDic::Node (unofficial name)
    params:
      - id: first_key
        type: u8
        doc: The root node's key pointer (0 for the root itself), where the string pool starts.
    seq:
      - id: ref_bit
        type: u4
        -derive: _dic.ref_bit
        doc: |
          The bit of the key this node tests (bits 0-2: the bit in its byte; bits 3-31: the byte, counted from the
          key's end); 0xffffffff for the root.
      - id: left
        type: u2
        -derive: _dic.left
        doc: Index of the left node.
      - id: right
        type: u2
        -derive: _dic.right
        doc: Index of the right node.
      - id: string_key
        type: u8
        -relocate: nn_util
        doc: Pointer to the key (an `nw_string`).
    instances:
      key:
        pos: string_key
        type: nw_string
        io: _root._io
        if: string_key >= first_key
        -pool: nw_strings
        doc: |
          The key, a string of the string pool (its pointer is derived: equal strings are stored once); read
          where it is not before the root's key (the string pool's empty string, where the pool's strings start).
          A BFRES rewritten by another tool (the corpus' HomeBed.bfres) has keys that lost their upper bytes and
          point into the file header: the model keeps those pointers, without a key.
  string_pool:
    -wiki:
      page: Common nn::util
      section: nn::util::StringPool
    doc: |
      The file's strings (each once), after a block header, as `nw_string`s from offset 0x14.

      The wiki's rows "Next BinaryBlockHeader offset relative to this header" to "Empty String entry" do not add
      up (a reserved void* at "0c8"): the files have a whole block header first (`header`, 0x10 bytes), the
      string count at 0x10 and the empty string (the first of `strings`) at 0x14.
    seq:
      - id: header
        type: block_header
      - id: string_count
        type: u4
        doc: Number of strings, the empty string at the start not counted.
      - id: strings
        type: nw_string
        repeat: expr
        repeat-expr: string_count + 1
        doc: |
          The strings, the empty one first. Every string a schema points to with `-pool: nw_strings` is stored
          here once (the writer derives the pointers); the strings the file holds are kept in their order, and a
          new one goes after them. The count is derived.
        -pool:
          id: nw_strings
          dedup: true
  nw_string:
    -wiki:
      page: Common nn::util
      section: NWString
    doc: A string as NintendoWare files keep them; pointers to a string point at its length.
    seq:
      - id: len
        type: u2
      - id: data
        type: str
        size: len
        encoding: UTF-8
      - id: terminator
        contents: [0]
      - id: padding
        size: (len + 1) % 2
        pad-right: 0
        doc: Zeros up to 2 bytes (the writer pads; a file with other bytes there keeps them).
