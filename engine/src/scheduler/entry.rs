//! What one running request contributes to a step's batch, and the budgets the step's
//! entries share while they are planned.

/// One running request's part of the batch.
pub(super) struct Entry {
    /// Index into `running`.
    pub(super) index: usize,
    /// Position of the first token computed this step (the request's K/V length before).
    pub(super) start: usize,
    /// Tokens computed this step.
    pub(super) tokens: usize,
    /// Whether this finishes the request's pending tokens, so its logits are sampled.
    pub(super) samples: bool,
    /// Whether this finishes an embedding request's prompt, so its last token's hidden
    /// state is its embedding (it samples nothing).
    pub(super) embeds: bool,
    /// Whether this finishes a request that ends with its prompt (an embedding, or prompt
    /// scores without output): it samples nothing and is done.
    pub(super) ends: bool,
    /// Prompt scores this entry's rows give (`score_rows` follow the entries), from this
    /// prompt position on.
    pub(super) scores: usize,
    pub(super) score_from: usize,
    /// A decode's speculative draft, computed after its pending token (logits of every
    /// position are sampled in turn while the draft matches).
    pub(super) draft: Vec<u32>,
    /// Overlap scheduling: a decode whose input is the token the previous batch, launched
    /// and not yet collected, samples for it (resolved at launch).
    pub(super) future: bool,
}

impl Entry {
    /// A plain decode or a speculative one: its tokens count as generated, not prefill.
    pub(super) fn decodes(&self) -> bool {
        self.samples && self.tokens == 1 + self.draft.len()
    }
}

/// Prompt tokens one step scores at most, over all requests: each is a logits row of the
/// whole vocabulary that the runner holds at once (the GPU runner copies them back).
pub(super) const MAX_SCORE_ROWS_PER_STEP: usize = 512;

/// What the entries of a step share while `prepare_for_extend` plans them one by one.
pub(super) struct ExtendPlan {
    /// Prompt tokens the step may still take.
    pub(super) prefill_budget: usize,
    /// Prompt tokens the step may still score (see [`MAX_SCORE_ROWS_PER_STEP`]).
    pub(super) score_rows: usize,
    /// Free slots the decodes still to be planned need (only counted when speculating).
    pub(super) decode_slots: usize,
    /// Overlap scheduling: decodes may take the token still being sampled as their input.
    pub(super) overlap: bool,
    /// Speculative decoding is on for this step.
    pub(super) speculate: bool,
    /// Decodes may draft in this pass.
    pub(super) drafts: bool,
}
