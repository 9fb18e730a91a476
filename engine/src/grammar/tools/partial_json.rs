//! JSON read while it is being written: where a value ends, the fields of an object so far,
//! and the compact form of what a value's text holds so far. Streamed tool calls send their
//! arguments as they come: each new piece of the compact form, which ends as the whole
//! value's compact form (`Value::to_string`, what an unstreamed reply holds).

use serde_json::Value;

/// How far a JSON value reaches in text that may stop in the middle of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reach {
    /// It ends just before this byte offset.
    Ends(usize),
    /// The text stops inside it.
    Cut,
    /// It is not JSON.
    Bad,
}

/// The first byte at or after `at` that is not blank space.
pub(super) fn skip_blank(text: &str, mut at: usize) -> usize {
    let bytes = text.as_bytes();
    while bytes
        .get(at)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    {
        at += 1;
    }
    at
}

/// How deep values may nest: as deep as `serde_json` reads arguments inside a call object
/// (it stops at 127 levels; deeper text could never parse, and a model repeating `[` must
/// not exhaust the stack).
const MOST_DEPTH: usize = 126;

/// How far the value at `at` (after blank space) reaches.
pub(super) fn value_reach(text: &str, at: usize) -> Reach {
    nested_reach(text, at, 0)
}

/// [`value_reach`] for a value inside `depth` others.
fn nested_reach(text: &str, at: usize, depth: usize) -> Reach {
    let at = skip_blank(text, at);
    match text.as_bytes().get(at) {
        None => Reach::Cut,
        Some(b'"') => string_reach(text, at),
        Some(b'{' | b'[') if depth >= MOST_DEPTH => Reach::Bad,
        Some(b'{') => container_reach(text, at, true, depth + 1),
        Some(b'[') => container_reach(text, at, false, depth + 1),
        Some(_) => scalar_reach(text, at),
    }
}

/// The string whose opening quote is at `at`.
fn string_reach(text: &str, at: usize) -> Reach {
    let bytes = text.as_bytes();
    let mut i = at + 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 2,
            b'"' => return Reach::Ends(i + 1),
            _ => i += 1,
        }
    }
    Reach::Cut
}

/// A number or literal: it ends where a character that cannot be part of one follows.
fn scalar_reach(text: &str, at: usize) -> Reach {
    let bytes = text.as_bytes();
    let scalar = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.');
    let len = bytes[at..].iter().take_while(|b| scalar(b)).count();
    match (len, at + len == bytes.len()) {
        (0, _) => Reach::Bad,
        (_, true) => Reach::Cut,
        (_, false) => Reach::Ends(at + len),
    }
}

/// An object (`object`) or array whose opening bracket is at `at`, inside `depth` values
/// with it.
fn container_reach(text: &str, at: usize, object: bool, depth: usize) -> Reach {
    let close = if object { b'}' } else { b']' };
    let bytes = text.as_bytes();
    let mut i = skip_blank(text, at + 1);
    if bytes.get(i) == Some(&close) {
        return Reach::Ends(i + 1);
    }
    loop {
        if object {
            i = match step(text, i, string_reach_checked) {
                Ok(end) => end,
                Err(reach) => return reach,
            };
            i = skip_blank(text, i);
            match bytes.get(i) {
                None => return Reach::Cut,
                Some(b':') => i += 1,
                Some(_) => return Reach::Bad,
            }
        }
        i = match step(text, i, |text, i| nested_reach(text, i, depth)) {
            Ok(end) => end,
            Err(reach) => return reach,
        };
        i = skip_blank(text, i);
        match bytes.get(i) {
            None => return Reach::Cut,
            Some(b',') => i = skip_blank(text, i + 1),
            Some(&b) if b == close => return Reach::Ends(i + 1),
            Some(_) => return Reach::Bad,
        }
    }
}

/// A key: a string, nothing else.
fn string_reach_checked(text: &str, at: usize) -> Reach {
    let at = skip_blank(text, at);
    match text.as_bytes().get(at) {
        None => Reach::Cut,
        Some(b'"') => string_reach(text, at),
        Some(_) => Reach::Bad,
    }
}

/// Where `reach` says the part at `at` ends, or how reading stops.
fn step(text: &str, at: usize, reach: impl Fn(&str, usize) -> Reach) -> Result<usize, Reach> {
    match reach(text, at) {
        Reach::Ends(end) => Ok(end),
        other => Err(other),
    }
}

/// One field of an object being written: its key (whole) and its value's text from its
/// first character, to its end or to where the text stops.
#[derive(Debug, PartialEq)]
pub(super) struct Field<'t> {
    pub key: String,
    pub value: &'t str,
    pub whole: bool,
}

/// The fields of the object at `at` whose keys are whole, and where the object ends, if it
/// does; `None` where no object starts there or its text is not JSON.
pub(super) fn object_so_far(text: &str, at: usize) -> Option<(Vec<Field<'_>>, Option<usize>)> {
    let bytes = text.as_bytes();
    let at = skip_blank(text, at);
    if bytes.get(at) != Some(&b'{') {
        return None;
    }
    let mut fields = Vec::new();
    let mut i = skip_blank(text, at + 1);
    if bytes.get(i) == Some(&b'}') {
        return Some((fields, Some(i + 1)));
    }
    loop {
        let key_end = match string_reach_checked(text, i) {
            Reach::Ends(end) => end,
            Reach::Cut => return Some((fields, None)),
            Reach::Bad => return None,
        };
        let key: String = serde_json::from_str(text[i..key_end].trim_start()).ok()?;
        i = skip_blank(text, key_end);
        match bytes.get(i) {
            None => return Some((fields, None)),
            Some(b':') => i = skip_blank(text, i + 1),
            Some(_) => return None,
        }
        let (end, whole) = match value_reach(text, i) {
            Reach::Ends(end) => (end, true),
            Reach::Cut => (text.len(), false),
            Reach::Bad => return None,
        };
        fields.push(Field {
            key,
            value: &text[i..end],
            whole,
        });
        if !whole {
            return Some((fields, None));
        }
        i = skip_blank(text, end);
        match bytes.get(i) {
            None => return Some((fields, None)),
            Some(b',') => i = skip_blank(text, i + 1),
            Some(b'}') => return Some((fields, Some(i + 1))),
            Some(_) => return None,
        }
    }
}

/// The compact form of as much of the JSON `text` as is settled: each whole token, and a
/// string's characters so far (an escape once whole). It reads tokens and leaves their
/// order unchecked (the text is a value `object_so_far` or `value_reach` found); reading
/// stops at a token that is not JSON.
/// More text only ever adds to it, and the whole value's text gives its `to_string`.
pub(super) fn compact_so_far(text: &str) -> String {
    let mut out = String::new();
    let mut at = 0;
    loop {
        at = skip_blank(text, at);
        let Some(&byte) = text.as_bytes().get(at) else {
            return out;
        };
        match byte {
            b'{' | b'}' | b'[' | b']' | b':' | b',' => {
                out.push(char::from(byte));
                at += 1;
            }
            b'"' => match string_reach(text, at) {
                Reach::Ends(end) => match serde_json::from_str::<String>(&text[at..end]) {
                    Ok(string) => {
                        out.push_str(&Value::String(string).to_string());
                        at = end;
                    }
                    Err(_) => return out,
                },
                _ => {
                    if let Some(string) = string_so_far(&text[at + 1..]) {
                        let quoted = Value::String(string).to_string();
                        out.push_str(&quoted[..quoted.len() - 1]);
                    }
                    return out;
                }
            },
            _ => match scalar_reach(text, at) {
                Reach::Ends(end) => match serde_json::from_str::<Value>(&text[at..end]) {
                    Ok(value) => {
                        out.push_str(&value.to_string());
                        at = end;
                    }
                    Err(_) => return out,
                },
                _ => return out,
            },
        }
    }
}

/// The characters of a string cut short (`body`: its text after the opening quote): up
/// to the last whole one (an escape whole, a surrogate pair's two halves together).
fn string_so_far(body: &str) -> Option<String> {
    let bytes = body.as_bytes();
    let mut settled = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += body[i..].chars().next().map_or(1, char::len_utf8);
            settled = i;
            continue;
        }
        let len = match bytes.get(i + 1) {
            None => break,
            Some(b'u') => {
                let high = body
                    .get(i + 2..i + 6)
                    .and_then(|h| u16::from_str_radix(h, 16).ok());
                match high {
                    None => break,
                    // A high surrogate waits for its low half.
                    Some(0xD800..=0xDBFF) => 12,
                    Some(_) => 6,
                }
            }
            // The escaped character whole (a multibyte one is no escape: decoding fails).
            Some(_) => 1 + body[i + 1..].chars().next().map_or(1, char::len_utf8),
        };
        if i + len > bytes.len() {
            break;
        }
        i += len;
        settled = i;
    }
    serde_json::from_str(&format!("\"{}\"", &body[..settled])).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn values_reach_their_end_or_are_cut() {
        assert_eq!(value_reach(" {\"a\": [1, \"]\"]} x", 0), Reach::Ends(16));
        assert_eq!(value_reach("{\"a\": [1, 2", 0), Reach::Cut);
        assert_eq!(value_reach("12", 0), Reach::Cut, "more digits may come");
        assert_eq!(value_reach("12,", 0), Reach::Ends(2));
        assert_eq!(value_reach("\"a\\\"b\"", 0), Reach::Ends(6));
        assert_eq!(value_reach("{1: 2}", 0), Reach::Bad);
        assert_eq!(value_reach("[1 2]", 0), Reach::Bad);
        let deep = "[".repeat(100_000);
        assert_eq!(value_reach(&deep, 0), Reach::Bad, "too deep to ever parse");
        assert_eq!(value_reach(&"[".repeat(100), 0), Reach::Cut);
    }

    #[test]
    fn an_objects_fields_so_far() {
        let text = r#"{"name": "f", "arguments": {"city": "Pa"#;
        let (fields, end) = object_so_far(text, 0).unwrap();
        assert_eq!(end, None);
        assert_eq!(fields[0].key, "name");
        assert_eq!((fields[0].value, fields[0].whole), ("\"f\"", true));
        assert_eq!(fields[1].key, "arguments");
        assert_eq!(fields[1].value, "{\"city\": \"Pa");
        assert!(!fields[1].whole);
        let whole = r#" {"a": {}, "b": 1} tail"#;
        assert_eq!(object_so_far(whole, 0).unwrap().1, Some(18));
        assert!(object_so_far("[1]", 0).is_none());
        assert!(object_so_far("{\"a\" 1}", 0).is_none());
    }

    #[test]
    fn strings_so_far_hold_back_half_escapes() {
        assert_eq!(compact_so_far("\"ab\\"), "\"ab");
        assert_eq!(compact_so_far("\"ab\\u00e"), "\"ab");
        assert_eq!(compact_so_far("\"ab\\u00e9"), "\"abé");
        assert_eq!(compact_so_far("\"\\ud83d"), "\"");
        assert_eq!(compact_so_far("\"\\ud83d\\ude0"), "\"");
        assert_eq!(compact_so_far("\"\\ud83d\\ude00"), "\"😀");
        assert_eq!(
            compact_so_far("{\"n\": 1.50, \"m\": 1e"),
            "{\"n\":1.5,\"m\":"
        );
        assert_eq!(compact_so_far("[tru"), "[");
        assert_eq!(compact_so_far("[true ,null]"), "[true,null]");
        assert_eq!(
            compact_so_far("{\"a\":\"\\é"),
            "{\"a\":",
            "no escape, no panic"
        );
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            (-1e6f64..1e6).prop_map(|n| json!(n)),
            "[ -~\\n\"\\\\éü😀\u{1}]{0,8}".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec(("[a-z\"]{1,3}", inner), 0..4)
                    .prop_map(|fields| Value::Object(fields.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Every prefix of a value's text (pretty, or escaped to ASCII) gives a prefix of
        /// its compact form, one that only grows, and the whole text gives all of it.
        #[test]
        fn compact_so_far_grows_into_the_compact_form(inner in json_value(), ascii in any::<bool>()) {
            // Arguments are objects: a bare number at the end of the text is never whole.
            let value = json!({"v": inner});
            let compact = value.to_string();
            let mut text = serde_json::to_string_pretty(&value).unwrap();
            if ascii {
                text = text.chars().map(|c| match c {
                    c if c.is_ascii() => c.to_string(),
                    c => c.encode_utf16(&mut [0; 2]).iter().map(|u| format!("\\u{u:04x}")).collect(),
                }).collect();
            }
            let mut last = String::new();
            for end in (0..=text.len()).filter(|&e| text.is_char_boundary(e)) {
                let so_far = compact_so_far(&text[..end]);
                prop_assert!(compact.starts_with(&so_far), "{so_far:?} of {compact:?}");
                prop_assert!(so_far.starts_with(&last), "{so_far:?} after {last:?}");
                last = so_far;
            }
            prop_assert_eq!(last, compact);
        }
    }
}
