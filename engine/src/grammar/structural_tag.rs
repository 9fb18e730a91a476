//! SGLang's structural tags as a Lark grammar: free text in which tagged pieces (a tool
//! call's `<function=NAME>` JSON `</function>`, say) must follow their grammar. Two forms are
//! read, as SGLang's OpenAI API and its scheduler take them:
//!
//! - the original one, `{"structures": [{"begin", "schema", "end"}], "triggers": [...]}`:
//!   text in which each trigger starts one of the structures whose `begin` it opens, then
//!   JSON valid against its `schema`, then its `end`; then text again;
//! - xgrammar's, `{"type": "structural_tag", "format": FORMAT}`, where a format is
//!   `const_string`, `json_schema`, `regex`, `any_text`, `sequence`, `or`, `tag`,
//!   `triggered_tags` or `tags_with_separator` (others are refused by name).
//!
//! Text between tags can never hold a trigger: where one appears, a tag follows.

use super::{compact, strict};
use serde_json::Value;

/// How deep formats may nest, and how many a tag may hold: a bound on the work a request
/// can ask for before the grammar's own limits apply.
const MAX_DEPTH: usize = 16;
const MAX_ITEMS: usize = 256;

/// The Lark grammar of a structural tag, or why it cannot be one.
pub fn lark(spec: &Value) -> Result<String, String> {
    let mut builder = Builder::default();
    let start = match (spec.get("structures"), spec.get("format")) {
        (Some(structures), None) => builder.legacy(structures, spec.get("triggers"))?,
        (None, Some(format)) => {
            if spec.get("type").and_then(Value::as_str) != Some("structural_tag") {
                return Err("a structural tag with a format has type \"structural_tag\"".into());
            }
            builder.format(format, 0)?
        }
        _ => return Err("a structural tag has either structures and triggers, or a format".into()),
    };
    Ok(format!("start: {start}\n{}", builder.rules))
}

/// The rules built so far, named in order.
#[derive(Default)]
struct Builder {
    rules: String,
    next: usize,
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

    fn define(&mut self, name: &str, body: &str) {
        self.rules.push_str(&format!("{name}: {body}\n"));
    }

    fn legacy(&mut self, structures: &Value, triggers: Option<&Value>) -> Result<String, String> {
        let structures = items(structures, "structures")?;
        let tags: Vec<Tag> = structures
            .iter()
            .map(|s| {
                let schema = s.get("schema").ok_or("every structure needs a schema")?;
                Ok(Tag {
                    begin: text_field(s, "begin")?,
                    content: serde_json::json!({"type": "json_schema", "json_schema": schema}),
                    end: text_field(s, "end")?,
                })
            })
            .collect::<Result<_, String>>()?;
        let triggers = strings(triggers.ok_or("structures need triggers")?, "triggers")?;
        self.triggered(&tags, &triggers, (false, false), 0)
    }

    /// The Lark expression of `format`.
    fn format(&mut self, format: &Value, depth: usize) -> Result<String, String> {
        if depth > MAX_DEPTH {
            return Err(format!("formats nest at most {MAX_DEPTH} deep"));
        }
        let kind = format.get("type").and_then(Value::as_str).unwrap_or("");
        match kind {
            "const_string" => match text_field(format, "value")? {
                "" => Err("const_string needs a value that is not empty".into()),
                value => Ok(literal(value)),
            },
            "json_schema" => {
                let schema = format
                    .get("json_schema")
                    .ok_or("json_schema needs a json_schema")?;
                Ok(format!("%json {}", compact(&strict(schema))))
            }
            "regex" => {
                let name = self.name("RX");
                let pattern = text_field(format, "pattern")?.replace('/', "\\/");
                self.define(&name, &format!("/{pattern}/"));
                Ok(name)
            }
            "any_text" => {
                let name = self.name("ANY");
                self.define(&name, "/(.|\\n)*/");
                Ok(name)
            }
            "sequence" | "or" => {
                let elements = items(field(format, "elements")?, "elements")?;
                let parts = elements
                    .iter()
                    .map(|e| self.format(e, depth + 1))
                    .collect::<Result<Vec<_>, _>>()?;
                let joiner = if kind == "or" { " | " } else { " " };
                Ok(format!("({})", parts.join(joiner)))
            }
            "tag" => {
                let tag = tag(format)?;
                self.tag(&tag, depth)
            }
            "triggered_tags" => {
                let tags = items(field(format, "tags")?, "tags")?
                    .iter()
                    .map(tag)
                    .collect::<Result<Vec<_>, _>>()?;
                let triggers = strings(field(format, "triggers")?, "triggers")?;
                self.triggered(&tags, &triggers, flags(format), depth)
            }
            "tags_with_separator" => {
                let tags = items(field(format, "tags")?, "tags")?
                    .iter()
                    .map(tag)
                    .collect::<Result<Vec<_>, _>>()?;
                let separator = literal(text_field(format, "separator")?);
                let one = self.any_of_tags(&tags, depth)?;
                Ok(match flags(format) {
                    (true, true) => one,
                    (false, true) => format!("({one})?"),
                    (true, false) => format!("({one} ({separator} {one})*)"),
                    (false, false) => format!("({one} ({separator} {one})*)?"),
                })
            }
            other => Err(format!(
                "structural tag format type {other:?} is not supported"
            )),
        }
    }

    /// `begin`, the content, `end`. Free text as content ends at the first `end`.
    fn tag(&mut self, tag: &Tag, depth: usize) -> Result<String, String> {
        let content_kind = tag.content.get("type").and_then(Value::as_str);
        if content_kind == Some("any_text") && !tag.end.is_empty() {
            let name = self.name("text");
            self.define(
                &format!("{name}[lazy]"),
                &format!("/(.|\\n)*/ {}", literal(tag.end)),
            );
            return Ok(sequence(&[literal(tag.begin), name]));
        }
        let body = self.format(&tag.content, depth + 1)?;
        Ok(sequence(&[literal(tag.begin), body, literal(tag.end)]))
    }

    fn any_of_tags(&mut self, tags: &[Tag], depth: usize) -> Result<String, String> {
        let alternatives = tags
            .iter()
            .map(|t| self.tag(t, depth))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(format!("({})", alternatives.join(" | ")))
    }

    /// Free text in which each trigger must go on into a tag whose `begin` it opens.
    fn triggered(
        &mut self,
        tags: &[Tag],
        triggers: &[&str],
        (at_least_one, stop_after_first): (bool, bool),
        depth: usize,
    ) -> Result<String, String> {
        if triggers.is_empty() || triggers.iter().any(|t| t.is_empty()) {
            return Err("triggers must be non-empty strings".into());
        }
        let no_trigger = triggers
            .iter()
            .map(|t| regex_escape(t))
            .collect::<Vec<_>>()
            .join("|");
        let text = self.name("FREE");
        self.define(
            &text,
            &format!("/(.|\\n)*/ & ~/(.|\\n)*({no_trigger})(.|\\n)*/"),
        );
        let mut pieces = Vec::new();
        for trigger in triggers {
            let opened: Vec<&Tag> = tags
                .iter()
                .filter(|t| t.begin.starts_with(trigger))
                .collect();
            if opened.is_empty() {
                continue;
            }
            let lead = self.name("lead");
            self.define(
                &format!("{lead}[lazy]"),
                &format!("{text} {}", literal(trigger)),
            );
            let mut rests = Vec::new();
            for tag in opened {
                let rest = Tag {
                    begin: &tag.begin[trigger.len()..],
                    content: tag.content.clone(),
                    end: tag.end,
                };
                rests.push(self.tag(&rest, depth)?);
            }
            let piece = self.name("tagged");
            self.define(&piece, &format!("{lead} ({})", rests.join(" | ")));
            pieces.push(piece);
        }
        if let Some(tag) = tags
            .iter()
            .find(|t| !triggers.iter().any(|tr| t.begin.starts_with(tr)))
        {
            return Err(format!(
                "no trigger opens the tag that begins {:?}",
                tag.begin
            ));
        }
        let any = format!("({})", pieces.join(" | "));
        Ok(match (at_least_one, stop_after_first) {
            (true, true) => any,
            (false, true) => format!("({any} | {text})"),
            (true, false) => format!("({any}+ {text})"),
            (false, false) => format!("({any}* {text})"),
        })
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

fn tag(value: &Value) -> Result<Tag<'_>, String> {
    Ok(Tag {
        begin: text_field(value, "begin")?,
        content: field(value, "content")?.clone(),
        end: text_field(value, "end")?,
    })
}

/// `at_least_one` and `stop_after_first`, false where absent.
fn flags(format: &Value) -> (bool, bool) {
    let flag = |key| format.get(key).and_then(Value::as_bool).unwrap_or(false);
    (flag("at_least_one"), flag("stop_after_first"))
}

/// A Lark string literal of `text`; nothing for empty text.
fn literal(text: &str) -> String {
    match text.is_empty() {
        true => String::new(),
        false => Value::String(text.to_string()).to_string(),
    }
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

/// `text` as a Lark regex matching exactly it.
fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if r"\.+*?()|[]{}^$#&-~/".contains(c) {
            out.push('\\');
        }
        match c {
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn format(format: Value) -> Result<String, String> {
        lark(&json!({"type": "structural_tag", "format": format}))
    }

    #[test]
    fn malformed_tags_are_refused_with_a_reason() {
        let tag = json!({"begin": "<a>", "content": {"type": "any_text"}, "end": "</a>"});
        for (spec, reason) in [
            (json!({}), "either structures"),
            (
                json!({"format": {"type": "any_text"}}),
                "type \"structural_tag\"",
            ),
            (json!({"structures": [], "triggers": ["<"]}), "1 to"),
            (
                json!({"structures": [{"begin": "<a>", "schema": {}, "end": ""}], "triggers": ["<b"]}),
                "no trigger opens",
            ),
            (
                json!({"structures": [{"begin": "<a>", "schema": {}, "end": ""}], "triggers": [""]}),
                "non-empty",
            ),
        ] {
            let err = lark(&spec).unwrap_err();
            assert!(err.contains(reason), "{spec}: {err}");
        }
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
        ] {
            let err = format(spec.clone()).unwrap_err();
            assert!(err.contains(reason), "{spec}: {err}");
        }
        // Nesting is bounded.
        let mut deep = json!({"type": "const_string", "value": "x"});
        for _ in 0..=MAX_DEPTH {
            deep = json!({"type": "sequence", "elements": [deep]});
        }
        assert!(format(deep).unwrap_err().contains("nest"));
    }

    /// Text between tags may not hold a trigger; a tag's free text ends at its end.
    #[test]
    fn triggers_are_kept_out_of_free_text() {
        let lark = format(json!({"type": "triggered_tags", "triggers": ["<f=", "[["],
            "tags": [{"begin": "<f=a>", "content": {"type": "any_text"}, "end": "</f>"},
                     {"begin": "[[x", "content": {"type": "const_string", "value": "y"},
                      "end": "]]"}]}))
        .unwrap();
        assert!(lark.contains("~/(.|\\n)*(<f=|\\[\\[)(.|\\n)*/"), "{lark}");
        assert!(lark.contains("[lazy]: /(.|\\n)*/ \"</f>\""), "{lark}");
        assert!(
            lark.contains("\"a>\""),
            "the trigger is not written twice: {lark}"
        );
    }
}
