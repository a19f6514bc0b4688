meta:
  id: nn_gfx
  title: nn::gfx structures and enums (NintendoWare)
  endian: le
  bit-endian: le
  # (nn_util's relocation table lists the pointers marked here.)
  imports: [nn_util]
  -binspec:
    source: EPD Wiki, page "Common nn::gfx", revision 2025-02-08T23:31:58Z
    # Structures of NintendoWare files, imported by their formats' schemas: built with BNTX's feature as a module
    # of its own, and not a format of its own.
    feature: bntx
    register: []
doc: |
  Structures and enums of nn::gfx that NintendoWare formats share (BNTX, BNSH, BFRES): the texture info (this
  schema's root, `nn::gfx::TextureInfo`), the sampler, buffer and memory pool infos, user data, and the enums of
  image formats, dimensions, tile modes, filters and address modes. Imported by the formats' schemas.

  Where the page is unclear, this schema says what it follows:
  * The image format (`image_format`, nn::gfx::ImageFormat, a u32) is `(ChannelFormat << 8) | TypeFormat`; the
    page lists its names without values. The values of `image_format` here are computed from the two tables.

  * Five names of the page's ImageFormat table do not split into a channel and a type of those tables and are left
    out of `image_format` (they read as numbers): Z16_Depth, R9G9B9E5F_SharedFloat, D32F_Depth, BC6H_SF16 and
    BC6H_UF16.

  * ChannelFormat `astc_10x6` is 0x36, where the wiki says ASTC_10x6 is 0x26: the values around it run 0x35, 0x37,
    and 0x26 breaks the sequence of ASTC sizes.

  * ComparisonFunction 0x4 is `greater_than` (the wiki spells it GreateThan).
-wiki:
  page: Common nn::gfx
  section: nn::gfx::TextureInfo
-wiki-enums:
  memory_pool_flags:
    page: Common nn::gfx
    section: nn::gfx::MemoryPoolFlags
  gpu_access_flags:
    page: Common nn::gfx
    section: nn::gfx::GpuAccessFlags
  image_storage_dimension:
    page: Common nn::gfx
    section: nn::gfx:::ImageStorageDimension
  tile_mode:
    page: Common nn::gfx
    section: nn::gfx::TileMode (Unofficial)
  channel_format:
    page: Common nn::gfx
    section: nn::gfx::ChannelFormat
  type_format:
    page: Common nn::gfx
    section: nn::gfx::TypeFormat
  image_format:
    page: Common nn::gfx
    section: nn::gfx::ImageFormat
  texture_address_mode:
    page: Common nn::gfx
    section: nn::gfx::TextureAddressMode
  comparison_function:
    page: Common nn::gfx
    section: nn::gfx::ComparisonFunction
  border_color:
    page: Common nn::gfx
    section: nn::gfx::BorderColor (Unofficial)
  mip_map_filter:
    page: Common nn::gfx
    section: nn::gfx::MipMapFilter (Unofficial)
  mag_filter:
    page: Common nn::gfx
    section: nn::gfx::MagFilter (Unofficial)
  min_filter:
    page: Common nn::gfx
    section: nn::gfx::MinFilter (Unofficial)
  reduction_filter:
    page: Common nn::gfx
    section: nn::gfx::ReductionFilter (Unofficial)
  user_data_type:
    page: Common nn::gfx
    section: Gfx User Data Type
seq:
  - id: is_packaged_texture
    type: b1
  - id: is_sparse_binding
    type: b1
  - id: is_sparse
    type: b1
  - id: is_res_texture
    type: b1
  - id: reserved
    type: b4
  - id: storage_dimension
    type: u1
    enum: image_storage_dimension
  - id: tile_mode
    type: u2
    enum: tile_mode
  - id: swizzle
    type: u2
    doc: The page does not say what this is.
  - id: mip_levels
    type: u2
  - id: sample_count
    type: u2
  - id: reserved2
    type: u2
  - id: image_format
    type: u4
    enum: image_format
  - id: gpu_access_flags
    type: u4
    doc: A combination of `gpu_access_flags`.
  - id: width
    type: u4
  - id: height
    type: u4
  - id: depth
    type: u4
  - id: array_layers
    type: u4
  - id: packaged_texture_layout
    type: u4
    doc: The page does not say what this is.
types:
  memory_pool_info:
    -wiki:
      page: Common nn::gfx
      section: nn::gfx::MemoryPoolInfo
    seq:
      - id: flags
        type: u4
        doc: A combination of `memory_pool_flags`.
      - id: memory_size
        type: u4
      - id: memory_pointer
        type: u8
        -relocate: nn_util
        doc: The memory (page aligned, 0x1000).
  buffer_info:
    -wiki:
      page: Common nn::gfx
      section: nn::gfx::BufferInfo
    seq:
      - id: size
        type: u4
      - id: gpu_access_flags
        type: u4
        doc: A combination of `gpu_access_flags`.
      - id: reserved
        type: u4
      - id: reserved2
        type: u4
  sampler_info:
    -wiki:
      page: Common nn::gfx
      section: nn::gfx::SamplerInfo
    seq:
      - id: wrap_u
        type: u1
        enum: texture_address_mode
      - id: wrap_v
        type: u1
        enum: texture_address_mode
      - id: wrap_w
        type: u1
        enum: texture_address_mode
      - id: compare_op
        type: u1
        enum: comparison_function
      - id: border_color
        type: u1
        enum: border_color
      - id: max_anisotropy
        type: u1
      - id: mip_map_filter
        type: b2
        enum: mip_map_filter
      - id: mag_filter
        type: b2
        enum: mag_filter
      - id: min_filter
        type: b2
        enum: min_filter
      - id: enable_anisotropy
        type: b1
      - id: enable_compare_op
        type: b1
      - id: reduction_filter
        type: b2
        enum: reduction_filter
      - id: reserved
        type: b6
      - id: lod_clamp_min
        type: f4
      - id: lod_clamp_max
        type: f4
      - id: lod_bias
        type: f4
      - id: reserved2
        type: u4
      - id: reserved3
        type: u4
      - id: reserved4
        type: u4
  embed_file:
    -wiki:
      page: Common nn::gfx
      section: Gfx Embed File
    doc: A file embedded in another (a BFRES's external files).
    seq:
      - id: file_offset
        type: u8
        -relocate: nn_util
      - id: file_size
        type: u4
      - id: unknown
        type: u4
  user_data:
    -wiki:
      page: Common nn::gfx
      section: Gfx User Data
    doc: A named value a tool attached to a resource.
    seq:
      - id: name
        type: u8
        -relocate: nn_util
        doc: Pointer to the name.
      - id: data
        type: u8
        -relocate: nn_util
        doc: Pointer to the data (may be null).
      - id: entries
        type: s4
        doc: Number of entries of the data.
      - id: data_type
        type: u1
        enum: user_data_type
      - id: reserved
        size: 0x2b
enums:
  memory_pool_flags:
    0x1: cpu_no_access
    0x2: cpu_uncached
    0x4: cpu_cached
    0x8: gpu_no_access
    0x10: gpu_uncached
    0x20: gpu_cached
    0x40: shader_code
    0x80: compressible
    0x100: physical
    0x200: virtual
  gpu_access_flags:
    0x4: vertex_buffer
    0x8: index_buffer
    0x10: uniform_buffer
    0x20: texture
    0x40: storage_buffer
    0x80: render_target_color
    0x100: render_target_depth
    0x200: indirect_draw
    0x400: display_texture
    0x800: counter
  image_storage_dimension:
    1: type1d
    2: type2d
    3: type3d
  tile_mode:
    0: optimal
    1: linear
  channel_format:
    0x1: none
    0x2: r8
    0x3: r4g4b4a4
    0x5: r5g5b5a1
    0x6: a1b5g5r5
    0x7: r5g6b5
    0x8: b5g6r5
    0x9: r8g8
    0xa: r16
    0xb: r8g8b8a8
    0xc: b8g8r8a8
    0xd: r9g9b9e5f
    0xe: r10g10b10a2
    0xf: r11g11b10f
    0x12: r16g16
    0x13: d24s8
    0x14: r32
    0x15: r16g16b16a16
    0x16: d32fs8
    0x17: r32g32
    0x18: r32g32b32
    0x19: r32g32b32a32
    0x1a: bc1
    0x1b: bc2
    0x1c: bc3
    0x1d: bc4
    0x1e: bc5
    0x1f: bc6h
    0x20: bc7u
    0x2d: astc_4x4
    0x2e: astc_5x4
    0x2f: astc_5x5
    0x30: astc_6x5
    0x31: astc_6x6
    0x32: astc_8x5
    0x33: astc_8x6
    0x34: astc_8x8
    0x35: astc_10x5
    0x36: astc_10x6
    0x37: astc_10x8
    0x38: astc_10x10
    0x39: astc_12x10
    0x3a: astc_12x12
    0x3b: b5g5r5a1
  type_format:
    0x1: unorm
    0x2: snorm
    0x3: uint
    0x4: sint
    0x5: float
    0x6: srgb
    0x7: depth
    0x8: uscaled
    0x9: sscaled
    0xa: ufloat
  image_format:
    0x0201: r8_unorm
    0x0202: r8_snorm
    0x0203: r8_uint
    0x0204: r8_sint
    0x0301: r4g4b4a4_unorm
    0x0501: r5g5b5a1_unorm
    0x0601: a1b5g5r5_unorm
    0x0701: r5g6b5_unorm
    0x0801: b5g6r5_unorm
    0x0901: r8g8_unorm
    0x0902: r8g8_snorm
    0x0903: r8g8_uint
    0x0904: r8g8_sint
    0x0a01: r16_unorm
    0x0a02: r16_snorm
    0x0a03: r16_uint
    0x0a04: r16_sint
    0x0a05: r16_float
    0x0b01: r8g8b8a8_unorm
    0x0b02: r8g8b8a8_snorm
    0x0b03: r8g8b8a8_uint
    0x0b04: r8g8b8a8_sint
    0x0b06: r8g8b8a8_srgb
    0x0c01: b8g8r8a8_unorm
    0x0c06: b8g8r8a8_srgb
    0x0e01: r10g10b10a2_unorm
    0x0e03: r10g10b10a2_uint
    0x0f05: r11g11b10f_float
    0x1201: r16g16_unorm
    0x1202: r16g16_snorm
    0x1203: r16g16_uint
    0x1204: r16g16_sint
    0x1205: r16g16_float
    0x1307: d24s8_depth
    0x1403: r32_uint
    0x1404: r32_sint
    0x1405: r32_float
    0x1501: r16g16b16a16_unorm
    0x1502: r16g16b16a16_snorm
    0x1503: r16g16b16a16_uint
    0x1504: r16g16b16a16_sint
    0x1505: r16g16b16a16_float
    0x1607: d32fs8_depth
    0x1703: r32g32_uint
    0x1704: r32g32_sint
    0x1705: r32g32_float
    0x1803: r32g32b32_uint
    0x1804: r32g32b32_sint
    0x1805: r32g32b32_float
    0x1903: r32g32b32a32_uint
    0x1904: r32g32b32a32_sint
    0x1905: r32g32b32a32_float
    0x1a01: bc1_unorm
    0x1a06: bc1_srgb
    0x1b01: bc2_unorm
    0x1b06: bc2_srgb
    0x1c01: bc3_unorm
    0x1c06: bc3_srgb
    0x1d01: bc4_unorm
    0x1d02: bc4_snorm
    0x1e01: bc5_unorm
    0x1e02: bc5_snorm
    0x2001: bc7u_unorm
    0x2006: bc7u_srgb
    0x2d01: astc_4x4_unorm
    0x2d06: astc_4x4_srgb
    0x2e01: astc_5x4_unorm
    0x2e06: astc_5x4_srgb
    0x2f01: astc_5x5_unorm
    0x2f06: astc_5x5_srgb
    0x3001: astc_6x5_unorm
    0x3006: astc_6x5_srgb
    0x3101: astc_6x6_unorm
    0x3106: astc_6x6_srgb
    0x3201: astc_8x5_unorm
    0x3206: astc_8x5_srgb
    0x3301: astc_8x6_unorm
    0x3306: astc_8x6_srgb
    0x3401: astc_8x8_unorm
    0x3406: astc_8x8_srgb
    0x3501: astc_10x5_unorm
    0x3506: astc_10x5_srgb
    0x3601: astc_10x6_unorm
    0x3606: astc_10x6_srgb
    0x3701: astc_10x8_unorm
    0x3706: astc_10x8_srgb
    0x3801: astc_10x10_unorm
    0x3806: astc_10x10_srgb
    0x3901: astc_12x10_unorm
    0x3906: astc_12x10_srgb
    0x3a01: astc_12x12_unorm
    0x3a06: astc_12x12_srgb
    0x3b01: b5g5r5a1_unorm
  texture_address_mode:
    0: repeat
    1: mirror_repeat
    2: clamp_to_edge
    3: clamp_to_border
    4: mirror_clamp_to_border
  comparison_function:
    0: never
    1: less_than
    2: equal
    3: less_than_equal
    4: greater_than
    5: not_equal
    6: greater_than_equal
    7: always
  border_color:
    0: white
    1: transparent_black
    2: black
  mip_map_filter:
    0: none
    1: nearest
    2: linear
  mag_filter:
    0: invalid
    1: nearest
    2: linear
  min_filter:
    0: invalid
    1: nearest
    2: linear
  reduction_filter:
    0: average
    1: min
    2: max
  user_data_type:
    0: s32
    1: float
    2: string
    3: byte
