//! What a chat template does with tools, found by rendering a probe conversation: whether
//! it announces a `tools` list and writes calls and results in a tool format the engine
//! reads ([`ToolFormat`]: Hermes `<tool_call>` blocks for Qwen 2.5 and 3 and Hermes, a bare
//! JSON object for Llama 3.x, `[TOOL_CALLS]` and a JSON array for Mistral, `[TOOL_CALLS]`,
//! a name and `[ARGS]` per call for later Mistral models, XML-like parameters in
//! `<tool_call>` blocks for Qwen3-Coder, `<|tool_call|>` and a JSON array for Granite,
//! DeepSeek's, Kimi K2's, GLM's, MiniMax's and Gemma 4's own),
//! whether it takes the tools as a system turn's field instead (Phi-4-mini's), and whether
//! it accepts a system turn (Gemma 2's raises on one). The engine renders tools with the
//! template when it speaks one of those formats, and announces them itself otherwise.
//! (`grammar::tools` holds each format's grammar and reading.)

use serde_json::{json, Value};

use super::{ChatMessage, ChatTemplate};

/// A name no real conversation uses, so finding it in a render means the template wrote it.
const PROBE_FUNCTION: &str = "radixserve_probe_weather";
const PROBE_RESULT: &str = "radixserve_probe_result_22C";
/// Nine letters and digits: Mistral's templates refuse other call ids.
const PROBE_CALL_ID: &str = "probecall";

/// How a model writes its calls (its grammar and reading: `grammar::tools`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ToolFormat {
    /// `<tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>` blocks, after text or
    /// alone (Qwen 2.5 and 3, Hermes; and every template without a syntax of its own).
    #[default]
    Hermes,
    /// One JSON object `{"name": …, "parameters": {…}}` as the whole answer (Llama 3.1 to
    /// 3.3, whose templates render one call per assistant turn).
    Llama3Json,
    /// `[TOOL_CALLS]` and a JSON array of `{"name": …, "arguments": {…}}` as the whole
    /// answer (Mistral v0.3, Nemo, Small), call ids of nine letters and digits.
    Mistral,
    /// `<tool_call>` blocks, after text or alone, each holding `<function=…>` and one
    /// `<parameter=…>` block per argument, its value as text (Qwen3-Coder).
    QwenXml,
    /// `<|tool_call|>` and a JSON array of `{"name": …, "arguments": {…}}` as the whole
    /// answer (IBM Granite 3.x).
    Granite,
    /// `[TOOL_CALLS]name[ARGS]{…}` for each call, after text or alone (Mistral's tokenizers
    /// from v11 on: Mistral Small 3.2, Magistral, Devstral, Ministral 3), call ids of nine
    /// letters and digits in earlier turns.
    MistralArgs,
    /// `functools` and a JSON array of `{"name": …, "arguments": {…}}` as the whole answer
    /// (Phi-4-mini, whose template takes the tools in the system turn's `tools` field).
    Phi4Mini,
    /// Harmony messages (gpt-oss): a call is a message to `functions.NAME` on the
    /// `commentary` channel whose body is its JSON arguments, ended by `<|call|>`; the
    /// thinking and the answer are messages too (see `tokenizer::harmony`).
    Harmony,
    /// `<｜tool▁calls▁begin｜>`, then per call `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}
    /// <｜tool▁call▁end｜>`, then `<｜tool▁calls▁end｜>`, after text or alone (DeepSeek V3.1
    /// and later).
    DeepSeekV31,
    /// As [`Self::DeepSeekV31`], each call `function<｜tool▁sep｜>NAME` and its arguments
    /// in a JSON code fence (DeepSeek V3, R1).
    DeepSeekV3,
    /// `<|tool_calls_section_begin|>`, then per call `<|tool_call_begin|>functions.NAME:N
    /// <|tool_call_argument_begin|>{…}<|tool_call_end|>`, then
    /// `<|tool_calls_section_end|>`, after text or alone (Kimi K2).
    KimiK2,
    /// `<tool_call>` blocks, after text or alone, each holding the function's name and one
    /// `<arg_key>` / `<arg_value>` pair per argument, its value as text (GLM-4.5 on).
    GlmXml,
    /// One `<minimax:tool_call>` block after text or alone, holding an `<invoke name=…>` per
    /// call and a `<parameter name=…>` per argument, its value as text (MiniMax-M2).
    MiniMaxXml,
    /// `<|tool_call>call:NAME{…}<tool_call|>` per call, after text or alone, the arguments
    /// in Gemma 4's own syntax: bare keys, strings between `<|"|>` marks (Gemma 4).
    Gemma4,
}

/// How a template takes tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToolSupport {
    /// The format in which it renders the request's `tools`, an assistant turn's
    /// `tool_calls` and a `tool` turn's result, if any: the model reads tools as it was
    /// trained to.
    pub native: Option<ToolFormat>,
    /// It writes the request's `tools` (a template may write calls and results in its
    /// model's format without them, as DeepSeek V3.1's does: the engine announces the tools
    /// itself then).
    pub announces_tools: bool,
    /// It takes a call's `arguments` as the JSON text OpenAI's API sends, not as an object
    /// (DeepSeek's own templates join them to their markers as strings).
    pub arguments_as_text: bool,
    /// It renders a conversation that starts with a system turn.
    pub system_turn: bool,
    /// It renders a system turn's `tools` field (the tools as JSON text), as Phi-4-mini's
    /// templates do, though it takes no `tools` list.
    pub system_tools: bool,
}

impl ToolSupport {
    pub(super) fn probe(template: &ChatTemplate) -> Self {
        let system = [
            ChatMessage::system("You are a helpful assistant."),
            ChatMessage::user("Hello!"),
        ];
        // Arguments as objects first (Hugging Face's convention), then as text.
        let found = [false, true].into_iter().find_map(|as_text| {
            native_format(template, as_text).map(|(format, announced)| (format, announced, as_text))
        });
        let (native, announces_tools, arguments_as_text) = match found {
            Some((format, announced, as_text)) => (Some(format), announced, as_text),
            None => (None, false, false),
        };
        Self {
            native,
            announces_tools,
            arguments_as_text,
            system_turn: template.render(&system, true).is_ok(),
            system_tools: renders_system_tools(template),
        }
    }

    /// The format this template's model writes calls in, if the template says.
    pub fn format(self) -> Option<ToolFormat> {
        self.native
            .or_else(|| self.system_tools.then_some(ToolFormat::Phi4Mini))
    }
}

/// Whether a system turn's `tools` field shows in the render as its raw text (a template
/// that prints whole messages, as JSON or otherwise, escapes its quotes).
fn renders_system_tools(template: &ChatTemplate) -> bool {
    let tools = json!([{"name": PROBE_FUNCTION, "description": "The weather in a city."}]);
    let tools = tools.to_string();
    let messages = [
        ChatMessage {
            tools: Some(tools.clone()),
            ..ChatMessage::system("You are a helpful assistant.")
        },
        ChatMessage::user("Hello!"),
    ];
    template
        .render(&messages, true)
        .is_ok_and(|text| text.contains(&tools))
}

/// The format the template writes calls in, their arguments given as JSON text (`as_text`)
/// or as an object, and whether it announces the tools too.
fn native_format(template: &ChatTemplate, as_text: bool) -> Option<(ToolFormat, bool)> {
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
            tool_calls: Some(vec![probe_call(as_text)]),
            ..ChatMessage::assistant("")
        },
        ChatMessage {
            tool_call_id: Some(PROBE_CALL_ID.into()),
            name: Some(PROBE_FUNCTION.into()),
            ..ChatMessage::new("tool", PROBE_RESULT)
        },
    ];
    let text = template
        .render_with_tools(&messages, Some(&tools), &Default::default(), true)
        .ok()?;
    if !text.contains(PROBE_RESULT) {
        return None;
    }
    // Called and kept in a section of the calls' own markers (DeepSeek's, Kimi's), the
    // tools announced or not, ...
    let announced = text.matches(PROBE_FUNCTION).count() >= 2;
    if let Some(format) = sectioned_format(&text) {
        return Some((format, announced));
    }
    // ... or announced and called (the name twice), ...
    if !announced {
        return None;
    }
    // ... the call written as JSON in the format's shape.
    let call_with = |key: &str| {
        json_objects(&text).any(|v| {
            v.get("name").and_then(Value::as_str) == Some(PROBE_FUNCTION)
                && v.get(key) == Some(&json!({"city": "Paris"}))
        })
    };
    let xml_call = format!("<function={PROBE_FUNCTION}>\n<parameter=city>\nParis\n</parameter>");
    let harmony_call = format!("to=functions.{PROBE_FUNCTION}");
    let gemma4_call = format!("<|tool_call>call:{PROBE_FUNCTION}{{city:<|\"|>Paris<|\"|>}}");
    let format =
        if text.contains(&harmony_call) && text.contains(crate::tokenizer::harmony::CHANNEL) {
            Some(ToolFormat::Harmony)
        } else if text.contains("<tool_call>") && text.contains(&xml_call) {
            Some(ToolFormat::QwenXml)
        } else if text.contains(&gemma4_call) {
            Some(ToolFormat::Gemma4)
        } else if glm_call(&text) {
            Some(ToolFormat::GlmXml)
        } else if minimax_call(&text) {
            Some(ToolFormat::MiniMaxXml)
        } else if text.contains("<tool_call>")
            && text.contains("</tool_call>")
            && call_with("arguments")
        {
            Some(ToolFormat::Hermes)
        } else if call_with("parameters") {
            Some(ToolFormat::Llama3Json)
        } else if mistral_args_call(&text) {
            Some(ToolFormat::MistralArgs)
        } else if text.contains("[TOOL_CALLS]") && call_with("arguments") {
            Some(ToolFormat::Mistral)
        } else if text.contains("<|tool_call|>") && call_with("arguments") {
            Some(ToolFormat::Granite)
        } else {
            None
        };
    format.map(|f| (f, true))
}

/// Whether `text` holds the probe call as GLM writes it: `<tool_call>` and the name, then
/// the argument as an `<arg_key>` / `<arg_value>` pair.
fn glm_call(text: &str) -> bool {
    let opening = format!("<tool_call>{PROBE_FUNCTION}");
    text.match_indices(&opening).any(|(at, _)| {
        let rest = text[at + opening.len()..].trim_start();
        rest.strip_prefix("<arg_key>city</arg_key>")
            .is_some_and(|r| r.trim_start().starts_with("<arg_value>Paris</arg_value>"))
    })
}

/// Whether `text` holds the probe call as MiniMax writes it: in a `<minimax:tool_call>`
/// block, an `<invoke>` of the name with the argument as a `<parameter>`.
fn minimax_call(text: &str) -> bool {
    let opening = format!("<invoke name=\"{PROBE_FUNCTION}\">");
    text.contains("<minimax:tool_call>")
        && text.match_indices(&opening).any(|(at, _)| {
            text[at + opening.len()..]
                .trim_start()
                .starts_with("<parameter name=\"city\">Paris</parameter>")
        })
}

/// The sectioned format whose call to the probe function `text` holds, its arguments JSON.
fn sectioned_format(text: &str) -> Option<ToolFormat> {
    let shapes = [
        (
            ToolFormat::DeepSeekV3,
            format!("<｜tool▁sep｜>{PROBE_FUNCTION}\n```json\n"),
        ),
        (
            ToolFormat::DeepSeekV31,
            format!("<｜tool▁call▁begin｜>{PROBE_FUNCTION}<｜tool▁sep｜>"),
        ),
        (
            ToolFormat::KimiK2,
            format!("<|tool_call_begin|>functions.{PROBE_FUNCTION}:0<|tool_call_argument_begin|>"),
        ),
    ];
    shapes.into_iter().find_map(|(format, opening)| {
        text.match_indices(&opening)
            .any(|(at, _)| {
                json_objects(&text[at + opening.len()..]).next() == Some(json!({"city": "Paris"}))
            })
            .then_some(format)
    })
}

/// Whether `text` holds the probe call as `[TOOL_CALLS]name`, maybe `[CALL_ID]` and the id,
/// then `[ARGS]` and the arguments.
fn mistral_args_call(text: &str) -> bool {
    let opening = format!("[TOOL_CALLS]{PROBE_FUNCTION}");
    text.match_indices(&opening).any(|(at, _)| {
        let rest = &text[at + opening.len()..];
        let rest = rest
            .strip_prefix("[CALL_ID]")
            .and_then(|r| r.strip_prefix(PROBE_CALL_ID))
            .unwrap_or(rest);
        rest.strip_prefix("[ARGS]")
            .is_some_and(|args| json_objects(args).next() == Some(json!({"city": "Paris"})))
    })
}

/// Every JSON object in `text` (nested ones too), read from each `{` on.
fn json_objects(text: &str) -> impl Iterator<Item = Value> + '_ {
    text.match_indices('{').filter_map(|(at, _)| {
        let mut values = serde_json::Deserializer::from_str(&text[at..]).into_iter::<Value>();
        values.next().and_then(Result::ok)
    })
}

fn probe_call(as_text: bool) -> Value {
    let arguments = json!({"city": "Paris"});
    let arguments = match as_text {
        true => Value::String(arguments.to_string()),
        false => arguments,
    };
    json!({
        "id": PROBE_CALL_ID,
        "type": "function",
        "function": {"name": PROBE_FUNCTION, "arguments": arguments},
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
        assert_eq!(support.native, Some(ToolFormat::Hermes), "{support:?}");
        assert!(support.system_turn, "{support:?}");
        let chatml = ChatTemplate::chatml("", "<|im_end|>")
            .unwrap()
            .tool_support();
        assert!(chatml.native.is_none() && chatml.system_turn, "{chatml:?}");
    }

    /// A Llama 3.1-style template: bare JSON calls with `parameters`, results in `ipython`
    /// turns.
    #[test]
    fn a_llama3_template_is_found() {
        let source = include_str!("../../../tests/fixtures/llama3_tools_template.jinja");
        let support = template(source).tool_support();
        assert_eq!(support.native, Some(ToolFormat::Llama3Json), "{support:?}");
    }

    /// Qwen3-Coder's template: XML-like parameters in `<tool_call>` blocks (not Hermes,
    /// though it writes the same tags).
    #[test]
    fn a_qwen3_coder_template_is_found() {
        let source = include_str!("../../../tests/fixtures/qwen3_coder_tools_template.jinja");
        let support = template(source).tool_support();
        assert_eq!(support.native, Some(ToolFormat::QwenXml), "{support:?}");
    }

    /// A Mistral Small 3.2-style template: `[TOOL_CALLS]name[CALL_ID]id[ARGS]{…}` per call
    /// (not the v0.3 array, though it writes the same marker).
    #[test]
    fn a_mistral_v11_template_is_found() {
        let source = include_str!("../../../tests/fixtures/mistral_v11_tools_template.jinja");
        let support = template(source).tool_support();
        assert_eq!(support.native, Some(ToolFormat::MistralArgs), "{support:?}");
        // Without the ids (Ministral 3 style), still this format.
        let without_ids = source.replace(r#"+ "[CALL_ID]" + call.id "#, "");
        assert_ne!(without_ids, source);
        let support = template(&without_ids).tool_support();
        assert_eq!(support.native, Some(ToolFormat::MistralArgs), "{support:?}");
        let v03 = include_str!("../../../tests/fixtures/mistral_tools_template.jinja");
        assert_eq!(
            template(v03).tool_support().native,
            Some(ToolFormat::Mistral)
        );
    }

    /// A Phi-4-mini-style template takes the tools in the system turn's `tools` field and
    /// renders no calls: it speaks no format natively, but its model writes `functools`.
    #[test]
    fn a_phi4_mini_template_takes_tools_in_the_system_turn() {
        let source = include_str!("../../../tests/fixtures/phi4_mini_tools_template.jinja");
        let support = template(source).tool_support();
        assert!(
            support.system_tools && support.native.is_none(),
            "{support:?}"
        );
        assert_eq!(support.format(), Some(ToolFormat::Phi4Mini));
        let hermes = template(HERMES_TEMPLATE).tool_support();
        assert!(!hermes.system_tools, "{hermes:?}");
        assert_eq!(hermes.format(), Some(ToolFormat::Hermes));
        // Other families' templates, and one printing whole messages, do not take it so.
        let dumps_messages = "{% for m in messages %}{{ m | tojson }}\n{{ m }}{% endfor %}";
        for source in [
            include_str!("../../../tests/fixtures/llama3_tools_template.jinja"),
            include_str!("../../../tests/fixtures/mistral_tools_template.jinja"),
            include_str!("../../../tests/fixtures/mistral_v11_tools_template.jinja"),
            include_str!("../../../tests/fixtures/granite_tools_template.jinja"),
            include_str!("../../../tests/fixtures/qwen3_coder_tools_template.jinja"),
            dumps_messages,
        ] {
            assert!(!template(source).tool_support().system_tools, "{source}");
        }
        let chatml = ChatTemplate::chatml("", "<|im_end|>").unwrap();
        assert!(!chatml.tool_support().system_tools);
    }

    #[test]
    fn a_template_refusing_system_turns_is_found() {
        let gemma_like = "{% for m in messages %}{% if m.role == 'system' %}\
            {{ raise_exception('System role not supported') }}{% endif %}\
            <start_of_turn>{{ m.role }}\n{{ m.content }}<end_of_turn>\n{% endfor %}";
        let support = template(gemma_like).tool_support();
        assert!(
            !support.system_turn && support.native.is_none(),
            "{support:?}"
        );
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
        assert_eq!(template(drops_results).tool_support().native, None);
    }
}
