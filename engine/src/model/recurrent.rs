//! The state a model with recurrent layers (Qwen3.5's delta nets, LFM2's short convolutions)
//! carries per request, by `req_to_token` row: unlike K/V, it cannot be rebuilt from the slots
//! of a cached prefix, so a request's first pass starts it from zero at position 0 and every
//! later pass must resume exactly where the last one stopped; a batch that breaks that is
//! refused rather than computed from the wrong state. Snapshots (copies of a row's state at a
//! known length) let a later request resume on another row: the scheduler saves one when a
//! request ends and restores it for a request whose prompt continues those tokens, beside the
//! tree's K/V of them (`scheduler::state_cache`).

use super::{ForwardBatch, ModelError};
use crate::gguf::keys::Keys;
use kernels::delta_net::DeltaShape;

/// A recurrent layer's size under `key`: required, positive and at most `max` (far above any
/// real model's, so a hostile file is refused before allocation).
pub fn required_size(keys: &Keys<'_>, key: &str, max: usize) -> Result<usize, ModelError> {
    let value = keys.required_usize(key)?;
    keys.positive(key, value)?;
    keys.at_most(key, value, max)?;
    Ok(value)
}

/// Refuses a recurrent layer's weights `parts` if one holds a value that is not finite: it
/// would poison every request's state for good.
pub fn all_finite(parts: &[&[f32]], what: &str) -> Result<(), ModelError> {
    match parts.iter().any(|p| p.iter().any(|x| !x.is_finite())) {
        true => Err(ModelError::Shape(format!(
            "{what} holds a value that is not finite"
        ))),
        false => Ok(()),
    }
}

/// The floats one request's state takes in one recurrent layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateShape {
    /// The convolution's last inputs.
    pub conv: usize,
    /// The recurrence's own state (none for a short convolution).
    pub ssm: usize,
}

impl StateShape {
    pub fn delta(shape: &DeltaShape) -> Self {
        Self {
            conv: shape.conv_state_len(),
            ssm: shape.ssm_state_len(),
        }
    }
}

/// A batch's convolution states and delta-rule states of one layer, in request order.
pub type LayerStates<'a> = (Vec<&'a mut [f32]>, Vec<&'a mut [f32]>);

/// One row's states, one entry per recurrent layer.
#[derive(Clone)]
struct RowState {
    /// Tokens the state has absorbed; `None` while a pass is updating it (a failed pass
    /// leaves it unusable until the row starts over).
    absorbed: Option<u32>,
    conv: Vec<Vec<f32>>,
    ssm: Vec<Vec<f32>>,
}

/// Every row's recurrent states, allocated when a row is first used, and copies of some
/// (snapshots) that later requests resume from.
#[derive(Default)]
pub struct RecurrentStates {
    shapes: Vec<StateShape>,
    rows: Vec<Option<RowState>>,
    snapshots: std::collections::HashMap<u64, RowState>,
    next_snapshot: u64,
}

impl RecurrentStates {
    /// States for layers of `shapes` (the model's recurrent layers, in order).
    pub fn new(shapes: Vec<StateShape>) -> Self {
        Self {
            shapes,
            ..Self::default()
        }
    }

    /// Copies row `row`'s states, which must hold exactly `len` tokens; returns the copy's id.
    pub fn snapshot(&mut self, row: u32, len: u32) -> Result<u64, ModelError> {
        let state = self.rows.get(row as usize).and_then(Option::as_ref);
        let Some(state) = state.filter(|s| s.absorbed == Some(len)) else {
            return Err(ModelError::Batch(format!(
                "row {row}'s recurrent state does not hold {len} tokens"
            )));
        };
        let id = self.next_snapshot;
        self.next_snapshot += 1;
        self.snapshots.insert(id, state.clone());
        Ok(id)
    }

    /// Puts snapshot `id`'s states in row `row` (the snapshot stays).
    pub fn restore(&mut self, id: u64, row: u32) -> Result<(), ModelError> {
        let snapshot = (self.snapshots.get(&id))
            .ok_or_else(|| ModelError::Batch(format!("no recurrent snapshot {id}")))?;
        let row = row as usize;
        if self.rows.len() <= row {
            self.rows.resize_with(row + 1, || None);
        }
        match &mut self.rows[row] {
            Some(state) => state.clone_from(snapshot),
            slot => *slot = Some(snapshot.clone()),
        }
        Ok(())
    }

    pub fn drop_snapshot(&mut self, id: u64) {
        self.snapshots.remove(&id);
    }

    /// Bytes one request's states take.
    pub fn bytes_per_request(&self) -> usize {
        let floats: usize = (self.shapes.iter()).map(|s| s.conv + s.ssm).sum();
        floats * std::mem::size_of::<f32>()
    }

    /// Checks that each request of `batch` resumes its row's state where it stopped (or
    /// starts at position 0, which clears it) and marks the rows as being updated.
    pub fn begin(&mut self, batch: &ForwardBatch) -> Result<(), ModelError> {
        if self.shapes.is_empty() {
            return Ok(());
        }
        // Every request is checked before any state changes: a refused batch changes none.
        let mut seen = std::collections::HashSet::new();
        for (b, &row) in batch.req_pool_indices.iter().enumerate() {
            if !seen.insert(row) {
                return Err(ModelError::Batch(format!(
                    "row {row} appears twice in one batch of a recurrent model"
                )));
            }
            let (start, n) = request_span(batch, b);
            if n == 0 || start == 0 {
                continue;
            }
            let absorbed = self
                .rows
                .get(row as usize)
                .and_then(|r| r.as_ref()?.absorbed);
            if absorbed != Some(start) {
                return Err(ModelError::Batch(format!(
                    "row {row} resumes at position {start}, but its recurrent state holds {}",
                    absorbed.map_or("nothing usable".into(), |a| format!("{a} tokens"))
                )));
            }
        }
        for (b, &row) in batch.req_pool_indices.iter().enumerate() {
            let (start, n) = request_span(batch, b);
            if n == 0 {
                continue;
            }
            if start == 0 {
                self.clear(row as usize);
            }
            if let Some(Some(state)) = self.rows.get_mut(row as usize) {
                state.absorbed = None;
            }
        }
        Ok(())
    }

    /// Marks each request's state as holding its tokens up to the end of `batch`.
    pub fn finish(&mut self, batch: &ForwardBatch) {
        for (b, &row) in batch.req_pool_indices.iter().enumerate() {
            let (start, n) = request_span(batch, b);
            if n == 0 {
                continue;
            }
            if let Some(Some(state)) = self.rows.get_mut(row as usize) {
                state.absorbed = Some(start + n);
            }
        }
    }

    /// Recurrent layer `layer`'s convolution and delta-rule states of `rows`, in order (each
    /// row once, made ready by [`Self::begin`]).
    pub fn layer(&mut self, layer: usize, rows: &[u32]) -> Result<LayerStates<'_>, ModelError> {
        let mut by_row: Vec<Option<&mut RowState>> =
            self.rows.iter_mut().map(Option::as_mut).collect();
        let mut conv = Vec::with_capacity(rows.len());
        let mut ssm = Vec::with_capacity(rows.len());
        for &row in rows {
            let state = by_row
                .get_mut(row as usize)
                .and_then(Option::take)
                .ok_or_else(|| ModelError::Batch(format!("row {row} has no recurrent state")))?;
            let (c, s) = (state.conv.get_mut(layer), state.ssm.get_mut(layer));
            let (Some(c), Some(s)) = (c, s) else {
                return Err(ModelError::Batch(format!("no recurrent layer {layer}")));
            };
            conv.push(c.as_mut_slice());
            ssm.push(s.as_mut_slice());
        }
        Ok((conv, ssm))
    }

    fn clear(&mut self, row: usize) {
        if self.rows.len() <= row {
            self.rows.resize_with(row + 1, || None);
        }
        let shapes = &self.shapes;
        let state = self.rows[row].get_or_insert_with(|| RowState {
            absorbed: None,
            conv: shapes.iter().map(|s| vec![0.0; s.conv]).collect(),
            ssm: shapes.iter().map(|s| vec![0.0; s.ssm]).collect(),
        });
        state.conv.iter_mut().flatten().for_each(|x| *x = 0.0);
        state.ssm.iter_mut().flatten().for_each(|x| *x = 0.0);
        state.absorbed = Some(0);
    }
}

/// Request `b`'s first position and token count in `batch`.
fn request_span(batch: &ForwardBatch, b: usize) -> (u32, u32) {
    let (first, end) = (batch.q_indptr[b] as usize, batch.q_indptr[b + 1] as usize);
    let start = batch.positions.get(first).copied().unwrap_or(0);
    (start, (end - first) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn states() -> RecurrentStates {
        RecurrentStates::new(vec![StateShape::delta(&DeltaShape {
            key_heads: 1,
            value_heads: 2,
            head_dim: 2,
            conv_kernel: 3,
            grouped_values: false,
        })])
    }

    fn batch(requests: &[(u32, u32, usize)]) -> ForwardBatch {
        let mut b = ForwardBatch::default();
        for &(row, start, n) in requests {
            let ids = vec![1; n];
            b.push_request(
                row,
                &ids,
                start,
                &vec![0; n],
                &vec![0; start as usize + n],
                true,
            );
        }
        b
    }

    #[test]
    fn a_request_resumes_only_where_its_state_stopped() {
        let mut s = states();
        // (2 conv taps of 2*2+4 channels + 2 heads of 2x2) floats.
        assert_eq!(s.bytes_per_request(), (2 * 8 + 8) * 4);
        let first = batch(&[(3, 0, 5)]);
        s.begin(&first).unwrap();
        s.finish(&first);
        s.begin(&batch(&[(3, 5, 1)])).unwrap();
        s.finish(&batch(&[(3, 5, 1)]));
        let err = s.begin(&batch(&[(3, 4, 1)])).unwrap_err().to_string();
        assert!(
            err.contains("resumes at position 4") && err.contains("6 tokens"),
            "{err}"
        );
        // A row never started, and a row twice in a batch.
        assert!(s.begin(&batch(&[(1, 2, 1)])).is_err());
        assert!(s.begin(&batch(&[(0, 0, 1), (0, 0, 1)])).is_err());
        // A refused batch changes no state, not even of its requests that were fine.
        assert!(s.begin(&batch(&[(3, 6, 1), (1, 2, 1)])).is_err());
        s.begin(&batch(&[(3, 6, 1)])).unwrap();
    }

    #[test]
    fn a_snapshot_resumes_another_row_where_its_row_stopped() {
        let mut s = states();
        let first = batch(&[(0, 0, 3)]);
        s.begin(&first).unwrap();
        s.finish(&first);
        s.layer(0, &[0]).unwrap().1[0][1] = 5.0;
        assert!(s.snapshot(0, 2).is_err());
        let id = s.snapshot(0, 3).unwrap();
        // Row 0 goes on; row 2 resumes from the copy at position 3, not before.
        s.begin(&batch(&[(0, 3, 1)])).unwrap();
        s.layer(0, &[0]).unwrap().1[0][1] = 7.0;
        s.restore(id, 2).unwrap();
        assert!(s.begin(&batch(&[(2, 2, 1)])).is_err());
        s.restore(id, 2).unwrap();
        s.begin(&batch(&[(2, 3, 1)])).unwrap();
        assert_eq!(s.layer(0, &[2]).unwrap().1[0][1], 5.0);
        s.drop_snapshot(id);
        assert!(s.restore(id, 1).is_err());
    }

    #[test]
    fn a_failed_pass_leaves_the_row_unusable_until_it_starts_over() {
        let mut s = states();
        let first = batch(&[(0, 0, 2)]);
        s.begin(&first).unwrap();
        s.finish(&first);
        {
            let (mut conv, mut ssm) = s.layer(0, &[0]).unwrap();
            conv[0][0] = 1.0;
            ssm[0][0] = 1.0;
        }
        s.begin(&batch(&[(0, 2, 1)])).unwrap(); // ...and no finish: the pass failed.
        assert!(s.begin(&batch(&[(0, 3, 1)])).is_err());
        s.begin(&batch(&[(0, 0, 1)])).unwrap();
        let (conv, ssm) = s.layer(0, &[0]).unwrap();
        assert!(conv[0].iter().chain(ssm[0].iter()).all(|&x| x == 0.0));
    }
}
