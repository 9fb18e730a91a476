//! What one running request contributes to a step's batch.

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
