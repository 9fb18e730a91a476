//! Chat templates: the Jinja template a GGUF carries (`tokenizer.chat_template`), rendered the
//! way Hugging Face's `apply_chat_template` renders it, with ChatML when the file has none.

use minijinja::value::{Kwargs, Value};
use minijinja::{context, Environment, Error, ErrorKind};
use serde::{Deserialize, Serialize};

use super::{Result, Tokenizer};
use crate::gguf::Metadata;

/// ChatML, the format SmolLM2 and many others use; the fallback for files without a template.
pub const CHATML_TEMPLATE: &str = "{% for message in messages %}\
{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}\
{% endfor %}\
{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const TEMPLATE_NAME: &str = "chat_template";

/// One chat turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// `system`, `user`, `assistant` (templates may accept others, e.g. `tool`).
    pub role: String,
    pub content: String,
}

impl ChatMessage {
    pub fn new(role: impl Into<String>, content: impl Into<String>) -> Self {
        Self {
            role: role.into(),
            content: content.into(),
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
}

impl std::fmt::Debug for ChatTemplate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChatTemplate")
            .field("source", &self.source)
            .field("bos_token", &self.bos_token)
            .field("eos_token", &self.eos_token)
            .field("is_fallback", &self.is_fallback)
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
        })
    }

    /// The ChatML template.
    pub fn chatml(bos_token: impl Into<String>, eos_token: impl Into<String>) -> Result<Self> {
        let mut template = Self::new(CHATML_TEMPLATE, bos_token, eos_token)?;
        template.is_fallback = true;
        Ok(template)
    }

    /// The file's `tokenizer.chat_template`, or ChatML when it has none; BOS/EOS texts come
    /// from the tokenizer (empty when the file names no such token).
    pub fn from_gguf_metadata(metadata: &Metadata, tokenizer: &Tokenizer) -> Result<Self> {
        let token_text = |id: Option<u32>| {
            id.and_then(|id| tokenizer.token_text(id))
                .unwrap_or_default()
                .to_string()
        };
        let bos = token_text(tokenizer.bos_token_id());
        let eos = token_text(tokenizer.eos_token_id());
        match metadata.get_str("tokenizer.chat_template") {
            Some(source) if !source.trim().is_empty() => Self::new(source, bos, eos),
            _ => Self::chatml(bos, eos),
        }
    }

    /// Renders a conversation; with `add_generation_prompt`, ends with the header of the
    /// assistant's turn so the model writes the reply.
    pub fn render(&self, messages: &[ChatMessage], add_generation_prompt: bool) -> Result<String> {
        let template = self.env.get_template(TEMPLATE_NAME)?;
        let rendered = template.render(context! {
            messages => messages,
            add_generation_prompt => add_generation_prompt,
            bos_token => &self.bos_token,
            eos_token => &self.eos_token,
        })?;
        Ok(rendered)
    }

    /// Renders like [`ChatTemplate::render`] and finds where each message's content lies in
    /// the result, by rendering again with a unique marker in place of every content. When
    /// the template transforms content (so the markers do not splice back into the same
    /// text), `content` is `None`.
    pub fn render_marked(
        &self,
        messages: &[ChatMessage],
        add_generation_prompt: bool,
    ) -> Result<RenderedChat> {
        let text = self.render(messages, add_generation_prompt)?;
        let nonce = std::hash::BuildHasher::hash_one(
            &std::collections::hash_map::RandomState::new(),
            messages.len(),
        );
        let prefix = format!("{MARK_OPEN}{nonce:016x}.");
        let marked: Vec<ChatMessage> = messages
            .iter()
            .enumerate()
            .map(|(i, m)| ChatMessage::new(m.role.clone(), format!("{prefix}{i}{MARK_CLOSE}")))
            .collect();
        let content = self
            .render(&marked, add_generation_prompt)
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
/// `raise_exception`, and `tojson` printing as Python's `json.dumps` does.
fn build_environment(source: String) -> Result<Environment<'static>> {
    let mut env = Environment::new();
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
    env.add_function("raise_exception", raise_exception);
    env.add_filter("tojson", tojson);
    env.add_template_owned(TEMPLATE_NAME, source)?;
    Ok(env)
}

fn raise_exception(message: String) -> std::result::Result<Value, Error> {
    Err(Error::new(ErrorKind::InvalidOperation, message))
}

/// `tojson` with Python's separators (`", "`, `": "`) and no HTML escaping; `indent=n`
/// pretty-prints.
fn tojson(value: Value, kwargs: Kwargs) -> std::result::Result<Value, Error> {
    let indent: Option<usize> = kwargs.get("indent")?;
    // Accepted for compatibility; output is never ASCII-escaped and keys keep their order.
    let _: Option<bool> = kwargs.get("ensure_ascii")?;
    let _: Option<bool> = kwargs.get("sort_keys")?;
    kwargs.assert_all_used()?;
    let json_err = |e: serde_json::Error| Error::new(ErrorKind::InvalidOperation, e.to_string());
    let mut out = Vec::new();
    match indent {
        Some(width) => {
            let indent = vec![b' '; width];
            let formatter = serde_json::ser::PrettyFormatter::with_indent(&indent);
            let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
            value.serialize(&mut ser).map_err(json_err)?;
        }
        None => {
            let mut ser = serde_json::Serializer::with_formatter(&mut out, PythonFormatter);
            value.serialize(&mut ser).map_err(json_err)?;
        }
    }
    let text = String::from_utf8(out)
        .map_err(|e| Error::new(ErrorKind::InvalidOperation, e.to_string()))?;
    Ok(Value::from_safe_string(text))
}

/// serde_json output with Python's default `json.dumps` separators.
struct PythonFormatter;

impl serde_json::ser::Formatter for PythonFormatter {
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
    ) -> std::io::Result<()> {
        writer.write_all(b": ")
    }
}
