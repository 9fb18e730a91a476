//! Calls read out of an output still being written, so a stream can send each call as it
//! comes: its name once whole, then its arguments piece by piece. The arguments so far are
//! compact JSON that only grows and ends as the unstreamed reply's (`partial_json`); in
//! Qwen3-Coder's XML-like bodies a parameter joins them once its value is whole.

use super::partial_json::{compact_so_far, object_so_far, skip_blank, value_reach, Reach};
use super::qwen_xml;
use super::{gemma4, glm_xml, hermes, llama3, marked_array, minimax_xml, mistral, mistral_args};
use super::{granite, harmony, phi4_mini, sectioned, ToolFormat, ToolFunction};

/// A call as far as the output has written it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSoFar {
    /// Where its text starts: the text before it holds the content and the calls before it
    /// (0 in formats whose output is all calls).
    pub start: usize,
    pub name: String,
    /// The compact JSON of its arguments so far.
    pub arguments: String,
}

/// A piece of a call for a stream: the call's place among the output's calls, its
/// function's name where the call starts, and text adding to its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallPiece {
    pub index: usize,
    pub name: Option<String>,
    pub arguments: String,
}

/// What an output being written lets out now: thinking, content and pieces of calls.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Pieces {
    pub thinking: String,
    pub content: String,
    pub calls: Vec<CallPiece>,
}

impl ToolFormat {
    /// The calls `text` (an output cut anywhere) has begun, in order, each once its name is
    /// whole. `tools` type the arguments of formats that write them as text.
    pub fn calls_so_far(self, text: &str, tools: &[ToolFunction]) -> Vec<CallSoFar> {
        match self {
            Self::Hermes => hermes::calls_so_far(text),
            Self::QwenXml => qwen_xml::calls_so_far(text, tools),
            Self::GlmXml => glm_xml::calls_so_far(text, tools),
            Self::MiniMaxXml => minimax_xml::calls_so_far(text, tools),
            Self::Llama3Json => llama3::calls_so_far(text),
            Self::Mistral => marked_array::calls_so_far(text, &mistral::FORMAT),
            Self::Granite => marked_array::calls_so_far(text, &granite::FORMAT),
            Self::Phi4Mini => marked_array::calls_so_far(text, &phi4_mini::FORMAT),
            Self::MistralArgs => mistral_args::calls_so_far(text),
            Self::Harmony => harmony::calls_so_far(text),
            Self::Gemma4 => gemma4::calls_so_far(text),
            Self::DeepSeekV31 | Self::DeepSeekV3 | Self::KimiK2 => match self.section() {
                Some(s) => sectioned::calls_so_far(text, s),
                None => Vec::new(),
            },
        }
    }
}

/// The compact JSON of arguments being written at the start of `text` (after blank space)
/// and where the object ends, if it does; `None` where what is there is no object.
pub(super) fn arguments_so_far(text: &str) -> Option<(String, Option<usize>)> {
    let lead = &text[skip_blank(text, 0)..];
    if !(lead.is_empty() || lead.starts_with('{')) {
        return None;
    }
    let end = match value_reach(text, 0) {
        Reach::Ends(end) => Some(end),
        Reach::Cut => None,
        Reach::Bad => return None,
    };
    Some((compact_so_far(&text[..end.unwrap_or(text.len())]), end))
}

/// A call's name and its arguments so far, from the JSON object being written at the start
/// of `text` (the arguments under the first of `arguments_keys` it has), and where the
/// object ends, if it does. `None` until the name is whole and the arguments have begun as
/// an object: a JSON answer beside the calls (Llama's `{"name": …}` without arguments) is
/// no call, as `parse` reads it.
pub(super) fn json_call_so_far(
    text: &str,
    arguments_keys: &[&str],
) -> Option<(String, String, Option<usize>)> {
    let (fields, end) = object_so_far(text, 0)?;
    let name = fields.iter().find(|f| f.key == "name" && f.whole)?;
    let name = serde_json::from_str::<String>(name.value).ok()?;
    let arguments = arguments_keys
        .iter()
        .find_map(|key| fields.iter().find(|f| f.key == *key))
        .filter(|field| field.value.starts_with('{'))?;
    Some((name, compact_so_far(arguments.value), end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str, parameters: serde_json::Value) -> ToolFunction {
        ToolFunction {
            name: name.into(),
            description: None,
            parameters,
        }
    }

    /// Outputs with calls in every format, read at every cut: the calls so far are the
    /// whole output's, in order, each name whole and each call's arguments a prefix of its
    /// whole ones that only grows; at the end they are the calls the output parses into.
    #[test]
    fn calls_so_far_grow_into_the_parsed_calls() {
        let tools = [
            tool(
                "weather",
                json!({"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}),
            ),
            tool("time", json!({"type": "object", "properties": {}})),
        ];
        let cases = [
            (ToolFormat::Hermes, "Let me look.\n<tool_call>\n{\"name\": \"weather\", \"arguments\": {\"city\": \"Pa\\u00efris </tool_call>\", \"days\": 3}}\n</tool_call>\nand\n<tool_call>\n{\"name\":\"time\",\"arguments\":{}}\n</tool_call>"),
            (ToolFormat::QwenXml, "Look.\n<tool_call>\n<function=weather>\n<parameter=city>\nSão\nPaulo\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=time>\n</function>\n</tool_call>"),
            (ToolFormat::Llama3Json, " {\"name\": \"weather\", \"parameters\": {\"city\": \"Paris\", \"days\": 12}}; {\"name\": \"time\", \"arguments\": {}}"),
            (ToolFormat::Mistral, "[TOOL_CALLS] [{\"name\": \"weather\", \"arguments\": {\"city\": \"Paris\"}}, {\"name\": \"time\", \"arguments\": {}}]"),
            (ToolFormat::Granite, "<|tool_call|>[{\"arguments\": {\"days\": 2}, \"name\": \"weather\"}]"),
            (ToolFormat::Phi4Mini, "<|tool_call|>[{\"name\": \"time\", \"arguments\": {}}]<|/tool_call|>"),
            (ToolFormat::QwenXml, "<tool_call>\n<function=weather>\n<parameter=days>\n[\"a</parameter>b\", 2]\n</parameter>\n<parameter=city>\nx\n</parameter>\n<parameter=city>\ny\n</parameter>\n</function>\n</tool_call>"),
            (ToolFormat::MistralArgs, "Look. [TOOL_CALLS]weather[CALL_ID]a1B2c3D4e[ARGS]{\"city\": \"[ARGS]\", \"days\": 1.50}[TOOL_CALLS]time[ARGS]{}"),
            (ToolFormat::DeepSeekV31, "Look.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>weather<｜tool▁sep｜>{\"city\": \"<｜tool▁sep｜>\", \"days\": 2}<｜tool▁call▁end｜><｜tool▁call▁begin｜>time<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"),
            (ToolFormat::DeepSeekV3, "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>weather\n```json\n{\"city\": \"Paris\"}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>time\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"),
            (ToolFormat::GlmXml, "Look.\n<tool_call>weather\n<arg_key>city</arg_key>\n<arg_value>São\nPaulo</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>\n<tool_call>time</tool_call>"),
            (ToolFormat::GlmXml, "<tool_call>weather<arg_key>days</arg_key><arg_value>2</arg_value><arg_key>city</arg_key><arg_value>a</arg_value></tool_call>"),
            (ToolFormat::MiniMaxXml, "Look.\n<minimax:tool_call>\n<invoke name=\"weather\">\n<parameter name=\"city\">São\nPaulo</parameter>\n<parameter name=\"days\">[3, \"</parameter>\"]</parameter>\n</invoke>\n<invoke name=\"time\">\n</invoke>\n</minimax:tool_call>"),
            (ToolFormat::Gemma4, "Look.\n<|tool_call>call:weather{city:<|\"|>São \"Paulo\"\n<|\"|>,days:3,at:{lat:-1.5e3,ok:true,tags:[<|\"|>a<|\"|>,{x:null}]}}<tool_call|><|tool_call>call:time{}<tool_call|>"),
            (ToolFormat::Gemma4, "<|tool_call>call:weather{ days : 12 , city:Paris, <|\"|>note<|\"|>:<|\"|><tool_call|><|\"|>}<tool_call|>"),
            (ToolFormat::KimiK2, "Sure. <|tool_calls_section_begin|><|tool_call_begin|>functions.weather:0<|tool_call_argument_begin|>{\"days\": 3}<|tool_call_end|><|tool_call_begin|>functions.time:1<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>"),
        ];
        for (format, text) in cases {
            let (_, calls) = format.parse(text, &tools);
            assert!(!calls.is_empty(), "{format:?}");
            let mut last: Vec<CallSoFar> = Vec::new();
            for end in (0..=text.len()).filter(|&e| text.is_char_boundary(e)) {
                let so_far = format.calls_so_far(&text[..end], &tools);
                assert!(
                    so_far.len() >= last.len(),
                    "{format:?} at {end}: calls went away"
                );
                for (i, call) in so_far.iter().enumerate() {
                    let whole = &calls[i];
                    assert_eq!(call.name, whole.name, "{format:?} at {end}");
                    assert!(
                        whole.arguments.starts_with(&call.arguments),
                        "{format:?} at {end}: {:?} of {:?}",
                        call.arguments,
                        whole.arguments
                    );
                    if let Some(before) = last.get(i) {
                        assert!(call.arguments.starts_with(&before.arguments));
                        assert_eq!(call.start, before.start);
                    }
                }
                last = so_far;
            }
            let got: Vec<(String, String)> =
                last.into_iter().map(|c| (c.name, c.arguments)).collect();
            let want: Vec<(String, String)> =
                calls.into_iter().map(|c| (c.name, c.arguments)).collect();
            assert_eq!(got, want, "{format:?}");
        }
    }

    /// The arguments go out while they are written: half a long string argument is there
    /// before the call ends.
    #[test]
    fn arguments_come_before_the_call_ends() {
        let text = "<tool_call>\n{\"name\": \"note\", \"arguments\": {\"text\": \"one two three four\"}}\n</tool_call>";
        let cut = text.find("three").unwrap();
        let so_far = ToolFormat::Hermes.calls_so_far(&text[..cut], &[]);
        assert_eq!(so_far.len(), 1);
        assert_eq!(so_far[0].arguments, "{\"text\":\"one two ");
        // In Qwen3-Coder's format a string's text goes out as it comes (less what may be
        // its end); other values once whole.
        let tools = [tool(
            "write",
            json!({"type": "object", "properties": {"n": {"type": "integer"}, "body": {"type": "string"}}}),
        )];
        let text = "<tool_call>\n<function=write>\n<parameter=n>\n12\n</parameter>\n<parameter=body>\nline one\nline two\n</parameter>\n</function>\n</tool_call>";
        let args = |cut: &str| {
            let end = text.find(cut).unwrap();
            ToolFormat::QwenXml.calls_so_far(&text[..end], &tools)[0]
                .arguments
                .clone()
        };
        assert_eq!(args("2\n</parameter>\n<parameter=body>"), "{");
        assert_eq!(args("two"), "{\"n\":12,\"body\":\"line one\\nline ");
        assert_eq!(
            args("</parameter>\n</function>"),
            "{\"n\":12,\"body\":\"line one\\nline two"
        );
        assert_eq!(
            args("\n</function>"),
            "{\"n\":12,\"body\":\"line one\\nline two\""
        );
        // A name is not sent half written.
        let half = "<tool_call>\n{\"name\": \"no";
        assert!(ToolFormat::Hermes.calls_so_far(half, &[]).is_empty());
        // Before a call the text is content: its start is where the tag is.
        let after_text = "Hi <tool_call>\n{\"name\": \"note\", \"arguments\": {";
        let so_far = ToolFormat::Hermes.calls_so_far(after_text, &[]);
        assert_eq!((so_far[0].start, so_far[0].arguments.as_str()), (3, "{"));
    }

    /// What is not a call's JSON starts none.
    #[test]
    fn text_that_is_no_call_starts_none() {
        for (format, text) in [
            (ToolFormat::Llama3Json, "{\"name\": \"Alice\", \"age\": 3}"),
            (ToolFormat::Llama3Json, "{\"name\": \"Alice\", \"age\": 3"),
            (ToolFormat::Llama3Json, "{\"name\": \"t\", \"parameters\": "),
            (ToolFormat::Llama3Json, "{\"name\": 3, \"parameters\": {}}"),
            (
                ToolFormat::Llama3Json,
                "{\"name\": \"t\", \"parameters\": [1]}",
            ),
            (ToolFormat::Llama3Json, "Sunny {\"name\": \"t\"}"),
            (ToolFormat::Mistral, "[1, 2] are numbers"),
            (ToolFormat::MistralArgs, "[TOOL_CALLS]two words[ARGS]{}"),
            (ToolFormat::Hermes, "<tool_call> not json"),
        ] {
            assert!(
                format.calls_so_far(text, &[]).is_empty(),
                "{format:?} {text:?}"
            );
        }
    }
}
