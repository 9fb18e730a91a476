//! Tool calls: the functions a chat request offers, the grammar that holds the model's calls
//! to their schemas, and the calls read back out of its output. Each [`ToolFormat`] is the
//! syntax one family of models was trained to write (the type lives beside the chat template
//! probe that finds it, `tokenizer::ToolSupport`; its grammar and reading live here), and
//! templates without a syntax of their own get the Hermes one as text.

mod gemma4;
mod glm_xml;
mod granite;
pub mod harmony;
mod hermes;
mod llama3;
mod marked_array;
mod minimax_xml;
mod mistral;
mod mistral_args;
mod partial_json;
mod phi4_mini;
mod qwen_xml;
mod sectioned;
mod so_far;

pub use phi4_mini::{tools_field as system_tools_field, CALL_SYNTAX as SYSTEM_TOOLS_CALL_SYNTAX};
pub use so_far::{CallPiece, CallSoFar, Pieces};

use super::GrammarSpec;
use crate::tokenizer::Tokenizer;
pub use crate::tokenizer::ToolFormat;
use serde_json::{json, Value};

/// One function a model may call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolFunction {
    pub name: String,
    pub description: Option<String>,
    /// JSON schema of the arguments (an object schema).
    pub parameters: Value,
}

/// Whether and which tools the model must call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolChoice {
    /// No calls: plain text (the tools are not announced).
    None,
    /// Text, or calls.
    Auto,
    /// At least one call, nothing else.
    Required,
    /// One call of this function, nothing else.
    Function(String),
}

/// One call the model made: the function's name and its arguments as JSON text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolCall {
    pub name: String,
    pub arguments: String,
}

impl ToolFormat {
    /// The grammar of the output for `choice` over `tools` (`None` for
    /// [`ToolChoice::None`]). With `parallel`, `required` and `auto` admit several calls
    /// where the format has a way to write them; `answer` (a JSON object response format)
    /// is the other way an `auto` output may end: as that JSON instead of calls. Markers
    /// that are control tokens in `vocab` are named as tokens.
    pub fn grammar(
        self,
        tools: &[ToolFunction],
        choice: &ToolChoice,
        parallel: bool,
        answer: Option<&GrammarSpec>,
        vocab: &Tokenizer,
    ) -> Option<GrammarSpec> {
        let calls = match choice {
            ToolChoice::None => return None,
            ToolChoice::Function(name) => vec![tools.iter().find(|t| &t.name == name)?],
            ToolChoice::Auto | ToolChoice::Required => tools.iter().collect(),
        };
        let answer = answer.and_then(GrammarSpec::json_schema);
        let auto = *choice == ToolChoice::Auto;
        let parallel = parallel && matches!(choice, ToolChoice::Auto | ToolChoice::Required);
        let lark = match self {
            Self::Hermes => hermes::grammar(&calls, auto, parallel, answer),
            Self::Llama3Json => llama3::grammar(&calls, auto, answer),
            Self::Mistral | Self::Granite | Self::Phi4Mini => {
                marked_array::grammar(&calls, auto, parallel, answer, self.marker()?, vocab)
            }
            Self::QwenXml => qwen_xml::grammar(&calls, auto, parallel, answer),
            Self::GlmXml => glm_xml::grammar(&calls, auto, parallel, answer),
            Self::MiniMaxXml => minimax_xml::grammar(&calls, auto, parallel, answer, vocab),
            Self::MistralArgs => mistral_args::grammar(&calls, auto, parallel, answer, vocab),
            Self::Harmony => harmony::grammar(&calls, auto, answer, vocab)?,
            Self::DeepSeekV31 | Self::DeepSeekV3 | Self::KimiK2 => {
                sectioned::grammar(self.section()?, &calls, auto, parallel, answer, vocab)
            }
            Self::Gemma4 => gemma4::grammar(&calls, auto, parallel, answer, vocab),
        };
        Some(GrammarSpec::Tools(lark))
    }

    /// The control tokens of `vocab` that mark calls in this format: the output text must
    /// show them (see `SamplingParams::shown_control_tokens`) for the calls to be read.
    pub fn shown_tokens(self, vocab: &Tokenizer) -> Vec<u32> {
        match self {
            Self::Hermes | Self::Llama3Json | Self::QwenXml | Self::GlmXml => Vec::new(),
            Self::Mistral | Self::Granite | Self::Phi4Mini => self
                .marker()
                .map(|marker| marked_array::control_tokens(marker, vocab))
                .unwrap_or_default(),
            Self::MistralArgs => mistral_args::control_tokens(vocab),
            Self::Harmony => crate::tokenizer::harmony::control_tokens(vocab),
            Self::Gemma4 => gemma4::control_tokens(vocab),
            Self::DeepSeekV31 | Self::DeepSeekV3 | Self::KimiK2 | Self::MiniMaxXml => self
                .section()
                .map(|s| sectioned::control_tokens(s, vocab))
                .unwrap_or_default(),
        }
    }

    /// The section of a format that writes its calls in one ([`sectioned`]).
    fn section(self) -> Option<&'static sectioned::Section> {
        match self {
            Self::DeepSeekV31 => Some(&sectioned::DEEPSEEK),
            Self::DeepSeekV3 => Some(&sectioned::DEEPSEEK_FENCED),
            Self::KimiK2 => Some(&sectioned::KIMI_K2),
            Self::MiniMaxXml => Some(&minimax_xml::SECTION),
            _ => None,
        }
    }

    /// The marker that opens the calls of a format that writes them all after one.
    fn marker(self) -> Option<&'static marked_array::Marker> {
        match self {
            Self::Hermes | Self::Llama3Json | Self::QwenXml | Self::MistralArgs => None,
            Self::GlmXml | Self::MiniMaxXml | Self::Gemma4 => None,
            Self::Harmony | Self::DeepSeekV31 | Self::DeepSeekV3 | Self::KimiK2 => None,
            Self::Mistral => Some(&mistral::FORMAT),
            Self::Granite => Some(&granite::FORMAT),
            Self::Phi4Mini => Some(&phi4_mini::FORMAT),
        }
    }

    /// The content (text around the calls) and the calls of a model's output; all text and
    /// no calls when none parses. `tools` type the arguments of formats that write them as
    /// text.
    pub fn parse(self, text: &str, tools: &[ToolFunction]) -> (String, Vec<ToolCall>) {
        match self {
            Self::Hermes => hermes::parse(text),
            Self::Llama3Json => llama3::parse(text),
            Self::Mistral => marked_array::parse(text, &mistral::FORMAT),
            Self::Granite => marked_array::parse(text, &granite::FORMAT),
            Self::Phi4Mini => marked_array::parse(text, &phi4_mini::FORMAT),
            Self::QwenXml => qwen_xml::parse(text, tools),
            Self::GlmXml => glm_xml::parse(text, tools),
            Self::MiniMaxXml => minimax_xml::parse(text, tools),
            Self::MistralArgs => mistral_args::parse(text),
            Self::Gemma4 => gemma4::parse(text),
            Self::Harmony => {
                let (_, content, calls) = harmony::read_whole(text, true, true);
                (content, calls)
            }
            Self::DeepSeekV31 | Self::DeepSeekV3 | Self::KimiK2 => match self.section() {
                Some(s) => sectioned::parse(text, s),
                None => (text.to_string(), Vec::new()),
            },
        }
    }

    /// Where text streamed so far must stop being sent as content: a call starts there, or
    /// could, as more text comes. `sent` bytes went out already (they hold no call).
    pub fn held_from(self, text: &str, sent: usize) -> usize {
        match self {
            Self::Hermes | Self::QwenXml | Self::GlmXml => hermes::held_from(text, sent),
            Self::MistralArgs => held_before(text, sent, mistral_args::CALL_OPEN),
            Self::MiniMaxXml => held_before(text, sent, minimax_xml::BLOCK_OPEN),
            Self::Gemma4 => gemma4::held_from(text, sent),
            Self::Llama3Json => llama3::held_from(text),
            Self::Mistral => marked_array::held_from(text, &mistral::FORMAT),
            Self::Granite => marked_array::held_from(text, &granite::FORMAT),
            Self::Phi4Mini => marked_array::held_from(text, &phi4_mini::FORMAT),
            // Harmony outputs are read message by message (`harmony::HarmonyReader`).
            Self::Harmony => sent,
            Self::DeepSeekV31 | Self::DeepSeekV3 | Self::KimiK2 => match self.section() {
                Some(s) => held_before(text, sent, s.open),
                None => text.len(),
            },
        }
    }

    /// The text that announces `tools` and this format to a model whose template does not
    /// (put at the start of the system turn).
    pub fn announcement(self, tools: &[ToolFunction]) -> String {
        match self {
            Self::Hermes => hermes::announcement(tools),
            Self::Llama3Json => llama3::announcement(tools),
            Self::Mistral => mistral::announcement(tools),
            Self::Granite => granite::announcement(tools),
            Self::Phi4Mini => phi4_mini::announcement(tools),
            Self::QwenXml => qwen_xml::announcement(tools),
            Self::GlmXml => glm_xml::announcement(tools),
            Self::MiniMaxXml => minimax_xml::announcement(tools),
            Self::MistralArgs => mistral_args::announcement(tools),
            Self::Harmony => harmony::announcement(tools),
            Self::Gemma4 => gemma4::announcement(tools),
            Self::DeepSeekV31 | Self::DeepSeekV3 | Self::KimiK2 => self
                .section()
                .map(|s| sectioned::announcement(tools, s))
                .unwrap_or_default(),
        }
    }

    /// Earlier calls as the text the model wrote, for a conversation's history.
    pub fn render_calls(self, calls: &[ToolCall]) -> String {
        match self {
            Self::Hermes => hermes::render_calls(calls),
            Self::Llama3Json => llama3::render_calls(calls),
            Self::Mistral => marked_array::render_calls(calls, &mistral::FORMAT),
            Self::Granite => marked_array::render_calls(calls, &granite::FORMAT),
            Self::Phi4Mini => marked_array::render_calls(calls, &phi4_mini::FORMAT),
            Self::QwenXml => qwen_xml::render_calls(calls),
            Self::GlmXml => glm_xml::render_calls(calls),
            Self::MiniMaxXml => minimax_xml::render_calls(calls),
            Self::MistralArgs => mistral_args::render_calls(calls),
            Self::Harmony => harmony::render_calls(calls),
            Self::Gemma4 => gemma4::render_calls(calls),
            Self::DeepSeekV31 | Self::DeepSeekV3 | Self::KimiK2 => self
                .section()
                .map(|s| sectioned::render_calls(calls, s))
                .unwrap_or_default(),
        }
    }

    /// `id` as this format's templates take it (a client's id in the history, or the one the
    /// server gives a call): unchanged, or made to fit where the format insists.
    pub fn call_id(self, id: &str) -> String {
        match self {
            Self::Hermes
            | Self::Llama3Json
            | Self::QwenXml
            | Self::GlmXml
            | Self::MiniMaxXml
            | Self::Granite
            | Self::Phi4Mini
            | Self::Harmony
            | Self::DeepSeekV31
            | Self::DeepSeekV3
            | Self::KimiK2
            | Self::Gemma4 => id.to_string(),
            Self::Mistral | Self::MistralArgs => mistral::call_id(id),
        }
    }

    /// Whether this format's templates need an id on every call and result of the history
    /// (the later Mistral format's differ: those that do raise their own error).
    pub fn requires_call_ids(self) -> bool {
        self == Self::Mistral
    }
}

/// The JSON `answer` an `auto` output may give instead of calls: its rule, and how text
/// beside it must start (not with `{`; a space may lead, as SentencePiece words carry one),
/// so the first character tells the answer from text.
fn answer_branch(answer: Option<Value>) -> Option<(String, &'static str)> {
    answer.map(|a| {
        (
            format!("answer: %json {}\n", super::compact(&a)),
            " ?[^{\\s]",
        )
    })
}

/// The grammar of an `auto` output whose calls start at `open` (a control token where `vocab`
/// has one, else text): free text that never holds `open`'s text, then the calls (`open`,
/// then what `after_open`, a rule of `rules`, matches), or the calls alone, or text alone, or
/// `answer` (a JSON schema) instead. Since the text never holds the mark, every call read is
/// one the grammar checked.
fn text_then_calls(
    open: &str,
    after_open: &str,
    rules: &str,
    answer: Option<Value>,
    vocab: &Tokenizer,
) -> String {
    let (answer_choice, answer_rule, lead) = match answer_branch(answer) {
        Some((rule, lead)) => (" | answer", rule, lead),
        None => ("", String::new(), ""),
    };
    let text = format!(
        "TEXT: /{lead}(.|\\n)*/ & ~/(.|\\n)*{}(.|\\n)*/\n",
        crate::grammar::structural_tag::regex_escape(open)
    );
    let mark = lark_marker(open, vocab);
    if control_token(open, vocab).is_some() {
        return format!(
            "start: calls | TEXT | TEXT calls{answer_choice}\n{answer_rule}\
             calls: {mark} {after_open}\n{text}{rules}"
        );
    }
    // The mark as text: the first call is found lazily at it.
    let lead_text = match lead {
        "" => "(.|\\n)*".to_string(),
        lead => format!("({lead}(.|\\n)*)?"),
    };
    format!(
        "start: calls | TEXT{answer_choice}\n{answer_rule}{text}LEAD: /{lead_text}/\n\
         calls: trigger {after_open}\ntrigger[lazy]: LEAD {mark}\n{rules}"
    )
}

/// `marker`'s control token in `vocab`, if it is one.
pub(super) fn control_token(marker: &str, vocab: &Tokenizer) -> Option<u32> {
    vocab.token_id(marker).filter(|&id| vocab.is_special(id))
}

/// `marker` in a grammar: its control token, or its text.
pub(super) fn lark_marker(marker: &str, vocab: &Tokenizer) -> String {
    match control_token(marker, vocab) {
        Some(id) => format!("<[{id}]>"),
        None => crate::grammar::structural_tag::lark_string(marker),
    }
}

/// Up to the first `marker` after `sent`, less a tail that could still become one: where
/// text streamed so far stops being content in a format whose calls follow text.
fn held_before(text: &str, sent: usize, marker: &str) -> usize {
    match text.get(sent..).and_then(|t| t.find(marker)) {
        Some(at) => sent + at,
        None => {
            let len = text.len();
            (len.saturating_sub(marker.len() - 1)..len)
                .filter(|&i| text.is_char_boundary(i))
                .find(|&i| marker.starts_with(&text[i..]))
                .unwrap_or(len)
        }
    }
}

/// A tool as OpenAI's request and Hugging Face's templates give it.
pub fn tool_json(tool: &ToolFunction) -> Value {
    json!({
        "type": "function",
        "function": {
            "name": tool.name,
            "description": tool.description.clone().unwrap_or_default(),
            "parameters": tool.parameters,
        }
    })
}

/// Tool results as one user turn's text, each in `<tool_response>` tags (Hermes / Qwen);
/// for templates without a tool role of their own, whatever format the calls take.
pub fn render_tool_responses<'a>(results: impl IntoIterator<Item = &'a str>) -> String {
    results
        .into_iter()
        .map(|r| format!("<tool_response>\n{r}\n</tool_response>"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The JSON schema of one call of `tool`: its name under `name_key`, its arguments under
/// `arguments_key`, nothing else.
fn call_schema(tool: &ToolFunction, arguments_key: &str) -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"const": tool.name},
            arguments_key: tool.parameters,
        },
        "required": ["name", arguments_key],
        "additionalProperties": false,
    })
}

/// A call read from JSON: `name` and the arguments under the first of `arguments_keys`
/// present (an object).
fn call_from_json(value: &Value, arguments_keys: &[&str]) -> Option<ToolCall> {
    let name = value.get("name")?.as_str()?;
    let arguments = arguments_keys.iter().find_map(|k| value.get(*k))?;
    arguments.is_object().then(|| ToolCall {
        name: name.to_string(),
        arguments: arguments.to_string(),
    })
}

/// A call's arguments as JSON (`null` where the text is not JSON), for rendering it back.
fn arguments_json(call: &ToolCall) -> Value {
    serde_json::from_str(&call.arguments).unwrap_or(Value::Null)
}

#[cfg(test)]
pub(super) mod tests {
    use super::{ToolCall, ToolFunction};
    use serde_json::json;

    /// A tool of a string, an integer and an array argument, the string required: what the
    /// XML-like formats type by schema.
    pub fn typed_weather() -> ToolFunction {
        ToolFunction {
            name: "weather".into(),
            description: None,
            parameters: json!({"type": "object", "properties": {
                "city": {"type": "string"},
                "days": {"type": "integer"},
                "units": {"type": "array", "items": {"type": "string"}},
            }, "required": ["city"]}),
        }
    }

    /// `goal` written through `format`'s grammar for [`walk_tools`] over a small plain
    /// vocabulary: calls required (`auto` false) or not, several or one, maybe an `answer`.
    pub fn walk_calls(
        format: super::ToolFormat,
        (auto, parallel): (bool, bool),
        answer: Option<&crate::grammar::GrammarSpec>,
        goal: &str,
    ) -> Result<String, String> {
        let tok = std::sync::Arc::new(crate::tokenizer::tests::small_tokenizer_with_controls(&[]));
        let choice = match auto {
            true => super::ToolChoice::Auto,
            false => super::ToolChoice::Required,
        };
        let spec = format
            .grammar(&walk_tools(), &choice, parallel, answer, &tok)
            .ok_or("no grammar")?;
        crate::grammar::walk::walk(&tok, &spec, goal, &[], &[])
    }

    /// The tools grammar walks use: `f` with an integer `a`, and `g` without arguments.
    pub fn walk_tools() -> [ToolFunction; 2] {
        let tool = |name: &str, parameters| ToolFunction {
            name: name.into(),
            description: None,
            parameters,
        };
        [
            tool(
                "f",
                json!({"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}),
            ),
            tool("g", json!({"type": "object", "properties": {}})),
        ]
    }

    pub fn call(name: &str, arguments: &str) -> ToolCall {
        ToolCall {
            name: name.into(),
            arguments: arguments.into(),
        }
    }
}
