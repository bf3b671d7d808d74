//! The comparison rules of the conformance set's `conformance_diff.py`, shared by the tests that
//! run conformance data (tests/conformance.rs, tests/cutlass_unit.rs): exact text after
//! normalisation, errors by category, the stride of a size-1 mode not compared except in the
//! paper-form complement cases.

/// A value of the conformance grammar, for structural comparison.
#[derive(Debug, PartialEq)]
enum Node {
    Leaf(String),
    Tup(Vec<Node>),
    Lay(Box<Node>, Box<Node>),
    Tiler(Vec<Node>),
}

fn parse(t: &[u8], i: &mut usize) -> Option<Node> {
    if t.get(*i) == Some(&b'<') {
        *i += 1;
        let mut items = vec![];
        while t.get(*i)? != &b'>' {
            items.push(parse(t, i)?);
            if t.get(*i) == Some(&b',') {
                *i += 1;
            }
        }
        *i += 1;
        return Some(Node::Tiler(items));
    }
    let n = node(t, i)?;
    if t.get(*i) == Some(&b':') {
        *i += 1;
        let d = node(t, i)?;
        return Some(Node::Lay(Box::new(n), Box::new(d)));
    }
    Some(n)
}

fn node(t: &[u8], i: &mut usize) -> Option<Node> {
    if t.get(*i) == Some(&b'(') {
        *i += 1;
        let mut items = vec![];
        while t.get(*i)? != &b')' {
            items.push(node(t, i)?);
            if t.get(*i) == Some(&b',') {
                *i += 1;
            }
        }
        *i += 1;
        return Some(Node::Tup(items));
    }
    let j = *i;
    while *i < t.len() && !b"(),:<>".contains(&t[*i]) {
        *i += 1;
    }
    Some(Node::Leaf(String::from_utf8_lossy(&t[j..*i]).into_owned()))
}

fn normalise(s: &str) -> String {
    let s: String = s.split_whitespace().collect();
    let b = s.as_bytes();
    let mut out = String::new();
    for (k, &c) in b.iter().enumerate() {
        // drop static markers: '_' directly before a digit or '-'
        if c == b'_'
            && b.get(k + 1)
                .is_some_and(|n| n.is_ascii_digit() || *n == b'-')
        {
            continue;
        }
        out.push(c as char);
    }
    out.replace(",)", ")").replace("None", "_")
}

fn strides_match(shape: &Node, e: &Node, a: &Node, strict: bool) -> bool {
    match shape {
        Node::Leaf(s) => {
            e == a || (!strict && s == "1" && matches!((e, a), (Node::Leaf(_), Node::Leaf(_))))
        }
        Node::Tup(ss) => match (e, a) {
            (Node::Tup(es), Node::Tup(as_)) => {
                es.len() == ss.len()
                    && as_.len() == ss.len()
                    && ss
                        .iter()
                        .zip(es)
                        .zip(as_)
                        .all(|((s, x), y)| strides_match(s, x, y, strict))
            }
            _ => false,
        },
        _ => false,
    }
}

fn same_tree(e: &Node, a: &Node, strict: bool) -> bool {
    match (e, a) {
        (Node::Leaf(x), Node::Leaf(y)) => x == y,
        (Node::Lay(es, ed), Node::Lay(as_, ad)) => es == as_ && strides_match(es, ed, ad, strict),
        (Node::Tup(x), Node::Tup(y)) | (Node::Tiler(x), Node::Tiler(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_tree(p, q, strict))
        }
        _ => false,
    }
}

fn category(s: &str) -> String {
    s.split_whitespace()
        .nth(1)
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .collect()
}

/// The comparison of conformance_diff.py.
pub fn same(expected: &str, actual: &str, strict: bool) -> bool {
    let (e, a) = (expected.trim(), actual.trim());
    if e.starts_with("ERROR") || a.starts_with("ERROR") {
        return e.starts_with("ERROR") && a.starts_with("ERROR") && category(e) == category(a);
    }
    let (e, a) = (normalise(e), normalise(a));
    if e == a {
        return true;
    }
    let (mut i, mut j) = (0, 0);
    match (parse(e.as_bytes(), &mut i), parse(a.as_bytes(), &mut j)) {
        (Some(x), Some(y)) if i == e.len() && j == a.len() => same_tree(&x, &y, strict),
        _ => false,
    }
}

pub struct Case {
    pub line: usize,
    pub op: String,
    pub args: Vec<String>,
    pub expected: String,
    pub strict: bool,
}

/// The cases of a conformance file, with their line numbers; a `# cpp prints` comment makes the
/// case after it strict.
pub fn parse_cases(text: &str) -> Vec<Case> {
    let mut out = vec![];
    let mut strict = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        if line.trim_start().starts_with('#') {
            strict = line.trim_start().starts_with("# cpp prints");
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let k = f
            .iter()
            .position(|x| *x == "=>")
            .expect("every case has =>");
        out.push(Case {
            line: n + 1,
            op: f[0].to_string(),
            args: f[1..k].iter().map(|s| s.to_string()).collect(),
            expected: f[k + 1].to_string(),
            strict,
        });
        strict = false;
    }
    out
}
