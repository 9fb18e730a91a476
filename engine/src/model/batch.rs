//! The batch a forward pass consumes, in FlashInfer/SGLang layout: one row per token being
//! computed (several per request in extend, one in decode), CSR ranges per request.

use pools::SlotId;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ForwardBatch {
    /// Token ids being computed, requests back to back.
    pub input_ids: Vec<u32>,
    /// Position of each token in its request.
    pub positions: Vec<u32>,
    /// KV slot each token's K/V is written to.
    pub out_cache_loc: Vec<SlotId>,
    /// `[requests + 1]`: request `b` computes tokens `q_indptr[b]..q_indptr[b+1]`.
    pub q_indptr: Vec<u32>,
    /// `[requests + 1]`: request `b` attends to `kv_indices[kv_indptr[b]..kv_indptr[b+1]]`
    /// (its cached prefix and the new tokens, in position order).
    pub kv_indptr: Vec<u32>,
    pub kv_indices: Vec<SlotId>,
    /// Token rows whose logits are wanted (usually each request's last token).
    pub logits_rows: Vec<u32>,
}

impl ForwardBatch {
    pub fn num_tokens(&self) -> usize {
        self.input_ids.len()
    }

    pub fn num_requests(&self) -> usize {
        self.q_indptr.len().saturating_sub(1)
    }

    pub fn clear(&mut self) {
        self.input_ids.clear();
        self.positions.clear();
        self.out_cache_loc.clear();
        self.q_indptr.clear();
        self.kv_indptr.clear();
        self.kv_indices.clear();
        self.logits_rows.clear();
    }

    /// Appends one request: `new_ids` computed at positions `start..`, writing K/V at
    /// `out_cache_loc`, attending to `kv_slots` (all of the request's slots, new ones last).
    /// With `want_logits` the last new token's logits are produced.
    pub fn push_request(
        &mut self,
        new_ids: &[u32],
        start: u32,
        out_cache_loc: &[SlotId],
        kv_slots: &[SlotId],
        want_logits: bool,
    ) {
        if self.q_indptr.is_empty() {
            self.q_indptr.push(0);
            self.kv_indptr.push(0);
        }
        self.input_ids.extend_from_slice(new_ids);
        self.positions.extend(start..start + new_ids.len() as u32);
        self.out_cache_loc.extend_from_slice(out_cache_loc);
        self.q_indptr.push(self.input_ids.len() as u32);
        self.kv_indices.extend_from_slice(kv_slots);
        self.kv_indptr.push(self.kv_indices.len() as u32);
        if want_logits && !new_ids.is_empty() {
            self.logits_rows.push(self.input_ids.len() as u32 - 1);
        }
    }
}
