//! The Responses stream: typed events, each with its `event:` name and a `sequence_number`.
//! `response.created` and `response.in_progress` first; the thinking as a reasoning item's
//! `reasoning_text` deltas; the text as a message's `output_text` deltas; each call, once
//! the output ends, as a function call item with its arguments whole (so the items are
//! those of the unstreamed response, in its order); then
//! `response.completed` (or `response.incomplete` at the token limit) with the response as
//! the unstreamed one is. No `[DONE]`.

use super::super::chat::ChatRun;
use super::super::chat_stream::ChoiceStream;
use super::super::error::ApiError;
use super::super::logprobs::{chat_logprobs, ChatTokenLogprob};
use super::super::sse::{ChunkFormatter, Payload};
use super::body::{OutputItem, OutputText, ReasoningText, ResponseShell, ResponseUsage, Status};
use super::{call_items, item_status};
use crate::grammar::ToolFormat;
use crate::handle::{Completion, EngineHandle, TokenLogprob, Usage};
use crate::tokenizer::ReasoningTokens;
use serde_json::{json, Value};

pub struct ResponseEvents {
    engine: EngineHandle,
    shell: ResponseShell,
    tool_format: ToolFormat,
    top: Option<usize>,
    /// Until the output ends.
    choice: Option<ChoiceStream>,
    reasoning_tokens: Option<ReasoningTokens>,
    sequence_number: u64,
    /// The item being streamed (its output index is `items.len()`).
    open: Option<Open>,
    /// The items ended so far, as `response.completed` holds them.
    items: Vec<OutputItem>,
    /// What the reasoning item and the message hold so far.
    reasoning: String,
    text: String,
    /// The text's logprobs (the thinking's tokens left out), and those not yet sent.
    logprobs: Vec<ChatTokenLogprob>,
    pending_logprobs: Vec<ChatTokenLogprob>,
    status: Status,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Open {
    Reasoning,
    Message,
}

impl ResponseEvents {
    pub fn new(engine: EngineHandle, shell: ResponseShell, run: &ChatRun) -> Self {
        Self {
            engine,
            shell,
            tool_format: run.tool_format(),
            top: run.options.top,
            choice: Some(ChoiceStream::new(&run.options, false)),
            reasoning_tokens: run.options.reasoning_count(),
            sequence_number: 0,
            open: None,
            items: Vec::new(),
            reasoning: String::new(),
            text: String::new(),
            logprobs: Vec::new(),
            pending_logprobs: Vec::new(),
            status: Status::InProgress,
        }
    }

    /// Event `kind` with `fields`, numbered.
    fn event(&mut self, kind: &'static str, fields: Value) -> Payload {
        let mut body = json!({"type": kind, "sequence_number": self.sequence_number});
        self.sequence_number += 1;
        if let (Some(body), Value::Object(fields)) = (body.as_object_mut(), fields) {
            body.extend(fields);
        }
        Payload {
            event: Some(kind),
            data: body.to_string(),
        }
    }

    fn lifecycle(
        &mut self,
        kind: &'static str,
        items: &[OutputItem],
        usage: Option<ResponseUsage>,
    ) -> Payload {
        let response = self.shell.object(&self.status, items, usage);
        self.event(kind, json!({"response": response}))
    }

    fn item_id(&self, open: Open) -> String {
        match open {
            Open::Reasoning => self.shell.reasoning_id(),
            Open::Message => self.shell.message_id(),
        }
    }

    /// Item `open` and its one content part: empty and in progress, or `done` with what was
    /// streamed (`incomplete` once the token limit ended the output).
    fn item(&self, open: Open, done: bool) -> (OutputItem, Value) {
        let id = self.item_id(open);
        let status = match done {
            true => item_status(self.status == Status::Incomplete),
            false => "in_progress",
        };
        let (item, part) = match (open, done) {
            (Open::Reasoning, true) => {
                let part = ReasoningText::new(self.reasoning.clone());
                (
                    OutputItem::reasoning(id, vec![part.clone()], status),
                    json!(part),
                )
            }
            (Open::Reasoning, false) => {
                let part = ReasoningText::new(String::new());
                (OutputItem::reasoning(id, Vec::new(), status), json!(part))
            }
            (Open::Message, true) => {
                let part = OutputText::new(self.text.clone(), self.logprobs.clone());
                (
                    OutputItem::message(id, vec![part.clone()], status),
                    json!(part),
                )
            }
            (Open::Message, false) => {
                let part = OutputText::new(String::new(), Vec::new());
                (OutputItem::message(id, Vec::new(), status), json!(part))
            }
        };
        (item, part)
    }

    /// Opens item `open` (ending the one before): its `output_item.added` and its one
    /// content part's `content_part.added`.
    fn open(&mut self, open: Open, out: &mut Vec<Payload>) {
        if self.open == Some(open) {
            return;
        }
        self.close(out);
        let index = self.items.len();
        let id = self.item_id(open);
        let (item, part) = self.item(open, false);
        out.push(self.event(
            "response.output_item.added",
            json!({"output_index": index, "item": item}),
        ));
        out.push(self.event(
            "response.content_part.added",
            json!({"item_id": id, "output_index": index, "content_index": 0, "part": part}),
        ));
        self.open = Some(open);
    }

    /// Ends the open item, if any: its text's `done` (the part's fields with the item's
    /// place), its part's and its own.
    fn close(&mut self, out: &mut Vec<Payload>) {
        let Some(open) = self.open.take() else {
            return;
        };
        let index = self.items.len();
        let id = self.item_id(open);
        let (item, part) = self.item(open, true);
        let done = match open {
            Open::Reasoning => "response.reasoning_text.done",
            Open::Message => "response.output_text.done",
        };
        let mut text_done = json!({"item_id": id, "output_index": index, "content_index": 0});
        if let (Some(fields), Value::Object(part)) = (text_done.as_object_mut(), &part) {
            let text = ["text", "logprobs"].into_iter();
            fields.extend(text.filter_map(|k| Some((k.to_string(), part.get(k)?.clone()))));
        }
        out.push(self.event(done, text_done));
        out.push(self.event(
            "response.content_part.done",
            json!({"item_id": id, "output_index": index, "content_index": 0, "part": part}),
        ));
        out.push(self.event(
            "response.output_item.done",
            json!({"output_index": index, "item": item}),
        ));
        self.items.push(item);
    }

    /// A function call item's events: added without its arguments, which follow whole.
    fn call_events(&mut self, item: OutputItem, out: &mut Vec<Payload>) {
        let index = self.items.len();
        let OutputItem::FunctionCall { id, arguments, .. } = &item else {
            return;
        };
        let (id, arguments) = (id.clone(), arguments.clone());
        let mut added = serde_json::to_value(&item).unwrap_or_default();
        added["arguments"] = json!("");
        added["status"] = json!("in_progress");
        out.push(self.event(
            "response.output_item.added",
            json!({"output_index": index, "item": added}),
        ));
        out.push(self.event(
            "response.function_call_arguments.delta",
            json!({"item_id": id, "output_index": index, "delta": arguments}),
        ));
        out.push(self.event(
            "response.function_call_arguments.done",
            json!({"item_id": id, "output_index": index, "arguments": arguments}),
        ));
        out.push(self.event(
            "response.output_item.done",
            json!({"output_index": index, "item": item}),
        ));
        self.items.push(item);
    }

    /// The deltas of `thinking` and `text` let out now.
    fn deltas(&mut self, thinking: String, text: String, out: &mut Vec<Payload>) {
        if !thinking.is_empty() {
            self.open(Open::Reasoning, out);
            let index = self.items.len();
            self.reasoning.push_str(&thinking);
            let id = self.shell.reasoning_id();
            out.push(self.event(
                "response.reasoning_text.delta",
                json!({"item_id": id, "output_index": index, "content_index": 0, "delta": thinking}),
            ));
        }
        if !text.is_empty() {
            self.open(Open::Message, out);
            let index = self.items.len();
            self.text.push_str(&text);
            let logprobs = std::mem::take(&mut self.pending_logprobs);
            let id = self.shell.message_id();
            out.push(self.event(
                "response.output_text.delta",
                json!({"item_id": id, "output_index": index, "content_index": 0, "delta": text,
                       "logprobs": logprobs}),
            ));
        }
    }
}

impl ChunkFormatter for ResponseEvents {
    const ENDS_WITH_DONE: bool = false;

    fn start(&mut self, _choices: u32) -> Vec<Payload> {
        vec![
            self.lifecycle("response.created", &[], None),
            self.lifecycle("response.in_progress", &[], None),
        ]
    }

    fn chunk(
        &mut self,
        _index: u32,
        token_ids: &[u32],
        text: String,
        logprobs: &[TokenLogprob],
    ) -> Vec<Payload> {
        // The thinking's tokens come first: those of this chunk are left out of the text's
        // logprobs.
        let mut thinking_tokens = 0;
        if let Some(count) = self.reasoning_tokens.as_mut() {
            let before = count.count();
            count.add(token_ids, self.engine.tokenizer());
            thinking_tokens = (count.count() - before) as usize;
        }
        let text_logprobs = logprobs.get(thinking_tokens..).unwrap_or_default();
        if let Some(n) = self.top.filter(|_| !text_logprobs.is_empty()) {
            let entries = chat_logprobs(self.engine.tokenizer(), text_logprobs, n).content;
            self.logprobs.extend_from_slice(&entries);
            self.pending_logprobs.extend(entries);
        }
        let mut out = Vec::new();
        if let Some(choice) = self.choice.as_mut() {
            let pieces = choice.push(text);
            self.deltas(pieces.thinking, pieces.content, &mut out);
        }
        out
    }

    fn finish(&mut self, _index: u32, completion: &Completion) -> Vec<Payload> {
        let mut out = Vec::new();
        let Some(choice) = self.choice.take() else {
            return out;
        };
        let end = choice.finish();
        let calls = end.calls;
        self.deltas(end.pieces.thinking, end.pieces.content, &mut out);
        // From here the last item closes: the token limit makes it incomplete.
        self.status = Status::of(&completion.finish_reason);
        if self.open.is_none() && self.items.is_empty() && calls.is_empty() {
            // Nothing was said: an empty message, as the unstreamed response has.
            self.open(Open::Message, &mut out);
        }
        self.close(&mut out);
        for item in call_items(&self.shell, self.tool_format, calls) {
            self.call_events(item, &mut out);
        }
        out
    }

    fn usage(&mut self, usage: Usage) -> Option<Payload> {
        let reasoning = self.reasoning_tokens.as_ref().map(ReasoningTokens::count);
        let usage = ResponseUsage::new(usage, reasoning);
        let kind = match self.status {
            Status::Incomplete => "response.incomplete",
            _ => "response.completed",
        };
        let items = std::mem::take(&mut self.items);
        Some(self.lifecycle(kind, &items, Some(usage)))
    }

    /// An `error` event, then `response.failed` holding the error (its code one of those
    /// OpenAI's clients know: the request's fault or the server's).
    fn error(&mut self, error: ApiError) -> Vec<Payload> {
        let fields = json!({"code": error.code, "message": error.message, "param": error.param});
        let event = self.event("error", fields);
        self.status = Status::Failed;
        let mut response = self.shell.object(&self.status, &self.items, None);
        let code = match error.status.is_client_error() {
            true => "invalid_prompt",
            false => "server_error",
        };
        response["error"] = json!({"code": code, "message": error.message});
        let failed = self.event("response.failed", json!({"response": response}));
        vec![event, failed]
    }
}
