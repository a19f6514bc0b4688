//! The decoded AINB document: what a user edits.
//!
//! Strings are strings (not string-pool offsets), elements and attachments are referred to by index, and values
//! are typed. Everything the file derives from these (offsets, counts, base indices, string-pool offsets, murmur3
//! name hashes, the element ids, the blackboard's section headers) is left out and recomputed by the writer. The
//! few choices a writer makes that the data does not decide (the order of the string pool, the order of the
//! query element id array, whether a 0x404 file carries an unlinked child replacement header) are in
//! [`Layout`], with defaults for new files.
//!
//! Names and string values are [`Str`] (the runtime's compact string, as in the raw model): one of up to 24 bytes
//! is held inline, without an allocation of its own, and converts from and to `&str` and `String` (`.into()`).

use binspec_runtime::Str;
use serde::{Deserialize, Serialize};

/// A decoded AINB file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Document {
    /// 0x404 (Splatoon 3, Nintendo Switch Sports), 0x407 (Tears of the Kingdom) or 0x408.
    pub version: u32,
    /// The file's name (without extension), e.g. `PlayerCamera.root`.
    pub file_name: Str,
    /// The file category name: `AI`, `Logic` or `Sequence`.
    pub category: Str,
    /// The file category number (0 = AI, 1 = Logic, 2 = Sequence; Splatoon 3 also 3).
    pub category_id: u32,
    /// The header's Output Element Count (0 in every file at hand).
    #[serde(default)]
    pub output_element_count: u32,
    /// Commands, the entry points.
    #[serde(default)]
    pub commands: Vec<Command>,
    /// Elements (nodes), by index.
    #[serde(default)]
    pub elements: Vec<Element>,
    /// The local blackboard.
    #[serde(default)]
    pub blackboard: Blackboard,
    /// Attachments; elements refer to them by index, and several elements may share one.
    #[serde(default)]
    pub attachments: Vec<Attachment>,
    /// The multi-input array; inputs with the multi-input flag refer to a range of it.
    #[serde(default)]
    pub multi_inputs: Vec<MultiInput>,
    /// The jump array, as read (u32 words; no file at hand has one).
    #[serde(default)]
    pub jumps: Vec<u32>,
    /// The expression binary, if the file has one.
    #[serde(default)]
    pub expressions: Option<crate::ainb::exb::Exb>,
    /// Module callers.
    #[serde(default)]
    pub modules: Vec<Module>,
    /// External actions.
    #[serde(default)]
    pub external_actions: Vec<ExternalAction>,
    /// The module caller link: this file's and its parent's blackboard hashes.
    #[serde(default)]
    pub module_link: ModuleLink,
    /// The child replacement table (version 0x407+).
    #[serde(default)]
    pub child_replacement: Option<ChildReplacement>,
    /// The 4-byte 0x6C section (0 in every file at hand), if present.
    #[serde(default)]
    pub section_6c: Option<u32>,
    /// The enum resolve array.
    #[serde(default)]
    pub enum_resolves: Vec<EnumResolve>,
    /// Layout choices.
    #[serde(default)]
    pub layout: Layout,
}

/// A GUID, written as 32 hex digits in the text form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Guid(pub [u8; 16]);

impl Serialize for Guid {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = String::with_capacity(32);
        for b in self.0 {
            t.push_str(&format!("{b:02x}"));
        }
        s.serialize_str(&t)
    }
}

impl<'de> Deserialize<'de> for Guid {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let t = String::deserialize(d)?;
        let t = t.replace('-', "");
        if t.len() != 32 || !t.is_ascii() {
            return Err(serde::de::Error::custom(format!(
                "a GUID is 32 hex digits, not {t:?}"
            )));
        }
        let mut g = [0u8; 16];
        for (i, b) in g.iter_mut().enumerate() {
            *b = u8::from_str_radix(&t[2 * i..2 * i + 2], 16).map_err(|_| {
                serde::de::Error::custom(format!("a GUID is 32 hex digits, not {t:?}"))
            })?;
        }
        Ok(Guid(g))
    }
}

/// A command: an entry point into the graph.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Command {
    pub name: Str,
    pub guid: Guid,
    /// The root element's index.
    pub main_element: u16,
    /// The secondary element's index (the file stores it plus one, 0 meaning none).
    #[serde(default)]
    pub secondary_element: Option<u16>,
}

/// One element (node).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Element {
    /// The element type (the `element_type` enum of `schemas/ainb.ksy`: 0 = application defined, 1 = S32 selector,
    /// ...).
    pub element_type: u16,
    /// The element's name (for application-defined elements, the class it runs).
    pub name: Str,
    /// Element Flags (bit 0 query, 1 module caller, 2 resident initialized, 3 query multi-input).
    #[serde(default)]
    pub flags: u8,
    #[serde(default)]
    pub unknown_07: u8,
    #[serde(default)]
    pub unknown_10: u32,
    #[serde(default)]
    pub exb_function_count: u16,
    #[serde(default)]
    pub exb_io_field_size: u16,
    #[serde(default)]
    pub multi_input_count: u16,
    #[serde(default)]
    pub unknown_1e: u16,
    /// Indices into [`Document::attachments`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<u32>,
    /// The element's entries of the query element id array.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub queries: Vec<QueryRef>,
    /// Node state info (version 0x404 only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<StateInfo>,
    pub guid: Guid,
    #[serde(default, skip_serializing_if = "Properties::is_empty")]
    pub properties: Properties,
    #[serde(default, skip_serializing_if = "Io::is_empty")]
    pub io: Io,
    /// Plugs, ordered by kind (the writer keeps this order within a kind).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plugs: Vec<Plug>,
    /// Words after the plug data that no page describes (Splatoon 3 0x404 element params): kept as read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u32>,
}

/// One entry of the query element id array.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueryRef {
    /// Query element id (among the query elements).
    pub id: u16,
    #[serde(default)]
    pub unknown: u16,
}

/// Version 0x404 node state info.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateInfo {
    pub desired_state: Str,
    pub unknown_04: u32,
    pub unknown_08: u32,
    pub unknown_0c: u32,
    pub unknown_10: u32,
}

/// A property (an element's or attachment's parameter that is not an input).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Property<T> {
    pub name: Str,
    /// Property Flags (index in bits 0-15, then the flag bits).
    #[serde(default)]
    pub flags: u32,
    pub value: T,
}

/// A pointer property.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PointerProperty {
    pub name: Str,
    pub class: Str,
    #[serde(default)]
    pub flags: u32,
}

/// Properties by type.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Properties {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub s32: Vec<Property<i32>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bool: Vec<Property<bool>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub f32: Vec<Property<f32>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub string: Vec<Property<Str>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub vec3f: Vec<Property<[f32; 3]>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pointer: Vec<PointerProperty>,
}

/// An input: a value that comes from another element's output (or a multi-input range), with an immediate default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Input<T> {
    pub name: Str,
    /// Input Element Id, or the base multi-input index (see `flags`).
    pub element: i16,
    /// Input Element Output Plug Id, or the multi-input count.
    pub plug: i16,
    #[serde(default)]
    pub flags: u32,
    pub value: T,
}

/// A pointer input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PointerInput {
    pub name: Str,
    pub class: Str,
    pub element: i16,
    pub plug: i16,
    #[serde(default)]
    pub flags: u32,
    #[serde(default)]
    pub unknown_10: u32,
}

/// An output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Output {
    pub name: Str,
    /// Bit 31 of the name word.
    #[serde(default)]
    pub flag: bool,
}

/// A pointer output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PointerOutput {
    pub name: Str,
    #[serde(default)]
    pub flag: bool,
    pub class: Str,
}

/// Inputs and outputs by type.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Io {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub s32_inputs: Vec<Input<i32>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub s32_outputs: Vec<Output>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bool_inputs: Vec<Input<bool>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bool_outputs: Vec<Output>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub f32_inputs: Vec<Input<f32>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub f32_outputs: Vec<Output>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub string_inputs: Vec<Input<Str>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub string_outputs: Vec<Output>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub vec3f_inputs: Vec<Input<[f32; 3]>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub vec3f_outputs: Vec<Output>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pointer_inputs: Vec<PointerInput>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pointer_outputs: Vec<PointerOutput>,
}

/// A plug: a link to another element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plug {
    /// The plug's kind, the index of its Plug Type Entry: 0 bool/float input source, 1 unknown, 2 child, 3 jump,
    /// 4 string input source, 5 int input source, 6-9 unknown.
    pub kind: u8,
    /// The element it links to (-1 or 0x7fff for none, as stored).
    pub element: i32,
    /// The plug's name (for jump plugs, a jump index).
    pub name: PlugName,
    /// What the element type adds after the first 8 bytes.
    #[serde(default)]
    pub extra: PlugExtra,
}

/// A plug's second word: a name for most plugs, an index for jump plugs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PlugName {
    Name(Str),
    Index(u32),
}

/// The bytes a plug carries after its element and name.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlugExtra {
    /// Nothing: the plug is 8 bytes.
    #[default]
    None,
    /// An S32 selector's child plug or int input: flags, then a value.
    S32 { flags: u32, value: i32 },
    /// A random selector's child plug: flags, then a weight.
    F32 { flags: u32, value: f32 },
    /// A string selector's child plug or string input (also expressions' string inputs): flags, then a string.
    String { flags: u32, value: Str },
    /// An F32 selector's child plug: four conditions (minimum, maximum, two unused).
    Conditions(Vec<Condition>),
    /// Words of unknown meaning (bool/float inputs of selectors and expressions).
    Words(Vec<u32>),
}

/// An F32 selector condition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// Local Blackboard Parameter Index and Flags.
    pub flags: u32,
    pub value: f32,
}

/// A blackboard parameter with a default value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlackboardParam<T> {
    pub name: Str,
    #[serde(default)]
    pub notes: Str,
    /// Bits 22-31 of the name word: bits 0-1 here the inherit mode (0 from the root, 1 from the parent, 2 none),
    /// bits 2-8 the index into [`Blackboard::file_references`], bit 9 set when there is a file reference.
    #[serde(default)]
    pub flags: u16,
    pub default: T,
}

/// A pointer blackboard parameter (no default value).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlackboardPointer {
    pub name: Str,
    #[serde(default)]
    pub notes: Str,
    #[serde(default)]
    pub flags: u16,
}

/// The local blackboard: parameters by type, and the files they reference.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Blackboard {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub string: Vec<BlackboardParam<Str>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub s32: Vec<BlackboardParam<i32>>,
    /// Version 0x408 only.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub u32: Vec<BlackboardParam<u32>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub f32: Vec<BlackboardParam<f32>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bool: Vec<BlackboardParam<bool>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub vec3f: Vec<BlackboardParam<[f32; 3]>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pointer: Vec<BlackboardPointer>,
    /// Referenced file paths (the writer computes their murmur3 hashes).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub file_references: Vec<Str>,
}

/// An attachment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attachment {
    pub name: Str,
    #[serde(default)]
    pub exb_function_count: u16,
    #[serde(default)]
    pub exb_io_field_size: u16,
    /// The parameter entry's first byte (possibly debug related).
    #[serde(default)]
    pub unknown: u8,
    #[serde(default)]
    pub unknown_01: [u8; 3],
    #[serde(default)]
    pub properties: Properties,
}

/// A multi-input entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MultiInput {
    pub element: u16,
    pub plug: u16,
    #[serde(default)]
    pub flags: u32,
}

/// A module caller entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Module {
    pub path: Str,
    pub category: Str,
    pub count: u32,
}

/// An external action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExternalAction {
    pub element: u32,
    /// Always メインステート ("Main State") in the files at hand.
    pub slot: Str,
    pub state: Str,
}

/// The module caller link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModuleLink {
    pub file_hash: u32,
    pub parent_file_hash: u32,
}

/// The child replacement table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChildReplacement {
    #[serde(default)]
    pub initialization_guard: u8,
    #[serde(default)]
    pub unknown_01: u8,
    pub override_element_count: i16,
    pub override_attachment_parameter_count: i16,
    #[serde(default)]
    pub entries: Vec<Replacement>,
}

/// A child replacement entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replacement {
    /// 0 = remove child element, 1 = replace child element, 2 = remove attachment.
    pub kind: u8,
    #[serde(default)]
    pub unknown_01: u8,
    pub element: u16,
    pub child: u16,
    pub new_element: u16,
}

/// An enum resolve entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnumResolve {
    /// The absolute offset of the value to patch, as stored.
    pub value_offset: u32,
    pub class: Str,
    pub value: Str,
}

/// Layout choices: what a writer decides that the data does not.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Layout {
    /// The string pool's order. Strings in use that are not listed follow, in the order the writer first meets
    /// them; listed strings that nothing uses are left out. Empty = first-use order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub strings: Vec<String>,
    /// Strings of the pool that nothing in the file refers to (Nintendo's files keep the class and value names of
    /// enums whose values were resolved): they stay in the pool, at their place in `strings`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreferenced_strings: Vec<String>,
    /// The order in which elements' query ranges are placed in the query element id array (element indices).
    /// Elements not listed follow in index order. Empty = element order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub query_order: Vec<u32>,
    /// Version 0x404: write an empty child replacement header (0, 0, -1, -1) after the module link without
    /// pointing the file header at it, as Splatoon 3's own files do.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unlinked_replacement_header: bool,
}

impl Properties {
    /// No property of any type.
    pub fn is_empty(&self) -> bool {
        let Properties {
            s32,
            bool,
            f32,
            string,
            vec3f,
            pointer,
        } = self;
        s32.is_empty()
            && bool.is_empty()
            && f32.is_empty()
            && string.is_empty()
            && vec3f.is_empty()
            && pointer.is_empty()
    }
}

impl Io {
    /// No input or output of any type.
    pub fn is_empty(&self) -> bool {
        let Io {
            s32_inputs,
            s32_outputs,
            bool_inputs,
            bool_outputs,
            f32_inputs,
            f32_outputs,
            string_inputs,
            string_outputs,
            vec3f_inputs,
            vec3f_outputs,
            pointer_inputs,
            pointer_outputs,
        } = self;
        s32_inputs.is_empty()
            && s32_outputs.is_empty()
            && bool_inputs.is_empty()
            && bool_outputs.is_empty()
            && f32_inputs.is_empty()
            && f32_outputs.is_empty()
            && string_inputs.is_empty()
            && string_outputs.is_empty()
            && vec3f_inputs.is_empty()
            && vec3f_outputs.is_empty()
            && pointer_inputs.is_empty()
            && pointer_outputs.is_empty()
    }
}
