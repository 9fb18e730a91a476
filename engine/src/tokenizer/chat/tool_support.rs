//! What a chat template does with tools, found by rendering a probe conversation: whether
//! it announces a `tools` list and writes calls and results in the Hermes format the tool
//! grammar produces (`<tool_call>` JSON `</tool_call>`: Qwen 2.5 and 3, Hermes), and
//! whether it accepts a system turn (Gemma 2's raises on one). The engine renders tools with
//! the template when it speaks that format, and announces them itself otherwise.

use serde_json::{json, Value};

use super::{ChatMessage, ChatTemplate};

/// A name no real conversation uses, so finding it in a render means the template wrote it.
const PROBE_FUNCTION: &str = "radixserve_probe_weather";
const PROBE_RESULT: &str = "radixserve_probe_result_22C";

/// How a template takes tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToolSupport {
    /// It renders the request's `tools`, an assistant turn's `tool_calls` as `<tool_call>`
    /// blocks and a `tool` turn's result: the model reads tools as it was trained to.
    pub hermes_tools: bool,
    /// It renders a conversation that starts with a system turn.
    pub system_turn: bool,
}

impl ToolSupport {
    pub(super) fn probe(template: &ChatTemplate) -> Self {
        let system = [
            ChatMessage::system("You are a helpful assistant."),
            ChatMessage::user("Hello!"),
        ];
        Self {
            hermes_tools: renders_hermes_tools(template),
            system_turn: template.render(&system, true).is_ok(),
        }
    }
}

fn renders_hermes_tools(template: &ChatTemplate) -> bool {
    let tools = [json!({
        "type": "function",
        "function": {
            "name": PROBE_FUNCTION,
            "description": "The weather in a city.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    })];
    let messages = [
        ChatMessage::user("What is the weather in Paris?"),
        ChatMessage {
            tool_calls: Some(vec![probe_call()]),
            ..ChatMessage::assistant("")
        },
        ChatMessage {
            tool_call_id: Some("call_0".into()),
            name: Some(PROBE_FUNCTION.into()),
            ..ChatMessage::new("tool", PROBE_RESULT)
        },
    ];
    let Ok(text) = template.render_with_tools(&messages, Some(&tools), &Default::default(), true)
    else {
        return false;
    };
    // Announced and called (the name twice), the call in tags with its arguments as JSON,
    // the result kept.
    text.matches(PROBE_FUNCTION).count() >= 2
        && text.contains("<tool_call>")
        && text.contains("</tool_call>")
        && text.contains("\"Paris\"")
        && text.contains(PROBE_RESULT)
}

fn probe_call() -> Value {
    json!({
        "id": "call_0",
        "type": "function",
        "function": {"name": PROBE_FUNCTION, "arguments": {"city": "Paris"}},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Qwen 2.5-style template, written for this test: tools in the system turn, calls in
    /// `<tool_call>` tags, results in `<tool_response>` tags inside a user turn.
    const HERMES_TEMPLATE: &str =
        include_str!("../../../tests/fixtures/hermes_tools_template.jinja");

    fn template(source: &str) -> ChatTemplate {
        ChatTemplate::new(source, "", "<|im_end|>").unwrap()
    }

    #[test]
    fn a_hermes_template_is_found_and_chatml_is_not() {
        let support = template(HERMES_TEMPLATE).tool_support();
        assert!(support.hermes_tools && support.system_turn, "{support:?}");
        let chatml = ChatTemplate::chatml("", "<|im_end|>")
            .unwrap()
            .tool_support();
        assert!(!chatml.hermes_tools && chatml.system_turn, "{chatml:?}");
    }

    #[test]
    fn a_template_refusing_system_turns_is_found() {
        let gemma_like = "{% for m in messages %}{% if m.role == 'system' %}\
            {{ raise_exception('System role not supported') }}{% endif %}\
            <start_of_turn>{{ m.role }}\n{{ m.content }}<end_of_turn>\n{% endfor %}";
        let support = template(gemma_like).tool_support();
        assert!(!support.system_turn && !support.hermes_tools, "{support:?}");
    }

    /// Writing the tags is not enough: a template that mentions `<tool_call>` but drops the
    /// calls or the results does not speak the format.
    #[test]
    fn a_template_that_drops_calls_or_results_is_not_hermes() {
        let drops_results =
            "{% if tools %}{% for t in tools %}{{ t | tojson }}{% endfor %}{% endif %}\
            {% for m in messages %}{% if m.role != 'tool' %}{{ m.content }}\
            {% for c in m.tool_calls or [] %}<tool_call>{{ c.function | tojson }}</tool_call>\
            {% endfor %}{% endif %}{% endfor %}";
        assert!(!template(drops_results).tool_support().hermes_tools);
    }
}
