//! Structured outputs: grammars compiled by llguidance into per-request constraints that the
//! sampler applies as a mask. Compilation runs off the scheduler thread and off the async
//! runtime (callers use the engine's grammar pool) and compiled grammars are cached by their
//! text and the request's cache namespace; the scheduler only computes masks, consumes
//! tokens and appends the tokens a grammar forces (jump-forward).

mod constraint;
mod gbnf;
pub mod structural_tag;
mod thinking_budget;
mod tools;
mod vocab;
#[cfg(test)]
pub(crate) mod walk;

pub use constraint::{Constraint, Step};
pub use gbnf::gbnf_to_lark;
pub use tools::harmony::{self, HarmonyReader};
pub use tools::{
    render_tool_responses, system_tools_field, tool_json, CallPiece, CallSoFar, Pieces, ToolCall,
    ToolChoice, ToolFormat, ToolFunction, SYSTEM_TOOLS_CALL_SYNTAX,
};

use crate::tokenizer::{Thinking, Tokenizer};
use llguidance::api::TopLevelGrammar;
use llguidance::{Matcher, ParserFactory};
use parking_lot::Mutex;
use radix::{CacheScope, Namespace};
use rustc_hash::FxHashMap;
use std::sync::{Arc, OnceLock};
use thinking_budget::ThinkingBudget;

/// What a request's output must match.
#[derive(Clone, Debug, PartialEq)]
pub enum GrammarSpec {
    /// A JSON schema (OpenAI `json_schema`, SGLang `json_schema`).
    JsonSchema(serde_json::Value),
    /// Any JSON object (OpenAI `json_object`).
    JsonObject,
    /// The whole output matches this regex (Rust `regex` syntax).
    Regex(String),
    /// A Lark grammar, llguidance's native form.
    Lark(String),
    /// The Lark grammar of a chat request's `tools` (see [`ToolFormat::grammar`]).
    Tools(String),
    /// The Lark grammar of SGLang's structural tag (see [`structural_tag::lark`]).
    StructuralTag(String),
    /// GBNF / EBNF as llama.cpp and SGLang write it (`root ::= ...`).
    Ebnf(String),
    /// Any text: the answer after a thinking budget when the request asks for no format
    /// (the constraint is dropped once the thinking ends, see [`Constraint::is_free`]).
    AnyText,
    /// A reasoning model's thinking, free, then `answer`: the thinking block is open from
    /// the first token when the prompt opened it, else it may open the output. The block
    /// ends at the first close (`</think>`), followed by at most a blank line; with a
    /// `budget`, the close is forced once the thinking has taken that many tokens.
    AfterThinking {
        thinking: Thinking,
        budget: Option<u32>,
        answer: Box<GrammarSpec>,
    },
}

impl GrammarSpec {
    /// The parameter a client set, for error messages.
    pub fn param(&self) -> &'static str {
        match self {
            Self::JsonSchema(_) | Self::JsonObject => "response_format",
            Self::Regex(_) => "regex",
            Self::Lark(_) => "lark",
            Self::Tools(_) => "tools",
            Self::StructuralTag(_) => "structural_tag",
            Self::Ebnf(_) => "ebnf",
            Self::AnyText => "thinking_budget",
            Self::AfterThinking { answer, .. } => answer.param(),
        }
    }

    fn text(&self) -> String {
        match self {
            Self::JsonSchema(schema) => format!("json:{schema}"),
            Self::JsonObject => "json_object".into(),
            Self::Regex(rx) => format!("regex:{rx}"),
            Self::Lark(lark) | Self::Tools(lark) | Self::StructuralTag(lark) => {
                format!("lark:{lark}")
            }
            Self::Ebnf(ebnf) => format!("ebnf:{ebnf}"),
            Self::AnyText => "any".into(),
            // A budget of 1 or more is counted by the constraint, not the grammar: one
            // compiled grammar serves them all.
            Self::AfterThinking {
                thinking,
                budget,
                answer,
            } => format!(
                "think:{}:{}:{}:{}",
                thinking.tags.open,
                thinking.inside,
                *budget == Some(0),
                answer.text()
            ),
        }
    }

    /// The JSON schema a JSON response format asks for, as it is compiled (strict); `None`
    /// for the other kinds.
    pub fn json_schema(&self) -> Option<serde_json::Value> {
        match self {
            Self::JsonSchema(schema) => Some(strict(schema)),
            Self::JsonObject => Some(serde_json::json!({"type": "object"})),
            Self::AfterThinking { answer, .. } => answer.json_schema(),
            _ => None,
        }
    }

    /// The grammar llguidance compiles; `vocab` names the control tokens it holds.
    fn top_level(&self, vocab: &Tokenizer) -> Result<TopLevelGrammar, String> {
        Ok(match self {
            Self::JsonSchema(schema) => TopLevelGrammar::from_json_schema(compact(&strict(schema))),
            Self::JsonObject => {
                TopLevelGrammar::from_json_schema(compact(&serde_json::json!({"type": "object"})))
            }
            Self::Regex(rx) => TopLevelGrammar::from_regex(rx),
            Self::AnyText => TopLevelGrammar::from_regex("(.|\\n)*"),
            Self::Lark(lark) | Self::Tools(lark) | Self::StructuralTag(lark) => {
                TopLevelGrammar::from_lark(lark.clone())
            }
            Self::Ebnf(ebnf) => TopLevelGrammar::from_lark(gbnf_to_lark(ebnf)?),
            Self::AfterThinking {
                thinking,
                budget,
                answer,
            } => after_thinking(*thinking, *budget, answer.top_level(vocab)?, vocab)?,
        })
    }
}

/// `answer` (one grammar) behind a thinking block: the thinking ends at the first close
/// (text: a lazy lexeme stops at it; a control token: text cannot hold it); the answer is
/// the same grammar, referenced by name.
fn after_thinking(
    thinking: Thinking,
    budget: Option<u32>,
    answer: TopLevelGrammar,
    vocab: &Tokenizer,
) -> Result<TopLevelGrammar, String> {
    const ANSWER: &str = "answer";
    let [mut answer] = <[_; 1]>::try_from(answer.grammars)
        .map_err(|_| "a grammar after thinking must be a single grammar".to_string())?;
    answer.name = Some(ANSWER.into());
    // Models write one newline (SmolLM3) or two (Qwen 3) after the block.
    let tags = thinking.tags;
    let open = tools::lark_marker(tags.open, vocab);
    let close = tools::lark_marker(tags.close, vocab);
    let controlled = |tag| tools::control_token(tag, vocab).is_some();
    let start = match thinking.inside {
        // A control-token tag is the model's to write even where the block is taken as
        // open (SGLang's `require_reasoning`: Magistral's prompt does not open it).
        true if controlled(tags.open) => format!("start: {open}? thought BLANK? @{ANSWER}"),
        true => format!("start: thought BLANK? @{ANSWER}"),
        false => format!("start: @{ANSWER} | {open} thought BLANK? @{ANSWER}"),
    };
    // A budget of 0 closes the block at once; others are counted by the constraint (see
    // `thinking_budget`), since a lexeme cut at its token limit could not also end at a
    // close the model writes. A control-token close ends the text; its text spelled out
    // in the thinking may not (the split would take it for the close).
    let thought = match budget {
        Some(0) => format!("thought: {close}"),
        _ if controlled(tags.close) => format!(
            "thought: THOUGHT {close}\nTHOUGHT: /(.|\\n)*/ & ~/(.|\\n)*{}(.|\\n)*/",
            structural_tag::regex_escape(tags.close)
        ),
        _ => format!("thought[lazy]: THOUGHT {close}\nTHOUGHT: /(.|\\n)*/"),
    };
    let lark = format!("{start}\n{thought}\nBLANK: /\\n\\n?/\n");
    let wrapper = llguidance::api::GrammarWithLexer::from_lark(lark);
    Ok(TopLevelGrammar {
        grammars: vec![wrapper, answer],
        max_tokens: None,
    })
}

/// JSON without optional whitespace unless the schema asks otherwise (llguidance's
/// `x-guidance` options): a small model cannot loop on blank space, and the grammar forces
/// more of the output (keys, `":"`), which jump-forward then appends without sampling.
fn compact(schema: &serde_json::Value) -> serde_json::Value {
    let mut schema = schema.clone();
    if let Some(object) = schema.as_object_mut() {
        object
            .entry("x-guidance")
            .or_insert_with(|| serde_json::json!({"whitespace_flexible": false}));
    }
    schema
}

/// A client's schema made strict as SGLang's default grammar backend makes it: an object
/// schema that does not say otherwise admits no properties beyond those it names (else a
/// model may add keys until its budget runs out). Applied to every nested schema, except
/// where `allOf` combines schemas: each member names only its own properties, so closing
/// the members (or the schema holding them, or the definitions a member refers to) would
/// forbid what the others require.
fn strict(schema: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    let mut schema = schema.clone();
    // Root definitions an `allOf` member refers to (`{"$ref": "#/$defs/Base"}`).
    fn all_of_refs(value: &Value, found: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::Array(members)) = map.get("allOf") {
                    for member in members {
                        let target = member.get("$ref").and_then(Value::as_str);
                        if let Some(target) = target {
                            found.push(target.to_string());
                        }
                    }
                }
                map.values().for_each(|v| all_of_refs(v, found));
            }
            Value::Array(items) => items.iter().for_each(|v| all_of_refs(v, found)),
            _ => {}
        }
    }
    fn visit(value: &mut Value, may_close: bool, open: &[String], path: &str) {
        match value {
            Value::Object(map) => {
                let is_object_schema = map.get("type").and_then(Value::as_str) == Some("object")
                    || map.contains_key("properties");
                if may_close
                    && is_object_schema
                    && !map.contains_key("additionalProperties")
                    && !map.contains_key("allOf")
                {
                    map.insert("additionalProperties".into(), Value::Bool(false));
                }
                for (key, child) in map.iter_mut() {
                    match key.as_str() {
                        // Members of an intersection stay open at their top level.
                        "allOf" => {
                            if let Value::Array(members) = child {
                                members.iter_mut().for_each(|m| visit(m, false, open, ""));
                            }
                        }
                        // Maps from names to schemas: the names are not keywords. A root
                        // definition an intersection refers to stays open at its top level.
                        "$defs" | "definitions" if path == "#" => {
                            if let Value::Object(named) = child {
                                for (name, def) in named.iter_mut() {
                                    let pointer = format!("#/{key}/{name}");
                                    let close = !open.contains(&pointer);
                                    visit(def, close, open, "");
                                }
                            }
                        }
                        "properties" | "patternProperties" | "$defs" | "definitions"
                        | "dependentSchemas" => {
                            if let Value::Object(named) = child {
                                named.values_mut().for_each(|v| visit(v, true, open, ""));
                            }
                        }
                        // Data, not schemas.
                        "enum" | "const" | "default" | "examples" => {}
                        _ => visit(child, true, open, ""),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| visit(v, true, open, "")),
            _ => {}
        }
    }
    let mut open = Vec::new();
    all_of_refs(&schema, &mut open);
    visit(&mut schema, true, &open, "#");
    schema
}

/// Why a grammar did not compile.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// The client's grammar (or schema, or tools) is too large or does not compile.
    #[error("{0}")]
    Invalid(String),
    /// The compiler could not be set up (indexing the vocabulary failed): the server's.
    #[error("{0}")]
    Unavailable(String),
}

/// Limits on what a client may ask the grammar compiler for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GrammarLimits {
    /// Longest grammar or schema text, in bytes.
    pub max_grammar_bytes: usize,
    /// Compiled grammars kept for reuse.
    pub max_cached: usize,
    /// Lexer work allowed to build a grammar (about 50,000 units per millisecond): bounds
    /// compile time.
    pub compile_fuel: u64,
    /// Grammar symbols allowed after expansion.
    pub max_grammar_size: usize,
    /// Lexer (DFA) states one request may build, about 1-2 KB each: bounds a request's
    /// memory. A request that needs more fails alone.
    pub max_lexer_states: usize,
}

impl Default for GrammarLimits {
    fn default() -> Self {
        Self {
            max_grammar_bytes: 256 << 10,
            max_cached: 256,
            compile_fuel: 1_000_000,
            max_grammar_size: 500_000,
            max_lexer_states: 50_000,
        }
    }
}

/// The grammar compiler of one model: llguidance's parser factory (built on first use: it
/// indexes the vocabulary) and a cache of compiled grammars.
pub struct Grammars {
    tokenizer: Arc<Tokenizer>,
    logits_width: usize,
    limits: GrammarLimits,
    factory: OnceLock<Result<Arc<ParserFactory>, String>>,
    cache: Mutex<GrammarCache>,
}

#[derive(Default)]
struct GrammarCache {
    /// Keyed by the cache namespace of the request too (tenant or group, and salt): whether
    /// a grammar compiles at once tells whoever times it that someone used it recently,
    /// which is no business of another tenant's, nor of a user its salt separates.
    entries: FxHashMap<(Namespace, String), (Matcher, u64)>,
    clock: u64,
}

impl Grammars {
    pub fn new(tokenizer: Arc<Tokenizer>, logits_width: usize, limits: GrammarLimits) -> Self {
        Self {
            tokenizer,
            logits_width,
            limits,
            factory: OnceLock::new(),
            cache: Mutex::default(),
        }
    }

    pub fn limits(&self) -> GrammarLimits {
        self.limits
    }

    fn factory(&self) -> Result<Arc<ParserFactory>, String> {
        self.factory
            .get_or_init(|| {
                let env = vocab::tok_env(self.tokenizer.clone(), self.logits_width)?;
                let mut factory = ParserFactory::new_simple(&env).map_err(|e| e.to_string())?;
                factory.quiet();
                let limits = factory.limits_mut();
                limits.initial_lexer_fuel = self.limits.compile_fuel;
                limits.max_grammar_size = self.limits.max_grammar_size;
                limits.max_lexer_states = self.limits.max_lexer_states;
                // Errors go to clients: no parser state or grammar dumps in them.
                limits.verbose_errors = false;
                Ok(Arc::new(factory))
            })
            .clone()
    }

    /// A fresh constraint for `spec`: compiled (blocking: call it off the async runtime and
    /// off the scheduler thread), or cloned from what requests of the same cache
    /// `namespace` compiled. The error is the compiler's.
    pub fn compile(
        &self,
        spec: &GrammarSpec,
        namespace: &Namespace,
    ) -> Result<Constraint, CompileError> {
        let text = spec.text();
        if text.len() > self.limits.max_grammar_bytes {
            return Err(CompileError::Invalid(format!(
                "{}: the grammar has {} bytes; at most {} are allowed",
                spec.param(),
                text.len(),
                self.limits.max_grammar_bytes
            )));
        }
        let key = (namespace.clone(), text);
        if let Some(matcher) = self.cached(&key) {
            return self.constraint(matcher, spec);
        }
        let factory = self.factory().map_err(CompileError::Unavailable)?;
        let grammar = spec
            .top_level(&self.tokenizer)
            .map_err(CompileError::Invalid)?;
        let parser = factory.create_parser(grammar).map_err(|e| {
            CompileError::Invalid(format!(
                "{}: the grammar does not compile: {e}",
                spec.param()
            ))
        })?;
        let matcher = Matcher::new(Ok(parser));
        if let Some(e) = matcher.get_error() {
            return Err(CompileError::Invalid(format!(
                "{}: the grammar does not compile: {e}",
                spec.param()
            )));
        }
        self.store(key, matcher.deep_clone());
        self.constraint(matcher, spec)
    }

    /// A request's constraint over `matcher`, with the thinking budget `spec` sets.
    fn constraint(&self, matcher: Matcher, spec: &GrammarSpec) -> Result<Constraint, CompileError> {
        let constraint = Constraint::new(matcher, self.tokenizer.vocab_size());
        let GrammarSpec::AfterThinking {
            thinking,
            budget: Some(tokens @ 1..),
            answer,
        } = spec
        else {
            return Ok(constraint);
        };
        // As the grammar writes it: a control token, or text (not the control token a
        // vocabulary may also have for that text, see `vocab`).
        let close = match tools::control_token(thinking.tags.close, &self.tokenizer) {
            Some(id) => vec![id],
            None => (self.tokenizer)
                .encode_without_bos_eos(thinking.tags.close, false)
                .map_err(|e| CompileError::Unavailable(format!("thinking_budget: {e}")))?,
        };
        let budget = ThinkingBudget::new(*thinking, *tokens, close.into(), self.tokenizer.clone());
        let free_answer = **answer == GrammarSpec::AnyText;
        Ok(constraint.with_budget(budget, free_answer))
    }

    fn cached(&self, key: &(Namespace, String)) -> Option<Matcher> {
        let mut cache = self.cache.lock();
        cache.clock += 1;
        let now = cache.clock;
        cache.entries.get_mut(key).map(|(matcher, used)| {
            *used = now;
            // A clone of its own lexer: a shallow clone would share the cached one's lexer
            // states, its state limit and its errors with every other request of the grammar.
            matcher.deep_clone()
        })
    }

    /// Keeps `matcher`; a full cache first drops the least recently used grammar of the
    /// scope (tenant or group) holding the most, so that a tenant compiling grammar after
    /// grammar pushes out its own rather than everyone else's.
    fn store(&self, key: (Namespace, String), matcher: Matcher) {
        let mut cache = self.cache.lock();
        let now = cache.clock;
        if let Some(held) = cache.entries.get_mut(&key) {
            // Two compiles of one grammar raced: keep one, evict nothing.
            *held = (matcher, now);
            return;
        }
        if cache.entries.len() >= self.limits.max_cached {
            // The newcomer counts for its scope, so that at equal shares it replaces its own.
            let mut held: FxHashMap<CacheScope, usize> = FxHashMap::default();
            for (namespace, _) in cache.entries.keys().chain(std::iter::once(&key)) {
                *held.entry(namespace.scope).or_default() += 1;
            }
            let largest = held
                .iter()
                .max_by_key(|(scope, count)| (**count, **scope == key.0.scope))
                .map(|(scope, _)| *scope);
            let oldest_of = |scope: Option<CacheScope>| {
                cache
                    .entries
                    .iter()
                    .filter(|((namespace, _), _)| scope.is_none_or(|s| namespace.scope == s))
                    .min_by_key(|(_, (_, used))| *used)
                    .map(|(k, _)| k.clone())
            };
            let oldest = oldest_of(largest).or_else(|| oldest_of(None));
            if let Some(oldest) = oldest {
                cache.entries.remove(&oldest);
            }
        }
        if self.limits.max_cached > 0 {
            cache.entries.insert(key, (matcher, now));
        }
    }

    /// Whether a compiled `spec` is held for requests of `namespace`.
    pub fn holds(&self, spec: &GrammarSpec, namespace: &Namespace) -> bool {
        let key = (namespace.clone(), spec.text());
        self.cache.lock().entries.contains_key(&key)
    }

    /// Compiled grammars held in the cache.
    pub fn cached_count(&self) -> usize {
        self.cache.lock().entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::ThinkTags;
    use serde_json::json;

    /// Magistral's tags are control tokens: the thinking opens and closes with them (their
    /// text is no tag), the answer's grammar holds after it, and a budget forces the close.
    #[test]
    fn thinking_between_control_tags_then_the_answer() {
        let tags = ["[THINK]", "[/THINK]"];
        let tok = Arc::new(crate::tokenizer::tests::small_tokenizer_with_controls(
            &tags,
        ));
        let shown = ThinkTags::MISTRAL.control_tokens(&tok);
        let spec = |inside, budget| GrammarSpec::AfterThinking {
            thinking: Thinking {
                tags: ThinkTags::MISTRAL,
                inside,
            },
            budget,
            answer: Box::new(GrammarSpec::Regex("[A-Z][a-z]+\\.".into())),
        };
        let walk = |spec: &GrammarSpec, goal: &str, markers: &[&str]| {
            walk::walk(&tok, spec, goal, markers, &shown)
        };
        let goal = "[THINK]a b, c[/THINK]Paris.";
        assert_eq!(walk(&spec(false, None), goal, &tags).as_deref(), Ok(goal));
        assert_eq!(
            walk(&spec(false, None), "Paris.", &tags).as_deref(),
            Ok("Paris.")
        );
        assert!(walk(&spec(false, None), goal, &[]).is_err(), "tags as text");
        assert!(walk(&spec(false, None), "[THINK]a[/THINK]paris", &tags).is_err());
        // Taken as open, the block may still start with its tag; its close spelled out as
        // text is no close, nor part of the thinking.
        assert_eq!(walk(&spec(true, None), goal, &tags).as_deref(), Ok(goal));
        assert!(walk(&spec(true, None), "a[/THINK]b[/THINK]Paris.", &["[THINK]"]).is_err());
        let inside = "a b[/THINK]\n\nParis.";
        assert_eq!(
            walk(&spec(true, None), inside, &tags).as_deref(),
            Ok(inside)
        );
        assert_eq!(
            walk(&spec(false, Some(0)), "[THINK][/THINK]Paris.", &tags).as_deref(),
            Ok("[THINK][/THINK]Paris.")
        );
        // A tag spelled out as text opens no block for the grammar: a budget the count
        // spends on it forces nothing the grammar would refuse.
        let free = GrammarSpec::AfterThinking {
            thinking: Thinking {
                tags: ThinkTags::MISTRAL,
                inside: false,
            },
            budget: Some(2),
            answer: Box::new(GrammarSpec::AnyText),
        };
        let spelled = "[THINK]a b c d";
        assert_eq!(walk(&free, spelled, &[]).as_deref(), Ok(spelled));
        // The tag and one more token spend a budget of 2: the close is forced.
        let forced = walk(&spec(false, Some(2)), goal, &tags);
        assert_eq!(forced, Err("[THINK]a[/THINK]".to_string()));
    }

    #[test]
    fn strict_leaves_the_members_of_an_intersection_open() {
        let schema = json!({
            "type": "object",
            "allOf": [
                {"type": "object", "properties": {"a": {"type": "object"}}, "required": ["a"]},
                {"properties": {"b": {}}, "required": ["b"]}
            ]
        });
        let open = strict(&schema);
        assert!(open.get("additionalProperties").is_none());
        for member in open["allOf"].as_array().unwrap() {
            assert!(member.get("additionalProperties").is_none(), "{member}");
        }
        assert_eq!(
            open["allOf"][0]["properties"]["a"]["additionalProperties"],
            json!(false),
            "what a member nests is closed as anywhere else"
        );
        let schema = json!({
            "$defs": {
                "base": {"type": "object", "properties": {"id": {}}},
                "other": {"type": "object"}
            },
            "allOf": [{"$ref": "#/$defs/base"}, {"properties": {"extra": {}}}]
        });
        let closed = strict(&schema);
        assert!(closed["$defs"]["base"]
            .get("additionalProperties")
            .is_none());
        assert_eq!(
            closed["$defs"]["other"]["additionalProperties"],
            json!(false)
        );
    }

    #[test]
    fn strict_closes_every_object_schema_that_does_not_say_otherwise() {
        let schema = json!({
            "type": "object",
            "properties": {
                "properties": {"type": "object", "properties": {"a": {"type": "integer"}}},
                "open": {"type": "object", "additionalProperties": true},
                "list": {"type": "array", "items": {"properties": {"x": {}}}},
                "choice": {"enum": [{"type": "object"}]}
            },
            "$defs": {"d": {"type": "object"}}
        });
        let strict = strict(&schema);
        assert_eq!(strict["additionalProperties"], json!(false));
        let p = &strict["properties"];
        assert_eq!(p["properties"]["additionalProperties"], json!(false));
        assert!(
            p.get("additionalProperties").is_none(),
            "a property name is not a keyword"
        );
        assert_eq!(p["open"]["additionalProperties"], json!(true));
        assert_eq!(p["list"]["items"]["additionalProperties"], json!(false));
        assert_eq!(
            p["choice"]["enum"][0],
            json!({"type": "object"}),
            "data stays data"
        );
        assert_eq!(strict["$defs"]["d"]["additionalProperties"], json!(false));
    }
}
