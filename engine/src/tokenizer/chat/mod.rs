//! Chat templates: the Jinja template a GGUF carries (`tokenizer.chat_template`), rendered the
//! way Hugging Face's `apply_chat_template` renders it, with ChatML when the file has none.
//! The template is untrusted input: every render is bounded (`limits`, `bounded`), and a file
//! whose template cannot render a short conversation is refused at load.

mod bounded;
mod clock;
mod limits;
#[cfg(test)]
mod tests;
mod tool_support;

use std::panic::{catch_unwind, AssertUnwindSafe};

use minijinja::{context, Environment, Error, ErrorKind};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Result, ThinkTags, Tokenizer, TokenizerError};
use crate::gguf::Metadata;
use limits::CappedWriter;

pub use limits::{MAX_ITEMS, MAX_RENDERED_BYTES};
pub use tool_support::{ToolFormat, ToolSupport};

/// ChatML, the format SmolLM2 and many others use; the fallback for files without a template.
pub const CHATML_TEMPLATE: &str = "{% for message in messages %}\
{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}\
{% endfor %}\
{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const TEMPLATE_NAME: &str = "chat_template";

/// One chat turn. The tool fields are what tool-aware templates read (Hugging Face's
/// names); a template that ignores them sees role and content only.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// `system`, `user`, `assistant` (templates may accept others, e.g. `tool`).
    pub role: String,
    pub content: String,
    /// An assistant turn's calls: `{"id", "type": "function", "function": {"name",
    /// "arguments"}}`, the arguments an object where they parse as one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Vec<Value>>,
    /// A tool turn's answer to this call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// A tool turn's function, or a participant's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// An assistant turn's thinking, for templates that write it back (Qwen 3's, in the
    /// turns after the last user message).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_content: Option<String>,
    /// A system turn's tools as JSON text, for templates that read them there (Phi-4-mini's);
    /// set by the engine only (never read from a message).
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub tools: Option<String>,
}

/// A message as templates see it: its fields, and its thinking also under `thinking`, the
/// name gpt-oss's template reads.
struct TemplateMessage<'a>(&'a ChatMessage);

impl Serialize for TemplateMessage<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Fields<'a> {
            #[serde(flatten)]
            message: &'a ChatMessage,
            #[serde(skip_serializing_if = "Option::is_none")]
            thinking: Option<&'a str>,
        }
        let thinking = self.0.reasoning_content.as_deref();
        Fields {
            message: self.0,
            thinking,
        }
        .serialize(s)
    }
}

impl ChatMessage {
    pub fn new(role: impl Into<String>, content: impl Into<String>) -> Self {
        Self {
            role: role.into(),
            content: content.into(),
            ..Self::default()
        }
    }

    pub fn system(content: impl Into<String>) -> Self {
        Self::new("system", content)
    }

    pub fn user(content: impl Into<String>) -> Self {
        Self::new("user", content)
    }

    pub fn assistant(content: impl Into<String>) -> Self {
        Self::new("assistant", content)
    }
}

/// A compiled chat template. `Send + Sync`; render it from any thread.
pub struct ChatTemplate {
    env: Environment<'static>,
    source: String,
    bos_token: String,
    eos_token: String,
    is_fallback: bool,
    /// The most bytes a render may produce.
    max_output_bytes: usize,
    /// How the template takes tools: probed on first use (a few renders).
    tool_support: std::sync::OnceLock<ToolSupport>,
}

/// A rendered conversation and the instructions (minijinja's fuel) its render used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderReport {
    pub text: String,
    pub fuel_used: u64,
    pub fuel_budget: u64,
}

impl std::fmt::Debug for ChatTemplate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChatTemplate")
            .field("source", &self.source)
            .field("bos_token", &self.bos_token)
            .field("eos_token", &self.eos_token)
            .field("is_fallback", &self.is_fallback)
            .field("max_output_bytes", &self.max_output_bytes)
            .finish_non_exhaustive()
    }
}

impl ChatTemplate {
    /// Compiles a Jinja chat template; `bos_token` / `eos_token` are the texts the template
    /// sees under those names.
    pub fn new(
        source: impl Into<String>,
        bos_token: impl Into<String>,
        eos_token: impl Into<String>,
    ) -> Result<Self> {
        let source = source.into();
        let env = build_environment(source.clone())?;
        Ok(Self {
            env,
            source,
            bos_token: bos_token.into(),
            eos_token: eos_token.into(),
            is_fallback: false,
            max_output_bytes: MAX_RENDERED_BYTES,
            tool_support: std::sync::OnceLock::new(),
        })
    }

    /// The ChatML template.
    pub fn chatml(bos_token: impl Into<String>, eos_token: impl Into<String>) -> Result<Self> {
        let mut template = Self::new(CHATML_TEMPLATE, bos_token, eos_token)?;
        template.is_fallback = true;
        Ok(template)
    }

    /// The file's `tokenizer.chat_template`, or ChatML when it has none; BOS/EOS texts come
    /// from the tokenizer (empty when the file names no such token). The file's template must
    /// compile and render a short conversation ([`ChatTemplate::check_renders`]).
    pub fn from_gguf_metadata(metadata: &Metadata, tokenizer: &Tokenizer) -> Result<Self> {
        match metadata.get_str("tokenizer.chat_template") {
            Some(source) if !source.trim().is_empty() => Self::for_tokenizer(source, tokenizer),
            _ => {
                let (bos, eos) = special_texts(tokenizer);
                Self::chatml(bos, eos)
            }
        }
    }

    /// `source` (a file's template, or one the operator gives in its place) with the
    /// tokenizer's BOS/EOS texts; it must compile and render a short conversation.
    pub fn for_tokenizer(source: &str, tokenizer: &Tokenizer) -> Result<Self> {
        let (bos, eos) = special_texts(tokenizer);
        let template = Self::new(source, bos, eos)
            .map_err(|e| TokenizerError::UnusableChatTemplate(e.to_string()))?;
        template.check_renders()?;
        Ok(template)
    }

    /// Checks that the template renders a short conversation within its bounds: the first of
    /// system + user + assistant + user, user + assistant + user, or a lone user turn that it
    /// accepts. Real templates refuse some of these on purpose (Gemma's and Mistral's raise
    /// on a system turn), so an error the template raises moves on to the next; running out
    /// of instructions or output on any of them refuses the template, as does refusing all.
    pub fn check_renders(&self) -> Result<()> {
        let conversations = [
            vec![
                ChatMessage::system("You are a helpful assistant."),
                ChatMessage::user("Hello!"),
                ChatMessage::assistant("Hi! How can I help?"),
                ChatMessage::user("What is 2 + 2?"),
            ],
            vec![
                ChatMessage::user("Hello!"),
                ChatMessage::assistant("Hi! How can I help?"),
                ChatMessage::user("What is 2 + 2?"),
            ],
            vec![ChatMessage::user("Hello!")],
        ];
        let mut first_error = None;
        for conversation in &conversations {
            match self.render(conversation, true) {
                Ok(_) => return Ok(()),
                Err(TokenizerError::Template(e)) => {
                    first_error.get_or_insert(e);
                }
                Err(e) => return Err(TokenizerError::UnusableChatTemplate(e.to_string())),
            }
        }
        let reason = first_error.map_or_else(String::new, |e| e.to_string());
        Err(TokenizerError::UnusableChatTemplate(reason))
    }

    /// Limits what a render may produce to `bytes` (at most [`MAX_RENDERED_BYTES`]): the
    /// engine passes the most its longest prompt can hold.
    pub fn set_max_output_bytes(&mut self, bytes: usize) {
        self.max_output_bytes = bytes.clamp(1, MAX_RENDERED_BYTES);
    }

    pub fn max_output_bytes(&self) -> usize {
        self.max_output_bytes
    }

    /// Renders a conversation; with `add_generation_prompt`, ends with the header of the
    /// assistant's turn so the model writes the reply.
    pub fn render(&self, messages: &[ChatMessage], add_generation_prompt: bool) -> Result<String> {
        Ok(self.render_counted(messages, add_generation_prompt)?.text)
    }

    /// [`ChatTemplate::render`] with the request's `tools` (OpenAI's `{"type": "function",
    /// "function": {..}}` objects), as Hugging Face passes them (`None` is Jinja's `none`),
    /// and more variables (`kwargs`), which cannot replace the ones named here.
    pub fn render_with_tools(
        &self,
        messages: &[ChatMessage],
        tools: Option<&[Value]>,
        kwargs: &Map<String, Value>,
        add_generation_prompt: bool,
    ) -> Result<String> {
        Ok(self
            .render_inner(messages, tools, kwargs, add_generation_prompt)?
            .text)
    }

    /// [`ChatTemplate::render`], also saying how many instructions the render used of its
    /// budget. Errors: [`TokenizerError::Template`] for what the template raises or gets
    /// wrong, [`TokenizerError::RenderTooLarge`] past the output limit,
    /// [`TokenizerError::TemplateAborted`] past the instruction budget.
    pub fn render_counted(
        &self,
        messages: &[ChatMessage],
        add_generation_prompt: bool,
    ) -> Result<RenderReport> {
        self.render_inner(messages, None, &Map::new(), add_generation_prompt)
    }

    fn render_inner(
        &self,
        messages: &[ChatMessage],
        tools: Option<&[Value]>,
        kwargs: &Map<String, Value>,
        add_generation_prompt: bool,
    ) -> Result<RenderReport> {
        let fuel_budget = limits::fuel_for(messages, tools, kwargs);
        let mut env = self.env.clone();
        env.set_fuel(Some(fuel_budget));
        let mut out = CappedWriter::new(self.max_output_bytes);
        // The template comes from the model file: a panic of the interpreter on some input
        // fails this render, not the thread that runs it.
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let template = env.get_template(TEMPLATE_NAME)?;
            let messages: Vec<TemplateMessage<'_>> = messages.iter().map(TemplateMessage).collect();
            let context = context! {
                messages => messages,
                tools => tools,
                add_generation_prompt => add_generation_prompt,
                bos_token => &self.bos_token,
                eos_token => &self.eos_token,
                ..minijinja::Value::from_serialize(kwargs)
            };
            let captured = template.render_captured_to(context, &mut out)?;
            Ok::<_, Error>(captured.state().fuel_levels())
        }));
        let fuel_levels = match outcome {
            Ok(Ok(levels)) => levels,
            Ok(Err(_)) if out.overflowed() => {
                return Err(TokenizerError::RenderTooLarge {
                    limit: self.max_output_bytes,
                })
            }
            Ok(Err(e)) if e.kind() == ErrorKind::OutOfFuel => {
                return Err(TokenizerError::TemplateAborted(format!(
                    "the template ran past its budget of {fuel_budget} instructions"
                )))
            }
            Ok(Err(e)) => return Err(e.into()),
            Err(panic) => {
                return Err(TokenizerError::TemplateAborted(format!(
                    "the template engine failed: {}",
                    panic_message(panic.as_ref())
                )))
            }
        };
        let text = String::from_utf8(out.into_bytes()).map_err(|e| {
            TokenizerError::TemplateAborted(format!("the rendered text is not UTF-8: {e}"))
        })?;
        Ok(RenderReport {
            text,
            fuel_used: fuel_levels.map_or(0, |(consumed, _)| consumed),
            fuel_budget,
        })
    }

    /// Renders like [`ChatTemplate::render_with_tools`] and finds where each message's
    /// content lies in the result, by rendering again with a unique marker in place of every
    /// content that is not empty (templates test emptiness: an assistant turn of calls alone).
    /// When the template transforms content (so the markers do not splice back into the same
    /// text), `content` is `None`.
    pub fn render_marked(
        &self,
        messages: &[ChatMessage],
        tools: Option<&[Value]>,
        kwargs: &Map<String, Value>,
        add_generation_prompt: bool,
    ) -> Result<RenderedChat> {
        let text = self.render_with_tools(messages, tools, kwargs, add_generation_prompt)?;
        let nonce = std::hash::BuildHasher::hash_one(
            &std::collections::hash_map::RandomState::new(),
            messages.len(),
        );
        let prefix = format!("{MARK_OPEN}{nonce:016x}.");
        let marked: Vec<ChatMessage> = messages
            .iter()
            .enumerate()
            .map(|(i, m)| ChatMessage {
                content: if m.content.is_empty() {
                    String::new()
                } else {
                    format!("{prefix}{i}{MARK_CLOSE}")
                },
                ..m.clone()
            })
            .collect();
        let content = self
            .render_with_tools(&marked, tools, kwargs, add_generation_prompt)
            .ok()
            .and_then(|rendered| splice_contents(&rendered, &prefix, messages, &text));
        Ok(RenderedChat { text, content })
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether this is the ChatML fallback rather than the file's own template.
    pub fn is_fallback(&self) -> bool {
        self.is_fallback
    }

    /// The tags of the thinking blocks the template writes: a reasoning model's (Qwen 3,
    /// SmolLM3, Magistral).
    pub fn think_tags(&self) -> Option<ThinkTags> {
        ThinkTags::written_by(&self.source)
    }

    /// How this template takes tools, tool calls and tool results.
    pub fn tool_support(&self) -> ToolSupport {
        *self.tool_support.get_or_init(|| ToolSupport::probe(self))
    }
}

/// The texts of the tokenizer's BOS and EOS tokens (empty where it names none).
fn special_texts(tokenizer: &Tokenizer) -> (String, String) {
    let token_text = |id: Option<u32>| {
        id.and_then(|id| tokenizer.token_text(id))
            .unwrap_or_default()
            .to_string()
    };
    (
        token_text(tokenizer.bos_token_id()),
        token_text(tokenizer.eos_token_id()),
    )
}

/// The text of a panic's payload, where it has one.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message")
}

/// Private-use characters around a content marker.
const MARK_OPEN: char = '\u{E000}';
const MARK_CLOSE: char = '\u{E001}';

/// A rendered conversation and the byte ranges of its messages' contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderedChat {
    pub text: String,
    /// Sorted and disjoint; `None` when they could not be located.
    pub content: Option<Vec<std::ops::Range<usize>>>,
}

/// Replaces each marker in `marked` by its message's content; the ranges of the contents if
/// the result is exactly `expected`.
fn splice_contents(
    marked: &str,
    prefix: &str,
    messages: &[ChatMessage],
    expected: &str,
) -> Option<Vec<std::ops::Range<usize>>> {
    let mut out = String::with_capacity(expected.len());
    let mut ranges = Vec::with_capacity(messages.len());
    let mut rest = marked;
    while let Some(at) = rest.find(prefix) {
        out.push_str(&rest[..at]);
        let after = &rest[at + prefix.len()..];
        let end = after.find(MARK_CLOSE)?;
        let index: usize = after[..end].parse().ok()?;
        let content = &messages.get(index)?.content;
        ranges.push(out.len()..out.len() + content.len());
        out.push_str(content);
        rest = &after[end + MARK_CLOSE.len_utf8()..];
    }
    out.push_str(rest);
    (out == expected).then_some(ranges)
}

/// An environment configured as Hugging Face's: blocks trimmed, Python string/dict methods,
/// `raise_exception`, `tojson` printing as Python's `json.dumps` does, every filter and
/// method that could build a huge value bounded.
fn build_environment(source: String) -> Result<Environment<'static>> {
    let mut env = Environment::new();
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    bounded::install(&mut env);
    env.add_test("iterable", is_iterable);
    env.add_template_owned(TEMPLATE_NAME, source)?;
    Ok(env)
}

/// Jinja2's `iterable` test: `none` is not (minijinja iterates it as empty), which
/// templates check before `tools | length` (Qwen3-Coder's, given `tools: none`); undefined
/// is, as Jinja2's `Undefined` iterates as empty.
fn is_iterable(value: &minijinja::Value) -> bool {
    !value.is_none() && (value.is_undefined() || value.try_iter().is_ok())
}
