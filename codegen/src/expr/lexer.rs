//! Tokenizer for Kaitai expressions.

use super::{ParseError, Span};

/// A part of an f-string.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum FPart {
    Lit(String),
    Expr(String, usize),
}

/// What a token is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Int(u64),
    Float(f64),
    Str(String),
    /// An f-string (`f"a={x}"`): its literal parts and its expressions (their source and where it starts).
    FStr(Vec<FPart>),
    /// Identifiers and keywords (`and`, `or`, `not`, `true`, `false`).
    Ident(String),
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Dot,
    ColonColon,
    Colon,
    Question,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Amp,
    Pipe,
    Caret,
    Tilde,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    EqEq,
    NotEq,
    Eof,
}

impl Tok {
    /// How the token is named in error messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::Int(v) => format!("integer {v}"),
            Tok::Float(v) => format!("number {v:?}"),
            Tok::Str(_) => "a string literal".to_owned(),
            Tok::FStr(_) => "an f-string".to_owned(),
            Tok::Ident(name) if super::parser::is_keyword(name) => format!("keyword '{name}'"),
            Tok::Ident(name) => format!("name '{name}'"),
            Tok::Eof => "end of input".to_owned(),
            other => format!("'{}'", other.punct()),
        }
    }

    /// Spelling of a punctuation token (empty for the others).
    pub(crate) fn punct(&self) -> &'static str {
        match self {
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Comma => ",",
            Tok::Dot => ".",
            Tok::ColonColon => "::",
            Tok::Colon => ":",
            Tok::Question => "?",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Percent => "%",
            Tok::Amp => "&",
            Tok::Pipe => "|",
            Tok::Caret => "^",
            Tok::Tilde => "~",
            Tok::Shl => "<<",
            Tok::Shr => ">>",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
            Tok::EqEq => "==",
            Tok::NotEq => "!=",
            Tok::Int(_) | Tok::Float(_) | Tok::Str(_) | Tok::FStr(_) | Tok::Ident(_) | Tok::Eof => {
                ""
            }
        }
    }
}

/// A token and its source bytes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// Splits `src` into tokens. The result always ends with a [`Tok::Eof`]
/// token whose span is empty and sits at the end of the source.
pub(crate) fn lex(src: &str) -> Result<Vec<Token>, ParseError> {
    let mut lexer = Lexer { src, pos: 0 };
    let mut out = Vec::new();
    loop {
        let token = lexer.next_token()?;
        let done = token.tok == Tok::Eof;
        out.push(token);
        if done {
            return Ok(out);
        }
    }
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.src.get(self.pos + offset..)?.chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn err(&self, start: usize, end: usize, msg: impl Into<String>) -> ParseError {
        ParseError::new(Span::new(start, end), msg)
    }

    fn skip_whitespace(&mut self) {
        loop {
            match self.peek() {
                Some(' ' | '\t' | '\n' | '\r') => self.pos += 1,
                // Line continuation, as accepted by the reference compiler.
                Some('\\') if matches!(self.peek_at(1), Some('\n')) => self.pos += 2,
                _ => return,
            }
        }
    }

    fn next_token(&mut self) -> Result<Token, ParseError> {
        self.skip_whitespace();
        let start = self.pos;
        let Some(c) = self.bump() else {
            return Ok(Token {
                tok: Tok::Eof,
                span: Span::new(start, start),
            });
        };
        let next = self.peek();
        let tok = match c {
            '(' => Tok::LParen,
            ')' => Tok::RParen,
            '[' => Tok::LBracket,
            ']' => Tok::RBracket,
            ',' => Tok::Comma,
            '.' => Tok::Dot,
            '?' => Tok::Question,
            '~' => Tok::Tilde,
            '+' => Tok::Plus,
            '-' => Tok::Minus,
            '%' => Tok::Percent,
            '^' => Tok::Caret,
            ':' if next == Some(':') => {
                self.pos += 1;
                Tok::ColonColon
            }
            ':' => Tok::Colon,
            '*' if next == Some('*') => {
                return Err(self.err(
                    start,
                    start + 2,
                    "'**' is not an operator; Kaitai has no power operator (multiply explicitly)",
                ));
            }
            '*' => Tok::Star,
            '/' if next == Some('/') => {
                return Err(self.err(
                    start,
                    start + 2,
                    "'//' is not an operator; '/' on integers already rounds towards zero",
                ));
            }
            '/' => Tok::Slash,
            '&' if next == Some('&') => {
                return Err(self.err(
                    start,
                    start + 2,
                    "'&&' is not an operator here; Kaitai uses 'and' for boolean conjunction",
                ));
            }
            '&' => Tok::Amp,
            '|' if next == Some('|') => {
                return Err(self.err(
                    start,
                    start + 2,
                    "'||' is not an operator here; Kaitai uses 'or' for boolean disjunction",
                ));
            }
            '|' => Tok::Pipe,
            '!' if next == Some('=') => {
                self.pos += 1;
                Tok::NotEq
            }
            '!' => {
                return Err(self.err(
                    start,
                    start + 1,
                    "'!' is not an operator; Kaitai uses 'not' for boolean negation ('~' for bitwise)",
                ));
            }
            '=' if next == Some('=') => {
                self.pos += 1;
                if self.peek() == Some('=') {
                    return Err(self.err(
                        start,
                        start + 3,
                        "'===' is not an operator; use '==' to compare",
                    ));
                }
                Tok::EqEq
            }
            '=' => {
                return Err(self.err(
                    start,
                    start + 1,
                    "'=' is not an operator; use '==' to compare (expressions cannot assign)",
                ));
            }
            '<' => match next {
                Some('<') => {
                    self.pos += 1;
                    Tok::Shl
                }
                Some('=') => {
                    self.pos += 1;
                    Tok::Le
                }
                Some('>') => {
                    return Err(self.err(
                        start,
                        start + 2,
                        "'<>' is not an operator; use '!=' for inequality",
                    ));
                }
                _ => Tok::Lt,
            },
            '>' => match next {
                Some('>') => {
                    self.pos += 1;
                    Tok::Shr
                }
                Some('=') => {
                    self.pos += 1;
                    Tok::Ge
                }
                _ => Tok::Gt,
            },
            '\'' => self.single_quoted(start)?,
            '"' => self.double_quoted(start)?,
            c if c.is_ascii_digit() => self.number(start, c)?,
            c if is_ident_start(c) => {
                while self.peek().is_some_and(is_ident_char) {
                    self.pos += 1;
                }
                if &self.src[start..self.pos] == "f" && self.peek() == Some('"') {
                    self.pos += 1;
                    self.fstring(start)?
                } else {
                    Tok::Ident(self.src[start..self.pos].to_owned())
                }
            }
            '{' | '}' => {
                return Err(self.err(
                    start,
                    self.pos,
                    format!("unexpected character '{c}' (braces belong inside an f-string: f\"a={{x}}\")"),
                ));
            }
            c => {
                return Err(self.err(
                    start,
                    self.pos,
                    format!("unexpected character '{}'", c.escape_debug()),
                ));
            }
        };
        Ok(Token {
            tok,
            span: Span::new(start, self.pos),
        })
    }

    fn single_quoted(&mut self, start: usize) -> Result<Tok, ParseError> {
        match self.src[self.pos..].find('\'') {
            Some(len) => {
                let text = self.src[self.pos..self.pos + len].to_owned();
                self.pos += len + 1;
                Ok(Tok::Str(text))
            }
            None => Err(self.err(
                start,
                self.src.len(),
                "unterminated string literal: missing closing '",
            )),
        }
    }

    fn double_quoted(&mut self, start: usize) -> Result<Tok, ParseError> {
        let mut parts = self.quoted(start, false)?;
        match parts.pop() {
            Some(FPart::Lit(text)) if parts.is_empty() => Ok(Tok::Str(text)),
            _ => Err(self.err(
                start,
                self.pos,
                "internal: a string literal with expressions",
            )),
        }
    }

    /// An f-string after its `f"`: literal text (with escapes) and `{expression}`s.
    fn fstring(&mut self, start: usize) -> Result<Tok, ParseError> {
        self.quoted(start, true).map(Tok::FStr)
    }

    /// The text of a double-quoted string after its opening quote, escapes decoded: one literal part, or for an
    /// f-string (`braces`) the literal parts and the `{expression}`s between them.
    fn quoted(&mut self, start: usize, braces: bool) -> Result<Vec<FPart>, ParseError> {
        let what = if braces { "f-string" } else { "string literal" };
        let mut parts = Vec::new();
        let mut text = String::new();
        loop {
            let Some(c) = self.bump() else {
                return Err(self.err(
                    start,
                    self.src.len(),
                    format!("unterminated {what}: missing closing \""),
                ));
            };
            match c {
                '"' => break,
                '\\' => text.push(self.escape(self.pos - 1)?),
                '{' if braces => {
                    let from = self.pos;
                    let mut depth = 1;
                    while depth > 0 {
                        match self.bump() {
                            None => {
                                return Err(self.err(
                                    from - 1,
                                    self.src.len(),
                                    "unterminated '{' in an f-string",
                                ))
                            }
                            Some('{') => depth += 1,
                            Some('}') => depth -= 1,
                            Some(q @ ('"' | '\'')) => {
                                while let Some(d) = self.bump() {
                                    if d == q {
                                        break;
                                    }
                                }
                            }
                            Some(_) => {}
                        }
                    }
                    if !text.is_empty() {
                        parts.push(FPart::Lit(std::mem::take(&mut text)));
                    }
                    parts.push(FPart::Expr(self.src[from..self.pos - 1].to_owned(), from));
                }
                '}' if braces => {
                    return Err(self.err(
                        self.pos - 1,
                        self.pos,
                        "a '}' in an f-string without its '{'",
                    ))
                }
                c => text.push(c),
            }
        }
        if !text.is_empty() || parts.is_empty() {
            parts.push(FPart::Lit(text));
        }
        Ok(parts)
    }

    /// Decodes the escape sequence whose backslash is at `bs`; `self.pos` is
    /// just after the backslash.
    fn escape(&mut self, bs: usize) -> Result<char, ParseError> {
        let Some(c) = self.bump() else {
            return Err(self.err(
                bs,
                self.pos,
                "unterminated string literal: missing closing \"",
            ));
        };
        let simple = match c {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'v' => Some('\u{b}'),
            'f' => Some('\u{c}'),
            'e' => Some('\u{1b}'),
            '\\' => Some('\\'),
            '"' => Some('"'),
            '\'' => Some('\''),
            _ => None,
        };
        if let Some(ch) = simple {
            return Ok(ch);
        }
        match c {
            '0'..='7' => {
                // Up to three octal digits, like C: `\0`, `\12`, `\123`.
                let mut value = c.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match self.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            value = value * 8 + d;
                            self.pos += 1;
                        }
                        None => break,
                    }
                }
                // At most 0o777 = 511, always a valid scalar value.
                char::from_u32(value)
                    .ok_or_else(|| self.err(bs, self.pos, "invalid octal escape"))
            }
            'x' => self.hex_escape(bs, 2, "'\\x' needs exactly two hex digits, e.g. \\x1b"),
            'u' => self.hex_escape(bs, 4, "'\\u' needs exactly four hex digits, e.g. \\u00e9"),
            other => Err(self.err(
                bs,
                self.pos,
                format!(
                    "unknown escape sequence '\\{}' (known: \\n \\t \\r \\\\ \\\" \\' \\a \\b \\e \\f \\v, octal \\123, \\xNN, \\uNNNN)",
                    other.escape_debug()
                ),
            )),
        }
    }

    fn hex_escape(&mut self, bs: usize, digits: usize, msg: &str) -> Result<char, ParseError> {
        let mut value = 0u32;
        for _ in 0..digits {
            match self.peek().and_then(|d| d.to_digit(16)) {
                Some(d) => {
                    value = value * 16 + d;
                    self.pos += 1;
                }
                None => return Err(self.err(bs, self.pos, msg)),
            }
        }
        char::from_u32(value).ok_or_else(|| {
            self.err(
                bs,
                self.pos,
                format!("'\\u{value:04x}' is a surrogate, not a character"),
            )
        })
    }

    fn number(&mut self, start: usize, first: char) -> Result<Tok, ParseError> {
        let radix = match (first, self.peek()) {
            ('0', Some('x' | 'X')) => Some((16, "hexadecimal")),
            ('0', Some('o' | 'O')) => Some((8, "octal")),
            ('0', Some('b' | 'B')) => Some((2, "binary")),
            _ => None,
        };
        if let Some((radix, name)) = radix {
            self.pos += 1;
            return self.radix_int(start, radix, name);
        }

        // Decimal integer or float.
        self.eat_digits();
        let mut is_float = false;
        if self.peek() == Some('.') {
            match self.peek_at(1) {
                Some(d) if d.is_ascii_digit() => {
                    self.pos += 1;
                    self.eat_digits();
                    is_float = true;
                }
                // `1.` is a float too, unless a name or another dot follows
                // (`1.to_s`, `1..`).
                Some(c) if is_ident_char(c) || c == '.' => {}
                _ => {
                    self.pos += 1;
                    is_float = true;
                }
            }
        }
        if matches!(self.peek(), Some('e' | 'E')) {
            let sign = usize::from(matches!(self.peek_at(1), Some('+' | '-')));
            if self.peek_at(1 + sign).is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1 + sign;
                self.eat_digits();
                is_float = true;
            }
        }
        if let Some(c) = self.peek().filter(|&c| is_ident_char(c)) {
            let suffix_start = self.pos;
            while self.peek().is_some_and(is_ident_char) {
                self.pos += 1;
            }
            return Err(self.err(
                suffix_start,
                self.pos,
                format!(
                    "invalid suffix '{}' on number literal{}",
                    &self.src[suffix_start..self.pos],
                    if c == 'e' || c == 'E' {
                        " (an exponent needs digits, e.g. 1e3)"
                    } else {
                        ""
                    }
                ),
            ));
        }
        let text = &self.src[start..self.pos];
        let clean: String = text.chars().filter(|&c| c != '_').collect();
        if is_float {
            return match clean.parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(Tok::Float(v)),
                _ => Err(self.err(
                    start,
                    self.pos,
                    format!("float literal '{text}' is out of range"),
                )),
            };
        }
        if clean.len() > 1 && clean.starts_with('0') {
            return Err(self.err(
                start,
                self.pos,
                format!(
                    "leading zeros are not allowed in decimal literal '{text}'; write octal as 0o{}",
                    clean.trim_start_matches('0')
                ),
            ));
        }
        clean
            .parse::<u64>()
            .map(Tok::Int)
            .map_err(|_| self.too_large(start, text))
    }

    fn eat_digits(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_digit() || c == '_') {
            self.pos += 1;
        }
    }

    fn radix_int(&mut self, start: usize, radix: u32, name: &str) -> Result<Tok, ParseError> {
        let digits_start = self.pos;
        while self.peek().is_some_and(is_ident_char) {
            self.pos += 1;
        }
        let text = &self.src[start..self.pos];
        let mut value: u64 = 0;
        let mut any_digit = false;
        for (i, c) in self.src[digits_start..self.pos].char_indices() {
            if c == '_' {
                continue;
            }
            let Some(d) = c.to_digit(radix) else {
                let at = digits_start + i;
                return Err(self.err(
                    at,
                    at + c.len_utf8(),
                    format!("invalid digit '{c}' in {name} literal '{text}'"),
                ));
            };
            any_digit = true;
            value = value
                .checked_mul(u64::from(radix))
                .and_then(|v| v.checked_add(u64::from(d)))
                .ok_or_else(|| self.too_large(start, text))?;
        }
        if !any_digit {
            return Err(self.err(
                start,
                self.pos,
                format!("{name} literal '{text}' has no digits"),
            ));
        }
        Ok(Tok::Int(value))
    }

    fn too_large(&self, start: usize, text: &str) -> ParseError {
        self.err(
            start,
            self.pos,
            format!(
                "integer literal '{text}' is too large; the maximum is 0xFFFF_FFFF_FFFF_FFFF (18446744073709551615)"
            ),
        )
    }
}
