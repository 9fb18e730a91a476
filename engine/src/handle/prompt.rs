//! Building a request's prompt, the one path both servers take: render a conversation with
//! the chat template, tokenize, and refuse what cannot fit the context as early as possible.
//! Large inputs, and every conversation, are built on blocking threads, at most one per core
//! at a time, so a huge prompt or a slow template never stalls the async runtime's workers
//! (health checks, streams, gRPC).

use super::conversation::{self, Conversation};
use super::fair_permits::FairPermits;
use super::{EngineHandle, SubmitError};
use crate::tenants::TenantId;
use crate::tokenizer::{ChatMessage, TokenizerError};

/// The roles a chat message may have (OpenAI's; `developer` is rendered as `system`).
pub const CHAT_ROLES: &[&str] = &["system", "developer", "user", "assistant", "tool"];

/// Text inputs up to this size are built in place: cheaper than a hop to another thread.
/// Conversations always take the hop: the chat template comes from the model file, and even
/// within its instruction budget (`tokenizer::chat`) a render's cost does not follow the
/// size of its input, so it must not run on an async worker.
const INLINE_BYTES: usize = 16 << 10;

/// What a client sent as its prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PromptInput {
    /// Raw text; control tokens written in it are parsed (the client owns the whole prompt).
    Text(String),
    Tokens(Vec<u32>),
    /// A conversation, rendered with the model's chat template; control tokens come only
    /// from the template, never from message content.
    Chat(Conversation),
}

impl PromptInput {
    /// A conversation of `messages` alone.
    pub fn chat(messages: Vec<ChatMessage>) -> Self {
        Self::Chat(Conversation::new(messages))
    }

    /// Whether building the prompt is cheap enough for an async worker.
    fn builds_inline(&self) -> bool {
        match self {
            Self::Text(text) => text.len() <= INLINE_BYTES,
            Self::Tokens(_) => true,
            Self::Chat(_) => false,
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Self::Text(text) => text.len(),
            Self::Tokens(_) => 0,
            Self::Chat(chat) => chat
                .messages
                .iter()
                .map(|m| {
                    let thinking = m.reasoning_content.as_ref().map_or(0, String::len);
                    m.role.len() + m.content.len() + thinking
                })
                .sum(),
        }
    }
}

/// A conversation's prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatPrompt {
    pub ids: Vec<u32>,
    /// Whether the template's own text after the conversation (the generation prompt)
    /// leaves a thinking block open (its tags the template's): the output starts in the
    /// model's thinking.
    pub opens_thinking: bool,
    /// For a model with recurrent state, the tokens up to the end of the last message (the
    /// part of the prompt the conversation's next turn repeats), where they are a prefix of
    /// `ids`.
    pub history_len: Option<u32>,
}

impl EngineHandle {
    /// A conversation's prompt, built off the async runtime (in turn with other tenants').
    pub async fn build_chat_prompt(
        &self,
        chat: Conversation,
        tenant: TenantId,
    ) -> Result<ChatPrompt, SubmitError> {
        let engine = self.clone();
        let permits = &self.inner.prompt_permits;
        self.run_with(permits, tenant, move || engine.chat_prompt(chat))
            .await?
    }

    /// The prompt's token ids, built off the async runtime when the input is large (in turn
    /// with other tenants' prompts).
    pub async fn build_prompt(
        &self,
        input: PromptInput,
        tenant: TenantId,
    ) -> Result<Vec<u32>, SubmitError> {
        if input.builds_inline() {
            return self.build_prompt_now(input);
        }
        let engine = self.clone();
        let permits = &self.inner.prompt_permits;
        self.run_with(permits, tenant, move || engine.build_prompt_now(input))
            .await?
    }

    /// Several prompts' token ids (a batch of completions prompts), built off the async
    /// runtime when together they are large: many small prompts cost as much as one big one.
    pub async fn build_prompts(
        &self,
        inputs: Vec<PromptInput>,
        tenant: TenantId,
    ) -> Result<Vec<Vec<u32>>, SubmitError> {
        let total: usize = inputs.iter().map(PromptInput::bytes).sum();
        if total <= INLINE_BYTES && inputs.iter().all(PromptInput::builds_inline) {
            return inputs
                .into_iter()
                .map(|input| self.build_prompt_now(input))
                .collect();
        }
        let engine = self.clone();
        let permits = &self.inner.prompt_permits;
        self.run_with(permits, tenant, move || {
            inputs
                .into_iter()
                .map(|input| engine.build_prompt_now(input))
                .collect()
        })
        .await?
    }

    /// Runs `work` for `tenant` on a blocking thread once it has its turn at one of the
    /// bounded pool's permits.
    pub async fn run_bounded<R: Send + 'static>(
        &self,
        tenant: TenantId,
        work: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, SubmitError> {
        self.run_with(&self.inner.prompt_permits, tenant, work)
            .await
    }

    /// Runs `work` on a blocking thread once `tenant` has its turn at one of `permits`.
    pub(super) async fn run_with<R: Send + 'static>(
        &self,
        permits: &FairPermits,
        tenant: TenantId,
        work: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, SubmitError> {
        let permit = permits
            .acquire(tenant)
            .await
            .map_err(|_| SubmitError::Unavailable("the engine has stopped".into()))?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await
        .map_err(|e| SubmitError::Unavailable(format!("a prompt task failed: {e}")))
    }

    /// The prompt's token ids, built on this thread.
    pub fn build_prompt_now(&self, input: PromptInput) -> Result<Vec<u32>, SubmitError> {
        match input {
            PromptInput::Tokens(ids) => Ok(ids),
            PromptInput::Text(text) => {
                self.refuse_if_too_long(text.len(), "the prompt")?;
                self.tokenizer().encode(&text, true).map_err(|e| {
                    SubmitError::InvalidArgument(format!("the prompt cannot be tokenized: {e}"))
                })
            }
            PromptInput::Chat(chat) => self.chat_prompt(chat).map(|prompt| prompt.ids),
        }
    }

    fn chat_prompt(&self, chat: Conversation) -> Result<ChatPrompt, SubmitError> {
        let Conversation {
            mut messages,
            tools,
            template_kwargs,
        } = chat;
        if messages.is_empty() {
            return Err(invalid("messages must not be empty".into()));
        }
        for (i, m) in messages.iter_mut().enumerate() {
            if !CHAT_ROLES.contains(&m.role.as_str()) {
                return Err(invalid(format!(
                    "messages[{i}].role {:?} is not one of {}",
                    m.role,
                    CHAT_ROLES.join(", ")
                )));
            }
            // OpenAI's newer name for the system role; templates know only `system`.
            if m.role == "developer" {
                m.role = "system".into();
            }
            // A turn's thinking lies in the template's own text, where control tokens count:
            // the client's may not hold one.
            let thinking = m.reasoning_content.as_deref().unwrap_or_default();
            if self.tokenizer().contains_control_token(thinking) {
                return Err(invalid(format!(
                    "messages[{i}].reasoning_content holds a control token's text"
                )));
            }
        }
        let template = self.chat_template();
        conversation::check_template_kwargs(&template_kwargs, self.tokenizer()).map_err(invalid)?;
        let prepared = conversation::prepare(
            messages,
            &tools,
            template.tool_support(),
            self.tool_format(),
            self.tokenizer(),
        )
        .map_err(invalid)?;
        let messages = prepared.messages;
        let tools = prepared.tools.as_deref();
        let rendered = template
            .render_marked(&messages, tools, &template_kwargs, true)
            .map_err(|e| match e {
                TokenizerError::RenderTooLarge { limit } => invalid(format!(
                    "messages: the conversation renders to more than {limit} bytes; at most \
                     {} tokens fit (context {}, KV pool {})",
                    self.max_prompt_tokens(),
                    self.inner.max_context_len,
                    self.inner.kv_capacity
                )),
                e => invalid(format!(
                    "messages: the chat template refused the conversation: {e}"
                )),
            })?;
        self.refuse_if_too_long(rendered.text.len(), "messages: the conversation")?;
        let tokenizer = self.tokenizer();
        let encoded = match &rendered.content {
            Some(content) => tokenizer.encode_chat(&rendered.text, content),
            None => {
                // The template rewrites content, so where it lies is unknown: refuse control
                // tokens in it rather than let them through.
                if let Some(i) = messages
                    .iter()
                    .position(|m| tokenizer.contains_control_token(&m.content))
                {
                    return Err(invalid(format!(
                        "messages[{i}].content holds a control token's text, which this \
                         model's chat template cannot keep apart from its own"
                    )));
                }
                tokenizer.encode_without_bos_eos(&rendered.text, true)
            }
        };
        let ids = encoded.map_err(|e| invalid(format!("messages cannot be tokenized: {e}")))?;
        // Only the template's text after the last message counts: a message may mention
        // `<think>` itself. Read only for a model whose thinking is split out.
        let generation = match &rendered.content {
            _ if !self.splits_reasoning() => None,
            Some(content) => {
                let after = content.last().map_or(0, |range| range.end);
                rendered.text.get(after..).map(str::to_string)
            }
            None => template
                .render_with_tools(&messages, tools, &template_kwargs, false)
                .ok()
                .and_then(|before| {
                    rendered
                        .text
                        .strip_prefix(before.as_str())
                        .map(str::to_string)
                }),
        };
        let history_len = match &rendered.content {
            Some(content) if self.inner.recurrent => {
                let end = content.last().map_or(0, |range| range.end);
                let history = rendered
                    .text
                    .get(..end)
                    .map(|h| tokenizer.encode_chat(h, content));
                match history {
                    Some(Ok(h)) if !h.is_empty() && ids.starts_with(&h) => {
                        u32::try_from(h.len()).ok()
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        Ok(ChatPrompt {
            opens_thinking: generation.is_some_and(|tail| self.think_tags().left_open(&tail)),
            ids,
            history_len,
        })
    }

    /// A text of `bytes` bytes has at least `bytes / max_token_bytes` tokens: refuses it
    /// before encoding when even that many cannot fit.
    fn refuse_if_too_long(&self, bytes: usize, what: &str) -> Result<(), SubmitError> {
        let fits = self.max_prompt_tokens();
        let at_least = bytes.div_ceil(self.tokenizer().max_token_bytes());
        if at_least > fits {
            return Err(invalid(format!(
                "{what} has at least {at_least} tokens ({bytes} bytes); at most {fits} fit \
                 (context {}, KV pool {})",
                self.inner.max_context_len, self.inner.kv_capacity
            )));
        }
        Ok(())
    }

    /// Longest prompt accepted: room is left for at least one generated token.
    pub fn max_prompt_tokens(&self) -> usize {
        max_prompt_tokens(self.inner.max_context_len, self.inner.kv_capacity)
    }
}

/// Longest prompt an engine with this context and KV pool accepts.
pub(super) fn max_prompt_tokens(max_context_len: usize, kv_capacity: usize) -> usize {
    max_context_len.min(kv_capacity).saturating_sub(1)
}

fn invalid(message: String) -> SubmitError {
    SubmitError::InvalidArgument(message)
}
