//! The YAML reader: a hand-written, single pass over the bytes of the text, for the subset of YAML that oead, roead
//! and people write (see the module documentation of `text`). Containers being read are frames on an explicit
//! stack (nesting costs no native stack); scalars are slices of the text until they become values, so only strings
//! and keys are allocated, and containers once at their size.

use std::borrow::Cow;

use binspec_runtime::{Error, Result};

use super::super::{text_error, Byml, HashArray, Map};
use super::scalar::{
    canonical_f64, decode_base64, f32_from_f64, int_in_range, parse_float, parse_hash_key,
    parse_hex, parse_int_literal, resolve_plain, IntType, Tag, KNOWN_TAGS, MAX_DEPTH,
};

/// Reads the root of a YAML document (the header comment, if any, is a comment here).
pub(super) fn parse_yaml(text: &str) -> Result<Byml> {
    let mut p = Parser {
        text,
        s: text.as_bytes(),
        pos: 0,
        anchors: Vec::new(),
        map_pool: Vec::new(),
        seq_pool: Vec::new(),
        alias_nodes: 0,
        // Aliases copy nodes: a few levels of aliases of aliases could otherwise make a tree of billions of nodes.
        alias_limit: 100_000 + 16 * text.len(),
    };
    if text.starts_with('\u{feff}') {
        p.pos = 3;
    }
    p.document()
}

/// Bytes that end a run of plain scalar characters in block context (then examined one by one).
static BLOCK_STOP: [bool; 256] = stop_table(false);
/// ... and in flow context.
static FLOW_STOP: [bool; 256] = stop_table(true);

const fn stop_table(flow: bool) -> [bool; 256] {
    let mut t = [false; 256];
    t[b'\n' as usize] = true;
    t[b'\r' as usize] = true;
    t[b':' as usize] = true;
    t[b'#' as usize] = true;
    if flow {
        t[b',' as usize] = true;
        t[b'[' as usize] = true;
        t[b']' as usize] = true;
        t[b'{' as usize] = true;
        t[b'}' as usize] = true;
    }
    t
}

fn is_flow_indicator(c: u8) -> bool {
    matches!(c, b',' | b'[' | b']' | b'{' | b'}')
}

/// A node's properties: its tag and anchor.
#[derive(Clone, Copy, Default)]
struct Props<'a> {
    tag: Option<Tag>,
    tag_name: &'a str,
    tag_pos: usize,
    anchor: Option<&'a str>,
    anchor_pos: usize,
}

impl Props<'_> {
    fn is_empty(&self) -> bool {
        self.tag.is_none() && self.anchor.is_none()
    }
    fn pos(&self) -> usize {
        if self.tag.is_some() {
            self.tag_pos
        } else {
            self.anchor_pos
        }
    }
}

/// A mapping key, where it is (for errors).
struct Key<'a> {
    text: Cow<'a, str>,
    pos: usize,
    /// In a block mapping, whether `pos` is now at the `:` before its value (false for an explicit key `? k`
    /// without a `: v` line, whose value is empty).
    colon: bool,
}

/// A mapping being read: the entries of a dictionary (with where their keys are, for errors about duplicates), or
/// a hash array (whose keys are hex hashes). Entries are gathered in vectors reused from container to container,
/// so that the dictionary is made once, at its size.
enum MapBuilder {
    Map {
        entries: Vec<(String, Byml, usize)>,
        remap: bool,
    },
    Hash(HashArray),
}

/// What parsing a node gives: a finished node, or a container that was opened (whose children follow).
enum Step<'a> {
    Value(Byml),
    Open(Frame<'a>),
}

/// A container being read.
struct Frame<'a> {
    kind: Kind<'a>,
    props: Props<'a>,
    /// Where it starts, for errors.
    pos: usize,
    /// A flow collection that started on a line of block context: the rest of that line is checked after it.
    end_line: bool,
}

enum Kind<'a> {
    BlockMap {
        indent: usize,
        map: MapBuilder,
        key: Option<Key<'a>>,
    },
    BlockSeq {
        indent: usize,
        mono: bool,
        items: Vec<Byml>,
    },
    FlowSeq {
        mono: bool,
        items: Vec<Byml>,
    },
    FlowMap {
        map: MapBuilder,
        key: Option<Key<'a>>,
    },
    /// `[key: value]`: a one-entry dictionary in a flow sequence.
    FlowPair {
        key: String,
        value: Option<Byml>,
    },
}

enum Chomp {
    Clip,
    Strip,
    Keep,
}

struct Parser<'a> {
    text: &'a str,
    s: &'a [u8],
    pos: usize,
    /// Anchored nodes, latest last, with their node counts.
    anchors: Vec<(&'a str, Byml, usize)>,
    /// Nodes copied by aliases so far, and the most allowed.
    alias_nodes: usize,
    alias_limit: usize,
    /// Emptied vectors kept for the next containers.
    map_pool: Vec<Vec<(String, Byml, usize)>>,
    seq_pool: Vec<Vec<Byml>>,
}

impl<'a> Parser<'a> {
    // -----------------------------------------------------------------------------------------------------------
    // Positions, errors, characters.

    fn error(&self, pos: usize, msg: impl std::fmt::Display) -> Error {
        let pos = pos.min(self.s.len());
        let before = &self.s[..pos];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let col = match self.text.get(line_start..pos) {
            Some(t) => t.chars().count(),
            None => pos - line_start,
        } + 1;
        text_error(line, col, msg)
    }

    fn err<T>(&self, pos: usize, msg: impl std::fmt::Display) -> Result<T> {
        Err(self.error(pos, msg))
    }

    /// The text between two byte positions, which are always at ASCII characters or the ends.
    fn slice(&self, start: usize, end: usize) -> &'a str {
        self.text.get(start..end).unwrap_or("")
    }

    /// The byte at `i`, or 0 past the end.
    fn at(&self, i: usize) -> u8 {
        self.s.get(i).copied().unwrap_or(0)
    }

    fn peek(&self) -> u8 {
        self.at(self.pos)
    }

    fn eof(&self) -> bool {
        self.pos >= self.s.len()
    }

    /// A space, tab, line break or the end of the text.
    fn is_blank_at(&self, i: usize) -> bool {
        matches!(self.s.get(i), None | Some(b' ' | b'\t' | b'\n' | b'\r'))
    }

    fn is_blank_or_flow_indicator_at(&self, i: usize) -> bool {
        self.is_blank_at(i) || is_flow_indicator(self.at(i))
    }

    /// Whether a tag or anchor ends before `i`: at a blank, or in flow context at a flow indicator.
    fn ends_token(&self, i: usize, flow: bool) -> bool {
        self.is_blank_at(i) || (flow && is_flow_indicator(self.at(i)))
    }

    /// `- ` (or `-` at the end of a line): a block sequence entry.
    fn is_seq_entry(&self, i: usize) -> bool {
        self.at(i) == b'-' && self.is_blank_at(i + 1)
    }

    /// `---` or `...` at `i` (a line start), followed by a blank.
    fn at_document_marker(&self, i: usize) -> bool {
        let m = self.s.get(i..i + 3);
        (m == Some(b"---") || m == Some(b"...")) && self.is_blank_at(i + 3)
    }

    /// The column of a position: bytes since the line start (the text before it on its line is indentation and
    /// indicators, all ASCII).
    fn column(&self, pos: usize) -> usize {
        pos - self.s[..pos]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1)
    }

    fn skip_ws(&mut self) {
        while matches!(self.s.get(self.pos), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    /// Whether a comment may start at `i`: at a line start or after white space.
    fn comment_can_start(&self, i: usize) -> bool {
        i == 0 || matches!(self.s[i - 1], b' ' | b'\t' | b'\n' | b'\r')
    }

    /// At the end of the line's content: the end of the text, a line break or a comment.
    fn at_line_end(&self) -> bool {
        match self.s.get(self.pos) {
            None | Some(b'\n' | b'\r') => true,
            Some(b'#') => self.comment_can_start(self.pos),
            _ => false,
        }
    }

    fn skip_break(&mut self) {
        match self.s.get(self.pos) {
            Some(b'\r') => {
                self.pos += 1;
                if self.s.get(self.pos) == Some(&b'\n') {
                    self.pos += 1;
                }
            }
            Some(b'\n') => self.pos += 1,
            _ => {}
        }
    }

    fn skip_to_break(&mut self) {
        while !matches!(self.s.get(self.pos), None | Some(b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Ends a line: white space, an optional comment, the line break (or the end of the text).
    fn end_of_line(&mut self) -> Result<()> {
        self.skip_ws();
        match self.s.get(self.pos) {
            None => Ok(()),
            Some(b'\n' | b'\r') => {
                self.skip_break();
                Ok(())
            }
            Some(b'#') if self.comment_can_start(self.pos) => {
                self.skip_to_break();
                self.skip_break();
                Ok(())
            }
            Some(b':') => self.err(
                self.pos,
                "unexpected ':': a value cannot be followed by a key on the same line (quote text that contains ': ')",
            ),
            Some(_) => self.err(self.pos, "unexpected text after the value"),
        }
    }

    /// From the start of a line, skips blank lines and comment lines. Returns the indentation of the next line
    /// that has content, leaving `pos` at the start of that line; `None` at the end of the text or at a document
    /// marker (`---` or `...` at column 0), leaving `pos` there.
    fn next_line(&mut self) -> Result<Option<usize>> {
        loop {
            let start = self.pos;
            let mut i = start;
            while self.s.get(i) == Some(&b' ') {
                i += 1;
            }
            match self.s.get(i) {
                None => {
                    self.pos = i;
                    return Ok(None);
                }
                Some(b'\n' | b'\r') => {
                    self.pos = i;
                    self.skip_break();
                }
                Some(b'#') => {
                    self.pos = i;
                    self.skip_to_break();
                    self.skip_break();
                }
                Some(b'\t') => {
                    let mut j = i;
                    while matches!(self.s.get(j), Some(b' ' | b'\t')) {
                        j += 1;
                    }
                    if !matches!(self.s.get(j), None | Some(b'\n' | b'\r' | b'#')) {
                        return self.err(i, "a tab cannot indent YAML: use spaces");
                    }
                    self.pos = j;
                }
                Some(_) => {
                    self.pos = start;
                    let indent = i - start;
                    if indent == 0 && self.at_document_marker(start) {
                        return Ok(None);
                    }
                    return Ok(Some(indent));
                }
            }
        }
    }

    // -----------------------------------------------------------------------------------------------------------
    // The document, and the machine that builds containers.

    fn document(&mut self) -> Result<Byml> {
        let mut directive = None;
        while let Some(0) = self.next_line()? {
            if self.peek() != b'%' {
                break;
            }
            if self.s[self.pos..].starts_with(b"%TAG") {
                return self.err(self.pos, "%TAG directives are not supported");
            }
            directive = Some(self.pos);
            self.skip_to_break();
            self.skip_break();
        }
        let first = if self.s[self.pos..].starts_with(b"---") && self.at_document_marker(self.pos) {
            self.pos += 3;
            self.after_document_start()?
        } else if let Some(d) = directive {
            return self.err(d, "a directive must be followed by '---'");
        } else {
            match self.next_line()? {
                Some(indent) => {
                    self.pos += indent;
                    self.block_node(indent, -1, Props::default())?
                }
                None => Step::Value(Byml::Null),
            }
        };
        let root = self.run(first)?;
        match self.next_line()? {
            None if self.eof() => Ok(root),
            None if self.s[self.pos..].starts_with(b"...") => {
                self.pos += 3;
                self.end_of_line()?;
                match self.next_line()? {
                    None if self.eof() => Ok(root),
                    _ => self.err(self.pos, "only one YAML document is supported"),
                }
            }
            None => self.err(self.pos, "only one YAML document is supported"),
            Some(indent) => self.err(
                self.pos + indent,
                "unexpected content after the document's root (bad indentation?)",
            ),
        }
    }

    /// After `---`: the root on the same line, or on the next lines.
    fn after_document_start(&mut self) -> Result<Step<'a>> {
        self.skip_ws();
        let props = self.maybe_properties(false)?;
        if !self.at_line_end() {
            return self.inline_value(-1, props);
        }
        self.end_of_line()?;
        match self.next_line()? {
            Some(indent) => {
                self.pos += indent;
                self.block_node(indent, -1, props)
            }
            None if props.is_empty() => Ok(Step::Value(Byml::Null)),
            None => self.scalar_step(Cow::Borrowed(""), false, props, self.pos),
        }
    }

    /// Builds the node that `step` starts: containers are frames on an explicit stack, so that nesting costs no
    /// native stack (the depth is limited to [`MAX_DEPTH`] with an error).
    fn run(&mut self, mut step: Step<'a>) -> Result<Byml> {
        let mut stack: Vec<Frame<'a>> = Vec::new();
        loop {
            let next = match step {
                Step::Open(frame) => {
                    if stack.len() >= MAX_DEPTH {
                        return self.err(
                            frame.pos,
                            format!("containers are nested deeper than {MAX_DEPTH} levels"),
                        );
                    }
                    stack.push(frame);
                    match stack.last_mut() {
                        Some(top) => self.first_child(top)?,
                        None => None,
                    }
                }
                Step::Value(v) => {
                    let Some(top) = stack.last_mut() else {
                        return Ok(v);
                    };
                    self.accept(top, v)?;
                    self.next_child(top)?
                }
            };
            step = match next {
                Some(s) => s,
                None => match stack.pop() {
                    Some(frame) => self.close(frame)?,
                    None => return self.err(self.pos, "internal error: no open container"),
                },
            };
        }
    }

    /// The first child of a container just opened, or `None` when it is empty.
    fn first_child(&mut self, top: &mut Frame<'a>) -> Result<Option<Step<'a>>> {
        let open = top.pos;
        Ok(match &mut top.kind {
            Kind::BlockMap { indent, key, .. } => {
                let colon = key.as_ref().is_some_and(|k| k.colon);
                Some(self.value_after_key(*indent, colon)?)
            }
            Kind::BlockSeq { indent, .. } => {
                self.pos += 1; // '-'
                Some(self.seq_entry(*indent)?)
            }
            Kind::FlowSeq { .. } => {
                self.pos += 1; // '['
                self.flow_seq_next(open)?
            }
            Kind::FlowMap { key, .. } => {
                self.pos += 1; // '{'
                self.flow_map_next(open, key)?
            }
            Kind::FlowPair { .. } => Some(self.flow_pair_value()?),
        })
    }

    /// Adds a finished child to its container.
    fn accept(&mut self, top: &mut Frame<'a>, v: Byml) -> Result<()> {
        match &mut top.kind {
            Kind::BlockMap { map, key, .. } | Kind::FlowMap { map, key } => match key.take() {
                Some(k) => self.insert(map, k, v),
                None => self.err(self.pos, "internal error: a value without a key"),
            },
            Kind::BlockSeq { items, .. } | Kind::FlowSeq { items, .. } => {
                items.push(v);
                Ok(())
            }
            Kind::FlowPair { value, .. } => {
                *value = Some(v);
                Ok(())
            }
        }
    }

    /// The next child of a container after one was added, or `None` at its end.
    fn next_child(&mut self, top: &mut Frame<'a>) -> Result<Option<Step<'a>>> {
        let open = top.pos;
        match &mut top.kind {
            Kind::BlockMap { indent, key, .. } => match self.next_line()? {
                Some(i) if i == *indent => {
                    self.pos += i;
                    let k = if self.peek() == b'?' && self.is_blank_at(self.pos + 1) {
                        self.explicit_key(*indent)?
                    } else {
                        self.block_key()?
                    };
                    let colon = k.colon;
                    *key = Some(k);
                    Ok(Some(self.value_after_key(*indent, colon)?))
                }
                Some(i) if i > *indent => self.err(
                    self.pos + i,
                    "bad indentation: this line is indented more than the keys of its mapping",
                ),
                _ => Ok(None),
            },
            Kind::BlockSeq { indent, .. } => match self.next_line()? {
                Some(i) if i == *indent && self.is_seq_entry(self.pos + i) => {
                    self.pos += i + 1;
                    Ok(Some(self.seq_entry(*indent)?))
                }
                Some(i) if i > *indent => self.err(
                    self.pos + i,
                    "bad indentation: this line is indented more than the '-' of its sequence",
                ),
                _ => Ok(None),
            },
            Kind::FlowSeq { .. } => {
                self.skip_flow_ws();
                match self.peek() {
                    b',' => {
                        self.pos += 1;
                        self.flow_seq_next(open)
                    }
                    b']' => {
                        self.pos += 1;
                        Ok(None)
                    }
                    _ if self.eof() => self.err(open, "unterminated flow sequence: missing ']'"),
                    _ => self.err(self.pos, "expected ',' or ']' in a flow sequence"),
                }
            }
            Kind::FlowMap { key, .. } => {
                self.skip_flow_ws();
                match self.peek() {
                    b',' => {
                        self.pos += 1;
                        self.flow_map_next(open, key)
                    }
                    b'}' => {
                        self.pos += 1;
                        Ok(None)
                    }
                    _ if self.eof() => self.err(open, "unterminated flow mapping: missing '}'"),
                    _ => self.err(self.pos, "expected ',' or '}' in a flow mapping"),
                }
            }
            Kind::FlowPair { .. } => Ok(None),
        }
    }

    /// The node of a finished container.
    fn close(&mut self, frame: Frame<'a>) -> Result<Step<'a>> {
        let node = match frame.kind {
            Kind::BlockMap { map, .. } | Kind::FlowMap { map, .. } => self.finish_map(map)?,
            Kind::BlockSeq {
                mono, mut items, ..
            }
            | Kind::FlowSeq { mono, mut items } => {
                // At its size; the gathering vector is kept for the next sequence.
                let mut exact = Vec::with_capacity(items.len());
                exact.append(&mut items);
                self.seq_pool.push(items);
                if mono {
                    Byml::MonoArray(exact)
                } else {
                    Byml::Array(exact)
                }
            }
            Kind::FlowPair { key, value } => {
                let mut map = Map::default();
                map.insert(key, value.unwrap_or_default());
                Byml::Map(map)
            }
        };
        let node = if frame.props.anchor.is_some() {
            self.anchor(frame.props, node)
        } else {
            node
        };
        if frame.end_line {
            self.skip_ws();
            if self.peek() == b':' {
                return self.err(self.pos, "flow collections cannot be keys");
            }
            self.end_of_line()?;
        }
        Ok(Step::Value(node))
    }

    fn open_flow(&mut self, props: Props<'a>, end_line: bool) -> Result<Step<'a>> {
        let kind = if self.peek() == b'[' {
            Kind::FlowSeq {
                mono: self.is_mono(props)?,
                items: self.seq_pool.pop().unwrap_or_default(),
            }
        } else {
            Kind::FlowMap {
                map: self.map_builder(props)?,
                key: None,
            }
        };
        Ok(Step::Open(Frame {
            kind,
            props,
            pos: self.pos,
            end_line,
        }))
    }

    /// Whether the tag of a sequence makes it a mono-typed array.
    fn is_mono(&self, props: Props<'a>) -> Result<bool> {
        match props.tag {
            None | Some(Tag::Seq) => Ok(false),
            Some(Tag::Mono) => Ok(true),
            Some(_) => self.err(
                props.tag_pos,
                format!("{} cannot tag a sequence", props.tag_name),
            ),
        }
    }

    // -----------------------------------------------------------------------------------------------------------
    // Block structure.

    /// A node that starts at `pos`, the start of its line's content or the content after `- `. `indent` is its
    /// column (a collection that starts here has this indentation); `parent` is the indentation of the enclosing
    /// collection (-1 for the root): the lines of a multi-line scalar must be indented more. `props` came on an
    /// earlier line (`key: !remap` and the mapping below it).
    fn block_node(&mut self, indent: usize, parent: isize, props: Props<'a>) -> Result<Step<'a>> {
        let c = self.peek();
        match c {
            b'-' if self.is_blank_at(self.pos + 1) => Ok(Step::Open(Frame {
                kind: Kind::BlockSeq {
                    indent,
                    mono: self.is_mono(props)?,
                    items: self.seq_pool.pop().unwrap_or_default(),
                },
                props,
                pos: self.pos,
                end_line: false,
            })),
            b'?' if self.is_blank_at(self.pos + 1) => {
                let pos = self.pos;
                let key = self.explicit_key(indent)?;
                Ok(Step::Open(Frame {
                    kind: Kind::BlockMap {
                        indent,
                        map: self.map_builder(props)?,
                        key: Some(key),
                    },
                    props,
                    pos,
                    end_line: false,
                }))
            }
            b'!' | b'&' => {
                let inner = self.properties(false)?;
                if !self.at_line_end() {
                    return self.scalar_or_mapping(indent, parent, props, inner);
                }
                if !props.is_empty() {
                    return self.err(inner.pos(), "a node cannot have two tags or anchors");
                }
                self.end_of_line()?;
                match self.next_line()? {
                    // Not a container level: the properties are on their own line (at most once, see above).
                    Some(i) if i as isize > parent => {
                        self.pos += i;
                        self.block_node(i, parent, inner)
                    }
                    _ => self.scalar_step(Cow::Borrowed(""), false, inner, self.pos),
                }
            }
            _ => self.scalar_or_mapping(indent, parent, props, Props::default()),
        }
    }

    /// A scalar, or the first key of a block mapping at `indent`. `outer` are properties from an earlier line (of
    /// the mapping, or of the scalar); `inner` are those just before (of the key, or of the scalar).
    fn scalar_or_mapping(
        &mut self,
        indent: usize,
        parent: isize,
        outer: Props<'a>,
        inner: Props<'a>,
    ) -> Result<Step<'a>> {
        let start = self.pos;
        let (text, quoted) = match self.peek() {
            b'"' => (self.double_quoted()?, true),
            b'\'' => (self.single_quoted()?, true),
            b'[' | b'{' | b'|' | b'>' | b'*' => {
                let props = self.merge(outer, inner)?;
                return self.inline_value(parent, props);
            }
            b'-' if self.is_blank_at(start + 1) => {
                return self.err(
                    start,
                    "a block sequence cannot start on the line of its tag or anchor",
                );
            }
            b'?' if self.is_blank_at(start + 1) => {
                return self.err(start, "explicit keys ('? ') are not supported");
            }
            _ => {
                self.check_plain_start()?;
                (Cow::Borrowed(self.plain_line(false)), false)
            }
        };
        self.skip_ws();
        if self.peek() == b':' && self.is_blank_at(self.pos + 1) {
            if !quoted && text.is_empty() {
                return self.err(start, "expected a key before ':'");
            }
            self.anchor_key(inner, &text);
            return Ok(Step::Open(Frame {
                kind: Kind::BlockMap {
                    indent,
                    map: self.map_builder(outer)?,
                    key: Some(Key {
                        text,
                        pos: start,
                        colon: true,
                    }),
                },
                props: outer,
                pos: start,
                end_line: false,
            }));
        }
        let props = self.merge(outer, inner)?;
        let text = match text {
            Cow::Borrowed(first) if !quoted => self.plain_more(parent, first)?,
            text => text,
        };
        self.end_of_line()?;
        self.scalar_step(text, quoted, props, start)
    }

    fn merge(&self, outer: Props<'a>, inner: Props<'a>) -> Result<Props<'a>> {
        if outer.is_empty() {
            Ok(inner)
        } else if inner.is_empty() {
            Ok(outer)
        } else {
            self.err(inner.pos(), "a node cannot have two tags or anchors")
        }
    }

    /// The value of the key just read in a block mapping at `indent`: after its `:`, else empty.
    fn value_after_key(&mut self, indent: usize, colon: bool) -> Result<Step<'a>> {
        if colon {
            self.pos += 1;
            self.block_value(indent)
        } else {
            self.scalar_step(Cow::Borrowed(""), false, Props::default(), self.pos)
        }
    }

    /// An explicit key, `? key` (which roead writes for keys with line breaks or leading spaces), in a mapping at
    /// `indent`: a scalar on the line of the `?` or indented below it, then optionally a line `: value` at the
    /// mapping's indentation. Leaves `pos` at that `:`, or at the start of the next line when there is none.
    fn explicit_key(&mut self, indent: usize) -> Result<Key<'a>> {
        let start = self.pos;
        self.pos += 1;
        self.skip_ws();
        if self.at_line_end() {
            self.end_of_line()?;
            match self.next_line()? {
                Some(i) if i > indent => self.pos += i,
                _ => return self.err(start, "expected a key after '?'"),
            }
        }
        let props = self.maybe_properties(false)?;
        let text = match self.peek() {
            b'|' | b'>' => match self.block_scalar(indent as isize, Props::default())? {
                Byml::String(t) => Cow::Owned(t.into_string()),
                _ => return self.err(start, "expected a key after '?'"),
            },
            b'"' | b'\'' => {
                let t = if self.peek() == b'"' {
                    self.double_quoted()?
                } else {
                    self.single_quoted()?
                };
                self.end_of_line()?;
                t
            }
            b'[' | b'{' | b'*' | b'?' => {
                return self.err(self.pos, "only scalars can be keys");
            }
            b'-' if self.is_blank_at(self.pos + 1) => {
                return self.err(self.pos, "only scalars can be keys");
            }
            _ => {
                self.check_plain_start()?;
                let first = self.plain_line(false);
                let t = self.plain_more(indent as isize, first)?;
                self.skip_ws();
                if self.peek() == b':' && self.is_blank_at(self.pos + 1) {
                    return self.err(self.pos, "only scalars can be keys");
                }
                self.end_of_line()?;
                t
            }
        };
        self.anchor_key(props, &text);
        // The value: a `:` line at the mapping's indentation.
        let mut colon = false;
        if let Some(i) = self.next_line()? {
            let at = self.pos + i;
            if i == indent && self.at(at) == b':' && self.is_blank_at(at + 1) {
                self.pos = at;
                colon = true;
            }
        }
        Ok(Key {
            text,
            pos: start,
            colon,
        })
    }

    /// A key of a block mapping after its first, up to its `:`.
    fn block_key(&mut self) -> Result<Key<'a>> {
        let start = self.pos;
        match self.peek() {
            b'-' if self.is_blank_at(start + 1) => {
                return self.err(start, "expected a key (key: value), found a sequence entry");
            }
            b'?' if self.is_blank_at(start + 1) => {
                return self.err(start, "explicit keys ('? ') are not supported");
            }
            b'[' | b'{' => return self.err(start, "flow collections cannot be keys"),
            b'*' => return self.err(start, "aliases cannot be keys"),
            b'|' | b'>' => return self.err(start, "block scalars cannot be keys"),
            _ => {}
        }
        let props = self.maybe_properties(false)?;
        let key_start = self.pos;
        let (text, quoted) = match self.peek() {
            b'"' => (self.double_quoted()?, true),
            b'\'' => (self.single_quoted()?, true),
            _ => {
                self.check_plain_start()?;
                (Cow::Borrowed(self.plain_line(false)), false)
            }
        };
        self.skip_ws();
        if !(self.peek() == b':' && self.is_blank_at(self.pos + 1)) || (!quoted && text.is_empty())
        {
            return self.err(
                if quoted || !text.is_empty() {
                    self.pos
                } else {
                    key_start
                },
                "expected 'key: value' (a key, then ':' and a space)",
            );
        }
        self.anchor_key(props, &text);
        Ok(Key {
            text,
            pos: start,
            colon: true,
        })
    }

    /// The value after `key:` of a mapping at `indent`: on the same line, or on the lines below (indented more,
    /// or a sequence at the same indentation).
    fn block_value(&mut self, indent: usize) -> Result<Step<'a>> {
        self.skip_ws();
        let props = self.maybe_properties(false)?;
        if !self.at_line_end() {
            return self.inline_value(indent as isize, props);
        }
        let here = self.pos;
        self.end_of_line()?;
        match self.next_line()? {
            Some(i) if i > indent => {
                self.pos += i;
                self.block_node(i, indent as isize, props)
            }
            Some(i) if i == indent && self.is_seq_entry(self.pos + i) => {
                self.pos += i;
                self.block_node(i, indent as isize, props)
            }
            _ => self.scalar_step(Cow::Borrowed(""), false, props, here),
        }
    }

    /// A value that starts on the line of its key (or after `---`): an alias, a flow collection, a block scalar, a
    /// quoted or plain scalar. Block collections cannot start there.
    fn inline_value(&mut self, parent: isize, props: Props<'a>) -> Result<Step<'a>> {
        let start = self.pos;
        match self.peek() {
            b'*' => {
                if !props.is_empty() {
                    return self.err(start, "an alias cannot have a tag or anchor");
                }
                let v = self.alias()?;
                self.end_of_line()?;
                Ok(Step::Value(v))
            }
            b'[' | b'{' => self.open_flow(props, true),
            b'|' | b'>' => Ok(Step::Value(self.block_scalar(parent, props)?)),
            b'-' if self.is_blank_at(start + 1) => self.err(
                start,
                "a block sequence cannot start on the line of its key: start it on the next line",
            ),
            b'?' if self.is_blank_at(start + 1) => {
                self.err(start, "explicit keys ('? ') are not supported")
            }
            b'"' | b'\'' => {
                let text = if self.peek() == b'"' {
                    self.double_quoted()?
                } else {
                    self.single_quoted()?
                };
                self.end_of_line()?;
                self.scalar_step(text, true, props, start)
            }
            _ => {
                self.check_plain_start()?;
                let first = self.plain_line(false);
                let text = self.plain_more(parent, first)?;
                self.end_of_line()?;
                self.scalar_step(text, false, props, start)
            }
        }
    }

    /// The entry after a `-` of a sequence at `indent`.
    fn seq_entry(&mut self, indent: usize) -> Result<Step<'a>> {
        self.skip_ws();
        if !self.at_line_end() {
            let col = self.column(self.pos);
            return self.block_node(col, indent as isize, Props::default());
        }
        let here = self.pos;
        self.end_of_line()?;
        match self.next_line()? {
            Some(i) if i > indent => {
                self.pos += i;
                self.block_node(i, indent as isize, Props::default())
            }
            _ => self.scalar_step(Cow::Borrowed(""), false, Props::default(), here),
        }
    }

    // -----------------------------------------------------------------------------------------------------------
    // Properties, anchors, aliases.

    fn maybe_properties(&mut self, flow: bool) -> Result<Props<'a>> {
        if matches!(self.peek(), b'!' | b'&') {
            self.properties(flow)
        } else {
            Ok(Props::default())
        }
    }

    /// A tag, an anchor, or both (in either order), and the white space after them.
    fn properties(&mut self, flow: bool) -> Result<Props<'a>> {
        let mut p = Props::default();
        loop {
            let start = self.pos;
            match self.peek() {
                b'!' if p.tag.is_none() => {
                    if self.at(start + 1) == b'<' {
                        let mut i = start + 2;
                        while !matches!(self.s.get(i), None | Some(b'>' | b'\n' | b'\r')) {
                            i += 1;
                        }
                        if self.at(i) != b'>' {
                            return self.err(start, "unterminated verbatim tag (missing '>')");
                        }
                        self.pos = i + 1;
                    } else {
                        let mut i = start + 1;
                        while !self.ends_token(i, flow) {
                            i += 1;
                        }
                        self.pos = i;
                    }
                    let name = self.slice(start, self.pos);
                    let Some(tag) = Tag::from_name(name) else {
                        if name == "!h" || name == "!vh" {
                            return self.err(
                                start,
                                format!(
                                    "roead's {name} hash maps are not supported: write hash arrays as \
                                     !hash<W> {{0xHASH: value}}"
                                ),
                            );
                        }
                        return self.err(
                            start,
                            format!("unknown tag {name} (known tags: {KNOWN_TAGS})"),
                        );
                    };
                    p.tag = Some(tag);
                    p.tag_name = name;
                    p.tag_pos = start;
                }
                b'&' if p.anchor.is_none() => {
                    let mut i = start + 1;
                    while !self.is_blank_at(i) && !is_flow_indicator(self.at(i)) {
                        i += 1;
                    }
                    if i == start + 1 {
                        return self.err(start, "an anchor needs a name");
                    }
                    p.anchor = Some(self.slice(start + 1, i));
                    p.anchor_pos = start;
                    self.pos = i;
                }
                b'!' | b'&' => return self.err(start, "a node cannot have two tags or anchors"),
                _ => return Ok(p),
            }
            if !self.ends_token(self.pos, flow) {
                return self.err(self.pos, "expected a space after the tag or anchor");
            }
            if flow {
                self.skip_flow_ws();
            } else {
                self.skip_ws();
            }
        }
    }

    /// Records an anchored node.
    fn anchor(&mut self, props: Props<'a>, node: Byml) -> Byml {
        if let Some(name) = props.anchor {
            let n = node.count_nodes();
            self.anchors.push((name, node.clone(), n));
        }
        node
    }

    /// An anchor on a key anchors the key's text.
    fn anchor_key(&mut self, props: Props<'a>, key: &str) {
        if let Some(name) = props.anchor {
            self.anchors.push((name, Byml::String(key.into()), 1));
        }
    }

    /// `*name`: a copy of the node anchored last with that name.
    fn alias(&mut self) -> Result<Byml> {
        let start = self.pos;
        let mut i = start + 1;
        while !self.is_blank_at(i) && !is_flow_indicator(self.at(i)) {
            i += 1;
        }
        let name = self.slice(start + 1, i);
        self.pos = i;
        let Some((_, node, n)) = self.anchors.iter().rev().find(|(a, _, _)| *a == name) else {
            return self.err(start, format!("unknown anchor *{name}"));
        };
        self.alias_nodes += n;
        if self.alias_nodes > self.alias_limit {
            return self.err(start, "aliases expand to too many nodes");
        }
        let node = node.clone();
        self.skip_ws();
        if self.peek() == b':' {
            return self.err(start, "aliases cannot be keys");
        }
        Ok(node)
    }

    // -----------------------------------------------------------------------------------------------------------
    // Mappings.

    fn map_builder(&mut self, props: Props<'a>) -> Result<MapBuilder> {
        let remap = match props.tag {
            None | Some(Tag::Map) => false,
            Some(Tag::Remap) => true,
            Some(Tag::Hash { width, remap }) => {
                return Ok(MapBuilder::Hash(HashArray {
                    width,
                    remap,
                    entries: Vec::new(),
                }));
            }
            Some(_) => {
                return self.err(
                    props.tag_pos,
                    format!("{} cannot tag a mapping", props.tag_name),
                );
            }
        };
        Ok(MapBuilder::Map {
            entries: self.map_pool.pop().unwrap_or_default(),
            remap,
        })
    }

    fn insert(&self, map: &mut MapBuilder, key: Key<'a>, value: Byml) -> Result<()> {
        match map {
            MapBuilder::Map { entries, .. } => {
                entries.push((key.text.into_owned(), value, key.pos))
            }
            MapBuilder::Hash(h) => match parse_hash_key(&key.text) {
                Some(words) => h.entries.push((words, value)),
                None => {
                    return self.err(
                        key.pos,
                        format!(
                            "a hash array key is a hex hash like 0x0000abcd (words joined with '_'), not {:?}",
                            key.text
                        ),
                    );
                }
            },
        }
        Ok(())
    }

    fn finish_map(&mut self, map: MapBuilder) -> Result<Byml> {
        let (mut entries, remap) = match map {
            MapBuilder::Map { entries, remap } => (entries, remap),
            MapBuilder::Hash(h) => return Ok(Byml::HashArray(h)),
        };
        let mut map = Map::with_capacity(entries.len());
        for (k, v, pos) in entries.drain(..) {
            match map.entry(k) {
                crate::byml::map::Entry::Vacant(e) => {
                    e.insert(v);
                }
                crate::byml::map::Entry::Occupied(e) => {
                    return self.err(pos, format!("duplicate key {:?}", e.key()));
                }
            }
        }
        self.map_pool.push(entries);
        Ok(if remap {
            Byml::RemapMap(map)
        } else {
            Byml::Map(map)
        })
    }

    // -----------------------------------------------------------------------------------------------------------
    // Flow collections.

    /// Skips white space, line breaks and comments inside a flow collection.
    fn skip_flow_ws(&mut self) {
        loop {
            match self.s.get(self.pos) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                Some(b'#') if self.comment_can_start(self.pos) => self.skip_to_break(),
                _ => return,
            }
        }
    }

    /// After `[` or a `,` in a flow sequence: the next entry, or `None` at its `]`.
    fn flow_seq_next(&mut self, open: usize) -> Result<Option<Step<'a>>> {
        self.skip_flow_ws();
        match self.peek() {
            b']' => {
                self.pos += 1;
                Ok(None)
            }
            _ if self.eof() => self.err(open, "unterminated flow sequence: missing ']'"),
            b',' => self.err(self.pos, "empty entry in a flow sequence"),
            _ => self.flow_seq_entry().map(Some),
        }
    }

    /// An entry of a flow sequence: a node, or a single pair `key: value` (a one-entry dictionary).
    fn flow_seq_entry(&mut self) -> Result<Step<'a>> {
        let start = self.pos;
        let props = self.maybe_properties(true)?;
        match self.peek() {
            b'[' | b'{' => return self.open_flow(props, false),
            b'*' => {
                if !props.is_empty() {
                    return self.err(start, "an alias cannot have a tag or anchor");
                }
                return Ok(Step::Value(self.alias()?));
            }
            b',' | b']' => return self.scalar_step(Cow::Borrowed(""), false, props, start),
            _ => {}
        }
        let (text, quoted) = self.flow_scalar()?;
        self.skip_flow_ws();
        if self.peek() == b':' && (quoted || self.is_blank_or_flow_indicator_at(self.pos + 1)) {
            self.pos += 1;
            return Ok(Step::Open(Frame {
                kind: Kind::FlowPair {
                    key: text.into_owned(),
                    value: None,
                },
                props: Props::default(),
                pos: start,
                end_line: false,
            }));
        }
        self.scalar_step(text, quoted, props, start)
    }

    /// After `{` or a `,` in a flow mapping: the next key (into `key`) and the start of its value, or `None` at
    /// the mapping's `}`.
    fn flow_map_next(
        &mut self,
        open: usize,
        key: &mut Option<Key<'a>>,
    ) -> Result<Option<Step<'a>>> {
        self.skip_flow_ws();
        let start = self.pos;
        match self.peek() {
            b'}' => {
                self.pos += 1;
                return Ok(None);
            }
            _ if self.eof() => return self.err(open, "unterminated flow mapping: missing '}'"),
            b',' => return self.err(start, "empty entry in a flow mapping"),
            b'?' if self.is_blank_at(start + 1) => {
                return self.err(start, "explicit keys ('? ') are not supported");
            }
            b'[' | b'{' => return self.err(start, "flow collections cannot be keys"),
            b'*' => return self.err(start, "aliases cannot be keys"),
            _ => {}
        }
        let props = self.maybe_properties(true)?;
        let (text, quoted) = self.flow_scalar()?;
        self.anchor_key(props, &text);
        *key = Some(Key {
            text,
            pos: start,
            colon: true,
        });
        self.skip_flow_ws();
        if self.peek() == b':' && (quoted || self.is_blank_or_flow_indicator_at(self.pos + 1)) {
            self.pos += 1;
            self.flow_pair_value().map(Some)
        } else if matches!(self.peek(), b',' | b'}') {
            // `{a, b}`: keys without values, which oead reads as empty strings.
            Ok(Some(Step::Value(Byml::String(Default::default()))))
        } else if self.eof() {
            self.err(open, "unterminated flow mapping: missing '}'")
        } else {
            self.err(self.pos, "expected ':' after a key in a flow mapping")
        }
    }

    /// The value after `key:` in a flow collection (empty before `,` and closing brackets).
    fn flow_pair_value(&mut self) -> Result<Step<'a>> {
        self.skip_flow_ws();
        let start = self.pos;
        let props = self.maybe_properties(true)?;
        match self.peek() {
            b'[' | b'{' => self.open_flow(props, false),
            b'*' => {
                if !props.is_empty() {
                    return self.err(start, "an alias cannot have a tag or anchor");
                }
                Ok(Step::Value(self.alias()?))
            }
            b',' | b'}' | b']' => self.scalar_step(Cow::Borrowed(""), false, props, start),
            _ if self.eof() => self.err(start, "unexpected end of the text in a flow collection"),
            _ => {
                let (text, quoted) = self.flow_scalar()?;
                self.scalar_step(text, quoted, props, start)
            }
        }
    }

    /// A quoted or plain scalar in a flow collection.
    fn flow_scalar(&mut self) -> Result<(Cow<'a, str>, bool)> {
        let start = self.pos;
        match self.peek() {
            b'"' => Ok((self.double_quoted()?, true)),
            b'\'' => Ok((self.single_quoted()?, true)),
            c => {
                if self.eof()
                    || is_flow_indicator(c)
                    || matches!(c, b'#' | b'\n' | b'\r' | b'|' | b'>')
                    || (matches!(c, b'-' | b'?' | b':')
                        && self.is_blank_or_flow_indicator_at(start + 1))
                {
                    return self.err(start, "expected a value");
                }
                Ok((self.plain_flow()?, false))
            }
        }
    }

    // -----------------------------------------------------------------------------------------------------------
    // Scalars.

    /// Checks the first character of a plain scalar in block context.
    fn check_plain_start(&self) -> Result<()> {
        match self.peek() {
            _ if self.eof() => self.err(self.pos, "expected a value"),
            c @ (b',' | b']' | b'}') => self.err(self.pos, format!("unexpected '{}'", c as char)),
            b'\t' => self.err(self.pos, "unexpected tab"),
            _ => Ok(()),
        }
    }

    /// One line of a plain scalar from `pos`: up to the end of the line, a `:` before a blank, or a ` #` (in
    /// flow context also a flow indicator, or a `:` before one). Trailing white space is not part of it; `pos` is
    /// left after its last character.
    fn plain_line(&mut self, flow: bool) -> &'a str {
        let s = self.s;
        let start = self.pos;
        let table = if flow { &FLOW_STOP } else { &BLOCK_STOP };
        let mut i = start;
        loop {
            while i < s.len() && !table[s[i] as usize] {
                i += 1;
            }
            if i >= s.len() {
                break;
            }
            match s[i] {
                b':' => {
                    if self.is_blank_at(i + 1) || (flow && is_flow_indicator(self.at(i + 1))) {
                        break;
                    }
                    i += 1;
                }
                b'#' => {
                    if i > start && matches!(s[i - 1], b' ' | b'\t') {
                        break;
                    }
                    i += 1;
                }
                _ => break,
            }
        }
        let mut end = i;
        while end > start && matches!(s[end - 1], b' ' | b'\t') {
            end -= 1;
        }
        self.pos = end;
        self.slice(start, end)
    }

    /// From a line break at `i`: skips it and the empty lines after it, and the white space before the next
    /// content. Returns the number of line breaks, the position of the content and the indentation of its line
    /// (spaces only); the position is the end of the text when there is no more content.
    fn fold(&self, mut i: usize) -> (usize, usize, usize, usize) {
        let s = self.s;
        let mut breaks = 0;
        loop {
            match s.get(i) {
                Some(b'\r') => {
                    i += 1;
                    if s.get(i) == Some(&b'\n') {
                        i += 1;
                    }
                }
                Some(b'\n') => i += 1,
                _ => break,
            }
            breaks += 1;
            let line_start = i;
            while s.get(i) == Some(&b' ') {
                i += 1;
            }
            let indent = i - line_start;
            while matches!(s.get(i), Some(b' ' | b'\t')) {
                i += 1;
            }
            if !matches!(s.get(i), Some(b'\n' | b'\r')) {
                return (breaks, i, indent, line_start);
            }
        }
        (breaks, i, 0, i)
    }

    /// The lines that continue a plain scalar in block context: those indented more than `parent`, which are
    /// folded (one line break is a space, n > 1 are n-1 newlines). A comment ends the scalar.
    fn plain_more(&mut self, parent: isize, first: &'a str) -> Result<Cow<'a, str>> {
        let mut out: Option<String> = None;
        loop {
            let save = self.pos;
            self.skip_ws();
            if !matches!(self.s.get(self.pos), Some(b'\n' | b'\r')) {
                self.pos = save;
                break;
            }
            let (breaks, content, indent, line_start) = self.fold(self.pos);
            if content >= self.s.len()
                || indent as isize <= parent
                || self.s[content] == b'#'
                || (indent == 0 && self.at_document_marker(line_start))
            {
                self.pos = save;
                break;
            }
            self.pos = content;
            let line = self.plain_line(false);
            let after = self.pos;
            self.skip_ws();
            if self.peek() == b':' && self.is_blank_at(self.pos + 1) {
                return self.err(
                    content,
                    "a key in the lines of a multi-line plain scalar (bad indentation, or quote the text)",
                );
            }
            self.pos = after;
            let o = out.get_or_insert_with(|| first.to_owned());
            push_folded_breaks(o, breaks);
            o.push_str(line);
        }
        Ok(match out {
            Some(s) => Cow::Owned(s),
            None => Cow::Borrowed(first),
        })
    }

    /// A plain scalar in a flow collection, which may go on over several lines.
    fn plain_flow(&mut self) -> Result<Cow<'a, str>> {
        let first = self.plain_line(true);
        let mut out: Option<String> = None;
        loop {
            let save = self.pos;
            self.skip_ws();
            if !matches!(self.s.get(self.pos), Some(b'\n' | b'\r')) {
                self.pos = save;
                break;
            }
            let (breaks, content, indent, line_start) = self.fold(self.pos);
            let c = self.at(content);
            if content >= self.s.len()
                || is_flow_indicator(c)
                || c == b'#'
                || (c == b':' && self.is_blank_or_flow_indicator_at(content + 1))
                || (indent == 0 && self.at_document_marker(line_start))
            {
                self.pos = save;
                break;
            }
            self.pos = content;
            let line = self.plain_line(true);
            let o = out.get_or_insert_with(|| first.to_owned());
            push_folded_breaks(o, breaks);
            o.push_str(line);
        }
        Ok(match out {
            Some(s) => Cow::Owned(s),
            None => Cow::Borrowed(first),
        })
    }

    /// `'...'`: `''` is a quote; line breaks fold.
    fn single_quoted(&mut self) -> Result<Cow<'a, str>> {
        let s = self.s;
        let open = self.pos;
        let start = open + 1;
        let mut i = start;
        while i < s.len() && !matches!(s[i], b'\'' | b'\n' | b'\r') {
            i += 1;
        }
        if s.get(i) == Some(&b'\'') && s.get(i + 1) != Some(&b'\'') {
            self.pos = i + 1;
            return Ok(Cow::Borrowed(self.slice(start, i)));
        }
        let mut out = String::new();
        let mut run = start;
        let mut i = start;
        loop {
            match s.get(i) {
                None => return self.err(open, "unterminated single-quoted string"),
                Some(b'\'') => {
                    out.push_str(self.slice(run, i));
                    if s.get(i + 1) == Some(&b'\'') {
                        out.push('\'');
                        i += 2;
                        run = i;
                    } else {
                        self.pos = i + 1;
                        return Ok(Cow::Owned(out));
                    }
                }
                Some(b'\n' | b'\r') => {
                    out.push_str(self.slice(run, i));
                    let floor = out.len() - trailing_ws(self.slice(run, i));
                    out.truncate(floor);
                    let (breaks, next, _, _) = self.fold(i);
                    if next >= s.len() {
                        return self.err(open, "unterminated single-quoted string");
                    }
                    push_folded_breaks(&mut out, breaks);
                    i = next;
                    run = i;
                }
                Some(_) => i += 1,
            }
        }
    }

    /// `"..."`: escapes; line breaks fold, an escaped line break joins the lines.
    fn double_quoted(&mut self) -> Result<Cow<'a, str>> {
        let s = self.s;
        let open = self.pos;
        let start = open + 1;
        let mut i = start;
        while i < s.len() && !matches!(s[i], b'"' | b'\\' | b'\n' | b'\r') {
            i += 1;
        }
        if s.get(i) == Some(&b'"') {
            self.pos = i + 1;
            return Ok(Cow::Borrowed(self.slice(start, i)));
        }
        let mut out = String::new();
        let mut run = start;
        loop {
            match s.get(i) {
                None => return self.err(open, "unterminated double-quoted string"),
                Some(b'"') => {
                    out.push_str(self.slice(run, i));
                    self.pos = i + 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {
                    out.push_str(self.slice(run, i));
                    let e = self.at(i + 1);
                    let simple = match e {
                        b'0' => Some('\0'),
                        b'a' => Some('\x07'),
                        b'b' => Some('\x08'),
                        b't' | b'\t' => Some('\t'),
                        b'n' => Some('\n'),
                        b'v' => Some('\x0b'),
                        b'f' => Some('\x0c'),
                        b'r' => Some('\r'),
                        b'e' => Some('\x1b'),
                        b' ' => Some(' '),
                        b'"' => Some('"'),
                        b'/' => Some('/'),
                        b'\\' => Some('\\'),
                        b'N' => Some('\u{85}'),
                        b'_' => Some('\u{a0}'),
                        b'L' => Some('\u{2028}'),
                        b'P' => Some('\u{2029}'),
                        _ => None,
                    };
                    if let Some(c) = simple {
                        out.push(c);
                        i += 2;
                    } else if matches!(e, b'\n' | b'\r') {
                        // An escaped line break: the lines join without a space; empty lines after it are
                        // newlines.
                        let (breaks, next, _, _) = self.fold(i + 1);
                        if next >= s.len() {
                            return self.err(open, "unterminated double-quoted string");
                        }
                        for _ in 1..breaks {
                            out.push('\n');
                        }
                        i = next;
                    } else {
                        let digits = match e {
                            b'x' => 2,
                            b'u' => 4,
                            b'U' => 8,
                            _ if i + 1 >= s.len() => {
                                return self.err(open, "unterminated double-quoted string");
                            }
                            _ => {
                                let c = self
                                    .text
                                    .get(i + 1..)
                                    .and_then(|t| t.chars().next())
                                    .unwrap_or('?');
                                return self.err(i, format!("unknown escape \\{c}"));
                            }
                        };
                        let hex = s
                            .get(i + 2..i + 2 + digits)
                            .filter(|h| h.iter().all(u8::is_ascii_hexdigit));
                        let c = hex
                            .and_then(|h| std::str::from_utf8(h).ok())
                            .and_then(|h| u32::from_str_radix(h, 16).ok())
                            .and_then(char::from_u32);
                        match c {
                            Some(c) => out.push(c),
                            None => return self.err(i, format!("invalid escape \\{}", e as char)),
                        }
                        i += 2 + digits;
                    }
                    run = i;
                }
                Some(b'\n' | b'\r') => {
                    let line = self.slice(run, i);
                    out.push_str(&line[..line.len() - trailing_ws(line)]);
                    let (breaks, next, _, _) = self.fold(i);
                    if next >= s.len() {
                        return self.err(open, "unterminated double-quoted string");
                    }
                    push_folded_breaks(&mut out, breaks);
                    i = next;
                    run = i;
                }
                Some(_) => i += 1,
            }
        }
    }

    /// `|` or `>` with optional chomping (`-`, `+`) and indentation indicators, then the lines indented more
    /// than `parent`. Leaves `pos` at the start of the first line after the scalar.
    fn block_scalar(&mut self, parent: isize, props: Props<'a>) -> Result<Byml> {
        let start = self.pos;
        let literal = self.peek() == b'|';
        self.pos += 1;
        let mut chomp = Chomp::Clip;
        let mut explicit = None;
        for _ in 0..2 {
            match self.peek() {
                b'+' if matches!(chomp, Chomp::Clip) => chomp = Chomp::Keep,
                b'-' if matches!(chomp, Chomp::Clip) => chomp = Chomp::Strip,
                c @ b'1'..=b'9' if explicit.is_none() => explicit = Some((c - b'0') as usize),
                _ => break,
            }
            self.pos += 1;
        }
        if !self.is_blank_at(self.pos) {
            return self.err(
                self.pos,
                "expected a line break after the block scalar indicator",
            );
        }
        self.end_of_line()?;
        let s = self.s;
        // The content's indentation: explicit, else that of the first non-empty line.
        let indent = match explicit {
            Some(m) => (parent + m as isize).max(0) as usize,
            None => {
                let mut i = self.pos;
                loop {
                    let line = i;
                    while s.get(i) == Some(&b' ') {
                        i += 1;
                    }
                    match s.get(i) {
                        Some(b'\n') => i += 1,
                        Some(b'\r') => {
                            i += 1;
                            if s.get(i) == Some(&b'\n') {
                                i += 1;
                            }
                        }
                        _ => break i - line,
                    }
                }
            }
        };
        let indent = indent.max((parent + 1) as usize);
        // The lines: None for empty ones.
        let mut lines: Vec<Option<&'a str>> = Vec::new();
        loop {
            let line = self.pos;
            let mut i = line;
            while s.get(i) == Some(&b' ') {
                i += 1;
            }
            let mut end = i;
            while !matches!(s.get(end), None | Some(b'\n' | b'\r')) {
                end += 1;
            }
            if end == i && i - line <= indent {
                if end >= s.len() {
                    self.pos = end;
                    break;
                }
                lines.push(None);
            } else if i - line < indent || (line + 3 <= s.len() && self.at_document_marker(line)) {
                break;
            } else {
                lines.push(Some(self.slice(line + indent, end)));
            }
            self.pos = end;
            if self.eof() {
                break;
            }
            self.skip_break();
        }
        let Some(last) = lines.iter().rposition(Option::is_some) else {
            let n = lines.len();
            let text = match chomp {
                Chomp::Keep => "\n".repeat(n),
                _ => String::new(),
            };
            return self.scalar(Cow::Owned(text), true, props, start);
        };
        let trailing = lines.len() - 1 - last;
        let mut out = String::new();
        if literal {
            for (k, l) in lines[..=last].iter().enumerate() {
                if k > 0 {
                    out.push('\n');
                }
                out.push_str(l.unwrap_or(""));
            }
        } else {
            let mut prev_more: Option<bool> = None;
            let mut empties = 0;
            for l in &lines[..=last] {
                let Some(t) = l else {
                    empties += 1;
                    continue;
                };
                let more = t.starts_with([' ', '\t']);
                match prev_more {
                    None => (0..empties).for_each(|_| out.push('\n')),
                    Some(false) if !more && empties == 0 => out.push(' '),
                    Some(false) if !more => (0..empties).for_each(|_| out.push('\n')),
                    Some(_) => (0..=empties).for_each(|_| out.push('\n')),
                }
                out.push_str(t);
                prev_more = Some(more);
                empties = 0;
            }
        }
        match chomp {
            Chomp::Strip => {}
            Chomp::Clip => out.push('\n'),
            Chomp::Keep => (0..=trailing).for_each(|_| out.push('\n')),
        }
        self.scalar(Cow::Owned(out), true, props, start)
    }

    /// A scalar's value: by its tag, else a quoted scalar is a string and a plain one resolves as oead does.
    fn scalar(
        &mut self,
        text: Cow<'a, str>,
        quoted: bool,
        props: Props<'a>,
        pos: usize,
    ) -> Result<Byml> {
        let node = match props.tag {
            None if quoted => Byml::String(text.into()),
            None => match resolve_plain(&text) {
                Some(Ok(v)) => v,
                Some(Err(why)) => return self.err(pos, why),
                None => Byml::String(text.into()),
            },
            Some(tag) => self.tagged(tag, props, text, pos)?,
        };
        if props.anchor.is_some() {
            return Ok(self.anchor(props, node));
        }
        Ok(node)
    }

    fn scalar_step(
        &mut self,
        text: Cow<'a, str>,
        quoted: bool,
        props: Props<'a>,
        pos: usize,
    ) -> Result<Step<'a>> {
        self.scalar(text, quoted, props, pos).map(Step::Value)
    }

    fn tagged(&self, tag: Tag, props: Props<'a>, text: Cow<'a, str>, pos: usize) -> Result<Byml> {
        let name = props.tag_name;
        let bad = |what: &str| {
            self.err(
                pos.max(props.tag_pos),
                format!("{name} needs {what}, not {:?}", text.as_ref()),
            )
        };
        let int = |t: IntType| -> Result<i128> {
            let why = match parse_int_literal(&text) {
                Some(lit) => match int_in_range(lit, t) {
                    Ok(v) => return Ok(v),
                    Err(why) => why,
                },
                None => {
                    return Err(self.error(
                        pos.max(props.tag_pos),
                        format!("{name} needs an integer, not {:?}", text.as_ref()),
                    ))
                }
            };
            Err(self.error(
                pos.max(props.tag_pos),
                format!("{name} {:?} {why}", text.as_ref()),
            ))
        };
        Ok(match tag {
            Tag::U32 => Byml::U32(int(IntType::U32)? as u32),
            Tag::I64 => Byml::I64(int(IntType::S64)? as i64),
            Tag::U64 => Byml::U64(int(IntType::U64)? as u64),
            Tag::Int => Byml::I32(int(IntType::S32)? as i32),
            Tag::F32 | Tag::Float => Byml::F32(match parse_float(&text) {
                Some(v) => f32_from_f64(v),
                None => return bad("a number"),
            }),
            Tag::F64 => Byml::F64(match parse_float(&text) {
                Some(v) => canonical_f64(v),
                None => return bad("a number"),
            }),
            Tag::F32Bits => Byml::F32(match parse_hex(&text, 8) {
                Some(v) => f32::from_bits(v as u32),
                None => return bad("the bits of an f32 in hex (0x7fc00001)"),
            }),
            Tag::F64Bits => Byml::F64(match parse_hex(&text, 16) {
                Some(v) => f64::from_bits(v),
                None => return bad("the bits of an f64 in hex (0x7ff8000000000001)"),
            }),
            Tag::Binary => Byml::Binary(match decode_base64(&text) {
                Some(v) => v,
                None => return bad("base64 data"),
            }),
            Tag::AlignedBinary(align) => match decode_base64(&text) {
                Some(v) => Byml::AlignedBinary(v, align),
                None => return bad("base64 data"),
            },
            Tag::Str | Tag::NonSpecific => Byml::String(text.into()),
            Tag::Bool => match text.as_ref() {
                "true" | "True" | "TRUE" => Byml::Bool(true),
                "false" | "False" | "FALSE" => Byml::Bool(false),
                _ => return bad("true or false"),
            },
            Tag::Null => match text.as_ref() {
                "" | "null" | "Null" | "NULL" | "~" => Byml::Null,
                _ => return bad("null"),
            },
            Tag::Map | Tag::Remap | Tag::Hash { .. } => return bad("a mapping"),
            Tag::Seq | Tag::Mono => return bad("a sequence"),
        })
    }
}

/// The length of the white space at the end of `s`.
fn trailing_ws(s: &str) -> usize {
    s.len() - s.trim_end_matches([' ', '\t']).len()
}

/// Line folding: one line break is a space, n > 1 are n-1 newlines.
fn push_folded_breaks(out: &mut String, breaks: usize) {
    if breaks == 1 {
        out.push(' ');
    } else {
        for _ in 1..breaks {
            out.push('\n');
        }
    }
}
