//! The grammar of a call's arguments in Gemma 4's syntax ([`super::value`]), from their JSON
//! schema: an object's properties in the order Gemma 4's template writes them (by key, case
//! ignored), the required ones always, no others; strings between quote marks, one of the
//! listed values where the schema lists them; integers and numbers as JSON writes them,
//! within their bounds; booleans; `null`, or `None` as Python renders the template's
//! `null`s (both read as `null`); arrays of their items' grammar. Local references (`#/$defs/…`) become rules of their own (so a recursive schema
//! stays finite); what the syntax cannot hold to a schema (`allOf`, `not`, patterns,
//! lengths) takes any value of its type, or any value. A key that cannot be written bare
//! (see [`super::value::bare_key`]) is written between quote marks.

use super::value::{bare_key, sorted, QUOTE};
use crate::grammar::compact;
use crate::grammar::structural_tag::{lark_string as literal, regex_escape};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Nesting deeper than this takes any value.
const MAX_DEPTH: usize = 16;

/// The rules every grammar of arguments shares: any value, any object, any array, any
/// string (`quote`: the quote mark in the grammar, a control token where `as_token`),
/// numbers.
pub(super) fn shared_rules(quote: &str, as_token: bool) -> String {
    let mark = regex_escape(QUOTE);
    // A string's text ends at its closing mark: found lazily where the mark is text; where
    // it is a token, the text (which cannot hold one) simply ends before it.
    let string = match as_token {
        true => format!("g4_string: {quote} G4_TEXT {quote}\n"),
        false => format!("g4_string: {quote} g4_text\ng4_text[lazy]: G4_TEXT {quote}\n"),
    };
    format!(
        "g4_value: g4_string | g4_dict | g4_array | G4_NUMBER | \"true\" | \"false\" | g4_null\n\
         g4_null: \"null\" | \"None\"\n\
         g4_dict: \"{{\" (g4_member (\",\" g4_member)*)? \"}}\"\n\
         g4_member: G4_KEY \":\" g4_value\n\
         G4_KEY: /[A-Za-z_][A-Za-z0-9_.\\-]*/\n\
         g4_array: \"[\" (g4_value (\",\" g4_value)*)? \"]\"\n\
         {string}\
         G4_TEXT: /(.|\\n)*/ & ~/(.|\\n)*{mark}(.|\\n)*/\n\
         G4_INTEGER: /-?(0|[1-9][0-9]*)/\n\
         G4_NUMBER: /-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?/\n"
    )
}

/// Rules being written for the arguments of the tools of one grammar.
pub(super) struct Rules<'q> {
    /// The quote mark in the grammar (its token, or its text).
    quote: &'q str,
    /// The rules written so far.
    pub text: String,
    /// Rules named so far (each `g4_r{n}`).
    count: usize,
    /// The rule of each reference resolved so far.
    refs: HashMap<String, String>,
}

impl<'q> Rules<'q> {
    pub(super) fn new(quote: &'q str) -> Self {
        Self {
            quote,
            text: String::new(),
            count: 0,
            refs: HashMap::new(),
        }
    }

    /// The grammar of a call's arguments under `schema` (an object's, else any object).
    pub(super) fn arguments(&mut self, schema: &Value) -> String {
        // A reference names a part of this schema: another tool's `#/$defs/node` is not it.
        self.refs.clear();
        let object = schema.get("properties").is_some()
            || schema.get("type").and_then(Value::as_str) == Some("object");
        match object {
            true => self.object(schema, schema, 0),
            false => "g4_dict".to_string(),
        }
    }

    /// A new rule of `body`; its name.
    fn rule(&mut self, body: &str) -> String {
        let name = format!("g4_r{}", self.count);
        self.count += 1;
        self.text.push_str(&format!("{name}: {body}\n"));
        name
    }

    /// The grammar of a value under `schema` (in the document `root`, for references).
    fn value(&mut self, schema: &Value, root: &Value, depth: usize) -> String {
        if depth > MAX_DEPTH {
            return "g4_value".into();
        }
        let Some(map) = schema.as_object() else {
            // `true` or anything that is no schema: any value.
            return "g4_value".into();
        };
        if let Some(value) = map.get("const") {
            return self.constant(value);
        }
        if let Some(Value::Array(values)) = map.get("enum") {
            if !values.is_empty() {
                let choices: Vec<String> = values.iter().map(|v| self.constant(v)).collect();
                return format!("({})", choices.join(" | "));
            }
        }
        if let Some(target) = map.get("$ref").and_then(Value::as_str) {
            return self.reference(target, root, depth);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(members)) = map.get(key) {
                if !members.is_empty() {
                    let choices: Vec<String> = members
                        .iter()
                        .map(|m| self.value(m, root, depth + 1))
                        .collect();
                    return format!("({})", choices.join(" | "));
                }
            }
        }
        match map.get("type") {
            Some(Value::String(kind)) => self.typed(kind, schema, root, depth),
            Some(Value::Array(kinds)) if !kinds.is_empty() => {
                let choices: Vec<String> = kinds
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|kind| self.typed(kind, schema, root, depth))
                    .collect();
                match choices.is_empty() {
                    true => "g4_value".into(),
                    false => format!("({})", choices.join(" | ")),
                }
            }
            _ if map.contains_key("properties") => self.object(schema, root, depth),
            _ if map.contains_key("items") => self.array(schema, root, depth),
            _ => "g4_value".into(),
        }
    }

    /// The grammar of a value of JSON type `kind` under `schema`.
    fn typed(&mut self, kind: &str, schema: &Value, root: &Value, depth: usize) -> String {
        match kind {
            "string" => "g4_string".into(),
            "integer" | "number" => bounded_number(kind, schema),
            "boolean" => "(\"true\" | \"false\")".into(),
            "null" => "g4_null".into(),
            "array" => self.array(schema, root, depth),
            "object" => self.object(schema, root, depth),
            _ => "g4_value".into(),
        }
    }

    /// One given value: a string between quote marks, a number, boolean or `null` as JSON
    /// writes it; an array or object (whose quote marks may be tokens), any value.
    fn constant(&self, value: &Value) -> String {
        match value {
            Value::String(text) if text.is_empty() => format!("{0} {0}", self.quote),
            Value::String(text) => format!("{0} {1} {0}", self.quote, literal(text)),
            Value::Array(_) | Value::Object(_) => "g4_value".into(),
            Value::Null => "g4_null".into(),
            other => literal(&other.to_string()),
        }
    }

    /// The rule of the definition `target` names (`#/$defs/…`, `#/definitions/…`, `#`).
    fn reference(&mut self, target: &str, root: &Value, depth: usize) -> String {
        if let Some(name) = self.refs.get(target) {
            return name.clone();
        }
        let resolved = match target {
            "#" => Some(root),
            _ => target
                .strip_prefix('#')
                .and_then(|pointer| root.pointer(pointer)),
        };
        let Some(schema) = resolved else {
            return "g4_value".into();
        };
        // Named before its body is written, so the body may refer to it.
        let name = format!("g4_r{}", self.count);
        self.count += 1;
        self.refs.insert(target.to_string(), name.clone());
        let body = self.value(schema, root, depth + 1);
        self.text.push_str(&format!("{name}: {body}\n"));
        name
    }

    /// An array of `items` (any values where it names none), at least one where
    /// `minItems` asks.
    fn array(&mut self, schema: &Value, root: &Value, depth: usize) -> String {
        let item = match schema.get("items") {
            Some(items) if items.is_object() => {
                let body = self.value(items, root, depth + 1);
                self.rule(&body)
            }
            _ => "g4_value".into(),
        };
        let items = format!("{item} (\",\" {item})*");
        match schema.get("minItems").and_then(Value::as_u64).unwrap_or(0) {
            0 => format!("\"[\" ({items})? \"]\""),
            _ => format!("\"[\" {items} \"]\""),
        }
    }

    /// An object of `properties` (sorted by key, the required ones always); any object
    /// where it names none (unless it allows no others).
    fn object(&mut self, schema: &Value, root: &Value, depth: usize) -> String {
        let empty = Map::new();
        let properties = schema
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        if properties.is_empty() {
            return match schema.get("additionalProperties") == Some(&Value::Bool(false)) {
                true => "\"{\" \"}\"".into(),
                false => "g4_dict".into(),
            };
        }
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut members = Vec::new();
        for (key, property) in sorted(properties) {
            let value = self.value(property, root, depth + 1);
            let head = match bare_key(key) {
                true => literal(&format!("{key}:")),
                false => format!("{0} {1} {0} \":\"", self.quote, literal(key)),
            };
            let rule = self.rule(&format!("{head} {value}"));
            members.push((rule, required.contains(&key.as_str())));
        }
        format!("\"{{\" {} \"}}\"", first_members(&members))
    }
}

/// A number of JSON type `kind` (`integer` or `number`), which Gemma 4 writes as JSON does:
/// within the bounds `schema` sets, where it sets any.
fn bounded_number(kind: &str, schema: &Value) -> String {
    const BOUNDS: [&str; 5] = [
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ];
    let mut bounded = Map::new();
    for key in BOUNDS {
        if let Some(bound) = schema.get(key) {
            bounded.insert(key.to_string(), bound.clone());
        }
    }
    if bounded.is_empty() {
        return match kind {
            "integer" => "G4_INTEGER".into(),
            _ => "G4_NUMBER".into(),
        };
    }
    bounded.insert("type".to_string(), Value::String(kind.to_string()));
    format!("%json {}", compact(&Value::Object(bounded)))
}

/// The members `members` (each a rule and whether it is required) after none written yet:
/// the first one there takes no comma.
fn first_members(members: &[(String, bool)]) -> String {
    let Some(((rule, required), rest)) = members.split_first() else {
        return String::new();
    };
    let then = later_members(rest);
    if *required {
        return format!("{rule} {then}");
    }
    match first_members(rest) {
        none if none.is_empty() => format!("({rule} {then})?"),
        without => format!("({rule} {then} | {without})"),
    }
}

/// The members `members` after one written: each after a comma.
fn later_members(members: &[(String, bool)]) -> String {
    members
        .iter()
        .map(|(rule, required)| match required {
            true => format!("\",\" {rule}"),
            false => format!("(\",\" {rule})?"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}
