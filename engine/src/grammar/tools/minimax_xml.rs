//! Tool calls as MiniMax-M2 writes them: one `<minimax:tool_call>` block after text or alone,
//! holding an `<invoke>` per call and a `<parameter>` per argument, its value as text:
//!
//! ```text
//! <minimax:tool_call>
//! <invoke name="get_weather">
//! <parameter name="city">Paris</parameter>
//! <parameter name="days">3</parameter>
//! </invoke>
//! </minimax:tool_call>
//! ```
//!
//! Values follow Qwen3-Coder's rules (`qwen_xml`, whose reading and grammar builder this
//! format shares): a string's value is its raw text (it cannot hold `</parameter>`), any
//! other value JSON valid against its schema; the grammar writes the arguments in the
//! schema's order, the required ones always, the line breaks the template writes optional.
//! The block's tags are named by id where the vocabulary makes them control tokens.

use super::qwen_xml::{argument_texts, call_so_far, calls_rules, raw_rule, read_call};
use super::qwen_xml::{ArgSyntax, Markup, PARAMETER_CLOSE};
use super::sectioned::{self, Section};
use super::so_far::CallSoFar;
use super::{ToolCall, ToolFunction};
use crate::grammar::structural_tag::lark_string as literal;
use crate::tokenizer::Tokenizer;
use serde_json::{json, Value};

pub(super) const BLOCK_OPEN: &str = "<minimax:tool_call>";
const BLOCK_CLOSE: &str = "</minimax:tool_call>";
const INVOKE_OPEN: &str = "<invoke name=\"";
const INVOKE_CLOSE: &str = "</invoke>";
const PARAMETER_OPEN: &str = "<parameter name=\"";

/// The block: its calls are read by [`MARKUP`], one after another.
pub(super) const SECTION: Section = Section {
    open: BLOCK_OPEN,
    call_open: "",
    before_name: "",
    numbered: false,
    before_arguments: "",
    after_arguments: "",
    call_close: "",
    between: "",
    close: BLOCK_CLOSE,
    markers: &[BLOCK_OPEN, BLOCK_CLOSE],
};

const MARKUP: Markup = Markup {
    function_open: INVOKE_OPEN,
    name_close: "\">",
    function_close: INVOKE_CLOSE,
    parameter_open: PARAMETER_OPEN,
    key_close: "\">",
};

/// Calls of one of `calls` in the block: one (`auto` false), several when `parallel`;
/// under `auto` after free text, or `answer` (a JSON schema) instead of the block.
pub(super) fn grammar(
    calls: &[&ToolFunction],
    auto: bool,
    parallel: bool,
    answer: Option<Value>,
    vocab: &Tokenizer,
) -> String {
    let mut rules = calls_rules(calls, &minimax_syntax, "mm_call");
    rules.push_str("call: \"\\n\"? mm_call\n");
    // A raw value holds anything but `</parameter>`, which ends it.
    rules.push_str(&raw_rule(
        "mm_raw",
        &literal(PARAMETER_CLOSE),
        "<\\/parameter>",
    ));
    sectioned::section_grammar(&SECTION, rules, auto, parallel, answer, vocab)
}

/// MiniMax's layout of a call of `name`, each line break the template writes optional.
fn minimax_syntax(name: &str) -> ArgSyntax {
    let line = "\"\\n\"?";
    ArgSyntax {
        prefix: "m",
        open: format!("{} {line}", literal(&format!("{INVOKE_OPEN}{name}\">"))),
        close: format!("{} {line}", literal(INVOKE_CLOSE)),
        key_open: literal(PARAMETER_OPEN),
        key_close: literal("\">"),
        raw: format!("mm_raw {line}"),
        value_end: format!("{} {line}", literal(PARAMETER_CLOSE)),
        end_regex: "<\\/parameter>",
        tag_regex: "<\\/parameter>",
        after_bounded: " \"\\n\"?",
    }
}

/// The content and the calls of a model's output; each value typed by the schema of its
/// argument among `tools`.
pub(super) fn parse(text: &str, tools: &[ToolFunction]) -> (String, Vec<ToolCall>) {
    sectioned::parse_with(text, &SECTION, &|body| read_call(body, tools, &MARKUP))
}

/// The calls begun so far in an output being written: each once its name is whole, its
/// arguments growing by whole parameters, and a string's text as it comes.
pub(super) fn calls_so_far(text: &str, tools: &[ToolFunction]) -> Vec<CallSoFar> {
    sectioned::calls_so_far_with(text, &SECTION, &|body| call_so_far(body, tools, &MARKUP))
}

/// The tools and the call syntax, for a template without them (in MiniMax's words).
pub(super) fn announcement(tools: &[ToolFunction]) -> String {
    let mut listed = String::from("<tools>\n");
    for tool in tools {
        let function = json!({
            "name": tool.name,
            "description": tool.description.as_deref().unwrap_or(""),
            "parameters": tool.parameters,
        });
        listed.push_str(&format!("<tool>{function}</tool>\n"));
    }
    listed.push_str("</tools>");
    format!(
        "# Tools\nYou may call one or more tools to assist with the user query.\nHere are the \
         tools available in JSONSchema format:\n\n{listed}\n\nWhen making tool calls, use XML \
         format to invoke tools and pass parameters:\n\n{BLOCK_OPEN}\n\
         {INVOKE_OPEN}tool-name-1\">\n{PARAMETER_OPEN}param-key-1\">param-value-1{PARAMETER_CLOSE}\n\
         {PARAMETER_OPEN}param-key-2\">param-value-2{PARAMETER_CLOSE}\n...\n{INVOKE_CLOSE}\n\
         {BLOCK_CLOSE}"
    )
}

/// Earlier calls as the model writes them, in one block: strings raw, other values as JSON.
pub(super) fn render_calls(calls: &[ToolCall]) -> String {
    let mut out = format!("{BLOCK_OPEN}\n");
    for call in calls {
        out.push_str(&format!("{INVOKE_OPEN}{}\">\n", call.name));
        for (key, value) in argument_texts(call) {
            out.push_str(&format!(
                "{PARAMETER_OPEN}{key}\">{value}{PARAMETER_CLOSE}\n"
            ));
        }
        out.push_str(&format!("{INVOKE_CLOSE}\n"));
    }
    out.push_str(BLOCK_CLOSE);
    out
}

#[cfg(test)]
mod tests;
