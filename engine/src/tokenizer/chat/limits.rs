//! Bounds on rendering a chat template. The template comes from the model file, so it may be
//! hostile: a render gets a budget of instructions (minijinja's fuel), its output goes into a
//! writer that refuses to grow past a limit, and the filters and methods that could build a
//! huge value from a small one (`indent(2**40)`, `replace` with a long replacement, `batch` of
//! a huge count) check the size first (`bounded`).
//!
//! What this cannot bound: fuel counts instructions, not their cost, and minijinja's own
//! operators build values without asking us. A template that concatenates a string with
//! itself (`{% set s = s ~ s %}` in a namespace, a loop or a macro's recursion) grows it
//! exponentially, one that copies a large string (`'x' * 100000000` is allowed) in every
//! step of a loop does a lot of work per instruction, and concatenating a huge lazy sequence
//! to a string (`[1] * 2**40 ~ ''`) prints all of it; each can exhaust memory or hold a
//! thread for long within its fuel. Rendering runs on the bounded prompt pool (see
//! `handle::prompt`), so such a template can occupy those threads but not the async runtime;
//! closing this entirely would take rendering in a separate process.

use std::io;

use serde_json::{Map, Value};

use super::ChatMessage;

/// The most bytes a render may produce, and the largest string a bounded filter or method
/// may build: 16M tokens (the longest context a model file may declare) at 4 bytes each.
/// The engine lowers the output limit to what its longest prompt can hold.
pub const MAX_RENDERED_BYTES: usize = 64 << 20;

/// The most items a filter may walk or collect, and the largest count it may be asked to
/// build (`batch`, `slice`): far above any conversation, far below an allocation that fails.
pub const MAX_ITEMS: usize = 1 << 20;

/// Instructions every render may use. Real templates use a few hundred for a short
/// conversation (about 60 to 90, plus 25 to 40 per message, measured on the default model's
/// and the family fixtures' templates and on Gemma-, Llama 3- and Qwen 2.5-style ones); a
/// million runs in tens of milliseconds.
const BASE_FUEL: u64 = 1_000_000;
/// Instructions per message: 50 times what the templates above use per message.
const FUEL_PER_MESSAGE: u64 = 2_000;

/// The instructions a render of `messages` may use: a fixed allowance plus one that grows
/// with the conversation (per message, and one per byte of role, content and thinking for
/// templates that walk them), so a long conversation never runs out where a short one would not.
/// Tools, tool calls and the template's extra variables count as messages of their JSON
/// text.
pub(super) fn fuel_for(
    messages: &[ChatMessage],
    tools: Option<&[Value]>,
    kwargs: &Map<String, Value>,
) -> u64 {
    let json_bytes = |v: &Value| serde_json::to_string(v).map_or(0, |s| s.len());
    let per_message = messages.iter().fold(0u64, |fuel, m| {
        let calls: usize = m.tool_calls.iter().flatten().map(json_bytes).sum();
        let tools = m.tools.as_ref().map_or(0, String::len);
        let thinking = m.reasoning_content.as_ref().map_or(0, String::len);
        let bytes = m.role.len() + m.content.len() + calls + tools + thinking;
        let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
        let items = 1 + m.tool_calls.as_ref().map_or(0, Vec::len) as u64;
        fuel.saturating_add(FUEL_PER_MESSAGE.saturating_mul(items))
            .saturating_add(bytes)
    });
    let per_tool = tools.into_iter().flatten().fold(0u64, |fuel, tool| {
        let bytes = u64::try_from(json_bytes(tool)).unwrap_or(u64::MAX);
        fuel.saturating_add(FUEL_PER_MESSAGE).saturating_add(bytes)
    });
    let per_kwarg = kwargs.values().fold(0u64, |fuel, value| {
        let bytes = u64::try_from(json_bytes(value)).unwrap_or(u64::MAX);
        fuel.saturating_add(FUEL_PER_MESSAGE).saturating_add(bytes)
    });
    BASE_FUEL
        .saturating_add(per_message)
        .saturating_add(per_tool)
        .saturating_add(per_kwarg)
}

/// An in-memory writer that refuses a write that would take it past `limit` bytes.
pub(super) struct CappedWriter {
    bytes: Vec<u8>,
    limit: usize,
    overflowed: bool,
}

impl CappedWriter {
    pub(super) fn new(limit: usize) -> Self {
        Self {
            bytes: Vec::new(),
            limit,
            overflowed: false,
        }
    }

    /// Whether a write was refused.
    pub(super) fn overflowed(&self) -> bool {
        self.overflowed
    }

    pub(super) fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

impl io::Write for CappedWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.len() > self.limit - self.bytes.len() {
            self.overflowed = true;
            return Err(io::Error::other(format!(
                "the output exceeds {} bytes",
                self.limit
            )));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn the_writer_keeps_what_fits_and_refuses_the_rest() {
        let mut w = CappedWriter::new(5);
        w.write_all(b"abc").unwrap();
        assert!(w.write_all(b"def").is_err());
        assert!(w.overflowed());
        w.write_all(b"de").unwrap();
        assert_eq!(w.into_bytes(), b"abcde");
    }

    #[test]
    fn fuel_grows_with_the_conversation() {
        let short = [ChatMessage::user("hi")];
        let long = vec![ChatMessage::user("x".repeat(10_000)); 100];
        assert_eq!(fuel_for(&[], None, &Map::new()), BASE_FUEL);
        assert_eq!(
            fuel_for(&short, None, &Map::new()),
            BASE_FUEL + FUEL_PER_MESSAGE + 6
        );
        assert_eq!(
            fuel_for(&long, None, &Map::new()),
            BASE_FUEL + 100 * (FUEL_PER_MESSAGE + 10_004)
        );
        // A tool and a call count as messages of their JSON text (`{"a":1}`: 7 bytes).
        let tool = serde_json::json!({"a": 1});
        let calling = ChatMessage {
            tool_calls: Some(vec![tool.clone()]),
            ..ChatMessage::assistant("")
        };
        assert_eq!(
            fuel_for(&[calling], Some(&[tool]), &Map::new()),
            BASE_FUEL + 2 * FUEL_PER_MESSAGE + 9 + 7 + FUEL_PER_MESSAGE + 7
        );
    }
}
