//! Per-request sampling parameters, validated once at submission.

use serde::{Deserialize, Serialize};

/// Most stop strings per request.
pub const MAX_STOP_STRINGS: usize = 64;
/// Longest stop string, in bytes.
pub const MAX_STOP_STRING_BYTES: usize = 256;
/// Most bytes of all of a request's stop strings together.
pub const MAX_STOP_TOTAL_BYTES: usize = 4096;
/// Most `logit_bias` entries per request (OpenAI's limit).
pub const MAX_LOGIT_BIAS: usize = 300;
/// Most `token_ids_logprob` ids per request: each costs a value per output token.
pub const MAX_TOKEN_IDS_LOGPROB: usize = 256;
/// Most stop token ids per request.
pub const MAX_STOP_TOKEN_IDS: usize = 256;

/// How to pick each next token, and when to stop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SamplingParams {
    /// 0 means greedy (argmax).
    pub temperature: f32,
    /// 0 means no top-k cut.
    pub top_k: u32,
    /// 1.0 means no nucleus cut.
    pub top_p: f32,
    /// 0.0 means no min-p cut.
    pub min_p: f32,
    /// 1.0 means none. >1 discourages tokens already in the prompt or output (CTRL/HF style).
    pub repetition_penalty: f32,
    /// Subtracted once per previous occurrence in the output (OpenAI style).
    pub frequency_penalty: f32,
    /// Subtracted once if the token occurred in the output (OpenAI style).
    pub presence_penalty: f32,
    /// Same seed, same prompt, same parameters: same tokens.
    pub seed: Option<u64>,
    pub max_new_tokens: u32,
    /// No stop (end-of-sequence or stop token, stop string) ends the output before this
    /// many tokens: stop tokens are masked out of the sampling until then (SGLang's
    /// `min_new_tokens`, vLLM's `min_tokens`). At most `max_new_tokens`.
    pub min_new_tokens: u32,
    /// Extra token ids that end generation (EOS always does unless `ignore_eos`).
    pub stop_token_ids: Vec<u32>,
    /// Strings that end generation; may span tokens; not included in the output text.
    pub stop: Vec<String>,
    pub ignore_eos: bool,
    /// Return the log-probability of each chosen token and of this many top candidates.
    pub logprobs: Option<u32>,
    /// Tokens whose log-probabilities every position reports beside the top ones (SGLang's
    /// `token_ids_logprob`), in this order.
    pub token_ids_logprob: Vec<u32>,
    /// Added to these tokens' logits before sampling (OpenAI `logit_bias`; -100 bans,
    /// 100 all but forces).
    pub logit_bias: Vec<(u32, f32)>,
    /// Control tokens are left out of the output text (their ids stay in the output), but
    /// for `shown_control_tokens`.
    pub skip_special_tokens: bool,
    /// Control tokens whose text the output text keeps even when the others are skipped
    /// (tool-call markers the chat API reads, such as Mistral's `[TOOL_CALLS]`).
    pub shown_control_tokens: Vec<u32>,
}

impl Default for SamplingParams {
    fn default() -> Self {
        Self {
            temperature: 1.0,
            top_k: 0,
            top_p: 1.0,
            min_p: 0.0,
            repetition_penalty: 1.0,
            frequency_penalty: 0.0,
            presence_penalty: 0.0,
            seed: None,
            max_new_tokens: 128,
            stop_token_ids: Vec::new(),
            stop: Vec::new(),
            ignore_eos: false,
            min_new_tokens: 0,
            logprobs: None,
            token_ids_logprob: Vec::new(),
            logit_bias: Vec::new(),
            skip_special_tokens: true,
            shown_control_tokens: Vec::new(),
        }
    }
}

impl SamplingParams {
    pub fn greedy(max_new_tokens: u32) -> Self {
        Self {
            temperature: 0.0,
            max_new_tokens,
            ..Self::default()
        }
    }

    /// Checks ranges; the message names the parameter and the accepted range.
    pub fn validate(&self, vocab_size: usize) -> Result<(), String> {
        let finite = |v: f32| v.is_finite();
        if !finite(self.temperature) || self.temperature < 0.0 {
            return Err(format!(
                "temperature must be >= 0, got {}",
                self.temperature
            ));
        }
        if !finite(self.top_p) || self.top_p <= 0.0 || self.top_p > 1.0 {
            return Err(format!("top_p must be in (0, 1], got {}", self.top_p));
        }
        if !finite(self.min_p) || !(0.0..=1.0).contains(&self.min_p) {
            return Err(format!("min_p must be in [0, 1], got {}", self.min_p));
        }
        if !finite(self.repetition_penalty) || self.repetition_penalty <= 0.0 {
            return Err(format!(
                "repetition_penalty must be > 0, got {}",
                self.repetition_penalty
            ));
        }
        for (name, v) in [
            ("frequency_penalty", self.frequency_penalty),
            ("presence_penalty", self.presence_penalty),
        ] {
            if !finite(v) || !(-2.0..=2.0).contains(&v) {
                return Err(format!("{name} must be in [-2, 2], got {v}"));
            }
        }
        if self.min_new_tokens > self.max_new_tokens {
            return Err(format!(
                "min_new_tokens ({}) must not exceed max_new_tokens ({})",
                self.min_new_tokens, self.max_new_tokens
            ));
        }
        self.validate_stop_lists()?;
        self.validate_logit_bias(vocab_size)?;
        if let Some(&bad) = self
            .stop_token_ids
            .iter()
            .find(|&&t| t as usize >= vocab_size)
        {
            return Err(format!(
                "stop token id {bad} is outside the vocabulary of {vocab_size}"
            ));
        }
        if let Some(n) = self.logprobs {
            if n > 20 {
                return Err(format!("logprobs must be at most 20, got {n}"));
            }
        }
        let ids = &self.token_ids_logprob;
        if ids.len() > MAX_TOKEN_IDS_LOGPROB {
            return Err(format!(
                "token_ids_logprob has {} ids; at most {MAX_TOKEN_IDS_LOGPROB} are allowed",
                ids.len()
            ));
        }
        if let Some(&bad) = ids.iter().find(|&&t| t as usize >= vocab_size) {
            return Err(format!(
                "token_ids_logprob names token {bad}, outside the vocabulary of {vocab_size}"
            ));
        }
        Ok(())
    }

    fn validate_logit_bias(&self, vocab_size: usize) -> Result<(), String> {
        if self.logit_bias.len() > MAX_LOGIT_BIAS {
            return Err(format!(
                "logit_bias has {} entries; at most {MAX_LOGIT_BIAS} are allowed",
                self.logit_bias.len()
            ));
        }
        // Keys that differ as text ("1", "01", "+1") name one token: their biases would add
        // up past the range.
        let mut tokens: Vec<u32> = self.logit_bias.iter().map(|&(t, _)| t).collect();
        tokens.sort_unstable();
        if let Some(pair) = tokens.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("logit_bias gives token {} twice", pair[0]));
        }
        for &(token, bias) in &self.logit_bias {
            if token as usize >= vocab_size {
                return Err(format!(
                    "logit_bias names token {token}, outside the vocabulary of {vocab_size}"
                ));
            }
            if !bias.is_finite() || !(-100.0..=100.0).contains(&bias) {
                return Err(format!(
                    "logit_bias for token {token} must be in [-100, 100], got {bias}"
                ));
            }
        }
        Ok(())
    }

    /// Stop lists are matched on the scheduler thread and held by every queued request:
    /// their size is bounded.
    fn validate_stop_lists(&self) -> Result<(), String> {
        if self.stop.len() > MAX_STOP_STRINGS {
            return Err(format!(
                "stop has {} strings; at most {MAX_STOP_STRINGS} are allowed",
                self.stop.len()
            ));
        }
        if self.stop.iter().any(String::is_empty) {
            return Err("stop strings must not be empty".into());
        }
        if let Some(long) = self.stop.iter().find(|s| s.len() > MAX_STOP_STRING_BYTES) {
            return Err(format!(
                "stop has a string of {} bytes; at most {MAX_STOP_STRING_BYTES} are allowed",
                long.len()
            ));
        }
        let total: usize = self.stop.iter().map(String::len).sum();
        if total > MAX_STOP_TOTAL_BYTES {
            return Err(format!(
                "stop strings have {total} bytes together; at most {MAX_STOP_TOTAL_BYTES} are \
                 allowed"
            ));
        }
        if self.stop_token_ids.len() > MAX_STOP_TOKEN_IDS {
            return Err(format!(
                "stop_token_ids has {} ids; at most {MAX_STOP_TOKEN_IDS} are allowed",
                self.stop_token_ids.len()
            ));
        }
        Ok(())
    }
}
