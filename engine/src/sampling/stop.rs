//! Stop conditions: stop tokens, stop strings (which may span tokens and are never emitted)
//! and the token budget.

use std::fmt;
use std::sync::Arc;

use super::params::SamplingParams;
use super::stop_matcher::StopMatcher;

/// What ended a request with [`FinishReason::Stop`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StopMatch {
    /// An end-of-sequence token of the model.
    Eos(u32),
    /// One of the request's `stop_token_ids`.
    TokenId(u32),
    /// One of the request's stop strings.
    String(String),
    /// The request's grammar is complete.
    Grammar,
}

/// Why a request finished.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FinishReason {
    /// A stop token or stop string (OpenAI "stop").
    Stop(StopMatch),
    /// `max_new_tokens` reached (OpenAI "length").
    Length,
    /// Cancelled by the client or the server.
    Abort,
}

impl FinishReason {
    /// The OpenAI `finish_reason` string: "stop", "length" or "abort" (as vLLM).
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Stop(_) => "stop",
            Self::Length => "length",
            Self::Abort => "abort",
        }
    }

    pub fn is_abort(&self) -> bool {
        matches!(self, Self::Abort)
    }

    /// The stop token id that matched, if any (vLLM's `stop_reason` for token stops; EOS
    /// is reported here too, callers wanting vLLM's `null` for EOS can match on
    /// [`StopMatch::Eos`]).
    pub fn matched_token(&self) -> Option<u32> {
        match self {
            Self::Stop(StopMatch::Eos(t) | StopMatch::TokenId(t)) => Some(*t),
            _ => None,
        }
    }

    /// The stop string that matched, if any.
    pub fn matched_string(&self) -> Option<&str> {
        match self {
            Self::Stop(StopMatch::String(s)) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for FinishReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Result of feeding one token to a [`StopChecker`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StopStep {
    /// Text that is safe to stream now (never part of a stop string).
    pub text: String,
    /// Set once the request is finished; `text` then holds everything left to emit.
    pub finish: Option<FinishReason>,
}

/// Decides, token by token, whether a request is done, and holds back text that might
/// still turn into a stop string.
#[derive(Clone, Debug)]
pub struct StopChecker {
    /// Empty when the request set `ignore_eos`.
    eos: Vec<u32>,
    stop_ids: Vec<u32>,
    stops: Arc<[String]>,
    /// `None` without stop strings.
    matcher: Option<StopMatcher>,
    max_new_tokens: u32,
    /// Stops count only from this many generated tokens on.
    min_new_tokens: u32,
    generated: u32,
    held: String,
    finished: Option<FinishReason>,
}

impl StopChecker {
    /// A checker for a request with these parameters; `eos_ids` are the model's
    /// end-of-sequence tokens (ignored when `params.ignore_eos`). Empty stop strings are
    /// skipped (validation rejects them anyway).
    pub fn new(params: &SamplingParams, eos_ids: &[u32]) -> Self {
        let stops: Arc<[String]> = params
            .stop
            .iter()
            .filter(|s| !s.is_empty())
            .cloned()
            .collect();
        Self {
            eos: if params.ignore_eos {
                Vec::new()
            } else {
                eos_ids.to_vec()
            },
            stop_ids: params.stop_token_ids.clone(),
            matcher: (!stops.is_empty()).then(|| StopMatcher::new(&stops)),
            stops,
            max_new_tokens: params.max_new_tokens,
            min_new_tokens: params.min_new_tokens,
            generated: 0,
            held: String::new(),
            finished: None,
        }
    }

    /// The token ids that end the request (end-of-sequence unless ignored, stop ids).
    pub fn stop_token_ids(&self) -> Vec<u32> {
        self.eos.iter().chain(&self.stop_ids).copied().collect()
    }

    /// Tokens fed so far.
    pub fn generated(&self) -> u32 {
        self.generated
    }

    /// The finish reason, once finished.
    pub fn finish_reason(&self) -> Option<&FinishReason> {
        self.finished.as_ref()
    }

    pub fn is_finished(&self) -> bool {
        self.finished.is_some()
    }

    /// Text held back because it could be the start of a stop string.
    pub fn held_text(&self) -> &str {
        &self.held
    }

    /// Feeds the next generated token and the text the detokenizer produced for it.
    ///
    /// Checks in vLLM's order: stop tokens (their text is dropped, held text is flushed),
    /// then stop strings (text from the match on is dropped), then the token budget (held
    /// text is flushed). After finishing, further calls return no text and the same reason.
    pub fn push(&mut self, token: u32, delta: &str) -> StopStep {
        if let Some(reason) = &self.finished {
            return StopStep {
                text: String::new(),
                finish: Some(reason.clone()),
            };
        }
        self.generated = self.generated.saturating_add(1);
        if self.generated <= self.min_new_tokens {
            // Within the minimum nothing but the length ends the output (the sampler keeps
            // stop tokens out; stop strings are matched only in text generated after it).
            if self.generated >= self.max_new_tokens {
                return self.finish_flushing(FinishReason::Length);
            }
            let mut text = std::mem::take(&mut self.held);
            text.push_str(delta);
            return StopStep { text, finish: None };
        }
        if self.eos.contains(&token) {
            return self.finish_flushing(FinishReason::Stop(StopMatch::Eos(token)));
        }
        if self.stop_ids.contains(&token) {
            return self.finish_flushing(FinishReason::Stop(StopMatch::TokenId(token)));
        }
        let Some(matcher) = self.matcher.as_mut() else {
            if self.generated >= self.max_new_tokens {
                self.finished = Some(FinishReason::Length);
            }
            return StopStep {
                text: delta.to_owned(),
                finish: self.finished.clone(),
            };
        };
        let hit = matcher.feed(delta);
        let pending = matcher.pending_len();
        self.held.push_str(delta);
        if let Some(hit) = hit {
            // The match starts at a character boundary: stop strings are whole UTF-8 text.
            self.held.truncate(self.held.len().saturating_sub(hit.back));
            let stop = self.stops.get(hit.index).cloned().unwrap_or_default();
            return self.finish_flushing(FinishReason::Stop(StopMatch::String(stop)));
        }
        if self.generated >= self.max_new_tokens {
            return self.finish_flushing(FinishReason::Length);
        }
        let keep_from = self.held.len().saturating_sub(pending);
        let rest = self.held.split_off(keep_from);
        StopStep {
            text: std::mem::replace(&mut self.held, rest),
            finish: None,
        }
    }

    /// Ends the request as aborted, flushing held text. No effect once finished.
    pub fn abort(&mut self) -> StopStep {
        self.end(FinishReason::Abort)
    }

    /// Ends the request for `reason` (a finished grammar, an aborted request), flushing held
    /// text. No effect once finished.
    pub fn end(&mut self, reason: FinishReason) -> StopStep {
        match &self.finished {
            Some(reason) => StopStep {
                text: String::new(),
                finish: Some(reason.clone()),
            },
            None => self.finish_flushing(reason),
        }
    }

    fn finish_flushing(&mut self, reason: FinishReason) -> StopStep {
        self.finished = Some(reason.clone());
        StopStep {
            text: std::mem::take(&mut self.held),
            finish: Some(reason),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checker(stop: &[&str], max_new_tokens: u32) -> StopChecker {
        let params = SamplingParams {
            stop: stop.iter().map(|s| s.to_string()).collect(),
            max_new_tokens,
            ..SamplingParams::default()
        };
        StopChecker::new(&params, &[2])
    }

    #[test]
    fn holds_only_possible_stop_prefixes() {
        let mut c = checker(&["END"], 100);
        assert_eq!(c.push(10, "abE").text, "ab");
        assert_eq!(c.held_text(), "E");
        assert_eq!(c.push(11, "N").text, "");
        assert_eq!(c.held_text(), "EN");
        // "ENx" cannot start a match, nor can "Nx" or "x".
        assert_eq!(c.push(12, "x").text, "ENx");
        assert_eq!(c.held_text(), "");
    }

    #[test]
    fn hold_respects_char_boundaries() {
        let mut c = checker(&["é!"], 100);
        assert_eq!(c.push(10, "café").text, "caf");
        assert_eq!(c.held_text(), "é");
        let step = c.push(11, "!");
        assert_eq!(step.text, "");
        assert_eq!(
            step.finish,
            Some(FinishReason::Stop(StopMatch::String("é!".into())))
        );
    }

    #[test]
    fn earliest_end_wins_then_longest() {
        let mut c = checker(&["AB", "xA"], 100);
        let step = c.push(10, "zxAB");
        assert_eq!(step.text, "z");
        assert_eq!(
            step.finish.as_ref().and_then(|f| f.matched_string()),
            Some("xA")
        );
        let mut c = checker(&["abc", "ab"], 100);
        let step = c.push(10, "abcd");
        assert_eq!(
            step.finish.as_ref().and_then(|f| f.matched_string()),
            Some("ab")
        );
        // Ending at the same byte, the longer string covers more of the text.
        let mut c = checker(&["b", "ab"], 100);
        let step = c.push(10, "xab");
        assert_eq!(step.text, "x");
        assert_eq!(
            step.finish.as_ref().and_then(|f| f.matched_string()),
            Some("ab")
        );
    }

    #[test]
    fn finished_checker_is_inert() {
        let mut c = checker(&[], 1);
        let step = c.push(10, "a");
        assert_eq!(step.text, "a");
        assert_eq!(step.finish, Some(FinishReason::Length));
        let again = c.push(11, "b");
        assert_eq!(again.text, "");
        assert_eq!(again.finish, Some(FinishReason::Length));
        assert_eq!(c.abort().finish, Some(FinishReason::Length));
        assert_eq!(c.generated(), 1);
    }

    #[test]
    fn no_stop_ends_the_output_within_the_minimum() {
        let params = SamplingParams {
            stop: vec!["END".into()],
            stop_token_ids: vec![7],
            min_new_tokens: 3,
            max_new_tokens: 10,
            ..SamplingParams::default()
        };
        let mut c = StopChecker::new(&params, &[2]);
        assert_eq!(c.stop_token_ids(), vec![2, 7]);
        // Within the minimum: EOS, a stop id and a stop string pass as text.
        for (token, text) in [(2, "a"), (7, "END"), (10, "b")] {
            let step = c.push(token, text);
            assert_eq!((step.text.as_str(), step.finish), (text, None));
        }
        // From the fourth token on, stops count again.
        let step = c.push(7, "");
        assert_eq!(step.finish, Some(FinishReason::Stop(StopMatch::TokenId(7))));
        let mut c = StopChecker::new(&params, &[2]);
        for token in [10, 11, 12] {
            c.push(token, "x");
        }
        let step = c.push(13, "yEND");
        assert_eq!(step.text, "y");
        assert_eq!(
            step.finish.as_ref().and_then(|f| f.matched_string()),
            Some("END")
        );
        // The length still ends the output within a minimum it cannot reach.
        let short = SamplingParams {
            min_new_tokens: 2,
            max_new_tokens: 2,
            ..SamplingParams::default()
        };
        let mut c = StopChecker::new(&short, &[2]);
        assert_eq!(c.push(2, "a").finish, None);
        assert_eq!(c.push(2, "b").finish, Some(FinishReason::Length));
    }

    #[test]
    fn abort_flushes_held_text() {
        let mut c = checker(&["STOP"], 100);
        assert_eq!(c.push(10, "ST").text, "");
        let step = c.abort();
        assert_eq!(step.text, "ST");
        assert_eq!(step.finish, Some(FinishReason::Abort));
        assert_eq!(FinishReason::Abort.as_str(), "abort");
    }

    #[test]
    fn reason_strings() {
        let eos = FinishReason::Stop(StopMatch::Eos(2));
        assert_eq!(eos.as_str(), "stop");
        assert_eq!(eos.matched_token(), Some(2));
        assert_eq!(FinishReason::Length.to_string(), "length");
        assert_eq!(FinishReason::Length.matched_token(), None);
    }
}
