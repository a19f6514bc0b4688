//! Schema text (`doc` keys, often copied from a wiki) made safe for the documentation the emitters write: rustdoc
//! comments and markdown pages are both markdown, where a `<` starts an HTML tag.

/// Schema text as rustdoc and markdown show it as written: a `<` outside code (wiki text such as `Input<T>` or
/// `Property<s32>`) is escaped, where either would take it for an HTML tag and hide what follows. Code spans and
/// fenced blocks are left alone (they show their text as it is).
pub fn escape_tags(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fenced = false;
    // Inside an inline code span: the number of backticks that opened it.
    let mut span: Option<usize> = None;
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push_str(line);
            continue;
        }
        if fenced {
            out.push_str(line);
            continue;
        }
        if line.trim().is_empty() {
            // (A code span does not run past a paragraph.)
            span = None;
        }
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '`' {
                let mut n = 1;
                while chars.peek() == Some(&'`') {
                    chars.next();
                    n += 1;
                }
                span = match span {
                    None => Some(n),
                    Some(m) if m == n => None,
                    open => open,
                };
                out.extend(std::iter::repeat_n('`', n));
            } else if c == '<' && span.is_none() {
                out.push_str("&lt;");
            } else {
                out.push(c);
            }
        }
    }
    out
}
