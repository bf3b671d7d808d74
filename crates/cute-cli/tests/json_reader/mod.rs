//! A strict JSON reader (RFC 8259) written here, independent of the `serde_json` writer that
//! `cute` prints with, so that the tests check the writer with a second implementation: the JSON
//! outputs (tests/json.rs) and the paper's rows (tests/paper.rs). Each test uses part of it.
#![allow(dead_code)]

/// A JSON value, as read by [`parse_json`].
#[derive(Debug, PartialEq)]
pub enum J {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl J {
    pub fn get(&self, k: &str) -> &J {
        match self {
            J::Obj(m) => {
                &m.iter()
                    .find(|(x, _)| x == k)
                    .unwrap_or_else(|| panic!("no key {k} in {self:?}"))
                    .1
            }
            _ => panic!("not an object: {self:?}"),
        }
    }
    pub fn keys(&self) -> Vec<&str> {
        match self {
            J::Obj(m) => m.iter().map(|(k, _)| k.as_str()).collect(),
            _ => panic!("not an object: {self:?}"),
        }
    }
    pub fn arr(&self) -> &[J] {
        match self {
            J::Arr(v) => v,
            _ => panic!("not an array: {self:?}"),
        }
    }
    pub fn s(&self) -> &str {
        match self {
            J::Str(s) => s,
            _ => panic!("not a string: {self:?}"),
        }
    }
    pub fn n(&self) -> i64 {
        match self {
            J::Num(s) => s.parse().unwrap(),
            _ => panic!("not a number: {self:?}"),
        }
    }
    pub fn ints(&self) -> Vec<i64> {
        self.arr().iter().map(J::n).collect()
    }
}

/// Reads JSON (RFC 8259): the whole text is one value with optional white space around.
pub fn parse_json(t: &str) -> Result<J, String> {
    let c: Vec<char> = t.chars().collect();
    let mut i = 0;
    let v = jvalue(&c, &mut i)?;
    ws(&c, &mut i);
    if i != c.len() {
        return Err(format!("trailing text at {i}"));
    }
    Ok(v)
}

fn ws(c: &[char], i: &mut usize) {
    while matches!(c.get(*i), Some(' ' | '\t' | '\n' | '\r')) {
        *i += 1;
    }
}

fn jvalue(c: &[char], i: &mut usize) -> Result<J, String> {
    ws(c, i);
    match c.get(*i) {
        Some('{') => {
            *i += 1;
            let mut m: Vec<(String, J)> = Vec::new();
            ws(c, i);
            if c.get(*i) == Some(&'}') {
                *i += 1;
                return Ok(J::Obj(m));
            }
            loop {
                ws(c, i);
                let k = jstring(c, i)?;
                ws(c, i);
                if c.get(*i) != Some(&':') {
                    return Err(format!("expected ':' at {i}"));
                }
                *i += 1;
                let v = jvalue(c, i)?;
                if m.iter().any(|(x, _)| *x == k) {
                    return Err(format!("duplicate key {k}"));
                }
                m.push((k, v));
                ws(c, i);
                match c.get(*i) {
                    Some(',') => *i += 1,
                    Some('}') => {
                        *i += 1;
                        return Ok(J::Obj(m));
                    }
                    _ => return Err(format!("bad object at {i}")),
                }
            }
        }
        Some('[') => {
            *i += 1;
            let mut v = Vec::new();
            ws(c, i);
            if c.get(*i) == Some(&']') {
                *i += 1;
                return Ok(J::Arr(v));
            }
            loop {
                v.push(jvalue(c, i)?);
                ws(c, i);
                match c.get(*i) {
                    Some(',') => *i += 1,
                    Some(']') => {
                        *i += 1;
                        return Ok(J::Arr(v));
                    }
                    _ => return Err(format!("bad array at {i}")),
                }
            }
        }
        Some('"') => jstring(c, i).map(J::Str),
        Some('-' | '0'..='9') => {
            let start = *i;
            if c[*i] == '-' {
                *i += 1;
            }
            let digits = |i: &mut usize| {
                let s = *i;
                while c.get(*i).is_some_and(char::is_ascii_digit) {
                    *i += 1;
                }
                *i - s
            };
            let int_start = *i;
            let n = digits(i);
            if n == 0 || (n > 1 && c[int_start] == '0') {
                return Err(format!("bad number at {start}"));
            }
            if c.get(*i) == Some(&'.') {
                *i += 1;
                if digits(i) == 0 {
                    return Err(format!("bad fraction at {start}"));
                }
            }
            if matches!(c.get(*i), Some('e' | 'E')) {
                *i += 1;
                if matches!(c.get(*i), Some('+' | '-')) {
                    *i += 1;
                }
                if digits(i) == 0 {
                    return Err(format!("bad exponent at {start}"));
                }
            }
            Ok(J::Num(c[start..*i].iter().collect()))
        }
        Some(_) => {
            for (lit, v) in [
                ("true", J::Bool(true)),
                ("false", J::Bool(false)),
                ("null", J::Null),
            ] {
                if c[*i..].iter().take(lit.len()).copied().eq(lit.chars()) {
                    *i += lit.len();
                    return Ok(v);
                }
            }
            Err(format!("unexpected character at {i}"))
        }
        None => Err("unexpected end".into()),
    }
}

fn jstring(c: &[char], i: &mut usize) -> Result<String, String> {
    if c.get(*i) != Some(&'"') {
        return Err(format!("expected a string at {i}"));
    }
    *i += 1;
    let mut s = String::new();
    loop {
        match c.get(*i) {
            Some('"') => {
                *i += 1;
                return Ok(s);
            }
            Some('\\') => {
                let e = *c.get(*i + 1).ok_or("bad escape")?;
                *i += 2;
                match e {
                    '"' | '\\' | '/' => s.push(e),
                    'n' => s.push('\n'),
                    't' => s.push('\t'),
                    'r' => s.push('\r'),
                    'b' => s.push('\u{8}'),
                    'f' => s.push('\u{c}'),
                    'u' => {
                        let h: String = c.get(*i..*i + 4).ok_or("bad \\u")?.iter().collect();
                        let n = u32::from_str_radix(&h, 16).map_err(|e| e.to_string())?;
                        s.push(char::from_u32(n).ok_or("bad code point")?);
                        *i += 4;
                    }
                    _ => return Err(format!("bad escape at {i}")),
                }
            }
            Some(ch) if (*ch as u32) < 0x20 => return Err(format!("raw control character at {i}")),
            Some(ch) => {
                s.push(*ch);
                *i += 1;
            }
            None => return Err("unterminated string".into()),
        }
    }
}
