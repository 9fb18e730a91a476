//! Per-request token sampler.
//!
//! Order of processing (as vLLM / SGLang):
//! 1. repetition penalty (CTRL / HF) over every token seen in the prompt or the output;
//! 2. frequency and presence penalties over the output tokens;
//! 3. greedy argmax when `temperature < GREEDY_TEMPERATURE` or `top_k == 1`; otherwise
//! 4. divide by temperature, softmax, top-k, top-p over the top-k-renormalized distribution
//!    (as HF and vLLM), min-p relative to the most likely token, renormalize and draw.
//!
//! Reported log-probabilities (`SampleOutput::logprob` and `top`) are the log-softmax over
//! the full vocabulary of the logits after penalties and temperature, before the top-k /
//! top-p / min-p cuts (vLLM's "processed logprobs"). Greedy requests use temperature 1 for
//! this unless `top_k == 1` comes with a positive temperature, which is then applied.

mod device_plan;

use super::math;
use super::params::SamplingParams;
use super::rng::{random_seed, TokenRng};

/// Temperatures below this sample greedily (as vLLM), which also keeps `logit / t` finite.
pub const GREEDY_TEMPERATURE: f32 = 1e-5;

/// The nucleus search first checks whether this many best tokens already hold `top_p`.
const NUCLEUS_FIRST: usize = 64;

/// One sampled token.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleOutput {
    pub token: u32,
    /// Log-probability of `token` (see the module docs for which distribution); NaN for a
    /// greedy request that did not ask for log-probabilities.
    pub logprob: f32,
    /// The `params.logprobs` most likely tokens with their log-probabilities, most likely
    /// first (ties: lower id first). Empty when logprobs were not requested.
    pub top: Vec<(u32, f32)>,
    /// The log-probabilities of `params.token_ids_logprob`, in their order.
    pub given: Vec<(u32, f32)>,
}

/// Which tokens survive the cuts; weights live in `Sampler::weights`.
enum Support {
    Greedy(usize),
    /// `keys[..len]` (see `math::order_key`), with the sum of their weights.
    List {
        len: usize,
        total: f64,
    },
    /// The whole vocabulary (dropped tokens have weight 0), chunk sums valid.
    Dense {
        total: f64,
    },
}

struct Processed {
    support: Support,
    /// log-prob of id i = (logits[i] - max) * scale - ln_z.
    max: f32,
    scale: f32,
    ln_z: f64,
}

impl Processed {
    fn logprob(&self, logit: f32) -> f32 {
        (f64::from((logit - self.max) * self.scale) - self.ln_z) as f32
    }
}

/// Samples one request's tokens. Keeps the request's output history for the penalties and
/// scratch buffers reused across calls.
#[derive(Clone, Debug)]
pub struct Sampler {
    temperature: f32,
    greedy: bool,
    top_k: usize,
    top_p: f32,
    min_p: f32,
    repetition_penalty: f32,
    frequency_penalty: f32,
    presence_penalty: f32,
    n_top: usize,
    /// `SamplingParams::token_ids_logprob`.
    given: Vec<u32>,
    /// The request asked for log-probabilities; greedy decoding skips the softmax otherwise.
    logprobs: bool,
    seed: u64,
    rng: TokenRng,
    steps: u64,
    /// Distinct prompt and output ids in increasing order, for the repetition penalty: the
    /// host walks a slice, a device plan merges it with the other sorted lists as it is.
    seen: Vec<u32>,
    /// Occurrences of each output id, by id, for the frequency and presence penalties.
    counts: Vec<(u32, u32)>,
    weights: Vec<f32>,
    chunk_sums: Vec<f64>,
    keys: Vec<u64>,
    logit_bias: Vec<(u32, f32)>,
    /// Tokens masked out while fewer than `min_new_tokens` were produced.
    held_stops: Vec<u32>,
    min_new_tokens: u32,
    /// Output tokens so far, sampled or forced.
    produced: u32,
}

impl Sampler {
    /// A sampler for a request with these parameters and prompt. Without `params.seed` a
    /// random seed is drawn (see [`Sampler::seed`]).
    pub fn new(params: &SamplingParams, prompt: &[u32]) -> Self {
        Self::with_output(params, prompt, &[])
    }

    /// A sampler for a request that already produced `output` (rebuilt after a restart):
    /// penalties count `output` and, with a fixed seed, the random stream continues at
    /// position `output.len()` exactly as if the tokens had been sampled here.
    pub fn with_output(params: &SamplingParams, prompt: &[u32], output: &[u32]) -> Self {
        let seed = params.seed.unwrap_or_else(random_seed);
        let mut s = Self {
            temperature: params.temperature,
            greedy: params.temperature < GREEDY_TEMPERATURE || params.top_k == 1,
            top_k: params.top_k as usize,
            top_p: params.top_p,
            min_p: params.min_p,
            repetition_penalty: params.repetition_penalty,
            frequency_penalty: params.frequency_penalty,
            presence_penalty: params.presence_penalty,
            n_top: params.logprobs.unwrap_or(0) as usize,
            given: params.token_ids_logprob.clone(),
            logprobs: params.logprobs.is_some(),
            logit_bias: merged_bias(&params.logit_bias),
            seed,
            rng: TokenRng::new(seed),
            steps: 0,
            seen: Vec::new(),
            counts: Vec::new(),
            weights: Vec::new(),
            chunk_sums: Vec::new(),
            keys: Vec::new(),
            held_stops: Vec::new(),
            min_new_tokens: params.min_new_tokens,
            produced: 0,
        };
        if s.repetition_penalty != 1.0 {
            s.seen = prompt.to_vec();
            s.seen.sort_unstable();
            s.seen.dedup();
        }
        for &t in output {
            s.record(t);
        }
        s
    }

    /// Masks `stop_ids` (the request's end-of-sequence and stop tokens) out of the
    /// sampling until `min_new_tokens` tokens were produced.
    pub fn hold_stops(mut self, mut stop_ids: Vec<u32>) -> Self {
        stop_ids.sort_unstable();
        stop_ids.dedup();
        self.held_stops = stop_ids;
        self
    }

    /// The seed in use (drawn at construction when the request gave none).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Tokens sampled (or replayed through [`Sampler::with_output`]) so far.
    pub fn num_sampled(&self) -> u64 {
        self.steps
    }

    /// Picks the next token from one row of logits and records it in the output history.
    /// `logits` is scratch afterwards (penalized, scaled, sanitized in place). NaN logits
    /// count as impossible tokens; an empty row yields token 0 with logprob -inf.
    pub fn sample(&mut self, logits: &mut [f32]) -> SampleOutput {
        if logits.is_empty() {
            return SampleOutput {
                token: 0,
                logprob: f32::NEG_INFINITY,
                top: Vec::new(),
                given: Vec::new(),
            };
        }
        let p = self.process(logits);
        let at = match p.support {
            Support::Greedy(at) => at,
            Support::List { len, total } => {
                let target = self.rng.uniform(self.steps) * total;
                let keys = self.keys.get(..len).unwrap_or_default();
                let w = &self.weights;
                let ws = keys.iter().map(|&k| f64::from(weight(w, math::key_id(k))));
                keys.get(pick(ws, target))
                    .map_or(0, |&k| math::key_id(k) as usize)
            }
            Support::Dense { total } => {
                let target = self.rng.uniform(self.steps) * total;
                self.pick_dense(target)
            }
        };
        let logprob = logits.get(at).map_or(f32::NEG_INFINITY, |&x| p.logprob(x));
        let top = math::top_n(logits, self.n_top)
            .into_iter()
            .map(|i| {
                (
                    i,
                    p.logprob(logits.get(i as usize).copied().unwrap_or(f32::MIN)),
                )
            })
            .collect();
        let given = (self.given.iter())
            .map(|&i| {
                let x = logits.get(i as usize).copied().unwrap_or(f32::MIN);
                (i, p.logprob(x))
            })
            .collect();
        let token = at as u32;
        self.record(token);
        SampleOutput {
            token,
            logprob,
            top,
            given,
        }
    }

    /// The distribution [`Sampler::sample`] would draw from for these logits, after all
    /// penalties and cuts, renormalized: `(id, probability)`, most likely first, zero-weight
    /// tokens omitted. Does not draw or record anything. Meant for tests and debugging.
    pub fn distribution(&mut self, logits: &mut [f32]) -> Vec<(u32, f32)> {
        if logits.is_empty() {
            return Vec::new();
        }
        let mut out: Vec<(u32, f32)> = match self.process(logits).support {
            Support::Greedy(at) => vec![(at as u32, 1.0)],
            Support::List { len, total } => self
                .keys
                .get(..len)
                .unwrap_or_default()
                .iter()
                .map(|&k| math::key_id(k))
                .map(|i| (i, (f64::from(weight(&self.weights, i)) / total) as f32))
                .collect(),
            Support::Dense { total } => (0u32..)
                .zip(&self.weights)
                .map(|(i, &w)| (i, (f64::from(w) / total) as f32))
                .collect(),
        };
        out.retain(|&(_, p)| p > 0.0);
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        out
    }

    /// Adds a token the sampler did not pick (one a grammar forced) to the penalties' history;
    /// the random stream does not move.
    pub fn observe(&mut self, token: u32) {
        self.produced = self.produced.saturating_add(1);
        if self.repetition_penalty != 1.0 {
            self.mark_seen(token);
        }
        if self.frequency_penalty != 0.0 || self.presence_penalty != 0.0 {
            match self.counts.binary_search_by_key(&token, |&(t, _)| t) {
                Ok(at) => self.counts[at].1 = self.counts[at].1.saturating_add(1),
                Err(at) => self.counts.insert(at, (token, 1)),
            }
        }
    }

    /// Applies the repetition, frequency and presence penalties for the history so far,
    /// then the request's logit bias. Ids outside `logits` are ignored.
    pub fn apply_penalties(&self, logits: &mut [f32]) {
        self.apply_history_penalties(logits);
        for &(t, bias) in &self.logit_bias {
            if let Some(x) = logits.get_mut(t as usize) {
                *x += bias;
            }
        }
        if self.produced < self.min_new_tokens {
            for &t in &self.held_stops {
                if let Some(x) = logits.get_mut(t as usize) {
                    *x = f32::NEG_INFINITY;
                }
            }
        }
    }

    fn apply_history_penalties(&self, logits: &mut [f32]) {
        let rep = self.repetition_penalty;
        if rep != 1.0 {
            for &t in &self.seen {
                if let Some(x) = logits.get_mut(t as usize) {
                    *x = if *x > 0.0 { *x / rep } else { *x * rep };
                }
            }
        }
        let (freq, pres) = (self.frequency_penalty, self.presence_penalty);
        if freq != 0.0 || pres != 0.0 {
            // Every stored count is at least 1, so presence always applies here.
            for &(t, c) in &self.counts {
                if let Some(x) = logits.get_mut(t as usize) {
                    *x -= freq * c as f32 + pres;
                }
            }
        }
    }

    fn record(&mut self, token: u32) {
        self.observe(token);
        self.steps += 1;
    }

    fn mark_seen(&mut self, token: u32) {
        if let Err(at) = self.seen.binary_search(&token) {
            self.seen.insert(at, token);
        }
    }

    /// Penalties, temperature and the cuts; leaves candidates in `keys` / `weights`.
    fn process(&mut self, logits: &mut [f32]) -> Processed {
        self.apply_penalties(logits);
        if self.greedy {
            let (at, max) = math::sanitize_argmax(logits);
            let scale = if self.temperature >= GREEDY_TEMPERATURE {
                1.0 / self.temperature
            } else {
                1.0
            };
            // The normalizer only serves log-probabilities: a vocabulary-wide exp per token.
            let ln_z = if self.logprobs || !self.given.is_empty() {
                math::sum_exp(logits, max, scale).ln()
            } else {
                f64::NAN
            };
            return Processed {
                support: Support::Greedy(at),
                max,
                scale,
                ln_z,
            };
        }
        let max = math::scale_sanitize_max(logits, 1.0 / self.temperature);
        // The max term contributes exactly 1, so z >= 1 and ln z is finite.
        let z = math::exp_weights(logits, max, &mut self.weights, &mut self.chunk_sums);
        let vocab = logits.len();
        let support = if self.top_k > 0 && self.top_k < vocab {
            self.cut_top_k(logits)
        } else if self.top_p < 1.0 {
            self.cut_nucleus(logits, z)
        } else {
            self.cut_min_p_dense(z)
        };
        Processed {
            support,
            max,
            scale: 1.0,
            ln_z: z.ln(),
        }
    }

    /// Top-k by a one-pass selection, then top-p over the k survivors' renormalized mass,
    /// then min-p.
    fn cut_top_k(&mut self, logits: &[f32]) -> Support {
        math::top_k_keys(logits, self.top_k, &mut self.keys);
        if self.top_p < 1.0 {
            let target = f64::from(self.top_p) * mass(&self.keys, &self.weights);
            let len = nucleus_len(&mut self.keys, &self.weights, target);
            self.keys.truncate(len);
        }
        self.finish_list()
    }

    /// Nucleus without top-k. Peaked distributions end within the best few dozen tokens,
    /// found in one pass; otherwise every candidate passing min-p enters a weighted
    /// quickselect. Neither path sorts more than a few dozen keys.
    fn cut_nucleus(&mut self, logits: &[f32], z: f64) -> Support {
        let target = f64::from(self.top_p) * z;
        math::top_k_keys(logits, NUCLEUS_FIRST, &mut self.keys);
        if mass(&self.keys, &self.weights) < target {
            let min_w = self.min_p;
            // Branch-free compaction: write every key, advance only past the kept ones.
            self.keys.clear();
            self.keys.resize(logits.len(), 0);
            let mut len = 0;
            for (i, (&x, &w)) in (0u32..).zip(logits.iter().zip(&self.weights)) {
                if let Some(slot) = self.keys.get_mut(len) {
                    *slot = math::order_key(x, i);
                }
                len += usize::from(w > 0.0 && w >= min_w);
            }
            self.keys.truncate(len);
        }
        let len = nucleus_len(&mut self.keys, &self.weights, target);
        self.keys.truncate(len);
        self.finish_list()
    }

    /// Applies min-p to the candidate list. Weights are relative to the most likely token,
    /// which every list contains with weight exactly 1, so the threshold is `min_p` itself.
    fn finish_list(&mut self) -> Support {
        let min_w = self.min_p;
        if min_w > 0.0 {
            let w = &self.weights;
            self.keys.retain(|&k| weight(w, math::key_id(k)) >= min_w);
        }
        Support::List {
            len: self.keys.len(),
            total: mass(&self.keys, &self.weights),
        }
    }

    /// No top-k and no top-p: min-p zeroes weights in place, no sorting at all.
    fn cut_min_p_dense(&mut self, z: f64) -> Support {
        if self.min_p <= 0.0 {
            return Support::Dense { total: z };
        }
        let min_w = self.min_p;
        // An unconditional store keeps this loop vectorized.
        for w in &mut self.weights {
            *w = if *w < min_w { 0.0 } else { *w };
        }
        let total = math::refresh_chunk_sums(&self.weights, &mut self.chunk_sums);
        Support::Dense { total }
    }

    /// Inverse CDF over the whole vocabulary: find the chunk by its sum, then scan it.
    fn pick_dense(&self, target: f64) -> usize {
        let chunk = pick(self.chunk_sums.iter().copied(), target);
        let before: f64 = self.chunk_sums.iter().take(chunk).sum();
        let start = chunk * math::CHUNK;
        let end = (start + math::CHUNK).min(self.weights.len());
        let ws = self.weights.get(start..end).unwrap_or_default();
        start + pick(ws.iter().map(|&w| f64::from(w)), target - before)
    }
}

/// One entry per token, by id: a token named twice gets the sum of its biases (summed in
/// the order given, added once), so every sampler applies the same single bias per token.
fn merged_bias(bias: &[(u32, f32)]) -> Vec<(u32, f32)> {
    let mut merged: Vec<(u32, f32)> = Vec::with_capacity(bias.len());
    for &(t, b) in bias {
        match merged.iter_mut().find(|(id, _)| *id == t) {
            Some(entry) => entry.1 += b,
            None => merged.push((t, b)),
        }
    }
    merged.sort_unstable_by_key(|&(t, _)| t);
    merged
}

fn weight(weights: &[f32], id: u32) -> f32 {
    weights.get(id as usize).copied().unwrap_or(0.0)
}

fn mass(keys: &[u64], weights: &[f32]) -> f64 {
    // Four independent sums: the adds would otherwise serialize on their latency.
    let mut acc = [0.0f64; 4];
    let mut it = keys.chunks_exact(4);
    for c in &mut it {
        for (a, &k) in acc.iter_mut().zip(c) {
            *a += f64::from(weight(weights, math::key_id(k)));
        }
    }
    let rest: f64 = it
        .remainder()
        .iter()
        .map(|&k| f64::from(weight(weights, math::key_id(k))))
        .sum();
    acc.iter().sum::<f64>() + rest
}

/// Reorders `keys` so that its first L entries are the L most likely tokens, for the
/// smallest L whose weights sum to at least `target` (all of them if none does), and
/// returns L. A quickselect on mass rather than rank: each round partitions the undecided
/// range around a median-of-three pivot, summing the better side as it goes, and keeps only
/// the side holding the boundary. Expected linear time; only the last few keys get sorted.
fn nucleus_len(keys: &mut [u64], weights: &[f32], target: f64) -> usize {
    const SORT_BELOW: usize = 32;
    let w = |k: u64| f64::from(weight(weights, math::key_id(k)));
    // keys[..lo] are certainly in, with mass `acc` < target; the boundary is in (lo, hi].
    let (mut lo, mut hi) = (0usize, keys.len());
    let mut acc = 0.0f64;
    while let Some(range) = keys.get_mut(lo..hi) {
        let n = range.len();
        if n <= SORT_BELOW {
            range.sort_unstable();
            for (j, &k) in range.iter().enumerate() {
                acc += w(k);
                if acc >= target {
                    return lo + j + 1;
                }
            }
            return hi;
        }
        let (a, b, c) = (range[0], range[n / 2], range[n - 1]);
        // Keys are distinct, so one of the three is below the median: progress is certain.
        let pivot = a.max(b).min(a.min(b).max(c));
        // Branch-free Lomuto partition (the comparison is a coin flip for the predictor):
        // always swap, advance only past keys better than the pivot.
        let mut better = 0;
        for j in 0..n {
            let k = range[j];
            range.swap(better, j);
            better += usize::from(k < pivot);
        }
        let better_mass = mass(range.get(..better).unwrap_or_default(), weights);
        if acc + better_mass >= target {
            hi = lo + better;
        } else {
            acc += better_mass;
            lo += better;
        }
    }
    hi
}

/// Index of the first weight whose running sum exceeds `target`; if rounding leaves the
/// target beyond the sum, the last index with positive weight.
fn pick(weights: impl Iterator<Item = f64>, target: f64) -> usize {
    let mut acc = 0.0f64;
    let mut last = 0;
    for (i, w) in weights.enumerate() {
        if w > 0.0 {
            acc += w;
            last = i;
            if acc > target {
                return i;
            }
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> SamplingParams {
        SamplingParams {
            seed: Some(1),
            ..SamplingParams::default()
        }
    }

    #[test]
    fn stop_tokens_are_held_back_until_the_minimum() {
        let p = SamplingParams {
            temperature: 0.0,
            min_new_tokens: 2,
            ..params()
        };
        let mut sampler = Sampler::new(&p, &[]).hold_stops(vec![2, 5]);
        // Token 2 is by far the most likely, then 5, then 1.
        let row = || vec![0.0, 3.0, 9.0, 0.0, 0.0, 6.0];
        assert_eq!(sampler.sample(&mut row()).token, 1);
        // A token a grammar forced counts towards the minimum too.
        sampler.observe(4);
        assert_eq!(sampler.sample(&mut row()).token, 2);
        // Seeded sampling draws from the same rows without the held tokens.
        let hot = SamplingParams {
            temperature: 1.0,
            min_new_tokens: 50,
            ..params()
        };
        let mut sampler = Sampler::new(&hot, &[]).hold_stops(vec![2, 5]);
        for _ in 0..50 {
            let token = sampler.sample(&mut row()).token;
            assert!(token != 2 && token != 5, "{token}");
        }
    }

    #[test]
    fn penalties_follow_the_formulas() {
        let p = SamplingParams {
            repetition_penalty: 2.0,
            frequency_penalty: 0.5,
            presence_penalty: 0.25,
            ..params()
        };
        // Prompt ids repeat and include one outside the row: each applies once, the
        // outsider is ignored.
        let s = Sampler::with_output(&p, &[1, 2, 1, 99], &[2, 3, 3]);
        let mut logits = [1.0, 2.0, -1.0, 4.0, 3.0];
        s.apply_penalties(&mut logits);
        // 1: 2/2; 2: -1*2 - 0.5*1 - 0.25; 3: 4/2 - 0.5*2 - 0.25.
        assert_eq!(logits, [1.0, 1.0, -2.75, 0.75, 3.0]);
    }

    #[test]
    fn sampled_tokens_feed_the_penalties() {
        let p = SamplingParams {
            temperature: 0.0,
            frequency_penalty: 0.2,
            ..params()
        };
        let mut s = Sampler::new(&p, &[]);
        let picks: Vec<u32> = (0..4).map(|_| s.sample(&mut [1.0, 0.9]).token).collect();
        // 1.0 vs 0.9 -> 0; 0.8 vs 0.9 -> 1; 0.8 vs 0.7 -> 0; 0.6 vs 0.7 -> 1.
        assert_eq!(picks, [0, 1, 0, 1]);
        assert_eq!(s.num_sampled(), 4);
    }

    #[test]
    fn greedy_ties_and_nan() {
        let p = SamplingParams {
            logprobs: Some(0),
            ..SamplingParams::greedy(8)
        };
        let mut s = Sampler::new(&p, &[]);
        assert_eq!(s.sample(&mut [f32::NAN, 3.0, 1.0, 3.0]).token, 1);
        let out = s.sample(&mut [f32::NAN, f32::NAN, 0.0]);
        assert_eq!(out.token, 2);
        assert_eq!(out.logprob, 0.0);
        // Without log-probabilities asked for, no softmax is computed.
        let mut s = Sampler::new(&SamplingParams::greedy(8), &[]);
        let out = s.sample(&mut [0.0, 5.0, 1.0]);
        assert_eq!(out.token, 1);
        assert!(out.logprob.is_nan());
    }

    #[test]
    fn degenerate_rows_do_not_panic() {
        for p in [SamplingParams::greedy(8), params()] {
            let mut s = Sampler::new(&p, &[]);
            let out = s.sample(&mut [f32::NEG_INFINITY; 5]);
            assert!(out.token < 5);
            let out = s.sample(&mut [f32::INFINITY, 0.0, f32::INFINITY]);
            assert_eq!(out.token % 2, 0);
            assert_eq!(s.sample(&mut []).logprob, f32::NEG_INFINITY);
        }
    }

    #[test]
    fn resumed_sampler_continues_the_stream() {
        let row: Vec<f32> = (0..300).map(|i| ((i * 7919) % 113) as f32 / 40.0).collect();
        let p = SamplingParams {
            seed: Some(99),
            presence_penalty: 0.3,
            ..SamplingParams::default()
        };
        let mut a = Sampler::new(&p, &[5, 6]);
        let first: Vec<u32> = (0..8).map(|_| a.sample(&mut row.clone()).token).collect();
        let mut b = Sampler::with_output(&p, &[5, 6], &first[..5]);
        let rest: Vec<u32> = (0..3).map(|_| b.sample(&mut row.clone()).token).collect();
        assert_eq!(rest, first[5..]);
    }

    #[test]
    fn top_k_at_least_vocab_is_no_cut() {
        let row = [0.1f32, 0.5, 0.2];
        let mut full = Sampler::new(&params(), &[]);
        let p = SamplingParams {
            top_k: 3,
            ..params()
        };
        let mut k3 = Sampler::new(&p, &[]);
        assert_eq!(
            full.distribution(&mut row.clone()),
            k3.distribution(&mut row.clone())
        );
        assert_eq!(full.distribution(&mut row.clone()).len(), 3);
    }

    #[test]
    fn random_seed_is_reported() {
        let s = Sampler::new(&SamplingParams::default(), &[]);
        let t = Sampler::new(&SamplingParams::default(), &[]);
        assert_ne!(s.seed(), t.seed());
        assert_eq!(Sampler::new(&params(), &[]).seed(), 1);
    }
}
