//! A reasoning model's thinking (`<think>` … `</think>`: Qwen 3, SmolLM3, QwQ, DeepSeek-R1
//! distills; `[THINK]` … `[/THINK]`: Magistral) split out of the answer as
//! `reasoning_content`, as vLLM's and SGLang's reasoning parsers and llama.cpp's
//! `--reasoning-format` do. Only one block counts: one that opens the output (after
//! whitespace), or, when the prompt leaves a block open (templates that write the open tag
//! into the generation prompt), everything up to the first close. The thinking is trimmed,
//! the answer loses the whitespace that follows the block; an output cut inside the block
//! is all thinking. Streamed, the same split comes out in deltas.

use crate::tokenizer::Thinking;

/// The thinking (`None` when there is none) and the answer of a whole output.
pub fn split_reasoning(text: &str, thinking: Thinking) -> (Option<String>, String) {
    let (open, close) = (thinking.tags.open, thinking.tags.close);
    let body = if thinking.inside {
        text
    } else {
        match text.trim_start().strip_prefix(open) {
            Some(body) => body,
            None => return (None, text.to_string()),
        }
    };
    let (thinking, answer) = match body.find(close) {
        Some(at) => (&body[..at], body[at + close.len()..].trim_start()),
        None => (body, ""),
    };
    let thinking = thinking.trim();
    (
        (!thinking.is_empty()).then(|| thinking.to_string()),
        answer.to_string(),
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Only whitespace, or the start of the open tag after it, so far.
    Undecided,
    Thinking,
    /// After the block (`trim`: its whitespace not yet passed) or without one.
    Answer {
        trim: bool,
    },
}

/// [`split_reasoning`] over a stream: what each piece of output adds to the thinking and to
/// the answer. Text that may still turn out to be a tag, or whitespace the split trims, waits.
#[derive(Debug)]
pub struct ReasoningStream {
    open: &'static str,
    close: &'static str,
    state: State,
    /// Text received and not yet given out.
    pending: String,
    /// Whether thinking text was given out (its leading whitespace is trimmed).
    thought: bool,
}

impl ReasoningStream {
    pub fn new(thinking: Thinking) -> Self {
        Self {
            open: thinking.tags.open,
            close: thinking.tags.close,
            state: if thinking.inside {
                State::Thinking
            } else {
                State::Undecided
            },
            pending: String::new(),
            thought: false,
        }
    }

    /// The thinking and the answer `text` adds (either may be empty).
    pub fn push(&mut self, text: &str) -> (String, String) {
        self.pending.push_str(text);
        let (mut thinking, mut answer) = (String::new(), String::new());
        loop {
            match self.state {
                State::Undecided => {
                    let rest = self.pending.trim_start();
                    if let Some(body) = rest.strip_prefix(self.open) {
                        self.pending = body.to_string();
                        self.state = State::Thinking;
                    } else if self.open.starts_with(rest) {
                        return (thinking, answer);
                    } else {
                        self.state = State::Answer { trim: false };
                    }
                }
                State::Thinking => match self.pending.find(self.close) {
                    Some(at) => {
                        let block: String = self.pending.drain(..at + self.close.len()).collect();
                        thinking.push_str(self.thinking(&block[..at]).trim_end());
                        self.state = State::Answer { trim: true };
                    }
                    None => {
                        // Held back: a tail that may begin the close, and whitespace that
                        // may end the thinking.
                        let held = partial_tag_len(&self.pending, self.close);
                        let ready = self.pending.len() - held;
                        let lead = self.leading_ws(&self.pending[..ready]);
                        let out = self.pending[lead..ready].trim_end().to_string();
                        self.pending.drain(..lead + out.len());
                        if !out.is_empty() {
                            self.thought = true;
                        }
                        thinking.push_str(&out);
                        return (thinking, answer);
                    }
                },
                State::Answer { trim } => {
                    if trim {
                        let rest = self.pending.trim_start();
                        if rest.is_empty() {
                            self.pending.clear();
                            return (thinking, answer);
                        }
                        self.pending = rest.to_string();
                        self.state = State::Answer { trim: false };
                    }
                    answer.push_str(&self.pending);
                    self.pending.clear();
                    return (thinking, answer);
                }
            }
        }
    }

    /// What was held back, at the end of the output.
    pub fn finish(mut self) -> (String, String) {
        match self.state {
            State::Undecided => (String::new(), std::mem::take(&mut self.pending)),
            State::Thinking => {
                let rest = self.thinking(&self.pending).trim_end().to_string();
                (rest, String::new())
            }
            State::Answer { trim } => {
                let rest = if trim {
                    self.pending.trim_start()
                } else {
                    &self.pending
                };
                (String::new(), rest.to_string())
            }
        }
    }

    /// `text` as thinking: its leading whitespace goes while nothing was given out yet.
    fn thinking<'a>(&self, text: &'a str) -> &'a str {
        if self.thought {
            text
        } else {
            text.trim_start()
        }
    }

    /// Bytes of leading whitespace [`ReasoningStream::thinking`] drops from `text`.
    fn leading_ws(&self, text: &str) -> usize {
        text.len() - self.thinking(text).len()
    }
}

/// Bytes at the end of `text` that could begin `tag`.
fn partial_tag_len(text: &str, tag: &str) -> usize {
    (1..tag.len())
        .rev()
        .find(|&n| {
            text.len() >= n
                && text.is_char_boundary(text.len() - n)
                && tag.starts_with(&text[text.len() - n..])
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::ThinkTags;

    fn xml(inside: bool) -> Thinking {
        Thinking {
            tags: ThinkTags::XML,
            inside,
        }
    }

    #[test]
    fn whole_outputs_split_at_the_first_block() {
        let split = |text, inside| split_reasoning(text, xml(inside));
        let some = |r: &str, a: &str| (Some(r.to_string()), a.to_string());
        assert_eq!(
            split("<think>\nhmm\n</think>\n\nYes.", false),
            some("hmm", "Yes.")
        );
        assert_eq!(
            split("  <think>a</think>b</think>", false),
            some("a", "b</think>")
        );
        assert_eq!(split("hmm\n</think>\nYes.", true), some("hmm", "Yes."));
        assert_eq!(split("<think>cut short", false), some("cut short", ""));
        assert_eq!(
            split("Yes. <think>x</think>", false),
            (None, "Yes. <think>x</think>".into())
        );
        assert_eq!(
            split("<think>\n\n</think>\n\nYes.", false),
            (None, "Yes.".into())
        );
        assert_eq!(split(" plain ", false), (None, " plain ".into()));
        let mistral = Thinking {
            tags: ThinkTags::MISTRAL,
            inside: false,
        };
        assert_eq!(
            split_reasoning("[THINK]hmm[/THINK]Yes.", mistral),
            some("hmm", "Yes.")
        );
        assert_eq!(
            split_reasoning("<think>hmm</think>Yes.", mistral),
            (None, "<think>hmm</think>Yes.".into())
        );
    }

    /// Streamed in pieces of every size, the thinking and the answer given out are those of
    /// the whole output.
    #[test]
    fn streamed_splits_equal_the_whole_ones() {
        let texts = [
            "<think>\nLet me see.  2 + 2 \n</think>\n\n4 is it. ",
            "   <think>a</think>b</think>c",
            "<thin",
            "<think>cut </thi",
            "no thinking <think>x</think>",
            "  \n ",
            "<think>\n\n</think>\n\nYes.",
            "é <think>ü</think> ö",
            "<think>é ü</think>",
            "<think>a </ b</think>\n",
            " [THINK]a [/THIN[/THINK] b",
            "[THINK]cut [/THI",
            "<|channel>thought\nhm <|chan<channel|>\nok",
        ];
        for text in texts {
            let tags = [ThinkTags::XML, ThinkTags::MISTRAL, ThinkTags::GEMMA4];
            for thinking in tags
                .into_iter()
                .flat_map(|tags| [false, true].map(|inside| Thinking { tags, inside }))
            {
                let inside = thinking.inside;
                let tags = thinking.tags;
                let (thought, answer) = split_reasoning(text, thinking);
                for size in 1..=text.len() {
                    let mut stream = ReasoningStream::new(thinking);
                    let (mut got_thinking, mut got_answer) = (String::new(), String::new());
                    let mut at = 0;
                    while at < text.len() {
                        let mut end = (at + size).min(text.len());
                        while !text.is_char_boundary(end) {
                            end += 1;
                        }
                        let (t, a) = stream.push(&text[at..end]);
                        got_thinking.push_str(&t);
                        got_answer.push_str(&a);
                        at = end;
                    }
                    let (t, a) = stream.finish();
                    got_thinking.push_str(&t);
                    got_answer.push_str(&a);
                    let what = format!("{text:?} {tags:?} inside={inside} in pieces of {size}");
                    assert_eq!(got_thinking, thought.clone().unwrap_or_default(), "{what}");
                    assert_eq!(got_answer, answer, "{what}");
                }
            }
        }
    }
}
