//! Synthetic token traces for cache benchmarks: SGLang's generated shared-prefix workload and a
//! multi-turn chat, with a fixed seed so runs are comparable.

/// A small deterministic generator (SplitMix64): benchmarks need reproducible inputs, not
/// statistical quality.
pub struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A token id below `vocab`.
    pub fn token(&mut self, vocab: u32) -> u32 {
        (self.next_u64() % vocab as u64) as u32
    }

    pub fn tokens(&mut self, n: usize, vocab: u32) -> Vec<u32> {
        (0..n).map(|_| self.token(vocab)).collect()
    }
}

pub const VOCAB: u32 = 49_152;

/// `groups` x `per_group` requests, each a group prefix of `prefix_len` tokens plus its own
/// `suffix_len`-token question.
pub fn shared_prefix(
    groups: usize,
    per_group: usize,
    prefix_len: usize,
    suffix_len: usize,
    seed: u64,
) -> Vec<Vec<u32>> {
    let mut rng = SplitMix::new(seed);
    let mut out = Vec::with_capacity(groups * per_group);
    for _ in 0..groups {
        let prefix = rng.tokens(prefix_len, VOCAB);
        for _ in 0..per_group {
            let mut req = prefix.clone();
            req.extend(rng.tokens(suffix_len, VOCAB));
            out.push(req);
        }
    }
    out
}

/// `conversations` chats of `turns` turns; each turn re-sends the whole conversation plus a
/// `user_len`-token message, and the reply of `reply_len` tokens joins the history.
/// Returns, per conversation, the prompt of every turn and the full key after the reply.
pub fn multi_turn(
    conversations: usize,
    turns: usize,
    user_len: usize,
    reply_len: usize,
    seed: u64,
) -> Vec<Vec<(Vec<u32>, Vec<u32>)>> {
    let mut rng = SplitMix::new(seed);
    let system = rng.tokens(256, VOCAB);
    (0..conversations)
        .map(|_| {
            let mut history = system.clone();
            (0..turns)
                .map(|_| {
                    history.extend(rng.tokens(user_len, VOCAB));
                    let prompt = history.clone();
                    history.extend(rng.tokens(reply_len, VOCAB));
                    (prompt, history.clone())
                })
                .collect()
        })
        .collect()
}
