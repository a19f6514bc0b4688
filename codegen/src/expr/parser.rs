//! Precedence-climbing parser from tokens to [`Expr`].
//!
//! Recursion is bounded twice: the number of nested sub-expressions being
//! parsed at once (`Parser::depth`) and the height of every produced tree
//! (`Node::height`) are both capped at [`MAX_DEPTH`]. The second cap matters
//! for long left-associative chains such as `1 + 1 + ... + 1`, which the
//! parser builds iteratively but which later recursive walks would not
//! survive if unbounded.
//!
//! The functions on the recursion path (`expr`, `ternary`, `binary`,
//! `prefix`, `postfix`, `primary` and the helpers that call back into
//! `expr`) are kept small: node construction and error formatting live in
//! separate non-inlined functions, so that a debug build needs only a few
//! kilobytes of stack per nesting level.

use super::ast::{prec, BinOp, Expr, ExprKind, Span, TypeRef, UnOp};
use super::lexer::{Tok, Token};
use super::{ParseError, MAX_DEPTH};

/// Words that cannot be used as names.
pub(crate) fn is_keyword(name: &str) -> bool {
    matches!(name, "and" | "or" | "not" | "true" | "false")
}

pub(crate) fn parse_tokens(tokens: Vec<Token>) -> Result<Expr, ParseError> {
    let mut p = Parser {
        toks: tokens,
        pos: 0,
        depth: 0,
    };
    if p.peek() == &Tok::Eof {
        return Err(ParseError::new(
            p.span(),
            "expected an expression, found end of input (the expression is empty)",
        ));
    }
    let node = p.expr()?;
    if p.peek() != &Tok::Eof {
        return Err(p.trailing(&node.expr));
    }
    Ok(*node.expr)
}

/// A parsed expression together with its tree height. The expression is
/// boxed so that results stay small while they travel up the recursion (the
/// parent node adopts the box as is).
struct Node {
    expr: Box<Expr>,
    height: usize,
}

type PResult = Result<Node, ParseError>;

/// What preceded a position where an operand is required (for messages).
#[derive(Clone, Copy)]
enum After<'a> {
    /// An operator or punctuation, by spelling.
    Token(&'static str),
    /// An argument position in a call to this method.
    Arg(&'a str),
    /// An element position in an array literal.
    Element,
}

fn binop(tok: &Tok) -> Option<BinOp> {
    Some(match tok {
        Tok::Plus => BinOp::Add,
        Tok::Minus => BinOp::Sub,
        Tok::Star => BinOp::Mul,
        Tok::Slash => BinOp::Div,
        Tok::Percent => BinOp::Mod,
        Tok::Shl => BinOp::Shl,
        Tok::Shr => BinOp::Shr,
        Tok::Amp => BinOp::BitAnd,
        Tok::Pipe => BinOp::BitOr,
        Tok::Caret => BinOp::BitXor,
        Tok::EqEq => BinOp::Eq,
        Tok::NotEq => BinOp::Ne,
        Tok::Lt => BinOp::Lt,
        Tok::Le => BinOp::Le,
        Tok::Gt => BinOp::Gt,
        Tok::Ge => BinOp::Ge,
        Tok::Ident(w) if w == "and" => BinOp::And,
        Tok::Ident(w) if w == "or" => BinOp::Or,
        _ => return None,
    })
}

/// Whether `tok` can begin an expression.
fn starts_expr(tok: &Tok) -> bool {
    match tok {
        Tok::Int(_)
        | Tok::Float(_)
        | Tok::Str(_)
        | Tok::FStr(_)
        | Tok::LParen
        | Tok::LBracket
        | Tok::Minus
        | Tok::Plus
        | Tok::Tilde
        | Tok::ColonColon => true,
        Tok::Ident(w) => w != "and" && w != "or",
        _ => false,
    }
}

fn too_deep(span: Span) -> ParseError {
    ParseError::new(
        span,
        format!("expression is nested too deeply (the limit is {MAX_DEPTH} levels)"),
    )
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
}

impl Parser {
    // ----- token access -------------------------------------------------

    fn token(&self, offset: usize) -> &Token {
        // The token list always ends with Eof, so clamping yields Eof.
        let last = self.toks.len().saturating_sub(1);
        &self.toks[(self.pos + offset).min(last)]
    }

    fn peek(&self) -> &Tok {
        &self.token(0).tok
    }

    fn peek_at(&self, offset: usize) -> &Tok {
        &self.token(offset).tok
    }

    fn span(&self) -> Span {
        self.token(0).span
    }

    /// Moves past the current token (never past Eof) and returns its span.
    fn bump(&mut self) -> Span {
        let span = self.span();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        span
    }

    /// Span of the token before the current one.
    fn prev_span(&self) -> Span {
        match self.pos.checked_sub(1).and_then(|i| self.toks.get(i)) {
            Some(t) => t.span,
            None => self.span(),
        }
    }

    #[inline(never)]
    fn err_here(&self, msg: impl Into<String>) -> ParseError {
        ParseError::new(self.span(), msg)
    }

    /// Builds a node, enforcing the tree-height limit.
    #[inline(never)]
    fn node(&self, kind: ExprKind, span: Span, height: usize) -> PResult {
        if height > MAX_DEPTH {
            return Err(too_deep(span));
        }
        Ok(Node {
            expr: Box::new(Expr::new(kind, span)),
            height,
        })
    }

    /// Enters one level of recursion.
    fn enter(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(too_deep(self.span()));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Requires an expression to start at the current token.
    fn require_operand(&self, after: After<'_>) -> Result<(), ParseError> {
        if starts_expr(self.peek()) {
            Ok(())
        } else {
            Err(self.missing_operand(after))
        }
    }

    #[cold]
    #[inline(never)]
    fn missing_operand(&self, after: After<'_>) -> ParseError {
        let after = match after {
            After::Token(t) => format!("'{t}'"),
            After::Arg(method) => format!("'(' or ',' in the call to '{method}'"),
            After::Element => "'[' or ',' in the array literal".to_owned(),
        };
        self.err_here(format!(
            "expected an expression after {after}, found {}",
            self.peek().describe()
        ))
    }

    /// Consumes `close` or reports it missing, pointing at the opener.
    fn expect_close(&mut self, close: &Tok, what: &str, open: Span) -> Result<(), ParseError> {
        if self.peek() == close {
            self.bump();
            Ok(())
        } else {
            Err(self.unclosed(close, what, open))
        }
    }

    #[cold]
    #[inline(never)]
    fn unclosed(&self, close: &Tok, what: &str, open: Span) -> ParseError {
        self.err_here(format!(
            "expected '{}' to close {what} at {}, found {}",
            close.punct(),
            open.start,
            self.peek().describe()
        ))
    }

    // ----- grammar: the recursion path ------------------------------------

    /// `expr := or_expr ('?' expr ':' expr)?`
    fn expr(&mut self) -> PResult {
        self.enter()?;
        let result = self.ternary();
        self.leave();
        result
    }

    fn ternary(&mut self) -> PResult {
        let cond = self.binary(prec::OR)?;
        if self.peek() == &Tok::Question {
            self.ternary_rest(cond)
        } else {
            Ok(cond)
        }
    }

    /// The `? then : else` part of a conditional.
    fn ternary_rest(&mut self, cond: Node) -> PResult {
        let q = self.bump();
        if self.peek() == &Tok::Colon {
            return Err(self.elvis(q));
        }
        self.require_operand(After::Token("?"))?;
        let then = self.expr()?;
        if self.peek() != &Tok::Colon {
            return Err(self.missing_colon(q));
        }
        self.bump();
        self.require_operand(After::Token(":"))?;
        let else_ = self.expr()?;
        self.mk_ternary(cond, then, else_)
    }

    /// Binary operators binding at least as tightly as `min`.
    fn binary(&mut self, min: u8) -> PResult {
        let mut lhs = self.prefix(min)?;
        let mut last_was_comparison = false;
        while let Some(op) = binop(self.peek()) {
            let p = op.precedence();
            if p < min {
                break;
            }
            if op.is_comparison() && last_was_comparison {
                return Err(self.chained_comparison(op));
            }
            self.bump();
            self.require_operand(After::Token(op.symbol()))?;
            // Left-associative: the right operand must bind tighter.
            let rhs = self.binary(p + 1)?;
            lhs = self.mk_binary(op, lhs, rhs)?;
            last_was_comparison = op.is_comparison();
        }
        Ok(lhs)
    }

    /// Prefix operators (`not`, `-`, `~`, `+`), then postfix expressions.
    fn prefix(&mut self, min: u8) -> PResult {
        let op = match self.peek() {
            Tok::Ident(w) if w == "not" => {
                if min > prec::NOT {
                    return Err(self.misplaced_not());
                }
                Some(UnOp::Not)
            }
            Tok::Minus => Some(UnOp::Neg),
            Tok::Tilde => Some(UnOp::BitNot),
            Tok::Plus => None,
            _ => return self.postfix(),
        };
        self.unary(op)
    }

    /// A prefix operator and its operand; `None` is the no-op unary `+`.
    fn unary(&mut self, op: Option<UnOp>) -> PResult {
        let op_span = self.bump();
        self.require_operand(After::Token(op.map_or("+", UnOp::symbol)))?;
        self.enter()?;
        let operand = match op {
            Some(UnOp::Not) => self.binary(prec::NOT),
            _ => self.prefix(prec::UNARY),
        };
        self.leave();
        self.mk_unary(op, op_span, operand?)
    }

    /// A primary followed by any number of `.name`, `.name(args)`,
    /// `.as<type>` and `[index]`.
    fn postfix(&mut self) -> PResult {
        let mut base = self.primary()?;
        loop {
            base = match self.peek() {
                Tok::Dot => self.dot_suffix(base)?,
                Tok::LBracket => self.index_suffix(base)?,
                Tok::LParen => return Err(self.free_call()),
                _ => return Ok(base),
            };
        }
    }

    /// `.name`, `.name(args)` or `.as<type>` after `base`.
    fn dot_suffix(&mut self, base: Node) -> PResult {
        let dot = self.bump();
        let name_span = self.span();
        let name = match self.peek() {
            Tok::Ident(name) => name.clone(),
            _ => return Err(self.missing_member_name()),
        };
        self.bump();
        let type_follows = matches!(self.peek_at(1), Tok::Ident(_) | Tok::ColonColon);
        if name == "as" && self.peek() == &Tok::Lt && type_follows {
            self.bump();
            let (ty, end) = self.type_ref("'.as<'", dot.start)?;
            return self.mk_cast(base, ty, end);
        }
        if self.peek() == &Tok::LParen {
            let open = self.bump();
            let (args, args_height) = self.call_args(&name, open)?;
            return self.mk_call(base, name, name_span, args, args_height);
        }
        self.mk_attr(base, name, name_span)
    }

    /// `[index]` after `base`.
    fn index_suffix(&mut self, base: Node) -> PResult {
        let open = self.bump();
        self.require_operand(After::Token("["))?;
        let index = self.expr()?;
        self.expect_close(&Tok::RBracket, "'['", open)?;
        self.mk_index(base, index)
    }

    /// Arguments after the `(` of a method call, through the `)`.
    fn call_args(&mut self, method: &str, open: Span) -> Result<(Vec<Expr>, usize), ParseError> {
        let mut args = Vec::new();
        let mut height = 0;
        if self.peek() == &Tok::RParen {
            self.bump();
            return Ok((args, height));
        }
        loop {
            self.require_operand(After::Arg(method))?;
            let arg = self.expr()?;
            height = height.max(arg.height);
            args.push(*arg.expr);
            match self.peek() {
                Tok::Comma => {
                    self.bump();
                }
                Tok::RParen => {
                    self.bump();
                    return Ok((args, height));
                }
                _ => return Err(self.bad_arg_separator(method, open)),
            }
        }
    }

    fn primary(&mut self) -> PResult {
        match self.peek() {
            Tok::LParen => self.paren(),
            Tok::LBracket => self.array(),
            Tok::Ident(_) => self.ident_primary(),
            Tok::ColonColon => {
                let start = self.bump();
                self.enum_value(true, start, Vec::new())
            }
            _ => self.literal(),
        }
    }

    /// `( expr )`; the parentheses become part of the inner node's span.
    fn paren(&mut self) -> PResult {
        let open = self.bump();
        self.require_operand(After::Token("("))?;
        let mut inner = self.expr()?;
        self.expect_close(&Tok::RParen, "'('", open)?;
        inner.expr.span = open.to(self.prev_span());
        Ok(inner)
    }

    /// `[a, b, ...]`, with an optional trailing comma.
    fn array(&mut self) -> PResult {
        let open = self.bump();
        let mut items = Vec::new();
        let mut height = 0;
        while self.peek() != &Tok::RBracket {
            self.require_operand(After::Element)?;
            let item = self.expr()?;
            height = height.max(item.height);
            items.push(*item.expr);
            match self.peek() {
                Tok::Comma => {
                    self.bump();
                }
                Tok::RBracket => {}
                _ => return Err(self.bad_element_separator(open)),
            }
        }
        let close = self.bump();
        self.node(ExprKind::Array(items), open.to(close), height + 1)
    }

    // ----- grammar: leaves ------------------------------------------------

    /// Number and string literals (and the error for anything else).
    #[inline(never)]
    fn literal(&mut self) -> PResult {
        let span = self.span();
        let kind = match self.peek() {
            Tok::Int(v) => ExprKind::Int(*v),
            Tok::Float(v) => ExprKind::Float(*v),
            Tok::FStr(parts) => {
                // `f"a={x}"` is `"a=" + x.to_s`: each expression's text (an integer's decimal digits).
                let parts = parts.clone();
                self.bump();
                let mut acc: Option<Expr> = None;
                let mut height = 1;
                for p in parts {
                    let e = match p {
                        super::lexer::FPart::Lit(t) => Expr::new(ExprKind::Str(t), span),
                        super::lexer::FPart::Expr(src, at) => {
                            let inner = super::parse(&src).map_err(|e| ParseError {
                                span: Span::new(e.span.start + at, e.span.end + at),
                                message: e.message,
                            })?;
                            height = height.max(depth_of(&inner) + 1);
                            Expr::new(
                                ExprKind::Attr {
                                    base: Box::new(inner),
                                    name: "to_s".into(),
                                    name_span: span,
                                },
                                span,
                            )
                        }
                    };
                    acc = Some(match acc {
                        None => e,
                        Some(a) => Expr::new(
                            ExprKind::Binary {
                                op: BinOp::Add,
                                lhs: Box::new(a),
                                rhs: Box::new(e),
                            },
                            span,
                        ),
                    });
                    height += 1;
                }
                let e = acc.unwrap_or_else(|| Expr::new(ExprKind::Str(String::new()), span));
                return self.node(e.kind, span, height);
            }
            Tok::Str(_) => {
                // Adjacent string literals are concatenated.
                let mut text = String::new();
                let mut full = span;
                while let Tok::Str(s) = self.peek() {
                    text.push_str(s);
                    full = full.to(self.span());
                    self.bump();
                }
                return self.node(ExprKind::Str(text), full, 1);
            }
            other => {
                return Err(self.err_here(format!(
                    "expected an expression, found {}",
                    other.describe()
                )))
            }
        };
        self.bump();
        self.node(kind, span, 1)
    }

    /// Names, `true`/`false`, `sizeof<...>`, and enum references.
    #[inline(never)]
    fn ident_primary(&mut self) -> PResult {
        let span = self.span();
        let name = match self.peek() {
            Tok::Ident(name) => name.clone(),
            _ => return Err(self.err_here("expected a name")),
        };
        match name.as_str() {
            "true" | "false" => {
                self.bump();
                return self.node(ExprKind::Bool(name == "true"), span, 1);
            }
            "and" | "or" | "not" => {
                return Err(
                    self.err_here(format!("expected an expression, found keyword '{name}'"))
                );
            }
            "sizeof" | "bitsizeof" | "bsizeof"
                if self.peek_at(1) == &Tok::Lt
                    && matches!(self.peek_at(2), Tok::Ident(_) | Tok::ColonColon) =>
            {
                self.bump();
                self.bump();
                let what = format!("'{name}<'");
                let (ty, end) = self.type_ref(&what, span.start)?;
                let bits = name != "sizeof";
                return self.node(ExprKind::SizeOf { ty, bits }, Span::new(span.start, end), 1);
            }
            _ => {}
        }
        self.bump();
        if self.peek() == &Tok::ColonColon {
            self.bump();
            return self.enum_value(false, span, vec![name]);
        }
        self.node(ExprKind::Name(name), span, 1)
    }

    /// The rest of an enum reference; `path` holds the names read so far and
    /// the last token consumed was `::`.
    #[inline(never)]
    fn enum_value(&mut self, absolute: bool, start: Span, mut path: Vec<String>) -> PResult {
        loop {
            match self.peek() {
                Tok::Ident(name) => {
                    path.push(name.clone());
                    self.bump();
                }
                other => {
                    return Err(self.err_here(format!(
                        "expected a name after '::', found {}",
                        other.describe()
                    )));
                }
            }
            if self.peek() == &Tok::ColonColon {
                self.bump();
            } else {
                break;
            }
        }
        let span = start.to(self.prev_span());
        let Some(value) = path.pop().filter(|_| !path.is_empty()) else {
            return Err(ParseError::new(
                span,
                "an enum reference needs both the enum and the value, e.g. 'enum_name::value'",
            ));
        };
        self.node(
            ExprKind::EnumValue {
                absolute,
                path,
                value,
            },
            span,
            1,
        )
    }

    /// A type name after `<`, through the closing `>`:
    /// `::`? ident (`::` ident)* (`[` `]`)?
    ///
    /// Returns the type and the source offset just past the closing `>`.
    #[inline(never)]
    fn type_ref(&mut self, what: &str, opened_at: usize) -> Result<(TypeRef, usize), ParseError> {
        let start = self.span().start;
        let absolute = self.peek() == &Tok::ColonColon;
        if absolute {
            self.bump();
        }
        let mut path = Vec::new();
        loop {
            match self.peek() {
                Tok::Ident(name) => {
                    path.push(name.clone());
                    self.bump();
                }
                other => {
                    return Err(self.err_here(format!(
                        "expected a type name in {what}, found {}",
                        other.describe()
                    )));
                }
            }
            if self.peek() == &Tok::ColonColon {
                self.bump();
            } else {
                break;
            }
        }
        let array = self.peek() == &Tok::LBracket;
        if array {
            let open = self.bump();
            self.expect_close(&Tok::RBracket, "'[' of the array type", open)?;
        }
        let span = Span::new(start, self.prev_span().end);
        let end = self.expect_angle_close(what, opened_at)?;
        let ty = TypeRef {
            absolute,
            path,
            array,
            span,
        };
        Ok((ty, end))
    }

    /// Consumes a `>` closing a type argument. A `>>` token (as in
    /// `x.as<u4>>2`) is split so that its second half remains. Returns the
    /// offset just past the consumed `>`.
    fn expect_angle_close(&mut self, what: &str, opened_at: usize) -> Result<usize, ParseError> {
        match self.peek() {
            Tok::Gt => Ok(self.bump().end),
            Tok::Shr => {
                let span = self.span();
                if let Some(t) = self.toks.get_mut(self.pos) {
                    t.tok = Tok::Gt;
                    t.span = Span::new(span.start + 1, span.end);
                }
                Ok(span.start + 1)
            }
            other => Err(self.err_here(format!(
                "expected '>' to close {what} at {opened_at}, found {}",
                other.describe()
            ))),
        }
    }

    // ----- node construction ----------------------------------------------

    #[inline(never)]
    fn mk_ternary(&self, cond: Node, then: Node, else_: Node) -> PResult {
        let span = cond.expr.span.to(else_.expr.span);
        let height = 1 + cond.height.max(then.height).max(else_.height);
        let kind = ExprKind::Ternary {
            cond: cond.expr,
            then: then.expr,
            else_: else_.expr,
        };
        self.node(kind, span, height)
    }

    #[inline(never)]
    fn mk_binary(&self, op: BinOp, lhs: Node, rhs: Node) -> PResult {
        let span = lhs.expr.span.to(rhs.expr.span);
        let height = 1 + lhs.height.max(rhs.height);
        let kind = ExprKind::Binary {
            op,
            lhs: lhs.expr,
            rhs: rhs.expr,
        };
        self.node(kind, span, height)
    }

    #[inline(never)]
    fn mk_unary(&self, op: Option<UnOp>, op_span: Span, operand: Node) -> PResult {
        let span = op_span.to(operand.expr.span);
        let Some(op) = op else {
            // Unary plus is accepted and discarded, as in Kaitai.
            let mut node = operand;
            node.expr.span = span;
            return Ok(node);
        };
        let height = operand.height + 1;
        let kind = ExprKind::Unary {
            op,
            expr: operand.expr,
        };
        self.node(kind, span, height)
    }

    #[inline(never)]
    fn mk_cast(&self, base: Node, ty: TypeRef, end: usize) -> PResult {
        let span = Span::new(base.expr.span.start, end);
        let kind = ExprKind::Cast {
            base: base.expr,
            ty,
        };
        self.node(kind, span, base.height + 1)
    }

    #[inline(never)]
    fn mk_call(
        &self,
        base: Node,
        method: String,
        method_span: Span,
        args: Vec<Expr>,
        args_height: usize,
    ) -> PResult {
        let span = base.expr.span.to(self.prev_span());
        let height = 1 + base.height.max(args_height);
        let kind = ExprKind::Call {
            base: base.expr,
            method,
            method_span,
            args,
        };
        self.node(kind, span, height)
    }

    #[inline(never)]
    fn mk_attr(&self, base: Node, name: String, name_span: Span) -> PResult {
        let span = base.expr.span.to(name_span);
        let kind = ExprKind::Attr {
            base: base.expr,
            name,
            name_span,
        };
        self.node(kind, span, base.height + 1)
    }

    #[inline(never)]
    fn mk_index(&self, base: Node, index: Node) -> PResult {
        let span = base.expr.span.to(self.prev_span());
        let height = 1 + base.height.max(index.height);
        let kind = ExprKind::Index {
            base: base.expr,
            index: index.expr,
        };
        self.node(kind, span, height)
    }

    // ----- errors -----------------------------------------------------------

    #[cold]
    #[inline(never)]
    fn elvis(&self, q: Span) -> ParseError {
        ParseError::new(
            q.to(self.span()),
            "'?:' needs a value between '?' and ':'; Kaitai's conditional is 'cond ? if_true : if_false'",
        )
    }

    #[cold]
    #[inline(never)]
    fn missing_colon(&self, q: Span) -> ParseError {
        self.err_here(format!(
            "expected ':' to complete the conditional started by '?' at {} (syntax: cond ? if_true : if_false), found {}",
            q.start,
            self.peek().describe()
        ))
    }

    #[cold]
    #[inline(never)]
    fn chained_comparison(&self, op: BinOp) -> ParseError {
        self.err_here(format!(
            "comparison operators cannot be chained; write e.g. 'a < b and b < c' instead of 'a < b {} c'",
            op.symbol()
        ))
    }

    #[cold]
    #[inline(never)]
    fn misplaced_not(&self) -> ParseError {
        self.err_here(
            "'not' binds more loosely than this operator; wrap it in parentheses, e.g. '(not x)'",
        )
    }

    #[cold]
    #[inline(never)]
    fn free_call(&self) -> ParseError {
        self.err_here(
            "only methods can be called, e.g. 'name.to_s(\"UTF-8\")' or 'text.substring(0, 3)'; Kaitai has no free functions",
        )
    }

    #[cold]
    #[inline(never)]
    fn missing_member_name(&self) -> ParseError {
        self.err_here(format!(
            "expected an attribute or method name after '.', found {}",
            self.peek().describe()
        ))
    }

    #[cold]
    #[inline(never)]
    fn bad_arg_separator(&self, method: &str, open: Span) -> ParseError {
        self.err_here(format!(
            "expected ',' or ')' in the arguments of '{method}' (opened at {}), found {}",
            open.start,
            self.peek().describe()
        ))
    }

    #[cold]
    #[inline(never)]
    fn bad_element_separator(&self, open: Span) -> ParseError {
        self.err_here(format!(
            "expected ',' or ']' in the array literal opened at {}, found {}",
            open.start,
            self.peek().describe()
        ))
    }

    /// Error for tokens left over after a complete expression.
    #[cold]
    #[inline(never)]
    fn trailing(&self, parsed: &Expr) -> ParseError {
        if matches!(&parsed.kind, ExprKind::Name(n) if n == "if") {
            return ParseError::new(
                parsed.span,
                "Kaitai has no 'if ... then ... else' expression; write 'cond ? if_true : if_false'",
            );
        }
        let msg = match self.peek() {
            Tok::Ident(w) if w == "if" => {
                "unexpected 'if': Kaitai has no 'a if cond else b'; write 'cond ? a : b'".to_owned()
            }
            Tok::Colon => "unexpected ':' without a matching '?'".to_owned(),
            Tok::RParen => "unmatched ')'".to_owned(),
            Tok::RBracket => "unmatched ']'".to_owned(),
            Tok::Comma => "unexpected ',': a single expression is expected here".to_owned(),
            other => format!(
                "unexpected {} after a complete expression (missing operator?)",
                other.describe()
            ),
        };
        self.err_here(msg)
    }
}

/// How deep an expression nests (an f-string's embedded expressions count toward its own depth).
fn depth_of(e: &Expr) -> usize {
    1 + super::ast::children(e)
        .into_iter()
        .map(depth_of)
        .max()
        .unwrap_or(0)
}
