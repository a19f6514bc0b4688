meta:
  id: bfres
  title: BFRES 3D graphics resources (nn::g3d::ResFile)
  file-extension: bfres
  endian: le
  imports: [nn_util, nn_gfx]
  -binspec:
    source: EPD Wiki, page "Bfres", revision 2025-02-21T21:56:27Z
    # (The magic is the file header's, which nn_util.ksy reads as data: "FRES" and 4 more bytes.)
    magic: ["FRES"]
    info:
      summary:
        file name: header.file_name.data
        version major: header.version_major
        version minor: header.version_minor
        alignment shift: header.alignment_shift
        models: "header.version_major == 8 ? body.as<res_file_v8>.model_count : body.as<res_file>.model_count"
        embedded files: "header.version_major == 8 ? body.as<res_file_v8>.embed_file_count : body.as<res_file>.embed_file_count"
doc: |
  A file of nn::g3d resources: models (vertices, shapes and their meshes, materials, a skeleton), animations and
  embedded files, each kind in an array with a dictionary of names, then a string pool, a GPU region (index and
  vertex buffers) with the memory pool info that describes it, and a relocation table.

  Two layouts, chosen by the file header's `version_major` (the u16 at 0xa; `version_minor` at 0x9):
  * 10: the page's layout (it documents 10.0.0 and 10.2.0): `res_file`, `model`, `vertex`, `shape`, `material`,
    `static_shader_variation`, `shader_reflection`, `render_info`, `shader_param`, `meshlet`, `bounding_sphere`.
    No 10.x file was at hand: this branch is transcribed from the page and has not read a file.
  * 8: Super Mario Odyssey (the corpus' AirCurrent.bfres and HomeBed.bfres; BfresLibrary calls it 0.8.0.0):
    `res_file_v8`, `model_v8`, `vertex_v8`, `shape_v8`, `material_v8`, `render_info_v8`, `shader_assign_v8`,
    `shader_param_v8`, `skeleton_v8`, `bone_v8`. Read from the two files; field names follow the page where the
    page has the field, and BfresLibrary (KillzXGaming/BfresLibrary, Switch readers) otherwise.

  Other versions have other layouts (BfresLibrary's reader tests for 9, and for 2 and below) and are refused by
  the header check.

  What differs between the versions, and how it is known:
  * Sections (`FMDL`, `FVTX`, `FSHP`, `FMAT`, `FSKL`): in 8 a whole nn::util block header (magic, next block
    offset, size, reserved: 0x10 bytes) where 10 has the magic and a u32 (8 bytes), so every later field is 8
    bytes further. The block offsets chain the sections: the file header's first block offset (0xd0) is the first
    model, and each next block offset leads to the next section, up to `_STR` (whose next is 0). Sections that
    are not blocks (`FVTX`, `FSHP` here) hold zeros there.
  * File header: 10 adds four pointers at 0x38 (BfresLibrary: two new sections, arrays and dictionaries, always
    null there) and two u16 counts after the model count; 8 is 0xb0 bytes after the BinaryFileHeader, 10 0xd0.
    Both files of 8 bear this out: their model array pointer is 0xd0, right after the header.
  * Model: 10 adds the shader reflection array (0x48) and its count; 8 has a u32 after the counts (BfresLibrary's
    total vertex count: 24 in AirCurrent, whose one vertex set has 24 vertices; 1155 in HomeBed, whose one has
    954).
  * Shape: in 8 the flags are after the pointers (0x58) instead of at 0x4, and the bounding spheres are one f4
    radius per mesh (AirCurrent 150.0, HomeBed 174.86, then 4 bytes of padding) where 10 has ResBoundingSphere
    (center and radius, 0x10 bytes).
  * Material: 8 holds render infos with their values (`render_info_v8`), shader parameters with their offsets
    (`shader_param_v8`) and a shader assign (`shader_assign_v8`: names of the shader archive and shading model, and the
    vertex attribute, sampler and shader option assignments); 10 moves render info and shader parameter
    descriptions into the model's shader reflections and has a static shader variation instead of the assign.
  * Shader parameter types: 8 numbers them as BfresLibrary does (16, 20 and 24 unused; float4x4 27, tex_srt 30):
    AirCurrent's `mirror_view_proj` is type 27 with 64 bytes of data, its `tex_mtx0` type 30 with 24 bytes. The
    page numbers 10's types without gaps (Matrix4x4 25, SrtTexture 28); no 10.x file was at hand to check it.
  * Skeleton: 8 has a block header, 16 reserved bytes where 10 has the mirror table pointer, its flags after the
    user pointer and 6 bytes of padding for 2. Bone: 16 reserved bytes where 10 has 8. The page has no table for
    either: 8 is read from the files (AirCurrent's bone: scale (1, 1, 1), rotation (0, 0, 0, 1), translation
    (0, 0, 0)), 10 from two public readers (BfresLibrary and the C++ headers of the `dd::res`/`vp::res` BFRES
    structures by W. Michael Knudson), not from a file.

  HomeBed.bfres is not Nintendo's file: another tool wrote it again with bytes zeroed here and there (the
  original is inside the corpus' sarc/HomeBed.szs, magic "FRES    "; HomeBed.bfres has "FRES  " and two zeros,
  dictionary roots 0x0000ffff, its model's material count 0 for its one material, two vertex buffer sizes 0).
  Three things let it read completely: the model's materials are counted by their dictionary (as BfresLibrary
  reads every array with a dictionary), a shading model name and a shader parameter name are read only where a
  string is (`model_name_end`, `name_end`), and nn_util's dictionary keys only from the root's key on (six shader
  option keys point into the file header). Nothing else in the schema is there for it.

  Enums that the page names without values: `primitive_topology` and `index_format` are BfresLibrary's Switch
  values (the files: topology 3 (triangles); AirCurrent index format 2 with 36 indices in 0x90 bytes, HomeBed 1
  with 3918 indices in 7836 bytes); attribute formats are split into nn_gfx's channel and type formats.

  Pointers to strings are derived: every name (and every string a `string_ref` points to) is a string of the
  string pool (`-pool: nw_strings`, stored once each, a new one after the file's), so that a renamed model,
  material, shape, bone or parameter is written with its pointers, its dictionary key's and the pool's size
  (`string_pool_size`, from the pool's length, `strings._len`) following it. The relocation table's first
  section, the file up to the end of the string pool, is derived too; its other sections are as the file has
  them. Every structure from the end of the header to the end of the string pool is an item of one pool
  (`layout`, `-pool: bfres`), so the pointers to them are derived: the writer lays them out one after another,
  each at its alignment (8; 4 for version 8's render info values of numbers), in the order the file had them
  (`layout_item_order`, indices in the order the writer meets them, where that is not the file's order; Nintendo
  groups them by kind across a model, which the schema does not yet give as the order of a new file: a new file
  has the structures in the order the writer meets them, then the string pool, the GPU region, the runtime memory
  pool, the embedded files and the relocation table, the pool's `order`), so that a
  model can be removed and a structure can grow. In every file at hand they are one after another from 0xd0
  (0xf0 in version 10) so. After the string pool come the GPU region (`gpu_memory_pool.region`, at a multiple of
  0x1000; its pointer and size in the memory pool info are derived), the runtime memory pool's 0x120 bytes
  (every pointer to it derived: the header's, each vertex set's and mesh's), the embedded files (each at a
  multiple of 0x1000, its offset and size derived) and the relocation table (the root's `relocation_table`, after
  the runtime memory pool, or at a multiple of 0x1000 after embedded files: Nintendo's HomeBed.bfres, inside the
  corpus' sarc/HomeBed.szs; an alignment a file has otherwise is kept, `layout_item_align`), items of the same
  pool, so that names can outgrow the zeros before the GPU region (0x72e bytes in AirCurrent.bfres) and an
  embedded file can change size: what follows moves. The relocation table's sections' regions are derived from
  where they are: the file to the end of the string pool, the index buffers (up to the first model's first vertex
  set's `base_offset` into the GPU region), the vertex buffers, the runtime memory pool, the embedded files (empty,
  at the table, where there are none). A removed model's buffers stay in the GPU region, unused. A version 10 material's render info values are read
  by their render info's type (`render_info_value_block`): integers and floats as data, strings as pointers to
  the string pool that the writer derives, so that they follow the strings when they move; the values' offsets
  and counts, and the block's size, are the file's. The runtime-only regions (memory pools, GPU object memory,
  descriptor slots) are read as the bytes files hold there. Every pointer is marked
  `-relocate: nn_util` (those of nn_gfx's structures in nn_gfx.ksy), so the relocation table is derived from
  them: the fixtures and AirCurrent.bfres keep none of its entries. Version 8 lists some null pointers (the
  dictionaries but the key shapes', and a bone's user data array: AirCurrent's table), marked `list-null`; the
  pointers to strings among a version 10 material's render info values are listed too. HomeBed.bfres keeps its first section's entries: the tool that wrote it listed null pointers
  that Nintendo's version 8 files do not (among its shader options). Animations (skeletal,
  material, bone visibility, shape, scene) are not read: the page has no table for them and no file at hand has
  one; their arrays, dictionaries and counts are read.
-wiki-enums:
  render_info_type:
    page: Bfres
    section: Render info data type
  shader_param_type:
    page: Bfres
    section: Shader parameter data type
seq:
  - id: header
    type: nn_util
    doc: The file header (nn::util::BinaryFileHeader); its magic is "FRES" and four spaces in Nintendo's files.
    valid:
      expr: >-
        _.magic[0] == 0x46 and _.magic[1] == 0x52 and _.magic[2] == 0x45 and _.magic[3] == 0x53
        and (_.version_major == 8 or _.version_major == 10)
  - id: body
    type:
      switch-on: header.version_major
      cases:
        8: res_file_v8
        10: res_file
    doc: The rest of nn::g3d::ResFile, after the BinaryFileHeader.
  - id: layout
    size-eos: true
    doc: |
      Where the writer lays out everything the header points to, in Nintendo's order; not a field of the page's.
    -pool:
      id: bfres
      item-align: 8
      keep-order: true
      # A new file's order (where the document keeps none): the structures as the writer meets them, then these,
      # as Nintendo's files end.
      order:
        - res_file_v8.strings
        - res_file.strings
        - gpu_memory_pool.region
        - res_file_v8.runtime_memory_pool_data
        - res_file.runtime_memory_pool_data
        - embed_file_entry.data
        - relocation_table
instances:
  relocation_table:
    pos: header.relocation_table_ofs
    type: nn_util::relocation_table(reloc_at, reloc_bounds)
    -pool: bfres
    -chain-end: true
    doc: |
      The relocation table, the last item of the file's layout: after the runtime memory pool, or after the
      embedded files at a multiple of 0x1000 (Nintendo's HomeBed.bfres).
  reloc_at:
    value: header.relocation_table_ofs
    -value: relocation_table._pos
    doc: Where the relocation table is (its own offset, which it holds).
  reloc_bounds:
    value: >-
      header.version_major == 8 ?
      [0,
      body.as<res_file_v8>.string_pool - 0x14 + body.as<res_file_v8>.string_pool_size,
      body.as<res_file_v8>.gpu_memory_pool.info.memory_pointer,
      body.as<res_file_v8>.gpu_memory_pool.info.memory_pointer + body.as<res_file_v8>.gpu_index_size,
      body.as<res_file_v8>.gpu_memory_pool.info.memory_pointer + body.as<res_file_v8>.gpu_index_size,
      body.as<res_file_v8>.gpu_memory_pool.info.memory_pointer + body.as<res_file_v8>.gpu_memory_pool.info.memory_size,
      body.as<res_file_v8>.runtime_memory_pool,
      body.as<res_file_v8>.runtime_memory_pool + 0x120,
      body.as<res_file_v8>.embed_file_count > 0 ? body.as<res_file_v8>.embed_files[0].info.file_offset : header.relocation_table_ofs,
      header.relocation_table_ofs] :
      [0,
      body.as<res_file>.string_pool - 0x14 + body.as<res_file>.string_pool_size,
      body.as<res_file>.gpu_memory_pool.info.memory_pointer,
      body.as<res_file>.gpu_memory_pool.info.memory_pointer + body.as<res_file>.gpu_index_size,
      body.as<res_file>.gpu_memory_pool.info.memory_pointer + body.as<res_file>.gpu_index_size,
      body.as<res_file>.gpu_memory_pool.info.memory_pointer + body.as<res_file>.gpu_memory_pool.info.memory_size,
      body.as<res_file>.runtime_memory_pool,
      body.as<res_file>.runtime_memory_pool + 0x120,
      body.as<res_file>.embed_file_count > 0 ? body.as<res_file>.embed_files[0].info.file_offset : header.relocation_table_ofs,
      header.relocation_table_ofs]
    -value: >-
      header.version_major == 8 ?
      [0,
      body.as<res_file_v8>.strings._pos + body.as<res_file_v8>.strings._len,
      body.as<res_file_v8>.gpu_memory_pool.region._pos,
      body.as<res_file_v8>.gpu_memory_pool.region._pos + body.as<res_file_v8>.gpu_index_size,
      body.as<res_file_v8>.gpu_memory_pool.region._pos + body.as<res_file_v8>.gpu_index_size,
      body.as<res_file_v8>.gpu_memory_pool.region._pos + body.as<res_file_v8>.gpu_memory_pool.region._len,
      body.as<res_file_v8>.runtime_memory_pool_data._pos,
      body.as<res_file_v8>.runtime_memory_pool_data._pos + body.as<res_file_v8>.runtime_memory_pool_data._len,
      body.as<res_file_v8>.embed_file_count > 0 ? body.as<res_file_v8>.embed_files[0].data._pos : relocation_table._pos,
      relocation_table._pos] :
      [0,
      body.as<res_file>.strings._pos + body.as<res_file>.strings._len,
      body.as<res_file>.gpu_memory_pool.region._pos,
      body.as<res_file>.gpu_memory_pool.region._pos + body.as<res_file>.gpu_index_size,
      body.as<res_file>.gpu_memory_pool.region._pos + body.as<res_file>.gpu_index_size,
      body.as<res_file>.gpu_memory_pool.region._pos + body.as<res_file>.gpu_memory_pool.region._len,
      body.as<res_file>.runtime_memory_pool_data._pos,
      body.as<res_file>.runtime_memory_pool_data._pos + body.as<res_file>.runtime_memory_pool_data._len,
      body.as<res_file>.embed_file_count > 0 ? body.as<res_file>.embed_files[0].data._pos : relocation_table._pos,
      relocation_table._pos]
    doc: |
      The regions of the relocation table's five sections: the file up to the end of the string pool, the index
      buffers (the GPU region up to the first model's first vertex set's buffers), the vertex buffers, the runtime
      memory pool, and the embedded files up to the table (empty, at the table, without any). Kaitai's tools
      compute the `value`, from the offsets the file holds; binspec the `-value`, from where the writer puts them.
types:
  unchained_header:
    doc: |
      The header of a section that is not a block of the file's chain (`FVTX`, `FSHP`): laid out as an
      nn::util block header, its next block offset and size 0 in every file at hand, kept as read (the block
      headers of the chain, `nn_util::block_header`, have them derived).
    seq:
      - id: magic
        type: str
        size: 4
        encoding: ASCII
      - id: next_block_ofs
        type: u4
      - id: size
        type: u4
      - id: reserved
        type: u4
  res_file:
    -wiki:
      page: Bfres
      section: Header (nn::g3d2::ResFile)
      from: 0x20
    doc: |
      Version 10: the file header after the BinaryFileHeader (0x20 to 0xf0).

      The wiki's row at 0x38 gives `void*[4]` a size of 0x8; four pointers take 0x20 bytes, which is where the next
      row (0x58) starts.
    seq:
      - id: file_name
        type: u8
        -relocate: nn_util
        doc: Pointer to the file's name.
      - id: model_array
        type: u8
        -relocate: nn_util
      - id: model_dictionary
        type: u8
        -relocate: nn_util
      - id: reserved
        size: 0x20
        doc: |
          Four pointers (`void*[4]`; the wiki's size 0x8 is that of one). BfresLibrary reads two arrays and their
          dictionaries of section kinds it does not know here, and expects them null.
      - id: skeletal_animation_array
        type: u8
        -relocate: nn_util
      - id: skeletal_animation_dictionary
        type: u8
        -relocate: nn_util
      - id: material_animation_array
        type: u8
        -relocate: nn_util
      - id: material_animation_dictionary
        type: u8
        -relocate: nn_util
      - id: bone_visibility_animation_array
        type: u8
        -relocate: nn_util
      - id: bone_visibility_animation_dictionary
        type: u8
        -relocate: nn_util
      - id: shape_animation_array
        type: u8
        -relocate: nn_util
      - id: shape_animation_dictionary
        type: u8
        -relocate: nn_util
      - id: scene_animation_array
        type: u8
        -relocate: nn_util
      - id: scene_animation_dictionary
        type: u8
        -relocate: nn_util
      - id: runtime_memory_pool
        type: u8
        -relocate: nn_util
        doc: Runtime MemoryPool (set by g3d); in version 8 files a pointer to 0x120 reserved bytes.
      - id: memory_pool_info
        type: u8
        -relocate: nn_util
        doc: |
          Pointer to the nn::gfx::MemoryPoolInfo that describes the GPU region (the wiki's type column names the
          struct; the row is 8 bytes, a pointer).
      - id: embed_file_array
        type: u8
        -relocate: nn_util
      - id: embed_file_dictionary
        type: u8
        -relocate: nn_util
      - id: user_pointer
        type: u8
        -relocate: nn_util
        doc: User pointer in EPD software (0 in files).
      - id: string_pool
        type: u8
        -relocate: nn_util
        doc: |
          Pointer to the string pool's first string (the empty one, 0x14 bytes into the `_STR` block). Unnamed on
          the page; so in version 8 files and in BfresLibrary.
      - id: string_pool_size
        type: u4
        -derive: strings._len
        doc: |
          Bytes of the string pool from its block header to the end of its last string (unnamed on the page; as in
          8), derived from what the writer writes of it.
      - id: model_count
        type: u2
      - id: unknown_count0
        type: u2
        doc: Unnamed on the page; BfresLibrary reads it as the count of the first of the arrays at `reserved`.
      - id: unknown_count1
        type: u2
        doc: Unnamed on the page; the count of the second of those arrays.
      - id: skeletal_animation_count
        type: u2
      - id: material_animation_count
        type: u2
      - id: bone_visibility_animation_count
        type: u2
      - id: shape_animation_count
        type: u2
      - id: scene_animation_count
        type: u2
      - id: embed_file_count
        type: u2
      - id: reserved2
        type: u2
    instances:
      runtime_memory_pool_data:
        pos: runtime_memory_pool
        size: 0x120
        io: _root._io
        -pool: bfres
        if: runtime_memory_pool != 0
        doc: |
          Memory for the runtime memory pool object; its size (0x120) is version 8's, assumed here. Declared first:
          each vertex set and mesh points to it, so a reader meets it before them, and the writer must too.
      gpu_index_size:
        value: 'model_count > 0 and models[0].vertex_count > 0 ? models[0].vertices[0].base_offset : 0'
        doc: |
          The index buffers' bytes at the start of the GPU region: up to the first model's first vertex set's
          buffers (every file at hand; the relocation table's second section).
      name:
        pos: file_name
        type: nn_util::nw_string
        io: _root._io
        if: file_name != 0
        -pool: nw_strings
      models:
        pos: model_array
        type: model
        io: _root._io
        repeat: expr
        repeat-expr: model_count
        if: model_array != 0
        -pool: bfres
      model_dict:
        pos: model_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: model_dictionary != 0
        -pool: bfres
      skeletal_animation_dict:
        pos: skeletal_animation_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: skeletal_animation_dictionary != 0
        -pool: bfres
      material_animation_dict:
        pos: material_animation_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: material_animation_dictionary != 0
        -pool: bfres
      bone_visibility_animation_dict:
        pos: bone_visibility_animation_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: bone_visibility_animation_dictionary != 0
        -pool: bfres
      shape_animation_dict:
        pos: shape_animation_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: shape_animation_dictionary != 0
        -pool: bfres
      scene_animation_dict:
        pos: scene_animation_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: scene_animation_dictionary != 0
        -pool: bfres
      gpu_memory_pool:
        pos: memory_pool_info
        type: gpu_memory_pool
        io: _root._io
        if: memory_pool_info != 0
        -pool: bfres
      embed_files:
        pos: embed_file_array
        type: embed_file_entry
        io: _root._io
        repeat: expr
        repeat-expr: embed_file_count
        if: embed_file_array != 0
        -pool: bfres
      embed_file_dict:
        pos: embed_file_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: embed_file_dictionary != 0
        -pool: bfres
      strings:
        pos: string_pool - 0x14
        type: nn_util::string_pool
        io: _root._io
        if: string_pool != 0
        -pool: bfres
  res_file_v8:
    doc: |
      Version 8: the file header after the BinaryFileHeader (0x20 to 0xd0). As version 10 (`res_file`) without
      its four pointers at 0x38 and its two counts after the model count; the padding after the counts is 6
      bytes.
    seq:
      - id: file_name
        type: u8
        -relocate: nn_util
      - id: model_array
        type: u8
        -relocate: nn_util
      - id: model_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: skeletal_animation_array
        type: u8
        -relocate: nn_util
      - id: skeletal_animation_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: material_animation_array
        type: u8
        -relocate: nn_util
      - id: material_animation_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: bone_visibility_animation_array
        type: u8
        -relocate: nn_util
      - id: bone_visibility_animation_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: shape_animation_array
        type: u8
        -relocate: nn_util
      - id: shape_animation_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: scene_animation_array
        type: u8
        -relocate: nn_util
      - id: scene_animation_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: runtime_memory_pool
        type: u8
        -relocate: nn_util
        doc: Pointer to 0x120 zero bytes for the runtime memory pool object (after the GPU region).
      - id: memory_pool_info
        type: u8
        -relocate: nn_util
        doc: Pointer to the nn::gfx::MemoryPoolInfo of the GPU region (0x148, after the first model).
      - id: embed_file_array
        type: u8
        -relocate: nn_util
      - id: embed_file_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: user_pointer
        type: u8
        -relocate: nn_util
      - id: string_pool
        type: u8
        -relocate: nn_util
        doc: Pointer to the string pool's first (empty) string, 0x14 bytes into the `_STR` block.
      - id: string_pool_size
        type: u4
        -derive: strings._len
        doc: |
          Bytes from the `_STR` block header to the end of its last string (AirCurrent 0x1a3a), derived from what
          the writer writes of it.
      - id: model_count
        type: u2
      - id: skeletal_animation_count
        type: u2
      - id: material_animation_count
        type: u2
      - id: bone_visibility_animation_count
        type: u2
      - id: shape_animation_count
        type: u2
      - id: scene_animation_count
        type: u2
      - id: embed_file_count
        type: u2
      - id: reserved
        size: 6
    instances:
      runtime_memory_pool_data:
        pos: runtime_memory_pool
        size: 0x120
        io: _root._io
        -pool: bfres
        if: runtime_memory_pool != 0
        doc: |
          Memory for the runtime memory pool object: 0x120 zero bytes after the GPU region (BfresLibrary's size;
          the relocation table's section for it is 0x120 bytes in both files). Declared first: each vertex set and
          mesh points to it, so a reader meets it before them, and the writer must too.
      gpu_index_size:
        value: 'model_count > 0 and models[0].vertex_count > 0 ? models[0].vertices[0].base_offset : 0'
        doc: |
          The index buffers' bytes at the start of the GPU region: up to the first model's first vertex set's
          buffers (every file at hand; the relocation table's second section).
      name:
        pos: file_name
        type: nn_util::nw_string
        io: _root._io
        if: file_name != 0
        -pool: nw_strings
      models:
        pos: model_array
        type: model_v8
        io: _root._io
        repeat: expr
        repeat-expr: model_count
        if: model_array != 0
        -pool: bfres
      model_dict:
        pos: model_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: model_dictionary != 0
        -pool: bfres
      skeletal_animation_dict:
        pos: skeletal_animation_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: skeletal_animation_dictionary != 0
        -pool: bfres
      material_animation_dict:
        pos: material_animation_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: material_animation_dictionary != 0
        -pool: bfres
      bone_visibility_animation_dict:
        pos: bone_visibility_animation_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: bone_visibility_animation_dictionary != 0
        -pool: bfres
      shape_animation_dict:
        pos: shape_animation_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: shape_animation_dictionary != 0
        -pool: bfres
      scene_animation_dict:
        pos: scene_animation_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: scene_animation_dictionary != 0
        -pool: bfres
      gpu_memory_pool:
        pos: memory_pool_info
        type: gpu_memory_pool
        io: _root._io
        if: memory_pool_info != 0
        doc: |
          Flags 0x22 (cpu uncached, gpu cached), the GPU region's size and offset. 0x10 zero bytes follow it
          (BfresLibrary reads them as part of it).
        -pool: bfres
      embed_files:
        pos: embed_file_array
        type: embed_file_entry
        io: _root._io
        repeat: expr
        repeat-expr: embed_file_count
        if: embed_file_array != 0
        -pool: bfres
      embed_file_dict:
        pos: embed_file_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: embed_file_dictionary != 0
        -pool: bfres
      strings:
        pos: string_pool - 0x14
        type: nn_util::string_pool
        io: _root._io
        if: string_pool != 0
        -pool: bfres
  gpu_memory_pool:
    doc: |
      The memory pool info of the GPU region (nn::gfx::MemoryPoolInfo) and the 0x10 zero bytes after it, which
      BfresLibrary reads as part of it (both versions; every file at hand has them zero).
    seq:
      - id: info
        type: nn_gfx::memory_pool_info
      - id: reserved
        size: 0x10
    instances:
      region:
        pos: info.memory_pointer
        size: info.memory_size
        io: _root._io
        doc: The GPU region (index buffers, then vertex buffers).
        -pool:
          id: bfres
          align: 0x1000
  embed_file_entry:
    doc: An embedded file (HomeBed's textures, a BNTX) and its bytes.
    seq:
      - id: info
        type: nn_gfx::embed_file
    instances:
      data:
        pos: info.file_offset
        size: info.file_size
        io: _root._io
        doc: The file's bytes, at a multiple of 0x1000 (its offset and size derived).
        -pool:
          id: bfres
          align: 0x1000
  model:
    -wiki:
      page: Bfres
      section: Model (nn::g3d2::ResModel)
    doc: Version 10's model (`FMDL`).
    seq:
      - id: magic
        contents: FMDL
      - id: flags
        type: u4
        doc: Unnamed on the page (BfresLibrary reads flags here from version 9).
      - id: model_name
        type: u8
        -relocate: nn_util
      - id: path
        type: u8
        -relocate: nn_util
        doc: Unnamed on the page; in version 8 a pointer to a path string (the empty string in both files).
      - id: skeleton
        type: u8
        -relocate: nn_util
      - id: vertex_array
        type: u8
        -relocate: nn_util
      - id: shape_array
        type: u8
        -relocate: nn_util
      - id: shape_dictionary
        type: u8
        -relocate: nn_util
      - id: material_array
        type: u8
        -relocate: nn_util
      - id: material_dictionary
        type: u8
        -relocate: nn_util
      - id: shader_reflection_array
        type: u8
        -relocate: nn_util
      - id: user_data_array
        type: u8
        -relocate: nn_util
      - id: user_data_dictionary
        type: u8
        -relocate: nn_util
      - id: user_pointer
        type: u8
        -relocate: nn_util
        doc: Runtime user pointer.
      - id: vertex_count
        type: u2
        doc: Number of vertex sets (`FVTX`) in the vertex array.
      - id: shape_count
        type: u2
      - id: material_count
        type: u2
      - id: shader_reflection_count
        type: u2
      - id: user_data_count
        type: u2
      - id: reserved
        size: 6
    instances:
      name:
        pos: model_name
        type: nn_util::nw_string
        io: _root._io
        if: model_name != 0
        -pool: nw_strings
      path_name:
        pos: path
        type: nn_util::nw_string
        io: _root._io
        if: path != 0
        -pool: nw_strings
      skeleton_data:
        pos: skeleton
        type: skeleton
        io: _root._io
        if: skeleton != 0
        -pool: bfres
      vertices:
        pos: vertex_array
        type: vertex
        io: _root._io
        repeat: expr
        repeat-expr: vertex_count
        if: vertex_array != 0
        -pool: bfres
      shapes:
        pos: shape_array
        type: shape
        io: _root._io
        repeat: expr
        repeat-expr: shape_count
        if: shape_array != 0
        -pool: bfres
      shape_dict:
        pos: shape_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: shape_dictionary != 0
        -pool: bfres
      shader_reflections:
        pos: shader_reflection_array
        type: shader_reflection
        io: _root._io
        repeat: expr
        repeat-expr: shader_reflection_count
        if: shader_reflection_array != 0
        -pool: bfres
      materials:
        pos: material_array
        type: material
        io: _root._io
        repeat: expr
        repeat-expr: material_count
        if: material_array != 0
        -pool: bfres
      material_dict:
        pos: material_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: material_dictionary != 0
        -pool: bfres
      user_data:
        pos: user_data_array
        type: user_data_entry
        io: _root._io
        repeat: expr
        repeat-expr: user_data_count
        if: user_data_array != 0
        -pool: bfres
      user_data_dict:
        pos: user_data_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: user_data_dictionary != 0
        -pool: bfres
  model_v8:
    doc: |
      Version 8's model (`FMDL`): a block header for the magic and u32 of version 10, no shader reflections, and
      after the counts the total vertex count. Its block's next offset leads to its first material, and its
      size reaches there (AirCurrent 0x120: the model, its vertex set and its shape).
    seq:
      - id: block
        type: nn_util::block_header
        doc: The block header, magic "FMDL".
        valid:
          expr: _.magic == "FMDL"
      - id: model_name
        type: u8
        -relocate: nn_util
      - id: path
        type: u8
        -relocate: nn_util
        doc: Pointer to a path (the empty string in both files).
      - id: skeleton
        type: u8
        -relocate: nn_util
      - id: vertex_array
        type: u8
        -relocate: nn_util
      - id: shape_array
        type: u8
        -relocate: nn_util
      - id: shape_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: material_array
        type: u8
        -relocate: nn_util
      - id: material_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: user_data_array
        type: u8
        -relocate: nn_util
      - id: user_data_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: user_pointer
        type: u8
        -relocate: nn_util
      - id: vertex_count
        type: u2
        doc: Number of vertex sets (`FVTX`).
      - id: shape_count
        type: u2
      - id: material_count
        type: u2
        doc: HomeBed.bfres holds 0 here (the original file 1); the materials are counted by their dictionary.
      - id: user_data_count
        type: u2
      - id: total_vertex_count
        type: u4
        doc: |
          BfresLibrary's name. AirCurrent holds 24 (its one vertex set has 24 vertices), HomeBed 1155 (its one set
          has 954): what it counts is not settled.
      - id: reserved
        type: u4
    instances:
      name:
        pos: model_name
        type: nn_util::nw_string
        io: _root._io
        if: model_name != 0
        -pool: nw_strings
      path_name:
        pos: path
        type: nn_util::nw_string
        io: _root._io
        if: path != 0
        -pool: nw_strings
      skeleton_data:
        pos: skeleton
        type: skeleton_v8
        io: _root._io
        if: skeleton != 0
        -pool: bfres
      vertices:
        pos: vertex_array
        type: vertex_v8
        io: _root._io
        repeat: expr
        repeat-expr: vertex_count
        if: vertex_array != 0
        -pool: bfres
      shapes:
        pos: shape_array
        type: shape_v8
        io: _root._io
        repeat: expr
        repeat-expr: shape_count
        if: shape_array != 0
        -pool: bfres
      shape_dict:
        pos: shape_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: shape_dictionary != 0
        -pool: bfres
      material_dict:
        pos: material_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: material_dictionary != 0
        -pool: bfres
      materials:
        pos: material_array
        type: material_v8
        io: _root._io
        repeat: expr
        repeat-expr: 'material_dictionary != 0 ? material_dict.count : material_count'
        if: material_array != 0
        doc: |
          As many as the dictionary has keys, where there is a dictionary (BfresLibrary reads every array with a
          dictionary so): HomeBed.bfres's `material_count` is 0 for its one material.
        -pool: bfres
      user_data:
        pos: user_data_array
        type: user_data_entry
        io: _root._io
        repeat: expr
        repeat-expr: user_data_count
        if: user_data_array != 0
        -pool: bfres
      user_data_dict:
        pos: user_data_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: user_data_dictionary != 0
        -pool: bfres
  user_data_entry:
    doc: |
      A user data entry (Gfx User Data), its name and its values, read by nn_gfx's value types (s32, float,
      string pointer, byte). No file at hand has user data; BfresLibrary numbers the types otherwise from 3 on
      (3 wide string, 4 byte).
    seq:
      - id: info
        type: nn_gfx::user_data
    instances:
      name:
        pos: info.name
        type: nn_util::nw_string
        io: _root._io
        if: info.name != 0
        -pool: nw_strings
      values:
        pos: info.data
        type:
          switch-on: info.data_type
          cases:
            nn_gfx::user_data_type::s32: s4
            nn_gfx::user_data_type::float: f4
            nn_gfx::user_data_type::string: string_ref
            nn_gfx::user_data_type::byte: u1
        io: _root._io
        repeat: expr
        repeat-expr: info.entries
        if: info.data != 0
        -pool: bfres
  vertex:
    -wiki:
      page: Bfres
      section: Vertex (nn::g3d2::ResVertex)
    doc: |
      Version 10's vertex set (`FVTX`): vertex buffers in the GPU region and the attributes they hold.
    seq:
      - id: magic
        contents: FVTX
      - id: reserved
        type: u4
      - id: attribute_array
        type: u8
        -relocate: nn_util
        doc: Pointer to the ResVertexAttribute array (the wiki's "Vertex atribute array").
      - id: attribute_dictionary
        type: u8
        -relocate: nn_util
        doc: Pointer to the vertex attribute dictionary.
      - id: runtime_memory_pool
        type: u8
        -relocate: nn_util
        -derive: _parent._parent.runtime_memory_pool_data._pos
        doc: Runtime memory pool pointer (the file header's `runtime_memory_pool`, derived from where it is).
      - id: runtime_vertex_buffer_array
        type: u8
        -relocate: nn_util
        doc: Runtime vertex buffer array (0x48 bytes of zeroed memory per vertex buffer).
      - id: runtime_user_vertex_buffer_array
        type: u8
        -relocate: nn_util
        doc: Runtime user vertex buffer array (a pointer per buffer).
      - id: vertex_buffer_info_array
        type: u8
        -relocate: nn_util
      - id: vertex_buffer_stride_array
        type: u8
        -relocate: nn_util
      - id: user_pointer
        type: u8
        -relocate: nn_util
        doc: Runtime user pointer.
      - id: base_offset
        type: u4
        doc: Base offset of vertex data in GPU region, relative to start of GPU region.
      - id: attribute_count
        type: u1
        doc: Vertex attribute count.
      - id: buffer_count
        type: u1
        doc: Vertex buffer count.
      - id: index
        type: u2
        doc: Index of this section in parent ResModel.
      - id: vertex_count
        type: u4
      - id: reserved2
        type: u2
      - id: buffer_alignment
        type: u2
        doc: Alignment of vertex buffer data in GPU region.
    instances:
      attributes:
        pos: attribute_array
        type: vertex_attribute
        io: _root._io
        repeat: expr
        repeat-expr: attribute_count
        if: attribute_array != 0
        -pool: bfres
      attribute_dict:
        pos: attribute_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: attribute_dictionary != 0
        -pool: bfres
      runtime_vertex_buffers:
        pos: runtime_vertex_buffer_array
        size: 0x48 * buffer_count
        io: _root._io
        if: runtime_vertex_buffer_array != 0
        -pool: bfres
      runtime_user_vertex_buffers:
        pos: runtime_user_vertex_buffer_array
        type: u8
        io: _root._io
        repeat: expr
        repeat-expr: buffer_count
        if: runtime_user_vertex_buffer_array != 0
        -pool: bfres
      buffer_infos:
        pos: vertex_buffer_info_array
        type: nn_gfx::buffer_info
        io: _root._io
        repeat: expr
        repeat-expr: buffer_count
        if: vertex_buffer_info_array != 0
        -pool: bfres
      buffer_strides:
        pos: vertex_buffer_stride_array
        type: vertex_buffer_stride
        io: _root._io
        repeat: expr
        repeat-expr: buffer_count
        if: vertex_buffer_stride_array != 0
        -pool: bfres
  vertex_v8:
    doc: |
      Version 8's vertex set (`FVTX`): a block header (zeros: not a block) for the magic and u32 of version 10,
      and a u32 where version 10 has a reserved u16 and the buffer alignment.
    seq:
      - id: block
        type: unchained_header
        doc: The block header, magic "FVTX" (its offsets are 0, not a block of the chain).
        valid:
          expr: _.magic == "FVTX"
      - id: attribute_array
        type: u8
        -relocate: nn_util
      - id: attribute_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: runtime_memory_pool
        type: u8
        -relocate: nn_util
        -derive: _parent._parent.runtime_memory_pool_data._pos
        doc: Pointer to the runtime memory pool's bytes (the file header's `runtime_memory_pool`, derived from where it is).
      - id: runtime_vertex_buffer_array
        type: u8
        -relocate: nn_util
        doc: 0x48 zero bytes per buffer (AirCurrent's 3 buffers take 0x548 to 0x620, where the buffer infos are).
      - id: runtime_user_vertex_buffer_array
        type: u8
        -relocate: nn_util
      - id: vertex_buffer_info_array
        type: u8
        -relocate: nn_util
      - id: vertex_buffer_stride_array
        type: u8
        -relocate: nn_util
      - id: user_pointer
        type: u8
        -relocate: nn_util
      - id: base_offset
        type: u4
        doc: |
          Offset of the first vertex buffer from the GPU region's start (AirCurrent 0x90, after the indices). The
          others follow it, each where the one before ends (HomeBed's five from 0x6ea0 to 0xd6f8; BfresLibrary
          aligns each to 8): the files store no offset per buffer.
      - id: attribute_count
        type: u1
      - id: buffer_count
        type: u1
      - id: index
        type: u2
      - id: vertex_count
        type: u4
      - id: vertex_skin_count
        type: u4
        doc: BfresLibrary's name (it keeps the low byte); 0 in the files. Version 10 has a u16 and the alignment.
    instances:
      attributes:
        pos: attribute_array
        type: vertex_attribute
        io: _root._io
        repeat: expr
        repeat-expr: attribute_count
        if: attribute_array != 0
        -pool: bfres
      attribute_dict:
        pos: attribute_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: attribute_dictionary != 0
        -pool: bfres
      runtime_vertex_buffers:
        pos: runtime_vertex_buffer_array
        size: 0x48 * buffer_count
        io: _root._io
        if: runtime_vertex_buffer_array != 0
        -pool: bfres
      runtime_user_vertex_buffers:
        pos: runtime_user_vertex_buffer_array
        type: u8
        io: _root._io
        repeat: expr
        repeat-expr: buffer_count
        if: runtime_user_vertex_buffer_array != 0
        -pool: bfres
      buffer_infos:
        pos: vertex_buffer_info_array
        type: nn_gfx::buffer_info
        io: _root._io
        repeat: expr
        repeat-expr: buffer_count
        if: vertex_buffer_info_array != 0
        doc: |
          Each buffer's size. HomeBed.bfres gives size 0 (and stride 0) for buffers 3 and 4, which its tangents
          and texture coordinates are read from: their bytes follow buffer 2, one element per vertex
          (`binspec_formats::bfres_geometry` reads such a buffer so).
        -pool: bfres
      buffer_strides:
        pos: vertex_buffer_stride_array
        type: vertex_buffer_stride
        io: _root._io
        repeat: expr
        repeat-expr: buffer_count
        if: vertex_buffer_stride_array != 0
        -pool: bfres
  vertex_attribute:
    -wiki:
      page: Bfres
      section: ResVertexAttribute
    doc: |
      One attribute of a vertex set: where it is in which buffer, and its format. Same layout in versions 8 and
      10.
    seq:
      - id: attribute_name
        type: u8
        -relocate: nn_util
      - id: format
        type: u4
        doc: |
          Attribute format (nn::gfx::AttributeFormat): `(ChannelFormat << 8) | TypeFormat`, as nn::gfx's image
          formats are made (`channel_format`, `type_format`). The page lists no values; the files' positions are
          0x1805 (r32g32b32 float), normals 0x0e02 (r10g10b10a2 snorm), colors 0x0b01 (r8g8b8a8 unorm).
      - id: buffer_offset
        type: u2
      - id: buffer_index
        type: u1
      - id: is_dynamic
        type: u1
        doc: Indicates whether this is a dynamic vertex attribute for shape blending.
    instances:
      name:
        pos: attribute_name
        type: nn_util::nw_string
        io: _root._io
        if: attribute_name != 0
        -pool: nw_strings
      type_format:
        value: format & 0xff
        enum: nn_gfx::type_format
      channel_format:
        value: (format >> 8) & 0xff
        enum: nn_gfx::channel_format
  vertex_buffer_stride:
    -wiki:
      page: Bfres
      section: ResVertexBufferStride
    doc: The stride of one vertex buffer. Same layout in versions 8 and 10.
    seq:
      - id: stride
        type: u4
      - id: divisor
        type: u4
      - id: reserved
        type: u4
      - id: reserved2
        type: u4
  shape:
    -wiki:
      page: Bfres
      section: Shape (nn::g3d2::ResShape)
    doc: |
      Version 10's shape (`FSHP`): meshes for the levels of detail, or (flags bit 4, from 10.2.0) a meshlet,
      over one vertex set.
    seq:
      - id: magic
        contents: FSHP
      - id: flags
        type: u4
        doc: Flags; bit 4 (0x10) set means `mesh_array` points to a ResMeshlet.
      - id: shape_name
        type: u8
        -relocate: nn_util
      - id: vertex
        type: u8
        -relocate: nn_util
        doc: Pointer to the referenced vertex set (the model's vertex set `vertex_index`; not followed).
      - id: mesh_array
        type: u8
        -relocate: nn_util
        doc: Level-of-detail mesh array, or if flags bit 4 is set, a ResMeshlet.
      - id: skin_bone_index_array
        type: u8
        -relocate: nn_util
        doc: Pointer to the skinning bone index array (u16 each).
      - id: key_shape_array
        type: u8
        -relocate: nn_util
      - id: key_shape_dictionary
        type: u8
        -relocate: nn_util
      - id: bounding_box_array
        type: u8
        -relocate: nn_util
      - id: bounding_sphere_array
        type: u8
        -relocate: nn_util
      - id: user_pointer
        type: u8
        -relocate: nn_util
        doc: Runtime user pointer.
      - id: index
        type: u2
        doc: Index of this section in parent ResModel.
      - id: material_index
        type: u2
      - id: bone_index
        type: u2
        doc: Base bone index.
      - id: vertex_index
        type: u2
      - id: skin_bone_index_count
        type: u2
      - id: vertex_skin_count
        type: u1
        doc: Vertex skin weight count.
      - id: mesh_count
        type: u1
      - id: key_shape_count
        type: u1
      - id: target_attribute_count
        type: u1
      - id: reserved
        type: u2
    instances:
      name:
        pos: shape_name
        type: nn_util::nw_string
        io: _root._io
        if: shape_name != 0
        -pool: nw_strings
      meshes:
        pos: mesh_array
        type: 'mesh(_index == 0 ? 0 : meshes[_index - 1].boundings_end)'
        io: _root._io
        repeat: expr
        repeat-expr: mesh_count
        if: mesh_array != 0 and flags & 0x10 == 0
        -pool: bfres
      meshlet_data:
        pos: mesh_array
        type: meshlet
        io: _root._io
        if: mesh_array != 0 and flags & 0x10 != 0
        doc: |
          Where the shape's flags say so (0x10), the mesh array holds a meshlet instead (the page's layout; no file
          at hand has one): written where the file had it, not laid out with the other structures (the mesh
          array's pointer is derived from where the meshes go).
      skin_bone_indices:
        pos: skin_bone_index_array
        type: u2
        io: _root._io
        repeat: expr
        repeat-expr: skin_bone_index_count
        if: skin_bone_index_array != 0
        -pool: bfres
      key_shapes:
        pos: key_shape_array
        type: key_shape
        io: _root._io
        repeat: expr
        repeat-expr: key_shape_count
        if: key_shape_array != 0
        -pool: bfres
      key_shape_dict:
        pos: key_shape_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: key_shape_dictionary != 0
        -pool: bfres
      bounding_boxes:
        pos: bounding_box_array
        type: bounding
        io: _root._io
        repeat: expr
        repeat-expr: meshes.last.boundings_end
        if: bounding_box_array != 0 and mesh_array != 0 and flags & 0x10 == 0 and mesh_count != 0
        doc: |
          One box per sub mesh of each mesh and one for the mesh (the count is BfresLibrary's; the page gives
          none, version 8's files agree with it).
        -pool: bfres
      bounding_spheres:
        pos: bounding_sphere_array
        type: bounding_sphere
        io: _root._io
        repeat: expr
        repeat-expr: mesh_count
        if: bounding_sphere_array != 0
        doc: One per mesh (assumed from version 8, which has one radius per mesh; the page gives no count).
        -pool: bfres
  shape_v8:
    doc: |
      Version 8's shape (`FSHP`): a block header (zeros) for the magic and flags of version 10, the flags after
      the pointers, a bounding radius array instead of bounding spheres, and 6 bytes of padding at the end.
    seq:
      - id: block
        type: unchained_header
        doc: The block header, magic "FSHP" (its offsets are 0, not a block of the chain).
        valid:
          expr: _.magic == "FSHP"
      - id: shape_name
        type: u8
        -relocate: nn_util
      - id: vertex
        type: u8
        -relocate: nn_util
        doc: Pointer to the vertex set (the model's vertex set `vertex_index`; not followed).
      - id: mesh_array
        type: u8
        -relocate: nn_util
      - id: skin_bone_index_array
        type: u8
        -relocate: nn_util
      - id: key_shape_array
        type: u8
        -relocate: nn_util
      - id: key_shape_dictionary
        type: u8
        -relocate: nn_util
      - id: bounding_box_array
        type: u8
        -relocate: nn_util
      - id: bounding_radius_array
        type: u8
        -relocate: nn_util
        doc: Pointer to one f4 radius per mesh.
      - id: user_pointer
        type: u8
        -relocate: nn_util
      - id: flags
        type: u4
        doc: 2 in both files (BfresLibrary names bit 1 "has vertex buffer").
      - id: index
        type: u2
      - id: material_index
        type: u2
      - id: bone_index
        type: u2
      - id: vertex_index
        type: u2
      - id: skin_bone_index_count
        type: u2
      - id: vertex_skin_count
        type: u1
      - id: mesh_count
        type: u1
      - id: key_shape_count
        type: u1
      - id: target_attribute_count
        type: u1
      - id: reserved
        size: 6
    instances:
      name:
        pos: shape_name
        type: nn_util::nw_string
        io: _root._io
        if: shape_name != 0
        -pool: nw_strings
      meshes:
        pos: mesh_array
        type: 'mesh(_index == 0 ? 0 : meshes[_index - 1].boundings_end)'
        io: _root._io
        repeat: expr
        repeat-expr: mesh_count
        if: mesh_array != 0
        -pool: bfres
      skin_bone_indices:
        pos: skin_bone_index_array
        type: u2
        io: _root._io
        repeat: expr
        repeat-expr: skin_bone_index_count
        if: skin_bone_index_array != 0
        -pool: bfres
      key_shapes:
        pos: key_shape_array
        type: key_shape
        io: _root._io
        repeat: expr
        repeat-expr: key_shape_count
        if: key_shape_array != 0
        -pool: bfres
      key_shape_dict:
        pos: key_shape_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: key_shape_dictionary != 0
        -pool: bfres
      bounding_boxes:
        pos: bounding_box_array
        type: bounding
        io: _root._io
        repeat: expr
        repeat-expr: meshes.last.boundings_end
        if: bounding_box_array != 0 and mesh_array != 0 and mesh_count != 0
        doc: |
          One box per sub mesh of each mesh and one for the mesh (BfresLibrary's count; both files: one mesh of
          one sub mesh and two boxes, the second equal to the first, before the radius array).
        -pool: bfres
      bounding_radii:
        pos: bounding_radius_array
        type: f4
        io: _root._io
        repeat: expr
        repeat-expr: mesh_count
        if: bounding_radius_array != 0
        -pool: bfres
  mesh:
    -wiki:
      page: Bfres
      section: ResMesh
    doc: One level of detail of a shape, as index buffer and sub mesh ranges. Same layout in versions 8 and 10.
    params:
      - id: boundings_before
        type: u4
        doc: The bounding boxes of the shape's meshes before this one.
    seq:
      - id: sub_mesh_range_array
        type: u8
        -relocate: nn_util
        doc: Array of sub mesh ranges.
      - id: runtime_memory_pool
        type: u8
        -relocate: nn_util
        -derive: _parent._parent._parent.runtime_memory_pool_data._pos
        doc: Runtime memory pool pointer (the file header's `runtime_memory_pool`, derived from where it is).
      - id: runtime_index_buffer
        type: u8
        -relocate: nn_util
        doc: Runtime index buffer memory (0x48 bytes of zeroed memory).
      - id: index_buffer_info
        type: u8
        -relocate: nn_util
      - id: index_buffer_offset
        type: u4
        doc: Offset of index buffer in GPU region relative to start of GPU region.
      - id: primitive_topology
        type: u4
        enum: primitive_topology
        doc: Primitive topology to use for drawing commands (nn::gfx::PrimitiveTopology).
      - id: index_format
        type: u4
        enum: index_format
        doc: Index format to use in drawing commands (nn::gfx::IndexFormat).
      - id: index_count
        type: u4
      - id: base_vertex
        type: u4
      - id: sub_mesh_count
        type: u2
      - id: reserved
        type: u2
    instances:
      sub_meshes:
        pos: sub_mesh_range_array
        type: sub_mesh_range
        io: _root._io
        repeat: expr
        repeat-expr: sub_mesh_count
        if: sub_mesh_range_array != 0
        -pool: bfres
      runtime_index_buffer_data:
        pos: runtime_index_buffer
        size: 0x48
        io: _root._io
        if: runtime_index_buffer != 0
        -pool: bfres
      index_buffer:
        pos: index_buffer_info
        type: nn_gfx::buffer_info
        io: _root._io
        if: index_buffer_info != 0
        -pool: bfres
      boundings_end:
        value: boundings_before + sub_mesh_count + 1
  sub_mesh_range:
    -wiki:
      page: Bfres
      section: ResSubMeshRange
    seq:
      - id: offset
        type: u4
        doc: Offset of sub mesh relative to start of index buffer (in bytes).
      - id: index_count
        type: u4
        doc: Index count of sub mesh.
  key_shape:
    -wiki:
      page: Bfres
      section: ResKeyShape
    doc: |
      A key shape (shape blending target). No file at hand has one; version 8 is read as the page's layout
      (BfresLibrary reads 0x18 bytes: 20 attribute indices and 4 offsets).
    seq:
      - id: attribute_locations
        size: 0x12
        doc: Relative key shape attribute location array.
      - id: reserved
        size: 2
  bounding:
    -wiki:
      page: Bfres
      section: ResBounding
    doc: An axis-aligned bounding box. Same layout in versions 8 and 10.
    seq:
      - id: position
        type: vec3
        doc: The center.
      - id: extent
        type: vec3
        doc: Half the size along each axis.
  bounding_sphere:
    -wiki:
      page: Bfres
      section: ResBoundingSphere
    doc: Version 10's bounding sphere (version 8 has only a radius per mesh).
    seq:
      - id: position
        type: vec3
      - id: radius
        type: f4
  meshlet:
    -wiki:
      page: Bfres
      section: ResMeshlet
    doc: |
      Version 10.2's meshlet buffers of a shape (flags bit 4). The page has seen it only unused (Nintendo Switch
      Online: Playtest Program) and leaves three runs of it unnamed.
    seq:
      - id: unknown
        size: 8
      - id: runtime_meshlet_buffer_array
        type: u8
        -relocate: nn_util
        doc: Runtime meshlet buffer array (0x48 bytes of zeroed memory per meshlet buffer).
      - id: meshlet_buffer_info_array
        type: u8
        -relocate: nn_util
        doc: Meshlet buffer info array (nn::gfx::BufferInfo).
      - id: meshlet_buffer_offset_array
        type: u8
        -relocate: nn_util
        doc: Meshlet buffer memory offset array, each entry relative to start of GPU region (s64 each).
      - id: unknown2
        size: 0x24
      - id: meshlet_buffer_count
        type: u1
      - id: unknown3
        size: 3
    instances:
      runtime_meshlet_buffers:
        pos: runtime_meshlet_buffer_array
        size: 0x48 * meshlet_buffer_count
        io: _root._io
        if: runtime_meshlet_buffer_array != 0
        -pool: bfres
      meshlet_buffer_infos:
        pos: meshlet_buffer_info_array
        type: nn_gfx::buffer_info
        io: _root._io
        repeat: expr
        repeat-expr: meshlet_buffer_count
        if: meshlet_buffer_info_array != 0
        -pool: bfres
      meshlet_buffer_offsets:
        pos: meshlet_buffer_offset_array
        type: s8
        io: _root._io
        repeat: expr
        repeat-expr: meshlet_buffer_count
        if: meshlet_buffer_offset_array != 0
        -pool: bfres
  skeleton:
    doc: |
      Version 10's skeleton (`FSKL`). The page has no table for it; the layout (0x40 bytes) is that of BfresLibrary
      (version 9 and up) and of the `dd::res` C++ headers, which agree but for the order of the two pointers at
      0x28 and 0x30 (BfresLibrary skips the first and reads the user pointer second); this follows `dd::res`.
      Not read from a file.
    seq:
      - id: magic
        contents: FSKL
      - id: flags
        type: u4
        doc: Bits 8-9 scale mode, 12-13 rotation mode (`dd::res`; BfresLibrary has the same masks).
      - id: bone_dictionary
        type: u8
        -relocate: nn_util
      - id: bone_array
        type: u8
        -relocate: nn_util
      - id: bone_index_table
        type: u8
        -relocate: nn_util
        doc: Pointer to the bone index of each smooth, then each rigid skinning matrix (u16 each).
      - id: inverse_matrix_array
        type: u8
        -relocate: nn_util
        doc: Pointer to the inverse model matrices (3x4 floats) of the smooth skinning matrices.
      - id: user_pointer
        type: u8
        -relocate: nn_util
      - id: mirror_bone_index_table
        type: u8
        -relocate: nn_util
        doc: Pointer to the mirror bone index table (the page's section order lists one).
      - id: bone_count
        type: u2
      - id: smooth_matrix_count
        type: u2
      - id: rigid_matrix_count
        type: u2
      - id: reserved
        type: u2
    instances:
      bone_dict:
        pos: bone_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: bone_dictionary != 0
        -pool: bfres
      bones:
        pos: bone_array
        type: bone
        io: _root._io
        repeat: expr
        repeat-expr: bone_count
        if: bone_array != 0
        -pool: bfres
      bone_indices:
        pos: bone_index_table
        type: u2
        io: _root._io
        repeat: expr
        repeat-expr: smooth_matrix_count + rigid_matrix_count
        if: bone_index_table != 0
        -pool: bfres
      inverse_matrices:
        pos: inverse_matrix_array
        type: matrix3x4
        io: _root._io
        repeat: expr
        repeat-expr: smooth_matrix_count
        if: inverse_matrix_array != 0
        -pool: bfres
  skeleton_v8:
    doc: |
      Version 8's skeleton (`FSKL`): a block header, then as version 10 (`skeleton`) with 16 reserved bytes for
      its mirror table pointer, the user pointer after them and the flags after the user pointer (0x58 bytes).
      AirCurrent: flags 0x1200, one bone, no skinning matrices.
    seq:
      - id: block
        type: nn_util::block_header
        doc: The block header, magic "FSKL"; its next block offset leads to `_STR`.
        valid:
          expr: _.magic == "FSKL"
      - id: bone_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: bone_array
        type: u8
        -relocate: nn_util
      - id: bone_index_table
        type: u8
        -relocate: nn_util
      - id: inverse_matrix_array
        type: u8
        -relocate: nn_util
      - id: reserved
        size: 0x10
        doc: Zeros in both files (BfresLibrary skips 16 bytes for version 8).
      - id: user_pointer
        type: u8
        -relocate: nn_util
      - id: flags
        type: u4
      - id: bone_count
        type: u2
      - id: smooth_matrix_count
        type: u2
      - id: rigid_matrix_count
        type: u2
      - id: reserved2
        size: 6
    instances:
      bone_dict:
        pos: bone_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: bone_dictionary != 0
        -pool: bfres
      bones:
        pos: bone_array
        type: bone_v8
        io: _root._io
        repeat: expr
        repeat-expr: bone_count
        if: bone_array != 0
        -pool: bfres
      bone_indices:
        pos: bone_index_table
        type: u2
        io: _root._io
        repeat: expr
        repeat-expr: smooth_matrix_count + rigid_matrix_count
        if: bone_index_table != 0
        -pool: bfres
      inverse_matrices:
        pos: inverse_matrix_array
        type: matrix3x4
        io: _root._io
        repeat: expr
        repeat-expr: smooth_matrix_count
        if: inverse_matrix_array != 0
        -pool: bfres
  bone:
    doc: |
      Version 10's bone (0x58 bytes; no table on the page, layout of BfresLibrary and `dd::res`). `dd::res` names
      the three vectors translate, rotate, scale; BfresLibrary reads scale, rotation, translation, the order
      version 8's files show. Not read from a file.
    seq:
      - id: bone_name
        type: u8
        -relocate: nn_util
      - id: user_data_array
        type: u8
        -relocate: nn_util
      - id: user_data_dictionary
        type: u8
        -relocate: nn_util
      - id: reserved
        size: 8
      - id: index
        type: u2
      - id: parent_index
        type: s2
      - id: smooth_matrix_index
        type: s2
      - id: rigid_matrix_index
        type: s2
      - id: billboard_index
        type: s2
      - id: user_data_count
        type: u2
      - id: flags
        type: u4
        doc: Bit 0 visible, 12-14 rotation mode, 16-18 billboard mode, 24-31 transform modes (BfresLibrary).
      - id: scale
        type: vec3
      - id: rotation
        type: vec4
      - id: translation
        type: vec3
    instances:
      name:
        pos: bone_name
        type: nn_util::nw_string
        io: _root._io
        if: bone_name != 0
        -pool: nw_strings
      user_data:
        pos: user_data_array
        type: user_data_entry
        io: _root._io
        repeat: expr
        repeat-expr: user_data_count
        if: user_data_array != 0
        -pool: bfres
      user_data_dict:
        pos: user_data_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: user_data_dictionary != 0
        -pool: bfres
  bone_v8:
    doc: |
      Version 8's bone (0x60 bytes): as version 10 (`bone`) with 16 reserved bytes instead of 8. AirCurrent's
      bone: parent, smooth, rigid and billboard indices -1, flags 0x0f801001, scale (1, 1, 1), rotation
      (0, 0, 0, 1) and translation (0, 0, 0).
    seq:
      - id: bone_name
        type: u8
        -relocate: nn_util
      - id: user_data_array
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: user_data_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: reserved
        size: 0x10
      - id: index
        type: u2
      - id: parent_index
        type: s2
      - id: smooth_matrix_index
        type: s2
      - id: rigid_matrix_index
        type: s2
      - id: billboard_index
        type: s2
      - id: user_data_count
        type: u2
      - id: flags
        type: u4
      - id: scale
        type: vec3
      - id: rotation
        type: vec4
        doc: Euler angles and 1.0, or a quaternion (skeleton and bone flags, rotation mode).
      - id: translation
        type: vec3
    instances:
      name:
        pos: bone_name
        type: nn_util::nw_string
        io: _root._io
        if: bone_name != 0
        -pool: nw_strings
      user_data:
        pos: user_data_array
        type: user_data_entry
        io: _root._io
        repeat: expr
        repeat-expr: user_data_count
        if: user_data_array != 0
        -pool: bfres
      user_data_dict:
        pos: user_data_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: user_data_dictionary != 0
        -pool: bfres
  shader_reflection:
    -wiki:
      page: Bfres
      section: Shader Reflection
    doc: |
      Version 10: what a material needs to know of its shader (in a bfsha archive): render infos, the material
      uniform buffer's parameters, and the names of vertex attributes, samplers and static options.
    seq:
      - id: shader_archive_name
        type: u8
        -relocate: nn_util
      - id: shader_name
        type: u8
        -relocate: nn_util
      - id: render_info_array
        type: u8
        -relocate: nn_util
      - id: render_info_dictionary
        type: u8
        -relocate: nn_util
      - id: shader_param_array
        type: u8
        -relocate: nn_util
        doc: Material shader parameter array.
      - id: shader_param_dictionary
        type: u8
        -relocate: nn_util
        doc: Material shader parameter dictionary.
      - id: vertex_attribute_dictionary
        type: u8
        -relocate: nn_util
      - id: sampler_dictionary
        type: u8
        -relocate: nn_util
      - id: static_option_dictionary
        type: u8
        -relocate: nn_util
        doc: Static shader option dictionary.
      - id: render_info_count
        type: u2
      - id: shader_param_count
        type: u2
        doc: Shader parameter count.
      - id: shader_param_data_size
        type: u2
        doc: Shader parameter data size.
      - id: reserved
        size: 10
    instances:
      archive_name:
        pos: shader_archive_name
        type: nn_util::nw_string
        io: _root._io
        if: shader_archive_name != 0
        -pool: nw_strings
      name:
        pos: shader_name
        type: nn_util::nw_string
        io: _root._io
        if: shader_name != 0
        -pool: nw_strings
      render_infos:
        pos: render_info_array
        type: render_info
        io: _root._io
        repeat: expr
        repeat-expr: render_info_count
        if: render_info_array != 0
        -pool: bfres
      render_info_dict:
        pos: render_info_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: render_info_dictionary != 0
        -pool: bfres
      shader_params:
        pos: shader_param_array
        type: shader_param
        io: _root._io
        repeat: expr
        repeat-expr: shader_param_count
        if: shader_param_array != 0
        -pool: bfres
      shader_param_dict:
        pos: shader_param_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: shader_param_dictionary != 0
        -pool: bfres
      vertex_attribute_dict:
        pos: vertex_attribute_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: vertex_attribute_dictionary != 0
        -pool: bfres
      sampler_dict:
        pos: sampler_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: sampler_dictionary != 0
        -pool: bfres
      static_option_dict:
        pos: static_option_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: static_option_dictionary != 0
        -pool: bfres
  render_info_value_block:
    doc: |
      A version 10 material's render info values: those of each render info (`render_infos`, in the order of the
      shader reflection's render infos), at its offset in the block, typed by its render info's type; where the
      material has no offsets or counts, the block's bytes.
    params:
      - id: typed
        type: bool
        doc: Whether the material has the offsets and counts the values are read by.
    seq:
      - id: bytes
        size-eos: true
        if: not typed
    instances:
      render_infos:
        pos: 0
        type: >-
          render_info_value_slot(_parent.render_info_value_offsets[_index],
          _parent.render_info_value_counts[_index], _parent.shader_reflection.render_infos[_index].type)
        repeat: expr
        repeat-expr: _parent.shader_reflection.render_info_count
        if: typed
  render_info_value_slot:
    doc: One render info's values, at its offset in the block (one record per render info, reading nothing itself).
    params:
      - id: ofs
        type: u2
      - id: count
        type: u2
      - id: kind
        type: u1
        enum: render_info_type
    instances:
      values:
        pos: ofs
        type: render_info_values(count, kind)
  render_info_values:
    doc: The values of one render info of a version 10 material.
    params:
      - id: count
        type: u2
      - id: kind
        type: u1
        enum: render_info_type
    seq:
      - id: ints
        type: s4
        repeat: expr
        repeat-expr: count
        if: kind == render_info_type::int
      - id: floats
        type: f4
        repeat: expr
        repeat-expr: count
        if: kind == render_info_type::float
      - id: strings
        type: string_ref
        repeat: expr
        repeat-expr: count
        if: kind == render_info_type::string
  render_info:
    -wiki:
      page: Bfres
      section: ResRenderInfo
    doc: Version 10's render info description (values are in each material).
    seq:
      - id: render_info_name
        type: u8
        -relocate: nn_util
      - id: type
        type: u1
        enum: render_info_type
        doc: Render info data type.
      - id: reserved
        size: 7
    instances:
      name:
        pos: render_info_name
        type: nn_util::nw_string
        io: _root._io
        if: render_info_name != 0
        -pool: nw_strings
  shader_param:
    -wiki:
      page: Bfres
      section: ResShaderParam
    doc: |
      Version 10's shader parameter: where its value is in the material uniform buffer.
    seq:
      - id: convert_function
        type: u8
        -relocate: nn_util
        doc: |
          Runtime conversion function for data types requiring runtime conversion of a CPU representation to a GPU
          representation (a pointer set at run time).
      - id: shader_param_name
        type: u8
        -relocate: nn_util
        doc: Pointer to the shader parameter name.
      - id: offset
        type: u2
        doc: Shader parameter offset.
      - id: type
        type: u1
        enum: shader_param_type
        doc: Shader parameter data type.
      - id: reserved
        size: 5
    instances:
      name:
        pos: shader_param_name
        type: nn_util::nw_string
        io: _root._io
        if: shader_param_name != 0
        -pool: nw_strings
  material:
    -wiki:
      page: Bfres
      section: Material (nn::g3d2::ResMaterial)
    doc: |
      Version 10's material (`FMAT`). Its render info values, shader parameter values and uniform buffer offsets
      follow the descriptions of the shader reflection its static shader variation names (found among the model's
      reflections by its offset).
    seq:
      - id: magic
        contents: FMAT
      - id: flags
        type: u4
        doc: Flags (bit 0 = is visible).
      - id: material_name
        type: u8
        -relocate: nn_util
      - id: static_shader_variation
        type: u8
        -relocate: nn_util
      - id: runtime_texture_view_array
        type: u8
        -relocate: nn_util
        doc: Runtime texture view pointer array.
      - id: texture_name_array
        type: u8
        -relocate: nn_util
      - id: runtime_sampler_array
        type: u8
        -relocate: nn_util
        doc: Runtime sampler array (0x78 bytes of zeroed memory per sampler).
      - id: sampler_info_array
        type: u8
        -relocate: nn_util
      - id: sampler_dictionary
        type: u8
        -relocate: nn_util
      - id: render_info_value_array
        type: u8
        -relocate: nn_util
        doc: Render info value array.
      - id: render_info_value_count_array
        type: u8
        -relocate: nn_util
        doc: Render info value count array.
      - id: render_info_value_offset_array
        type: u8
        -relocate: nn_util
        doc: Render info value offset array.
      - id: shader_param_value_array
        type: u8
        -relocate: nn_util
        doc: Shader parameter value array.
      - id: runtime_uniform_buffer_offset_array
        type: u8
        -relocate: nn_util
        doc: Runtime shader parameter material uniform buffer offset array (s32 each).
      - id: reserved
        type: u8
        -relocate: nn_util
      - id: user_data_array
        type: u8
        -relocate: nn_util
      - id: user_data_dictionary
        type: u8
        -relocate: nn_util
      - id: convert_flag_array
        type: u8
        -relocate: nn_util
        doc: Shader parameter runtime convert bit array (u32 words, a bit per parameter).
      - id: user_pointer
        type: u8
        -relocate: nn_util
        doc: Runtime user pointer.
      - id: runtime_sampler_slot_array
        type: u8
        -relocate: nn_util
        doc: Runtime sampler descriptor slot array (u64 each).
      - id: runtime_texture_slot_array
        type: u8
        -relocate: nn_util
        doc: Runtime texture view descriptor slot array (u64 each).
      - id: index
        type: u2
        doc: Index of this section in parent ResModel.
      - id: sampler_count
        type: u1
      - id: texture_count
        type: u1
      - id: force_calculate
        type: u2
        doc: Is force calculate material.
      - id: user_data_count
        type: u2
      - id: render_info_value_size
        type: u2
      - id: uniform_buffer_size
        type: u2
        doc: Runtime material uniform buffer size.
      - id: reserved2
        type: u4
    instances:
      name:
        pos: material_name
        type: nn_util::nw_string
        io: _root._io
        if: material_name != 0
        -pool: nw_strings
      variation:
        pos: static_shader_variation
        type: static_shader_variation
        io: _root._io
        if: static_shader_variation != 0
        -pool: bfres
      shader_reflection:
        value: _parent.shader_reflections[variation.shader_reflection_index]
        doc: The model's shader reflection that the static shader variation points to.
      runtime_texture_views:
        pos: runtime_texture_view_array
        type: u8
        io: _root._io
        repeat: expr
        repeat-expr: texture_count
        if: runtime_texture_view_array != 0
        -pool: bfres
      texture_names:
        pos: texture_name_array
        type: string_ref
        io: _root._io
        repeat: expr
        repeat-expr: texture_count
        if: texture_name_array != 0
        -pool: bfres
      runtime_samplers:
        pos: runtime_sampler_array
        size: 0x78 * sampler_count
        io: _root._io
        if: runtime_sampler_array != 0
        -pool: bfres
      sampler_infos:
        pos: sampler_info_array
        type: nn_gfx::sampler_info
        io: _root._io
        repeat: expr
        repeat-expr: sampler_count
        if: sampler_info_array != 0
        -pool: bfres
      sampler_dict:
        pos: sampler_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: sampler_dictionary != 0
        doc: The samplers' names (a sampler info has none).
        -pool: bfres
      render_info_value_counts:
        pos: render_info_value_count_array
        type: u2
        io: _root._io
        repeat: expr
        repeat-expr: shader_reflection.render_info_count
        if: render_info_value_count_array != 0 and static_shader_variation != 0
        -pool: bfres
      render_info_value_offsets:
        pos: render_info_value_offset_array
        type: u2
        io: _root._io
        repeat: expr
        repeat-expr: shader_reflection.render_info_count
        if: render_info_value_offset_array != 0 and static_shader_variation != 0
        -pool: bfres
      render_info_values:
        pos: render_info_value_array
        size: render_info_value_size
        type: >-
          render_info_value_block(render_info_value_count_array != 0 and render_info_value_offset_array != 0 and
          static_shader_variation != 0)
        io: _root._io
        if: render_info_value_array != 0
        doc: |
          The values of every render info, each at its offset of `render_info_value_offsets`, typed by its render
          info's type (the offsets and counts are read before them).
        -pool: bfres
      shader_param_values:
        pos: shader_param_value_array
        size: shader_reflection.shader_param_data_size
        io: _root._io
        if: shader_param_value_array != 0 and static_shader_variation != 0
        -pool: bfres
      runtime_uniform_buffer_offsets:
        pos: runtime_uniform_buffer_offset_array
        type: s4
        io: _root._io
        repeat: expr
        repeat-expr: shader_reflection.shader_param_count
        if: runtime_uniform_buffer_offset_array != 0 and static_shader_variation != 0
        -pool: bfres
      convert_flags:
        pos: convert_flag_array
        type: u4
        io: _root._io
        repeat: expr
        repeat-expr: (shader_reflection.shader_param_count + 31) / 32
        if: convert_flag_array != 0 and static_shader_variation != 0
        -pool: bfres
      user_data:
        pos: user_data_array
        type: user_data_entry
        io: _root._io
        repeat: expr
        repeat-expr: user_data_count
        if: user_data_array != 0
        -pool: bfres
      user_data_dict:
        pos: user_data_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: user_data_dictionary != 0
        -pool: bfres
      runtime_sampler_slots:
        pos: runtime_sampler_slot_array
        type: u8
        io: _root._io
        repeat: expr
        repeat-expr: sampler_count
        if: runtime_sampler_slot_array != 0
        -pool: bfres
      runtime_texture_slots:
        pos: runtime_texture_slot_array
        type: u8
        io: _root._io
        repeat: expr
        repeat-expr: texture_count
        if: runtime_texture_slot_array != 0
        -pool: bfres
  static_shader_variation:
    -wiki:
      page: Bfres
      section: ResStaticShaderVariation
    doc: |
      Version 10: which static variation of the reflected shader a material uses, as the names of the vertex
      attributes and samplers it uses and its static option choices. The page's section order lists two index
      arrays for attributes, samplers and options each (variation to reflection, reflection to variation, "only if
      different"), where the table has one pointer each: the first, with one index per entry of the variation, is
      read.
    seq:
      - id: shader_reflection
        type: u8
        -relocate: nn_util
        -derive: _parent._parent.shader_reflections._pos + shader_reflection_index * 0x58
        doc: |
          Pointer to the model's shader reflection (not followed here: `material` finds it by its index,
          `shader_reflection_index`, from which the writer derives it).
      - id: vertex_attribute_name_array
        type: u8
        -relocate: nn_util
        doc: Vertex attribute name array, of those used in this specific static shader variation.
      - id: vertex_attribute_index_array
        type: u8
        -relocate: nn_util
        doc: Vertex attribute index array (u8 each).
      - id: sampler_name_array
        type: u8
        -relocate: nn_util
        doc: Sampler name array, of those used in this specific static shader variation.
      - id: sampler_index_array
        type: u8
        -relocate: nn_util
        doc: Sampler index array (u8 each).
      - id: option_bool_array
        type: u8
        -relocate: nn_util
        doc: Static shader option choice packed bool array (u32 words).
      - id: option_string_array
        type: u8
        -relocate: nn_util
        doc: Static shader option choice string array.
      - id: option_index_array
        type: u8
        -relocate: nn_util
        doc: Static shader option index array (u16 each).
      - id: reserved
        type: u4
      - id: vertex_attribute_count
        type: u1
      - id: sampler_count
        type: u1
      - id: option_bool_count
        type: u2
        doc: Static shader option bool count.
      - id: option_count
        type: u2
        doc: Total static shader option count.
      - id: reserved2
        size: 6
    instances:
      shader_reflection_index:
        value: (shader_reflection - _parent._parent.shader_reflection_array) / 0x58
        -data: u2
        doc: |
          Which of the model's shader reflections (0x58 bytes each) `shader_reflection` points to: kept in the
          model, and the pointer derived from it.
      vertex_attribute_names:
        pos: vertex_attribute_name_array
        type: string_ref
        io: _root._io
        repeat: expr
        repeat-expr: vertex_attribute_count
        if: vertex_attribute_name_array != 0
        -pool: bfres
      vertex_attribute_indices:
        pos: vertex_attribute_index_array
        type: u1
        io: _root._io
        repeat: expr
        repeat-expr: vertex_attribute_count
        if: vertex_attribute_index_array != 0
        -pool: bfres
      sampler_names:
        pos: sampler_name_array
        type: string_ref
        io: _root._io
        repeat: expr
        repeat-expr: sampler_count
        if: sampler_name_array != 0
        -pool: bfres
      sampler_indices:
        pos: sampler_index_array
        type: u1
        io: _root._io
        repeat: expr
        repeat-expr: sampler_count
        if: sampler_index_array != 0
        -pool: bfres
      option_bools:
        pos: option_bool_array
        type: u4
        io: _root._io
        repeat: expr
        repeat-expr: (option_bool_count + 31) / 32
        if: option_bool_array != 0
        -pool: bfres
      option_strings:
        pos: option_string_array
        type: string_ref
        io: _root._io
        repeat: expr
        repeat-expr: option_count - option_bool_count
        if: option_string_array != 0
        -pool: bfres
      option_indices:
        pos: option_index_array
        type: u2
        io: _root._io
        repeat: expr
        repeat-expr: option_count
        if: option_index_array != 0
        -pool: bfres
  material_v8:
    doc: |
      Version 8's material (`FMAT`, 0xb8 bytes): a block header, then render infos with their values, a shader
      assign and shader parameters where version 10 has a static shader variation and the model's reflections.
      Its block's next offset leads to the next material or the skeleton. Pointers to empty arrays point where the
      next data is (AirCurrent's sampler arrays and shader parameters are all 0x9e0).
    seq:
      - id: block
        type: nn_util::block_header
        doc: The block header, magic "FMAT".
        valid:
          expr: _.magic == "FMAT"
      - id: material_name
        type: u8
        -relocate: nn_util
      - id: render_info_array
        type: u8
        -relocate: nn_util
      - id: render_info_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: shader_assign
        type: u8
        -relocate: nn_util
      - id: runtime_texture_view_array
        type: u8
        -relocate: nn_util
        doc: A pointer per texture, zeros.
      - id: texture_name_array
        type: u8
        -relocate: nn_util
      - id: runtime_sampler_array
        type: u8
        -relocate: nn_util
        doc: 0x78 zero bytes per sampler (HomeBed's 4 samplers fill 0xbd8 to 0xdb8, where the parameters start).
      - id: sampler_info_array
        type: u8
        -relocate: nn_util
      - id: sampler_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: shader_param_array
        type: u8
        -relocate: nn_util
      - id: shader_param_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: shader_param_value_array
        type: u8
        -relocate: nn_util
        doc: The parameters' values, `shader_param_value_size` bytes.
      - id: user_data_array
        type: u8
        -relocate: nn_util
      - id: user_data_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: convert_flag_array
        type: u8
        -relocate: nn_util
        doc: A bit per shader parameter, in u32 words (BfresLibrary's "volatile flags"; AirCurrent's 58 take 8 bytes).
      - id: user_pointer
        type: u8
        -relocate: nn_util
      - id: runtime_sampler_slot_array
        type: u8
        -relocate: nn_util
        doc: A u64 descriptor slot per sampler, -1 in files.
      - id: runtime_texture_slot_array
        type: u8
        -relocate: nn_util
        doc: A u64 descriptor slot per texture, -1 in files.
      - id: flags
        type: u4
        doc: 1 (visible) in both files.
      - id: index
        type: u2
      - id: render_info_count
        type: u2
      - id: sampler_count
        type: u1
        doc: |
          Sampler count, then texture count (as version 10 and BfresLibrary's writer; its reader reads the texture
          count first). The files have equal counts (4 and 4, 0 and 0).
      - id: texture_count
        type: u1
      - id: shader_param_count
        type: u2
      - id: volatile_param_count
        type: u2
        doc: BfresLibrary's name; 0 in the files.
      - id: shader_param_value_size
        type: u2
      - id: raw_param_size
        type: u2
        doc: BfresLibrary's name; 0 in the files.
      - id: user_data_count
        type: u2
      - id: reserved
        type: u4
    instances:
      name:
        pos: material_name
        type: nn_util::nw_string
        io: _root._io
        if: material_name != 0
        -pool: nw_strings
      render_infos:
        pos: render_info_array
        type: render_info_v8
        io: _root._io
        repeat: expr
        repeat-expr: render_info_count
        if: render_info_array != 0
        -pool: bfres
      render_info_dict:
        pos: render_info_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: render_info_dictionary != 0
        -pool: bfres
      shader_assign_data:
        pos: shader_assign
        type: shader_assign_v8
        io: _root._io
        if: shader_assign != 0
        -pool: bfres
      runtime_texture_views:
        pos: runtime_texture_view_array
        type: u8
        io: _root._io
        repeat: expr
        repeat-expr: texture_count
        if: runtime_texture_view_array != 0
        -pool: bfres
      texture_names:
        pos: texture_name_array
        type: string_ref
        io: _root._io
        repeat: expr
        repeat-expr: texture_count
        if: texture_name_array != 0
        -pool: bfres
      runtime_samplers:
        pos: runtime_sampler_array
        size: 0x78 * sampler_count
        io: _root._io
        if: runtime_sampler_array != 0
        -pool: bfres
      sampler_infos:
        pos: sampler_info_array
        type: nn_gfx::sampler_info
        io: _root._io
        repeat: expr
        repeat-expr: sampler_count
        if: sampler_info_array != 0
        -pool: bfres
      sampler_dict:
        pos: sampler_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: sampler_dictionary != 0
        doc: The samplers' names (a sampler info has none).
        -pool: bfres
      shader_params:
        pos: shader_param_array
        type: shader_param_v8
        io: _root._io
        repeat: expr
        repeat-expr: shader_param_count
        if: shader_param_array != 0
        -pool: bfres
      shader_param_dict:
        pos: shader_param_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: shader_param_dictionary != 0
        -pool: bfres
      shader_param_values:
        pos: shader_param_value_array
        size: shader_param_value_size
        io: _root._io
        if: shader_param_value_array != 0
        -pool: bfres
      user_data:
        pos: user_data_array
        type: user_data_entry
        io: _root._io
        repeat: expr
        repeat-expr: user_data_count
        if: user_data_array != 0
        -pool: bfres
      user_data_dict:
        pos: user_data_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: user_data_dictionary != 0
        -pool: bfres
      convert_flags:
        pos: convert_flag_array
        type: u4
        io: _root._io
        repeat: expr
        repeat-expr: (shader_param_count + 31) / 32
        if: convert_flag_array != 0
        -pool: bfres
      runtime_sampler_slots:
        pos: runtime_sampler_slot_array
        type: s8
        io: _root._io
        repeat: expr
        repeat-expr: sampler_count
        if: runtime_sampler_slot_array != 0
        -pool: bfres
      runtime_texture_slots:
        pos: runtime_texture_slot_array
        type: s8
        io: _root._io
        repeat: expr
        repeat-expr: texture_count
        if: runtime_texture_slot_array != 0
        -pool: bfres
  render_info_v8:
    doc: |
      Version 8's render info (0x18 bytes): its name, type and values, which version 10 splits between the
      shader reflection and the material.
    seq:
      - id: render_info_name
        type: u8
        -relocate: nn_util
      - id: value_array
        type: u8
        -relocate: nn_util
        doc: Pointer to the values (`count` of `type`; for strings, string pointers).
      - id: count
        type: u2
      - id: type
        type: u1
        enum: render_info_type
      - id: reserved
        size: 5
    instances:
      name:
        pos: render_info_name
        type: nn_util::nw_string
        io: _root._io
        if: render_info_name != 0
        -pool: nw_strings
      values:
        pos: value_array
        type:
          switch-on: type
          cases:
            render_info_type::int: s4
            render_info_type::float: f4
            render_info_type::string: string_ref
        io: _root._io
        repeat: expr
        repeat-expr: count
        if: value_array != 0
        -pool:
          id: bfres
          align: 4
  shader_assign_v8:
    doc: |
      Version 8's shader assign (0x48 bytes): the shader archive and shading model a material uses, and its
      assignments: for vertex attributes and samplers, the material's names (dictionary keys) for the shader's
      names (values); for shader options, the option names (keys) and choices (values).
    seq:
      - id: shader_archive_name
        type: u8
        -relocate: nn_util
      - id: shading_model_name
        type: u8
        -relocate: nn_util
        doc: HomeBed.bfres holds 0x8e here, inside the file header (the original file 0x3e8e, the archive name).
      - id: attribute_assign_array
        type: u8
        -relocate: nn_util
      - id: attribute_assign_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: sampler_assign_array
        type: u8
        -relocate: nn_util
      - id: sampler_assign_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: shader_option_array
        type: u8
        -relocate: nn_util
      - id: shader_option_dictionary
        type: u8
        -relocate: {id: nn_util, list-null: true}
      - id: revision
        type: u4
      - id: attribute_assign_count
        type: u1
      - id: sampler_assign_count
        type: u1
      - id: shader_option_count
        type: u2
    instances:
      archive_name:
        pos: shader_archive_name
        type: nn_util::nw_string
        io: _root._io
        if: shader_archive_name != 0
        -pool: nw_strings
      model_name_length:
        pos: shading_model_name
        type: u2
        io: _root._io
        if: shading_model_name != 0
        -view: true
        doc: The u16 at the name pointer, read to check that a string is there.
      model_name_end:
        pos: shading_model_name + 2 + model_name_length
        type: u1
        io: _root._io
        if: shading_model_name != 0
        -view: true
        doc: |
          The byte after that many bytes: 0 where the pointer points at a string. HomeBed.bfres's pointer (0x8e)
          points into the file header, at a length of 0 followed by 0x48: its name is not read.
      model_name:
        pos: shading_model_name
        type: nn_util::nw_string
        io: _root._io
        if: shading_model_name != 0 and model_name_end == 0
        -pool: nw_strings
      attribute_assigns:
        pos: attribute_assign_array
        type: string_ref
        io: _root._io
        repeat: expr
        repeat-expr: attribute_assign_count
        if: attribute_assign_array != 0
        -pool: bfres
      attribute_assign_dict:
        pos: attribute_assign_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: attribute_assign_dictionary != 0
        -pool: bfres
      sampler_assigns:
        pos: sampler_assign_array
        type: string_ref
        io: _root._io
        repeat: expr
        repeat-expr: sampler_assign_count
        if: sampler_assign_array != 0
        -pool: bfres
      sampler_assign_dict:
        pos: sampler_assign_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: sampler_assign_dictionary != 0
        -pool: bfres
      shader_options:
        pos: shader_option_array
        type: string_ref
        io: _root._io
        repeat: expr
        repeat-expr: shader_option_count
        if: shader_option_array != 0
        -pool: bfres
      shader_option_dict:
        pos: shader_option_dictionary
        type: nn_util::res_dic
        io: _root._io
        if: shader_option_dictionary != 0
        -pool: bfres
  shader_param_v8:
    doc: |
      Version 8's shader parameter (0x20 bytes): name, type and where its value is in the material's value array
      (`data_offset`, `data_size` bytes). Its types are numbered as BfresLibrary does (`shader_param_type_v8`).
    seq:
      - id: convert_function
        type: u8
        -relocate: nn_util
        doc: Set at run time (0 in files).
      - id: shader_param_name
        type: u8
        -relocate: nn_util
      - id: type
        type: u1
        enum: shader_param_type_v8
      - id: data_size
        type: u1
      - id: data_offset
        type: u2
      - id: uniform_offset
        type: s4
        doc: Offset in the uniform buffer, -1 in files (set at run time).
      - id: depended_index
        type: u2
        doc: BfresLibrary's name; the parameter's own index in AirCurrent.
      - id: depend_index
        type: u2
        doc: BfresLibrary's name; the parameter's own index in AirCurrent.
      - id: reserved
        type: u4
    instances:
      name_length:
        pos: shader_param_name
        type: u2
        io: _root._io
        if: shader_param_name != 0
        -view: true
        doc: The u16 at the name pointer, read to check that a string is there.
      name_end:
        pos: shader_param_name + 2 + name_length
        type: u1
        io: _root._io
        if: shader_param_name != 0
        -view: true
        doc: |
          The byte after that many bytes: 0 where the pointer points at a string. In HomeBed.bfres parameter 56
          (`tex_mtx2`) points two bytes early, at 0x3f00 (the original file 0x3f02): its name is not read.
      name:
        pos: shader_param_name
        type: nn_util::nw_string
        io: _root._io
        if: shader_param_name != 0 and name_end == 0
        -pool: nw_strings
  string_ref:
    doc: A pointer to an NW string, in an array of them.
    seq:
      - id: ofs
        type: u8
        -relocate: nn_util
    instances:
      value:
        pos: ofs
        type: nn_util::nw_string
        io: _root._io
        if: ofs != 0
        -pool: nw_strings
  vec3:
    seq:
      - id: x
        type: f4
      - id: y
        type: f4
      - id: z
        type: f4
  vec4:
    seq:
      - id: x
        type: f4
      - id: y
        type: f4
      - id: z
        type: f4
      - id: w
        type: f4
  matrix3x4:
    doc: A 3x4 matrix of floats, row by row.
    seq:
      - id: rows
        type: f4
        repeat: expr
        repeat-expr: 12
enums:
  render_info_type:
    0:
      id: int
      doc: Value is a 32-bit integer.
    1:
      id: float
      doc: Value is a 32-bit float.
    2:
      id: string
      doc: Value is an NW string pointer.
  shader_param_type:
    0: bool
    1: bool2
    2: bool3
    3: bool4
    4: int
    5: int2
    6: int3
    7: int4
    8: uint
    9: uint2
    10: uint3
    11: uint4
    12: float
    13: float2
    14: float3
    15: float4
    17: matrix2x2
    18: matrix2x3
    19: matrix2x4
    20: matrix3x2
    21: matrix3x3
    22: matrix3x4
    23: matrix4x2
    24: matrix4x3
    25: matrix4x4
    26: srt2d
    27: srt3d
    28: srt_texture
  shader_param_type_v8:
    0: bool
    1: bool2
    2: bool3
    3: bool4
    4: int
    5: int2
    6: int3
    7: int4
    8: uint
    9: uint2
    10: uint3
    11: uint4
    12: float
    13: float2
    14: float3
    15: float4
    17: float2x2
    18: float2x3
    19: float2x4
    21: float3x2
    22: float3x3
    23: float3x4
    25: float4x2
    26: float4x3
    27: float4x4
    28: srt2d
    29: srt3d
    30: tex_srt
    31: tex_srt_ex
  primitive_topology:
    0: point_list
    1: line_list
    2: line_strip
    3: triangle_list
    4: triangle_strip
    5: line_list_adjacency
    6: line_strip_adjacency
    7: triangle_list_adjacency
    8: triangle_strip_adjacency
    9: patch_list
  index_format:
    0: uint8
    1: uint16
    2: uint32
