//! SGLang's structural tags as a Lark grammar: free text in which tagged pieces (a tool
//! call's `<function=NAME>` JSON `</function>`, say) must follow their grammar. Two forms are
//! read, as SGLang's OpenAI API and its scheduler take them:
//!
//! - the original one, `{"structures": [{"begin", "schema", "end"}], "triggers": [...]}`:
//!   text in which each trigger starts the structure whose `begin` it opens, then JSON valid
//!   against its `schema`, then its `end`; then text again;
//! - xgrammar's, `{"type": "structural_tag", "format": FORMAT}`, where a format is
//!   `const_string`, `json_schema`, `regex`, `any_text`, `sequence`, `or`, `tag`,
//!   `triggered_tags` or `tags_with_separator`, with xgrammar's meanings (`at_least_one`:
//!   the output starts with a tag; `stop_after_first`: it ends after one; `excludes`: text
//!   the free text may not hold). Other types, and fields this reading would ignore, are
//!   refused by name.
//!
//! Free text never holds a trigger: where one appears, a tag follows. Free text
//! (`any_text`, `triggered_tags`) ends at the end of the output or at the first `end` of the
//! tag around it (a lazy lexeme holding that end), as xgrammar reads it; where nothing
//! would end it, it is refused. Each tag's content is written once, so the grammar grows
//! with the tag's text.

use super::{compact, strict};
use serde_json::{json, Map, Value};

/// How deep formats may nest, and how many items a list may hold.
const MAX_DEPTH: usize = 16;
const MAX_ITEMS: usize = 256;
/// The most Lark text one structural tag may build.
const MAX_LARK_BYTES: usize = 4 << 20;

/// The Lark grammar of a structural tag, or why it cannot be one.
pub fn lark(spec: &Value) -> Result<String, String> {
    let object = spec
        .as_object()
        .ok_or("a structural tag is a JSON object")?;
    if object.get("type").is_some_and(|t| t != "structural_tag") {
        return Err("a structural tag has type \"structural_tag\"".into());
    }
    let mut builder = Builder::default();
    let start = match (object.get("structures"), object.get("format")) {
        (Some(structures), None) => {
            known_fields(
                object,
                "structural tag",
                &["type", "structures", "triggers"],
            )?;
            builder.legacy(structures, object.get("triggers"))?
        }
        (None, Some(format)) => {
            known_fields(object, "structural tag", &["type", "format"])?;
            builder.format(format, Place::End, 0)?.expr
        }
        _ => return Err("a structural tag has either structures and triggers, or a format".into()),
    };
    Ok(format!("start: {start}\n{}", builder.rules))
}

/// Where a format stands: free text needs something to end it, the output's end or the
/// `end` of the tag around it (the first one closes the text, as xgrammar reads it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place<'e> {
    End,
    Inside,
    Before(&'e str),
}

/// A format's Lark expression, and whether it already holds the `end` of its
/// [`Place::Before`].
#[derive(Clone, Debug)]
struct Built {
    expr: String,
    ends: bool,
}

impl Built {
    fn open(expr: String) -> Self {
        Self { expr, ends: false }
    }
}

/// The rules built so far, named in order.
#[derive(Default)]
struct Builder {
    rules: String,
    next: usize,
    /// The rule already written for a tag's content, end and place: a tag listed twice (or
    /// nested in one listed twice) is written once.
    contents: std::collections::HashMap<String, Built>,
}

/// One tag: what opens it, its content (a format), what closes it.
struct Tag<'a> {
    begin: &'a str,
    content: Value,
    end: &'a str,
}

impl Builder {
    /// A new rule (`lowercase`) or terminal (`UPPERCASE`) name.
    fn name(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    fn define(&mut self, name: &str, body: &str) -> Result<(), String> {
        self.rules.push_str(&format!("{name}: {body}\n"));
        match self.rules.len() > MAX_LARK_BYTES {
            true => Err(format!(
                "the structural tag builds a grammar of over {MAX_LARK_BYTES} bytes"
            )),
            false => Ok(()),
        }
    }

    fn legacy(&mut self, structures: &Value, triggers: Option<&Value>) -> Result<String, String> {
        let tags = items(structures, "structures")?
            .iter()
            .map(|s| {
                let fields = s.as_object().ok_or("every structure is an object")?;
                known_fields(fields, "structure", &["begin", "schema", "end"])?;
                // No schema: any JSON, as SGLang takes it.
                let schema = s.get("schema").cloned().unwrap_or_else(|| json!({}));
                Ok(Tag {
                    begin: text_field(s, "begin")?,
                    content: json!({"type": "json_schema", "json_schema": schema}),
                    end: text_field(s, "end")?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let triggers = strings(triggers.ok_or("structures need triggers")?, "triggers")?;
        let built = self.triggered(&tags, &triggers, &[], (false, false), None, 0)?;
        Ok(built.expr)
    }

    /// The Lark expression of `format`.
    fn format(&mut self, format: &Value, place: Place<'_>, depth: usize) -> Result<Built, String> {
        if depth > MAX_DEPTH {
            return Err(format!("formats nest at most {MAX_DEPTH} deep"));
        }
        let fields = format.as_object().ok_or("a format is a JSON object")?;
        let kind = text_field(format, "type")?;
        let known = |allowed: &[&str]| known_fields(fields, &format!("{kind} format"), allowed);
        match kind {
            "const_string" => {
                known(&["type", "value"])?;
                match text_field(format, "value")? {
                    "" => Err("const_string needs a value that is not empty".into()),
                    value => Ok(Built::open(literal(value))),
                }
            }
            "json_schema" => {
                known(&["type", "json_schema", "style"])?;
                if format.get("style").is_some_and(|s| s != "json") {
                    return Err("json_schema formats are written as JSON (style \"json\")".into());
                }
                Ok(Built::open(format!(
                    "%json {}",
                    compact(&strict(field(format, "json_schema")?))
                )))
            }
            "regex" => {
                known(&["type", "pattern"])?;
                let name = self.name("RX");
                let pattern = lark_regex(text_field(format, "pattern")?);
                self.define(&name, &format!("/{pattern}/"))?;
                Ok(Built::open(name))
            }
            "any_text" => {
                known(&["type", "excludes"])?;
                free_text_ends_the_output(place, kind)?;
                let name = self.name("ANY");
                let excludes = optional_strings(format.get("excludes"), "excludes")?;
                self.define(&name, &text_without(&excludes))?;
                self.up_to_end(name, place)
            }
            "sequence" | "or" => {
                known(&["type", "elements"])?;
                let elements = items(field(format, "elements")?, "elements")?;
                let last = elements.len() - 1;
                let mut parts = Vec::with_capacity(elements.len());
                for (at, element) in elements.iter().enumerate() {
                    // Only a sequence's last element ends where the sequence does.
                    let place = if kind == "sequence" && at < last {
                        Place::Inside
                    } else {
                        place
                    };
                    parts.push(self.format(element, place, depth + 1)?);
                }
                // A sequence holds the end where its last element does; where some of an
                // `or`'s alternatives hold it, the others are given it.
                let ends = match kind {
                    "sequence" => parts.last().is_some_and(|p| p.ends),
                    _ => parts.iter().any(|p| p.ends),
                };
                let exprs: Vec<String> = parts
                    .into_iter()
                    .map(|p| match (kind, ends && !p.ends, place) {
                        ("or", true, Place::Before(end)) => sequence(&[p.expr, literal(end)]),
                        _ => p.expr,
                    })
                    .collect();
                let joiner = if kind == "or" { " | " } else { " " };
                Ok(Built {
                    expr: format!("({})", exprs.join(joiner)),
                    ends,
                })
            }
            "tag" => {
                let tag = tag(format)?;
                let content = self.content(&tag, place, depth)?;
                Ok(Built {
                    expr: sequence(&[literal(tag.begin), content.expr]),
                    ends: content.ends,
                })
            }
            "triggered_tags" => {
                known(&[
                    "type",
                    "triggers",
                    "tags",
                    "at_least_one",
                    "stop_after_first",
                    "excludes",
                ])?;
                let flags = flags(format)?;
                // Exactly one tag (both flags) holds no free text.
                let close = match place {
                    _ if flags == (true, true) => None,
                    Place::Before(end) => Some(end),
                    _ => {
                        free_text_ends_the_output(place, kind)?;
                        None
                    }
                };
                let tags = tags(format)?;
                let triggers = strings(field(format, "triggers")?, "triggers")?;
                let excludes = optional_strings(format.get("excludes"), "excludes")?;
                self.triggered(&tags, &triggers, &excludes, flags, close, depth)
            }
            "tags_with_separator" => {
                known(&[
                    "type",
                    "tags",
                    "separator",
                    "at_least_one",
                    "stop_after_first",
                ])?;
                let separator = literal(text_field(format, "separator")?);
                let mut alternatives = Vec::new();
                for tag in tags(format)? {
                    let content = self.content(&tag, Place::Inside, depth)?;
                    alternatives.push(sequence(&[literal(tag.begin), content.expr]));
                }
                let one = self.name("one");
                self.define(&one, &alternatives.join(" | "))?;
                let more = sequence(&[separator, one.clone()]);
                Ok(Built::open(match flags(format)? {
                    (true, true) => one,
                    (false, true) => format!("({one})?"),
                    (true, false) => format!("({one} {more}*)"),
                    (false, false) => format!("({one} {more}*)?"),
                }))
            }
            other => Err(format!(
                "structural tag format type {other:?} is not supported"
            )),
        }
    }

    /// Free text `terminal` where it stands: the whole rest of the output, or up to the
    /// first `end` of the tag around it (a lazy lexeme holding that end).
    fn up_to_end(&mut self, terminal: String, place: Place<'_>) -> Result<Built, String> {
        match place {
            Place::End => Ok(Built::open(terminal)),
            Place::Inside => Err("free text needs an end".into()),
            Place::Before(end) => {
                let name = self.name("upto");
                self.define(
                    &format!("{name}[lazy]"),
                    &format!("{terminal} {}", literal(end)),
                )?;
                Ok(Built {
                    expr: name,
                    ends: true,
                })
            }
        }
    }

    /// A rule for a tag's content and its `end` (everything after `begin`), written once;
    /// free text in it ends at the first `end`. With no `end` the content ends where the
    /// tag does (and may hold the end of the tag around it).
    fn content(&mut self, tag: &Tag, place: Place<'_>, depth: usize) -> Result<Built, String> {
        let inner = match tag.end {
            "" => place,
            end => Place::Before(end),
        };
        let key = format!("{inner:?}\u{0}{depth}\u{0}{}", tag.content);
        if let Some(built) = self.contents.get(&key) {
            return Ok(built.clone());
        }
        let body = self.format(&tag.content, inner, depth + 1)?;
        let rule = match body.ends || tag.end.is_empty() {
            true => body.expr,
            false => sequence(&[body.expr, literal(tag.end)]),
        };
        let name = self.name("content");
        self.define(&name, &rule)?;
        // Its own end closes it; without one it holds the outer end where its body does.
        let built = Built {
            expr: name,
            ends: tag.end.is_empty() && body.ends,
        };
        self.contents.insert(key, built.clone());
        Ok(built)
    }

    /// Free text in which each trigger must go on into the tag whose `begin` it opens.
    fn triggered(
        &mut self,
        tags: &[Tag],
        triggers: &[&str],
        excludes: &[&str],
        (at_least_one, stop_after_first): (bool, bool),
        close: Option<&str>,
        depth: usize,
    ) -> Result<Built, String> {
        let mut triggers = triggers.to_vec();
        triggers.sort_unstable();
        triggers.dedup();
        if triggers.iter().any(|t| t.is_empty()) {
            return Err("triggers must be non-empty strings".into());
        }
        if let Some((a, b)) = pairs(&triggers).find(|(a, b)| b.starts_with(*a) || a.starts_with(*b))
        {
            return Err(format!("trigger {a:?} is a prefix of trigger {b:?}"));
        }
        let mut by_trigger: Vec<Vec<(usize, &str)>> = vec![Vec::new(); triggers.len()];
        let mut contents = Vec::with_capacity(tags.len());
        let mut first = Vec::with_capacity(tags.len());
        for (index, tag) in tags.iter().enumerate() {
            let opening: Vec<usize> = (0..triggers.len())
                .filter(|&t| tag.begin.starts_with(triggers[t]))
                .collect();
            let [trigger] = opening[..] else {
                return Err(format!(
                    "exactly one trigger must open the tag that begins {:?}",
                    tag.begin
                ));
            };
            by_trigger[trigger].push((index, &tag.begin[triggers[trigger].len()..]));
            let content = self.content(tag, Place::Inside, depth)?.expr;
            first.push(sequence(&[literal(tag.begin), content.clone()]));
            contents.push(content);
        }
        let mut unsafe_text = triggers.clone();
        unsafe_text.extend_from_slice(excludes);
        let text = self.name("FREE");
        self.define(&text, &text_without(&unsafe_text))?;
        let mut pieces = Vec::with_capacity(triggers.len());
        for (trigger, opened) in triggers.iter().zip(&by_trigger) {
            if opened.is_empty() {
                return Err(format!("trigger {trigger:?} opens no tag"));
            }
            let lead = self.name("lead");
            self.define(
                &format!("{lead}[lazy]"),
                &format!("{text} {}", literal(trigger)),
            )?;
            let rests: Vec<String> = opened
                .iter()
                .map(|&(index, rest)| sequence(&[literal(rest), contents[index].clone()]))
                .collect();
            let piece = self.name("tagged");
            self.define(&piece, &format!("{lead} ({})", rests.join(" | ")))?;
            pieces.push(piece);
        }
        let any = format!("({})", pieces.join(" | "));
        let first = format!("({})", first.join(" | "));
        if (at_least_one, stop_after_first) == (true, true) {
            return Ok(Built::open(first));
        }
        // The text after the last tag: up to the enclosing end, if any.
        let place = close.map_or(Place::End, Place::Before);
        let tail = self.up_to_end(text, place)?;
        let after_one = match close {
            Some(end) => sequence(&[any.clone(), literal(end)]),
            None => any.clone(),
        };
        let expr = match (at_least_one, stop_after_first) {
            (true, false) => format!("({first} {any}* {})", tail.expr),
            (false, true) => format!("({after_one} | {})", tail.expr),
            _ => format!("({any}* {})", tail.expr),
        };
        Ok(Built {
            expr,
            ends: tail.ends,
        })
    }
}

/// Every two distinct items of `list`.
fn pairs<'a>(list: &'a [&'a str]) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
    list.iter()
        .enumerate()
        .flat_map(move |(i, a)| list[i + 1..].iter().map(move |b| (*a, *b)))
}

fn free_text_ends_the_output(place: Place, kind: &str) -> Result<(), String> {
    match place {
        Place::End | Place::Before(_) => Ok(()),
        Place::Inside => Err(format!(
            "{kind} is free text: it can only end the output or a tag's content"
        )),
    }
}

/// A terminal of any text that holds none of `excluded`.
fn text_without(excluded: &[&str]) -> String {
    if excluded.is_empty() {
        return "/(.|\\n)*/".to_string();
    }
    let alternatives: Vec<String> = excluded.iter().map(|e| regex_escape(e)).collect();
    format!(
        "/(.|\\n)*/ & ~/(.|\\n)*({})(.|\\n)*/",
        alternatives.join("|")
    )
}

fn known_fields(fields: &Map<String, Value>, what: &str, allowed: &[&str]) -> Result<(), String> {
    match fields.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(key) => Err(format!(
            "{key:?} is not a field of a {what} this server reads"
        )),
        None => Ok(()),
    }
}

fn field<'a>(value: &'a Value, key: &str) -> Result<&'a Value, String> {
    value.get(key).ok_or_else(|| format!("{key} is required"))
}

fn text_field<'a>(value: &'a Value, key: &str) -> Result<&'a str, String> {
    field(value, key)?
        .as_str()
        .ok_or_else(|| format!("{key} must be a string"))
}

fn items<'a>(value: &'a Value, key: &str) -> Result<&'a [Value], String> {
    let list = value
        .as_array()
        .ok_or_else(|| format!("{key} must be a list"))?;
    if list.is_empty() || list.len() > MAX_ITEMS {
        return Err(format!("{key} must list 1 to {MAX_ITEMS} items"));
    }
    Ok(list)
}

fn strings<'a>(value: &'a Value, key: &str) -> Result<Vec<&'a str>, String> {
    items(value, key)?
        .iter()
        .map(|v| v.as_str().ok_or_else(|| format!("{key} must be strings")))
        .collect()
}

/// A list of non-empty strings, or none where the field is absent.
fn optional_strings<'a>(value: Option<&'a Value>, key: &str) -> Result<Vec<&'a str>, String> {
    let list = match value {
        None => return Ok(Vec::new()),
        Some(Value::Array(list)) if list.is_empty() => return Ok(Vec::new()),
        Some(value) => strings(value, key)?,
    };
    match list.iter().any(|s| s.is_empty()) {
        true => Err(format!("{key} must not hold an empty string")),
        false => Ok(list),
    }
}

fn tag(value: &Value) -> Result<Tag<'_>, String> {
    let fields = value.as_object().ok_or("a tag is a JSON object")?;
    known_fields(fields, "tag", &["type", "begin", "content", "end"])?;
    if value.get("type").is_some_and(|t| t != "tag") {
        return Err("a tag has type \"tag\"".into());
    }
    Ok(Tag {
        begin: text_field(value, "begin")?,
        content: field(value, "content")?.clone(),
        end: text_field(value, "end")?,
    })
}

fn tags(format: &Value) -> Result<Vec<Tag<'_>>, String> {
    items(field(format, "tags")?, "tags")?
        .iter()
        .map(tag)
        .collect()
}

/// `at_least_one` and `stop_after_first`, false where absent.
fn flags(format: &Value) -> Result<(bool, bool), String> {
    let flag = |key: &str| match format.get(key) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(format!("{key} must be true or false")),
    };
    Ok((flag("at_least_one")?, flag("stop_after_first")?))
}

/// A Lark string literal of `text` (nothing for empty text).
fn literal(text: &str) -> String {
    match text.is_empty() {
        true => String::new(),
        false => lark_string(text),
    }
}

/// A Lark string literal of `text`: the Lark lexer takes JSON escapes, but no raw DEL,
/// which JSON leaves as it is.
pub(crate) fn lark_string(text: &str) -> String {
    Value::String(text.to_string())
        .to_string()
        .replace('\u{7f}', "\\u007f")
}

/// `parts` one after the other, the empty ones left out.
fn sequence(parts: &[String]) -> String {
    let parts: Vec<&str> = parts
        .iter()
        .map(String::as_str)
        .filter(|p| !p.is_empty())
        .collect();
    format!("({})", parts.join(" "))
}

/// A client's regex inside Lark's `/…/`: a bare `/` escaped, escapes kept as they are.
fn lark_regex(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push('\\');
                out.extend(chars.next());
            }
            '/' => out.push_str("\\/"),
            c => out.push(c),
        }
    }
    out
}

/// `text` as a regex (a Lark terminal's, or a whole-output one) matching exactly it.
pub(crate) fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if r"\.+*?()|[]{}^$#&-~/".contains(c) => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn format(format: Value) -> Result<String, String> {
        lark(&json!({"type": "structural_tag", "format": format}))
    }

    #[test]
    fn malformed_tags_are_refused_with_a_reason() {
        let tag = json!({"begin": "<a>", "content": {"type": "any_text"}, "end": "</a>"});
        let legacy = |triggers: Value| json!({"structures": [{"begin": "<a>", "schema": {}, "end": ""}], "triggers": triggers});
        for (spec, reason) in [
            (json!({}), "either structures"),
            (
                json!({"type": "other", "format": {}}),
                "type \"structural_tag\"",
            ),
            (json!({"structures": [], "triggers": ["<"]}), "1 to"),
            (legacy(json!(["<b"])), "exactly one trigger"),
            (legacy(json!(["<", "<a"])), "prefix"),
            (legacy(json!([""])), "non-empty"),
            (legacy(json!(["<a", "<z"])), "opens no tag"),
            (
                json!({"format": {"type": "any_text"}, "extra": 1}),
                "\"extra\"",
            ),
        ] {
            let err = lark(&spec).unwrap_err();
            assert!(err.contains(reason), "{spec}: {err}");
        }
        let free = json!({"type": "any_text"});
        for (spec, reason) in [
            (
                json!({"type": "grammar", "grammar": "x"}),
                "\"grammar\" is not supported",
            ),
            (json!({"type": "const_string", "value": ""}), "not empty"),
            (
                json!({"type": "tag", "begin": "<a>", "end": "</a>"}),
                "content is required",
            ),
            (
                json!({"type": "triggered_tags", "tags": [tag], "triggers": "<a"}),
                "a list",
            ),
            (json!({"type": "any_text", "max_chars": 5}), "\"max_chars\""),
            (
                json!({"type": "json_schema", "json_schema": {}, "style": "qwen_xml"}),
                "style",
            ),
            (
                json!({"type": "triggered_tags", "tags": [tag], "triggers": ["<a"], "at_least_one": 1}),
                "true or false",
            ),
            // Free text that nothing would end.
            (
                json!({"type": "sequence", "elements": [free, {"type": "const_string", "value": "x"}]}),
                "free text",
            ),
        ] {
            let err = format(spec.clone()).unwrap_err();
            assert!(err.contains(reason), "{spec}: {err}");
        }
        let mut deep = json!({"type": "const_string", "value": "x"});
        for _ in 0..=MAX_DEPTH {
            deep = json!({"type": "sequence", "elements": [deep]});
        }
        assert!(format(deep).unwrap_err().contains("nest"));
        // SGLang's form without a type.
        assert!(lark(&json!({"format": {"type": "any_text"}})).is_ok());
        // Exactly one triggered tag holds no free text: it may stand anywhere.
        let one = json!({"type": "triggered_tags", "tags": [tag], "triggers": ["<a"],
                         "at_least_one": true, "stop_after_first": true});
        let then = json!({"type": "const_string", "value": "!"});
        assert!(format(json!({"type": "sequence", "elements": [one, then]})).is_ok());
    }

    /// Each tag's content is written once, however many triggers and separators refer to
    /// it: a tag nested many times over stays small.
    #[test]
    fn the_grammar_grows_with_the_tag_not_its_nesting() {
        let mut inner = json!({"type": "const_string", "value": "x"});
        for _ in 0..MAX_DEPTH / 2 {
            let tag = json!({"begin": "<t>", "content": inner, "end": "</t>"});
            inner = json!({"type": "tags_with_separator", "tags": [tag.clone(), tag],
                           "separator": ","});
        }
        let lark = format(inner).unwrap();
        assert!(lark.len() < 8 << 10, "{} bytes", lark.len());
    }

    #[test]
    fn regexes_and_literals_are_escaped_for_lark() {
        assert_eq!(lark_regex(r"a/b\/c\d"), r"a\/b\/c\d");
        assert_eq!(regex_escape("<f=\n|/"), r"<f=\n\|\/");
        assert_eq!(literal("a\u{7f}\"b"), r#""a\u007f\"b""#);
        assert_eq!(literal(""), "");
    }
}
