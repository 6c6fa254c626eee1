//! Finds the line and column of a value in JSON text by its path (`consumers[1].session_timeout_ms`),
//! so that validation errors can point at the offending spot. A small, forgiving scanner: it only
//! runs on text that serde_json has already accepted.

/// One step of a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Seg {
    Key(String),
    Index(usize),
}

/// The 1-based (line, column) of the value at `path`, or of the deepest ancestor found.
pub(crate) fn locate(text: &str, path: &[Seg]) -> (usize, usize) {
    let bytes = text.as_bytes();
    let mut s = Scanner { b: bytes, i: 0 };
    s.ws();
    let mut best = s.i;
    s.find(path, &mut best);
    line_col(text, best)
}

/// The 1-based (line, column) of a byte offset.
pub(crate) fn line_col_at(text: &str, offset: usize) -> (usize, usize) {
    line_col(text, offset)
}

/// The byte offset of a 1-based (line, column) as serde_json counts them (columns in bytes).
pub(crate) fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(n) => start += n + 1,
            None => break,
        }
    }
    (start + column).min(text.len())
}

/// The path of the innermost value (or object key) of `text` that reaches byte `target`: where a
/// serde_json error at that position is. Runs on text whose nesting is already bounded.
pub(crate) fn path_at(text: &str, target: usize) -> Vec<Seg> {
    let mut s = Scanner {
        b: text.as_bytes(),
        i: 0,
    };
    let mut path = Vec::new();
    s.ws();
    s.path_in_value(target, &mut path);
    path
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut line = 1;
    let mut col = 1;
    for (i, ch) in text.char_indices() {
        if i >= offset {
            break;
        }
        if ch == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    (line, col)
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// At the start of a value: descends along `path`, recording the start of each value reached.
    fn find(&mut self, path: &[Seg], best: &mut usize) -> bool {
        *best = self.i;
        let Some((first, rest)) = path.split_first() else {
            return true;
        };
        match (self.peek(), first) {
            (Some(b'{'), Seg::Key(k)) => {
                self.i += 1;
                loop {
                    self.ws();
                    if self.peek() != Some(b'"') {
                        return false;
                    }
                    let key = self.string();
                    self.ws();
                    if self.peek() == Some(b':') {
                        self.i += 1;
                    }
                    self.ws();
                    if key == *k {
                        return self.find(rest, best);
                    }
                    self.skip_value();
                    self.ws();
                    if self.peek() == Some(b',') {
                        self.i += 1;
                    } else {
                        return false;
                    }
                }
            }
            (Some(b'['), Seg::Index(n)) => {
                self.i += 1;
                let mut idx = 0;
                loop {
                    self.ws();
                    if self.peek() == Some(b']') || self.peek().is_none() {
                        return false;
                    }
                    if idx == *n {
                        return self.find(rest, best);
                    }
                    self.skip_value();
                    self.ws();
                    if self.peek() == Some(b',') {
                        self.i += 1;
                        idx += 1;
                    } else {
                        return false;
                    }
                }
            }
            _ => false,
        }
    }

    /// Reads one value; returns whether `target` lies within it (then `path` points at the
    /// innermost value or key that holds it).
    fn path_in_value(&mut self, target: usize, path: &mut Vec<Seg>) -> bool {
        match self.peek() {
            Some(open @ (b'{' | b'[')) => {
                let close = if open == b'{' { b'}' } else { b']' };
                self.i += 1;
                let mut index = 0;
                loop {
                    self.ws();
                    match self.peek() {
                        None => return true,
                        Some(c) if c == close => {
                            self.i += 1;
                            return target <= self.i;
                        }
                        _ => {}
                    }
                    if open == b'{' {
                        if self.peek() != Some(b'"') {
                            return target <= self.i;
                        }
                        let key = self.string();
                        path.push(Seg::Key(key));
                        if target <= self.i {
                            return true;
                        }
                        self.ws();
                        if self.peek() == Some(b':') {
                            self.i += 1;
                        }
                        self.ws();
                    } else {
                        path.push(Seg::Index(index));
                    }
                    if self.path_in_value(target, path) {
                        return true;
                    }
                    path.pop();
                    index += 1;
                    self.ws();
                    if self.peek() == Some(b',') {
                        self.i += 1;
                    } else if self.peek() != Some(close) {
                        return target <= self.i;
                    }
                }
            }
            _ => {
                let start = self.i;
                self.skip_value();
                if self.i == start {
                    // Not a value (serde_json stopped here): point at the enclosing one.
                    self.i += 1;
                }
                target <= self.i
            }
        }
    }

    fn string(&mut self) -> String {
        let mut out = Vec::new();
        self.i += 1; // opening quote
        while let Some(c) = self.peek() {
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    if let Some(e) = self.peek() {
                        out.push(e);
                        self.i += 1;
                    }
                }
                _ => out.push(c),
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    fn skip_value(&mut self) {
        match self.peek() {
            Some(b'"') => {
                self.string();
            }
            Some(b'{') | Some(b'[') => {
                let mut depth = 0usize;
                while let Some(c) = self.peek() {
                    match c {
                        b'"' => {
                            self.string();
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.i += 1;
                                return;
                            }
                        }
                        _ => {}
                    }
                    self.i += 1;
                }
            }
            _ => {
                while let Some(c) = self.peek() {
                    if c == b',' || c == b'}' || c == b']' || c.is_ascii_whitespace() {
                        break;
                    }
                    self.i += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nested_values() {
        let text = "{\n  \"a\": 1,\n  \"list\": [\n    {\"x\": \"[}\"},\n    {\"x\": 2, \"y\": 3}\n  ]\n}";
        let p = [Seg::Key("list".into()), Seg::Index(1), Seg::Key("y".into())];
        assert_eq!(locate(text, &p), (5, 19));
        // A missing key points at the deepest value found (the object at index 1).
        let p = [Seg::Key("list".into()), Seg::Index(1), Seg::Key("zz".into())];
        assert_eq!(locate(text, &p), (5, 5));
        assert_eq!(locate(text, &[Seg::Key("a".into())]), (2, 8));
    }

    #[test]
    fn finds_the_path_at_an_offset() {
        let text = r#"{"a": 1, "list": [{"x": "s"}, {"y": true}]}"#;
        let at = |needle: &str| path_at(text, text.find(needle).unwrap() + needle.len());
        assert_eq!(
            at("\"s\""),
            [Seg::Key("list".into()), Seg::Index(0), Seg::Key("x".into())]
        );
        assert_eq!(
            at("true"),
            [Seg::Key("list".into()), Seg::Index(1), Seg::Key("y".into())]
        );
        assert_eq!(
            at("\"y\""),
            [Seg::Key("list".into()), Seg::Index(1), Seg::Key("y".into())]
        );
        assert_eq!(at("1"), [Seg::Key("a".into())]);
    }
}
