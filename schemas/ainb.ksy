meta:
  id: ainb
  title: AINB (AI, logic and sequence node graphs)
  file-extension: [ainb]
  endian: le
  imports: [exb]
  -binspec:
    source: EPD Wiki, page "AINB", revision 2026-01-08T03:39:09Z
    # This schema is the raw reader `binspec_formats::ainb::raw` (declared in formats/src/ainb/, which includes
    # the generated file); the AINB format is the hand-written document built on it.
    module: ainb::raw
    register: [ainb::Document]
doc: |
  Nintendo EPD's node graphs for AI, logic and sequences (Splatoon 3 and Nintendo Switch Sports use version 0x404,
  Tears of the Kingdom and others 0x407, Nintendo Switch Online: Playtest Program (021) 0x408). A 0x74-byte header
  of counts and absolute u32 offsets (0 = the section is absent), the command array and the element array right
  after it, and the other sections where the header points. Every string is a u32 offset into the string pool,
  whose position the header gives (0x24).

  The model holds no offset, count, index or hash that the writer can derive (a file whose value differs keeps
  it as an override). The string references that have a text instance here (the file name and category, command
  names, element type names, attachment names, file reference paths, property, input and output names, string
  values, class names, blackboard parameter names, notes and string defaults, module and external action
  strings, enum resolve names, 0x404 state infos' desired states) are strings of the deduplicated string pool,
  their offsets derived (the packed ones as bit fields). The pool keeps every string the file holds, in order
  (Nintendo's files hold strings nothing refers to). Only plug values, which are string offsets for some plugs and
  indices for others, are kept as numbers. Each element's and attachment's parameters hold their properties of
  each type (an element's its inputs and outputs too), and the property table's six arrays and the input/output
  table's twelve are those ranges one after another (the elements' first, then the attachments', as every file
  at hand has them), so the parameters' base indices and counts and the tables' offsets are computed by the
  writer. Likewise an element's attachments (ranges of the attachment id array), its plug pointer array (the
  plugs of each kind, one kind after another) and the plug data the pointers point to (each plug right after the
  one before, after the pointer array). Every section the header points to, every element and attachment
  parameter and every 0x404 state info is an item of one region after the element array (`sections`), so the
  header's section offsets and the elements' and attachments' parameter and state info offsets are derived too;
  their order in the file is a layout choice the model keeps (`sections_order`), and bytes between them that
  nothing describes are kept where they are. An element's queries are a range of the query element id array
  too, in an order the model keeps where it is not element order (`ids_item_order`; an element without queries
  has base 0 in the files, kept where the writer would put it elsewhere). The blackboard's section headers are
  derived from its parameters and defaults of each type. Where the page and the files (Tears of the Kingdom
  0x407, Splatoon 3 0x404, and files written by the `ainb` package) differ, it follows the files:
  * Input Output Type Entry: the page puts Output Count at 0x10, which would leave a gap after Output Base Index
    and make the entry 0x14 bytes; it is at 0xc (the entry is 0x10 bytes, as the page's Input Output Entries table
    says).
  * Element (Node Entry) and Attachment: the Name Hash (version 0x407+) is absent in version 0x404, so the element
    is 0x38 bytes there (0x3c from 0x407) and the attachment 0xc bytes (0x10 from 0x407).
  * Blackboard: the page does not say how many Section Header Entries there are: there are six (string, s32, f32,
    bool, vector3f, pointer, in this order) and a seventh for u32 in version 0x408, which comes after s32. The
    parameter entries follow them (one per parameter, in header order), then the default values in header order.
  * Array lengths the page does not give are taken from the next section in the file's order: the property arrays
    end where the next one starts (the first five; the last is as long as the ranges in it), the input/output
    arrays likewise, the multi-inputs at the jump array, the jumps at the query element id array, the
    attachment ids at the attachment array, the query element ids at the EXB (or the module caller array), the EXB
    at the module caller array.
  * Query Element Id Array: it does not hold the header's Query Element Count of entries (the number of query
    elements: 347 in a Tears of the Kingdom file, 4 in the Splatoon 3 one) but one entry per query an element uses
    (the sum of the elements' Query Element Count: 461 and 2 there). Its length is taken from the next section,
    the EXB or else the module caller array.
  * Version 0x404 element params (Splatoon 3) can have bytes after the plug pointer array that the page does not
    describe; they are not read (the model keeps them as the gap before the next parameter).
  * In the Splatoon 3 0x404 file, 8 bytes between the module caller link and the 0x6C section look like a child
    replacement table header with no entries (0, 0, 0, -1, -1), but the header's Child Replacement Table offset is
    0 there; they are not read (the model keeps them as the gap before the 0x6C section).
  * Attachment params are 0x64 bytes in the files: 0x30 bytes follow the property entries (`unknown_34` to
    `end_60`): six pairs of (0, the offset of the entry's end) in every file at hand; the ends are derived from
    where the entry is.
  * Version 0x404 elements: the u32 at 0x24 (`state_info_ofs` here: the page's 0x58 Section Entry Offset u16 and
    the unnamed u16 after it) is the offset of the element's state info (a desired state string and four u32), as
    the `ainb` package reads it; 0 when there is none. The state infos follow the module caller link.
  * Blackboard parameters: bits 22-23 of the name word are an inherit mode (0 from the root, 1 from the parent,
    2 none), as the `ainb` package reads and writes them; the page names bit 23 alone "Does Not Have File
    Reference".
  * An element with no queries has a Base Query Element Id of 0, in the files of both Nintendo and the `ainb`
    package; an element with no attachments has the Base Attachment Id where the next range would start.
  * Plug data: see the `plug` type for what the page's paragraph on selector plugs gets wrong.
  * The blackboard's File Reference Entry array has no count on the page. It follows the default values and ends
    where the element param region starts (the first element's param), which is where this schema ends it.
-wiki:
  page: AINB
  section: File Header
  caption: File Header
-wiki-enums:
  element_type:
    page: AINB
    section: Element Type
    caption: Element Types
seq:
  - id: magic
    contents: "AIB "
    doc: Magic - "AIB "
  - id: version
    type: u4
    valid:
      any-of: [0x404, 0x407, 0x408]
    doc: Version (0x404, 0x407 or 0x408).
  - id: filename
    type: u4
    doc: Filename (offset into the string pool).
  - id: command_count
    type: u4
    doc: Command Count.
  - id: element_count
    type: u4
    doc: Element Count.
  - id: query_element_count
    type: u4
    -derive: elements.count(_.element_flags & 1 != 0)
    doc: Query Element Count (the elements whose Element Flags have bit 0, query, set).
  - id: attachment_count
    type: u4
    doc: Attachment Count.
  - id: output_element_count
    type: u4
    doc: Output Element Count.
  - id: blackboard_ofs
    type: u4
    doc: Blackboard (absolute offset).
  - id: string_pool_ofs
    type: u4
    doc: String Pool (absolute offset).
  - id: enum_relocation_array_ofs
    type: u4
    doc: Enum Relocation Array (absolute offset).
  - id: property_table_ofs
    type: u4
    doc: Property Table (absolute offset).
  - id: jump_table_ofs
    type: u4
    doc: Jump Table (absolute offset).
  - id: input_output_table_ofs
    type: u4
    doc: Input/Output Table (absolute offset).
  - id: multi_input_array_ofs
    type: u4
    doc: Multi-Input Array (absolute offset).
  - id: attachment_array_ofs
    type: u4
    doc: Attachment Array (absolute offset).
  - id: attachment_id_array_ofs
    type: u4
    doc: Attachment Id Array (absolute offset).
  - id: expression_binary_ofs
    type: u4
    doc: Expression Binary (absolute offset; 0 when there is none).
  - id: child_replacement_table_ofs
    type: u4
    doc: Child Replacement Table (absolute offset; 0 when there is none).
  - id: query_element_id_array_ofs
    type: u4
    doc: Query Element Id Array (absolute offset).
  - id: unknown_50
    type: u4
    -derive: jump_table_ofs
    doc: |
      Unknown (unused in TotK, always the same as the Active Node Update Array Offset). In every file at hand it
      equals the Jump Table offset (and the Query Element Id Array's, since the jump arrays are all empty, so the
      files cannot tell which); it is derived from the Jump Table offset, as the document's writer writes it (a
      file where it differs keeps its value).
  - id: unknown_54
    type: u4
    doc: Unknown (always 0).
  - id: unknown_58
    type: u4
    doc: Unknown (always 0, used in Splatoon 3 / Nintendo Switch Sports).
  - id: module_caller_array_ofs
    type: u4
    doc: Module Caller Array (absolute offset).
  - id: file_category_name
    type: u4
    doc: File Category Name (offset into the string pool).
  - id: file_category
    type: u4
    doc: File Category? (0 = AI, 1 = Logic, 2 = Sequence; Splatoon 3 also 3 = UniqueSequenceSPL).
  - id: external_action_array_ofs
    type: u4
    doc: External Action Array (absolute offset).
  - id: unknown_6c
    type: u4
    doc: Unknown (Unused in TotK).
  - id: module_caller_link_ofs
    type: u4
    doc: Module Caller Link (absolute offset).
  - id: commands
    type: command_entry
    repeat: expr
    repeat-expr: command_count
    doc: The command array, right after the header.
  - id: elements
    type: element(_index)
    repeat: expr
    repeat-expr: element_count
    doc: The element array, right after the command array.
  - id: sections
    size-eos: true
    doc: |
      The sections the header points to and the element and attachment parameters, after the element array, in
      the file's order (a layout choice the model keeps where it is not the default one). The default is the
      order of Nintendo's files and of the `ainb` package's: blackboard, element parameters, attachment id array,
      attachments and their parameters, the property and input/output tables, multi-inputs, jumps, query element
      ids, the EXB, module callers, external actions, the module caller link, the 0x404 state info, the child
      replacement table, the 0x6c section, the enum resolve array and the string pool last.
    -pool:
      id: ainb_sections
      order:
        - blackboard
        - element.param
        - attachment_id_array
        - attachments
        - attachment.param
        - property_table
        - input_output_table
        - multi_inputs
        - jumps
        - query_element_id_array
        - expression_binary
        - module_callers
        - external_actions
        - module_caller_link
        - element.state_info
        - child_replacement_table
        - section_6c
        - enum_resolve_array
        - string_pool
instances:
  file_name:
    pos: _root.string_pool_ofs + filename
    type: strz
    encoding: UTF-8
    -pool: ainb_strings
    doc: The file name.
  file_category_name_text:
    pos: _root.string_pool_ofs + file_category_name
    type: strz
    encoding: UTF-8
    -pool: ainb_strings
    doc: The file category name.
  string_pool:
    pos: string_pool_ofs
    -pool: ainb_sections
    type: string_pool
    doc: The string pool (null-terminated UTF-8 strings), the last section.
  blackboard:
    pos: blackboard_ofs
    -pool: ainb_sections
    type: blackboard
    if: blackboard_ofs != 0
    doc: The blackboard.
  enum_resolve_array:
    pos: enum_relocation_array_ofs
    -pool: ainb_sections
    type: enum_resolve_array
    if: enum_relocation_array_ofs != 0
    doc: The enum resolve array.
  attachments:
    pos: attachment_array_ofs
    -pool: ainb_sections
    type: attachment
    repeat: expr
    repeat-expr: attachment_count
    if: attachment_array_ofs != 0
    doc: The attachments (before the property table, which holds their parameters' property ranges).
  property_table:
    pos: property_table_ofs
    -pool: ainb_sections
    type: property_table
    if: property_table_ofs != 0
    doc: The property table.
  input_output_table:
    pos: input_output_table_ofs
    -pool: ainb_sections
    type: input_output_table
    if: input_output_table_ofs != 0
    doc: The input/output table.
  multi_inputs:
    pos: multi_input_array_ofs
    -pool: ainb_sections
    type: multi_input_entry
    repeat: expr
    repeat-expr: (jump_table_ofs - multi_input_array_ofs) / 8
    if: multi_input_array_ofs != 0 and jump_table_ofs >= multi_input_array_ofs
    doc: The multi-inputs, up to the jump array.
  jumps:
    pos: jump_table_ofs
    -pool: ainb_sections
    type: jump
    repeat: expr
    repeat-expr: (query_element_id_array_ofs - jump_table_ofs) / 4
    if: jump_table_ofs != 0 and query_element_id_array_ofs >= jump_table_ofs
    doc: The jumps, up to the query element id array.
  attachment_id_array:
    pos: attachment_id_array_ofs
    -pool: ainb_sections
    size: attachment_array_ofs - attachment_id_array_ofs
    type: attachment_id_array
    if: attachment_id_array_ofs != 0 and attachment_array_ofs >= attachment_id_array_ofs
    doc: The attachment id array, up to the attachment array.
  query_element_id_array:
    pos: query_element_id_array_ofs
    -pool: ainb_sections
    size: query_element_id_array_end - query_element_id_array_ofs
    type: query_element_id_array
    if: query_element_id_array_ofs != 0 and query_element_id_array_end >= query_element_id_array_ofs
    doc: |
      The query element id array, one entry per query an element uses: the elements' ranges of it (`queries`),
      up to the next section.
  query_element_id_array_end:
    value: "expression_binary_ofs != 0 ? expression_binary_ofs : module_caller_array_ofs"
    doc: Where the query element id array ends, the start of the next section.
  expression_binary:
    pos: expression_binary_ofs
    -pool: ainb_sections
    size: module_caller_array_ofs - expression_binary_ofs
    type: exb
    if: expression_binary_ofs != 0 and module_caller_array_ofs > expression_binary_ofs
    doc: The expression binary (its offsets are relative to its start), up to the module caller array.
  module_callers:
    pos: module_caller_array_ofs
    -pool: ainb_sections
    type: module_caller_array
    if: module_caller_array_ofs != 0
    doc: The module caller array.
  external_actions:
    pos: external_action_array_ofs
    -pool: ainb_sections
    type: external_action_array
    if: external_action_array_ofs != 0
    doc: The external action array.
  child_replacement_table:
    pos: child_replacement_table_ofs
    -pool: ainb_sections
    type: child_replacement_table
    if: child_replacement_table_ofs != 0
    doc: The child replacement table.
  section_6c:
    pos: unknown_6c
    -pool: ainb_sections
    type: u4
    if: unknown_6c != 0
    doc: |
      The 0x6C section, 4 bytes before the enum resolve array in every file at hand (0 in them all); the page
      describes nothing more.
  module_caller_link:
    pos: module_caller_link_ofs
    -pool: ainb_sections
    type: module_caller_link
    if: module_caller_link_ofs != 0
    doc: The module caller link.
types:
  string_pool:
    doc: |
      Null-terminated UTF-8 strings, referred to by offsets from the pool's start. The pool is kept as the file
      holds it (every string, in order, including strings nothing refers to, which Nintendo's files have); a
      string the model refers to that it does not hold is added at its end.
    seq:
      - id: strings
        size-eos: true
        doc: The strings.
        -pool:
          id: ainb_strings
          dedup: true
  command_entry:
    doc: One command.
    -wiki:
      page: AINB
      section: Command Array
      caption: Command Entry
    seq:
      - id: name
        type: u4
        doc: Name (offset into the string pool).
      - id: guid
        size: 0x10
        doc: Guid.
      - id: main_element_id
        type: u2
        doc: Main Element Id.
      - id: secondary_element_id
        type: u2
        doc: Secondary Element Id (value offset by 1, 0 is reserved for invalid).
    instances:
      name_text:
        pos: _root.string_pool_ofs + name
        type: strz
        encoding: UTF-8
        -pool: ainb_strings
        io: _root._io
        doc: The name.
  element:
    doc: |
      One element (node): 0x3c bytes from version 0x407, 0x38 in 0x404 (no name hash).

      The wiki's unnamed rows (padding at 0x10, 0x1e and 0x2a, in the 0x407 layout) are `unknown_10` and
      `unknown_1e` here; the one at 0x2a is the high half of `state_info_ofs` (with 0x58 Section Entry Offset).
    -wiki:
      page: AINB
      section: Element Array
      caption: Node Entry
    params:
      - id: index
        type: u4
        doc: The element's index in the element array.
    seq:
      - id: element_type
        type: u2
        enum: element_type
        doc: Element Type.
      - id: element_id
        type: u2
        -derive: index
        doc: Element Id - Index of this element within the element array (derived from its place).
      - id: attachment_count
        type: u2
        doc: Attachment Count.
      - id: element_flags
        type: u1
        doc: Element Flags (bit 0 Is Query Element, 1 Is Module Caller, 2 Is Resident Initialized, 3 Is Query Multi-Input).
      - id: unknown_07
        type: u1
        doc: Unknown.
      - id: element_type_name
        type: u4
        doc: Element Type Name (for ApplicationDefined nodes; offset into the string pool).
      - id: name_hash
        type: u4
        if: _root.version >= 0x407
        -derive: type_name_text.murmur3(0)
        doc: Name Hash (version 0x407+), murmur3 (x86, 32-bit, seed 0) of the element type name.
      - id: unknown_10
        type: u4
        doc: Unknown.
      - id: element_param
        type: u4
        doc: Element Param (absolute offset).
      - id: exb_function_count
        type: u2
        doc: EXB Function Count.
      - id: exb_input_output_field_size
        type: u2
        doc: EXB Input/Output Field Size.
      - id: multi_input_count
        type: u2
        doc: Multi-Input Count.
      - id: unknown_1e
        type: u2
        doc: Unknown.
      - id: base_attachment_id
        type: u4
        doc: Base Attachment Id.
      - id: base_query_element_id
        type: u2
        doc: Base Query Element Id.
      - id: query_element_count
        type: u2
        doc: Query Element Count.
      - id: state_info_ofs
        type: u4
        doc: |
          The page's 0x58 Section Entry Offset (a u16 of 2 bytes, relative to the start of the file) and the unnamed
          u16 after it, read as one u32 of 4 bytes: the offset of the element's state info (version 0x404), as the
          `ainb` package reads it; 0 when there is none, and in every file of version 0x407 and later at hand.
      - id: guid
        size: 0x10
        doc: Guid.
    instances:
      is_query_element:
        value: (element_flags & 1) != 0
        doc: Element Flags bit 0.
      state_info:
        pos: state_info_ofs
        type: state_info
        io: _root._io
        -pool: ainb_sections
        if: _root.version < 0x407 and state_info_ofs != 0
        doc: The element's state info (version 0x404), through the u32 at 0x24.
      queries:
        pos: _root.query_element_id_array_ofs + base_query_element_id * 4
        type: query_node_entry
        repeat: expr
        repeat-expr: query_element_count
        io: _root._io
        -pool: query_ids
        doc: The element's queries, a range of the query element id array.
      attachments:
        pos: _root.attachment_id_array_ofs + base_attachment_id * 4
        type: u4
        repeat: expr
        repeat-expr: attachment_count
        io: _root._io
        -pool: attachment_ids
        doc: The element's attachments (indices into the attachment array), a range of the attachment id array.
      is_module_caller:
        value: (element_flags & 2) != 0
        doc: Element Flags bit 1.
      is_resident_initialized:
        value: (element_flags & 4) != 0
        doc: Element Flags bit 2.
      is_query_multi_input:
        value: (element_flags & 8) != 0
        doc: Element Flags bit 3.
      type_name_text:
        pos: _root.string_pool_ofs + element_type_name
        type: strz
        encoding: UTF-8
        -pool: ainb_strings
        io: _root._io
        doc: The element type name.
      param:
        pos: element_param
        type: element_param(element_type.to_i, element_param)
        io: _root._io
        -pool: ainb_sections
        if: element_param != 0
        doc: The element's parameters and plugs.
  state_info:
    doc: Node state info (version 0x404), as the `ainb` package reads it; the page does not describe it.
    seq:
      - {id: desired_state, type: u4, doc: Desired state (offset into the string pool).}
      - {id: unknown_04, type: u4, doc: Unknown.}
      - {id: unknown_08, type: u4, doc: Unknown.}
      - {id: unknown_0c, type: u4, doc: Unknown.}
      - {id: unknown_10, type: u4, doc: Unknown.}
    instances:
      desired_state_text:
        pos: _root.string_pool_ofs + desired_state
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The desired state.
  element_param:
    doc: An element's entries into the property, input/output and plug tables, then its plug pointers.
    -wiki:
      page: AINB
      section: ElementParam<T>
    params:
      - id: element_type_id
        type: u2
        doc: The element's type (a value of the `element_type` enum); selectors and expressions extend their plugs.
      - id: ofs
        type: u4
        doc: The absolute offset of this element param (where the plug pointer array is found).
    seq:
      - id: property_entries
        type: property_entries
        doc: Entries into the Property Table.
      - id: input_output_entries
        type: input_output_entries
        doc: Entries into the Input Output Table.
      - id: plug_entries
        type: plug_entries
        doc: Entries into the following plug pointer array.
      - id: plug_pointers
        size: plug_entries.total * 4
        doc: |
          Plug Data Pointer Array (absolute offsets): the plugs of each kind, one kind after another, in the order
          of the plug entries (which give each kind's base index and count into it).
        -pool:
          id: plug_pointers
      - id: plug_data
        size: 0
        doc: |
          Where the plugs' data starts: right after the pointer array, each plug after the one before, in the
          order of the pointers.
        -pool:
          id: plug_data
    instances:
      s32_properties:
        pos: _root.property_table.s32_ofs + property_entries.s32_entries.base_index * 12
        type: property_s32
        repeat: expr
        repeat-expr: property_entries.s32_entries.count
        io: _root._io
        -pool: s32_properties
        doc: The s32 properties, a range of the property table's array.
      bool_properties:
        pos: _root.property_table.bool_ofs + property_entries.bool_entries.base_index * 12
        type: property_bool
        repeat: expr
        repeat-expr: property_entries.bool_entries.count
        io: _root._io
        -pool: bool_properties
        doc: The bool properties, a range of the property table's array.
      float_properties:
        pos: _root.property_table.float_ofs + property_entries.float_entries.base_index * 12
        type: property_float
        repeat: expr
        repeat-expr: property_entries.float_entries.count
        io: _root._io
        -pool: float_properties
        doc: The float properties, a range of the property table's array.
      string_properties:
        pos: _root.property_table.string_ofs + property_entries.string_entries.base_index * 12
        type: property_string
        repeat: expr
        repeat-expr: property_entries.string_entries.count
        io: _root._io
        -pool: string_properties
        doc: The string properties, a range of the property table's array.
      vector3f_properties:
        pos: _root.property_table.vector3f_ofs + property_entries.vector3f_entries.base_index * 20
        type: property_vector3f
        repeat: expr
        repeat-expr: property_entries.vector3f_entries.count
        io: _root._io
        -pool: vector3f_properties
        doc: The vector3f properties, a range of the property table's array.
      pointer_properties:
        pos: _root.property_table.pointer_ofs + property_entries.pointer_entries.base_index * 12
        type: property_pointer
        repeat: expr
        repeat-expr: property_entries.pointer_entries.count
        io: _root._io
        -pool: pointer_properties
        doc: The pointer properties, a range of the property table's array.
      s32_inputs:
        pos: _root.input_output_table.s32_inputs_ofs + input_output_entries.s32_entries.input_base_index * 16
        type: input_s32
        repeat: expr
        repeat-expr: input_output_entries.s32_entries.input_count
        io: _root._io
        -pool: s32_inputs
        doc: The s32 inputs, a range of the input/output table's array.
      s32_outputs:
        pos: _root.input_output_table.s32_outputs_ofs + input_output_entries.s32_entries.output_base_index * 4
        type: output
        repeat: expr
        repeat-expr: input_output_entries.s32_entries.output_count
        io: _root._io
        -pool: s32_outputs
        doc: The s32 outputs, a range of the input/output table's array.
      bool_inputs:
        pos: _root.input_output_table.bool_inputs_ofs + input_output_entries.bool_entries.input_base_index * 16
        type: input_bool
        repeat: expr
        repeat-expr: input_output_entries.bool_entries.input_count
        io: _root._io
        -pool: bool_inputs
        doc: The bool inputs, a range of the input/output table's array.
      bool_outputs:
        pos: _root.input_output_table.bool_outputs_ofs + input_output_entries.bool_entries.output_base_index * 4
        type: output
        repeat: expr
        repeat-expr: input_output_entries.bool_entries.output_count
        io: _root._io
        -pool: bool_outputs
        doc: The bool outputs, a range of the input/output table's array.
      float_inputs:
        pos: _root.input_output_table.float_inputs_ofs + input_output_entries.float_entries.input_base_index * 16
        type: input_float
        repeat: expr
        repeat-expr: input_output_entries.float_entries.input_count
        io: _root._io
        -pool: float_inputs
        doc: The float inputs, a range of the input/output table's array.
      float_outputs:
        pos: _root.input_output_table.float_outputs_ofs + input_output_entries.float_entries.output_base_index * 4
        type: output
        repeat: expr
        repeat-expr: input_output_entries.float_entries.output_count
        io: _root._io
        -pool: float_outputs
        doc: The float outputs, a range of the input/output table's array.
      string_inputs:
        pos: _root.input_output_table.string_inputs_ofs + input_output_entries.string_entries.input_base_index * 16
        type: input_string
        repeat: expr
        repeat-expr: input_output_entries.string_entries.input_count
        io: _root._io
        -pool: string_inputs
        doc: The string inputs, a range of the input/output table's array.
      string_outputs:
        pos: _root.input_output_table.string_outputs_ofs + input_output_entries.string_entries.output_base_index * 4
        type: output
        repeat: expr
        repeat-expr: input_output_entries.string_entries.output_count
        io: _root._io
        -pool: string_outputs
        doc: The string outputs, a range of the input/output table's array.
      vector3f_inputs:
        pos: _root.input_output_table.vector3f_inputs_ofs + input_output_entries.vector3f_entries.input_base_index * 24
        type: input_vector3f
        repeat: expr
        repeat-expr: input_output_entries.vector3f_entries.input_count
        io: _root._io
        -pool: vector3f_inputs
        doc: The vector3f inputs, a range of the input/output table's array.
      vector3f_outputs:
        pos: _root.input_output_table.vector3f_outputs_ofs + input_output_entries.vector3f_entries.output_base_index * 4
        type: output
        repeat: expr
        repeat-expr: input_output_entries.vector3f_entries.output_count
        io: _root._io
        -pool: vector3f_outputs
        doc: The vector3f outputs, a range of the input/output table's array.
      pointer_inputs:
        pos: _root.input_output_table.pointer_inputs_ofs + input_output_entries.pointer_entries.input_base_index * 20
        type: input_pointer
        repeat: expr
        repeat-expr: input_output_entries.pointer_entries.input_count
        io: _root._io
        -pool: pointer_inputs
        doc: The pointer inputs, a range of the input/output table's array.
      pointer_outputs:
        pos: _root.input_output_table.pointer_outputs_ofs + input_output_entries.pointer_entries.output_base_index * 8
        type: output_pointer
        repeat: expr
        repeat-expr: input_output_entries.pointer_entries.output_count
        io: _root._io
        -pool: pointer_outputs
        doc: The pointer outputs, a range of the input/output table's array.
      bool_float_input_source_plugs:
        pos: ofs + 0xa4 + 4 * plug_entries.bool_float_input_source.base_index
        type: plug_ref(element_type_id, 0)
        repeat: expr
        repeat-expr: plug_entries.bool_float_input_source.count
        -pool: plug_pointers
        doc: The plugs of kind 0 (bool float input source), through their pointers.
      unknown_02_plugs:
        pos: ofs + 0xa4 + 4 * plug_entries.unknown_02.base_index
        type: plug_ref(element_type_id, 1)
        repeat: expr
        repeat-expr: plug_entries.unknown_02.count
        -pool: plug_pointers
        doc: The plugs of kind 1 (unknown 02), through their pointers.
      child_plugs:
        pos: ofs + 0xa4 + 4 * plug_entries.child_plugs.base_index
        type: plug_ref(element_type_id, 2)
        repeat: expr
        repeat-expr: plug_entries.child_plugs.count
        -pool: plug_pointers
        doc: The plugs of kind 2 (child plugs), through their pointers.
      jump_plugs:
        pos: ofs + 0xa4 + 4 * plug_entries.jump_plugs.base_index
        type: plug_ref(element_type_id, 3)
        repeat: expr
        repeat-expr: plug_entries.jump_plugs.count
        -pool: plug_pointers
        doc: The plugs of kind 3 (jump plugs), through their pointers.
      string_input_source_plugs:
        pos: ofs + 0xa4 + 4 * plug_entries.string_input_source.base_index
        type: plug_ref(element_type_id, 4)
        repeat: expr
        repeat-expr: plug_entries.string_input_source.count
        -pool: plug_pointers
        doc: The plugs of kind 4 (string input source), through their pointers.
      int_input_source_plugs:
        pos: ofs + 0xa4 + 4 * plug_entries.int_input_source.base_index
        type: plug_ref(element_type_id, 5)
        repeat: expr
        repeat-expr: plug_entries.int_input_source.count
        -pool: plug_pointers
        doc: The plugs of kind 5 (int input source), through their pointers.
      unknown_0c_plugs:
        pos: ofs + 0xa4 + 4 * plug_entries.unknown_0c.base_index
        type: plug_ref(element_type_id, 6)
        repeat: expr
        repeat-expr: plug_entries.unknown_0c.count
        -pool: plug_pointers
        doc: The plugs of kind 6 (unknown 0c), through their pointers.
      unknown_0e_plugs:
        pos: ofs + 0xa4 + 4 * plug_entries.unknown_0e.base_index
        type: plug_ref(element_type_id, 7)
        repeat: expr
        repeat-expr: plug_entries.unknown_0e.count
        -pool: plug_pointers
        doc: The plugs of kind 7 (unknown 0e), through their pointers.
      unknown_10_plugs:
        pos: ofs + 0xa4 + 4 * plug_entries.unknown_10.base_index
        type: plug_ref(element_type_id, 8)
        repeat: expr
        repeat-expr: plug_entries.unknown_10.count
        -pool: plug_pointers
        doc: The plugs of kind 8 (unknown 10), through their pointers.
      unknown_12_plugs:
        pos: ofs + 0xa4 + 4 * plug_entries.unknown_12.base_index
        type: plug_ref(element_type_id, 9)
        repeat: expr
        repeat-expr: plug_entries.unknown_12.count
        -pool: plug_pointers
        doc: The plugs of kind 9 (unknown 12), through their pointers.
  property_entries:
    doc: Base index and count into the property arrays, per type.
    -wiki:
      page: AINB
      section: Property Entries
    seq:
      - id: s32_entries
        type: property_type_entry
        doc: S32 Entries.
      - id: bool_entries
        type: property_type_entry
        doc: Bool Entries.
      - id: float_entries
        type: property_type_entry
        doc: Float Entries.
      - id: string_entries
        type: property_type_entry
        doc: String Entries.
      - id: vector3f_entries
        type: property_type_entry
        doc: Vector3f Entries.
      - id: pointer_entries
        type: property_type_entry
        doc: Pointer Entries.
  property_type_entry:
    doc: A range of one property array.
    -wiki:
      page: AINB
      section: Property Type Entry
    seq:
      - id: base_index
        type: u4
        doc: Base Index - base index into the Property Table's Property Array for the specified type.
      - id: count
        type: u4
        doc: Count.
  input_output_entries:
    doc: Ranges of the input and output arrays, per type.
    -wiki:
      page: AINB
      section: Input Output Entries
    seq:
      - id: s32_entries
        type: input_output_type_entry
        doc: S32 Entries.
      - id: bool_entries
        type: input_output_type_entry
        doc: Bool Entries.
      - id: float_entries
        type: input_output_type_entry
        doc: Float Entries.
      - id: string_entries
        type: input_output_type_entry
        doc: String Entries.
      - id: vector3f_entries
        type: input_output_type_entry
        doc: Vector3f Entries.
      - id: pointer_entries
        type: input_output_type_entry
        doc: Pointer Entries.
  input_output_type_entry:
    doc: |
      A range of one input array and one output array.

      The page puts Output Count at 0x10; it is at 0xc (the entry is 0x10 bytes).
    -wiki:
      page: AINB
      section: Input Output Type Entry
    seq:
      - id: input_base_index
        type: u4
        doc: Input Base Index - base index into the Input Output Table's Input<T> array for the specified type.
      - id: input_count
        type: u4
        doc: Input Count.
      - id: output_base_index
        type: u4
        doc: Output Base Index - base index into the Input Output Table's Output<T> array for the specified type.
      - id: output_count
        type: u4
        doc: Output Count. At 0xc, not 0x10 as the page says.
  plug_entries:
    doc: Count and base index into the plug pointer array, per kind of plug.
    -wiki:
      page: AINB
      section: Plug Entries
    seq:
      - id: bool_float_input_source
        type: plug_type_entry
        doc: Bool/float Input Source/Output Source.
      - id: unknown_02
        type: plug_type_entry
        doc: Unknown.
      - id: child_plugs
        type: plug_type_entry
        doc: Child Plugs.
      - id: jump_plugs
        type: plug_type_entry
        doc: Jump Plugs.
      - id: string_input_source
        type: plug_type_entry
        doc: String Input Source.
      - id: int_input_source
        type: plug_type_entry
        doc: Int Input Source.
      - id: unknown_0c
        type: plug_type_entry
        doc: Unknown.
      - id: unknown_0e
        type: plug_type_entry
        doc: Unknown.
      - id: unknown_10
        type: plug_type_entry
        doc: Unknown.
      - id: unknown_12
        type: plug_type_entry
        doc: Unknown.
    instances:
      total:
        value: >-
          bool_float_input_source.count + unknown_02.count + child_plugs.count + jump_plugs.count
          + string_input_source.count + int_input_source.count + unknown_0c.count + unknown_0e.count
          + unknown_10.count + unknown_12.count
        doc: The total plug count (the length of the plug pointer array).
  plug_type_entry:
    doc: A range of the plug pointer array.
    -wiki:
      page: AINB
      section: Plug Type Entry
    seq:
      - id: count
        type: u1
        doc: Count.
      - id: base_index
        type: u1
        doc: Base Index - base index into Plug Pointer Array.
  plug_ref:
    doc: An absolute offset to one plug's data (an entry of the plug pointer array).
    params:
      - id: element_type_id
        type: u2
        doc: The type of the element the plug belongs to.
      - id: kind
        type: u1
        doc: The plug's kind, the index of its Plug Type Entry (2 = child plug, 0/4/5 = inputs).
    seq:
      - id: ofs
        type: u4
        doc: Absolute offset of the plug data.
    instances:
      data:
        pos: ofs
        type: plug(element_type_id, kind)
        io: _root._io
        -pool: plug_data
        doc: The plug data.
  plug:
    doc: |
      Plug data: the typical 8 bytes, then what the element type adds. The page's paragraph on plug data and the
      files differ:
      * Child plugs of Element_S32Selector, Element_StringSelector and Element_RandomSelector: the page says "an
        extra four bytes" store the selection data; the plugs are 16 bytes in the files (8 extra bytes): 4 bytes
        the page does not mention (`selector_index_and_flags`), then the selection value (an s32, a string, a
        float weight).
      * Child plugs of Element_F32Selector: the page says they add 24 bytes, "consisting of four eight-byte
        sub-entries"; they add 32 bytes, four condition entries (the plugs are 0x28 bytes).
      * Input plugs (kinds 0, 4 and 5) of selector elements and of Element_Expression have 8 more bytes
        (`input_flags`, then a word that is a value for int inputs and a string for string inputs of the
        selectors and expressions that take those, as in the files at hand); the page says an expression's vector3f inputs have 16, which the plug alone does not
        tell apart, so only 8 are read. One such plug is at hand (Nintendo's Npc_Gerudo_Queen_Young, element
        1818, the last plug of its element): its other 8 bytes, zeros, are not read (the model keeps them as the
        gap before the next element parameter), and the `ainb` package writes that plug without them.
    -wiki:
      page: AINB
      section: Plugs
      table: 1
    params:
      - id: element_type_id
        type: u2
        doc: The type of the element the plug belongs to.
      - id: kind
        type: u1
        doc: The plug's kind.
    seq:
      - id: element_id
        type: u4
        doc: Element Id.
      - id: name
        type: u4
        if: kind != 3
        doc: Value, for every plug but jump plugs a name (offset into the string pool).
      - id: jump_index
        type: u4
        if: kind == 3
        doc: Value, for jump plugs a jump table index.
      - id: selector_index_and_flags
        type: u4
        if: kind == 2 and (element_type_id == 1 or element_type_id == 5 or element_type_id == 6)
        doc: |
          Four bytes before the selection value of those child plugs, not on the page (0 in the files at hand);
          they look like the Local Blackboard Parameter Index and Flags of an F32 selector condition entry.
      - id: selector_s32
        type: s4
        if: kind == 2 and element_type_id == 1
        doc: The selection data of an Element_S32Selector child plug (an immediate value).
      - id: selector_string
        type: u4
        if: kind == 2 and element_type_id == 5
        doc: The selection data of an Element_StringSelector child plug (offset into the string pool).
      - id: selector_weight
        type: f4
        if: kind == 2 and element_type_id == 6
        doc: The selection data of an Element_RandomSelector child plug (a weight).
      - id: conditions
        type: f32_selector_condition_entry
        repeat: expr
        repeat-expr: 4
        if: kind == 2 and element_type_id == 4
        doc: The four condition entries of an Element_F32Selector child plug (minimum, maximum, two unused).
      - id: input_flags
        type: u4
        if: has_input_extra
        doc: |
          The first of the eight bytes of unknown purpose that input plugs of selector and expression elements add:
          flags, by their look (0 in most files).
      - id: input_s32
        type: s4
        if: has_input_extra and kind == 5 and (element_type_id == 1 or element_type_id == 20)
        doc: The second word of an int input plug of an Element_S32Selector or Element_Expression, a value.
      - id: input_string
        type: u4
        if: has_input_extra and kind == 4 and (element_type_id == 5 or element_type_id == 20)
        doc: |
          The second word of a string input plug of an Element_StringSelector or Element_Expression (offset into
          the string pool).
      - id: input_word
        type: u4
        if: >-
          has_input_extra and not (kind == 5 and (element_type_id == 1 or element_type_id == 20))
          and not (kind == 4 and (element_type_id == 5 or element_type_id == 20))
        doc: The second word of the other input plugs of selector and expression elements, as read.
    instances:
      has_input_extra:
        value: >-
          (kind == 0 or kind == 4 or kind == 5) and (element_type_id == 1 or element_type_id == 4
          or element_type_id == 5 or element_type_id == 6 or element_type_id == 7 or element_type_id == 20)
        doc: Whether the plug is an input plug of a selector or expression element, which adds eight bytes.
      name_text:
        pos: _root.string_pool_ofs + name
        type: strz
        encoding: UTF-8
        io: _root._io
        if: kind != 3
        -pool: ainb_strings
        doc: The plug's name.
      selector_string_text:
        pos: _root.string_pool_ofs + selector_string
        type: strz
        encoding: UTF-8
        io: _root._io
        if: kind == 2 and element_type_id == 5
        -pool: ainb_strings
        doc: The string an Element_StringSelector child plug selects on.
      input_string_text:
        pos: _root.string_pool_ofs + input_string
        type: strz
        encoding: UTF-8
        io: _root._io
        if: has_input_extra and kind == 4 and (element_type_id == 5 or element_type_id == 20)
        -pool: ainb_strings
        doc: The string of a string input plug of an Element_StringSelector or Element_Expression.
  f32_selector_condition_entry:
    doc: An Element_F32Selector condition.
    -wiki:
      page: AINB
      section: Plugs
      caption: <code>Element_F32Selector Condition Entry</code>
    seq:
      - id: local_blackboard_parameter_index_and_flags
        type: u4
        doc: Local Blackboard Parameter Index and Flags.
      - id: condition_value
        type: f4
        doc: Condition Value.
  property_table:
    doc: Absolute offsets of the six property arrays.
    -wiki:
      page: AINB
      section: Property Table
      table: 1
    seq:
      - id: s32_ofs
        type: u4
        doc: Property Array (Property<s32>).
      - id: bool_ofs
        type: u4
        doc: Property Array (Property<bool>).
      - id: float_ofs
        type: u4
        doc: Property Array (Property<float>).
      - id: string_ofs
        type: u4
        doc: Property Array (Property<AinbString>).
      - id: vector3f_ofs
        type: u4
        doc: Property Array (Property<Vector3f>).
      - id: pointer_ofs
        type: u4
        doc: Property Array (PropertyPointer).
      - id: arrays
        size-eos: true
        doc: The six property arrays, each the ranges of the element and attachment parameters, one after another.
        -pool:
          id: property_arrays
    instances:
      s32_array:
        pos: s32_ofs
        size: bool_ofs - s32_ofs
        type: property_array_s32
        -pool: property_arrays
        doc: The s32 property array, up to the next one.
      bool_array:
        pos: bool_ofs
        size: float_ofs - bool_ofs
        type: property_array_bool
        -pool: property_arrays
        doc: The bool property array, up to the next one.
      float_array:
        pos: float_ofs
        size: string_ofs - float_ofs
        type: property_array_float
        -pool: property_arrays
        doc: The float property array, up to the next one.
      string_array:
        pos: string_ofs
        size: vector3f_ofs - string_ofs
        type: property_array_string
        -pool: property_arrays
        doc: The string property array, up to the next one.
      vector3f_array:
        pos: vector3f_ofs
        size: pointer_ofs - vector3f_ofs
        type: property_array_vector3f
        -pool: property_arrays
        doc: The vector3f property array, up to the next one.
      pointer_array:
        pos: pointer_ofs
        size: _root.input_output_table_ofs - pointer_ofs
        type: property_array_pointer
        -pool: property_arrays
        doc: The pointer property array, up to the next one.
  property_array_s32:
    doc: The s32 property array.
    seq:
      - id: properties
        size-eos: true
        doc: Each parameter's s32 properties, one after another.
        -pool:
          id: s32_properties
  property_array_bool:
    doc: The bool property array.
    seq:
      - id: properties
        size-eos: true
        doc: Each parameter's bool properties, one after another.
        -pool:
          id: bool_properties
  property_array_float:
    doc: The float property array.
    seq:
      - id: properties
        size-eos: true
        doc: Each parameter's float properties, one after another.
        -pool:
          id: float_properties
  property_array_string:
    doc: The string property array.
    seq:
      - id: properties
        size-eos: true
        doc: Each parameter's string properties, one after another.
        -pool:
          id: string_properties
  property_array_vector3f:
    doc: The vector3f property array.
    seq:
      - id: properties
        size-eos: true
        doc: Each parameter's vector3f properties, one after another.
        -pool:
          id: vector3f_properties
  property_array_pointer:
    doc: The pointer property array.
    seq:
      - id: properties
        size-eos: true
        doc: Each parameter's pointer properties, one after another.
        -pool:
          id: pointer_properties
  property_s32:
    doc: Property<s32>.
    -wiki:
      page: AINB
      section: Property<T>
      table: 1
    seq:
      - id: name
        type: u4
        doc: Name (offset into the string pool).
      - id: flags
        type: property_flags
        doc: Flags.
      - id: immediate_value
        type: s4
        doc: Immediate Value.
    instances:
      name_text:
        pos: _root.string_pool_ofs + name
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The name.
  property_bool:
    doc: Property<bool>.
    seq:
      - {id: name, type: u4, doc: Name (offset into the string pool).}
      - {id: flags, type: property_flags, doc: Flags.}
      - {id: immediate_value, type: u4, doc: Immediate Value (0 or 1).}
    instances:
      name_text:
        pos: _root.string_pool_ofs + name
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The name.
  property_float:
    doc: Property<float>.
    seq:
      - {id: name, type: u4, doc: Name (offset into the string pool).}
      - {id: flags, type: property_flags, doc: Flags.}
      - {id: immediate_value, type: f4, doc: Immediate Value.}
    instances:
      name_text:
        pos: _root.string_pool_ofs + name
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The name.
  property_string:
    doc: Property<AinbString>.
    seq:
      - {id: name, type: u4, doc: Name (offset into the string pool).}
      - {id: flags, type: property_flags, doc: Flags.}
      - {id: immediate_value, type: u4, doc: Immediate Value (offset into the string pool).}
    instances:
      name_text:
        pos: _root.string_pool_ofs + name
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The name.
      immediate_value_text:
        pos: _root.string_pool_ofs + immediate_value
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The immediate value (a string).
  property_vector3f:
    doc: Property<Vector3f>.
    seq:
      - {id: name, type: u4, doc: Name (offset into the string pool).}
      - {id: flags, type: property_flags, doc: Flags.}
      - {id: immediate_value, type: f4, repeat: expr, repeat-expr: 3, doc: "Immediate Value (x, y, z)."}
    instances:
      name_text:
        pos: _root.string_pool_ofs + name
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The name.
  property_pointer:
    doc: PropertyPointer.
    -wiki:
      page: AINB
      section: PropertyPointer
    seq:
      - id: name
        type: u4
        doc: Name (offset into the string pool).
      - id: class_name
        type: u4
        doc: Class Name (offset into the string pool).
      - id: flags
        type: property_flags
        doc: Flags.
    instances:
      name_text:
        pos: _root.string_pool_ofs + name
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The name.
      class_name_text:
        pos: _root.string_pool_ofs + class_name
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The class name.
  property_flags:
    doc: |
      Property Flags, a u32 bitfield.

      The page gives one row per bit range (u32 : 16, u32 : 1, ...); this schema reads the u32 once
      (`index_and_flags`) and gives the named ranges as value instances: Index (bits 0-15), Is Use Index (bit 16),
      Is Not Local Blackboard Index (bit 17), Is EXB Index (bit 23), Pulse Thread Local Storage (bit 24) and Set
      Pointer Flag Bit Zero (bit 25). The unnamed ranges (bits 18-22 and 26-31) are padding as far as the page knows.
    -wiki:
      page: AINB
      section: Property Flags
    seq:
      - id: index_and_flags
        type: u4
        doc: The bits.
    instances:
      index:
        value: index_and_flags & 0xffff
        doc: Index (bits 0-15).
      is_use_index:
        value: (index_and_flags >> 16) & 1 != 0
        doc: Is Use Index (bit 16).
      is_not_local_blackboard_index:
        value: (index_and_flags >> 17) & 1 != 0
        doc: Is Not Local Blackboard Index (bit 17).
      is_exb_index:
        value: (index_and_flags >> 23) & 1 != 0
        doc: Is EXB Index (bit 23).
      pulse_thread_local_storage:
        value: (index_and_flags >> 24) & 1 != 0
        doc: Pulse Thread Local Storage (bit 24).
      set_pointer_flag_bit_zero:
        value: (index_and_flags >> 25) & 1 != 0
        doc: Set Pointer Flag Bit Zero (bit 25).
  input_output_table:
    doc: Absolute offsets of the twelve input and output arrays.
    -wiki:
      page: AINB
      section: Input Output Table
      table: 1
    seq:
      - {id: s32_inputs_ofs, type: u4, doc: Input Array (Input<s32>).}
      - {id: s32_outputs_ofs, type: u4, doc: Output Array (Output<s32>).}
      - {id: bool_inputs_ofs, type: u4, doc: Input Array (Input<bool>).}
      - {id: bool_outputs_ofs, type: u4, doc: Output Array (Output<bool>).}
      - {id: float_inputs_ofs, type: u4, doc: Input Array (Input<float>).}
      - {id: float_outputs_ofs, type: u4, doc: Output Array (Output<float>).}
      - {id: string_inputs_ofs, type: u4, doc: Input Array (Input<AinbString>).}
      - {id: string_outputs_ofs, type: u4, doc: Output Array (Output<AinbString>).}
      - {id: vector3f_inputs_ofs, type: u4, doc: Input Array (Input<Vector3f>).}
      - {id: vector3f_outputs_ofs, type: u4, doc: Output Array (Output<Vector3f>).}
      - {id: pointer_inputs_ofs, type: u4, doc: Input Array (InputPointer).}
      - {id: pointer_outputs_ofs, type: u4, doc: Output Array (OutputPointer).}
      - id: arrays
        size-eos: true
        doc: The twelve arrays, each the ranges of the element parameters, one after another.
        -pool:
          id: input_output_arrays
    instances:
      s32_inputs_array:
        pos: s32_inputs_ofs
        size: s32_outputs_ofs - s32_inputs_ofs
        type: s32_inputs_array
        -pool: input_output_arrays
        doc: The s32 inputs array, up to the next one.
      s32_outputs_array:
        pos: s32_outputs_ofs
        size: bool_inputs_ofs - s32_outputs_ofs
        type: s32_outputs_array
        -pool: input_output_arrays
        doc: The s32 outputs array, up to the next one.
      bool_inputs_array:
        pos: bool_inputs_ofs
        size: bool_outputs_ofs - bool_inputs_ofs
        type: bool_inputs_array
        -pool: input_output_arrays
        doc: The bool inputs array, up to the next one.
      bool_outputs_array:
        pos: bool_outputs_ofs
        size: float_inputs_ofs - bool_outputs_ofs
        type: bool_outputs_array
        -pool: input_output_arrays
        doc: The bool outputs array, up to the next one.
      float_inputs_array:
        pos: float_inputs_ofs
        size: float_outputs_ofs - float_inputs_ofs
        type: float_inputs_array
        -pool: input_output_arrays
        doc: The float inputs array, up to the next one.
      float_outputs_array:
        pos: float_outputs_ofs
        size: string_inputs_ofs - float_outputs_ofs
        type: float_outputs_array
        -pool: input_output_arrays
        doc: The float outputs array, up to the next one.
      string_inputs_array:
        pos: string_inputs_ofs
        size: string_outputs_ofs - string_inputs_ofs
        type: string_inputs_array
        -pool: input_output_arrays
        doc: The string inputs array, up to the next one.
      string_outputs_array:
        pos: string_outputs_ofs
        size: vector3f_inputs_ofs - string_outputs_ofs
        type: string_outputs_array
        -pool: input_output_arrays
        doc: The string outputs array, up to the next one.
      vector3f_inputs_array:
        pos: vector3f_inputs_ofs
        size: vector3f_outputs_ofs - vector3f_inputs_ofs
        type: vector3f_inputs_array
        -pool: input_output_arrays
        doc: The vector3f inputs array, up to the next one.
      vector3f_outputs_array:
        pos: vector3f_outputs_ofs
        size: pointer_inputs_ofs - vector3f_outputs_ofs
        type: vector3f_outputs_array
        -pool: input_output_arrays
        doc: The vector3f outputs array, up to the next one.
      pointer_inputs_array:
        pos: pointer_inputs_ofs
        size: pointer_outputs_ofs - pointer_inputs_ofs
        type: pointer_inputs_array
        -pool: input_output_arrays
        doc: The pointer inputs array, up to the next one.
      pointer_outputs_array:
        pos: pointer_outputs_ofs
        type: pointer_outputs_array
        -pool: input_output_arrays
        doc: The pointer outputs array.
  s32_inputs_array:
    doc: The s32 inputs array.
    seq:
      - id: entries
        size-eos: true
        doc: Each element parameter's s32 inputs, one after another.
        -pool:
          id: s32_inputs
  s32_outputs_array:
    doc: The s32 outputs array.
    seq:
      - id: entries
        size-eos: true
        doc: Each element parameter's s32 outputs, one after another.
        -pool:
          id: s32_outputs
  bool_inputs_array:
    doc: The bool inputs array.
    seq:
      - id: entries
        size-eos: true
        doc: Each element parameter's bool inputs, one after another.
        -pool:
          id: bool_inputs
  bool_outputs_array:
    doc: The bool outputs array.
    seq:
      - id: entries
        size-eos: true
        doc: Each element parameter's bool outputs, one after another.
        -pool:
          id: bool_outputs
  float_inputs_array:
    doc: The float inputs array.
    seq:
      - id: entries
        size-eos: true
        doc: Each element parameter's float inputs, one after another.
        -pool:
          id: float_inputs
  float_outputs_array:
    doc: The float outputs array.
    seq:
      - id: entries
        size-eos: true
        doc: Each element parameter's float outputs, one after another.
        -pool:
          id: float_outputs
  string_inputs_array:
    doc: The string inputs array.
    seq:
      - id: entries
        size-eos: true
        doc: Each element parameter's string inputs, one after another.
        -pool:
          id: string_inputs
  string_outputs_array:
    doc: The string outputs array.
    seq:
      - id: entries
        size-eos: true
        doc: Each element parameter's string outputs, one after another.
        -pool:
          id: string_outputs
  vector3f_inputs_array:
    doc: The vector3f inputs array.
    seq:
      - id: entries
        size-eos: true
        doc: Each element parameter's vector3f inputs, one after another.
        -pool:
          id: vector3f_inputs
  vector3f_outputs_array:
    doc: The vector3f outputs array.
    seq:
      - id: entries
        size-eos: true
        doc: Each element parameter's vector3f outputs, one after another.
        -pool:
          id: vector3f_outputs
  pointer_inputs_array:
    doc: The pointer inputs array.
    seq:
      - id: entries
        size-eos: true
        doc: Each element parameter's pointer inputs, one after another.
        -pool:
          id: pointer_inputs
  pointer_outputs_array:
    doc: The pointer outputs array.
    seq:
      - id: entries
        size-eos: true
        doc: Each element parameter's pointer outputs, one after another.
        -pool:
          id: pointer_outputs
  input_s32:
    doc: Input<s32>. An input element id between -32768 and -100 means a multi-input (base index -100 - id).
    -wiki:
      page: AINB
      section: Input<T>
    seq:
      - id: name
        type: u4
        doc: Name (offset into the string pool).
      - id: input_element_id
        type: s2
        doc: Input Element Id or Base Multi-Input Id.
      - id: input_element_output_plug_id
        type: s2
        doc: Input Element Output Plug Id or Multi-Input Count.
      - id: flags
        type: property_flags
        doc: Flags.
      - id: immediate_value
        type: s4
        doc: Immediate Value.
    instances:
      name_text:
        pos: _root.string_pool_ofs + name
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The name.
  input_bool:
    doc: Input<bool>.
    seq:
      - {id: name, type: u4, doc: Name (offset into the string pool).}
      - {id: input_element_id, type: s2, doc: Input Element Id or Base Multi-Input Id.}
      - {id: input_element_output_plug_id, type: s2, doc: Input Element Output Plug Id or Multi-Input Count.}
      - {id: flags, type: property_flags, doc: Flags.}
      - {id: immediate_value, type: u4, doc: Immediate Value (0 or 1).}
    instances:
      name_text:
        pos: _root.string_pool_ofs + name
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The name.
  input_float:
    doc: Input<float>.
    seq:
      - {id: name, type: u4, doc: Name (offset into the string pool).}
      - {id: input_element_id, type: s2, doc: Input Element Id or Base Multi-Input Id.}
      - {id: input_element_output_plug_id, type: s2, doc: Input Element Output Plug Id or Multi-Input Count.}
      - {id: flags, type: property_flags, doc: Flags.}
      - {id: immediate_value, type: f4, doc: Immediate Value.}
    instances:
      name_text:
        pos: _root.string_pool_ofs + name
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The name.
  input_string:
    doc: Input<AinbString>.
    seq:
      - {id: name, type: u4, doc: Name (offset into the string pool).}
      - {id: input_element_id, type: s2, doc: Input Element Id or Base Multi-Input Id.}
      - {id: input_element_output_plug_id, type: s2, doc: Input Element Output Plug Id or Multi-Input Count.}
      - {id: flags, type: property_flags, doc: Flags.}
      - {id: immediate_value, type: u4, doc: Immediate Value (offset into the string pool).}
    instances:
      name_text:
        pos: _root.string_pool_ofs + name
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The name.
      immediate_value_text:
        pos: _root.string_pool_ofs + immediate_value
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The immediate value (a string).
  input_vector3f:
    doc: Input<Vector3f>.
    seq:
      - {id: name, type: u4, doc: Name (offset into the string pool).}
      - {id: input_element_id, type: s2, doc: Input Element Id or Base Multi-Input Id.}
      - {id: input_element_output_plug_id, type: s2, doc: Input Element Output Plug Id or Multi-Input Count.}
      - {id: flags, type: property_flags, doc: Flags.}
      - {id: immediate_value, type: f4, repeat: expr, repeat-expr: 3, doc: "Immediate Value (x, y, z)."}
    instances:
      name_text:
        pos: _root.string_pool_ofs + name
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The name.
  input_pointer:
    doc: InputPointer.
    -wiki:
      page: AINB
      section: InputPointer
    seq:
      - id: name
        type: u4
        doc: Name (offset into the string pool).
      - id: class_name
        type: u4
        doc: Class Name (offset into the string pool).
      - id: input_element_id
        type: s2
        doc: Input Element Id or Base Multi-Input Id.
      - id: input_element_output_plug_id
        type: s2
        doc: Input Element Output Plug Id or Multi-Input Count.
      - id: flags
        type: property_flags
        doc: Flags.
      - id: unknown_10
        type: u4
        doc: Unknown.
    instances:
      name_text:
        pos: _root.string_pool_ofs + name
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The name.
      class_name_text:
        pos: _root.string_pool_ofs + class_name
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The class name.
  output:
    doc: |
      Output<T> (every type but pointers).

      One u32, read as bit fields (little-endian bit order): the name's offset in bits 0-30. The page's second row
      (u32 : 1, bit 31 of the name) is no padding: it is `flag`, the top bit.
    -wiki:
      page: AINB
      section: Output<T>
    meta:
      bit-endian: le
    seq:
      - id: name
        type: b31
        doc: Name (offset into the string pool), bits 0-30.
      - id: flag
        type: b1
        doc: The flag in bit 31.
    instances:
      name_text:
        pos: _root.string_pool_ofs + name
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The name.
  output_pointer:
    doc: |
      OutputPointer.

      The name's u32 is as in `output`, read as bit fields: the offset in bits 0-30. The page's second row (u32 :
      1, bit 31 of the name) is no padding: it is `flag`, the top bit.
    -wiki:
      page: AINB
      section: OutputPointer
    meta:
      bit-endian: le
    seq:
      - id: name
        type: b31
        doc: Name (offset into the string pool), bits 0-30.
      - id: flag
        type: b1
        doc: "The flag in bit 31 (`flag` is the wiki's second row, u32 : 1, which its table counts within the name)."
      - id: class_name
        type: u4
        doc: Class Name (offset into the string pool).
    instances:
      name_text:
        pos: _root.string_pool_ofs + name
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The name.
      class_name_text:
        pos: _root.string_pool_ofs + class_name
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The class name.
  blackboard:
    doc: |
      The local blackboard: one Section Header Entry per type (string, s32, [u32 in 0x408,] f32, bool, vector3f,
      pointer; `blackboard_section_header`), the parameter entries in that order, then the default values in that
      order (pointer parameters have none), then the file references. The headers are read here field by field
      (`string_count`, `string_first_index`, ...), so that the writer derives each one's first index (the
      parameters of the types before it) and first offset (where its default values start) from the parameters
      and defaults the model holds, and each count from the parameters' length.
    seq:
      - id: string_count
        type: u2
        doc: Number of Entries of the Corresponding Data Type (String, the Section Header Entry's first field).
      - id: string_first_index
        type: u2
        -derive: "0"
        doc: Parameter Index of the First Entry of the Corresponding Data Type (String), the parameters of the types before it.
      - id: string_first_offset
        type: u2
        -derive: "0"
        doc: Relative Offset of the First Entry of the Corresponding Data Type (String) into the default values.
      - id: string_unknown_06
        type: u2
        doc: The Section Header Entry's Unknown field (String; 0 in every file at hand).
      - id: s32_count
        type: u2
        doc: Number of Entries of the Corresponding Data Type (S32, the Section Header Entry's first field).
      - id: s32_first_index
        type: u2
        -derive: "string_params.size"
        doc: Parameter Index of the First Entry of the Corresponding Data Type (S32), the parameters of the types before it.
      - id: s32_first_offset
        type: u2
        -derive: "s32_defaults._pos - string_defaults._pos"
        doc: Relative Offset of the First Entry of the Corresponding Data Type (S32) into the default values.
      - id: s32_unknown_06
        type: u2
        doc: The Section Header Entry's Unknown field (S32; 0 in every file at hand).
      - id: u32_count
        type: u2
        if: _root.version >= 0x408
        doc: Number of Entries of the Corresponding Data Type (U32, the Section Header Entry's first field).
      - id: u32_first_index
        type: u2
        if: _root.version >= 0x408
        -derive: "string_params.size + s32_params.size"
        doc: Parameter Index of the First Entry of the Corresponding Data Type (U32), the parameters of the types before it.
      - id: u32_first_offset
        type: u2
        if: _root.version >= 0x408
        -derive: "u32_defaults._pos - string_defaults._pos"
        doc: Relative Offset of the First Entry of the Corresponding Data Type (U32) into the default values.
      - id: u32_unknown_06
        type: u2
        if: _root.version >= 0x408
        doc: The Section Header Entry's Unknown field (U32; 0 in every file at hand).
      - id: f32_count
        type: u2
        doc: Number of Entries of the Corresponding Data Type (F32, the Section Header Entry's first field).
      - id: f32_first_index
        type: u2
        -derive: "string_params.size + s32_params.size + (_root.version >= 0x408 ? u32_params.size : 0)"
        doc: Parameter Index of the First Entry of the Corresponding Data Type (F32), the parameters of the types before it.
      - id: f32_first_offset
        type: u2
        -derive: "f32_defaults._pos - string_defaults._pos"
        doc: Relative Offset of the First Entry of the Corresponding Data Type (F32) into the default values.
      - id: f32_unknown_06
        type: u2
        doc: The Section Header Entry's Unknown field (F32; 0 in every file at hand).
      - id: bool_count
        type: u2
        doc: Number of Entries of the Corresponding Data Type (Bool, the Section Header Entry's first field).
      - id: bool_first_index
        type: u2
        -derive: "string_params.size + s32_params.size + (_root.version >= 0x408 ? u32_params.size : 0) + f32_params.size"
        doc: Parameter Index of the First Entry of the Corresponding Data Type (Bool), the parameters of the types before it.
      - id: bool_first_offset
        type: u2
        -derive: "bool_defaults._pos - string_defaults._pos"
        doc: Relative Offset of the First Entry of the Corresponding Data Type (Bool) into the default values.
      - id: bool_unknown_06
        type: u2
        doc: The Section Header Entry's Unknown field (Bool; 0 in every file at hand).
      - id: vector3f_count
        type: u2
        doc: Number of Entries of the Corresponding Data Type (Vector3f, the Section Header Entry's first field).
      - id: vector3f_first_index
        type: u2
        -derive: "string_params.size + s32_params.size + (_root.version >= 0x408 ? u32_params.size : 0) + f32_params.size + bool_params.size"
        doc: Parameter Index of the First Entry of the Corresponding Data Type (Vector3f), the parameters of the types before it.
      - id: vector3f_first_offset
        type: u2
        -derive: "vector3f_defaults._pos - string_defaults._pos"
        doc: Relative Offset of the First Entry of the Corresponding Data Type (Vector3f) into the default values.
      - id: vector3f_unknown_06
        type: u2
        doc: The Section Header Entry's Unknown field (Vector3f; 0 in every file at hand).
      - id: pointer_count
        type: u2
        doc: Number of Entries of the Corresponding Data Type (Pointer, the Section Header Entry's first field).
      - id: pointer_first_index
        type: u2
        -derive: "string_params.size + s32_params.size + (_root.version >= 0x408 ? u32_params.size : 0) + f32_params.size + bool_params.size + vector3f_params.size"
        doc: Parameter Index of the First Entry of the Corresponding Data Type (Pointer), the parameters of the types before it.
      - id: pointer_first_offset
        type: u2
        -derive: "file_references._pos - string_defaults._pos"
        doc: Relative Offset of the First Entry of the Corresponding Data Type (Pointer) into the default values.
      - id: pointer_unknown_06
        type: u2
        doc: The Section Header Entry's Unknown field (Pointer; 0 in every file at hand).
      - id: string_params
        type: blackboard_parameter
        repeat: expr
        repeat-expr: string_count
        doc: The string parameters.
      - id: s32_params
        type: blackboard_parameter
        repeat: expr
        repeat-expr: s32_count
        doc: The s32 parameters.
      - id: u32_params
        type: blackboard_parameter
        repeat: expr
        repeat-expr: u32_count
        if: _root.version >= 0x408
        doc: The u32 parameters.
      - id: f32_params
        type: blackboard_parameter
        repeat: expr
        repeat-expr: f32_count
        doc: The f32 parameters.
      - id: bool_params
        type: blackboard_parameter
        repeat: expr
        repeat-expr: bool_count
        doc: The bool parameters.
      - id: vector3f_params
        type: blackboard_parameter
        repeat: expr
        repeat-expr: vector3f_count
        doc: The vector3f parameters.
      - id: pointer_params
        type: blackboard_parameter
        repeat: expr
        repeat-expr: pointer_count
        doc: The pointer parameters.
      - id: string_defaults
        type: string_ref
        repeat: expr
        repeat-expr: string_count
        doc: Default values of the string parameters (offsets into the string pool).
      - id: s32_defaults
        type: s4
        repeat: expr
        repeat-expr: s32_count
        doc: Default values of the S32 parameters.
      - id: u32_defaults
        type: u4
        repeat: expr
        repeat-expr: u32_count
        if: _root.version >= 0x408
        doc: Default values of the U32 parameters.
      - id: f32_defaults
        type: f4
        repeat: expr
        repeat-expr: f32_count
        doc: Default values of the F32 parameters.
      - id: bool_defaults
        type: u4
        repeat: expr
        repeat-expr: bool_count
        doc: Default values of the bool parameters.
      - id: vector3f_defaults
        type: vector3f
        repeat: expr
        repeat-expr: vector3f_count
        doc: Default values of the vector3f parameters.
      - id: file_references
        type: file_reference_entry
        repeat: expr
        repeat-expr: "file_reference_end > _io.pos ? (file_reference_end - _io.pos) / 16 : 0"
        doc: The file references, up to the element param region.
    instances:
      file_reference_end:
        value: "_root.element_count > 0 ? _root.elements[0].element_param : 0"
        -hook: file_reference_end
        doc: |
          Where the file references end, the start of the element param region. binspec's model derives the
          element param offsets, so its reader takes this one from the file's bytes
          (`binspec_formats::hooks::ainb::file_reference_end`), as the expression says.
  blackboard_section_header:
    doc: Section Header Entry.
    -wiki:
      page: AINB
      section: Blackboard
      caption: Section Header Entry
    seq:
      - id: count
        type: u2
        doc: Number of Entries of the Corresponding Data Type.
      - id: first_index
        type: u2
        doc: Parameter Index of the First Entry of the Corresponding Data Type.
      - id: first_offset
        type: u2
        doc: Relative Offset of the First Entry of the Corresponding Data Type (into the default values).
      - id: unknown_06
        type: u2
        doc: Unknown.
  blackboard_parameter:
    doc: Local Blackboard Parameter Entry.
    -wiki:
      page: AINB
      section: Blackboard
      caption: Local Blackboard Parameter Entry
    meta:
      bit-endian: le
    seq:
      - id: name_offset
        type: b22
        doc: Name Offset (bits 0-21 of the first u32, little-endian bit order).
      - id: inherit_mode
        type: b2
        doc: |
          Inherit mode (bits 22-23; 0 from the root, 1 from the parent, 2 none), as the `ainb` package reads it. The
          wiki's table has one row for the u32 of `name_offset`, `inherit_mode`, `file_reference_index` and
          `is_file_reference_valid` (Name Offset and Flags), and gives its bits in prose.
      - id: file_reference_index
        type: b7
        doc: File Reference Index (bits 24-30; `file_reference_index` is part of the wiki's Name Offset and Flags).
      - id: is_file_reference_valid
        type: b1
        doc: Is File Reference Valid (bit 31; `is_file_reference_valid` is part of the wiki's Name Offset and Flags).
      - id: notes
        type: u4
        doc: String Offset (Notes).
    instances:
      does_not_have_file_reference:
        value: (inherit_mode >> 1) != 0
        doc: Does Not Have File Reference (bit 23, the page's name for the inherit mode's high bit).
      name_text:
        pos: _root.string_pool_ofs + name_offset
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The name.
      notes_text:
        pos: _root.string_pool_ofs + notes
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The notes.
  string_ref:
    doc: A string of the string pool, stored as its offset.
    seq:
      - {id: ofs, type: u4, doc: Offset into the string pool.}
    instances:
      text:
        pos: _root.string_pool_ofs + ofs
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The string.
  vector3f:
    doc: Three floats.
    seq:
      - {id: x, type: f4, doc: X.}
      - {id: y, type: f4, doc: Y.}
      - {id: z, type: f4, doc: Z.}
  file_reference_entry:
    doc: File Reference Entry, after the blackboard's default values.
    -wiki:
      page: AINB
      section: Blackboard
      caption: File Reference Entry
    seq:
      - {id: file_path_offset, type: u4, doc: File Path Offset.}
      - id: file_path_hash
        type: u4
        -derive: file_path.murmur3(0)
        doc: File Path Hash, murmur3 (x86, 32-bit, seed 0) of the path.
      - id: filename_hash
        type: u4
        -derive: file_path.path_stem().murmur3(0)
        doc: |
          Filename Hash (no extension): murmur3 (seed 0) of the file name without its directories and extension
          (`NpcCommon.engine__component__BlackboardParamTable` in Nintendo's Npc_Gerudo_Queen_Young).
      - id: file_extension_hash
        type: u4
        -derive: file_path.path_extension().murmur3(0)
        doc: |
          File Extension Hash (no .): murmur3 (seed 0) of the extension after the name's last dot (`gyml`).
    instances:
      file_path:
        pos: _root.string_pool_ofs + file_path_offset
        type: strz
        encoding: UTF-8
        -pool: ainb_strings
        io: _root._io
        doc: The file path.
  attachment:
    doc: One attachment.
    -wiki:
      page: AINB
      section: Attachments
      table: 1
    seq:
      - id: name
        type: u4
        doc: Name (offset into the string pool).
      - id: parameters_entry_offset
        type: u4
        doc: Parameters Entry Offset (absolute).
      - id: exb_function_count
        type: u2
        doc: EXB Function Count.
      - id: exb_input_output_field_size
        type: u2
        doc: EXB Input/Output Field Size.
      - id: name_hash
        type: u4
        if: _root.version >= 0x407
        -derive: name_text.murmur3(0)
        doc: Name Hash (version 0x407+), murmur3 (x86, 32-bit, seed 0) of the name.
    instances:
      name_text:
        pos: _root.string_pool_ofs + name
        type: strz
        encoding: UTF-8
        -pool: ainb_strings
        io: _root._io
        doc: The name.
      param:
        pos: parameters_entry_offset
        type: attachment_param
        -pool: ainb_sections
        if: parameters_entry_offset != 0
        doc: The attachment's parameters.
  attachment_param:
    doc: An attachment's Parameter Entry.
    -wiki:
      page: AINB
      section: Attachment Param
      caption: Parameter Entry
    seq:
      - id: unknown
        type: u1
        doc: Unknown (possibly related to debug).
      - id: unknown_01
        size: 3
        doc: Unknown, a u24 on the page (read as 3 bytes).
      - id: property_entries
        type: property_entries
        doc: Property Entries.
      # The 0x30 bytes after the property entries (every attachment param in the files at hand is 0x64 bytes):
      # six pairs of (0, the offset of the entry's end). The page's Attachment Param section has two more tables,
      # both empty; it does not describe these bytes.
      - id: unknown_34
        type: u4
        doc: Unknown (0 in every file at hand).
      - id: end_38
        type: u4
        -derive: unknown._pos + 0x64
        doc: The absolute offset of the end of this parameter entry, in every file at hand.
      - id: unknown_3c
        type: u4
        doc: Unknown (0 in every file at hand).
      - id: end_40
        type: u4
        -derive: unknown._pos + 0x64
        doc: The absolute offset of the end of this parameter entry, in every file at hand.
      - id: unknown_44
        type: u4
        doc: Unknown (0 in every file at hand).
      - id: end_48
        type: u4
        -derive: unknown._pos + 0x64
        doc: The absolute offset of the end of this parameter entry, in every file at hand.
      - id: unknown_4c
        type: u4
        doc: Unknown (0 in every file at hand).
      - id: end_50
        type: u4
        -derive: unknown._pos + 0x64
        doc: The absolute offset of the end of this parameter entry, in every file at hand.
      - id: unknown_54
        type: u4
        doc: Unknown (0 in every file at hand).
      - id: end_58
        type: u4
        -derive: unknown._pos + 0x64
        doc: The absolute offset of the end of this parameter entry, in every file at hand.
      - id: unknown_5c
        type: u4
        doc: Unknown (0 in every file at hand).
      - id: end_60
        type: u4
        -derive: unknown._pos + 0x64
        doc: The absolute offset of the end of this parameter entry, in every file at hand.
    instances:
      s32_properties:
        pos: _root.property_table.s32_ofs + property_entries.s32_entries.base_index * 12
        type: property_s32
        repeat: expr
        repeat-expr: property_entries.s32_entries.count
        io: _root._io
        -pool: s32_properties
        doc: The s32 properties, a range of the property table's array.
      bool_properties:
        pos: _root.property_table.bool_ofs + property_entries.bool_entries.base_index * 12
        type: property_bool
        repeat: expr
        repeat-expr: property_entries.bool_entries.count
        io: _root._io
        -pool: bool_properties
        doc: The bool properties, a range of the property table's array.
      float_properties:
        pos: _root.property_table.float_ofs + property_entries.float_entries.base_index * 12
        type: property_float
        repeat: expr
        repeat-expr: property_entries.float_entries.count
        io: _root._io
        -pool: float_properties
        doc: The float properties, a range of the property table's array.
      string_properties:
        pos: _root.property_table.string_ofs + property_entries.string_entries.base_index * 12
        type: property_string
        repeat: expr
        repeat-expr: property_entries.string_entries.count
        io: _root._io
        -pool: string_properties
        doc: The string properties, a range of the property table's array.
      vector3f_properties:
        pos: _root.property_table.vector3f_ofs + property_entries.vector3f_entries.base_index * 20
        type: property_vector3f
        repeat: expr
        repeat-expr: property_entries.vector3f_entries.count
        io: _root._io
        -pool: vector3f_properties
        doc: The vector3f properties, a range of the property table's array.
      pointer_properties:
        pos: _root.property_table.pointer_ofs + property_entries.pointer_entries.base_index * 12
        type: property_pointer
        repeat: expr
        repeat-expr: property_entries.pointer_entries.count
        io: _root._io
        -pool: pointer_properties
        doc: The pointer properties, a range of the property table's array.
  query_element_id_array:
    doc: |
      The query element id array: each element's queries are a range of it. In Nintendo's Tears of the Kingdom
      file the ranges are not in element order (the `ainb` package writes them so): their order is a layout
      choice the model keeps (`ids_item_order`).
    seq:
      - id: ids
        size-eos: true
        doc: Each element's queries, one range after another.
        -pool:
          id: query_ids
          keep-order: true
  attachment_id_array:
    doc: The attachment id array (the elements' attachments are ranges of it, one after another).
    seq:
      - id: ids
        size-eos: true
        doc: Each element's attachment ids, one element after another.
        -pool:
          id: attachment_ids
  multi_input_entry:
    doc: Multi-Input Entry.
    -wiki:
      page: AINB
      section: Multi-Input
      caption: Multi-Input Entry
    seq:
      - {id: input_element_id, type: u2, doc: Input Element Id.}
      - {id: input_element_output_plug_id, type: u2, doc: Input Element Output Plug Id.}
      - {id: flags, type: u4, doc: Flags.}
  jump:
    doc: A jump, a u32 bitfield.
    seq:
      - id: raw
        type: u4
        doc: The bits.
    instances:
      is_valid_update:
        value: raw & 0xff
        doc: Is Valid Update (bits 0-7).
      update_post_calc:
        value: (raw >> 31) != 0
        doc: Update Post Calc (bit 31).
  query_node_entry:
    doc: Query Node Entry.
    -wiki:
      page: AINB
      section: Query Element Id Array
      caption: Query Node Entry
    seq:
      - {id: query_element_id, type: u2, doc: Query Element Id (local to number of query nodes).}
      - {id: unknown_02, type: u2, doc: Unknown.}
  module_caller_array:
    doc: A u32 count, then the module entries.
    -wiki:
      page: AINB
      section: AinbArray<T>
    seq:
      - {id: count, type: u4, doc: Number of entries.}
      - {id: entries, type: module_entry, repeat: expr, repeat-expr: count, doc: Array of struct of type T (the entries).}
  module_entry:
    doc: AINB Module Entry.
    -wiki:
      page: AINB
      section: Module Caller
      caption: AINB Module Entry
    seq:
      - {id: file_path_offset, type: u4, doc: File Path Offset.}
      - {id: file_category_offset, type: u4, doc: File Category Offset.}
      - {id: ainb_file_count, type: u4, doc: AINB File Count.}
    instances:
      file_path:
        pos: _root.string_pool_ofs + file_path_offset
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The file path.
      file_category:
        pos: _root.string_pool_ofs + file_category_offset
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The file category.
  external_action_array:
    doc: A u32 count, then the external action entries.
    -wiki:
      page: AINB
      section: AinbArray<T>
    seq:
      - {id: count, type: u4, doc: Number of entries.}
      - {id: entries, type: external_action, repeat: expr, repeat-expr: count, doc: Array of struct of type T (the entries).}
  external_action:
    doc: Entry String Entry.
    -wiki:
      page: AINB
      section: External Action Array
      caption: Entry String Entry
    seq:
      - {id: node_index, type: u4, doc: Node Index.}
      - {id: string_1_offset, type: u4, doc: String 1 Offset (always メインステート ("Main State")).}
      - {id: state_name_offset, type: u4, doc: State Name Offset.}
    instances:
      string_1:
        pos: _root.string_pool_ofs + string_1_offset
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: String 1 (メインステート, "Main State", in every file at hand).
      state_name:
        pos: _root.string_pool_ofs + state_name_offset
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The state name.
  module_caller_link:
    doc: |
      Two file hashes, of this file and of its parent. The `ainb` package writes its "Blackboard ID" and "Parent
      Blackboard ID" here.
    seq:
      - {id: file_hash, type: u4, doc: The hash of the file itself.}
      - {id: parent_file_hash, type: u4, doc: The hash of the file's parent.}
  child_replacement_table:
    doc: The child replacement section header, then its entries.
    -wiki:
      page: AINB
      section: Child Replacement Table
      caption: Child Replacement Section Header
    seq:
      - {id: initialization_guard, type: u1, doc: Initialization Guard (Is Initialized).}
      - {id: unknown_01, type: u1, doc: Unknown.}
      - {id: replacement_count, type: u2, doc: Replacement Count.}
      - {id: override_element_count, type: s2, doc: Override Element Count.}
      - {id: override_attachment_parameter_count, type: s2, doc: Override Attachment Parameter Count.}
      - {id: entries, type: child_replacement_entry, repeat: expr, repeat-expr: replacement_count, doc: The entries.}
  child_replacement_entry:
    doc: Child Replacement Table Entry.
    -wiki:
      page: AINB
      section: Child Replacement Table
      caption: Child Replacement Table Entry
    seq:
      - {id: replacement_type_enum, type: u1, doc: "Replacement Type Enum (0 = remove child element, 1 = replace child element, 2 = remove attachment)."}
      - {id: unknown_01, type: u1, doc: Unknown.}
      - {id: element_id, type: u2, doc: Element Id.}
      - {id: child_element_id, type: u2, doc: Child Element Id/Attachment Id.}
      - {id: new_element_id, type: u2, doc: New Element Id (for child element replacements).}
  enum_resolve_array:
    doc: A u32 count, then the enum resolve entries.
    -wiki:
      page: AINB
      section: AinbArray<T>
    seq:
      - {id: count, type: u4, doc: Number of entries.}
      - {id: entries, type: enum_resolve_entry, repeat: expr, repeat-expr: count, doc: Array of struct of type T (the entries).}
  enum_resolve_entry:
    doc: Enum Resolve Array Entry.
    -wiki:
      page: AINB
      section: Enum Relocation
      caption: Enum Resolve Array Entry
    seq:
      - {id: enum_value_offset, type: u4, doc: Enum Value Offset.}
      - {id: enum_class_name_offset, type: u4, doc: Enum Class Name Offset.}
      - {id: enum_value_name_offset, type: u4, doc: Enum Value Name Offset.}
    instances:
      enum_class_name:
        pos: _root.string_pool_ofs + enum_class_name_offset
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The enum class name.
      enum_value_name:
        pos: _root.string_pool_ofs + enum_value_name_offset
        type: strz
        encoding: UTF-8
        io: _root._io
        -pool: ainb_strings
        doc: The enum value name.
enums:
  element_type:
    0: application_defined
    1: element_s32selector
    2: element_sequential
    3: element_simultaneous
    4: element_f32selector
    5: element_string_selector
    6: element_random_selector
    7: element_bool_selector
    8: element_fork
    9: element_join
    10: element_alert
    20: element_expression
    100: element_module_if_input_s32
    101: element_module_if_input_f32
    102: element_module_if_input_vec3f
    103: element_module_if_input_string
    104: element_module_if_input_bool
    105: element_module_if_input_ptr
    200: element_module_if_output_s32
    201: element_module_if_output_f32
    202: element_module_if_output_vec3f
    203: element_module_if_output_string
    204: element_module_if_output_bool
    205: element_module_if_output_ptr
    300: element_module_if_child
    400: element_state_end
    500: element_split_timing
