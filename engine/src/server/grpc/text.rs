//! The text of a generation's chunks. The engine streams text with control tokens skipped;
//! a request with `skip_special_tokens = false` gets its text re-decoded from the token ids
//! with control tokens kept, through its own stop checker so that stop strings are still cut
//! and stop tokens still produce no text, as in the engine's text.

use crate::handle::EngineHandle;
use crate::sampling::{FinishReason, SamplingParams, StopChecker};
use crate::tokenizer::DecodeStream;

pub(super) enum ChunkText {
    /// The engine's text as it comes.
    Engine,
    /// Re-decoded with control tokens.
    WithSpecial(Box<Redecoded>),
}

pub(super) struct Redecoded {
    engine: EngineHandle,
    detok: DecodeStream,
    stop: StopChecker,
}

impl ChunkText {
    pub(super) fn new(engine: &EngineHandle, params: &SamplingParams, skip_special: bool) -> Self {
        if skip_special {
            return Self::Engine;
        }
        Self::WithSpecial(Box::new(Redecoded {
            engine: engine.clone(),
            detok: DecodeStream::new(false),
            stop: StopChecker::new(params, &engine.model_info().eos_token_ids),
        }))
    }

    /// The text of a chunk holding `token_ids`, whose engine text is `engine_text`.
    pub(super) fn chunk(&mut self, token_ids: &[u32], engine_text: String) -> String {
        let Self::WithSpecial(redecoded) = self else {
            return engine_text;
        };
        let Redecoded {
            engine,
            detok,
            stop,
        } = redecoded.as_mut();
        let mut text = String::new();
        for &id in token_ids {
            // Ids come from the engine's own sampler, so they are in the vocabulary.
            let delta = detok.step(engine.tokenizer(), id).unwrap_or_default();
            text.push_str(&stop.push(id, &delta).text);
        }
        text
    }

    /// Text still held when the request ends with `reason` (empty for the engine's text,
    /// which the engine flushes itself).
    pub(super) fn finish(&mut self, reason: &FinishReason) -> String {
        let Self::WithSpecial(redecoded) = self else {
            return String::new();
        };
        let Redecoded { detok, stop, .. } = redecoded.as_mut();
        // The engine may end a request before this checker does (context limit, abort).
        let mut text = stop.abort().text;
        let rest = detok.finish();
        if !matches!(reason, FinishReason::Stop(_)) {
            text.push_str(&rest);
        }
        text
    }
}
