//! Workloads: what each simulated client sends. Prompts are token ids drawn from the model's
//! vocabulary, so their lengths are exact whatever the server's tokenizer would make of text.
//!
//! A workload is a list of [`Session`]s. Single-turn workloads have one turn per session; a
//! multi-turn session re-sends its whole conversation, earlier replies included, every turn.

use super::LoadgenError;
use crate::traces::SplitMix;
use engine::tokenizer::Tokenizer;
use std::collections::HashSet;

/// One request of a session: the tokens it adds to the conversation and the reply length.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    /// The whole prompt of a single-turn session; the new user message of a multi-turn one.
    pub new_tokens: Vec<u32>,
    pub output_len: u32,
}

/// What one simulated client sends, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    /// Index into the run's tenant list.
    pub tenant: usize,
    pub turns: Vec<Turn>,
    /// Each turn's prompt is the conversation so far (prompts and replies) plus its tokens.
    pub carries_history: bool,
}

impl Session {
    fn single(prompt: Vec<u32>, output_len: u32) -> Self {
        Session {
            tenant: 0,
            turns: vec![Turn {
                new_tokens: prompt,
                output_len,
            }],
            carries_history: false,
        }
    }
}

/// SGLang's `random` dataset: lengths drawn uniformly from `[len * range_ratio, len]`.
#[derive(Clone, Debug, PartialEq)]
pub struct RandomParams {
    pub num_prompts: usize,
    pub input_len: usize,
    pub output_len: usize,
    pub range_ratio: f64,
}

/// SGLang's `generated-shared-prefix` dataset: `num_groups` system prompts, each shared by
/// `prompts_per_group` requests that append their own question.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedPrefixParams {
    pub num_groups: usize,
    pub prompts_per_group: usize,
    pub system_prompt_len: usize,
    pub question_len: usize,
    pub output_len: usize,
}

/// Conversations of `turns` turns; each turn adds a `turn_len`-token user message after an
/// optional `system_prompt_len`-token system prompt shared by all conversations.
#[derive(Clone, Debug, PartialEq)]
pub struct MultiTurnParams {
    pub num_conversations: usize,
    pub turns: usize,
    pub turn_len: usize,
    pub output_len: usize,
    pub system_prompt_len: usize,
}

/// A single-tenant workload; multi-tenant runs give each tenant one of these.
#[derive(Clone, Debug, PartialEq)]
pub enum Workload {
    Random(RandomParams),
    SharedPrefix(SharedPrefixParams),
    MultiTurn(MultiTurnParams),
}

impl Workload {
    /// Checks the sizes once, so that building never has to.
    pub fn validate(&self) -> Result<(), LoadgenError> {
        let bad = |what: &str| {
            Err(LoadgenError::InvalidArgs(format!(
                "{what} must be at least 1"
            )))
        };
        match self {
            Workload::Random(p) => {
                if p.num_prompts == 0 {
                    return bad("--num-prompts");
                }
                if p.input_len == 0 {
                    return bad("--random-input-len");
                }
                if p.output_len == 0 {
                    return bad("--random-output-len");
                }
                if !(p.range_ratio > 0.0 && p.range_ratio <= 1.0) {
                    return Err(LoadgenError::InvalidArgs(
                        "--random-range-ratio must be in (0, 1]".into(),
                    ));
                }
            }
            Workload::SharedPrefix(p) => {
                if p.num_groups == 0 {
                    return bad("--gsp-num-groups");
                }
                if p.prompts_per_group == 0 {
                    return bad("--gsp-prompts-per-group");
                }
                if p.system_prompt_len + p.question_len == 0 {
                    return bad("--gsp-system-prompt-len + --gsp-question-len");
                }
                if p.output_len == 0 {
                    return bad("--gsp-output-len");
                }
            }
            Workload::MultiTurn(p) => {
                if p.num_conversations == 0 {
                    return bad("--mt-num-conversations");
                }
                if p.turns == 0 {
                    return bad("--mt-turns");
                }
                if p.turn_len == 0 {
                    return bad("--mt-turn-len");
                }
                if p.output_len == 0 {
                    return bad("--mt-output-len");
                }
            }
        }
        Ok(())
    }

    /// The sessions of this workload for tenant 0, in the order they are to be sent.
    pub fn build(&self, vocab: &Vocabulary, seed: u64) -> Vec<Session> {
        // Each workload shape draws from its own stream: with one seed, a 32-token random run
        // would otherwise send the first 32 tokens of a 48-token run's prompts, and a warm
        // server would serve one from the other's cache.
        let mut rng = SplitMix::new(seed ^ self.fingerprint());
        match self {
            Workload::Random(p) => random(p, vocab, &mut rng),
            Workload::SharedPrefix(p) => shared_prefix(p, vocab, &mut rng),
            Workload::MultiTurn(p) => multi_turn(p, vocab, &mut rng),
        }
    }

    /// FNV-1a of the parameters: the same workload gives the same number, others differ.
    fn fingerprint(&self) -> u64 {
        format!("{self:?}")
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
                (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
            })
    }

    /// Longest prompt + reply of any request, to check against the server's context.
    pub fn max_request_tokens(&self) -> usize {
        match self {
            Workload::Random(p) => p.input_len + p.output_len,
            Workload::SharedPrefix(p) => p.system_prompt_len + p.question_len + p.output_len,
            Workload::MultiTurn(p) => p.system_prompt_len + p.turns * (p.turn_len + p.output_len),
        }
    }
}

/// The token ids prompts are drawn from: the model's ordinary tokens (no control tokens, so
/// a random prompt never contains an end-of-turn marker).
#[derive(Clone, Debug)]
pub struct Vocabulary {
    ids: Vec<u32>,
}

impl Vocabulary {
    pub fn from_tokenizer(tokenizer: &Tokenizer) -> Result<Self, LoadgenError> {
        let ids: Vec<u32> = (0..tokenizer.vocab_size() as u32)
            .filter(|&id| !tokenizer.is_special(id))
            .collect();
        Self::from_ids(ids)
    }

    pub fn from_ids(ids: Vec<u32>) -> Result<Self, LoadgenError> {
        if ids.is_empty() {
            return Err(LoadgenError::Tokenizer(
                "the vocabulary has no ordinary tokens".into(),
            ));
        }
        Ok(Vocabulary { ids })
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    fn token(&self, rng: &mut SplitMix) -> u32 {
        self.ids[below(rng, self.ids.len())]
    }

    fn tokens(&self, n: usize, rng: &mut SplitMix) -> Vec<u32> {
        (0..n).map(|_| self.token(rng)).collect()
    }
}

/// Uniform in `0..n` (`n > 0`); the modulo bias is negligible for vocabulary-sized `n`.
pub(crate) fn below(rng: &mut SplitMix, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// Uniform in `[0, 1)`.
pub(crate) fn unit_f64(rng: &mut SplitMix) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Fisher-Yates shuffle.
pub(crate) fn shuffle<T>(items: &mut [T], rng: &mut SplitMix) {
    for i in (1..items.len()).rev() {
        items.swap(i, below(rng, i + 1));
    }
}

/// First tokens for `n` unrelated prompts, all different while the vocabulary allows, so that
/// prompts meant to share nothing do not share even one cached token.
struct DistinctFirstTokens {
    used: HashSet<u32>,
}

impl DistinctFirstTokens {
    fn new() -> Self {
        DistinctFirstTokens {
            used: HashSet::new(),
        }
    }

    fn next(&mut self, vocab: &Vocabulary, rng: &mut SplitMix) -> u32 {
        if self.used.len() >= vocab.len() {
            return vocab.token(rng);
        }
        loop {
            let token = vocab.token(rng);
            if self.used.insert(token) {
                return token;
            }
        }
    }

    /// `len` tokens starting with a fresh first token.
    fn prompt(&mut self, len: usize, vocab: &Vocabulary, rng: &mut SplitMix) -> Vec<u32> {
        let mut prompt = Vec::with_capacity(len);
        if len > 0 {
            prompt.push(self.next(vocab, rng));
            prompt.extend(vocab.tokens(len - 1, rng));
        }
        prompt
    }
}

fn random(p: &RandomParams, vocab: &Vocabulary, rng: &mut SplitMix) -> Vec<Session> {
    let mut firsts = DistinctFirstTokens::new();
    (0..p.num_prompts)
        .map(|_| {
            let input_len = ranged_len(p.input_len, p.range_ratio, rng);
            let output_len = ranged_len(p.output_len, p.range_ratio, rng);
            Session::single(firsts.prompt(input_len, vocab, rng), output_len as u32)
        })
        .collect()
}

/// Uniform in `[max(1, len * ratio), len]`, as SGLang's random dataset draws lengths.
fn ranged_len(len: usize, ratio: f64, rng: &mut SplitMix) -> usize {
    let low = ((len as f64 * ratio) as usize).clamp(1, len);
    low + below(rng, len - low + 1)
}

fn shared_prefix(p: &SharedPrefixParams, vocab: &Vocabulary, rng: &mut SplitMix) -> Vec<Session> {
    let mut firsts = DistinctFirstTokens::new();
    let mut sessions = Vec::with_capacity(p.num_groups * p.prompts_per_group);
    for _ in 0..p.num_groups {
        let system = firsts.prompt(p.system_prompt_len, vocab, rng);
        for _ in 0..p.prompts_per_group {
            let mut prompt = system.clone();
            if system.is_empty() {
                prompt = firsts.prompt(p.question_len, vocab, rng);
            } else {
                prompt.extend(vocab.tokens(p.question_len, rng));
            }
            sessions.push(Session::single(prompt, p.output_len as u32));
        }
    }
    // SGLang shuffles too: requests of a group arrive interleaved with other groups'.
    shuffle(&mut sessions, rng);
    sessions
}

fn multi_turn(p: &MultiTurnParams, vocab: &Vocabulary, rng: &mut SplitMix) -> Vec<Session> {
    let mut firsts = DistinctFirstTokens::new();
    let system = firsts.prompt(p.system_prompt_len, vocab, rng);
    (0..p.num_conversations)
        .map(|_| {
            let turns = (0..p.turns)
                .map(|turn| {
                    let mut new_tokens = Vec::with_capacity(system.len() + p.turn_len);
                    if turn == 0 {
                        new_tokens.extend_from_slice(&system);
                        new_tokens.extend(firsts.prompt(p.turn_len, vocab, rng));
                    } else {
                        new_tokens.extend(vocab.tokens(p.turn_len, rng));
                    }
                    Turn {
                        new_tokens,
                        output_len: p.output_len as u32,
                    }
                })
                .collect();
            Session {
                tenant: 0,
                turns,
                carries_history: true,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn vocab() -> Vocabulary {
        Vocabulary::from_ids((3..1000).collect()).unwrap()
    }

    #[test]
    fn random_prompts_have_exact_lengths_and_distinct_first_tokens() {
        let workload = Workload::Random(RandomParams {
            num_prompts: 50,
            input_len: 32,
            output_len: 8,
            range_ratio: 1.0,
        });
        let sessions = workload.build(&vocab(), 7);
        assert_eq!(sessions.len(), 50);
        let firsts: HashSet<u32> = sessions.iter().map(|s| s.turns[0].new_tokens[0]).collect();
        assert_eq!(firsts.len(), 50);
        assert!(sessions
            .iter()
            .all(|s| s.turns[0].new_tokens.len() == 32 && s.turns[0].output_len == 8));
        assert_eq!(sessions, workload.build(&vocab(), 7), "seeded");
    }

    #[test]
    fn ranged_lengths_stay_in_range() {
        let mut rng = SplitMix::new(1);
        for _ in 0..1000 {
            let len = ranged_len(100, 0.5, &mut rng);
            assert!((50..=100).contains(&len));
        }
    }

    #[test]
    fn shared_prefix_groups_share_exactly_the_system_prompt() {
        let p = SharedPrefixParams {
            num_groups: 3,
            prompts_per_group: 4,
            system_prompt_len: 20,
            question_len: 5,
            output_len: 2,
        };
        let sessions = Workload::SharedPrefix(p).build(&vocab(), 3);
        assert_eq!(sessions.len(), 12);
        let mut groups: std::collections::HashMap<Vec<u32>, usize> = Default::default();
        for s in &sessions {
            assert_eq!(s.turns[0].new_tokens.len(), 25);
            *groups
                .entry(s.turns[0].new_tokens[..20].to_vec())
                .or_default() += 1;
        }
        assert_eq!(groups.len(), 3);
        assert!(groups.values().all(|&n| n == 4));
    }

    #[test]
    fn multi_turn_sessions_carry_history() {
        let p = MultiTurnParams {
            num_conversations: 2,
            turns: 3,
            turn_len: 4,
            output_len: 2,
            system_prompt_len: 6,
        };
        let sessions = Workload::MultiTurn(p).build(&vocab(), 3);
        assert_eq!(sessions.len(), 2);
        for s in &sessions {
            assert!(s.carries_history);
            assert_eq!(s.turns.len(), 3);
            assert_eq!(s.turns[0].new_tokens.len(), 10);
            assert_eq!(s.turns[1].new_tokens.len(), 4);
        }
        assert_eq!(
            sessions[0].turns[0].new_tokens[..6],
            sessions[1].turns[0].new_tokens[..6]
        );
    }
}
