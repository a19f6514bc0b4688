meta:
  id: bntx
  title: BNTX texture archive (nn::gfx::ResTextureFile)
  file-extension: bntx
  endian: le
  imports: [nn_util, nn_gfx]
  -binspec:
    source: EPD Wiki, page "Bntx", revision 2023-05-09T21:04:11Z
    # (The magic is the file header's, which nn_util.ksy reads as data: "BNTX" and 4 zero bytes.)
    magic: ["BNTX"]
    info:
      summary:
        file name: header.file_name.data
        version major: header.version_major
        version minor: header.version_minor
        textures: container.texture_count
        alignment shift: header.alignment_shift
doc: |
  A texture archive of nn::gfx: a container of texture infos (`BRTI` blocks), their names in a string pool with a
  dictionary, and one GPU region (`BRTD`) that holds every texture's swizzled data, then a relocation table.

  The page documents version 4.1.0; Super Mario Odyssey's files are version 4.0.0 and have the same layout.

  The file as Nintendo's tools lay it out (HomeBed.bntx): the file header and the container (0x58 bytes), the
  container's in-place memory pool (0x100 bytes) and 0x40 bytes of zeros, the array of texture info pointers, the
  string pool block (`_STR`, with the dictionary after the strings, inside the block), each `BRTI` block (its
  header, the in-place texture and texture view, 0x100 bytes each, then the array of mip level pointers), zeros up
  to the GPU region, whose block header comes 0x10 bytes before an address aligned to the file's alignment, the
  texture data, then the relocation table. The last `BRTI` block's size reaches the GPU region's block header.

  This schema reads every structure. The relocation table is derived from the pointers marked `-relocate`
  (each texture's mip level pointers are records of one pointer, `mip_level_ptr`, so that each is marked).
  Everything from the container's memory pool to the last `BRTI` block is laid out by the writer (`body`, a
  region in Nintendo's order): the header's first block offset, the container's pointers, each texture info's
  pointers to its in-place texture, texture view and mip level pointers (`tail`, a region at the end of each
  `BRTI` block) and the mip level count are derived, and so are the texture names' and the dictionary keys'
  pointers into the string pool, whose strings are stored once each (a new name goes after the file's), as is
  the file name's offset, and the block chain (each block header's next block offset and size, from where the
  blocks are, the last block's size reaching the relocation table; `nn_util::block_header`). The GPU region
  (`data_block` and each texture's `data`, aligned to 0x200) comes after the `BRTI` blocks, its header placed
  0x10 bytes before an address aligned to 0x1000; each mip level pointer is derived from where its texture's
  data is, and the level's offset into it, which the model keeps; the relocation table comes after the GPU
  region, at an address aligned to 0x1000, and its offset and its two sections' regions (the file up to the end
  of the last `BRTI` block, then the GPU region up to the table) are derived from where the writer puts them.
  Nothing of the layout is kept as read for the files at hand.
-wiki:
  page: Bntx
  section: Header (nn::gfx::ResTextureFile)
seq:
  - id: header
    type: nn_util
    doc: The file header; the wiki's row "Magic" is the whole nn::util::BinaryFileHeader, its magic first.
    valid:
      expr: _.magic == [0x42, 0x4e, 0x54, 0x58, 0, 0, 0, 0]
  - id: container
    type: texture_container
    doc: The container, 0x38 bytes (the wiki's header table gives it 0x28, but its own table runs to 0x38).
  - id: body
    size-eos: true
    doc: |
      Where the writer lays out the memory pool, the texture info pointers, the string pool block (its
      dictionary after it, inside the block), the `BRTI` blocks, the GPU region's header and the textures'
      data, and the relocation table, in this order (Nintendo's); not a field of the page's.
    -pool:
      id: bntx
      item-align: 8
      order:
        - texture_container.memory_pool
        - texture_container.textures
        - string_pool
        - texture_container.dictionary
        - texture_ref.texture
        - data_block
        - texture_info.data
        - relocation_table
instances:
  string_pool:
    pos: header.first_block_ofs
    type: nn_util::string_pool
    -pool: bntx
  data_block:
    pos: container.texture_data_header
    type: nn_util::block_header
    doc: |
      The header of the GPU region (`BRTD`); the textures' data follows it, from an address aligned to the file's
      alignment (0x1000 in every file at hand): the header is placed 0x10 bytes before such an address.
    -pool:
      id: bntx
      align: 0x1000
      align-at: 0x10
  relocation_table:
    pos: header.relocation_table_ofs
    type: nn_util::relocation_table(reloc_at, reloc_bounds)
    -pool:
      id: bntx
      align: 0x1000
    -chain-end: true
    doc: The relocation table, after the GPU region, at an address aligned to the file's alignment.
  reloc_at:
    value: header.relocation_table_ofs
    -value: relocation_table._pos
    doc: Where the relocation table is (its own offset, which it holds).
  reloc_bounds:
    value: '[0, container.texture_data_header, container.texture_data_header, header.relocation_table_ofs]'
    -value: '[0, data_block._before, data_block._pos, relocation_table._pos]'
    doc: |
      The regions of the relocation table's two sections: the file up to the end of what comes before the GPU
      region (not the padding before it), and the GPU region up to the relocation table. (Kaitai's tools compute
      the `value`, which counts the padding in the first.)
types:
  texture_container:
    -wiki:
      page: Bntx
      section: nn::gfx::ResTextureContainer
    doc: The textures, their dictionary and the GPU region that holds their data.
    seq:
      - id: magic
        contents: "NX  "
      - id: texture_count
        type: u4
      - id: texture_info_array
        type: u8
        -relocate: nn_util
        doc: Pointer to the array of pointers to the textures' `BRTI` blocks.
      - id: texture_data_header
        type: u8
        -relocate: nn_util
        doc: Pointer to the GPU region's block header (`BRTD`).
      - id: texture_info_dictionary
        type: u8
        -relocate: nn_util
        doc: Pointer to the dictionary of the textures' names.
      - id: memory_pool_ptr
        type: u8
        -relocate: nn_util
        doc: '`memory_pool_ptr`: Points to reserved 0x100 byte region for an in-place memory pool.'
      - id: user_memory_pool_ptr
        type: u8
        -relocate: nn_util
        doc: Set at run time (null in files).
      - id: base_memory_pool_ofs
        type: s4
      - id: reserved
        type: u4
    instances:
      memory_pool:
        pos: memory_pool_ptr
        -pool: bntx
        size: 0x140
        doc: |
          Reserved for the in-place memory pool (zeros in files): the page says 0x100 bytes, and every file at
          hand (HomeBed.bntx, and the fixtures written from the page by someone else) has 0x40 more zeros before
          the texture info pointers, read here as part of it.
      textures:
        pos: texture_info_array
        -pool: bntx
        type: texture_ref
        repeat: expr
        repeat-expr: texture_count
      dictionary:
        pos: texture_info_dictionary
        -pool: bntx
        type: nn_util::res_dic
  texture_ref:
    doc: A pointer to a texture's `BRTI` block, in the container's array.
    seq:
      - id: ptr
        type: u8
        -relocate: nn_util
    instances:
      texture:
        pos: ptr
        type: texture_info
        io: _root._io
        -pool: bntx
  texture_info:
    -wiki:
      page: Bntx
      section: nn::gfx::ResTextureInfo
    doc: One texture (a `BRTI` block).
    seq:
      - id: block
        type: nn_util::block_header
        doc: The block header; the wiki's row "Magic" is the whole nn::util::BinaryBlockHeader, its magic first.
      - id: info
        type: nn_gfx
      - id: packaged_layout
        size: 4
        doc: Packaged texture layout (the page is not sure).
      - id: reserved
        size: 0x14
      - id: texture_size
        type: u4
        doc: Size of the texture's data, every mip level included.
      - id: texture_alignment
        type: u4
        doc: Alignment of the texture's data in the GPU region.
      - id: channel_sources
        type: channel_sources
        doc: The source of each of the four channels (nn::gfx::ChannelSource; the page lists no values).
      - id: image_dimension
        type: u1
        doc: nn::gfx::ImageDimension (the page lists no values).
      - id: reserved2
        size: 3
      - id: texture_name
        type: u8
        -relocate: nn_util
        doc: Pointer to the texture's name.
      - id: parent_texture_container
        type: u8
        -relocate: nn_util
        doc: Pointer to the texture container.
      - id: mip_map_pointers
        type: u8
        -relocate: nn_util
        doc: Pointer to the array of pointers to each mip level's data.
      - id: user_data_array
        type: u8
        -relocate: nn_util
      - id: texture_ptr
        type: u8
        -relocate: nn_util
        doc: '`texture_ptr`: Points to reserved 0x100 byte region for an in-place texture.'
      - id: texture_view_ptr
        type: u8
        -relocate: nn_util
        doc: '`texture_view_ptr`: Points to reserved 0x100 byte region for an in-place texture view.'
      - id: descriptor_slot
        type: u8
        -relocate: nn_util
        doc: Set at run time.
      - id: user_data_dictionary
        type: u8
        -relocate: nn_util
      - id: tail
        size: 0
        doc: |
          Where the in-place texture, texture view and mip level pointers follow the texture info, in this order,
          inside its `BRTI` block (not a field of the page's).
        -pool:
          id: brti
          item-align: 8
    instances:
      texture_area:
        pos: texture_ptr
        size: 0x100
        io: _root._io
        -pool: brti
        doc: Reserved for the in-place texture (zeros in files).
      view_area:
        pos: texture_view_ptr
        size: 0x100
        io: _root._io
        -pool: brti
        doc: Reserved for the in-place texture view (zeros in files).
      name:
        pos: texture_name
        type: nn_util::nw_string
        io: _root._io
        -pool: nw_strings
      first_mip:
        pos: mip_map_pointers
        type: u8
        io: _root._io
        -view: true
        doc: The first mip level's pointer, as the file holds it (the levels' offsets into the data count from it).
      data:
        pos: first_mip
        size: texture_size
        io: _root._io
        doc: The texture's data, every mip level, swizzled for the GPU; in the GPU region, aligned to 0x200.
        -pool:
          id: bntx
          align: 0x200
      mip_ptrs:
        pos: mip_map_pointers
        type: mip_level_ptr
        repeat: expr
        repeat-expr: info.mip_levels
        io: _root._io
        -pool: brti
  mip_level_ptr:
    doc: A pointer to one mip level's data, in the GPU region.
    seq:
      - id: ptr
        type: u8
        -relocate: nn_util
        -derive: _parent.data._pos + offset
        doc: Derived from where the writer puts the texture's data, and the level's offset into it.
    instances:
      offset:
        value: ptr - _parent.first_mip
        -data: u4
        doc: Where the level starts in the texture's data (0 for the first).
  channel_sources:
    doc: Where each channel of the texture comes from (nn::gfx::ChannelSource; the page lists no values).
    seq:
      - id: r
        type: u1
      - id: g
        type: u1
      - id: b
        type: u1
      - id: a
        type: u1
  texture_data:
    -wiki:
      page: Bntx
      section: nn::gfx::ResTextureData
    doc: The header of the GPU region (`BRTD`).
    seq:
      - id: block
        type: nn_util::block_header
        doc: The block header; the wiki's row "Magic" is the whole nn::util::BinaryBlockHeader, its magic first.
