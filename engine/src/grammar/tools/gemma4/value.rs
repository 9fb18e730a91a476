//! Gemma 4's values, read into JSON and written from it. Gemma 4 writes a call's arguments
//! as a JSON-like object whose keys are bare and whose strings sit between `<|"|>` marks,
//! with nothing escaped inside them:
//!
//! ```text
//! {city:<|"|>São Paulo<|"|>,days:3,units:[<|"|>c<|"|>],where:{lat:1.5,exact:true}}
//! ```
//!
//! Reading works on text cut anywhere, so a stream can send arguments as they come: the JSON
//! written so far only grows, and is always the start of the whole value's. A string's text
//! goes out as it comes (less a tail that may be the start of its closing mark); a key once
//! its `:` is there; a number, `true`, `false` or `null` once something ends it. As other
//! servers read it, a bare word that is none of those is a string, and a key may be quoted.

use serde_json::Value;

/// What opens and closes a string.
pub(super) const QUOTE: &str = "<|\"|>";

/// Nesting deeper than this is refused (a hostile output cannot exhaust the stack); the
/// grammar does not count depth, so a call nested deeper is read as text.
const MAX_DEPTH: usize = 64;

/// Why reading stopped before a value's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stop {
    /// The text ends inside the value: more may come.
    Cut,
    /// What is there is no value.
    Bad,
}

/// The arguments object at the start of `text`: its JSON and the text after it once whole;
/// else why not, with the JSON so far (a prefix of the whole object's that only grows).
pub(super) fn read_arguments(text: &str) -> (String, Result<&str, Stop>) {
    let mut json = String::new();
    let after = match text.trim_start().strip_prefix('{') {
        Some(body) => read_object(body, &mut json, 0),
        None if text.trim().is_empty() => Err(Stop::Cut),
        None => Err(Stop::Bad),
    };
    (json, after)
}

/// Reads the value at the start of `text` (after blank space), writing its JSON to `out`;
/// the text after it once whole.
fn read_value<'a>(text: &'a str, out: &mut String, depth: usize) -> Result<&'a str, Stop> {
    if depth > MAX_DEPTH {
        return Err(Stop::Bad);
    }
    let text = text.trim_start();
    if let Some(rest) = text.strip_prefix(QUOTE) {
        return read_string(rest, out);
    }
    if QUOTE.starts_with(text) {
        return Err(Stop::Cut);
    }
    if let Some(rest) = text.strip_prefix('{') {
        return read_object(rest, out, depth + 1);
    }
    if let Some(rest) = text.strip_prefix('[') {
        return read_array(rest, out, depth + 1);
    }
    read_bare(text, out)
}

/// A string's text up to its closing mark (after its opening one).
fn read_string<'a>(text: &'a str, out: &mut String) -> Result<&'a str, Stop> {
    out.push('"');
    match text.find(QUOTE) {
        Some(end) => {
            push_escaped(out, &text[..end]);
            out.push('"');
            Ok(&text[end + QUOTE.len()..])
        }
        None => {
            push_escaped(out, &text[..text.len() - mark_start_at_end(text, QUOTE)]);
            Err(Stop::Cut)
        }
    }
}

/// An object's members and its `}` (after its `{`).
fn read_object<'a>(mut text: &'a str, out: &mut String, depth: usize) -> Result<&'a str, Stop> {
    out.push('{');
    let mut first = true;
    loop {
        let mut next = text.trim_start();
        if let Some(rest) = next.strip_prefix('}') {
            out.push('}');
            return Ok(rest);
        }
        if !first {
            next = separator(next, out)?;
        }
        let (key, rest) = read_key(next)?;
        out.push_str(&Value::String(key.to_string()).to_string());
        out.push(':');
        text = read_value(rest, out, depth)?;
        first = false;
    }
}

/// An array's items and its `]` (after its `[`).
fn read_array<'a>(mut text: &'a str, out: &mut String, depth: usize) -> Result<&'a str, Stop> {
    out.push('[');
    let mut first = true;
    loop {
        let mut next = text.trim_start();
        if let Some(rest) = next.strip_prefix(']') {
            out.push(']');
            return Ok(rest);
        }
        if !first {
            next = separator(next, out)?;
        }
        text = read_value(next, out, depth)?;
        first = false;
    }
}

/// The `,` between two members or items, and the text after it.
fn separator<'a>(text: &'a str, out: &mut String) -> Result<&'a str, Stop> {
    match text.strip_prefix(',') {
        Some(rest) => {
            out.push(',');
            Ok(rest.trim_start())
        }
        None if text.is_empty() => Err(Stop::Cut),
        None => Err(Stop::Bad),
    }
}

/// A member's key (bare, or between quote marks) and the text after its `:`.
fn read_key(text: &str) -> Result<(&str, &str), Stop> {
    if let Some(quoted) = text.strip_prefix(QUOTE) {
        let end = quoted.find(QUOTE).ok_or(Stop::Cut)?;
        let after = quoted[end + QUOTE.len()..].trim_start();
        return match after.strip_prefix(':') {
            Some(rest) => Ok((&quoted[..end], rest)),
            None if after.is_empty() => Err(Stop::Cut),
            None => Err(Stop::Bad),
        };
    }
    if text.is_empty() || QUOTE.starts_with(text) {
        return Err(Stop::Cut);
    }
    let end = text.find([':', '}', ',', '{', '[', ']']);
    match end.map(|at| (at, text.as_bytes()[at])) {
        Some((at, b':')) => {
            let key = text[..at].trim();
            match key.is_empty() || key.contains(QUOTE) {
                true => Err(Stop::Bad),
                false => Ok((key, &text[at + 1..])),
            }
        }
        Some(_) => Err(Stop::Bad),
        None => Err(Stop::Cut),
    }
}

/// A number, `true`, `false`, `null` (or Python's spellings of the last three), or a bare
/// word taken as a string: whole once a `,`, `}` or `]` ends it.
fn read_bare<'a>(text: &'a str, out: &mut String) -> Result<&'a str, Stop> {
    let end = text.find([',', '}', ']']).ok_or(Stop::Cut)?;
    let word = text[..end].trim();
    if word.is_empty() || word.contains(QUOTE) || word.contains(['{', '[']) {
        return Err(Stop::Bad);
    }
    let json = match word {
        "true" | "True" => "true".to_string(),
        "false" | "False" => "false".to_string(),
        "null" | "None" | "none" => "null".to_string(),
        _ => match serde_json::from_str::<serde_json::Number>(word) {
            Ok(_) => word.to_string(),
            Err(_) => Value::String(word.to_string()).to_string(),
        },
    };
    out.push_str(&json);
    Ok(&text[end..])
}

/// `text` as the inside of a JSON string (each character escaped on its own, so the escape
/// of a prefix is a prefix of the escape).
fn push_escaped(out: &mut String, text: &str) {
    let quoted = Value::String(text.to_string()).to_string();
    out.push_str(&quoted[1..quoted.len() - 1]);
}

/// How many bytes at the end of `text` may be the start of `mark` (which is ASCII).
pub(super) fn mark_start_at_end(text: &str, mark: &str) -> usize {
    (1..mark.len().min(text.len() + 1))
        .rev()
        .find(|&n| text.ends_with(&mark[..n]))
        .unwrap_or(0)
}

/// `value` as Gemma 4 writes it (as its chat template renders arguments): keys bare and
/// sorted, strings between quote marks.
pub(super) fn write(value: &Value, out: &mut String) {
    match value {
        Value::String(text) => {
            out.push_str(QUOTE);
            out.push_str(text);
            out.push_str(QUOTE);
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, (key, member)) in sorted(members).into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                match bare_key(key) {
                    true => out.push_str(key),
                    false => {
                        out.push_str(QUOTE);
                        out.push_str(key);
                        out.push_str(QUOTE);
                    }
                }
                out.push(':');
                write(member, out);
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// Whether `key` reads back as itself when written bare: not empty, no blank space at its
/// ends, none of the marks that end a key or a value.
pub(super) fn bare_key(key: &str) -> bool {
    !key.is_empty()
        && key.trim() == key
        && !key.contains([':', '}', ',', '{', '[', ']'])
        && !key.contains(QUOTE)
}

/// The members of an object in the order Gemma 4's template writes them (Jinja's
/// `dictsort`: by key, case ignored).
pub(super) fn sorted(members: &serde_json::Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut members: Vec<_> = members.iter().collect();
    members.sort_by(|(a, _), (b, _)| a.to_lowercase().cmp(&b.to_lowercase()).then(a.cmp(b)));
    members
}
