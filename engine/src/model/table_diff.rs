//! Which `req_to_token` entries a batch changes: the per-step update of a runner that keeps a
//! copy of the table (the GPU runner's device mirror). Compiled and tested on every build.

use super::ForwardBatch;
use pools::SlotId;

/// Appends to `cells` / `slots` every entry where `batch`'s slots for a request differ from
/// `table` (row `req_pool_indices[b]`, columns `0..kv_len`). Applying them (with
/// `kernels::kv_indices::write_req_to_token`) makes those rows equal the batch. The batch
/// must fit the table (validated by the caller).
pub fn req_to_token_updates(
    table: &[SlotId],
    row_stride: usize,
    batch: &ForwardBatch,
    cells: &mut Vec<u64>,
    slots: &mut Vec<SlotId>,
) {
    for (b, &row) in batch.req_pool_indices.iter().enumerate() {
        let (lo, hi) = (batch.kv_indptr[b] as usize, batch.kv_indptr[b + 1] as usize);
        let base = row as usize * row_stride;
        let want = &batch.kv_indices[lo..hi];
        let have = &table[base..base + want.len()];
        for (col, (&w, &h)) in want.iter().zip(have).enumerate() {
            if w != h {
                cells.push((base + col) as u64);
                slots.push(w);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernels::kv_indices::write_req_to_token;

    fn apply(table: &mut [SlotId], stride: usize, batch: &ForwardBatch) -> usize {
        let (mut cells, mut slots) = (Vec::new(), Vec::new());
        req_to_token_updates(table, stride, batch, &mut cells, &mut slots);
        write_req_to_token(table, &cells, &slots).unwrap();
        cells.len()
    }

    #[test]
    fn a_new_row_is_sent_whole_a_decode_step_one_entry_a_reused_row_only_its_changes() {
        let stride = 16;
        let mut table = vec![0; 4 * stride];
        // Two new requests: rows 2 and 0.
        let mut batch = ForwardBatch::default();
        batch.push_request(2, &[1, 2, 3], 0, &[5, 6, 7], &[5, 6, 7], true);
        batch.push_request(0, &[4, 5], 0, &[8, 9], &[8, 9], true);
        assert_eq!(apply(&mut table, stride, &batch), 5);
        assert_eq!(&table[2 * stride..2 * stride + 3], [5, 6, 7]);
        assert_eq!(&table[..2], [8, 9]);
        // A decode step: one new slot per request.
        batch.clear();
        batch.push_request(2, &[9], 3, &[10], &[5, 6, 7, 10], true);
        batch.push_request(0, &[9], 2, &[11], &[8, 9, 11], true);
        assert_eq!(apply(&mut table, stride, &batch), 2);
        assert_eq!(&table[2 * stride..2 * stride + 4], [5, 6, 7, 10]);
        // Row 2 reused by a request sharing the first two cached slots of the previous one.
        batch.clear();
        batch.push_request(2, &[3, 3], 2, &[20, 21], &[5, 6, 20, 21], true);
        assert_eq!(apply(&mut table, stride, &batch), 2);
        assert_eq!(&table[2 * stride..2 * stride + 4], [5, 6, 20, 21]);
        // Nothing changed: nothing sent.
        assert_eq!(apply(&mut table, stride, &batch), 0);
        // Rows not in the batch are untouched.
        assert_eq!(&table[stride..2 * stride], [0; 16]);
    }
}
