meta:
  id: exb
  title: EXB (expression binary embedded in AINB and ASB)
  endian: le
  -binspec:
    source: EPD Wiki, page "AINB", revision 2026-01-08T03:39:09Z (section "Expression Binary")
    # EXB is part of AINB: built with AINB's feature, as `binspec_formats::ainb::exb_raw` (an EXB section read and
    # written as a file of its own), and not a format of its own (AINB's document reads its sections).
    feature: ainb
    module: ainb::exb_raw
    register: []
doc: |
  The expression binary: small compiled functions that AINB (and ASB) elements call. It is self-contained: every
  offset in its header is relative to the start of the EXB section, and it has its own string pool. Version 2 is
  used by AINB 0x404 and 0x407, version 3 by AINB 0x408.

  Where the page and the files differ, this schema follows the files:
  * The page's section order puts the Parameter Region before the Signature Table; in the files the signature table
    comes first. Both are read through their header offsets, so the order does not matter to the reader.
  * Version 3 inserts a uint type as data type 4 and moves float, string and vector3f up by one (as the `ainb`
    package reads and writes them); the `data_type` enums here are the page's, version 2's numbering.
  * The Signatures Table starts with a u32 count, like the command info and instruction tables (the page does not
    say so).
-wiki:
  page: AINB
  section: Header
  caption: EXB Header
seq:
  - id: magic_exb
    contents: "EXB "
    doc: Magic - "EXB "
  - id: version
    type: u4
    doc: Version (0x02; 0x03 in AINB 0x408).
  - id: static_memory_allocation_size
    type: u4
    doc: Static Memory Allocation Size.
  - id: parameter_exb_field_entry_count
    type: u4
    doc: Parameter EXB Field Entry Count.
  - id: n32_bit_scratch_allocation_size
    type: u4
    doc: 32-bit Scratch Allocation Size.
  - id: n64_bit_scratch_allocation_size
    type: u4
    doc: 64-bit Scratch Allocation Size.
  - id: command_info_offset
    type: u4
    doc: Command Info Offset (relative to the start of the EXB section).
  - id: command_table_offset
    type: u4
    doc: Command Table Offset, the instruction table (relative to the start of the EXB section).
  - id: signature_table_offset
    type: u4
    doc: Signature Table Offset (relative to the start of the EXB section).
  - id: parameter_region_offset
    type: u4
    doc: Parameter Region Offset (relative to the start of the EXB section).
  - id: string_pool_offset
    type: u4
    doc: String Pool Offset (relative to the start of the EXB section).
  - id: sections
    size-eos: true
    doc: The sections the header points to, in the files' order (command infos, instructions, signatures, parameters, strings).
    -pool:
      id: sections
instances:
  command_infos:
    pos: command_info_offset
    type: command_info_table
    -pool: sections
    doc: The command (function) info table.
  instructions:
    pos: command_table_offset
    type: instruction_table
    -pool: sections
    doc: The instruction table.
  signatures:
    pos: signature_table_offset
    type: signature_table
    -pool: sections
    doc: The signature table.
  parameter_region:
    pos: parameter_region_offset
    size: "signature_table_offset > parameter_region_offset ? signature_table_offset - parameter_region_offset : string_pool_offset - parameter_region_offset"
    -pool: sections
    doc: |
      Parameter values too large for an instruction's two bytes; instructions store offsets into it. It ends where
      the next section (signature table or string pool) starts.
  string_pool:
    pos: string_pool_offset
    type: string_pool
    -pool: sections
    doc: The EXB's own string pool (null-terminated UTF-8 strings).
types:
  command_info_table:
    doc: A u32 count, then the command info entries.
    seq:
      - id: count
        type: u4
        doc: Number of entries.
      - id: entries
        type: command_info_entry
        repeat: expr
        repeat-expr: count
        doc: The entries.
  command_info_entry:
    doc: One command (function).
    -wiki:
      page: AINB
      section: Command Info Table
      caption: Command Info Entry
    -wiki-enums:
      data_type:
        page: AINB
        section: Command Info Table
        caption: Data Type Enum
    seq:
      - id: base_index_pre_command_entry
        type: s4
        -derive: "setup._present ? (setup._pos - _parent._parent.command_table_offset - 4) / 8 : -1"
        doc: |
          Base Index Pre-Command Entry: the first instruction of the function's setup list, -1 when it has none
          (as the `ainb` package reads it).
      - id: pre_entry_static_memory_usage
        type: u4
        doc: |
          Pre-Entry Static Memory Usage: the length of the setup list, as the `ainb` package reads it (0 in every
          file at hand, whose functions have no setup list).
      - id: instruction_base_index
        type: u4
        doc: Instruction Base Index.
      - id: instruction_count
        type: u4
        doc: Instruction Count.
      - id: static_memory_size
        type: u4
        doc: Static Memory Size.
      - id: n32_bit_scratch_memory_size
        type: u2
        doc: 32-bit Scratch Memory Size.
      - id: n64_bit_scratch_memory_size
        type: u2
        doc: 64-bit Scratch Memory Size.
      - id: output_data_type_enum
        type: u2
        enum: data_type
        doc: Output Data Type Enum.
      - id: input_data_type_enum
        type: u2
        enum: data_type
        doc: Input Data Type Enum.
    instances:
      setup:
        pos: _parent._parent.command_table_offset + 4 + base_index_pre_command_entry * 8
        type: instruction_entry
        repeat: expr
        repeat-expr: pre_entry_static_memory_usage
        if: base_index_pre_command_entry >= 0
        -pool: instructions
        doc: The function's setup instructions, a range of the instruction table (none in the files at hand).
      instructions:
        pos: _parent._parent.command_table_offset + 4 + instruction_base_index * 8
        type: instruction_entry
        repeat: expr
        repeat-expr: instruction_count
        -pool: instructions
        doc: The function's instructions, a range of the instruction table.
    enums:
      data_type:
        0: no_data
        1: immediate_value_from_user
        2: bool
        3: int
        4: float
        5: string
        6: vector3f
  instruction_table:
    doc: A u32 count, then the instruction entries.
    seq:
      - id: count
        type: u4
        doc: Number of entries.
      - id: entries
        size: count * 8
        doc: |
          The entries: the functions' instruction lists, each function's setup list then its main list, function by
          function in the files at hand; another order is kept as a layout choice.
        -pool:
          id: instructions
          keep-order: true
  instruction_entry:
    doc: |
      One instruction. For UserFunction instructions, bytes 0x2-0x4 are a u16 static memory index and bytes 0x4-0x8
      a u32 index into the signature table (see `static_memory_index` and `signature_index`).
    -wiki:
      page: AINB
      section: Instructions Table
      caption: Instruction Entry
    -wiki-enums:
      instruction_type:
        page: AINB
        section: Instructions Table
        caption: Instruction Types
      data_type:
        page: AINB
        section: Instructions Table
        caption: Data Type Enum
      parameter_source:
        page: AINB
        section: Instructions Table
        caption: Parameter Source Enum
    seq:
      - id: instruction_type
        type: u1
        enum: instruction_type
        doc: Instruction Type.
      - id: data_type_enum
        type: u1
        enum: data_type
        doc: Data Type Enum.
      - id: left_hand_side_parameter_source_enum
        type: u1
        enum: parameter_source
        doc: Left-Hand Side Parameter Source Enum.
      - id: right_hand_side_parameter_source_enum
        type: u1
        enum: parameter_source
        doc: Right-Hand Side Parameter Source Enum.
      - id: left_hand_side_parameter_value
        type: u2
        doc: Left-Hand Side Parameter Value.
      - id: right_hand_side_parameter_value
        type: u2
        doc: Right-Hand Side Parameter Value.
    instances:
      static_memory_index:
        value: left_hand_side_parameter_source_enum.to_i | (right_hand_side_parameter_source_enum.to_i << 8)
        doc: For a UserFunction, the u16 static memory index at 0x2.
      signature_index:
        value: left_hand_side_parameter_value | (right_hand_side_parameter_value << 16)
        doc: For a UserFunction, the u32 index into the signature table at 0x4.
    enums:
      instruction_type:
        1: terminator
        2: store
        3: negate
        4: negate_bool
        5: add
        6: subtract
        7: multiply
        8: divide
        9: modulus
        10: increment
        11: decrement
        12: scalar_multiply_vec3f
        13: scalar_divide_vec3f
        14: left_shift
        15: right_shift
        16: less_than
        17: less_than_equal
        18: greater_than
        19: greater_than_equal
        20: equal
        21: not_equal
        22: and
        23: xor
        24: or
        25: logical_and
        26: logical_or
        27: user_function
        28: jump_if_lhszero
        29: jump
      data_type:
        0: no_data
        1: immediate_value_from_user
        2: bool
        3: int
        4: float
        5: string
        6: vector3f
      parameter_source:
        0: immediate_parameters
        1: immediate_parameters_string
        2: static_memory
        3: parameters_region
        4: parameters_region_string
        5: output_value
        6: input_value
        7: scratch_32_bit
        8: scratch_64_bit
        9: user_output
        10: user_input
  signature_table:
    doc: A u32 count, then u32 offsets into the EXB string pool, one per function signature.
    seq:
      - id: count
        type: u4
        doc: Number of signatures.
      - id: signatures
        type: signature
        repeat: expr
        repeat-expr: count
        doc: The signatures.
  signature:
    doc: A function signature, stored as the offset of its text in the EXB string pool.
    seq:
      - id: ofs
        type: u4
        doc: Offset of the signature's text, relative to the EXB string pool.
    instances:
      text:
        pos: _parent._parent.string_pool_offset + ofs
        type: strz
        encoding: UTF-8
        -pool: strings
        doc: The signature, for example `float UserFunc(float, float)`.
  string_pool:
    doc: |
      Null-terminated UTF-8 strings. Parameters in the parameter region can refer to them by offset, so the pool is
      kept as the file holds it (every string, in order); the signatures' strings are looked up in it.
    seq:
      - id: strings
        size-eos: true
        doc: The strings.
        -pool:
          id: strings
          dedup: true
