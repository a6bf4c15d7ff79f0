//! Text taken from a file (a path, a name, a word) made safe to print inside a one-line error
//! message: every character that would break or hide the line is written as Rust escapes it.
//!
//! Clock: none.

use std::borrow::Cow;

/// Whether `c` breaks or hides a line on a terminal: a control character other than tab
/// (`\n`, `\r`, vertical tab, form feed, NUL, ESC, NEL, ...) or a Unicode line or paragraph
/// separator (U+2028, U+2029).
pub fn breaks_line(c: char) -> bool {
    (c.is_control() && c != '\t') || c == '\u{2028}' || c == '\u{2029}'
}

/// `text` with each character that [`breaks_line`] written as its Rust escape (`\r`, `\n`,
/// `\0`, `\u{1b}`, `\u{2028}`); borrowed unchanged when there is none.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(breaks_line) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if breaks_line(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_breaks_and_controls_are_escaped_and_the_rest_kept() {
        assert!(matches!(escape("level1.tmx: a\tb é"), Cow::Borrowed(_)));
        assert_eq!(escape("le\r\0\0.tmx"), "le\\r\\0\\0.tmx");
        assert_eq!(escape("a\nb\u{2028}c\u{1b}[2J"), "a\\nb\\u{2028}c\\u{1b}[2J");
        assert!(!escape("x\u{85}y\u{b}z\u{c}").chars().any(breaks_line));
    }
}
